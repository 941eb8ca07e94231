//! Checking one file: run the library under `catch_unwind` (a panic becomes an
//! `internal-error` finding for that file only), then apply suppressions and the
//! file's rule severities.

use bankcheck::config::Settings;
use bankcheck::diag::{Diagnostic, Severity, Span};
use bankcheck::rules::{registry, suppress};
use bankcheck::FileReport;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Stack of each worker thread. Every recursive walk over a file's structure is bounded
/// by depth (syntax trees at `extract::convert::MAX_DEPTH`, interpretation at 200 nested
/// expressions and 8 inlined calls, index expressions at 4000 nodes); this leaves room for
/// those bounds in unoptimised builds too. Only touched pages are ever mapped.
pub const WORKER_STACK_BYTES: usize = 256 << 20;

/// Most worker threads a run starts, whatever `--threads` asks: beyond the cores they only
/// cost memory (each has its stack) and start-up time.
pub const MAX_THREADS: usize = 256;

/// Checks `bytes` as `path` with `checker` (the library entry; tests hand in one that
/// panics) and finishes the report for output.
pub fn check(
    checker: impl Fn(&str, &[u8], &Settings) -> FileReport,
    path: &str,
    bytes: &[u8],
    settings: &Settings,
) -> FileReport {
    let report = catch_unwind(AssertUnwindSafe(|| checker(path, bytes, settings))).unwrap_or_else(
        |payload| {
            let reason = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            internal_error(path, bytes, &reason)
        },
    );
    finish(report, settings)
}

/// The report of a file that killed its worker in an earlier attempt of this run (see
/// `crash`): not checked again, its `internal-error` says so.
pub fn crashed(path: &str, bytes: &[u8], settings: &Settings) -> FileReport {
    finish(
        internal_error(
            path,
            bytes,
            "the worker checking it died (stack overflow or fatal signal); the run was restarted without it",
        ),
        settings,
    )
}

/// Whether the report holds an `internal-error` finding (the run then ends with status 2).
pub fn has_internal_error(report: &FileReport) -> bool {
    report
        .diagnostics
        .iter()
        .any(|d| d.rule == "internal-error")
}

/// A report holding only the `internal-error` finding for a file the checker panicked on.
fn internal_error(path: &str, bytes: &[u8], reason: &str) -> FileReport {
    let severity = registry::rule("internal-error").map_or(Severity::Error, |r| r.default_severity);
    let mut d = Diagnostic::new(
        "internal-error",
        severity,
        Span::new(0, 0),
        format!("bankcheck crashed while checking this file: {reason}"),
    );
    d.help =
        Some("this is a bug in bankcheck; please report it with the file attached".to_string());
    FileReport {
        path: path.to_string(),
        text: String::from_utf8_lossy(bytes).into_owned(),
        language: None,
        diagnostics: vec![d],
        accesses: Vec::new(),
        arrays: bankcheck::ArrayStates::default(),
        stats: bankcheck::FileStats::default(),
    }
}

/// Applies suppressions, then the configured severity of each rule (dropping rules that are off).
fn finish(mut report: FileReport, settings: &Settings) -> FileReport {
    let enabled = |id: &str| !matches!(settings.severities.get(id), Some(None));
    let diagnostics = std::mem::take(&mut report.diagnostics);
    let mut diagnostics = suppress::apply_enabled(&report.text, diagnostics, &enabled);
    diagnostics.retain_mut(|d| match settings.severities.get(d.rule) {
        Some(Some(severity)) => {
            d.severity = *severity;
            true
        }
        Some(None) => false,
        None => true,
    });
    report.diagnostics = diagnostics;
    report
}

/// Whether any finding is at or above the file's failing severity.
pub fn fails(report: &FileReport, settings: &Settings) -> bool {
    report
        .diagnostics
        .iter()
        .any(|d| d.severity >= settings.fail_on)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bankcheck::config::resolve::stack;

    fn panicking(_: &str, _: &[u8], _: &Settings) -> FileReport {
        panic!("index out of range in a test");
    }

    fn one_finding(path: &str, bytes: &[u8], _: &Settings) -> FileReport {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let d = Diagnostic::new(
            "stride-conflict",
            Severity::Warning,
            Span::new(0, 1),
            "32-way".into(),
        );
        FileReport {
            path: path.into(),
            text,
            language: None,
            diagnostics: vec![d],
            accesses: Vec::new(),
            arrays: bankcheck::ArrayStates::default(),
            stats: bankcheck::FileStats::default(),
        }
    }

    #[test]
    fn a_panic_becomes_an_internal_error_for_that_file() {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let report = check(panicking, "k.cu", b"x", &Settings::default());
        std::panic::set_hook(hook);
        assert_eq!(report.diagnostics.len(), 1);
        assert_eq!(report.diagnostics[0].rule, "internal-error");
        assert!(report.diagnostics[0]
            .message
            .contains("index out of range in a test"));
    }

    #[test]
    fn severities_and_suppressions_apply() {
        let mut layer = bankcheck::config::Layer::default();
        layer
            .severities
            .push(("stride-conflict", Some(Severity::Error)));
        let settings = stack(&[&layer], crate::cli::rule_catalog());
        let report = check(one_finding, "k.cu", b"x", &settings);
        assert_eq!(report.diagnostics[0].severity, Severity::Error);
        assert!(fails(&report, &settings));
        let report = check(
            one_finding,
            "k.cu",
            b"x // bankcheck: ignore[stride-conflict]\n",
            &settings,
        );
        assert!(report.diagnostics.is_empty());
        layer.severities.push(("stride-conflict", None));
        let report = check(
            one_finding,
            "k.cu",
            b"x",
            &stack(&[&layer], crate::cli::rule_catalog()),
        );
        assert!(report.diagnostics.is_empty());
    }
}
