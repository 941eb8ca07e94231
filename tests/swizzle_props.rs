//! Properties of the swizzle advisor: the exact cost formula against brute-force
//! simulation, the constructed layouts against the Lemma 9.5 bounds, the classic/CuTe
//! conversions, and the worked examples (the 16x32 transpose, the CuTe swizzle examples).

use bankcheck::bank::BankParams;
use bankcheck::diag::{AccessKind, Applicability, Span};
use bankcheck::model::ir::{Axis, BinOp, BlockShape, Expr, LoweredAccess, VarInfo, VarKind};
use bankcheck::swizzle::normal::simplest;
use bankcheck::swizzle::{
    brute_cost, classic_layout, construct, cute_layout, cute_of_classic, exact_cost, lemma95,
    suggest, suggest_padding, suggest_swizzle, ArrayUse, Classic, Cute, DistributedLayout,
    Geometry, MemoryLayout, SiteUse,
};
use proptest::prelude::*;

fn unit(i: u32) -> u64 {
    1u64 << i
}

fn units(range: std::ops::Range<u32>) -> Vec<u64> {
    range.map(unit).collect()
}

fn geom(bytes: u32, vectors: bool) -> Geometry {
    Geometry::new(bytes, BankParams::default(), vectors).expect("valid geometry")
}

/// Per-instruction wavefronts of an access under a layout, by the exact formula.
fn per_instr(mem: &MemoryLayout, a: &DistributedLayout, g: &Geometry) -> u64 {
    exact_cost(mem, a, g).per_instruction()
}

// ---------------------------------------------------------------- the 16x32 transpose

/// Logical space of `float tile[16][32]`, dim0 = m (bits 0..3), dim1 = n (bits 4..8).
/// Store: lane t -> n = t, register r -> m = r. Read: m = t % 16, n = 2r + t / 16.
fn transpose_layouts() -> (DistributedLayout, DistributedLayout) {
    let store = DistributedLayout {
        reg: units(0..4),
        lane: units(4..9),
        warp: vec![],
    };
    let read = DistributedLayout {
        reg: units(5..9),
        lane: [units(0..4), vec![unit(4)]].concat(),
        warp: vec![],
    };
    (store, read)
}

#[test]
fn transpose_construction_is_conflict_free_both_ways() {
    let (store, read) = transpose_layouts();
    let g = geom(4, true);
    let built = construct(&[store.clone(), read.clone()], 9, &g).expect("built");
    assert_eq!(built.vec, Vec::<u64>::new());
    for a in [&store, &read] {
        assert_eq!(per_instr(&built.layout, a, &g), 1);
        assert_eq!(brute_cost(&built.layout, a, &g), Some(16));
    }
    // The n ^ 2m family: every segment vector is m_j ⊕ (some n bits) and, together with the
    // read's column-parity lane n0, the n-parts are independent (reference 001).
    let (mem, classic) = simplest(&built, &[store.clone(), read.clone()], &[16, 32], &g);
    assert_eq!(
        classic,
        Some(Classic {
            vec: 2,
            per_phase: 1,
            max_phase: 16
        })
    );
    assert_eq!(
        cute_of_classic(
            Classic {
                vec: 2,
                per_phase: 1,
                max_phase: 16
            },
            &[16, 32]
        ),
        Some(Cute {
            bits: 4,
            base: 1,
            shift: 4
        })
    );
    let q = mem.offsets().expect("invertible");
    for m in 0..16u64 {
        for n in 0..32u64 {
            assert_eq!(q.apply(m | n << 4), 32 * m + (n ^ (2 * m)));
        }
    }
}

#[test]
fn textbook_xor_m_is_two_way_on_the_read() {
    let (store, read) = transpose_layouts();
    let g = geom(4, false);
    let xor_m = classic_layout(
        Classic {
            vec: 1,
            per_phase: 1,
            max_phase: 16,
        },
        &[16, 32],
    )
    .expect("layout");
    assert_eq!(per_instr(&xor_m, &store, &g), 1);
    assert_eq!(per_instr(&xor_m, &read, &g), 2);
    assert_eq!(brute_cost(&xor_m, &read, &g), Some(32));
    let plain = bankcheck::swizzle::row_major(&[16, 32]).expect("layout");
    assert_eq!(per_instr(&plain, &read, &g), 16);
}

// ---------------------------------------------------------------- source-level transpose

fn var(name: &str, kind: VarKind) -> VarInfo {
    VarInfo {
        name: name.to_string(),
        kind,
        loop_value: None,
    }
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::bin(op, a, b)
}

fn c(v: i64) -> Expr {
    Expr::Const(v)
}

fn access(
    vars: Vec<VarInfo>,
    coords: Vec<Expr>,
    extents: &[u64],
    bytes: u32,
    block: (u32, u32, u32),
) -> LoweredAccess {
    // The byte address of the plain row-major subscript (not used by the advisor).
    let mut address = c(0);
    for (cd, &e) in coords.iter().zip(extents) {
        address = bin(
            BinOp::Add,
            bin(BinOp::Mul, address, c(e as i64)),
            cd.clone(),
        );
    }
    LoweredAccess {
        vars,
        address: bin(BinOp::Mul, address, c(i64::from(bytes))),
        width: bytes,
        atomic: false,
        guards: vec![],
        block: BlockShape {
            x: block.0,
            y: block.1,
            z: block.2,
        },
        warp_size: 32,
        coords: Some(coords),
        extents: extents.to_vec(),
    }
}

