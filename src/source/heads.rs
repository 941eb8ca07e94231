//! Function heads spelled by a macro use followed by a body
//! (`DEFINE_FLASH_FORWARD_KERNEL(flash_fwd_kernel, bool Is_dropout) { ... }`, the
//! `#define` giving `template<typename Kernel_traits, __VA_ARGS__> __global__ void
//! kernelName(const Params params)`).
//!
//! The parsed text keeps the use's name and parentheses (`macros::blank_statement_calls`),
//! so the grammar reads a function and its body at their own positions; the head the
//! compiler sees is the use's expansion ([`expand`](super::expand)), made ready for the
//! grammar here (qualifier macros and attributes as elsewhere in the front end) and
//! parsed apart by the extraction, which takes the name, template parameters, parameters
//! and `__global__` from it and places them at the use. A use that cannot be expanded
//! keeps its reason, and the function is read as before: named after the macro.

use super::{blank, expand, lex, macros};
use crate::diag::Span;
use crate::Language;
use std::collections::{BTreeMap, HashMap};

/// A function head written as a macro use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MacroHead {
    /// The macro's name at the use: where the grammar reads the function's name.
    pub name: Span,
    /// The whole use, `NAME(args)`: where the head's parts are reported.
    pub span: Span,
    /// The head the use stands for, ready for the grammar, or why it was not expanded.
    pub expansion: Result<String, String>,
}

/// The heads of the uses at `uses` (name start, name end, end of the argument list) in
/// `text`, expanded with the file's definitions (which win), the settings' defines and
/// the headers'.
pub fn expand_heads(
    text: &str,
    uses: &[(usize, usize, usize)],
    file: &[macros::Definition],
    settings: &BTreeMap<String, String>,
    headers: &[macros::Definition],
    qualifiers: &HashMap<String, macros::Rewrite>,
    language: Language,
) -> Vec<MacroHead> {
    if uses.is_empty() {
        return Vec::new();
    }
    let defs = expand::known_macros(file, settings, headers);
    let mut budget = expand::file_budget(text.len());
    uses.iter()
        .map(|&(s, e, close)| MacroHead {
            name: Span::new(s, e),
            span: Span::new(s, close),
            expansion: text
                .get(s..close)
                .ok_or_else(|| "the use is not whole characters".to_string())
                .and_then(|u| expand::expand_use(u, &defs, &mut budget).map_err(|r| r.to_string()))
                .map(|head| for_grammar(&head, qualifiers, language)),
        })
        .collect()
}

/// `head` as the grammar reads it: qualifier macros rewritten and attributes blanked as
/// in the file's text, words that change nothing bankcheck reads (`__forceinline__`,
/// `__grid_constant__`) dropped.
fn for_grammar(
    head: &str,
    qualifiers: &HashMap<String, macros::Rewrite>,
    language: Language,
) -> String {
    let gaps = blank::blank_gaps(head, language);
    let lexed = lex::lex(&gaps, &|w| {
        qualifiers.contains_key(w) || blank::is_gap_word(w) || macros::is_dropped(w)
    });
    let mut bytes = gaps.as_bytes().to_vec();
    for &(s, e) in &lexed.idents {
        if macros::is_dropped(&gaps[s..e]) {
            lex::blank(&mut bytes, s, e);
        }
    }
    macros::rewrite_uses(&mut bytes, &gaps, &lexed.idents, qualifiers);
    blank::rewrite_gaps(&mut bytes, &gaps, &lexed.idents);
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_are_expanded_for_the_grammar() {
        let text = "K(fwd, bool A) {\n}\nBAD(x) {\n}\n";
        let file = vec![
            (
                "K".to_string(),
                Some(vec!["n".to_string(), "...".to_string()]),
                "template<typename T, __VA_ARGS__> DEV void n(MOD const P p)".to_string(),
            ),
            ("MOD".to_string(), None, "__grid_constant__".to_string()),
            (
                "DEV".to_string(),
                None,
                "__global__ __forceinline__".to_string(),
            ),
            (
                "BAD".to_string(),
                Some(vec!["a".to_string(), "b".to_string()]),
                "void a(b)".to_string(),
            ),
        ];
        let q = macros::qualifier_macros(&file, &BTreeMap::new(), &[]);
        let heads = expand_heads(
            text,
            &[(0, 1, 14), (19, 22, 25)],
            &file,
            &BTreeMap::new(),
            &[],
            &q,
            Language::Cuda,
        );
        let head = heads[0].expansion.as_deref().unwrap();
        assert_eq!(
            head.split_whitespace().collect::<Vec<_>>().join(" "),
            "template<typename T, bool A> __global__ void fwd( const P p)"
        );
        assert_eq!(heads[0].span, Span::new(0, 14));
        assert!(heads[1]
            .expansion
            .as_ref()
            .unwrap_err()
            .contains("`BAD` takes 2"));
    }
}
