//! Object-like macros that stand for qualifiers, attributes or pragmas
//! (`#define CUTLASS_DEVICE __device__ __forceinline__`, `#define RESTRICT __restrict__`,
//! `#define UNROLL _Pragma("unroll")`, `-D X=`), and function-like ones whose body is
//! only that (`#define PRAGMA_UNROLL(n) _Pragma(#n)`), rewritten at their uses.
//!
//! The grammar reads such a name as a type and the declaration after it as an error. A
//! use is replaced by the part of its expansion the grammar reads and bankcheck needs
//! (`__global__`, `__device__`, `__host__`, `static`, `inline`, `constexpr`) when it fits
//! in the name's length, the rest by spaces. Which names qualify is derived from their
//! definitions (the file's, the settings' defines, the headers' when the caller has
//! them); [`WELL_KNOWN`] covers the spellings of common libraries when their headers are
//! not in the workspace or define them in ways bankcheck does not read.

use super::lex;
use std::collections::{BTreeMap, HashMap};

/// A macro definition: name, parameters (function-like), body.
pub type Definition = (String, Option<Vec<String>>, String);

/// Qualifier spellings of common CUDA libraries and platform headers, with their
/// expansion, used only when no definition of the name that bankcheck reads as a
/// qualifier is known: CUTLASS/CuTe
/// (`cutlass/cutlass.h`, `cute/config.hpp`), CCCL (`cuda/__cccl/*.h`), ggml, the CUDA
/// runtime (`CUDART_CB`) and Vulkan (`VKAPI_*`).
pub const WELL_KNOWN: &[(&str, &str)] = &[
    ("CUTLASS_HOST_DEVICE", "__host__ __device__"),
    ("CUTLASS_DEVICE", "__device__"),
    ("CUTLASS_HOST", "__host__"),
    ("CUTLASS_GLOBAL", "__global__"),
    ("CUTLASS_PRAGMA_UNROLL", ""),
    ("CUTLASS_PRAGMA_NO_UNROLL", ""),
    ("CUTLASS_GRID_CONSTANT", ""),
    ("CUTE_HOST_DEVICE", "__host__ __device__"),
    ("CUTE_DEVICE", "__device__"),
    ("CUTE_HOST", "__host__"),
    ("CUTE_UNROLL", ""),
    ("CUTE_NO_UNROLL", ""),
    ("CUTE_GRID_CONSTANT", ""),
    ("_CCCL_DEVICE", "__device__"),
    ("_CCCL_HOST", "__host__"),
    ("_CCCL_HOST_DEVICE", "__host__ __device__"),
    ("_CCCL_FORCEINLINE", ""),
    ("_CCCL_FORCEINLINE_LAMBDA", ""),
    ("_CCCL_API", "__host__ __device__"),
    ("_CCCL_DEVICE_API", "__device__"),
    ("_CCCL_HOST_API", "__host__"),
    ("_CCCL_HOST_DEVICE_API", "__host__ __device__"),
    ("_CCCL_TRIVIAL_API", "__host__ __device__"),
    ("_CCCL_EXEC_CHECK_DISABLE", ""),
    ("_CCCL_KERNEL_ATTRIBUTES", "__global__"),
    ("CUB_DETAIL_KERNEL_ATTRIBUTES", "__global__"),
    ("_CCCL_CONSTEVAL", "constexpr"),
    ("_CCCL_GRID_CONSTANT", ""),
    ("_CCCL_RESTRICT", ""),
    ("_CCCL_DIAG_PUSH", ""),
    ("_CCCL_DIAG_POP", ""),
    ("_CCCL_DIAG_SUPPRESS_GCC(x)", ""),
    ("_CCCL_DIAG_SUPPRESS_CLANG(x)", ""),
    ("_CCCL_DIAG_SUPPRESS_NVHPC(x)", ""),
    ("_CCCL_DIAG_SUPPRESS_MSVC(x)", ""),
    ("CUB_DETAIL_CONSTEXPR_ISH", ""),
    // Not qualifiers, but they open and close a namespace in pairs: blanking both reads
    // the code as if at file scope, which changes nothing bankcheck looks at.
    ("CUB_NAMESPACE_BEGIN", ""),
    ("CUB_NAMESPACE_END", ""),
    ("_CCCL_PRAGMA_UNROLL_FULL()", ""),
    ("_CCCL_PRAGMA_UNROLL(n)", ""),
    ("_CCCL_PRAGMA_NOUNROLL()", ""),
    ("CUB_RUNTIME_FUNCTION", ""),
    ("GGML_CUDA_RESTRICT", ""),
    ("CUDART_CB", ""),
    ("VKAPI_ATTR", ""),
    ("VKAPI_CALL", ""),
    ("VKAPI_PTR", ""),
];

