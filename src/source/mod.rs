//! Source files: decoding, language choice, blanking of known grammar gaps, parsing.
//!
//! Gets bytes, never touches the file system. Blanking replaces constructs the
//! grammars cannot read with spaces of the same byte length, so every span into the
//! blanked text is also a span into the original.

mod blank;
pub mod decode;

use crate::Language;

/// A decoded source file ready for extraction.
pub struct SourceFile {
    /// The decoded text (see [`decode`]); spans index into it.
    pub text: String,
    /// `text` with grammar gaps blanked to spaces of the same length.
    pub parse_text: String,
    pub language: Language,
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
/// not part of the text) and prepares it for parsing; `None` for bytes that are not
/// source text or not in a language bankcheck reads.
pub fn load(path: &str, bytes: &[u8]) -> Option<SourceFile> {
    let text = decode::decode(bytes).ok()?.text;
    let language = language_of(path, &text)?;
    let parse_text = blank::blank_gaps(&text, language);
    debug_assert_eq!(parse_text.len(), text.len());
    Some(SourceFile {
        text,
        parse_text,
        language,
    })
}

/// Parses the blanked text with the language's tree-sitter grammar.
pub fn parse(file: &SourceFile) -> Option<tree_sitter::Tree> {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&grammar(file.language)).ok()?;
    parser.parse(&file.parse_text, None)
}

/// The tree-sitter grammar of `language`.
pub fn grammar(language: Language) -> tree_sitter::Language {
    match language {
        Language::Cuda => tree_sitter_cuda::LANGUAGE.into(),
        Language::Hlsl => tree_sitter_hlsl::LANGUAGE_HLSL.into(),
    }
}

/// A cheap text test: a file that spells no shared-memory qualifier (`__shared__`,
/// `groupshared` in any case, an upper-case macro such as `FFX_GROUPSHARED` or
/// `SHARED_MEM`, the `SharedMemory<T>` wrapper) declares and reaches no shared memory
/// of its own; `SharedStorage` types and `sharedMemPerBlock` queries do not count (its
/// launches are still found by the run-wide index's text scan).
pub fn mentions_shared_memory(text: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(
            r"__shared__|(?i:groupshared)|SharedMemory|(?-u:\b)[A-Z0-9_]*SHARED[A-Z0-9_]*(?-u:\b)",
        )
        .expect("valid shared-memory pattern")
    })
    .is_match(text)
}
