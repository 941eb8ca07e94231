//! Loop-carried state that is the same in every lane of a warp: a variable the loop
//! changes by a step bankcheck cannot evaluate (`j0 += nwarps*warp_size`), or by
//! arithmetic on other such values, need not be known to decide an access, only
//! warp-uniform. Each such variable is bound, for the body of the loop, to a fresh
//! warp-uniform unknown (its value at the start of an iteration), as a kernel parameter
//! is, and the analyses decide over all its values.
//!
//! That binding holds when the value is the same in every lane still in the loop at the
//! start of every iteration: it is uniform on entry, and every iteration leaves it uniform
//! given uniform state. The second part is checked on the interpreted body: the value the
//! body and the update leave must read no thread coordinate (an assignment under a
//! lane-dependent `if` merges into a `select` on that condition, one under an unknown
//! condition is unknown). What that check cannot see is ruled out before: an assignment
//! after a `continue` of the loop (the lanes that continued keep the old value), inside
//! a nested loop, a `switch` or an operand evaluated only sometimes (`?:`, `&&`, `||`),
//! from memory, or in a body with a statement bankcheck does not read. A lane that leaves
//! the loop (`break`, `return`, the condition) no longer takes part, so it does not
//! matter. When the check fails, the body is interpreted again with the failing
//! variables unknown, as they were before, from a snapshot of the interpreter.

use super::{Interp, Value, Vars};
use crate::extract::ast::{BinaryOp, Expr, ExprKind, Stmt, UnaryOp, VarDecl};
use crate::lower::induction::continues;
use crate::lower::steps::assigned_names;

/// What interpreting a loop body changes that a second interpretation must start without.
pub(super) struct Snapshot {
    sites: usize,
    scopes: Vec<Vars>,
    objects: std::collections::HashMap<String, (String, Vec<String>)>,
    guards: usize,
    opaque: u32,
    unfollowed: usize,
    data_ifs: u32,
    returned: bool,
    pp_assumptions: usize,
    returns: usize,
    returns_opaque: bool,
    inline_calls_left: u32,
    inline_work: u32,
}

impl Interp<'_> {
    /// Of `names` (variables the loop assigns that nothing else follows), those that may be
    /// carried as warp-uniform values: uniform on entry, and assigned only where the check
    /// after the body sees every lane's value.
    pub(super) fn uniform_candidates(
        &self,
        names: &[String],
        body: &Stmt,
        update: &[Expr],
    ) -> Vec<String> {
        if has_unread_statement(body) {
            return Vec::new();
        }
        let stmts: &[Stmt] = match body {
            Stmt::Block(b) => b,
            s => std::slice::from_ref(s),
        };
        // The first statement that may `continue` the loop: nothing at or after it may
        // assign the state.
        let first_continue = stmts.iter().position(continues).unwrap_or(stmts.len());
        let updates_pure = update.iter().all(super::loop_state::pure_expr);
        let candidates: Vec<String> = names
            .iter()
            .filter(|n| !n.contains('.') && !n.contains('*'))
            .filter(|n| matches!(self.lookup(n), Some(Value::Int(v)) if v.var_mask() & 0b111 == 0))
            .filter(|n| {
                let in_update = update.iter().any(|u| expr_assigns(u, n));
                (!in_update || updates_pure)
                    && stmts.iter().enumerate().all(|(i, s)| {
                        !assigned_names(s).contains(n) || (i < first_continue && plain_stmt(s, n))
                    })
            })
            .cloned()
            .collect();
        // What the assignments read must be uniform too: a step read from an unknown
        // value fails the check after the body, which then interprets it again. Ruling
        // out what is sure to fail saves that second interpretation.
        let mut locals = Vec::new();
        body.walk_decls(&mut |d| locals.push(d));
        let reads = Reads {
            interp: self,
            candidates: &candidates,
            changed: names,
            locals: &locals,
        };
        candidates
            .iter()
            .filter(|n| {
                let mut sources = Vec::new();
                for s in stmts {
                    stmt_sources(s, n, &mut sources);
                }
                for u in update {
                    expr_sources(u, n, &mut sources);
                }
                sources.iter().all(|e| reads.uniform(e, 0))
            })
            .cloned()
            .collect()
    }

    /// Binds each of `names` to a fresh warp-uniform unknown: its value at the start of
    /// an iteration.
    pub(super) fn bind_uniform_state(&mut self, names: &[String]) {
        for n in names {
            let u = self.fresh_uniform(&format!("{n} (iteration start)"));
            self.assign(n, Value::Int(u));
        }
    }

    /// After the loop's body: runs the update (when it assigns one of `names`; it is pure,
    /// see [`Self::uniform_candidates`]) and returns those of `names` whose value is not
    /// warp-uniform.
    pub(super) fn non_uniform_state(&mut self, names: &[String], update: &[Expr]) -> Vec<String> {
        if update
            .iter()
            .any(|u| names.iter().any(|n| expr_assigns(u, n)))
        {
            for u in update {
                self.eval(u);
            }
        }
        names
            .iter()
            .filter(|n| !matches!(self.lookup(n), Some(Value::Int(v)) if v.var_mask() & 0b111 == 0))
            .cloned()
            .collect()
    }

    /// The interpreter's state before a loop body, to interpret it again.
    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot {
            sites: self.sites.len(),
            scopes: self.scopes.clone(),
            objects: self.objects.clone(),
            guards: self.flow.guards.len(),
            opaque: self.flow.opaque,
            unfollowed: self.flow.unfollowed.len(),
            data_ifs: self.flow.data_ifs,
            returned: self.flow.returned,
            pp_assumptions: self.pp_assumptions.len(),
            returns: self.calls.returns.entries.len(),
            returns_opaque: self.calls.returns.opaque,
            inline_calls_left: self.budget.inline_calls_left,
            inline_work: self.budget.inline_work,
        }
    }

    /// Forgets what was interpreted since `s` was taken. Variables created since stay
    /// (values cached elsewhere may name them) and are simply not used again; the steps
    /// spent stay spent, while the limits on inlining count the interpretation kept.
    pub(super) fn restore(&mut self, s: &Snapshot) {
        self.sites.truncate(s.sites);
        self.scopes.clone_from(&s.scopes);
        self.objects.clone_from(&s.objects);
        self.flow.guards.truncate(s.guards);
        self.flow.opaque = s.opaque;
        self.flow.unfollowed.truncate(s.unfollowed);
        self.flow.data_ifs = s.data_ifs;
        self.flow.returned = s.returned;
        self.pp_assumptions.truncate(s.pp_assumptions);
        self.calls.returns.entries.truncate(s.returns);
        self.calls.returns.opaque = s.returns_opaque;
        self.budget.inline_calls_left = s.inline_calls_left;
        self.budget.inline_work = s.inline_work;
    }
}

