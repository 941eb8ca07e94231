//! CuTe's `TiledMMA` (include/cute/atom/mma_atom.hpp) as far as copies need it: the
//! thread-value layouts `get_layoutA_TV`/`B`/`C` and tile sizes from which
//! `make_tiled_copy_A/B/C` (copy_atom.hpp) build a `TiledCopy`, computed step by step as
//! CuTe computes them, over a built-in table of the common MMA atoms' `MMA_Traits`.

use super::layout::{
    complement, composition, logical_divide, logical_product, right_inverse, zipped_divide, Layout,
    Tiler,
};
use super::tuple::IntTuple::{self, Int as I, Tuple as T};

/// An MMA atom's traits: `Shape_MNK`, `ThrID` and the `(thr, val) -> (m, k)` (A),
/// `(n, k)` (B) and `(m, n)` (C) layouts, each over the column-major index of its tile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MmaAtom {
    pub(crate) op: String,
    shape_mnk: [i64; 3],
    thr_id: Layout,
    a: Layout,
    b: Layout,
    c: Layout,
}

impl MmaAtom {
    /// The same traits (two operations of one shape, `F16` and `BF16`, share them).
    pub(crate) fn same_layouts(&self, other: &MmaAtom) -> bool {
        (self.shape_mnk, &self.thr_id, &self.a, &self.b, &self.c)
            == (other.shape_mnk, &other.thr_id, &other.a, &other.b, &other.c)
    }
}

/// Which operand a thread-value layout is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operand {
    A,
    B,
    C,
}

fn l(shape: IntTuple, stride: IntTuple) -> Layout {
    Layout::new(shape, stride).expect("the table's layouts are congruent")
}

/// `((4,8),rest):((s0,1),rest_stride)`: the thread mode every SM75/SM80 atom shares
/// (lane `4 g + t` is thread-in-group `t` of group `g`).
fn quad(s0: i64, rest: IntTuple, rest_stride: IntTuple) -> Layout {
    l(
        T(vec![T(vec![I(4), I(8)]), rest]),
        T(vec![T(vec![I(s0), I(1)]), rest_stride]),
    )
}

/// `SM80_16x8_Row` (mma_traits_sm80.hpp): `(T32,V4) -> (M16,N8)`.
fn sm80_16x8_row() -> Layout {
    quad(32, T(vec![I(2), I(2)]), T(vec![I(16), I(8)]))
}

/// The atom an operation names (`SM80_16x8x16_F32F16F16F32_TN`), from CuTe's
/// `MMA_Traits`; `None` for one not in the table.
pub(crate) fn mma_atom(op: &str) -> Option<MmaAtom> {
    let name = op.trim().trim_start_matches("cute::").trim();
    let (shape_mnk, a, b, c) = match name {
        // mma_traits_sm80.hpp: the 16x8x16 half and bfloat16 atoms share one set.
        "SM80_16x8x16_F16F16F16F16_TN"
        | "SM80_16x8x16_F32F16F16F32_TN"
        | "SM80_16x8x16_F32BF16BF16F32_TN" => (
            [16, 8, 16],
            quad(32, T(vec![I(2), I(2), I(2)]), T(vec![I(16), I(8), I(128)])),
            quad(16, T(vec![I(2), I(2)]), T(vec![I(8), I(64)])),
            sm80_16x8_row(),
        ),
        // SM80_16x8_Row, SM80_8x8_Row, SM80_16x8_Row.
        "SM80_16x8x8_F16F16F16F16_TN"
        | "SM80_16x8x8_F32F16F16F32_TN"
        | "SM80_16x8x8_F32BF16BF16F32_TN" => (
            [16, 8, 8],
            sm80_16x8_row(),
            quad(16, I(2), I(8)),
            sm80_16x8_row(),
        ),
        // mma_traits_sm75.hpp.
        "SM75_16x8x8_F32F16F16F32_TN" => (
            [16, 8, 8],
            sm80_16x8_row(),
            quad(16, I(2), I(8)),
            sm80_16x8_row(),
        ),
        _ => return None,
    };
    Some(MmaAtom {
        op: name.to_string(),
        shape_mnk,
        thr_id: Layout::vector(32)?,
        a,
        b,
        c,
    })
}

/// A `TiledMMA<MMA_Atom<Op>, AtomLayoutMNK, PermutationMNK>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TiledMma {
    pub(crate) atom: MmaAtom,
    /// `tiled_product(AtomThrID, AtomLayoutMNK)`: `(ThrV, ThrM, ThrN, ThrK) -> thr_idx`.
    vmnk: Layout,
    /// `PermutationMNK`, `None` for `_`.
    perm: [Option<Layout>; 3],
}

/// What one mode of a composition by mode does: keep the mode (`_`), compose it with a
/// layout, or go on mode by mode.
enum By {
    Keep,
    With(Layout),
    Modes(Vec<By>),
}

/// `a.compose(t0, t1, ...)` with `_` for a mode kept, as CuTe composes by mode.
fn compose_by(a: &Layout, by: &By) -> Option<Layout> {
    match by {
        By::Keep => Some(a.clone()),
        By::With(b) => composition(a, b),
        By::Modes(bs) => {
            if a.rank() < bs.len() {
                return None;
            }
            let mut modes = a.modes();
            for (m, b) in modes.iter_mut().zip(bs) {
                *m = compose_by(m, b)?;
            }
            Some(Layout::concat(modes))
        }
    }
}

