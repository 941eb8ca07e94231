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
//! Sampling never proves absence: a sampled enumeration that finds a conflict reports it
//! as a lower bound (`lower_bound`), one that finds none is undecided.

use crate::analyse::warp_program::{Scratch, WarpProgram, MAX_LANES};
use crate::bank::{count_wavefronts, BankParams, Wavefronts};
use crate::model::ir::{BinOp, Expr, LoweredAccess, UnOp, VarKind};
use crate::model::verdict::{Method, Verdict};

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

/// How `e` depends on variable `u`: a polynomial part of degree `deg` (the other
/// variables are coefficients) plus a part periodic in `u` with period `period`
/// (`x & 31`, `x % 128` of a polynomial `x`), or `None` when `u` occurs under another
/// operator (division, comparison, select, a shift by an amount that moves with `u`).
/// `u_nonneg`: `u` never takes a negative value (a loop counter), so that `%` of a sum of
/// non-negative terms is periodic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Form {
    deg: u32,
    period: i64,
}

fn form_in(e: &Expr, u: usize, u_nonneg: bool, kinds: &[VarKind]) -> Option<Form> {
    const CONSTANT: Form = Form { deg: 0, period: 1 };
    if e.var_mask() >> u & 1 == 0 {
        return Some(CONSTANT);
    }
    let f = |a: &Expr| form_in(a, u, u_nonneg, kinds);
    let periodic = |p: i64| {
        (1..=4096)
            .contains(&p)
            .then_some(Form { deg: 0, period: p })
    };
    match e {
        Expr::Const(_) => Some(CONSTANT),
        Expr::Var(_) => Some(Form { deg: 1, period: 1 }),
        Expr::Unary(UnOp::Neg, a) => f(a),
        Expr::Binary(BinOp::Add | BinOp::Sub, a, b) => {
            let (x, y) = (f(a)?, f(b)?);
            let period = lcm(x.period, y.period);
            (period <= 4096).then_some(Form {
                deg: x.deg.max(y.deg),
                period,
            })
        }
        Expr::Binary(BinOp::Mul, a, b) => {
            let (x, y) = (f(a)?, f(b)?);
            match (a.var_mask() >> u & 1, b.var_mask() >> u & 1) {
                (1, 0) => Some(x),
                (0, _) => Some(y),
                // A product of two parts that move with `u`: polynomials only.
                _ if x.period == 1 && y.period == 1 => Some(Form {
                    deg: x.deg + y.deg,
                    period: 1,
                }),
                _ => None,
            }
        }
        Expr::Binary(BinOp::Shl, a, b) if b.var_mask() >> u & 1 == 0 => f(a),
        // `x & (2^j - 1)` is `x` modulo `2^j` in two's complement.
        Expr::Binary(BinOp::And, a, b) => {
            let m = b.as_const()?;
            let x = f(a)?;
            if m >= 0 && (m + 1).count_ones() == 1 && x.period == 1 {
                periodic(m + 1)
            } else if x.deg == 0 {
                Some(x)
            } else {
                None
            }
        }
        Expr::Binary(BinOp::Rem, a, b) => {
            let c = b.as_const().filter(|c| *c > 0)?;
            let x = f(a)?;
            if x.period == 1 && u_nonneg && nonneg(a, kinds) {
                periodic(c)
            } else if x.deg == 0 {
                Some(x)
            } else {
                None
            }
        }
        Expr::Binary(BinOp::Shr | BinOp::Div, a, b) if b.var_mask() >> u & 1 == 0 => {
            let x = f(a)?;
            (x.deg == 0).then_some(x)
        }
        _ => None,
    }
}

fn lcm(a: i64, b: i64) -> i64 {
    if a == 0 || b == 0 {
        return a.max(b);
    }
    (a / gcd(a, b)).saturating_mul(b)
}

/// True when `e` is never negative: sums, products and shifts of non-negative constants,
/// thread ids, loop counters and values with a non-negative range.
fn nonneg(e: &Expr, kinds: &[VarKind]) -> bool {
    match e {
        Expr::Const(c) => *c >= 0,
        Expr::Var(i) => match kinds.get(*i) {
            Some(VarKind::Thread(_) | VarKind::Counter { .. }) => true,
            Some(VarKind::Uniform {
                range: Some((lo, _)),
            }) => *lo >= 0,
            _ => false,
        },
        Expr::Binary(BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Shr | BinOp::Div, a, b) => {
            nonneg(a, kinds) && nonneg(b, kinds)
        }
        Expr::Binary(BinOp::Shl, a, _) => nonneg(a, kinds),
        _ => false,
    }
}

