//! Guards on values the address does not read, bounded from above instead of sampled.
//!
//! A bounds check such as `if (blockIdx.x * 32 + tid < width)` decides which lanes take
//! part, for values (`width`, `blockIdx.x`) that the address never reads. Switching lanes
//! off can only take distinct words out of a bank, so within one phase the wavefronts of
//! any set of active lanes are at most those of a larger set; and a warp's factor is at
//! most the wavefronts of its costliest phase. Dropping such guards and enumerating each
//! phase on its own (as if a warp were one phase) gives that largest phase cost `U`: an
//! upper bound on the factor for every value of what the guards read, proven by exact
//! enumeration when the rest of the access is enumerable, with no need to sample them.
//! - `U = 1`: the access is `ok` for every value.
//! - `U > 1` and a sampled case reaches it: the factor is exactly `U`.
//! - Otherwise the sampled verdict stands.
//!
//! A conflict-free bound decides whatever the sample finds, so when the first bound is
//! exact and conflict-free the sample is not walked at all
//! ([`conflict_free_before_sampling`]); and a bound that would itself be sampled is
//! walked only when a fully serialising case, the one way a sampled walk is exact, would
//! decide (the sampled verdict is that bad too).
use super::{enumerate_as_written, enumerate_if_exhaustive, thread_guards};
use super::{Budget, Shortcuts};
use crate::bank::BankParams;
use crate::model::ir::{LoweredAccess, VarKind};
use crate::model::verdict::{Undecided, Verdict};

/// `sampled` (an inexact enumeration of `access`) decided by the bound, when it can be.
/// The guards dropped first are those on values the address does not read (the bound is
/// then tightest); when that does not decide, every guard on a value sampling cannot
/// cover (an argument or loop count of unknown range, wherever else it occurs: dropping
/// any guard only adds lanes, so the bound still holds). `first` is the first bound when
/// [`conflict_free_before_sampling`] already enumerated it.
pub(super) fn decide_by_upper_bound(
    access: &LoweredAccess,
    params: &BankParams,
    budget: Budget,
    sampled: Verdict,
    shortcuts: Shortcuts,
    first: Option<&FirstBound>,
) -> Verdict {
    if matches!(sampled.reason, Some(Undecided::NoLaneActive)) {
        return sampled;
    }
    for reads in stages(access) {
        let known = first.filter(|f| f.reads == reads);
        if let Some(decided) =
            bound_without(access, params, budget, &sampled, reads, shortcuts, known)
        {
            return decided;
        }
    }
    sampled
}

/// The first bound ([`stages`]), enumerated before the sample: `None` when it would be
/// sampled itself.
pub(super) struct FirstBound {
    reads: u64,
    bound: Option<Verdict>,
}

/// Before the sampled enumeration of `access` (whose plan samples and walks at least one
/// combination): the verdict when the first bound is exact and conflict-free. The sample
/// would not change it: [`decide_by_upper_bound`] returns that bound whatever the sample
/// found, unless the sample were exact or reached no lane. It is not exact: a sampled walk
/// is exact only on a case that serialises a phase fully, and no phase conflicts; and it
/// reaches no lane only where the guards on thread ids alone switch every lane off
/// (checked here). The bound must also have evaluated every lane of every case: a lane it
/// skipped, switched on only by the dropped guards, would have hidden its phase.
/// Otherwise `Err` with what was learned, for [`decide_by_upper_bound`].
pub(super) fn conflict_free_before_sampling(
    access: &LoweredAccess,
    params: &BankParams,
    budget: Budget,
) -> Result<Verdict, Option<Box<FirstBound>>> {
    let phase_lanes = u64::from(params.phase_lanes(access.width));
    let Some(&reads) = stages(access).first() else {
        return Err(None);
    };
    if phase_lanes <= 1 {
        return Err(None);
    }
    let (_, relaxed, by_phase) = relaxations(access, params, reads);
    let bound = enumerate_if_exhaustive(&by_phase, params, budget);
    let free = bound.as_ref().is_some_and(|b| {
        b.exact
            && b.cost.is_some_and(|u| u.wavefronts == u.ideal)
            && !b.notes.iter().any(|n| n.ends_with(super::SKIPPED_NOTE))
    });
    if free && !thread_guards::no_lane_passes(access) {
        if let Some(decided) = bound.clone().and_then(|b| {
            conflict_free(
                b,
                &relaxed,
                &by_phase,
                params,
                budget,
                phase_lanes,
                Shortcuts::On,
            )
        }) {
            return Ok(decided);
        }
    }
    Err(Some(Box::new(FirstBound { reads, bound })))
}

