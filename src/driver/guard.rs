//! A panic while checking one file becomes an `internal-error` finding for that file
//! only: the run goes on with the other files.

use crate::diag::{Diagnostic, Severity, Span};
use crate::rules::registry;
use crate::FileReport;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The reason given for a file whose worker died in an earlier attempt of the run (the
/// command line restarts the run without it).
pub const CRASHED: &str =
    "the worker checking it died (stack overflow or fatal signal); the run was restarted without it";

/// Runs `check` on the file `path` (its `bytes`); a panic gives the report of
/// [`internal_error`] instead.
pub(super) fn guarded(path: &str, bytes: &[u8], check: impl FnOnce() -> FileReport) -> FileReport {
    catch_unwind(AssertUnwindSafe(check)).unwrap_or_else(|payload| {
        let reason = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        internal_error(path, bytes, &reason)
    })
}

/// A report holding only the `internal-error` finding of a file bankcheck failed on.
pub(super) fn internal_error(path: &str, bytes: &[u8], reason: &str) -> FileReport {
    let severity = registry::rule("internal-error").map_or(Severity::Error, |r| r.default_severity);
    let mut d = Diagnostic::new(
        "internal-error",
        severity,
        Span::new(0, 0),
        format!("bankcheck crashed while checking this file: {reason}"),
    );
    d.help = Some("this is a bug in bankcheck; please report it with the file attached".into());
    FileReport {
        path: path.to_string(),
        text: String::from_utf8_lossy(bytes).into_owned(),
        language: None,
        diagnostics: vec![d],
        accesses: Vec::new(),
        arrays: crate::ArrayStates::default(),
        reported_elsewhere: Vec::new(),
        stats: crate::FileStats::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error_for_that_file() {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let report = guarded("k.cu", b"x", || panic!("index out of range in a test"));
        std::panic::set_hook(hook);
        assert_eq!(report.diagnostics.len(), 1);
        assert_eq!(report.diagnostics[0].rule, "internal-error");
        assert!(report.diagnostics[0]
            .message
            .contains("index out of range in a test"));
    }
}
