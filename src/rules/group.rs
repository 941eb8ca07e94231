//! One problem, one diagnostic: the findings of one problem are folded into one, the
//! others becoming its `related` findings and its labels.
//!
//! A problem is what one edit mends:
//! - the conflicting accesses of an array that one verified layout fix mends (the same
//!   shared fix table): into the array's `layout-conflict` when it is reported, else into
//!   the worst of them;
//! - without a fix, the accesses of one array on one line reported by one rule (the load
//!   and the store of `s[i] += x`, and `s[i] += s[i + d]`; an access in a helper counts
//!   on its line in the helper, so every call that reaches it is one problem), and the
//!   accesses of one array and function whose lane patterns differ only by a shift by
//!   whole banks (`s[2 * t]`, `s[2 * t + 1]`: the same conflict, renamed): into the worst
//!   of them.
//!
//! An access keeps its own diagnostic when its fix differs from the array's, or when it
//! is more severe than the finding it would join (so no configured severity, and no exit
//! status, changes). Run after suppressions and severities: a suppressed or disabled
//! finding is never folded, and a suppression keeps silencing exactly what it silenced.

use crate::diag::{Diagnostic, Label, Span};
use std::collections::HashMap;

/// What makes findings one problem.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Problem {
    /// The accesses one verified fix mends: the address of the fix's shared table.
    Fix(usize),
    /// Without a fix: one array's accesses on one line of source, by one rule (an access
    /// in a helper is on its line in the helper, whichever call reaches it).
    Line {
        rule: &'static str,
        array: String,
        pointer: Option<String>,
        line: usize,
    },
    /// Without a fix: one array's accesses with one lane pattern up to a shift by whole
    /// banks (`Diagnostic::pattern`), by one rule and with one factor.
    Pattern {
        rule: &'static str,
        array: String,
        pattern: u64,
        wavefronts: Option<u64>,
    },
}

