//! Function heads: the attributes that make a function a kernel (`__global__`,
//! `[numthreads]`, `[WaveSize]`, `__launch_bounds__`), template parameter lists, and
//! heads written as a macro use (`DEFINE_KERNEL(name, bool A) { ... }`), read from the
//! use's expansion (`source::MacroHead`) parsed apart, every span placed at the use.

use super::ast::{self, Expr, Param, TemplateParam};
use super::convert::{span_of, type_from_text, Converter};
use crate::source::MacroHead;
use crate::Language;
use tree_sitter::Node;

/// What a function's head says of how it runs.
#[derive(Debug, Default)]
pub(super) struct Attributes {
    /// CUDA `__global__`, or HLSL with `[numthreads]`.
    pub is_kernel: bool,
    pub numthreads: Option<Vec<Expr>>,
    pub wave_size: Option<Expr>,
    pub launch_bounds: Option<Expr>,
}

/// The attributes of the function definition `c`.
pub(super) fn attributes(conv: &Converter, c: Node) -> Attributes {
    let mut out = Attributes::default();
    for ch in c.children(&mut c.walk()) {
        match ch.kind() {
            "__global__" => out.is_kernel = true,
            "launch_bounds" => {
                out.launch_bounds = ch.named_child(0).map(|n| conv.expr(n));
            }
            "hlsl_attribute" => {
                if let Some(call) = ch
                    .named_children(&mut ch.walk())
                    .find(|n| n.kind() == "call_expression")
                {
                    let e = conv.expr(call);
                    if let ast::ExprKind::Call { callee, args, .. } = e.kind {
                        match callee.to_ascii_lowercase().as_str() {
                            "numthreads" => {
                                out.numthreads = Some(args);
                                out.is_kernel = true;
                            }
                            "wavesize" => out.wave_size = args.into_iter().next(),
                            _ => {}
                        }
                    }
                }
            }
            _ => {
                let t = conv.text(ch);
                if ch.kind() != "compound_statement" && t.contains("__global__") {
                    out.is_kernel = true;
                }
            }
        }
    }
    out
}

/// The template parameters of the template declaration `node`.
pub(super) fn template_params(conv: &Converter, node: Node) -> Vec<TemplateParam> {
    let Some(list) = conv.field(node, "parameters") else {
        return Vec::new();
    };
    list.named_children(&mut list.walk())
        .filter_map(|p| {
            let is_type = p.kind().contains("type_parameter");
            let name = conv
                .field(p, "declarator")
                .or_else(|| conv.field(p, "name"))
                .or_else(|| {
                    p.named_children(&mut p.walk())
                        .find(|c| matches!(c.kind(), "identifier" | "type_identifier"))
                })
                .map(|n| conv.text(n).to_string())?;
            // A type's default is kept as its name (`unsigned int`, not an expression).
            let default = match conv.field(p, "default_type") {
                Some(d) if type_from_text(conv.text(d)).pointers == 0 => Some(Expr {
                    span: span_of(d),
                    kind: ast::ExprKind::Ident(type_from_text(conv.text(d)).base),
                }),
                d => d
                    .or_else(|| conv.field(p, "default_value"))
                    .map(|d| conv.expr(d)),
            };
            let ty = matches!(
                p.kind(),
                "parameter_declaration" | "optional_parameter_declaration"
            )
            .then(|| conv.field(p, "type"))
            .flatten()
            // `int* P`, `int (&A)[4]`: no integer.
            .filter(|_| conv.field(p, "declarator").map(|d| d.kind()) == Some("identifier"))
            .map(|t| type_from_text(conv.text(t)));
            Some(TemplateParam {
                name,
                default,
                is_type,
                ty,
            })
        })
        .collect()
}

/// The function declarator of the definition `c` and the node of its name.
pub(super) fn declarator<'t>(conv: &Converter, c: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
    let mut decl = conv.field(c, "declarator")?;
    while decl.kind() != "function_declarator" {
        decl = conv.field(decl, "declarator")?;
    }
    let name = conv.field(decl, "declarator")?;
    Some((decl, name))
}

