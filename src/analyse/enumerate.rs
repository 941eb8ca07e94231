//! Exact enumeration of a warp's lanes under the bank model: the ground truth.
//!
//! For every warp of the block and every combination of the loop and uniform
//! values the access depends on, the byte address of each active lane is computed
//! and handed to [`crate::bank::count_wavefronts`]. The verdict is the worst case.
//! Cost is bounded by [`Budget`]: values that only shift every lane's address by the
//! same amount are reduced to their residues modulo the bank width (a shift by a
//! whole bank word only renames banks), and what still exceeds the budget is sampled
//! and the verdict marked as not exact.
//!
//! A run-time value that enters the address only through ring operations (`+ - *` and
//! shifts by amounts it does not change) and no guard is decided for every value at once:
//! the banks then depend only on its residue modulo `bank-count * bank-width`, and within
//! one residue class a value far from zero gives the worst case (two lanes can share a
//! word for finitely many values only, and sharing only merges words). Enumerating one
//! such value per residue is exhaustive.
//!
//! A value that a guard pins to a constant (`v == 4`) is that constant ([`pinned`]): no
//! lane is active at any other value.
//!
//! Terms that move a whole warp by whole words are dropped first ([`whole_words`]), and
//! a ranged value that only one whole-warp comparison reads takes the end of its range
//! that makes it hold ([`exists`]); a value a guard bounds is enumerated up to that
//! bound ([`guard_bounds`]), and one read only periodically by the address and the
//! guards over one period ([`residues::period_in`]); values whose rectangle is over the
//! budget are enumerated by their distinct cases ([`cases`]). All exhaustive.
//!
//! Sampling never proves absence: a sampled enumeration that finds a conflict reports it
//! as a lower bound (`lower_bound`), one that finds none is undecided.
//!
//! [`enumerate`] runs in named steps: the guards that matter ([`relevant_guards`]), the
//! address split into its per-lane part and its pure shifts ([`split_terms`]), the shifts
//! reduced to residues ([`shift_residues`]), the variables' domains ([`choose_domains`],
//! [`fit_to_budget`]), the per-lane tables ([`lane_tables`]), the combination loop
//! ([`walk`]) and the verdict with its condition ([`verdict`]). The residue arithmetic is
//! in [`residues`].

use crate::analyse::warp_program::{Scratch, WarpProgram, MAX_LANES};
use crate::bank::{count_wavefronts, BankParams, Wavefronts};
use crate::model::ir::{BinOp, Expr, LoweredAccess, VarKind};
use crate::model::verdict::{Method, Verdict};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The end of the note of a verdict whose enumeration skipped combinations that could
/// not be evaluated (after their number).
const SKIPPED_NOTE: &str =
    " warp and value combinations that divide by zero or shift out of range were skipped";

/// Whether the enumeration behind `v` skipped warps whose address cannot be evaluated
/// for some lane (a division by zero, a shift out of range): its verdict says nothing of
/// those warps, which a guard switching the failing lanes off would bring back.
pub fn skipped_warps(v: &Verdict) -> bool {
    v.notes.iter().any(|n| n.ends_with(SKIPPED_NOTE))
}

/// The most threads a block may hold (CUDA and Direct3D 12 alike).
const MAX_BLOCK_THREADS: u64 = 1024;

mod cases;
mod exists;
pub mod groups;
mod guard_bounds;
pub mod lines;
mod pinned;
mod relax;
mod residues;
mod terms;
mod thread_guards;
mod whole_words;
use residues::{form_in, period_in, residue_condition, residue_period, residue_representatives};
use terms::{distribute, only_shift_amount};

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
    /// `Some(m)` when the values are one representative per residue modulo `m` (see the
    /// module comment): complete although far fewer than the variable's values.
    residue: Option<i64>,
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

/// Enumerates the access and returns its worst case. What sampling leaves undecided
/// may still be decided by an upper bound over the lanes that guards switch off
/// ([`relax`]), or over the shifts that run-time values give groups of lanes ([`groups`]).
pub fn enumerate(access: &LoweredAccess, params: &BankParams, budget: Budget) -> Verdict {
    enumerate_with(access, params, budget, Shortcuts::On)
}

/// Whether some guard of `access` is an equality that no integer solves (`n * 4 == 2`,
/// the one-byte branch of a copy helper sized `n * 4`): no lane of any warp runs it, for
/// any value of anything, so it is dead code rather than an access nobody could decide.
pub fn never_runs(access: &LoweredAccess) -> bool {
    pinned::never_holds(access)
}

/// [`enumerate`] without the shortcuts that skip an enumeration whose result could not
/// change the verdict ([`Shortcuts`]): every sample and bound is walked. For the tests
/// that check the shortcuts agree with it.
#[doc(hidden)]
pub fn enumerate_walking_everything(
    access: &LoweredAccess,
    params: &BankParams,
    budget: Budget,
) -> Verdict {
    enumerate_with(access, params, budget, Shortcuts::Off)
}

/// Whether enumeration may skip work whose result it can tell in advance could not change
/// the verdict: a sampled walk when an exact conflict-free bound decides the access
/// whatever the sample finds ([`relax::conflict_free_before_sampling`]), and a sampled
/// bound that could not be exact or would not decide ([`relax`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Shortcuts {
    On,
    Off,
}