/// Words of an expansion the grammar reads and bankcheck uses, most needed first.
const KEPT: [&str; 6] = [
    "__global__",
    "__device__",
    "__host__",
    "static",
    "inline",
    "constexpr",
];

/// Words of an expansion that change nothing bankcheck reads.
const DROPPED: [&str; 14] = [
    "__forceinline__",
    "__noinline__",
    "__inline__",
    "__inline",
    "__forceinline",
    "__restrict__",
    "__restrict",
    "restrict",
    "__grid_constant__",
    "__stdcall",
    "__cdecl",
    "__fastcall",
    "__vectorcall",
    "__thiscall",
];

/// Whether `w` is a word of an expansion that changes nothing bankcheck reads.
pub fn is_dropped(w: &str) -> bool {
    DROPPED.contains(&w)
}

/// Names followed by a parenthesised group that a qualifier expansion may hold. Launch
/// bounds and alignment in a macro (`#define KERNEL_ATTRS __launch_bounds__(256)`) are
/// dropped with it: the use cannot hold the expansion in its own bytes, and a kernel
/// whose bounds are lost is analysed under every candidate block shape, as stated.
const CALLS: [&str; 9] = [
    "_Pragma",
    "__pragma",
    "__attribute__",
    "__declspec",
    "__builtin_assume",
    "__launch_bounds__",
    "__cluster_dims__",
    "__align__",
    "alignas",
];

/// How a use of a qualifier macro is rewritten.
#[derive(Debug, Clone, PartialEq)]
pub struct Rewrite {
    /// The kept words of the expansion, most needed first.
    pub words: Vec<&'static str>,
    /// Function-like: the use's argument list goes too.
    pub call: bool,
}

/// Every definition, the headers' first, then the settings', then the file's: collected
/// into a map, a later one wins, as the file's own `#define` does.
pub fn by_precedence<'a>(
    file: &'a [Definition],
    settings: &'a BTreeMap<String, String>,
    headers: &'a [Definition],
) -> impl Iterator<Item = (&'a str, Option<&'a [String]>, &'a str)> {
    let defined =
        |(name, params, body): &'a Definition| (name.as_str(), params.as_deref(), body.as_str());
    headers
        .iter()
        .map(defined)
        .chain(settings.iter().map(|(n, v)| (n.as_str(), None, v.as_str())))
        .chain(file.iter().map(defined))
}

/// The qualifier macros among `definitions` (later lists lose to earlier ones: the
/// file's, then the settings', then the headers'), and the well-known spellings nothing
/// defines.
pub fn qualifier_macros(
    file: &[Definition],
    settings: &BTreeMap<String, String>,
    headers: &[Definition],
) -> HashMap<String, Rewrite> {
    let defs: HashMap<&str, (bool, &str)> = by_precedence(file, settings, headers)
        .map(|(name, params, body)| (name, (params.is_some(), body)))
        .collect();
    let mut memo: HashMap<String, Option<Vec<&'static str>>> = HashMap::new();
    let mut out = HashMap::new();
    let names: Vec<&str> = defs.keys().copied().collect();
    for name in names {
        if let Some(words) = classify(name, &defs, &mut memo, 0) {
            out.insert(
                name.to_string(),
                Rewrite {
                    words,
                    call: defs[name].0,
                },
            );
        }
    }
    for (spelling, expansion) in WELL_KNOWN {
        let (name, call) = match spelling.split_once('(') {
            Some((n, _)) => (n, true),
            None => (*spelling, false),
        };
        // A library header's own definition may be one bankcheck cannot read as a
        // qualifier (`CUB_NAMESPACE_BEGIN` opens a namespace through other macros):
        // the well-known reading stands in for it then.
        if !out.contains_key(name) {
            let mut words: Vec<&'static str> = expansion
                .split_whitespace()
                .filter_map(|w| KEPT.iter().find(|k| **k == w).copied())
                .collect();
            words.sort_by_key(|w| KEPT.iter().position(|k| k == w));
            out.insert(name.to_string(), Rewrite { words, call });
        }
    }
    out
}

