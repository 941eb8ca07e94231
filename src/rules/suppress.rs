//! Suppression comments: `// bankcheck: ignore[rule-id] reason` silences a finding on
//! its own line or the line below, `ignore-next-line[rule-id]` on the line below only,
//! `// bankcheck: ignore-file[rule-id]` the whole file;
//! `/* */` comments work the same (CUDA and HLSL share the syntax). Several ids are
//! separated by commas and groups are allowed. A suppression that silences nothing, and
//! a comment that starts like one but is not (`bankcheck: ignore bank-conflict`,
//! `ignore[]`), is itself reported as `unused-suppression`. A retired rule id
//! (`stride-conflict`) suppresses what its rule reports, and is reported as
//! `retired-rule-id` with the new id as a safe fix. A comment at an access in a helper
//! covers every call that reports it, in this file or in another one (whose findings
//! carry the names, `HelperElsewhere::suppressions`).
//!
//! Works on a file's text and its diagnostics only: no I/O, no settings.

use crate::diag::{Diagnostic, Severity, Span};
use crate::rules::registry;

/// One suppression comment as written.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Suppression {
    /// Whole-file (`ignore-file`) or line-level (`ignore`, `ignore-next-line`).
    file_wide: bool,
    /// 0-based lines this comment covers (its own lines and the next one).
    first_line: usize,
    last_line: usize,
    /// Each name with its span in the file.
    names: Vec<(String, Span)>,
}

/// Removes the diagnostics that a suppression comment silences and reports the
/// suppressions that silence nothing. Every rule is taken to be enabled.
pub fn apply(text: &str, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    apply_enabled(text, diagnostics, &|_| true)
}

/// As [`apply`], but a suppression of a rule for which `enabled` is false is not
/// reported as unused: turning a rule off must not make its suppressions noisy.
pub fn apply_enabled(
    text: &str,
    diagnostics: Vec<Diagnostic>,
    enabled: &dyn Fn(&str) -> bool,
) -> Vec<Diagnostic> {
    apply_with(text, diagnostics, enabled, &[])
}

