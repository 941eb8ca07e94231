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
use super::enumerate_as_written;
use super::Budget;
use crate::bank::BankParams;
use crate::model::ir::{LoweredAccess, VarKind};
use crate::model::verdict::{Undecided, Verdict};

/// `sampled` (an inexact enumeration of `access`) decided by the bound, when it can be.
/// The guards dropped first are those on values the address does not read (the bound is
/// then tightest); when that does not decide, every guard on a value sampling cannot
/// cover (an argument or loop count of unknown range, wherever else it occurs: dropping
/// any guard only adds lanes, so the bound still holds).
pub(super) fn decide_by_upper_bound(
    access: &LoweredAccess,
    params: &BankParams,
    budget: Budget,
    sampled: Verdict,
) -> Verdict {
    if matches!(sampled.reason, Some(Undecided::NoLaneActive)) {
        return sampled;
    }
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
    let stages = [!thread_mask & !address_mask, unbounded_mask];
    let mut tried: Option<usize> = None;
    for reads in stages {
        let dropped = access
            .guards
            .iter()
            .filter(|g| g.var_mask() & reads != 0)
            .count();
        if dropped == 0 || tried == Some(dropped) {
            continue;
        }
        tried = Some(dropped);
        if let Some(decided) = bound_without(access, params, budget, &sampled, reads) {
            return decided;
        }
    }
    sampled
}

/// The verdict that the bound with the guards that read a variable of `reads` dropped
/// decides, if any.
fn bound_without(
    access: &LoweredAccess,
    params: &BankParams,
    budget: Budget,
    sampled: &Verdict,
    reads: u64,
) -> Option<Verdict> {
    let thread_mask = access.thread_mask();
    let (dropped, kept): (Vec<_>, Vec<_>) = access
        .guards
        .iter()
        .cloned()
        .partition(|g| g.var_mask() & reads != 0);
    // Each phase its own warp: the worst of them is the largest phase cost.
    let relaxed = LoweredAccess {
        guards: kept,
        ..access.clone()
    };
    let phase = params.phase_lanes(access.width).max(1);
    let by_phase = LoweredAccess {
        warp_size: relaxed.warp_size.min(phase),
        ..relaxed.clone()
    };
    let bound = enumerate_as_written(&by_phase, params, budget);
    let upper = bound.cost.filter(|_| bound.exact)?;
    if upper.wavefronts == upper.ideal {
        // Conflict-free: the whole warp's wavefronts, every lane on, for the report.
        if by_phase.warp_size == relaxed.warp_size {
            return Some(bound);
        }
        let whole = enumerate_as_written(&relaxed, params, budget);
        return whole.exact.then_some(whole);
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
