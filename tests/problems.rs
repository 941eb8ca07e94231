//! One problem, one diagnostic, through the built binary: the accesses one fix mends are
//! one finding in every format, the load and store of one expression are one, every
//! access stays in the JSON `accesses`; a retired rule id keeps working in lint.toml and
//! suppression comments and names the new id; the worst case names values, not iterations.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_bankcheck");

/// A 16x16 stencil on a tile with a one-element halo: a row of 18 words puts the two
/// half-warps' rows 2-way in conflict, at the store and at each of the five loads.
const STENCIL: &str = "#define N 16
__global__ void stencil(float* out, const float* in) {
    __shared__ float tile[N + 2][N + 2];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y + 1][x + 1] = in[y * N + x];
    __syncthreads();
    float c = tile[y + 1][x + 1];
    float l = tile[y + 1][x];
    float r = tile[y + 1][x + 2];
    float u = tile[y][x + 1];
    float d = tile[y + 2][x + 1];
    out[y * N + x] = c + l + r + u + d;
}
void go(float* o, const float* i) { stencil<<<1, dim3(16, 16)>>>(o, i); }
";

/// The interleaved tree reduction: `sdata[i] += sdata[i + s]` with `i = 2 * s * t`.
const REDUCE: &str = "__global__ void reduce(float* out, const float* in) {
    __shared__ float sdata[256];
    unsigned t = threadIdx.x;
    sdata[t] = in[t];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned i = 2 * s * t;
        if (i < blockDim.x) {
            sdata[i] += sdata[i + s];
        }
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = sdata[0];
}
void go(float* o, const float* i) { reduce<<<1, 256>>>(o, i); }
";

/// A transpose through a file-scope tile: the column store conflicts, the row load not.
const TRANSPOSE: &str = "__shared__ float tile[32][32];

__global__ void transpose(const float* in, float* out) {
    int t = threadIdx.x;
    tile[t][0] = in[t];
    __syncthreads();
    out[t] = tile[0][t];
}

void launch(const float* in, float* out) { transpose<<<1, 32>>>(in, out); }
";

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(["--color", "never"])
        .args(args)
        .current_dir(dir)
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_WORKSPACE")
        .env_remove("NO_COLOR")
        .output()
        .expect("the bankcheck binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A scratch directory holding `files`.
fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in files {
        std::fs::write(dir.path().join(name), body).unwrap();
    }
    dir
}

fn json(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    serde_json::from_slice(&run(dir, &all).stdout).expect("a JSON report")
}

/// The accesses of a report, as (line, kind, status, factor): what verdicts are judged by.
fn verdicts(report: &Value) -> Vec<(u64, String, String, String)> {
    report["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["line"].as_u64().unwrap(),
                a["kind"].to_string(),
                a["status"].to_string(),
                a["conflict_factor"].to_string(),
            )
        })
        .collect()
}

#[test]
fn a_layout_problem_of_a_stencil_is_one_finding_in_every_format() {
    let dir = project(&[("stencil.cu", STENCIL)]);
    let report = json(dir.path(), &["stencil.cu"]);
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let d = &diagnostics[0];
    assert_eq!(
        (d["rule"].as_str(), d["line"].as_u64()),
        (Some("layout-conflict"), Some(3))
    );
    assert_eq!(d["array"], "tile");
    let related = d["related"].as_array().unwrap();
    let lines: Vec<u64> = related
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, vec![5, 7, 8, 9, 10, 11]);
    assert!(related
        .iter()
        .all(|r| r["rule"] == "bank-conflict" && r["conflict_factor"] == 2));
    // Every access keeps its own entry and verdict.
    let accesses = verdicts(&report);
    assert_eq!(accesses.len(), 6);
    assert!(accesses
        .iter()
        .all(|(_, _, status, f)| status == "\"conflict\"" && f == "2"));

    let shown = text(&run(dir.path(), &["stencil.cu"]).stdout);
    assert_eq!(shown.matches("warning[").count(), 1, "{shown}");
    assert_eq!(
        shown
            .matches("of `tile`: factor 2, 2 wavefronts where 1 would do")
            .count(),
        6,
        "each access is a labelled span: {shown}"
    );
    assert!(shown.contains("Found 1 problem (1 warning)"), "{shown}");

    let sarif: Value =
        serde_json::from_slice(&run(dir.path(), &["--format", "sarif", "stencil.cu"]).stdout)
            .unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    let locations = results[0]["relatedLocations"].as_array().unwrap();
    assert_eq!(locations.len(), 6, "{locations:#?}");
    assert_eq!(locations[0]["physicalLocation"]["region"]["startLine"], 5);

    let github = text(&run(dir.path(), &["--format", "github", "stencil.cu"]).stdout);
    assert_eq!(github.lines().count(), 1, "{github}");
    assert!(
        github.contains("conflicting accesses at line 5 (store, 2-way), line 7 (load, 2-way)"),
        "{github}"
    );
}

