//! Blanking of constructs the tree-sitter grammars cannot read.
//!
//! Each match is replaced by spaces of the same byte length (newlines kept), so byte
//! offsets into the blanked text are offsets into the original file.

use crate::Language;
use regex::Regex;
use std::sync::OnceLock;

/// Patterns per language whose matches are blanked before parsing.
fn patterns(language: Language) -> &'static [Regex] {
    static CUDA: OnceLock<Vec<Regex>> = OnceLock::new();
    static HLSL: OnceLock<Vec<Regex>> = OnceLock::new();
    let build = |list: &[&str]| {
        list.iter()
            .filter_map(|p| Regex::new(p).ok())
            .collect::<Vec<_>>()
    };
    match language {
        // `__align__(16)` is a macro of CUDA's headers the grammar reads as an error.
        Language::Cuda => CUDA
            .get_or_init(|| build(&[r"__align__\s*\(\s*[^()]*\)", r"\balignas\s*\(\s*[^()]*\)"])),
        // `cbuffer X : register(b0)`, `Texture2D t : register(t0, space1)`, and root
        // signature attributes stacked over `[numthreads]`.
        Language::Hlsl => HLSL.get_or_init(|| {
            build(&[
                r":\s*register\s*\([^()]*\)",
                r"\[\s*RootSignature\s*\((?:[^()]|\([^()]*\))*\)\s*\]",
            ])
        }),
    }
}

/// Ends every `#define` whose value is only spaces or tabs at its name (or parameter
/// list): the grammars skip that whitespace, newline included, and read the next line
/// as the macro's value, so a `#define EMPTY ` (or a value blanked away, such as
/// `__align__(16)`) would swallow the function below it. The spaces become line ends:
/// byte offsets are kept, and nothing reads lines from the parsed text.
pub fn end_empty_defines(bytes: &mut [u8]) {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut line_start = 0;
    while line_start < bytes.len() {
        let line_end =
            memchr::memchr(b'\n', &bytes[line_start..]).map_or(bytes.len(), |n| line_start + n);
        let continued = line_start >= 2 && bytes[line_start - 2] == b'\\';
        let mut i = line_start;
        let skip = |i: &mut usize, pred: &dyn Fn(u8) -> bool| {
            while *i < line_end && pred(bytes[*i]) {
                *i += 1;
            }
        };
        let blank = |b: u8| b == b' ' || b == b'\t';
        skip(&mut i, &blank);
        if !continued && bytes.get(i) == Some(&b'#') {
            i += 1;
            skip(&mut i, &blank);
            if bytes[i..line_end].starts_with(b"define") {
                i += 6;
                let name_at = i;
                skip(&mut i, &blank);
                let name_start = i;
                skip(&mut i, &word);
                if i > name_start && name_start > name_at {
                    // Parameters follow the name at once: `#define F(a, b)`.
                    if bytes.get(i) == Some(&b'(') {
                        if let Some(close) = bytes[i..line_end].iter().position(|&b| b == b')') {
                            i += close + 1;
                        }
                    }
                    let mut end = line_end;
                    if end > i && bytes[end - 1] == b'\r' {
                        end -= 1;
                    }
                    if end > i && bytes[i..end].iter().all(|&b| blank(b)) {
                        bytes[i..end].fill(b'\n');
                    }
                }
            }
        }
        line_start = line_end + 1;
    }
}

/// Blanks a default argument written as empty braces (`const Op op = {})`, `= {},`),
/// which the CUDA grammar cannot read: the parameter stays, its default goes. Only
/// `= {}` followed by `)` or `,` is touched, never a statement's `x = {};` (an assignment
/// of `{}` inside a call's arguments, `g(y = {})`, is read the same way: rare in kernels).
fn blank_brace_defaults(text: &str, bytes: &mut [u8]) {
    static DEFAULT: OnceLock<Regex> = OnceLock::new();
    let re = DEFAULT
        .get_or_init(|| Regex::new(r"=[ \t]*\{[ \t]*\}[ \t\r\n]*[,)]").expect("a valid pattern"));
    for m in re.find_iter(text) {
        // Up to the closing brace; the `,` or `)` and the space before it stay.
        let close = text[m.start()..m.end()]
            .find('}')
            .map_or(m.start(), |i| m.start() + i + 1);
        for b in &mut bytes[m.start()..close] {
            *b = b' ';
        }
    }
}

