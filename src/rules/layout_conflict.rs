//! Rule `layout-conflict`: a shared array's accesses cannot all be conflict-free with its current layout.

use super::registry::RuleMeta;
use crate::diag::Severity;

pub const META: RuleMeta = RuleMeta {
    id: "layout-conflict",
    group: "conflict",
    default_severity: Severity::Warning,
    default_enabled: true,
    summary: "a shared array's accesses cannot all be conflict-free with its current layout",
    page: include_str!("../../rules/layout-conflict.md"),
};
