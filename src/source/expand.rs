//! Expansion of one function-like macro use as the C preprocessor does it, for a use
//! that stands for a function head (`DEFINE_KERNEL(name, bool A) { ... }`): arguments
//! substituted (fully expanded, raw next to `##`, spelled as a string after `#`),
//! `__VA_ARGS__` and GNU `, ## __VA_ARGS__`, `##` pasting, and the result rescanned with
//! the macros being expanded hidden, so a self-referential macro stops as the
//! compiler's does.
//!
//! The result is text for the grammar to parse apart from the file; it never enters the
//! file's text, whose byte positions stay those of the file. Expansion is bounded in
//! nesting ([`MAX_DEPTH`]) and in work ([`MAX_WORK`] tokens produced, [`MAX_TOKENS`] in
//! the result): past either, or on a use it cannot read, it refuses with a reason
//! ([`Refusal`]) and the use is read as before (a function named after the macro).
//! A function-like name at the end of an expansion does not take its arguments from the
//! text after the use (the compiler would): the head is expanded on its own.

use std::collections::HashMap;
use std::fmt;

/// Deepest nesting of macro expansions (a use inside an expansion inside ...).
pub const MAX_DEPTH: usize = 32;
/// Most tokens produced over one use's whole expansion, intermediate lists included.
pub const MAX_WORK: usize = 100_000;
/// Most tokens in the expanded head.
pub const MAX_TOKENS: usize = 4_096;
/// Most bytes in the expanded head (an argument may be a long literal).
pub const MAX_BYTES: usize = 65_536;

/// A macro as the expander needs it: its parameters (function-like) and body.
pub type Macro<'a> = (Option<&'a [String]>, &'a str);

/// The macros of the file, the settings and the headers (the file's win), as the
/// expander needs them.
pub fn known_macros<'a>(
    file: &'a [super::macros::Definition],
    settings: &'a std::collections::BTreeMap<String, String>,
    headers: &'a [super::macros::Definition],
) -> HashMap<&'a str, Macro<'a>> {
    super::macros::by_precedence(file, settings, headers)
        .map(|(name, params, body)| (name, (params, body)))
        .collect()
}

/// A file's work for expanding its uses, linear in the file: a few uses of the most
/// work, then a share per byte.
pub fn file_budget(len: usize) -> usize {
    4 * MAX_WORK + 8 * len
}

/// Why a use was not expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Macro uses nested past [`MAX_DEPTH`].
    TooDeep(String),
    /// More than [`MAX_WORK`] tokens produced, or a result of more than [`MAX_TOKENS`].
    TooLarge(String),
    /// A use whose argument list does not close.
    Unbalanced(String),
    /// A use with more or fewer arguments than its macro has parameters.
    Arguments {
        name: String,
        expected: usize,
        given: usize,
    },
    /// A construct the expander does not implement (`__VA_OPT__`).
    Unsupported(String, &'static str),
    /// The file's budget for expanding heads is spent (see [`expand_use`]).
    FileBudget(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::TooDeep(n) => write!(
                f,
                "the expansion of `{n}` nests macros more than {MAX_DEPTH} deep"
            ),
            Refusal::TooLarge(n) => write!(
                f,
                "the expansion of `{n}` grows past {MAX_TOKENS} tokens ({MAX_WORK} produced at most)"
            ),
            Refusal::Unbalanced(n) => {
                write!(f, "a use of `{n}` has an argument list that does not close")
            }
            Refusal::Arguments {
                name,
                expected,
                given,
            } => write!(
                f,
                "`{name}` takes {expected} argument(s) and a use gives {given}"
            ),
            Refusal::Unsupported(n, what) => {
                write!(f, "the expansion of `{n}` uses {what}, which bankcheck does not expand")
            }
            Refusal::FileBudget(n) => write!(
                f,
                "the file's macro heads before this use of `{n}` spent its expansion budget"
            ),
        }
    }
}

