//! Variables a loop body steps once per iteration (besides the loop's own variable).
//!
//! A variable updated by exactly one unconditional statement directly in the body
//! (`x += c`, `x -= c`, `x <<= c`, `x >>= c`, `x *= 2^c`, `x /= 2^c`), by a step that the
//! loop does not change, with no `continue` of the loop before that statement, holds
//! `x0 (op) step * k` at the top of iteration `k`: the scan idiom's `offset <<= 1` next
//! to `d >>= 1`. The statement itself is interpreted as written, so the value after it
//! within the body is right too. Updates under a condition (binary searches) are not
//! inductions and stay unknown.

use super::assigned_memo::AssignedMemo;
use super::steps::{step_of, Step};
use crate::extract::ast::{BinaryOp, Expr, ExprKind, Stmt};
use crate::model::ir::{BinOp, Expr as Ir};

/// How a body induction steps: as a loop update does, or `x = (x + c) & m` (a position
/// that wraps around a buffer whose size is a power of two).
pub(super) enum BodyStep {
    Plain(Step),
    Wrapped {
        add: Expr,
        op: BinaryOp,
        modulus: Expr,
    },
    /// A nested loop that steps the variable once per iteration of its own
    /// (`for (j = a; j < b; j += c) w = f[idx++];`) and runs the same number of
    /// iterations every time: one step of the outer loop is `trips` of the inner.
    Nested(Box<NestedLoop>),
}

/// A nested counted loop `for (j = start; j cmp bound; j += by)` whose body steps the
/// variable by `inner`.
pub(super) struct NestedLoop {
    inner: BodyStep,
    start: Expr,
    cmp: BinaryOp,
    bound: Expr,
    by: Step,
    /// The inner loop variable is unsigned: a negative start or bound wraps.
    unsigned: bool,
}

/// The step of `name` when it is an induction of the loop whose body is `body`; what the
/// statements assign is taken from `memo`, shared by the loop's variables.
pub(super) fn body_step<'s>(
    body: &'s Stmt,
    name: &str,
    memo: &mut AssignedMemo<'s>,
) -> Option<BodyStep> {
    let stmts: &[Stmt] = match body {
        Stmt::Block(b) => b,
        other => std::slice::from_ref(other),
    };
    let changed = memo.of(body);
    let mut found = None;
    let mut continued = false;
    for s in stmts {
        if let Stmt::Expr(e) = s {
            let step = step_of(e)
                .map(|(n, step)| (n, BodyStep::Plain(step)))
                .or_else(|| wrapped_step(e));
            if let Some((n, step)) = step {
                if n == name {
                    if found.is_some() || continued {
                        return None;
                    }
                    // The step must be the same in every iteration.
                    let operands: Vec<&Expr> = match &step {
                        BodyStep::Plain(
                            Step::Add(x) | Step::Sub(x) | Step::Shl(x) | Step::Shr(x),
                        ) => {
                            vec![x]
                        }
                        BodyStep::Wrapped { add, modulus, .. } => vec![add, modulus],
                        BodyStep::Nested(_) => Vec::new(),
                    };
                    if operands.iter().any(|x| mentions_any(x, &changed)) {
                        return None;
                    }
                    found = Some(step);
                    continue;
                }
            }
        }
        if let Some(nested) = nested_step(s, name, &changed, memo) {
            if found.is_some() || continued {
                return None;
            }
            found = Some(BodyStep::Nested(Box::new(nested)));
            continue;
        }
        if let Some(d) = lone_increment(s, name) {
            if found.is_some() || continued {
                return None;
            }
            let one = Expr {
                span: crate::diag::Span::default(),
                kind: ExprKind::Int(1),
            };
            found = Some(BodyStep::Plain(if d > 0 {
                Step::Add(one)
            } else {
                Step::Sub(one)
            }));
            continue;
        }
        if memo.of(s).iter().any(|n| n == name) {
            return None;
        }
        continued |= continues(s);
    }
    found
}

