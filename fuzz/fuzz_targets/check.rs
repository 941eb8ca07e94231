//! The whole per-file check, as the command line runs it on each file.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let settings = bankcheck::config::Settings::default();
    for path in ["f.cu", "f.hlsl", "f.h"] {
        let report = bankcheck::check_source(path, data, &settings);
        for d in &report.diagnostics {
            assert!(d.span.start <= d.span.end && d.span.end <= report.text.len());
            // The session catches a panic as `internal-error`: that is a crash found.
            assert_ne!(d.rule, "internal-error", "{}", d.message);
        }
    }
});
