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
    lowered: &crate::model::site::LoweredFile,
    settings: &crate::config::Settings,
    out: &mut Vec<crate::diag::Diagnostic>,
) {
    super::conflict::check(&META, a, facts, lowered, settings, out);
}
