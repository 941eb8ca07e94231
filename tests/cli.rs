//! The command line, through the built binary: exit codes, configuration errors,
//! suppressions, every output format, standard input, `--output`, thread counts and
//! file discovery. Simple runs are case files in tests/fixtures/cli/cases/*.toml
//! (arguments, standard input, expected status and output); runs that need a
//! scratch directory or the environment are written out below.

use serde::Deserialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_bankcheck");

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cli")
}

/// Runs bankcheck in `dir` with `args`, feeding `stdin`, with no GitHub or colour
/// variables leaking in from the environment running the tests.
fn run_in(dir: &Path, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(BIN);
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_WORKSPACE")
        .env_remove("NO_COLOR");
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("the bankcheck binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin).expect("stdin accepts the input");
    drop(input);
    child.wait_with_output().expect("bankcheck finishes")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    args: Vec<String>,
    status: i32,
    stdin_file: Option<String>,
    stdout: Option<String>,
    #[serde(default)]
    stdout_contains: Vec<String>,
    #[serde(default)]
    stderr_contains: Vec<String>,
}

#[test]
fn case_files() {
    let dir = fixtures().join("cases");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    assert!(names.len() >= 10, "the case files are found");
    let mut failures = Vec::new();
    for path in names {
        let case: Case = toml::from_str(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let stdin = case
            .stdin_file
            .as_ref()
            .map(|f| std::fs::read(fixtures().join(f)).unwrap())
            .unwrap_or_default();
        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        let out = run_in(&fixtures(), &args, &stdin, &[]);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if out.status.code() != Some(case.status) {
            failures.push(format!(
                "{name}: status {:?}, expected {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
                out.status.code(),
                case.status
            ));
        }
        if let Some(expected) = &case.stdout {
            if &stdout != expected {
                failures.push(format!(
                    "{name}: stdout was\n{stdout}\nexpected\n{expected}"
                ));
            }
        }
        for needle in &case.stdout_contains {
            if !stdout.contains(needle.as_str()) {
                failures.push(format!("{name}: stdout lacks {needle:?}:\n{stdout}"));
            }
        }
        for needle in &case.stderr_contains {
            if !stderr.contains(needle.as_str()) {
                failures.push(format!("{name}: stderr lacks {needle:?}:\n{stderr}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A scratch project: the conflicting and clean fixtures, a header, a hidden directory
/// and a git-ignored file (without a git repository).
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let conflict = std::fs::read(fixtures().join("conflict.cu")).unwrap();
    let clean = std::fs::read(fixtures().join("clean.cu")).unwrap();
    for (path, bytes) in [
        ("src/conflict.cu", &conflict),
        ("src/clean.cu", &clean),
        ("src/deep/more.cuh", &conflict),
        ("src/header.h", &conflict),
        ("src/.hidden/skip.cu", &conflict),
        ("src/generated.cu", &conflict),
        (
            "shaders/clean.hlsl",
            &std::fs::read(fixtures().join("clean.hlsl")).unwrap(),
        ),
    ] {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    std::fs::write(root.join(".gitignore"), "generated.cu\n").unwrap();
    dir
}

fn compact_files(out: &Output) -> Vec<String> {
    let mut files: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| l.split(':').next().unwrap_or_default().to_string())
        .collect();
    files.dedup();
    files
}

#[test]
fn directories_are_walked_honouring_gitignore_and_hidden_files() {
    let dir = scratch();
    let out = run_in(dir.path(), &["--format", "compact", "src"], b"", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        compact_files(&out),
        vec!["src/conflict.cu", "src/deep/more.cuh", "src/header.h"]
    );
    std::fs::write(dir.path().join("src/plain.h"), "int add(int, int);\n").unwrap();
    let out = run_in(dir.path(), &["--format", "json", "."], b"", &[]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["files_checked"], 5,
        "two .cu, one .cuh, one .hlsl, the header that declares shared memory; \
         no plain header, hidden or ignored file"
    );
}

#[test]
fn headers_are_checked_when_named_and_globs_expand() {
    let dir = scratch();
    let out = run_in(
        dir.path(),
        &["--format", "compact", "src/header.h"],
        b"",
        &[],
    );
    assert_eq!(compact_files(&out), vec!["src/header.h"]);
    let out = run_in(
        dir.path(),
        &["--format", "compact", "src/**/*.cuh"],
        b"",
        &[],
    );
    assert_eq!(compact_files(&out), vec!["src/deep/more.cuh"]);
    let out = run_in(dir.path(), &["nothing/**/*.cu"], b"", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("nothing/**/*.cu: no files match this pattern"));
}

#[test]
fn config_is_discovered_per_file_nearest_wins_and_overrides_apply() {
    let dir = scratch();
    std::fs::write(dir.path().join("lint.toml"), "fail-on = \"error\"\n").unwrap();
    let out = run_in(dir.path(), &["src/conflict.cu"], b"", &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "the top lint.toml only fails on errors"
    );
    std::fs::write(
        dir.path().join("src/deep/lint.toml"),
        "[rules]\nconflict = \"error\"\n",
    )
    .unwrap();
    let out = run_in(dir.path(), &["--format", "compact", "src"], b"", &[]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the nearer lint.toml turns the deep conflict into an error"
    );
    assert!(
        text(&out.stdout).contains("src/deep/more.cuh:7:24: error[bank-conflict]"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).contains("src/conflict.cu:7:24: warning[bank-conflict]"));
    // Nearest wins without merging: the deep file's own lint.toml would ignore the top exclude.
    std::fs::rename(
        dir.path().join("src/deep/lint.toml"),
        dir.path().join("strict.toml"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("lint.toml"),
        "exclude = [\"src/deep/**\"]\n[[overrides]]\nfiles = [\"src/conflict.cu\", \"src/header.h\"]\nrules = { conflict = \"off\" }\n",
    )
    .unwrap();
    let out = run_in(dir.path(), &["src"], b"", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let out = run_in(
        dir.path(),
        &[
            "--config",
            "strict.toml",
            "--format",
            "compact",
            "src/conflict.cu",
        ],
        b"",
        &[],
    );
    assert!(
        text(&out.stdout).contains("error[bank-conflict]"),
        "--config wins over discovery"
    );
}

#[test]
fn wrong_type_in_config_names_the_key() {
    let dir = scratch();
    std::fs::write(
        dir.path().join("lint.toml"),
        "# hardware\nwarp-size = \"wide\"\n",
    )
    .unwrap();
    let out = run_in(dir.path(), &["src/clean.cu"], b"", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("lint.toml:2:13: invalid value for `warp-size`"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn unreadable_file_is_reported_and_the_rest_checked() {
    let dir = scratch();
    // A dangling symlink names a file that cannot be read.
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        dir.path().join("gone.cu"),
        dir.path().join("src/dangling.cu"),
    )
    .unwrap();
    #[cfg(unix)]
    {
        let out = run_in(
            dir.path(),
            &["--format", "compact", "src/dangling.cu", "src/conflict.cu"],
            b"",
            &[],
        );
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("src/dangling.cu"),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(compact_files(&out), vec!["src/conflict.cu"]);
    }
}

#[test]
fn output_is_the_same_for_any_thread_count() {
    let dir = scratch();
    let one = run_in(
        dir.path(),
        &["--format", "json", "--threads", "1", "."],
        b"",
        &[],
    );
    let two = run_in(
        dir.path(),
        &["--format", "json", "--threads", "2", "."],
        b"",
        &[],
    );
    assert_eq!(one.status.code(), Some(1));
    assert!(!one.stdout.is_empty());
    assert_eq!(text(&one.stdout), text(&two.stdout));
}

#[test]
fn output_file_receives_the_report() {
    let dir = scratch();
    let out = run_in(
        dir.path(),
        &[
            "--format",
            "json",
            "--output",
            "report.json",
            "src/conflict.cu",
        ],
        b"",
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "nothing on stdout");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("report.json")).unwrap()).unwrap();
    let diagnostics = report["diagnostics"].as_array().unwrap();
    let access = diagnostics
        .iter()
        .find(|d| d["line"] == 7)
        .expect("the load on line 7 is reported");
    assert_eq!(access["file"], "src/conflict.cu");
    assert_eq!(access["conflict_factor"], 32);
    assert_eq!(access["excess_wavefronts"], 31);
}

#[test]
fn github_annotations_escape_and_write_the_step_summary() {
    let dir = scratch();
    std::fs::copy(
        dir.path().join("src/conflict.cu"),
        dir.path().join("src/a,b: c.cu"),
    )
    .unwrap();
    let summary = dir.path().join("summary.md");
    let summary_text = summary.to_string_lossy().into_owned();
    let out = run_in(
        dir.path(),
        &[
            "--format",
            "github",
            "--ignore",
            "layout-conflict",
            "src/a,b: c.cu",
        ],
        b"",
        &[("GITHUB_STEP_SUMMARY", &summary_text)],
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout.lines().count(),
        1,
        "one annotation per finding, one line each: {stdout}"
    );
    assert!(
        stdout.starts_with(
            "::warning file=src/a%2Cb%3A c.cu,line=7,endLine=7,col=24,endColumn=44,title=bankcheck bank-conflict::\
             32-way bank conflict on load of `tile` (32 wavefronts, ideal 1)%0Ahelp: "
        ),
        "{stdout}"
    );
    let markdown = std::fs::read_to_string(&summary).unwrap();
    assert!(markdown.contains("### `src/a,b: c.cu`"), "{markdown}");
    assert!(
        markdown.contains("| 7 | warning | `bank-conflict` | 32 | 31 |"),
        "{markdown}"
    );
}

#[test]
fn sarif_carries_rules_results_and_numbers() {
    let out = run_in(&fixtures(), &["--format", "sarif", "conflict.cu"], b"", &[]);
    assert_eq!(out.status.code(), Some(1));
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = &sarif["runs"][0];
    let results = run["results"].as_array().unwrap();
    let result = results
        .iter()
        .find(|r| r["locations"][0]["physicalLocation"]["region"]["startLine"] == 7)
        .expect("the load on line 7 is a result");
    assert_eq!(result["ruleId"], "bank-conflict");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "conflict.cu"
    );
    assert_eq!(result["properties"]["conflict_factor"], 32);
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(rules.iter().any(|r| r["id"] == "bank-conflict"
        && r["help"]["markdown"]
            .as_str()
            .unwrap()
            .starts_with("# bank-conflict")));
}

#[test]
fn no_colour_unless_asked_or_a_terminal() {
    let out = run_in(&fixtures(), &["conflict.cu"], b"", &[]);
    assert!(!out.stdout.contains(&0x1b));
    let out = run_in(
        &fixtures(),
        &["--color", "auto", "conflict.cu"],
        b"",
        &[("NO_COLOR", "1")],
    );
    assert!(!out.stdout.contains(&0x1b));
}

#[test]
fn stats_go_to_stderr() {
    let out = run_in(
        &fixtures(),
        &["--stats", "--format", "json", "clean.cu"],
        b"",
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("bankcheck stats: 1 files; configuration"),
        "{}",
        text(&out.stderr)
    );
    serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("stdout stays pure JSON");
}

#[test]
fn check_subcommand_is_the_default_command() {
    let plain = run_in(
        &fixtures(),
        &["--format", "compact", "conflict.cu"],
        b"",
        &[],
    );
    let check = run_in(
        &fixtures(),
        &["check", "--format", "compact", "conflict.cu"],
        b"",
        &[],
    );
    assert_eq!(plain.stdout, check.stdout);
    assert_eq!(check.status.code(), Some(1));
}

/// Options before the subcommand (`bankcheck --color never explain bank-conflict`):
/// the subcommand still runs, rather than being read as a path to check.
#[test]
fn a_subcommand_after_options_still_runs() {
    let explained = run_in(
        &fixtures(),
        &["--color", "never", "explain", "bank-conflict"],
        b"",
        &[],
    );
    let direct = run_in(&fixtures(), &["explain", "bank-conflict"], b"", &[]);
    assert_eq!(
        explained.status.code(),
        Some(0),
        "{}",
        text(&explained.stderr)
    );
    assert_eq!(explained.stdout, direct.stdout);
    let rules = run_in(&fixtures(), &["--color", "never", "rules"], b"", &[]);
    assert_eq!(
        rules.stdout,
        run_in(&fixtures(), &["rules"], b"", &[]).stdout
    );
    let checked = run_in(
        &fixtures(),
        &["--format", "compact", "check", "conflict.cu"],
        b"",
        &[],
    );
    let plain = run_in(
        &fixtures(),
        &["--format", "compact", "conflict.cu"],
        b"",
        &[],
    );
    assert_eq!(checked.stdout, plain.stdout);
    assert_eq!(checked.status.code(), Some(1));
}

#[test]
fn diff_shows_and_fix_applies_safe_suggestions_keeping_line_endings() {
    let dir = scratch();
    let lf = dir.path().join("src/conflict.cu");
    let original = std::fs::read_to_string(&lf).unwrap();
    let crlf = dir.path().join("src/crlf.cu");
    std::fs::write(&crlf, original.replace('\n', "\r\n")).unwrap();

    let out = run_in(
        dir.path(),
        &["--diff", "--format", "compact", "src/conflict.cu"],
        b"",
        &[],
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("--- a/src/conflict.cu\n+++ b/src/conflict.cu\n"),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("-    __shared__ float tile[32][32];\n+    __shared__ float tile[32][33];\n"),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(&lf).unwrap(),
        original,
        "--diff writes nothing"
    );

    let out = run_in(
        dir.path(),
        &["--fix", "src/conflict.cu", "src/crlf.cu"],
        b"",
        &[],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "the padded tile is conflict-free: {}",
        text(&out.stdout)
    );
    let fixed = std::fs::read_to_string(&lf).unwrap();
    assert_eq!(fixed, original.replace("tile[32][32]", "tile[32][33]"));
    assert_eq!(
        std::fs::read_to_string(&crlf).unwrap(),
        fixed.replace('\n', "\r\n"),
        "CRLF is kept"
    );

    let out = run_in(dir.path(), &["--fix", "src/conflict.cu"], b"", &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&lf).unwrap(),
        fixed,
        "a second --fix changes nothing"
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("src"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "no temporary files left behind");
}

/// `--fix` on standard input writes the fixed source to standard output and the report
/// of what remains to standard error; a source with nothing to fix comes back as it was.
#[test]
fn fix_on_standard_input_writes_the_fixed_source_to_standard_output() {
    let source = std::fs::read(fixtures().join("conflict.cu")).unwrap();
    let out = run_in(
        &fixtures(),
        &["--fix", "--stdin-filename", "k.cu"],
        &source,
        &[],
    );
    let fixed = text(&out.stdout);
    assert!(fixed.contains("tile[32][33]"), "{fixed}");
    assert_eq!(
        fixed.replace("tile[32][33]", "tile[32][32]"),
        text(&source),
        "only the fix changes"
    );
    assert!(
        text(&out.stderr).contains("--fix applied 1 edit"),
        "{}",
        text(&out.stderr)
    );
    let clean = std::fs::read(fixtures().join("clean.cu")).unwrap();
    let out = run_in(&fixtures(), &["--fix", "-"], &clean, &[]);
    assert_eq!(out.stdout, clean);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn fix_leaves_arrays_reached_through_pointers_byte_for_byte_unchanged() {
    // Padding `tile` would change what `row` points at, and the access through `row` cannot
    // be re-simulated on a padded layout: no fix is offered, and --fix leaves the file as it is.
    let dir = tempfile::tempdir().unwrap();
    let src = "// bankcheck: block(32)\r\n__global__ void k(float* out) {\r\n    __shared__ float tile[32][32];\r\n    float* row = &tile[threadIdx.x][0];\r\n    out[threadIdx.x] = tile[threadIdx.x][0] + row[1];\r\n}\r\n";
    let path = dir.path().join("unsafe.cu");
    std::fs::write(&path, src).unwrap();
    let out = run_in(dir.path(), &["--fix", "unsafe.cu"], b"", &[]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the conflict remains: {}",
        text(&out.stdout)
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        src.as_bytes(),
        "the file is byte-for-byte unchanged"
    );
}

#[test]
fn an_include_found_only_in_the_workspace_fixes_the_index() {
    // The shader is checked alone; the header it includes lives in another folder (the
    // build passes `-I lib/config`), is not checked (no shared memory in it) and is
    // found by its unique name under the current directory.
    let dir = tempfile::tempdir().expect("scratch directory");
    std::fs::create_dir_all(dir.path().join("lib/config")).unwrap();
    std::fs::create_dir_all(dir.path().join("shaders")).unwrap();
    std::fs::write(
        dir.path().join("lib/config/tile_size.h"),
        "#define TILE 32\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("shaders/blur.hlsl"),
        "#include \"tile_size.h\"\ngroupshared float tile[TILE][TILE];\n[numthreads(TILE, TILE, 1)]\nvoid main(uint3 t : SV_GroupThreadID) { tile[t.x][t.y] = 0; }\n",
    )
    .unwrap();
    let out = run_in(
        dir.path(),
        &["--isolated", "--format", "json", "shaders/blur.hlsl"],
        b"",
        &[],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["accesses"][0]["conflict_factor"], 32.0, "{report}");
}

/// A parse error alone does not fail the run by default; `fail-on = info` makes it
/// fail; a broken region without shared memory is only counted in the JSON summary.
#[test]
fn parse_errors_alone_do_not_fail_by_default() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("k.cu"),
        "static int host(int x) { return x +* ; }\n\
         __global__ void k(float* o {\n    __shared__ float t[64];\n    o[0] = t[;\n}\n",
    )
    .unwrap();
    let out = run_in(dir.path(), &["--format", "json", "k.cu"], b"", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"parse-error"), "{rules:?}");
    assert!(report["parse_errors_not_reported"].as_u64().unwrap() >= 1);
    let out = run_in(dir.path(), &["--fail-on", "info", "k.cu"], b"", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
}

/// `--quiet`, `--exit-zero`, `--statistics`, `--output-format`, `rules --format json`,
/// forced colours and the warning when nothing was checked, as ruff users expect them.
#[test]
fn command_line_conveniences() {
    let dir = fixtures();
    // --quiet: the findings only, no summary line.
    let out = run_in(&dir, &["-q", "conflict.cu"], b"", &[]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("conflict on"), "{stdout}");
    assert!(!stdout.contains("Found "), "{stdout}");
    // --exit-zero: findings do not fail the run; a missing path still does.
    let out = run_in(&dir, &["--exit-zero", "conflict.cu"], b"", &[]);
    assert_eq!(out.status.code(), Some(0));
    let out = run_in(&dir, &["--exit-zero", "conflict.cu", "gone.cu"], b"", &[]);
    assert_eq!(out.status.code(), Some(2));
    // --statistics: one line per rule, then the total.
    let out = run_in(&dir, &["--statistics", "conflict.cu", "clean.cu"], b"", &[]);
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.len() >= 2, "{stdout}");
    assert!(lines.last().unwrap().starts_with("Found "), "{stdout}");
    assert!(
        lines[0]
            .split_whitespace()
            .next()
            .unwrap()
            .parse::<u32>()
            .is_ok(),
        "{stdout}"
    );
    assert!(!stdout.contains("┌─"), "{stdout}");
    // --output-format is --format.
    let a = run_in(
        &dir,
        &["--output-format", "compact", "conflict.cu"],
        b"",
        &[],
    );
    let b = run_in(&dir, &["--format", "compact", "conflict.cu"], b"", &[]);
    assert_eq!(a.stdout, b.stdout);
    // rules --format json: every rule, as objects.
    let out = run_in(&dir, &["rules", "--format", "json"], b"", &[]);
    let rules: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let ids: Vec<&str> = rules
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&"bank-conflict") && ids.contains(&"parse-error"),
        "{ids:?}"
    );
    // A retired id is listed with the rule it became, in both formats.
    let bank = rules
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "bank-conflict")
        .unwrap();
    assert_eq!(bank["retired_ids"], serde_json::json!(["stride-conflict"]));
    let out = run_in(&dir, &["rules"], b"", &[]);
    assert!(text(&out.stdout).contains("(stride-conflict is a retired id of bank-conflict)"));
    // FORCE_COLOR colours text output even when it is not a terminal; NO_COLOR alone
    // does not.
    let out = run_in(&dir, &["conflict.cu"], b"", &[("FORCE_COLOR", "1")]);
    assert!(text(&out.stdout).contains('\u{1b}'));
    let out = run_in(&dir, &["conflict.cu"], b"", &[("FORCE_COLOR", "0")]);
    assert!(!text(&out.stdout).contains('\u{1b}'));
    // Nothing to check is said on standard error (and not with --quiet).
    let empty = tempfile::tempdir().unwrap();
    std::fs::write(empty.path().join("notes.txt"), "no kernels here\n").unwrap();
    let out = run_in(empty.path(), &["."], b"", &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("no CUDA or HLSL file"),
        "{}",
        text(&out.stderr)
    );
    let out = run_in(empty.path(), &["-q", "."], b"", &[]);
    assert!(text(&out.stderr).is_empty());
    // A walk checks the headers that declare shared memory (CUDA libraries keep their
    // kernels in `.h` files, HLSL libraries ship shaders as `.h`); a plain C header is not.
    std::fs::create_dir(empty.path().join("lib")).unwrap();
    std::fs::write(empty.path().join("lib/util.h"), "int add(int a, int b);\n").unwrap();
    let out = run_in(empty.path(), &["--show-files", "."], b"", &[]);
    assert!(text(&out.stdout).trim().is_empty(), "{}", text(&out.stdout));
    std::fs::write(
        empty.path().join("lib/transpose.h"),
        "__global__ void k(float* o) {\n    __shared__ float t[32][32];\n    o[threadIdx.x] = t[threadIdx.x][0];\n}\nvoid go(float* o) { k<<<1, 32>>>(o); }\n",
    )
    .unwrap();
    let out = run_in(empty.path(), &["--show-files", "."], b"", &[]);
    assert_eq!(text(&out.stdout).trim(), "lib/transpose.h");
    let out = run_in(empty.path(), &["--format", "json", "."], b"", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let access = &report["accesses"][0];
    assert_eq!(access["file"], "lib/transpose.h");
    assert_eq!(access["conflict_factor"], 32);
    // `include-headers = false` leaves them to the files that include them.
    std::fs::write(empty.path().join("lint.toml"), "include-headers = false\n").unwrap();
    let out = run_in(empty.path(), &["--show-files", "."], b"", &[]);
    assert!(text(&out.stdout).trim().is_empty(), "{}", text(&out.stdout));
}

/// A comment that starts like a suppression but is not one is reported through the
/// binary, and `ignore-next-line` silences the line below it only.
#[test]
fn malformed_suppressions_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let source = "__global__ void k(float* out) {\n    __shared__ float s[32 * 32];\n    // bankcheck: ignore-next-line[bank-conflict]\n    out[threadIdx.x] = s[threadIdx.x * 32];\n    // bankcheck: ignore bank-conflict\n    out[threadIdx.x] += s[threadIdx.x * 32 + 1];\n}\nvoid launch(float* o) { k<<<1, 32>>>(o); }\n";
    std::fs::write(dir.path().join("k.cu"), source).unwrap();
    let out = run_in(dir.path(), &["--format", "json", "k.cu"], b"", &[]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The findings' lines, those folded into another finding of the same problem included.
    let mut lines: Vec<(u64, String)> = Vec::new();
    for d in report["diagnostics"].as_array().unwrap() {
        for f in std::iter::once(d).chain(d["related"].as_array().unwrap()) {
            lines.push((f["line"].as_u64().unwrap(), f["message"].to_string()));
        }
    }
    assert!(!lines.iter().any(|(l, _)| *l == 4), "{lines:?}");
    assert!(lines.iter().any(|(l, _)| *l == 6), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|(l, m)| *l == 5 && m.contains("malformed suppression")),
        "{lines:?}"
    );
}

/// `--show-files` lists what a run would check; a missing path that spells a subcommand
/// gets a did-you-mean.
#[test]
fn show_files_and_mistyped_subcommands() {
    let dir = scratch();
    let out = run_in(dir.path(), &["--show-files", "src"], b"", &[]);
    assert_eq!(out.status.code(), Some(0));
    let listed: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert!(
        listed.contains(&"src/conflict.cu".to_string()),
        "{listed:?}"
    );
    assert!(
        !listed
            .iter()
            .any(|l| l.contains(".hidden") || l.contains("generated")),
        "{listed:?}"
    );
    let out = run_in(dir.path(), &["rule"], b"", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean `bankcheck rules`?"),
        "{}",
        text(&out.stderr)
    );
}

/// `--diff` prints the diff and nothing else; `--fix` says what it changed.
#[test]
fn diff_prints_only_the_diff_and_fix_says_what_it_did() {
    let dir = scratch();
    let out = run_in(dir.path(), &["--diff", "src/conflict.cu"], b"", &[]);
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("--- a/src/conflict.cu"), "{stdout}");
    assert!(
        !stdout.contains("warning[") && !stdout.contains("Found "),
        "{stdout}"
    );
    let out = run_in(
        dir.path(),
        &["--fix", "src/conflict.cu", "src/clean.cu"],
        b"",
        &[],
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("fixed: src/conflict.cu: 1 edit"),
        "{stderr}"
    );
    assert!(
        stderr.contains("--fix applied 1 edit in 1 file"),
        "{stderr}"
    );
}

/// Configuration discovery stops at the repository's root, and another tool's
/// `lint.toml` (none of bankcheck's keys) is skipped with a note; a mistyped key of
/// bankcheck's is still an error.
#[test]
fn config_discovery_stops_at_the_repository_and_skips_foreign_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("repo/.git")).unwrap();
    std::fs::create_dir_all(root.join("repo/src")).unwrap();
    std::fs::copy(
        fixtures().join("conflict.cu"),
        root.join("repo/src/conflict.cu"),
    )
    .unwrap();
    // Above the repository: would switch every rule off.
    std::fs::write(root.join("lint.toml"), "ignore = [\"all\"]\n").unwrap();
    // Another tool's file inside it.
    std::fs::write(root.join("repo/src/lint.toml"), "[tool]\nstrict = true\n").unwrap();
    let repo = root.join("repo");
    let out = run_in(&repo, &["--format", "compact", "src/conflict.cu"], b"", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("conflict"),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stderr).contains("holds no bankcheck settings"),
        "{}",
        text(&out.stderr)
    );
    std::fs::write(root.join("repo/src/lint.toml"), "bank_count = 16\n").unwrap();
    let out = run_in(&repo, &["src/conflict.cu"], b"", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("bank-count"),
        "{}",
        text(&out.stderr)
    );
}

/// `--show-settings` prints the settings that apply to a file and where they come from.
#[test]
fn show_settings_names_the_config_and_the_values() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixtures().join("conflict.cu"), dir.path().join("k.cu")).unwrap();
    std::fs::write(dir.path().join("lint.toml"), "bank-count = 16\n").unwrap();
    let out = run_in(
        dir.path(),
        &["--show-settings", "--warp-size", "16", "k.cu"],
        b"",
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("Settings for k.cu\nFrom: lint.toml"),
        "{stdout}"
    );
    assert!(
        stdout.contains("bank_count: 16") && stdout.contains("warp_size: 16"),
        "{stdout}"
    );
    let out = run_in(
        dir.path(),
        &["--isolated", "--show-settings", "k.cu"],
        b"",
        &[],
    );
    assert!(
        text(&out.stdout).contains("From: no lint.toml"),
        "{}",
        text(&out.stdout)
    );
}