/// Returns `text` with every known grammar gap replaced by same-length whitespace.
pub fn blank_gaps(text: &str, language: Language) -> String {
    let mut bytes = text.as_bytes().to_vec();
    // A byte-order mark is not C; blank it too.
    if text.starts_with('\u{feff}') {
        bytes[..3].copy_from_slice(b"   ");
    }
    for re in patterns(language) {
        for m in re.find_iter(text) {
            for b in &mut bytes[m.start()..m.end()] {
                if *b != b'\n' && *b != b'\r' {
                    *b = b' ';
                }
            }
        }
    }
    // A lone CR ends a line (old Mac files); the grammars end comments and directives
    // only at LF, so the parser sees an LF there.
    for i in memchr::memchr_iter(b'\r', text.as_bytes()) {
        if text.as_bytes().get(i + 1) != Some(&b'\n') {
            bytes[i] = b'\n';
        }
    }
    if language == Language::Cuda {
        blank_brace_defaults(text, &mut bytes);
    }
    end_empty_defines(&mut bytes);
    // Only ASCII bytes of whole matches were replaced by ASCII spaces... except that a
    // match may contain multi-byte characters; replacing all their bytes by spaces
    // still yields valid UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The byte offset of the `n`-th comma (from 1) of the parenthesised list `open..close`
/// that no inner bracket holds.
fn nth_top_level_comma(text: &str, open: usize, close: usize, n: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut seen = 0;
    for (i, c) in text.as_bytes()[open + 1..close - 1].iter().enumerate() {
        match c {
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b')' | b']' | b'}' | b'>' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                seen += 1;
                if seen == n {
                    return Some(open + 1 + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Identifiers of code whose construct [`rewrite_gaps`] handles.
pub fn is_gap_word(w: &str) -> bool {
    matches!(
        w,
        "__attribute__"
            | "_Pragma"
            | "__pragma"
            | "typeid"
            | "__builtin_align__"
            | "__align__"
            | "alignas"
            | "__cluster_dims__"
            | "__launch_bounds__"
            | "__device__"
            | "__host__"
            | "payload"
            | "vertices"
            | "indices"
            | "primitives"
            | "typename"
            | "enum"
    )
}

/// HLSL interpolation and primitive modifiers that DXC also takes as names: the grammar
/// reads them only as keywords, so `FFX_DNSR_NeighborhoodSample sample;` (FidelityFX's
/// denoiser) loses its statement, and the shared-memory access in it with it.
const HLSL_KEYWORD_NAMES: [&str; 11] = [
    "sample",
    "linear",
    "centroid",
    "noperspective",
    "nointerpolation",
    "precise",
    "point",
    "line",
    "lineadj",
    "triangle",
    "triangleadj",
];

/// Whether [`rename_keyword_names`] looks at `w`.
pub fn is_hlsl_keyword_name(w: &str) -> bool {
    HLSL_KEYWORD_NAMES.contains(&w)
}

/// Renames the HLSL modifier keywords used as names (a use that something other than a
/// name follows: `sample;`, `sample.radiance`, `point = p`) to a name of the same length
/// (`_ample`, the first letter an underscore), every use alike, so the grammar reads a
/// name and positions are kept. A modifier (`sample float4 x`, `point VSOut v[1]`) is
/// followed by a type name and stays; so does `#line`.
pub fn rename_keyword_names(bytes: &mut [u8], text: &str, idents: &[(usize, usize)]) {
    let b = text.as_bytes();
    for &(s, e) in idents {
        if !is_hlsl_keyword_name(&text[s..e]) {
            continue;
        }
        let next = text[e..].trim_start().bytes().next();
        let before = text[..s].trim_end().bytes().next_back();
        let names_follow = next.is_some_and(|c| c.is_ascii_alphabetic() || c == b'_');
        if names_follow || before == Some(b'#') || b[s] == b'_' {
            continue;
        }
        bytes[s] = b'_';
    }
}

/// The end of a qualified name starting at `at` (`A::B<int, C<2>>::D`,
/// `decltype(x)::D`), when it has a `::`.
fn qualified_name_end(text: &str, mut at: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut qualified = false;
    loop {
        if text[at..].starts_with("::") {
            at += 2;
            qualified = true;
        }
        let s = at;
        while at < b.len() && (b[at].is_ascii_alphanumeric() || b[at] == b'_') {
            at += 1;
        }
        if at == s {
            return None;
        }
        if &text[s..at] == "decltype" {
            at = super::lex::balanced(text, at)?;
        } else if b.get(at) == Some(&b'<') {
            let mut depth = 0usize;
            while at < b.len() {
                match b[at] {
                    b'<' => depth += 1,
                    b'>' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    b';' | b'{' | b'}' => return None,
                    _ => {}
                }
                at += 1;
            }
            at += 1;
        }
        if !text.get(at..)?.starts_with("::") {
            return qualified.then_some(at);
        }
    }
}

/// Grammar gaps found by the lexer (so never inside comments or literals), rewritten in
/// place with the same length:
/// - `__attribute__((...))` (`ext_vector_type(4)`, `aligned(16)`) and `_Pragma("...")`
///   / `__pragma(...)` in code are blanked: none changes an index;
/// - `__builtin_align__(N)`, and `__align__(...)` / `alignas(...)` with nested
///   parentheses (`__align__(alignof(T))`), are blanked like `__align__(N)`;
/// - `__cluster_dims__(X, Y, Z)` before a kernel is blanked: the grammar has no place for
///   it, and a cluster's shape changes no block's;
/// - the third argument of `__launch_bounds__(T, B, C)` is blanked (the block shape
///   is the first);
/// - `typeid(T)` becomes `sizeof(T)` (same length), an expression the grammar reads;
/// - the base type of an unnamed enum (`enum : uint32_t {`) is blanked;
/// - `typename` before a qualified name that a `{` or `(` follows (a temporary of a
///   dependent type, `f(typename T::Tile{})`) is blanked;
/// - `__device__`/`__host__` after a lambda's capture list (`[&] __device__ (int i)`)
///   are blanked: the grammar has no place for them there.
pub fn rewrite_gaps(bytes: &mut [u8], text: &str, idents: &[(usize, usize)]) {
    let b = text.as_bytes();
    // `x->*[] (args) { ... }` (a task launched with a lambda through `operator->*`):
    // the grammar reads no lambda after `->*`; a comma keeps the call and the lambda as
    // two expressions, which is all bankcheck reads of them.
    for (at, _) in text.match_indices("->*") {
        if text[at + 3..].trim_start().starts_with('[') {
            bytes[at..at + 3].copy_from_slice(b" , ");
        }
    }
    let mut lambda_end = None;
    for &(s, e) in idents {
        let word = &text[s..e];
        let mut open = e;
        while open < b.len() && b[open].is_ascii_whitespace() {
            open += 1;
        }
        match word {
            "__attribute__" | "_Pragma" | "__pragma" | "__builtin_align__" | "__align__"
            | "alignas" | "__cluster_dims__" => {
                if let Some(close) = super::lex::balanced(text, open) {
                    super::lex::blank(bytes, s, close);
                }
            }
            // HLSL mesh-shader parameter qualifiers: `out vertices V verts[N]`.
            "payload" | "vertices" | "indices" | "primitives"
                if matches!(
                    text[..s]
                        .trim_end()
                        .rsplit(|c: char| c.is_whitespace() || c == '(' || c == ',')
                        .next(),
                    Some("in" | "out")
                ) =>
            {
                super::lex::blank(bytes, s, e);
            }
            // CUDA 12's third argument (`maxBlocksPerCluster`): the grammar takes two.
            "__launch_bounds__" => {
                if let Some(close) = super::lex::balanced(text, open) {
                    if let Some(third) = nth_top_level_comma(text, open, close, 2) {
                        super::lex::blank(bytes, third, close - 1);
                    }
                }
            }
            // `typename X::Y{}` or `typename X::Y(...)` as an expression (an argument,
            // an initialiser): the grammar reads `typename` only in declarations. The
            // type named is the same without it.
            "typename" => {
                let next = qualified_name_end(text, open).map(|mut k| {
                    while k < b.len() && b[k].is_ascii_whitespace() {
                        k += 1;
                    }
                    b.get(k).copied()
                });
                if matches!(next, Some(Some(b'{' | b'('))) {
                    super::lex::blank(bytes, s, e);
                }
            }
            // An unnamed enum with a base type, `enum : uint32_t { ... }`: the grammar
            // reads a base type only after a name. The enumerators' values are the same
            // without it.
            "enum" if b.get(open) == Some(&b':') && b.get(open + 1) != Some(&b':') => {
                if let Some(brace) = text[open..].find(['{', ';']).map(|k| open + k) {
                    if b[brace] == b'{' {
                        super::lex::blank(bytes, open, brace);
                    }
                }
            }
            "typeid" if b.get(open) == Some(&b'(') => {
                bytes[s..e].copy_from_slice(b"sizeof");
            }
            "__device__" | "__host__" => {
                let mut k = s;
                while k > 0 && b[k - 1].is_ascii_whitespace() {
                    k -= 1;
                }
                if (k > 0 && b[k - 1] == b']') || lambda_end == Some(k) {
                    super::lex::blank(bytes, s, e);
                    lambda_end = Some(e);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty-brace default argument is blanked; an assignment statement is not.
    #[test]
    fn brace_defaults_are_blanked() {
        let text = "void f(const D d = {}, int e = { }) { x = {}; g(y = {}); }";
        let out = blank_gaps(text, Language::Cuda);
        assert_eq!(out.len(), text.len());
        assert!(
            out.starts_with("void f(const D d     , int e      ) { x = {}; g(y     ); }"),
            "{out}"
        );
    }

    /// A `#define` with only spaces after its name (or its parameters) ends at its line
    /// in the parsed text; one with a value, a continued one and other directives keep
    /// their bytes.
    #[test]
    fn empty_define_values_end_at_their_line() {
        let mut b =
            b"#define A   \nint f();\n  #  define F(x)\t \r\n#define B 1  \n#define C \\\n   \n"
                .to_vec();
        end_empty_defines(&mut b);
        assert_eq!(
            String::from_utf8(b).unwrap(),
            "#define A\n\n\n\nint f();\n  #  define F(x)\n\n\r\n#define B 1  \n#define C \\\n   \n"
        );
        let blanked = blank_gaps("#define ALIGN __align__(16)\nint g();", Language::Cuda);
        assert!(blanked.starts_with("#define ALIGN\n"), "{blanked:?}");
        assert_eq!(blanked.len(), "#define ALIGN __align__(16)\nint g();".len());
    }

    #[test]
    fn launch_bounds_keep_two_arguments() {
        let rewrite = |text: &str| {
            let lexed = super::super::lex::lex(text, &is_gap_word);
            let mut bytes = text.as_bytes().to_vec();
            rewrite_gaps(&mut bytes, text, &lexed.idents);
            String::from_utf8(bytes).unwrap()
        };
        let text = "__global__ void __launch_bounds__(T::N, 1, f(2, 3)) k();";
        let out = rewrite(text);
        assert_eq!(out.len(), text.len());
        assert!(
            out.starts_with("__global__ void __launch_bounds__(T::N, 1 "),
            "{out}"
        );
        assert!(out.ends_with(") k();") && !out.contains("f(2"), "{out}");
        let two = "__global__ void __launch_bounds__(Traits<4, 2>::kThreads, 1) k();";
        assert_eq!(rewrite(two), two);
    }

    #[test]
    fn blanking_keeps_length_and_lines() {
        let src = "__shared__ __align__(16) float s[32];\ncbuffer C : register(b0) { int n; };";
        for lang in [Language::Cuda, Language::Hlsl] {
            let out = blank_gaps(src, lang);
            assert_eq!(out.len(), src.len());
            assert_eq!(out.lines().count(), src.lines().count());
        }
        assert!(!blank_gaps(src, Language::Cuda).contains("__align__"));
        assert!(!blank_gaps(src, Language::Hlsl).contains("register"));
    }

    #[test]
    fn hlsl_keywords_used_as_names_are_renamed_and_modifiers_kept() {
        let text = "S sample; sample.r = x; sample float4 p : SV_Position;\n\
                    void gs(point V v[1]) { float line = 1; }\n#line 7\n";
        let lexed = super::super::lex::lex(text, &is_hlsl_keyword_name);
        let mut bytes = text.as_bytes().to_vec();
        rename_keyword_names(&mut bytes, text, &lexed.idents);
        let out = String::from_utf8(bytes).unwrap();
        assert_eq!(
            out,
            "S _ample; _ample.r = x; sample float4 p : SV_Position;\n\
             void gs(point V v[1]) { float _ine = 1; }\n#line 7\n"
        );
    }

    #[test]
    fn gaps_found_by_the_lexer_keep_positions() {
        let text = "extern __shared__ __align__(alignof(T)) char smem[];\n\
                    using v4 = __attribute__((ext_vector_type(4))) float;\n\
                    if (typeid(T) == typeid(float)) f([&] __host__ __device__ (int i) { a[i]; });";
        let lexed = super::super::lex::lex(text, &is_gap_word);
        let mut bytes = text.as_bytes().to_vec();
        rewrite_gaps(&mut bytes, text, &lexed.idents);
        let out = String::from_utf8(bytes).unwrap();
        assert_eq!(out.len(), text.len());
        assert!(!out.contains("__attribute__") && out.contains("sizeof(T) == sizeof(float)"));
        let aligned = format!("extern __shared__{}char smem[];", " ".repeat(23));
        assert!(out.starts_with(&aligned), "{out}");
        assert!(out.contains("[&]                     (int i)"));
        let text = "ctx.launch(a)->*[] (int i) {}; void ms(out vertices V v[4], in payload P p);";
        let lexed = super::super::lex::lex(text, &is_gap_word);
        let mut bytes = text.as_bytes().to_vec();
        rewrite_gaps(&mut bytes, text, &lexed.idents);
        let out = String::from_utf8(bytes).unwrap();
        assert!(out.starts_with("ctx.launch(a) , [] (int i)"));
        assert!(
            out.contains("(out          V v[4], in         P p)"),
            "{out}"
        );
        let text = "template <typename T, typename U = typename T::V> void f(typename T::W w) { g(typename T::Tile{}, typename A<B<2>>::R(1), typename decltype(m)::I{}); typename T::X x; enum : int { A }; enum E : int { B }; }";
        let lexed = super::super::lex::lex(text, &is_gap_word);
        let mut bytes = text.as_bytes().to_vec();
        rewrite_gaps(&mut bytes, text, &lexed.idents);
        let out = String::from_utf8(bytes).unwrap();
        assert_eq!(
            out,
            "template <typename T, typename U = typename T::V> void f(typename T::W w) { g(         T::Tile{},          A<B<2>>::R(1),          decltype(m)::I{}); typename T::X x; enum       { A }; enum E : int { B }; }"
        );
    }
}
