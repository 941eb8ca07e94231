//! Shared wording and facts of the conflict rules (`bank-conflict`, `possible-conflict`):
//! deciding which rule owns a conflicting access, and the message.

use crate::analyse::AnalysedSite;
use crate::analyse::Method;
use crate::config::Settings;
use crate::diag::Label;
use crate::diag::{AccessFacts, Diagnostic, Severity, Status};
use crate::model::site::LoweredFile;

/// One of the conflict rules (`bank-conflict`, `possible-conflict`):
/// it reports each conflicting access it owns whose factor is large enough.
pub(crate) struct ConflictRule {
    pub meta: &'static super::rule::RuleMeta,
    /// The conflicting accesses it reports.
    pub owns: Owner,
}

/// Which of the conflict rules reports a conflicting access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Owner {
    /// A definite conflict (`bank-conflict`), whichever analysis found it: a rule id
    /// names what is wrong, never how it was found.
    Bank,
    /// A factor that hinges on run-time values or is only a bound (`possible-conflict`).
    Possible,
}

impl super::rule::Rule for ConflictRule {
    fn meta(&self) -> &'static super::rule::RuleMeta {
        self.meta
    }

    fn check(&self, file: &super::facts::FileFacts<'_>, out: &mut Vec<Diagnostic>) {
        let rule = self.meta;
        for (a, facts) in file.accesses() {
            if owner(facts) != Some(self.owns) || !reportable(facts, file.settings) {
                continue;
            }
            let mut d = diagnostic(rule.id, rule.default_severity, a, facts, file.lowered);
            d.pattern = pattern(a, file.settings.bank.bank_width);
            file.attach_layout(&mut d);
            let layout = file.layouts.at(d.span, &facts.array);
            if file.settings.bank_maps {
                d.bank_maps =
                    super::bank_map::bank_maps(a, layout, &file.settings.bank, &|n, v| {
                        worst_value(a, n, v)
                    })
                    .map(Box::new);
            }
            out.push(d);
        }
    }
}

/// The access's lane pattern up to a shift by whole banks, as a number: the addresses of
/// the first warp's lanes relative to its first lane (and which lanes take part), with
/// the loop counters and uniform values at two samples (each its own value, by name). Two accesses of one function
/// with the same pattern differ by a per-warp shift of whole banks, which only renames
/// the banks (`s[2 * t]`, `s[2 * t + 1]`): the same conflict, for the same cause.
fn pattern(a: &AnalysedSite, bank_width: u32) -> Option<u64> {
    use crate::model::ir::{Axis, VarKind};
    use std::hash::{Hash, Hasher};
    let components = a.site.lowered.as_ref().ok()?;
    let width = i64::from(bank_width.max(1));
    // The hasher of `new` has fixed keys: the same pattern gives the same number.
    let mut h = std::collections::hash_map::DefaultHasher::new();
    a.site.function.name.hash(&mut h);
    a.site.helper_span.is_some().hash(&mut h);
    for c in components {
        (c.width, c.atomic, c.block, c.warp_size).hash(&mut h);
        let (bx, by) = (i64::from(c.block.x.max(1)), i64::from(c.block.y.max(1)));
        let lanes = i64::from(c.warp_size.min(c.block.threads().min(64) as u32).max(1));
        // Each loop counter and uniform value gets its own sample value, from its name, so
        // that `t * d` and `t * n` do not look alike.
        let by_name = |name: &str, sample: i64| {
            let mut n = std::collections::hash_map::DefaultHasher::new();
            name.hash(&mut n);
            sample + (n.finish() % 29) as i64
        };
        for sample in [1i64, 40] {
            let mut first = None;
            for lane in 0..lanes {
                let values: Vec<i64> = c
                    .vars
                    .iter()
                    .map(|v| match v.kind {
                        VarKind::Thread(Axis::X) => lane % bx,
                        VarKind::Thread(Axis::Y) => (lane / bx) % by,
                        VarKind::Thread(Axis::Z) => lane / (bx * by),
                        _ => by_name(&v.name, sample),
                    })
                    .collect();
                let active = c
                    .guards
                    .iter()
                    .all(|g| g.eval(&values).is_some_and(|v| v != 0));
                let address = c.address.eval(&values)?;
                let base = *first.get_or_insert(address);
                (active, address.wrapping_sub(base)).hash(&mut h);
            }
            first.map(|f| f.rem_euclid(width)).hash(&mut h);
        }
    }
    Some(h.finish())
}

