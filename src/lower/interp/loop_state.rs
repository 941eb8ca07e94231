//! Loop-carried state that cycles through a few values: ping-pong buffers
//! (`pout = 1 - pout`, `src ^= 1`), ring-buffer heads (`head = (head + 1) % N`),
//! pipeline stages. Starting from constants and updated by straight-line arithmetic at
//! the top of the loop body, such variables run through a short sequence of values that
//! repeats: iteration `k` starts in state `k` until the cycle begins, then in the
//! cycle's state `(k - start) % period`. Each variable becomes that function of the
//! loop's counter, so its values stay tied to the iteration they occur in.

use super::{fold, int, Interp, Value, Vars};
use crate::extract::ast::{Expr, ExprKind, Stmt, UnaryOp};
use crate::lower::steps::assigned_names;
use crate::model::ir::{BinOp, Expr as Ir};

/// Most states followed: a longer sequence is left unknown.
const MAX_STATES: usize = 16;

impl Interp<'_> {
    /// Of `names` (variables the loop `body` assigns that no closed form follows), those
    /// that form a finite cycle of states: bound to their value in iteration `k` of the
    /// loop's counter `k`. The others are left alone.
    pub(super) fn follow_loop_state(
        &mut self,
        names: &[String],
        body: &Stmt,
        k: usize,
    ) -> Vec<String> {
        let entry: Vec<(String, i64)> = names
            .iter()
            .filter_map(|n| match self.lookup(n) {
                Some(Value::Int(v)) => Some((n.clone(), v.as_const()?)),
                _ => None,
            })
            .collect();
        if entry.is_empty() {
            return Vec::new();
        }
        let stmts: &[Stmt] = match body {
            Stmt::Block(b) => b,
            s => std::slice::from_ref(s),
        };
        let state_names: Vec<&str> = entry.iter().map(|(n, _)| n.as_str()).collect();
        // Every assignment of the state at the top level of the body, in order, and every
        // iteration runs them all (a `continue` may skip them; a `break` ends the loop).
        if !stmts.iter().all(|s| top_level_update(s, &state_names))
            || crate::lower::induction::continues(body)
        {
            return Vec::new();
        }
        let mut states: Vec<Vec<i64>> = vec![entry.iter().map(|(_, v)| *v).collect()];
        let start = loop {
            let Some(next) =
                self.step_state(stmts, &state_names, states.last().expect("one state"))
            else {
                return Vec::new();
            };
            if let Some(at) = states.iter().position(|s| *s == next) {
                break at;
            }
            if states.len() == MAX_STATES {
                return Vec::new();
            }
            states.push(next);
        };
        let period = (states.len() - start) as i64;
        // The state iteration `k` starts in.
        let kv = Ir::Var(k);
        let cycled = |from: i64| {
            fold(
                BinOp::Add,
                int(from),
                fold(
                    BinOp::Rem,
                    fold(BinOp::Sub, kv.clone(), int(from)),
                    int(period),
                ),
            )
        };
        let index = if start == 0 {
            cycled(0)
        } else {
            Ir::Select(
                Box::new(fold(BinOp::Lt, kv.clone(), int(start as i64))),
                Box::new(kv.clone()),
                Box::new(cycled(start as i64)),
            )
        };
        for (j, name) in state_names.iter().enumerate() {
            let value = states.iter().enumerate().rev().skip(1).fold(
                int(states[states.len() - 1][j]),
                |rest, (i, s)| {
                    if matches!(rest, Ir::Const(c) if c == s[j]) {
                        rest
                    } else {
                        Ir::Select(
                            Box::new(fold(BinOp::Eq, index.clone(), int(i as i64))),
                            Box::new(int(s[j])),
                            Box::new(rest),
                        )
                    }
                },
            );
            self.assign(name, Value::Int(value));
        }
        state_names.iter().map(|n| (*n).to_string()).collect()
    }

    /// The state after one pass of `stmts` from `state`, evaluated in a scope of its own
    /// with the body's temporaries; `None` when an update is not a constant or reads a
    /// variable the body assigns that is neither state nor one of its temporaries.
    fn step_state(&mut self, stmts: &[Stmt], names: &[&str], state: &[i64]) -> Option<Vec<i64>> {
        let assigned: Vec<String> = stmts.iter().flat_map(assigned_names).collect();
        let mut locals: Vec<String> = names.iter().map(|n| (*n).to_string()).collect();
        self.scopes.push(Vars::default());
        for (n, v) in names.iter().zip(state) {
            self.bind(n, Value::Int(int(*v)));
        }
        let mut ok = true;
        // Names the body assigns that the pass does not follow: reading one is unknown.
        let unfollowed = |e: &Expr, locals: &[String]| -> bool {
            let mut bad = false;
            e.walk(&mut |x| {
                if let ExprKind::Ident(n) = &x.kind {
                    bad |= assigned.contains(n) && !locals.contains(n);
                }
            });
            bad
        };
        for s in stmts {
            match s {
                Stmt::Decl(ds) => {
                    for d in ds {
                        let v = match &d.init {
                            Some(init) if pure(init) && !unfollowed(init, &locals) => {
                                self.eval(init)
                            }
                            _ => Value::Unknown("not followed".into()),
                        };
                        self.bind(&d.name, v);
                        locals.push(d.name.clone());
                    }
                }
                Stmt::Expr(e) if pure_update(e) => {
                    let (ExprKind::Assign(_, target, _) | ExprKind::IncDec(target, _)) = &e.kind
                    else {
                        continue;
                    };
                    let ExprKind::Ident(t) = &target.kind else {
                        continue;
                    };
                    if !locals.contains(t) {
                        continue;
                    }
                    if unfollowed(e, &locals) {
                        ok = false;
                        break;
                    }
                    self.eval(e);
                }
                _ => {}
            }
        }
        let next: Option<Vec<i64>> = names
            .iter()
            .map(|n| match self.lookup(n) {
                Some(Value::Int(v)) => v.as_const(),
                _ => None,
            })
            .collect();
        self.scopes.pop();
        next.filter(|_| ok)
    }
}