/// A number that divides every value of `e` (0 when `e` is always 0).
fn divisor(e: &Expr) -> i64 {
    match e {
        Expr::Const(c) => c.unsigned_abs().min(1 << 40) as i64,
        Expr::Unary(UnOp::Neg, a) => divisor(a),
        Expr::Binary(BinOp::Add | BinOp::Sub, a, b) => gcd(divisor(a), divisor(b)),
        Expr::Binary(BinOp::Mul, a, b) => divisor(a).saturating_mul(divisor(b)).min(1 << 40),
        Expr::Binary(BinOp::Shl, a, b) => match b.as_const() {
            Some(k @ 0..=40) => divisor(a).saturating_mul(1 << k).min(1 << 40),
            _ => divisor(a),
        },
        _ => 1,
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// For `e` of degree 1 in `u`: a number that divides the coefficient of `u` for every
/// value of the other variables (0 when `u` does not occur).
fn coefficient_divisor(e: &Expr, u: usize) -> i64 {
    if e.var_mask() >> u & 1 == 0 {
        return 0;
    }
    match e {
        Expr::Var(_) => 1,
        Expr::Unary(_, a) => coefficient_divisor(a, u),
        Expr::Binary(BinOp::Add | BinOp::Sub, a, b) => {
            gcd(coefficient_divisor(a, u), coefficient_divisor(b, u))
        }
        Expr::Binary(BinOp::Mul, a, b) if a.var_mask() >> u & 1 == 1 => coefficient_divisor(a, u)
            .saturating_mul(divisor(b))
            .min(1 << 40),
        Expr::Binary(BinOp::Mul, a, b) => divisor(a)
            .saturating_mul(coefficient_divisor(b, u))
            .min(1 << 40),
        Expr::Binary(BinOp::Shl, a, b) => match b.as_const() {
            Some(k @ 0..=40) => coefficient_divisor(a, u)
                .saturating_mul(1 << k)
                .min(1 << 40),
            _ => coefficient_divisor(a, u),
        },
        _ => 1,
    }
}

/// The period of the banks in `u`: `m` divided by what the coefficient of `u` always
/// shares with it (`4 * (t * d)` repeats every 32 values of `d` for 128-byte rows),
/// times the period of the periodic part.
fn residue_period(e: &Expr, u: usize, m: i64, form: Form) -> i64 {
    if form.deg == 0 {
        return form.period;
    }
    if form.deg != 1 || form.period != 1 {
        return lcm(m, form.period);
    }
    let g = gcd(m, coefficient_divisor(e, u));
    if g == 0 {
        m
    } else {
        m / g
    }
}

/// One value per residue of `u` modulo `m`, each far from zero (so that no two lanes
/// share a word by coincidence; a purely periodic `u` needs no such care), the residues
/// with the most factors of two first: they conflict the most, and a budget that keeps a
/// prefix keeps them.
fn residue_representatives(m: i64, degree: u32) -> Vec<i64> {
    let base = match degree {
        0 => 0,
        1 => m * ((1 << 27) / m).max(1),
        _ => m * ((1 << 16) / m).max(1),
    };
    let mut residues: Vec<i64> = (0..m).collect();
    residues.sort_by_key(|r| {
        (
            std::cmp::Reverse(if *r == 0 { 64 } else { r.trailing_zeros() }),
            *r,
        )
    });
    residues.into_iter().map(|r| base + r).collect()
}

/// Words for the residues `set` (of `0..m`) of `name`: "a multiple of 32", "odd",
/// "≡ 4 (mod 8)"; `None` when no short description fits.
fn describe_residues(name: &str, set: &[i64], m: i64) -> Option<String> {
    if set.is_empty() {
        return None;
    }
    if set.len() as i64 == m {
        return Some("for every value".to_string());
    }
    // The smallest period that decides membership.
    let period = (1..=m)
        .filter(|p| m % p == 0)
        .find(|&p| (0..m).all(|r| set.contains(&r) == set.contains(&(r % p))))?;
    let classes: Vec<i64> = (0..period).filter(|r| set.contains(r)).collect();
    Some(match classes.as_slice() {
        [0] => format!("when `{name}` is a multiple of {period}"),
        [1] if period == 2 => format!("when `{name}` is odd"),
        [c] => format!("when `{name}` % {period} == {c}"),
        cs if cs.len() <= 4 => format!(
            "when `{name}` % {period} is {}",
            cs.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        ),
        _ => return None,
    })
}

/// The condition of a verdict decided over every residue of one value: the values that
/// give the worst factor (for some value of the others), and those that are conflict-free
/// (for every value of the others). `None` when the value does not change the factor.
fn residue_condition(
    name: &str,
    by_residue: &std::collections::BTreeMap<i64, Wavefronts>,
    m: i64,
) -> Option<String> {
    let worst = by_residue
        .values()
        .copied()
        .reduce(|a, b| if b.is_worse_than(&a) { b } else { a })?;
    if worst.wavefronts <= worst.ideal
        || by_residue
            .values()
            .all(|w| (w.factor() - worst.factor()).abs() < 1e-9)
    {
        return None;
    }
    let at_worst: Vec<i64> = by_residue
        .iter()
        .filter(|(_, w)| (w.factor() - worst.factor()).abs() < 1e-9)
        .map(|(r, _)| *r)
        .collect();
    let free: Vec<i64> = by_residue
        .iter()
        .filter(|(_, w)| w.wavefronts <= w.ideal)
        .map(|(r, _)| *r)
        .collect();
    let mut parts = vec![format!(
        "{}-way {}",
        crate::model::verdict::factor_number(worst.factor()),
        describe_residues(name, &at_worst, m)?
    )];
    if let Some(f) = describe_residues(name, &free, m) {
        parts.push(format!("conflict-free {f}"));
    }
    Some(parts.join("; "))
}

/// `e` with constant factors and shifts distributed over its sums (`(a + b) * 4` is
/// `a * 4 + b * 4`, equal in wrapping arithmetic), so that its additive terms are found.
fn distribute(e: &Expr) -> Expr {
    let scaled = |x: &Expr, wrap: &dyn Fn(Expr) -> Expr| -> Option<Expr> {
        match x {
            Expr::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => Some(Expr::bin(
                *op,
                distribute(&wrap((**a).clone())),
                distribute(&wrap((**b).clone())),
            )),
            _ => None,
        }
    };
    match e {
        Expr::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            Expr::bin(*op, distribute(a), distribute(b))
        }
        Expr::Binary(BinOp::Mul, x, c) | Expr::Binary(BinOp::Mul, c, x)
            if matches!(**c, Expr::Const(_)) =>
        {
            let c = (**c).clone();
            scaled(x, &|t| Expr::bin(BinOp::Mul, t, c.clone())).unwrap_or_else(|| e.clone())
        }
        Expr::Binary(BinOp::Shl, x, k) if matches!(**k, Expr::Const(0..=62)) => {
            let k = (**k).clone();
            scaled(x, &|t| Expr::bin(BinOp::Shl, t, k.clone())).unwrap_or_else(|| e.clone())
        }
        _ => e.clone(),
    }
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
    // Which variables matter, and which of them only shift every lane's address.
    let guard_mask = guards.iter().fold(0u64, |m, g| m | g.var_mask());
    let mut terms = Vec::new();
    let address = distribute(&access.address);
    additive_terms(&address, false, &mut terms);
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
    let mut shifts: Vec<i64> = vec![0];
    let mut shift_sampled = false;
    // Constant terms are evaluated too: one that fails (a shift by a negative amount)
    // fails every lane, as it would in the lane expression.
    if !pure_shift.is_empty() {
        // Terms that share no variable are independent: the residues of their sum are the
        // sums of their residues. Each group of terms sharing variables is enumerated
        // jointly, up to a cap past which its combinations are sampled.
        let mut groups: Vec<(u64, Vec<(&Expr, bool)>)> = Vec::new();
        for &(t, neg) in &pure_shift {
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
        let _ = &shift_expr;
        let mut sums: std::collections::BTreeSet<i64> = [0].into_iter().collect();
        // Whether any combination of the offsets' values was tried: none is a loop that
        // never runs; some, none evaluated, an index that cannot be computed.
        let mut tried = false;
        for (gm, ts) in &groups {
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
                    _ => (0..bw * 4).collect(),
                })
                .collect();
            let mut residues = std::collections::BTreeSet::new();
            let mut values = vec![0i64; access.vars.len()];
            let mut left = 1u64 << 14;
            for_each_combination(&doms, &mut |combo| {
                tried = true;
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
            sums = sums
                .iter()
                .flat_map(|s| residues.iter().map(move |r| (s + r).rem_euclid(bw)))
                .collect();
        }
        shifts = sums.into_iter().collect();
        // A loop that never runs adds no offset at all: the access does not execute. An
        // offset that no value evaluates leaves nothing to count, and nothing to bound
        // the enumeration's cost by (it would be zero per combination).
        if shifts.is_empty() && !tried {
            return Verdict::unreached();
        }
        if shifts.is_empty() {
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
    let residue_modulus = i64::from(params.bank_count.max(1)) * bw;
    let mut domains: Vec<Domain> = others
        .iter()
        .map(|&i| {
            let (values, complete) = domain_for(i, u64::MAX);
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
                VarKind::Thread(_) => false,
            };
            let u_nonneg = match access.vars[i].kind {
                VarKind::Counter { .. } => true,
                VarKind::Uniform {
                    range: Some((lo, _)),
                } => lo >= 0,
                _ => false,
            };
            let kinds: Vec<VarKind> = access.vars.iter().map(|v| v.kind.clone()).collect();
            let form = (i < 63)
                .then(|| form_in(&lane_expr, i, u_nonneg, &kinds))
                .flatten()
                .filter(|f| f.deg <= 2);
            match form {
                Some(form) if !complete && unbounded && guard_mask >> i.min(63) & 1 == 0 => {
                    let period = residue_period(&lane_expr, i, residue_modulus, form);
                    Domain {
                        index: i,
                        values: residue_representatives(period, form.deg),
                        complete: true,
                        prioritized: true,
                        residue: Some(period),
                    }
                }
                _ => Domain {
                    index: i,
                    values,
                    complete,
                    prioritized,
                    residue: None,
                },
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
    let mut sampled = Vec::new();
    if shift_sampled {
        exact = false;
        sampled.push("the offsets added to every lane were sampled".to_string());
    }
    for d in &domains {
        let v = &access.vars[d.index];
        if !d.complete {
            exact = false;
            sampled.push(format!(
                "`{}` was sampled at {} values",
                v.name,
                d.values.len()
            ));
        }
        if matches!(v.kind, VarKind::Uniform { .. }) || !d.complete {
            depends_on.push(v.name.clone());
        }
    }
    // Where the notes of sampled variables are, to drop them if sampling lost nothing.
    let sampled_variables = {
        let start = notes.len() + usize::from(shift_sampled);
        start..notes.len() + sampled.len()
    };
    notes.extend(sampled.iter().cloned());
    // For the values decided by residues, the worst factor of each residue (over the
    // other values), for the condition in words.
    let residue_domains: Vec<(usize, i64)> = domains
        .iter()
        .enumerate()
        .filter(|(_, d)| d.complete)
        .filter_map(|(k, d)| Some((k, d.residue?)))
        .collect();
    let mut by_residue: Vec<std::collections::BTreeMap<i64, Wavefronts>> =
        vec![std::collections::BTreeMap::new(); residue_domains.len()];
    // The condition needs every residue's factor: the enumeration goes on past a
    // saturating case when that costs at most a quarter of the budget.
    let total_combos: u64 = domains
        .iter()
        .map(|d| d.values.len() as u64)
        .fold(1, u64::saturating_mul);
    let want_condition = !residue_domains.is_empty()
        && total_combos.saturating_mul(per_combo_cost) <= budget.max_lane_evals / 4;

    let mut worst: Option<(Wavefronts, Vec<i64>, u64)> = None;
    let mut values = vec![0i64; access.vars.len()];
    let mut lane_addrs: Vec<Option<i64>> = vec![None; warp_size as usize];
    let mut eval_failed = false;
    let mut results = std::collections::BTreeSet::new();
    let doms: Vec<Vec<i64>> = domains.iter().map(|d| d.values.clone()).collect();
    let thread_axes: Vec<(usize, crate::model::ir::Axis)> = access
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
                for (&(k, m), map) in residue_domains.iter().zip(&mut by_residue) {
                    let e = map.entry(combo[k].rem_euclid(m)).or_insert(w);
                    if w.is_worse_than(e) {
                        *e = w;
                    }
                }
                if worst
                    .as_ref()
                    .is_none_or(|(best, _, _)| w.is_worse_than(best))
                {
                    worst = Some((w, combo.to_vec(), warp));
                    // Every phase of a full warp serialised: nothing can be worse (unless the
                    // factor of every residue is wanted).
                    if w.ideal == phases_per_warp
                        && w.wavefronts >= phase_lanes * w.ideal
                        && !want_condition
                    {
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
        return Verdict::unreached();
    };
    if cost.ideal == 0 {
        return if exact {
            Verdict::unreached()
        } else {
            Verdict::unknown("no sampled combination of run-time values makes a lane active")
        };
    }
    if skipped_combos > 0 {
        notes.push(format!(
            "{skipped_combos} warp and value combinations that divide by zero or shift out of range were skipped"
        ));
    }
    if saturated {
        // The worst case found serialises every phase fully: no other value can do worse,
        // so sampling lost nothing.
        exact = true;
        notes.drain(sampled_variables);
        // Loop counters were named only as sampled values.
        depends_on.retain(|n| {
            access
                .vars
                .iter()
                .any(|v| &v.name == n && matches!(v.kind, VarKind::Uniform { .. }))
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
