//! Golden tests in the style of clippy's UI tests, through the built binary: every
//! fixture `tests/ui/<rule>/<name>.{cu,hlsl}` is checked and its output compared with the
//! files beside it. tests/ui/README.md describes the layout and the directives.
//!
//! - `<name>.stderr`: `exit: N` on the first line, then exactly what the text format
//!   prints (`--color never`), then, if the run wrote to standard error, a line
//!   `--- stderr` and what it wrote.
//! - `<name>.fixed`: the file after `--fix`, present exactly when a fix applies; the fixed
//!   text is checked again and none of the findings that carried the applied fix may be
//!   left, and a second `--fix` must change nothing.
//! - `<name>.json`, `.sarif`, `.github`, `.compact`: the other formats, for the fixtures
//!   whose directive asks for them (same exit status as the text run).
//! - The folder names the rule: a fixture named `fires*` must report it, one named
//!   `near-miss*` must not; every rule has both.
//!
//! Each fixture runs alone in a scratch directory (as `<rule>/<name>`, the path the output
//! shows), so no other file's launches, includes or lint.toml reach it.
//! `BLESS=1 cargo test --test ui` rewrites the expectations instead of comparing them.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_bankcheck");
/// The formats besides text that a fixture can snapshot, with their file extensions.
const FORMATS: &[&str] = &["json", "sarif", "github", "compact"];
const DIRECTIVE: &str = "// bankcheck-ui:";

fn ui_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui")
}

fn blessing() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// What a fixture's `// bankcheck-ui:` lines ask for.
#[derive(Default)]
struct Directives {
    args: Vec<String>,
    env: Vec<(String, String)>,
    formats: Vec<String>,
    /// Why the text output is known to differ from the `.stderr` file, which holds the
    /// correct output (a bug of bankcheck; blessing leaves that file alone).
    known_failure: Option<String>,
}

fn directives(text: &str, shown: &str) -> Result<Directives, String> {
    let mut d = Directives::default();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix(DIRECTIVE) else {
            continue;
        };
        let mut words = rest.split_whitespace();
        match words.next() {
            Some("args") => d.args.extend(words.map(str::to_string)),
            Some("env") => {
                for w in words {
                    let (k, v) = w
                        .split_once('=')
                        .ok_or_else(|| format!("env directive without `=`: {w}"))?;
                    d.env.push((k.to_string(), v.replace("{path}", shown)));
                }
            }
            Some("formats") => {
                for w in words {
                    if !FORMATS.contains(&w) {
                        return Err(format!("unknown format in directive: {w}"));
                    }
                    d.formats.push(w.to_string());
                }
            }
            Some("known-failure") => {
                d.known_failure = Some(words.collect::<Vec<_>>().join(" "));
            }
            other => return Err(format!("unknown directive {other:?} in {line:?}")),
        }
    }
    Ok(d)
}

/// One fixture: its source, and the path relative to tests/ui that the output shows.
struct Fixture {
    source: PathBuf,
    shown: String,
}

fn fixtures() -> Vec<Fixture> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(ui_dir()).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            if matches!(
                file.extension().and_then(|e| e.to_str()),
                Some("cu" | "hlsl")
            ) {
                let shown = file
                    .strip_prefix(ui_dir())
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push(Fixture {
                    source: file,
                    shown,
                });
            }
        }
    }
    out.sort_by(|a, b| a.shown.cmp(&b.shown));
    // `x.cu` and `x.hlsl` would share their expectation files.
    for pair in out.windows(2) {
        assert_ne!(
            pair[0].source.with_extension(""),
            pair[1].source.with_extension(""),
            "two fixtures named alike: {} and {}",
            pair[0].shown,
            pair[1].shown
        );
    }
    out
}

/// Runs the binary in `dir` on `shown` with `args`, with no colour, GitHub or crash
/// variables leaking in from the environment running the tests.
fn run(dir: &Path, shown: &str, args: &[&str], d: &Directives) -> Output {
    let mut command = Command::new(BIN);
    command
        .args(["--color", "never", "--isolated"])
        .args(args)
        .args(&d.args)
        .arg(shown)
        .current_dir(dir);
    for var in [
        "NO_COLOR",
        "GITHUB_STEP_SUMMARY",
        "GITHUB_WORKSPACE",
        "BANKCHECK_CRASHED",
        "BANKCHECK_RESTARTS",
        "BANKCHECK_TEST_CRASH",
    ] {
        command.env_remove(var);
    }
    command.envs(d.env.iter().map(|(k, v)| (k, v)));
    command.output().expect("the bankcheck binary runs")
}

