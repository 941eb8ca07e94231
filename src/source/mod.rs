//! Source files: decoding, language choice, the front end (conditional compilation,
//! qualifier macros, grammar gaps), parsing.
//!
//! Gets bytes, never touches the file system. The front end hands the grammar what the
//! compiler would see, without moving a byte: inactive branches, qualifier macros and
//! constructs the grammars cannot read are replaced with spaces (or a same-length
//! spelling) of the same byte length, newlines kept, so every span into the parsed text
//! is also a span into the original.

mod blank;
mod blanked;
mod cexpr;
pub mod decode;
mod expand;
mod heads;
mod lex;
mod macros;
mod parse_budget;
mod preproc;
pub mod segments;
mod targets;

pub use blanked::{BlankedStatement, MacroEffects};
pub use heads::MacroHead;
pub use macros::Definition;
pub use parse_budget::ParseBudget;
pub use preproc::{predefined_macro, toolchain_value, Predefined};

use crate::Language;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// What the front end knows besides the file: the settings' defines (`-D`, lint.toml
/// `defines`) and macro definitions of the file's headers, when the caller has them.
#[derive(Default, Clone, Copy)]
pub struct FrontEnd<'a> {
    pub defines: Option<&'a BTreeMap<String, String>>,
    pub header_definitions: &'a [Definition],
}

/// A decoded source file ready for extraction.
pub struct SourceFile<'a> {
    /// The decoded text (see [`decode`]); spans index into it. Borrowed when the caller
    /// holds the text ([`load_text`]), so that a big file's text is not copied.
    pub text: Cow<'a, str>,
    /// `text` with grammar gaps blanked to spaces of the same length ([`SourceFile::parse_text`]);
    /// `None` while it equals `text`, which a big file then holds once.
    parse: Option<String>,
    pub language: Language,
    /// Conditional groups the known macros leave undecided, resolved only when the
    /// parse fails ([`parse_resolving`]).
    undecided: Vec<preproc::Undecided>,
    /// Groups resolved as a device compilation takes them: the group's span and what was
    /// assumed.
    pub assumptions: Vec<(crate::diag::Span, String)>,
    /// Function heads written as macro uses, with their expansion ([`heads`]).
    pub macro_heads: Vec<MacroHead>,
    /// Statements spelled by a macro use that the front end blanked, in the order of
    /// the file, with what they may assign and reach ([`blanked`]).
    pub blanked_statements: Vec<BlankedStatement>,
    /// What the function-like macros known here may assign ([`blanked::effects`]).
    pub macro_effects: MacroEffects,
}

impl SourceFile<'_> {
    /// The text the grammar parses: `text` with grammar gaps blanked to spaces of the
    /// same length, and the front end's rewrites.
    pub fn parse_text(&self) -> &str {
        self.parse.as_deref().unwrap_or(&self.text)
    }

    /// Sets the text the grammar parses, kept only when it differs from `text`.
    fn set_parse_text(&mut self, parse: String) {
        self.parse = (parse != *self.text).then_some(parse);
    }
}

/// The language of `path`, from its extension, or for C/C++ headers from its content.
pub fn language_of(path: &str, text: &str) -> Option<Language> {
    let ext = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "cu" | "cuh" => Some(Language::Cuda),
        "hlsl" | "hlsli" | "fx" | "fxh" => Some(Language::Hlsl),
        _ => {
            if text.contains("groupshared") {
                Some(Language::Hlsl)
            } else if text.contains("__shared__") {
                Some(Language::Cuda)
            } else {
                None
            }
        }
    }
}

/// Decodes `bytes` ([`decode::decode`]: UTF-8 or UTF-16, else Latin-1; the BOM is
/// not part of the text) with the known grammar gaps blanked; `None` for bytes that are
/// not source text or not in a language bankcheck reads. [`prepare`] runs the rest of
/// the front end.
pub fn load(path: &str, bytes: &[u8]) -> Option<SourceFile<'static>> {
    let text = decode::decode(bytes).ok()?.text;
    let language = language_of(path, &text)?;
    Some(loaded(Cow::Owned(text), language))
}