fn site(
    line: usize,
    kind: AccessKind,
    lowered: LoweredAccess,
    texts: &[&str],
    at: usize,
) -> SiteUse {
    let mut spans = Vec::new();
    let mut pos = at;
    for t in texts {
        spans.push(Span::new(pos, pos + t.len()));
        pos += t.len() + 2;
    }
    SiteUse {
        line,
        helper_line: None,
        context: None,
        kind,
        lowered,
        index_spans: spans,
        index_texts: texts.iter().map(|t| (*t).to_string()).collect(),
        plain_subscript: true,
    }
}

fn array(decl: &str, extents: &[u64], bytes: u32, accesses: Vec<SiteUse>) -> ArrayUse {
    // Extent spans are found in the declaration text, which starts at byte 0.
    let mut spans = Vec::new();
    let mut from = 0;
    for e in extents {
        let pat = format!("[{e}]");
        let at = decl[from..].find(&pat).map_or(0, |i| i + from);
        spans.push(Span::new(at + 1, at + pat.len() - 1));
        from = at + pat.len();
    }
    ArrayUse {
        name: "tile".into(),
        element_bytes: bytes,
        extents: extents.to_vec(),
        decl_span: Span::new(0, decl.len()),
        decl_text: decl.to_string(),
        extent_spans: spans,
        accesses,
    }
}

fn transpose_array() -> ArrayUse {
    let ext = [16u64, 32];
    let t = || Expr::Var(0);
    let store = access(
        vec![
            var("threadIdx.x", VarKind::Thread(Axis::X)),
            var("m", VarKind::Counter { trips: Some(16) }),
        ],
        vec![Expr::Var(1), t()],
        &ext,
        4,
        (32, 1, 1),
    );
    let read = access(
        vec![
            var("threadIdx.x", VarKind::Thread(Axis::X)),
            var("r", VarKind::Counter { trips: Some(16) }),
        ],
        vec![
            bin(BinOp::Rem, t(), c(16)),
            bin(
                BinOp::Add,
                bin(BinOp::Mul, c(2), Expr::Var(1)),
                bin(BinOp::Div, t(), c(16)),
            ),
        ],
        &ext,
        4,
        (32, 1, 1),
    );
    array(
        "__shared__ float tile[16][32]",
        &ext,
        4,
        vec![
            site(10, AccessKind::Store, store, &["m", "n"], 100),
            site(
                12,
                AccessKind::Load,
                read,
                &["t % 16", "2 * r + t / 16"],
                200,
            ),
        ],
    )
}

#[test]
fn transpose_swizzle_suggestion_is_the_n_xor_2m_family() {
    let arr = transpose_array();
    let s = suggest_swizzle(&arr, &BankParams::default()).expect("a swizzle");
    assert_eq!(s.kind, bankcheck::diag::FixKind::Swizzle);
    assert_eq!(s.replacement, "tile[m][n ^ ((m & 15) << 1)]");
    assert_eq!(s.classic, Some([2, 1, 16]));
    assert_eq!(s.cute.as_deref(), Some("Swizzle<4,1,4>"));
    assert_eq!(s.applicability, Applicability::DisplayOnly);
    let afters: Vec<(u64, u64, u64)> = s
        .after
        .iter()
        .map(|a| (a.before_wavefronts, a.wavefronts, a.ideal_wavefronts))
        .collect();
    assert_eq!(afters, vec![(1, 1, 1), (16, 1, 1)]);
    assert_eq!(s.lower_bound_wavefronts, Some(2));
    assert_eq!(s.memory_cost_bytes, Some(0));
    let read_edit = s
        .edits
        .iter()
        .find(|e| e.span.start == 208)
        .expect("read column edit");
    assert_eq!(read_edit.text, "(2 * r + t / 16) ^ (((t % 16) & 15) << 1)");
}

#[test]
fn transpose_prefers_the_swizzle_over_wider_padding_and_names_the_padding() {
    // Padding reaches the same wavefronts only with two elements per row: the swizzle,
    // with no extra memory, is the simpler fix; the padding is named as the alternative.
    let arr = transpose_array();
    let s = suggest(&arr, &BankParams::default()).expect("a fix");
    assert_eq!(s.kind, bankcheck::diag::FixKind::Swizzle);
    assert_eq!(s.cute.as_deref(), Some("Swizzle<4,1,4>"));
    assert_eq!(s.memory_cost_bytes, Some(0));
    assert!(
        s.after.iter().all(|a| a.wavefronts == a.ideal_wavefronts),
        "{:?}",
        s.after
    );
    assert!(
        s.message.contains("tile[16][34]") && s.message.contains("+128 bytes"),
        "{}",
        s.message
    );
}

#[test]
fn column_read_of_square_tile_pads_by_one() {
    let ext = [32u64, 32];
    let t = || Expr::Var(0);
    let vars = || {
        vec![
            var("threadIdx.x", VarKind::Thread(Axis::X)),
            var("k", VarKind::Counter { trips: Some(32) }),
        ]
    };
    let store = access(vars(), vec![Expr::Var(1), t()], &ext, 4, (32, 1, 1));
    let read = access(vars(), vec![t(), Expr::Var(1)], &ext, 4, (32, 1, 1));
    let arr = array(
        "__shared__ float tile[32][32]",
        &ext,
        4,
        vec![
            site(3, AccessKind::Store, store, &["k", "t"], 50),
            site(4, AccessKind::Load, read, &["t", "k"], 80),
        ],
    );
    let s = suggest(&arr, &BankParams::default()).expect("a fix");
    assert_eq!(s.replacement, "__shared__ float tile[32][33]");
    assert_eq!(s.after[1].before_wavefronts, 32);
    assert_eq!(s.after[1].wavefronts, 1);
    let sw = suggest_swizzle(&arr, &BankParams::default()).expect("a swizzle");
    assert!(sw.after.iter().all(|a| a.wavefronts == 1));
    assert_eq!(sw.cute.as_deref(), Some("Swizzle<5,0,5>"));
}