/// Folds the findings of each problem into one (see the module's documentation); the
/// order of the remaining findings is kept.
pub fn fold(text: &str, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if diagnostics.len() < 2 {
        return diagnostics;
    }
    let line_starts = crate::diag::line_starts(text);
    let line_of = |at: usize| crate::diag::line_of(&line_starts, at);
    let keys: Vec<Vec<Problem>> = diagnostics.iter().map(|d| problems(d, &line_of)).collect();
    // Findings that share a problem are one group, transitively (a union-find).
    let mut parent: Vec<usize> = (0..diagnostics.len()).collect();
    let mut first: HashMap<&Problem, usize> = HashMap::new();
    for (i, ks) in keys.iter().enumerate() {
        for key in ks {
            match first.get(key) {
                Some(&j) => {
                    let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                    parent[a.max(b)] = a.min(b);
                }
                None => {
                    first.insert(key, i);
                }
            }
        }
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut order: Vec<usize> = Vec::new();
    for (i, ks) in keys.iter().enumerate() {
        if ks.is_empty() {
            continue;
        }
        let r = root(&mut parent, i);
        let group = groups.entry(r).or_default();
        if group.is_empty() {
            order.push(r);
        }
        group.push(i);
    }
    // Which finding each folded one joins.
    let mut joins: Vec<Option<usize>> = vec![None; diagnostics.len()];
    for key in order {
        let group = &groups[&key];
        if group.len() < 2 {
            continue;
        }
        let array = group
            .iter()
            .copied()
            .find(|&i| diagnostics[i].rule == super::layout_conflict::META.id);
        let host = array.unwrap_or_else(|| worst(&diagnostics, group));
        for &i in group {
            if i != host
                && is_access_finding(&diagnostics[i])
                && diagnostics[i].severity <= diagnostics[host].severity
            {
                joins[i] = Some(host);
            }
        }
    }
    if joins.iter().all(Option::is_none) {
        return diagnostics;
    }
    // Each host's `related` is allocated at its size: a vector's first growth holds
    // four findings, which for a big file's many two-access problems doubled the memory
    // of its findings.
    let mut joining = vec![0usize; diagnostics.len()];
    for (i, host) in joins.iter().enumerate() {
        if let Some(host) = *host {
            joining[host] += 1 + diagnostics[i].related.len();
        }
    }
    let mut slots: Vec<Option<Diagnostic>> = diagnostics.into_iter().map(Some).collect();
    for (i, host) in joins.iter().enumerate() {
        let Some(host) = *host else { continue };
        let Some(mut member) = slots[i].take() else {
            continue;
        };
        let inner = std::mem::take(&mut member.related);
        if let Some(h) = slots[host].as_mut() {
            h.related.reserve_exact(std::mem::take(&mut joining[host]));
            h.related.push(member);
            h.related.extend(inner);
        }
    }
    // In place: the findings are not copied into a second vector.
    slots.retain(Option::is_some);
    let mut out: Vec<Diagnostic> = slots.into_iter().map(Option::unwrap).collect();
    for d in out.iter_mut().filter(|d| !d.related.is_empty()) {
        d.related.sort_by_key(|r| {
            (
                r.span.start,
                r.span.end,
                r.access.as_deref().map(|a| a.kind),
            )
        });
        label_related(d, &line_starts);
    }
    out
}

/// The representative of `i`'s group in a union-find forest.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// A conflict finding of one access (not `undecided-access`, whose problem is another).
fn is_access_finding(d: &Diagnostic) -> bool {
    d.access.is_some()
        && super::registry::rule(d.rule).is_some_and(|r| matches!(r.group, "conflict" | "possible"))
}

/// The problems a finding belongs to (none when it shares none).
fn problems(d: &Diagnostic, line_of: &dyn Fn(usize) -> usize) -> Vec<Problem> {
    let table = d
        .suggestion
        .as_ref()
        .and_then(|s| s.table.as_ref())
        .map(|t| std::sync::Arc::as_ptr(t) as usize);
    if d.rule == super::layout_conflict::META.id {
        return table.map(Problem::Fix).into_iter().collect();
    }
    if !is_access_finding(d) {
        return Vec::new();
    }
    if let Some(table) = table {
        return vec![Problem::Fix(table)];
    }
    let Some(a) = d.access.as_deref() else {
        return Vec::new();
    };
    let mut out = vec![Problem::Line {
        rule: d.rule,
        array: a.array.clone(),
        pointer: a.pointer.clone(),
        line: line_of(a.helper_span.unwrap_or(d.span).start),
    }];
    if let Some(pattern) = d.pattern {
        out.push(Problem::Pattern {
            rule: d.rule,
            array: a.array.clone(),
            pattern,
            wavefronts: a.wavefronts,
        });
    }
    out
}

/// The finding that stands for a group of access findings: the most severe, then the
/// most costly, then the first.
fn worst(diagnostics: &[Diagnostic], group: &[usize]) -> usize {
    let cost = |i: usize| {
        let d = &diagnostics[i];
        let a = d.access.as_deref();
        (
            d.severity,
            a.and_then(crate::diag::AccessFacts::excess_wavefronts),
            a.and_then(|a| a.conflict_factor).unwrap_or(0.0),
        )
    };
    let mut best = group[0];
    for &i in &group[1..] {
        let (s, e, f) = cost(i);
        let (bs, be, bf) = cost(best);
        if (s, e).cmp(&(bs, be)).then(f.total_cmp(&bf)).is_gt() {
            best = i;
        }
    }
    best
}

/// Labels `d`'s related findings: one label per related access (the load and the store of
/// one expression share it), replacing the labels `d` had inside that access, plus their
/// own labels (the access inside a helper); the message says `load and store` when the
/// related findings include another kind of access at `d`'s own span.
fn label_related(d: &mut Diagnostic, line_starts: &[usize]) {
    let primary = d.span;
    let mut spans: Vec<Span> = d
        .related
        .iter()
        .map(|r| r.span)
        .filter(|s| *s != primary)
        .collect();
    spans.dedup();
    d.labels.retain(|l| {
        !spans
            .iter()
            .any(|s| s.start <= l.span.start && l.span.end <= s.end)
    });
    for span in &spans {
        let at: Vec<&Diagnostic> = d.related.iter().filter(|r| r.span == *span).collect();
        d.labels.push(Label {
            span: *span,
            message: related_label(&at, d.rule),
        });
    }
    let own: Vec<Label> = d
        .related
        .iter()
        .flat_map(|r| r.labels.iter())
        .filter(|l| l.span != primary)
        .cloned()
        .collect();
    for l in own {
        if !d.labels.iter().any(|m| m.span == l.span) {
            d.labels.push(l);
        }
    }
    d.labels.sort_by_key(|l| (l.span.start, l.span.end));
    // A finding of a whole array says why its worst access conflicts.
    if d.access.is_none() {
        let line_starts = &line_starts;
        if let Some(worst) = d
            .related
            .iter()
            .filter(|r| r.access.as_deref().is_some_and(|a| a.explanation.is_some()))
            .max_by(|a, b| {
                cost(a)
                    .total_cmp(&cost(b))
                    .then(b.span.start.cmp(&a.span.start))
            })
        {
            if let Some(e) = worst.access.as_deref().and_then(|a| a.explanation.as_ref()) {
                let line = crate::diag::line_of(line_starts, worst.span.start);
                d.notes.push(format!("worst at line {line}: {e}"));
            }
        }
    }
    // The load and the store of one expression: one finding, said so.
    if let Some(a) = &d.access {
        let kinds: Vec<crate::diag::AccessKind> = d
            .with_related()
            .filter(|r| r.span == primary)
            .filter_map(|r| r.access.as_deref().map(|a| a.kind))
            .collect();
        let one = super::conflict::kind_phrase(&[a.kind]);
        let all = super::conflict::kind_phrase(&kinds);
        if one != all {
            d.message = d
                .message
                .replacen(&format!(" on {one} "), &format!(" on {all} "), 1);
        }
    }
}

/// Excess wavefronts, then the factor, as one number for ordering.
fn cost(d: &Diagnostic) -> f64 {
    d.access.as_deref().map_or(0.0, |a| {
        a.excess_wavefronts().unwrap_or(0) as f64 * 1e6 + a.conflict_factor.unwrap_or(0.0)
    })
}

/// The label of the related findings at one span: `store of `tile`: factor 2, 2
/// wavefronts where 1 would do`, with the rule when it is not the host's.
fn related_label(at: &[&Diagnostic], host_rule: &str) -> String {
    let mut kinds: Vec<&str> = at
        .iter()
        .filter_map(|r| r.access.as_deref().map(|a| a.kind.as_str()))
        .collect();
    kinds.dedup();
    let worst = at
        .iter()
        .filter_map(|r| r.access.as_deref())
        .max_by(|a, b| {
            a.conflict_factor
                .unwrap_or(0.0)
                .total_cmp(&b.conflict_factor.unwrap_or(0.0))
        });
    let mut label = match worst {
        Some(a) => {
            let what = match &a.pointer {
                Some(p) => format!("{} of `{}` (through `{p}`)", kinds.join(" and "), a.array),
                None => format!("{} of `{}`", kinds.join(" and "), a.array),
            };
            match (a.conflict_factor, a.wavefronts, a.ideal_wavefronts) {
                (Some(f), Some(w), Some(i)) => format!(
                    "{what}: {}factor {}, {w} wavefronts where {i} would do",
                    if a.factor_is_lower_bound {
                        "at least "
                    } else {
                        ""
                    },
                    super::conflict::factor_words(f).trim_end_matches("-way")
                ),
                _ => what,
            }
        }
        None => String::from("the same problem"),
    };
    // A conflict that hinges on run-time values, in a finding of definite ones, says so.
    let possible = super::possible_conflict::META.id;
    if host_rule != possible && at.iter().any(|r| r.rule == possible) {
        label.push_str(" (possible: it depends on run-time values)");
    }
    label
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{AccessFacts, AccessKind, Severity, Status};

    fn finding(text: &str, needle: &str, kind: AccessKind, factor: f64) -> Diagnostic {
        let at = text.find(needle).unwrap();
        let span = Span::new(at, at + needle.len());
        let mut d = Diagnostic::new(
            "bank-conflict",
            Severity::Warning,
            span,
            format!(
                "{factor}-way bank conflict on {} `s` (8 wavefronts, ideal 1)",
                super::super::conflict::kind_phrase(&[kind])
            ),
        );
        d.access = Some(Box::new(AccessFacts {
            span,
            helper_span: None,
            helper_elsewhere: None,
            array: "s".into(),
            pointer: None,
            kind,
            element_bytes: 4,
            status: Status::Conflict,
            conflict_factor: Some(factor),
            wavefronts: Some(factor as u64),
            ideal_wavefronts: Some(1),
            reason: None,
            assumptions: Vec::new(),
            depends_on: Vec::new(),
            method: None,
            exact: true,
            factor_is_lower_bound: false,
            condition: None,
            explanation: None,
            function: None,
        }));
        d
    }

    /// `s[i] += s[i + d]`: three accesses, one problem, the worst first; another line
    /// and a more severe finding stay apart.
    #[test]
    fn one_line_of_one_array_is_one_problem() {
        let text = "s[i] += s[i + d];\ns[j] = 0;\n";
        let mut error = finding(text, "s[j]", AccessKind::Store, 2.0);
        error.severity = Severity::Error;
        let folded = fold(
            text,
            vec![
                finding(text, "s[i]", AccessKind::Load, 8.0),
                finding(text, "s[i]", AccessKind::Store, 8.0),
                finding(text, "s[i + d]", AccessKind::Load, 8.0),
                error,
            ],
        );
        assert_eq!(folded.len(), 2);
        let d = &folded[0];
        assert_eq!(d.related.len(), 2);
        assert!(
            d.message
                .starts_with("8-way bank conflict on load and store of `s`"),
            "{}",
            d.message
        );
        assert_eq!(
            d.labels
                .iter()
                .map(|l| l.message.as_str())
                .collect::<Vec<_>>(),
            vec!["load of `s`: factor 8, 8 wavefronts where 1 would do"]
        );
        assert_eq!(folded[1].severity, Severity::Error);
        assert!(folded[1].related.is_empty());
    }

    /// Accesses with one lane pattern and factor are one problem, on any line; another
    /// pattern, or another factor, is another problem.
    #[test]
    fn one_pattern_is_one_problem() {
        let text = "s[2*t] = 0;\ns[2*t+1] = 0;\ns[4*t] = 0;\ns[2*t+2] = 0;\n";
        let with = |needle: &str, pattern: u64, factor: f64| {
            let mut d = finding(text, needle, AccessKind::Store, factor);
            d.pattern = Some(pattern);
            d
        };
        let folded = fold(
            text,
            vec![
                with("s[2*t]", 7, 2.0),
                with("s[2*t+1]", 7, 2.0),
                with("s[4*t]", 8, 4.0),
                with("s[2*t+2]", 7, 4.0),
            ],
        );
        assert_eq!(folded.len(), 3);
        assert_eq!(folded[0].related.len(), 1);
        assert_eq!(folded[0].labels.len(), 1);
    }

    /// Findings that share a fix join the array's finding, unless more severe.
    #[test]
    fn a_shared_fix_is_one_problem() {
        let text = "__shared__ float s[32][32];\ns[t][0] = 1;\nx = s[0][t];\n";
        let mut fix = crate::diag::Suggestion {
            kind: crate::diag::FixKind::Padding,
            message: "pad".into(),
            replacement: "s[32][33]".into(),
            cute: None,
            classic: None,
            after: Vec::new(),
            lower_bound_wavefronts: None,
            memory_cost_bytes: None,
            applicability: crate::diag::Applicability::Safe,
            edits: Vec::new(),
            table: None,
        };
        fix.share();
        let mut array = Diagnostic::new(
            "layout-conflict",
            Severity::Warning,
            Span::new(0, 26),
            "accesses of `s` conflict".into(),
        );
        array.suggestion = Some(fix.clone());
        let mut store = finding(text, "s[t][0]", AccessKind::Store, 32.0);
        store.suggestion = Some(fix.for_access(2, None));
        let mut load = finding(text, "s[0][t]", AccessKind::Load, 2.0);
        load.suggestion = Some(fix.for_access(3, None));
        load.severity = Severity::Error;
        let folded = fold(text, vec![array, store, load]);
        assert_eq!(
            folded.iter().map(|d| d.rule).collect::<Vec<_>>(),
            vec!["layout-conflict", "bank-conflict"]
        );
        assert_eq!(folded[0].related.len(), 1);
        assert_eq!(
            folded[0].worst_access().map(|a| a.kind),
            Some(AccessKind::Store)
        );
        assert_eq!(folded[1].severity, Severity::Error);
    }
}
