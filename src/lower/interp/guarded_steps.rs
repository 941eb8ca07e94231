//! Inductions stepped under a condition that, once false for a lane, stays false: the
//! wavelet's `if (tid < num_threads) { ...; num_threads >>= 1; idata0 <<= 1; }`, where
//! a lane that fails the test changes nothing the test reads, so it fails it in every
//! later iteration too.
//!
//! For such an `if` at the top of a loop's body (no `continue` before it), whose
//! condition reads only values the loop leaves alone and variables that its `then`
//! branch alone steps, once, unconditionally, a lane running that branch in iteration
//! `k` ran it in every earlier iteration: each variable holds its closed form `x(k)`
//! there. The lane runs it in iteration `k` exactly when `c(x(j))` held for every
//! `j <= k`; when the condition is one comparison whose sides are monotone in `k` the
//! other way round (one side a single induction, the other fixed; or both stepped by an
//! amount, so that their difference is linear), `c(x(j))` changes at most once, and that
//! conjunction is `c(x(0)) && c(x(k))`, which becomes the branch's guard. Before the
//! `if`, after it and after the loop the variables stay unknown (lanes that stopped hold
//! other values).

use super::{Interp, Value};
use crate::diag::Span;
use crate::extract::ast::{BinaryOp, Expr, ExprKind, Stmt, UnaryOp};
use crate::lower::assigned_memo::AssignedMemo;
use crate::lower::fold::fold;
use crate::lower::induction::{body_step, closed_form, continues, step_value, StepValue};
use crate::lower::steps::assigned_names;
use crate::model::ir::{BinOp, Expr as Ir};

/// The inductions of one such `if`, while its loop is interpreted.
#[derive(Clone)]
pub(super) struct GuardedSteps {
    /// The span of the `if`'s condition.
    cond: Span,
    /// Each variable's value on entry to the loop, and in the branch in iteration `k`.
    values: Vec<(String, Ir, Ir)>,
}

/// The reason the variables are unknown outside the branch.
const OUTSIDE: &str = "it changes across loop iterations";

