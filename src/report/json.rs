//! `--format json`: the stable contract of docs/bank-model.md §2 (schema 1), described
//! by docs/report.schema.json. Fields are only ever added, never renamed.

use super::{factor_json, LineIndex, Run};
use crate::diag::{AccessFacts, Diagnostic};
use serde_json::{json, Map, Value};
use std::cell::RefCell;

/// The version of the JSON layout.
pub const SCHEMA: u64 = 1;

/// Renders the whole run as one pretty-printed JSON object followed by a newline.
pub fn render(run: &Run<'_>) -> String {
    let mut out = Vec::new();
    // Writing into a vector cannot fail, and only valid UTF-8 is written.
    let _ = write(run, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes what [`render`] returns into `out`, one diagnostic or access at a time: a
/// tree of `Value`s for the whole run would take about ten times the report's size
/// (600 MB for 5,000 small files); the text is the same as `serde_json`'s pretty
/// printing of that tree.
pub fn write(run: &Run<'_>, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    out.write_all(b"{\n")?;
    for (key, value) in [
        ("schema", json!(SCHEMA)),
        ("version", json!(env!("CARGO_PKG_VERSION"))),
        ("files_checked", json!(run.files.len())),
        (
            "parse_errors_not_reported",
            json!(run
                .files
                .iter()
                .map(|f| f.stats.unreported_parse_errors)
                .sum::<usize>()),
        ),
    ] {
        writeln!(out, "  {}: {},", json!(key), value)?;
    }
    let files = || run.files.iter().map(|f| (f, LineIndex::new(&f.text)));
    let fixes = RefCell::new(Fixes::default());
    array(
        out,
        "diagnostics",
        files().enumerate().flat_map(|(n, (f, index))| {
            let fixes = &fixes;
            f.diagnostics
                .iter()
                .map(move |d| diagnostic((&f.path, n), &index, d, fixes))
        }),
    )?;
    out.write_all(b",\n")?;
    array(
        out,
        "accesses",
        files().flat_map(|(f, index)| f.accesses.iter().map(move |a| access(&f.path, &index, a))),
    )?;
    out.write_all(b",\n")?;
    array(out, "fixes", fixes.into_inner().values(run.files))?;
    out.write_all(b",\n")?;
    let pairs = |list: &'_ [(String, String)]| {
        list.iter()
            .map(|(file, message)| json!({"file": file, "message": message}))
            .collect::<Vec<Value>>()
    };
    array(out, "errors", pairs(run.failures).into_iter())?;
    out.write_all(b",\n")?;
    array(out, "notes", pairs(run.notes).into_iter())?;
    out.write_all(b",\n")?;
    // The summary is small: pretty-printed whole, indented to the top level's depth.
    let summary = serde_json::to_string_pretty(&summary(run)).unwrap_or_default();
    write!(
        out,
        "  {}: {}",
        json!("summary"),
        summary.replace('\n', "\n  ")
    )?;
    out.write_all(b"\n}\n")
}

/// Writes `"key": [ ... ]` at the top level's indentation; no comma or newline after.
fn array(
    out: &mut dyn std::io::Write,
    key: &str,
    items: impl Iterator<Item = Value>,
) -> std::io::Result<()> {
    write!(out, "  {}: ", json!(key))?;
    super::write_array(out, 2, items)
}

/// Coverage: every shared array declared in a checked file counted in exactly one state
/// (accesses reported, all `unknown`, none found), and the accesses by status.
fn summary(run: &Run<'_>) -> Value {
    let mut arrays = crate::ArrayStates::default();
    let (mut ok, mut conflict, mut unknown) = (0usize, 0usize, 0usize);
    for f in run.files {
        arrays.reported += f.arrays.reported;
        arrays.unknown += f.arrays.unknown;
        arrays.undecided += f.arrays.undecided;
        for a in &f.accesses {
            match a.status {
                crate::diag::Status::Ok => ok += 1,
                crate::diag::Status::Conflict => conflict += 1,
                crate::diag::Status::Unknown => unknown += 1,
            }
        }
    }
    json!({
        "arrays": {
            "declared": arrays.reported + arrays.unknown + arrays.undecided,
            "reported": arrays.reported,
            "unknown": arrays.unknown,
            "undecided": arrays.undecided,
        },
        "accesses": {"ok": ok, "conflict": conflict, "unknown": unknown},
    })
}

/// The fixes whose `after` table several diagnostics share (`Suggestion::table`: one per
/// array), each written once in the top-level `fixes`, numbered in the order the
/// diagnostics first name them. Each diagnostic's `suggestion` shows its own access's
/// rows and the number (`fix`), and no edits (a swizzle's are one per access): the report
/// grows with the accesses, not their square.
#[derive(Default)]
struct Fixes<'a> {
    /// Position in `entries` by the shared table's address.
    by_table: std::collections::HashMap<usize, usize>,
    entries: Vec<Fix<'a>>,
}

