//! Declarations of a reference or a pointer to an array, `float (&col)[33] = tile[x];`
//! and `float (*row)[33] = tile;`, which the grammar reads as an expression: an
//! assignment to a subscripted functional cast, `float(&col)[33] = ...`. Read as the
//! declaration the compiler sees, so that the accesses through `col` reach `tile`.

use super::ast::VarDecl;
use super::convert::{span_of, type_from_text, Converter};
use tree_sitter::Node;

impl Converter<'_> {
    /// The declaration `e`, an expression of statement `stmt`, spells when it has the
    /// shape `T (&name)[N]... = init` or `T (*name)[N]... = init` with `T` a type name;
    /// `None` otherwise.
    pub(super) fn array_declarator(&self, e: Node, stmt: Node) -> Option<VarDecl> {
        if e.kind() != "assignment_expression"
            || self.field(e, "operator").map(|o| self.text(o)) != Some("=")
        {
            return None;
        }
        let right = self.field(e, "right")?;
        let mut left = self.field(e, "left")?;
        let mut extents = Vec::new();
        while left.kind() == "subscript_expression" {
            let index = self
                .field(left, "indices")
                .and_then(|l| {
                    l.named_children(&mut l.walk())
                        .find(|c| c.kind() != "comment")
                })
                .or_else(|| self.field(left, "index"))?;
            extents.push(Some(self.expr(index)));
            left = self.field(left, "argument")?;
        }
        if extents.is_empty() || left.kind() != "call_expression" {
            return None;
        }
        let ty = self.field(left, "function")?;
        if !names_a_type(ty.kind(), self.text(ty)) {
            return None;
        }
        let args = self.field(left, "arguments")?;
        let mut named = args
            .named_children(&mut args.walk())
            .filter(|c| c.kind() != "comment")
            .collect::<Vec<_>>()
            .into_iter();
        let (Some(inner), None) = (named.next(), named.next()) else {
            return None;
        };
        if inner.kind() != "pointer_expression" {
            return None;
        }
        let op = self.text(self.field(inner, "operator")?);
        let name = self
            .field(inner, "argument")
            .filter(|n| n.kind() == "identifier")?;
        // Subscripts nest outermost-last: `(&a)[2][3]` is subscript(subscript(a, 2), 3).
        extents.reverse();
        Some(VarDecl {
            name: self.text(name).to_string(),
            name_span: span_of(name),
            ty: type_from_text(self.text(ty)),
            extents,
            init: Some(self.expr(right)),
            shared: false,
            extern_: false,
            is_const: false,
            reference: op == "&",
            array_pointer: op == "*",
            enumerator: false,
            span: span_of(stmt),
        })
    }
}

/// The names of vector types before their component count (`float4`, `uint2`).
const VECTOR_STEMS: [&str; 15] = [
    "char",
    "uchar",
    "short",
    "ushort",
    "int",
    "uint",
    "long",
    "ulong",
    "longlong",
    "ulonglong",
    "float",
    "double",
    "half",
    "bool",
    "min16float",
];

/// Whether the callee `text` of node kind `kind` is a type name a declaration may start
/// with: a built-in type, a vector type (`float4`, `uint2`, `half2`) or a capitalised
/// name (a template parameter or alias, `T`, `Element`). A function call whose result is
/// subscripted and assigned, `f(&x)[i] = v;`, is left an expression.
fn names_a_type(kind: &str, text: &str) -> bool {
    match kind {
        "primitive_type" | "sized_type_specifier" => true,
        "identifier" | "type_identifier" => {
            let stem = text.trim_end_matches(|c: char| c.is_ascii_digit());
            (stem.len() < text.len() && VECTOR_STEMS.contains(&stem))
                || ["half", "__half", "__half2", "__nv_bfloat16"].contains(&text)
                || text.starts_with(|c: char| c.is_ascii_uppercase())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn type_names() {
        for t in ["float4", "uint2", "half2", "T", "Element", "__half"] {
            assert!(super::names_a_type("identifier", t), "{t}");
        }
        for t in ["load", "row", "f4", "get_ptr"] {
            assert!(!super::names_a_type("identifier", t), "{t}");
        }
    }
}
