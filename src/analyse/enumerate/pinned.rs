//! A run-time value that a guard pins to one constant (`if constexpr (bytes == 4)` on a
//! compile-time value bankcheck cannot evaluate) replaced by that constant.
//!
//! Every guard must hold for a lane to take part, so where `v != c` no lane of any warp
//! is active and nothing is counted: enumerating `v = c` alone keeps every reachable
//! case and adds none. Without this, a value sampled over its domain may never meet `c`
//! and the access would look unreached. Whether the access runs still depends on the
//! value: a conflict names it, with `c` as its worst case.
//!
//! The value may be scaled and shifted (`v * 4 == 16`, `(v << 2) + 1 == 9`: a size in
//! bytes computed from a count): it is pinned to the one integer that solves it, and a
//! guard that no integer solves (`v * 4 == 2`) holds nowhere, so the access is exactly
//! unreached. Unsolvable means modulo 2^64 too (`(c - b)` has fewer trailing zero bits
//! than `a`), so no wrapped value solves it either.

use crate::model::ir::{BinOp, Expr, LoweredAccess, VarKind};

/// A value pinned by a guard, and its constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pinned {
    pub var: usize,
    pub value: i64,
}

/// `access` with each value a guard pins replaced by its constant, and those values;
/// `None` when no guard pins one. Only warp-uniform values are pinned (not thread
/// coordinates nor loop counters), and only to a constant inside their range.
pub(super) fn without_pinned_values(
    access: &LoweredAccess,
) -> Option<(LoweredAccess, Vec<Pinned>)> {
    let mut pins: Vec<Pinned> = Vec::new();
    for g in &access.guards {
        let mut conjuncts = Vec::new();
        g.conjuncts(&mut conjuncts);
        for c in conjuncts {
            let Some((var, Some(value))) = linear_equality(c) else {
                continue;
            };
            let Some(VarKind::Uniform { range }) = access.vars.get(var).map(|v| &v.kind) else {
                continue;
            };
            let inside = range.is_none_or(|(lo, hi)| lo <= value && value <= hi);
            if inside && !pins.iter().any(|p| p.var == var) {
                pins.push(Pinned { var, value });
            }
        }
    }
    if pins.is_empty() {
        return None;
    }
    let sub = |e: &Expr| substituted(e, &pins);
    Some((
        LoweredAccess {
            address: sub(&access.address),
            guards: access.guards.iter().map(sub).collect(),
            coords: access.coords.as_ref().map(|c| c.iter().map(sub).collect()),
            ..access.clone()
        },
        pins,
    ))
}

/// Whether some guard of `access` is an equality that no integer value solves
/// (`v * 4 == 2`), or that only a value outside the range of a warp-uniform `v` solves
/// (`v * 2 == 4` where `v` is 4 or 8): then no lane of any warp takes part, whatever the
/// other values.
pub(super) fn never_holds(access: &LoweredAccess) -> bool {
    access.guards.iter().any(|g| {
        let mut conjuncts = Vec::new();
        g.conjuncts(&mut conjuncts);
        conjuncts
            .into_iter()
            .any(|c| matches!(linear_equality(c), Some((_, None))) || false_over_ranges(access, c))
    })
}

/// The most combinations of values [`never_holds`] evaluates a guard at.
const MAX_RANGE_WALK: i64 = 4096;

