//! bankcheck's results do not depend on how many threads check the files: a small
//! generated corpus (the throughput benchmark's generator) analysed on rayon pools of
//! one and of two threads serialises to byte-identical JSON.

#[path = "../benches/corpus_gen.rs"]
mod corpus_gen;

use bankcheck::config::Settings;
use rayon::prelude::*;
use std::path::Path;

/// Bytes of generated source: enough for every template, small enough for a debug build.
const CORPUS_BYTES: u64 = 160_000;

/// Checks every file on a pool of `threads` threads and serialises the results, sorted
/// by path, accesses with their spans, then the diagnostics.
fn analyse_all(root: &Path, files: &[corpus_gen::GenFile], threads: usize) -> String {
    let settings = Settings::default();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("rayon pool");
    let mut per_file: Vec<(String, serde_json::Value)> = pool.install(|| {
        files
            .par_iter()
            .map(|f| {
                let rel = f
                    .path
                    .strip_prefix(root)
                    .expect("file under the corpus root")
                    .to_string_lossy()
                    .replace('\\', "/");
                let bytes = std::fs::read(&f.path).expect("generated file is readable");
                let report = bankcheck::check_source(&rel, &bytes, &settings);
                let accesses: Vec<serde_json::Value> = report
                    .accesses
                    .iter()
                    .map(|a| serde_json::json!({ "span": a.span, "facts": a }))
                    .collect();
                let value = serde_json::json!({
                    "path": report.path,
                    "language": report.language,
                    "accesses": accesses,
                    "diagnostics": report.diagnostics,
                });
                (rel, value)
            })
            .collect()
    });
    per_file.sort_by(|a, b| a.0.cmp(&b.0));
    let values: Vec<serde_json::Value> = per_file.into_iter().map(|(_, v)| v).collect();
    serde_json::to_string_pretty(&values).expect("results serialise")
}

#[test]
fn one_and_two_threads_give_identical_results() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let files = corpus_gen::generate(dir.path(), CORPUS_BYTES, 2024).expect("generate the corpus");
    assert!(files.len() >= 10, "the corpus has several files");

    let one = analyse_all(dir.path(), &files, 1);
    let two = analyse_all(dir.path(), &files, 2);
    assert!(
        one.contains("\"accesses\": [\n      {"),
        "some shared-memory accesses were found"
    );
    assert!(one == two, "results differ between 1 and 2 threads");
    // And twice on the same pool size, for good measure.
    assert!(
        two == analyse_all(dir.path(), &files, 2),
        "results differ between two runs on 2 threads"
    );
}

#[test]
fn the_generator_is_deterministic() {
    let a = corpus_gen::file_text(7, 3);
    let b = corpus_gen::file_text(7, 3);
    assert_eq!(a, b);
    assert_ne!(corpus_gen::file_text(7, 4).1, a.1);
}
