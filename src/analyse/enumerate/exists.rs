//! A ranged value that one comparison of a whole-warp guard reads, and nothing else,
//! replaced by the end of its range that makes the comparison hold if any value does.
//!
//! In `for (size = 2; size <= arrayLength; size <<= 1)`, `arrayLength` (an unsigned
//! argument, `0..=2^32-1`) is read by the loop's condition only. A guard that reads no
//! thread coordinate switches the whole warp on or off, so what the warp can do for some
//! value of `arrayLength` is what it does where the guard holds, and some value makes
//! `size <= arrayLength` hold exactly when `size <= 2^32-1` does. Replacing the value by
//! that end keeps every reachable case and adds none, and leaves a guard on the loop's
//! counter alone, which enumeration bounds instead of sampling `arrayLength`.
//! (Without a range, `relevant_guards` drops such a comparison outright.)

use crate::model::ir::{BinOp, Expr, LoweredAccess, UnOp, VarKind};

/// `access` with each such value replaced, and the values replaced (variable index and
/// the end that stands for them), or `None` when there is none. Whether the guard holds
/// still depends on the value (a loop runs only when `arrayLength > 1`): a conflict
/// names it.
pub(super) fn without_existential_values(
    access: &LoweredAccess,
) -> Option<(LoweredAccess, Vec<(usize, i64)>)> {
    let thread_mask = access.thread_mask();
    let mut guards = access.guards.clone();
    let mut replaced_values = Vec::new();
    for (i, v) in access.vars.iter().enumerate().take(63) {
        let VarKind::Uniform {
            range: Some((lo, hi)),
        } = v.kind
        else {
            continue;
        };
        if lo > hi || occurrences(&access.address, i) != 0 {
            continue;
        }
        let reading: Vec<usize> = (0..guards.len())
            .filter(|&g| occurrences(&guards[g], i) > 0)
            .collect();
        let [g] = reading.as_slice() else {
            continue;
        };
        if occurrences(&guards[*g], i) != 1 || guards[*g].var_mask() & thread_mask != 0 {
            continue;
        }
        if let Some((rewritten, end)) = replaced(&guards[*g], i, (lo, hi), true) {
            guards[*g] = rewritten;
            replaced_values.push((i, end));
        }
    }
    (!replaced_values.is_empty()).then(|| {
        (
            LoweredAccess {
                guards,
                ..access.clone()
            },
            replaced_values,
        )
    })
}

/// How many times `e` reads variable `i`.
fn occurrences(e: &Expr, i: usize) -> usize {
    let mut n = 0;
    e.each_var(&mut |j| n += usize::from(j == i));
    n
}

/// `e` (which reads `i` once) with `i` replaced by the end of `range` that makes `e`
/// hold (`holds`) or fail (`!holds`) if any value does; `None` when `i` is not read by
/// a comparison reached through `&&`, `||` and `!` only. With the end.
fn replaced(e: &Expr, i: usize, range: (i64, i64), holds: bool) -> Option<(Expr, i64)> {
    let reads = |x: &Expr| occurrences(x, i) > 0;
    let is_i = |x: &Expr| matches!(x, Expr::Var(j) if *j == i);
    match e {
        Expr::Unary(UnOp::LogicNot, a) => {
            let (a, end) = replaced(a, i, range, !holds)?;
            Some((Expr::Unary(UnOp::LogicNot, Box::new(a)), end))
        }
        Expr::Binary(op @ (BinOp::LogicAnd | BinOp::LogicOr), a, b) => {
            let (a, b, end) = if reads(a) {
                let (a, end) = replaced(a, i, range, holds)?;
                (a, (**b).clone(), end)
            } else {
                let (b, end) = replaced(b, i, range, holds)?;
                ((**a).clone(), b, end)
            };
            Some((Expr::bin(*op, a, b), end))
        }
        Expr::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
            // Whether the comparison holds more often the larger the value is.
            let grows = match (is_i(a), is_i(b)) {
                (false, true) => matches!(op, BinOp::Lt | BinOp::Le),
                (true, false) => matches!(op, BinOp::Gt | BinOp::Ge),
                _ => return None,
            };
            let value = if grows == holds { range.1 } else { range.0 };
            let end = Expr::Const(value);
            let (a, b) = if is_i(a) {
                (end, (**b).clone())
            } else {
                ((**a).clone(), end)
            };
            Some((Expr::bin(*op, a, b), value))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For every value of the other variable in `-70..70`: some value of `i` in `range`
    /// makes `g` hold exactly when the rewritten guard holds.
    fn same_existence(g: &Expr) {
        let range = (0, 50);
        let (r, _) = replaced(g, 1, range, true).expect("rewritten");
        for x in -70..70 {
            let some = (range.0..=range.1).any(|u| g.eval(&[x, u]).is_some_and(|v| v != 0));
            let now = r.eval(&[x, 0]).is_some_and(|v| v != 0);
            assert_eq!(some, now, "{g:?} at {x}: {r:?}");
        }
    }

    #[test]
    fn a_value_read_once_takes_the_end_that_makes_its_guard_hold() {
        let x = || Box::new(Expr::Var(0));
        let u = || Box::new(Expr::Var(1));
        let c = |k| Box::new(Expr::Const(k));
        for op in [BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge] {
            same_existence(&Expr::Binary(op, x(), u()));
            same_existence(&Expr::Binary(op, u(), x()));
            let not = Expr::Unary(UnOp::LogicNot, Box::new(Expr::Binary(op, x(), u())));
            same_existence(&not);
            let and = Expr::Binary(
                BinOp::LogicAnd,
                Box::new(Expr::Binary(BinOp::Gt, x(), c(3))),
                Box::new(Expr::Binary(op, u(), x())),
            );
            same_existence(&and);
            let or = Expr::Binary(
                BinOp::LogicOr,
                Box::new(Expr::Binary(op, x(), u())),
                Box::new(Expr::Binary(BinOp::Lt, x(), c(-60))),
            );
            same_existence(&Expr::Unary(UnOp::LogicNot, Box::new(or)));
        }
        // `==` holds for one value at a time: not rewritten.
        assert!(replaced(&Expr::Binary(BinOp::Eq, x(), u()), 1, (0, 50), true).is_none());
    }
}
