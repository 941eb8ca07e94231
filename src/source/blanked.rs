//! What a statement the front end blanks may touch. A function-like macro used alone on
//! its line without `;` (`SWAP(a, b)`, `LOAD_TILE(x, ptr, k)`), or an object-like macro
//! of statements alone on its line, supplies a whole statement the grammar cannot read,
//! and is blanked ([`super::macros::blank_statement_calls`]). The statement is not
//! interpreted, but the names it may assign and the names it reaches are read off its
//! expansion ([`super::expand`]), so that the lowering makes those locals unknown and
//! reports an access of a shared array it names as `unknown`, rather than keep a value
//! the statement changed or lose an access silently.

use super::{expand, macros};
use crate::diag::Span;
use std::collections::{BTreeMap, HashMap};

/// A blanked statement: a macro use the grammar does not see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlankedStatement {
    /// The use, `NAME(args)` (or `NAME` of an object-like macro).
    pub span: Span,
    /// The macro's name.
    pub name: String,
    /// Identifiers the statement may assign: those its expansion assigns, increments or
    /// takes the address of; when it cannot be expanded, every argument that is one.
    pub assigns: Vec<String>,
    /// Identifiers it may write through (`p[i] = v`, `s.f = v`, `*p = v`) or hand to a
    /// call (a reference parameter may assign them): an array, object or scalar among
    /// them changes, a pointer does not; when it cannot be expanded, the leading
    /// identifier of every other argument.
    pub writes: Vec<String>,
    /// Every identifier of its expansion (of the use when it cannot be expanded): a
    /// shared array, or a pointer or reference into one, may be accessed there.
    pub mentions: Vec<String>,
}

/// Words that a `(` follows without making a call.
const NOT_CALLEES: [&str; 11] = [
    "if", "for", "while", "switch", "return", "sizeof", "alignof", "decltype", "defined", "catch",
    "do",
];

/// The statements of the blanked uses at `uses` (start, end) in `text`, read off their
/// expansion with the file's definitions (which win), the settings' and the headers'.
pub fn describe(
    text: &str,
    uses: &[(usize, usize)],
    file: &[macros::Definition],
    settings: &BTreeMap<String, String>,
    headers: &[macros::Definition],
) -> Vec<BlankedStatement> {
    if uses.is_empty() {
        return Vec::new();
    }
    let defs = expand::known_macros(file, settings, headers);
    let mut budget = expand::file_budget(text.len());
    uses.iter()
        .filter_map(|&(s, e)| {
            let use_text = text.get(s..e)?;
            let use_toks = expand::token_texts(use_text);
            let name = use_toks.first()?.clone();
            let ((assigns, writes), mentions) =
                match expand::expand_use(use_text, &defs, &mut budget) {
                    Ok(expansion) => {
                        let toks = expand::token_texts(&expansion);
                        (assigned(&toks), identifiers(&toks))
                    }
                    // Not expanded: the use itself is a call handing its arguments over.
                    Err(_) => (assigned(&use_toks), identifiers(&use_toks[1..])),
                };
            Some(BlankedStatement {
                span: Span::new(s, e),
                name,
                assigns,
                writes,
                mentions,
            })
        })
        .collect()
}

/// What a function-like macro's body may assign: the positions of its parameters it
/// assigns, writes through or hands to a call, and the other names it does
/// ([`BlankedStatement`] reads the same off a blanked use). Only macros whose body does.
pub type MacroEffects = HashMap<String, (Vec<usize>, Vec<String>)>;

/// The [`MacroEffects`] of the function-like macros of the file, the settings and the
/// headers (the file's win): a use written as a call statement (`NEXT(i);`) is
/// interpreted from its body, and the loop analyses see what it assigns.
pub fn effects(
    file: &[macros::Definition],
    settings: &BTreeMap<String, String>,
    headers: &[macros::Definition],
) -> MacroEffects {
    let mut out = MacroEffects::new();
    for (name, params, body) in macros::by_precedence(file, settings, headers) {
        out.remove(name);
        let Some(params) = params else { continue };
        let (mut names, through) = assigned(&expand::token_texts(body));
        names.extend(through);
        if names.is_empty() {
            continue;
        }
        let positions = (0..params.len())
            .filter(|&i| names.contains(&params[i]))
            .collect();
        names.retain(|n| !params.contains(n));
        out.insert(name.to_string(), (positions, names));
    }
    out
}

fn is_ident(t: &str) -> bool {
    t.as_bytes()
        .first()
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
}

/// Every identifier of `toks`, once each, in order.
fn identifiers(toks: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in toks {
        if is_ident(t) && !out.contains(t) {
            out.push(t.clone());
        }
    }
    out
}