/// [`load`] of text already decoded, which the file borrows; `None` when it is not in
/// a language bankcheck reads.
pub fn load_text<'a>(path: &str, text: &'a str) -> Option<SourceFile<'a>> {
    let language = language_of(path, text)?;
    Some(loaded(Cow::Borrowed(text), language))
}

/// A file of `text` in `language`, with the known grammar gaps blanked.
fn loaded(text: Cow<'_, str>, language: Language) -> SourceFile<'_> {
    let parse_text = blank::blank_gaps(&text, language);
    debug_assert_eq!(parse_text.len(), text.len());
    let mut file = SourceFile {
        text,
        parse: None,
        language,
        undecided: Vec::new(),
        assumptions: Vec::new(),
        macro_heads: Vec::new(),
        blanked_statements: Vec::new(),
        macro_effects: MacroEffects::new(),
    };
    file.set_parse_text(parse_text);
    file
}

/// The macros a header defines (in the branches its conditionals take with `defines`),
/// for the front end of the files that include it ([`FrontEnd::header_definitions`]):
/// a text scan, no parse.
pub fn definitions_of(
    text: &str,
    language: Language,
    defines: &BTreeMap<String, String>,
) -> Vec<Definition> {
    let lexed = lex::lex(text, &|_| false);
    preproc::resolve(text, &lexed.directives, language, defines).definitions
}

/// The definitions among `defs` that stand for qualifiers, attributes or pragmas
/// (`#define CUCO_KERNEL __attribute__((visibility("hidden"))) __global__`): what a
/// header takes from the files that include it.
pub fn qualifier_definitions(mut defs: Vec<Definition>) -> Vec<Definition> {
    let qualifiers = macros::qualifier_macros(&[], &BTreeMap::new(), &defs);
    defs.retain(|(name, _, _)| qualifiers.contains_key(name));
    defs
}

/// [`load`] then [`prepare`].
pub fn load_with(path: &str, bytes: &[u8], front: FrontEnd<'_>) -> Option<SourceFile<'static>> {
    let mut file = load(path, bytes)?;
    prepare(&mut file, front);
    Some(file)
}

/// Runs the front end on a loaded file: decided conditionals, qualifier macros and
/// grammar gaps rewritten in place (see the module's doc).
pub fn prepare(file: &mut SourceFile, front: FrontEnd<'_>) {
    let gaps = file.parse.take();
    let gaps = gaps.as_deref().unwrap_or(&file.text);
    let language = file.language;
    let empty = BTreeMap::new();
    let defines = front.defines.unwrap_or(&empty);
    let lexed = lex::lex(gaps, &|_| false);
    let resolved = preproc::resolve(gaps, &lexed.directives, language, defines);
    let mut bytes = resolved.text;
    // `#pragma` lines (`unroll` between a loop and its unbraced body) change no index;
    // `pack` changes layouts and stays.
    for d in &lexed.directives {
        if d.name == "pragma" && !d.rest(gaps).trim_start().starts_with("pack") {
            lex::blank(&mut bytes, d.start, d.end);
        }
    }
    let qualifiers =
        macros::qualifier_macros(&resolved.definitions, defines, front.header_definitions);
    // Uses are found in the text as compiled: not in dropped branches.
    let compiled = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    let mut statement_macros =
        macros::declaration_macros(&resolved.definitions, front.header_definitions, &qualifiers);
    statement_macros.retain(|name, _| !targets::is_target_macro(name));
    let lexed = lex::lex(&compiled, &|w| {
        qualifiers.contains_key(w)
            || blank::is_gap_word(w)
            || (language == Language::Hlsl && blank::is_hlsl_keyword_name(w))
            || statement_macros.contains_key(w)
            || targets::is_target_macro(w)
    });
    let mut bytes = compiled.as_bytes().to_vec();
    if language == Language::Cuda {
        let arch = defines
            .get("__CUDA_ARCH__")
            .and_then(|v| v.trim().parse().ok());
        file.assumptions = targets::rewrite_dispatch(&mut bytes, &compiled, &lexed.idents, arch)
            .into_iter()
            .map(|(s, e, a)| (crate::diag::Span::new(s, e), a))
            .collect();
    }
    let (head_uses, blanked_uses) =
        macros::blank_statement_calls(&mut bytes, &compiled, &lexed.idents, &statement_macros);
    file.blanked_statements = blanked::describe(
        &compiled,
        &blanked_uses,
        &resolved.definitions,
        defines,
        front.header_definitions,
    );
    file.macro_effects = blanked::effects(&resolved.definitions, defines, front.header_definitions);
    file.macro_heads = heads::expand_heads(
        &compiled,
        &head_uses,
        &resolved.definitions,
        defines,
        front.header_definitions,
        &qualifiers,
        language,
    );
    macros::rewrite_uses(&mut bytes, &compiled, &lexed.idents, &qualifiers);
    blank::rewrite_gaps(&mut bytes, &compiled, &lexed.idents);
    if language == Language::Hlsl {
        blank::rename_keyword_names(&mut bytes, &compiled, &lexed.idents);
    }
    let parse_text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    debug_assert_eq!(parse_text.len(), file.text.len());
    file.set_parse_text(parse_text);
    file.undecided = resolved.undecided;
}

/// Parses the prepared text with the language's tree-sitter grammar; `None` when the
/// grammar's error recovery runs past the parse budget ([`parse_bounded`]).
pub fn parse(file: &SourceFile) -> Option<tree_sitter::Tree> {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&grammar(file.language)).ok()?;
    parse_bounded(&mut parser, file.parse_text())
}

/// Parses `text`, giving up (`None`) past its parse budget ([`ParseBudget`]): the
/// grammar's error recovery can take time that grows faster than the text.
pub fn parse_bounded(parser: &mut tree_sitter::Parser, text: &str) -> Option<tree_sitter::Tree> {
    parse_within(parser, text, ParseBudget::for_len(text.len()))
}

/// Parses `text` within `budget`.
pub fn parse_within(
    parser: &mut tree_sitter::Parser,
    text: &str,
    budget: ParseBudget,
) -> Option<tree_sitter::Tree> {
    let mut meter = budget.meter();
    let mut over = |_: &tree_sitter::ParseState| meter();
    let bytes = text.as_bytes();
    parser.reset();
    parser.parse_with_options(
        &mut |at: usize, _| bytes.get(at..).unwrap_or_default(),
        None,
        Some(tree_sitter::ParseOptions::new().progress_callback(&mut over)),
    )
}

/// Parses only `ranges` of the front end's text (a segment of a big file,
/// [`segments::segments`]), within the whole file's parse budget: spans in the tree are
/// the file's own. `None` past the budget.
pub fn parse_ranges(
    file: &SourceFile,
    ranges: &[(usize, usize)],
    line_starts: &[usize],
) -> Option<tree_sitter::Tree> {
    let point = |at: usize| {
        let row = line_starts.partition_point(|&s| s <= at).saturating_sub(1);
        tree_sitter::Point::new(row, at - line_starts.get(row).copied().unwrap_or(0))
    };
    let ranges: Vec<tree_sitter::Range> = ranges
        .iter()
        .map(|&(start, end)| tree_sitter::Range {
            start_byte: start,
            end_byte: end,
            start_point: point(start),
            end_point: point(end),
        })
        .collect();
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&grammar(file.language)).ok()?;
    parser.set_included_ranges(&ranges).ok()?;
    parse_bounded(&mut parser, file.parse_text())
}

