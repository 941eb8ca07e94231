//! The copies built from a TiledMMA (tests/fixtures/cuda/idioms/cute_tiled_copy_mma.cu)
//! counted by exact enumeration under the bank model. Each lane's address per
//! instruction is written from the PTX ISA alone, not from CuTe's algebra: the fragments
//! of `mma.m16n8k16` ("Matrix Fragments for mma.m16n8k16 with floating point type": lane
//! `l` is thread `l % 4` of group `l / 4`) and `ldmatrix.x4` (lanes `8j..8j+7` give the
//! row addresses of matrix `j`, whose rows land in register `j`). bankcheck computes the
//! same copies with CuTe's `get_layoutA/B/C_TV`, `make_tiled_copy_A/B/C` and
//! `tidfrg_S/D`, and the fixture checks it reports these factors.

use bankcheck::bank::{count_wavefronts, BankParams};

/// CuTe's `Swizzle<3, 3, 3>`.
fn swizzle333(o: i64) -> i64 {
    o ^ ((o & (7 << 6)) >> 3)
}

/// The worst conflict factor over `instructions` of 128 threads (4 warps) each moving
/// `width` bytes at half offset `half(t, i)` in instruction `i`.
fn worst(width: u32, instructions: i64, half: impl Fn(i64, i64) -> i64) -> u64 {
    let params = BankParams::default();
    let mut worst = 0;
    for i in 0..instructions {
        for w in 0..4 {
            let addrs: Vec<Option<i64>> = (0..32).map(|l| Some(2 * half(32 * w + l, i))).collect();
            let c = count_wavefronts(&params, width, &addrs, false);
            assert_eq!(c.wavefronts % c.ideal, 0);
            worst = worst.max(c.wavefronts / c.ideal);
        }
    }
    worst
}

/// A tile's half offset at `(row, column)`.
type Tile = Box<dyn Fn(i64, i64) -> i64>;

