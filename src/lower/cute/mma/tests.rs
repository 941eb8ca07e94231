//! The thread-value layouts of a tiled MMA against the fragments the PTX ISA states for
//! `mma.sync.aligned.m16n8k16` ("Matrix Fragments for mma.m16n8k16 with floating point
//! type"): lane `l` is thread `l % 4` of group `l / 4`; the layouts are computed by
//! CuTe's algebra, the expectations written from the ISA alone.

use super::*;

fn flash_mma(warps: i64) -> TiledMma {
    let atom = mma_atom("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    let mnk = Layout::compact(T(vec![I(warps), I(1), I(1)]), false).unwrap();
    let perm = [
        Layout::vector(16 * warps),
        Layout::vector(16),
        Layout::vector(16),
    ];
    TiledMma::new(atom, &mnk, perm).unwrap()
}

/// Checks that `which`'s layout maps thread `t` (of `threads`), value `v` (of 8) to the
/// column-major index of `expect(w, g, q, v)` (row, column) in a tile of `rows` rows,
/// with `w` the warp, `g` and `q` the lane's group and thread in group.
fn check(
    mma: &TiledMma,
    which: Operand,
    threads: i64,
    rows: i64,
    expect: impl Fn(i64, i64, i64, i64) -> (i64, i64),
) {
    let tv = mma.layout_tv(which).unwrap();
    assert_eq!(tv.mode(0).unwrap().size(), Some(threads));
    assert_eq!(tv.mode(1).unwrap().size(), Some(8));
    for t in 0..threads {
        let (w, lane) = (t / 32, t % 32);
        for v in 0..8 {
            let (r, c) = expect(w, lane / 4, lane % 4, v);
            let idx = tv.mode(0).unwrap().at(t).unwrap() + tv.mode(1).unwrap().at(v).unwrap();
            assert_eq!(idx, r + rows * c, "{which:?} thread {t} value {v}");
        }
    }
}

/// flash-attention's `TiledMma`: warps along M, `Tile<Int<16 * kNWarps>, _16, _16>`.
#[test]
fn operand_a_is_the_m16n8k16_fragment_per_warp() {
    for warps in [1, 4, 8] {
        let mma = flash_mma(warps);
        let (tm, tk) = (mma.tile_size(0).unwrap(), mma.tile_size(2).unwrap());
        assert_eq!((tm, tk), (16 * warps, 16));
        // a_v: row g (+8 for a2, a3, a6, a7), column 2q + (v & 1) (+8 from a4).
        check(&mma, Operand::A, 32 * warps, tm, |w, g, q, v| {
            (16 * w + g + 8 * ((v / 2) % 2), 2 * q + v % 2 + 8 * (v / 4))
        });
    }
}

#[test]
fn operand_b_repeats_the_atom_along_n() {
    let mma = flash_mma(4);
    let (tn, tk) = (mma.tile_size(1).unwrap(), mma.tile_size(2).unwrap());
    assert_eq!((tn, tk), (16, 16));
    // b_v of atom `v / 4` along N: column (n) g, row (k) 2q + (v & 1), +8 for b2, b3;
    // every warp holds the same B (the warps tile M only).
    check(&mma, Operand::B, 128, tn, |_, g, q, v| {
        (g + 8 * (v / 4), 2 * q + v % 2 + 8 * ((v / 2) % 2))
    });
}

#[test]
fn operand_c_is_the_accumulator_fragment() {
    let mma = flash_mma(4);
    let tm = mma.tile_size(0).unwrap();
    // c_v: row g (+8 for c2, c3), column 2q + (v & 1), atom `v / 4` along N.
    check(&mma, Operand::C, 128, tm, |w, g, q, v| {
        (16 * w + g + 8 * ((v / 2) % 2), 2 * q + v % 2 + 8 * (v / 4))
    });
}

#[test]
fn unknown_atoms_and_ranks_are_refused() {
    assert!(mma_atom("SM90_64x64x16_F32F16F16_SS").is_none());
    let atom = mma_atom("SM80_16x8x8_F32F16F16F32_TN").unwrap();
    let two = Layout::compact(T(vec![I(2), I(2)]), false).unwrap();
    assert!(TiledMma::new(atom, &two, [None, None, None]).is_none());
}
