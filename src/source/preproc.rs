//! Conditional compilation as the compiler sees it.
//!
//! Every `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else` group of a file is evaluated with the
//! macros known at that point: the settings' defines, the language's predefined
//! macros (`__CUDACC__`, `__CUDA_ARCH__` for device code, HLSL's `__HLSL_VERSION`) and
//! the file's own `#define`s and `#undef`s above it. A group decided that way has its
//! directives and dropped branches blanked (same length, newlines kept), so that the
//! parser reads only the code that is compiled.
//!
//! A group that depends on a name nobody here defines (a header or a build flag may)
//! is left whole: the extraction and the lowering read both branches and say what they
//! assume (`extract/conditions.rs`, `lower/interp/preproc.rs`). Only when the parse
//! fails is such a group resolved here too, as a device compilation with no other
//! definition takes it, and the choice is recorded as an assumption
//! ([`Undecided::assumption`]).

use super::cexpr::{self, Env, Lookup};
use super::lex::{self, Directive};
use crate::Language;
use std::collections::{BTreeMap, HashMap};

/// The `__CUDA_ARCH__` a device compilation is taken to target when nothing says.
pub(super) const DEVICE_ARCH: &str = "900";

/// Macros nvcc defines in every device compilation with a value bankcheck cannot know
/// (the target, the toolkit: `CUDART_VERSION` comes from `cuda_runtime.h`, which nvcc
/// includes first): the value a compilation is taken to have when a condition needs it,
/// and the words of the assumption stated then.
const CUDA_TOOLCHAIN: &[(&str, &str, &str)] = &[
    (
        "__CUDA_ARCH__",
        DEVICE_ARCH,
        "a device compilation for sm_90",
    ),
    ("CUDART_VERSION", "12080", "the CUDA 12.8 runtime"),
    ("__CUDACC_VER_MAJOR__", "12", "nvcc 12.8"),
    ("__CUDACC_VER_MINOR__", "8", "nvcc 12.8"),
];

/// The value a CUDA device compilation is taken to give toolchain macro `name`, and why
/// (`None` for other names and for HLSL): defined, but its value only assumed.
pub fn toolchain_value(language: Language, name: &str) -> Option<(&'static str, &'static str)> {
    if language != Language::Cuda {
        return None;
    }
    CUDA_TOOLCHAIN
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, value, why)| (value, why))
}

/// What the front end knows of a macro at a point of the file.
#[derive(Debug, Clone)]
enum Def {
    Object(String),
    Function,
    Undefined,
    /// Defined or undefined only in a branch nobody can decide.
    Maybe,
    DefinedUnknownValue,
}

/// The macros known at a point of the file.
struct Macros<'a> {
    settings: &'a BTreeMap<String, String>,
    language: Language,
    file: HashMap<String, Def>,
    /// Names nobody defines count as not defined, the toolchain's as [`toolchain_value`].
    device: bool,
}

impl Env for Macros<'_> {
    fn lookup(&self, name: &str) -> Lookup<'_> {
        let def = self.file.get(name).cloned().or_else(|| {
            self.settings
                .get(name)
                .map(|v| Def::Object(v.clone()))
                .or_else(|| predefined(self.language, name))
        });
        match def {
            Some(Def::Object(_)) => {
                // Borrow the body from where it lives.
                if let Some(Def::Object(b)) = self.file.get(name) {
                    Lookup::Object(b)
                } else if let Some(v) = self.settings.get(name) {
                    Lookup::Object(v)
                } else {
                    predefined_body(self.language, name).map_or(Lookup::Unknown, Lookup::Object)
                }
            }
            Some(Def::Function) => Lookup::Function,
            Some(Def::Undefined) => Lookup::Undefined,
            Some(Def::DefinedUnknownValue) if self.device => toolchain_value(self.language, name)
                .map_or(Lookup::DefinedUnknownValue, |(v, _)| Lookup::Object(v)),
            Some(Def::DefinedUnknownValue) => Lookup::DefinedUnknownValue,
            Some(Def::Maybe) | None if self.device => Lookup::Undefined,
            Some(Def::Maybe) | None => Lookup::Unknown,
        }
    }
}

/// What the compiler says of one of its predefined macros.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Predefined {
    /// Defined, with this value (`__CUDACC__` 1, `__cplusplus` 201703).
    Value(i64),
    /// Never defined (`__cplusplus` in HLSL).
    Undefined,
}