#[test]
fn non_linear_index_gets_no_swizzle_but_may_pad() {
    let ext = [32u64, 32];
    let t = || Expr::Var(0);
    let vars = vec![
        var("threadIdx.x", VarKind::Thread(Axis::X)),
        var("k", VarKind::Counter { trips: Some(32) }),
    ];
    // Row (t * 3) % 32 is not linear over F2.
    let read = access(
        vars,
        vec![
            bin(BinOp::Rem, bin(BinOp::Mul, t(), c(3)), c(32)),
            Expr::Var(1),
        ],
        &ext,
        4,
        (32, 1, 1),
    );
    let arr = array(
        "__shared__ float tile[32][32]",
        &ext,
        4,
        vec![site(4, AccessKind::Load, read, &["t * 3 % 32", "k"], 80)],
    );
    assert!(suggest_swizzle(&arr, &BankParams::default()).is_none());
    let p = suggest_padding(&arr, &BankParams::default()).expect("padding");
    assert_eq!(p.replacement, "__shared__ float tile[32][33]");
}

#[test]
fn conflict_free_array_gets_nothing() {
    let ext = [32u64, 32];
    let vars = vec![
        var("threadIdx.x", VarKind::Thread(Axis::X)),
        var("k", VarKind::Counter { trips: Some(32) }),
    ];
    let store = access(vars, vec![Expr::Var(1), Expr::Var(0)], &ext, 4, (32, 1, 1));
    let arr = array(
        "__shared__ float tile[32][32]",
        &ext,
        4,
        vec![site(3, AccessKind::Store, store, &["k", "t"], 50)],
    );
    assert!(suggest(&arr, &BankParams::default()).is_none());
}

// ---------------------------------------------------------------- CuTe examples (reference 002)

#[test]
fn cute_fp32_32x64_column_read() {
    // dim0 = m (bits 0..4), dim1 = n (bits 5..10). Read: lane -> m, registers -> n.
    let read = DistributedLayout {
        reg: units(5..11),
        lane: units(0..5),
        warp: vec![],
    };
    let store = DistributedLayout {
        reg: [vec![unit(10)], units(0..5)].concat(),
        lane: units(5..10),
        warp: vec![],
    };
    let g = geom(4, false);
    let ext = [32u64, 64];
    let good = cute_layout(
        Cute {
            bits: 5,
            base: 0,
            shift: 6,
        },
        &ext,
    )
    .expect("layout");
    assert_eq!(per_instr(&good, &read, &g), 1);
    assert_eq!(brute_cost(&good, &read, &g), Some(64));
    for (b, m, s) in [(5, 0, 8), (5, 2, 6), (5, 2, 8)] {
        let bad = cute_layout(
            Cute {
                bits: b,
                base: m,
                shift: s,
            },
            &ext,
        )
        .expect("layout");
        assert!(per_instr(&bad, &read, &g) > 1, "Swizzle<{b},{m},{s}>");
        assert!(brute_cost(&bad, &read, &g) > Some(64));
    }
    let built = construct(&[store.clone(), read.clone()], 11, &g).expect("built");
    let (mem, classic) = simplest(&built, &[store.clone(), read.clone()], &ext, &g);
    let cute = classic.and_then(|c| cute_of_classic(c, &ext));
    assert_eq!(
        cute,
        Some(Cute {
            bits: 5,
            base: 0,
            shift: 6
        })
    );
    assert_eq!(per_instr(&mem, &read, &g), 1);
    assert_eq!(per_instr(&mem, &store, &g), 1);
}

/// Row-wise 128-bit store and column-wise 128-bit load of an `rows x cols` tile of `bytes`-byte
/// elements: lanes walk 16-byte chunks along a row (store) or down the rows (load).
fn vector_tile(
    rows_bits: u32,
    cols_bits: u32,
    bytes: u32,
) -> (DistributedLayout, DistributedLayout) {
    let vec_bits = (16 / bytes).trailing_zeros();
    let chunk_bits = cols_bits - vec_bits;
    let m = |i: u32| unit(i);
    let n = |j: u32| unit(rows_bits + j);
    let vector: Vec<u64> = (0..vec_bits).map(n).collect();
    // Store: lanes over (chunk, then row), the rest of the tile in registers.
    let mut s_lanes: Vec<u64> = (vec_bits..cols_bits)
        .map(n)
        .chain((0..rows_bits).map(m))
        .collect();
    let s_regs: Vec<u64> = vector
        .iter()
        .copied()
        .chain(s_lanes.split_off(5.min(s_lanes.len())))
        .collect();
    // Load: lanes over (row, then chunk).
    let mut l_lanes: Vec<u64> = (0..rows_bits)
        .map(m)
        .chain((vec_bits..cols_bits).map(n))
        .collect();
    let l_regs: Vec<u64> = vector
        .iter()
        .copied()
        .chain(l_lanes.split_off(5.min(l_lanes.len())))
        .collect();
    assert_eq!(chunk_bits + rows_bits, 5 + (s_regs.len() as u32 - vec_bits));
    (
        DistributedLayout {
            reg: s_regs,
            lane: s_lanes,
            warp: vec![],
        },
        DistributedLayout {
            reg: l_regs,
            lane: l_lanes,
            warp: vec![],
        },
    )
}