/// The nested loop `s` when it is a counted loop that steps `name` once per iteration
/// of its own and nothing of it reads what the outer body `changed`: its start, bound and
/// step are the same in every outer iteration, so is its trip count.
fn nested_step<'s>(
    s: &'s Stmt,
    name: &str,
    changed: &[String],
    memo: &mut AssignedMemo<'s>,
) -> Option<NestedLoop> {
    let Stmt::For {
        init,
        cond: Some(cond),
        update,
        body,
        ..
    } = s
    else {
        return None;
    };
    let ([Stmt::Decl(ds)], [u]) = (init.as_slice(), update.as_slice()) else {
        return None;
    };
    let [d] = ds.as_slice() else {
        return None;
    };
    let start = d.init.as_ref()?;
    let (var, by) = step_of(u)?;
    let ExprKind::Binary(
        cmp @ (BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge),
        j,
        bound,
    ) = &cond.kind
    else {
        return None;
    };
    if var != d.name || var == name || !matches!(&j.kind, ExprKind::Ident(n) if *n == var) {
        return None;
    }
    // Every iteration of the inner loop runs its body to the step: nothing leaves it
    // early, nothing in it changes its variable.
    if leaves_early(body) || memo.of(body).contains(&var) {
        return None;
    }
    let inner = body_step(body, name, memo)?;
    let (Step::Add(amount) | Step::Sub(amount) | Step::Shl(amount) | Step::Shr(amount)) = &by;
    let mut operands: Vec<&Expr> = vec![start, bound, amount];
    match &inner {
        BodyStep::Plain(Step::Add(x) | Step::Sub(x) | Step::Shl(x) | Step::Shr(x)) => {
            operands.push(x);
        }
        BodyStep::Nested(_) => {}
        BodyStep::Wrapped { .. } => return None,
    }
    if operands.iter().any(|x| mentions_any(x, changed)) {
        return None;
    }
    // A narrow variable wraps before a bound past its range.
    let ty = d.ty.base.as_str();
    if d.ty.pointers > 0
        || ["char", "short", "8", "16", "half", "bool"]
            .iter()
            .any(|n| ty.contains(n))
    {
        return None;
    }
    let unsigned = ty.contains("unsigned") || ty.starts_with('u');
    Some(NestedLoop {
        inner,
        start: start.clone(),
        cmp: *cmp,
        bound: (**bound).clone(),
        by,
        unsigned,
    })
}

/// The trip count of `for (j = a; j cmp b; j += c)` with integer `a`, `b`, `c`: `None`
/// when it does not end by the step (a step away from the bound, zero), or when values
/// are large enough that a 32-bit variable could wrap.
fn trip_count(a: i64, cmp: BinaryOp, b: i64, c: i64, unsigned: bool) -> Option<i64> {
    const LIMIT: i64 = 1 << 30;
    if a.abs() >= LIMIT || b.abs() >= LIMIT || c.abs() >= LIMIT || (unsigned && (a < 0 || b < 0)) {
        return None;
    }
    let trips = match cmp {
        BinaryOp::Lt if c > 0 => (b - a + c - 1).div_euclid(c),
        BinaryOp::Le if c > 0 => (b - a).div_euclid(c) + 1,
        BinaryOp::Gt if c < 0 => (a - b - c - 1).div_euclid(-c),
        BinaryOp::Ge if c < 0 => (a - b).div_euclid(-c) + 1,
        _ => return None,
    };
    Some(trips.max(0))
}