fn enumerate_with(
    access: &LoweredAccess,
    params: &BankParams,
    budget: Budget,
    shortcuts: Shortcuts,
) -> Verdict {
    // CUDA and Direct3D blocks hold at most 1,024 threads; a larger shape (a fuzzed
    // `[numthreads(8, 8, 0x80000000)]`) cannot run, and its enumeration would not end.
    let threads = access.block.threads();
    if threads > MAX_BLOCK_THREADS {
        return Verdict::unknown(format!(
            "the block shape has {threads} threads, more than the {MAX_BLOCK_THREADS} a block may hold"
        ));
    }
    let bank_width = i64::from(params.bank_width.max(1));
    let reduced = whole_words::without_whole_word_shifts(access, bank_width);
    let access = reduced.as_ref().unwrap_or(access);
    let written = access;
    let existential = exists::without_existential_values(access);
    let (access, ends) = match &existential {
        Some((a, ends)) => (a, ends.as_slice()),
        None => (access, &[][..]),
    };
    if pinned::never_holds(access) {
        return Verdict::unreached();
    }
    let pinned = pinned::without_pinned_values(access);
    let (access, pins) = match &pinned {
        Some((a, pins)) => (a, pins.as_slice()),
        None => (access, &[][..]),
    };
    let mut verdict = decide(access, params, budget, shortcuts);
    // A conflict where a guard holds depends on the value that decides whether it does
    // (the end of its range is a value where it does).
    if verdict.cost.is_some_and(|c| c.wavefronts > c.ideal) {
        for p in pins {
            let name = &access.vars[p.var].name;
            if !verdict.depends_on.contains(name) {
                verdict.depends_on.push(name.clone());
            }
            if !verdict.worst_case.iter().any(|(n, _)| n == name) {
                verdict.worst_case.push((name.clone(), p.value));
            }
        }
        for r in ends {
            let name = &access.vars[r.var].name;
            if !verdict.depends_on.contains(name) {
                verdict.depends_on.push(name.clone());
            }
            if !verdict.worst_case.iter().any(|(n, _)| n == name) {
                let value = exists::nearest_witness(written, r, &verdict.worst_case);
                verdict.worst_case.push((name.clone(), value));
            }
        }
    }
    verdict
}

/// The verdict of `access` (whole words, existential and pinned values already taken
/// out): its enumeration as written, and when that samples, the bounds of [`relax`] and
/// [`groups`].
fn decide(
    access: &LoweredAccess,
    params: &BankParams,
    budget: Budget,
    shortcuts: Shortcuts,
) -> Verdict {
    let mut first_bound = None;
    let verdict = if shortcuts == Shortcuts::On {
        match enumerate_if_exhaustive(access, params, budget) {
            Some(exhaustive) => exhaustive,
            // The sample would be walked only to be overruled by a conflict-free bound.
            None => match relax::conflict_free_before_sampling(access, params, budget) {
                Ok(decided) => return decided,
                Err(probe) => {
                    first_bound = probe;
                    enumerate_as_written(access, params, budget)
                }
            },
        }
    } else {
        enumerate_as_written(access, params, budget)
    };
    if verdict.exact {
        return verdict;
    }
    let bounded = relax::decide_by_upper_bound(
        access,
        params,
        budget,
        verdict,
        shortcuts,
        first_bound.as_deref(),
    );
    if bounded.exact {
        bounded
    } else {
        groups::decide_by_groups(access, params, bounded)
    }
}

/// [`enumerate`] with the guards as written.
fn enumerate_as_written(access: &LoweredAccess, params: &BankParams, budget: Budget) -> Verdict {
    // `Walk` always walks: the fallback is never taken.
    enumerate_planned(access, params, budget, WhenSampled::Walk)
        .unwrap_or_else(|| Verdict::unknown("not enumerated"))
}

/// [`enumerate_as_written`], unless its plan samples: `None` then, at once, without
/// walking (a plan that stops before the walk, over the budget, or walks no combination
/// still gives its verdict). For a caller that can use only an exact verdict and that a
/// sampled case serialising every phase fully, which would make a sampled enumeration
/// exact, would not help either.
pub(super) fn enumerate_if_exhaustive(
    access: &LoweredAccess,
    params: &BankParams,
    budget: Budget,
) -> Option<Verdict> {
    enumerate_planned(access, params, budget, WhenSampled::GiveUp)
}

/// What [`enumerate_planned`] does when the values it would enumerate are over the
/// budget and must be sampled.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WhenSampled {
    /// Enumerate the sample: the worst case seen (a lower bound), or exact when a case
    /// serialises every phase fully.
    Walk,
    /// Give up at once (see [`enumerate_if_exhaustive`]).
    GiveUp,
}

