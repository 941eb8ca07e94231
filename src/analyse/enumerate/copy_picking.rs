//! Guards that only pick which copies of an address run: they read thread coordinates
//! the address does not (`threadIdx.y % np == 0` for `s[threadIdx.x * d]`) and run-time
//! values nothing else reads, and share no value with the address or the other guards.
//!
//! Lanes that agree on the coordinates the address and the other guards read (a class)
//! address the same word, and a word costs once in a phase however many lanes read it
//! (not for atomics). So a phase's cost is the same with or without those guards
//! whenever, in it, every class keeps one lane they let run. When each warp, or a warp
//! alike to it (the same coordinates lane by lane), has values of the guards' own that do
//! so in every phase (a witness, found by trying values: a witness found proves it), the
//! worst case over what the guards let run is the worst case without them, exactly
//! (fewer lanes never cost more within one phase; with several phases only guards that
//! switch whole warps are dropped, and only when no lane's address can fail); and
//! their values, which sampling may take where no lane runs (`np` at 0 or 1), leave the
//! enumeration. Without a witness for every warp nothing is dropped.

use crate::bank::BankParams;
use crate::model::ir::{BinOp, Expr, LoweredAccess, VarKind};
use std::collections::HashMap;

/// At most this many combinations of the guards' values are tried per warp.
const MAX_TRIES: usize = 1024;
/// At most this many lane evaluations are spent looking for witnesses per access.
const MAX_WORK: usize = 1 << 22;

/// The access without the guards, and for each warp a warp alike to it where they let
/// every class run (the worst warp is reported as that one).
pub(super) struct Dropped {
    pub access: LoweredAccess,
    /// `witness[w]`: a warp alike to `w` with a witness.
    pub witness: Vec<u64>,
}

/// `access` without its guards that only pick copies, when every warp has a witness;
/// `None` when there are none, the access is atomic, or a warp has no witness.
pub(super) fn without_copy_picking_guards(
    access: &LoweredAccess,
    params: &BankParams,
) -> Option<Dropped> {
    let warp_size = u64::from(access.warp_size.max(1));
    let threads = access.block.threads();
    if threads == 0 || access.atomic || access.vars.len() > 63 || access.guards.is_empty() {
        return None;
    }
    let thread_mask = access.thread_mask();
    // The guards tied to the address: sharing a variable (a thread coordinate or a
    // run-time value) with it or with a tied guard, transitively.
    let mut tied = vec![false; access.guards.len()];
    let mut reach = access.address.var_mask();
    tie(&access.guards, &mut tied, &mut reach);
    let picking: Vec<&Expr> = access
        .guards
        .iter()
        .zip(&tied)
        .filter(|(_, t)| !**t)
        .map(|(g, _)| g)
        .collect();
    // Guards that read no thread coordinate at all are `relevant_guards`' to drop.
    if !picking.iter().any(|g| g.var_mask() & thread_mask != 0) {
        return None;
    }
    // A guard that leaves part of a warp running may switch off a conflict-free phase
    // and so raise the factor: with several phases, only guards that switch whole warps
    // (reading coordinates the same in every lane of a warp) are dropped. And a lane
    // whose address fails skips its warp, which such a guard could prevent: addresses
    // that can fail are left alone.
    let phases = params.phase_lanes(access.width) < access.warp_size;
    if (phases && picking.iter().any(|g| g.var_mask() & varying(access) != 0))
        || can_fail(&access.address)
    {
        return None;
    }
    let own: Vec<usize> = (0..access.vars.len())
        .filter(|&i| picking.iter().any(|g| g.var_mask() >> i & 1 == 1))
        .filter(|&i| thread_mask >> i & 1 == 0)
        .collect();
    let candidates: Vec<Vec<i64>> = own.iter().map(|&i| tries(&access.vars[i].kind)).collect();
    let lens = prefix_lengths(&candidates);
    let combos: usize = lens.iter().product();
    let n_warps = threads.div_ceil(warp_size);
    let lanes_of = |w: u64| (w * warp_size)..((w + 1) * warp_size).min(threads);
    let phase = u64::from(params.phase_lanes(access.width).max(1));
    // Alike warps: the same coordinates the address and the tied guards read, lane by
    // lane (so phase by phase).
    let key_vars: Vec<usize> = (0..access.vars.len())
        .filter(|&i| (thread_mask & reach) >> i & 1 == 1)
        .collect();
    let mut values = vec![0i64; access.vars.len()];
    let mut classes: HashMap<Vec<i64>, Option<u64>> = HashMap::new();
    let mut class_of = Vec::with_capacity(usize::try_from(n_warps).ok()?);
    let mut work = 0usize;
    for w in 0..n_warps {
        let mut key = Vec::new();
        for t in lanes_of(w) {
            access.bind_thread(&mut values, t);
            key.extend(key_vars.iter().map(|&i| values[i]));
        }
        key.push(lanes_of(w).count() as i64);
        if !classes.contains_key(&key) {
            work = work.saturating_add(combos.saturating_mul(warp_size as usize));
            if work > MAX_WORK {
                return None;
            }
            // Each phase's lanes, grouped by class.
            let mut groups: Vec<Vec<Vec<u64>>> = Vec::new();
            let lanes: Vec<u64> = lanes_of(w).collect();
            for chunk in lanes.chunks(phase as usize) {
                let mut by_class: HashMap<Vec<i64>, Vec<u64>> = HashMap::new();
                for &t in chunk {
                    access.bind_thread(&mut values, t);
                    let k: Vec<i64> = key_vars.iter().map(|&i| values[i]).collect();
                    by_class.entry(k).or_default().push(t);
                }
                groups.push(by_class.into_values().collect());
            }
            let found = covered(access, &picking, &own, &candidates, &lens, &groups);
            classes.insert(key.clone(), found.then_some(w));
        }
        class_of.push(key);
    }
    let witness = class_of
        .iter()
        .map(|k| classes.get(k).copied().flatten())
        .collect::<Option<Vec<u64>>>()?;
    let guards = access
        .guards
        .iter()
        .zip(&tied)
        .filter(|(_, t)| **t)
        .map(|(g, _)| g.clone())
        .collect();
    Some(Dropped {
        access: LoweredAccess {
            guards,
            ..access.clone()
        },
        witness,
    })
}