/// The well-known spelling of `name` (with `(x)` when function-like) and its expansion.
fn well_known(name: &str) -> Option<(&'static str, &'static str)> {
    WELL_KNOWN
        .iter()
        .find(|(spelling, _)| spelling.split('(').next() == Some(name))
        .copied()
}

/// The kept words of `name`'s expansion when it is made only of qualifiers, attributes
/// and pragmas; `None` otherwise.
fn classify(
    name: &str,
    defs: &HashMap<&str, (bool, &str)>,
    memo: &mut HashMap<String, Option<Vec<&'static str>>>,
    depth: u32,
) -> Option<Vec<&'static str>> {
    if let Some(m) = memo.get(name) {
        return m.clone();
    }
    // A cycle or a deep chain: not a qualifier.
    memo.insert(name.to_string(), None);
    if depth > 12 {
        return None;
    }
    let &(_, body) = defs.get(name)?;
    let result = classify_body(body, defs, memo, depth);
    memo.insert(name.to_string(), result.clone());
    result
}

fn classify_body(
    body: &str,
    defs: &HashMap<&str, (bool, &str)>,
    memo: &mut HashMap<String, Option<Vec<&'static str>>>,
    depth: u32,
) -> Option<Vec<&'static str>> {
    let b = body.as_bytes();
    let mut words = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if body[i..].starts_with("[[") {
            i = body[i..].find("]]").map(|e| i + e + 2)?;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let w = &body[s..i];
            let call = if let Some(k) = KEPT.iter().find(|k| **k == w) {
                if !words.contains(k) {
                    words.push(*k);
                }
                false
            } else if DROPPED.contains(&w) {
                false
            } else if CALLS.contains(&w) {
                true
            } else if let Some(&(function, _)) = defs.get(w) {
                for k in classify(w, defs, memo, depth + 1)? {
                    if !words.contains(&k) {
                        words.push(k);
                    }
                }
                function
            } else if let Some((spelling, expansion)) = well_known(w) {
                // A project macro defined as a library's spelling whose header the run
                // does not have (`#define TEST_DEVICE_FUNC _CCCL_DEVICE`).
                for k in expansion
                    .split_whitespace()
                    .filter_map(|x| KEPT.iter().find(|k| **k == x))
                {
                    if !words.contains(k) {
                        words.push(*k);
                    }
                }
                spelling.contains('(')
            } else {
                return None;
            };
            if call {
                while i < b.len() && b[i].is_ascii_whitespace() {
                    i += 1;
                }
                i = lex::balanced(body, i)?;
            }
        } else {
            return None;
        }
    }
    words.sort_by_key(|w| KEPT.iter().position(|k| k == w));
    Some(words)
}