/// The variables whose guards are dropped, stage by stage, each stage tried only when it
/// drops a guard and not the same guards as the stage before.
fn stages(access: &LoweredAccess) -> Vec<u64> {
    let address_mask = access.address.var_mask();
    let thread_mask = access.thread_mask();
    let unbounded_mask = access
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| {
            matches!(
                v.kind,
                VarKind::Uniform { range: None } | VarKind::Counter { trips: None }
            )
        })
        .fold(0u64, |m, (i, _)| m | 1u64 << i.min(63));
    let mut tried: Option<usize> = None;
    let mut out = Vec::new();
    for reads in [!thread_mask & !address_mask, unbounded_mask] {
        let dropped = access
            .guards
            .iter()
            .filter(|g| g.var_mask() & reads != 0)
            .count();
        if dropped == 0 || tried == Some(dropped) {
            continue;
        }
        tried = Some(dropped);
        out.push(reads);
    }
    out
}

/// `access` with the guards that read a variable of `reads` dropped: those guards, the
/// relaxed access, and the relaxed access with each phase its own warp.
fn relaxations(
    access: &LoweredAccess,
    params: &BankParams,
    reads: u64,
) -> (Vec<crate::model::ir::Expr>, LoweredAccess, LoweredAccess) {
    let (dropped, kept): (Vec<_>, Vec<_>) = access
        .guards
        .iter()
        .cloned()
        .partition(|g| g.var_mask() & reads != 0);
    let relaxed = LoweredAccess {
        guards: kept,
        ..access.clone()
    };
    // Each phase its own warp: the worst of them is the largest phase cost.
    let phase = params.phase_lanes(access.width).max(1);
    let by_phase = LoweredAccess {
        warp_size: relaxed.warp_size.min(phase),
        ..relaxed.clone()
    };
    (dropped, relaxed, by_phase)
}

/// The verdict of a conflict-free exact bound: the whole warp's wavefronts, every lane
/// on, for the report, when they are exact.
fn conflict_free(
    bound: Verdict,
    relaxed: &LoweredAccess,
    by_phase: &LoweredAccess,
    params: &BankParams,
    budget: Budget,
    phase_lanes: u64,
    shortcuts: Shortcuts,
) -> Option<Verdict> {
    if by_phase.warp_size == relaxed.warp_size {
        return Some(bound);
    }
    // Every phase is conflict-free, so no case serialises one: sampled, the whole warp's
    // enumeration cannot be exact.
    let whole = if phase_lanes <= 1 || shortcuts == Shortcuts::Off {
        Some(enumerate_as_written(relaxed, params, budget))
    } else {
        enumerate_if_exhaustive(relaxed, params, budget)
    };
    whole.filter(|w| w.exact)
}

