//! Applying suggested edits to a file's text, and showing the change as a unified diff.
//!
//! Pure text functions: no I/O (the CLI writes files atomically), no knowledge of rules.
//! Edits are byte spans into the original text; everything outside them is kept byte for byte.

use crate::diag::Edit;
use std::fmt;

/// Why a set of edits cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixError {
    /// An edit's span ends past the text or starts after it ends.
    OutOfBounds {
        start: usize,
        end: usize,
        len: usize,
    },
    /// An edit's span does not start or end on a character boundary.
    NotCharBoundary { at: usize },
    /// Two edits touch the same bytes (or insert at the same point).
    Overlap {
        first: (usize, usize),
        second: (usize, usize),
    },
}

impl fmt::Display for FixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixError::OutOfBounds { start, end, len } => {
                write!(f, "edit {start}..{end} is outside the text of {len} bytes")
            }
            FixError::NotCharBoundary { at } => write!(f, "edit boundary {at} splits a character"),
            FixError::Overlap { first, second } => {
                write!(
                    f,
                    "edits {}..{} and {}..{} overlap",
                    first.0, first.1, second.0, second.1
                )
            }
        }
    }
}

impl std::error::Error for FixError {}

/// Applies non-overlapping edits (in any order) to `text`. Identical duplicate edits count
/// once. Fails without partial results when a span is out of bounds, splits a character,
/// or overlaps another edit.
pub fn apply_edits(text: &str, edits: &[Edit]) -> Result<String, FixError> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.span.start, e.span.end));
    sorted.dedup_by(|a, b| a == b);
    for e in &sorted {
        let (start, end) = (e.span.start, e.span.end);
        if start > end || end > text.len() {
            return Err(FixError::OutOfBounds {
                start,
                end,
                len: text.len(),
            });
        }
        for at in [start, end] {
            if !text.is_char_boundary(at) {
                return Err(FixError::NotCharBoundary { at });
            }
        }
    }
    for pair in sorted.windows(2) {
        let (a, b) = (pair[0].span, pair[1].span);
        // Touching spans are fine; two insertions at one point, or any shared byte, are not.
        if b.start < a.end || (a.start == a.end && b.start == b.end && a.start == b.start) {
            return Err(FixError::Overlap {
                first: (a.start, a.end),
                second: (b.start, b.end),
            });
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for e in sorted {
        out.push_str(&text[at..e.span.start]);
        out.push_str(&e.text);
        at = e.span.end;
    }
    out.push_str(&text[at..]);
    Ok(out)
}

/// A unified diff of `before` -> `after` for the file `path` (`--- a/path`, `+++ b/path`,
/// three lines of context). Empty when the texts are equal. A lone CR ends a line as LF
/// and CRLF do (old Mac files), and each diff line still ends with a line break.
pub fn unified_diff(path: &str, before: &str, after: &str) -> String {
    use std::fmt::Write as _;
    if before == after {
        return String::new();
    }
    let diff = similar::TextDiff::from_lines(before, after);
    let mut out = format!("--- a/{path}\n+++ b/{path}\n");
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        let _ = writeln!(out, "{}", hunk.header());
        for change in hunk.iter_changes() {
            let sign = match change.tag() {
                similar::ChangeTag::Equal => ' ',
                similar::ChangeTag::Delete => '-',
                similar::ChangeTag::Insert => '+',
            };
            let line = change.value();
            out.push(sign);
            out.push_str(line);
            if line.ends_with('\r') {
                out.push('\n');
            } else if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;

    fn edit(start: usize, end: usize, text: &str) -> Edit {
        Edit {
            span: Span { start, end },
            text: text.to_string(),
        }
    }

    #[test]
    fn applies_in_any_order_and_keeps_the_rest() {
        let text = "float tile[16][32];\r\nx = tile[m][n];\n";
        let n_at = text.find("[n]").unwrap_or(0) + 1;
        let out = apply_edits(text, &[edit(n_at, n_at + 1, "n ^ m"), edit(15, 17, "33")]);
        assert_eq!(
            out.as_deref(),
            Ok("float tile[16][33];\r\nx = tile[m][n ^ m];\n")
        );
    }

    #[test]
    fn rejects_overlap_bounds_and_split_characters() {
        assert!(matches!(
            apply_edits("abcdef", &[edit(1, 3, "x"), edit(2, 4, "y")]),
            Err(FixError::Overlap { .. })
        ));
        assert!(matches!(
            apply_edits("abc", &[edit(2, 9, "x")]),
            Err(FixError::OutOfBounds { .. })
        ));
        assert!(matches!(
            apply_edits("é", &[edit(1, 2, "x")]),
            Err(FixError::NotCharBoundary { at: 1 })
        ));
        assert!(matches!(
            apply_edits("abc", &[edit(1, 1, "x"), edit(1, 1, "y")]),
            Err(FixError::Overlap { .. })
        ));
        assert_eq!(
            apply_edits("abc", &[edit(1, 2, "x"), edit(1, 2, "x")]).as_deref(),
            Ok("axc")
        );
        assert_eq!(
            apply_edits("abc", &[edit(1, 2, "x"), edit(2, 3, "y")]).as_deref(),
            Ok("axy")
        );
    }

    #[test]
    fn diff_shows_changed_lines_with_headers() {
        let d = unified_diff("k.cu", "a\nb\nc\n", "a\nB\nc\n");
        assert!(
            d.starts_with("--- a/k.cu\n+++ b/k.cu\n@@ -1,3 +1,3 @@\n"),
            "{d}"
        );
        assert!(d.contains("\n-b\n+B\n"), "{d}");
        assert_eq!(unified_diff("k.cu", "same", "same"), "");
        let no_newline = unified_diff("k.cu", "a\nb", "a\nc");
        assert!(
            no_newline
                .contains("-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file"),
            "{no_newline}"
        );
        let cr = unified_diff("k.cu", "a\rb\rc\r", "a\rB\rc\r");
        assert!(
            cr.contains("@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n"),
            "{cr:?}"
        );
    }
}
