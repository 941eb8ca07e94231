//! Conversion of tree-sitter nodes (CUDA and HLSL grammars alike) into [`super::ast`].
//!
//! The two grammars share C++'s node kinds; where they differ (`__shared__` as a type
//! qualifier, `groupshared` in `qualifiers`, `hlsl_attribute`, `kernel_call_syntax`)
//! both spellings are handled here and nowhere else.

use super::ast::{
    Asm, AsmOperand, BinaryOp, Expr, ExprKind, MacroStmt, Param, Stmt, TypeName, UnaryOp, VarDecl,
};
use crate::diag::Span;
use tree_sitter::Node;

/// Converts nodes of one file; `src` is the text the tree was parsed from.
pub struct Converter<'a> {
    pub src: &'a str,
    /// Current nesting depth; past [`MAX_DEPTH`] subtrees become `Opaque`.
    pub depth: std::cell::Cell<u32>,
    /// The subtrees cut at [`MAX_DEPTH`]: what they hold is not followed, and the
    /// extraction reports them with the regions that could not be parsed.
    pub truncated: std::cell::RefCell<Vec<Span>>,
    /// Identifiers known to expand to a shared-memory qualifier (`FFX_GROUPSHARED`).
    pub shared_macros: &'a [String],
    /// Field ids of the file's grammar.
    pub fields: &'static Fields,
    /// The statements the front end blanked, in the order of the file
    /// (`source::BlankedStatement`), and which of them a block has taken: each becomes a
    /// [`Stmt::Macro`] where it stands among its block's statements.
    pub blanked: &'a [crate::source::BlankedStatement],
    pub placed: std::cell::RefCell<Vec<bool>>,
    /// What function-like macros may assign (`source::MacroEffects`): a call statement
    /// of one is followed by a [`Stmt::Macro`] saying so.
    pub macro_effects: &'a crate::source::MacroEffects,
}

/// Field names the converter and the walker look up, resolved to field ids once per
/// grammar: `Node::child_by_field_name` compares the name with every field name of the
/// grammar on each call.
const FIELD_NAMES: [&str; 23] = [
    "alternative",
    "argument",
    "arguments",
    "body",
    "condition",
    "consequence",
    "declarator",
    "default_type",
    "default_value",
    "field",
    "function",
    "index",
    "indices",
    "initializer",
    "left",
    "name",
    "operator",
    "parameters",
    "right",
    "size",
    "type",
    "update",
    "value",
];

/// The ids of [`FIELD_NAMES`] in one grammar.
pub struct Fields([Option<std::num::NonZeroU16>; 23]);

impl Fields {
    /// The ids for `language`'s grammar, computed once per process.
    pub fn of(language: crate::Language) -> &'static Fields {
        static CUDA: std::sync::OnceLock<Fields> = std::sync::OnceLock::new();
        static HLSL: std::sync::OnceLock<Fields> = std::sync::OnceLock::new();
        let (cell, grammar): (_, tree_sitter::Language) = match language {
            crate::Language::Cuda => (&CUDA, tree_sitter_cuda::LANGUAGE.into()),
            crate::Language::Hlsl => (&HLSL, tree_sitter_hlsl::LANGUAGE_HLSL.into()),
        };
        cell.get_or_init(|| Fields(FIELD_NAMES.map(|n| grammar.field_id_for_name(n))))
    }

    /// The id of field `name`, one of [`FIELD_NAMES`] (`None` for any other name, and for
    /// a field the grammar does not have).
    pub fn id(&self, name: &str) -> Option<std::num::NonZeroU16> {
        Self::index(name).and_then(|i| self.0[i])
    }

    /// The child of `node` in field `name`, by id when `name` is one of [`FIELD_NAMES`].
    pub fn child<'t>(&self, node: Node<'t>, name: &str) -> Option<Node<'t>> {
        match Self::index(name).map(|i| self.0[i]) {
            Some(Some(id)) => node.child_by_field_id(id.get()),
            Some(None) => None,
            None => node.child_by_field_name(name),
        }
    }

    fn index(name: &str) -> Option<usize> {
        Some(match name {
            "alternative" => 0,
            "argument" => 1,
            "arguments" => 2,
            "body" => 3,
            "condition" => 4,
            "consequence" => 5,
            "declarator" => 6,
            "default_type" => 7,
            "default_value" => 8,
            "field" => 9,
            "function" => 10,
            "index" => 11,
            "indices" => 12,
            "initializer" => 13,
            "left" => 14,
            "name" => 15,
            "operator" => 16,
            "parameters" => 17,
            "right" => 18,
            "size" => 19,
            "type" => 20,
            "update" => 21,
            "value" => 22,
            _ => return None,
        })
    }
}

/// Deepest expression or statement nesting converted; deeper input is `Opaque`/`Other`.
pub const MAX_DEPTH: u32 = 150;

pub fn span_of(node: Node) -> Span {
    Span::new(node.start_byte(), node.end_byte())
}

