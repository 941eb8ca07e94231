//! The two kinds of layout the swizzle construction talks about, as F2 bit maps:
//! a *distributed* layout (which thread and register holds which logical element)
//! and a *memory* layout (which logical element sits at which element offset).
//! Plus the geometry (element size and bank model) that both are read against.
//!
//! Conventions follow the swizzle spec §1: the logical space of a tensor with power-of-two
//! extents `[E0, E1, ..]` (outermost first, as declared) is flattened with **dim0 in the
//! least-significant bits**, `flat = c0 + E0·(c1 + E1·(c2 + ..))`. Offsets count elements.

use crate::bank::BankParams;
use crate::f2::{BitMatrix, Subspace};

/// Where the threads of one access put their elements (spec §1, "distributed layout").
///
/// Thread `(r, l, w)` touches the logical element `XOR of reg[i] for the bits i of r,
/// lane[j] for the bits j of l, warp[k] for the bits k of w`. A zero image is a broadcast.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DistributedLayout {
    /// Images of the register (loop counter) bits.
    pub reg: Vec<u64>,
    /// Images of the lane-id bits, lowest lane bit first.
    pub lane: Vec<u64>,
    /// Images of the warp-id bits.
    pub warp: Vec<u64>,
}

impl DistributedLayout {
    /// The logical element of thread `(r, l, w)`.
    pub fn element(&self, r: u64, l: u64, w: u64) -> u64 {
        BitMatrix::from_columns(self.reg.clone()).apply(r)
            ^ BitMatrix::from_columns(self.lane.clone()).apply(l)
            ^ BitMatrix::from_columns(self.warp.clone()).apply(w)
    }

    /// Span of the register images: the directions one thread walks through on its own.
    pub fn reg_span(&self) -> Subspace {
        Subspace::span(self.reg.iter().copied())
    }

    /// Span of every lane and warp image: the directions that separate threads.
    pub fn thread_span(&self) -> Subspace {
        Subspace::span(self.lane.iter().chain(&self.warp).copied())
    }
}

/// A shared-memory layout: `columns[i]` is the logical element stored at element offset `2^i`
/// (offset -> logical, spec §1). Always square and invertible when built by this module.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MemoryLayout {
    pub columns: Vec<u64>,
}

impl MemoryLayout {
    /// The layout with the given offset-bit images; `None` unless it is invertible on F2^d.
    pub fn new(columns: Vec<u64>) -> Option<MemoryLayout> {
        BitMatrix::from_columns(columns.clone()).inverse()?;
        Some(MemoryLayout { columns })
    }

    /// The identity on F2^d: offset == flattened logical index (dim0 fastest).
    pub fn identity(d: u32) -> MemoryLayout {
        MemoryLayout {
            columns: BitMatrix::identity(d).columns,
        }
    }

    /// Number of offset (and logical) bits.
    pub fn dim(&self) -> u32 {
        self.columns.len() as u32
    }

    /// The logical element at element offset `offset`.
    pub fn logical(&self, offset: u64) -> u64 {
        BitMatrix::from_columns(self.columns.clone()).apply(offset)
    }

    /// `Q = M^-1`: logical element -> element offset. `None` only if the layout is singular,
    /// which [`MemoryLayout::new`] rules out.
    pub fn offsets(&self) -> Option<BitMatrix> {
        BitMatrix::from_columns(self.columns.clone()).inverse()
    }
}

/// Bit positions of each dimension in the flattened logical space (dim0 least significant).
/// `None` unless every extent is a power of two and the total fits in 32 bits.
pub fn dim_offsets(extents: &[u64]) -> Option<Vec<(u32, u32)>> {
    let mut out = Vec::with_capacity(extents.len());
    let mut at = 0u32;
    for &e in extents {
        if e == 0 || !e.is_power_of_two() {
            return None;
        }
        let bits = e.trailing_zeros();
        out.push((at, bits));
        at += bits;
    }
    (at <= 32).then_some(out)
}

/// The flattened logical index of `coords` (outermost first), dim0 least significant.
pub fn flatten(coords: &[u64], extents: &[u64]) -> Option<u64> {
    flatten_at(coords, &dim_offsets(extents)?)
}