/// Whether guard `c`, which reads only warp-uniform variables of small ranges (a choice
/// between constants, `rows` of 4 or 8, or a narrow type), evaluates to false at every
/// combination of their values: walked rather than solved, so that wrapping arithmetic is
/// the evaluator's. A combination where it cannot be evaluated counts as holding.
fn false_over_ranges(access: &LoweredAccess, c: &Expr) -> bool {
    let mut vars: Vec<(usize, i64, i64)> = Vec::new();
    let mut ok = true;
    c.each_var(&mut |i| {
        if vars.iter().any(|v| v.0 == i) {
            return;
        }
        match access.vars.get(i).map(|v| &v.kind) {
            Some(VarKind::Uniform {
                range: Some((lo, hi)),
            }) => vars.push((i, *lo, *hi)),
            _ => ok = false,
        }
    });
    if !ok || vars.is_empty() {
        return false;
    }
    let mut count: i64 = 1;
    for &(_, lo, hi) in &vars {
        let Some(w) = hi.checked_sub(lo).and_then(|w| w.checked_add(1)) else {
            return false;
        };
        count = count.saturating_mul(w);
    }
    if count > MAX_RANGE_WALK {
        return false;
    }
    let mut values = vec![0i64; access.vars.len()];
    let doms: Vec<Vec<i64>> = vars
        .iter()
        .map(|&(_, lo, hi)| (lo..=hi).collect())
        .collect();
    let mut holds_somewhere = false;
    super::for_each_combination(&doms, &mut |combo| {
        for (k, &(i, _, _)) in vars.iter().enumerate() {
            values[i] = combo[k];
        }
        holds_somewhere = c.eval(&values) != Some(0);
        !holds_somewhere
    });
    !holds_somewhere
}

/// `a * v + b == c` (either side): the variable and the one value that solves it, or
/// `None` inside when no integer does.
fn linear_equality(e: &Expr) -> Option<(usize, Option<i64>)> {
    let Expr::Binary(BinOp::Eq, l, r) = e else {
        return None;
    };
    let (var, a, b, c) = if let (Some((v, a, b)), Some(c)) = (l.as_linear(), r.as_const()) {
        (v, a, b, c)
    } else {
        let (v, a, b) = r.as_linear()?;
        (v, a, b, l.as_const()?)
    };
    let rest = c.checked_sub(b)?;
    if a == 0 {
        return None;
    }
    if rest.trailing_zeros() < a.trailing_zeros() {
        return Some((var, None));
    }
    Some((var, (rest % a == 0).then(|| rest / a)))
        .filter(|(_, v)| v.is_some() || a.unsigned_abs().is_power_of_two())
}

