//! Rule `parse-error`: part of a file could not be parsed, so accesses in it may be missed.

use super::registry::RuleMeta;
use crate::diag::Severity;

pub const META: RuleMeta = RuleMeta {
    id: "parse-error",
    group: "input",
    default_severity: Severity::Warning,
    default_enabled: true,
    summary: "part of a file could not be parsed, so accesses in it may be missed",
    page: include_str!("../../rules/parse-error.md"),
};