/// Where the identifier `name` appears in `text` outside comments and string literals
/// (directive lines included: a macro may use it), in order.
pub fn uses_of(text: &str, name: &str) -> Vec<usize> {
    let lexed = lex::lex(text, &|w| w == name);
    let mut out: Vec<usize> = lexed.idents.iter().map(|&(s, _)| s).collect();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    for d in &lexed.directives {
        let line = &text[d.start..d.end];
        out.extend(line.match_indices(name).filter_map(|(i, _)| {
            let whole = !line[..i].chars().next_back().is_some_and(is_ident)
                && !line[i + name.len()..].chars().next().is_some_and(is_ident);
            whole.then_some(d.start + i)
        }));
    }
    out.sort_unstable();
    out
}

/// True when the front end left conditional groups undecided (resolved only when a
/// parse fails): such a file is parsed whole.
pub fn has_undecided(file: &SourceFile) -> bool {
    !file.undecided.is_empty()
}

/// The most parse errors a file may have for the front end to parse it again with its
/// undecided conditionals resolved or its rewrites undone.
const MAX_ERRORS_TO_RETRY: usize = 64;

/// Parses like [`parse`]; when the parse fails and conditional groups the errors touch
/// were left undecided, resolves those as a device compilation would and keeps that
/// text when it parses better without dropping any shared-memory code, recording the
/// assumptions.
pub fn parse_resolving(file: &mut SourceFile) -> Option<tree_sitter::Tree> {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&grammar(file.language)).ok()?;
    let tree = parse_bounded(&mut parser, file.parse_text())?;
    // Errors far from shared-memory code hide no access: not worth another parse. Nor
    // are errors past `MAX_ERRORS_TO_RETRY`: such a file is broken, not configured
    // otherwise, and each parse of it costs seconds of the grammar's error recovery.
    if !tree.root_node().has_error()
        || !errors_near_shared_memory(&tree, file.parse_text())
        || error_ranges(&tree).len() > MAX_ERRORS_TO_RETRY
    {
        return Some(tree);
    }
    let tree = resolve_undecided(file, &mut parser, tree);
    if !tree.root_node().has_error() {
        return Some(tree);
    }
    // The rewrites only help the grammar; should a file still parse worse with them than
    // with the known gaps blanked alone, that text is read instead.
    let plain = blank::blank_gaps(&file.text, file.language);
    if plain == file.parse_text() {
        return Some(tree);
    }
    let Some(plain_tree) = parse_bounded(&mut parser, &plain) else {
        return Some(tree);
    };
    if error_weight(&error_ranges(&plain_tree)) <= error_weight(&error_ranges(&tree)) {
        file.set_parse_text(plain);
        file.assumptions.clear();
        return Some(plain_tree);
    }
    Some(tree)
}