/// The verdict that the bound with the guards that read a variable of `reads` dropped
/// decides, if any. `known` holds that bound when it was already enumerated (or found
/// to sample).
fn bound_without(
    access: &LoweredAccess,
    params: &BankParams,
    budget: Budget,
    sampled: &Verdict,
    reads: u64,
    shortcuts: Shortcuts,
    known: Option<&FirstBound>,
) -> Option<Verdict> {
    let thread_mask = access.thread_mask();
    let (dropped, relaxed, by_phase) = relaxations(access, params, reads);
    // Only an exact bound decides. A bound whose values must be sampled is exact only
    // when a case serialises its phase fully (`phase_lanes` words a bank), and that
    // decides only a sampled verdict that bad too: otherwise it is not enumerated.
    let phase_lanes = u64::from(params.phase_lanes(access.width));
    let saturation_decides = phase_lanes <= 1
        || shortcuts == Shortcuts::Off
        || sampled
            .cost
            .is_some_and(|c| c.wavefronts >= phase_lanes.saturating_mul(c.ideal));
    let bound = match known.map(|k| k.bound.as_ref()) {
        Some(Some(bound)) => bound.clone(),
        Some(None) | None if saturation_decides => enumerate_as_written(&by_phase, params, budget),
        Some(None) => return None,
        None => enumerate_if_exhaustive(&by_phase, params, budget)?,
    };
    let upper = bound.cost.filter(|_| bound.exact)?;
    if upper.wavefronts == upper.ideal {
        return conflict_free(
            bound,
            &relaxed,
            &by_phase,
            params,
            budget,
            phase_lanes,
            shortcuts,
        );
    }
    let reached = sampled
        .cost
        .is_some_and(|c| c.wavefronts * upper.ideal == upper.wavefronts * c.ideal);
    if !reached {
        return None;
    }
    // The bound's factor, witnessed by a sampled case: exact. Which lanes the dropped
    // guards leave on decides whether it is reached.
    let mut depends_on = sampled.depends_on.clone();
    for (i, v) in access.vars.iter().enumerate() {
        let in_dropped = dropped.iter().any(|g| g.var_mask() >> i.min(63) & 1 == 1);
        if in_dropped && i < 64 && thread_mask >> i & 1 == 0 && !depends_on.contains(&v.name) {
            depends_on.push(v.name.clone());
        }
    }
    Some(Verdict {
        exact: true,
        lower_bound: false,
        notes: bound.notes,
        depends_on,
        ..sampled.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::enumerate::{enumerate_walking_everything, Shortcuts};
    use crate::bank::Wavefronts;
    use crate::model::ir::{Axis, BinOp, BlockShape, Expr, VarInfo, VarKind};

    fn b(op: BinOp, x: Expr, y: Expr) -> Expr {
        Expr::bin(op, x, y)
    }

    /// `threadIdx.x`, a counter `k`, and `u`, `w`, `n` of unknown range, in a block of
    /// two warps.
    fn access(address: Expr, guards: Vec<Expr>) -> LoweredAccess {
        let unknown = || VarKind::Uniform { range: None };
        let kinds = [
            ("threadIdx.x", VarKind::Thread(Axis::X)),
            ("k", VarKind::Counter { trips: None }),
            ("u", unknown()),
            ("w", unknown()),
            ("n", unknown()),
        ];
        LoweredAccess {
            address,
            guards,
            vars: kinds
                .into_iter()
                .map(|(name, kind)| VarInfo {
                    name: name.into(),
                    kind,
                    loop_value: None,
                })
                .collect(),
            block: BlockShape { x: 64, y: 1, z: 1 },
            width: 4,
            warp_size: 32,
            atomic: false,
            coords: None,
            extents: vec![],
        }
    }
    const TX: usize = 0;
    const K: usize = 1;
    const U: usize = 2;
    const W: usize = 3;
    const N: usize = 4;

    /// `tx + 32 * w < n` and `k < n`: `k`, `w` and `n` are sampled, and nothing the
    /// guards read is in the address.
    fn bounds_check() -> Vec<Expr> {
        let (tx, k, w, n) = (Expr::Var(TX), Expr::Var(K), Expr::Var(W), Expr::Var(N));
        vec![
            b(
                BinOp::Lt,
                b(BinOp::Add, tx, b(BinOp::Mul, w, Expr::Const(32))),
                n.clone(),
            ),
            b(BinOp::Lt, k, n),
        ]
    }

    /// `s[tx]` under the bounds check: the sample is not walked, the bound decides `ok`,
    /// as walking everything does.
    #[test]
    fn a_conflict_free_bound_decides_before_the_sample() {
        let a = access(b(BinOp::Mul, Expr::Var(TX), Expr::Const(4)), bounds_check());
        let (params, budget) = (BankParams::default(), Budget::default());
        assert!(
            enumerate_if_exhaustive(&a, &params, budget).is_none(),
            "the plan samples"
        );
        let Ok(decided) = conflict_free_before_sampling(&a, &params, budget) else {
            panic!("the first bound is conflict-free and exact");
        };
        assert!(decided.exact);
        assert_eq!(decided, enumerate_walking_everything(&a, &params, budget));
        assert_eq!(decided, crate::analyse::enumerate(&a, &params, budget));
    }

    /// `s[64 / (tx - 5)]` under the bounds check and `tx + w != 5`: the bound, without the
    /// guards, would have lane 5 on, which divides by zero, and skip its warp; it does not
    /// decide before the sample.
    #[test]
    fn a_bound_that_skipped_a_lane_does_not_decide_before_the_sample() {
        let tx = Expr::Var(TX);
        let divisor = b(BinOp::Sub, tx.clone(), Expr::Const(5));
        let address = b(
            BinOp::Mul,
            b(BinOp::Div, Expr::Const(64), divisor),
            Expr::Const(4),
        );
        let mut guards = bounds_check();
        guards.push(b(
            BinOp::Ne,
            b(BinOp::Add, tx, Expr::Var(W)),
            Expr::Const(5),
        ));
        let a = access(address, guards);
        let (params, budget) = (BankParams::default(), Budget::default());
        assert!(conflict_free_before_sampling(&a, &params, budget).is_err());
        assert_eq!(
            crate::analyse::enumerate(&a, &params, budget),
            enumerate_walking_everything(&a, &params, budget)
        );
    }

    /// A bound whose plan samples (`tx * u / 3` with `u` of unknown range) decides nothing
    /// for a sampled verdict short of full serialisation: not walked, and walking it
    /// decides nothing either.
    #[test]
    fn a_sampled_bound_is_walked_only_when_saturation_would_decide() {
        let lane = b(BinOp::Mul, Expr::Var(TX), Expr::Var(U));
        let address = b(
            BinOp::Mul,
            b(BinOp::Div, lane, Expr::Const(3)),
            Expr::Const(4),
        );
        let a = access(address, bounds_check());
        let (params, budget) = (BankParams::default(), Budget::default());
        let reads = stages(&a)[0];
        for wavefronts in [2, 31] {
            let mut sampled = Verdict::unknown("");
            sampled.cost = Some(Wavefronts {
                wavefronts,
                ideal: 1,
            });
            let quick = bound_without(&a, &params, budget, &sampled, reads, Shortcuts::On, None);
            let walked = bound_without(&a, &params, budget, &sampled, reads, Shortcuts::Off, None);
            assert_eq!(quick, None);
            assert_eq!(walked, None, "{wavefronts}");
        }
    }
}
