//! Rule `undecided-access`: bankcheck could not decide the conflict factor of a shared-memory access.
//!
//! The rule's page, `rules/undecided-access.md`, is this module's documentation too:
#![doc = include_str!("../../rules/undecided-access.md")]

use super::rule::RuleMeta;
use crate::diag::Severity;

pub const META: RuleMeta = RuleMeta {
    id: "undecided-access",
    retired: &[],
    group: "input",
    default_severity: Severity::Info,
    default_enabled: false,
    summary: "bankcheck could not decide the conflict factor of a shared-memory access",
    page: include_str!("../../rules/undecided-access.md"),
};

/// The rule (off by default): each access whose verdict is unknown, then each array none
/// of whose accesses was found.
pub(crate) struct UndecidedAccess;

impl super::rule::Rule for UndecidedAccess {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, file: &super::facts::FileFacts<'_>, out: &mut Vec<crate::diag::Diagnostic>) {
        for (a, facts) in file.accesses() {
            if let Some(mut d) = undecided(a, facts) {
                file.attach_layout(&mut d);
                out.push(d);
            }
        }
        out.extend(file.unfound.iter().map(unfound));
    }
}

/// The finding of an access whose verdict is unknown.
fn undecided(
    a: &crate::analyse::AnalysedSite,
    facts: &crate::diag::AccessFacts,
) -> Option<crate::diag::Diagnostic> {
    if facts.status != crate::diag::Status::Unknown {
        return None;
    }
    let reason = facts
        .reason
        .clone()
        .unwrap_or_else(|| "no reason recorded".to_string());
    let mut d = crate::diag::Diagnostic::new(
        META.id,
        META.default_severity,
        a.site.span,
        format!(
            "conflict factor of this {} of `{}` is undecided",
            facts.kind.as_str(),
            facts.array
        ),
    );
    d.notes.push(reason);
    d.notes
        .extend(super::conflict::in_helper_elsewhere(a, facts));
    if let Some(l) = super::conflict::in_helper(a) {
        d.labels.push(l);
    }
    d.access = Some(Box::new(facts.clone()));
    Some(d)
}

/// The finding of a shared array none of whose accesses was found, at its declaration,
/// with why (a use bankcheck did not follow, labelled).
fn unfound(array: &super::facts::UnfoundArray) -> crate::diag::Diagnostic {
    let mut d = crate::diag::Diagnostic::new(
        META.id,
        META.default_severity,
        array.span,
        format!(
            "no access to shared array `{}` could be checked",
            array.name
        ),
    );
    d.notes.push(array.reason.clone());
    if let Some(used) = array.used {
        d.labels.push(crate::diag::Label {
            span: used,
            message: "used here, in code bankcheck does not follow".into(),
        });
    }
    d
}
