//! Rule `bank-conflict`: a shared-memory access serialises the warp into several wavefronts.
//!
//! The rule's page, `rules/bank-conflict.md`, is this module's documentation too:
#![doc = include_str!("../../rules/bank-conflict.md")]

use super::rule::RuleMeta;
use crate::diag::Severity;

pub const META: RuleMeta = RuleMeta {
    id: "bank-conflict",
    retired: &["stride-conflict"],
    group: "conflict",
    default_severity: Severity::Warning,
    default_enabled: true,
    summary: "a shared-memory access serialises the warp into several wavefronts",
    page: include_str!("../../rules/bank-conflict.md"),
};

/// The rule: the conflict rules share one check, which gives each conflicting access to
/// exactly one of them (`conflict::owner`): this one every definite conflict, whichever
/// analysis decided it (the constant-stride formula's were `stride-conflict`, retired).
pub(crate) const RULE: super::conflict::ConflictRule = super::conflict::ConflictRule {
    meta: &META,
    owns: super::conflict::Owner::Bank,
};
