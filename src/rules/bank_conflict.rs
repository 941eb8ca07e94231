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
