//! The command line for adopting bankcheck on a big repository, through the built
//! binary: exclusions (`--exclude`, `--extend-exclude`, `--force-exclude` and their
//! `lint.toml` keys), `--extend-select` and per-file ignores, shell completions and the
//! man page, and baselines (`--write-baseline`, `--baseline`) that survive moved lines.
//! Every project is written fresh by the test in a scratch directory.

use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_bankcheck");

/// Runs bankcheck in `dir` with `args`, with no colour or GitHub variables leaking in.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_WORKSPACE")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("the bankcheck binary runs")
}

/// Runs bankcheck in `dir` with `args`, feeding `stdin`.
fn run_with_stdin(dir: &Path, args: &[&str], stdin: &str) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bankcheck binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    input
        .write_all(stdin.as_bytes())
        .expect("stdin accepts the input");
    drop(input);
    child.wait_with_output().expect("bankcheck finishes")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn write(root: &Path, path: &str, content: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

/// A kernel whose column read of a 32x32 tile is a 32-way conflict.
const CONFLICT: &str = "\
__global__ void __launch_bounds__(32) column_read(float* out)
{
    __shared__ float tile[32][32];
    tile[0][threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][0];
}
";

/// The files `--show-files` lists, in order.
fn shown(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["--show-files"];
    all.extend_from_slice(args);
    let out = run_in(dir, &all);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// A project (a `.git` marks its root, so no lint.toml above it counts) with sources,
/// tests, a build directory and a vendored library.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join(".git")).unwrap();
    for path in [
        "src/k.cu",
        "src/gen/auto.cu",
        "tests/t.cu",
        "build/out.cu",
        "vendor/lib/v.cuh",
    ] {
        write(root, path, CONFLICT);
    }
    dir
}

#[test]
fn exclusions_replace_or_extend_the_defaults_and_named_paths_are_checked() {
    let dir = project();
    let root = dir.path();
    // The defaults skip build directories.
    assert_eq!(
        shown(root, &[]),
        [
            "src/gen/auto.cu",
            "src/k.cu",
            "tests/t.cu",
            "vendor/lib/v.cuh"
        ]
    );
    // `--extend-exclude` adds to them: a name, a relative glob, comma-separated.
    assert_eq!(
        shown(root, &["--extend-exclude", "vendor,src/gen/**"]),
        ["src/k.cu", "tests/t.cu"]
    );
    // `--exclude` replaces them: `build` is walked again.
    assert_eq!(
        shown(root, &["--exclude", "tests", "--exclude", "vendor"]),
        ["build/out.cu", "src/gen/auto.cu", "src/k.cu"]
    );
    // A path named on the command line is checked, even when excluded, unless
    // --force-exclude.
    assert_eq!(
        shown(root, &["build", "src/k.cu"]),
        ["build/out.cu", "src/k.cu"]
    );
    assert_eq!(
        shown(root, &["--extend-exclude", "src", "src/k.cu"]),
        ["src/k.cu"]
    );
    assert_eq!(
        shown(
            root,
            &[
                "--force-exclude",
                "--extend-exclude",
                "src",
                "build",
                "src/k.cu",
                "tests"
            ]
        ),
        ["tests/t.cu"]
    );
    // Standard input named after an excluded path: checked, unless --force-exclude,
    // when nothing is reported and --fix hands the source back unchanged.
    let named = ["--stdin-filename", "build/k.cu", "--format", "compact", "-"];
    let out = run_with_stdin(root, &named, CONFLICT);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let forced = [&named[..], &["--force-exclude"]].concat();
    let out = run_with_stdin(root, &forced, CONFLICT);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let fixing = [&forced[..], &["--fix"]].concat();
    let out = run_with_stdin(root, &fixing, CONFLICT);
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(0), CONFLICT.to_string())
    );
    // The same keys in lint.toml, relative to its directory: `exclude` replaces the
    // defaults, `extend-exclude` adds.
    write(root, "lint.toml", "exclude = [\"vendor/**\"]\n");
    assert_eq!(
        shown(root, &[]),
        ["build/out.cu", "src/gen/auto.cu", "src/k.cu", "tests/t.cu"]
    );
    write(
        root,
        "lint.toml",
        "extend-exclude = [\"gen\", \"tests/*.cu\"]\n",
    );
    assert_eq!(shown(root, &[]), ["src/k.cu", "vendor/lib/v.cuh"]);
    // A run from a subdirectory uses the file's globs relative to the file.
    assert_eq!(shown(&root.join("src"), &[]), ["k.cu"]);
    // The command line's `--exclude` replaces the file's `exclude`, not its
    // `extend-exclude`.
    assert_eq!(
        shown(root, &["--exclude", "vendor"]),
        ["build/out.cu", "src/k.cu"]
    );
    // A bad glob is an error that names the flag, or the file and key.
    let out = run_in(root, &["--exclude", "a[", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--exclude: bad glob `a[`"),
        "{}",
        text(&out.stderr)
    );
    write(root, "lint.toml", "extend-exclude = [\"a[\"]\n");
    let out = run_in(root, &["."]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("lint.toml:1:") && stderr.contains("bad glob"),
        "{stderr}"
    );
}