/// As [`apply_enabled`], where `elsewhere` are accesses in this file's helpers that
/// another file reports, at its call (`FileReport::reported_elsewhere`): a suppression
/// covering one acts there (see [`at_line_of`]), so it is not reported as unused here,
/// whatever the rule's verdict in that file.
pub fn apply_with(
    text: &str,
    diagnostics: Vec<Diagnostic>,
    enabled: &dyn Fn(&str) -> bool,
    elsewhere: &[Span],
) -> Vec<Diagnostic> {
    // A lone CR ends a line (and a `//` comment) as LF does; same length, same spans.
    let text = crate::diag::lone_cr_as_lf(text);
    let text = text.as_ref();
    let (suppressions, malformed) = parse(text);
    let silenced_elsewhere = |d: &Diagnostic| {
        d.access
            .as_ref()
            .and_then(|a| a.helper_elsewhere.as_ref())
            .is_some_and(|h| {
                h.suppressions
                    .iter()
                    .any(|name| registry::expand(name).contains(&d.rule))
            })
    };
    if suppressions.is_empty() && malformed.is_empty() {
        let mut diagnostics = diagnostics;
        diagnostics.retain(|d| !silenced_elsewhere(d));
        return diagnostics;
    }
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |offset: usize| {
        line_starts
            .partition_point(|&start| start <= offset)
            .saturating_sub(1)
    };
    let mut used: Vec<Vec<bool>> = suppressions
        .iter()
        .map(|s| vec![false; s.names.len()])
        .collect();
    for span in elsewhere {
        let line = line_of(span.start);
        for (suppression, used) in suppressions.iter().zip(used.iter_mut()) {
            if !suppression.file_wide
                && (suppression.first_line..=suppression.last_line).contains(&line)
            {
                used.fill(true);
            }
        }
    }
    let mut kept = Vec::with_capacity(diagnostics.len());
    // A comment meant as a suppression that is not one suppresses nothing: said.
    for span in malformed {
        let mut d = unused(
            span,
            "malformed suppression comment: it suppresses nothing".to_string(),
        );
        d.help = Some(
            "write `bankcheck: ignore[rule-id]` (this line and the next), `bankcheck: ignore-next-line[rule-id]` or `bankcheck: ignore-file[rule-id]`, ids separated by commas".into(),
        );
        kept.push(d);
    }
    for diagnostic in diagnostics {
        let line = line_of(diagnostic.span.start);
        // An access in a helper is reported at each call; a suppression at the access
        // itself, in the helper, covers every call.
        let helper_line = diagnostic
            .access
            .as_ref()
            .and_then(|a| a.helper_span)
            .map(|s| line_of(s.start));
        // A suppression at the access in another file's helper (read there, see
        // `at_line_of`) covers this call too.
        let mut silenced = silenced_elsewhere(&diagnostic);
        for (suppression, used) in suppressions.iter().zip(used.iter_mut()) {
            let covers = |l: usize| (suppression.first_line..=suppression.last_line).contains(&l);
            if !suppression.file_wide && !covers(line) && !helper_line.is_some_and(covers) {
                continue;
            }
            for ((name, _), used) in suppression.names.iter().zip(used.iter_mut()) {
                if registry::expand(name).contains(&diagnostic.rule) {
                    *used = true;
                    silenced = true;
                }
            }
        }
        if !silenced {
            kept.push(diagnostic);
        }
    }
    for (suppression, used) in suppressions.iter().zip(&used) {
        for ((name, span), used) in suppression.names.iter().zip(used) {
            if let Some(rule) = registry::renamed(name) {
                kept.push(retired(*span, name, rule.id));
            }
            let ids = registry::expand(name);
            if ids.is_empty() {
                let help =
                    crate::config::error::did_you_mean(name, registry::metas().map(|r| r.id))
                        .map(|close| format!("did you mean `{close}`?"));
                let mut d = unused(*span, format!("suppression names unknown rule `{name}`"));
                d.help = Some(
                    help.unwrap_or_else(|| "`bankcheck rules` lists the rule ids".to_string())
                        .into(),
                );
                kept.push(d);
            } else if !used && ids.iter().any(|id| enabled(id)) {
                let mut d = unused(*span, format!("unused suppression of `{name}`"));
                let scope = if suppression.file_wide {
                    "in this file"
                } else {
                    "on this line or the next"
                };
                d.notes.push(format!("`{name}` reports nothing {scope}"));
                d.help = Some("remove it".into());
                kept.push(d);
            }
        }
    }
    kept.sort_by(|a, b| {
        (a.span.start, a.rule, a.span.end).cmp(&(b.span.start, b.rule, b.span.end))
    });
    kept
}

/// The `retired-rule-id` finding of a suppression that names `rule` by its retired id
/// `name`, with the rename as a safe fix.
/// The rule names of the line-level suppression comments of `text` that cover the line
/// of byte `offset` (an access in a helper, which another file reports at its call).
pub fn at_line_of(text: &str, offset: usize) -> Vec<String> {
    let text = crate::diag::lone_cr_as_lf(text);
    let (suppressions, _) = parse(&text);
    let line = text
        .get(..offset.min(text.len()))
        .map_or(0, |before| before.matches('\n').count());
    suppressions
        .iter()
        .filter(|s| !s.file_wide && (s.first_line..=s.last_line).contains(&line))
        .flat_map(|s| s.names.iter().map(|(n, _)| n.clone()))
        .collect()
}

fn retired(span: Span, name: &str, rule: &str) -> Diagnostic {
    let meta = &crate::rules::retired_rule_id::META;
    let mut d = Diagnostic::new(
        meta.id,
        meta.default_severity,
        span,
        format!("`{name}` is a retired rule id: it is `{rule}` now"),
    );
    d.notes.push(format!(
        "the suppression works: `{name}` stands for `{rule}`"
    ));
    let message: std::sync::Arc<str> = format!("write `{rule}`").into();
    d.help = Some(message.clone());
    d.suggestion = Some(crate::diag::Suggestion {
        kind: crate::diag::FixKind::Rename,
        message,
        replacement: rule.to_string(),
        cute: None,
        classic: None,
        after: Vec::new(),
        lower_bound_wavefronts: None,
        memory_cost_bytes: None,
        applicability: crate::diag::Applicability::Safe,
        edits: vec![crate::diag::Edit {
            span,
            text: rule.to_string(),
        }],
        table: None,
    });
    d
}