/// `d` when statement `s` changes `name` only by one `name++`/`name--` (`d` = +1/-1)
/// inside an expression that always evaluates it (`buf[idx++]`, `float w = f[idx++];`).
fn lone_increment(s: &Stmt, name: &str) -> Option<i64> {
    fn count(e: &Expr, name: &str, found: &mut Vec<i64>, assigned: &mut bool, sure: bool) {
        match &e.kind {
            ExprKind::IncDec(t, d) => {
                if matches!(&t.kind, ExprKind::Ident(n) if n == name) {
                    if sure {
                        found.push(*d);
                    } else {
                        *assigned = true;
                    }
                } else {
                    count(t, name, found, assigned, sure);
                }
            }
            ExprKind::Assign(_, l, r) => {
                if matches!(&l.kind, ExprKind::Ident(n) if n == name) {
                    *assigned = true;
                }
                count(l, name, found, assigned, sure);
                count(r, name, found, assigned, sure);
            }
            // Operands evaluated only sometimes.
            ExprKind::Cond(a, b, c) => {
                count(a, name, found, assigned, sure);
                count(b, name, found, assigned, false);
                count(c, name, found, assigned, false);
            }
            ExprKind::Binary(BinaryOp::LogicAnd | BinaryOp::LogicOr, a, b) => {
                count(a, name, found, assigned, sure);
                count(b, name, found, assigned, false);
            }
            ExprKind::Member(b, _) | ExprKind::Unary(_, b) | ExprKind::Cast(_, b) => {
                count(b, name, found, assigned, sure);
            }
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                count(a, name, found, assigned, sure);
                count(b, name, found, assigned, sure);
            }
            ExprKind::Call { args, .. } | ExprKind::Comma(args) => {
                for a in args {
                    count(a, name, found, assigned, sure);
                }
            }
            _ => {}
        }
    }
    let exprs: Vec<&Expr> = match s {
        Stmt::Expr(e) => vec![e],
        Stmt::Decl(ds) => ds.iter().filter_map(|d| d.init.as_ref()).collect(),
        _ => return None,
    };
    let mut found = Vec::new();
    let mut assigned = false;
    for e in exprs {
        count(e, name, &mut found, &mut assigned, true);
    }
    match found.as_slice() {
        [d] if !assigned => Some(*d),
        _ => None,
    }
}

/// `x = (x + c) & m` (or `%`, refused later).
fn wrapped_step(e: &Expr) -> Option<(String, BodyStep)> {
    let ExprKind::Assign(None, lhs, rhs) = &e.kind else {
        return None;
    };
    let ExprKind::Ident(n) = &lhs.kind else {
        return None;
    };
    let ExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Rem), sum, modulus) = &rhs.kind else {
        return None;
    };
    let ExprKind::Binary(BinaryOp::Add, a, c) = &sum.kind else {
        return None;
    };
    if !matches!(&a.kind, ExprKind::Ident(m) if m == n) {
        return None;
    }
    Some((
        n.clone(),
        BodyStep::Wrapped {
            add: (**c).clone(),
            op: *op,
            modulus: (**modulus).clone(),
        },
    ))
}

/// A body induction's step evaluated at the loop's entry: additive amounts must be the
/// same for every lane, shifts and wrap-around masks constant.
pub(super) fn step_value(
    step: &BodyStep,
    eval: &mut dyn FnMut(&Expr) -> Option<Ir>,
) -> Option<StepValue> {
    let uniform = |v: Option<Ir>| v.filter(|s| s.var_mask() & 0b111 == 0);
    let shift = |v: Option<Ir>| v?.as_const().filter(|c| (0..32).contains(c));
    match step {
        BodyStep::Plain(Step::Add(e)) => uniform(eval(e)).map(StepValue::Add),
        BodyStep::Plain(Step::Sub(e)) => {
            uniform(eval(e)).map(|s| StepValue::Add(super::fold::fold(BinOp::Sub, Ir::Const(0), s)))
        }
        BodyStep::Plain(Step::Shl(e)) => shift(eval(e)).map(StepValue::Shl),
        BodyStep::Plain(Step::Shr(e)) => shift(eval(e)).map(StepValue::Shr),
        BodyStep::Nested(nested) => {
            let NestedLoop {
                inner,
                start,
                cmp,
                bound,
                by,
                unsigned,
            } = &**nested;
            let mut constant = |e: &Expr| eval(e)?.as_const();
            let c = match by {
                Step::Add(e) => constant(e)?,
                Step::Sub(e) => constant(e)?.checked_neg()?,
                Step::Shl(_) | Step::Shr(_) => return None,
            };
            let trips = trip_count(constant(start)?, *cmp, constant(bound)?, c, *unsigned)?;
            match step_value(inner, eval)? {
                StepValue::Add(s) => Some(StepValue::Add(super::fold::fold(
                    BinOp::Mul,
                    s,
                    Ir::Const(trips),
                ))),
                StepValue::Shl(c) => {
                    Some(StepValue::Shl(c.checked_mul(trips)?)).filter(|_| c * trips < 64)
                }
                StepValue::Shr(c) => {
                    Some(StepValue::Shr(c.checked_mul(trips)?)).filter(|_| c * trips < 64)
                }
                StepValue::Wrapped(..) => None,
            }
        }
        BodyStep::Wrapped { add, op, modulus } => {
            // `%` is left out: it does not wrap negative values the same way.
            let c = eval(add)?.as_const()?;
            let m = eval(modulus)?.as_const().filter(|m| *m > 0)?;
            (*op == BinaryOp::And && (m + 1) & m == 0).then_some(StepValue::Wrapped(c, m))
        }
    }
}

