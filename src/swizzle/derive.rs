//! Reads a distributed layout off a source-level access by *evaluating* its coordinates:
//! register bits are the bits of power-of-two loop counters, lane bits the lane id within a
//! warp, warp bits the warp id. The map is accepted only if it is affine over F2, which is
//! checked by brute force on every input (docs/swizzling.md, "From source to layouts").

use super::input::SiteUse;
use super::layout::{dim_offsets, flatten_at, DistributedLayout};
use crate::model::ir::{Axis, VarKind};

/// Most input bits (counter + lane + warp) whose linearity is checked exhaustively.
const MAX_INPUT_BITS: u32 = 18;

/// How one variable of the access gets its value from the input bits.
enum Source {
    /// A counter taking `2^bits` values, from input bits `at..at + bits`.
    Counter {
        at: u32,
        bits: u32,
    },
    Thread(Axis),
    /// Not read by the coordinates or guards.
    Unused,
}

/// The distributed layout of `site` over the array's logical space (dim0 least
/// significant), or why there is none (non-linear index, unknown loop bounds, ...).
pub fn derive(site: &SiteUse, extents: &[u64]) -> Result<DistributedLayout, String> {
    let acc = &site.lowered;
    let coords = acc
        .coords
        .as_ref()
        .ok_or("the access is not a plain subscript of every dimension")?;
    if coords.len() != extents.len() {
        return Err("the subscripts do not match the declared dimensions".into());
    }
    let used = coords
        .iter()
        .chain(&acc.guards)
        .fold(0u64, |m, e| m | e.var_mask());
    let mut sources = Vec::with_capacity(acc.vars.len());
    let mut reg_bits = 0u32;
    for (i, v) in acc.vars.iter().enumerate() {
        let read = i < 64 && used >> i & 1 == 1;
        sources.push(match &v.kind {
            VarKind::Thread(axis) => Source::Thread(*axis),
            _ if !read => Source::Unused,
            VarKind::Counter { trips: Some(t) } if t.is_power_of_two() => {
                let bits = t.trailing_zeros();
                reg_bits += bits;
                Source::Counter {
                    at: reg_bits - bits,
                    bits,
                }
            }
            VarKind::Counter { .. } => {
                return Err(format!(
                    "loop `{}` does not run a power-of-two number of times",
                    v.name
                ))
            }
            VarKind::Uniform { .. } | VarKind::Line { .. } => {
                return Err(format!("the index depends on `{}`", v.name))
            }
        });
    }
    let ws = u64::from(acc.warp_size);
    let threads = acc.block.threads();
    if !ws.is_power_of_two()
        || threads < ws
        || !threads.is_multiple_of(ws)
        || !(threads / ws).is_power_of_two()
    {
        return Err("the block is not a power-of-two number of full warps".into());
    }
    let lane_bits = ws.trailing_zeros();
    let warp_bits = (threads / ws).trailing_zeros();
    let n_in = reg_bits + lane_bits + warp_bits;
    if n_in > MAX_INPUT_BITS {
        return Err("too many loop and thread bits to check linearity".into());
    }

    let offsets = dim_offsets(extents);
    let mut values = vec![0i64; acc.vars.len()];
    let mut cs = Vec::with_capacity(coords.len());
    let mut eval = |x: u64| -> Option<u64> {
        let lane = (x >> reg_bits) & (ws - 1);
        let warp = x >> (reg_bits + lane_bits);
        let (tx, ty, tz) = acc.block.coords(warp * ws + lane);
        for (slot, src) in values.iter_mut().zip(&sources) {
            *slot = match src {
                Source::Counter { at, bits } => ((x >> at) & ((1u64 << bits) - 1)) as i64,
                Source::Thread(Axis::X) => tx,
                Source::Thread(Axis::Y) => ty,
                Source::Thread(Axis::Z) => tz,
                Source::Unused => 0,
            };
        }
        if !acc
            .guards
            .iter()
            .all(|g| g.eval(&values).is_some_and(|v| v != 0))
        {
            return None;
        }
        cs.clear();
        for c in coords {
            cs.push(c.eval(&values).and_then(|v| u64::try_from(v).ok())?);
        }
        flatten_at(&cs, offsets.as_deref()?)
    };

    let base = eval(0).ok_or("the index is out of bounds, guarded, or cannot be evaluated")?;
    let mut images = Vec::with_capacity(n_in as usize);
    for i in 0..n_in {
        images.push(
            eval(1u64 << i).ok_or("the index is out of bounds, guarded, or cannot be evaluated")?
                ^ base,
        );
    }
    for x in 0..1u64 << n_in {
        let predicted = (0..n_in)
            .filter(|i| x >> i & 1 == 1)
            .fold(base, |acc, i| acc ^ images[i as usize]);
        if eval(x) != Some(predicted) {
            return Err(
                "the index is not linear over the bits of the lane, warp and loop counters".into(),
            );
        }
    }
    let (reg, rest) = images.split_at(reg_bits as usize);
    let (lane, warp) = rest.split_at(lane_bits as usize);
    Ok(DistributedLayout {
        reg: reg.to_vec(),
        lane: lane.to_vec(),
        warp: warp.to_vec(),
    })
}
