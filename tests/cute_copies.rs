//! The CuTe TiledCopy worked examples (tests/fixtures/cuda/cute/cute_copies.cu) counted
//! by exact enumeration under the bank model: each lane's byte address per instruction
//! written out by hand from the atoms' layouts (include/cute/atom/copy_traits_sm75.hpp,
//! copy_traits_sm80.hpp) and `make_tiled_copy`'s raked product, derived in the comments
//! below; every warp's phases counted by `bank::count_wavefronts`, the worst over the
//! copy's instructions. The fixture checks that bankcheck, which computes the partitions
//! with CuTe's algebra (`tidfrg_S/D`), reports these factors.

use bankcheck::bank::{count_wavefronts, BankParams};

/// CuTe's `Swizzle<b, m, s>` for a non-negative `s`.
fn swizzle(b: u32, m: u32, s: u32, o: i64) -> i64 {
    o ^ ((o & (((1i64 << b) - 1) << (m + s))) >> s)
}

/// The worst conflict factor over `instructions` of `threads` threads issuing 16-byte
/// accesses, thread `t` at half offset `half(t, i)` in instruction `i`, the first
/// `lanes` lanes of each warp active.
fn worst(threads: i64, lanes: i64, instructions: i64, half: impl Fn(i64, i64) -> i64) -> u64 {
    let params = BankParams::default();
    let mut worst = 0;
    for i in 0..instructions {
        for w in 0..threads / 32 {
            let addrs: Vec<Option<i64>> = (0..32)
                .map(|l| (l < lanes).then(|| 2 * half(32 * w + l, i)))
                .collect();
            let c = count_wavefronts(&params, 16, &addrs, false);
            assert_eq!(c.wavefronts % c.ideal, 0);
            worst = worst.max(c.wavefronts / c.ideal);
        }
    }
    worst
}

/// A tile's offset at `(m, k)`.
fn at(tile: &dyn Fn(i64, i64) -> i64, (m, k): (i64, i64)) -> i64 {
    tile(m, k)
}

#[test]
fn ldsm_t_128x32_tile() {
    // SM75_U16x8_LDSM_T in halves: source (32,8):(8,1), lane t value e is atom element
    // 8t + e; registers ((4,8),(1,2,4)):((16,1),(1,8,64)): element 8t + e belongs to
    // register thread a + 4e with a = (t/2) % 4, value (t % 2, t / 8). The tiled copy
    // (threads (8,4):(4,1), values (1,8)) puts register thread (a, b), value v at
    // m = b, n = v + 8a (the raked product: values inner), so lane t reads m = e + 8r
    // (r: the instruction, 16 of them over 128 rows) at column
    // n = t%2 + 2(t/8) + 8((t/2)%4).
    let n = |t: i64| t % 2 + 2 * (t / 8) + 8 * ((t / 2) % 4);
    // (128,32):(1,128): every lane of a phase 256 bytes apart: 8-way.
    assert_eq!(worst(32, 32, 16, |t, r| 8 * r + 128 * n(t)), 8);
    // Swizzle<3,3,3> over (64,8):(1,64) tiled to (128,32) (copies column-major:
    // + 512 (m / 64) + 1024 (n / 8)): 4-way.
    let swizzled = |m: i64, n: i64| {
        swizzle(
            3,
            3,
            3,
            m % 64 + 64 * (n % 8) + 512 * (m / 64) + 1024 * (n / 8),
        )
    };
    assert_eq!(worst(32, 32, 16, |t, r| swizzled(8 * r, n(t))), 4);
}

