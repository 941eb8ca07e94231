//! Explanations for conflicts found by enumeration: two example lanes of the worst case
//! that hit one bank in different words (`lanes 0 and 16 hit bank 0 at words 0 and 512`).
//!
//! It re-evaluates the lowered address of one warp at the worst case's values under the
//! bank model of docs/bank-model.md §1; it decides nothing and only words a verdict.

use crate::bank::BankParams;
use crate::model::ir::LoweredAccess;

/// A sentence naming two lanes that collide in the worst case, or `None` when the case
/// shows no collision (or cannot be evaluated).
///
/// `warp` and the `(variable name, value)` pairs of `worst_case` are the worst case as
/// [`crate::analyse::enumerate::enumerate`] reports it; variables it omits take their
/// first value. The pair comes from the phase and bank with the most distinct words.
pub fn explain_conflict(
    access: &LoweredAccess,
    params: &BankParams,
    warp: u64,
    worst_case: &[(String, i64)],
) -> Option<String> {
    let bw = i64::from(params.bank_width.max(1));
    let banks = i64::from(params.bank_count.max(1));
    let width = i64::from(access.width.max(1));
    // (lane, first word, last word) of every active lane.
    let mut lanes: Vec<(u64, i64, i64)> = Vec::new();
    for (lane, values) in access
        .warp_lane_values(warp, worst_case)?
        .iter()
        .enumerate()
    {
        let Some(values) = values else { continue };
        let addr = access.address.eval(values)?;
        lanes.push((
            lane as u64,
            addr.div_euclid(bw),
            addr.checked_add(width - 1)?.div_euclid(bw),
        ));
    }
    let phase = u64::from(params.phase_lanes(access.width)).max(1);
    // Best example: (distinct words in the bank, lane a, lane b, bank, word a, word b).
    let mut best: Option<(usize, u64, u64, i64, i64, i64)> = None;
    let mut atomic_pair: Option<(u64, u64, i64)> = None;
    for chunk in lanes.chunk_by(|a, b| a.0 / phase == b.0 / phase) {
        // (bank, word, lane) of every word the phase touches.
        let mut touched: Vec<(i64, i64, u64)> = chunk
            .iter()
            .flat_map(|&(lane, first, last)| {
                (first..=last).map(move |word| (word.rem_euclid(banks), word, lane))
            })
            .collect();
        touched.sort_unstable();
        for group in touched.chunk_by(|a, b| a.0 == b.0) {
            let mut words: Vec<(i64, u64)> = group.iter().map(|&(_, w, l)| (w, l)).collect();
            if access.atomic && atomic_pair.is_none() {
                if let Some(pair) = words
                    .windows(2)
                    .find(|p| p[0].0 == p[1].0 && p[0].1 != p[1].1)
                {
                    atomic_pair = Some((pair[0].1, pair[1].1, pair[0].0));
                }
            }
            words.dedup_by_key(|&mut (w, _)| w);
            if words.len() >= 2 && best.as_ref().is_none_or(|b| words.len() > b.0) {
                best = Some((
                    words.len(),
                    words[0].1,
                    words[1].1,
                    group[0].0,
                    words[0].0,
                    words[1].0,
                ));
            }
        }
    }
    let in_warp = if warp == 0 {
        String::new()
    } else {
        format!(" of warp {warp}")
    };
    if let Some((_, a, b, bank, wa, wb)) = best {
        let (a, b, wa, wb) = if a <= b {
            (a, b, wa, wb)
        } else {
            (b, a, wb, wa)
        };
        return Some(format!(
            "lanes {a} and {b}{in_warp} hit bank {bank} at words {wa} and {wb}"
        ));
    }
    atomic_pair.map(|(a, b, word)| {
        format!("lanes {a} and {b}{in_warp} update the same word {word} (bank {}); atomics to one word serialise", word.rem_euclid(banks))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::enumerate::{enumerate, Budget};
    use crate::model::ir::{Axis, BinOp, BlockShape, Expr, VarInfo, VarKind};

    fn access(address: Expr, block_x: u32) -> LoweredAccess {
        LoweredAccess {
            vars: vec![
                VarInfo {
                    name: "threadIdx.x".to_string(),
                    kind: VarKind::Thread(Axis::X),
                    loop_value: None,
                },
                VarInfo {
                    name: "k".to_string(),
                    kind: VarKind::Counter { trips: Some(4) },
                    loop_value: None,
                },
            ],
            address,
            width: 4,
            atomic: false,
            guards: Vec::new(),
            block: BlockShape {
                x: block_x,
                y: 1,
                z: 1,
            },
            warp_size: 32,
            coords: None,
            extents: Vec::new(),
        }
    }

    #[test]
    fn names_two_colliding_lanes() {
        let p = BankParams::default();
        // s[(t % 16) * 512 + t / 16] floats: lanes 0 and 1 hit banks 0 at words 0 and 512.
        let t = Expr::Var(0);
        let idx = Expr::bin(
            BinOp::Add,
            Expr::bin(
                BinOp::Mul,
                Expr::bin(BinOp::Rem, t.clone(), Expr::Const(16)),
                Expr::Const(512),
            ),
            Expr::bin(BinOp::Div, t, Expr::Const(16)),
        );
        let a = access(Expr::bin(BinOp::Mul, idx, Expr::Const(4)), 32);
        let v = enumerate(&a, &p, Budget::default());
        let text = explain_conflict(&a, &p, v.worst_warp, &v.worst_case);
        assert_eq!(
            text.as_deref(),
            Some("lanes 0 and 1 hit bank 0 at words 0 and 512")
        );
    }

    #[test]
    fn uses_the_worst_warp_and_values() {
        let p = BankParams::default();
        // Warp 1 (t >= 32) at k = 3 strides by 2 words; everything else is conflict-free.
        let t = Expr::Var(0);
        let hot = Expr::bin(
            BinOp::LogicAnd,
            Expr::bin(BinOp::Ge, t.clone(), Expr::Const(32)),
            Expr::bin(BinOp::Eq, Expr::Var(1), Expr::Const(3)),
        );
        let idx = Expr::Select(
            Box::new(hot),
            Box::new(Expr::bin(BinOp::Mul, t.clone(), Expr::Const(2))),
            Box::new(t),
        );
        let a = access(Expr::bin(BinOp::Mul, idx, Expr::Const(4)), 64);
        let v = enumerate(&a, &p, Budget::default());
        let text = explain_conflict(&a, &p, v.worst_warp, &v.worst_case).unwrap_or_default();
        assert_eq!(
            text,
            "lanes 0 and 16 of warp 1 hit bank 0 at words 64 and 96"
        );
        assert_eq!(explain_conflict(&a, &p, 0, &[]), None);
    }
}
