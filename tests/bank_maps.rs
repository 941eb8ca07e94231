//! Bank maps through the built binary: `--show-banks` in text output (before and after the
//! fix, colour only when asked), the `--format html` page (checked as text, then opened in
//! a headless Chromium that clicks its table headers and draws it), and the step summary
//! of `--format github`. Fixtures: tests/fixtures/bank-maps/.
//!
//! The browser test needs Chromium (Debian's `chromium`, or `BANKCHECK_CHROMIUM=/path`).
//! Without one it says so and passes, unless `BANKCHECK_REQUIRE_CHROMIUM=1` (set by
//! .ci/run), which makes a missing browser a failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_bankcheck");

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bank-maps")
}

fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(BIN);
    command
        .args(args)
        .current_dir(fixtures())
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_WORKSPACE")
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("bankcheck runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The line of `out` that starts (after spaces) with `lead`.
fn line<'a>(out: &'a str, lead: &str) -> &'a str {
    out.lines()
        .find(|l| l.trim_start().starts_with(lead))
        .unwrap_or_else(|| panic!("no line starting with {lead:?} in:\n{out}"))
}

#[test]
fn text_shows_the_worst_wavefront_before_and_after_the_fix() {
    let plain = run(&["transpose.cu"], &[]);
    assert_eq!(plain.status.code(), Some(1));
    assert!(!stdout(&plain).contains("bank map"), "maps only when asked");

    let o = run(&["--show-banks", "--color", "never", "transpose.cu"], &[]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    // The column read: lane l reads word 32 * l, so all 32 lanes are in bank 0 ...
    assert!(
        line(&out, "before ").contains(&format!("W{}  32 wavefronts", ".".repeat(31))),
        "{out}"
    );
    assert!(
        line(&out, "before, bank 0:")
            .contains("32 words: 0 (lane 0), 32 (lane 1), 64 (lane 2), 96 (lane 3)"),
        "{out}"
    );
    // ... and with rows of 33 floats lane l reads word 33 * l: bank l, one word each.
    assert!(
        line(&out, "after ").contains(&format!(
            "{}  1 wavefront with the padding `__shared__ float tile[32][33];`",
            "1".repeat(32)
        )),
        "{out}"
    );
    // A finding of the whole array: the map names the access it pictures.
    assert!(line(&out, "= bank map of the worst wavefront")
        .contains("of the load at line 11: warp 0, lanes 0-31"));
    assert!(!out.contains('\u{1b}'), "no colour with --color never");

    let coloured = stdout(&run(
        &["--show-banks", "--color", "always", "transpose.cu"],
        &[],
    ));
    assert!(
        coloured.contains("\u{1b}[1;31mW\u{1b}[0m"),
        "the overloaded bank in red: {coloured}"
    );
}

#[test]
fn the_fix_the_map_shows_leaves_the_file_clean() {
    let dir = std::env::temp_dir().join(format!("bankcheck-bank-maps-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let file = dir.join("transpose.cu");
    std::fs::copy(fixtures().join("transpose.cu"), &file).expect("copy");
    let path = file.to_str().expect("utf-8 path");
    let fixed = run(&["--fix", path], &[]);
    assert_eq!(fixed.status.code(), Some(0), "{}", stdout(&fixed));
    let again = run(&["--show-banks", path], &[]);
    assert_eq!(again.status.code(), Some(0), "{}", stdout(&again));
    assert!(!stdout(&again).contains("bank map"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_conflict_without_a_fix_shows_before_only_and_says_so() {
    let out = stdout(&run(&["--show-banks", "no_fix.cu"], &[]));
    assert!(
        line(&out, "before ").contains(&format!("{}  2 wavefronts", "2.".repeat(16))),
        "{out}"
    );
    assert!(
        line(&out, "after ").contains("none: no layout fix was verified for this array"),
        "{out}"
    );
    assert!(line(&out, "before, bank 0:").contains("2 words: 0 (lane 0), 32 (lane 16)"));
}

#[test]
fn the_map_is_of_the_worst_warp_and_values() {
    // Warp 0 and the first three rounds are conflict-free: the map names warp 1 in the
    // last round, whose lane 0 is thread 32 at word 64.
    let out = stdout(&run(&["--show-banks", "later_warp.cu"], &[]));
    assert!(
        line(&out, "= bank map").contains("warp 1, round = 3, lanes 0-31"),
        "{out}"
    );
    assert!(line(&out, "before, bank 0:").contains("2 words: 64 (lane 0), 96 (lane 16)"));
}

#[test]
fn an_atomic_counts_each_lane_on_its_word() {
    let out = stdout(&run(&["--show-banks", "atomic.cu"], &[]));
    assert!(
        line(&out, "= bank map")
            .contains("the wavefronts it costs (an atomic serves each lane on a word alone)"),
        "{out}"
    );
    assert!(
        line(&out, "before ").contains(&format!("W{}  32 wavefronts", ".".repeat(31))),
        "{out}"
    );
    assert!(line(&out, "before, bank 0:").contains("1 word: 0 (lanes 0-31)"));
}

#[test]
fn the_map_is_drawn_where_a_run_time_bound_lets_the_lanes_in() {
    // At n = 0 no lane would run the load; enumeration takes its worst case where
    // `i < n` holds, and the map is drawn there.
    let out = stdout(&run(&["--show-banks", "run_time_bound.cu"], &[]));
    assert!(
        line(&out, "before ").contains(&format!("W{}  32 wavefronts", ".".repeat(31))),
        "{out}"
    );
    assert!(line(&out, "after ").contains("none: no layout fix was verified"));
}

#[test]
fn wide_accesses_picture_one_phase_and_count_the_warp() {
    let out = stdout(&run(&["--show-banks", "wide.cu"], &[]));
    // 8-byte lanes: a phase is 16 lanes; lane l covers words 8l and 8l + 1.
    assert!(line(&out, "= bank map").contains("lanes 0-15"), "{out}");
    assert!(
        line(&out, "before ")
            .contains("44......44......44......44......  4 wavefronts (the warp: 8 in 2 phases)"),
        "{out}"
    );
    assert!(
        line(&out, "after ").contains(&format!(
            "{}  1 wavefront (the warp: 2 in 2 phases) with the swizzle",
            "1".repeat(32)
        )),
        "{out}"
    );
}

#[test]
fn step_summary_draws_the_most_harmful_maps_and_counts_the_rest() {
    let dir = std::env::temp_dir().join(format!("bankcheck-summary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let summary = dir.join("summary.md");
    let summary_path = summary.to_str().expect("utf-8 path");
    let o = run(
        &["--format", "github", "."],
        &[("GITHUB_STEP_SUMMARY", summary_path)],
    );
    assert_eq!(o.status.code(), Some(1));
    let md = std::fs::read_to_string(&summary).expect("the step summary is written");
    assert!(md.contains("### Bank maps"), "{md}");
    // Six conflicts: the five most harmful drawn (the three 32-way ones first), the
    // sixth counted.
    assert_eq!(md.matches("```text\n").count(), 5, "{md}");
    let at = |name: &str| md.find(&format!("`{name}:"));
    for worst in ["atomic.cu", "run_time_bound.cu", "transpose.cu"] {
        let w = at(worst).unwrap_or_else(|| panic!("{worst} drawn: {md}"));
        for other in ["no_fix.cu", "later_warp.cu", "wide.cu"] {
            assert!(
                at(other).is_none_or(|o| w < o),
                "{worst} before {other}: {md}"
            );
        }
    }
    assert!(md.contains(&format!("  before  W{}  32 wavefronts", ".".repeat(31))));
    assert!(
        md.contains("1 more bank map not shown here; the HTML report"),
        "{md}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The HTML report of every fixture.
fn html_report() -> String {
    let o = run(&["--format", "html", "."], &[]);
    assert_eq!(o.status.code(), Some(1));
    stdout(&o)
}

#[test]
fn html_is_one_page_that_needs_no_network() {
    let page = html_report();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(
        page.contains("default-src 'none'"),
        "a policy that forbids loading anything"
    );
    for remote in ["http://", "https://", "src=", "<link"] {
        assert!(!page.contains(remote), "the page loads nothing: {remote}");
    }
    assert_eq!(page.matches("<tr data-order=").count(), 6);
    assert_eq!(page.matches("<figure class=\"map before\"").count(), 6);
    // Two conflicts have a verified fix (padding, swizzle), four have none.
    assert_eq!(page.matches("<figure class=\"map after\"").count(), 2);
    assert_eq!(page.matches("class=\"note after-none\"").count(), 4);
}

/// A Chromium to run, or `None` (a failure when CI requires one).
fn chromium() -> Option<PathBuf> {
    let required = std::env::var("BANKCHECK_REQUIRE_CHROMIUM").is_ok_and(|v| v == "1");
    let named = std::env::var_os("BANKCHECK_CHROMIUM").map(PathBuf::from);
    let found = named.or_else(|| {
        ["chromium", "chromium-browser", "google-chrome"]
            .iter()
            .find_map(|name| {
                std::env::var_os("PATH").and_then(|paths| {
                    std::env::split_paths(&paths)
                        .map(|p| p.join(name))
                        .find(|p| p.is_file())
                })
            })
    });
    match found {
        Some(path) => Some(path),
        None if required => panic!("BANKCHECK_REQUIRE_CHROMIUM=1 but no chromium was found"),
        None => {
            eprintln!("skipped: no chromium on the PATH (set BANKCHECK_CHROMIUM)");
            None
        }
    }
}

/// Runs headless Chromium on `page` with `extra` arguments; its standard output.
fn browse(browser: &Path, page: &Path, extra: &[&str]) -> String {
    let profile = page.with_extension("profile");
    let url = format!("file://{}", page.display());
    let mut command = Command::new(browser);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(&url);
    let o = command.output().expect("chromium runs");
    assert!(
        o.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn html_sorts_and_draws_in_a_real_browser() {
    let Some(browser) = chromium() else { return };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bank-maps-html");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let page = html_report();

    // The page as users get it, drawn: a screenshot to look at (target/tmp/...).
    let report = dir.join("report.html");
    std::fs::write(&report, &page).expect("write the page");
    let shot = dir.join("report.png");
    browse(
        &browser,
        &report,
        &[
            "--window-size=1400,2400",
            &format!("--screenshot={}", shot.display()),
        ],
    );
    let png = std::fs::read(&shot).expect("chromium wrote the screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "a drawn page"
    );

    // The same page with a script after it that clicks the headers as a user would
    // and writes what the table shows into the document, which Chromium then dumps.
    let probe = r"<script>
var out = {};
var rows = () => Array.from(document.querySelectorAll('#findings tbody tr'))
  .map(r => r.cells[0].textContent + ':' + r.cells[1].textContent + ':' + r.cells[4].textContent);
var th = k => document.querySelector('#findings th[data-key=' + k + ']');
out.initial = rows();
th('factor').click(); out.factor_first = rows(); out.factor_sort = th('factor').getAttribute('aria-sort');
th('factor').click(); out.factor_second = rows();
th('file').click(); out.file = rows();
out.before_clash = Array.from(document.querySelectorAll('figure.map.before')).map(f => f.querySelectorAll('td.hit.clash').length);
out.after_clash = Array.from(document.querySelectorAll('figure.map.after')).map(f => f.querySelectorAll('td.hit.clash').length);
out.after_hits = Array.from(document.querySelectorAll('figure.map.after')).map(f => f.querySelectorAll('td.hit').length);
out.grid_width = document.querySelector('table.grid').getBoundingClientRect().width;
var pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script>";
    let probed = dir.join("probed.html");
    std::fs::write(&probed, page.replace("</body>", &format!("{probe}</body>")))
        .expect("write the probed page");
    let dom = browse(&browser, &probed, &["--dump-dom"]);
    let json = dom
        .split("<pre id=\"probe\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .unwrap_or_else(|| panic!("the probe ran: {dom}"))
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    let v: serde_json::Value = serde_json::from_str(&json).expect("the probe's JSON");
    let list = |k: &str| -> Vec<String> {
        v[k].as_array()
            .unwrap_or_else(|| panic!("{k} in {v}"))
            .iter()
            .map(|x| x.as_str().unwrap_or_default().to_string())
            .collect()
    };
    // Report order: by path.
    let (atomic, late, no_fix, bound, tr, wide) = (
        "atomic.cu:6:32",
        "later_warp.cu:9:2",
        "no_fix.cu:6:2",
        "run_time_bound.cu:8:32",
        "transpose.cu:5:32",
        "wide.cu:5:4",
    );
    assert_eq!(list("initial"), [atomic, late, no_fix, bound, tr, wide]);
    // First click: most harmful first; second click: the other way (equal factors keep
    // the report's order both ways).
    assert_eq!(
        list("factor_first"),
        [atomic, bound, tr, wide, late, no_fix]
    );
    assert_eq!(v["factor_sort"], "descending");
    assert_eq!(
        list("factor_second"),
        [late, no_fix, wide, atomic, bound, tr]
    );
    assert_eq!(list("file")[0], atomic);
    // Before: every active lane of the pictured phase sits in an overloaded bank (32
    // lanes; 16 lanes of two words each for the doubles); after: none does.
    let ints = |k: &str| -> Vec<u64> {
        v[k].as_array()
            .unwrap_or_else(|| panic!("{k} in {v}"))
            .iter()
            .filter_map(serde_json::Value::as_u64)
            .collect()
    };
    assert_eq!(ints("before_clash"), [32; 6]);
    assert_eq!(ints("after_clash"), [0, 0]);
    assert_eq!(ints("after_hits"), [32, 32]);
    assert!(v["grid_width"].as_f64().is_some_and(|w| w > 300.0), "{v}");
}

/// The picture of docs/configuration.md ("Bank maps") and README.md is what the binary
/// prints for tests/fixtures/bank-maps/transpose.cu.
#[test]
fn the_documented_picture_is_the_binarys() {
    let out = stdout(&run(
        &["--show-banks", "--color", "never", "transpose.cu"],
        &[],
    ));
    let printed: Vec<&str> = out.lines().map(str::trim).collect();
    for doc in ["docs/configuration.md", "README.md"] {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(doc))
            .expect("the doc is readable");
        let block = text
            .split("```text\n")
            .find(|b| {
                b.trim_start()
                    .starts_with("= bank map of the worst wavefront")
            })
            .and_then(|b| b.split("```").next())
            .unwrap_or_else(|| panic!("{doc} shows a bank map"));
        let lines: Vec<&str> = block.lines().map(str::trim).collect();
        let start = printed
            .iter()
            .position(|l| *l == lines[0])
            .unwrap_or_else(|| panic!("{doc}: {:?} not printed:\n{out}", lines[0]));
        assert_eq!(
            &printed[start..start + lines.len()],
            lines.as_slice(),
            "{doc} differs from the output:\n{out}"
        );
    }
}
