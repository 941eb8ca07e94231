//! The last three passes of a file: suppression comments, each rule's configured
//! severity, then one diagnostic per problem. Severities are resolved here only: rules
//! report at their default severity.

use crate::config::Settings;
use crate::rules::suppress;
use crate::FileReport;

/// Pass `suppress`: drops the findings a `// bankcheck: ignore[...]` comment silences and
/// reports the suppressions that silence nothing (those of rules turned off excepted).
pub(super) fn suppress(report: &mut FileReport, settings: &Settings) {
    let enabled = |id: &str| !matches!(settings.severities.get(id), Some(None));
    let diagnostics = std::mem::take(&mut report.diagnostics);
    report.diagnostics = suppress::apply_with(
        &report.text,
        diagnostics,
        &enabled,
        &report.reported_elsewhere,
    );
}

/// Pass `severities`: each finding takes its rule's configured severity; the findings of
/// rules turned off are dropped.
pub(super) fn severities(report: &mut FileReport, settings: &Settings) {
    report
        .diagnostics
        .retain_mut(|d| match settings.severities.get(d.rule) {
            Some(Some(severity)) => {
                d.severity = *severity;
                true
            }
            Some(None) => false,
            None => true,
        });
}

/// Pass `group`: the findings of one problem (the accesses one fix mends, the load and
/// store of one expression) folded into one (`rules::group`), after suppressions and
/// severities so that both apply to each finding as the rules made it.
pub(super) fn group(report: &mut FileReport) {
    let diagnostics = std::mem::take(&mut report.diagnostics);
    report.diagnostics = crate::rules::group::fold(&report.text, diagnostics);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::resolve::stack;
    use crate::config::Layer;
    use crate::diag::{Diagnostic, Severity, Span};

    fn finished(text: &str, settings: &Settings) -> FileReport {
        let d = Diagnostic::new(
            "bank-conflict",
            Severity::Warning,
            Span::new(0, 1),
            "32-way".into(),
        );
        let mut report = FileReport {
            path: "k.cu".into(),
            text: text.into(),
            language: None,
            diagnostics: vec![d],
            accesses: Vec::new(),
            arrays: crate::ArrayStates::default(),
            reported_elsewhere: Vec::new(),
            stats: crate::FileStats::default(),
        };
        suppress(&mut report, settings);
        severities(&mut report, settings);
        report
    }

    #[test]
    fn severities_and_suppressions_apply() {
        let catalog = crate::rules::catalog();
        let mut layer = Layer::default();
        layer
            .severities
            .push(("bank-conflict", Some(Severity::Error)));
        let settings = stack(&[&layer], catalog);
        let report = finished("x", &settings);
        assert_eq!(report.diagnostics[0].severity, Severity::Error);
        let report = finished("x // bankcheck: ignore[bank-conflict]\n", &settings);
        assert!(report.diagnostics.is_empty());
        layer.severities.push(("bank-conflict", None));
        let report = finished("x", &stack(&[&layer], catalog));
        assert!(report.diagnostics.is_empty());
    }
}
