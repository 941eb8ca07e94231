//! Rule `undecided-access`: bankcheck could not decide the conflict factor of a shared-memory access.

use super::registry::RuleMeta;
use crate::diag::Severity;

pub const META: RuleMeta = RuleMeta {
    id: "undecided-access",
    group: "input",
    default_severity: Severity::Info,
    default_enabled: false,
    summary: "bankcheck could not decide the conflict factor of a shared-memory access",
    page: include_str!("../../rules/undecided-access.md"),
};

/// Pushes a diagnostic for an access whose verdict is unknown (off by default).
pub(crate) fn check(
    a: &crate::analyse::AnalysedSite,
    facts: &crate::diag::AccessFacts,
    settings: &crate::config::Settings,
    out: &mut Vec<crate::diag::Diagnostic>,
) {
    if facts.status != crate::diag::Status::Unknown {
        return;
    }
    let default = if META.default_enabled {
        Some(META.default_severity)
    } else {
        None
    };
    let Some(severity) = settings.severities.get(META.id).copied().unwrap_or(default) else {
        return;
    };
    let reason = facts
        .reason
        .clone()
        .unwrap_or_else(|| "no reason recorded".to_string());
    let mut d = crate::diag::Diagnostic::new(
        META.id,
        severity,
        a.site.span,
        format!(
            "conflict factor of this {} of `{}` is undecided",
            facts.kind.as_str(),
            facts.array
        ),
    );
    d.notes.push(reason);
    d.access = Some(facts.clone());
    out.push(d);
}