fn unused(span: Span, message: String) -> Diagnostic {
    let severity =
        registry::rule("unused-suppression").map_or(Severity::Warning, |r| r.default_severity);
    Diagnostic::new("unused-suppression", severity, span, message)
}

/// Finds the suppression comments in `text`, skipping string and character literals;
/// also the spans of comments that start like one (`bankcheck: ignore`) but are not
/// (no brackets, no rule id, no closing bracket).
fn parse(text: &str) -> (Vec<Suppression>, Vec<Span>) {
    let mut found = Vec::new();
    let mut malformed = Vec::new();
    for (start, end) in comments(text) {
        let body = &text[start..end];
        let Some(at) = body.find("bankcheck:") else {
            continue;
        };
        let prefix = body[..at].trim_start_matches(['/', '*']).trim();
        if !prefix.is_empty() {
            continue;
        }
        let after = at + "bankcheck:".len();
        let rest = body[after..].trim_start();
        let rest_at = start + after + (body[after..].len() - rest.len());
        let (file_wide, next_only, keyword) = if rest.starts_with("ignore-file[") {
            (true, false, "ignore-file[")
        } else if rest.starts_with("ignore-next-line[") {
            (false, true, "ignore-next-line[")
        } else if rest.starts_with("ignore[") {
            (false, false, "ignore[")
        } else {
            if rest.starts_with("ignore") {
                malformed.push(Span::new(start, end));
            }
            continue;
        };
        let list_start = rest_at + keyword.len();
        let Some(close) = text[list_start..end].find(']') else {
            malformed.push(Span::new(start, end));
            continue;
        };
        let mut names = Vec::new();
        let mut offset = list_start;
        for part in text[list_start..list_start + close].split(',') {
            let trimmed = part.trim();
            let lead = part.len() - part.trim_start().len();
            if !trimmed.is_empty() {
                names.push((
                    trimmed.to_string(),
                    Span::new(offset + lead, offset + lead + trimmed.len()),
                ));
            }
            offset += part.len() + 1;
        }
        if names.is_empty() {
            malformed.push(Span::new(start, end));
            continue;
        }
        let own_line = text[..start].matches('\n').count();
        let last_line = own_line + text[start..end].matches('\n').count() + 1;
        let first_line = if next_only { last_line } else { own_line };
        found.push(Suppression {
            file_wide,
            first_line,
            last_line,
            names,
        });
    }
    (found, malformed)
}