/// The thread variables whose coordinate differs between two lanes of some warp.
fn varying(access: &LoweredAccess) -> u64 {
    let warp_size = u64::from(access.warp_size.max(1));
    let threads = access.block.threads();
    let mut values = vec![0i64; access.vars.len()];
    let mut first = vec![0i64; access.vars.len()];
    let mut mask = 0u64;
    for t in 0..threads {
        access.bind_thread(&mut values, t);
        if t % warp_size == 0 {
            first.clone_from(&values);
            continue;
        }
        for (i, v) in access.vars.iter().enumerate().take(63) {
            if matches!(v.kind, VarKind::Thread(_)) && values[i] != first[i] {
                mask |= 1 << i;
            }
        }
    }
    mask
}

/// Whether evaluating `e` can fail (a division, remainder or shift).
fn can_fail(e: &Expr) -> bool {
    match e {
        Expr::Const(_) | Expr::Var(_) => false,
        Expr::Unary(_, a) => can_fail(a),
        Expr::Binary(op, a, b) => {
            matches!(op, BinOp::Div | BinOp::Rem | BinOp::Shl | BinOp::Shr)
                || can_fail(a)
                || can_fail(b)
        }
        Expr::Select(c, a, b) => can_fail(c) || can_fail(a) || can_fail(b),
    }
}

/// Marks in `tied` every guard that shares a variable with `reach`, transitively,
/// adding each one's variables to `reach`.
pub(super) fn tie(guards: &[Expr], tied: &mut [bool], reach: &mut u64) {
    loop {
        let mut changed = false;
        for (g, t) in guards.iter().zip(tied.iter_mut()) {
            if !*t && g.var_mask() & *reach != 0 {
                *t = true;
                *reach |= g.var_mask();
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// Values to try for a variable of kind `kind`, the likeliest witnesses first: its first
/// values, and for one of unknown range small negative values and powers of two with
/// their neighbours too.
fn tries(kind: &VarKind) -> Vec<i64> {
    match kind {
        VarKind::Counter { trips } => (0..trips.map_or(64, |t| t.min(64) as i64)).collect(),
        VarKind::Uniform {
            range: Some((lo, hi)),
        } => {
            let mut v: Vec<i64> = (*lo..=(*hi).min(lo.saturating_add(63))).collect();
            if hi > lo {
                v.push(*hi);
            }
            v
        }
        VarKind::Uniform { range: None } => {
            let mut v: Vec<i64> = (0..=64).chain(-8..0).collect();
            for k in 7..31 {
                v.extend([(1i64 << k) - 1, 1 << k, (1 << k) + 1]);
            }
            v
        }
        VarKind::Thread(_) | VarKind::Line { .. } => vec![0],
    }
}

/// How many of each variable's values are tried: a prefix of each, halving the longest
/// until the product is at most [`MAX_TRIES`].
fn prefix_lengths(candidates: &[Vec<i64>]) -> Vec<usize> {
    let mut lens: Vec<usize> = candidates.iter().map(Vec::len).collect();
    while lens.iter().product::<usize>() > MAX_TRIES {
        let Some(big) = lens.iter_mut().max_by_key(|l| **l) else {
            break;
        };
        *big = (*big / 2).max(1);
    }
    lens
}

/// Whether some tried combination of the values of `own` makes, in every phase, every
/// class (`groups[phase][class]`, lanes by linear id) hold one lane where all `guards`
/// evaluate to true (a guard that cannot be evaluated is no witness).
fn covered(
    access: &LoweredAccess,
    guards: &[&Expr],
    own: &[usize],
    candidates: &[Vec<i64>],
    lens: &[usize],
    groups: &[Vec<Vec<u64>>],
) -> bool {
    let mut values = vec![0i64; access.vars.len()];
    let mut index = vec![0usize; own.len()];
    loop {
        for (k, &i) in own.iter().enumerate() {
            values[i] = candidates[k][index[k]];
        }
        let runs = |t: u64, values: &mut Vec<i64>| {
            access.bind_thread(values, t);
            guards
                .iter()
                .all(|g| g.eval(values).is_some_and(|v| v != 0))
        };
        if groups
            .iter()
            .flatten()
            .all(|class| class.iter().any(|&t| runs(t, &mut values)))
        {
            return true;
        }
        // The next combination.
        let mut k = 0;
        loop {
            if k == own.len() {
                return false;
            }
            index[k] += 1;
            if index[k] < lens[k] {
                break;
            }
            index[k] = 0;
            k += 1;
        }
    }
}
