//! An access whose guards could not be decided for every value (their run-time values
//! sampled, or no sampled value switching a lane on) is analysed again with its guards
//! dropped: every lane of every warp active, at every iteration and value. Guards only
//! switch lanes off, and lanes switched off never make a phase cost more, so when that
//! is exactly conflict-free, so is the access under any guards (docs/bank-model.md,
//! "What a verdict promises").

use crate::analyse::{Budget, Verdict, VerdictCache};
use crate::bank::BankParams;
use crate::model::ir::LoweredAccess;
use crate::model::verdict::Undecided;

/// `verdict` of `access`, or, when it is undecided for want of values and the access is
/// conflict-free with its guards dropped, that exact `ok` with a note saying so.
pub(super) fn decide_without_guards(
    access: &LoweredAccess,
    verdict: Verdict,
    cache: &VerdictCache,
    params: &BankParams,
    budget: Budget,
) -> Verdict {
    // Only a verdict left undecided for want of values: one whose index cannot be
    // evaluated stays so (the index is the same without the guards).
    let sampled = matches!(&verdict.reason, Some(Undecided::Because(why))
        if why.starts_with("not proven") || why.starts_with("no sampled combination"));
    if verdict.cost.is_some() || !sampled || access.guards.is_empty() {
        return verdict;
    }
    let mut free = access.clone();
    free.guards.clear();
    let mut v = cache.analyse(&free, params, budget);
    // A warp skipped for a lane the guards would switch off proves nothing of it.
    let free_everywhere = v.exact
        && v.cost.is_some_and(|c| c.wavefronts <= c.ideal)
        && !crate::analyse::enumerate::skipped_warps(&v);
    if !free_everywhere {
        return verdict;
    }
    v.notes.push(format!(
        "conflict-free with every lane active; its guards, which were not decided for every value ({}), only switch lanes off",
        verdict.reason.as_ref().map_or_else(String::new, ToString::to_string)
    ));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::{Axis, BinOp, BlockShape, Expr, VarInfo, VarKind};

    /// `s[(ty < 4 ? ty * 32 : tx) + 0 / (tx + ty)]` under `tx + ty != 0`, in a block of
    /// 8 x 8: the guard keeps lane (0, 0) from dividing by zero, and the other lanes of
    /// the first warp read 4 rows of one bank, 4-way; the second warp is conflict-free.
    /// Without the guard, the first warp has a failing lane and is skipped.
    #[test]
    fn a_guard_that_keeps_a_lane_from_failing_is_not_dropped() {
        let tx = || Expr::Var(0);
        let ty = || Expr::Var(1);
        let divisor = || Expr::bin(BinOp::Add, tx(), ty());
        let row = Expr::Select(
            Box::new(Expr::bin(BinOp::Lt, ty(), Expr::Const(4))),
            Box::new(Expr::bin(BinOp::Mul, ty(), Expr::Const(32))),
            Box::new(tx()),
        );
        let address = Expr::bin(
            BinOp::Mul,
            Expr::bin(
                BinOp::Add,
                row,
                Expr::bin(BinOp::Div, Expr::Const(0), divisor()),
            ),
            Expr::Const(4),
        );
        let var = |name: &str, kind| VarInfo {
            name: name.into(),
            kind,
            loop_value: None,
        };
        let access = LoweredAccess {
            address,
            guards: vec![Expr::bin(BinOp::Ne, divisor(), Expr::Const(0))],
            vars: vec![
                var("threadIdx.x", VarKind::Thread(Axis::X)),
                var("threadIdx.y", VarKind::Thread(Axis::Y)),
            ],
            block: BlockShape { x: 8, y: 8, z: 1 },
            width: 4,
            warp_size: 32,
            atomic: false,
            coords: None,
            extents: vec![],
        };
        let params = BankParams::default();
        let cache = VerdictCache::default();
        // The analysis with the guard: 4-way.
        let guarded = cache.analyse(&access, &params, Budget::default());
        assert_eq!(guarded.cost.map(|c| c.factor()), Some(4.0), "{guarded:?}");
        // Dropped, the warp is skipped: taken as undecided for want of values, the
        // re-analysis must not call it conflict-free.
        let undecided = Verdict::unknown("not proven: `n` was sampled at 64 values");
        let v = decide_without_guards(&access, undecided, &cache, &params, Budget::default());
        assert!(v.cost.is_none(), "{v:?}");
    }
}
