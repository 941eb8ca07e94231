//! `--format json`: the stable contract of docs/bank-model.md §2 (schema 1), described
//! by docs/report.schema.json. Fields are only ever added, never renamed.

use super::{factor_json, LineIndex, Run};
use crate::diag::{AccessFacts, Diagnostic};
use serde_json::{json, Map, Value};

/// The version of the JSON layout.
pub const SCHEMA: u64 = 1;

/// Renders the whole run as one pretty-printed JSON object followed by a newline.
pub fn render(run: &Run<'_>) -> String {
    let mut diagnostics = Vec::new();
    let mut accesses = Vec::new();
    for file in run.files {
        let index = LineIndex::new(&file.text);
        diagnostics.extend(
            file.diagnostics
                .iter()
                .map(|d| diagnostic(&file.path, &index, d)),
        );
        accesses.extend(file.accesses.iter().map(|a| access(&file.path, &index, a)));
    }
    let errors: Vec<Value> = run
        .failures
        .iter()
        .map(|(file, message)| json!({"file": file, "message": message}))
        .collect();
    let report = json!({
        "schema": SCHEMA,
        "version": env!("CARGO_PKG_VERSION"),
        "files_checked": run.files.len(),
        "diagnostics": diagnostics,
        "accesses": accesses,
        "errors": errors,
    });
    let mut out = serde_json::to_string_pretty(&report).unwrap_or_default();
    out.push('\n');
    out
}

fn diagnostic(path: &str, index: &LineIndex<'_>, d: &Diagnostic) -> Value {
    let at = index.position(d.span);
    let mut o = Map::new();
    o.insert("rule".into(), json!(d.rule));
    o.insert("severity".into(), json!(d.severity));
    o.insert("file".into(), json!(path));
    o.insert("line".into(), json!(at.line));
    o.insert("column".into(), json!(at.column));
    o.insert("end_line".into(), json!(at.end_line));
    o.insert("end_column".into(), json!(at.end_column));
    o.insert("message".into(), json!(d.message));
    let facts = d.access.as_ref();
    o.insert("array".into(), json!(facts.map(|a| &a.array)));
    o.insert("kind".into(), json!(facts.map(|a| a.kind)));
    o.insert(
        "conflict_factor".into(),
        factor_json(facts.and_then(|a| a.conflict_factor)),
    );
    o.insert("wavefronts".into(), json!(facts.and_then(|a| a.wavefronts)));
    o.insert(
        "ideal_wavefronts".into(),
        json!(facts.and_then(|a| a.ideal_wavefronts)),
    );
    o.insert(
        "excess_wavefronts".into(),
        json!(facts.and_then(AccessFacts::excess_wavefronts)),
    );
    o.insert(
        "factor_is_lower_bound".into(),
        json!(facts.is_some_and(|a| a.factor_is_lower_bound)),
    );
    o.insert(
        "condition".into(),
        json!(facts.and_then(|a| a.condition.as_ref())),
    );
    o.insert("notes".into(), json!(d.notes));
    o.insert("help".into(), json!(d.help));
    let labels: Vec<Value> = d
        .labels
        .iter()
        .map(|l| {
            let p = index.position(l.span);
            json!({"line": p.line, "column": p.column, "end_line": p.end_line, "end_column": p.end_column, "message": l.message})
        })
        .collect();
    o.insert("labels".into(), Value::Array(labels));
    o.insert(
        "suggestion".into(),
        d.suggestion.as_ref().map_or(Value::Null, |s| {
            serde_json::to_value(s).unwrap_or(Value::Null)
        }),
    );
    Value::Object(o)
}

fn access(path: &str, index: &LineIndex<'_>, a: &AccessFacts) -> Value {
    let at = index.position(a.span);
    json!({
        "file": path,
        "line": at.line,
        "column": at.column,
        "end_line": at.end_line,
        "end_column": at.end_column,
        "array": a.array,
        "pointer": a.pointer,
        "kind": a.kind,
        "element_bytes": a.element_bytes,
        "status": a.status,
        "conflict_factor": factor_json(a.conflict_factor),
        "wavefronts": a.wavefronts,
        "ideal_wavefronts": a.ideal_wavefronts,
        "excess_wavefronts": a.excess_wavefronts(),
        "reason": a.reason,
        "assumptions": a.assumptions,
        "depends_on": a.depends_on,
        "method": a.method,
        "exact": a.exact,
        "factor_is_lower_bound": a.factor_is_lower_bound,
        "condition": a.condition,
        "function": a.function,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample;

    #[test]
    fn follows_the_contract() {
        let files = sample();
        let out = render(&Run {
            files: &files,
            failures: &[],
        });
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["schema"], 1);
        assert_eq!(v["files_checked"], 2);
        let d = &v["diagnostics"][0];
        assert_eq!(
            (d["rule"].as_str(), d["file"].as_str()),
            (Some("stride-conflict"), Some("src/a.cu"))
        );
        assert_eq!(
            (
                d["line"].as_u64(),
                d["column"].as_u64(),
                d["end_column"].as_u64()
            ),
            (Some(3), Some(3), Some(23))
        );
        assert_eq!(
            (d["conflict_factor"].clone(), d["excess_wavefronts"].clone()),
            (json!(32), json!(31))
        );
        assert_eq!(d["suggestion"]["replacement"], "float tile[32][33]");
        assert_eq!(d["suggestion"]["applicability"], "unsafe");
        assert_eq!(v["diagnostics"][1]["rule"], "possible-conflict");
        assert_eq!(v["accesses"].as_array().map(Vec::len), Some(3));
        let unknown = v["accesses"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["status"] == "unknown")
            .unwrap();
        assert_eq!(
            (
                unknown["conflict_factor"].clone(),
                unknown["reason"].clone()
            ),
            (Value::Null, json!("index depends on loaded data"))
        );
    }
}
