//! Rule `stride-conflict`: lanes step through shared memory with a stride that shares a factor with the bank count.

use super::registry::RuleMeta;
use crate::diag::Severity;

pub const META: RuleMeta = RuleMeta {
    id: "stride-conflict",
    group: "conflict",
    default_severity: Severity::Warning,
    default_enabled: true,
    summary:
        "lanes step through shared memory with a stride that shares a factor with the bank count",
    page: include_str!("../../rules/stride-conflict.md"),
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
