//! The one calling convention of rules: a [`Rule`] reads the facts of one file and
//! pushes its findings. A new rule is one file (its `META`, its page, its `check`) listed
//! in `registry.rs`, plus its fixtures.

use super::facts::FileFacts;
use super::registry::RuleMeta;
use crate::diag::Diagnostic;

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
