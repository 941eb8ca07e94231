//! A light lexer of C-family text for the front end: it finds preprocessor directives
//! (logical lines, continuations joined) and the identifiers of code, skipping
//! comments, string and character literals.

/// One directive: `#name rest`, spanning `start..end` (the newline excluded).
#[derive(Debug, Clone)]
pub struct Directive {
    pub start: usize,
    pub end: usize,
    /// The directive's name (`if`, `define`, `pragma`...), empty for a null directive.
    pub name: String,
    /// Offset in the text where the rest (after the name) starts.
    pub rest_start: usize,
}

impl Directive {
    /// The text after the name, with continuations left in (the evaluator skips `\`).
    pub fn rest<'t>(&self, text: &'t str) -> &'t str {
        text.get(self.rest_start..self.end).unwrap_or("")
    }
}

/// What the lexer found.
#[derive(Debug, Default)]
pub struct Lexed {
    pub directives: Vec<Directive>,
    /// Identifiers of code (outside directives, comments and literals): `start..end`.
    pub idents: Vec<(usize, usize)>,
}

/// Lexes `text`; identifiers are kept only when `keep` accepts them (to keep the list
/// short on large files).
pub fn lex(text: &str, keep: &dyn Fn(&str) -> bool) -> Lexed {
    let b = text.as_bytes();
    let mut out = Lexed::default();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => i += 1,
            b'#' if line_start => {
                let start = i;
                let end = logical_line_end(b, i);
                let mut j = i + 1;
                while j < end && matches!(b[j], b' ' | b'\t') {
                    j += 1;
                }
                let ns = j;
                while j < end && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                // A block comment opened on the directive's line may run past it.
                let end = match text[start..end].rfind("/*") {
                    Some(k) if !text[start + k..end].contains("*/") => text[start + k..]
                        .find("*/")
                        .map_or(b.len(), |e| start + k + e + 2),
                    _ => end,
                };
                out.directives.push(Directive {
                    start,
                    end,
                    name: text[ns..j].to_string(),
                    rest_start: j,
                });
                i = end;
                line_start = false;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = logical_line_end(b, i);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            }
            b'"' | b'\'' => {
                // `R"(...)"` raw strings: skip to their delimiter.
                if c == b'"' && i > 0 && b[i - 1] == b'R' {
                    let open = text[i + 1..].find('(').map(|k| i + 1 + k);
                    if let Some(open) = open {
                        let delim = format!("){}\"", &text[i + 1..open]);
                        i = text[open..]
                            .find(&delim)
                            .map_or(b.len(), |e| open + e + delim.len());
                        line_start = false;
                        continue;
                    }
                }
                i += 1;
                while i < b.len() && b[i] != c && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                line_start = false;
            }
            _ if c.is_ascii_alphabetic() || c == b'_' => {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if keep(&text[s..i]) {
                    out.idents.push((s, i));
                }
                line_start = false;
            }
            _ => {
                i += 1;
                line_start = false;
            }
        }
    }
    out
}

/// The end of the logical line starting at `i`: the next newline not escaped by `\`.
fn logical_line_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        if b[i] == b'\n' {
            let mut k = i;
            if k > 0 && b[k - 1] == b'\r' {
                k -= 1;
            }
            if k > 0 && b[k - 1] == b'\\' {
                i += 1;
                continue;
            }
            return i;
        }
        i += 1;
    }
    b.len()
}

/// The end of the balanced parenthesised group opening at `open` (its `(`), past the
/// `)`; `None` when it does not close.
pub fn balanced(text: &str, open: usize) -> Option<usize> {
    let b = text.as_bytes();
    if b.get(open) != Some(&b'(') {
        return None;
    }
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// `{` minus `}` in the code of `text` (comments and literals skipped).
pub fn brace_balance(text: &str) -> i64 {
    let b = text.as_bytes();
    let mut n = 0i64;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => n += 1,
            b'}' => n -= 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(b.len(), |e| i + e);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 1);
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            _ => {}
        }
        i += 1;
    }
    n
}

/// Replaces `start..end` of `bytes` with spaces, newlines kept.
pub fn blank(bytes: &mut [u8], start: usize, end: usize) {
    let end = end.min(bytes.len());
    for b in &mut bytes[start.min(end)..end] {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_directives_and_code_identifiers() {
        let text = "#define A \\\n  1\n/* #if X */ int a = B; // C\n  #  if A\n\"D\" E\n#endif";
        let l = lex(text, &|_| true);
        let names: Vec<&str> = l.directives.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["define", "if", "endif"]);
        assert_eq!(l.directives[0].rest(text).trim(), "A \\\n  1");
        let idents: Vec<&str> = l.idents.iter().map(|(s, e)| &text[*s..*e]).collect();
        assert_eq!(idents, ["int", "a", "B", "E"]);
        assert_eq!(balanced("f(a, (b), \")\") x", 1), Some(14));
        assert_eq!(brace_balance("if (a) { f('}'); /* } */ } else { // }\n"), 1);
    }
}
