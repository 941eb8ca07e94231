//! Classic swizzle parameters: Triton-style `(vec, perPhase, maxPhase)` and CuTe
//! `Swizzle<B,M,S>`, their layouts as F2 maps, the conversion between them, and how to read
//! them off a constructed layout (spec §5).
//!
//! An N-dimensional array is viewed as `R` rows (the product of all but the last extent) of
//! `C` columns (the last extent), which is how both families act on its row-major index.

use super::cost::exact_cost;
use super::layout::{row_major, DistributedLayout, Geometry, MemoryLayout};
use crate::f2::BitMatrix;

/// `offset = r·C + (c ⊕ (vec · ((r / perPhase) mod maxPhase)) mod C)` (spec §5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Classic {
    pub vec: u64,
    pub per_phase: u64,
    pub max_phase: u64,
}

/// CuTe `Swizzle<B,M,S>`: `x ⊕ ((x >> S) & (((1 << B) − 1) << M))` on the row-major index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cute {
    pub bits: u32,
    pub base: u32,
    pub shift: u32,
}

impl std::fmt::Display for Cute {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Swizzle<{},{},{}>", self.bits, self.base, self.shift)
    }
}

/// `(log2 R, log2 C)` of the row/column view, when both are powers of two.
fn view(extents: &[u64]) -> Option<(u32, u32)> {
    let (&cols, rest) = extents.split_last()?;
    let rows = rest.iter().try_fold(1u64, |acc, &e| acc.checked_mul(e))?;
    let (r, c) = (rows.trailing_zeros(), cols.trailing_zeros());
    (cols.is_power_of_two() && rows.is_power_of_two() && r + c <= 40).then_some((r, c))
}

/// The classic map offset bit -> row-major index bits (spec §5.1).
fn classic_index_map(cl: Classic, r_bits: u32, c_bits: u32) -> Option<Vec<u64>> {
    if !(cl.vec.is_power_of_two()
        && cl.per_phase.is_power_of_two()
        && cl.max_phase.is_power_of_two())
    {
        return None;
    }
    let (a, p, q) = (
        cl.vec.trailing_zeros(),
        cl.per_phase.trailing_zeros(),
        cl.max_phase.trailing_zeros(),
    );
    let mut cols: Vec<u64> = (0..c_bits).map(|j| 1u64 << j).collect();
    for i in 0..r_bits {
        let mut x = 1u64 << (c_bits + i);
        if i >= p && i < p + q && a + i - p < c_bits {
            x |= 1u64 << (a + i - p);
        }
        cols.push(x);
    }
    Some(cols)
}

/// The CuTe map offset bit -> row-major index bits (the swizzle is an involution).
fn cute_index_map(sw: Cute, n_bits: u32) -> Vec<u64> {
    (0..n_bits)
        .map(|j| {
            let mut x = 1u64 << j;
            if j >= sw.base + sw.shift && j < sw.base + sw.shift + sw.bits && j >= sw.shift {
                x ^= 1u64 << (j - sw.shift);
            }
            x
        })
        .collect()
}

/// Composes an index map with the row-major layout: offset bit -> logical element.
fn over_row_major(index_map: &[u64], extents: &[u64]) -> Option<MemoryLayout> {
    let rm = BitMatrix::from_columns(row_major(extents)?.columns);
    MemoryLayout::new(index_map.iter().map(|&x| rm.apply(x)).collect())
}

/// The classic layout of an array with these extents.
pub fn classic_layout(cl: Classic, extents: &[u64]) -> Option<MemoryLayout> {
    let (r, c) = view(extents)?;
    over_row_major(&classic_index_map(cl, r, c)?, extents)
}

/// The CuTe layout of an array with these extents.
pub fn cute_layout(sw: Cute, extents: &[u64]) -> Option<MemoryLayout> {
    let (r, c) = view(extents)?;
    if sw.shift < sw.bits {
        return None;
    }
    over_row_major(&cute_index_map(sw, r + c), extents)
}

/// The CuTe swizzle equal to a classic triple on an `R x C` view (spec §5.2):
/// `B = min(q, c − a, log2 R − p)`, `M = a`, `S = c + p − a`.
pub fn cute_of_classic(cl: Classic, extents: &[u64]) -> Option<Cute> {
    let (rows, cols) = view(extents)?;
    let vec = cl.vec.trailing_zeros();
    let phase = cl.per_phase.trailing_zeros();
    if vec > cols {
        return None;
    }
    let bits = cl
        .max_phase
        .trailing_zeros()
        .min(cols - vec)
        .min(rows.saturating_sub(phase));
    Some(Cute {
        bits,
        base: vec,
        shift: cols + phase - vec,
    })
}

/// Exact test (spec §5.3.1): the classic triple whose layout *is* `mem`, if any; the one
/// with the shortest diagonal, then the smallest vec and perPhase.
pub fn exact_classic(mem: &MemoryLayout, extents: &[u64]) -> Option<Classic> {
    let (r, c) = view(extents)?;
    for q in 0..=r {
        for a in 0..=c {
            for p in 0..=r {
                let cl = Classic {
                    vec: 1 << a,
                    per_phase: 1 << p,
                    max_phase: 1 << q,
                };
                if classic_layout(cl, extents).as_ref() == Some(mem) {
                    return Some(cl);
                }
            }
        }
    }
    None
}

/// Equivalence search (spec §5.3.2): a classic layout under which every access costs at
/// most `targets[i]` wavefronts (exact formula) and vectorises at least `min_vec[i]` bits.
/// The "natural" triple for each vec (`perPhase = max(1, line/C)`, `maxPhase` filling the
/// line) is tried before the rest of the grid.
pub fn equivalent_classic(
    accesses: &[DistributedLayout],
    extents: &[u64],
    geom: &Geometry,
    targets: &[u64],
    min_vec: &[u32],
) -> Option<(Classic, MemoryLayout)> {
    let (r, c) = view(extents)?;
    let line = geom.line_bits();
    let mut grid: Vec<(u32, u32, u32)> = Vec::new();
    for a in 0..=c {
        let p = line.saturating_sub(c).min(r);
        let q = line
            .saturating_sub(a + p)
            .min(r.saturating_sub(p))
            .min(c - a);
        grid.push((a, p, q));
    }
    for a in 0..=c {
        for p in 0..=r {
            for q in 0..=r {
                grid.push((a, p, q));
            }
        }
    }
    grid.into_iter().find_map(|(a, p, q)| {
        let cl = Classic {
            vec: 1 << a,
            per_phase: 1 << p,
            max_phase: 1 << q,
        };
        let mem = classic_layout(cl, extents)?;
        let good = accesses.iter().enumerate().all(|(i, acc)| {
            let cost = exact_cost(&mem, acc, geom);
            cost.wavefronts <= targets.get(i).copied().unwrap_or(0)
                && cost.vec_bits >= min_vec.get(i).copied().unwrap_or(0)
        });
        good.then_some((cl, mem))
    })
}
