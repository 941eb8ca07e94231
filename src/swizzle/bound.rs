//! The least cost any memory layout can give an access once the common vector is fixed:
//! Lemma 9.5 of the Linear Layouts paper, as stated in the swizzle spec §4.
//!
//! A lower bound, and exact in the sense that for two accesses both bounds are reached at
//! once by the construction of §3.4 (docs/swizzling.md, "How far down can it go").

use super::cost::pow2;
use super::layout::{DistributedLayout, Geometry};
use crate::f2::Subspace;

/// The Lemma 9.5 lower bound of one access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// `c* = max(0, dim U − ℓ)` with `U = span(V ∪ T)`.
    pub conflict_bits: u32,
    /// Least total wavefronts: `2^(rank(reg) − v) · 2^(#warp bits) · 2^p · 2^c*`.
    pub wavefronts: u64,
    /// Least wavefronts of one instruction: `2^p · 2^c*`.
    pub per_instruction: u64,
}

/// The lanes of one transaction when the access moves `2^v` elements per lane (spec §2.1):
/// the lane images without the top `p` phase bits.
pub fn transaction_lanes(access: &DistributedLayout, v: u32, geom: &Geometry) -> Vec<u64> {
    let lane_bits = access.lane.len() as u32;
    let p = geom.phase_bits(v, lane_bits);
    access.lane[..(lane_bits - p) as usize].to_vec()
}

/// `U = span(V ∪ T)`: what one transaction of the access covers, vector included.
pub fn covered(access: &DistributedLayout, vec: &[u64], geom: &Geometry) -> Subspace {
    let v = vec.len() as u32;
    Subspace::span(
        vec.iter()
            .copied()
            .chain(transaction_lanes(access, v, geom)),
    )
}

/// Lemma 9.5 (spec §4.2): every memory layout `M` of `d` bits whose Vec columns are `vec`
/// gives `access` at least `2^c*` wavefronts per transaction, `c* = max(0, dim U − ℓ)`.
pub fn lemma95(access: &DistributedLayout, vec: &[u64], d: u32, geom: &Geometry) -> Bound {
    let vec_bits = vec.len() as u32;
    let cover = covered(access, vec, geom);
    let line = geom.line_bits().min(d);
    let conflict_bits = (cover.dim() as u32).saturating_sub(line);
    let phase_bits = geom.phase_bits(vec_bits, access.lane.len() as u32);
    let rank = access.reg_span().dim() as u32;
    let instr_bits = rank.saturating_sub(vec_bits) + access.warp.len() as u32;
    let per_instruction = pow2(phase_bits + conflict_bits);
    Bound {
        conflict_bits,
        wavefronts: pow2(phase_bits + conflict_bits + instr_bits),
        per_instruction,
    }
}
