//! Rendering finished reports: one file per output format, all reading the same
//! [`Run`]. Line and column numbers are computed here and nowhere else, from the
//! byte spans the diagnostics carry. No I/O: every renderer returns text.

pub mod banks;
pub mod compact;
pub mod github;
pub mod html;
pub mod json;
pub mod sarif;
pub mod text;

use crate::diag::{Diagnostic, Severity, Span, Status};
use crate::FileReport;
use serde_json::Value;

/// Everything one invocation produced, ready to render.
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    /// The checked files, sorted by path; diagnostics inside each sorted by position and rule.
    pub files: &'a [FileReport],
    /// Files that could not be read: path and reason.
    pub failures: &'a [(String, String)],
    /// Files read with a guessed encoding (Latin-1, UTF-16 without BOM): path and note.
    pub notes: &'a [(String, String)],
}

impl Run<'_> {
    /// Every diagnostic with its file, in report order (path, line, column, rule).
    pub fn diagnostics(&self) -> impl Iterator<Item = (&FileReport, &Diagnostic)> {
        self.files
            .iter()
            .flat_map(|f| f.diagnostics.iter().map(move |d| (f, d)))
    }

    /// Counts for summaries.
    pub fn totals(&self) -> Totals {
        let mut t = Totals {
            files: self.files.len(),
            ..Totals::default()
        };
        for file in self.files {
            if !file.diagnostics.is_empty() {
                t.files_with_findings += 1;
            }
            for d in &file.diagnostics {
                match d.severity {
                    Severity::Error => t.errors += 1,
                    Severity::Warning => t.warnings += 1,
                    Severity::Info => t.infos += 1,
                }
            }
            t.accesses += file.accesses.len();
            t.unfound_arrays += file.arrays.undecided;
            t.unfound_explained += file
                .diagnostics
                .iter()
                .filter(|d| d.rule == "undecided-access" && d.access.is_none())
                .count();
            t.undecided += file
                .accesses
                .iter()
                .filter(|a| a.status == Status::Unknown)
                .count();
        }
        t
    }
}

/// Counts shown in the summary line and the step summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub files: usize,
    pub files_with_findings: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub accesses: usize,
    pub undecided: usize,
    /// Shared arrays declared with no access found (the opt-in `undecided-access` rule
    /// says why): counted so that code bankcheck could not follow is never silent.
    pub unfound_arrays: usize,
    /// Of those, the ones an `undecided-access` diagnostic explains (the rule is on).
    pub unfound_explained: usize,
}

impl Totals {
    pub fn findings(&self) -> usize {
        self.errors + self.warnings + self.infos
    }
}

/// 1-based line and column (in characters) of byte offsets in one text.
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

/// A span as 1-based lines and columns; `end_column` is the column just past the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

/// Each file's [`LineIndex`], made once: a report's findings come in any order, and
/// indexing a file again for each finding makes a big file's report quadratic.
#[derive(Default)]
pub struct LineIndexes<'a> {
    by_file: std::collections::HashMap<usize, LineIndex<'a>>,
}

impl<'a> LineIndexes<'a> {
    /// The index of `file`'s text.
    pub fn of(&mut self, file: &'a crate::FileReport) -> &LineIndex<'a> {
        self.by_file
            .entry(std::ptr::from_ref(file) as usize)
            .or_insert_with(|| LineIndex::new(&file.text))
    }
}

impl<'a> LineIndex<'a> {
    /// Lines end at LF, CRLF, or a lone CR (old Mac files).
    pub fn new(text: &'a str) -> Self {
        LineIndex {
            text,
            starts: crate::diag::line_starts(text),
        }
    }

    /// 1-based (line, column) of byte `offset`, clamped into the text and onto a char boundary.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        (line, self.text[start..offset].chars().count() + 1)
    }

