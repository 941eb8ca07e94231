//! What a checked file means for the run's exit status. Checking itself (the passes, a
//! panic caught as `internal-error`, suppressions and severities) is the library's
//! `driver::Session`.

use bankcheck::config::Settings;
use bankcheck::diag::Diagnostic;
use bankcheck::FileReport;

/// Whether the report holds an `internal-error` finding (the run then ends with status 2).
pub fn has_internal_error(report: &FileReport) -> bool {
    report.diagnostics.iter().any(is_internal_error)
}

/// Whether `d` says bankcheck failed on the file (not a finding about its code: a
/// baseline never records it).
pub fn is_internal_error(d: &Diagnostic) -> bool {
    d.rule == "internal-error"
}

/// Whether any finding is at or above the file's failing severity.
pub fn fails(report: &FileReport, settings: &Settings) -> bool {
    report
        .diagnostics
        .iter()
        .any(|d| d.severity >= settings.fail_on)
}
