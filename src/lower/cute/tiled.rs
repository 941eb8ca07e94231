//! CuTe's `TiledCopy` (include/cute/atom/copy_atom.hpp): `make_tiled_copy(atom,
//! thr_layout, val_layout)` and the thread-value layouts its `partition_S`/`partition_D`
//! give a tensor (`tidfrg_S`/`tidfrg_D` through `tile2thrfrg`), computed as CuTe
//! computes them, step by step.

use super::atoms::{CopyAtom, Side};
use super::layout::{
    coalesce_by, composition, raked_product, right_inverse, zipped_divide, Layout, Tiler,
};
use super::mma::{Operand, TiledMma};
use super::tuple::IntTuple;

/// A `TiledCopy`: the atom, `TiledLayout_TV` (`(thr_idx, val_idx) -> (m, n)`) and
/// `Tiler_MN` (the extent of each mode of the tile).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TiledCopy {
    pub(crate) atom: CopyAtom,
    pub(crate) layout_tv: Layout,
    pub(crate) tiler: Vec<i64>,
}

/// `make_tiled_copy(atom, thr_layout, val_layout)`.
pub(crate) fn make_tiled_copy(atom: CopyAtom, thr: &Layout, val: &Layout) -> Option<TiledCopy> {
    let layout_mn = raked_product(thr, val)?;
    let shape = IntTuple::Tuple(vec![IntTuple::Int(thr.size()?), IntTuple::Int(val.size()?)]);
    let layout_tv = composition(&right_inverse(&layout_mn)?, &Layout::compact(shape, false)?)?;
    let tiler = layout_mn
        .modes()
        .iter()
        .map(Layout::size)
        .collect::<Option<Vec<_>>>()?;
    Some(TiledCopy {
        atom,
        layout_tv,
        tiler,
    })
}

/// `make_tiled_copy_A/B/C(atom, mma)`: the MMA's thread-value layout of that operand,
/// tiled over the operand's two tile sizes (`make_tiled_copy_impl`).
pub(crate) fn make_tiled_copy_mma(
    atom: CopyAtom,
    mma: &TiledMma,
    which: Operand,
) -> Option<TiledCopy> {
    let (i, j) = match which {
        Operand::A => (0, 2),
        Operand::B => (1, 2),
        Operand::C => (0, 1),
    };
    Some(TiledCopy {
        atom,
        layout_tv: mma.layout_tv(which)?,
        tiler: vec![mma.tile_size(i)?, mma.tile_size(j)?],
    })
}

/// `zip` of a layout of two rank-2 modes: `((a, b), (c, d))` to `((a, c), (b, d))`.
fn zip2(l: &Layout) -> Option<Layout> {
    let (x, y) = (l.mode(0)?, l.mode(1)?);
    if x.rank() != 2 || y.rank() != 2 {
        return None;
    }
    Some(Layout::concat(vec![
        Layout::concat(vec![x.mode(0)?, y.mode(0)?]),
        Layout::concat(vec![x.mode(1)?, y.mode(1)?]),
    ]))
}

impl TiledCopy {
    /// `tidfrg_S` or `tidfrg_D` of a tensor's layout: `(Thr, (FrgV, FrgX), RestM,
    /// RestN, ...)`, the rest modes flattened as `partition_S` slices them.
    pub(crate) fn tidfrg(&self, tensor: &Layout, side: Side) -> Option<Layout> {
        if tensor.rank() < self.tiler.len() {
            return None;
        }
        let tiler = Tiler::Modes(
            self.tiler
                .iter()
                .map(|&n| Layout::vector(n).map(Tiler::Layout))
                .collect::<Option<_>>()?,
        );
        let z = zipped_divide(tensor, &tiler)?;
        let target = match side {
            Side::Src => &self.atom.src,
            Side::Dst => &self.atom.dst,
        };
        let reference = &self.atom.reference;
        let ref2trg = composition(&right_inverse(reference)?, target)?;
        // tile2thrfrg
        let atom_shape = Tiler::Modes(vec![
            Tiler::Layout(Layout::vector(reference.mode(0)?.size()?)?),
            Tiler::Layout(Layout::vector(reference.mode(1)?.size()?)?),
        ]);
        let atom_tv = zipped_divide(&self.layout_tv, &atom_shape)?;
        let trg_tv = Layout::concat(vec![
            composition(&atom_tv.mode(0)?, &ref2trg)?,
            atom_tv.mode(1)?,
        ]);
        let profile = IntTuple::Tuple(vec![
            IntTuple::Int(1),
            IntTuple::Tuple(vec![IntTuple::Int(1), IntTuple::Int(1)]),
        ]);
        let thrval2mn = coalesce_by(&zip2(&trg_tv)?, &profile)?;
        let tv = composition(&z.mode(0)?, &thrval2mn)?;
        let mut modes = vec![tv.mode(0)?, tv.mode(1)?];
        modes.extend(z.mode(1)?.modes());
        Some(Layout::concat(modes))
    }
}

#[cfg(test)]
mod tests;
