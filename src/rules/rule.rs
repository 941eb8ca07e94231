//! The one calling convention of rules: a [`Rule`] reads the facts of one file and
//! pushes its findings. A new rule is one file (its `META`, its page, its `check`) listed
//! in `registry.rs`, plus its fixtures.

use super::facts::FileFacts;
use crate::diag::{Diagnostic, Severity};

/// What a rule is, independent of any finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMeta {
    /// Stable kebab-case id; never renamed.
    pub id: &'static str,
    /// Retired ids this rule answers to (in lint.toml, on the command line and in
    /// suppression comments), each with a note naming `id`: ids are never renamed, only
    /// retired, so that no configuration breaks.
    pub retired: &'static [&'static str],
    /// The group that sets the default severity (`conflict`, `possible`, `input`, `hygiene`).
    pub group: &'static str,
    pub default_severity: Severity,
    /// Off unless selected or given a severity in lint.toml.
    pub default_enabled: bool,
    /// One line, lower case, no final period.
    pub summary: &'static str,
    /// The rule's page, rules/<id>.md, compiled in.
    pub page: &'static str,
}

/// One rule: what it is, and what it finds in a file.
pub trait Rule: Sync {
    /// Id, group, default severity and page.
    fn meta(&self) -> &'static RuleMeta;

    /// Pushes the rule's findings on one file, at the rule's default severity: severities
    /// are resolved once, by the driver's `severities` pass. Called only when the rule is
    /// enabled for the file. Rules the driver reports itself (`internal-error`,
    /// `unused-suppression`) find nothing here.
    fn check(&self, file: &FileFacts<'_>, out: &mut Vec<Diagnostic>) {
        let _ = (file, out);
    }
}

impl RuleMeta {
    /// Whether the rule is on under `settings` (off unless enabled by default or
    /// configured).
    pub fn enabled(&self, settings: &crate::config::Settings) -> bool {
        let default = self.default_enabled.then_some(self.default_severity);
        settings
            .severities
            .get(self.id)
            .copied()
            .unwrap_or(default)
            .is_some()
    }
}
