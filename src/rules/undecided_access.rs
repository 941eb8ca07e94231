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

/// Pushes a diagnostic for an access whose verdict is unknown (off by default).
pub(crate) fn check(
    a: &crate::analyse::AnalysedSite,
    facts: &crate::diag::AccessFacts,
    settings: &crate::config::Settings,
    out: &mut Vec<crate::diag::Diagnostic>,
) {
    if facts.status != crate::diag::Status::Unknown {
        return;
    }
    let default = if META.default_enabled {
        Some(META.default_severity)
    } else {
        None
    };
    let Some(severity) = settings.severities.get(META.id).copied().unwrap_or(default) else {
        return;
    };
    let reason = facts
        .reason
        .clone()
        .unwrap_or_else(|| "no reason recorded".to_string());
    let mut d = crate::diag::Diagnostic::new(
        META.id,
        severity,
        a.site.span,
        format!(
            "conflict factor of this {} of `{}` is undecided",
            facts.kind.as_str(),
            facts.array
        ),
    );
    d.notes.push(reason);
    if let Some(l) = super::conflict::in_helper(a) {
        d.labels.push(l);
    }
    d.access = Some(facts.clone());
    out.push(d);
}

/// Pushes the diagnostic of a shared array none of whose accesses was found, at its
/// declaration, with why (`used`: a use bankcheck did not follow, labelled).
pub(crate) fn check_array(
    name: &str,
    span: crate::diag::Span,
    reason: &str,
    used: Option<crate::diag::Span>,
    settings: &crate::config::Settings,
    out: &mut Vec<crate::diag::Diagnostic>,
) {
    let default = META.default_enabled.then_some(META.default_severity);
    let Some(severity) = settings.severities.get(META.id).copied().unwrap_or(default) else {
        return;
    };
    let mut d = crate::diag::Diagnostic::new(
        META.id,
        severity,
        span,
        format!("no access to shared array `{name}` could be checked"),
    );
    d.notes.push(reason.to_string());
    if let Some(used) = used {
        d.labels.push(crate::diag::Label {
            span: used,
            message: "used here, in code bankcheck does not follow".into(),
        });
    }
    out.push(d);
}