impl TiledMma {
    /// `TiledMMA<atom, atom_layout_mnk, perm>`: `None` where CuTe rejects it (a layout
    /// of other than three modes).
    pub(crate) fn new(atom: MmaAtom, mnk: &Layout, perm: [Option<Layout>; 3]) -> Option<Self> {
        if mnk.rank() != 3 {
            return None;
        }
        // tiled_product: (ThrID, rest...) with the product's second mode unfolded.
        let p = logical_product(&atom.thr_id, mnk)?;
        let mut modes = vec![p.mode(0)?];
        modes.extend(p.mode(1)?.modes());
        if modes.len() != 4 {
            return None;
        }
        Some(TiledMma {
            atom,
            vmnk: Layout::concat(modes),
            perm,
        })
    }

    /// `permutation_mnk<i>()`: the permutation, or for `_` the atom's extent times the
    /// threads tiled along that mode, as a layout `n:1`.
    fn permutation(&self, i: usize) -> Option<Layout> {
        match &self.perm[i] {
            Some(p) => Some(p.clone()),
            None => {
                Layout::vector(self.atom.shape_mnk[i].checked_mul(self.vmnk.mode(i + 1)?.size()?)?)
            }
        }
    }

    /// `tile_size_mnk<i>()`.
    pub(crate) fn tile_size(&self, i: usize) -> Option<i64> {
        self.permutation(i)?.size()
    }

    /// The modes `(first, second)` of the MNK tile an operand spans.
    fn operand_modes(which: Operand) -> (usize, usize) {
        match which {
            Operand::A => (0, 2),
            Operand::B => (1, 2),
            Operand::C => (0, 1),
        }
    }

    /// `thrfrg_A/B/C(layout)`: `((ThrV, (Thr0, Thr1)), (FrgV, (Rest0, Rest1)))`.
    fn thrfrg(&self, t: &Layout, which: Operand) -> Option<Layout> {
        let (i, j) = Self::operand_modes(which);
        let perm = Tiler::Modes(vec![
            Tiler::Layout(self.permutation(i)?),
            Tiler::Layout(self.permutation(j)?),
        ]);
        let t_tensor = logical_divide(t, &perm)?;
        let shape = self.atom.shape_mnk;
        let atom_tile = Tiler::Modes(vec![
            Tiler::Layout(Layout::vector(shape[i])?),
            Tiler::Layout(Layout::vector(shape[j])?),
        ]);
        let a_tensor = zipped_divide(&t_tensor, &atom_tile)?;
        let atom_tv = match which {
            Operand::A => &self.atom.a,
            Operand::B => &self.atom.b,
            Operand::C => &self.atom.c,
        };
        let tv = compose_by(
            &a_tensor,
            &By::Modes(vec![By::With(atom_tv.clone()), By::Keep]),
        )?;
        // zipped_divide by (_, (Thr_i, Thr_j)): mode 0 split into (ThrV, FrgV), mode 1's
        // modes each divided by its threads.
        let (thr_v, frg_v) = (tv.mode(0)?.mode(0)?, tv.mode(0)?.mode(1)?);
        let thr_tile = Tiler::Modes(vec![
            Tiler::Layout(Layout::vector(self.vmnk.mode(i + 1)?.size()?)?),
            Tiler::Layout(Layout::vector(self.vmnk.mode(j + 1)?.size()?)?),
        ]);
        let rest = logical_divide(&tv.mode(1)?, &thr_tile)?;
        let (r0, r1) = (rest.mode(0)?, rest.mode(1)?);
        Some(Layout::concat(vec![
            Layout::concat(vec![thr_v, Layout::concat(vec![r0.mode(0)?, r1.mode(0)?])]),
            Layout::concat(vec![frg_v, Layout::concat(vec![r0.mode(1)?, r1.mode(1)?])]),
        ]))
    }

    /// `get_layoutA_TV()`, `B`, `C`: `(thr_idx, val) -> ` the column-major index of the
    /// operand's tile (`tile_size` of its two modes).
    pub(crate) fn layout_tv(&self, which: Operand) -> Option<Layout> {
        let (i, j) = Self::operand_modes(which);
        let reference =
            Layout::compact(T(vec![I(self.tile_size(i)?), I(self.tile_size(j)?)]), false)?;
        let frg = self.thrfrg(&reference, which)?;
        // (ThrV, (Thr_i, Thr_j)) -> (ThrV, (ThrM, ThrN, ThrK)): the threads of the mode
        // the operand does not span broadcast (stride 0).
        let (m, n) = (self.vmnk.mode(1)?.size()?, self.vmnk.mode(2)?.size()?);
        let expand = match which {
            Operand::A => Some(l(T(vec![I(m), I(n)]), T(vec![I(1), I(0)]))),
            Operand::B => Some(l(T(vec![I(m), I(n)]), T(vec![I(0), I(1)]))),
            Operand::C => None,
        };
        let frg = match expand {
            Some(e) => compose_by(
                &frg,
                &By::Modes(vec![
                    By::Modes(vec![By::Keep, By::Modes(vec![By::With(e), By::Keep])]),
                    By::Keep,
                ]),
            )?,
            None => frg,
        };
        // thr_idx -> (ThrV, ThrM, ThrN, ThrK).
        let size = self.vmnk.size()?;
        let cosize = self.vmnk.cosize()?;
        let full = Layout::concat(vec![self.vmnk.clone(), complement(&self.vmnk, cosize)?]);
        let thridx_2_thrid = composition(
            &l(T(vec![I(size), I(1)]), T(vec![I(1), I(0)])),
            &right_inverse(&full)?,
        )?;
        compose_by(&frg, &By::Modes(vec![By::With(thridx_2_thrid), By::Keep]))
    }
}

#[cfg(test)]
mod tests;