/// [`flatten`] with the extents' [`dim_offsets`] computed once by the caller.
pub fn flatten_at(coords: &[u64], offsets: &[(u32, u32)]) -> Option<u64> {
    if coords.len() != offsets.len() {
        return None;
    }
    let mut flat = 0u64;
    for (&c, &(at, bits)) in coords.iter().zip(offsets) {
        if c >> bits != 0 {
            return None;
        }
        flat |= c << at;
    }
    Some(flat)
}

/// The C row-major layout of an array with these extents (last dimension contiguous), as a
/// memory layout over the dim0-least-significant logical space: offset bit `i` -> logical unit.
pub fn row_major(extents: &[u64]) -> Option<MemoryLayout> {
    let offs = dim_offsets(extents)?;
    let mut columns = Vec::new();
    for &(at, bits) in offs.iter().rev() {
        for b in 0..bits {
            columns.push(1u64 << (at + b));
        }
    }
    Some(MemoryLayout { columns })
}

/// Element size and bank model, with the derived bit counts of spec §1/§2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// Bytes per element (a power of two, at most 16).
    pub element_bytes: u32,
    pub params: BankParams,
    /// Most offset bits one thread may move in one instruction; 0 for scalar accesses
    /// (source-level code: each loop iteration is its own instruction).
    pub max_vec_bits: u32,
}

impl Geometry {
    /// `None` unless the element size and bank geometry are powers of two and one bank
    /// line holds at least one element.
    pub fn new(element_bytes: u32, params: BankParams, allow_vectors: bool) -> Option<Geometry> {
        let ok = |x: u32| x != 0 && x.is_power_of_two();
        if !ok(element_bytes)
            || element_bytes > 16
            || !ok(params.bank_count)
            || !ok(params.bank_width)
            || !ok(params.warp_size)
            || params.bank_count.checked_mul(params.bank_width)? < element_bytes
        {
            return None;
        }
        let max_vec_bits = if allow_vectors {
            (16 / element_bytes).trailing_zeros()
        } else {
            0
        };
        Some(Geometry {
            element_bytes,
            params,
            max_vec_bits,
        })
    }

    /// `ℓ = log2(line bytes / element bytes)`: offset bits inside one bank line (Vec + Bank).
    pub fn line_bits(&self) -> u32 {
        (self.params.bank_count * self.params.bank_width / self.element_bytes).trailing_zeros()
    }

    /// `z`: offset bits inside one bank word (0 when an element fills a word or more).
    pub fn sub_bits(&self) -> u32 {
        if self.element_bytes < self.params.bank_width {
            (self.params.bank_width / self.element_bytes).trailing_zeros()
        } else {
            0
        }
    }

    /// Number of top lane bits that select the phase (transaction) for an access moving
    /// `2^k` elements per lane, with `lane_bits` lane bits (spec §2.1).
    pub fn phase_bits(&self, k: u32, lane_bits: u32) -> u32 {
        let bytes = u64::from(self.element_bytes) << k;
        let line = u64::from(self.params.bank_count) * u64::from(self.params.bank_width);
        let lanes = (line / bytes.max(1)).clamp(1, 1u64 << lane_bits.min(32));
        lane_bits.saturating_sub(lanes.trailing_zeros())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_major_matches_c_offsets() {
        let ext = [16u64, 32];
        let m = row_major(&ext).expect("power-of-two extents");
        let q = m.offsets().expect("invertible");
        for r in 0..16u64 {
            for c in 0..32u64 {
                let flat = flatten(&[r, c], &ext).expect("in range");
                assert_eq!(q.apply(flat), r * 32 + c);
            }
        }
    }

    #[test]
    fn geometry_bits() {
        let g = Geometry::new(2, BankParams::default(), true).expect("valid geometry");
        assert_eq!((g.line_bits(), g.sub_bits(), g.max_vec_bits), (6, 1, 3));
        assert_eq!(g.phase_bits(3, 5), 2);
        assert_eq!(g.phase_bits(0, 5), 0);
        assert!(Geometry::new(3, BankParams::default(), true).is_none());
    }
}
