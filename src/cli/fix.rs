//! `--fix` and `--diff`: applying the suggestions marked safe with the library's edit
//! engine (`bankcheck::fix`). Writes are atomic (a temporary file in the same directory,
//! then a rename), keep the file's line endings and leave non-UTF-8 files alone.

use bankcheck::diag::{Applicability, Edit};
use bankcheck::FileReport;
use std::io::Write;
use std::path::Path;

/// The edits of every safe suggestion in `report`, in file order.
pub fn safe_edits(report: &FileReport) -> Vec<Edit> {
    let mut edits: Vec<Edit> = report
        .diagnostics
        .iter()
        .filter_map(|d| d.suggestion.as_ref())
        .filter(|s| s.applicability == Applicability::Safe)
        .flat_map(|s| s.edits.iter().cloned())
        .collect();
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    edits.dedup();
    edits
}

/// Applies `edits` to `text` with the library's edit engine, first giving inserted
/// line breaks the file's own line ending (CRLF files stay CRLF).
pub fn apply(text: &str, edits: &[Edit]) -> Result<String, bankcheck::fix::FixError> {
    let crlf = text.contains("\r\n");
    let edits: Vec<Edit> = edits
        .iter()
        .map(|e| Edit {
            span: e.span,
            text: if crlf {
                to_crlf(&e.text)
            } else {
                e.text.clone()
            },
        })
        .collect();
    bankcheck::fix::apply_edits(text, &edits)
}

fn to_crlf(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\n', "\r\n")
}

/// A unified diff of `old` to `new` for `path`, empty when they are equal.
pub fn diff(path: &str, old: &str, new: &str) -> String {
    bankcheck::fix::unified_diff(path, old, new)
}

/// Replaces `path`'s contents atomically, keeping its permissions.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    temp.write_all(contents)?;
    temp.as_file().sync_all()?;
    if let Ok(meta) = std::fs::metadata(path) {
        temp.as_file().set_permissions(meta.permissions())?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bankcheck::diag::Span;

    fn edit(start: usize, end: usize, text: &str) -> Edit {
        Edit {
            span: Span::new(start, end),
            text: text.to_string(),
        }
    }

    #[test]
    fn applies_in_order_and_refuses_overlaps() {
        let text = "float tile[32][32];\n";
        let out = apply(text, &[edit(15, 17, "33"), edit(11, 13, "32")]).unwrap();
        assert_eq!(out, "float tile[32][33];\n");
        assert_eq!(apply(&out, &[]).unwrap(), out, "no edits, no change");
        assert!(apply(text, &[edit(11, 13, "32"), edit(12, 16, "x")]).is_err());
    }

    #[test]
    fn keeps_crlf_line_endings() {
        let text = "a;\r\nb;\r\n";
        assert_eq!(
            apply(text, &[edit(0, 2, "x;\ny;")]).unwrap(),
            "x;\r\ny;\r\nb;\r\n"
        );
    }

    #[test]
    fn writes_atomically_and_diffs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.cu");
        std::fs::write(&path, "old\n").unwrap();
        write_atomic(&path, b"new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left behind"
        );
        let d = diff("k.cu", "a\nold\n", "a\nnew\n");
        assert!(d.starts_with("--- a/k.cu\n+++ b/k.cu\n"), "{d}");
        assert!(d.contains("-old\n+new\n"), "{d}");
        assert_eq!(diff("k.cu", "same", "same"), "");
    }
}