/// One entry of `fixes`, made into JSON only when written: held as values until the
/// diagnostics are all written, a big file's fixes took more memory than its report.
struct Fix<'a> {
    /// The file's position in the run.
    file: usize,
    array: Option<&'a str>,
    suggestion: &'a crate::diag::Suggestion,
}

impl<'a> Fixes<'a> {
    /// The number of `s`'s shared fix, entered into `entries` the first time.
    fn number(
        &mut self,
        file: usize,
        d: &'a Diagnostic,
        s: &'a crate::diag::Suggestion,
    ) -> Option<usize> {
        let table = s.table.as_ref()?;
        let key = std::sync::Arc::as_ptr(table) as usize;
        if let Some(&n) = self.by_table.get(&key) {
            // The array's own diagnostic (`layout-conflict`) names no access: the first
            // access's diagnostic names the array.
            if let (Some(entry), Some(a)) = (self.entries.get_mut(n), d.access.as_deref()) {
                if entry.array.is_none() {
                    entry.array = Some(&a.array);
                }
            }
            return Some(n);
        }
        let n = self.entries.len();
        self.by_table.insert(key, n);
        self.entries.push(Fix {
            file,
            array: d
                .access
                .as_deref()
                .or_else(|| d.worst_access())
                .map(|a| a.array.as_str()),
            suggestion: s,
        });
        Some(n)
    }

