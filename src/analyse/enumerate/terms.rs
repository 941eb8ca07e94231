//! The address as a sum of terms: constant factors, shifts and exact divisions pushed
//! into sums, so that the terms that only shift every lane's address are found even when
//! the source scales or divides the whole index (`s[(tid * 4 + k * 128) / 4]`).

use super::residues::{divisor, nonneg};
use crate::model::ir::{BinOp, Expr, VarKind};

/// `e` with constant factors, left shifts and divisions by constants distributed over
/// its sums, with the same value for every assignment of its variables:
/// - `(a + b) * c` is `a * c + b * c` and `(a + b) << k` is `(a << k) + (b << k)`, equal
///   in wrapping arithmetic;
/// - `(a + b) / d` is `a / d + b / d` when `d` divides every term but at most one, and
///   the undivided term and every other term are never negative (C division truncates, so
///   the identity needs the floor), or when `d` divides every term (then it is exact);
/// - `(a + b) >> k` likewise, with the undivided term added, not subtracted, and no other
///   sign condition: an arithmetic shift is the floor.
pub(super) fn distribute(e: &Expr, kinds: &[VarKind]) -> Expr {
    match e {
        Expr::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            Expr::bin(*op, distribute(a, kinds), distribute(b, kinds))
        }
        Expr::Binary(BinOp::Mul, x, c) | Expr::Binary(BinOp::Mul, c, x)
            if matches!(**c, Expr::Const(_)) =>
        {
            let c = (**c).clone();
            scale(distribute(x, kinds), &|t| {
                Expr::bin(BinOp::Mul, t, c.clone())
            })
        }
        Expr::Binary(BinOp::Shl, x, k) if matches!(**k, Expr::Const(0..=62)) => {
            let k = (**k).clone();
            scale(distribute(x, kinds), &|t| {
                Expr::bin(BinOp::Shl, t, k.clone())
            })
        }
        Expr::Binary(BinOp::Div, x, d) => match d.as_const() {
            Some(d @ 1..) => {
                divide(&distribute(x, kinds), d, false, kinds).unwrap_or_else(|| e.clone())
            }
            _ => e.clone(),
        },
        Expr::Binary(BinOp::Shr, x, k) => match k.as_const() {
            Some(k @ 0..=40) => {
                divide(&distribute(x, kinds), 1 << k, true, kinds).unwrap_or_else(|| e.clone())
            }
            _ => e.clone(),
        },
        _ => e.clone(),
    }
}

/// `wrap` applied to every additive term of `x` (already distributed).
fn scale(x: Expr, wrap: &dyn Fn(Expr) -> Expr) -> Expr {
    match x {
        Expr::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            Expr::bin(op, scale(*a, wrap), scale(*b, wrap))
        }
        t => wrap(t),
    }
}

/// `x / d` (`floor` for a shift, C's truncation otherwise) as a sum of quotients, when
/// the identity holds for every value (see [`distribute`]); `None` otherwise.
fn divide(x: &Expr, d: i64, floor: bool, kinds: &[VarKind]) -> Option<Expr> {
    let mut terms = Vec::new();
    x.additive_terms(false, &mut terms);
    if terms.len() < 2 {
        return None;
    }
    let divides = |t: &Expr| divisor(t) % d == 0;
    let rest: Vec<(&Expr, bool)> = terms.iter().copied().filter(|(t, _)| !divides(t)).collect();
    // The floor of `-r / d` is not `-floor(r / d)`: the undivided term keeps its sign.
    let sign_ok = rest.is_empty()
        || if floor {
            rest.iter().all(|(_, neg)| !neg)
        } else {
            terms.iter().all(|(t, neg)| !neg && nonneg(t, kinds))
        };
    if rest.len() > 1 || !sign_ok {
        return None;
    }
    let op = if floor { BinOp::Shr } else { BinOp::Div };
    let by = Expr::Const(if floor {
        i64::from(d.trailing_zeros())
    } else {
        d
    });
    let quotient = |t: &Expr| Expr::bin(op, t.clone(), by.clone());
    let mut acc: Option<Expr> = None;
    let push = |acc: &mut Option<Expr>, t: Expr, neg: bool| {
        *acc = Some(match acc.take() {
            None if neg => Expr::bin(BinOp::Sub, Expr::Const(0), t),
            None => t,
            Some(a) => Expr::bin(if neg { BinOp::Sub } else { BinOp::Add }, a, t),
        });
    };
    for &(t, neg) in terms.iter().filter(|(t, _)| divides(t)) {
        push(&mut acc, quotient(t), neg);
    }
    if let Some(&(t, neg)) = rest.first() {
        push(&mut acc, quotient(t), neg);
    }
    acc
}