impl<'a> Converter<'a> {
    /// The child of `node` in field `name` (see [`Fields`]).
    pub fn field<'t>(&self, node: Node<'t>, name: &str) -> Option<Node<'t>> {
        self.fields.child(node, name)
    }

    /// The children of `node` in field `name` (see [`Fields::id`]).
    pub fn children<'t, 'c>(
        &self,
        node: Node<'t>,
        name: &str,
        cursor: &'c mut tree_sitter::TreeCursor<'t>,
    ) -> impl Iterator<Item = Node<'t>> + 'c {
        self.fields
            .id(name)
            .map(|id| node.children_by_field_id(id, cursor))
            .into_iter()
            .flatten()
    }

    pub fn text(&self, node: Node) -> &'a str {
        self.src.get(node.byte_range()).unwrap_or("")
    }

    fn expr_of(&self, node: Option<Node>) -> Expr {
        match node {
            Some(n) => self.expr(n),
            None => Expr {
                span: Span::default(),
                kind: ExprKind::Opaque,
            },
        }
    }

    /// Converts an expression node; unknown kinds become `Opaque`.
    pub fn expr(&self, node: Node) -> Expr {
        let span = span_of(node);
        let depth = self.depth.get();
        if depth > MAX_DEPTH {
            self.truncated.borrow_mut().push(span);
            return Expr {
                span,
                kind: ExprKind::Opaque,
            };
        }
        self.depth.set(depth + 1);
        let kind = self.expr_kind(node);
        self.depth.set(depth);
        Expr { span, kind }
    }

    fn expr_kind(&self, node: Node) -> ExprKind {
        let field = |name: &str| self.field(node, name);
        match node.kind() {
            "number_literal" => {
                let t = self.text(node);
                parse_int(t).map_or_else(|| ExprKind::Float(parse_decimal(t)), ExprKind::Int)
            }
            // `defined(X)` in a preprocessor condition.
            "preproc_defined" => ExprKind::Call {
                callee: "#ifdef".to_string(),
                template_args: Vec::new(),
                args: node
                    .named_children(&mut node.walk())
                    .find(|c| c.kind() == "identifier")
                    .map(|c| Expr {
                        span: span_of(c),
                        kind: ExprKind::Ident(self.text(c).to_string()),
                    })
                    .into_iter()
                    .collect(),
            },
            // HLSL's swizzle of a literal, `2.xx`, parses as a literal `2.` with suffix `xx`.
            // It is read as the integer broadcast: the corpus uses it with `%` and `==`,
            // where integer-valued floats and integers agree.
            "user_defined_literal" => {
                let t = self.text(node);
                match t.split_once('.') {
                    Some((n, sw))
                        if !sw.is_empty()
                            && sw.len() <= 4
                            && (sw.chars().all(|c| c == 'x') || sw.chars().all(|c| c == 'r')) =>
                    {
                        match parse_int(n) {
                            Some(v) => ExprKind::Member(
                                Box::new(Expr {
                                    span: span_of(node),
                                    kind: ExprKind::Int(v),
                                }),
                                sw.to_string(),
                            ),
                            None => ExprKind::Float(parse_decimal(n)),
                        }
                    }
                    _ => ExprKind::Opaque,
                }
            }
            "char_literal" => {
                let t = self.text(node);
                t.chars()
                    .nth(1)
                    .map_or(ExprKind::Opaque, |c| ExprKind::Int(c as i64))
            }
            "true" => ExprKind::Bool(true),
            "false" => ExprKind::Bool(false),
            "identifier"
            | "qualified_identifier"
            | "type_identifier"
            | "field_identifier"
            | "primitive_type"
            // `this` in a member function: lowering binds it to the object.
            | "this" => ExprKind::Ident(without_whitespace(self.text(node))),
            "parenthesized_expression" | "condition_clause" => {
                let inner = node
                    .named_children(&mut node.walk())
                    .find(|c| c.kind() != "comment");
                inner.map_or(ExprKind::Opaque, |n| self.expr(n).kind)
            }
            "field_expression" => {
                let mut base = self.expr_of(field("argument"));
                let name = field("field")
                    .map(|f| self.text(f).to_string())
                    .unwrap_or_default();
                // `p->f` is `(*p).f`, so a pointer to a struct in shared memory reaches
                // its members; `this->f` stays the member function's field `f`.
                let arrow = field("operator").is_some_and(|o| self.text(o) == "->");
                if arrow && !matches!(&base.kind, ExprKind::Ident(t) if t == "this") {
                    base = Expr {
                        span: base.span,
                        kind: ExprKind::Unary(UnaryOp::Deref, Box::new(base)),
                    };
                }
                ExprKind::Member(Box::new(base), name)
            }
            "subscript_expression" => {
                let base = self.expr_of(field("argument"));
                let index = field("indices")
                    .and_then(|l| {
                        l.named_children(&mut l.walk())
                            .find(|c| c.kind() != "comment")
                    })
                    .or_else(|| field("index"));
                ExprKind::Index(Box::new(base), Box::new(self.expr_of(index)))
            }
            "call_expression" => self.call(node),
            "gnu_asm_expression" => self.asm(node),
            "unary_expression" | "pointer_expression" => {
                let op = field("operator").map_or("", |o| self.text(o));
                let arg = Box::new(self.expr_of(field("argument")));
                let op = match op {
                    "-" => UnaryOp::Neg,
                    "+" => UnaryOp::Plus,
                    "~" => UnaryOp::BitNot,
                    "!" | "not" => UnaryOp::Not,
                    "&" => UnaryOp::AddrOf,
                    "*" => UnaryOp::Deref,
                    _ => return ExprKind::Opaque,
                };
                ExprKind::Unary(op, arg)
            }
            "binary_expression" => {
                let op = field("operator").map_or("", |o| self.text(o));
                match BinaryOp::from_token(op) {
                    Some(op) => ExprKind::Binary(
                        op,
                        Box::new(self.expr_of(field("left"))),
                        Box::new(self.expr_of(field("right"))),
                    ),
                    None => ExprKind::Opaque,
                }
            }
            "assignment_expression" => {
                let op = field("operator").map_or("=", |o| self.text(o));
                let lhs = Box::new(self.expr_of(field("left")));
                let rhs = Box::new(self.expr_of(field("right")));
                if op == "=" {
                    ExprKind::Assign(None, lhs, rhs)
                } else {
                    match BinaryOp::from_token(op.trim_end_matches('=')) {
                        Some(b) => ExprKind::Assign(Some(b), lhs, rhs),
                        None => ExprKind::Opaque,
                    }
                }
            }
            "update_expression" => {
                let op = field("operator").map_or("", |o| self.text(o));
                let delta = if op == "--" { -1 } else { 1 };
                ExprKind::IncDec(Box::new(self.expr_of(field("argument"))), delta)
            }
            "conditional_expression" => ExprKind::Cond(
                Box::new(self.expr_of(field("condition"))),
                Box::new(self.expr_of(field("consequence"))),
                Box::new(self.expr_of(field("alternative"))),
            ),
            "cast_expression" => {
                let ty = field("type")
                    .map(|t| self.type_descriptor(t))
                    .unwrap_or_default();
                ExprKind::Cast(ty, Box::new(self.expr_of(field("value"))))
            }
            "sizeof_expression" => {
                if let Some(t) = field("type") {
                    ExprKind::SizeofType(self.type_descriptor(t))
                } else {
                    let v = field("value");
                    match v {
                        Some(v) if v.kind() == "parenthesized_expression" => {
                            // `sizeof(T)` with T a type name parses as an expression too.
                            ExprKind::SizeofExpr(Box::new(self.expr(v)))
                        }
                        _ => ExprKind::SizeofExpr(Box::new(self.expr_of(v))),
                    }
                }
            }
            "comma_expression" => ExprKind::Comma(vec![
                self.expr_of(field("left")),
                self.expr_of(field("right")),
            ]),
            _ => ExprKind::Opaque,
        }
    }

    /// `asm("template" : outputs : inputs : clobbers)`: the template's literals joined
    /// (a piece that is not a literal, a macro, becomes `?`, which no instruction parses
    /// as) and the operands in order. Asm is rare: its fields are looked up by name.
    fn asm(&self, node: Node) -> ExprKind {
        let mut template = String::new();
        if let Some(code) = node.child_by_field_name("assembly_code") {
            let pieces: Vec<Node> = if code.kind() == "concatenated_string" {
                code.named_children(&mut code.walk())
                    .filter(|c| c.kind() != "comment")
                    .collect()
            } else {
                vec![code]
            };
            for p in pieces {
                match p.kind() {
                    "string_literal" => template.push_str(&super::asm::unescape(self.text(p))),
                    _ => template.push_str(" ? "),
                }
            }
        }
        let operands = |field: &str| -> Vec<AsmOperand> {
            let Some(list) = node.child_by_field_name(field) else {
                return Vec::new();
            };
            list.named_children(&mut list.walk())
                .filter(|o| o.kind().ends_with("_operand"))
                .map(|o| AsmOperand {
                    name: o
                        .child_by_field_name("symbol")
                        .map(|n| self.text(n).to_string()),
                    constraint: o
                        .child_by_field_name("constraint")
                        .map_or(String::new(), |c| super::asm::unescape(self.text(c))),
                    value: self.expr_of(o.child_by_field_name("value")),
                })
                .collect()
        };
        ExprKind::Asm(Box::new(Asm {
            template,
            outputs: operands("output_operands"),
            inputs: operands("input_operands"),
        }))
    }

    fn call(&self, node: Node) -> ExprKind {
        let Some(function) = self.field(node, "function") else {
            return ExprKind::Opaque;
        };
        let mut args: Vec<Expr> = self
            .field(node, "arguments")
            .map(|a| {
                // Preprocessor lines inside an argument list (`#ifdef X` ... `#endif`
                // around trailing arguments) are not arguments.
                a.named_children(&mut a.walk())
                    .filter(|c| {
                        c.kind() != "comment"
                            && !c.kind().starts_with("preproc")
                            && !self.text(*c).trim_start().starts_with('#')
                    })
                    .map(|c| self.expr(c))
                    .collect()
            })
            .unwrap_or_default();
        let (callee, template_args) = match function.kind() {
            "template_function" => {
                let name = self
                    .field(function, "name")
                    .map_or("", |n| self.text(n))
                    .to_string();
                let targ_list = self.field(function, "arguments");
                let targs: Vec<String> = targ_list
                    .map(|a| {
                        a.named_children(&mut a.walk())
                            .map(|c| self.text(c).trim().to_string())
                            .collect()
                    })
                    .unwrap_or_default();
                let first_targ = targ_list.and_then(|a| a.named_child(0));
                if let (Some(n), Some(t)) = (self.field(function, "name"), first_targ) {
                    if let Some(k) = super::template_comparisons::misread_comparison(
                        &name,
                        span_of(n),
                        &targs,
                        span_of(t).start,
                        &mut args,
                        span_of(node),
                    ) {
                        return k;
                    }
                }
                (name, targs)
            }
            _ => (without_whitespace(self.text(function)), Vec::new()),
        };
        // C++ casts and functional casts become `Cast`.
        if matches!(
            callee.as_str(),
            "reinterpret_cast" | "static_cast" | "const_cast"
        ) && args.len() == 1
        {
            if let Some(t) = template_args.first() {
                return ExprKind::Cast(type_from_text(t), Box::new(args[0].clone()));
            }
        }
        ExprKind::Call {
            callee,
            template_args,
            args,
        }
    }

    /// A `type_descriptor` (`float4*`, `const unsigned int`) as a [`TypeName`].
    pub fn type_descriptor(&self, node: Node) -> TypeName {
        type_from_text(self.text(node))
    }

    /// The condition of an `#if`/`#ifdef`/`#ifndef`/`#elif` node as a marker call (`#if`,
    /// `#ifdef`, `#ifndef` on the condition or the name) that lowering decides from the
    /// macros it knows (`lower/interp/preproc.rs`).
    pub fn preproc_marker(&self, node: Node) -> Expr {
        let span = span_of(node);
        let (callee, arg) = if let Some(c) = self.field(node, "condition") {
            ("#if".to_string(), self.expr(c))
        } else {
            let negated = node
                .children(&mut node.walk())
                .any(|c| !c.is_named() && self.text(c).ends_with("ndef"));
            let name = self
                .field(node, "name")
                .map_or(String::new(), |n| self.text(n).to_string());
            (
                if negated { "#ifndef" } else { "#ifdef" }.to_string(),
                Expr {
                    span,
                    kind: ExprKind::Ident(name),
                },
            )
        };
        Expr {
            span,
            kind: ExprKind::Call {
                callee,
                template_args: Vec::new(),
                args: vec![arg],
            },
        }
    }

    /// Converts a statement node.
    pub fn stmt(&self, node: Node) -> Stmt {
        let depth = self.depth.get();
        if depth > MAX_DEPTH {
            self.truncated.borrow_mut().push(span_of(node));
            return Stmt::Other;
        }
        self.depth.set(depth + 1);
        let s = self.stmt_inner(node);
        self.depth.set(depth);
        s
    }

    fn stmt_inner(&self, node: Node) -> Stmt {
        let field = |name: &str| self.field(node, name);
        match node.kind() {
            // `#if C ... #else ... #endif` in a body: an `if` on a marker call (`#if`,
            // `#ifdef`, `#ifndef`) that lowering decides from the macros it knows.
            "preproc_if" | "preproc_elif" | "preproc_ifdef" | "preproc_elifdef" => Stmt::If {
                cond: self.preproc_marker(node),
                then: Box::new(Stmt::Block(self.stmts(node))),
                otherwise: field("alternative").map(|a| Box::new(self.stmt(a))),
            },
            "compound_statement" | "preproc_else" | "declaration_list" => {
                Stmt::Block(self.stmts(node))
            }
            "declaration" => Stmt::Decl(self.declaration(node)),
            // `enum { COLS = Ktraits::COLS };` in a body: each enumerator a constant local.
            "enum_specifier" => Stmt::Decl(
                field("body")
                    .map(|b| self.enumerators(b))
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(name, value)| VarDecl {
                        name: self.text(name).to_string(),
                        name_span: span_of(name),
                        ty: TypeName {
                            base: "int".to_string(),
                            pointers: 0,
                        },
                        extents: Vec::new(),
                        init: Some(value),
                        shared: false,
                        extern_: false,
                        is_const: true,
                        reference: false,
                        array_pointer: false,
                        enumerator: true,
                        span: span_of(name.parent().unwrap_or(name)),
                    })
                    .collect(),
            ),
            // `typedef int4 copy_t;` in a body: an alias per declarator, its `*`s kept.
            "type_definition" => {
                let base = field("type").map_or("", |t| self.text(t)).to_string();
                let aliases: Vec<Stmt> = node
                    .children_by_field_name("declarator", &mut node.walk())
                    .map(|d| {
                        let declarator = self.text(d);
                        Stmt::Alias {
                            name: declarator.trim_start_matches(['*', ' ']).trim().to_string(),
                            text: format!("{base}{}", "*".repeat(declarator.matches('*').count())),
                        }
                    })
                    .collect();
                Stmt::Block(aliases)
            }
            "alias_declaration" => match (field("name"), field("type")) {
                (Some(n), Some(t)) => Stmt::Alias {
                    name: self.text(n).to_string(),
                    text: self.text(t).to_string(),
                },
                _ => Stmt::Other,
            },
            "expression_statement" => {
                let e = node
                    .named_children(&mut node.walk())
                    .find(|c| c.kind() != "comment");
                if let Some(d) = e.and_then(|e| self.array_declarator(e, node)) {
                    return Stmt::Decl(vec![d]);
                }
                e.map_or(Stmt::Other, |e| self.with_macro_effects(self.expr(e)))
            }
            "if_statement" => {
                let cond = self.expr_of(field("condition"));
                let then = Box::new(field("consequence").map_or(Stmt::Other, |n| self.stmt(n)));
                let otherwise = field("alternative").map(|a| {
                    // `else_clause` wraps the statement in newer grammars.
                    let inner = if a.kind() == "else_clause" {
                        a.named_child(0)
                    } else {
                        Some(a)
                    };
                    Box::new(inner.map_or(Stmt::Other, |n| self.stmt(n)))
                });
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                }
            }
            "for_statement" => {
                let init = match field("initializer") {
                    Some(n) if n.kind() == "declaration" => vec![Stmt::Decl(self.declaration(n))],
                    Some(n) => vec![Stmt::Expr(self.expr(n))],
                    None => Vec::new(),
                };
                let cond = field("condition").map(|c| self.expr(c));
                let update = field("update")
                    .map(|u| flatten_comma(self.expr(u)))
                    .unwrap_or_default();
                let body = Box::new(field("body").map_or(Stmt::Other, |n| self.stmt(n)));
                Stmt::For {
                    init,
                    cond,
                    update,
                    body,
                    span: span_of(node),
                }
            }
            "while_statement" => Stmt::While {
                cond: self.expr_of(field("condition")),
                body: Box::new(field("body").map_or(Stmt::Other, |n| self.stmt(n))),
                do_while: false,
            },
            "do_statement" => Stmt::While {
                cond: self.expr_of(field("condition")),
                body: Box::new(field("body").map_or(Stmt::Other, |n| self.stmt(n))),
                do_while: true,
            },
            "return_statement" => Stmt::Return(node.named_child(0).map(|c| self.expr(c))),
            "break_statement" => Stmt::Break,
            "continue_statement" => Stmt::Continue,
            "switch_statement" => Stmt::Switch {
                cond: self.expr_of(field("condition")),
                body: Box::new(field("body").map_or(Stmt::Other, |n| self.stmt(n))),
            },
            "case_statement" | "labeled_statement" | "attributed_statement" => {
                // Statements after the label; the label itself is not modelled.
                let stmts: Vec<Stmt> = node
                    .named_children(&mut node.walk())
                    .filter(|c| {
                        !matches!(
                            c.kind(),
                            "statement_identifier" | "attribute_declaration" | "hlsl_attribute"
                        ) && field("value") != Some(*c)
                    })
                    .map(|c| self.stmt(c))
                    .collect();
                Stmt::Block(stmts)
            }
            _ if node.kind().ends_with("_expression") => Stmt::Expr(self.expr(node)),
            _ => Stmt::Other,
        }
    }

    /// The statements directly inside a block-like node, with the blanked macro
    /// statements between them ([`Stmt::Macro`]).
    pub fn stmts(&self, node: Node) -> Vec<Stmt> {
        let preproc = node.kind().starts_with("preproc");
        let alternative = preproc.then(|| self.field(node, "alternative")).flatten();
        let children: Vec<Node> = node
            .named_children(&mut node.walk())
            .filter(|c| {
                !matches!(
                    c.kind(),
                    "comment" | "preproc_call" | "preproc_def" | "preproc_function_def"
                )
            })
            .filter(|c| {
                !preproc || (self.field(node, "condition") != Some(*c) && alternative != Some(*c))
            })
            .filter(|c| c.kind() != "identifier" || !preproc)
            .collect();
        let mut out = Vec::with_capacity(children.len());
        let mut at = node.start_byte();
        for c in children {
            out.extend(self.take_blanked(at, c.start_byte()));
            let s = self.stmt(c);
            // A blanked statement inside `c` that no block of `c` took (an unbraced loop
            // body or branch, a `case`): not in its place, but before and after `c`, so
            // that what it assigns is unknown wherever it may have run.
            let inside = self.take_blanked(c.start_byte(), c.end_byte());
            out.extend(inside.iter().cloned());
            out.push(s);
            out.extend(inside.into_iter().map(|m| match m {
                Stmt::Macro(mut m) => {
                    // Its accesses are reported once, before.
                    m.spelled.mentions.clear();
                    Stmt::Macro(m)
                }
                other => other,
            }));
            at = c.end_byte();
        }
        let end = alternative.map_or(node.end_byte(), |a| a.start_byte());
        out.extend(self.take_blanked(at, end));
        out
    }

    /// The statement `e`, followed by a [`Stmt::Macro`] of what it may assign when it is
    /// a call of a function-like macro whose body assigns (`NEXT(i);`).
    fn with_macro_effects(&self, e: Expr) -> Stmt {
        let ExprKind::Call { callee, args, .. } = &e.kind else {
            return Stmt::Expr(e);
        };
        let Some((positions, free)) = self.macro_effects.get(callee) else {
            return Stmt::Expr(e);
        };
        let mut writes = free.clone();
        for a in positions.iter().filter_map(|&i| args.get(i)) {
            let mut root = a;
            while let ExprKind::Index(b, _)
            | ExprKind::Member(b, _)
            | ExprKind::Unary(_, b)
            | ExprKind::Cast(_, b) = &root.kind
            {
                root = b;
            }
            if let ExprKind::Ident(n) = &root.kind {
                writes.push(n.clone());
            }
        }
        let m = MacroStmt {
            spelled: crate::source::BlankedStatement {
                name: callee.clone(),
                span: e.span,
                assigns: Vec::new(),
                writes,
                mentions: Vec::new(),
            },
            followed: true,
        };
        Stmt::Block(vec![Stmt::Expr(e), Stmt::Macro(Box::new(m))])
    }

    /// The blanked statements in `start..end` that no block has taken, taken now.
    fn take_blanked(&self, start: usize, end: usize) -> Vec<Stmt> {
        if self.blanked.is_empty() {
            return Vec::new();
        }
        let first = self.blanked.partition_point(|b| b.span.start < start);
        let mut placed = self.placed.borrow_mut();
        let mut out = Vec::new();
        for (i, b) in self.blanked.iter().enumerate().skip(first) {
            if b.span.start >= end {
                break;
            }
            if b.span.end > end || placed.get(i).copied().unwrap_or(true) {
                continue;
            }
            placed[i] = true;
            out.push(Stmt::Macro(Box::new(MacroStmt {
                spelled: b.clone(),
                followed: false,
            })));
        }
        out
    }

    /// The qualifier words written before the type of a declaration.
    fn qualifier_words(&self, node: Node) -> Vec<&'a str> {
        let mut words = Vec::new();
        for c in node.children(&mut node.walk()) {
            match c.kind() {
                "storage_class_specifier"
                | "type_qualifier"
                | "qualifiers"
                | "attribute_specifier"
                | "ms_declspec_modifier" => {
                    words.extend(self.text(c).split_whitespace());
                }
                "__shared__" | "groupshared" | "static" | "extern" | "const" | "constexpr"
                | "volatile" => {
                    words.push(c.kind());
                }
                _ => {}
            }
        }
        words
    }

    /// The declarators of a `declaration` node.
    /// The type a declaration's `type` node names: a struct or union defined in place
    /// without a name (`__shared__ union { ... } temp;`) by the name the extraction
    /// registers its definition under ([`anonymous_type_name`]).
    pub fn type_of(&self, t: Node) -> TypeName {
        if matches!(
            t.kind(),
            "struct_specifier" | "union_specifier" | "class_specifier"
        ) && self.field(t, "name").is_none()
            && self.field(t, "body").is_some()
        {
            return TypeName {
                base: anonymous_type_name(t),
                pointers: 0,
            };
        }
        type_from_text(self.text(t))
    }

    pub fn declaration(&self, node: Node) -> Vec<VarDecl> {
        let words = self.qualifier_words(node);
        let mut ty = self
            .field(node, "type")
            .map(|t| self.type_of(t))
            .unwrap_or_default();
        // A macro qualifier (`FFX_GROUPSHARED float x[..]`) can be read as the type, with
        // the real type swallowed; recover it from the text.
        let mut shared = words
            .iter()
            .any(|w| w.contains("__shared__") || *w == "groupshared");
        if self.shared_macros.contains(&ty.base) {
            shared = true;
        }
        let extern_ = words.contains(&"extern");
        let is_const = words.iter().any(|w| *w == "const" || *w == "constexpr");
        let span = span_of(node);
        let mut out = Vec::new();
        let mut cursor = node.walk();
        for d in self.children(node, "declarator", &mut cursor) {
            let (inner, init) = if d.kind() == "init_declarator" {
                (self.field(d, "declarator"), self.field(d, "value"))
            } else {
                (Some(d), None)
            };
            let Some(inner) = inner else { continue };
            // `dim3 threads(TILE, ROWS);` parses as a function declaration when every
            // argument is an identifier: read it as a construction from those names.
            if inner.kind() == "function_declarator" && init.is_none() {
                if let (Some(name), Some(params)) = (
                    self.field(inner, "declarator"),
                    self.field(inner, "parameters"),
                ) {
                    let args: Option<Vec<Expr>> = params
                        .named_children(&mut params.walk())
                        .map(|p| {
                            let t = self.text(p).trim();
                            t.chars()
                                .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
                                .then(|| Expr {
                                    span: span_of(p),
                                    kind: ExprKind::Ident(t.to_string()),
                                })
                        })
                        .collect();
                    if let Some(args) = args {
                        out.push(VarDecl {
                            name: self.text(name).to_string(),
                            name_span: span_of(name),
                            ty: ty.clone(),
                            extents: Vec::new(),
                            init: Some(Expr {
                                span: span_of(params),
                                kind: ExprKind::Call {
                                    callee: ty.base.clone(),
                                    template_args: Vec::new(),
                                    args,
                                },
                            }),
                            shared,
                            extern_,
                            is_const,
                            reference: false,
                            array_pointer: false,
                            enumerator: false,
                            span,
                        });
                    }
                }
                continue;
            }
            let mut extents = Vec::new();
            let mut pointers = 0;
            let mut reference = false;
            let mut cur = inner;
            loop {
                match cur.kind() {
                    "array_declarator" => {
                        extents.push(self.field(cur, "size").map(|s| self.expr(s)));
                        match self.field(cur, "declarator") {
                            Some(n) => cur = n,
                            None => break,
                        }
                    }
                    "pointer_declarator" | "reference_declarator" | "parenthesized_declarator" => {
                        if cur.kind() == "pointer_declarator" {
                            pointers += 1;
                        }
                        reference |= cur.kind() == "reference_declarator";
                        match self
                            .field(cur, "declarator")
                            .or_else(|| cur.named_child(cur.named_child_count().saturating_sub(1)))
                        {
                            Some(n) if n != cur => cur = n,
                            _ => break,
                        }
                    }
                    _ => break,
                }
            }
            // Declarators nest outermost-last: `a[2][3]` is array(array(a, 2), 3).
            extents.reverse();
            let name = self.text(cur).to_string();
            if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let init = init.map(|v| {
                if matches!(v.kind(), "argument_list" | "initializer_list") {
                    // `dim3 block(32, 8)` and `dim3 block{32, 8}` construct from their arguments.
                    let args = v
                        .named_children(&mut v.walk())
                        .map(|c| self.expr(c))
                        .collect();
                    Expr {
                        span: span_of(v),
                        kind: ExprKind::Call {
                            callee: ty.base.clone(),
                            template_args: Vec::new(),
                            args,
                        },
                    }
                } else {
                    self.expr(v)
                }
            });
            out.push(VarDecl {
                name,
                name_span: span_of(cur),
                ty: TypeName {
                    base: ty.base.clone(),
                    pointers: ty.pointers + pointers,
                },
                extents,
                init,
                shared,
                extern_,
                is_const,
                reference,
                array_pointer: false,
                enumerator: false,
                span,
            });
        }
        ty.pointers = 0;
        out
    }

    /// The enumerators of an enum's body, each name with its value: the value written,
    /// else one more than the enumerator before it (0 for the first).
    pub fn enumerators<'t>(&self, body: Node<'t>) -> Vec<(Node<'t>, Expr)> {
        let mut next = Expr {
            span: span_of(body),
            kind: ExprKind::Int(0),
        };
        let mut out = Vec::new();
        for e in body.named_children(&mut body.walk()) {
            if e.kind() != "enumerator" {
                continue;
            }
            let Some(name) = self.field(e, "name") else {
                continue;
            };
            let value = self
                .field(e, "value")
                .map_or(next.clone(), |v| self.expr(v));
            next = Expr {
                span: value.span,
                kind: ExprKind::Binary(
                    BinaryOp::Add,
                    Box::new(value.clone()),
                    Box::new(Expr {
                        span: value.span,
                        kind: ExprKind::Int(1),
                    }),
                ),
            };
            out.push((name, value));
        }
        out
    }

    /// The parameters of a `parameter_list`.
    pub fn params(&self, list: Node) -> Vec<Param> {
        let mut out = Vec::new();
        for p in list.named_children(&mut list.walk()) {
            if !matches!(
                p.kind(),
                "parameter_declaration" | "optional_parameter_declaration"
            ) {
                continue;
            }
            let ty = self
                .field(p, "type")
                .map(|t| type_from_text(self.text(t)))
                .unwrap_or_default();
            let mut semantic = None;
            for c in p.named_children(&mut p.walk()) {
                if c.kind() == "semantics" {
                    semantic = c.named_child(0).map(|s| self.text(s).to_ascii_uppercase());
                }
            }
            let mut array_or_ref = false;
            let mut writes_back = p
                .children(&mut p.walk())
                .any(|c| !c.is_named() && matches!(self.text(c), "out" | "inout"));
            let mut pointers = 0;
            let mut reference = false;
            let mut cur = self.field(p, "declarator");
            let mut name = String::new();
            while let Some(d) = cur {
                match d.kind() {
                    "identifier" => {
                        name = self.text(d).to_string();
                        break;
                    }
                    "array_declarator" => array_or_ref = true,
                    "reference_declarator" => {
                        array_or_ref = true;
                        writes_back = true;
                        reference = true;
                    }
                    "pointer_declarator" => pointers += 1,
                    _ => {}
                }
                cur = self
                    .field(d, "declarator")
                    .or_else(|| {
                        d.named_children(&mut d.walk())
                            .find(|c| c.kind() == "identifier")
                    })
                    .or_else(|| {
                        d.named_children(&mut d.walk())
                            .find(|c| c.kind().ends_with("declarator"))
                    });
            }
            out.push(Param {
                name,
                ty: TypeName {
                    base: ty.base,
                    pointers: ty.pointers + pointers,
                },
                semantic,
                array_or_ref,
                writes_back,
                reference,
                default: self.field(p, "default_value").map(|d| self.expr(d)),
            });
        }
        out
    }
}

