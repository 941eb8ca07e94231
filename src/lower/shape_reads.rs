//! What the interpreter asked of the block shape while lowering a function.
//!
//! A kernel whose shape nothing fixes is lowered under every candidate shape (up to 32).
//! Most kernels only name thread ids: the shape matters to the interpreter only through
//! whether an axis has more than one thread (a flat axis's id is the constant 0), and is
//! otherwise read by the analyses from each lowered access's `block`. The interpreter
//! records each question here, so that a lowering can be reused for another shape that
//! answers every question alike ([`ShapeReads::same_lowering`]): its sites are cloned
//! with that shape stamped on them ([`restamp`]) instead of interpreting the body again.

use crate::model::assumption::{Assumption, ShapeSource};
use crate::model::ir::{Axis, BlockShape};
use crate::model::site::AccessSite;
use std::cell::Cell;

/// Bit of [`ShapeReads`]: the whole shape was read (`blockDim`, the linear thread id of a
/// 2D or 3D block, a thread count, a loop bound over thread ids).
const WHOLE: u8 = 1 << 3;

/// The questions one interpretation asked of its block shape: per axis whether it has more
/// than one thread (bits 0 to 2), or the whole shape ([`WHOLE`]).
#[derive(Debug, Default)]
pub struct ShapeReads(Cell<u8>);

impl ShapeReads {
    /// Whether `axis` of `block` has more than one thread; recorded.
    pub fn spans(&self, block: BlockShape, axis: Axis) -> bool {
        self.0.set(self.0.get() | 1 << axis as u8);
        dim(block, axis) > 1
    }

    /// The whole of `block`, for a value computed from its extents; recorded.
    pub fn whole(&self, block: BlockShape) -> BlockShape {
        self.0.set(self.0.get() | WHOLE);
        block
    }

    /// `block`, for the linear thread id `x + y*Dx + z*Dx*Dy`: only whether `y` and `z`
    /// span is read when both are flat (the id is then `x`), else the whole shape.
    pub fn for_linear_id(&self, block: BlockShape) -> BlockShape {
        if self.spans(block, Axis::Y) || self.spans(block, Axis::Z) {
            self.whole(block);
        }
        block
    }

    /// True when an interpretation under `lowered` that asked these questions is the
    /// interpretation under `other`: every question has the same answer for both.
    pub fn same_lowering(&self, lowered: BlockShape, other: BlockShape) -> bool {
        let asked = self.0.get();
        if asked & WHOLE != 0 {
            return lowered == other;
        }
        [Axis::X, Axis::Y, Axis::Z]
            .into_iter()
            .all(|a| asked & (1 << a as u8) == 0 || (dim(lowered, a) > 1) == (dim(other, a) > 1))
    }
}

fn dim(block: BlockShape, axis: Axis) -> u32 {
    match axis {
        Axis::X => block.x,
        Axis::Y => block.y,
        Axis::Z => block.z,
    }
}

/// A site lowered under `from` as it is under `to` (a shape of the same lowering, see
/// [`ShapeReads::same_lowering`]): its accesses' block, the candidate-shape assumption
/// and the lowering context are the only parts that name the shape.
pub fn restamp(
    site: &AccessSite,
    from: &ShapeSource,
    to: (BlockShape, &ShapeSource),
) -> AccessSite {
    let mut s = site.clone();
    if let Ok(comps) = &mut s.lowered {
        for c in comps {
            c.block = to.0;
        }
    }
    if let ShapeSource::Assumed(old) = from {
        s.assumptions
            .retain(|a| !matches!(a, Assumption::BlockShape(c) if c == old));
    }
    if let ShapeSource::Assumed(new) = to.1 {
        s.assumptions.insert(0, Assumption::BlockShape(*new));
    }
    if let Some(ctx) = &mut s.context {
        ctx.shape = to.1.clone();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(x: u32, y: u32, z: u32) -> BlockShape {
        BlockShape { x, y, z }
    }

    #[test]
    fn nothing_read_is_any_shape() {
        let r = ShapeReads::default();
        assert!(r.same_lowering(b(256, 1, 1), b(8, 8, 4)));
    }

    #[test]
    fn a_spanning_axis_must_span_in_both() {
        let r = ShapeReads::default();
        assert!(r.spans(b(256, 1, 1), Axis::X));
        assert!(!r.spans(b(256, 1, 1), Axis::Y));
        assert!(r.same_lowering(b(256, 1, 1), b(32, 1, 1)));
        assert!(!r.same_lowering(b(256, 1, 1), b(32, 8, 1)));
        assert!(r.same_lowering(b(256, 1, 1), b(32, 1, 8)));
    }

    #[test]
    fn the_whole_shape_read_is_that_shape_only() {
        let r = ShapeReads::default();
        r.whole(b(16, 16, 1));
        assert!(r.same_lowering(b(16, 16, 1), b(16, 16, 1)));
        assert!(!r.same_lowering(b(16, 16, 1), b(32, 8, 1)));
    }

    #[test]
    fn the_linear_id_of_a_flat_block_is_x() {
        let r = ShapeReads::default();
        r.for_linear_id(b(128, 1, 1));
        assert!(r.same_lowering(b(128, 1, 1), b(64, 1, 1)));
        assert!(!r.same_lowering(b(128, 1, 1), b(64, 2, 1)));
        let r = ShapeReads::default();
        r.for_linear_id(b(16, 16, 1));
        assert!(!r.same_lowering(b(16, 16, 1), b(32, 8, 1)));
    }
}
