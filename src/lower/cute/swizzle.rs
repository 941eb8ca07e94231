//! CuTe's `Swizzle<B, M, S>` (include/cute/swizzle.hpp) and the swizzled layouts
//! `composition(Swizzle<B, M, S>{}, layout)` builds (`ComposedLayout`).
//!
//! The swizzle XORs the `B` bits of the offset starting at bit `M + S` into the `B`
//! bits starting at bit `M`: `offset ^ ((offset & (mask << (M + S))) >> S)` with
//! `mask = (1 << B) - 1` (a negative `S` shifts left), applied to the element offset the
//! layout computes, before the pointer adds it.

use super::layout::Layout;

/// `Swizzle<bits, base, shift>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Swizzle {
    pub(crate) bits: u32,
    pub(crate) base: u32,
    pub(crate) shift: i32,
}

impl Swizzle {
    /// `Swizzle<B, M, S>`, when CuTe accepts it (`|S| >= B`) and its bits fit in 62.
    pub(crate) fn new(bits: i64, base: i64, shift: i64) -> Option<Swizzle> {
        let (bits, base, shift) = (
            u32::try_from(bits).ok()?,
            u32::try_from(base).ok()?,
            i32::try_from(shift).ok()?,
        );
        (shift.unsigned_abs() >= bits && bits + base + shift.unsigned_abs() <= 62)
            .then_some(Swizzle { bits, base, shift })
    }

    /// The mask of the bits read (CuTe's `yyy_msk`).
    pub(crate) fn read_mask(self) -> i64 {
        let mask = (1i64 << self.bits) - 1;
        mask << (self.base + self.shift.max(0).unsigned_abs())
    }

    /// The swizzled offset (the integer form of [`super::offset::swizzle`], which
    /// tests compare it with).
    #[cfg(test)]
    pub(crate) fn apply(self, offset: i64) -> i64 {
        let y = offset & self.read_mask();
        let moved = if self.shift >= 0 {
            y >> self.shift
        } else {
            y << self.shift.unsigned_abs()
        };
        offset ^ moved
    }
}

impl std::fmt::Display for Swizzle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Swizzle<{},{},{}>", self.bits, self.base, self.shift)
    }
}

/// A layout whose offsets are swizzled: `swizzle(offset + layout(c))` (CuTe's
/// `ComposedLayout<Swizzle, Offset, Layout>`; `swizzle` `None` is a plain layout).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwizzledLayout {
    pub(crate) swizzle: Option<Swizzle>,
    pub(crate) offset: i64,
    pub(crate) layout: Layout,
}

impl SwizzledLayout {
    pub(crate) fn plain(layout: Layout) -> SwizzledLayout {
        SwizzledLayout {
            swizzle: None,
            offset: 0,
            layout,
        }
    }

    /// The same swizzle and offset over another layout: what CuTe's algebra does to a
    /// `ComposedLayout` (`tile_to_shape`, `coalesce`, divides act on the inner layout).
    pub(crate) fn with(&self, layout: Layout) -> SwizzledLayout {
        SwizzledLayout {
            layout,
            ..self.clone()
        }
    }

    /// The offset at the one-dimensional coordinate `crd`.
    #[cfg(test)]
    pub(crate) fn at(&self, crd: i64) -> Option<i64> {
        let o = self.offset.checked_add(self.layout.at(crd)?)?;
        Some(self.swizzle.map_or(o, |s| s.apply(o)))
    }
}

impl std::fmt::Display for SwizzledLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.swizzle, self.offset) {
            (None, 0) => write!(f, "{}", self.layout),
            (None, o) => write!(f, "{o}+{}", self.layout),
            (Some(s), 0) => write!(f, "{s} o {}", self.layout),
            (Some(s), o) => write!(f, "{s} o {o} o {}", self.layout),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzle_3_3_3_xors_row_bits_into_16_byte_chunks() {
        // Bits 6..8 (the row of an 8x64 half tile) into bits 3..5 (its 8-element chunk).
        let s = Swizzle::new(3, 3, 3).unwrap();
        assert_eq!(s.read_mask(), 0b111_000_000);
        for (x, want) in [
            (0, 0),
            (8, 8),
            (64, 72),
            (72, 64),
            (144, 128),
            (511, 455),
            (1000, 976),
        ] {
            assert_eq!(s.apply(x), want, "at {x}");
        }
        // A swizzle is an involution.
        for x in 0..4096 {
            assert_eq!(s.apply(s.apply(x)), x);
        }
    }

    #[test]
    fn negative_shift_moves_bits_up() {
        // Swizzle<2,0,-2>: bits 0..1 XORed into bits 2..3.
        let s = Swizzle::new(2, 0, -2).unwrap();
        assert_eq!(s.apply(0b0001), 0b0101);
        assert_eq!(s.apply(0b0110), 0b1110);
        assert_eq!(Swizzle::new(3, 0, 2), None);
    }
}