fn flatten_comma(e: Expr) -> Vec<Expr> {
    match e.kind {
        ExprKind::Comma(items) => items.into_iter().flat_map(flatten_comma).collect(),
        _ => vec![e],
    }
}

/// Parses a type as written (`const float4 *`, `unsigned int`) into base name and pointer depth.
/// The name under which a struct or union defined without a name is registered: the
/// kind and where its definition starts (line and column), unique in the file and
/// readable in messages.
pub fn anonymous_type_name(t: Node) -> String {
    let kind = if t.kind() == "union_specifier" {
        "union"
    } else {
        "struct"
    };
    let at = t.start_position();
    format!("anonymous {kind} on line {}:{}", at.row + 1, at.column + 1)
}

pub fn type_from_text(text: &str) -> TypeName {
    // Most types are one ASCII word (`float`, `uint`): no pointer, nothing to split.
    if text
        .bytes()
        .all(|b| is_unsplit_ascii(b) && b != b'*' && b != b'&')
    {
        return TypeName {
            base: if is_dropped_type_word(text) {
                String::new()
            } else {
                text.to_string()
            },
            pointers: 0,
        };
    }
    // A `*` or `&` inside template arguments (`Tile<2 * N>`, `Pair<int*, A && B>`) is
    // part of the base name, not a declarator of this type.
    let mut depth = 0u32;
    let mut pointers = 0;
    let cleaned: String = text
        .chars()
        .map(|c| match c {
            '<' | '(' => {
                depth += 1;
                c
            }
            '>' | ')' => {
                depth = depth.saturating_sub(1);
                c
            }
            '*' | '&' if depth == 0 => {
                pointers += u32::from(c == '*');
                ' '
            }
            _ => c,
        })
        .collect();
    let words: Vec<&str> = cleaned
        .split_whitespace()
        .filter(|w| !is_dropped_type_word(w))
        .collect();
    TypeName {
        base: words.join(" "),
        pointers,
    }
}