/// Rewrites the uses of `macros` in `bytes` (identifiers of code from the lexer).
pub fn rewrite_uses(
    bytes: &mut [u8],
    text: &str,
    idents: &[(usize, usize)],
    macros: &HashMap<String, Rewrite>,
) {
    for &(s, e) in idents {
        let Some(r) = macros.get(&text[s..e]) else {
            continue;
        };
        let mut end = e;
        if r.call {
            let mut k = e;
            while k < text.len() && text.as_bytes()[k].is_ascii_whitespace() {
                k += 1;
            }
            match lex::balanced(text, k) {
                Some(close) => end = close,
                // A function-like macro named without arguments is not expanded.
                None => continue,
            }
        }
        lex::blank(bytes, s, end);
        // After a lambda's capture list the grammar takes no qualifier.
        let before = text[..s].trim_end();
        if before.ends_with(']') {
            continue;
        }
        let mut at = s;
        for w in &r.words {
            let sep = usize::from(at > s);
            if at + sep + w.len() > e {
                continue;
            }
            at += sep;
            bytes[at..at + w.len()].copy_from_slice(w.as_bytes());
            at += w.len();
        }
    }
}

/// How a macro that is not a qualifier reads where a statement or declaration starts
/// (the start of a line), from its definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expansion {
    /// Function-like: a use standing alone on its line(s), with no `;`, supplies a whole
    /// statement or declaration (`CONFIG_CASE(64, 2)` line after line; a member
    /// definition `DEFINE_GETTER(name, kernel)` in a class).
    Call,
    /// Function-like whose body ends in a parenthesised group and is no statement head
    /// (`#define MY_TEST(name) void test_##name()`, test-framework macros): a use followed
    /// by `{` opens a function definition.
    FunctionHead,
    /// Object-like whose body is statements or declarations, ending with `;` or `}`
    /// (`#define TENSOR_LOCALS const int ne0 = ...; const int ne1 = ...;`).
    Statements,
}

/// Words that start a statement, not a declaration: a function-like macro whose body
/// starts with one of them is a statement head (`#define LOOP(i, n) for (...)`), and a
/// use followed by `{` is a loop or branch, not a function.
const STATEMENT_HEADS: [&str; 6] = ["for", "while", "if", "switch", "do", "return"];

/// The macros of `file` and `headers` (the file's win) that are not qualifiers, by how
/// they read at the start of a line; object-like macros standing for expressions are
/// left out.
pub fn declaration_macros(
    file: &[Definition],
    headers: &[Definition],
    qualifiers: &HashMap<String, Rewrite>,
) -> HashMap<String, Expansion> {
    let mut out = HashMap::new();
    for (name, params, body) in headers.iter().chain(file) {
        if qualifiers.contains_key(name) {
            continue;
        }
        let body = body.trim();
        // A body that opens or closes a scope (`#define NS_BEGIN namespace n {`) pairs
        // with another use: blanking one of them alone would unbalance the text.
        let balanced = body.matches('{').count() == body.matches('}').count();
        let expansion = if !balanced {
            None
        } else if params.is_some() {
            let first = body
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap_or("");
            if body.ends_with(')') && !STATEMENT_HEADS.contains(&first) {
                Some(Expansion::FunctionHead)
            } else {
                Some(Expansion::Call)
            }
        } else if body.ends_with(';') || body.ends_with('}') {
            Some(Expansion::Statements)
        } else {
            None
        };
        match expansion {
            Some(e) => out.insert(name.clone(), e),
            None => out.remove(name),
        };
    }
    out
}

/// A function head spelled by a macro use: name start, name end, end of the arguments.
pub type HeadUse = (usize, usize, usize);

