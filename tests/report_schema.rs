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
