//! Fixture tests: every file under tests/fixtures/{cuda,hlsl}/ is checked with the
//! default settings, and its `// expect:` comments are compared with what bankcheck
//! reports on that line.
//!
//! - `// expect: RULE [factor=F]`: the line has a diagnostic of RULE (with factor F);
//! - `// expect: ok`: the line has an access decided conflict-free;
//! - `// expect: unknown`: the line has an access bankcheck could not decide;
//! - `// expect: no-access`: the line has no access at all (an object handed whole to a
//!   function is not accessed at the call).
//!
//! A diagnostic on a line without a matching `expect: RULE` fails the test, as in
//! clippy's UI tests, so silent cases need no markup. A finding folded into another one
//! of the same problem (`Diagnostic::related`: an access labelled in its array's
//! `layout-conflict`, the store of `s[i] += x`) counts on its own line, with its own rule.

#[path = "support/sources.rs"]
mod sources;

use bankcheck::config::Settings;
use bankcheck::diag::Status;
use std::path::{Path, PathBuf};

fn fixture_files(dir: &Path, out: &mut Vec<PathBuf>) {
    sources::source_files(dir, &["cu", "cuh", "hlsl", "hlsli", "h"], out);
}

#[derive(Debug, PartialEq)]
enum Expect {
    Rule(String, Option<f64>),
    Ok,
    Unknown,
    NoAccess,
}

fn expectations(line: &str) -> Vec<Expect> {
    let Some(rest) = line.split("expect:").nth(1) else {
        return Vec::new();
    };
    rest.split(';')
        .filter_map(|part| {
            let mut words = part.split_whitespace();
            let head = words.next()?;
            let factor = words
                .find_map(|w| w.strip_prefix("factor="))
                .and_then(|f| f.parse().ok());
            Some(match head {
                "ok" => Expect::Ok,
                "unknown" => Expect::Unknown,
                "no-access" => Expect::NoAccess,
                rule => Expect::Rule(rule.to_string(), factor),
            })
        })
        .collect()
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Every finding of a report, those folded into another included.
fn findings(report: &bankcheck::FileReport) -> impl Iterator<Item = &bankcheck::diag::Diagnostic> {
    report
        .diagnostics
        .iter()
        .flat_map(bankcheck::diag::Diagnostic::with_related)
}

#[test]
fn fixtures_report_exactly_what_they_expect() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files = Vec::new();
    fixture_files(&root.join("cuda"), &mut files);
    fixture_files(&root.join("hlsl"), &mut files);
    assert!(files.len() >= 10, "fixtures missing: {}", files.len());
    // The fixtures form one run: launches and includes cross files, as on the command line.
    let mut session = bankcheck::driver::Session::new()
        .with_headers(Vec::new(), Box::new(|p: &Path| std::fs::read(p).ok()));
    session.index(&files, |path| {
        let text = std::fs::read(path).expect("fixture is readable");
        Some((path.clone(), String::from_utf8_lossy(&text).into_owned()))
    });
    let mut failures = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).expect("fixture is readable");
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        let report = session.check(&path.display().to_string(), &bytes, &Settings::default());
        let text = &report.text;
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            for e in expectations(line) {
                let ok = match &e {
                    Expect::Rule(rule, factor) => findings(&report).any(|d| {
                        d.rule == rule
                            && line_of(text, d.span.start) == n
                            && factor.is_none_or(|f| {
                                d.access
                                    .as_ref()
                                    .and_then(|a| a.conflict_factor)
                                    .is_some_and(|g| (g - f).abs() < 1e-9)
                            })
                    }),
                    Expect::Ok => report
                        .accesses
                        .iter()
                        .any(|a| line_of(text, a.span.start) == n && a.status == Status::Ok),
                    Expect::Unknown => report
                        .accesses
                        .iter()
                        .any(|a| line_of(text, a.span.start) == n && a.status == Status::Unknown),
                    Expect::NoAccess => !report
                        .accesses
                        .iter()
                        .any(|a| line_of(text, a.span.start) == n),
                };
                if !ok {
                    let found: Vec<String> = findings(&report)
                        .filter(|d| line_of(text, d.span.start) == n)
                        .map(|d| {
                            format!(
                                "{} {:?}",
                                d.rule,
                                d.access.as_deref().and_then(|a| a.conflict_factor)
                            )
                        })
                        .chain(
                            report
                                .accesses
                                .iter()
                                .filter(|a| line_of(text, a.span.start) == n)
                                .map(|a| {
                                    format!(
                                        "access {:?} {:?} {:?}",
                                        a.status, a.conflict_factor, a.reason
                                    )
                                }),
                        )
                        .collect();
                    failures.push(format!("{name}:{n}: expected {e:?}, found {found:?}"));
                }
            }
        }
        for d in findings(&report) {
            let n = line_of(text, d.span.start);
            let line = text.lines().nth(n - 1).unwrap_or("");
            let expected = expectations(line)
                .iter()
                .any(|e| matches!(e, Expect::Rule(r, _) if r == d.rule));
            if !expected {
                failures.push(format!("{name}:{n}: unexpected {}: {}", d.rule, d.message));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixture mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
