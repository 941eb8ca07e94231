//! Locals the same in every lane that bankcheck cannot evaluate: a `constexpr` local is a
//! compile-time constant, and a `const` local whose initialiser reads only warp-uniform
//! values (through arithmetic and helpers that read no thread coordinate and no memory)
//! holds one value in every lane that declares it. When its value is not followed
//! (`constexpr int nwarps = config(type, J).nthreads / warp_size;`), it is still not a
//! per-lane value: it becomes a fresh warp-uniform unknown, as a kernel parameter is,
//! and the analyses decide over all its values (or name those that reach the worst case).
//!
//! An enumerator of an enum declared in the body is a compile-time constant too.
//!
//! A `const` local's initialiser is judged by its text, before anything is assumed: a
//! thread coordinate, a lane id, a subscript, a dereference, `asm`, a member of anything
//! but a uniform vector, a local or parameter whose value is not a uniform integer, a
//! name that is no constant bankcheck knows (a global variable may be written), or a
//! call of anything but integer arithmetic or a helper that passes the same test on its
//! whole body (no pointer or reference parameter, no statement the front end blanked)
//! makes it per-lane as before.

use super::{Interp, Value};
use crate::extract::ast::{Expr, ExprKind, Function, Stmt, TypeName, UnaryOp, VarDecl};
use crate::model::ir::{Expr as Ir, VarInfo, VarKind};

/// Built-in calls whose value is the same in every lane when their arguments are.
const ARITHMETIC: [&str; 12] = [
    "min", "max", "umin", "umax", "imin", "imax", "llmin", "llmax", "__mul24", "__umul24", "abs",
    "sizeof",
];

/// Built-in variables the same in every lane of a block.
const UNIFORM_BUILTINS: [&str; 5] = ["blockIdx", "blockDim", "gridDim", "clusterIdx", "warpSize"];

/// How deep helpers called from an initialiser are read.
const MAX_HELPER_DEPTH: u32 = 4;