/// [`enumerate_as_written`]; `None` only with [`WhenSampled::GiveUp`], when the plan
/// samples.
fn enumerate_planned(
    access: &LoweredAccess,
    params: &BankParams,
    budget: Budget,
    when_sampled: WhenSampled,
) -> Option<Verdict> {
    let warp_size = u64::from(access.warp_size.max(1));
    let threads = access.block.threads();
    if threads == 0 {
        return Some(Verdict::unknown("empty thread block"));
    }
    let s = Setup {
        access,
        params,
        budget,
        warp_size,
        threads,
        n_warps: threads.div_ceil(warp_size),
        bw: i64::from(params.bank_width.max(1)),
        thread_mask: access.thread_mask(),
    };
    let (guards, lane_bounds) = relevant_guards(s.access, s.thread_mask, s.params);
    // Which variables matter, and which of them only shift every lane's address.
    let guard_mask = guards.iter().fold(0u64, |m, g| m | g.var_mask());
    let kinds: Vec<VarKind> = access.vars.iter().map(|v| v.kind.clone()).collect();
    let address = distribute(&access.address, &kinds);
    let terms = split_terms(&s, &address, guard_mask);
    let (shifts, shift_sampled) = match shift_residues(&s, &terms.pure_shift) {
        Ok(found) => found,
        Err(verdict) => return Some(*verdict),
    };
    // The remaining non-thread variables are enumerated jointly.
    let other_mask = (terms.lane_expr.var_mask() | guard_mask) & !s.thread_mask & !terms.shift_mask;
    let per_combo_cost = (s.n_warps * warp_size * shifts.len() as u64).max(1);
    let mut domains = choose_domains(&s, other_mask, &terms.lane_expr, &guards, guard_mask);
    // Over the budget, the distinct cases of values enumerated whole may fit where their
    // rectangle does not (a condition by residues needs the rectangle: each residue's
    // own worst case). Sampled values keep their order of importance instead.
    let fits = |n: u64| n.saturating_mul(per_combo_cost) <= budget.max_lane_evals;
    let rectangle = domains
        .iter()
        .map(|d| d.values.len() as u64)
        .fold(1, u64::saturating_mul);
    let cases = (!fits(rectangle) && domains.iter().all(|d| d.complete && d.residue.is_none()))
        .then(|| {
            let most =
                usize::try_from(budget.max_lane_evals / per_combo_cost).unwrap_or(usize::MAX);
            cases::distinct_cases(
                &domains,
                &terms.lane_expr,
                &guards,
                s.thread_mask,
                access.vars.len(),
                most,
            )
        })
        .flatten();
    if cases.is_none() {
        if let Err(verdict) = fit_to_budget(&mut domains, per_combo_cost, budget) {
            return Some(*verdict);
        }
    }
    let mut sampling = Sampling::of(access, &domains, shift_sampled);
    if let Some(c) = cases.as_ref().filter(|c| c.combos.len() < c.distinct) {
        let names: Vec<String> = domains
            .iter()
            .map(|d| access.vars[d.index].name.clone())
            .collect();
        let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        sampling.thinned(
            format!(
                "{} of the {} distinct cases of {} were tried",
                c.combos.len(),
                c.distinct,
                quoted.join(", ")
            ),
            &names,
        );
    }
    // A plan with no combination to walk is decided at once (no lane is reached).
    let walks_some = match &cases {
        Some(c) => !c.combos.is_empty(),
        None => domains.iter().all(|d| !d.values.is_empty()),
    };
    if !sampling.exact && walks_some && when_sampled == WhenSampled::GiveUp {
        return None;
    }
    // For the values decided by residues, the worst factor of each residue (over the
    // other values), for the condition in words.
    let residue_domains: Vec<(usize, i64)> = domains
        .iter()
        .enumerate()
        .filter(|(_, d)| d.complete)
        .filter_map(|(k, d)| Some((k, d.residue?)))
        .collect();
    // The condition needs every residue's factor: the enumeration goes on past a
    // saturating case when that costs at most a quarter of the budget.
    let total_combos: u64 = domains
        .iter()
        .map(|d| d.values.len() as u64)
        .fold(1, u64::saturating_mul);
    let want_condition = !residue_domains.is_empty()
        && total_combos.saturating_mul(per_combo_cost) <= budget.max_lane_evals / 4;
    // What no combination changes is computed once per lane: guards and addresses that
    // depend on the thread only. Guards without a thread variable are decided once per
    // combination, and only the mixed ones per lane.
    let on_threads_only = |e: &Expr| e.var_mask() & !s.thread_mask == 0;
    let (lane_guards, rest): (Vec<&Expr>, Vec<&Expr>) =
        guards.iter().copied().partition(|g| on_threads_only(g));
    let (combo_guards, mixed_guards): (Vec<&Expr>, Vec<&Expr>) = rest
        .into_iter()
        .partition(|g| g.var_mask() & s.thread_mask == 0);
    let fixed_address = on_threads_only(&terms.lane_expr);
    let mut values = vec![0i64; access.vars.len()];
    let lanes = lane_tables(
        &s,
        &lane_guards,
        &terms.lane_expr,
        fixed_address,
        &mut values,
    );
    let plan = Plan {
        domains: &domains,
        cases: cases.as_ref().map(|c| c.combos.as_slice()),
        shifts: &shifts,
        combo_guards,
        mixed_guards,
        lane_expr: &terms.lane_expr,
        fixed_address,
        residue_domains: &residue_domains,
        want_condition,
        per_combo_cost,
    };
    let outcome = walk(&s, &plan, &lanes, &mut values);
    Some(verdict(
        &s,
        &domains,
        outcome,
        sampling,
        lane_bounds,
        &residue_domains,
    ))
}

/// What the enumeration of one access works from.
struct Setup<'a> {
    access: &'a LoweredAccess,
    params: &'a BankParams,
    budget: Budget,
    warp_size: u64,
    threads: u64,
    n_warps: u64,
    /// The bank width in bytes.
    bw: i64,
    /// The thread variables, as a mask.
    thread_mask: u64,
}

/// `access` with only the guards enumeration evaluates: the others hold in the worst
/// case it names (see [`relevant_guards`]), so an evaluation of that case (a bank map)
/// leaves them out too.
pub fn with_deciding_guards(access: &LoweredAccess, params: &BankParams) -> LoweredAccess {
    let (kept, _) = relevant_guards(access, access.thread_mask(), params);
    let guards = access
        .guards
        .iter()
        .filter(|g| kept.iter().any(|k| std::ptr::eq(*k, *g)))
        .cloned()
        .collect();
    LoweredAccess {
        guards,
        ..access.clone()
    }
}