fn check_cute_vector_example(rows_bits: u32, cols_bits: u32, bytes: u32, text: Cute) {
    let (store, load) = vector_tile(rows_bits, cols_bits, bytes);
    let g = geom(bytes, true);
    let ext = [1u64 << rows_bits, 1u64 << cols_bits];
    let theirs = cute_layout(text, &ext).expect("layout");
    let d = rows_bits + cols_bits;
    let built = construct(&[store.clone(), load.clone()], d, &g).expect("built");
    let (mem, classic) = simplest(&built, &[store.clone(), load.clone()], &ext, &g);
    for a in [&store, &load] {
        let ours = exact_cost(&mem, a, &g);
        let text_cost = exact_cost(&theirs, a, &g);
        assert_eq!(ours.vec_bits, (16 / bytes).trailing_zeros());
        assert!(
            ours.wavefronts <= text_cost.wavefronts,
            "{ours:?} vs {text_cost:?}"
        );
        assert_eq!(Some(ours.wavefronts), brute_cost(&mem, a, &g));
        assert_eq!(ours.wavefronts, lemma95(a, &built.vec, d, &g).wavefronts);
    }
    let found = classic.and_then(|c| cute_of_classic(c, &ext));
    // The layout is the one the CuTe text derives by hand.
    assert_eq!(found, Some(text));
}

#[test]
fn cute_int8_8x128_vectors() {
    check_cute_vector_example(
        3,
        7,
        1,
        Cute {
            bits: 3,
            base: 4,
            shift: 3,
        },
    );
}

#[test]
fn cute_fp16_8x64_vectors() {
    check_cute_vector_example(
        3,
        6,
        2,
        Cute {
            bits: 3,
            base: 3,
            shift: 3,
        },
    );
}

// ---------------------------------------------------------------- classic == CuTe