/// Byte ranges of every `//` and `/* */` comment, outside string and char literals.
fn comments(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => {
                let quote = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
                out.push((i, end));
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(text.len(), |n| i + 2 + n + 2);
                out.push((i, end));
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(text: &str, needle: &str, rule: &'static str) -> Diagnostic {
        let at = text.find(needle).unwrap();
        Diagnostic::new(
            rule,
            Severity::Warning,
            Span::new(at, at + needle.len()),
            "conflict".into(),
        )
    }

    fn rules_of(diagnostics: &[Diagnostic]) -> Vec<(&str, String)> {
        diagnostics
            .iter()
            .map(|d| (d.rule, d.message.clone()))
            .collect()
    }

    /// `ignore-next-line` covers the next line only; a comment that looks like a
    /// suppression but is not one is reported, never taken silently.
    #[test]
    fn next_line_only_and_malformed_comments() {
        let text = "a = s[t*32]; // bankcheck: ignore-next-line[bank-conflict]\nb = s[t*2];\n// bankcheck: ignore bank-conflict\nc = s[t*4];\n// bankcheck: ignore[]\n/* bankcheck: ignore[bank-conflict */\n";
        let diagnostics = vec![
            finding(text, "s[t*32]", "bank-conflict"),
            finding(text, "s[t*2]", "bank-conflict"),
            finding(text, "s[t*4]", "bank-conflict"),
        ];
        let kept = apply(text, diagnostics);
        let conflicts: Vec<usize> = kept
            .iter()
            .filter(|d| d.rule == "bank-conflict")
            .map(|d| d.span.start)
            .collect();
        assert_eq!(
            conflicts,
            vec![text.find("s[t*32]").unwrap(), text.find("s[t*4]").unwrap()]
        );
        let malformed = kept
            .iter()
            .filter(|d| d.rule == "unused-suppression" && d.message.starts_with("malformed"))
            .count();
        assert_eq!(malformed, 3, "{:?}", rules_of(&kept));
    }

    #[test]
    fn same_line_and_line_above_silence() {
        let text = "a = s[t*32]; // bankcheck: ignore[bank-conflict] known\n// bankcheck: ignore[bank-conflict]\nb = s[t*2];\nc = s[t*4];\n";
        let diagnostics = vec![
            finding(text, "s[t*32]", "bank-conflict"),
            finding(text, "s[t*2]", "bank-conflict"),
            finding(text, "s[t*4]", "bank-conflict"),
        ];
        let kept = apply(text, diagnostics);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].span.start, text.find("s[t*4]").unwrap());
    }

    #[test]
    fn block_comments_several_ids_and_groups() {
        let text = "x = s[t*32]; /* bankcheck: ignore[bank-conflict, conflict] */\n";
        let kept = apply(text, vec![finding(text, "s[t*32]", "layout-conflict")]);
        assert_eq!(
            rules_of(&kept),
            vec![(
                "unused-suppression",
                "unused suppression of `bank-conflict`".to_string()
            )]
        );
        let at = text.find("bank-conflict").unwrap();
        assert_eq!(kept[0].span, Span::new(at, at + "bank-conflict".len()));
    }

    #[test]
    fn file_wide_silences_everywhere() {
        let text = "// bankcheck: ignore-file[bank-conflict]\n\n\nx = s[t*32];\n";
        assert!(apply(text, vec![finding(text, "s[t*32]", "bank-conflict")]).is_empty());
        assert_eq!(apply(text, Vec::new()).len(), 1);
    }

    #[test]
    fn unknown_ids_and_strings_and_other_rules() {
        let text = "x = s[t]; // bankcheck: ignore[bank-conflcit]\nputs(\"// bankcheck: ignore[bank-conflict]\");\n";
        let kept = apply(text, Vec::new());
        assert_eq!(kept.len(), 1);
        assert_eq!(
            kept[0].message,
            "suppression names unknown rule `bank-conflcit`"
        );
        assert_eq!(
            kept[0].help.as_deref(),
            Some("did you mean `bank-conflict`?")
        );
        let far = "// bankcheck: ignore[bank-conflict]\n\nx = s[t*32];\n";
        let kept = apply(far, vec![finding(far, "s[t*32]", "bank-conflict")]);
        assert_eq!(
            kept.iter().map(|d| d.rule).collect::<Vec<_>>(),
            vec!["unused-suppression", "bank-conflict"]
        );
    }

    /// A retired id suppresses what its rule reports, and says the new id with a fix.
    #[test]
    fn retired_ids_suppress_and_name_the_new_id() {
        let text = "x = s[t*32]; // bankcheck: ignore[stride-conflict]\n";
        let kept = apply(text, vec![finding(text, "s[t*32]", "bank-conflict")]);
        assert_eq!(
            rules_of(&kept),
            vec![(
                "retired-rule-id",
                "`stride-conflict` is a retired rule id: it is `bank-conflict` now".to_string()
            )]
        );
        let fix = kept[0].suggestion.as_ref().expect("a rename");
        assert_eq!(fix.edits.len(), 1);
        let at = text.find("stride-conflict").unwrap();
        assert_eq!(
            fix.edits[0].span,
            Span::new(at, at + "stride-conflict".len())
        );
        assert_eq!(fix.edits[0].text, "bank-conflict");
    }

    #[test]
    fn disabled_rules_do_not_make_suppressions_unused() {
        let text = "x = s[t]; // bankcheck: ignore[bank-conflict]\n";
        assert!(apply_enabled(text, Vec::new(), &|id| id != "bank-conflict").is_empty());
    }
}
