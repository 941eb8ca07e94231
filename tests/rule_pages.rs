//! The examples of the rule pages (rules/*.md) run, through the built binary.
//!
//! In a page's `## Example` section, each `cuda` or `hlsl` code block is the file
//! `example.cu` or `example.hlsl`, and the `console` block after it shows a command and
//! its output:
//!
//! ````text
//! ```console
//! $ bankcheck --select undecided-access example.cu
//! note[undecided-access]: ...
//! ```
//! ````
//!
//! The command (optionally led by `NAME=VALUE` environment variables) is run in a scratch
//! directory holding only the example, and what it prints on standard output must be the
//! rest of the block (trailing spaces of each line aside, which editors strip). The
//! example must report the page's rule. Complete code blocks of `## Use instead` (a
//! kernel, not a fragment) must not report it.
//!
//! `BLESS=1 cargo test --test rule_pages` writes the real output into the pages instead.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_bankcheck");

fn blessing() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// A fenced code block of a page: its section, language, and line range of its body.
struct Block {
    section: String,
    lang: String,
    /// Index of the first body line and one past the last.
    body: std::ops::Range<usize>,
}

fn blocks(lines: &[&str]) -> Vec<Block> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut open: Option<(String, usize)> = None;
    for (i, line) in lines.iter().enumerate() {
        if let Some((lang, start)) = &open {
            if line.trim_end() == "```" {
                out.push(Block {
                    section: section.clone(),
                    lang: lang.clone(),
                    body: *start..i,
                });
                open = None;
            }
        } else if let Some(lang) = line.strip_prefix("```") {
            open = Some((lang.trim().to_string(), i + 1));
        } else if let Some(heading) = line.strip_prefix("## ") {
            section = heading.trim().to_string();
        }
    }
    assert!(open.is_none(), "an unclosed code block");
    out
}

fn extension(lang: &str) -> Option<&'static str> {
    match lang {
        "cuda" => Some("cu"),
        "hlsl" => Some("hlsl"),
        _ => None,
    }
}

/// Runs the command line of a console block (`$ [NAME=VALUE]... bankcheck ARGS`) in `dir`.
fn run_command(dir: &Path, command_line: &str) -> Result<Output, String> {
    let mut words = command_line.split_whitespace();
    let mut command = Command::new(BIN);
    command.current_dir(dir);
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
    loop {
        match words.next() {
            Some("bankcheck") => break,
            Some(w) if w.contains('=') => {
                let (k, v) = w.split_once('=').unwrap();
                command.env(k, v);
            }
            _ => return Err(format!("not a bankcheck command: `$ {command_line}`")),
        }
    }
    command.args(words);
    command.output().map_err(|e| e.to_string())
}

fn trim_lines(text: &str) -> String {
    text.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The rule ids a file reports with `args` (JSON format).
fn rules_reported(dir: &Path, args: &[&str]) -> Vec<String> {
    let out = Command::new(BIN)
        .args(["--format", "json"])
        .args(args)
        .current_dir(dir)
        .env_remove("BANKCHECK_TEST_CRASH")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    report["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["rule"].as_str().map(str::to_string))
        .collect()
}

/// Checks one page; returns its text with the real outputs when blessing.
fn check_page(path: &Path, failures: &mut Vec<String>) -> String {
    let id = path.file_stem().unwrap().to_string_lossy().into_owned();
    let page = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = page.lines().collect();
    let all = blocks(&lines);
    let mut replaced: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut examples = 0;
    for (n, block) in all.iter().enumerate() {
        let Some(ext) = extension(&block.lang) else {
            continue;
        };
        let code = lines[block.body.clone()].join("\n") + "\n";
        let scratch = tempfile::tempdir().unwrap();
        let file = format!("example.{ext}");
        std::fs::write(scratch.path().join(&file), &code).unwrap();
        if block.section == "Use instead" {
            // Fragments show one line of a fix; only whole kernels are checked.
            if code.contains("__global__") || code.contains("[numthreads") {
                let reported = rules_reported(scratch.path(), &["--select", &id, &file]);
                if reported.contains(&id) {
                    failures.push(format!("{id}: the `Use instead` code still reports `{id}`"));
                }
            }
            continue;
        }
        if block.section != "Example" {
            continue;
        }
        examples += 1;
        let Some(console) = all
            .get(n + 1)
            .filter(|b| b.lang == "console" && b.section == "Example")
        else {
            failures.push(format!(
                "{id}: the example on line {} has no console block after it",
                block.body.start
            ));
            continue;
        };
        let body = &lines[console.body.clone()];
        let Some(command_line) = body.first().and_then(|l| l.strip_prefix("$ ")) else {
            failures.push(format!(
                "{id}: a console block starts with `$ bankcheck ...`"
            ));
            continue;
        };
        if !command_line.split_whitespace().any(|w| w == file) {
            failures.push(format!("{id}: the command must check `{file}`"));
            continue;
        }
        let out = match run_command(scratch.path(), command_line) {
            Ok(out) => out,
            Err(e) => {
                failures.push(format!("{id}: {e}"));
                continue;
            }
        };
        let actual = trim_lines(&String::from_utf8_lossy(&out.stdout));
        let expected = trim_lines(&body[1..].join("\n"));
        if actual != expected {
            if blessing() {
                replaced.push((console.body.start + 1..console.body.end, actual.clone()));
            } else {
                failures.push(format!(
                    "{id}: the output of `{command_line}` differs from the page\n{}",
                    similar::TextDiff::from_lines(&expected, &actual)
                        .unified_diff()
                        .header("page", "actual")
                ));
            }
        }
        // The example shows the page's rule firing: the same command in JSON says so.
        let mut args: Vec<&str> = command_line
            .split_whitespace()
            .skip_while(|w| *w != "bankcheck")
            .skip(1)
            .collect();
        if !command_line.contains("BANKCHECK_TEST_CRASH") {
            args.retain(|a| !a.starts_with("--format"));
            if !rules_reported(scratch.path(), &args).contains(&id) {
                failures.push(format!("{id}: the example does not report `{id}`"));
            }
        } else if !actual.contains(&format!("[{id}]")) {
            failures.push(format!("{id}: the example does not report `{id}`"));
        }
    }
    if examples == 0 {
        failures.push(format!("{id}: `## Example` has no cuda or hlsl code block"));
    }
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_string()).collect();
    for (range, text) in replaced.into_iter().rev() {
        let new: Vec<String> = if text.is_empty() {
            Vec::new()
        } else {
            text.lines().map(str::to_string).collect()
        };
        out.splice(range, new);
    }
    out.join("\n") + "\n"
}

#[test]
fn rule_page_examples_report_what_the_pages_say() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 8, "the rule pages are found");
    let mut failures = Vec::new();
    for page in &pages {
        let text = check_page(page, &mut failures);
        if blessing() && text != std::fs::read_to_string(page).unwrap() {
            std::fs::write(page, text).unwrap();
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n\n`BLESS=1 cargo test --test rule_pages` writes the real outputs into the pages",
        failures.join("\n\n")
    );
}
