//! Statements the front end blanked: a function-like macro used alone on its line without
//! `;` supplies a whole statement the grammar cannot read (`source/macros.rs`), and is
//! blanked before parsing. When that statement returns (ggml's configuration tables,
//! `CONFIG_CASE(64, 2, 128)` line after line, each `if (...) return ...;`), the helper's
//! body as read ends in its default `return 0;`: a wrong value, not an unknown one. The
//! value of a helper holding such a use is therefore not followed.

use super::Interp;
use crate::extract::ast::Function;

/// What may follow a macro use on its line for the front end to keep it: it is then an
/// expression or a declaration head, not a blanked statement.
const CONTINUES: &[u8] = b";{},)=+-*/&|<>?:.[";

impl Interp<'_> {
    /// Why the value helper `f` returns cannot be followed: its body, in the text of its
    /// file, holds a function-like macro used alone on its line without `;` (the test
    /// `source/macros.rs` blanks by). `None` when it holds none.
    pub(super) fn blanked_statement(&self, f: &Function) -> Option<String> {
        let text = f.foreign_text.as_deref().unwrap_or(self.base_text);
        let body = text.get(f.span.start..f.span.end)?;
        let b = body.as_bytes();
        let mut line_start = 0;
        while line_start < b.len() {
            let line_end = body[line_start..]
                .find('\n')
                .map_or(b.len(), |n| line_start + n);
            let indent = body[line_start..line_end]
                .find(|c: char| !c.is_whitespace())
                .map_or(line_end, |n| line_start + n);
            let name_end = body[indent..line_end]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(line_end, |n| indent + n);
            let name = &body[indent..name_end];
            if !name.is_empty() && self.syn.fn_macros.contains_key(name) {
                let mut open = name_end;
                while matches!(b.get(open), Some(b' ' | b'\t')) {
                    open += 1;
                }
                if let Some(close) = closing(b, open) {
                    let mut next = close;
                    while next < b.len() && b[next].is_ascii_whitespace() {
                        next += 1;
                    }
                    let ends_line = body[close..next].contains('\n') || next == b.len();
                    if ends_line && b.get(next).is_none_or(|c| !CONTINUES.contains(c)) {
                        return Some(format!(
                            "`{}` holds `{name}(...)`, a macro standing for a statement bankcheck does not read (it may return)",
                            f.name
                        ));
                    }
                }
            }
            line_start = line_end + 1;
        }
        None
    }
}

/// The position after the `)` that closes the `(` at `open`; `None` when there is none.
fn closing(b: &[u8], open: usize) -> Option<usize> {
    if b.get(open) != Some(&b'(') {
        return None;
    }
    let mut depth = 0usize;
    for (i, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}