/// True when `s` assigns none of `names`, or does so as one straight-line update of
/// arithmetic on variables and constants (`x = 1 - x`, `x ^= 1`, `++x`).
fn top_level_update(s: &Stmt, names: &[&str]) -> bool {
    let assigns_state = assigned_names(s)
        .iter()
        .any(|n| names.contains(&n.as_str()));
    if !assigns_state {
        return true;
    }
    match s {
        Stmt::Expr(e) => pure_update(e),
        Stmt::Decl(ds) => ds.iter().all(|d| d.init.as_ref().is_none_or(pure)),
        _ => false,
    }
}

/// A loop update that records no access and calls nothing: an assignment or increment
/// of a plain variable by arithmetic, or arithmetic alone.
pub(super) fn pure_expr(e: &Expr) -> bool {
    pure_update(e) || pure(e)
}

/// An assignment or increment of a plain variable by arithmetic.
fn pure_update(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Assign(_, lhs, rhs) => matches!(lhs.kind, ExprKind::Ident(_)) && pure(rhs),
        ExprKind::IncDec(x, _) => matches!(x.kind, ExprKind::Ident(_)),
        _ => false,
    }
}

/// Arithmetic on names and constants: evaluating it records no access and calls nothing.
fn pure(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Ident(_) | ExprKind::SizeofType(_) => true,
        ExprKind::Unary(op, a) => !matches!(op, UnaryOp::Deref | UnaryOp::AddrOf) && pure(a),
        ExprKind::Binary(_, a, b) => pure(a) && pure(b),
        ExprKind::Cond(c, a, b) => pure(c) && pure(a) && pure(b),
        ExprKind::Cast(_, a) => pure(a),
        _ => false,
    }
}
