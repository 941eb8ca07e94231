//! The JSON report against docs/report.schema.json (JSON Schema draft 2020-12): the
//! schema is itself valid, real output from the examples and fixtures validates, and
//! reports that break the contract do not.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn report(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_bankcheck"))
        .args(["--format", "json"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect()
}

#[test]
fn the_schema_is_valid_draft_2020_12() {
    assert!(jsonschema::draft202012::meta::is_valid(&schema()));
}

#[test]
fn real_reports_validate() {
    let validator = jsonschema::draft202012::new(&schema()).unwrap();
    let report = report(&["examples", "tests/fixtures/cli", "--isolated"]);
    assert!(
        report["accesses"].as_array().is_some_and(|a| a.len() > 5),
        "the examples have accesses"
    );
    assert!(
        report["diagnostics"]
            .as_array()
            .is_some_and(|d| !d.is_empty()),
        "the examples have findings"
    );
    assert_eq!(errors(&validator, &report), Vec::<String>::new());
}

#[test]
fn broken_reports_do_not_validate() {
    let validator = jsonschema::draft202012::new(&schema()).unwrap();
    let good = report(&["tests/fixtures/cli/conflict.cu"]);
    assert!(validator.is_valid(&good));
    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("accesses");
    assert!(!validator.is_valid(&missing));
    let mut bad_status = good.clone();
    bad_status["accesses"][0]["status"] = Value::from("fine");
    assert!(!validator.is_valid(&bad_status));
    let mut undecided_with_factor = good.clone();
    undecided_with_factor["accesses"][0]["status"] = Value::from("unknown");
    assert!(
        !validator.is_valid(&undecided_with_factor),
        "an unknown access has a null factor"
    );
    let mut zero_line = good;
    zero_line["diagnostics"][0]["line"] = Value::from(0);
    assert!(!validator.is_valid(&zero_line));
}

/// A kernel whose one shared array has `count` accesses, each a 32-way conflict that
/// padding fixes: every access has a diagnostic carrying the array's fix.
fn many_accesses(count: usize) -> String {
    let mut k = String::from(
        "__global__ void many(float* out, const float* in) {\n    __shared__ float tile[32][32];\n    int tx = threadIdx.x;\n    float acc = 0.0f;\n",
    );
    for i in 0..count {
        let line = if i % 2 == 0 {
            format!("    tile[tx][{}] = in[{i}];\n", i % 32)
        } else {
            format!("    acc += tile[tx][{}];\n", (i * 7) % 32)
        };
        k.push_str(&line);
    }
    k + "    out[tx] = acc;\n}\n\nvoid launch(float* o, const float* i) { many<<<1, 32>>>(o, i); }\n"
}

#[test]
fn a_fix_shared_by_many_diagnostics_is_written_once() {
    let validator = jsonschema::draft202012::new(&schema()).unwrap();
    let count = 200;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("many.cu"), many_accesses(count)).unwrap();
    // By default the accesses that one fix mends are one finding, listing the others.
    let out = Command::new(env!("CARGO_BIN_EXE_bankcheck"))
        .args(["--format", "json", "--isolated", "many.cu"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(errors(&validator, &report), Vec::<String>::new());
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "one problem, one finding");
    assert_eq!(
        diagnostics[0]["related"].as_array().map(Vec::len),
        Some(count),
        "each access is listed"
    );
    // Accesses more severe than the array's finding keep their own, each with the fix.
    std::fs::write(
        dir.path().join("lint.toml"),
        "[rules]\nbank-conflict = \"error\"\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_bankcheck"))
        .args(["--format", "json", "many.cu"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(errors(&validator, &report), Vec::<String>::new());
    let fixes = report["fixes"].as_array().expect("fixes");
    assert_eq!(fixes.len(), 1, "one array, one fix");
    let table = fixes[0]["after"].as_array().expect("the whole table");
    assert_eq!(table.len(), count, "a row per access");
    assert_eq!(fixes[0]["array"], "tile");
    assert!(!fixes[0]["edits"].as_array().unwrap().is_empty());
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert!(diagnostics.len() >= count, "a diagnostic per access");
    let mut rows = 0;
    for d in diagnostics {
        let s = &d["suggestion"];
        assert_eq!(s["fix"], 0, "{d}");
        assert_eq!(s["message"], fixes[0]["message"]);
        assert_eq!(s["edits"], serde_json::json!([]), "the edits are the fix's");
        let after = s["after"].as_array().unwrap();
        for row in after {
            assert!(table.contains(row), "{row} is in the table");
        }
        if d["rule"] != "layout-conflict" {
            assert!(
                after.iter().all(|r| r["line"] == d["line"]),
                "a diagnostic at one access shows that access's rows: {d}"
            );
        }
        rows += after.len();
    }
    // Linear: the table once, each access's row once more (and the array's own
    // `layout-conflict` the table again), never a table per diagnostic.
    assert!(rows + table.len() <= 3 * count, "{rows} rows of `after`");
    let mut negative = report.clone();
    negative["diagnostics"][0]["suggestion"]["fix"] = Value::from(-1);
    assert!(!validator.is_valid(&negative));
    let mut incomplete = report;
    incomplete["fixes"][0]
        .as_object_mut()
        .unwrap()
        .remove("after");
    assert!(!validator.is_valid(&incomplete));
}
