//! Preprocessor conditions, kept when they are simple.
//!
//! Portable headers define the same helper once per target language
//! (`#if defined(A_GLSL)` ... `#elif defined(A_HLSL)` ...). bankcheck reads every
//! branch; recording what the branches around a definition ask of the macros lets the
//! lowering inline the alternative the including file selects. (Conditionals inside
//! function bodies are decided by the lowering itself, see `interp/preproc.rs`.)

use tree_sitter::Node;

/// What a branch asks of one macro.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Test {
    /// `defined(X)`, `#ifdef X`.
    Defined,
    /// `!defined(X)`, `#ifndef X`.
    Undefined,
    /// `#if X`: defined with a non-zero value.
    NonZero,
    /// `#if !X`.
    Zero,
}

impl Test {
    fn negated(self) -> Test {
        match self {
            Test::Defined => Test::Undefined,
            Test::Undefined => Test::Defined,
            Test::NonZero => Test::Zero,
            Test::Zero => Test::NonZero,
        }
    }
}

/// One test of a branch's condition.
pub type Requirement = (String, Test);

/// What `#ifdef` / `#ifndef` / `#if` / `#elif` node `node` asks for its own branch:
/// `None` when the condition is not a conjunction of `defined(X)`, `!defined(X)`, `X`
/// and `!X`.
pub fn branch_requires(node: Node, src: &str) -> Option<Vec<Requirement>> {
    match node.kind() {
        "preproc_ifdef" => {
            let name = node.child_by_field_name("name")?;
            let negated = node.child(0).is_some_and(|t| t.kind() == "#ifndef");
            let test = if negated {
                Test::Undefined
            } else {
                Test::Defined
            };
            Some(vec![(src.get(name.byte_range())?.to_string(), test)])
        }
        "preproc_if" | "preproc_elif" => {
            let mut out = Vec::new();
            conjunction(node.child_by_field_name("condition")?, src, &mut out)?;
            Some(out)
        }
        _ => None,
    }
}

/// What the `#else` / `#elif` after a branch asking `requires` inherits: the negation
/// of a single test; nothing is known after a conjunction of several.
pub fn negation(requires: Option<&[Requirement]>) -> Vec<Requirement> {
    match requires {
        Some([(name, test)]) => vec![(name.clone(), test.negated())],
        _ => Vec::new(),
    }
}

fn conjunction(node: Node, src: &str, out: &mut Vec<Requirement>) -> Option<()> {
    match node.kind() {
        "parenthesized_expression" => conjunction(node.named_child(0)?, src, out),
        "binary_expression" => {
            let op = node.child_by_field_name("operator")?;
            if op.kind() != "&&" {
                return None;
            }
            conjunction(node.child_by_field_name("left")?, src, out)?;
            conjunction(node.child_by_field_name("right")?, src, out)
        }
        "unary_expression" => {
            let op = node.child_by_field_name("operator")?;
            let arg = node.child_by_field_name("argument")?;
            if op.kind() != "!" {
                return None;
            }
            let mut inner = Vec::new();
            conjunction(arg, src, &mut inner)?;
            match inner.as_slice() {
                [(name, test)] => {
                    out.push((name.clone(), test.negated()));
                    Some(())
                }
                _ => None,
            }
        }
        "preproc_defined" => {
            let name = node.named_child(0)?;
            out.push((src.get(name.byte_range())?.to_string(), Test::Defined));
            Some(())
        }
        "identifier" => {
            out.push((src.get(node.byte_range())?.to_string(), Test::NonZero));
            Some(())
        }
        _ => None,
    }
}
