//! `make_tiled_copy` and `tidfrg` against CuTe's definitions: partitions worked by hand
//! (one from CUTLASS's own ldsm test) and, by enumeration, the tiled layout's
//! thread-value map.

use super::super::atoms::{atom_in_bits, in_elements, register_bits};
use super::*;
use IntTuple::{Int as I, Tuple as T};

fn atom(op: &str, bits: i64) -> CopyAtom {
    in_elements(atom_in_bits(op, &mut register_bits).unwrap(), bits).unwrap()
}

fn layout(shape: Vec<i64>, stride: Vec<i64>) -> Layout {
    Layout::new(
        IntTuple::Tuple(shape.into_iter().map(IntTuple::Int).collect()),
        IntTuple::Tuple(stride.into_iter().map(IntTuple::Int).collect()),
    )
    .unwrap()
}

/// Every value of each thread of a partition of `tensor`, as offsets.
fn partition_offsets(tc: &TiledCopy, tensor: &Layout, side: Side) -> Vec<Vec<i64>> {
    let p = tc.tidfrg(tensor, side).unwrap();
    let threads = p.mode(0).unwrap();
    let rest = Layout::concat(p.modes()[1..].to_vec());
    (0..threads.size().unwrap())
        .map(|t| {
            let base = threads.at(t).unwrap();
            (0..rest.size().unwrap())
                .map(|i| base + rest.at(i).unwrap())
                .collect()
        })
        .collect()
}

#[test]
fn a_universal_copy_partition_covers_the_tile_once() {
    // 32x8 threads, 4x1 values each (column-major thread layout): a 128x8 tile.
    let tc = make_tiled_copy(
        atom("UniversalCopy<uint128_t>", 32),
        &layout(vec![32, 8], vec![1, 32]),
        &layout(vec![4, 1], vec![1, 0]),
    )
    .unwrap();
    assert_eq!(tc.tiler, vec![128, 8]);
    let offs = partition_offsets(&tc, &layout(vec![128, 8], vec![1, 128]), Side::Dst);
    let mut all: Vec<i64> = offs.iter().flatten().copied().collect();
    all.sort_unstable();
    assert_eq!(all, (0..1024).collect::<Vec<_>>());
    // Thread t (m = t % 32, n = t / 32) holds rows 4m..4m+3 of column n: contiguous.
    for (t, o) in offs.iter().enumerate() {
        let (m, n) = ((t % 32) as i64, (t / 32) as i64);
        assert_eq!(o, &(0..4).map(|v| 4 * m + v + 128 * n).collect::<Vec<_>>());
    }
}

#[test]
fn ldsm_n_x4_lanes_give_contiguous_rows_in_cutlass_ldsm_test() {
    // CUTLASS's test/unit/cute/ampere/ldsm.cu ("32x8 interleaved U32x4_LDSM_N"): the
    // smem layout (32,(2,4)):(2,(1,64)), 32x1 threads of 1x8 values. The layouts are
    // those of the registers (RefLayout = DstLayout): src lane t, value e is atom
    // element 8t + e, register thread (8t+e)/2 % 32, value e % 2 + 2 (t / 8), that is
    // m = (4t + e/2) % 32, k = (e % 2, t / 8), at offset 2m + (e % 2) + 64 (t / 8) =
    // 8t + e: each lane's 8 halves are one contiguous 16-byte row, as `ldmatrix` needs.
    let tc = make_tiled_copy(
        atom("SM75_U32x4_LDSM_N", 16),
        &layout(vec![32, 1], vec![1, 0]),
        &layout(vec![1, 8], vec![0, 1]),
    )
    .unwrap();
    let tile = Layout::new(
        T(vec![I(32), T(vec![I(2), I(4)])]),
        T(vec![I(2), T(vec![I(1), I(64)])]),
    )
    .unwrap();
    let offs = partition_offsets(&tc, &tile, Side::Src);
    for (t, o) in offs.iter().enumerate() {
        assert_eq!(o, &(0..8).map(|e| 8 * t as i64 + e).collect::<Vec<_>>());
    }
    let p = tc.tidfrg(&tile, Side::Src).unwrap();
    assert_eq!(p.mode(1).unwrap().mode(0).unwrap().size(), Some(8));
}

#[test]
fn a_cp_async_copy_of_rows() {
    // 16x8 threads row-major, 1x8 values: thread t writes row t/8, columns 8(t%8)..+7
    // of a row-major 64x64 tile.
    let tc = make_tiled_copy(
        atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16),
        &layout(vec![16, 8], vec![8, 1]),
        &layout(vec![1, 8], vec![0, 1]),
    )
    .unwrap();
    assert_eq!(tc.tiler, vec![16, 64]);
    let offs = partition_offsets(&tc, &layout(vec![64, 64], vec![64, 1]), Side::Dst);
    for (t, o) in offs.iter().enumerate() {
        let (m, c) = ((t / 8) as i64, (t % 8) as i64);
        assert_eq!(
            o[..8],
            (0..8).map(|v| 64 * m + 8 * c + v).collect::<Vec<_>>()[..]
        );
    }
}

proptest::proptest! {
    /// For atoms whose reference is their own source and destination (`UniversalCopy`
    /// of 1 to 8 values), `tidfrg` of the tile's identity layout gives thread `t`, value
    /// `v` exactly the tile coordinate `TiledLayout_TV(t, v)` the tiled copy assigns, and
    /// the threads' values cover the tile once, for thread and value layouts of
    /// power-of-two extents in either order (CuTe's definitions, by enumeration).
    #[test]
    fn universal_partitions_follow_the_tv_layout(
        tm in 0u32..4, tn in 0u32..4, vm in 0u32..3, vn in 0u32..3,
        row_major_thr: bool, rest in 1i64..3,
    ) {
        let thr = Layout::compact(
            IntTuple::Tuple(vec![IntTuple::Int(1 << tm), IntTuple::Int(1 << tn)]),
            row_major_thr,
        ).unwrap();
        let val = layout(vec![1 << vm, 1 << vn], vec![1, 1 << vm]);
        let values = val.size().unwrap();
        let op = format!("UniversalCopy<uint{}_t>", 16 * values);
        let Ok(a) = atom_in_bits(&op, &mut register_bits) else {
            return Ok(());
        };
        let tc = make_tiled_copy(in_elements(a, 16).unwrap(), &thr, &val).unwrap();
        let (m, n) = (tc.tiler[0], tc.tiler[1]);
        let tile = layout(vec![m, n * rest], vec![1, m]);
        let offs = partition_offsets(&tc, &tile, Side::Src);
        let mut all: Vec<i64> = offs.iter().flatten().copied().collect();
        all.sort_unstable();
        proptest::prop_assert_eq!(all, (0..m * n * rest).collect::<Vec<_>>());
        for (t, o) in offs.iter().enumerate() {
            for v in 0..values {
                let tv = tc.layout_tv.at(t as i64 + thr.size().unwrap() * v).unwrap();
                proptest::prop_assert_eq!(o[v as usize], tv);
            }
        }
    }
}