/// A head read from a macro use's expansion.
#[derive(Debug)]
pub(super) struct ExpandedHead {
    pub name: String,
    pub params: Vec<Param>,
    pub template_params: Vec<TemplateParam>,
    pub attributes: Attributes,
}

/// The head `head` stands for, every span at the use; `Err` with the reason when it was
/// not expanded or its expansion is no function head.
pub(super) fn expanded(head: &MacroHead, language: Language) -> Result<ExpandedHead, String> {
    let text = head.expansion.as_deref().map_err(Clone::clone)?;
    // The empty body makes the head a definition, as the use's body does in the file.
    let snippet = format!("{text}\n{{}}\n");
    let not_a_head = || {
        format!(
            "its expansion `{}` is not a function head",
            abbreviated(text)
        )
    };
    let tree = super::snippet::parse(&snippet, language).ok_or_else(not_a_head)?;
    let root = tree.root_node();
    let conv = super::snippet::converter(&snippet, language);
    let mut item = root.named_child(0).ok_or_else(not_a_head)?;
    if root.has_error() || root.named_child_count() != 1 {
        return Err(not_a_head());
    }
    let mut template = Vec::new();
    while item.kind() == "template_declaration" {
        template.extend(template_params(&conv, item));
        item = item
            .named_children(&mut item.walk())
            .find(|n| n.kind() != "template_parameter_list")
            .ok_or_else(not_a_head)?;
    }
    if item.kind() != "function_definition" {
        return Err(not_a_head());
    }
    let (decl, name_node) = declarator(&conv, item).ok_or_else(not_a_head)?;
    let name = conv
        .text(name_node)
        .rsplit("::")
        .next()
        .unwrap_or("")
        .to_string();
    let mut params = conv
        .field(decl, "parameters")
        .map(|p| conv.params(p))
        .unwrap_or_default();
    let mut attributes = attributes(&conv, item);
    let at = head.span;
    for e in params
        .iter_mut()
        .filter_map(|p| p.default.as_mut())
        .chain(template.iter_mut().filter_map(|t| t.default.as_mut()))
        .chain(attributes.launch_bounds.as_mut())
        .chain(attributes.wave_size.as_mut())
        .chain(attributes.numthreads.iter_mut().flatten())
    {
        super::snippet::relocate(e, at);
    }
    Ok(ExpandedHead {
        name,
        params,
        template_params: template,
        attributes,
    })
}

/// The first 60 characters of `text`, whitespace collapsed, for a message.
fn abbreviated(text: &str) -> String {
    let short: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match short.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &short[..i]),
        None => short,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;

    fn head(expansion: Result<&str, &str>) -> MacroHead {
        MacroHead {
            name: Span::new(10, 11),
            span: Span::new(10, 20),
            expansion: expansion.map(str::to_string).map_err(str::to_string),
        }
    }

    #[test]
    fn reads_a_kernel_head_at_the_use() {
        let h = expanded(
            &head(Ok(
                "template<typename T, bool A, int N = 4> __global__ void __launch_bounds__(256) fwd(const P p, int k = 2)",
            )),
            Language::Cuda,
        )
        .unwrap();
        assert_eq!(h.name, "fwd");
        assert!(h.attributes.is_kernel);
        let names: Vec<&str> = h.template_params.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["T", "A", "N"]);
        let params: Vec<&str> = h.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(params, ["p", "k"]);
        assert_eq!(
            h.template_params[2].default.as_ref().unwrap().span,
            Span::new(10, 20)
        );
        assert_eq!(
            h.params[1].default.as_ref().unwrap().span,
            Span::new(10, 20)
        );
        assert_eq!(
            h.attributes.launch_bounds.as_ref().unwrap().span,
            Span::new(10, 20)
        );
    }

    #[test]
    fn refuses_what_is_no_head() {
        assert_eq!(
            expanded(&head(Err("why")), Language::Cuda).unwrap_err(),
            "why"
        );
        for text in [
            "int x = 1;",
            "void f(int",
            "struct S",
            "void f() {} void g()",
        ] {
            let e = expanded(&head(Ok(text)), Language::Cuda).unwrap_err();
            assert!(e.contains("is not a function head"), "{text}: {e}");
        }
    }
}