/// `x0` after `k` steps.
pub fn closed_form(x0: Ir, step: &StepValue, k: Ir) -> Ir {
    use super::fold::fold;
    match step {
        StepValue::Add(s) => fold(BinOp::Add, x0, fold(BinOp::Mul, k, s.clone())),
        StepValue::Shl(c) => fold(BinOp::Shl, x0, fold(BinOp::Mul, k, Ir::Const(*c))),
        StepValue::Shr(c) => fold(BinOp::Shr, x0, fold(BinOp::Mul, k, Ir::Const(*c))),
        // After k >= 1 steps `(x0 + c*k) & m` (masking commutes with adding); before the
        // first step `x0` itself, which need not be in range.
        StepValue::Wrapped(c, m) => Ir::Select(
            Box::new(fold(BinOp::Eq, k.clone(), Ir::Const(0))),
            Box::new(x0.clone()),
            Box::new(fold(
                BinOp::And,
                fold(BinOp::Add, x0, fold(BinOp::Mul, k, Ir::Const(*c))),
                Ir::Const(*m),
            )),
        ),
    }
}

/// A step evaluated at the loop's entry: an additive uniform amount, or a constant shift.
pub enum StepValue {
    Add(Ir),
    Shl(i64),
    Shr(i64),
    /// `x = (x + c) & m`, `m + 1` a power of two.
    Wrapped(i64, i64),
}

/// True when `s` may `continue` the loop it is directly in (not a nested loop's).
pub(crate) fn continues(s: &Stmt) -> bool {
    match s {
        Stmt::Continue => true,
        Stmt::Block(b) => b.iter().any(continues),
        Stmt::If {
            then, otherwise, ..
        } => continues(then) || otherwise.as_deref().is_some_and(continues),
        Stmt::Switch { body, .. } => continues(body),
        _ => false,
    }
}

/// True when `e` names one of `names`.
fn mentions_any(e: &Expr, names: &[String]) -> bool {
    // A call may read anything; only its arguments are visible here.
    let mut found = false;
    e.walk(&mut |x| {
        if let ExprKind::Ident(n) = &x.kind {
            found |= names.contains(n);
        }
    });
    found
}

/// True when `body` may leave the loop early (`break`, `return`), so that lanes may run
/// fewer iterations than the loop condition allows.
pub fn leaves_early(body: &Stmt) -> bool {
    match body {
        Stmt::Break | Stmt::Return(_) => true,
        Stmt::Block(b) => b.iter().any(leaves_early),
        Stmt::If {
            then, otherwise, ..
        } => leaves_early(then) || otherwise.as_deref().is_some_and(leaves_early),
        Stmt::For { body, .. } | Stmt::While { body, .. } | Stmt::Switch { body, .. } => {
            leaves_early(body)
        }
        _ => false,
    }
}

/// True when any expression of `s` names `name`.
pub fn stmt_mentions(s: &Stmt, name: &str) -> bool {
    let mut found = false;
    s.walk_exprs(&mut |x| {
        if let ExprKind::Ident(n) = &x.kind {
            found |= n == name;
        }
    });
    found
}
