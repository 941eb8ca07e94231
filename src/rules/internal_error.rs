//! Rule `internal-error`: bankcheck failed while checking a file.
//!
//! The rule's page, `rules/internal-error.md`, is this module's documentation too:
#![doc = include_str!("../../rules/internal-error.md")]

use super::rule::RuleMeta;
use crate::diag::Severity;

pub const META: RuleMeta = RuleMeta {
    id: "internal-error",
    retired: &[],
    group: "input",
    default_severity: Severity::Error,
    default_enabled: true,
    summary: "bankcheck failed while checking a file",
    page: include_str!("../../rules/internal-error.md"),
};

/// The rule; its findings are made by the driver, not from a file's facts.
pub(crate) struct InternalError;

impl super::rule::Rule for InternalError {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }
}
