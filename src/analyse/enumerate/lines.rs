//! The values of a digitised-line variable ([`VarKind::Line`]): every step mask of
//! `t -> floor(c + f * t)` on `t = 0..=span` for real `f` and `c` in `[0, 1)`, exactly.
//!
//! The mask changes only where `c + f * t` crosses an integer for some `t`: the lines
//! `c = k - f * t` cut the square of `(f, c)` into open cells, on each of which the mask
//! is constant. A point on a cell's border has the mask of a neighbouring cell (move
//! `c` up a little: `floor` is continuous from the right), so one point inside each cell
//! gives every mask. Between two consecutive slopes `h / k` (`k <= span`, where two
//! lines meet) the order of the crossings in `c` does not change: the midpoint of the
//! slopes and the midpoints between consecutive crossings are such points. Exact in
//! integer arithmetic; the masks number about `span^3 / pi^2`.
//!
//! [`VarKind::Line`]: crate::model::ir::VarKind::Line

use std::collections::BTreeMap;

use crate::model::ir::MAX_LINE_SPAN as MAX_SPAN;

/// One slope interval `(lo, hi)` of `f`, as fractions `(numerator, denominator)`.
pub type SlopeRange = ((i64, i64), (i64, i64));

/// Every step mask of a digitised line on `0..=span`, in increasing order, each with the
/// open interval of slopes `f` that give it. Empty when `span` is past [`MAX_SPAN`].
pub fn line_masks(span: u32) -> Vec<(i64, SlopeRange)> {
    if span > MAX_SPAN {
        return Vec::new();
    }
    if span == 0 {
        return vec![(0, ((0, 1), (1, 1)))];
    }
    let n = i128::from(span);
    // The slopes where two crossings meet: h / k with k <= span, in [0, 1].
    let mut slopes: Vec<(i128, i128)> = Vec::new();
    for k in 1..=n {
        for h in 0..=k {
            if gcd(h, k) == 1 {
                slopes.push((h, k));
            }
        }
    }
    slopes.sort_by(|a, b| (a.0 * b.1).cmp(&(b.0 * a.1)));
    let mut masks: BTreeMap<i64, SlopeRange> = BTreeMap::new();
    for pair in slopes.windows(2) {
        let ((p1, q1), (p2, q2)) = (pair[0], pair[1]);
        // f = num / den, the midpoint of the two slopes.
        let (num, den) = (p1 * q2 + p2 * q1, 2 * q1 * q2);
        // The offsets where lane t crosses an integer: c = frac(-f t), over den.
        let mut crossings: Vec<i128> = (0..=n).map(|t| (-num * t).rem_euclid(den)).collect();
        crossings.push(den);
        crossings.sort_unstable();
        crossings.dedup();
        let range = (
            (
                i64::try_from(p1).unwrap_or(0),
                i64::try_from(q1).unwrap_or(1),
            ),
            (
                i64::try_from(p2).unwrap_or(1),
                i64::try_from(q2).unwrap_or(1),
            ),
        );
        for c in crossings.windows(2) {
            // c = (c0 + c1) / (2 den); floor(c + f t) = floor((c0 + c1 + 2 num t) / (2 den)).
            let c2 = c[0] + c[1];
            let e = |t: i128| (c2 + 2 * num * t).div_euclid(2 * den);
            let mask = (0..n)
                .filter(|&t| e(t + 1) > e(t))
                .fold(0i64, |m, t| m | 1 << t);
            masks
                .entry(mask)
                .and_modify(|r| {
                    if less(range.0, r.0) {
                        r.0 = range.0;
                    }
                    if less(r.1, range.1) {
                        r.1 = range.1;
                    }
                })
                .or_insert(range);
        }
    }
    masks.into_iter().collect()
}

/// The step mask of `floor(c + f * t)` on `0..=span` for rational `f = fn_/fd` and
/// `c = cn/cd`, both in `[0, 1)`: the reference the tests compare [`line_masks`] with.
pub fn mask_at(span: u32, (fnum, fden): (i64, i64), (cnum, cden): (i64, i64)) -> i64 {
    let (fnum, fden, cnum, cden) = (
        i128::from(fnum),
        i128::from(fden),
        i128::from(cnum),
        i128::from(cden),
    );
    // floor(cn/cd + fn t / fd) = floor((cn fd + fn t cd) / (cd fd)).
    let e = |t: i128| (cnum * fden + fnum * t * cden).div_euclid(cden * fden);
    (0..i128::from(span))
        .filter(|&t| e(t + 1) > e(t))
        .fold(0i64, |m, t| m | 1 << t)
}

/// A note for each digitised-line variable of the worst case (`vars` the enumerated
/// variables, `combo` their values): which slopes give its mask.
pub(super) fn describe_worst(
    access: &crate::model::ir::LoweredAccess,
    vars: impl Iterator<Item = usize>,
    combo: &[i64],
) -> Vec<String> {
    let mut out = Vec::new();
    for (i, &value) in vars.zip(combo) {
        let Some(v) = access.vars.get(i) else {
            continue;
        };
        let crate::model::ir::VarKind::Line { span } = v.kind else {
            continue;
        };
        let Some((_, ((a, b), (c, d)))) = line_masks(span).into_iter().find(|m| m.0 == value)
        else {
            continue;
        };
        let frac = |n: i64, m: i64| {
            if m == 1 {
                n.to_string()
            } else {
                format!("{n}/{m}")
            }
        };
        let steps: Vec<String> = (0..span)
            .filter(|t| value >> t & 1 == 1)
            .map(|t| (t + 1).to_string())
            .collect();
        let steps = if steps.is_empty() {
            "no step".to_string()
        } else {
            format!("steps at t = {}", steps.join(", "))
        };
        out.push(format!(
            "`{}` = {value} is the digitised line with {steps} (t = 0 to {span}), which a fractional slope between {} and {} gives",
            v.name,
            frac(a, b),
            frac(c, d)
        ));
    }
    out
}

/// `a < b` for fractions with positive denominators.
fn less(a: (i64, i64), b: (i64, i64)) -> bool {
    i128::from(a.0) * i128::from(b.1) < i128::from(b.0) * i128::from(a.1)
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number of digital straight segments with n + 1 points and slope in [0, 1):
    /// 1 + sum over i of (n - i + 1) phi(i) (Koplowitz et al.; Berenstein and Lavine).
    fn count(n: i64) -> usize {
        let phi = |i: i64| {
            (1..=i)
                .filter(|&j| gcd(i128::from(j), i128::from(i)) == 1)
                .count()
        };
        1 + (1..=n)
            .map(|i| (n - i + 1) as usize * phi(i))
            .sum::<usize>()
    }

    #[test]
    fn counts_match_the_formula() {
        for span in 1..=20 {
            assert_eq!(
                line_masks(span).len(),
                count(i64::from(span)),
                "span {span}"
            );
        }
    }

    #[test]
    fn every_rational_line_is_listed() {
        for span in 1..=9u32 {
            let masks: std::collections::BTreeSet<i64> =
                line_masks(span).into_iter().map(|(m, _)| m).collect();
            for fd in 1..=24 {
                for fnum in 0..fd {
                    for cd in 1..=12 {
                        for cnum in 0..cd {
                            let m = mask_at(span, (fnum, fd), (cnum, cd));
                            assert!(
                                masks.contains(&m),
                                "span {span} f {fnum}/{fd} c {cnum}/{cd}"
                            );
                        }
                    }
                }
            }
        }
    }
}
