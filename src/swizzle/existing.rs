//! Recognises a swizzle the source already applies (`tile[m][n ^ f(m)]` at every access)
//! so that the suggestion is computed on the logical coordinates `(m, n)` and replaces the
//! existing XOR instead of stacking a second one on top of it.
//!
//! The existing XOR is accepted only when, at every access, the last subscript is
//! `a ^ b` (or `b ^ a`) where `b` is the same function of the outer subscripts at every
//! access, checked by evaluating every lane of every warp and every loop iteration.

use super::input::ArrayUse;
use super::simulate::bind_counters;
use crate::model::ir::{BinOp, Expr, VarKind};
use std::collections::HashMap;

/// Most evaluations spent checking that the XORed term is a function of the outer subscripts.
const MAX_EVALS: u64 = 1 << 20;

/// The array with the existing XOR stripped from every access's last subscript, or `None`
/// when the accesses do not share one.
pub fn strip_existing_xor(array: &ArrayUse) -> Option<ArrayUse> {
    strip_existing_xor_side(array).map(|(a, _)| a)
}

/// [`strip_existing_xor`], with the side of the XORed term: `true` when it is the right
/// operand of `^` (the coordinates then keep the left one).
pub fn strip_existing_xor_side(array: &ArrayUse) -> Option<(ArrayUse, bool)> {
    if array.extents.len() < 2 || array.accesses.is_empty() {
        return None;
    }
    let last = array.extents.len() - 1;
    // Try the right operand as the XORed term first (`n ^ f(m)`), then the left.
    for right_is_term in [true, false] {
        let mut table: HashMap<Vec<i64>, i64> = HashMap::new();
        let mut out = array.clone();
        let mut ok = true;
        for site in &mut out.accesses {
            let coords = site.lowered.coords.clone()?;
            let Expr::Binary(BinOp::Xor, l, r) = &coords[last] else {
                return None;
            };
            let term = if right_is_term { r } else { l };
            let text = split_top_level_xor(site.index_texts.get(last)?, right_is_term)?;
            if !term_is_function_of_rows(&site.lowered, &coords[..last], term, &mut table) {
                ok = false;
                break;
            }
            let mut new_coords = coords.clone();
            new_coords[last] = super::fixed::without_xor(&coords[last], right_is_term)?;
            site.lowered.coords = Some(new_coords);
            site.index_texts[last] = text;
        }
        if ok && table.values().any(|&v| v != 0) {
            return Some((out, right_is_term));
        }
    }
    None
}

/// The text of the kept operand of the last top-level `^` in `index` (the left one when
/// the term is on the right).
fn split_top_level_xor(index: &str, right_is_term: bool) -> Option<String> {
    let mut depth = 0i32;
    let mut at = None;
    for (i, c) in index.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '^' if depth == 0 => at = Some(i),
            _ => {}
        }
    }
    let at = at?;
    let (l, r) = (index[..at].trim(), index[at + 1..].trim());
    let kept = if right_is_term { l } else { r };
    (!kept.is_empty()).then(|| kept.to_string())
}

/// Evaluates `term` and the outer coordinates on every lane and iteration and records
/// `rows -> term` in `table`; false when a row maps to two values or evaluation fails.
fn term_is_function_of_rows(
    acc: &crate::model::ir::LoweredAccess,
    rows: &[Expr],
    term: &Expr,
    table: &mut HashMap<Vec<i64>, i64>,
) -> bool {
    let used = rows.iter().fold(term.var_mask(), |m, e| m | e.var_mask());
    let mut domains: Vec<(usize, u64)> = Vec::new();
    for (i, v) in acc.vars.iter().enumerate() {
        if i >= 64 || used >> i & 1 == 0 {
            continue;
        }
        match v.kind {
            VarKind::Thread(_) => {}
            VarKind::Counter { trips: Some(t) } => domains.push((i, t)),
            _ => return false,
        }
    }
    let threads = acc.block.threads();
    let combos = domains.iter().try_fold(1u64, |a, &(_, t)| a.checked_mul(t));
    let Some(combos) = combos.filter(|c| c.saturating_mul(threads) <= MAX_EVALS) else {
        return false;
    };
    let mut values = vec![0i64; acc.vars.len()];
    for combo in 0..combos {
        bind_counters(&mut values, &domains, combo);
        for linear in 0..threads {
            acc.bind_thread(&mut values, linear);
            let Some(key) = rows
                .iter()
                .map(|r| r.eval(&values))
                .collect::<Option<Vec<i64>>>()
            else {
                return false;
            };
            let Some(v) = term.eval(&values) else {
                return false;
            };
            if *table.entry(key).or_insert(v) != v {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::split_top_level_xor;

    #[test]
    fn splits_the_last_top_level_xor() {
        assert_eq!(split_top_level_xor("n ^ m", true).as_deref(), Some("n"));
        assert_eq!(
            split_top_level_xor("(a ^ b) ^ (2 * m)", true).as_deref(),
            Some("(a ^ b)")
        );
        assert_eq!(split_top_level_xor("m ^ n", false).as_deref(), Some("n"));
        assert_eq!(split_top_level_xor("f(a ^ b)", true), None);
    }
}
