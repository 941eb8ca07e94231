//! The CuTe worked examples (tests/fixtures/cuda/idioms/cute_tensors.cu and
//! cute_traits.cu) counted by exact enumeration under the bank model: each lane's byte
//! address written out from CuTe's definitions (a row-major offset, then
//! `Swizzle<B,M,S>`: `o ^ ((o & (((1 << B) - 1) << (M + S))) >> S)`, include/cute/
//! swizzle.hpp), every warp's phases counted by `bank::count_wavefronts`, the worst over
//! the loop's iterations. The fixtures check that bankcheck reports these factors from
//! the CuTe spellings; this checks the factors themselves.

use bankcheck::bank::{count_wavefronts, BankParams};

/// CuTe's `Swizzle<b, m, s>` for a non-negative `s`.
fn swizzle(b: u32, m: u32, s: u32, o: i64) -> i64 {
    o ^ ((o & (((1i64 << b) - 1) << (m + s))) >> s)
}

/// The worst conflict factor over `iterations` of one warp's access of `width` bytes,
/// lane `t` at byte address `addr(t, k)` in iteration `k`.
fn worst(width: u32, iterations: i64, addr: impl Fn(i64, i64) -> i64) -> u64 {
    let params = BankParams::default();
    (0..iterations)
        .map(|k| {
            let lanes: Vec<Option<i64>> = (0..32).map(|t| Some(addr(t, k))).collect();
            let w = count_wavefronts(&params, width, &lanes, false);
            // Every phase here costs the same: the factor is a whole number.
            assert_eq!(w.wavefronts % w.ideal, 0);
            w.wavefronts / w.ideal
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn half_tile_64x64() {
    // Row-major 64x64 halves: element (r, c) at 64 r + c, two bytes each.
    let plain = |r: i64, c: i64| 2 * (64 * r + c);
    assert_eq!(worst(2, 64, plain), 32);
    assert_eq!(worst(2, 64, |t, k| plain(k, t)), 1);
    // tile_to_shape of the Swizzle<3,3,3> 8x64 atom: the swizzle of the same offset.
    let swizzled = |r: i64, c: i64| 2 * swizzle(3, 3, 3, 64 * r + c);
    assert_eq!(worst(2, 64, swizzled), 4);
    assert_eq!(worst(2, 64, |t, k| swizzled(k, t)), 1);
    // local_partition by threads (4,8):(8,1): thread t at row t/8 + 4i, column t%8 + 8j.
    for (i, j) in (0..16).flat_map(|i| (0..8).map(move |j| (i, j))) {
        let (r, c) = (|t: i64| t / 8 + 4 * i, |t: i64| t % 8 + 8 * j);
        assert_eq!(worst(2, 1, |t, _| plain(r(t), c(t))), 4);
        assert_eq!(worst(2, 1, |t, _| swizzled(r(t), c(t))), 1);
    }
    // local_tile by (32,64) at tile (b, 0).
    for b in 0..2 {
        assert_eq!(worst(2, 64, |t, k| plain(32 * b + t, k)), 32);
    }
}

#[test]
fn sixteen_byte_elements_8x8() {
    // Phase p of 8 lanes reads column p: lane t at (t % 8, t / 8).
    let plain = |r: i64, c: i64| 16 * (8 * r + c);
    assert_eq!(worst(16, 1, |t, _| plain(t % 8, t / 8)), 8);
    let swizzled = |r: i64, c: i64| 16 * swizzle(3, 0, 3, 8 * r + c);
    assert_eq!(worst(16, 1, |t, _| swizzled(t % 8, t / 8)), 1);
    assert_eq!(worst(16, 1, |t, _| swizzled(t / 8, t % 8)), 1);
}

#[test]
fn flash_attention_q_tiles() {
    // kHeadDim 64: 128x64 under Swizzle<3,3,3>; kHeadDim 32: 64x32 under Swizzle<2,3,3>.
    let q64 = |r: i64, c: i64| 2 * swizzle(3, 3, 3, 64 * r + c);
    let q32 = |r: i64, c: i64| 2 * swizzle(2, 3, 3, 32 * r + c);
    assert_eq!(worst(2, 64, q64), 4);
    assert_eq!(worst(2, 64, |t, k| q64(k, t)), 1);
    assert_eq!(worst(2, 32, q32), 4);
    assert_eq!(worst(2, 32, |t, k| q32(k, t)), 1);
}

#[test]
fn single_element_copy() {
    // `copy(g_elem, s_elem)`: lane t stores 8 bytes at byte 16 t.
    assert_eq!(worst(8, 1, |t, _| 16 * t), 2);
}
