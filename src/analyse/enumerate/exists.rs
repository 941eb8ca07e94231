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

/// A value replaced by an end of its range.
#[derive(Clone, Copy, Debug)]
pub(super) struct Replaced {
    /// The variable's index.
    pub var: usize,
    /// The end of its range that stands for it.
    pub end: i64,
    /// The guard that reads it.
    guard: usize,
}

/// `access` with each such value replaced, and the values replaced, or `None` when there
/// is none. Whether the guard holds still depends on the value (a loop runs only when
/// `arrayLength > 1`): a conflict names it.
pub(super) fn without_existential_values(
    access: &LoweredAccess,
) -> Option<(LoweredAccess, Vec<Replaced>)> {
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
            replaced_values.push(Replaced {
                var: i,
                end,
                guard: *g,
            });
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

/// The value of `r` nearest the other end of its range that still makes its guard in
/// `access` (as written) hold with the other values of the worst case `worst`: a
/// merge loop `stride < n` needs `n = 2`, not `n = 2^32 - 1`. The guard reads the value
/// once, through `&&`, `||`, `!` and one comparison, so whether it holds is monotone in
/// the value and a bisection finds the threshold. The end itself when the guard reads a
/// value the worst case does not give or does not hold at the end.
pub(super) fn nearest_witness(
    access: &LoweredAccess,
    r: &Replaced,
    worst: &[(String, i64)],
) -> i64 {
    let Some(guard) = access.guards.get(r.guard) else {
        return r.end;
    };
    let mut values = vec![0; access.vars.len()];
    let mut known = true;
    guard.each_var(&mut |j| {
        if j == r.var {
            return;
        }
        // By name, so only a name no other variable shares.
        let name = &access.vars[j].name;
        let unique = access.vars.iter().filter(|v| v.name == *name).count() == 1;
        match worst.iter().find(|(n, _)| n == name) {
            Some((_, v)) if unique => values[j] = *v,
            _ => known = false,
        }
    });
    let VarKind::Uniform {
        range: Some((lo, hi)),
    } = access.vars[r.var].kind
    else {
        return r.end;
    };
    let mut holds = |v: i64| {
        values[r.var] = v;
        guard.eval(&values).is_some_and(|g| g != 0)
    };
    if !known || !holds(r.end) {
        return r.end;
    }
    // `far` holds; move `near` towards it until they meet.
    let (mut near, mut far) = if r.end == hi { (lo, hi) } else { (hi, lo) };
    if holds(near) {
        return near;
    }
    while near.abs_diff(far) > 1 {
        let mid = near + (far - near) / 2;
        if holds(mid) {
            far = mid;
        } else {
            near = mid;
        }
    }
    far
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

    #[test]
    fn the_witness_is_the_value_nearest_the_other_end_that_still_holds() {
        use crate::model::ir::VarInfo;
        let var = |name: &str, range| VarInfo {
            name: name.to_string(),
            kind: VarKind::Uniform { range },
            loop_value: None,
        };
        let access = |guard: Expr| {
            LoweredAccess::one_warp(
                vec![var("stride", None), var("n", Some((0, u32::MAX as i64)))],
                Expr::Const(0),
                vec![guard],
            )
        };
        let x = || Box::new(Expr::Var(0));
        let n = || Box::new(Expr::Var(1));
        let worst = [("stride".to_string(), 1)];
        for (op, swapped, want) in [
            (BinOp::Lt, false, 2),
            (BinOp::Le, false, 1),
            (BinOp::Gt, true, 2),
            (BinOp::Ge, true, 1),
            (BinOp::Gt, false, 0),
            (BinOp::Ge, false, 1),
        ] {
            let g = if swapped {
                Expr::Binary(op, n(), x())
            } else {
                Expr::Binary(op, x(), n())
            };
            let a = access(g);
            let (_, replaced) = without_existential_values(&a).expect("replaced");
            assert_eq!(nearest_witness(&a, &replaced[0], &worst), want, "{op:?}");
        }
        // A value the worst case does not give: the end.
        let a = access(Expr::Binary(BinOp::Lt, x(), n()));
        let (_, replaced) = without_existential_values(&a).expect("replaced");
        assert_eq!(nearest_witness(&a, &replaced[0], &[]), replaced[0].end);
    }
}
