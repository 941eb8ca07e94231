//! A file checked a segment at a time (`source::segments`, what bankcheck does with big
//! files) reports exactly what the same file checked whole reports: every fixture, every
//! example and a generated corpus, split as finely as the segmenter allows.

#[path = "../benches/corpus_gen.rs"]
mod corpus_gen;
#[path = "support/sources.rs"]
mod support;

use bankcheck::config::Settings;
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    support::source_files(dir, &["cu", "cuh", "hlsl", "hlsli", "fx", "h"], out);
}

/// What a report says, spans included, as JSON.
fn outcome(path: &str, bytes: &[u8], settings: &Settings) -> String {
    let report = bankcheck::check_source(path, bytes, settings);
    let accesses: Vec<serde_json::Value> = report
        .accesses
        .iter()
        .map(|a| serde_json::json!({ "span": a.span, "facts": a }))
        .collect();
    serde_json::to_string_pretty(&serde_json::json!({
        "accesses": accesses,
        "diagnostics": report.diagnostics,
        "arrays": [report.arrays.reported, report.arrays.unknown, report.arrays.undecided],
    }))
    .expect("reports serialise")
}

/// Checks `files` whole and in the finest segments; returns how many were split.
fn compare(files: &[(String, Vec<u8>)]) -> usize {
    let whole = Settings {
        segment_from_bytes: usize::MAX,
        ..Settings::default()
    };
    let split = Settings {
        segment_from_bytes: 0,
        segment_bytes: 1,
        ..Settings::default()
    };
    let mut differ = Vec::new();
    let mut segmented = 0;
    for (path, bytes) in files {
        let text = String::from_utf8_lossy(bytes);
        if bankcheck::source::segments::segments(&text, 1).is_some() {
            segmented += 1;
        }
        let a = outcome(path, bytes, &whole);
        let b = outcome(path, bytes, &split);
        if a != b {
            differ.push(format!("{path}:\n--- whole\n{a}\n--- segments\n{b}"));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} files differ:\n{}",
        differ.len(),
        files.len(),
        differ.join("\n")
    );
    segmented
}

#[test]
fn fixtures_and_examples_report_the_same_in_segments() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    sources(&root.join("tests/fixtures"), &mut paths);
    sources(&root.join("tests/ui"), &mut paths);
    sources(&root.join("examples"), &mut paths);
    let files: Vec<(String, Vec<u8>)> = paths
        .iter()
        .map(|p| {
            let name = p.strip_prefix(root).unwrap_or(p).display().to_string();
            (name, std::fs::read(p).expect("readable"))
        })
        .collect();
    let segmented = compare(&files);
    // The comparison means something only if files were split (most fixtures hold one
    // kernel, which is one segment).
    assert!(
        segmented >= 10,
        "only {segmented} of {} files split",
        files.len()
    );
    // Files of several fixtures each, three, five or seven at a time, one language at a
    // time: many kernels, helpers and launches in one file, some names met twice.
    let mut joined = Vec::new();
    for ext in [".cu", ".hlsl"] {
        let same: Vec<&(String, Vec<u8>)> = files
            .iter()
            .filter(|(name, _)| name.ends_with(ext))
            .collect();
        for size in [3, 5, 7] {
            for (k, group) in same.chunks(size).enumerate() {
                let mut bytes = Vec::new();
                for (_, b) in group {
                    bytes.extend_from_slice(b);
                    bytes.push(b'\n');
                }
                joined.push((format!("joined{size}-{k}{ext}"), bytes));
            }
        }
    }
    let segmented = compare(&joined);
    assert!(
        segmented >= 15,
        "only {segmented} of {} joined files split",
        joined.len()
    );
}

#[test]
fn a_generated_corpus_reports_the_same_in_segments() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let files = corpus_gen::generate(dir.path(), 160_000, 77).expect("generate the corpus");
    let files: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| {
            let name = f
                .path
                .strip_prefix(dir.path())
                .unwrap_or(&f.path)
                .display()
                .to_string();
            (name, std::fs::read(&f.path).expect("readable"))
        })
        .collect();
    let segmented = compare(&files);
    assert!(
        segmented >= 3,
        "only {segmented} of {} files split",
        files.len()
    );
}
