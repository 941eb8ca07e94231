//! The cost of one access to a memory layout: the exact F2 formula (spec §2.4, the exact
//! form of the Linear Layouts paper's Lemma 9.4) and the brute force it is checked against,
//! which runs every instruction through [`crate::bank::count_wavefronts`].
//!
//! Both are exact under the bank model (docs/bank-model.md); the formula is O(d³) and the
//! brute force is exponential, so the formula is what the construction optimises and the
//! brute force is what the tests (and [`crate::swizzle::suggest`]) verify with.

use super::layout::{DistributedLayout, Geometry, MemoryLayout};
use crate::bank::count_wavefronts;
use crate::f2::{BitMatrix, Subspace};

/// The cost of one access pattern under one memory layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccessCost {
    /// `k`: the access moves `2^k` elements per lane per instruction.
    pub vec_bits: u32,
    /// Instructions: `2^(rank(reg) − k) · 2^(#warp bits)`.
    pub instructions: u64,
    /// Transactions (phases) per instruction, `2^p`.
    pub phases: u64,
    /// `c`: every transaction costs `2^c` wavefronts.
    pub conflict_bits: u32,
    /// Total wavefronts over all instructions.
    pub wavefronts: u64,
}

impl AccessCost {
    /// Wavefronts of one instruction (every instruction costs the same: the access is homogeneous).
    pub fn per_instruction(&self) -> u64 {
        self.phases.saturating_mul(pow2(self.conflict_bits))
    }
}

/// `2^bits`, saturating at `u64::MAX` instead of overflowing.
pub(crate) fn pow2(bits: u32) -> u64 {
    1u64.checked_shl(bits).unwrap_or(u64::MAX)
}

/// Largest `k` (capped by the geometry) such that the access can move `2^k` elements per
/// lane: `M_0..M_{k-1}` lie in the register span and every lane/warp image has zero low
/// `k` offset bits (spec §2.2, with re-basing of registers allowed).
pub fn vectorisation(mem: &MemoryLayout, access: &DistributedLayout, geom: &Geometry) -> u32 {
    let Some(q) = mem.offsets() else { return 0 };
    let regs = access.reg_span();
    let mut k = 0u32;
    while k < geom.max_vec_bits && (k as usize) < mem.columns.len() {
        let col = mem.columns[k as usize];
        let low = (1u64 << (k + 1)) - 1;
        let aligned = access
            .lane
            .iter()
            .chain(&access.warp)
            .all(|&t| q.apply(t) & low == 0);
        if !regs.contains(col) || !aligned {
            break;
        }
        k += 1;
    }
    k
}

/// The exact cost of `access` under `mem` (spec §2.4):
/// `c = dim(Seg ∩ (T + span(M_0..M_{max(k,z)-1})))` in logical space, where `T` is the span of
/// the lanes of one transaction and `Seg = span(M_ℓ..M_{d-1})`; this is the logical-space
/// form of `dim((W + Vk + Sub) ∩ (Seg + Sub)) − dim(Sub)`.
pub fn exact_cost(mem: &MemoryLayout, access: &DistributedLayout, geom: &Geometry) -> AccessCost {
    let k = vectorisation(mem, access, geom);
    let d = mem.dim();
    let lane_bits = access.lane.len() as u32;
    let p = geom.phase_bits(k, lane_bits);
    let tile = &access.lane[..(lane_bits - p) as usize];
    let low = k.max(geom.sub_bits()).min(d) as usize;
    let near = Subspace::span(
        tile.iter()
            .copied()
            .chain(mem.columns[..low].iter().copied()),
    );
    let line = geom.line_bits().min(d) as usize;
    let seg = Subspace::span(mem.columns[line..].iter().copied());
    let c = seg.intersection(&near).dim() as u32;
    let rank = access.reg_span().dim() as u32;
    let instr_bits = rank.saturating_sub(k) + access.warp.len() as u32;
    let instructions = pow2(instr_bits);
    let phases = pow2(p);
    AccessCost {
        vec_bits: k,
        instructions,
        phases,
        conflict_bits: c,
        wavefronts: pow2(instr_bits + p + c),
    }
}

/// Total wavefronts of `access` under `mem` by simulation: every instruction (non-vector
/// register combination × warp) is handed to [`count_wavefronts`] with each lane's byte
/// address. Exponential in the register and warp bits: for tests and verification.
pub fn brute_cost(mem: &MemoryLayout, access: &DistributedLayout, geom: &Geometry) -> Option<u64> {
    if access.reg.len() + access.lane.len() + access.warp.len() > 32 {
        return None;
    }
    let q = mem.offsets()?;
    let k = vectorisation(mem, access, geom);
    // Registers beyond the vector: a basis of the register span completing M_0..M_{k-1},
    // with their low k offset bits cleared so every instruction starts aligned.
    let vec_space = Subspace::span(mem.columns[..k as usize].iter().copied());
    let mask = (1u64 << k) - 1;
    let others: Vec<u64> = vec_space
        .extend_from(access.reg.iter().copied())
        .into_iter()
        .map(|r| {
            let off = q.apply(r);
            mem.logical(off & !mask)
        })
        .collect();
    let width = geom.element_bytes << k;
    let lanes = 1u64 << access.lane.len();
    let others_m = BitMatrix::from_columns(others.clone());
    let lane_m = BitMatrix::from_columns(access.lane.clone());
    let warp_m = BitMatrix::from_columns(access.warp.clone());
    let mut total = 0u64;
    let mut addrs: Vec<Option<i64>> = Vec::with_capacity(lanes as usize);
    for r in 0..1u64 << others.len() {
        for w in 0..1u64 << access.warp.len() {
            addrs.clear();
            let base = others_m.apply(r) ^ warp_m.apply(w);
            for l in 0..lanes {
                let off = q.apply(base ^ lane_m.apply(l)) & !mask;
                addrs.push(Some((off * u64::from(geom.element_bytes)) as i64));
            }
            total += count_wavefronts(&geom.params, width, &addrs, false).wavefronts;
        }
    }
    Some(total)
}