/// The identifiers the tokens `toks` of a statement may assign, and those it may write
/// through (see [`BlankedStatement`]), once each.
fn assigned(toks: &[String]) -> (Vec<String>, Vec<String>) {
    fn push(n: &str, out: &mut Vec<String>) {
        if is_ident(n) && !out.iter().any(|o| o == n) {
            out.push(n.to_string());
        }
    }
    let (mut direct, mut through) = (Vec::new(), Vec::new());
    for (i, t) in toks.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| toks[p].as_str());
        match t.as_str() {
            // `^=` is read as `^` then `=`.
            "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "<<=" | ">>=" => {
                match root_before(toks, i) {
                    Some((r, true)) => push(r, &mut direct),
                    Some((r, false)) => push(r, &mut through),
                    None => {}
                }
            }
            "++" | "--" => {
                match root_before(toks, i) {
                    Some((r, true)) => push(r, &mut direct),
                    Some((r, false)) => push(r, &mut through),
                    None => {}
                }
                if let Some(n) = toks.get(i + 1) {
                    let member =
                        matches!(toks.get(i + 2).map(String::as_str), Some("[" | "." | "->"));
                    push(n, if member { &mut through } else { &mut direct });
                }
            }
            // `&x`: its address escapes.
            "&" if prev.is_none_or(|p| !is_operand_end(p)) => {
                if let Some(n) = toks.get(i + 1) {
                    push(n, &mut direct);
                }
            }
            // A call: each argument's leading identifier (a reference parameter).
            "(" if prev.is_some_and(|p| is_ident(p) && !NOT_CALLEES.contains(&p)) => {
                let mut depth = 0usize;
                for (j, a) in toks.iter().enumerate().skip(i) {
                    match a.as_str() {
                        "(" | "[" | "{" => depth += 1,
                        ")" | "]" | "}" => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ if depth == 1 && starts_argument(toks, j) => {
                            push(a, &mut through);
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    through.retain(|n| !direct.contains(n));
    (direct, through)
}

/// Whether token `j` starts an argument of a call, after a unary `&` or `*` or not.
fn starts_argument(toks: &[String], j: usize) -> bool {
    let at = |k: Option<usize>| k.map(|k| toks[k].as_str());
    match at(j.checked_sub(1)) {
        Some("(" | ",") => true,
        Some("&" | "*") => matches!(at(j.checked_sub(2)), Some("(" | ",")),
        _ => false,
    }
}

/// Whether a token ends an operand (an identifier, a literal, `)` or `]`): a `&` or `*`
/// after it is binary.
fn is_operand_end(t: &str) -> bool {
    t == ")"
        || t == "]"
        || t.as_bytes()
            .first()
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'\'')
}

/// The leading identifier of the operand that ends just before token `i` (`a` of
/// `a.b[k]` or `*a`), and whether the assignment at `i` changes it (`a = v`) rather than
/// what it holds or points to.
fn root_before(toks: &[String], i: usize) -> Option<(&str, bool)> {
    let mut j = i;
    let mut direct = true;
    loop {
        let t = toks.get(j.checked_sub(1)?)?.as_str();
        match t {
            ")" | "]" => {
                direct = false;
                // Back over the balanced group.
                let mut depth = 0usize;
                loop {
                    j = j.checked_sub(1)?;
                    match toks[j].as_str() {
                        ")" | "]" => depth += 1,
                        "(" | "[" => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ if is_ident(t) => {
                let before = j.checked_sub(2).map(|p| toks[p].as_str());
                if matches!(before, Some("." | "->" | "::")) {
                    direct = false;
                    j -= 2;
                } else {
                    // `*p = v` stores through `p`.
                    let deref = before == Some("*")
                        && j.checked_sub(3).is_none_or(|p| !is_operand_end(&toks[p]));
                    return Some((t, direct && !deref));
                }
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(name: &str, params: Option<&[&str]>, body: &str) -> macros::Definition {
        (
            name.to_string(),
            params.map(|p| p.iter().map(ToString::to_string).collect()),
            body.to_string(),
        )
    }

    #[test]
    fn assignments_are_read_off_the_expansion() {
        let text = "SWAP(a, b)\nLOAD(s[ty][tx], g[i])\nBUMP()\nFILL(v, p, k)\nODD(x)\nTAKE(q)\n";
        let file = [
            def("SWAP", Some(&["x", "y"]), "{ int t = x; x = y; y = t; }"),
            def("LOAD", Some(&["d", "s"]), "d = s"),
            def("BUMP", Some(&[]), "++count; st.n += 2"),
            def("FILL", Some(&["x", "p", "k"]), "load(x, p + k)"),
            def("ODD", Some(&["a", "b"]), "a = b"),
            def("TAKE", Some(&["x"]), "use(&x, n & mask)"),
        ];
        let uses = [(0, 10), (11, 32), (33, 39), (40, 53), (54, 60), (61, 68)];
        let d = describe(text, &uses, &file, &BTreeMap::new(), &[]);
        assert_eq!(d[0].name, "SWAP");
        assert_eq!(d[0].assigns, ["t", "a", "b"]);
        // The store goes through `s`; the indices and the source are only read.
        assert!(d[1].assigns.is_empty());
        assert_eq!(d[1].writes, ["s"]);
        assert_eq!(d[1].mentions, ["s", "ty", "tx", "g", "i"]);
        assert_eq!(d[2].assigns, ["count"]);
        assert_eq!(d[2].writes, ["st"]);
        // A call may assign its arguments through references.
        assert_eq!(d[3].writes, ["v", "p"]);
        // Not expanded (an argument missing): every argument may be assigned.
        assert_eq!(d[4].writes, ["x"]);
        assert_eq!(d[4].mentions, ["x"]);
        assert_eq!(d[5].assigns, ["q"]);
        assert_eq!(d[5].writes, ["n"]);
        assert_eq!(d[5].span, Span::new(61, 68));
        // The same read off each body, by parameter position and free name.
        let e = effects(&file, &BTreeMap::new(), &[]);
        assert_eq!(e["SWAP"], (vec![0, 1], vec!["t".to_string()]));
        assert_eq!(e["LOAD"], (vec![0], vec![]));
        assert_eq!(
            e["BUMP"],
            (vec![], vec!["count".to_string(), "st".to_string()])
        );
        let pure = [def("TWICE", Some(&["x"]), "((x) * 2)")];
        assert!(effects(&pure, &BTreeMap::new(), &[]).is_empty());
    }
}
