//! The distinct cases of the run-time values, enumerated instead of their rectangle.
//!
//! Lanes see the values of an access only through the parts of its address and guards
//! that read no thread coordinate: `stride = (2 << size) / 2 >> j` in
//! `s[2 * t - (t & (stride - 1))]`, and whole guards such as `stride > 0`. Two
//! combinations of values that give every such part the same value (or both fail to
//! evaluate it) give every lane the same address and activity, so one of them stands for
//! both; and a combination for which a guard without a thread coordinate is false
//! switches every lane off and costs nothing. The nested doubling loops of sorting
//! networks (`for (size = 2; ...; size <<= 1) for (stride = size / 2; stride > 0; ...)`)
//! are a rectangle of shift amounts whose few distinct strides, in the triangle where
//! `stride > 0`, fit the budget when the rectangle does not.

use super::{for_each_combination, Domain};
use crate::model::ir::Expr;
use std::collections::HashSet;

/// Most combinations of the domains looked at to find the distinct ones.
const MOST_COMBINATIONS: u64 = 1 << 16;

/// The combinations to enumerate: one per distinct case where a lane can be on.
pub(super) struct Cases {
    pub(super) combos: Vec<Vec<i64>>,
    /// How many distinct cases there were (more than `combos` when thinned to the
    /// budget).
    pub(super) distinct: usize,
}

/// The distinct cases of `domains` for `lane_expr` and `guards`, when the rectangle is
/// small enough to look at; thinned evenly to `most` cases when there are more.
pub(super) fn distinct_cases(
    domains: &[Domain],
    lane_expr: &Expr,
    guards: &[&Expr],
    thread_mask: u64,
    n_vars: usize,
    most: usize,
) -> Option<Cases> {
    let rectangle = domains
        .iter()
        .map(|d| d.values.len() as u64)
        .fold(1, u64::saturating_mul);
    if rectangle > MOST_COMBINATIONS || domains.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    uniform_parts(lane_expr, thread_mask, &mut parts);
    let mut uniform_guards = Vec::new();
    for g in guards {
        if g.var_mask() & thread_mask == 0 {
            uniform_guards.push(*g);
        } else {
            uniform_parts(g, thread_mask, &mut parts);
        }
    }
    let mut values = vec![0i64; n_vars];
    let mut seen: HashSet<Vec<Option<i64>>> = HashSet::new();
    let mut combos = Vec::new();
    let lists: Vec<Vec<i64>> = domains.iter().map(|d| d.values.clone()).collect();
    for_each_combination(&lists, &mut |combo| {
        for (d, v) in domains.iter().zip(combo) {
            values[d.index] = *v;
        }
        // A guard that cannot be evaluated holds, as everywhere in the bank model.
        if uniform_guards.iter().any(|g| g.eval(&values) == Some(0)) {
            return true;
        }
        let key: Vec<Option<i64>> = parts.iter().map(|p| p.eval(&values)).collect();
        if seen.insert(key) {
            combos.push(combo.to_vec());
        }
        true
    });
    let distinct = combos.len();
    if distinct > most {
        let step = distinct.div_ceil(most.max(1));
        combos = combos.into_iter().step_by(step).collect();
    }
    Some(Cases { combos, distinct })
}

/// The largest parts of `e` that read a variable and no thread coordinate.
fn uniform_parts(e: &Expr, thread_mask: u64, out: &mut Vec<Expr>) {
    let mask = e.var_mask();
    if mask & thread_mask == 0 {
        if mask != 0 && !out.contains(e) {
            out.push(e.clone());
        }
        return;
    }
    for operand in e.operands() {
        uniform_parts(operand, thread_mask, out);
    }
}