    pub fn position(&self, span: Span) -> Position {
        let (line, column) = self.line_col(span.start);
        let (end_line, end_column) = self.line_col(span.end.max(span.start));
        Position {
            line,
            column,
            end_line,
            end_column,
        }
    }

    /// The text of 1-based line `line`, without its line break.
    pub fn line_text(&self, line: usize) -> &'a str {
        let start = self
            .starts
            .get(line.wrapping_sub(1))
            .copied()
            .unwrap_or(self.text.len());
        let end = self.starts.get(line).map_or(self.text.len(), |&e| e);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// Sorts files by path and each file's diagnostics by position then rule, so output is
/// the same for any thread count.
pub fn sort(files: &mut [FileReport]) {
    files.sort_by(|a, b| a.path.cmp(&b.path));
    for file in files {
        file.diagnostics.sort_by(|a, b| {
            (a.span.start, a.rule, a.span.end, &a.message).cmp(&(
                b.span.start,
                b.rule,
                b.span.end,
                &b.message,
            ))
        });
        file.accesses
            .sort_by_key(|a| (a.span.start, a.kind, a.span.end));
    }
}

/// Writes a JSON array of `items` as `serde_json::to_string_pretty` would inside a
/// document where the array's line is indented by `indent` spaces: items one at a
/// time, so that a long report never exists as one tree of values (about ten times
/// the size of its text) nor as one string.
pub(crate) fn write_array(
    out: &mut dyn std::io::Write,
    indent: usize,
    items: impl Iterator<Item = Value>,
) -> std::io::Result<()> {
    let pad = " ".repeat(indent + 2);
    let mut empty = true;
    for item in items {
        out.write_all(if empty { b"[\n" } else { b",\n" })?;
        empty = false;
        let text = serde_json::to_string_pretty(&item).unwrap_or_default();
        for (i, line) in text.lines().enumerate() {
            if i > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(pad.as_bytes())?;
            out.write_all(line.as_bytes())?;
        }
    }
    if empty {
        out.write_all(b"[]")
    } else {
        write!(out, "\n{}]", &pad[2..])
    }
}

/// The conflict factor as a JSON number: an integer when whole, else the float.
pub(crate) fn factor_json(factor: Option<f64>) -> serde_json::Value {
    match factor {
        Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => serde_json::Value::from(f as i64),
        Some(f) => serde_json::Number::from_f64(f)
            .map_or(serde_json::Value::Null, serde_json::Value::Number),
        None => serde_json::Value::Null,
    }
}

/// A factor for people: `32`, `1.5`.
pub(crate) fn factor_text(factor: f64) -> String {
    if factor.fract() == 0.0 {
        format!("{factor:.0}")
    } else {
        let s = format!("{factor:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::diag::{AccessFacts, AccessKind, Applicability, Suggestion};
    use crate::Language;

    #[test]
    fn line_columns_are_one_based_and_count_chars() {
        let index = LineIndex::new("ab\r\nc\u{e9}d\n");
        assert_eq!(index.line_col(0), (1, 1));
        assert_eq!(index.line_col(4), (2, 1));
        assert_eq!(index.line_col(7), (2, 3));
        assert_eq!(index.line_col(99), (3, 1));
        assert_eq!(index.line_text(1), "ab");
        assert_eq!(index.line_text(2), "c\u{e9}d");
        let cr = LineIndex::new("ab\rcd\r\nef\r");
        assert_eq!(cr.line_col(3), (2, 1));
        assert_eq!(cr.line_col(7), (3, 1));
        assert_eq!(cr.line_text(2), "cd");
        assert_eq!(crate::diag::lone_cr_as_lf("a\rb\r\nc"), "a\nb\r\nc");
    }

    #[test]
    fn factors_render_whole_or_fractional() {
        assert_eq!(factor_json(Some(32.0)), serde_json::json!(32));
        assert_eq!(factor_json(Some(1.5)), serde_json::json!(1.5));
        assert_eq!(factor_text(1.5), "1.5");
        assert_eq!(factor_text(4.0), "4");
    }

    /// A hand-built report: one conflicting store, one clean load, one undecided load.
    pub(crate) fn sample() -> Vec<FileReport> {
        let text = "__global__ void k(float* out) {\n  __shared__ float tile[32][32];\n  tile[threadIdx.x][0] = 1.0f;\n  out[0] = tile[0][threadIdx.x];\n}\n";
        let at = text.find("tile[threadIdx.x][0]").unwrap_or(0);
        let span = Span::new(at, at + "tile[threadIdx.x][0]".len());
        let facts = AccessFacts {
            span,
            helper_span: None,
            helper_elsewhere: None,
            array: "tile".into(),
            pointer: None,
            kind: AccessKind::Store,
            element_bytes: 4,
            status: Status::Conflict,
            conflict_factor: Some(32.0),
            wavefronts: Some(32),
            ideal_wavefronts: Some(1),
            reason: None,
            assumptions: vec!["block shape (32, 1, 1)".into()],
            depends_on: Vec::new(),
            method: Some("enumeration"),
            exact: true,
            factor_is_lower_bound: false,
            condition: None,
            explanation: None,
            function: Some("k".into()),
        };
        let decl = text.find("tile[32][32]").unwrap_or(0);
        let mut diagnostic = Diagnostic::new(
            "bank-conflict",
            Severity::Warning,
            span,
            "32-way bank conflict on store to `tile`: 50%, \"quoted\", a:b\nsecond line".into(),
        );
        diagnostic.labels.push(crate::diag::Label {
            span: Span::new(decl, decl + 12),
            message: "declared here".into(),
        });
        diagnostic
            .notes
            .push("each row is 128 bytes, so a column sits in one bank".into());
        diagnostic.help = Some("pad the row to 33 floats".into());
        diagnostic.suggestion = Some(Suggestion {
            kind: crate::diag::FixKind::Padding,
            message: "pad each row by one float".into(),
            replacement: "float tile[32][33]".into(),
            cute: None,
            classic: None,
            after: Vec::new(),
            lower_bound_wavefronts: Some(1),
            memory_cost_bytes: Some(128),
            applicability: Applicability::Unsafe,
            edits: Vec::new(),
            table: None,
        });
        diagnostic.access = Some(Box::new(facts.clone()));
        let load_at = text.find("tile[0][threadIdx.x]").unwrap_or(0);
        let load = AccessFacts {
            span: Span::new(load_at, load_at + 20),
            kind: AccessKind::Load,
            status: Status::Ok,
            conflict_factor: Some(1.0),
            wavefronts: Some(1),
            assumptions: Vec::new(),
            ..facts.clone()
        };
        let unknown = AccessFacts {
            status: Status::Unknown,
            conflict_factor: None,
            wavefronts: None,
            ideal_wavefronts: None,
            reason: Some("index depends on loaded data".into()),
            ..load.clone()
        };
        let info = Diagnostic::new(
            "possible-conflict",
            Severity::Info,
            Span::new(load_at, load_at + 20),
            "possible 2-way conflict".into(),
        );
        let mut files = vec![
            FileReport {
                path: "src/b, c.cu".into(),
                text: "// empty\n".into(),
                language: Some(Language::Cuda),
                diagnostics: Vec::new(),
                accesses: Vec::new(),
                arrays: crate::ArrayStates::default(),
                reported_elsewhere: Vec::new(),
                stats: crate::FileStats::default(),
            },
            FileReport {
                path: "src/a.cu".into(),
                text: text.into(),
                language: Some(Language::Cuda),
                diagnostics: vec![info, diagnostic],
                accesses: vec![unknown, load, facts],
                arrays: crate::ArrayStates::default(),
                reported_elsewhere: Vec::new(),
                stats: crate::FileStats::default(),
            },
        ];
        sort(&mut files);
        files
    }
}