/// What the assignments of carried state read, judged before the body is interpreted.
struct Reads<'a, 'b> {
    interp: &'a Interp<'b>,
    candidates: &'a [String],
    /// Everything the loop assigns: unknown in the body unless carried.
    changed: &'a [String],
    /// The body's declarations, whose initialisers a read of a local is judged by.
    locals: &'a [&'a VarDecl],
}

/// Calls whose value is uniform when their arguments are.
const UNIFORM_CALLS: [&str; 9] = [
    "min", "max", "umin", "umax", "imin", "imax", "__mul24", "__umul24", "abs",
];

impl Reads<'_, '_> {
    /// True when `e` may be warp-uniform given uniform carried state: it reads no memory,
    /// calls only arithmetic, and reads no thread coordinate nor a value that is not
    /// uniform on entry or that the loop changes otherwise.
    fn uniform(&self, e: &Expr, depth: u32) -> bool {
        let mut ok = true;
        e.walk(&mut |x| match &x.kind {
            ExprKind::Index(..) | ExprKind::Unary(UnaryOp::Deref, _) | ExprKind::Asm(_) => {
                ok = false;
            }
            ExprKind::Call { callee, .. } => {
                ok &= callee.starts_with('#') || UNIFORM_CALLS.contains(&callee.as_str());
            }
            ExprKind::Ident(n) => ok &= self.uniform_name(n, depth),
            _ => {}
        });
        ok
    }

    fn uniform_name(&self, n: &str, depth: u32) -> bool {
        if self.candidates.iter().any(|c| c == n) {
            return true;
        }
        if n == "threadIdx" || self.changed.iter().any(|c| c == n) {
            return false;
        }
        let inits: Vec<&Expr> = self
            .locals
            .iter()
            .filter(|d| d.name == n)
            .filter_map(|d| d.init.as_ref())
            .collect();
        if self.locals.iter().any(|d| d.name == n) {
            return depth < 4 && inits.iter().all(|e| self.uniform(e, depth + 1));
        }
        match self.interp.lookup(n) {
            Some(Value::Int(v)) => v.var_mask() & 0b111 == 0,
            Some(_) => false,
            // A constant, a macro, an enumerator, a function's name.
            None => true,
        }
    }
}

/// Pushes what the assignments of `name` in `s` read: their right-hand sides and the
/// conditions of the `if`s around them.
fn stmt_sources<'a>(s: &'a Stmt, name: &str, out: &mut Vec<&'a Expr>) {
    match s {
        Stmt::Expr(e) | Stmt::Return(Some(e)) => expr_sources(e, name, out),
        Stmt::Decl(ds) => {
            for e in ds.iter().filter_map(|d| d.init.as_ref()) {
                expr_sources(e, name, out);
            }
        }
        Stmt::Block(b) => b.iter().for_each(|s| stmt_sources(s, name, out)),
        Stmt::If {
            cond,
            then,
            otherwise,
        } => {
            let before = out.len();
            expr_sources(cond, name, out);
            stmt_sources(then, name, out);
            if let Some(o) = otherwise {
                stmt_sources(o, name, out);
            }
            if out.len() > before {
                out.push(cond);
            }
        }
        _ => {}
    }
}

