//! Rule `retired-rule-id`: a suppression comment names a rule by a retired id.
//!
//! The rule's page, `rules/retired-rule-id.md`, is this module's documentation too:
#![doc = include_str!("../../rules/retired-rule-id.md")]

use super::rule::RuleMeta;
use crate::diag::Severity;

pub const META: RuleMeta = RuleMeta {
    id: "retired-rule-id",
    retired: &[],
    group: "hygiene",
    default_severity: Severity::Info,
    default_enabled: true,
    summary: "a suppression comment names a rule by a retired id",
    page: include_str!("../../rules/retired-rule-id.md"),
};

/// The rule; its findings are made with the suppressions (`suppress.rs`), not from a
/// file's facts.
pub(crate) struct RetiredRuleId;

impl super::rule::Rule for RetiredRuleId {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }
}
