//! A small owned syntax tree for the C-like subset bankcheck reasons about.
//!
//! Extraction converts tree-sitter's concrete trees (CUDA and HLSL alike) into this
//! form, so that lowering never sees a tree-sitter node and both languages share one
//! interpreter. Constructs bankcheck does not model become `Other`/`Opaque` with a
//! span, never dropped silently.

use crate::diag::Span;

/// Unary operators of the source language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Plus,
    BitNot,
    Not,
    AddrOf,
    Deref,
}

/// Binary operators of the source language (C precedence already resolved).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LogicAnd,
    LogicOr,
}

impl BinaryOp {
    pub fn from_token(tok: &str) -> Option<BinaryOp> {
        Some(match tok {
            "+" => BinaryOp::Add,
            "-" => BinaryOp::Sub,
            "*" => BinaryOp::Mul,
            "/" => BinaryOp::Div,
            "%" => BinaryOp::Rem,
            "<<" => BinaryOp::Shl,
            ">>" => BinaryOp::Shr,
            "&" => BinaryOp::And,
            "|" => BinaryOp::Or,
            "^" => BinaryOp::Xor,
            "<" => BinaryOp::Lt,
            "<=" => BinaryOp::Le,
            ">" => BinaryOp::Gt,
            ">=" => BinaryOp::Ge,
            "==" => BinaryOp::Eq,
            "!=" => BinaryOp::Ne,
            "&&" => BinaryOp::LogicAnd,
            "||" => BinaryOp::LogicOr,
            _ => return None,
        })
    }
}