/// The guards that decide which lanes take part, and the names of the bounds that switch
/// lanes off (free comparisons that read a thread id).
///
/// Guards on uniform values only that share no variable with the address (or with a
/// kept guard) switch the whole warp on or off: the worst case is taken where they
/// hold, so they need not be enumerated.
/// A comparison with a uniform value of unknown range that occurs nowhere else
/// (`j < tiles` with `tiles` a kernel argument) holds for some value of it, whatever the
/// other side is: the worst case is taken where it holds, when the warp is one phase.
fn relevant_guards<'a>(
    access: &'a LoweredAccess,
    thread_mask_all: u64,
    params: &BankParams,
) -> (Vec<&'a Expr>, Vec<String>) {
    let occurrences = |i: usize| -> usize {
        usize::from(access.address.var_mask() >> i.min(63) & 1 == 1)
            + access
                .guards
                .iter()
                .filter(|g| g.var_mask() >> i.min(63) & 1 == 1)
                .count()
    };
    // Only an order or `!=` holds for every lane at some value: `t == p` holds for one
    // value of `t` at a time. And only within one phase do fewer lanes never cost more:
    // with several, a guard that switches off a conflict-free phase raises the factor.
    let one_phase = params.phase_lanes(access.width) >= access.warp_size;
    let free_comparison = |g: &Expr| -> bool {
        let Expr::Binary(op, a, b) = g else {
            return false;
        };
        if !one_phase
            || !matches!(
                op,
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Ne
            )
        {
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
    // A free comparison that also reads a thread id decides which lanes take part: the
    // worst case is where it holds for every lane, but other values switch lanes off and
    // can change the factor, so its value is named.
    let lane_bounds: Vec<String> = access
        .guards
        .iter()
        .filter(|g| g.var_mask() & thread_mask_all != 0 && free_comparison(g))
        .flat_map(|g| {
            (0..access.vars.len())
                .filter(|i| g.var_mask() >> (*i).min(63) & 1 == 1)
                .filter(|i| matches!(access.vars[*i].kind, VarKind::Uniform { range: None }))
                .map(|i| access.vars[i].name.clone())
                .collect::<Vec<_>>()
        })
        .collect();
    (guards, lane_bounds)
}

/// The address split into the part evaluated per lane and the pure shifts: terms that
/// move every lane's address by the same amount.
struct Terms<'e> {
    /// The terms that read a thread variable, with the shifts mixed with them.
    lane_expr: Expr,
    /// The terms that only shift every lane's address, each with its sign.
    pure_shift: Vec<(&'e Expr, bool)>,
    /// The variables of the pure shifts.
    shift_mask: u64,
}

/// Splits `address` (distributed) into its lane part and its pure shifts.
fn split_terms<'e>(s: &Setup, address: &'e Expr, guard_mask: u64) -> Terms<'e> {
    let thread_mask = s.thread_mask;
    let mut terms = Vec::new();
    address.additive_terms(false, &mut terms);
    let mut shift_terms: Vec<(&Expr, bool)> = Vec::new();
    let mut lane_terms_mask = guard_mask;
    for &(t, neg) in &terms {
        if t.var_mask() & thread_mask == 0 {
            shift_terms.push((t, neg));
        } else {
            lane_terms_mask |= t.var_mask();
        }
    }
    // Shift terms that share a variable with a lane term must stay in the lane expression,
    // and then so must every other term that reads one of their variables: to a fixpoint.
    let mut shift_mask;
    loop {
        shift_mask = shift_terms.iter().fold(0u64, |m, (t, _)| m | t.var_mask()) & !lane_terms_mask;
        let mixed_mask = shift_terms
            .iter()
            .filter(|(t, _)| t.var_mask() & !shift_mask != 0)
            .fold(0u64, |m, (t, _)| m | t.var_mask());
        if mixed_mask & !lane_terms_mask == 0 {
            break;
        }
        lane_terms_mask |= mixed_mask;
    }
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
    Terms {
        lane_expr,
        pure_shift,
        shift_mask,
    }
}

/// The residues of the pure shifts modulo the bank width (the only part that matters),
/// and whether they were sampled; `Err` with the verdict when no shift is reached or
/// none can be evaluated.
fn shift_residues(
    s: &Setup,
    pure_shift: &[(&Expr, bool)],
) -> Result<(Vec<i64>, bool), Box<Verdict>> {
    let access = s.access;
    let bw = s.bw;
    let mut shift_sampled = false;
    // Constant terms are evaluated too: one that fails (a shift by a negative amount)
    // fails every lane, as it would in the lane expression.
    if pure_shift.is_empty() {
        return Ok((vec![0], shift_sampled));
    }
    // Terms that share no variable are independent: the residues of their sum are the
    // sums of their residues. Each group of terms sharing variables is enumerated
    // jointly, up to a cap past which its combinations are sampled.
    let mut groups: Vec<(u64, Vec<(&Expr, bool)>)> = Vec::new();
    for &(t, neg) in pure_shift {
        let m = t.var_mask();
        let mut merged = (m, vec![(t, neg)]);
        groups.retain(|(gm, ts)| {
            if gm & m != 0 {
                merged.0 |= gm;
                merged.1.extend(ts.iter().copied());
                false
            } else {
                true
            }
        });
        groups.push(merged);
    }
    let mut sums: BTreeSet<i64> = [0].into_iter().collect();
    // Whether every group of offsets had a combination of values to try: a group with
    // none is a loop that never runs; when all had some and none evaluated, the index
    // cannot be computed.
    let mut tried = true;
    for (gm, ts) in &groups {
        let mut group_tried = false;
        let expr = terms_to_expr(ts.iter().copied());
        let vars: Vec<usize> = (0..access.vars.len())
            .filter(|i| gm >> (*i).min(63) & 1 == 1)
            .collect();
        let doms: Vec<Vec<i64>> = vars
            .iter()
            .map(|&i| match &access.vars[i].kind {
                VarKind::Counter { trips: Some(t) } => (0..(*t as i64).min(bw * 4)).collect(),
                VarKind::Uniform {
                    range: Some((lo, hi)),
                } => (*lo..=(*hi).min(lo + bw * 4 - 1)).collect(),
                VarKind::Line { span } => lines::line_masks(*span).iter().map(|m| m.0).collect(),
                _ => (0..bw * 4).collect(),
            })
            .collect();
        let mut residues = BTreeSet::new();
        let mut values = vec![0i64; access.vars.len()];
        let mut left = 1u64 << 14;
        for_each_combination(&doms, &mut |combo| {
            group_tried = true;
            for (k, &i) in vars.iter().enumerate() {
                values[i] = combo[k];
            }
            if let Some(s) = expr.eval(&values) {
                residues.insert(s.rem_euclid(bw));
            }
            left -= 1;
            if left == 0 {
                shift_sampled = true;
            }
            left > 0 && (residues.len() as i64) < bw
        });
        tried &= group_tried;
        sums = sums
            .iter()
            .flat_map(|s| residues.iter().map(move |r| (s + r).rem_euclid(bw)))
            .collect();
    }
    let shifts: Vec<i64> = sums.into_iter().collect();
    // A loop that never runs adds no offset at all: the access does not execute. An
    // offset that no value evaluates leaves nothing to count, and nothing to bound
    // the enumeration's cost by (it would be zero per combination).
    if shifts.is_empty() && !tried {
        return Err(Box::new(Verdict::unreached()));
    }
    if shifts.is_empty() {
        return Err(Box::new(Verdict::unknown(
            "the index cannot be evaluated for any value (division by zero or bad shift)",
        )));
    }
    Ok((shifts, shift_sampled))
}

