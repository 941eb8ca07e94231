//! The accesses of a JSON report (`--format json`) in one file, for the tests that run
//! the built binary.

use serde_json::Value;

/// The entries of `report`'s `accesses` whose file ends with `file_end`.
pub fn accesses_in<'a>(report: &'a Value, file_end: &'a str) -> impl Iterator<Item = &'a Value> {
    report["accesses"]
        .as_array()
        .expect("accesses")
        .iter()
        .filter(move |a| a["file"].as_str().is_some_and(|f| f.ends_with(file_end)))
}
