//! Upper bounds that guards put on a value, so that a value of unknown or large range is
//! enumerated over every value that can switch a lane on instead of sampled.
//!
//! A guard conjunct `c * u + rest < K` (or `<=`, and their mirrored and negated
//! spellings) with `c > 0`, `u` never negative and every other term never negative
//! (thread ids, loop counters, values with a non-negative range, added) holds for no lane
//! once `c * u > K - 1`: every value of `u` past `(K - 1) / c` leaves the access with no
//! active lane, which costs nothing. `for (i = blockIdx.x * 8; i < 512; ...)` bounds
//! `blockIdx.x` by 63. The guard must evaluate for every value (a guard that cannot be
//! evaluated holds, as in the bank model, so it would bound nothing).

use super::residues::nonneg;
use super::whole_words::total;
use crate::model::ir::{BinOp, Expr, UnOp, VarKind};

/// The largest value of variable `u` for which `guard` holds for some lane, when a
/// conjunct of it says so (negative: for none); `None` when no conjunct bounds `u`.
pub(super) fn upper_bound(guard: &Expr, u: usize, kinds: &[VarKind]) -> Option<i64> {
    if u >= 63 || !never_negative(kinds.get(u)?) || !total(guard) {
        return None;
    }
    conjunct_bound(guard, u, kinds)
}

/// Whether every value a variable of this kind takes is at least 0.
pub(super) fn never_negative(kind: &VarKind) -> bool {
    match kind {
        // A digitised line's value is a mask of its steps.
        VarKind::Thread(_) | VarKind::Counter { .. } | VarKind::Line { .. } => true,
        VarKind::Uniform {
            range: Some((lo, _)),
        } => *lo >= 0,
        VarKind::Uniform { range: None } => false,
    }
}

fn conjunct_bound(g: &Expr, u: usize, kinds: &[VarKind]) -> Option<i64> {
    // `lhs <= most` for the comparison `g`, with `most` a constant.
    let at_most = |lhs: &Expr, most: i64| term_bound(lhs, u, kinds, most);
    let k = Expr::as_const;
    match g {
        Expr::Binary(BinOp::LogicAnd, a, b) => {
            match (conjunct_bound(a, u, kinds), conjunct_bound(b, u, kinds)) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            }
        }
        Expr::Binary(BinOp::Lt, l, r) => at_most(l, k(r)?.checked_sub(1)?),
        Expr::Binary(BinOp::Le, l, r) => at_most(l, k(r)?),
        Expr::Binary(BinOp::Gt, r, l) => at_most(l, k(r)?.checked_sub(1)?),
        Expr::Binary(BinOp::Ge, r, l) => at_most(l, k(r)?),
        Expr::Unary(UnOp::LogicNot, inner) => match &**inner {
            Expr::Binary(BinOp::Ge, l, r) => at_most(l, k(r)?.checked_sub(1)?),
            Expr::Binary(BinOp::Gt, l, r) => at_most(l, k(r)?),
            Expr::Binary(BinOp::Le, r, l) => at_most(l, k(r)?.checked_sub(1)?),
            Expr::Binary(BinOp::Lt, r, l) => at_most(l, k(r)?),
            _ => None,
        },
        _ => None,
    }
}

/// The bound on `u` that `lhs <= most` gives: `lhs` is `c * u` plus terms never
/// negative, so `u <= most / c` (rounded down).
fn term_bound(lhs: &Expr, u: usize, kinds: &[VarKind], most: i64) -> Option<i64> {
    let mut terms = Vec::new();
    lhs.additive_terms(false, &mut terms);
    let mut coefficient = None;
    for (t, neg) in terms {
        if t.var_mask() >> u & 1 == 0 {
            if neg || !nonneg(t, kinds) {
                return None;
            }
            continue;
        }
        if neg || coefficient.is_some() {
            return None;
        }
        coefficient = Some(coefficient_of(t, u)?);
    }
    let c = coefficient?;
    Some(most.div_euclid(c))
}

