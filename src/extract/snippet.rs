//! Macro bodies and attribute arguments parsed on their own, as expressions.

use super::ast::{self, Expr};
use super::convert::{self, Converter};
use crate::diag::Span;
use crate::Language;
use std::cell::RefCell;

thread_local! {
    /// A parser per grammar and thread, reused: creating one costs more than parsing a
    /// snippet, and a file may have many.
    static PARSERS: RefCell<[Option<tree_sitter::Parser>; 2]> = const { RefCell::new([None, None]) };
}

/// Parses `text` with `language`'s grammar on this thread's parser.
pub(super) fn parse(text: &str, language: Language) -> Option<tree_sitter::Tree> {
    PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let slot = &mut parsers[match language {
            Language::Cuda => 0,
            Language::Hlsl => 1,
        }];
        if slot.is_none() {
            let mut parser = tree_sitter::Parser::new();
            parser
                .set_language(&crate::source::grammar(language))
                .ok()?;
            *slot = Some(parser);
        }
        let parser = slot.as_mut()?;
        crate::source::parse_bounded(parser, text)
    })
}

/// No macro's effects: a snippet holds no statements.
static NO_EFFECTS: std::sync::LazyLock<crate::source::MacroEffects> =
    std::sync::LazyLock::new(Default::default);

/// A converter of a snippet's tree: no shared-memory macros, nothing truncated yet.
pub(super) fn converter(src: &str, language: Language) -> Converter<'_> {
    Converter {
        src,
        depth: std::cell::Cell::new(0),
        truncated: std::cell::RefCell::default(),
        shared_macros: &[],
        fields: convert::Fields::of(language),
        blanked: &[],
        placed: std::cell::RefCell::default(),
        macro_effects: &NO_EFFECTS,
    }
}

/// Parses a macro body as an expression; spans point at the macro's value.
pub(crate) fn parse_snippet(text: &str, language: Language, span: Span) -> Option<Expr> {
    if text.is_empty() || text.len() > 4000 {
        return None;
    }
    // The newline ends a trailing `// comment` of the macro's line before the `)`.
    let snippet = format!("int __bankcheck_macro = ({text}\n);");
    let tree = parse(&snippet, language)?;
    let root = tree.root_node();
    if root.has_error() {
        return None;
    }
    let conv = converter(&snippet, language);
    let decl = root.named_child(0)?;
    let d = conv.declaration(decl).into_iter().next()?;
    let mut e = d.init?;
    relocate(&mut e, span);
    Some(e)
}

/// Moves every span of a snippet expression onto `span`.
pub(super) fn relocate(e: &mut Expr, span: Span) {
    use ast::ExprKind as K;
    e.span = span;
    match &mut e.kind {
        K::Member(b, _) | K::Unary(_, b) | K::IncDec(b, _) | K::Cast(_, b) | K::SizeofExpr(b) => {
            relocate(b, span);
        }
        K::Index(a, b) | K::Binary(_, a, b) | K::Assign(_, a, b) => {
            relocate(a, span);
            relocate(b, span);
        }
        K::Cond(a, b, c) => {
            relocate(a, span);
            relocate(b, span);
            relocate(c, span);
        }
        K::Call { args, .. } | K::Comma(args) => args.iter_mut().for_each(|a| relocate(a, span)),
        _ => {}
    }
}
