//! Every layout fix bankcheck prints is checked with bankcheck itself, through the built
//! binary: the fix's edits are applied to the fixture and the patched file is checked
//! again. Its `after` table must list every access of the array (each call site of a
//! helper, each launch shape and instantiation), the patched file must reach the
//! wavefronts the table states, and no access may end worse than before.
//!
//! Fixtures are tests/fixtures/suggest/*.cu; the first line says which fix is expected:
//! `// expect-fix: none|padding|swizzle|any`.

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_bankcheck");

fn check(dir: &Path, file: &str) -> Value {
    let out = Command::new(BIN)
        .args(["--format", "json", "--isolated", file])
        .current_dir(dir)
        .output()
        .expect("the bankcheck binary runs");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{file}: no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// An access's identity across the patch: its line, the helper line it reaches, its kind.
type Key = (u64, Option<u64>, String);

fn key(v: &Value) -> Key {
    (
        v["line"].as_u64().unwrap_or(0),
        v["helper"]["line"]
            .as_u64()
            .or_else(|| v["helper_line"].as_u64()),
        v["kind"].as_str().unwrap_or("").to_string(),
    )
}

/// The worst wavefronts per access of `array`.
fn accesses(report: &Value, array: &str) -> HashMap<Key, u64> {
    let mut out: HashMap<Key, u64> = HashMap::new();
    for a in report["accesses"].as_array().into_iter().flatten() {
        if a["array"] != array {
            continue;
        }
        let w = a["wavefronts"].as_u64().unwrap_or(u64::MAX);
        let e = out.entry(key(a)).or_insert(0);
        *e = (*e).max(w);
    }
    out
}

/// Byte offset of a 1-based line and column (the fixtures are ASCII).
fn offset(text: &str, line: u64, column: u64) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line as usize - 1)
        .map(str::len)
        .sum();
    start + column as usize - 1
}

fn apply(text: &str, edits: &[Value]) -> String {
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            let at = |l: &str, c: &str| {
                offset(
                    text,
                    e[l].as_u64().expect("edit line"),
                    e[c].as_u64().expect("edit column"),
                )
            };
            (
                at("line", "column"),
                at("end_line", "end_column"),
                e["text"].as_str().expect("edit text"),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (from, to, new) in spans {
        out.replace_range(from..to, new);
    }
    out
}

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/suggest");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixture folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    files.sort();
    files
}

#[test]
fn printed_fixes_hold_at_every_access_when_applied() {
    let files = fixtures();
    assert!(files.len() >= 4, "the fixtures are found");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let expected = text
            .lines()
            .next()
            .and_then(|l| l.split("expect-fix:").nth(1))
            .map_or_else(|| panic!("{name}: no `expect-fix:` line"), str::trim)
            .to_string();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(&name), &text).unwrap();
        let report = check(dir.path(), &name);
        // One fix per array: every diagnostic of the array carries the same one.
        let mut fixes: Vec<(String, Value)> = Vec::new();
        for d in report["diagnostics"].as_array().into_iter().flatten() {
            let (Some(array), Some(s)) = (d["array"].as_str(), d["suggestion"].as_object()) else {
                continue;
            };
            // A fix shared by the array's diagnostics is written once, in `fixes`; each
            // diagnostic's `after` holds its own access's rows, all of them in the table.
            let s = match s.get("fix").and_then(Value::as_u64) {
                Some(n) => {
                    let whole = report["fixes"][n as usize].clone();
                    assert_eq!(whole["array"].as_str(), Some(array), "{name}: fix {n}");
                    for row in s["after"].as_array().into_iter().flatten() {
                        assert!(
                            whole["after"].as_array().is_some_and(|t| t.contains(row)),
                            "{name}: {row} is not in fix {n}"
                        );
                    }
                    whole
                }
                None => Value::Object(s.clone()),
            };
            if !fixes.iter().any(|(a, f)| a == array && *f == s) {
                fixes.push((array.to_string(), s));
            }
        }
        match expected.as_str() {
            "none" => assert!(fixes.is_empty(), "{name}: a fix is offered: {fixes:?}"),
            "any" => assert!(!fixes.is_empty(), "{name}: no fix is offered"),
            kind => assert!(
                fixes.iter().any(|(_, f)| f["kind"] == kind),
                "{name}: no {kind} fix: {fixes:?}"
            ),
        }
        for (array, fix) in fixes {
            let before = accesses(&report, &array);
            let after = fix["after"].as_array().expect("after table");
            // The table lists every access reported, and its figures are the report's.
            for (k, w) in &before {
                let rows: Vec<&Value> = after.iter().filter(|r| key(r) == *k).collect();
                assert!(
                    !rows.is_empty(),
                    "{name}: `{array}` {k:?} missing from {after:?}"
                );
                let worst_before = rows
                    .iter()
                    .filter_map(|r| r["before_wavefronts"].as_u64())
                    .max();
                assert_eq!(worst_before, Some(*w), "{name}: {k:?} before figures");
            }
            let patched = apply(&text, fix["edits"].as_array().expect("edits"));
            assert_ne!(patched, text, "{name}: the fix edits nothing");
            let pdir = tempfile::tempdir().unwrap();
            std::fs::write(pdir.path().join(&name), &patched).unwrap();
            let again = check(pdir.path(), &name);
            let now = accesses(&again, &array);
            assert_eq!(
                now.keys().collect::<std::collections::BTreeSet<_>>(),
                before.keys().collect::<std::collections::BTreeSet<_>>(),
                "{name}: the patched file has other accesses:\n{patched}"
            );
            for (k, w) in &now {
                let stated = after
                    .iter()
                    .filter(|r| key(r) == *k)
                    .filter_map(|r| r["wavefronts"].as_u64())
                    .max();
                assert_eq!(
                    Some(*w),
                    stated,
                    "{name}: {k:?} does not reach what the fix states:\n{patched}"
                );
                assert!(
                    *w <= before[k],
                    "{name}: {k:?} is worse after the fix ({} -> {w}):\n{patched}",
                    before[k]
                );
            }
            if fix["message"]
                .as_str()
                .is_some_and(|m| m.contains("every access becomes conflict-free"))
            {
                let conflicts: Vec<&Value> = again["accesses"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|a| a["array"] == array.as_str() && a["status"] != "ok")
                    .collect();
                assert!(
                    conflicts.is_empty(),
                    "{name}: still conflicts after the fix: {conflicts:?}\n{patched}"
                );
            }
        }
    }
}