/// The values each variable of `other_mask` is enumerated over: all of them when few
/// enough, one per residue for a value that enters the address through ring operations
/// only (module comment), else a sample.
fn choose_domains(
    s: &Setup,
    other_mask: u64,
    lane_expr: &Expr,
    guards: &[&Expr],
    guard_mask: u64,
) -> Vec<Domain> {
    let access = s.access;
    let (params, budget) = (s.params, s.budget);
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
            VarKind::Line { span } => {
                thin(lines::line_masks(*span).iter().map(|m| m.0).collect(), n)
            }
        }
    };
    let others: Vec<usize> = (0..access.vars.len())
        .filter(|i| other_mask >> (*i).min(63) & 1 == 1)
        .collect();
    let residue_modulus = i64::from(params.bank_count.max(1)) * s.bw;
    let kinds: Vec<VarKind> = access.vars.iter().map(|v| v.kind.clone()).collect();
    others
        .iter()
        .map(|&i| {
            // A value of unknown range that is only ever a shift amount takes 0..=62.
            let unranged = matches!(
                access.vars[i].kind,
                VarKind::Counter { trips: None } | VarKind::Uniform { range: None }
            );
            if unranged
                && only_shift_amount(lane_expr, i)
                && guards.iter().all(|g| only_shift_amount(g, i))
            {
                return Domain {
                    index: i,
                    values: (0..=62).collect(),
                    complete: true,
                    prioritized: false,
                    residue: None,
                };
            }
            let (values, complete) = domain_for(i, u64::MAX);
            let bound = guards
                .iter()
                .filter_map(|g| guard_bounds::upper_bound(g, i, &kinds))
                .min();
            let (values, complete) = match bound {
                Some(most) => below(&access.vars[i].kind, most).unwrap_or((values, complete)),
                None => (values, complete),
            };
            let prioritized = matches!(access.vars[i].kind, VarKind::Uniform { range: None });
            // Too many values to enumerate, a ring operation in the address and absent from
            // the guards: one value per residue decides every value (module comment).
            let many = |n: u64| n >= (residue_modulus as u64) << 10;
            let unbounded = match access.vars[i].kind {
                VarKind::Counter { trips } => trips.is_none_or(many),
                VarKind::Uniform { range: None } => true,
                VarKind::Uniform {
                    range: Some((lo, hi)),
                } => hi >= lo && many(hi.abs_diff(lo).saturating_add(1)),
                VarKind::Thread(_) | VarKind::Line { .. } => false,
            };
            let u_nonneg = match access.vars[i].kind {
                VarKind::Counter { .. } => true,
                VarKind::Uniform {
                    range: Some((lo, _)),
                } => lo >= 0,
                _ => false,
            };
            let form = (i < 63)
                .then(|| form_in(lane_expr, i, u_nonneg, &kinds))
                .flatten()
                .filter(|f| f.deg <= 2);
            match form {
                Some(form) if !complete && unbounded && guard_mask >> i.min(63) & 1 == 0 => {
                    let period = residue_period(lane_expr, i, residue_modulus, form);
                    Domain {
                        index: i,
                        values: residue_representatives(period, form.deg),
                        complete: true,
                        prioritized: true,
                        residue: Some(period),
                    }
                }
                _ => periodic(i, &kinds, lane_expr, guards, &values, complete).unwrap_or(Domain {
                    index: i,
                    values,
                    complete,
                    prioritized,
                    residue: None,
                }),
            }
        })
        .collect()
}

/// Every value of a variable of kind `kind` up to `most` (inclusive), when a guard bounds
/// it so ([`guard_bounds`]) and that is few enough to enumerate: complete, since a larger
/// value switches every lane off.
fn below(kind: &VarKind, most: i64) -> Option<(Vec<i64>, bool)> {
    let (lo, hi) = match kind {
        VarKind::Counter { trips: None } => (0, most),
        VarKind::Counter { trips: Some(t) } => (0, most.min(i64::try_from(*t).ok()? - 1)),
        VarKind::Uniform {
            range: Some((lo, hi)),
        } => (*lo, most.min(*hi)),
        _ => return None,
    };
    (hi.saturating_sub(lo) < 1 << 20).then(|| ((lo..=hi).collect(), true))
}

/// One period of variable `i` when the address and every guard the enumeration keeps
/// repeat in it ([`period_in`]) and its values span more than a period: each value then
/// behaves as the one of its residue among the first period's, which are real values
/// (the first of its range, or of any integer when it has none). Exhaustive.
fn periodic(
    i: usize,
    kinds: &[VarKind],
    lane_expr: &Expr,
    guards: &[&Expr],
    values: &[i64],
    complete: bool,
) -> Option<Domain> {
    if i >= 63 {
        return None;
    }
    let (first, nonneg) = match kinds[i] {
        VarKind::Counter { .. } => (0, true),
        VarKind::Uniform {
            range: Some((lo, _)),
        } => (lo, lo >= 0),
        VarKind::Uniform { range: None } => (0, false),
        // Lanes, and a digitised line's masks (not a run of consecutive values).
        VarKind::Thread(_) | VarKind::Line { .. } => return None,
    };
    let period = std::iter::once(lane_expr)
        .chain(guards.iter().copied())
        .try_fold(1i64, |p, e| {
            let q = period_in(e, i, nonneg, kinds)?;
            let l = p / residues::gcd(p, q) * q;
            (l <= 4096).then_some(l)
        })?;
    // A complete domain already holds every value; the first period must be values the
    // variable takes: `values` starts at `first` and holds every value from there.
    let spans = if complete {
        values.len() as i64 > period && values.first() == Some(&first)
    } else {
        match kinds[i] {
            VarKind::Counter { trips: Some(t) } => t as i64 > period,
            VarKind::Uniform {
                range: Some((lo, hi)),
            } => hi - lo >= period,
            _ => true,
        }
    };
    spans.then(|| Domain {
        index: i,
        values: (first..first + period).collect(),
        complete: true,
        prioritized: false,
        residue: None,
    })
}