#[test]
fn cp_async_then_ldsm_n_64x64_tile() {
    // SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, threads (16,8):(8,1), values (1,8): thread
    // t writes 8 halves at row t/8 + 16r (4 instructions), column 8(t%8).
    let row_major = |m: i64, k: i64| 64 * m + k;
    // The Swizzle<3,3,3> atom (8,64):(64,1) tiled to (64,64) is row-major inside.
    let swizzled = |m: i64, k: i64| swizzle(3, 3, 3, 64 * m + k);
    let write = |t: i64, r: i64| (t / 8 + 16 * r, 8 * (t % 8));
    for tile in [&row_major as &dyn Fn(i64, i64) -> i64, &swizzled] {
        assert_eq!(worst(128, 32, 4, |t, r| at(tile, write(t, r))), 1);
    }
    // SM75_U32x4_LDSM_N in halves: source (32,8):(8,1); registers (32,(2,4)):(2,(1,64)):
    // element 8t + e is register thread (4t + e/2) % 32, value (e % 2, t / 8). Threads
    // (8,4):(4,1), values (4,2):(2,1) put register thread j0 + 4 j1, value (v0, v1) at
    // m = v1 + 4 j1, k = v0 + 2 j0: lane t reads m = 4(t%8) + t/8 + 32 rm, k = e + 8 rk
    // (16 instructions), with `get_slice(threadIdx.x % 32)` the same in every warp.
    let read = |t: i64, i: i64| {
        let l = t % 32;
        (4 * (l % 8) + l / 8 + 32 * (i % 2), 8 * (i / 2))
    };
    assert_eq!(worst(128, 32, 16, |t, i| at(&row_major, read(t, i))), 8);
    assert_eq!(worst(128, 32, 16, |t, i| at(&swizzled, read(t, i))), 4);
    // Rows padded to 72 halves: lane rows 4j + p, 576 j bytes apart, chunks 4j mod 8.
    assert_eq!(
        worst(128, 32, 16, |t, i| at(&|m, k| 72 * m + k, read(t, i))),
        4
    );
}

#[test]
fn ldsm_x1_and_stsm_64x64_tile() {
    let row_major = |m: i64, k: i64| 64 * m + k;
    let swizzled = |m: i64, k: i64| swizzle(3, 3, 3, 64 * m + k);
    // SM75_U32x1_LDSM_N, threads (8,4):(4,1), values (1,2): lane t < 8 reads row t + 8rm
    // at column 8rk (64 instructions); lanes 8-31 give no address.
    let x1 = |t: i64, i: i64| (t % 8 + 8 * (i % 8), 8 * (i / 8));
    assert_eq!(worst(32, 8, 64, |t, i| at(&row_major, x1(t, i))), 8);
    assert_eq!(worst(32, 8, 64, |t, i| at(&swizzled, x1(t, i))), 1);
    // SM90_U32x4_STSM_N, values (4,2):(2,1): lane t writes row 4(t%8) + t/8 + 32rm at
    // column 8rk, as the LDSM_N x4 example reads.
    let x4 = |t: i64, i: i64| (4 * (t % 8) + t / 8 + 32 * (i % 2), 8 * (i / 2));
    assert_eq!(worst(32, 32, 16, |t, i| at(&row_major, x4(t, i))), 8);
}

#[test]
fn flash_attention_gmem_tiled_copy() {
    // GmemTiledCopyQKV, 128 threads: kHeadDim 64, threads (16,8):(8,1) over the
    // Swizzle<3,3,3> 128x64 tile (offset 64r + c): thread t at row t/8 + 16r, column
    // 8(t%8), 8 instructions.
    let q64 = |t: i64, r: i64| swizzle(3, 3, 3, 64 * (t / 8 + 16 * r) + 8 * (t % 8));
    assert_eq!(worst(128, 32, 8, q64), 1);
    // kHeadDim 32: threads (32,4):(4,1) over the Swizzle<2,3,3> 64x32 tile (offset
    // 32r + c): thread t at row t/4 + 32r, column 8(t%4), 2 instructions.
    let q32 = |t: i64, r: i64| swizzle(2, 3, 3, 32 * (t / 4 + 32 * r) + 8 * (t % 4));
    assert_eq!(worst(128, 32, 2, q32), 1);
}

#[test]
fn cutlass_ldsm_interleaved() {
    // Lane t's row starts at half 8t (bytes 16t): one instruction.
    assert_eq!(worst(32, 32, 1, |t, _| 8 * t), 1);
}