/// `e` with each pinned variable replaced by its constant.
fn substituted(e: &Expr, pins: &[Pinned]) -> Expr {
    match e {
        Expr::Var(i) => pins
            .iter()
            .find(|p| p.var == *i)
            .map_or(Expr::Var(*i), |p| Expr::Const(p.value)),
        Expr::Const(c) => Expr::Const(*c),
        Expr::Unary(op, a) => Expr::Unary(*op, Box::new(substituted(a, pins))),
        Expr::Binary(op, a, b) => Expr::bin(*op, substituted(a, pins), substituted(b, pins)),
        Expr::Select(c, t, f) => Expr::Select(
            Box::new(substituted(c, pins)),
            Box::new(substituted(t, pins)),
            Box::new(substituted(f, pins)),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::{count_wavefronts, BankParams};
    use crate::model::ir::{Axis, BlockShape, VarInfo};
    use proptest::prelude::*;

    /// The thread coordinates, then `more`.
    fn vars(more: &[(&str, VarKind)]) -> Vec<VarInfo> {
        let threads = [
            ("x", VarKind::Thread(Axis::X)),
            ("y", VarKind::Thread(Axis::Y)),
            ("z", VarKind::Thread(Axis::Z)),
        ];
        threads
            .iter()
            .chain(more)
            .map(|(name, kind)| VarInfo {
                name: (*name).to_string(),
                kind: kind.clone(),
                loop_value: None,
            })
            .collect()
    }

    /// One warp of 32 lanes, each at its own word, under `guard` alone, with `more`
    /// after the thread coordinates.
    fn guarded(more: &[(&str, VarKind)], guard: Expr) -> LoweredAccess {
        LoweredAccess::one_warp(vars(more), Expr::Var(0), vec![guard])
    }

    /// One warp of 32 lanes: `x` the lane, `v` a run-time value read by the address and
    /// pinned by a guard `v == k`, `u` another run-time value.
    fn access(sx: i64, sv: i64, su: i64, modulus: i64, k: i64, lane_limit: i64) -> LoweredAccess {
        let c = |n| Box::new(Expr::Const(n));
        let term = |i, s| Expr::Binary(BinOp::Mul, Box::new(Expr::Var(i)), c(s));
        let sum = Expr::bin(
            BinOp::Add,
            Expr::bin(BinOp::Add, term(0, sx), term(3, sv)),
            term(4, su),
        );
        LoweredAccess {
            vars: vars(&[
                ("v", VarKind::Uniform { range: None }),
                (
                    "u",
                    VarKind::Uniform {
                        range: Some((0, 3)),
                    },
                ),
            ]),
            address: Expr::Binary(
                BinOp::Mul,
                Box::new(Expr::Binary(BinOp::Rem, Box::new(sum), c(modulus))),
                c(4),
            ),
            width: 4,
            atomic: false,
            guards: vec![
                Expr::Binary(BinOp::Lt, Box::new(Expr::Var(0)), c(lane_limit)),
                Expr::Binary(BinOp::Eq, c(k), Box::new(Expr::Var(3))),
            ],
            block: BlockShape { x: 32, y: 1, z: 1 },
            warp_size: 32,
            coords: None,
            extents: Vec::new(),
        }
    }

    proptest! {
        /// Enumeration with a pinned value agrees with a count of every lane's bank at
        /// every value of the other run-time value, the pinned one at its constant (the
        /// only value where a lane is active), and names the constant when it conflicts.
        #[test]
        fn pinned_enumeration_agrees_with_brute_force(
            sx in 0i64..70, sv in 0i64..70, su in 0i64..70,
            modulus in 1i64..4096, k in -40i64..40, lane_limit in 1i64..33,
        ) {
            let a = access(sx, sv, su, modulus, k, lane_limit);
            let params = BankParams::default();
            let verdict = crate::analyse::enumerate(&a, &params, crate::analyse::Budget::default());
            let mut worst = 0;
            for u in 0..=3 {
                let lanes: Vec<Option<i64>> = (0..32)
                    .map(|x| {
                        let values = [x, 0, 0, k, u];
                        a.guards_hold(&values).then(|| a.address.eval(&values)).flatten()
                    })
                    .collect();
                worst = worst.max(count_wavefronts(&params, 4, &lanes, false).wavefronts);
            }
            let cost = verdict.cost.expect("decided");
            prop_assert!(verdict.exact);
            prop_assert_eq!(cost.wavefronts, worst);
            if cost.wavefronts > cost.ideal {
                prop_assert!(verdict.worst_case.contains(&("v".to_string(), k)));
            }
        }
    }

    proptest! {
        /// `a * v + b == c` (written as `(v << s) * m + b`, either side) is pinned to the
        /// one value that solves it, or found to hold for none, as a search of a window of
        /// values around every solution finds.
        #[test]
        fn scaled_equalities_agree_with_a_search(
            m in -12i64..12, s in 0i64..4, b in -50i64..50, c in -200i64..200, flip: bool,
        ) {
            let lhs = Expr::bin(
                BinOp::Add,
                Expr::bin(BinOp::Mul, Expr::bin(BinOp::Shl, Expr::Var(3), Expr::Const(s)), Expr::Const(m)),
                Expr::Const(b),
            );
            let eq = if flip {
                Expr::bin(BinOp::Eq, Expr::Const(c), lhs)
            } else {
                Expr::bin(BinOp::Eq, lhs, Expr::Const(c))
            };
            let solutions: Vec<i64> = (-1000..=1000)
                .filter(|&v| eq.eval(&[0, 0, 0, v]) == Some(1))
                .collect();
            match linear_equality(&eq) {
                Some((3, Some(v))) => prop_assert_eq!(solutions.clone(), vec![v]),
                Some((3, None)) => prop_assert!(solutions.is_empty()),
                None => prop_assert!(m == 0 || solutions.is_empty()),
                other => prop_assert!(false, "{other:?}"),
            }
            let access = guarded(&[("v", VarKind::Uniform { range: None })], eq.clone());
            if never_holds(&access) {
                prop_assert!(solutions.is_empty());
            }
        }
    }

    proptest! {
        /// A guard over two warp-uniform values of small ranges (`(v / d) * m + w == c`,
        /// as a copy size chosen between constants reads) is found to hold nowhere
        /// exactly when no pair of values in the ranges satisfies it, by plain search.
        #[test]
        fn ranged_guards_agree_with_a_search(
            lo in -20i64..20, width in 0i64..12, lo_w in -3i64..3, width_w in 0i64..4,
            d in 1i64..5, m in -6i64..6, c in -40i64..40,
        ) {
            let hi = lo + width;
            let hi_w = lo_w + width_w;
            let guard = Expr::bin(
                BinOp::Eq,
                Expr::bin(
                    BinOp::Add,
                    Expr::bin(BinOp::Mul, Expr::bin(BinOp::Div, Expr::Var(3), Expr::Const(d)), Expr::Const(m)),
                    Expr::Var(4),
                ),
                Expr::Const(c),
            );
            let access = guarded(
                &[
                    ("v", VarKind::Uniform { range: Some((lo, hi)) }),
                    ("w", VarKind::Uniform { range: Some((lo_w, hi_w)) }),
                ],
                guard.clone(),
            );
            let somewhere = (lo..=hi).any(|v| {
                (lo_w..=hi_w).any(|w| guard.eval(&[0, 0, 0, v, w]) != Some(0))
            });
            prop_assert_eq!(never_holds(&access), !somewhere);
        }
    }

    /// A guard that reads a value of unknown range is never walked, however it reads.
    #[test]
    fn unranged_guards_are_not_walked() {
        let guard = Expr::bin(
            BinOp::Eq,
            Expr::bin(BinOp::Div, Expr::Var(3), Expr::Const(2)),
            Expr::Const(7),
        );
        let mut access = guarded(&[("v", VarKind::Uniform { range: None })], guard);
        assert!(!never_holds(&access));
        // 14 / 2 == 7: inside the range, it holds somewhere.
        access.vars[3].kind = VarKind::Uniform {
            range: Some((4, 16)),
        };
        assert!(!never_holds(&access));
        access.vars[3].kind = VarKind::Uniform {
            range: Some((4, 8)),
        };
        assert!(never_holds(&access));
    }

    /// Over every value of the pinned variable in a window, the accesses where any lane
    /// is active are exactly those at the constant, and there the address is unchanged.
    #[test]
    fn pinning_keeps_every_active_case() {
        let x = || Box::new(Expr::Var(0));
        let v = || Box::new(Expr::Var(3));
        let access = LoweredAccess {
            vars: vars(&[("v", VarKind::Uniform { range: None })]),
            address: Expr::Binary(BinOp::Mul, x(), v()),
            width: 4,
            atomic: false,
            guards: vec![Expr::Binary(
                BinOp::LogicAnd,
                Box::new(Expr::Binary(BinOp::Lt, x(), Box::new(Expr::Const(9)))),
                Box::new(Expr::Binary(BinOp::Eq, Box::new(Expr::Const(4)), v())),
            )],
            block: BlockShape { x: 32, y: 1, z: 1 },
            warp_size: 32,
            coords: None,
            extents: Vec::new(),
        };
        let (pinned, pins) = without_pinned_values(&access).expect("pinned");
        assert_eq!(pins, vec![Pinned { var: 3, value: 4 }]);
        for value in -40..40 {
            for lane in 0..32 {
                let values = [lane, 0, 0, value];
                let active = access.guards_hold(&values);
                assert_eq!(active, value == 4 && lane < 9);
                if active {
                    assert_eq!(access.address.eval(&values), pinned.address.eval(&values));
                    assert!(pinned.guards_hold(&values));
                }
            }
        }
    }
}