#[test]
fn the_accesses_of_one_line_are_one_finding_with_values_not_iterations() {
    let dir = project(&[("reduce.cu", REDUCE)]);
    let out = run(dir.path(), &["reduce.cu"]);
    let shown = text(&out.stdout);
    assert_eq!(
        shown.matches("warning[bank-conflict]").count(),
        1,
        "{shown}"
    );
    assert!(
        shown.contains("8-way bank conflict on load and store of `sdata`"),
        "{shown}"
    );
    assert!(shown.contains("= worst case at s = 4\n"), "{shown}");
    assert!(!shown.contains("(iteration)"), "{shown}");
    let report = json(dir.path(), &["reduce.cu"]);
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0]["related"].as_array().unwrap().len(), 2);
    let on_line_9 = verdicts(&report)
        .into_iter()
        .filter(|(line, ..)| *line == 9)
        .count();
    assert_eq!(on_line_9, 3, "load, load and store stay three accesses");
}

#[test]
fn a_transpose_is_one_finding_and_a_more_severe_access_stays_apart() {
    let dir = project(&[("transpose.cu", TRANSPOSE)]);
    let report = json(dir.path(), &["transpose.cu"]);
    let rules: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, vec!["layout-conflict"]);
    assert_eq!(verdicts(&report).len(), 2);
    // An access configured more severe than the array's finding keeps its own finding,
    // so the exit status under `fail-on = "error"` is what it was.
    std::fs::write(
        dir.path().join("lint.toml"),
        "fail-on = \"error\"\n[rules]\nbank-conflict = \"error\"\n",
    )
    .unwrap();
    let out = run(dir.path(), &["--format", "compact", "transpose.cu"]);
    let shown = text(&out.stdout);
    assert!(shown.contains("warning[layout-conflict]"), "{shown}");
    assert!(
        shown.contains("transpose.cu:5:5: error[bank-conflict]"),
        "{shown}"
    );
    assert_eq!(out.status.code(), Some(1));
    // A suppression at the access silences it as before: the array's finding stays.
    let suppressed = TRANSPOSE.replace(
        "    tile[t][0] = in[t];",
        "    tile[t][0] = in[t]; // bankcheck: ignore[bank-conflict] known",
    );
    std::fs::remove_file(dir.path().join("lint.toml")).unwrap();
    std::fs::write(dir.path().join("transpose.cu"), suppressed).unwrap();
    let report = json(dir.path(), &["transpose.cu"]);
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["rule"], "layout-conflict");
    assert_eq!(diagnostics[0]["related"], serde_json::json!([]));
}