fn resolve_undecided(
    file: &mut SourceFile,
    parser: &mut tree_sitter::Parser,
    tree: tree_sitter::Tree,
) -> tree_sitter::Tree {
    if file.undecided.is_empty() {
        return tree;
    }
    let errors = error_ranges(&tree);
    // An error just before a group counts as in it: a statement the grammar found
    // missing (`for (...)` with the group as its unbraced body) ends where the group
    // begins.
    let text = file.parse_text();
    let just_before = |e: usize, start: usize| {
        e <= start && text.get(e..start).is_some_and(|t| t.trim().is_empty())
    };
    // A group whose dropped branches hold shared-memory code is not resolved on a guess.
    let groups = &file.undecided;
    let around = |s: usize, e: usize| -> Vec<usize> {
        (0..groups.len())
            .filter(|&i| {
                let g = &groups[i];
                ((s < g.end && g.start <= e) || just_before(e, g.start)) && !g.drops_shared(text)
            })
            .collect()
    };
    // First, for each error, the innermost undecided group around it.
    let mut innermost: Vec<usize> = Vec::new();
    for &(s, e) in &errors {
        let i = around(s, e)
            .into_iter()
            .min_by_key(|&i| groups[i].end - groups[i].start);
        if let Some(i) = i.filter(|i| !innermost.contains(i)) {
            innermost.push(i);
        }
    }
    // Then every group an error overlaps whose branches split braces: an error region
    // that runs over several of them (each alternative opening a block that one `}`
    // after the group closes) ends only when all of them are resolved. Groups whose
    // branches are whole parse with every branch kept, and stay.
    let spans: Vec<(usize, usize)> = groups.iter().map(|g| (g.start, g.end)).collect();
    let mut all: Vec<usize> = Vec::new();
    for &(s, e) in &errors {
        for i in around(s, e) {
            if !all.contains(&i) && groups[i].splits_braces(text, &spans) {
                all.push(i);
            }
        }
    }
    all.sort_unstable();
    let mut best: Option<(Vec<usize>, String, tree_sitter::Tree, usize)> = None;
    let mut weight = error_weight(&errors);
    for touched in [innermost, all] {
        if touched.is_empty() || best.as_ref().is_some_and(|b| b.0 == touched || b.3 == 0) {
            continue;
        }
        let mut bytes = text.as_bytes().to_vec();
        for &i in &touched {
            groups[i].apply(&mut bytes);
        }
        let Ok(candidate) = String::from_utf8(bytes) else {
            continue;
        };
        let Some(resolved) = parse_bounded(parser, &candidate) else {
            continue;
        };
        let w = error_weight(&error_ranges(&resolved));
        if w < weight {
            weight = w;
            best = Some((touched, candidate, resolved, w));
        }
    }
    let Some((touched, text, resolved, _)) = best else {
        return tree;
    };
    file.set_parse_text(text);
    file.assumptions.extend(touched.iter().map(|&i| {
        let g = &file.undecided[i];
        (crate::diag::Span::new(g.start, g.end), g.assumption.clone())
    }));
    resolved
}