fn expr_sources<'a>(e: &'a Expr, name: &str, out: &mut Vec<&'a Expr>) {
    if let ExprKind::Assign(_, l, r) = &e.kind {
        if names(l, name) {
            out.push(r);
        }
    }
    for_children(e, &mut |c| expr_sources(c, name, out));
}

/// True when `s` holds a statement bankcheck does not read (a `goto`, a label's jump, a
/// subtree too deep): it might assign anything.
pub(super) fn has_unread_statement(s: &Stmt) -> bool {
    match s {
        // A blanked macro statement is not interpreted, only what it may assign is known.
        Stmt::Other | Stmt::Macro(_) => true,
        Stmt::Block(b) => b.iter().any(has_unread_statement),
        Stmt::If {
            then, otherwise, ..
        } => has_unread_statement(then) || otherwise.as_deref().is_some_and(has_unread_statement),
        Stmt::For { init, body, .. } => {
            init.iter().any(has_unread_statement) || has_unread_statement(body)
        }
        Stmt::While { body, .. } | Stmt::Switch { body, .. } => has_unread_statement(body),
        _ => false,
    }
}

/// True when statement `s` assigns `name` only where every lane reaching `s` evaluates
/// the assignment, with a value read from no memory: not in a nested loop or `switch`,
/// not in an operand of `?:`, `&&`, `||`; under an `if` (whose merge the check reads).
fn plain_stmt(s: &Stmt, name: &str) -> bool {
    match s {
        Stmt::Expr(e) | Stmt::Return(Some(e)) => plain_expr(e, name),
        Stmt::Decl(ds) => ds
            .iter()
            .all(|d| d.init.as_ref().is_none_or(|e| plain_expr(e, name))),
        Stmt::Block(b) => b.iter().all(|s| plain_stmt(s, name)),
        Stmt::If {
            cond,
            then,
            otherwise,
        } => {
            plain_expr(cond, name)
                && plain_stmt(then, name)
                && otherwise.as_deref().is_none_or(|o| plain_stmt(o, name))
        }
        Stmt::For { .. } | Stmt::While { .. } | Stmt::Switch { .. } | Stmt::Macro(_) => {
            !assigned_names(s).iter().any(|n| n == name)
        }
        _ => true,
    }
}

/// True when every assignment of `name` in `e` is evaluated whenever `e` is, from a value
/// that loads nothing.
fn plain_expr(e: &Expr, name: &str) -> bool {
    match &e.kind {
        ExprKind::Cond(c, a, b) => {
            plain_expr(c, name) && !expr_assigns(a, name) && !expr_assigns(b, name)
        }
        ExprKind::Binary(BinaryOp::LogicAnd | BinaryOp::LogicOr, a, b) => {
            plain_expr(a, name) && !expr_assigns(b, name)
        }
        ExprKind::Assign(_, l, r) if names(l, name) => !loads(r) && plain_expr(r, name),
        ExprKind::Asm(a) => !a.outputs.iter().any(|o| expr_assigns(&o.value, name)),
        _ => {
            let mut ok = true;
            for_children(e, &mut |c| ok &= plain_expr(c, name));
            ok
        }
    }
}

/// True when `e` assigns or increments `name`.
fn expr_assigns(e: &Expr, name: &str) -> bool {
    let mut found = false;
    e.walk(&mut |x| match &x.kind {
        ExprKind::Assign(_, l, _) | ExprKind::IncDec(l, _) => found |= names(l, name),
        ExprKind::Asm(a) => found |= a.outputs.iter().any(|o| names(&o.value, name)),
        _ => {}
    });
    found
}

/// True when `e` is the plain variable `name`.
fn names(e: &Expr, name: &str) -> bool {
    matches!(&e.kind, ExprKind::Ident(n) if n == name)
}

/// True when `e` reads memory (a subscript or a dereference).
fn loads(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        found |= matches!(
            x.kind,
            ExprKind::Index(..) | ExprKind::Unary(UnaryOp::Deref, _)
        );
    });
    found
}

/// Calls `f` on each direct operand of `e`.
fn for_children<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    match &e.kind {
        ExprKind::Member(b, _)
        | ExprKind::Unary(_, b)
        | ExprKind::Cast(_, b)
        | ExprKind::SizeofExpr(b)
        | ExprKind::IncDec(b, _) => f(b),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
            f(a);
            f(b);
        }
        ExprKind::Cond(a, b, c) => {
            f(a);
            f(b);
            f(c);
        }
        ExprKind::Call { args, .. } | ExprKind::Comma(args) => {
            for a in args {
                f(a);
            }
        }
        ExprKind::Asm(a) => {
            for o in a.operands() {
                f(&o.value);
            }
        }
        _ => {}
    }
}
