//! CuTe tensors over shared memory: a pointer into a shared array and a layout, with
//! the slicing CuTe does (`local_partition`, `local_tile`, `tensor(_, j)`), which moves
//! an offset inside the swizzle (CuTe's `ComposedLayout` offset) and keeps a sub-layout.

use super::atoms::{CopyAtom, Side};
use super::layout::{zipped_divide, Layout, Tiler};
use super::offset;
use super::swizzle::SwizzledLayout;
use super::tiled::TiledCopy;
use crate::extract::ast::TypeName;
use crate::lower::fold::fold;
use crate::model::ir::{BinOp, Expr as Ir};

/// `make_tensor(make_smem_ptr(p), layout)` and the tensors sliced from it.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedTensor {
    /// The shared array the pointer points into.
    pub(crate) array: usize,
    /// The pointer's byte offset into the array (outside the swizzle).
    pub(crate) base: Ir,
    pub(crate) pointee: TypeName,
    /// The name the pointer was reached through, for reports.
    pub(crate) name: Option<String>,
    /// Elements added by slicing, inside the swizzle.
    pub(crate) inner: Ir,
    /// The layout, or why bankcheck does not know it (the tensor's accesses are then
    /// `unknown` with that reason).
    pub(crate) layout: Result<SwizzledLayout, String>,
    /// The copy atom and side of a `TiledCopy` partition (`partition_S`/`partition_D`),
    /// whose instructions `cute::copy` issues.
    pub(crate) copy: Option<Box<(CopyAtom, Side)>>,
}

impl SharedTensor {
    /// The same tensor with another layout and `inner` offset.
    fn sliced(&self, inner: Ir, layout: Result<SwizzledLayout, String>) -> SharedTensor {
        SharedTensor {
            inner,
            layout,
            ..self.clone()
        }
    }

    /// The tensor with its layout unknown for `why`.
    pub(crate) fn unknown(&self, why: String) -> SharedTensor {
        self.sliced(self.inner.clone(), Err(why))
    }

    /// The element offset at `crds` (one per mode, or one for the whole tensor).
    pub(crate) fn element_offset(&self, crds: &[Ir]) -> Result<Ir, String> {
        let l = self.layout.as_ref().map_err(Clone::clone)?;
        offset::swizzled_at(l, &self.inner, crds)
            .ok_or_else(|| format!("{} coordinates do not fit the layout `{l}`", crds.len()))
    }

    /// `tensor(c0, _, c2, ...)`: the modes at `None` kept, the others fixed.
    pub(crate) fn slice(&self, crds: &[Option<Ir>]) -> SharedTensor {
        let Ok(l) = &self.layout else {
            return self.clone();
        };
        if crds.len() != l.layout.rank() {
            return self.unknown(format!(
                "a slice with {} coordinates of the layout `{l}`",
                crds.len()
            ));
        }
        let mut inner = self.inner.clone();
        let mut kept = Vec::new();
        for (i, c) in crds.iter().enumerate() {
            let Some(m) = l.layout.mode(i) else {
                return self.unknown(format!("a slice of the layout `{l}`"));
            };
            match c {
                None => kept.push(m),
                Some(c) => match offset::crd2idx(c, &m.shape, &m.stride) {
                    Some(o) => inner = fold(BinOp::Add, inner, o),
                    None => return self.unknown(format!("a slice of the layout `{l}`")),
                },
            }
        }
        self.sliced(inner, Ok(l.with(Layout::concat(kept))))
    }

    /// `thr_copy.partition_S(tensor)` (`side` `Src`) or `partition_D` (`Dst`) for the
    /// thread `thread`: `tidfrg_S/D` of the layout inside the swizzle, at the thread.
    pub(crate) fn copy_partition(&self, tc: &TiledCopy, thread: &Ir, side: Side) -> SharedTensor {
        let Ok(l) = &self.layout else {
            return self.clone();
        };
        let Some(frg) = tc.tidfrg(&l.layout, side) else {
            return self.unknown(format!(
                "the partition of the layout `{l}` by a TiledCopy of `{}`",
                tc.atom.op
            ));
        };
        // Every instruction starts on a multiple of its values (CuTe recasts them to the
        // instruction's register type, a static assertion where a stride does not
        // divide): the strides of the thread and rest modes and the offset must.
        let atom_side = match side {
            Side::Src => &tc.atom.src,
            Side::Dst => &tc.atom.dst,
        };
        let values = atom_side.mode(1).and_then(|v| v.size()).unwrap_or(1).max(1);
        let mut modes = frg.modes();
        // Mode 1 is `(FrgV, FrgX)`: the values of one instruction are contiguous, the
        // instructions along `FrgX` start where they may.
        let frg_x = modes[1].mode(1).filter(|_| modes[1].rank() == 2);
        modes.remove(1);
        modes.extend(frg_x);
        let aligned = l.offset % values == 0
            && modes.iter().all(|m| {
                m.shape
                    .flatten()
                    .iter()
                    .zip(m.stride.flatten())
                    .all(|(s, d)| *s == 1 || d % values == 0)
            });
        if !aligned {
            return self.unknown(format!(
                "the partition of the layout `{l}` by a TiledCopy of `{}` does not start its instructions on multiples of {values} elements (CuTe rejects it)",
                tc.atom.op
            ));
        }
        let mut crds = vec![None; frg.rank()];
        crds[0] = Some(thread.clone());
        let mut t = self.sliced(self.inner.clone(), Ok(l.with(frg)));
        t.copy = Some(Box::new((tc.atom.clone(), side)));
        t.slice(&crds)
    }

    /// `local_partition(tensor, threads, index)`: the elements of thread `index` when
    /// the tensor is tiled by the thread layout's shape (CuTe's `outer_partition` at
    /// `threads.get_flat_coord(index)`).
    pub(crate) fn local_partition(&self, threads: &Layout, index: &Ir) -> SharedTensor {
        let tiler = Tiler::Modes(
            threads
                .modes()
                .iter()
                .filter_map(|m| m.size().and_then(Layout::vector).map(Tiler::Layout))
                .collect(),
        );
        let coords = offset::flat_coord(threads, index);
        self.divide_and_fix(&tiler, coords, 0, "local_partition")
    }

    /// `local_tile(tensor, tiler, coord)`: tile `coord` of the tensor tiled by `tiler`
    /// (CuTe's `inner_partition`).
    pub(crate) fn local_tile(&self, tiler: &Tiler, coords: Vec<Ir>) -> SharedTensor {
        self.divide_and_fix(tiler, Some(coords), 1, "local_tile")
    }

    /// `zipped_divide` by `tiler`, then mode `fixed` set to `coords` and the other mode
    /// kept.
    fn divide_and_fix(
        &self,
        tiler: &Tiler,
        coords: Option<Vec<Ir>>,
        fixed: usize,
        what: &str,
    ) -> SharedTensor {
        let Ok(l) = &self.layout else {
            return self.clone();
        };
        let split = zipped_divide(&l.layout, tiler);
        let parts = split
            .as_ref()
            .and_then(|s| Some((s.mode(fixed)?, s.mode(1 - fixed)?)));
        let (Some((at, keep)), Some(coords)) = (parts, coords) else {
            return self.unknown(format!("`{what}` of the layout `{l}` by this tiler"));
        };
        match offset::at(&at, &coords) {
            Some(o) => self.sliced(fold(BinOp::Add, self.inner.clone(), o), Ok(l.with(keep))),
            None => self.unknown(format!(
                "`{what}` of the layout `{l}` with {} coordinates",
                coords.len()
            )),
        }
    }
}