/// Uses of `macros` at the start of a line that stand where a statement or declaration
/// does and that the grammar cannot read, rewritten in place:
///
/// - a function-like use standing alone on its line(s) without `;` (the expansion
///   supplies it), or an object-like one expanding to statements or declarations
///   (`TENSOR_LOCALS` on its own line, which the grammar would read as the type of the
///   next line's statement): blanked. The names such a use declares are then unknown,
///   and an index that needs them says so.
/// - a function head followed by a body (`MY_TEST("name", "[tag]", float) { ... }` at
///   file scope): its arguments are blanked, so that the grammar reads a function named
///   after the macro, with no parameters. Such uses are returned (name start, name end,
///   end of the arguments): the extraction reads the head from their expansion
///   ([`super::heads`]).
///
/// A use followed by `;` (or `{` when the macro is no function head), or by an
/// operator, is an expression or a declaration head, and stays.
///
/// Returns the function heads, then the blanked uses (start, end), whose statements
/// [`super::blanked`] describes.
pub fn blank_statement_calls(
    bytes: &mut [u8],
    text: &str,
    idents: &[(usize, usize)],
    macros: &HashMap<String, Expansion>,
) -> (Vec<HeadUse>, Vec<(usize, usize)>) {
    let mut heads = Vec::new();
    let mut blanked = Vec::new();
    let b = text.as_bytes();
    for &(s, e) in idents {
        let Some(&expansion) = macros.get(&text[s..e]) else {
            continue;
        };
        let line_start = text[..s].rfind('\n').map_or(0, |n| n + 1);
        if !text[line_start..s].trim().is_empty() {
            continue;
        }
        let (open, close) = if expansion == Expansion::Statements {
            (e, e)
        } else {
            let mut open = e;
            while open < b.len() && matches!(b[open], b' ' | b'\t') {
                open += 1;
            }
            let Some(close) = lex::balanced(text, open) else {
                continue;
            };
            (open, close)
        };
        let mut next = close;
        while next < b.len() && b[next].is_ascii_whitespace() {
            next += 1;
        }
        if expansion == Expansion::FunctionHead && b.get(next) == Some(&b'{') {
            lex::blank(bytes, open + 1, close - 1);
            heads.push((s, e, close));
            continue;
        }
        let ends_line = text[close..next].contains('\n') || next == b.len();
        let stands_alone = ends_line
            && b.get(next)
                .is_none_or(|c| !b";{},)=+-*/&|<>?:.[".contains(c));
        if stands_alone {
            lex::blank(bytes, s, close);
            blanked.push((s, close));
        }
    }
    (heads, blanked)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(name: &str, params: Option<&[&str]>, body: &str) -> Definition {
        (
            name.to_string(),
            params.map(|p| p.iter().map(ToString::to_string).collect()),
            body.to_string(),
        )
    }

    #[test]
    fn qualifiers_are_derived_from_definitions() {
        let file = [
            def("MYINLINE", None, "__forceinline__"),
            def("DEV", None, "__device__ MYINLINE"),
            def("KERNEL_ATTR", None, "__global__ __launch_bounds__(256)"),
            def("PRAGMA", Some(&["x"]), "_Pragma(#x)"),
            def("UNROLL", None, "PRAGMA(unroll)"),
            def("TILE", None, "32"),
        ];
        let settings = BTreeMap::from([("EMPTY".to_string(), String::new())]);
        let m = qualifier_macros(&file, &settings, &[]);
        assert_eq!(m["MYINLINE"].words, Vec::<&str>::new());
        assert_eq!(m["DEV"].words, vec!["__device__"]);
        assert!(m["PRAGMA"].call && !m["UNROLL"].call);
        assert!(m.contains_key("EMPTY"));
        // `__launch_bounds__` is dropped with the macro (its block size is lost, and the
        // kernel is analysed under the candidate shapes, as stated): a use the grammar
        // cannot read would leave the kernel unchecked.
        assert_eq!(m["KERNEL_ATTR"].words, vec!["__global__"]);
        assert!(!m.contains_key("TILE"));
        // A well-known spelling is used only when nothing defines the name.
        assert!(m.contains_key("CUTLASS_DEVICE"));
        // ... or nothing defines it in a way read as a qualifier: a header's namespace
        // opening through other macros gives way to the well-known blank.
        let headers = [
            def("CUB_NAMESPACE_BEGIN", None, "CUB_NS_PREFIX namespace cub {"),
            def("CUTLASS_DEVICE", None, "__forceinline__ __device__"),
        ];
        let m = qualifier_macros(&[], &BTreeMap::new(), &headers);
        assert_eq!(m["CUB_NAMESPACE_BEGIN"].words, Vec::<&str>::new());
        assert_eq!(m["CUTLASS_DEVICE"].words, vec!["__device__"]);
        // A project's macro defined as a well-known spelling whose header is not in the
        // run reads as that spelling (CCCL's tests: `TEST_DEVICE_FUNC _CCCL_DEVICE`).
        let file = [
            def("TEST_DEVICE_FUNC", None, "_CCCL_DEVICE"),
            def("DIAG", None, "_CCCL_DIAG_SUPPRESS_GCC(-Wall) __host__"),
        ];
        let m = qualifier_macros(&file, &BTreeMap::new(), &[]);
        assert_eq!(m["TEST_DEVICE_FUNC"].words, vec!["__device__"]);
        assert_eq!(m["DIAG"].words, vec!["__host__"]);
    }

    #[test]
    fn uses_keep_what_fits() {
        let text = "CUTLASS_HOST_DEVICE void f(); PRAGMA(unroll 4) for(;;); GGML_CUDA_RESTRICT x";
        let file = [def("PRAGMA", Some(&["x"]), "_Pragma(#x)")];
        let m = qualifier_macros(&file, &BTreeMap::new(), &[]);
        let lexed = lex::lex(text, &|w| m.contains_key(w));
        let mut bytes = text.as_bytes().to_vec();
        rewrite_uses(&mut bytes, text, &lexed.idents, &m);
        let out = String::from_utf8(bytes).unwrap();
        assert_eq!(out.len(), text.len());
        assert!(out.starts_with("__device__ __host__ void f();"));
        assert!(out.contains("                 for(;;);"));
        assert!(out.ends_with("                   x"));
    }

    #[test]
    fn declaration_position_uses_keep_byte_positions() {
        let text = "TEST_HEAD(\"sums\", float)\n{\n}\nstruct S {\n  GETTER(get, k<4>)\n  int y;\n};\nvoid f() {\n  LOCALS\n  a[i] = 0;\n  LOOP(i, n)\n  {\n  }\n  GETTER(x, y);\n}\n";
        let file = [
            def(
                "TEST_HEAD",
                Some(&["name", "type"]),
                "using t = list<type>; CASE(name, t)",
            ),
            def(
                "GETTER",
                Some(&["name", "k"]),
                "static auto name() { return &k; }",
            ),
            def("LOCALS", None, "const int a0 = 1; const int a1 = 2;"),
            def("LOOP", Some(&["i", "n"]), "for (int i = 0; i < n; ++i)"),
            def("NS_BEGIN", None, "namespace n {"),
            def("TWO", None, "2"),
        ];
        let m = declaration_macros(&file, &[], &HashMap::new());
        assert_eq!(m["TEST_HEAD"], Expansion::FunctionHead);
        assert_eq!(m["GETTER"], Expansion::Call);
        assert_eq!(m["LOCALS"], Expansion::Statements);
        assert_eq!(m["LOOP"], Expansion::Call);
        assert!(!m.contains_key("NS_BEGIN") && !m.contains_key("TWO"));
        let lexed = lex::lex(text, &|w| m.contains_key(w));
        let mut bytes = text.as_bytes().to_vec();
        let (_, blanked) = blank_statement_calls(&mut bytes, text, &lexed.idents, &m);
        // The member definition and the statement macro: their uses, whole.
        let spelled: Vec<&str> = blanked.iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(spelled, ["GETTER(get, k<4>)", "LOCALS"]);
        let out = String::from_utf8(bytes).unwrap();
        assert_eq!(out.len(), text.len());
        assert_eq!(out.matches('\n').count(), text.matches('\n').count());
        // The function head keeps its name and parentheses, its arguments go.
        assert!(out.starts_with("TEST_HEAD(             )\n{"));
        // A whole member definition, and a statement macro alone on its line, go.
        assert!(out.contains("struct S {\n                   \n  int y;"));
        assert!(out.contains("void f() {\n        \n  a[i] = 0;"));
        // A loop head before a block, and a use followed by `;`, stay.
        assert!(out.contains("  LOOP(i, n)\n  {"));
        assert!(out.contains("  GETTER(x, y);"));
    }
}