/// One preprocessing token: its text, and whether white space came before it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Tok {
    text: String,
    space: bool,
}

impl Tok {
    fn is_ident(&self) -> bool {
        self.text
            .as_bytes()
            .first()
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
    }
}

/// Punctuators of more than one character, longest first.
const PUNCT: [&str; 24] = [
    "...", "<<=", ">>=", "->*", "##", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
    "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
];

/// The texts of the tokens of `text`, comments dropped (for scans of an expansion).
pub(super) fn token_texts(text: &str) -> Vec<String> {
    tokenize(text).into_iter().map(|t| t.text).collect()
}

/// The tokens of `text`, comments dropped.
fn tokenize(text: &str) -> Vec<Tok> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut space = false;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || (c == b'\\' && b.get(i + 1).is_some_and(|n| *n == b'\n')) {
            space = true;
            i += 1;
            continue;
        }
        if text[i..].starts_with("//") {
            i = text[i..].find('\n').map_or(b.len(), |e| i + e);
            space = true;
            continue;
        }
        if text[i..].starts_with("/*") {
            i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            space = true;
            continue;
        }
        let start = i;
        if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            // A number's exponent sign and fraction stay in the token (`1.5e-3f`).
            while c.is_ascii_digit()
                && i < b.len()
                && (b[i] == b'.'
                    || (matches!(b[i], b'+' | b'-') && matches!(b[i - 1], b'e' | b'E' | b'p')))
            {
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
            }
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
        } else {
            i += PUNCT
                .iter()
                .find(|p| text[i..].starts_with(**p))
                .map_or(1, |p| p.len());
        }
        // Never split a character: a stray byte above 0x7f was taken whole above.
        while !text.is_char_boundary(i) {
            i += 1;
        }
        out.push(Tok {
            text: text[start..i].to_string(),
            space,
        });
        space = false;
    }
    out
}

/// The text of `toks`, spaced as written, with a space wherever two tokens would
/// otherwise read as one.
fn spell(toks: &[Tok]) -> String {
    let mut out = String::new();
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    for t in toks {
        let glue = word(out.chars().next_back()) && word(t.text.chars().next());
        if !out.is_empty() && (t.space || glue) {
            out.push(' ');
        }
        out.push_str(&t.text);
    }
    out
}

/// Expands the use `use_text` (`NAME(args)`, a use of a function-like macro of
/// `macros`) and returns the text it stands for. `budget` is what is left of the file's
/// work for its heads: the use takes at most [`MAX_WORK`] of it, and what it spends
/// (refused or not) is taken off, so a file of many heads stays linear.
pub fn expand_use(
    use_text: &str,
    macros: &HashMap<&str, Macro<'_>>,
    budget: &mut usize,
) -> Result<String, Refusal> {
    let toks = tokenize(use_text);
    let name = toks.first().map(|t| t.text.clone()).unwrap_or_default();
    if *budget == 0 {
        return Err(Refusal::FileBudget(name));
    }
    let mut ex = Expander {
        macros,
        work: 0,
        limit: MAX_WORK.min(*budget),
        top: name.clone(),
    };
    let out = ex.expand(&toks, &mut Vec::new(), 0);
    *budget = budget.saturating_sub(ex.work.max(1));
    let out = out.map_err(|r| match r {
        Refusal::TooLarge(n) if ex.limit < MAX_WORK => Refusal::FileBudget(n),
        r => r,
    })?;
    if out.len() > MAX_TOKENS {
        return Err(Refusal::TooLarge(name));
    }
    let text = spell(&out);
    if text.len() > MAX_BYTES {
        return Err(Refusal::TooLarge(name));
    }
    Ok(text)
}

struct Expander<'m, 'a> {
    macros: &'m HashMap<&'m str, Macro<'a>>,
    /// Tokens produced so far, and the most this use may produce.
    work: usize,
    limit: usize,
    /// The macro of the use, named in refusals.
    top: String,
}