/// Whether an error of `tree` lies in an item (a function, a class, a template, else
/// the top-level item around it) that spells shared memory.
fn errors_near_shared_memory(tree: &tree_sitter::Tree, text: &str) -> bool {
    // Arrays declared at file scope (HLSL's `groupshared`) are named, not declared, in
    // the functions that use them.
    static DECL: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let decl = DECL.get_or_init(|| {
        regex::Regex::new(r"(?:__shared__|(?i:groupshared))[^;{}()]*?\b([A-Za-z_]\w*)\s*(?:\[|;|=)")
            .expect("valid shared declaration pattern")
    });
    let names: Vec<&str> = decl
        .captures_iter(text)
        .filter_map(|c| c.get(1).map(|m| m.as_str()))
        .collect();
    let near = |item: &str| mentions_shared_memory(item) || names.iter().any(|n| item.contains(n));
    // Each node goes with its item: the nearest of itself and its ancestors that is a
    // function, template, class or struct, or sits at file or namespace scope. Carried
    // down rather than found by walking up: a node's parent costs the tree's depth.
    let root = tree.root_node();
    let mut stack = vec![(root, root)];
    while let Some((node, item)) = stack.pop() {
        if node.is_error() || node.is_missing() {
            if text
                .get(item.start_byte()..item.end_byte())
                .is_some_and(near)
            {
                return true;
            }
        } else if node.has_error() {
            let top = matches!(node.kind(), "translation_unit" | "declaration_list");
            for child in node.children(&mut node.walk()) {
                let is_item = top
                    || matches!(
                        child.kind(),
                        "function_definition"
                            | "template_declaration"
                            | "class_specifier"
                            | "struct_specifier"
                    );
                stack.push((child, if is_item { child } else { item }));
            }
        }
    }
    false
}

/// The byte ranges of the tree's error and missing nodes.
fn error_ranges(tree: &tree_sitter::Tree) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            out.push((node.start_byte(), node.end_byte()));
        } else if node.has_error() {
            stack.extend(node.children(&mut node.walk()));
        }
    }
    out
}

