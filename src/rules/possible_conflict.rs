//! Rule `possible-conflict`: a shared-memory access conflicts for some run-time values it depends on.
//!
//! The rule's page, `rules/possible-conflict.md`, is this module's documentation too:
#![doc = include_str!("../../rules/possible-conflict.md")]

use super::rule::RuleMeta;
use crate::diag::Severity;

pub const META: RuleMeta = RuleMeta {
    id: "possible-conflict",
    retired: &[],
    group: "possible",
    default_severity: Severity::Info,
    default_enabled: true,
    summary: "a shared-memory access conflicts for some run-time values it depends on",
    page: include_str!("../../rules/possible-conflict.md"),
};

/// The rule: the conflict rules share one check, which gives each conflicting access to
/// exactly one of them (`conflict::owner`).
pub(crate) const RULE: super::conflict::ConflictRule = super::conflict::ConflictRule {
    meta: &META,
    owns: super::conflict::Owner::Possible,
};
