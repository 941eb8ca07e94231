//! Guards that read the thread coordinates only, decided lane by lane before any
//! run-time value is sampled: when they switch off every lane of the block (`warpId != 0`
//! in a block of one warp), no value of the rest can switch one on, and the access is
//! exactly unreached, not "no sampled combination makes a lane active".

use crate::model::ir::LoweredAccess;

/// The most threads a block is checked for lane by lane.
const MAX_THREADS: u64 = 1 << 16;

/// True when the conjuncts of the guards that read no variable but the thread
/// coordinates hold for no thread of the block. A conjunct that cannot be evaluated holds,
/// as in the bank model.
pub(super) fn no_lane_passes(access: &LoweredAccess) -> bool {
    let thread_mask = access.thread_mask();
    let mut conjuncts = Vec::new();
    for g in &access.guards {
        g.conjuncts(&mut conjuncts);
    }
    conjuncts.retain(|c| c.var_mask() & !thread_mask == 0 && c.var_mask() != 0);
    let threads = access.block.threads();
    if conjuncts.is_empty() || threads > MAX_THREADS {
        return false;
    }
    let mut values = vec![0i64; access.vars.len()];
    (0..threads).all(|t| {
        access.bind_thread(&mut values, t);
        conjuncts.iter().any(|c| c.eval(&values) == Some(0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::{Axis, BinOp, BlockShape, Expr, VarInfo, VarKind};

    fn access(block: BlockShape, guards: Vec<Expr>) -> LoweredAccess {
        let var = |name: &str, kind| VarInfo {
            name: name.into(),
            kind,
            loop_value: None,
        };
        LoweredAccess {
            vars: vec![
                var("threadIdx.x", VarKind::Thread(Axis::X)),
                var("n", VarKind::Uniform { range: None }),
            ],
            address: Expr::Var(0),
            width: 4,
            atomic: false,
            guards,
            block,
            warp_size: 32,
            coords: None,
            extents: vec![],
        }
    }

    /// Checked against every lane and a spread of values of `n`: a claim of no lane means
    /// no lane passes all guards for any of them.
    #[test]
    fn a_warp_id_test_switches_off_a_block_of_one_warp() {
        let t = Expr::Var(0);
        let n = Expr::Var(1);
        let warp_id = Expr::bin(BinOp::Div, t.clone(), Expr::Const(32));
        let not_first = Expr::bin(BinOp::Ne, warp_id, Expr::Const(0));
        let bound = Expr::bin(BinOp::Lt, t.clone(), n.clone());
        let guards = vec![Expr::bin(BinOp::LogicAnd, bound.clone(), not_first.clone())];
        let one_warp = BlockShape { x: 32, y: 1, z: 1 };
        let two_warps = BlockShape { x: 64, y: 1, z: 1 };
        for (block, expected) in [(one_warp, true), (two_warps, false)] {
            let a = access(block, guards.clone());
            assert_eq!(no_lane_passes(&a), expected, "{block:?}");
            let passes = (-40..200).any(|v| {
                (0..block.threads()).any(|th| {
                    let mut values = vec![0, v];
                    a.bind_thread(&mut values, th);
                    a.guards.iter().all(|g| g.eval(&values) != Some(0))
                })
            });
            assert_eq!(passes, !expected, "{block:?}");
        }
        // A guard on `n` alone decides nothing here.
        assert!(!no_lane_passes(&access(one_warp, vec![bound])));
    }
}
