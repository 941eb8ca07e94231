//! Exact enumeration of a warp's lanes under the bank model: the ground truth.
//!
//! For every warp of the block and every combination of the loop and uniform
//! values the access depends on, the byte address of each active lane is computed
//! and handed to [`crate::bank::count_wavefronts`]. The verdict is the worst case.
//! Cost is bounded by [`Budget`]: values that only shift every lane's address by the
//! same amount are reduced to their residues modulo the bank width (a shift by a
//! whole bank word only renames banks), and what still exceeds the budget is sampled
//! and the verdict marked as not exact.

use crate::analyse::verdict::{Method, Verdict};
use crate::analyse::warp_program::{Scratch, WarpProgram, MAX_LANES};
use crate::bank::{count_wavefronts, BankParams, Wavefronts};
use crate::lower::ir::{BinOp, Expr, LoweredAccess, VarKind};

/// Work limits for one access, in lane evaluations.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Most lane-address evaluations spent on one access.
    pub max_lane_evals: u64,
    /// Most values tried for a variable whose range is unknown or too large.
    pub sample_values: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_lane_evals: 1 << 17,
            sample_values: 64,
        }
    }
}

/// The values one non-thread variable is enumerated over, and whether that is all of them.
struct Domain {
    index: usize,
    values: Vec<i64>,
    complete: bool,
    /// Values are in order of importance: shrink by keeping a prefix.
    prioritized: bool,
}

/// Splits `e` into its top-level additive terms with their signs.
fn additive_terms<'a>(e: &'a Expr, negate: bool, out: &mut Vec<(&'a Expr, bool)>) {
    match e {
        Expr::Binary(BinOp::Add, a, b) => {
            additive_terms(a, negate, out);
            additive_terms(b, negate, out);
        }
        Expr::Binary(BinOp::Sub, a, b) => {
            additive_terms(a, negate, out);
            additive_terms(b, !negate, out);
        }
        _ => out.push((e, negate)),
    }
}

/// Sample values for a variable with no usable range: small values, powers of two and
/// their neighbours, which is where non-linear index arithmetic changes behaviour.
///
/// The list is in order of importance, so that a budget that keeps only a prefix keeps
/// the powers of two first: bank conflicts peak at strides that share factors with the
/// bank count.
fn sample_unbounded(n: u64, banks: i64) -> Vec<i64> {
    // Strides that share the most factors with the bank count conflict the most: try the
    // bank count and its neighbours in powers of two first, then a large value (a bound
    // that keeps every lane active), then the rest.
    let mut v: Vec<i64> = vec![
        0,
        1,
        banks,
        banks / 2,
        2,
        banks * 2,
        banks / 4,
        1 << 20,
        4,
        banks / 8,
        banks * 4,
    ];
    v.extend((1..20).map(|k| 1i64 << k));
    v.extend([3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 24, 48, 96]);
    for k in 2..20 {
        let p = 1i64 << k;
        v.extend([p - 1, p + 1]);
    }
    let mut seen = std::collections::HashSet::new();
    v.retain(|x| *x >= 0 && seen.insert(*x));
    v.truncate(n.max(1) as usize);
    v
}

fn thin(values: Vec<i64>, n: u64) -> (Vec<i64>, bool) {
    let n = n.max(1) as usize;
    if values.len() <= n {
        return (values, true);
    }
    let step = values.len().div_ceil(n);
    let mut out: Vec<i64> = values.iter().step_by(step).copied().collect();
    if let Some(&last) = values.last() {
        if out.last() != Some(&last) {
            out.push(last);
        }
    }
    (out, false)
}

