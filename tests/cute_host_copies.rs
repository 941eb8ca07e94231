//! The worked examples of tests/fixtures/cuda/cute/host_copies.cu (CuTe copies and
//! layouts built by the launching host function) counted by exact enumeration under the
//! bank model: each lane's byte address per instruction written out by hand from the
//! derivation in the fixture's comments, every phase counted by
//! `bank::count_wavefronts`, the worst over the instructions and over the launches.

use bankcheck::bank::{count_wavefronts, BankParams};

/// The worst conflict factor over `instructions` of one warp issuing `bytes`-byte
/// accesses, lane `l` at byte `byte(l, i)` in instruction `i`, lanes below `lanes`
/// active.
fn worst(bytes: u32, lanes: i64, instructions: i64, byte: impl Fn(i64, i64) -> i64) -> u64 {
    let params = BankParams::default();
    let mut worst = 0;
    for i in 0..instructions {
        let addrs: Vec<Option<i64>> = (0..32).map(|l| (l < lanes).then(|| byte(l, i))).collect();
        let c = count_wavefronts(&params, bytes, &addrs, false);
        assert_eq!(c.wavefronts % c.ideal, 0);
        worst = worst.max(c.wavefronts / c.ideal);
    }
    worst
}

#[test]
fn ldsm_t_x1_over_host_layouts() {
    // Lane l < 8 reads the 16-byte row m = l + 8 RM, n = 8 RN (16 instructions, i = RM
    // + 4 RN) of a tile of halves whose row is `stride` halves.
    let row = |stride: i64| move |l: i64, i: i64| 2 * (stride * (l + 8 * (i % 4)) + 8 * (i / 4));
    let row_major = worst(16, 8, 16, row(32));
    let padded = worst(16, 8, 16, row(40));
    assert_eq!((row_major, padded), (4, 1));
    // `ldsm_t_two_launches` is launched with both: the worst.
    assert_eq!(row_major.max(padded), 4);
}

#[test]
fn stores_through_host_layouts() {
    // `t(threadIdx.x, 0)`: row-major (32,32) at half 32t, column-major at half t.
    assert_eq!(worst(2, 32, 1, |t, _| 2 * 32 * t), 16);
    assert_eq!(worst(2, 32, 1, |t, _| 2 * t), 1);
}