impl Expander<'_, '_> {
    fn charge(&mut self, n: usize) -> Result<(), Refusal> {
        self.work += n;
        if self.work > self.limit {
            return Err(Refusal::TooLarge(self.top.clone()));
        }
        Ok(())
    }

    /// `toks` with every macro use expanded; `hide` holds the macros being expanded.
    fn expand(
        &mut self,
        toks: &[Tok],
        hide: &mut Vec<String>,
        depth: usize,
    ) -> Result<Vec<Tok>, Refusal> {
        if depth > MAX_DEPTH {
            return Err(Refusal::TooDeep(self.top.clone()));
        }
        let mut out = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            let found = if t.is_ident() && !hide.contains(&t.text) {
                self.macros.get(t.text.as_str()).copied()
            } else {
                None
            };
            let Some((params, body)) = found else {
                out.push(t.clone());
                self.charge(1)?;
                i += 1;
                continue;
            };
            let name = t.text.clone();
            let space = t.space;
            let (replacement, next) = match params {
                None => (tokenize(body), i + 1),
                Some(params) => {
                    // A function-like name without arguments is no use of it.
                    if toks.get(i + 1).is_none_or(|n| n.text != "(") {
                        out.push(t.clone());
                        self.charge(1)?;
                        i += 1;
                        continue;
                    }
                    let (args, next) =
                        arguments(toks, i + 1).ok_or_else(|| Refusal::Unbalanced(name.clone()))?;
                    (
                        self.substitute(&name, params, body, args, hide, depth)?,
                        next,
                    )
                }
            };
            self.charge(replacement.len())?;
            hide.push(name);
            let mut expanded = self.expand(&replacement, hide, depth + 1)?;
            hide.pop();
            if let Some(first) = expanded.first_mut() {
                first.space = space;
            }
            self.charge(expanded.len())?;
            out.append(&mut expanded);
            i = next;
        }
        Ok(out)
    }

    /// The body of `name` with its parameters replaced by `args`, pasted, not rescanned.
    fn substitute(
        &mut self,
        name: &str,
        params: &[String],
        body: &str,
        mut args: Vec<Vec<Tok>>,
        hide: &mut Vec<String>,
        depth: usize,
    ) -> Result<Vec<Tok>, Refusal> {
        // `...` or GNU `args...`: the trailing arguments, commas kept, are one.
        let variadic = params.last().and_then(|p| p.strip_suffix("..."));
        let named = params.len() - usize::from(variadic.is_some());
        if params.is_empty() && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if args.len() < named || (variadic.is_none() && args.len() > named) {
            // `F()` gives one empty argument to a one-parameter macro.
            if !(named == 1 && args.is_empty()) {
                return Err(Refusal::Arguments {
                    name: name.to_string(),
                    expected: named,
                    given: args.len(),
                });
            }
            args.push(Vec::new());
        }
        let rest = if variadic.is_some() && args.len() > named {
            let mut joined = Vec::new();
            for (k, a) in args.drain(named..).enumerate() {
                if k > 0 {
                    joined.push(Tok {
                        text: ",".to_string(),
                        space: false,
                    });
                }
                joined.extend(a);
            }
            joined
        } else {
            Vec::new()
        };
        if variadic.is_some() {
            args.push(rest);
        }
        let param_index = |w: &str| -> Option<usize> {
            match variadic {
                Some(v) if w == "__VA_ARGS__" || (!v.is_empty() && w == v) => Some(named),
                _ => params[..named].iter().position(|p| p == w),
            }
        };
        let body = tokenize(body);
        let mut out: Vec<Tok> = Vec::new();
        let mut paste = false;
        let mut k = 0;
        while k < body.len() {
            let t = &body[k];
            if t.text == "__VA_OPT__" {
                return Err(Refusal::Unsupported(self.top.clone(), "`__VA_OPT__`"));
            }
            if t.text == "##" {
                paste = !out.is_empty();
                k += 1;
                continue;
            }
            let piece: Vec<Tok> = if t.text == "#" {
                match body.get(k + 1).and_then(|n| param_index(&n.text)) {
                    Some(p) => {
                        k += 1;
                        vec![Tok {
                            text: stringify(&args[p]),
                            space: t.space,
                        }]
                    }
                    None => vec![t.clone()],
                }
            } else if let Some(p) = param_index(&t.text) {
                let raw = paste || body.get(k + 1).is_some_and(|n| n.text == "##");
                let mut a = if raw {
                    args[p].clone()
                } else {
                    self.charge(args[p].len())?;
                    self.expand(&args[p], hide, depth + 1)?
                };
                if let Some(first) = a.first_mut() {
                    first.space = t.space;
                }
                // GNU `, ## __VA_ARGS__`: the comma is kept before arguments, and an
                // empty variadic argument takes it away.
                let comma = out.last().is_some_and(|l| l.text == ",");
                if paste && comma && p == named && variadic.is_some() {
                    if a.is_empty() {
                        out.pop();
                    } else if let Some(first) = a.first_mut() {
                        first.space = true;
                    }
                    paste = false;
                }
                a
            } else {
                vec![t.clone()]
            };
            self.charge(piece.len())?;
            let mut piece = piece.into_iter();
            if paste {
                if let (Some(last), Some(first)) = (out.last_mut(), piece.next()) {
                    last.text.push_str(&first.text);
                }
                paste = false;
            }
            out.extend(piece);
            k += 1;
        }
        Ok(out)
    }
}