#[test]
fn classic_equals_cute_on_a_grid() {
    let mut checked = 0;
    for r in 0..=5u32 {
        for cb in 1..=7u32 {
            let ext = [1u64 << r, 1u64 << cb];
            for a in 0..=cb {
                for p in 0..=r {
                    for q in 0..=r {
                        let cl = Classic {
                            vec: 1 << a,
                            per_phase: 1 << p,
                            max_phase: 1 << q,
                        };
                        let sw = cute_of_classic(cl, &ext).expect("convertible");
                        assert_eq!(
                            classic_layout(cl, &ext),
                            cute_layout(sw, &ext),
                            "{cl:?} {ext:?} {sw}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000);
    assert_eq!(
        cute_of_classic(
            Classic {
                vec: 8,
                per_phase: 1,
                max_phase: 8
            },
            &[64, 64]
        ),
        Some(Cute {
            bits: 3,
            base: 3,
            shift: 3
        })
    );
    assert_eq!(
        cute_of_classic(
            Classic {
                vec: 8,
                per_phase: 2,
                max_phase: 4
            },
            &[64, 32]
        ),
        Some(Cute {
            bits: 2,
            base: 3,
            shift: 3
        })
    );
    assert_eq!(
        cute_of_classic(
            Classic {
                vec: 1,
                per_phase: 1,
                max_phase: 16
            },
            &[16, 32]
        ),
        Some(Cute {
            bits: 4,
            base: 0,
            shift: 5
        })
    );
}

// ---------------------------------------------------------------- random properties

/// A small deterministic generator driven by a proptest seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn shuffle(&mut self, v: &mut [u64]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
    /// A random invertible d x d matrix (columns).
    fn invertible(&mut self, d: u32) -> Vec<u64> {
        loop {
            let cols: Vec<u64> = (0..d).map(|_| self.next() & ((1u64 << d) - 1)).collect();
            if bankcheck::f2::BitMatrix::from_columns(cols.clone()).rank() == d as usize {
                return cols;
            }
        }
    }
}

/// A bijective access layout: a random permutation of the units (optionally sharing its
/// first `shared` register images with `like`), optionally mixed by `mix`.
fn random_access(
    rng: &mut Rng,
    d: u32,
    reg: usize,
    lanes: usize,
    like: Option<&DistributedLayout>,
    mix: Option<&[u64]>,
) -> DistributedLayout {
    let mut order: Vec<u64> = units(0..d);
    rng.shuffle(&mut order);
    if let Some(l) = like {
        let shared = rng.below(reg as u64 + 1) as usize;
        for &x in l.reg.iter().take(shared) {
            let at = order.iter().position(|&y| y == x).unwrap_or(0);
            order.remove(at);
            order.insert(0, x);
        }
    }
    let mixed: Vec<u64> = match mix {
        Some(g) => order
            .iter()
            .map(|&x| bankcheck::f2::BitMatrix::from_columns(g.to_vec()).apply(x))
            .collect(),
        None => order,
    };
    DistributedLayout {
        reg: mixed[..reg].to_vec(),
        lane: mixed[reg..reg + lanes].to_vec(),
        warp: mixed[reg + lanes..].to_vec(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// §2.4: the exact formula equals brute-force simulation on random layouts, including
    /// broadcasts, duplicates, non-unit images, 8..128-bit elements, 32/64 banks and lanes.
    #[test]
    fn exact_cost_equals_brute_force(seed in 1u64.., bytes_log in 0u32..5, wide_banks: bool, wide_warp: bool, vectors: bool) {
        let mut rng = Rng(seed);
        let params = BankParams { bank_count: if wide_banks { 64 } else { 32 }, bank_width: 4, warp_size: if wide_warp { 64 } else { 32 } };
        let g = Geometry::new(1 << bytes_log, params, vectors).expect("geometry");
        let lanes = if wide_warp { 6 } else { 5 };
        let d = 6 + rng.below(6) as u32;
        let mem = MemoryLayout::new(rng.invertible(d)).expect("invertible");
        let pick = |rng: &mut Rng| -> u64 {
            match rng.below(5) {
                0 => 0,
                1 | 2 => unit(rng.below(u64::from(d)) as u32),
                _ => rng.next() & ((1u64 << d) - 1),
            }
        };
        let reg_n = rng.below(4) as usize;
        let warp_n = rng.below(3) as usize;
        let access = DistributedLayout {
            reg: (0..reg_n).map(|_| pick(&mut rng)).collect(),
            lane: (0..lanes).map(|_| pick(&mut rng)).collect(),
            warp: (0..warp_n).map(|_| pick(&mut rng)).collect(),
        };
        let exact = exact_cost(&mem, &access, &g);
        prop_assert_eq!(Some(exact.wavefronts), brute_cost(&mem, &access, &g), "{:?} {:?}", mem, access);
    }

    /// §3.4/§4.2: for random pairs of linear accesses the constructed layout reaches both
    /// Lemma 9.5 bounds (checked by brute force; a one-sided wider vector may beat the bound
    /// of its side) and is never worse than the plain layout: per access for scalar
    /// accesses, in total when vectors are allowed.
    #[test]
    fn constructed_pairs_reach_the_bounds(seed in 1u64.., bytes_log in 0u32..5, warp_bits in 0usize..4, vectors: bool, general: bool) {
        let mut rng = Rng(seed);
        let g = geom(1 << bytes_log, vectors);
        let reg = rng.below(5) as usize;
        let d = (reg + 5 + warp_bits) as u32;
        let mix = general.then(|| rng.invertible(d));
        let a = random_access(&mut rng, d, reg, 5, None, None);
        let b = random_access(&mut rng, d, reg, 5, Some(&a), mix.as_deref());
        let b = if general { DistributedLayout { reg: [a.reg.iter().take(reg / 2).copied().collect::<Vec<_>>(), b.reg[reg / 2..].to_vec()].concat(), ..b } } else { b };
        let accesses = [a, b];
        // Layouts whose register images became dependent are not bijective; skip them.
        let all: Vec<u64> = accesses[1].reg.iter().chain(&accesses[1].lane).chain(&accesses[1].warp).copied().collect();
        prop_assume!(bankcheck::f2::Subspace::span(all).dim() == d as usize);
        let built = construct(&accesses, d, &g).expect("built");
        let plain = MemoryLayout::identity(d);
        for (x, bound) in accesses.iter().zip(&built.bounds) {
            let brute = brute_cost(&built.layout, x, &g).expect("simulated");
            prop_assert_eq!(brute, exact_cost(&built.layout, x, &g).wavefronts);
            prop_assert!(brute <= bound.wavefronts, "{} > bound {} for {:?}", brute, bound.wavefronts, accesses);
            if !vectors {
                prop_assert!(brute <= brute_cost(&plain, x, &g).expect("simulated"));
            }
        }
        let total = |m: &MemoryLayout| -> u64 { accesses.iter().map(|x| exact_cost(m, x, &g).wavefronts).sum() };
        prop_assert!(total(&built.layout) <= total(&plain), "{} > {} for {:?}", total(&built.layout), total(&plain), accesses);
    }
}

/// Counts, over a fixed set of seeds, how often the construction meets the Lemma 9.5
/// bound exactly on both accesses and how it compares with the plain layout in total.
#[test]
fn bound_hit_rate_on_random_pairs() {
    let mut hits = 0;
    let mut pairs = 0;
    let mut not_worse = 0;
    let mut boosted = 0;
    for seed in 1..=300u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let bytes = 1u32 << rng.below(5);
        let vectors = rng.below(2) == 0;
        let g = geom(bytes, vectors);
        let reg = rng.below(5) as usize;
        let warp_bits = rng.below(4) as usize;
        let d = (reg + 5 + warp_bits) as u32;
        let a = random_access(&mut rng, d, reg, 5, None, None);
        let b = random_access(&mut rng, d, reg, 5, Some(&a), None);
        let accesses = [a, b];
        let Some(built) = construct(&accesses, d, &g) else {
            continue;
        };
        pairs += 1;
        let costs: Vec<u64> = accesses
            .iter()
            .map(|x| brute_cost(&built.layout, x, &g).unwrap_or(u64::MAX))
            .collect();
        if costs
            .iter()
            .zip(&built.bounds)
            .all(|(c, b)| *c <= b.wavefronts)
        {
            hits += 1;
        }
        if costs
            .iter()
            .zip(&built.bounds)
            .any(|(c, b)| *c < b.wavefronts)
        {
            boosted += 1;
        }
        let plain = MemoryLayout::identity(d);
        let before: u64 = accesses
            .iter()
            .map(|x| brute_cost(&plain, x, &g).unwrap_or(0))
            .sum();
        if costs.iter().sum::<u64>() <= before {
            not_worse += 1;
        }
    }
    println!(
        "bound reached on {hits}/{pairs} random pairs ({boosted} beat it with a one-sided wider vector); \
         total not worse than plain on {not_worse}/{pairs}"
    );
    assert_eq!(hits, pairs);
    assert_eq!(not_worse, pairs);
}

/// Square transposes of 1-, 2-, 4-, 8- and 16-byte elements at source level: store
/// `tile[k][t]`, load `tile[t][k]`. The verified suggestion makes both conflict-free
/// (or reaches the Lemma 9.5 bound, reported as the lower bound).
#[test]
fn source_level_transposes_of_every_element_size() {
    for bytes in [1u32, 2, 4, 8, 16] {
        let ext = [32u64, 32];
        let vars = || {
            vec![
                var("threadIdx.x", VarKind::Thread(Axis::X)),
                var("k", VarKind::Counter { trips: Some(32) }),
            ]
        };
        let store = access(
            vars(),
            vec![Expr::Var(1), Expr::Var(0)],
            &ext,
            bytes,
            (32, 1, 1),
        );
        let read = access(
            vars(),
            vec![Expr::Var(0), Expr::Var(1)],
            &ext,
            bytes,
            (32, 1, 1),
        );
        let arr = array(
            "__shared__ T tile[32][32]",
            &ext,
            bytes,
            vec![
                site(3, AccessKind::Store, store, &["k", "t"], 50),
                site(4, AccessKind::Load, read, &["t", "k"], 80),
            ],
        );
        let s = suggest_swizzle(&arr, &BankParams::default()).expect("a swizzle");
        let after: u64 = s.after.iter().map(|a| a.wavefronts).sum();
        assert_eq!(
            Some(after),
            s.lower_bound_wavefronts,
            "{bytes} bytes: {:?}",
            s.after
        );
        assert!(
            s.after[1].wavefronts < s.after[1].before_wavefronts,
            "{bytes} bytes"
        );
    }
}

/// Three access patterns on one buffer (row store, column load, and a diagonal-ish load):
/// the constructed layout is verified by brute force and never worse than the plain one in
/// its worst excess over the per-access bounds; how often all three bounds are reached is
/// printed.
#[test]
fn three_accesses_on_random_layouts() {
    let mut all_reached = 0;
    let mut cases = 0;
    for seed in 1..=150u64 {
        let mut rng = Rng(seed.wrapping_mul(0xD134_2543_DE82_EF95) | 1);
        let bytes = 1u32 << rng.below(5);
        let g = geom(bytes, false);
        let reg = rng.below(5) as usize;
        let warp_bits = rng.below(3) as usize;
        let d = (reg + 5 + warp_bits) as u32;
        let accesses: Vec<DistributedLayout> = (0..3)
            .map(|_| random_access(&mut rng, d, reg, 5, None, None))
            .collect();
        let built = construct(&accesses, d, &g).expect("built");
        let plain = MemoryLayout::identity(d);
        let mut excess_built = 0u32;
        let mut excess_plain = 0u32;
        for (x, bound) in accesses.iter().zip(&built.bounds) {
            let exact = exact_cost(&built.layout, x, &g);
            assert_eq!(Some(exact.wavefronts), brute_cost(&built.layout, x, &g));
            excess_built =
                excess_built.max(exact.conflict_bits.saturating_sub(bound.conflict_bits));
            let before = exact_cost(&plain, x, &g);
            excess_plain =
                excess_plain.max(before.conflict_bits.saturating_sub(bound.conflict_bits));
        }
        assert!(
            excess_built <= excess_plain,
            "seed {seed}: {excess_built} > {excess_plain}"
        );
        cases += 1;
        if excess_built == 0 {
            all_reached += 1;
        }
    }
    println!("three accesses: all bounds reached on {all_reached}/{cases}");
    assert!(all_reached * 2 >= cases);
}

#[test]
fn layout_conflict_rule_fires_once_at_the_declaration() {
    let arr = transpose_array();
    let out = layout_conflict(&arr);
    assert_eq!(out.len(), 1);
    let d = &out[0];
    assert_eq!(d.rule, "layout-conflict");
    assert_eq!(d.span, arr.decl_span);
    assert_eq!(
        d.message,
        "accesses of `tile` conflict with its layout: 16 wavefronts where 1 suffices"
    );
    assert_eq!(
        d.notes,
        vec![
            "store at line 10: 1 -> 1 wavefronts (ideal 1)",
            "load at line 12: 16 -> 1 wavefronts (ideal 1)"
        ]
    );
    assert_eq!(
        d.help.as_deref(),
        d.suggestion.as_ref().map(|s| &*s.message)
    );

    // A conflict-free array gets no diagnostic.
    let ext = [32u64, 32];
    let vars = vec![
        var("threadIdx.x", VarKind::Thread(Axis::X)),
        var("k", VarKind::Counter { trips: Some(32) }),
    ];
    let store = access(vars, vec![Expr::Var(1), Expr::Var(0)], &ext, 4, (32, 1, 1));
    let fine = array(
        "__shared__ float tile[32][32]",
        &ext,
        4,
        vec![site(3, AccessKind::Store, store, &["k", "t"], 50)],
    );
    assert!(layout_conflict(&fine).is_empty());
}

/// The `layout-conflict` findings of one array, from the advisor's verified suggestion,
/// as the pipeline makes them.
fn layout_conflict(array: &ArrayUse) -> Vec<bankcheck::diag::Diagnostic> {
    suggest(array, &BankParams::default())
        .and_then(|s| bankcheck::rules::layout_conflict::finding(array, &s))
        .into_iter()
        .collect()
}

/// The classic 32x32 transpose kernel with a 32x8 block: `tile[ty + 8k][tx] = ..;
/// .. = tile[tx][ty + 8k]`, extents written with a macro. Padding by one is the fix, the
/// edit keeps the macro, and the swizzle reaches the same.
#[test]
fn block_32x8_transpose_with_macro_extent() {
    let ext = [32u64, 32];
    let vars = || {
        vec![
            var("threadIdx.x", VarKind::Thread(Axis::X)),
            var("threadIdx.y", VarKind::Thread(Axis::Y)),
            var("k", VarKind::Counter { trips: Some(4) }),
        ]
    };
    let row = || {
        bin(
            BinOp::Add,
            Expr::Var(1),
            bin(BinOp::Mul, c(8), Expr::Var(2)),
        )
    };
    let store = access(vars(), vec![row(), Expr::Var(0)], &ext, 4, (32, 8, 1));
    let read = access(vars(), vec![Expr::Var(0), row()], &ext, 4, (32, 8, 1));
    let decl = "__shared__ float tile[TILE][TILE]";
    let mut arr = array(
        decl,
        &ext,
        4,
        vec![
            site(5, AccessKind::Store, store, &["ty + 8 * k", "tx"], 60),
            site(9, AccessKind::Load, read, &["tx", "ty + 8 * k"], 90),
        ],
    );
    arr.extent_spans = vec![Span::new(22, 26), Span::new(28, 32)];
    let s = suggest(&arr, &BankParams::default()).expect("a fix");
    assert_eq!(s.kind, bankcheck::diag::FixKind::Padding);
    assert_eq!(s.replacement, "__shared__ float tile[TILE][TILE + 1]");
    assert_eq!(s.after[1].before_wavefronts, 32);
    assert!(s.after.iter().all(|a| a.wavefronts == 1));
    let sw = suggest_swizzle(&arr, &BankParams::default()).expect("a swizzle");
    assert!(sw.after.iter().all(|a| a.wavefronts == 1));
    assert_eq!(sw.replacement, "tile[ty + 8 * k][tx ^ ((ty + 8 * k) & 31)]");

    // Through a pointer the padding is no longer safe to apply.
    arr.accesses[1].plain_subscript = false;
    let s = suggest(&arr, &BankParams::default()).expect("a fix");
    assert_eq!(s.applicability, Applicability::Unsafe);
}

/// A 64x64 tile with a 64x4 block (8 warps) and 16 iterations: large enough to show the
/// advisor stays fast, and a 3-D array to show subscripts of every dimension are rendered.
#[test]
fn larger_tiles_and_three_dimensions() {
    let started = std::time::Instant::now();
    let ext = [64u64, 64];
    let vars = || {
        vec![
            var("threadIdx.x", VarKind::Thread(Axis::X)),
            var("threadIdx.y", VarKind::Thread(Axis::Y)),
            var("k", VarKind::Counter { trips: Some(16) }),
        ]
    };
    let row = || {
        bin(
            BinOp::Add,
            Expr::Var(1),
            bin(BinOp::Mul, c(4), Expr::Var(2)),
        )
    };
    let store = access(vars(), vec![row(), Expr::Var(0)], &ext, 4, (64, 4, 1));
    let read = access(vars(), vec![Expr::Var(0), row()], &ext, 4, (64, 4, 1));
    let arr = array(
        "__shared__ float tile[64][64]",
        &ext,
        4,
        vec![
            site(5, AccessKind::Store, store, &["ty + 4 * k", "tx"], 60),
            site(9, AccessKind::Load, read, &["tx", "ty + 4 * k"], 90),
        ],
    );
    let sw = suggest_swizzle(&arr, &BankParams::default()).expect("a swizzle");
    assert!(sw.after.iter().all(|a| a.wavefronts == 1), "{:?}", sw.after);
    assert!(
        started.elapsed().as_secs() < 10,
        "took {:?}",
        started.elapsed()
    );

    // tile[2][32][32]: lane t reads column t of matrix (k & 1), row k / 2.
    let ext3 = [2u64, 32, 32];
    let vars3 = || {
        vec![
            var("threadIdx.x", VarKind::Thread(Axis::X)),
            var("k", VarKind::Counter { trips: Some(64) }),
        ]
    };
    let store3 = access(
        vars3(),
        vec![
            bin(BinOp::And, Expr::Var(1), c(1)),
            bin(BinOp::Shr, Expr::Var(1), c(1)),
            Expr::Var(0),
        ],
        &ext3,
        4,
        (32, 1, 1),
    );
    let read3 = access(
        vars3(),
        vec![
            bin(BinOp::And, Expr::Var(1), c(1)),
            Expr::Var(0),
            bin(BinOp::Shr, Expr::Var(1), c(1)),
        ],
        &ext3,
        4,
        (32, 1, 1),
    );
    let arr3 = array(
        "__shared__ float tile[2][32][32]",
        &ext3,
        4,
        vec![
            site(3, AccessKind::Store, store3, &["k & 1", "k >> 1", "t"], 40),
            site(4, AccessKind::Load, read3, &["k & 1", "t", "k >> 1"], 70),
        ],
    );
    let sw3 = suggest_swizzle(&arr3, &BankParams::default()).expect("a swizzle");
    assert!(
        sw3.after.iter().all(|a| a.wavefronts == 1),
        "{:?}",
        sw3.after
    );
    assert!(
        sw3.replacement.starts_with("tile[k & 1][k >> 1]["),
        "{}",
        sw3.replacement
    );
}

/// Evaluates the rendered subscript formulas numerically (what the emitted C text computes).
fn eval_formulas(f: &[bankcheck::swizzle::render::DimFormula], coords: &[u64]) -> Vec<u64> {
    f.iter()
        .enumerate()
        .map(|(j, d)| {
            let mut v = if d.keeps_self { coords[j] } else { 0 };
            for t in &d.terms {
                let m = coords[t.src] & t.mask;
                v ^= if t.shift >= 0 {
                    m << t.shift
                } else {
                    m >> -t.shift
                };
            }
            v
        })
        .collect()
}

/// Builds a linear coordinate expression: bit `j` of the result is bit `bits[j].1` of
/// variable `bits[j].0`, i.e. `XOR_j ((var >> b) & 1) << j`.
fn bit_expr(bits: &[(usize, u32)]) -> Expr {
    let mut e = c(0);
    for (j, &(var_index, b)) in bits.iter().enumerate() {
        let bit = bin(
            BinOp::And,
            bin(BinOp::Shr, Expr::Var(var_index), c(i64::from(b))),
            c(1),
        );
        e = bin(BinOp::Xor, e, bin(BinOp::Shl, bit, c(j as i64)));
    }
    e
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The subscripts bankcheck prints compute exactly the layout it verified:
    /// row-major(new subscripts) == Q · flatten(coords) for every element.
    #[test]
    fn rendered_subscripts_compute_the_layout(seed in 1u64.., rows_bits in 1u32..5, cols_bits in 1u32..6) {
        let mut rng = Rng(seed);
        let d = rows_bits + cols_bits;
        let mem = MemoryLayout::new(rng.invertible(d)).expect("invertible");
        let ext = [1u64 << rows_bits, 1u64 << cols_bits];
        let f = bankcheck::swizzle::render::formulas(&mem, &ext).expect("formulas");
        let q = mem.offsets().expect("invertible");
        for r in 0..ext[0] {
            for col in 0..ext[1] {
                let flat = bankcheck::swizzle::flatten(&[r, col], &ext).expect("in range");
                let new = eval_formulas(&f, &[r, col]);
                prop_assert!(new[0] < ext[0] && new[1] < ext[1]);
                prop_assert_eq!(new[0] * ext[1] + new[1], q.apply(flat));
            }
        }
    }

    /// Source-level round trip: two random linear accesses (every coordinate bit is one bit
    /// of the lane, warp or loop counter) of a random power-of-two tile. Whenever the current
    /// layout misses the Lemma 9.5 bound, the verified swizzle reaches it on every access.
    #[test]
    fn source_level_pairs_reach_the_bound(seed in 1u64.., bytes_log in 0u32..5, rows_bits in 2u32..6, warps_log in 0u32..3) {
        let mut rng = Rng(seed);
        let bytes = 1u32 << bytes_log;
        let d = 5 + warps_log + 3; // lane + warp + 3 loop bits
        let cols_bits = d.saturating_sub(rows_bits).max(1);
        let rows_bits = d - cols_bits;
        let ext = [1u64 << rows_bits, 1u64 << cols_bits];
        let threads = 32u32 << warps_log;
        let mut sites = Vec::new();
        for (n, kind) in [(0usize, AccessKind::Store), (1, AccessKind::Load)] {
            // Inputs: thread id bits 0..5+warps_log of var 0, loop bits 0..3 of var 1.
            let mut inputs: Vec<(usize, u32)> = (0..5 + warps_log).map(|b| (0usize, b)).chain((0..3).map(|b| (1usize, b))).collect();
            let mut order: Vec<u64> = (0..inputs.len() as u64).collect();
            rng.shuffle(&mut order);
            inputs = order.iter().map(|&i| inputs[i as usize]).collect();
            let row = bit_expr(&inputs[..rows_bits as usize]);
            let col = bit_expr(&inputs[rows_bits as usize..]);
            let vars = vec![var("threadIdx.x", VarKind::Thread(Axis::X)), var("k", VarKind::Counter { trips: Some(8) })];
            let acc = access(vars, vec![row, col], &ext, bytes, (threads, 1, 1));
            sites.push(site(n + 1, kind, acc, &["r", "c"], 100 * (n + 1)));
        }
        let arr = array(&format!("__shared__ T tile[{}][{}]", ext[0], ext[1]), &ext, bytes, sites);
        let params = BankParams::default();
        let before = bankcheck::swizzle::suggest::current(&arr, &params).expect("simulated");
        let g = geom(bytes, false);
        let layouts: Vec<DistributedLayout> =
            arr.accesses.iter().map(|s| bankcheck::swizzle::derive::derive(s, &ext).expect("linear")).collect();
        let bounds: Vec<u64> = layouts.iter().map(|l| lemma95(l, &[], d, &g).per_instruction).collect();
        let misses = before.iter().zip(&bounds).any(|(b, &lb)| b.worst.wavefronts > lb);
        match suggest_swizzle(&arr, &params) {
            Some(s) => {
                for (a, &lb) in s.after.iter().zip(&bounds) {
                    prop_assert_eq!(a.wavefronts, lb, "{:?}", s.after);
                }
            }
            None => prop_assert!(!misses, "no swizzle although {:?} misses {:?}", before, bounds),
        }
    }
}