/// An expression, with the span of the whole expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub span: Span,
    pub kind: ExprKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Int(i64),
    /// A floating-point literal, with its exact value as a fraction `(numerator,
    /// denominator)` when it is a decimal that fits (`1.5f` is `(3, 2)`).
    Float(Option<(i64, i64)>),
    Bool(bool),
    /// An identifier, possibly qualified (`cub::LaneId` keeps its full text).
    Ident(String),
    /// `base.field` or `base->field`.
    Member(Box<Expr>, String),
    /// `base[index]`.
    Index(Box<Expr>, Box<Expr>),
    /// A call; `callee` is the callee's source text (`atomicAdd`, `min`, `reinterpret_cast<float4*>`),
    /// `template_args` the text of explicit template arguments.
    Call {
        callee: String,
        template_args: Vec<String>,
        args: Vec<Expr>,
    },
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `lhs = rhs` (`op == None`) or `lhs op= rhs`.
    Assign(Option<BinaryOp>, Box<Expr>, Box<Expr>),
    /// `++x`, `x++`, `--x`, `x--` (delta +1 / -1).
    IncDec(Box<Expr>, i64),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(T) e`, `static_cast<T>(e)`, `reinterpret_cast<T>(e)`, `T(e)` for known types.
    Cast(TypeName, Box<Expr>),
    SizeofType(TypeName),
    SizeofExpr(Box<Expr>),
    Comma(Vec<Expr>),
    /// An inline `asm("template" : outputs : inputs)` (GNU form, CUDA's inline PTX).
    Asm(Box<Asm>),
    /// Anything else; kept so that its presence can be reported.
    Opaque,
}

/// An inline assembly statement: its template (string literals joined, escapes decoded)
/// and its operands, numbered `%0`, `%1`, ... outputs first, as the compiler numbers them.
#[derive(Debug, Clone, PartialEq)]
pub struct Asm {
    pub template: String,
    pub outputs: Vec<AsmOperand>,
    pub inputs: Vec<AsmOperand>,
}

/// One operand of an inline assembly statement: `[name] "constraint"(value)`.
#[derive(Debug, Clone, PartialEq)]
pub struct AsmOperand {
    pub name: Option<String>,
    pub constraint: String,
    pub value: Expr,
}

impl Asm {
    /// The operands in the compiler's numbering: outputs, then inputs.
    pub fn operands(&self) -> impl Iterator<Item = &AsmOperand> {
        self.outputs.iter().chain(&self.inputs)
    }
}

/// A type as written: the base name and the pointer depth.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TypeName {
    /// The type's name without qualifiers (`float`, `float4`, `unsigned int`, `MyStruct`).
    pub base: String,
    pub pointers: u32,
}

/// One declarator of a declaration statement.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    pub name: String,
    pub name_span: Span,
    pub ty: TypeName,
    /// Array extents, outermost first; `None` for `[]`.
    pub extents: Vec<Option<Expr>>,
    pub init: Option<Expr>,
    pub shared: bool,
    pub extern_: bool,
    pub is_const: bool,
    /// Declared as a reference (`T& r = s[i];`): it names the place it is bound to,
    /// and binding it reads nothing.
    pub reference: bool,
    /// Declared as a pointer to an array (`float (*row)[33] = tile;`): `extents` are
    /// those of the array it points to.
    pub array_pointer: bool,
    /// An enumerator of an enum declared in a body (`enum { COLS = Ktraits::COLS };`):
    /// a compile-time constant, as a `constexpr` local is.
    pub enumerator: bool,
    /// The span of the whole declaration statement.
    pub span: Span,
}

/// A statement.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    Decl(Vec<VarDecl>),
    Expr(Expr),
    Block(Vec<Stmt>),
    If {
        cond: Expr,
        then: Box<Stmt>,
        otherwise: Option<Box<Stmt>>,
    },
    For {
        init: Vec<Stmt>,
        cond: Option<Expr>,
        update: Vec<Expr>,
        body: Box<Stmt>,
        span: Span,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
        do_while: bool,
    },
    Return(Option<Expr>),
    Break,
    Continue,
    Switch {
        cond: Expr,
        body: Box<Stmt>,
    },
    /// `using name = type;` in a body: the type's text (CuTe layouts are read from it).
    Alias {
        name: String,
        text: String,
    },
    /// A statement spelled by a macro use that the front end blanked (`SWAP(a, b)` alone
    /// on its line): not interpreted, but what it may assign and reach is known.
    Macro(Box<MacroStmt>),
    Other,
}

/// A blanked macro statement ([`Stmt::Macro`]).
#[derive(Debug, Clone, PartialEq)]
pub struct MacroStmt {
    /// The use as the front end read it: its macro, its span, and the names it may
    /// assign, write through (or hand to a call) and mention.
    pub spelled: crate::source::BlankedStatement,
    /// Interpreted apart: the call statement `NAME(args);` before it, whose macro's body
    /// the lowering reads. It only tells the loop analyses what that call assigns.
    pub followed: bool,
}

/// A function parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: TypeName,
    /// HLSL semantic (`SV_GroupThreadID`), upper-cased.
    pub semantic: Option<String>,
    /// Array parameter (`float s[]`) or reference parameter.
    pub array_or_ref: bool,
    /// Written back to the caller's argument: HLSL `out`/`inout`, a C++ reference.
    pub writes_back: bool,
    /// A C++ reference (`T& s`): it names the caller's argument, so a place in shared
    /// memory passed to it is reached, not copied (HLSL `inout` copies in and out).
    pub reference: bool,
    /// The default argument (`int stride = 1`).
    pub default: Option<Expr>,
}

/// A template parameter with its default, when it has one.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateParam {
    pub name: String,
    pub default: Option<Expr>,
    pub is_type: bool,
    /// The type of a non-type parameter (`int`, `size_t`, `bool`), when written plainly
    /// (not a pack).
    pub ty: Option<TypeName>,
}

/// A function definition.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    pub name: String,
    pub name_span: Span,
    pub span: Span,
    pub params: Vec<Param>,
    pub template_params: Vec<TemplateParam>,
    pub body: Vec<Stmt>,
    /// CUDA `__global__`, or HLSL with `[numthreads]`.
    pub is_kernel: bool,
    /// HLSL `[numthreads(x, y, z)]` arguments.
    pub numthreads: Option<Vec<Expr>>,
    /// HLSL `[WaveSize(n)]`.
    pub wave_size: Option<Expr>,
    /// CUDA `__launch_bounds__(n, ...)` first argument.
    pub launch_bounds: Option<Expr>,
    /// For a function of another file (a header's helper analysed through an includer's
    /// kernels): that file's text, which its spans index into.
    pub foreign_text: Option<std::sync::Arc<str>>,
    /// Macros the enclosing `#if`/`#ifdef` branches need defined (`true`) or undefined.
    pub requires: Vec<crate::extract::conditions::Requirement>,
    /// The struct or class a member function is defined in (`operator()` included):
    /// it is reached only through calls on an object or the type (`s.load(i)`,
    /// `Block<4>::clear(p)`, `f(x)` on an object with `operator()`).
    pub owner: Option<String>,
    /// A lambda bound to a local (`auto put = [&](int i) { ... };`), named after it: its
    /// body sees the variables of the function that calls it.
    pub captures: bool,
    /// A member function defined in a conditional group of its struct's body (`#if
    /// defined(AMD_MFMA_AVAILABLE)` ... `#else` ...): the conditions of its branch, those
    /// around the struct included. The lowering inlines the definition whose branch the
    /// known macros select (`lower/interp/constant_branches.rs`).
    pub branch: Option<Branch>,
}

/// The preprocessor branch a definition is in: the conditions of the enclosing
/// branches, as marker calls (`convert::preproc_marker`), each with the value it needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Branch {
    pub tests: Vec<(Expr, bool)>,
}

/// A kernel launch `name<<<grid, block, ...>>>(...)` found anywhere in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Launch {
    pub kernel: String,
    pub template_args: Vec<String>,
    pub block: Expr,
    /// The function the launch is in, for resolving `dim3 block(...)` locals.
    pub in_function: Option<usize>,
    pub span: Span,
    /// The launch's arguments, for the kernel parameters bound to values its host
    /// function builds (a CuTe `TiledCopy` or layout).
    pub args: Vec<Expr>,
}

