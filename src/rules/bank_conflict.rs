//! Rule `bank-conflict`: a shared-memory access serialises the warp into several wavefronts.

use super::registry::RuleMeta;
use crate::diag::Severity;

pub const META: RuleMeta = RuleMeta {
    id: "bank-conflict",
    group: "conflict",
    default_severity: Severity::Warning,
    default_enabled: true,
    summary: "a shared-memory access serialises the warp into several wavefronts",
    page: include_str!("../../rules/bank-conflict.md"),
};

/// Pushes a diagnostic when the access conflicts and this rule owns it.
pub(crate) fn check(
    a: &crate::analyse::AnalysedSite,
    facts: &crate::diag::AccessFacts,
    lowered: &crate::lower::site::LoweredFile,
    settings: &crate::config::Settings,
    out: &mut Vec<crate::diag::Diagnostic>,
) {
    if super::conflict::owner(a, facts) != Some(META.id)
        || !super::conflict::reportable(facts, settings)
    {
        return;
    }
    let Some(severity) = settings.severity_of(META.id, META.default_severity) else {
        return;
    };
    out.push(super::conflict::diagnostic(
        META.id, severity, a, facts, lowered,
    ));
}
