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