    /// The entries as JSON, in order, each made when it is asked for.
    fn values(self, files: &'a [crate::FileReport]) -> impl Iterator<Item = Value> + 'a {
        // An entry's file is usually the one before's: its lines are indexed once.
        let mut index: Option<(usize, LineIndex<'a>)> = None;
        self.entries.into_iter().map(move |e| {
            let file = &files[e.file];
            if index.as_ref().map(|(n, _)| *n) != Some(e.file) {
                index = Some((e.file, LineIndex::new(&file.text)));
            }
            let lines = &index.as_ref().expect("indexed above").1;
            let s = e.suggestion;
            json!({
                "file": file.path,
                "array": e.array,
                "kind": s.kind,
                "message": s.message,
                "replacement": s.replacement,
                "after": s.table.as_ref().map(|t| &t.after),
                "edits": edits(lines, s),
            })
        })
    }
}

fn diagnostic<'a>(
    (path, file): (&str, usize),
    index: &LineIndex<'_>,
    d: &'a Diagnostic,
    fixes: &RefCell<Fixes<'a>>,
) -> Value {
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
    let facts = d.access.as_deref();
    // A finding of a whole array (`layout-conflict`) names it from its accesses.
    o.insert(
        "array".into(),
        json!(facts.or_else(|| d.worst_access()).map(|a| &a.array)),
    );
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
    // The findings of the same problem folded into this one, each at its access.
    let related: Vec<Value> = d.related.iter().map(|r| related(index, r)).collect();
    o.insert("related".into(), Value::Array(related));
    o.insert(
        "suggestion".into(),
        d.suggestion.as_ref().map_or(Value::Null, |s| {
            let mut v = suggestion(index, s);
            if let (Value::Object(o), Some(n)) = (&mut v, fixes.borrow_mut().number(file, d, s)) {
                o.insert("fix".into(), json!(n));
            }
            v
        }),
    );
    Value::Object(o)
}

/// One finding folded into another (`Diagnostic::related`): where, which rule, and the
/// numbers of its access.
fn related(index: &LineIndex<'_>, r: &Diagnostic) -> Value {
    let p = index.position(r.span);
    let facts = r.access.as_deref();
    json!({
        "rule": r.rule,
        "severity": r.severity,
        "line": p.line,
        "column": p.column,
        "end_line": p.end_line,
        "end_column": p.end_column,
        "message": r.message,
        "array": facts.map(|a| &a.array),
        "kind": facts.map(|a| a.kind),
        "conflict_factor": factor_json(facts.and_then(|a| a.conflict_factor)),
        "wavefronts": facts.and_then(|a| a.wavefronts),
        "ideal_wavefronts": facts.and_then(|a| a.ideal_wavefronts),
        "excess_wavefronts": facts.and_then(AccessFacts::excess_wavefronts),
        "helper": facts.map_or(Value::Null, |a| helper(index, a)),
        "notes": r.notes,
    })
}

/// A suggestion with its edits placed in the file: the text each span becomes, so that a
/// tool (or a test) can apply exactly what the message describes.
fn suggestion(index: &LineIndex<'_>, s: &crate::diag::Suggestion) -> Value {
    let mut v = serde_json::to_value(s).unwrap_or(Value::Null);
    if let Value::Object(o) = &mut v {
        // A shared fix's edits (a swizzle's are one per access) are written once, in `fixes`.
        let own = if s.table.is_some() {
            json!([])
        } else {
            edits(index, s)
        };
        o.insert("edits".into(), own);
    }
    v
}

/// The edits that apply a suggestion's fix, placed in the file.
fn edits(index: &LineIndex<'_>, s: &crate::diag::Suggestion) -> Value {
    s.fix_edits()
        .iter()
        .map(|e| {
            let p = index.position(e.span);
            json!({"line": p.line, "column": p.column, "end_line": p.end_line, "end_column": p.end_column, "text": e.text})
        })
        .collect()
}

/// Where an access sits inside a helper, when the access is reported at its call.
fn helper(index: &LineIndex<'_>, a: &AccessFacts) -> Value {
    // In a helper of another file: that file, named as the run names it.
    if let Some(h) = &a.helper_elsewhere {
        return json!({"file": h.path, "line": h.line, "column": h.column, "end_line": h.end_line, "end_column": h.end_column});
    }
    a.helper_span.map_or(Value::Null, |span| {
        let p = index.position(span);
        json!({"line": p.line, "column": p.column, "end_line": p.end_line, "end_column": p.end_column})
    })
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
        "helper": helper(index, a),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample;

    /// The whole run as one tree of values, pretty-printed: what `render` streams.
    fn as_one_tree(run: &Run<'_>) -> String {
        let mut diagnostics = Vec::new();
        let mut accesses = Vec::new();
        let fixes = RefCell::new(Fixes::default());
        for (n, file) in run.files.iter().enumerate() {
            let index = LineIndex::new(&file.text);
            diagnostics.extend(
                file.diagnostics
                    .iter()
                    .map(|d| diagnostic((&file.path, n), &index, d, &fixes)),
            );
            accesses.extend(file.accesses.iter().map(|a| access(&file.path, &index, a)));
        }
        let pairs = |list: &[(String, String)]| -> Vec<Value> {
            list.iter()
                .map(|(file, message)| json!({"file": file, "message": message}))
                .collect()
        };
        let report = json!({
            "schema": SCHEMA,
            "version": env!("CARGO_PKG_VERSION"),
            "files_checked": run.files.len(),
            "parse_errors_not_reported": run
                .files
                .iter()
                .map(|f| f.stats.unreported_parse_errors)
                .sum::<usize>(),
            "diagnostics": diagnostics,
            "accesses": accesses,
            "fixes": fixes.into_inner().values(run.files).collect::<Vec<_>>(),
            "errors": pairs(run.failures),
            "notes": pairs(run.notes),
            "summary": summary(run),
        });
        serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
    }

    #[test]
    fn streaming_writes_what_the_whole_tree_would() {
        let files = sample();
        let failures = [("gone.cu".to_string(), "not found".to_string())];
        let notes = [
            ("a.cu".to_string(), "read as \"Latin-1\"\n".to_string()),
            ("b.cu".to_string(), "x".to_string()),
        ];
        for (files, failures, notes) in [
            (&files[..], &failures[..], &notes[..]),
            (&files[..1], &[][..], &[][..]),
            (&[][..], &failures[..], &[][..]),
        ] {
            let run = Run {
                files,
                failures,
                notes,
            };
            assert_eq!(render(&run), as_one_tree(&run));
        }
    }

    #[test]
    fn follows_the_contract() {
        let files = sample();
        let out = render(&Run {
            files: &files,
            failures: &[],
            notes: &[],
        });
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["schema"], 1);
        assert_eq!(v["files_checked"], 2);
        let d = &v["diagnostics"][0];
        assert_eq!(
            (d["rule"].as_str(), d["file"].as_str()),
            (Some("bank-conflict"), Some("src/a.cu"))
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
