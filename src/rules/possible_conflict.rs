//! Rule `possible-conflict`: a shared-memory access conflicts for some run-time values it depends on.

use super::registry::RuleMeta;
use crate::diag::Severity;

pub const META: RuleMeta = RuleMeta {
    id: "possible-conflict",
    group: "possible",
    default_severity: Severity::Info,
    default_enabled: true,
    summary: "a shared-memory access conflicts for some run-time values it depends on",
    page: include_str!("../../rules/possible-conflict.md"),
};

/// Pushes a diagnostic when the access conflicts and this rule owns it.
pub(crate) fn check(
    a: &crate::analyse::AnalysedSite,
    facts: &crate::diag::AccessFacts,
    lowered: &crate::model::site::LoweredFile,
    settings: &crate::config::Settings,
    out: &mut Vec<crate::diag::Diagnostic>,
) {
    super::conflict::check(&META, a, facts, lowered, settings, out);
}
