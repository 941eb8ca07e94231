//! Terms of the address that move a whole warp by whole bank words, dropped before
//! enumeration.
//!
//! A term whose value is the same for every lane of a warp (it reads run-time values and
//! only those thread coordinates that are constant within each warp, as `threadIdx.y` is
//! when a row of the block is a whole number of warps) and always a multiple of the bank
//! width moves every lane's address by the same whole number of words: it renames banks
//! and changes no phase's wavefronts. Such a term need not be enumerated at all, which
//! matters when a guard also reads its values (`s_in[(2 + ty) * C / 8]` under
//! `c < C`): the residue reduction of pure shifts only applies to values no guard reads.
//! The term must evaluate for every value (no division by a variable, no shift by an
//! amount that can be out of range): a value where it fails is not an execution, and
//! without the term it would be counted as one.

use super::residues::divisor;
use crate::model::ir::{BinOp, Expr, LoweredAccess, VarKind};

/// `access` with its whole-word warp-uniform terms dropped from the address, or `None`
/// when it has none.
pub(super) fn without_whole_word_shifts(
    access: &LoweredAccess,
    bank_width: i64,
) -> Option<LoweredAccess> {
    let kinds: Vec<VarKind> = access.vars.iter().map(|v| v.kind.clone()).collect();
    let address = super::distribute(&access.address, &kinds);
    let varying = varying_thread_vars(access);
    let mut terms = Vec::new();
    address.additive_terms(false, &mut terms);
    // A value with no value at all (a loop that never runs) leaves the access unreached:
    // the term that reads it stays, so enumeration still sees that.
    let empty = access
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| match v.kind {
            VarKind::Counter { trips: Some(0) } => true,
            VarKind::Uniform {
                range: Some((lo, hi)),
            } => lo > hi,
            _ => false,
        })
        .fold(0u64, |m, (i, _)| m | 1 << i.min(63));
    let droppable = |t: &Expr| {
        let mask = t.var_mask();
        mask != 0
            && mask & empty == 0
            && mask & varying == 0
            && max_var(t) < 63
            && total(t)
            && divisor(t) % bank_width.max(1) == 0
    };
    if !terms.iter().any(|(t, _)| droppable(t)) {
        return None;
    }
    let kept = terms.into_iter().filter(|(t, _)| !droppable(t));
    Some(LoweredAccess {
        address: super::terms_to_expr(kept),
        ..access.clone()
    })
}

/// The thread variables whose value differs between two lanes of some warp of the
/// block, as a mask (a variable past the 63rd counts as varying). A coordinate changes
/// exactly at the multiples of its stride in the linear thread index (1 for x, the
/// block's width for y, a layer for z) when its extent is over 1: two lanes of one warp
/// see it differ unless every such multiple starts a warp. Computed from the shape, not
/// by visiting the block's threads (a fuzzed `[numthreads(8, 4, 0x7fffffff)]` has 2^36).
fn varying_thread_vars(access: &LoweredAccess) -> u64 {
    let warp = u64::from(access.warp_size.max(1));
    let b = access.block;
    let mut varying = 0u64;
    for (i, v) in access.vars.iter().enumerate() {
        let VarKind::Thread(axis) = v.kind else {
            continue;
        };
        if i >= 63 {
            varying |= 1 << 63;
            continue;
        }
        let (stride, extent) = match axis {
            crate::model::ir::Axis::X => (1, u64::from(b.x)),
            crate::model::ir::Axis::Y => (u64::from(b.x), u64::from(b.y)),
            crate::model::ir::Axis::Z => (u64::from(b.x) * u64::from(b.y), u64::from(b.z)),
        };
        if extent > 1 && stride % warp != 0 {
            varying |= 1 << i;
        }
    }
    varying
}

/// The largest variable index `e` reads (0 when none).
fn max_var(e: &Expr) -> usize {
    let mut m = 0;
    e.each_var(&mut |i| m = m.max(i));
    m
}

