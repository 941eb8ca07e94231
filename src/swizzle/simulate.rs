//! Re-simulates a source-level access under a candidate layout, lane by lane, through the
//! bank model's [`count_wavefronts`]: the check every suggestion must pass before it is shown.
//!
//! Exact enumeration over every warp of the block and every combination of loop counter
//! values (bounded by a budget; past it the simulation declines rather than guesses).

use super::input::SiteUse;
use crate::bank::{count_wavefronts, BankParams, Wavefronts};
use crate::model::ir::VarKind;

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

/// The coordinates every active lane of one access touches, for every instruction (loop
/// counter combination × warp), evaluated once so that each candidate layout costs only
/// the offset mapping and the bank model.
#[derive(Debug, Clone)]
pub struct Lanes {
    /// Lanes per instruction (the warp size).
    warp_size: usize,
    /// Subscripts per lane.
    dims: usize,
    /// Whether each lane of each instruction is active (in the block, guards true).
    active: Vec<bool>,
    /// The coordinates of the active lanes, in order, `dims` each.
    coords: Vec<u64>,
    width: u32,
    atomic: bool,
}

impl Lanes {
    /// Enumerates `site` exactly over every warp of the block and every combination of loop
    /// counter values. `None` when that is impossible (unknown loop bounds, an index that
    /// depends on run-time values or is negative, the budget): then every layout is `None`.
    pub fn of(site: &SiteUse) -> Option<Lanes> {
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
        let slots = combos.checked_mul(warps.checked_mul(ws)?)?;
        if slots > MAX_LANE_EVALS || combos == 0 {
            return None;
        }
        let mut out = Lanes {
            warp_size: ws as usize,
            dims: coords.len(),
            active: Vec::with_capacity(slots as usize),
            coords: Vec::new(),
            width: acc.width.max(1),
            atomic: acc.atomic,
        };
        let mut values = vec![0i64; acc.vars.len()];
        for combo in 0..combos {
            bind_counters(&mut values, &domains, combo);
            for linear in 0..warps * ws {
                if linear >= threads {
                    out.active.push(false);
                    continue;
                }
                acc.bind_thread(&mut values, linear);
                let on = acc.guards_hold(&values);
                out.active.push(on);
                if on {
                    for c in coords {
                        out.coords
                            .push(c.eval(&values).and_then(|v| u64::try_from(v).ok())?);
                    }
                }
            }
        }
        Some(out)
    }

    /// Simulates the access with element offsets given by `offset_of(coords)` (coordinates
    /// outermost first). `None` when an offset is undefined, overflows or is misaligned.
    pub fn simulate(
        &self,
        element_bytes: u32,
        params: &BankParams,
        offset_of: &dyn Fn(&[u64]) -> Option<u64>,
    ) -> Option<Simulated> {
        let mut addrs: Vec<Option<i64>> = vec![None; self.warp_size];
        let mut coords = self.coords.chunks_exact(self.dims.max(1));
        let mut out = Simulated::default();
        let mut seen = false;
        let mut memo = Memo::default();
        for instruction in self.active.chunks(self.warp_size) {
            for (slot, &on) in addrs.iter_mut().zip(instruction) {
                *slot = None;
                if !on {
                    continue;
                }
                let cs = if self.dims == 0 {
                    &[][..]
                } else {
                    coords.next()?
                };
                *slot = Some(lane_byte(cs, element_bytes, self.width, offset_of)?);
            }
            let w = memo.count(params, self.width, &addrs, self.atomic);
            if w.ideal == 0 {
                continue;
            }
            out.total += w.wavefronts;
            if !seen || w.is_worse_than(&out.worst) {
                out.worst = w;
                seen = true;
            }
        }
        seen.then_some(out)
    }
}

/// The byte address of the element at `coords` under `offset_of`, for a lane moving
/// `width` bytes; `None` when the offset is undefined, overflows or is misaligned.
pub fn lane_byte(
    coords: &[u64],
    element_bytes: u32,
    width: u32,
    offset_of: &dyn Fn(&[u64]) -> Option<u64>,
) -> Option<i64> {
    let byte = offset_of(coords)?.checked_mul(u64::from(element_bytes))?;
    if byte % u64::from(width.max(1)) != 0 {
        return None;
    }
    i64::try_from(byte).ok()
}

/// The bank model's count of the previous instruction, by address pattern. Moving every
/// lane of a warp by a multiple of the bank line (`bank_count × bank_width` bytes) keeps
/// every lane's bank and which lanes share a word, so the count is the same: patterns are
/// compared relative to their lowest line, and consecutive warps or loop iterations that
/// repeat one are counted once.
#[derive(Default)]
struct Memo {
    key: Vec<Option<i64>>,
    last: Option<Wavefronts>,
}

impl Memo {
    fn count(
        &mut self,
        params: &BankParams,
        width: u32,
        addrs: &[Option<i64>],
        atomic: bool,
    ) -> Wavefronts {
        let line = i64::from(params.bank_count.max(1)) * i64::from(params.bank_width.max(1));
        let base = addrs
            .iter()
            .flatten()
            .min()
            .map_or(0, |a| a.div_euclid(line) * line);
        let same = self.key.len() == addrs.len()
            && self
                .key
                .iter()
                .zip(addrs)
                .all(|(k, a)| *k == a.map(|a| a - base));
        if let (true, Some(w)) = (same, self.last) {
            return w;
        }
        self.key.clear();
        self.key.extend(addrs.iter().map(|a| a.map(|a| a - base)));
        let w = count_wavefronts(params, width, &self.key, atomic);
        self.last = Some(w);
        w
    }
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
    Lanes::of(site)?.simulate(element_bytes, params, offset_of)
}

/// Sets each counter `(variable, trips)` of `domains` to its value in combination `combo`
/// (the first counter varies fastest).
pub(super) fn bind_counters(values: &mut [i64], domains: &[(usize, u64)], combo: u64) {
    let mut rest = combo;
    for &(i, t) in domains {
        values[i] = (rest % t) as i64;
        rest /= t;
    }
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