/// What a run printed, as an expectation file holds it.
fn printed(out: &Output) -> String {
    let mut s = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.stderr.is_empty() {
        s.push_str("--- stderr\n");
        s.push_str(&String::from_utf8_lossy(&out.stderr));
    }
    s
}

/// A readable line diff of `expected` to `actual`.
fn diff(expected: &str, actual: &str) -> String {
    similar::TextDiff::from_lines(expected, actual)
        .unified_diff()
        .context_radius(3)
        .header("expected", "actual")
        .to_string()
}

/// Compares `actual` with the expectation file `path` (or writes it when blessing);
/// `None` means the file must not exist.
fn expect(path: &Path, actual: Option<&str>, failures: &mut Vec<String>) {
    let name = path.strip_prefix(ui_dir()).unwrap_or(path).display();
    let existing = std::fs::read_to_string(path).ok();
    if existing.as_deref() == actual {
        return;
    }
    if blessing() {
        match actual {
            Some(text) => std::fs::write(path, text).unwrap(),
            None => std::fs::remove_file(path).unwrap(),
        }
        return;
    }
    failures.push(match (existing, actual) {
        (None, Some(_)) => format!("{name}: missing (run `BLESS=1 cargo test --test ui`)"),
        (Some(_), None) => format!("{name}: no longer produced; delete it (or bless)"),
        (Some(e), Some(a)) => format!("{name}: differs\n{}", diff(&e, a)),
        (None, None) => unreachable!(),
    });
}