#[test]
fn accesses_with_one_lane_pattern_are_one_finding() {
    // Four stores of one stride-2 pattern, shifted by whole banks: one problem. The
    // stride-4 load is another one. (A dynamic array gets no layout fix.)
    const QUAD: &str = "__global__ void k(float* out) {
    extern __shared__ float s[];
    int i = threadIdx.x * 2;
    s[i] = 1;
    s[i + 1] = 2;
    s[i + 256] = 3;
    s[i + 257] = 4;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x * 4];
}
void launch(float* o) { k<<<1, 64, 4096>>>(o); }
";
    let dir = project(&[("quad.cu", QUAD)]);
    let report = json(dir.path(), &["quad.cu"]);
    let found: Vec<(u64, usize, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["line"].as_u64().unwrap(),
                d["related"].as_array().unwrap().len(),
                d["conflict_factor"].to_string(),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![(4, 3, "2".to_string()), (9, 0, "4".to_string())],
        "the four stores are one finding, the load another"
    );
    assert_eq!(verdicts(&report).len(), 5);

    // Strides of two run-time values are two problems; the same one shifted is one.
    let strides = "__global__ void k(float* out, int d, int n) {
    extern __shared__ float s[];
    out[threadIdx.x] = s[threadIdx.x * d];
    out[threadIdx.x + 32] = s[threadIdx.x * n];
    out[threadIdx.x + 64] = s[threadIdx.x * d + 64];
}
void launch(float* o, int d, int n) { k<<<1, 32, 4096>>>(o, d, n); }
";
    std::fs::write(dir.path().join("strides.cu"), strides).unwrap();
    let report = json(dir.path(), &["strides.cu"]);
    let found: Vec<(u64, Vec<u64>)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let related = d["related"].as_array().unwrap();
            (
                d["line"].as_u64().unwrap(),
                related
                    .iter()
                    .map(|r| r["line"].as_u64().unwrap())
                    .collect(),
            )
        })
        .collect();
    assert_eq!(found, vec![(3, vec![5]), (4, vec![])]);
}

#[test]
fn the_retired_stride_conflict_id_still_works_and_names_bank_conflict() {
    const STRIDE: &str = "__global__ void k(float* out) {
    __shared__ float s[32 * 32];
    out[threadIdx.x] = s[threadIdx.x * 32];
}
void launch(float* out) { k<<<1, 32>>>(out); }
";
    let dir = project(&[
        ("k.cu", STRIDE),
        ("lint.toml", "[rules]\nstride-conflict = \"error\"\n"),
    ]);
    let out = run(dir.path(), &["--format", "compact", "k.cu"]);
    assert!(
        text(&out.stdout).contains("k.cu:3:24: error[bank-conflict] 32-way bank conflict"),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stderr).contains(
            "note: lint.toml:2: `stride-conflict` is a retired rule id: it selects `bank-conflict`; write `bank-conflict`"
        ),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1));
    // On the command line too.
    std::fs::remove_file(dir.path().join("lint.toml")).unwrap();
    let out = run(dir.path(), &["--ignore", "stride-conflict", "k.cu"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));

    // In a suppression comment: it silences the conflict and names the new id.
    let suppressed = STRIDE.replace(
        "s[threadIdx.x * 32];",
        "s[threadIdx.x * 32]; // bankcheck: ignore[stride-conflict] measured",
    );
    std::fs::write(dir.path().join("k.cu"), &suppressed).unwrap();
    let out = run(dir.path(), &["--format", "compact", "k.cu"]);
    assert_eq!(
        text(&out.stdout),
        "k.cu:3:66: info[retired-rule-id] `stride-conflict` is a retired rule id: it is `bank-conflict` now\n"
    );
    assert_eq!(out.status.code(), Some(0));
    // `--fix` writes the new id, and the comment still silences the conflict.
    let out = run(dir.path(), &["--fix", "k.cu"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let fixed = std::fs::read_to_string(dir.path().join("k.cu")).unwrap();
    assert!(
        fixed.contains("// bankcheck: ignore[bank-conflict] measured"),
        "{fixed}"
    );
    let out = run(dir.path(), &["k.cu"]);
    assert!(
        text(&out.stdout).starts_with("No problems found"),
        "{}",
        text(&out.stdout)
    );
    // `explain` takes the retired id to the rule's page.
    let out = Command::new(BIN)
        .args(["explain", "stride-conflict"])
        .output()
        .unwrap();
    assert!(
        text(&out.stdout).starts_with("# bank-conflict"),
        "{}",
        text(&out.stdout)
    );
}
