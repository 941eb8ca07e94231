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
/// (`v * 4 == 2`): then no lane of any warp takes part, whatever the other values.
pub(super) fn never_holds(access: &LoweredAccess) -> bool {
    access.guards.iter().any(|g| {
        let mut conjuncts = Vec::new();
        g.conjuncts(&mut conjuncts);
        conjuncts
            .into_iter()
            .any(|c| matches!(linear_equality(c), Some((_, None))))
    })
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
            let access = LoweredAccess {
                vars: vars(&[("v", VarKind::Uniform { range: None })]),
                address: Expr::Var(0),
                width: 4,
                atomic: false,
                guards: vec![eq.clone()],
                block: BlockShape { x: 32, y: 1, z: 1 },
                warp_size: 32,
                coords: None,
                extents: Vec::new(),
            };
            if never_holds(&access) {
                prop_assert!(solutions.is_empty());
            }
        }
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
