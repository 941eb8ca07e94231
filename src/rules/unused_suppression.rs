//! Rule `unused-suppression`: a suppression comment that suppresses nothing.
//!
//! The rule's page, `rules/unused-suppression.md`, is this module's documentation too:
#![doc = include_str!("../../rules/unused-suppression.md")]

use super::rule::RuleMeta;
use crate::diag::Severity;

pub const META: RuleMeta = RuleMeta {
    id: "unused-suppression",
    retired: &[],
    group: "hygiene",
    default_severity: Severity::Warning,
    default_enabled: true,
    summary: "a suppression comment that suppresses nothing",
    page: include_str!("../../rules/unused-suppression.md"),
};

/// The rule; its findings are made by the driver, not from a file's facts.
pub(crate) struct UnusedSuppression;

impl super::rule::Rule for UnusedSuppression {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }
}
