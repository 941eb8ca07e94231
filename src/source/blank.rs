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
    // Only ASCII bytes of whole matches were replaced by ASCII spaces... except that a
    // match may contain multi-byte characters; replacing all their bytes by spaces
    // still yields valid UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