/// `c` for a term `u`, `u * c`, `c * u` or `u << s` with a positive constant `c`.
fn coefficient_of(t: &Expr, u: usize) -> Option<i64> {
    let is_u = |e: &Expr| matches!(e, Expr::Var(j) if *j == u);
    let c = match t {
        Expr::Var(j) if *j == u => 1,
        Expr::Binary(BinOp::Mul, a, b) if is_u(a) => b.as_const()?,
        Expr::Binary(BinOp::Mul, a, b) if is_u(b) => a.as_const()?,
        Expr::Binary(BinOp::Shl, a, b) if is_u(a) => {
            1i64.checked_shl(u32::try_from(b.as_const()?).ok()?)?
        }
        _ => return None,
    };
    (1..=1 << 30).contains(&c).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::Axis;

    fn b(op: BinOp, x: Expr, y: Expr) -> Expr {
        Expr::bin(op, x, y)
    }

    fn kinds() -> Vec<VarKind> {
        vec![
            VarKind::Thread(Axis::X),
            VarKind::Uniform {
                range: Some((0, 65535)),
            },
            VarKind::Counter { trips: None },
            VarKind::Uniform { range: None },
        ]
    }

    /// The bound is the largest value for which some `t` in `0..256` passes, checked by
    /// evaluation.
    fn check(g: &Expr, u: usize, expected: Option<i64>) {
        let found = upper_bound(g, u, &kinds());
        assert_eq!(found, expected, "{g:?}");
        if let Some(bound) = found {
            let passes = |v: i64| {
                (0..256).any(|t| {
                    let mut values = [t, 0, 0, 5];
                    values[u] = v;
                    g.eval(&values).is_none_or(|x| x != 0)
                })
            };
            assert!(
                (bound + 1..bound + 200).all(|v| !passes(v)),
                "{g:?} passes past {bound}"
            );
            if bound >= 0 {
                assert!(passes(bound), "{g:?} is not tight at {bound}");
            }
        }
    }

    #[test]
    fn conjuncts_bound_a_value_scaled_and_offset_by_non_negative_terms() {
        use BinOp::*;
        let t = Expr::Var(0);
        let bx = Expr::Var(1);
        let k = Expr::Var(2);
        let p = Expr::Var(3);
        // t + 8 * bx < 512
        let g = b(
            Lt,
            b(Add, t.clone(), b(Mul, bx.clone(), Expr::Const(8))),
            Expr::Const(512),
        );
        check(&g, 1, Some(63));
        // (t + 8k < 8) && (t + 8 * bx < 512): each conjunct bounds its own value.
        let both = b(
            LogicAnd,
            b(
                Lt,
                b(Add, t.clone(), b(Mul, k.clone(), Expr::Const(8))),
                Expr::Const(8),
            ),
            g.clone(),
        );
        check(&both, 2, Some(0));
        check(&both, 1, Some(63));
        // !(4 * k + t >= 100)
        let not_ge = Expr::Unary(
            UnOp::LogicNot,
            Box::new(b(
                Ge,
                b(Add, b(Mul, Expr::Const(4), k.clone()), t.clone()),
                Expr::Const(100),
            )),
        );
        check(&not_ge, 2, Some(24));
        // A subtracted term, a value of any sign, an `||`, a bound by a run-time value:
        // nothing.
        check(
            &b(
                Lt,
                b(Sub, b(Mul, bx.clone(), Expr::Const(8)), t.clone()),
                Expr::Const(512),
            ),
            1,
            None,
        );
        check(
            &b(
                Lt,
                b(Add, p.clone(), b(Mul, bx.clone(), Expr::Const(8))),
                Expr::Const(512),
            ),
            1,
            None,
        );
        check(&b(LogicOr, g.clone(), g.clone()), 1, None);
        check(
            &b(Lt, b(Mul, bx.clone(), Expr::Const(8)), p.clone()),
            1,
            None,
        );
        // A guard that can fail to evaluate holds there: nothing.
        let fails = b(LogicAnd, b(Div, t.clone(), p.clone()), g);
        check(&fails, 1, None);
        // `k < 0`: no value.
        check(&b(Lt, k, Expr::Const(0)), 2, Some(-1));
    }
}