/// The three 64-column tiles of the fixture: the `Swizzle<3,3,3>` atom tiled down the rows
/// (row-major inside), plain rows of 64 halves, rows padded to 72.
fn tiles() -> [(&'static str, Tile); 3] {
    [
        ("swizzled", Box::new(|m, k| swizzle333(64 * m + k))),
        ("rows", Box::new(|m, k| 64 * m + k)),
        ("padded", Box::new(|m, k| 72 * m + k)),
    ]
}

/// The factors over the tiles, in order, of a copy of `instructions` accesses of `width`
/// bytes at `(row, column)` `at(t, i)`.
fn factors(width: u32, instructions: i64, at: impl Fn(i64, i64) -> (i64, i64)) -> Vec<u64> {
    tiles()
        .iter()
        .map(|(_, tile)| {
            worst(width, instructions, |t, i| {
                let (r, c) = at(t, i);
                tile(r, c)
            })
        })
        .collect()
}

#[test]
fn operand_a_by_ldmatrix_x4() {
    // The A fragment's registers a0..a7 pair up as 8x8 matrices: (a0,a1) rows 0-7,
    // (a2,a3) rows 8-15, (a4,a5) rows 0-7 columns 8-15, (a6,a7) rows 8-15 columns 8-15;
    // matrix j = l / 8, so lane l gives row l % 16 at column 8 (l / 16) of its warp's 16
    // rows. Instruction i: M-repeat i % 2 (rows + 64), k-block i / 2 (columns + 16).
    let at = |t: i64, i: i64| {
        let (w, l) = (t / 32, t % 32);
        (16 * w + l % 16 + 64 * (i % 2), 8 * (l / 16) + 16 * (i / 2))
    };
    // Swizzled, rows, padded.
    assert_eq!(factors(16, 8, at), [1, 8, 1]);
}

#[test]
fn operand_b_by_ldmatrix_x4() {
    // The B fragment of one 8-wide atom: (b0,b1) k 0-7, (b2,b3) k 8-15 of row n = g; the
    // tile's two atoms along N follow: matrix j holds n-block j / 2, k-block j % 2, so
    // lane l gives row n = l % 8 + 8 (l / 16) at column 8 ((l / 8) % 2). Every warp
    // loads the same B. Instruction i: N-repeat i % 4 (rows + 16), k-block i / 4.
    let at = |t: i64, i: i64| {
        let l = t % 32;
        (
            l % 8 + 8 * (l / 16) + 16 * (i % 4),
            8 * ((l / 8) % 2) + 16 * (i / 4),
        )
    };
    assert_eq!(factors(16, 16, at), [1, 8, 1]);
}

#[test]
fn operand_c_by_32_bit_stores() {
    // The accumulator fragment: (c0,c1) row g, columns 2q and 2q+1; (c2,c3) row g + 8.
    // One 4-byte store per pair: instruction i picks the row half i % 2, the atom along
    // N (i / 2) % 2 (columns + 8), the M-repeat (i / 4) % 2 (rows + 64) and the N-tile
    // i / 8 (columns + 16).
    let at = |t: i64, i: i64| {
        let (w, l) = (t / 32, t % 32);
        let m = 16 * w + l / 4 + 8 * (i % 2) + 64 * ((i / 4) % 2);
        let n = 2 * (l % 4) + 8 * ((i / 2) % 2) + 16 * (i / 8);
        (m, n)
    };
    // Swizzled, rows, padded (rows 36 words apart: row g's words on banks 4g + q).
    assert_eq!(factors(4, 32, at), [1, 8, 1]);
}

#[test]
fn gmem_cp_async_by_a_conditional_operation() {
    // SM80_CP_ASYNC_CACHEGLOBAL<uint128_t> (the `std::conditional_t` the traits choose on
    // `Has_cp_async`), threads (16,8):(8,1), values (1,8): thread t writes 16 bytes at row
    // t / 8 + 16 r, column 8 (t % 8) of the 128x64 row-major tile (8 instructions): a
    // phase of 8 lanes is one 128-byte row.
    let rows = |m: i64, k: i64| 64 * m + k;
    assert_eq!(worst(16, 8, |t, r| rows(t / 8 + 16 * r, 8 * (t % 8))), 1);
}

/// The fixture's atoms come from `#if __CUDA_ARCH__` branches of its traits: the default
/// device compilation (sm_90, stated) takes the sm_80 branch; under `-D
/// __CUDA_ARCH__=700` the shared copies use `DefaultCopy` and the global copy
/// `AutoVectorizingCopyWithAssumedAlignment`, which bankcheck does not model: `unknown`,
/// naming them.
#[test]
fn the_architecture_branch_chooses_the_atoms() {
    use bankcheck::config::Settings;
    use bankcheck::diag::Status;
    let text = include_str!("fixtures/cuda/idioms/cute_tiled_copy_mma.cu");
    let line = |marker: &str| {
        let at = text.find(marker).expect("the marker is in the fixture");
        text[..at].matches('\n').count() + 1
    };
    let on = |report: &bankcheck::FileReport, n: usize| {
        report
            .accesses
            .iter()
            .filter(|a| report.text[..a.span.start].matches('\n').count() + 1 == n)
            .map(|a| {
                (
                    a.status,
                    a.reason.clone().unwrap_or_default(),
                    a.assumptions.join(" "),
                )
            })
            .collect::<Vec<_>>()
    };
    let q = line("cute::copy(smem_tiled_copy_Q, tSsQ, tSrQ_view);");
    let g = line("cute::copy(gmem_tiled_copy_Q, tQgQ, tQsQ);");
    let default = bankcheck::check_source("k.cu", text.as_bytes(), &Settings::default());
    for n in [q, g] {
        let got = on(&default, n);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, Status::Ok, "{got:?}");
        assert!(
            got[0].2.contains("`__CUDA_ARCH__` is taken as 900"),
            "{got:?}"
        );
    }
    let mut volta = Settings::default();
    volta
        .defines
        .insert("__CUDA_ARCH__".to_string(), "700".to_string());
    let old = bankcheck::check_source("k.cu", text.as_bytes(), &volta);
    for (n, op) in [
        (q, "`DefaultCopy`"),
        (g, "`AutoVectorizingCopyWithAssumedAlignment<128>`"),
    ] {
        let got = on(&old, n);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, Status::Unknown, "{got:?}");
        assert!(got[0].1.contains(op), "{got:?}");
    }
}
