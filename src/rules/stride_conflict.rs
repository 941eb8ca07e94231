//! Rule `stride-conflict`: lanes step through shared memory with a stride that shares a factor with the bank count.
//!
//! The rule's page, `rules/stride-conflict.md`, is this module's documentation too:
#![doc = include_str!("../../rules/stride-conflict.md")]

use super::rule::RuleMeta;
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

/// The rule: the conflict rules share one check, which gives each conflicting access to
/// exactly one of them (`conflict::owner`).
pub(crate) const RULE: super::conflict::ConflictRule = super::conflict::ConflictRule {
    meta: &META,
    owns: super::conflict::Owner::Stride,
};