/// The files that have findings in a compact report, with their rules.
fn findings(out: &Output) -> Vec<String> {
    text(&out.stdout)
        .lines()
        .map(|line| {
            let file = line.split(':').next().unwrap_or_default();
            let rule = line
                .split_once('[')
                .and_then(|(_, rest)| rest.split_once(']'))
                .map_or("", |(rule, _)| rule);
            format!("{file} {rule}")
        })
        .collect()
}

#[test]
fn extend_select_and_per_file_ignores_from_the_file_and_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join(".git")).unwrap();
    // The lint.toml lives in `proj/`: its globs are relative to `proj/`, while the run
    // is made from the root, where the command line's are relative to.
    write(root, "proj/src/k.cu", CONFLICT);
    write(root, "proj/tests/t.cu", CONFLICT);
    // An array with no access found: only `undecided-access` (off by default) says so.
    write(
        root,
        "proj/src/idle.cu",
        "__global__ void idle(float* out)\n{\n    __shared__ float unused[64];\n    out[0] = 1.0f;\n}\n",
    );
    write(
        root,
        "proj/lint.toml",
        "select = [\"conflict\"]\nextend-select = [\"undecided-access\"]\n\n[per-file-ignores]\n\"tests/**\" = [\"conflict\"]\n",
    );
    let out = run_in(root, &["--format", "compact", "proj"]);
    let found = findings(&out);
    assert!(
        found.contains(&"proj/src/idle.cu undecided-access".to_string()),
        "{found:?}"
    );
    assert!(
        found.iter().any(|f| f.starts_with("proj/src/k.cu ")),
        "{found:?}"
    );
    assert!(
        !found.iter().any(|f| f.starts_with("proj/tests/")),
        "{found:?}"
    );
    // The command line's: relative to the working directory, repeatable, ids or groups.
    let out = run_in(
        root,
        &[
            "--format",
            "compact",
            "--per-file-ignores",
            "proj/src/k.cu:conflict",
            "--per-file-ignores",
            "**/idle.cu:undecided-access",
            "proj",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(findings(&out).is_empty(), "{:?}", findings(&out));
    // --extend-select on the command line adds to the file's select.
    write(root, "proj/lint.toml", "select = [\"layout-conflict\"]\n");
    let out = run_in(root, &["--format", "compact", "proj/src"]);
    assert!(!findings(&out)
        .iter()
        .any(|f| f.ends_with("undecided-access")));
    let out = run_in(
        root,
        &[
            "--format",
            "compact",
            "--extend-select",
            "undecided-access",
            "proj/src",
        ],
    );
    assert!(findings(&out).contains(&"proj/src/idle.cu undecided-access".to_string()));
    // --show-settings shows the per-file ignores, the exclusions and what applies.
    write(
        root,
        "proj/lint.toml",
        "extend-exclude = [\"gen\"]\n[per-file-ignores]\n\"tests/**\" = [\"possible\"]\n",
    );
    let out = run_in(
        root,
        &[
            "--show-settings",
            "--per-file-ignores",
            "proj/src/*.cu:layout-conflict",
            "proj/tests/t.cu",
        ],
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("per-file-ignores: [\"tests/**\"] = [\"possible-conflict\"] (proj/lint.toml; applies to this file)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("per-file-ignores: [\"proj/src/*.cu\"] = [\"layout-conflict\"] (--per-file-ignores; not this file)"),
        "{stdout}"
    );
    assert!(stdout.contains("\"possible-conflict\": None"), "{stdout}");
    assert!(stdout.contains("exclude: [\"build\""), "{stdout}");
    assert!(
        stdout.contains("extend-exclude: [\"gen\"] (proj/lint.toml)"),
        "{stdout}"
    );
    // Errors name the flag and suggest.
    let out = run_in(
        root,
        &["--per-file-ignores", "tests/**:bank-confict", "proj"],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--per-file-ignores: unknown rule or group `bank-confict`")
            && stderr.contains("did you mean `bank-conflict`?"),
        "{stderr}"
    );
    let out = run_in(root, &["--per-file-ignores", "tests/**", "proj"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is not GLOB:RULE,RULE"));
}

#[test]
fn completions_and_man_page_come_from_the_command_line_definition() {
    let dir = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = run_in(dir.path(), &["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", text(&out.stderr));
        let script = text(&out.stdout);
        for flag in [
            "write-baseline",
            "per-file-ignores",
            "extend-exclude",
            "format",
        ] {
            // fish names long flags without their dashes (`-l write-baseline`).
            let spelled = if shell == "fish" {
                format!("-l {flag}")
            } else {
                format!("--{flag}")
            };
            assert!(
                script.contains(&spelled),
                "{shell} completion lacks {spelled}"
            );
        }
        assert!(
            script.contains("explain"),
            "{shell} completion lacks a subcommand"
        );
        if shell == "bash" {
            let path = dir.path().join("bankcheck.bash");
            std::fs::write(&path, &script).unwrap();
            match Command::new("bash").arg("-n").arg(&path).output() {
                Ok(check) => assert!(
                    check.status.success(),
                    "bash -n refuses the script: {}",
                    text(&check.stderr)
                ),
                Err(e) => eprintln!("bash not found ({e}); syntax not checked"),
            }
        }
    }
    // ruff's name for it works too.
    let out = run_in(dir.path(), &["generate-shell-completion", "fish"]);
    assert_eq!(out.status.code(), Some(0));
    let out = run_in(dir.path(), &["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run_in(dir.path(), &["manpage"]);
    assert_eq!(out.status.code(), Some(0));
    let page = text(&out.stdout);
    assert!(
        page.starts_with(".ie") || page.contains(".TH bankcheck 1"),
        "{page}"
    );
    for flag in ["write\\-baseline", "extend\\-exclude", "force\\-exclude"] {
        assert!(page.contains(flag), "the man page lacks {flag}");
    }
}

/// The compact report's lines as (file, line, rule).
fn located(out: &Output) -> Vec<(String, usize, String)> {
    text(&out.stdout)
        .lines()
        .filter_map(|line| {
            let mut parts = line.splitn(4, ':');
            let file = parts.next()?.to_string();
            let number = parts.next()?.parse().ok()?;
            let rule = line.split_once('[')?.1.split_once(']')?.0.to_string();
            Some((file, number, rule))
        })
        .collect()
}

/// Two kernels with conflicts, and a clean array that a later edit makes conflict.
const PROJECT: &str = "\
#define N 32

__global__ void __launch_bounds__(32) column_read(float* out)
{
    __shared__ float tile[32][32];
    __shared__ float clean[64];
    tile[0][threadIdx.x] = 1.0f;
    clean[threadIdx.x] = 2.0f;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][0] + clean[threadIdx.x];
}

__global__ void __launch_bounds__(32) strided(int* out)
{
    __shared__ int s[32 * 8];
    s[threadIdx.x * 8] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x * 8];
}
";

/// A conflict in a helper, reported at its call: the access's function names the call's
/// line (`column (called from `via_helper` on line 12)`).
const HELPER: &str = "\
__shared__ float grid[32][32];

__device__ float column(int i)
{
    return grid[i][0];
}

__global__ void __launch_bounds__(32) via_helper(float* out)
{
    grid[0][threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = column(threadIdx.x);
}
";

#[test]
fn a_baseline_hides_todays_findings_through_moved_lines_and_reports_new_ones() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join(".git")).unwrap();
    write(root, "src/k.cu", PROJECT);
    write(root, "src/other.cu", CONFLICT);
    write(root, "src/helper.cu", HELPER);
    let before = run_in(root, &["--format", "compact", "."]);
    assert_eq!(before.status.code(), Some(1));
    let today = located(&before);
    assert!(today.len() >= 3, "{today:?}");

    // Writing the baseline prints no report and exits 0, findings or not.
    let out = run_in(
        root,
        &[
            "--write-baseline",
            "bankcheck-baseline.json",
            "--format",
            "json",
            ".",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains(&format!(
            "wrote bankcheck-baseline.json: {} findings in 3 files",
            today.len()
        )),
        "{}",
        text(&out.stderr)
    );
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("bankcheck-baseline.json")).unwrap())
            .unwrap();
    assert_eq!(written["version"], 1);
    let entries = written["entries"].as_array().unwrap();
    assert_eq!(entries.len(), today.len());
    assert!(entries.iter().any(|e| e["path"] == "src/k.cu"
        && e["array"] == "s"
        && e["function"] == "strided"
        && e["fingerprint"].as_str().is_some_and(|f| f.len() == 16)));
    // An array's own finding (the helper's access folded into it) names the array.
    assert!(
        entries
            .iter()
            .any(|e| e["path"] == "src/helper.cu" && e["array"] == "grid"),
        "{entries:?}"
    );
    // Nothing else was written.
    let mut names: Vec<String> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, [".git", "bankcheck-baseline.json", "src"]);

    // Lines move (a header comment, an include, reindented code) and unrelated code
    // changes: nothing is reported, and a note says how many the baseline matched.
    let moved = format!(
        "// Copyright header added later.\n#include <cstdio>\n\n{}",
        PROJECT
            .replace("#define N 32", "#define N 64\n#define M 2")
            .replace(
                "    __syncthreads();\n    out[threadIdx.x] = s",
                "    __syncthreads();\n\n\n        out[threadIdx.x]  =  s"
            )
    );
    write(root, "src/k.cu", &moved);
    // Lines between the helper and its caller move the call, not the access.
    write(
        root,
        "src/helper.cu",
        &HELPER.replace("}\n\n__global__", "}\n\n// The kernel.\n\n__global__"),
    );
    let out = run_in(
        root,
        &[
            "--baseline",
            "bankcheck-baseline.json",
            "--format",
            "compact",
            ".",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains(&format!(
            "note: bankcheck-baseline.json: {} findings matched the baseline and are not reported",
            today.len()
        )),
        "{}",
        text(&out.stderr)
    );
    // From another directory, the baseline's paths still resolve (they are relative to
    // the baseline file).
    let out = run_in(
        &root.join("src"),
        &["--baseline", "../bankcheck-baseline.json", "k.cu"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));

    // A new conflict (the clean array now read with a stride): only it is reported.
    let conflicting = moved.replace(
        "out[threadIdx.x] = tile[threadIdx.x][0] + clean[threadIdx.x];",
        "out[threadIdx.x] = tile[threadIdx.x][0] + clean[threadIdx.x * 2];",
    );
    assert_ne!(conflicting, moved);
    write(root, "src/k.cu", &conflicting);
    let out = run_in(
        root,
        &[
            "--baseline",
            "bankcheck-baseline.json",
            "--format",
            "compact",
            ".",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let new = located(&out);
    let clean_lines: Vec<usize> = conflicting
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("clean["))
        .map(|(i, _)| i + 1)
        .collect();
    assert!(!new.is_empty());
    for (file, line, _) in &new {
        assert_eq!(file, "src/k.cu");
        assert!(
            clean_lines.contains(line),
            "{new:?} is not about `clean` ({clean_lines:?})"
        );
    }
    // The same in JSON: the baseline's note is in the report's notes.
    let out = run_in(
        root,
        &[
            "--baseline",
            "bankcheck-baseline.json",
            "--format",
            "json",
            ".",
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["diagnostics"].as_array().unwrap().len(), new.len());
    assert!(
        report["notes"].to_string().contains("matched the baseline"),
        "{}",
        report["notes"]
    );

    // A new conflicting access of an array the baseline knows joins that array's
    // finding: the finding is a new problem, and is reported again.
    let more = conflicting.replace(
        "    clean[threadIdx.x] = 2.0f;",
        "    clean[threadIdx.x] = 2.0f;\n    tile[1][threadIdx.x] = tile[threadIdx.x][1];",
    );
    assert_ne!(more, conflicting);
    write(root, "src/k.cu", &more);
    let out = run_in(
        root,
        &[
            "--baseline",
            "bankcheck-baseline.json",
            "--format",
            "json",
            ".",
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["array"] == "tile"),
        "{}",
        report["diagnostics"]
    );
    write(root, "src/k.cu", &conflicting);

    // A fixed finding leaves an entry that matches nothing: the note says so.
    write(
        root,
        "src/other.cu",
        "__global__ void k(float* o) { o[0] = 1.0f; }\n",
    );
    let out = run_in(
        root,
        &["--baseline", "bankcheck-baseline.json", "src/other.cu"],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("matched nothing"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_missing_or_corrupt_baseline_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "k.cu", CONFLICT);
    let cases: [(&str, Option<&str>, &str); 4] = [
        (
            "missing.json",
            None,
            "missing.json: cannot read the baseline",
        ),
        (
            "bad.json",
            Some("{\"version\": 1, \"entries\": ["),
            "bad.json: not a bankcheck baseline",
        ),
        (
            "other.json",
            Some("{\"entries\": []}"),
            "other.json: not a bankcheck baseline (no `version` field)",
        ),
        (
            "future.json",
            Some("{\"version\": 99, \"entries\": []}"),
            "future.json: baseline version 99 is not supported",
        ),
    ];
    for (name, content, expected) in cases {
        if let Some(content) = content {
            write(root, name, content);
        }
        let out = run_in(root, &["--baseline", name, "k.cu"]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(out.stdout.is_empty(), "{name}: nothing is checked");
        assert!(
            text(&out.stderr).contains(expected),
            "{name}: {}",
            text(&out.stderr)
        );
    }
    // --write-baseline never overwrites a checked file, and refuses other outputs.
    let out = run_in(root, &["--write-baseline", "k.cu", "k.cu"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("a file being checked"));
    assert_eq!(
        std::fs::read_to_string(root.join("k.cu")).unwrap(),
        CONFLICT
    );
    let out = run_in(root, &["--write-baseline", "b.json", "--diff", "k.cu"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!root.join("b.json").exists());
    // A baseline that cannot be written is an error naming it.
    let out = run_in(root, &["--write-baseline", "no/such/dir/b.json", "k.cu"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot write the baseline no/such/dir/b.json"),
        "{}",
        text(&out.stderr)
    );
}