/// A struct's data members in declaration order, with what its layout depends on.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StructDef {
    pub fields: Vec<Field>,
    /// The template parameters of a struct template (`template <class E> struct Pack`).
    pub template_params: Vec<TemplateParam>,
    /// The argument of `alignas(...)` on the struct (`struct alignas(16) Pack`): a
    /// constant expression or a type name.
    pub align: Option<Expr>,
    /// The struct has base classes or virtual functions: its members do not start at
    /// offset 0 of a C layout, and bankcheck does not lay it out.
    pub opaque: bool,
    /// A `union`: every member starts at offset 0, and it is as large as its largest.
    pub union: bool,
    /// Shared arrays declared inside the struct's member functions, in order
    /// (`extern __shared__ int __smem[]` in the samples' `SharedMemory<T>` wrapper): the
    /// name a pointer the struct hands out is reported under.
    pub shared_arrays: Vec<String>,
}

/// One data member of a struct.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Empty for a struct or union member without a name, whose members are named as
    /// the enclosing struct's.
    pub name: String,
    /// The member's type, with the pointers of its declarator.
    pub ty: TypeName,
    /// The extents of a member array, outermost first, as written (`E v[size]`): constant
    /// expressions in the struct's scope. `None`: an extent left out (`float data[]`).
    pub extents: Vec<Option<Expr>>,
}

impl Expr {
    /// Calls `f` on this expression and on every expression inside it, outermost first.
    pub fn walk(&self, f: &mut impl FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Member(b, _)
            | ExprKind::Unary(_, b)
            | ExprKind::IncDec(b, _)
            | ExprKind::Cast(_, b)
            | ExprKind::SizeofExpr(b) => b.walk(f),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
                a.walk(f);
                b.walk(f);
            }
            ExprKind::Cond(a, b, c) => {
                a.walk(f);
                b.walk(f);
                c.walk(f);
            }
            ExprKind::Call { args, .. } | ExprKind::Comma(args) => {
                for a in args {
                    a.walk(f);
                }
            }
            ExprKind::Asm(asm) => {
                for o in asm.operands() {
                    o.value.walk(f);
                }
            }
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::Ident(_)
            | ExprKind::SizeofType(_)
            | ExprKind::Opaque => {}
        }
    }
}

impl Function {
    /// The function's source text: from `text`, the file being lowered, unless the
    /// function belongs to another file.
    pub fn source<'a>(&'a self, text: &'a str) -> &'a str {
        self.foreign_text
            .as_deref()
            .unwrap_or(text)
            .get(self.span.start..self.span.end)
            .unwrap_or("")
    }
}

impl Stmt {
    /// Calls `f` on every declarator of this statement and the statements nested in it.
    pub fn walk_decls<'a>(&'a self, f: &mut impl FnMut(&'a VarDecl)) {
        match self {
            Stmt::Decl(ds) => ds.iter().for_each(&mut *f),
            Stmt::Block(b) => b.iter().for_each(|s| s.walk_decls(f)),
            Stmt::If {
                then, otherwise, ..
            } => {
                then.walk_decls(f);
                if let Some(o) = otherwise {
                    o.walk_decls(f);
                }
            }
            Stmt::For { init, body, .. } => {
                for s in init {
                    s.walk_decls(f);
                }
                body.walk_decls(f);
            }
            Stmt::While { body, .. } | Stmt::Switch { body, .. } => body.walk_decls(f),
            Stmt::Expr(_)
            | Stmt::Return(_)
            | Stmt::Break
            | Stmt::Continue
            | Stmt::Alias { .. }
            | Stmt::Macro(_)
            | Stmt::Other => {}
        }
    }

    /// Calls [`Expr::walk`] on every expression of this statement and the statements
    /// nested in it (initialisers and extents of declarations included).
    pub fn walk_exprs(&self, f: &mut impl FnMut(&Expr)) {
        match self {
            Stmt::Decl(ds) => {
                for d in ds {
                    for e in d.extents.iter().flatten().chain(d.init.as_ref()) {
                        e.walk(f);
                    }
                }
            }
            Stmt::Expr(e) | Stmt::Return(Some(e)) => e.walk(f),
            Stmt::Block(b) => {
                for s in b {
                    s.walk_exprs(f);
                }
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                cond.walk(f);
                then.walk_exprs(f);
                if let Some(o) = otherwise {
                    o.walk_exprs(f);
                }
            }
            Stmt::For {
                init,
                cond,
                update,
                body,
                ..
            } => {
                for s in init {
                    s.walk_exprs(f);
                }
                for e in cond.iter().chain(update) {
                    e.walk(f);
                }
                body.walk_exprs(f);
            }
            Stmt::While { cond, body, .. } | Stmt::Switch { cond, body } => {
                cond.walk(f);
                body.walk_exprs(f);
            }
            Stmt::Return(None)
            | Stmt::Break
            | Stmt::Continue
            | Stmt::Alias { .. }
            | Stmt::Macro(_)
            | Stmt::Other => {}
        }
    }
}