/// Which conflict rule owns a conflicting access.
pub(crate) fn owner(facts: &AccessFacts) -> Option<Owner> {
    if facts.status != Status::Conflict {
        return None;
    }
    // A factor that hinges on run-time values, or that is only a lower bound, is never
    // a definite conflict.
    if !facts.depends_on.is_empty() || facts.factor_is_lower_bound || !facts.exact {
        return Some(Owner::Possible);
    }
    Some(Owner::Bank)
}

/// `16-way`, `1.5-way`.
pub(crate) fn factor_words(f: f64) -> String {
    if (f - f.round()).abs() < 1e-9 {
        format!("{}-way", f.round() as i64)
    } else {
        let s = format!("{f:.3}");
        format!("{}-way", s.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// What the accesses do to the array, as the message says it: `load of`, `store to`,
/// `load and store of` (one expression's, `s[i] += x`).
pub(crate) fn kind_phrase(kinds: &[crate::diag::AccessKind]) -> String {
    use crate::diag::AccessKind;
    let mut kinds = kinds.to_vec();
    kinds.sort();
    kinds.dedup();
    match kinds.as_slice() {
        [AccessKind::Load] => "load of".to_string(),
        [AccessKind::Store] => "store to".to_string(),
        [AccessKind::Atomic] => "atomic on".to_string(),
        several => {
            let words: Vec<&str> = several.iter().map(|k| k.as_str()).collect();
            format!("{} of", words.join(" and "))
        }
    }
}

/// Builds the diagnostic of a conflicting access for rule `rule`.
pub(crate) fn diagnostic(
    rule: &'static str,
    severity: Severity,
    a: &AnalysedSite,
    facts: &AccessFacts,
    lowered: &LoweredFile,
) -> Diagnostic {
    let factor = facts.conflict_factor.unwrap_or(1.0);
    let target = match &facts.pointer {
        Some(p) => format!("`{}` (through `{p}`)", facts.array),
        None => format!("`{}`", facts.array),
    };
    let kind = kind_phrase(&[facts.kind]);
    let possible = if owner(facts) == Some(Owner::Possible) {
        "possible "
    } else {
        ""
    };
    let at_least = if facts.factor_is_lower_bound {
        "at least "
    } else {
        ""
    };
    let mut message = format!(
        "{possible}{at_least}{} bank conflict on {kind} {target} ({} wavefronts, ideal {})",
        factor_words(factor),
        facts.wavefronts.unwrap_or(0),
        facts.ideal_wavefronts.unwrap_or(0)
    );
    if let Some(c) = &facts.condition {
        message.push_str(": ");
        message.push_str(c);
    }
    // A verdict on a block shape nothing in the code fixes names it.
    if let Some(assumed) = a
        .site
        .assumptions
        .iter()
        .find_map(crate::model::assumption::Assumption::candidate_shape)
    {
        if !a.verdict.condition_names_shapes {
            message.push_str(" with the assumed ");
            message.push_str(&assumed.shape_words());
            if assumed.one_of_several() {
                message.push_str(" (the same for every candidate shape)");
            }
        }
    }
    let mut d = Diagnostic::new(rule, severity, a.site.span, message);
    if let Some(l) = in_helper(a) {
        d.labels.push(l);
    }
    if let Some(l) = declared_here(lowered, a.site.array) {
        d.labels.push(l);
    }
    d.notes.extend(in_helper_elsewhere(a, facts));
    if let Some(e) = &a.verdict.explanation {
        d.notes.push(e.clone());
    }
    d.notes.extend(facts.depends_note());
    // The values of the worst case, or its warp when no value matters.
    let worst: Vec<String> = if a.verdict.worst_case.is_empty() {
        (a.verdict.worst_warp != 0)
            .then(|| format!("warp = {}", a.verdict.worst_warp))
            .into_iter()
            .collect()
    } else {
        a.verdict
            .worst_case
            .iter()
            .map(|(n, v)| worst_value(a, n, *v))
            .collect()
    };
    // Only enumeration finds a particular worst case; the formulas hold for every warp.
    if !worst.is_empty() && facts.exact && a.verdict.method == Method::Enumeration {
        d.notes.push(format!("worst case at {}", worst.join(", ")));
    }
    if a.site.function.is_inlined() {
        d.notes.push(format!("in {}", a.site.function));
    }
    d.notes.push(format!(
        "decided by {}{}",
        method_words(a.verdict.method),
        if facts.exact {
            ""
        } else {
            " (sampled, not exhaustive)"
        }
    ));
    for s in &facts.assumptions {
        d.notes.push(s.clone());
    }
    if let Some(ctx) = &a.site.context {
        if !ctx.is_assumed_shape() {
            d.notes.push(format!("thread block: {ctx}"));
        }
    }
    if let Some(inst) = &a.site.instantiation {
        d.notes.push(format!("worst instantiation: {inst}"));
    }
    d.access = Some(Box::new(facts.clone()));
    d
}

/// One value of the worst case as users read it: a loop counter as its loop variable's
/// value in that iteration (`s = 4`, which tells the iteration), or the iteration in
/// words when that value is not a constant progression, else `name = value`.
fn worst_value(a: &AnalysedSite, name: &str, value: i64) -> String {
    let loop_value = a
        .site
        .lowered
        .iter()
        .flatten()
        .flat_map(|l| &l.vars)
        .find(|v| v.name == name)
        .and_then(|v| v.loop_value.as_ref());
    match loop_value.and_then(|l| Some((l, l.at(value)?))) {
        Some((l, at)) => format!("{} = {at}", l.variable),
        None => match name.strip_suffix(" (iteration)") {
            Some(variable) => format!("iteration {value} of the loop over `{variable}`"),
            None => format!("{name} = {value}"),
        },
    }
}

/// Whether the factor is large enough to report under the settings.
pub(crate) fn reportable(facts: &AccessFacts, settings: &Settings) -> bool {
    facts
        .conflict_factor
        .is_some_and(|f| f > 1.0 && f + 1e-9 >= settings.min_conflict_factor)
}

/// A label pointing at the array's declaration.
/// The access itself, in the helper, when the diagnostic points at the call that
/// supplies its address.
pub(crate) fn in_helper(a: &AnalysedSite) -> Option<Label> {
    // A helper of another file is not in this file's text: a note says where it is.
    let span = a
        .site
        .helper_span
        .filter(|_| a.site.helper_text.is_none())?;
    let helper = &a.site.function.name;
    Some(Label {
        span,
        message: format!("the access, in `{helper}`"),
    })
}

/// Where the access is, in a helper of another file, when the diagnostic points at the
/// call in this file that hands it this file's array.
pub(crate) fn in_helper_elsewhere(a: &AnalysedSite, facts: &AccessFacts) -> Option<String> {
    let h = facts.helper_elsewhere.as_ref()?;
    Some(format!(
        "the access is in `{}`, at {}",
        a.site.function.name,
        h.place()
    ))
}

fn declared_here(lowered: &LoweredFile, array: usize) -> Option<Label> {
    // Arrays declared in another file (reached through an includer) have no span here.
    lowered
        .arrays
        .get(array)
        .filter(|a| a.decl_span.end > a.decl_span.start)
        .map(|a| Label {
            span: a.decl_span,
            message: format!("`{}` declared here", a.name),
        })
}

fn method_words(m: Method) -> &'static str {
    match m {
        Method::Enumeration => "exact enumeration of the warp's lanes",
        Method::Stride => "the constant-stride formula",
        Method::F2 => "the F2 linear-layout count (Lemma 9.4)",
    }
}