/// Rule and line of every finding in a JSON report; with `safe`, only those whose
/// suggestion `--fix` applies.
fn findings(report: &Value, safe: bool) -> BTreeSet<(String, u64)> {
    report["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| !safe || d["suggestion"]["applicability"] == "safe")
        .map(|d| {
            (
                d["rule"].as_str().unwrap_or_default().to_string(),
                d["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

fn json_of(out: &Output, what: &str) -> Result<Value, String> {
    serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("{what}: no JSON report ({e}):\n{}", printed(out)))
}

/// Checks one fixture, pushing every mismatch onto `failures`.
fn check_fixture(f: &Fixture, failures: &mut Vec<String>) -> Result<(), String> {
    let text = std::fs::read_to_string(&f.source).map_err(|e| format!("{}: {e}", f.shown))?;
    let first = text.lines().next().unwrap_or_default();
    if !first.starts_with("//") || first.starts_with(DIRECTIVE) {
        return Err(format!(
            "{}: the first line must be a comment saying what the fixture shows",
            f.shown
        ));
    }
    let d = directives(&text, &f.shown).map_err(|e| format!("{}: {e}", f.shown))?;
    let scratch = tempfile::tempdir().unwrap();
    let copy = scratch.path().join(&f.shown);
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::write(&copy, &text).unwrap();
    let stem = f.source.with_extension("");
    let sibling = |ext: &str| PathBuf::from(format!("{}.{ext}", stem.display()));

    // Text, with the exit status.
    let out = run(scratch.path(), &f.shown, &[], &d);
    let status = out.status.code();
    let shown_status = status.map_or_else(|| "signal".to_string(), |c| c.to_string());
    let actual = format!("exit: {shown_status}\n{}", printed(&out));
    if let Some(why) = &d.known_failure {
        // The file holds the correct output; a match means the bug is fixed.
        let path = sibling("stderr");
        match std::fs::read_to_string(&path) {
            Ok(correct) if correct == actual => failures.push(format!(
                "{}: the known failure ({why}) is fixed: remove its `known-failure` line",
                f.shown
            )),
            Ok(correct) => eprintln!(
                "{}: known failure ({why}):\n{}",
                f.shown,
                diff(&correct, &actual)
            ),
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    } else {
        expect(&sibling("stderr"), Some(&actual), failures);
    }

    // The rule the folder names fires or not, as the fixture's name says.
    let report = run(scratch.path(), &f.shown, &["--format", "json"], &d);
    let report = json_of(&report, &f.shown)?;
    let rule = f.shown.split('/').next().unwrap_or_default();
    let file = f.shown.rsplit('/').next().unwrap_or_default();
    let fired = findings(&report, false).iter().any(|(r, _)| r == rule);
    if file.starts_with("fires") && !fired {
        failures.push(format!("{}: `{rule}` does not fire", f.shown));
    } else if file.starts_with("near-miss") && fired {
        failures.push(format!("{}: `{rule}` fires on a near miss", f.shown));
    } else if !file.starts_with("fires") && !file.starts_with("near-miss") {
        failures.push(format!(
            "{}: a fixture's name starts with `fires` or `near-miss`",
            f.shown
        ));
    }

    // The other formats asked for; the ones not asked for must not linger.
    for format in FORMATS {
        let path = sibling(format);
        if d.formats.iter().any(|x| x == format) {
            let out = run(scratch.path(), &f.shown, &["--format", format], &d);
            if out.status.code() != status {
                failures.push(format!(
                    "{}: exit {:?} with --format {format}, {status:?} in text",
                    f.shown,
                    out.status.code()
                ));
            }
            expect(&path, Some(&printed(&out)), failures);
        } else {
            expect(&path, None, failures);
        }
    }

    // --fix on a copy: the fixed text, then the fixed findings are gone.
    let fixed_out = run(scratch.path(), &f.shown, &["--fix", "--format", "json"], &d);
    let fixed = std::fs::read_to_string(&copy).unwrap();
    if fixed == text {
        expect(&sibling("fixed"), None, failures);
        return Ok(());
    }
    expect(&sibling("fixed"), Some(&fixed), failures);
    let applied = findings(&report, true);
    let left = findings(&json_of(&fixed_out, &f.shown)?, false);
    let after = run(scratch.path(), &f.shown, &["--format", "json"], &d);
    let after = findings(&json_of(&after, &f.shown)?, false);
    for finding in &applied {
        if after.contains(finding) || left.contains(finding) {
            failures.push(format!(
                "{}: `{}` on line {} is still reported after --fix",
                f.shown, finding.0, finding.1
            ));
        }
    }
    run(scratch.path(), &f.shown, &["--fix"], &d);
    if std::fs::read_to_string(&copy).unwrap() != fixed {
        failures.push(format!(
            "{}: a second --fix changed the file again",
            f.shown
        ));
    }
    Ok(())
}

#[test]
fn fixtures_match_their_expectations() {
    let all = fixtures();
    assert!(!all.is_empty(), "fixtures under tests/ui");
    let mut failures = Vec::new();
    for f in &all {
        if let Err(e) = check_fixture(f, &mut failures) {
            failures.push(e);
        }
    }
    // Expectation files with no fixture beside them.
    for dir in std::fs::read_dir(ui_dir()).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            let stem = file.with_extension("");
            let has_source = ["cu", "hlsl"]
                .iter()
                .any(|e| stem.with_extension(e).is_file());
            if !has_source {
                if blessing() {
                    std::fs::remove_file(&file).unwrap();
                } else {
                    failures.push(format!("{}: no fixture beside it", file.display()));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} UI mismatch(es); `BLESS=1 cargo test --test ui` rewrites the expectations:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Every rule the binary lists has a folder with a fixture that fires and a near miss.
#[test]
fn every_rule_has_a_fixture_that_fires_and_one_that_must_not() {
    let out = Command::new(BIN).arg("rules").output().unwrap();
    let listing = String::from_utf8_lossy(&out.stdout);
    let ids: Vec<&str> = listing
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-') && w.contains('-'))
        .collect();
    assert!(ids.len() >= 8, "the rule ids are listed: {listing}");
    let all = fixtures();
    let mut missing = Vec::new();
    for id in ids {
        for kind in ["fires", "near-miss"] {
            if !all
                .iter()
                .any(|f| f.shown.starts_with(&format!("{id}/{kind}")))
            {
                missing.push(format!("{id}: no `{kind}` fixture in tests/ui/{id}/"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