/// Whether the compiler of `language` predefines `name`, and how; `None` when it is not
/// one of the predefined macros bankcheck knows. Toolchain values with an assumed value
/// are [`toolchain_value`]'s. The lowering's body conditionals ask this too, so that both
/// read them alike.
pub fn predefined_macro(language: Language, name: &str) -> Option<Predefined> {
    if let Some(body) = predefined_body(language, name) {
        let digits = body.trim_end_matches(['L', 'l', 'U', 'u']);
        return Some(Predefined::Value(digits.parse().unwrap_or(1)));
    }
    matches!(predefined(language, name), Some(Def::Undefined)).then_some(Predefined::Undefined)
}

/// The language's predefined macros with a known value.
fn predefined_body(language: Language, name: &str) -> Option<&'static str> {
    match (language, name) {
        (Language::Cuda, "__CUDACC__" | "__NVCC__") => Some("1"),
        (Language::Cuda, "__cplusplus") => Some("201703L"),
        (Language::Hlsl, "__HLSL_VERSION") => Some("2021"),
        (Language::Hlsl, "__SHADER_TARGET_MAJOR") => Some("6"),
        _ => None,
    }
}

fn predefined(language: Language, name: &str) -> Option<Def> {
    if let Some(b) = predefined_body(language, name) {
        return Some(Def::Object(b.to_string()));
    }
    match (language, name) {
        // Device code is what bankcheck checks: its compilation defines them, with values
        // only assumed.
        (Language::Cuda, _) if toolchain_value(language, name).is_some() => {
            Some(Def::DefinedUnknownValue)
        }
        (Language::Hlsl, "__SHADER_TARGET_MINOR") => Some(Def::DefinedUnknownValue),
        // HLSL is not C++: the shader compilers never define it, and files shared with
        // C++ code (`#ifndef __cplusplus` around the shader part) rely on that.
        (Language::Hlsl, "__cplusplus") => Some(Def::Undefined),
        _ => None,
    }
}

/// A conditional group nobody could decide, and the branch a device compilation takes.
#[derive(Debug, Clone)]
pub struct Undecided {
    /// From the `#if` line's start to the `#endif` line's end.
    pub start: usize,
    pub end: usize,
    /// The group's directive lines.
    directives: Vec<(usize, usize)>,
    /// Each branch's body (between its directive and the next).
    bodies: Vec<(usize, usize)>,
    /// The branch a device compilation takes, if any.
    device_choice: Option<usize>,
    /// The assumption stated when the choice is applied.
    pub assumption: String,
}

impl Undecided {
    /// Whether a branch a device compilation drops spells shared memory.
    pub fn drops_shared(&self, text: &str) -> bool {
        self.bodies.iter().enumerate().any(|(i, &(s, e))| {
            Some(i) != self.device_choice && super::mentions_shared_memory(&text[s..e])
        })
    }

    /// Whether a branch opens or closes more braces than it closes or opens (each
    /// alternative opening a block that one `}` after the group closes): such a group
    /// cannot parse with all its branches kept. The groups nested in a branch
    /// (`nested`: spans of the other undecided groups) are left out of its count: they
    /// answer for themselves.
    pub fn splits_braces(&self, text: &str, nested: &[(usize, usize)]) -> bool {
        self.bodies.iter().any(|&(s, e)| {
            let mut inner: Vec<(usize, usize)> = nested
                .iter()
                .copied()
                .filter(|&(ns, ne)| s <= ns && ne <= e && (ns, ne) != (self.start, self.end))
                .collect();
            inner.sort_unstable();
            let mut balance = 0;
            let mut at = s;
            for (ns, ne) in inner {
                if ns >= at {
                    balance += lex::brace_balance(&text[at..ns]);
                    at = ne;
                }
            }
            balance += lex::brace_balance(&text[at..e]);
            balance != 0
        })
    }

    /// Blanks the group's directives and the branches a device compilation drops.
    pub fn apply(&self, bytes: &mut [u8]) {
        for &(s, e) in &self.directives {
            lex::blank(bytes, s, e);
        }
        for (i, &(s, e)) in self.bodies.iter().enumerate() {
            if Some(i) != self.device_choice {
                lex::blank(bytes, s, e);
            }
        }
    }
}