/// True when `e` evaluates for every value of its variables: divisions and remainders by
/// constants other than 0 and -1 (`i64::MIN / -1` overflows), shifts by constants in
/// range.
pub(super) fn total(e: &Expr) -> bool {
    match e {
        Expr::Const(_) | Expr::Var(_) => true,
        Expr::Unary(_, a) => total(a),
        Expr::Binary(BinOp::Div | BinOp::Rem, a, b) => {
            b.as_const().is_some_and(|d| d != 0 && d != -1) && total(a)
        }
        Expr::Binary(BinOp::Shl | BinOp::Shr, a, b) => {
            b.as_const().is_some_and(|k| (0..63).contains(&k)) && total(a)
        }
        Expr::Binary(_, a, b) => total(a) && total(b),
        Expr::Select(c, t, f) => total(c) && total(t) && total(f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::{Axis, BlockShape, VarInfo};

    fn var(name: &str, kind: VarKind) -> VarInfo {
        VarInfo {
            name: name.into(),
            kind,
            loop_value: None,
        }
    }

    fn access(block: BlockShape, address: Expr) -> LoweredAccess {
        LoweredAccess {
            vars: vec![
                var("threadIdx.x", VarKind::Thread(Axis::X)),
                var("threadIdx.y", VarKind::Thread(Axis::Y)),
                var("C", VarKind::Uniform { range: None }),
            ],
            address,
            width: 4,
            atomic: false,
            guards: vec![],
            block,
            warp_size: 32,
            coords: None,
            extents: vec![],
        }
    }

    fn b(op: BinOp, x: Expr, y: Expr) -> Expr {
        Expr::bin(op, x, y)
    }

    proptest::proptest! {
        /// Exhaustive over the run-time value in `-100..100` and every warp: dropping the
        /// terms changes no warp's wavefronts (the bank model's count of its lanes).
        #[test]
        fn dropping_changes_no_warps_wavefronts(
            s1 in 1i64..=33,
            (a, d) in (0i64..3, 1i64..=8),
            m in proptest::sample::select(vec![1i64, 2, 4, 6, 8, 16, 32, 64]),
            (x, y) in (proptest::sample::select(vec![8u32, 16, 32, 48, 64]), 1u32..=4),
            width in proptest::sample::select(vec![4u32, 8, 16]),
            bank_width in proptest::sample::select(vec![4i64, 8]),
        ) {
            let lane = b(BinOp::Mul, Expr::Var(0), Expr::Const(s1 * i64::from(width)));
            let row = b(
                BinOp::Mul,
                b(
                    BinOp::Div,
                    b(BinOp::Mul, b(BinOp::Add, Expr::Var(1), Expr::Const(a)), Expr::Var(2)),
                    Expr::Const(d),
                ),
                Expr::Const(m),
            );
            let mut original = access(BlockShape { x, y, z: 1 }, b(BinOp::Add, lane, row));
            original.width = width;
            let params = crate::bank::BankParams {
                bank_width: bank_width as u32,
                ..crate::bank::BankParams::default()
            };
            let Some(reduced) = without_whole_word_shifts(&original, bank_width) else {
                // Kept only when not whole words or not uniform in a warp.
                proptest::prop_assert!(m % bank_width != 0 || x % 32 != 0 && y > 1);
                return Ok(());
            };
            let warps = original.block.threads().div_ceil(32);
            for c in -100..100 {
                for w in 0..warps {
                    let lanes = |acc: &LoweredAccess| -> Vec<Option<i64>> {
                        (0..32)
                            .map(|l| {
                                let linear = w * 32 + l;
                                (linear < acc.block.threads()).then(|| {
                                    let mut values = vec![0, 0, c];
                                    acc.bind_thread(&mut values, linear);
                                    acc.address.eval(&values).expect("total")
                                })
                            })
                            .collect()
                    };
                    let count = |acc: &LoweredAccess| {
                        crate::bank::count_wavefronts(&params, width, &lanes(acc), false)
                    };
                    proptest::prop_assert_eq!(count(&original), count(&reduced), "C = {}, warp {}", c, w);
                }
            }
        }
    }

    #[test]
    fn a_row_uniform_term_of_whole_words_is_dropped_only_when_rows_are_whole_warps() {
        // 4 * tx + 4 * (ty * C / 8)
        let address = b(
            BinOp::Add,
            b(BinOp::Mul, Expr::Var(0), Expr::Const(4)),
            b(
                BinOp::Mul,
                b(
                    BinOp::Div,
                    b(BinOp::Mul, Expr::Var(1), Expr::Var(2)),
                    Expr::Const(8),
                ),
                Expr::Const(4),
            ),
        );
        let rows_of_32 = access(BlockShape { x: 32, y: 8, z: 1 }, address.clone());
        let dropped = without_whole_word_shifts(&rows_of_32, 4).expect("dropped");
        assert_eq!(dropped.address.var_mask(), 1);
        // Rows of 16: two values of `ty` in one warp, the term is not uniform.
        let rows_of_16 = access(BlockShape { x: 16, y: 8, z: 1 }, address.clone());
        assert!(without_whole_word_shifts(&rows_of_16, 4).is_none());
        // Half a word is not a whole one.
        let half = access(
            BlockShape { x: 32, y: 8, z: 1 },
            b(
                BinOp::Add,
                Expr::Var(0),
                b(BinOp::Mul, Expr::Var(2), Expr::Const(2)),
            ),
        );
        assert!(without_whole_word_shifts(&half, 4).is_none());
        // A division by a run-time value may fail: kept.
        let by_value = access(
            BlockShape { x: 32, y: 8, z: 1 },
            b(
                BinOp::Add,
                Expr::Var(0),
                b(
                    BinOp::Mul,
                    b(BinOp::Div, Expr::Const(64), Expr::Var(2)),
                    Expr::Const(4),
                ),
            ),
        );
        assert!(without_whole_word_shifts(&by_value, 4).is_none());
    }
}