/// The arguments of the use whose `(` is `toks[open]`, split at top-level commas, and
/// the index after its `)`; `None` when it does not close.
fn arguments(toks: &[Tok], open: usize) -> Option<(Vec<Vec<Tok>>, usize)> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.text.as_str() {
            "(" => {
                depth += 1;
                if depth == 1 {
                    continue;
                }
            }
            ")" => {
                depth -= 1;
                if depth == 0 {
                    return Some((args, k + 1));
                }
            }
            "," if depth == 1 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        args.last_mut()?.push(t.clone());
    }
    None
}

/// `#arg`: the argument's spelling as a string literal.
fn stringify(arg: &[Tok]) -> String {
    let text = spell(arg);
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.trim().chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defs(list: &[(&str, Option<&[&str]>, &str)]) -> Vec<Owned> {
        list.iter()
            .map(|(n, p, b)| {
                (
                    n.to_string(),
                    p.map(|p| p.iter().map(ToString::to_string).collect()),
                    b.to_string(),
                )
            })
            .collect()
    }

    type Owned = (String, Option<Vec<String>>, String);

    fn map_of(d: &[Owned]) -> HashMap<&str, Macro<'_>> {
        d.iter()
            .map(|(n, p, b)| (n.as_str(), (p.as_deref(), b.as_str())))
            .collect()
    }

    fn run(list: &[(&str, Option<&[&str]>, &str)], use_text: &str) -> Result<String, Refusal> {
        let d = defs(list);
        expand_use(use_text, &map_of(&d), &mut { usize::MAX })
    }

    #[test]
    fn expands_a_kernel_head_with_variadic_parameters() {
        let out = run(
            &[
                (
                    "DEFINE_KERNEL",
                    Some(&["kernelName", "..."]),
                    "template<typename Traits, __VA_ARGS__> __global__ void kernelName(MOD const Params p)",
                ),
                ("MOD", None, "__grid_constant__"),
            ],
            "DEFINE_KERNEL(fwd, bool A, int B)",
        )
        .unwrap();
        assert_eq!(
            out,
            "template<typename Traits, bool A, int B> __global__ void fwd(__grid_constant__ const Params p)"
        );
    }

    #[test]
    fn pastes_stringifies_and_elides_the_comma() {
        let list: &[(&str, Option<&[&str]>, &str)] = &[
            (
                "HEAD",
                Some(&["n", "..."]),
                "void k_##n(int x, ## __VA_ARGS__)",
            ),
            ("NAME", Some(&["x"]), "#x"),
        ];
        assert_eq!(run(list, "HEAD(sum)").unwrap(), "void k_sum(int x)");
        assert_eq!(
            run(list, "HEAD(sum, float* p)").unwrap(),
            "void k_sum(int x, float* p)"
        );
        assert_eq!(run(list, "NAME(a \"b\")").unwrap(), "\"a \\\"b\\\"\"");
    }

    #[test]
    fn arguments_are_expanded_before_and_after_substitution() {
        let list: &[(&str, Option<&[&str]>, &str)] = &[
            ("N", None, "32"),
            ("WRAP", Some(&["x"]), "void f(int a[x])"),
            ("TWICE", Some(&["x"]), "WRAP(x)"),
        ];
        assert_eq!(run(list, "TWICE(N)").unwrap(), "void f(int a[32])");
    }

    #[test]
    fn self_reference_and_cycles_stop() {
        let list: &[(&str, Option<&[&str]>, &str)] = &[
            ("F", Some(&["x"]), "void F(x)"),
            ("A", None, "B"),
            ("B", None, "A"),
        ];
        assert_eq!(run(list, "F(A)").unwrap(), "void F(A)");
    }

    #[test]
    fn pathological_uses_are_refused() {
        // Each level doubles: 2^30 tokens if nothing stopped it.
        let mut list: Vec<Owned> = (0..30)
            .map(|k| (format!("L{k}"), None, format!("L{} L{}", k + 1, k + 1)))
            .collect();
        list.push((
            "H".to_string(),
            Some(vec!["x".to_string()]),
            "void f(L0 x)".to_string(),
        ));
        let map = map_of(&list);
        assert_eq!(
            expand_use("H(int)", &map, &mut { usize::MAX }),
            Err(Refusal::TooLarge("H".to_string()))
        );
        // A chain of 100 distinct macros nests past the bound.
        let chain: Vec<Owned> = (0..100)
            .map(|k| (format!("C{k}"), None, format!("C{}", k + 1)))
            .chain([(
                "G".to_string(),
                Some(vec!["x".to_string()]),
                "void g(C0 x)".to_string(),
            )])
            .collect();
        let map = map_of(&chain);
        assert_eq!(
            expand_use("G(int)", &map, &mut { usize::MAX }),
            Err(Refusal::TooDeep("G".to_string()))
        );
        let list: &[(&str, Option<&[&str]>, &str)] = &[
            ("P", Some(&["a", "b"]), "void a(b)"),
            ("Q", Some(&["a"]), "void f(U(a"),
            ("U", Some(&["a"]), "a"),
            ("V", Some(&["a", "..."]), "void a(__VA_OPT__(int))"),
        ];
        assert!(matches!(run(list, "P(x)"), Err(Refusal::Arguments { .. })));
        assert_eq!(run(list, "Q(x)"), Err(Refusal::Unbalanced("U".to_string())));
        assert!(matches!(run(list, "V(f)"), Err(Refusal::Unsupported(..))));
        // Nothing panics on stray bytes.
        assert!(run(list, "P(\u{e9}, #)").is_ok());
        // A file's budget is shared by its uses.
        let d = defs(&[("W", Some(&["a"]), "void a(int x)")]);
        let map = map_of(&d);
        let mut budget = 100;
        assert!(expand_use("W(f)", &map, &mut budget).is_ok());
        assert!(budget < 100);
        let mut spent = 0;
        assert_eq!(
            expand_use("W(f)", &map, &mut spent),
            Err(Refusal::FileBudget("W".to_string()))
        );
        let mut little = 3;
        assert_eq!(
            expand_use("W(f)", &map, &mut little),
            Err(Refusal::FileBudget("W".to_string()))
        );
    }
}