impl Interp<'_> {
    /// Finds the inductions of `names` that an `if` of `body` steps under a condition
    /// that stays false once false, over the loop's counter `k`, and registers them for
    /// [`Self::guarded_condition`]. Returns their names (unknown outside that branch).
    /// What the body's statements assign comes from `memo`, the loop's.
    pub(super) fn guarded_steps<'s>(
        &mut self,
        body: &'s Stmt,
        update: &[Expr],
        names: &[String],
        k: usize,
        memo: &mut AssignedMemo<'s>,
    ) -> Vec<String> {
        let stmts: &[Stmt] = match body {
            Stmt::Block(b) => b,
            s => std::slice::from_ref(s),
        };
        // Everything the loop changes, the body's own variables included.
        let updates = Stmt::Block(update.iter().cloned().map(Stmt::Expr).collect());
        let in_updates = assigned_names(&updates);
        let mut changed = memo.of(body).to_vec();
        changed.extend(in_updates.iter().cloned());
        body.walk_decls(&mut |d| changed.push(d.name.clone()));
        let mut found = Vec::new();
        for (i, s) in stmts.iter().enumerate() {
            if stmts[..i].iter().any(continues) {
                break;
            }
            let Stmt::If {
                cond,
                then,
                otherwise: None,
            } = s
            else {
                continue;
            };
            let elsewhere = |n: &String, memo: &mut AssignedMemo<'s>| {
                stmts
                    .iter()
                    .enumerate()
                    .any(|(j, t)| j != i && memo.of(t).contains(n))
                    || in_updates.contains(n)
            };
            let mut steps: Vec<(String, Ir, StepValue)> = Vec::new();
            for n in names {
                if !memo.of(then).contains(n) || elsewhere(n, memo) {
                    continue;
                }
                let Some(step) = body_step(then, n, memo) else {
                    continue;
                };
                if step_mentions(&step, &changed) {
                    continue;
                }
                let Some(Value::Int(x0)) = self.lookup(n).cloned() else {
                    continue;
                };
                let Some(s) = step_value(&step, &mut |e| self.eval_step(e)) else {
                    continue;
                };
                if let StepValue::Add(a) = &s {
                    let mut reads_k = false;
                    a.each_var(&mut |v| reads_k |= v == k);
                    if reads_k {
                        continue;
                    }
                }
                steps.push((n.clone(), x0, s));
            }
            if steps.is_empty() || !self.stays_false(cond, &steps, &changed) {
                continue;
            }
            let values = steps
                .into_iter()
                .map(|(n, x0, s)| {
                    let xk = closed_form(x0.clone(), &s, Ir::Var(k));
                    found.push(n.clone());
                    (n, x0, xk)
                })
                .collect();
            self.flow.guarded.push(GuardedSteps {
                cond: cond.span,
                values,
            });
        }
        found
    }

    /// The guard of an `if` whose condition [`Self::guarded_steps`] registered:
    /// `c(x(0)) && c(x(k))`, the variables bound to `x(k)` for its branch; with the names
    /// to forget after the `if`.
    pub(super) fn guarded_condition(&mut self, cond: &Expr) -> Option<(Value, Vec<String>)> {
        let g = self
            .flow
            .guarded
            .iter()
            .rev()
            .find(|g| g.cond == cond.span)?
            .clone();
        let names: Vec<String> = g.values.iter().map(|(n, _, _)| n.clone()).collect();
        for (n, x0, _) in &g.values {
            self.assign(n, Value::Int(x0.clone()));
        }
        let first = self.eval(cond);
        for (n, _, xk) in &g.values {
            self.assign(n, Value::Int(xk.clone()));
        }
        let now = self.eval(cond);
        if let (Value::Int(a), Value::Int(b)) = (first, now) {
            Some((Value::Int(fold(BinOp::LogicAnd, a, b)), names))
        } else {
            self.invalidate(&names, OUTSIDE);
            None
        }
    }

    /// True when `cond` changes at most once over the iterations, as the module says:
    /// it reads no memory and calls nothing, and is one comparison between a fixed side
    /// and a single induction, or between two inductions stepped by an amount.
    fn stays_false(
        &self,
        cond: &Expr,
        steps: &[(String, Ir, StepValue)],
        changed: &[String],
    ) -> bool {
        let induction = |e: &Expr| match &e.kind {
            ExprKind::Ident(n) => steps.iter().find(|(m, _, _)| m == n).map(|(_, _, s)| s),
            _ => None,
        };
        let varies = |e: &Expr| {
            let mut found = false;
            e.walk(&mut |x| {
                if let ExprKind::Ident(n) = &x.kind {
                    found |= steps.iter().any(|(m, _, _)| m == n);
                }
            });
            found
        };
        let ExprKind::Binary(
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge,
            left,
            right,
        ) = &cond.kind
        else {
            return false;
        };
        if !self.fixed_reads(left, steps, changed) || !self.fixed_reads(right, steps, changed) {
            return false;
        }
        match (varies(left), varies(right)) {
            (false, false) => true,
            (true, false) => induction(left).is_some_and(|s| !matches!(s, StepValue::Wrapped(..))),
            (false, true) => induction(right).is_some_and(|s| !matches!(s, StepValue::Wrapped(..))),
            (true, true) => matches!(
                (induction(left), induction(right)),
                (Some(StepValue::Add(_)), Some(StepValue::Add(_)))
            ),
        }
    }

    /// True when `e` reads only the inductions of `steps`, literals, thread and block
    /// coordinates, and integer variables the loop does not change: no memory, no call.
    fn fixed_reads(&self, e: &Expr, steps: &[(String, Ir, StepValue)], changed: &[String]) -> bool {
        let fixed = |n: &str| {
            !changed
                .iter()
                .any(|c| c == n || c.strip_prefix(n).is_some_and(|r| r.starts_with('.')))
        };
        let mut ok = true;
        e.walk(&mut |x| match &x.kind {
            ExprKind::Int(_) | ExprKind::Binary(..) | ExprKind::Cast(..) => {}
            ExprKind::Unary(op, _) => ok &= !matches!(op, UnaryOp::Deref | UnaryOp::AddrOf),
            ExprKind::Member(b, _) => {
                ok &= matches!(&b.kind, ExprKind::Ident(n)
                    if ["threadIdx", "blockIdx", "blockDim", "gridDim"].contains(&n.as_str())
                        || (fixed(n) && matches!(self.lookup(n), Some(Value::Vector(_)))));
            }
            ExprKind::Ident(n) => {
                ok &= steps.iter().any(|(m, _, _)| m == n)
                    || ["threadIdx", "blockIdx", "blockDim", "gridDim"].contains(&n.as_str())
                    || (fixed(n)
                        && matches!(self.lookup(n), Some(Value::Int(_) | Value::Vector(_))));
            }
            _ => ok = false,
        });
        ok
    }
}

/// True when the amount of `step` names one of `changed`.
fn step_mentions(step: &crate::lower::induction::BodyStep, changed: &[String]) -> bool {
    use crate::lower::induction::BodyStep;
    use crate::lower::steps::Step;
    let operands: Vec<&Expr> = match step {
        BodyStep::Plain(Step::Add(x) | Step::Sub(x) | Step::Shl(x) | Step::Shr(x)) => vec![x],
        BodyStep::Wrapped { add, modulus, .. } => vec![add, modulus],
        // A nested loop's amounts were checked against its outer body only.
        BodyStep::Nested(_) => return true,
    };
    operands.iter().any(|e| {
        let mut found = false;
        e.walk(&mut |x| {
            if let ExprKind::Ident(n) = &x.kind {
                found |= changed.contains(n);
            }
        });
        found
    })
}