impl Interp<'_> {
    /// The value of the scalar local `d` whose initialiser evaluated to `v`: a fresh
    /// warp-uniform unknown when `v` is not followed and `d` is the same in every lane
    /// (see the module's documentation), else `v`.
    pub(super) fn uniform_local(&mut self, d: &VarDecl, v: Value) -> Value {
        if let (Value::Int(e), 0) = (&v, d.ty.pointers) {
            if self.is_constexpr(d) && !self.names.template_vars.is_empty() {
                if let Some(IntegerType(range)) = self.integer_range(&d.ty) {
                    let e = e.clone();
                    if let Some(opaque) = self.opaque_template_local(d, &e, range) {
                        return opaque;
                    }
                }
            }
        }
        if !matches!(v, Value::Unknown(_) | Value::Data(_)) || d.ty.pointers > 0 {
            return v;
        }
        let Some(IntegerType(range)) = self.integer_range(&d.ty) else {
            return v;
        };
        let Some(init) = &d.init else { return v };
        let same = self.is_constexpr(d) || (d.is_const && self.lane_free(init, &[], 0));
        if !same {
            return v;
        }
        let i = self.vars.len();
        self.vars.push(VarInfo {
            name: d.name.clone(),
            kind: VarKind::Uniform { range },
            loop_value: None,
        });
        Value::Int(Ir::Var(i))
    }

    /// True when `d` is declared `constexpr` (read from the text before its name, since
    /// the syntax keeps `const` and `constexpr` alike) or is an enumerator.
    fn is_constexpr(&self, d: &VarDecl) -> bool {
        if d.enumerator {
            return true;
        }
        let head = self
            .text
            .get(d.span.start..d.name_span.start.max(d.span.start))
            .unwrap_or("");
        head.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| w == "constexpr")
    }

    /// The range of values of integer type `ty`, `None` when `ty` is not an integer type
    /// bankcheck knows (a type parameter bound to nothing, `auto`, a floating-point type,
    /// a struct).
    pub(super) fn integer_range(&self, ty: &TypeName) -> Option<IntegerType> {
        let mut base = ty.base.clone();
        for _ in 0..4 {
            if let Some(t) = self.type_args.get(&base).or(self.syn.typedefs.get(&base)) {
                if t.pointers > 0 {
                    return None;
                }
                base.clone_from(&t.base);
            }
        }
        let words: Vec<&str> = base.split_whitespace().collect();
        let known = |w: &str| {
            matches!(
                w,
                "int"
                    | "unsigned"
                    | "signed"
                    | "long"
                    | "short"
                    | "char"
                    | "bool"
                    | "uint"
                    | "size_t"
                    | "ptrdiff_t"
                    | "int8_t"
                    | "int16_t"
                    | "int32_t"
                    | "int64_t"
                    | "uint8_t"
                    | "uint16_t"
                    | "uint32_t"
                    | "uint64_t"
                    | "std::size_t"
            )
        };
        if words.is_empty() || !words.iter().all(|w| known(w)) {
            return None;
        }
        if words == ["bool"] {
            return Some(IntegerType(Some((0, 1))));
        }
        let unsigned = words.iter().any(|w| *w == "unsigned" || w.starts_with('u'));
        let wide = words.iter().filter(|w| **w == "long").count() > 0
            || words.iter().any(|w| w.contains("64") || *w == "size_t");
        Some(IntegerType(
            (unsigned && !wide).then_some((0, i64::from(u32::MAX))),
        ))
    }

    /// True when `e` is the same in every lane that evaluates it, judged by its text:
    /// `locals` are the names a helper being read declares (its own values, computed from
    /// what its arguments were judged to be), `depth` the helpers being read.
    fn lane_free(&mut self, e: &Expr, locals: &[String], depth: u32) -> bool {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::SizeofType(_) => {
                true
            }
            ExprKind::Ident(n) => self.uniform_name(n, locals),
            ExprKind::Member(b, _) => match &b.kind {
                ExprKind::Ident(n) if UNIFORM_BUILTINS.contains(&n.as_str()) => true,
                ExprKind::Ident(n) if !locals.contains(n) => matches!(
                    self.lookup(n),
                    Some(Value::Vector(c)) if c.iter().all(uniform_int)
                ),
                _ => false,
            },
            ExprKind::Unary(UnaryOp::Deref | UnaryOp::AddrOf, _) => false,
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) | ExprKind::SizeofExpr(a) => {
                self.lane_free(a, locals, depth)
            }
            ExprKind::Binary(_, a, b) => {
                self.lane_free(a, locals, depth) && self.lane_free(b, locals, depth)
            }
            ExprKind::Cond(c, a, b) => {
                self.lane_free(c, locals, depth)
                    && self.lane_free(a, locals, depth)
                    && self.lane_free(b, locals, depth)
            }
            // Assignments only inside a helper, to its own locals.
            ExprKind::Assign(_, l, r) => {
                matches!(&l.kind, ExprKind::Ident(n) if locals.contains(n))
                    && self.lane_free(r, locals, depth)
            }
            ExprKind::IncDec(l, _) => matches!(&l.kind, ExprKind::Ident(n) if locals.contains(n)),
            ExprKind::Comma(es) => es.iter().all(|a| self.lane_free(a, locals, depth)),
            ExprKind::Call { callee, args, .. } => {
                args.iter().all(|a| self.lane_free(a, locals, depth))
                    && (callee.starts_with('#')
                        || ARITHMETIC.contains(&callee.as_str())
                        || self.lane_free_helper(callee, args.len(), depth))
            }
            ExprKind::Index(..) | ExprKind::Asm(_) | ExprKind::Opaque => false,
        }
    }

    /// True when name `n` holds the same value in every lane: a helper's own local, a
    /// uniform integer, a uniform built-in, or a constant bankcheck knows.
    fn uniform_name(&mut self, n: &str, locals: &[String]) -> bool {
        if locals.iter().any(|l| l == n) {
            return true;
        }
        if n == "threadIdx" {
            return false;
        }
        if let Some(v) = self.lookup(n) {
            return uniform_int(v);
        }
        UNIFORM_BUILTINS.contains(&n)
            || matches!(n, "true" | "false" | "nullptr" | "NULL")
            || self.find_constant(n).is_some()
            || self
                .syn
                .static_members
                .values()
                .any(|m| m.contains_key(n.rsplit("::").next().unwrap_or(n)) && n.contains("::"))
    }

    /// True when every definition of helper `callee` taking `arity` arguments is the
    /// same in every lane given arguments that are: no pointer or reference parameter,
    /// and a body every statement of which passes [`Self::lane_free`] with the helper's
    /// parameters and locals as its own values.
    fn lane_free_helper(&mut self, callee: &str, arity: usize, depth: u32) -> bool {
        if depth >= MAX_HELPER_DEPTH {
            return false;
        }
        let syn = self.syn;
        let name = callee.split('<').next().unwrap_or(callee);
        let defs: Vec<&Function> = syn
            .functions
            .iter()
            .filter(|f| f.name == name && !f.is_kernel && f.owner.is_none() && !f.captures)
            .filter(|f| f.params.len() >= arity)
            .collect();
        if defs.is_empty() || defs.iter().any(|f| f.body.is_empty()) {
            return false;
        }
        defs.iter().all(|f| {
            // A statement the front end blanked may read anything.
            if self.blanked_statement(f).is_some()
                || f.params.iter().any(|p| p.ty.pointers > 0 || p.array_or_ref)
            {
                return false;
            }
            let mut locals: Vec<String> = f.params.iter().map(|p| p.name.clone()).collect();
            let mut plain = true;
            for s in &f.body {
                s.walk_decls(&mut |d| {
                    plain &= !d.shared && d.ty.pointers == 0 && d.extents.is_empty();
                    locals.push(d.name.clone());
                });
            }
            plain
                && f.body
                    .iter()
                    .all(|s| self.lane_free_stmt(s, &locals, depth + 1))
        })
    }

    fn lane_free_stmt(&mut self, s: &Stmt, locals: &[String], depth: u32) -> bool {
        match s {
            Stmt::Decl(ds) => ds.iter().all(|d| {
                d.init
                    .as_ref()
                    .is_none_or(|e| self.lane_free(e, locals, depth))
            }),
            Stmt::Expr(e) | Stmt::Return(Some(e)) => self.lane_free(e, locals, depth),
            Stmt::Block(b) => b.iter().all(|s| self.lane_free_stmt(s, locals, depth)),
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                self.lane_free(cond, locals, depth)
                    && self.lane_free_stmt(then, locals, depth)
                    && otherwise
                        .as_deref()
                        .is_none_or(|o| self.lane_free_stmt(o, locals, depth))
            }
            // Every condition passes the same test: every lane takes the same path.
            Stmt::For {
                init,
                cond,
                update,
                body,
                ..
            } => {
                init.iter().all(|s| self.lane_free_stmt(s, locals, depth))
                    && cond
                        .as_ref()
                        .is_none_or(|c| self.lane_free(c, locals, depth))
                    && update.iter().all(|u| self.lane_free(u, locals, depth))
                    && self.lane_free_stmt(body, locals, depth)
            }
            Stmt::While { cond, body, .. } => {
                self.lane_free(cond, locals, depth) && self.lane_free_stmt(body, locals, depth)
            }
            Stmt::Return(None) | Stmt::Break | Stmt::Continue | Stmt::Alias { .. } => true,
            // A switch's labels are not kept apart from its statements.
            Stmt::Switch { .. } | Stmt::Macro(_) | Stmt::Other => false,
        }
    }
}

/// An integer type: the range of its values, `None` for any.
pub(super) struct IntegerType(pub(super) Option<(i64, i64)>);

/// True when `v` is an integer (or a vector of integers) that reads no thread coordinate.
fn uniform_int(v: &Value) -> bool {
    match v {
        Value::Int(i) => i.var_mask() & 0b111 == 0,
        Value::Vector(c) => c.iter().all(uniform_int),
        _ => false,
    }
}