/// The result of evaluating a file's conditionals.
pub struct Resolved {
    /// The text with decided groups blanked.
    pub text: Vec<u8>,
    pub undecided: Vec<Undecided>,
    /// Macros defined by the file (bodies; `None` for function-like), for the macro pass.
    pub definitions: Vec<(String, Option<Vec<String>>, String)>,
}

/// One open group while walking.
struct Frame {
    /// The enclosing code is compiled for sure (`Some(true)`), dropped (`Some(false)`),
    /// or maybe (`None`).
    parent: Option<bool>,
    /// Whether the conditions of the branches so far select one: for sure, maybe, or
    /// not (the enclosing code aside).
    taken: Option<bool>,
    /// The current branch: compiled, dropped or maybe.
    current: Option<bool>,
    /// The device compilation's view: a branch was taken, and which.
    device_taken: bool,
    device_choice: Option<usize>,
    decided: bool,
    /// Each branch's state so far.
    states: Vec<Option<bool>>,
    start: usize,
    directives: Vec<(usize, usize)>,
    bodies: Vec<(usize, usize)>,
    body_start: usize,
    /// Conditions and lines, for the assumption.
    conditions: Vec<String>,
    names: Vec<String>,
}

/// Evaluates the conditionals of `text` (directives from [`lex::lex`]).
pub fn resolve(
    text: &str,
    directives: &[Directive],
    language: Language,
    settings: &BTreeMap<String, String>,
) -> Resolved {
    let mut bytes = text.as_bytes().to_vec();
    let mut macros = Macros {
        settings,
        language,
        file: HashMap::new(),
        device: false,
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut undecided = Vec::new();
    let mut definitions = Vec::new();
    let here = |stack: &[Frame]| stack.last().map_or(Some(true), |f| f.current);
    // The line of the current directive, counted incrementally.
    let (mut line, mut counted) = (1, 0);
    for (k, d) in directives.iter().enumerate() {
        line += memchr_count(&text.as_bytes()[counted..d.start]);
        counted = d.start;
        let mode = here(&stack);
        let rest = d.rest(text);
        match d.name.as_str() {
            "if" | "ifdef" | "ifndef" => {
                let cond = condition(&d.name, rest);
                let (mut value, mut device) = evaluate(&cond, &mut macros, mode);
                // An include guard (`#ifndef X` then `#define X`): X is not defined when
                // the file is first read, which is the reading that compiles its code.
                if value.is_none() && is_include_guard(directives, k, text) {
                    (value, device) = (Some(1), Some(1));
                }
                let current = match (mode, value) {
                    (Some(false), _) | (_, Some(0)) => Some(false),
                    (_, Some(_)) => mode,
                    (_, None) => None,
                };
                stack.push(Frame {
                    parent: mode,
                    taken: value.map(|v| v != 0),
                    current,
                    device_taken: device != Some(0),
                    device_choice: (device != Some(0)).then_some(0),
                    decided: value.is_some(),
                    states: vec![current],
                    start: d.start,
                    directives: vec![(d.start, d.end)],
                    bodies: Vec::new(),
                    body_start: d.end,
                    conditions: vec![directive_text(d, text, line)],
                    names: cexpr::names(&cond),
                });
            }
            "elif" | "else" | "elifdef" | "elifndef" => {
                let Some(f) = stack.last_mut() else {
                    continue;
                };
                f.bodies.push((f.body_start, d.start));
                f.directives.push((d.start, d.end));
                f.body_start = d.end;
                let cond = match d.name.as_str() {
                    "else" => "1".to_string(),
                    "elifdef" => condition("ifdef", rest),
                    "elifndef" => condition("ifndef", rest),
                    _ => rest.to_string(),
                };
                let parent = f.parent;
                let taken = f.taken;
                let device_taken = f.device_taken;
                if d.name != "else" {
                    f.conditions.push(directive_text(d, text, line));
                    for n in cexpr::names(&cond) {
                        if !f.names.contains(&n) {
                            f.names.push(n);
                        }
                    }
                }
                let (value, device) = evaluate(&cond, &mut macros, parent);
                let f = stack.last_mut().expect("frame pushed above");
                if value.is_none() && taken != Some(true) {
                    f.decided = false;
                }
                // This branch's own condition, given the branches before.
                let chosen = match (taken, value) {
                    (Some(true), _) | (_, Some(0)) => Some(false),
                    (Some(false), Some(_)) => Some(true),
                    _ => None,
                };
                f.current = match (parent, chosen) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (_, Some(true)) => parent,
                    (_, None) => None,
                };
                f.states.push(f.current);
                f.taken = match (taken, chosen) {
                    (Some(true), _) | (_, Some(true)) => Some(true),
                    (Some(false), Some(false)) => Some(false),
                    _ => None,
                };
                if !device_taken && device != Some(0) {
                    f.device_taken = true;
                    f.device_choice = Some(f.bodies.len());
                }
            }
            "endif" => {
                let Some(mut f) = stack.pop() else {
                    continue;
                };
                f.bodies.push((f.body_start, d.start));
                f.directives.push((d.start, d.end));
                if f.parent == Some(false) {
                    // Blanked with the enclosing dropped branch.
                    continue;
                }
                if f.decided {
                    for &(s, e) in &f.directives {
                        lex::blank(&mut bytes, s, e);
                    }
                }
                // A branch known to be dropped is blanked, decided group or not.
                for (i, &(s, e)) in f.bodies.iter().enumerate() {
                    if f.states.get(i) == Some(&Some(false)) {
                        lex::blank(&mut bytes, s, e);
                    }
                }
                if !f.decided {
                    undecided.push(Undecided {
                        start: f.start,
                        end: d.end,
                        directives: f.directives.clone(),
                        bodies: f.bodies.clone(),
                        device_choice: f.device_choice,
                        assumption: assumption(&f, &macros),
                    });
                }
            }
            "define" if mode != Some(false) => {
                if let Some((name, params, body)) = definition(rest) {
                    let def = match (mode, &params) {
                        (None, _) => Def::Maybe,
                        (_, Some(_)) => Def::Function,
                        (_, None) => Def::Object(body.clone()),
                    };
                    macros.file.insert(name.clone(), def);
                    definitions.push((name, params, body));
                }
            }
            "undef" if mode != Some(false) => {
                let name = rest.split_whitespace().next().unwrap_or("").to_string();
                let def = if mode.is_none() {
                    Def::Maybe
                } else {
                    Def::Undefined
                };
                macros.file.insert(name, def);
            }
            _ => {}
        }
    }
    Resolved {
        text: bytes,
        undecided,
        definitions,
    }
}