/// Qualifiers and keywords that are no part of a type's base name.
fn is_dropped_type_word(w: &str) -> bool {
    matches!(
        w,
        "const"
            | "volatile"
            | "__restrict__"
            | "restrict"
            | "struct"
            | "typename"
            | "__shared__"
            | "groupshared"
            | "static"
            | "constexpr"
            | "inline"
            | "__forceinline__"
            | "precise"
            | "row_major"
            | "column_major"
    )
}

/// An ASCII byte that `str::split_whitespace` does not split at (unlike
/// `u8::is_ascii_whitespace`, it splits at the vertical tab).
fn is_unsplit_ascii(b: u8) -> bool {
    b.is_ascii() && !char::from(b).is_whitespace()
}

/// `text` with its whitespace removed (`a :: b` is `a::b`); most names have none, and
/// are copied as they are.
fn without_whitespace(text: &str) -> String {
    if text.bytes().all(is_unsplit_ascii) {
        text.to_string()
    } else {
        text.split_whitespace().collect()
    }
}

/// Parses a C integer literal (decimal, hex, octal, binary, with suffixes).
pub fn parse_int(text: &str) -> Option<i64> {
    // Digit separators (`1'000`) are rare: copy only to drop them.
    let t: std::borrow::Cow<str> = if text.contains('\'') {
        text.replace('\'', "").into()
    } else {
        text.into()
    };
    let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if t.contains(['.', 'e', 'E', 'f', 'F']) && !t.starts_with("0x") && !t.starts_with("0X") {
        return None;
    }
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return i64::from_str_radix(h, 16)
            .ok()
            .or_else(|| u64::from_str_radix(h, 16).ok().map(|v| v as i64));
    }
    if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        return i64::from_str_radix(b, 2).ok();
    }
    if t.len() > 1 && t.starts_with('0') {
        return i64::from_str_radix(&t[1..], 8).ok();
    }
    t.parse().ok()
}

