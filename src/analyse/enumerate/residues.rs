//! Values decided by their residues (see the module comment of [`super`]): how the
//! address depends on a value (a polynomial part and a periodic part), the period of the
//! banks in it, one representative per residue class, and the condition in words on the
//! residues that give the worst factor or none.

use crate::bank::Wavefronts;
use crate::model::ir::{BinOp, Expr, UnOp, VarKind};

/// How `e` depends on variable `u`: a polynomial part of degree `deg` (the other
/// variables are coefficients) plus a part periodic in `u` with period `period`
/// (`x & 31`, `x % 128` of a polynomial `x`), or `None` when `u` occurs under another
/// operator (division, comparison, select, a shift by an amount that moves with `u`).
/// `u_nonneg`: `u` never takes a negative value (a loop counter), so that `%` of a sum of
/// non-negative terms is periodic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Form {
    pub(super) deg: u32,
    period: i64,
}

pub(super) fn form_in(e: &Expr, u: usize, u_nonneg: bool, kinds: &[VarKind]) -> Option<Form> {
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

/// The period of `e` in `u` (`e(u + p) == e(u)` for every value of `u`, of the
/// others, and whether it evaluates at all), when it has one: `e` is built by any
/// operators from parts that [`form_in`] finds periodic (degree 0) or that do not read
/// `u`. A comparison of periodic parts (`(256 * b + t) % 32 < 8`) is periodic although
/// [`form_in`] does not describe it. `None` when no period of at most 4096 is found.
pub(super) fn period_in(e: &Expr, u: usize, u_nonneg: bool, kinds: &[VarKind]) -> Option<i64> {
    if e.var_mask() >> u.min(63) & 1 == 0 {
        return Some(1);
    }
    if let Some(form) = form_in(e, u, u_nonneg, kinds) {
        return (form.deg == 0).then_some(form.period);
    }
    let p = |a: &Expr| period_in(a, u, u_nonneg, kinds);
    let period = match e {
        Expr::Unary(_, a) => p(a)?,
        Expr::Binary(_, a, b) => lcm(p(a)?, p(b)?),
        Expr::Select(c, t, f) => lcm(lcm(p(c)?, p(t)?), p(f)?),
        Expr::Const(_) | Expr::Var(_) => return None,
    };
    (1..=4096).contains(&period).then_some(period)
}

fn lcm(a: i64, b: i64) -> i64 {
    if a == 0 || b == 0 {
        return a.max(b);
    }
    (a / gcd(a, b)).saturating_mul(b)
}

/// True when `e` is never negative: sums, products and shifts of non-negative constants,
/// thread ids, loop counters and values with a non-negative range.
pub(super) fn nonneg(e: &Expr, kinds: &[VarKind]) -> bool {
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
pub(super) fn divisor(e: &Expr) -> i64 {
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

pub(super) fn gcd(a: i64, b: i64) -> i64 {
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
pub(super) fn residue_period(e: &Expr, u: usize, m: i64, form: Form) -> i64 {
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
pub(super) fn residue_representatives(m: i64, degree: u32) -> Vec<i64> {
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
pub(super) fn residue_condition(
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