/// Enumerates the access and returns its worst case.
pub fn enumerate(access: &LoweredAccess, params: &BankParams, budget: Budget) -> Verdict {
    let warp_size = u64::from(access.warp_size.max(1));
    let threads = access.block.threads();
    if threads == 0 {
        return Verdict::unknown("empty thread block");
    }
    let n_warps = threads.div_ceil(warp_size);
    let bw = i64::from(params.bank_width.max(1));

    let thread_mask_all: u64 = access
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| matches!(v.kind, VarKind::Thread(_)))
        .fold(0, |m, (i, _)| m | 1 << i.min(63));
    // Guards on uniform values only that share no variable with the address (or with a
    // kept guard) switch the whole warp on or off: the worst case is taken where they
    // hold, so they need not be enumerated.
    // A comparison with a uniform value of unknown range that occurs nowhere else
    // (`j < tiles` with `tiles` a kernel argument) holds for some value of it, whatever the
    // other side is: the worst case is taken where it holds.
    let occurrences = |i: usize| -> usize {
        usize::from(access.address.var_mask() >> i.min(63) & 1 == 1)
            + access
                .guards
                .iter()
                .filter(|g| g.var_mask() >> i.min(63) & 1 == 1)
                .count()
    };
    let free_comparison = |g: &Expr| -> bool {
        let Expr::Binary(op, a, b) = g else {
            return false;
        };
        if !matches!(
            op,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Ne | BinOp::Eq
        ) {
            return false;
        }
        [a, b].iter().any(|side| match side.as_ref() {
            Expr::Var(i) => {
                matches!(
                    access.vars.get(*i).map(|v| &v.kind),
                    Some(VarKind::Uniform { range: None })
                ) && occurrences(*i) == 1
            }
            _ => false,
        })
    };
    let guards: Vec<&Expr> = {
        let mut relevant = access.address.var_mask();
        let mut kept: Vec<bool> = access
            .guards
            .iter()
            .map(|g| g.var_mask() & thread_mask_all != 0)
            .collect();
        for (g, k) in access.guards.iter().zip(&kept) {
            if *k {
                relevant |= g.var_mask();
            }
        }
        loop {
            let mut changed = false;
            for (g, k) in access.guards.iter().zip(kept.iter_mut()) {
                if !*k && g.var_mask() & relevant != 0 {
                    *k = true;
                    relevant |= g.var_mask();
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        access
            .guards
            .iter()
            .zip(&kept)
            .filter(|(g, k)| **k && !free_comparison(g))
            .map(|(g, _)| g)
            .collect()
    };
    // Which variables matter, and which of them only shift every lane's address.
    let guard_mask = guards.iter().fold(0u64, |m, g| m | g.var_mask());
    let mut terms = Vec::new();
    additive_terms(&access.address, false, &mut terms);
    let thread_mask: u64 = access
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| matches!(v.kind, VarKind::Thread(_)))
        .fold(0, |m, (i, _)| m | 1 << i.min(63));
    let mut shift_terms: Vec<(&Expr, bool)> = Vec::new();
    let mut lane_terms_mask = guard_mask;
    for &(t, neg) in &terms {
        if t.var_mask() & thread_mask == 0 {
            shift_terms.push((t, neg));
        } else {
            lane_terms_mask |= t.var_mask();
        }
    }
    let shift_mask = shift_terms.iter().fold(0u64, |m, (t, _)| m | t.var_mask()) & !lane_terms_mask;
    // Shift terms that share a variable with a lane term must stay in the lane expression.
    let (pure_shift, mixed): (Vec<_>, Vec<_>) = shift_terms
        .into_iter()
        .partition(|(t, _)| t.var_mask() & !shift_mask == 0);
    let lane_expr = terms_to_expr(
        terms
            .iter()
            .filter(|(t, _)| t.var_mask() & thread_mask != 0)
            .copied()
            .chain(mixed.iter().copied()),
    );
    let shift_expr = terms_to_expr(pure_shift.iter().copied());

    let mut notes = Vec::new();
    let mut exact = true;
    let mut depends_on = Vec::new();
    let domain_for = |i: usize, n: u64| -> (Vec<i64>, bool) {
        match &access.vars[i].kind {
            VarKind::Thread(_) => (vec![0], true),
            VarKind::Counter { trips: Some(t) } => thin((0..(*t).min(1 << 20) as i64).collect(), n),
            VarKind::Counter { trips: None } => {
                ((0..n.min(budget.sample_values) as i64).collect(), false)
            }
            VarKind::Uniform {
                range: Some((lo, hi)),
            } => {
                if hi - lo < (1 << 20) {
                    thin((*lo..=*hi).collect(), n)
                } else {
                    (
                        sample_unbounded(
                            n.min(budget.sample_values),
                            i64::from(params.bank_count.max(1)),
                        )
                        .into_iter()
                        .filter(|v| v >= lo && v <= hi)
                        .collect(),
                        false,
                    )
                }
            }
            VarKind::Uniform { range: None } => (
                sample_unbounded(
                    n.min(budget.sample_values),
                    i64::from(params.bank_count.max(1)),
                ),
                false,
            ),
        }
    };

    // Residues of the pure shift modulo the bank width: the only part that matters.
    let shift_vars: Vec<usize> = (0..access.vars.len())
        .filter(|i| shift_mask >> (*i).min(63) & 1 == 1)
        .collect();
    let mut shifts: Vec<i64> = vec![0];
    if !shift_vars.is_empty() {
        let mut residues = std::collections::BTreeSet::new();
        let doms: Vec<Vec<i64>> = shift_vars
            .iter()
            .map(|&i| match &access.vars[i].kind {
                VarKind::Counter { trips: Some(t) } => (0..(*t as i64).min(bw * 4)).collect(),
                VarKind::Uniform {
                    range: Some((lo, hi)),
                } => (*lo..=(*hi).min(lo + bw * 4 - 1)).collect(),
                _ => (0..bw * 4).collect(),
            })
            .collect();
        let mut values = vec![0i64; access.vars.len()];
        for_each_combination(&doms, &mut |combo| {
            for (k, &i) in shift_vars.iter().enumerate() {
                values[i] = combo[k];
            }
            if let Some(s) = shift_expr.eval(&values) {
                residues.insert(s.rem_euclid(bw));
            }
            true
        });
        shifts = residues.into_iter().collect();
        if shifts.is_empty() {
            // No value of the shift can be evaluated: nothing to count, and nothing to
            // bound the enumeration's cost by (it would be zero per combination).
            return Verdict::unknown(
                "the index cannot be evaluated for any value (division by zero or bad shift)",
            );
        }
    }

    // The remaining non-thread variables are enumerated jointly.
    let other_mask = (lane_expr.var_mask() | guard_mask) & !thread_mask & !shift_mask;
    let per_combo_cost = (n_warps * warp_size * shifts.len() as u64).max(1);
    let others: Vec<usize> = (0..access.vars.len())
        .filter(|i| other_mask >> (*i).min(63) & 1 == 1)
        .collect();
    let mut domains: Vec<Domain> = others
        .iter()
        .map(|&i| {
            let (values, complete) = domain_for(i, u64::MAX);
            let prioritized = matches!(access.vars[i].kind, VarKind::Uniform { range: None });
            Domain {
                index: i,
                values,
                complete,
                prioritized,
            }
        })
        .collect();
    // Shrink the largest domains until the whole enumeration fits the budget.
    loop {
        let combos: u64 = domains
            .iter()
            .map(|d| d.values.len() as u64)
            .fold(1, u64::saturating_mul);
        if combos.saturating_mul(per_combo_cost) <= budget.max_lane_evals {
            break;
        }
        let Some(big) = domains
            .iter_mut()
            .filter(|d| d.values.len() > 2)
            .max_by_key(|d| d.values.len())
        else {
            return Verdict::unknown("too many warps and values to enumerate within the budget");
        };
        let target = (big.values.len() as u64 / 2)
            .min(budget.sample_values)
            .max(2);
        let values = std::mem::take(&mut big.values);
        big.values = if big.prioritized {
            values.into_iter().take(target as usize).collect()
        } else {
            thin(values, target).0
        };
        big.complete = false;
    }
    for d in &domains {
        let v = &access.vars[d.index];
        if !d.complete {
            exact = false;
            notes.push(format!(
                "`{}` was sampled at {} values",
                v.name,
                d.values.len()
            ));
        }
        if matches!(v.kind, VarKind::Uniform { .. }) {
            depends_on.push(v.name.clone());
        }
    }

    let mut worst: Option<(Wavefronts, Vec<i64>, u64)> = None;
    let mut values = vec![0i64; access.vars.len()];
    let mut lane_addrs: Vec<Option<i64>> = vec![None; warp_size as usize];
    let mut eval_failed = false;
    let mut results = std::collections::BTreeSet::new();
    let doms: Vec<Vec<i64>> = domains.iter().map(|d| d.values.clone()).collect();
    let thread_axes: Vec<(usize, crate::lower::ir::Axis)> = access
        .vars
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match v.kind {
            VarKind::Thread(a) => Some((i, a)),
            _ => None,
        })
        .collect();
    let mut skipped_combos = 0u64;
    let phase_lanes = u64::from(params.phase_lanes(access.width));
    let phases_per_warp = warp_size.div_ceil(phase_lanes.max(1));
    let mut saturated = false;
    // What no combination changes is computed once per lane: guards and addresses that
    // depend on the thread only. Guards without a thread variable are decided once per
    // combination, and only the mixed ones per lane.
    let on_threads_only = |e: &Expr| e.var_mask() & !thread_mask == 0;
    let (lane_guards, rest): (Vec<&Expr>, Vec<&Expr>) =
        guards.iter().copied().partition(|g| on_threads_only(g));
    let (combo_guards, mixed_guards): (Vec<&Expr>, Vec<&Expr>) = rest
        .into_iter()
        .partition(|g| g.var_mask() & thread_mask == 0);
    let fixed_address = on_threads_only(&lane_expr);
    let holds = |g: &&Expr, values: &[i64]| g.eval(values).is_none_or(|v| v != 0);
    // Each thread variable's value in every lane of the block.
    let thread_vars: Vec<usize> = thread_axes.iter().map(|&(i, _)| i).collect();
    let lane_inputs: Vec<Vec<i64>> = thread_axes
        .iter()
        .map(|&(_, axis)| {
            (0..n_warps * warp_size)
                .map(|linear| {
                    let (x, y, z) = access.block.coords(linear);
                    match axis {
                        crate::lower::ir::Axis::X => x,
                        crate::lower::ir::Axis::Y => y,
                        crate::lower::ir::Axis::Z => z,
                    }
                })
                .collect()
        })
        .collect();
    let set_thread = |values: &mut [i64], linear: u64| {
        for (&i, lane) in thread_vars.iter().zip(&lane_inputs) {
            values[i] = lane[linear as usize];
        }
    };
    // Per lane of the block: active under the thread-only guards, and its address when
    // no other variable moves it (`None` inside: the evaluation failed).
    let lanes: Vec<Option<(bool, Option<Option<i64>>)>> = (0..n_warps * warp_size)
        .map(|linear| {
            (linear < threads).then(|| {
                set_thread(&mut values, linear);
                let active = lane_guards.iter().all(|g| holds(g, &values));
                let address = fixed_address.then(|| lane_expr.eval(&values));
                (active, address)
            })
        })
        .collect();
    // With a fixed address per lane, a warp's outcome depends only on which lanes are
    // active: each (warp, active lanes) is counted once; `true` when its evaluation failed.
    let memo_ok = fixed_address && warp_size <= 64;
    // The per-lane work, a warp at a time (see `warp_program`).
    let mixed_programs: Vec<WarpProgram> = mixed_guards
        .iter()
        .map(|g| WarpProgram::new(g, &thread_vars))
        .collect();
    let lane_program = WarpProgram::new(&lane_expr, &thread_vars);
    let mut guard_scratch: Vec<Scratch> =
        mixed_programs.iter().map(|_| Scratch::default()).collect();
    let mut lane_scratch = Scratch::default();
    let chunks_per_warp = (warp_size as usize).div_ceil(MAX_LANES);
    // Per chunk of up to 64 lanes of a warp: the lanes the thread-only guards leave on.
    let chunk_active: Vec<u64> = (0..n_warps as usize)
        .flat_map(|warp| (0..chunks_per_warp).map(move |c| (warp, c * MAX_LANES)))
        .map(|(warp, start)| {
            let first = warp * warp_size as usize + start;
            let n = (warp_size as usize - start).min(MAX_LANES);
            (0..n)
                .filter(|&l| {
                    lanes
                        .get(first + l)
                        .copied()
                        .flatten()
                        .is_some_and(|(on, _)| on)
                })
                .fold(0u64, |m, l| m | 1 << l)
        })
        .collect();
    let mut combo_number = 0u64;
    let mut inputs: Vec<&[i64]> = Vec::with_capacity(thread_vars.len());
    let mut seen: std::collections::HashMap<(u64, u64), bool> = std::collections::HashMap::new();
    let mut shifted: Vec<Option<i64>> = vec![None; warp_size as usize];
    // Lane evaluations spent: the domains were shrunk to fit the budget, this is the
    // backstop that ends the enumeration whatever the estimate missed.
    let mut spent = 0u64;
    let mut over_budget = false;
    for_each_combination(&doms, &mut |combo| {
        spent = spent.saturating_add(per_combo_cost);
        if spent > budget.max_lane_evals.saturating_mul(2) {
            over_budget = true;
            return false;
        }
        for (k, d) in domains.iter().enumerate() {
            values[d.index] = combo[k];
        }
        let combo_active = combo_guards.iter().all(|g| holds(g, &values));
        combo_number += 1;
        for warp in 0..n_warps {
            // Active lanes as bits (lane `l` of a wider warp lands on bit `l % 64`).
            let mut mask = 0u64;
            lane_addrs.fill(None);
            let chunks = (0..warp_size as usize).step_by(MAX_LANES);
            for start in chunks.filter(|_| combo_active) {
                let n = (warp_size as usize - start).min(MAX_LANES);
                let first = warp as usize * warp_size as usize + start;
                let lane = |l: usize| lanes.get(first + l).copied().flatten();
                let chunk = warp as usize * chunks_per_warp + start / MAX_LANES;
                let mut active = chunk_active[chunk];
                if active == 0 {
                    continue;
                }
                inputs.clear();
                inputs.extend(lane_inputs.iter().map(|v| &v[first..first + n]));
                let key = (chunk, combo_number);
                // A guard that cannot be evaluated does not switch a lane off.
                for (g, scratch) in mixed_programs.iter().zip(&mut guard_scratch) {
                    let (v, failed) = g.eval(&values, &inputs, n, key, scratch);
                    let off = v
                        .iter()
                        .enumerate()
                        .fold(0u64, |m, (l, &x)| m | u64::from(x == 0) << l);
                    active &= !(off & !failed);
                }
                mask |= active;
                let computed = (!fixed_address)
                    .then(|| lane_program.eval(&values, &inputs, n, key, &mut lane_scratch));
                for l in (0..n).filter(|l| active >> l & 1 == 1) {
                    let address = match &computed {
                        Some((v, failed)) => (failed >> l & 1 == 0).then(|| v[l]),
                        None => lane(l).and_then(|(_, a)| a).flatten(),
                    };
                    match address {
                        Some(a) => lane_addrs[start + l] = Some(a),
                        None => eval_failed = true,
                    }
                }
            }
            if memo_ok {
                if let Some(&failed) = seen.get(&(warp, mask)) {
                    eval_failed = false;
                    skipped_combos += u64::from(failed);
                    continue;
                }
                seen.insert((warp, mask), eval_failed);
            }
            // A division by zero (or an out-of-range shift) cannot happen in a program
            // that runs: skip the values that cause it.
            if std::mem::take(&mut eval_failed) {
                skipped_combos += 1;
                continue;
            }
            for &shift in &shifts {
                for (s, a) in shifted.iter_mut().zip(&lane_addrs) {
                    *s = a.map(|a| a + shift);
                }
                let w = count_wavefronts(params, access.width, &shifted, access_is_atomic(access));
                results.insert((w.wavefronts, w.ideal));
                if worst
                    .as_ref()
                    .is_none_or(|(best, _, _)| w.is_worse_than(best))
                {
                    worst = Some((w, combo.to_vec(), warp));
                    // Every phase of a full warp serialised: nothing can be worse.
                    if w.ideal == phases_per_warp && w.wavefronts >= phase_lanes * w.ideal {
                        saturated = true;
                        return false;
                    }
                }
            }
        }
        true
    });
    let Some((cost, combo, warp)) = worst else {
        if skipped_combos > 0 {
            return Verdict::unknown(
                "the index cannot be evaluated for any lane (division by zero or bad shift)",
            );
        }
        return Verdict::unknown("no lane of any warp is active");
    };
    if cost.ideal == 0 {
        return Verdict::unknown(if exact {
            "no lane of any warp is active"
        } else {
            "no sampled combination of run-time values makes a lane active"
        });
    }
    if skipped_combos > 0 {
        notes.push(format!(
            "{skipped_combos} warp and value combinations that divide by zero or shift out of range were skipped"
        ));
    }
    if results.len() <= 1 {
        depends_on.clear();
    }
    if saturated {
        // The worst case found serialises every phase fully: no other value can do worse,
        // so sampling lost nothing.
        exact = true;
        notes.retain(|n| !n.contains("was sampled"));
    }
    if over_budget {
        exact = false;
        notes.push("the enumeration stopped at its budget of lane evaluations".to_string());
    }
    if !exact {
        notes.push(
            "the verdict is the worst of the sampled cases, not proven over all values".to_string(),
        );
    }
    let mut worst_case = vec![("warp".to_string(), warp as i64)];
    for (k, d) in domains.iter().enumerate() {
        worst_case.push((access.vars[d.index].name.clone(), combo[k]));
    }
    Verdict {
        cost: Some(cost),
        reason: None,
        method: Method::Enumeration,
        exact,
        explanation: None,
        depends_on,
        notes,
        worst_case,
    }
}

/// Atomics are marked by the lowering with a width-carrying flag in the access kind;
/// enumeration itself treats all accesses alike except for word merging.
fn access_is_atomic(access: &LoweredAccess) -> bool {
    access.atomic
}

fn terms_to_expr<'a>(terms: impl Iterator<Item = (&'a Expr, bool)>) -> Expr {
    let mut acc = Expr::Const(0);
    for (t, neg) in terms {
        acc = Expr::bin(if neg { BinOp::Sub } else { BinOp::Add }, acc, t.clone());
    }
    acc
}

/// Calls `f` on every combination of one value per domain, in lexicographic order,
/// until `f` returns false.
pub fn for_each_combination(domains: &[Vec<i64>], f: &mut dyn FnMut(&[i64]) -> bool) {
    if domains.iter().any(Vec::is_empty) {
        return;
    }
    let mut idx = vec![0usize; domains.len()];
    let mut combo: Vec<i64> = domains.iter().map(|d| d[0]).collect();
    loop {
        if !f(&combo) {
            return;
        }
        let mut k = domains.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < domains[k].len() {
                combo[k] = domains[k][idx[k]];
                break;
            }
            idx[k] = 0;
            combo[k] = domains[k][0];
        }
    }
}
