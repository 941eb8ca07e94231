//! A side of a comparison that takes arbitrarily large and arbitrarily small values as
//! one run-time value of unknown range does: `tiles`, `DVp / 2`, `DKQ - nbatch_K_last`,
//! `4 * n + 1`.
//!
//! A guard `lhs < side` (or `<=`, `>`, `>=`, `!=`) whose `side` is such a function of a
//! value read nowhere else holds, for any `lhs` of the other values and lanes, at some
//! value of it: enumeration takes the worst case where it holds and need not enumerate
//! the value (see `relevant_guards`). Only forms that are unbounded both ways whatever
//! the other values are accepted: the value itself, a sum with or difference from a part
//! that does not read it, a negation, a product by a non-zero constant and a quotient by a
//! positive constant (`(v / c)` runs through every integer as `v` does, `c` at a time).

use crate::model::ir::{BinOp, Expr, UnOp};

/// Whether `e` takes every sufficiently large and every sufficiently small value as
/// variable `i` runs over the integers, the rest fixed: `e` reads `i` exactly once, through
/// the forms of the module comment, and reads nothing else alongside it that could cancel
/// it (a product by a part that may be zero is refused).
pub(super) fn unbounded_in(e: &Expr, i: usize) -> bool {
    if i >= 63 {
        return false;
    }
    let reads = |x: &Expr| x.var_mask() >> i & 1 == 1;
    match e {
        Expr::Var(j) => *j == i,
        Expr::Unary(UnOp::Neg, a) => unbounded_in(a, i),
        Expr::Binary(BinOp::Add | BinOp::Sub, a, b) => {
            (unbounded_in(a, i) && !reads(b)) || (unbounded_in(b, i) && !reads(a))
        }
        Expr::Binary(BinOp::Mul, a, b) => match (a.as_ref(), b.as_ref()) {
            (Expr::Const(k), x) | (x, Expr::Const(k)) => *k != 0 && unbounded_in(x, i),
            _ => false,
        },
        Expr::Binary(BinOp::Div, a, b) => {
            matches!(b.as_ref(), Expr::Const(k) if *k > 0) && unbounded_in(a, i)
        }
        _ => false,
    }
}

/// Whether comparison `g` holds, for every value of the other variables at once and for
/// every lane, at some value of variable `i`: an order or `!=` one of whose sides is
/// unbounded in `i` ([`unbounded_in`]) while the other does not read it.
pub(super) fn holds_for_some_value(g: &Expr, i: usize) -> bool {
    let Expr::Binary(op, a, b) = g else {
        return false;
    };
    if !matches!(
        op,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Ne
    ) || i >= 63
    {
        return false;
    }
    let reads = |x: &Expr| x.var_mask() >> i & 1 == 1;
    (unbounded_in(a, i) && !reads(b)) || (unbounded_in(b, i) && !reads(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    use Expr::{Const as c, Var as v};

    #[test]
    fn forms_unbounded_both_ways() {
        assert!(unbounded_in(&v(3), 3));
        assert!(unbounded_in(&Expr::bin(BinOp::Div, v(3), c(2)), 3));
        assert!(unbounded_in(&Expr::bin(BinOp::Sub, v(1), v(3)), 3));
        assert!(unbounded_in(&Expr::bin(BinOp::Mul, c(-4), v(3)), 3));
        // A product by a value that may be zero, a quotient by a negative or variable
        // amount, a remainder, a second reading: not unbounded.
        assert!(!unbounded_in(&Expr::bin(BinOp::Mul, v(1), v(3)), 3));
        assert!(!unbounded_in(&Expr::bin(BinOp::Div, v(3), v(1)), 3));
        assert!(!unbounded_in(&Expr::bin(BinOp::Div, v(3), c(0)), 3));
        assert!(!unbounded_in(&Expr::bin(BinOp::Rem, v(3), c(8)), 3));
        assert!(!unbounded_in(&Expr::bin(BinOp::Sub, v(3), v(3)), 3));
    }

    #[test]
    fn a_comparison_of_the_value_with_itself_is_not_free() {
        // `n < n` never holds.
        assert!(!holds_for_some_value(&Expr::bin(BinOp::Lt, v(3), v(3)), 3));
        assert!(holds_for_some_value(
            &Expr::bin(BinOp::Lt, v(1), Expr::bin(BinOp::Div, v(3), c(2))),
            3
        ));
        assert!(!holds_for_some_value(&Expr::bin(BinOp::Eq, v(1), v(3)), 3));
    }
}