/// The exact value of a decimal floating-point literal (`1.5f`, `.25`, `3.`, `2e-1h`) as a
/// reduced fraction `(numerator, denominator)`, when both fit; `None` for hexadecimal
/// floats and values too long or too large to hold exactly.
pub fn parse_decimal(text: &str) -> Option<(i64, i64)> {
    let t = text.trim_end_matches(['f', 'F', 'h', 'H', 'l', 'L']);
    if t.starts_with("0x") || t.starts_with("0X") {
        return None;
    }
    let (mantissa, exponent) = match t.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (t, 0),
    };
    let (whole, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    let digits = format!("{whole}{frac}");
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut num: i128 = digits.parse().ok()?;
    let scale = exponent - i32::try_from(frac.len()).ok()?;
    let mut den: i128 = 1;
    if !(-18..=18).contains(&scale) {
        return None;
    }
    let pow = 10i128.pow(scale.unsigned_abs());
    if scale >= 0 {
        num = num.checked_mul(pow)?;
    } else {
        den = pow;
    }
    let g = gcd_i128(num, den);
    let (num, den) = (num / g, den / g);
    Some((i64::try_from(num).ok()?, i64::try_from(den).ok()?))
}

fn gcd_i128(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_literals_are_exact_fractions() {
        assert_eq!(parse_decimal("1.5f"), Some((3, 2)));
        assert_eq!(parse_decimal("0.5"), Some((1, 2)));
        assert_eq!(parse_decimal(".25"), Some((1, 4)));
        assert_eq!(parse_decimal("3."), Some((3, 1)));
        assert_eq!(parse_decimal("2e-1h"), Some((1, 5)));
        assert_eq!(parse_decimal("1e3"), Some((1000, 1)));
        assert_eq!(parse_decimal("0x1p3"), None);
        assert_eq!(parse_decimal("1e40"), None);
    }

    #[test]
    fn integer_literals() {
        assert_eq!(parse_int("32"), Some(32));
        assert_eq!(parse_int("0x1F"), Some(31));
        assert_eq!(parse_int("16u"), Some(16));
        assert_eq!(parse_int("010"), Some(8));
        assert_eq!(parse_int("1.0f"), None);
        assert_eq!(parse_int("0"), Some(0));
    }

    #[test]
    fn type_names() {
        assert_eq!(
            type_from_text("const float4 *"),
            TypeName {
                base: "float4".into(),
                pointers: 1
            }
        );
        assert_eq!(type_from_text("unsigned int").base, "unsigned int");
    }

    /// A product or a pointer type among template arguments is part of the name.
    #[test]
    fn template_arguments_keep_their_stars() {
        assert_eq!(
            type_from_text("typename Scan<int, 32 * STAGES>::TempStorage"),
            TypeName {
                base: "Scan<int, 32 * STAGES>::TempStorage".into(),
                pointers: 0
            }
        );
        assert_eq!(
            type_from_text("const Pair<float*, (A && B)> *"),
            TypeName {
                base: "Pair<float*, (A && B)>".into(),
                pointers: 1
            }
        );
    }
}