/// Shrinks the largest domains until the whole enumeration fits the budget; `Err` with
/// the verdict when it cannot.
fn fit_to_budget(
    domains: &mut [Domain],
    per_combo_cost: u64,
    budget: Budget,
) -> Result<(), Box<Verdict>> {
    loop {
        let combos: u64 = domains
            .iter()
            .map(|d| d.values.len() as u64)
            .fold(1, u64::saturating_mul);
        if combos.saturating_mul(per_combo_cost) <= budget.max_lane_evals {
            return Ok(());
        }
        let Some(big) = domains
            .iter_mut()
            .filter(|d| d.values.len() > 2)
            .max_by_key(|d| d.values.len())
        else {
            return Err(Box::new(Verdict::unknown(
                "too many warps and values to enumerate within the budget",
            )));
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
}

/// What sampling the domains costs the verdict: exactness, the notes saying what was
/// sampled, and the values the verdict depends on.
struct Sampling {
    exact: bool,
    notes: Vec<String>,
    /// What was sampled, in words.
    sampled: Vec<String>,
    depends_on: Vec<String>,
    /// Where the notes of sampled variables are, to drop them if sampling lost nothing.
    sampled_variables: std::ops::Range<usize>,
}

impl Sampling {
    fn of(access: &LoweredAccess, domains: &[Domain], shift_sampled: bool) -> Sampling {
        let mut notes = Vec::new();
        let mut exact = true;
        let mut depends_on = Vec::new();
        let mut sampled = Vec::new();
        if shift_sampled {
            exact = false;
            sampled.push("the offsets added to every lane were sampled".to_string());
        }
        for d in domains {
            let v = &access.vars[d.index];
            if !d.complete {
                exact = false;
                sampled.push(format!(
                    "`{}` was sampled at {} values",
                    v.name,
                    d.values.len()
                ));
            }
            if matches!(v.kind, VarKind::Uniform { .. } | VarKind::Line { .. }) || !d.complete {
                depends_on.push(v.name.clone());
            }
        }
        let sampled_variables = {
            let start = notes.len() + usize::from(shift_sampled);
            start..notes.len() + sampled.len()
        };
        notes.extend(sampled.iter().cloned());
        Sampling {
            exact,
            notes,
            sampled,
            depends_on,
            sampled_variables,
        }
    }
}

impl Sampling {
    /// The distinct cases were thinned to the budget: not exact.
    /// `names` are the variables whose cases they are: the verdict depends on them.
    fn thinned(&mut self, what: String, names: &[String]) {
        self.exact = false;
        // Dropped with the other notes of sampling when a saturating case is found.
        if self.sampled_variables.end == self.notes.len() {
            self.sampled_variables.end += 1;
        }
        self.notes.push(what.clone());
        self.sampled.push(what);
        for n in names {
            if !self.depends_on.contains(n) {
                self.depends_on.push(n.clone());
            }
        }
    }
}

/// Whether guard `g` holds at `values` (a guard that cannot be evaluated holds).
fn holds(g: &Expr, values: &[i64]) -> bool {
    g.eval(values).is_none_or(|v| v != 0)
}

/// The per-lane tables of the block, computed once.
struct Lanes {
    /// The thread variables.
    thread_vars: Vec<usize>,
    /// Each thread variable's value in every lane of the block.
    inputs: Vec<Vec<i64>>,
    /// Per lane of the block: active under the thread-only guards, and its address when
    /// no other variable moves it (`None` inside: the evaluation failed, or the address
    /// is not fixed and the table is not read).
    fixed: Vec<Option<(bool, Option<i64>)>>,
    /// Per chunk of up to 64 lanes of a warp: the lanes the thread-only guards leave on.
    chunk_active: Vec<u64>,
    chunks_per_warp: usize,
}

/// Builds the per-lane tables (`values` is the scratch the lanes' thread variables are
/// set in).
fn lane_tables(
    s: &Setup,
    lane_guards: &[&Expr],
    lane_expr: &Expr,
    fixed_address: bool,
    values: &mut [i64],
) -> Lanes {
    let access = s.access;
    let (n_warps, warp_size) = (s.n_warps, s.warp_size);
    let thread_axes: Vec<(usize, crate::model::ir::Axis)> = access
        .vars
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match v.kind {
            VarKind::Thread(a) => Some((i, a)),
            _ => None,
        })
        .collect();
    let thread_vars: Vec<usize> = thread_axes.iter().map(|&(i, _)| i).collect();
    let lane_inputs: Vec<Vec<i64>> = thread_axes
        .iter()
        .map(|&(_, axis)| {
            (0..n_warps * warp_size)
                .map(|linear| {
                    let (x, y, z) = access.block.coords(linear);
                    match axis {
                        crate::model::ir::Axis::X => x,
                        crate::model::ir::Axis::Y => y,
                        crate::model::ir::Axis::Z => z,
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
    let lanes: Vec<Option<(bool, Option<i64>)>> = (0..n_warps * warp_size)
        .map(|linear| {
            (linear < s.threads).then(|| {
                set_thread(values, linear);
                let active = lane_guards.iter().all(|g| holds(g, values));
                let address = fixed_address.then(|| lane_expr.eval(values)).flatten();
                (active, address)
            })
        })
        .collect();
    let chunks_per_warp = (warp_size as usize).div_ceil(MAX_LANES);
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
    Lanes {
        thread_vars,
        inputs: lane_inputs,
        fixed: lanes,
        chunk_active,
        chunks_per_warp,
    }
}

/// What the combination loop enumerates.
struct Plan<'e> {
    domains: &'e [Domain],
    /// The combinations to run instead of every one of the domains' values: one per
    /// distinct case ([`cases`]).
    cases: Option<&'e [Vec<i64>]>,
    /// The residues of the pure shifts.
    shifts: &'e [i64],
    /// Guards without a thread variable, decided once per combination.
    combo_guards: Vec<&'e Expr>,
    /// Guards that read thread and other variables, decided per lane.
    mixed_guards: Vec<&'e Expr>,
    lane_expr: &'e Expr,
    /// The lane expression reads thread variables only ([`Lanes::fixed`] has it).
    fixed_address: bool,
    /// The domains decided by residues (index into `domains`, modulus).
    residue_domains: &'e [(usize, i64)],
    /// Every residue's factor is wanted, for the condition.
    want_condition: bool,
    per_combo_cost: u64,
}

/// What the combination loop found.
struct Outcome {
    /// The worst cost, the combination and the warp that give it.
    worst: Option<(Wavefronts, Vec<i64>, u64)>,
    /// Every (wavefronts, ideal) seen.
    results: BTreeSet<(u64, u64)>,
    /// Per residue domain, the worst cost of each residue.
    by_residue: Vec<BTreeMap<i64, Wavefronts>>,
    /// Warp and value combinations skipped because their evaluation failed.
    skipped_combos: u64,
    /// A case that serialises every phase fully was found: nothing can be worse.
    saturated: bool,
    /// The enumeration stopped at its budget of lane evaluations.
    over_budget: bool,
}

/// Runs every combination of the domains' values over every warp of the block.
fn walk(s: &Setup, plan: &Plan, lanes: &Lanes, values: &mut [i64]) -> Outcome {
    let warp_size = s.warp_size;
    let phase_lanes = u64::from(s.params.phase_lanes(s.access.width));
    let mixed_programs: Vec<WarpProgram> = plan
        .mixed_guards
        .iter()
        .map(|g| WarpProgram::new(g, &lanes.thread_vars))
        .collect();
    let mut w = Walk {
        s,
        plan,
        lanes,
        guard_scratch: mixed_programs.iter().map(|_| Scratch::default()).collect(),
        mixed_programs,
        // The per-lane work, a warp at a time (see `warp_program`).
        lane_program: WarpProgram::new(plan.lane_expr, &lanes.thread_vars),
        lane_scratch: Scratch::default(),
        inputs: Vec::with_capacity(lanes.thread_vars.len()),
        lane_addrs: vec![None; warp_size as usize],
        shifted: vec![None; warp_size as usize],
        seen: HashMap::new(),
        eval_failed: false,
        combo_number: 0,
        spent: 0,
        phase_lanes,
        phases_per_warp: warp_size.div_ceil(phase_lanes.max(1)),
        // With a fixed address per lane, a warp's outcome depends only on which lanes are
        // active: each (warp, active lanes) is counted once; `true` when its evaluation
        // failed.
        memo_ok: plan.fixed_address && warp_size <= 64,
        out: Outcome {
            worst: None,
            results: BTreeSet::new(),
            by_residue: vec![BTreeMap::new(); plan.residue_domains.len()],
            skipped_combos: 0,
            saturated: false,
            over_budget: false,
        },
    };
    if let Some(cases) = plan.cases {
        for combo in cases {
            if !w.combination(combo, values) {
                break;
            }
        }
    } else {
        let doms: Vec<Vec<i64>> = plan.domains.iter().map(|d| d.values.clone()).collect();
        for_each_combination(&doms, &mut |combo| w.combination(combo, values));
    }
    w.out
}

/// The state of the combination loop.
struct Walk<'e> {
    s: &'e Setup<'e>,
    plan: &'e Plan<'e>,
    lanes: &'e Lanes,
    mixed_programs: Vec<WarpProgram>,
    guard_scratch: Vec<Scratch>,
    lane_program: WarpProgram,
    lane_scratch: Scratch,
    /// The thread variables' values in the lanes of the chunk being evaluated.
    inputs: Vec<&'e [i64]>,
    /// The address of each lane of the warp (`None`: inactive).
    lane_addrs: Vec<Option<i64>>,
    shifted: Vec<Option<i64>>,
    /// Each (warp, active lanes) already counted, and whether its evaluation failed.
    seen: HashMap<(u64, u64), bool>,
    eval_failed: bool,
    combo_number: u64,
    /// Lane evaluations spent: the domains were shrunk to fit the budget, this is the
    /// backstop that ends the enumeration whatever the estimate missed.
    spent: u64,
    phase_lanes: u64,
    phases_per_warp: u64,
    memo_ok: bool,
    out: Outcome,
}

impl Walk<'_> {
    /// Counts one combination of values over every warp; false to stop.
    fn combination(&mut self, combo: &[i64], values: &mut [i64]) -> bool {
        let plan = self.plan;
        self.spent = self.spent.saturating_add(plan.per_combo_cost);
        if self.spent > self.s.budget.max_lane_evals.saturating_mul(2) {
            self.out.over_budget = true;
            return false;
        }
        for (k, d) in plan.domains.iter().enumerate() {
            values[d.index] = combo[k];
        }
        let combo_active = plan.combo_guards.iter().all(|g| holds(g, values));
        self.combo_number += 1;
        for warp in 0..self.s.n_warps {
            let mask = self.warp_lanes(warp, combo_active, values);
            if self.memo_ok {
                if let Some(&failed) = self.seen.get(&(warp, mask)) {
                    self.eval_failed = false;
                    self.out.skipped_combos += u64::from(failed);
                    continue;
                }
                self.seen.insert((warp, mask), self.eval_failed);
            }
            // A division by zero (or an out-of-range shift) cannot happen in a program
            // that runs: skip the values that cause it.
            if std::mem::take(&mut self.eval_failed) {
                self.out.skipped_combos += 1;
                continue;
            }
            if !self.count_shifts(combo, warp) {
                return false;
            }
        }
        true
    }

    /// Fills `lane_addrs` with the addresses of the active lanes of `warp`, and returns
    /// the active lanes as bits (lane `l` of a wider warp lands on bit `l % 64`).
    fn warp_lanes(&mut self, warp: u64, combo_active: bool, values: &[i64]) -> u64 {
        let (lanes, warp_size) = (self.lanes, self.s.warp_size);
        let mut mask = 0u64;
        self.lane_addrs.fill(None);
        let chunks = (0..warp_size as usize).step_by(MAX_LANES);
        for start in chunks.filter(|_| combo_active) {
            let n = (warp_size as usize - start).min(MAX_LANES);
            let first = warp as usize * warp_size as usize + start;
            let lane = |l: usize| lanes.fixed.get(first + l).copied().flatten();
            let chunk = warp as usize * lanes.chunks_per_warp + start / MAX_LANES;
            let mut active = lanes.chunk_active[chunk];
            if active == 0 {
                continue;
            }
            self.inputs.clear();
            self.inputs
                .extend(lanes.inputs.iter().map(|v| &v[first..first + n]));
            let key = (chunk, self.combo_number);
            // A guard that cannot be evaluated does not switch a lane off.
            for (g, scratch) in self.mixed_programs.iter().zip(&mut self.guard_scratch) {
                let (v, failed) = g.eval(values, &self.inputs, n, key, scratch);
                let off = v
                    .iter()
                    .enumerate()
                    .fold(0u64, |m, (l, &x)| m | u64::from(x == 0) << l);
                active &= !(off & !failed);
            }
            mask |= active;
            let computed = (!self.plan.fixed_address).then(|| {
                self.lane_program
                    .eval(values, &self.inputs, n, key, &mut self.lane_scratch)
            });
            for l in (0..n).filter(|l| active >> l & 1 == 1) {
                let address = match &computed {
                    Some((v, failed)) => (failed >> l & 1 == 0).then(|| v[l]),
                    None => lane(l).and_then(|(_, a)| a),
                };
                match address {
                    Some(a) => self.lane_addrs[start + l] = Some(a),
                    None => self.eval_failed = true,
                }
            }
        }
        mask
    }

    /// Counts the wavefronts of `warp` under every shift; false when a case that cannot
    /// be beaten ends the enumeration.
    fn count_shifts(&mut self, combo: &[i64], warp: u64) -> bool {
        let (s, plan) = (self.s, self.plan);
        for &shift in plan.shifts {
            for (sh, a) in self.shifted.iter_mut().zip(&self.lane_addrs) {
                *sh = a.map(|a| a + shift);
            }
            let w = count_wavefronts(
                s.params,
                s.access.width,
                &self.shifted,
                access_is_atomic(s.access),
            );
            self.out.results.insert((w.wavefronts, w.ideal));
            for (&(k, m), map) in plan.residue_domains.iter().zip(&mut self.out.by_residue) {
                let e = map.entry(combo[k].rem_euclid(m)).or_insert(w);
                if w.is_worse_than(e) {
                    *e = w;
                }
            }
            if self
                .out
                .worst
                .as_ref()
                .is_none_or(|(best, _, _)| w.is_worse_than(best))
            {
                self.out.worst = Some((w, combo.to_vec(), warp));
                // Every phase of a full warp serialised: nothing can be worse (unless the
                // factor of every residue is wanted).
                if w.ideal == self.phases_per_warp
                    && w.wavefronts >= self.phase_lanes * w.ideal
                    && !plan.want_condition
                {
                    self.out.saturated = true;
                    return false;
                }
            }
        }
        true
    }
}

/// The verdict from what the enumeration found.
fn verdict(
    s: &Setup,
    domains: &[Domain],
    outcome: Outcome,
    sampling: Sampling,
    lane_bounds: Vec<String>,
    residue_domains: &[(usize, i64)],
) -> Verdict {
    let access = s.access;
    let Outcome {
        worst,
        results,
        by_residue,
        skipped_combos,
        saturated,
        over_budget,
    } = outcome;
    let Sampling {
        mut exact,
        mut notes,
        sampled,
        mut depends_on,
        sampled_variables,
    } = sampling;
    let Some((cost, combo, warp)) = worst else {
        if skipped_combos > 0 {
            return Verdict::unknown(
                "the index cannot be evaluated for any lane (division by zero or bad shift)",
            );
        }
        return Verdict::unreached();
    };
    if cost.ideal == 0 {
        return if exact || thread_guards::no_lane_passes(access) {
            Verdict::unreached()
        } else {
            Verdict::unknown("no sampled combination of run-time values makes a lane active")
        };
    }
    if skipped_combos > 0 {
        notes.push(format!("{skipped_combos}{SKIPPED_NOTE}"));
    }
    if saturated {
        // The worst case found serialises every phase fully: no other value can do worse,
        // so sampling lost nothing.
        exact = true;
        notes.drain(sampled_variables);
        // Loop counters were named only as sampled values.
        depends_on.retain(|n| {
            access.vars.iter().any(|v| {
                &v.name == n && matches!(v.kind, VarKind::Uniform { .. } | VarKind::Line { .. })
            })
        });
    }
    // Only an exhaustive enumeration shows that the values do not matter.
    if exact && !saturated && results.len() <= 1 {
        depends_on.clear();
    }
    // A bound that decides which lanes are active matters whenever some lanes conflict.
    if cost.wavefronts > cost.ideal {
        for n in lane_bounds {
            if !depends_on.contains(&n) {
                depends_on.push(n);
            }
        }
    }
    let conflicts = cost.wavefronts > cost.ideal;
    if !exact && !conflicts {
        // No conflict among the samples proves nothing about the values not tried.
        let mut v = Verdict::unknown(format!("not proven: {}", sampled.join(", ")));
        v.depends_on = depends_on;
        v.notes = notes;
        return v;
    }
    if over_budget {
        exact = false;
        notes.push("the enumeration stopped at its budget of lane evaluations".to_string());
    }
    if !exact {
        notes.push(
            "the factor is the worst of the sampled cases: a lower bound, not proven over all values"
                .to_string(),
        );
    }
    let conditions: Vec<String> = residue_domains
        .iter()
        .zip(&by_residue)
        .filter(|_| exact && !saturated && !depends_on.is_empty())
        .filter_map(|(&(k, m), map)| residue_condition(&access.vars[domains[k].index].name, map, m))
        .collect();
    let condition = (!conditions.is_empty()).then(|| conditions.join("; "));
    let worst_case = worst_case(access, domains, &combo);
    notes.extend(lines::describe_worst(
        access,
        domains.iter().map(|d| d.index),
        &combo,
    ));
    Verdict {
        cost: Some(cost),
        reason: None,
        method: Method::Enumeration,
        exact,
        explanation: None,
        depends_on,
        notes,
        worst_warp: warp,
        worst_case,
        lower_bound: !exact,
        condition,
        condition_names_shapes: false,
    }
}

/// The values of the worst case, by name.
fn worst_case(access: &LoweredAccess, domains: &[Domain], combo: &[i64]) -> Vec<(String, i64)> {
    let mut worst_case = Vec::new();
    for (k, d) in domains.iter().enumerate() {
        // A representative of a residue class stands for its class: name its smallest
        // positive member.
        let value = match d.residue {
            Some(m) => match combo[k].rem_euclid(m) {
                0 => m,
                r => r,
            },
            None => combo[k],
        };
        worst_case.push((access.vars[d.index].name.clone(), value));
    }
    worst_case
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