fn memchr_count(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

/// The `#if` condition of an `#ifdef X` / `#ifndef X` / `#if c` directive.
fn condition(name: &str, rest: &str) -> String {
    let first = rest.split_whitespace().next().unwrap_or("");
    match name {
        "ifdef" => format!("defined({first})"),
        "ifndef" => format!("!defined({first})"),
        _ => rest.to_string(),
    }
}

/// The condition's value with the known macros, and as a device compilation takes it.
fn evaluate(cond: &str, macros: &mut Macros<'_>, mode: Option<bool>) -> (Option<i64>, Option<i64>) {
    if mode == Some(false) {
        return (Some(0), Some(0));
    }
    macros.device = false;
    let value = cexpr::eval(cond, macros);
    macros.device = true;
    // A condition even a device compilation cannot decide: its branch is taken.
    let device = value.or_else(|| cexpr::eval(cond, macros));
    macros.device = false;
    (value, device)
}

fn directive_text(d: &Directive, text: &str, line: usize) -> String {
    let words: Vec<&str> = text[d.start..d.end]
        .split_whitespace()
        .filter(|w| *w != "\\")
        .collect();
    let mut t = words.join(" ");
    if let Some(c) = t.find("//") {
        t.truncate(c);
    }
    let t: String = t.trim().chars().take(80).collect();
    format!("`{t}` (line {line})")
}

fn assumption(f: &Frame, macros: &Macros<'_>) -> String {
    let shown: Vec<&str> = f.conditions.iter().map(String::as_str).collect();
    let unknown: Vec<String> = f
        .names
        .iter()
        .filter(|n| matches!(macros.lookup(n), Lookup::Unknown))
        .map(|n| format!("`{n}`"))
        .collect();
    let branch = match f.device_choice {
        Some(0) => "its first branch".to_string(),
        Some(i) if i + 1 == f.bodies.len() && f.conditions.len() <= i + 1 => {
            "its `#else` branch".to_string()
        }
        Some(i) => format!("its branch {}", i + 1),
        None => "none of its branches".to_string(),
    };
    let names = if unknown.is_empty() {
        String::new()
    } else {
        format!("; {} taken as not defined", unknown.join(", "))
    };
    format!(
        "{} was read as a device compilation with nothing else defined reads it, taking {branch}{names}, so that the code around it parses; its other branches are not checked (choose with `-D NAME=VALUE` or lint.toml `defines`)",
        shown.join(", ")
    )
}

/// Whether the directive at `k` opens an include guard: `#ifndef X`, then `#define X`,
/// and the matching `#endif` ends the file (only comments after it). A default value
/// (`#ifndef TILE` / `#define TILE 16` / `#endif` with code after it) is no guard: a build
/// may define the name.
fn is_include_guard(directives: &[Directive], k: usize, text: &str) -> bool {
    let d = &directives[k];
    let name = d.rest(text).trim();
    let defines_it = directives.get(k + 1).is_some_and(|n| {
        n.name == "define" && definition(n.rest(text)).is_some_and(|(def, ..)| def == name)
    });
    if d.name != "ifndef" || name.is_empty() || !defines_it {
        return false;
    }
    let mut depth = 0usize;
    for e in &directives[k..] {
        match e.name.as_str() {
            "if" | "ifdef" | "ifndef" => depth += 1,
            "endif" => {
                depth -= 1;
                if depth == 0 {
                    return only_comments(&text[e.end..]);
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether `text` holds nothing but white space and comments.
fn only_comments(mut text: &str) -> bool {
    loop {
        text = text.trim_start();
        if let Some(rest) = text.strip_prefix("//") {
            text = rest.find('\n').map_or("", |e| &rest[e..]);
        } else if let Some(rest) = text.strip_prefix("/*") {
            match rest.find("*/") {
                Some(e) => text = &rest[e + 2..],
                None => return true,
            }
        } else {
            return text.is_empty();
        }
    }
}

/// `NAME body`, `NAME(a, b) body` of a `#define`.
fn definition(rest: &str) -> Option<(String, Option<Vec<String>>, String)> {
    let rest = rest.trim_start();
    let name_end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let name = &rest[..name_end];
    if name.is_empty() {
        return None;
    }
    let after = &rest[name_end..];
    let (params, body) = if after.starts_with('(') {
        let close = after.find(')')?;
        let params = after[1..close]
            .split(',')
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .collect();
        (Some(params), &after[close + 1..])
    } else {
        (None, after)
    };
    let body = strip_comments(body);
    Some((name.to_string(), params, body))
}

/// A macro body without comments and continuations, whitespace collapsed.
fn strip_comments(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    loop {
        let line = rest.find("//");
        let block = rest.find("/*");
        match (line, block) {
            (Some(l), b) if b.is_none_or(|b| l < b) => {
                out.push_str(&rest[..l]);
                match rest[l..].find('\n') {
                    Some(n) => rest = &rest[l + n..],
                    None => break,
                }
            }
            (_, Some(b)) => {
                out.push_str(&rest[..b]);
                match rest[b + 2..].find("*/") {
                    Some(e) => {
                        out.push(' ');
                        rest = &rest[b + 2 + e + 2..];
                    }
                    None => break,
                }
            }
            _ => {
                out.push_str(rest);
                break;
            }
        }
    }
    out.replace("\\\r\n", " ")
        .replace("\\\n", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, defines: &[(&str, &str)]) -> (String, Vec<Undecided>) {
        let settings: BTreeMap<String, String> = defines
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let lexed = lex::lex(text, &|_| false);
        let r = resolve(text, &lexed.directives, Language::Cuda, &settings);
        (String::from_utf8(r.text).unwrap(), r.undecided)
    }

    #[test]
    fn decided_groups_are_blanked_in_place() {
        let text = "#define W 4\n#if W > 2\nint a;\n#else\nint b;\n#endif\n#ifdef __CUDA_ARCH__\nint c;\n#endif\n";
        let (out, undecided) = run(text, &[]);
        assert_eq!(out.len(), text.len());
        assert_eq!(out.lines().count(), text.lines().count());
        assert!(out.contains("int a;") && !out.contains("int b;") && out.contains("int c;"));
        assert!(!out.contains("#if") && !out.contains("#endif"));
        assert!(undecided.is_empty());
    }

    #[test]
    fn undecided_groups_stay_until_applied() {
        let text = "#ifndef FIXED\nint a,\n#else\nint b,\n#endif\nint c;\n#if X\n#if 0\nint d;\n#endif\n#endif\n";
        let (out, undecided) = run(text, &[]);
        assert!(out.contains("#ifndef FIXED") && out.contains("int b,"));
        // A decided group inside an undecided branch is still blanked.
        assert!(!out.contains("int d;"));
        assert_eq!(undecided.len(), 2);
        let mut bytes = out.into_bytes();
        undecided[0].apply(&mut bytes);
        let out = String::from_utf8(bytes).unwrap();
        assert!(out.contains("int a,") && !out.contains("int b,") && !out.contains("#ifndef"));
        assert!(undecided[0]
            .assumption
            .contains("`FIXED` taken as not defined"));
        assert!(undecided[0]
            .assumption
            .starts_with("`#ifndef FIXED` (line 1)"));
        // Settings decide it.
        let (out, undecided) = run(text, &[("FIXED", "1"), ("X", "0")]);
        assert!(!out.contains("int a,") && out.contains("int b,"));
        assert!(undecided.is_empty());
    }

    #[test]
    fn include_guards_are_decided_and_defaults_are_not() {
        // A guard spans the file (comments after its `#endif` are fine): its code is what
        // a first reading compiles.
        let text = "#ifndef K_H\n#define K_H\n#if FAST\nint a;\n#endif\nint b;\n#endif // K_H\n/* end */\n";
        let (out, undecided) = run(text, &[]);
        assert!(!out.contains("#ifndef K_H") && out.contains("int b;"));
        assert_eq!(undecided.len(), 1, "only `#if FAST` is left");
        // A default value followed by code is no guard: a build may define the name.
        let text = "#ifndef TILE\n#define TILE 16\n#endif\nint t[TILE];\n";
        let (out, undecided) = run(text, &[]);
        assert!(out.contains("#ifndef TILE"));
        assert_eq!(undecided.len(), 1);
        // Defined by the settings, the guard's name drops its code, as a compiler would.
        let text = "#ifndef K_H\n#define K_H\nint a;\n#endif\n";
        let (out, _) = run(text, &[("K_H", "")]);
        assert!(!out.contains("int a;"));
    }

    #[test]
    fn hlsl_is_not_cplusplus() {
        let text = "#ifndef __cplusplus\nint shader;\n#else\nint host;\n#endif\n";
        let lexed = lex::lex(text, &|_| false);
        let r = resolve(text, &lexed.directives, Language::Hlsl, &BTreeMap::new());
        let out = String::from_utf8(r.text).unwrap();
        assert!(out.contains("int shader;") && !out.contains("int host;"));
        assert!(r.undecided.is_empty());
        let r = resolve(text, &lexed.directives, Language::Cuda, &BTreeMap::new());
        let out = String::from_utf8(r.text).unwrap();
        assert!(!out.contains("int shader;") && out.contains("int host;"));
    }

    #[test]
    fn branches_that_split_braces_are_told() {
        let text = "void f() {\n#if A\n  for (;;) {\n#else\n  {\n#endif\n  }\n#if B\n  g();\n#else\n  h();\n#endif\n}\n#if C\n{\n#if D\n}\n#endif\n}\n#endif\n";
        let (out, undecided) = run(text, &[]);
        let spans: Vec<(usize, usize)> = undecided.iter().map(|g| (g.start, g.end)).collect();
        let split: Vec<bool> = undecided
            .iter()
            .map(|g| g.splits_braces(&out, &spans))
            .collect();
        // `#if A` opens a block in each branch; `#if B` is whole; `#if C` is whole once
        // the group nested in it (which splits braces itself) is left out.
        assert_eq!(undecided.len(), 4);
        let by_start = |needle: &str| {
            let at = text.find(needle).unwrap();
            undecided.iter().position(|g| g.start == at).unwrap()
        };
        assert!(split[by_start("#if A")]);
        assert!(!split[by_start("#if B")]);
        assert!(!split[by_start("#if C")]);
        assert!(split[by_start("#if D")]);
    }
}