/// True when variable `i` occurs in `e` only as a whole shift amount (`x << k`,
/// `x >> k`): every value from 63 up, and every negative one, is then a shift out of
/// range, so `0..=62` are all the values it can take where `e` is defined.
pub(super) fn only_shift_amount(e: &Expr, i: usize) -> bool {
    match e {
        Expr::Const(_) => true,
        Expr::Var(j) => *j != i,
        Expr::Binary(BinOp::Shl | BinOp::Shr, x, k) if matches!(**k, Expr::Var(j) if j == i) => {
            only_shift_amount(x, i)
        }
        Expr::Unary(_, a) => only_shift_amount(a, i),
        Expr::Binary(_, a, b) => only_shift_amount(a, i) && only_shift_amount(b, i),
        Expr::Select(c, t, f) => {
            only_shift_amount(c, i) && only_shift_amount(t, i) && only_shift_amount(f, i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::Axis;

    fn v(i: usize) -> Expr {
        Expr::Var(i)
    }
    fn c(k: i64) -> Expr {
        Expr::Const(k)
    }
    fn b(op: BinOp, x: Expr, y: Expr) -> Expr {
        Expr::bin(op, x, y)
    }

    /// Thread id, loop counter, and an argument of any sign.
    fn kinds() -> Vec<VarKind> {
        vec![
            VarKind::Thread(Axis::X),
            VarKind::Counter { trips: None },
            VarKind::Uniform { range: None },
        ]
    }

    /// The distributed form has the value of the original for every assignment tried,
    /// negative arguments included; and `split` says whether it was split into terms.
    fn same_values(e: &Expr, split: bool) {
        let d = distribute(e, &kinds());
        let mut terms = Vec::new();
        d.additive_terms(false, &mut terms);
        assert_eq!(terms.len() > 1, split, "{e:?} became {d:?}");
        for t in 0..64 {
            for k in 0..8 {
                for u in -40..40 {
                    let values = [t, k, u];
                    assert_eq!(e.eval(&values), d.eval(&values), "{e:?} at {values:?}");
                }
            }
        }
    }

    #[test]
    fn exact_divisions_and_floors_split_and_keep_their_values() {
        use BinOp::{Add, Div, Mul, Shr, Sub};
        // (4t + 128k) / 4: every term divisible.
        same_values(
            &b(Div, b(Add, b(Mul, v(0), c(4)), b(Mul, v(1), c(128))), c(4)),
            true,
        );
        // (t + 32k) / 32 with t and k never negative: the floor of the sum.
        same_values(&b(Div, b(Add, v(0), b(Mul, v(1), c(32))), c(32)), true);
        // (t + 32u) / 32 with u of any sign: C truncates, not split.
        same_values(&b(Div, b(Add, v(0), b(Mul, v(2), c(32))), c(32)), false);
        // (t + 32u) >> 5: a shift is the floor for every sign.
        same_values(&b(Shr, b(Add, v(0), b(Mul, v(2), c(32))), c(5)), true);
        // (32u - t) >> 5: the undivided term subtracted is not split.
        same_values(&b(Shr, b(Sub, b(Mul, v(2), c(32)), v(0)), c(5)), false);
        // ((2t + 8k) / 2) * 4: the division, then the factor, distributed.
        same_values(
            &b(
                Mul,
                b(Div, b(Add, b(Mul, v(0), c(2)), b(Mul, v(1), c(8))), c(2)),
                c(4),
            ),
            true,
        );
        // (t + k) / 4: two undivided terms, not split.
        same_values(&b(Div, b(Add, v(0), v(1)), c(4)), false);
    }
}
