//! Rule `parse-error`: part of a file could not be parsed, so accesses in it may be missed.

use super::registry::RuleMeta;
use crate::diag::Severity;

pub const META: RuleMeta = RuleMeta {
    id: "parse-error",
    group: "input",
    default_severity: Severity::Warning,
    default_enabled: true,
    summary: "part of a file could not be parsed, so accesses in it may be missed",
    page: include_str!("../../rules/parse-error.md"),
};

/// A diagnostic for one region the parser could not read.
pub(crate) fn check(
    span: crate::diag::Span,
    text: &str,
    settings: &crate::config::Settings,
) -> Option<crate::diag::Diagnostic> {
    let severity = settings.severity_of(META.id, META.default_severity)?;
    let snippet: String = text
        .get(span.start..span.end)
        .unwrap_or("")
        .chars()
        .take(40)
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let end = if span.end == span.start {
        (span.start + 1).min(text.len())
    } else {
        span.end
    };
    let mut d = crate::diag::Diagnostic::new(
        META.id,
        severity,
        crate::diag::Span::new(span.start, end),
        "this region could not be parsed; accesses in it are not checked".to_string(),
    );
    if !snippet.is_empty() {
        d.notes
            .push(format!("unparsed text starts with `{snippet}`"));
    }
    Some(d)
}
