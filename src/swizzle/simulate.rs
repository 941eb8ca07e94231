//! Re-simulates a source-level access under a candidate layout, lane by lane, through the
//! bank model's [`count_wavefronts`]: the check every suggestion must pass before it is shown.
//!
//! Exact enumeration over every warp of the block and every combination of loop counter
//! values (bounded by a budget; past it the simulation declines rather than guesses).

use super::input::SiteUse;
use crate::bank::{count_wavefronts, BankParams, Wavefronts};
use crate::lower::ir::{Axis, VarKind};

/// Most lane evaluations spent re-simulating one access.
const MAX_LANE_EVALS: u64 = 1 << 19;

/// The result of simulating one access: its worst instruction and the total over all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Simulated {
    /// The worst instruction (largest conflict factor, ties to more wavefronts).
    pub worst: Wavefronts,
    /// Wavefronts summed over every instruction (warps × loop iterations).
    pub total: u64,
}

/// Simulates `site` with element offsets given by `offset_of(coords)` (coordinates
/// outermost first). `None` when the access cannot be enumerated exactly (unknown loop
/// bounds, an index that depends on run-time values, a misaligned vector access, the budget).
pub fn simulate(
    site: &SiteUse,
    element_bytes: u32,
    params: &BankParams,
    offset_of: &dyn Fn(&[u64]) -> Option<u64>,
) -> Option<Simulated> {
    let acc = &site.lowered;
    let coords = acc.coords.as_ref()?;
    let used = coords
        .iter()
        .chain(&acc.guards)
        .fold(0u64, |m, e| m | e.var_mask());
    let mut domains: Vec<(usize, u64)> = Vec::new();
    for (i, v) in acc.vars.iter().enumerate() {
        let read = i < 64 && used >> i & 1 == 1;
        match &v.kind {
            VarKind::Thread(_) => {}
            _ if !read => {}
            VarKind::Counter { trips: Some(t) } => domains.push((i, *t)),
            _ => return None,
        }
    }
    let ws = u64::from(acc.warp_size.max(1));
    let threads = acc.block.threads();
    let warps = threads.div_ceil(ws);
    let combos = domains
        .iter()
        .try_fold(1u64, |a, &(_, t)| a.checked_mul(t))?;
    if combos.checked_mul(warps.checked_mul(ws)?)? > MAX_LANE_EVALS || combos == 0 {
        return None;
    }
    let width = acc.width.max(1);
    let mut values = vec![0i64; acc.vars.len()];
    let mut addrs: Vec<Option<i64>> = vec![None; ws as usize];
    let mut out = Simulated::default();
    let mut seen = false;
    for combo in 0..combos {
        let mut rest = combo;
        for &(i, t) in &domains {
            values[i] = (rest % t) as i64;
            rest /= t;
        }
        for warp in 0..warps {
            for (lane, slot) in addrs.iter_mut().enumerate() {
                *slot = None;
                let linear = warp * ws + lane as u64;
                if linear >= threads {
                    continue;
                }
                let (x, y, z) = acc.block.coords(linear);
                for (k, v) in acc.vars.iter().enumerate() {
                    if let VarKind::Thread(axis) = v.kind {
                        values[k] = match axis {
                            Axis::X => x,
                            Axis::Y => y,
                            Axis::Z => z,
                        };
                    }
                }
                // A guard that cannot be evaluated is assumed true, as in the bank model.
                if !acc
                    .guards
                    .iter()
                    .all(|g| g.eval(&values).is_none_or(|v| v != 0))
                {
                    continue;
                }
                let cs: Option<Vec<u64>> = coords
                    .iter()
                    .map(|c| c.eval(&values).and_then(|v| u64::try_from(v).ok()))
                    .collect();
                let byte = offset_of(&cs?)?.checked_mul(u64::from(element_bytes))?;
                if byte % u64::from(width) != 0 {
                    return None;
                }
                *slot = Some(i64::try_from(byte).ok()?);
            }
            let w = count_wavefronts(params, width, &addrs, acc.atomic);
            if w.ideal == 0 {
                continue;
            }
            out.total += w.wavefronts;
            if !seen || w.is_worse_than(&out.worst) {
                out.worst = w;
                seen = true;
            }
        }
    }
    seen.then_some(out)
}

/// Element offset of `coords` in a row-major array whose extents are `extents` (outermost
/// first), `None` when a coordinate is out of bounds of the *unpadded* extents.
pub fn row_major_offset(coords: &[u64], logical: &[u64], stored: &[u64]) -> Option<u64> {
    if coords.len() != stored.len() || logical.len() != stored.len() {
        return None;
    }
    let mut off = 0u64;
    for ((&c, &e), &s) in coords.iter().zip(logical).zip(stored) {
        if c >= e {
            return None;
        }
        off = off.checked_mul(s)?.checked_add(c)?;
    }
    Some(off)
}
