//! An upper bound over every run-time value from lanes whose addresses move together.
//!
//! Split the address into its terms on thread ids only and the terms that read a
//! run-time value (a loop counter, a uniform, a digitised line). Lanes that agree on every
//! thread id the second kind reads form a group: whatever the values, the group's
//! addresses are its thread-only addresses plus one common shift. A shift by whole bank
//! words renames banks, so the most distinct words a group puts in one bank of one phase
//! is the most over the shift's residues modulo the bank width; and a phase's cost is at
//! most the sum of its groups' (words of different groups may only merge). The sum over
//! phases bounds each warp's wavefronts for every value, without enumerating the values.
//! - A sampled case that reaches the bound's factor is the exact worst case.
//! - Otherwise the sampled verdict stands.
//!
//! Guards must switch lanes by thread ids only, or whole warps by run-time values only,
//! unless the warp is one phase: then a guard on both is dropped (switching lanes off
//! never adds distinct words to a bank of a phase).

use crate::bank::{count_wavefronts, BankParams};
use crate::model::ir::{BinOp, Expr, LoweredAccess, VarKind};
use crate::model::verdict::Verdict;
use std::collections::BTreeMap;

/// The most warps of a block this bound visits.
const MAX_WARPS: u64 = 64;

/// A group of lanes: its phase, and the values of the thread ids it agrees on.
type GroupKey = (u64, Vec<i64>);

/// `sampled` (an inexact enumeration of `access` that found a conflict) made exact when
/// the bound is reached.
pub(super) fn decide_by_groups(
    access: &LoweredAccess,
    params: &BankParams,
    sampled: Verdict,
) -> Verdict {
    let Some(found) = sampled.cost else {
        return sampled;
    };
    if sampled.exact || found.wavefronts <= found.ideal {
        return sampled;
    }
    let Some((bound_w, bound_i)) = bound(access, params) else {
        return sampled;
    };
    if found.wavefronts * bound_i != bound_w * found.ideal {
        return sampled;
    }
    let notes = sampled
        .notes
        .iter()
        .filter(|n| !n.contains("sampled") && !n.contains("lower bound"))
        .cloned()
        .chain([
            "exact: the lanes that agree on the thread ids the run-time values are combined \
             with move together, which bounds the factor for every value, and a case reaches it"
                .to_string(),
        ])
        .collect();
    Verdict {
        exact: true,
        lower_bound: false,
        notes,
        ..sampled
    }
}

/// The largest factor, as `(wavefronts, ideal)`, that any value can give (module
/// comment); `None` when the access is not of the form the bound needs.
pub fn bound(access: &LoweredAccess, params: &BankParams) -> Option<(u64, u64)> {
    let thread_mask = access.thread_mask();
    let kinds: Vec<VarKind> = access.vars.iter().map(|v| v.kind.clone()).collect();
    let address = super::distribute(&access.address, &kinds);
    let reads_thread = |e: &Expr| e.var_mask() & thread_mask != 0;
    let reads_other = |e: &Expr| e.var_mask() & !thread_mask != 0;
    // A guard on thread ids and run-time values switches lanes off: within one phase that
    // never adds distinct words to a bank (see `relax`), so with a warp of one phase it is
    // dropped, all its lanes on; with more, the ideal could change, and the bound is not
    // tried.
    let one_phase = params.phase_lanes(access.width) >= access.warp_size;
    if !one_phase
        && access
            .guards
            .iter()
            .any(|g| reads_thread(g) && reads_other(g))
    {
        return None;
    }
    let lane_guards: Vec<&Expr> = access
        .guards
        .iter()
        .filter(|g| reads_thread(g) && !reads_other(g))
        .collect();
    let mut terms = Vec::new();
    address.additive_terms(false, &mut terms);
    let mut thread_part = Expr::Const(0);
    let mut group_mask = 0u64;
    for (t, neg) in terms {
        if reads_other(t) {
            group_mask |= t.var_mask() & thread_mask;
        } else {
            let op = if neg { BinOp::Sub } else { BinOp::Add };
            thread_part = Expr::bin(op, thread_part, t.clone());
        }
    }
    let ws = u64::from(access.warp_size.max(1));
    if ws > 1024 {
        return None;
    }
    let threads = access.block.threads();
    // Real blocks hold at most 1,024 threads (32 warps); a shape past that (a fuzzed
    // `[numthreads(8, 4, 0x7fffffff)]`) is left to what sampling said.
    if threads.div_ceil(ws) > MAX_WARPS {
        return None;
    }
    let phase = u64::from(params.phase_lanes(access.width).max(1));
    let bw = i64::from(params.bank_width.max(1));
    let mut values = vec![0i64; access.vars.len()];
    let mut worst: Option<(u64, u64)> = None;
    for warp in 0..threads.div_ceil(ws) {
        // Per phase, the lanes of each group with their thread-only addresses.
        let mut groups: BTreeMap<GroupKey, Vec<(usize, i64)>> = BTreeMap::new();
        for lane in 0..ws {
            let linear = warp * ws + lane;
            if linear >= threads {
                break;
            }
            access.bind_thread(&mut values, linear);
            if !lane_guards
                .iter()
                .all(|g| g.eval(&values).is_none_or(|v| v != 0))
            {
                continue;
            }
            let key: Vec<i64> = (0..access.vars.len().min(64))
                .filter(|i| group_mask >> i & 1 == 1)
                .map(|i| values[i])
                .collect();
            let address = thread_part.eval(&values)?;
            groups
                .entry((lane / phase, key))
                .or_default()
                .push((lane as usize, address));
        }
        let mut wavefronts = 0u64;
        let mut phases = std::collections::BTreeSet::new();
        for ((p, _), lanes) in &groups {
            phases.insert(*p);
            let mut most = 0;
            for r in 0..bw {
                let mut addrs = vec![None; ws as usize];
                for &(l, a) in lanes {
                    addrs[l] = Some(a.checked_add(r)?);
                }
                most = most
                    .max(count_wavefronts(params, access.width, &addrs, access.atomic).wavefronts);
            }
            wavefronts += most;
        }
        let ideal = phases.len() as u64;
        if ideal == 0 {
            continue;
        }
        // A phase costs at most one wavefront per active lane's words: the bound of a
        // group sum never needs capping for the comparison, which only asks equality.
        if worst.is_none_or(|(w, i)| wavefronts * i > w * ideal) {
            worst = Some((wavefronts, ideal));
        }
    }
    worst
}