/// How bad a parse is: the bytes its errors cover, a missing node counting as one.
fn error_weight(errors: &[(usize, usize)]) -> usize {
    errors.iter().map(|(s, e)| (e - s).max(1)).sum()
}

/// The tree-sitter grammar of `language`.
pub fn grammar(language: Language) -> tree_sitter::Language {
    match language {
        Language::Cuda => tree_sitter_cuda::LANGUAGE.into(),
        Language::Hlsl => tree_sitter_hlsl::LANGUAGE_HLSL.into(),
    }
}

fn shared_pattern() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(
            r"__shared__|(?i:groupshared)|SharedMemory|(?-u:\b)[A-Z0-9_]*SHARED[A-Z0-9_]*(?-u:\b)",
        )
        .expect("valid shared-memory pattern")
    })
}

/// Whether `text` spells a shared-memory declaration: `__shared__`, `groupshared` in any
/// case (`FFX_GROUPSHARED`), the `SharedMemory<T>` wrapper. Stricter than
/// [`mentions_shared_memory`], for telling whether an unparsed region may hold shared
/// memory (`MaxSharedMemory` queries do not).
pub fn spells_shared_declaration(text: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(r"__shared__|(?i:groupshared)|SharedMemory\s*<")
            .expect("valid shared-declaration pattern")
    })
    .is_match(text)
}

/// A cheap text test: a file that spells no shared-memory qualifier (`__shared__`,
/// `groupshared` in any case, an upper-case macro such as `FFX_GROUPSHARED` or
/// `SHARED_MEM`, the `SharedMemory<T>` wrapper) declares and reaches no shared memory
/// of its own; `SharedStorage` types and `sharedMemPerBlock` queries do not count (its
/// launches are still found by the run-wide index's text scan).
pub fn mentions_shared_memory(text: &str) -> bool {
    shared_pattern().is_match(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file the front end leaves alone holds its text once: the parse text is the text
    /// itself, borrowed from the caller; one it changes holds both.
    #[test]
    fn the_parse_text_is_held_only_when_it_differs() {
        let text = "__global__ void k() { __shared__ float s[32]; s[threadIdx.x] = 0; }\n";
        let mut file = load_text("k.cu", text).expect("CUDA");
        prepare(&mut file, FrontEnd::default());
        assert!(std::ptr::eq(file.parse_text(), text));
        let text = "#pragma unroll\n__global__ void k() { __shared__ float s[32]; }\n";
        let mut file = load_text("k.cu", text).expect("CUDA");
        prepare(&mut file, FrontEnd::default());
        assert_eq!(file.parse_text().len(), text.len());
        assert_ne!(file.parse_text(), text);
        assert!(file.parse_text().starts_with("              \n"));
    }

    fn cuda_parser() -> tree_sitter::Parser {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&grammar(Language::Cuda))
            .expect("the grammar loads");
        parser
    }

    /// A text that needs more of the parser's work than it is given is not parsed, the
    /// same text within its budget is, and the outcome does not depend on the clock.
    #[test]
    fn the_parse_stops_at_its_budget() {
        let text = format!("__global__ void k() {{ {} x; }}", "f<g<".repeat(5000));
        let mut parser = cuda_parser();
        let ten = ParseBudget {
            units: 10,
            cpu: std::time::Duration::MAX,
        };
        assert!(parse_within(&mut parser, &text, ten).is_none());
        assert!(parse_within(&mut parser, &text, ten).is_none());
        // The operation budget alone: this text is slow to parse per byte, and how slow
        // depends on the machine.
        let units = ParseBudget {
            cpu: std::time::Duration::MAX,
            ..ParseBudget::for_len(text.len())
        };
        let tree = parse_within(&mut parser, &text, units);
        assert!(tree.is_some());
        // A parser that gave up starts afresh on the next text.
        let small = "__global__ void k() { __shared__ float s[32]; s[threadIdx.x] = 0; }";
        let tree = parse_bounded(&mut parser, small).expect("parses");
        assert!(!tree.root_node().has_error());
    }
}
