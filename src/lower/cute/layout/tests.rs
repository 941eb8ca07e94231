//! The algebra on CuTe's own examples and on small cases worked by hand; the expected
//! layouts agree with `pycute` (CUTLASS's `python/pycute`), and `tile_to_shape` with
//! its C++ definition in include/cute/layout.hpp.

use super::*;

/// Reads CuTe's notation, `(8,(2,4)):(1,(8,16))`.
fn lay(text: &str) -> Layout {
    // The colon between shape and stride is the only one outside brackets.
    let mut depth = 0;
    let colon = text
        .bytes()
        .position(|c| {
            depth += i32::from(c == b'(') - i32::from(c == b')');
            c == b':' && depth == 0
        })
        .unwrap();
    let (s, d) = (&text[..colon], &text[colon + 1..]);
    Layout::new(tup(s), tup(d)).unwrap()
}

fn tup(text: &str) -> IntTuple {
    fn read(b: &[u8], i: &mut usize) -> IntTuple {
        if b[*i] == b'(' {
            *i += 1;
            let mut v = Vec::new();
            loop {
                v.push(read(b, i));
                let c = b[*i];
                *i += 1;
                if c == b')' {
                    return IntTuple::Tuple(v);
                }
            }
        }
        let start = *i;
        while *i < b.len() && (b[*i].is_ascii_digit() || b[*i] == b'-') {
            *i += 1;
        }
        IntTuple::Int(std::str::from_utf8(&b[start..*i]).unwrap().parse().unwrap())
    }
    read(text.as_bytes(), &mut 0)
}

fn modes(ls: &[&str]) -> Tiler {
    Tiler::Modes(ls.iter().map(|l| Tiler::Layout(lay(l))).collect())
}

#[test]
fn notation_reads_back() {
    let l = lay("((8,16),(64,1)):((64,512),(1,8192))");
    assert_eq!(l.to_string(), "((8,16),(64,1)):((64,512),(1,8192))");
    assert_eq!(lay("12:1").to_string(), "12:1");
}

#[test]
fn coalesce_merges_contiguous_modes() {
    // 2:1 then 6:2 continue each other: 12:1. (4,8):(8,1) does not merge (4*8 != 1).
    assert_eq!(coalesce(&lay("(2,(1,6)):(1,(6,2))")).to_string(), "12:1");
    assert_eq!(coalesce(&lay("(4,8):(8,1)")).to_string(), "(4,8):(8,1)");
}

#[test]
fn composition_matches_cute() {
    // CuTe's documentation examples.
    let c = composition(&lay("(6,2):(8,2)"), &lay("(4,3):(3,1)")).unwrap();
    assert_eq!(c.to_string(), "((2,2),3):((24,2),8)");
    let c = composition(&lay("(10,2):(16,4)"), &lay("(5,4):(1,5)")).unwrap();
    assert_eq!(c.to_string(), "(5,(2,2)):(16,(80,4))");
    // Strides that do not divide are a static assertion in CuTe (stride 4 neither
    // divides 3 nor is below it).
    assert_eq!(composition(&lay("(3,2):(1,7)"), &lay("4:4")), None);
    // CuTe's weak condition accepts a stride below the extent without dividing it, and
    // its result is then not function composition: bankcheck computes what CuTe does.
    assert_eq!(
        composition(&lay("(6,2):(1,7)"), &lay("4:4"))
            .unwrap()
            .to_string(),
        "(2,2):(4,7)"
    );
}

#[test]
fn composition_is_function_composition() {
    let a = lay("(6,2):(8,2)");
    let b = lay("(4,3):(3,1)");
    let c = composition(&a, &b).unwrap();
    for i in 0..12 {
        assert_eq!(c.at(i), a.at(b.at(i).unwrap()), "at {i}");
    }
}

#[test]
fn complement_and_divide() {
    assert_eq!(
        complement(&lay("4:2"), 24).unwrap().to_string(),
        "(2,3):(1,8)"
    );
    assert_eq!(
        complement(&lay("(2,4):(1,6)"), 32).unwrap().to_string(),
        "(3,2):(2,24)"
    );
    let d = logical_divide(&lay("(4,2,3):(2,1,8)"), &Tiler::Layout(lay("4:2"))).unwrap();
    assert_eq!(d.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    let z = zipped_divide(
        &lay("(9,(4,8)):(59,(13,1))"),
        &modes(&["3:3", "(2,4):(1,8)"]),
    )
    .unwrap();
    assert_eq!(
        z.to_string(),
        "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))"
    );
    // A 128x64 row-major tile cut into 16x64 tiles: mode 0 a tile, mode 1 which tile.
    let z = zipped_divide(&lay("(128,64):(64,1)"), &modes(&["16:1", "64:1"])).unwrap();
    assert_eq!(z.to_string(), "((16,64),(8,1)):((64,1),(1024,0))");
}

#[test]
fn products_and_tile_to_shape() {
    let p = logical_product(&lay("(2,2):(4,1)"), &lay("6:1")).unwrap();
    assert_eq!(p.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    let b = blocked_product(&lay("(2,5):(5,1)"), &lay("(3,4):(1,3)")).unwrap();
    assert_eq!(b.to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    // flash-attention's SmemLayoutQ for kBlockM = 128, kHeadDim = 64: the 8x64 atom
    // repeated down the rows is the 128x64 row-major tile, offset 64 r + c.
    let q = tile_to_shape(&lay("(8,64):(64,1)"), &tup("(128,64)"), false).unwrap();
    assert_eq!(q.to_string(), "((8,16),(64,1)):((64,512),(1,8192))");
    for (i, want) in [
        (0, 0),
        (1, 64),
        (7, 448),
        (8, 512),
        (127, 8128),
        (128, 1),
        (8191, 8191),
    ] {
        assert_eq!(q.at(i), Some(want), "at {i}");
    }
    // An 8x32 atom over 64x128: copies ordered column-major, then row-major.
    let t = tile_to_shape(&lay("(8,32):(32,1)"), &tup("(64,128)"), false).unwrap();
    assert_eq!(t.to_string(), "((8,8),(32,4)):((32,256),(1,2048))");
    let t = tile_to_shape(&lay("(8,32):(32,1)"), &tup("(64,128)"), true).unwrap();
    assert_eq!(t.to_string(), "((8,8),(32,4)):((32,1024),(1,256))");
    // A target the block does not divide is a static assertion.
    assert_eq!(
        tile_to_shape(&lay("(8,64):(64,1)"), &tup("(100,64)"), false),
        None
    );
}

#[test]
fn right_inverse_inverts() {
    let l = lay("(4,8):(8,1)");
    let r = right_inverse(&l).unwrap();
    assert_eq!(r.to_string(), "(8,4):(4,1)");
    for i in 0..32 {
        assert_eq!(l.at(r.at(i).unwrap()), Some(i));
    }
}

mod properties {
    //! The algebra's defining equations on random layouts: composition is function
    //! composition, the complement fills the gaps, divides and `tile_to_shape` keep the
    //! offsets of what they rearrange.

    use super::*;
    use proptest::prelude::*;

    /// A flat layout of 1 to 3 modes, extents 1 to 8, strides 0 to 16.
    fn layout() -> impl Strategy<Value = Layout> {
        prop::collection::vec((1i64..=8, 0i64..=16), 1..=3).prop_map(|modes| {
            let (s, d): (Vec<_>, Vec<_>) = modes
                .into_iter()
                .map(|(s, d)| (IntTuple::Int(s), IntTuple::Int(d)))
                .unzip();
            Layout::new(IntTuple::Tuple(s), IntTuple::Tuple(d)).unwrap()
        })
    }

    /// A flat layout of power-of-two extents and strides (or stride 0), where CuTe's
    /// divisibility conditions hold in their strong form and composition is exact.
    fn pow2_layout() -> impl Strategy<Value = Layout> {
        prop::collection::vec((0u32..=3, 0u32..=5), 1..=3).prop_map(|modes| {
            let (s, d): (Vec<_>, Vec<_>) = modes
                .into_iter()
                .map(|(s, d)| {
                    (
                        IntTuple::Int(1 << s),
                        IntTuple::Int(if d == 5 { 0 } else { 1 << d }),
                    )
                })
                .unzip();
            Layout::new(IntTuple::Tuple(s), IntTuple::Tuple(d)).unwrap()
        })
    }

    /// A compact layout (a bijection onto `[0, size)`), row- or column-major, of
    /// power-of-two extents (where CuTe's divisibility conditions hold).
    fn compact_layout() -> impl Strategy<Value = Layout> {
        (prop::collection::vec(0u32..=3, 1..=3), any::<bool>()).prop_map(|(s, row)| {
            let shape = IntTuple::Tuple(s.into_iter().map(|e| IntTuple::Int(1 << e)).collect());
            Layout::compact(shape, row).unwrap()
        })
    }

    fn offsets(l: &Layout) -> Vec<i64> {
        let mut v: Vec<i64> = (0..l.size().unwrap()).map(|i| l.at(i).unwrap()).collect();
        v.sort_unstable();
        v
    }

    proptest! {
        #[test]
        fn composition_composes(a in pow2_layout(), b in compact_layout()) {
            // Within `a`'s domain (past it, CuTe's extension of `a` is its coalesced form's),
            // `b`'s modes at disjoint bits so that composing mode by mode adds no carries.
            let image_in_domain = (0..b.size().unwrap()).all(|i| b.at(i).unwrap() < a.size().unwrap());
            if let (true, Some(c)) = (image_in_domain, composition(&a, &b)) {
                prop_assert_eq!(c.size(), b.size());
                for i in 0..b.size().unwrap() {
                    prop_assert_eq!(c.at(i), a.at(b.at(i).unwrap()), "at {}", i);
                }
            }
        }

        #[test]
        fn coalesce_keeps_the_function(a in layout()) {
            let c = coalesce(&a);
            for i in 0..a.size().unwrap() {
                prop_assert_eq!(c.at(i), a.at(i));
            }
        }

        #[test]
        fn complement_completes_an_injective_layout(a in compact_layout(), k in 1i64..=4) {
            // `a` scaled into a larger space: `(a, complement)` covers it exactly once.
            let size = a.size().unwrap();
            let c = complement(&a, size * k).unwrap();
            let both = Layout::concat(vec![a, c]);
            prop_assert_eq!(offsets(&both), (0..size * k).collect::<Vec<_>>());
        }

        #[test]
        fn divide_and_tile_keep_the_offsets(a in compact_layout(), n in 0u32..=3, m in 1i64..=3) {
            // Dividing by a tile whose size divides the layout's rearranges its offsets.
            let size = a.size().unwrap();
            let n = 1i64 << n;
            if size % n == 0 {
                let d = logical_divide(&a, &Tiler::Layout(Layout::vector(n).unwrap())).unwrap();
                prop_assert_eq!(offsets(&d), offsets(&a));
                let z = zipped_divide(&a, &Tiler::Layout(Layout::vector(n).unwrap())).unwrap();
                prop_assert_eq!(offsets(&z), offsets(&a));
            }
            // Tiling a compact block m times along its first mode: m copies side by side.
            let target = IntTuple::Tuple(
                a.modes()
                    .iter()
                    .enumerate()
                    .map(|(i, md)| IntTuple::Int(md.size().unwrap() * if i == 0 { m } else { 1 }))
                    .collect(),
            );
            let t = tile_to_shape(&a, &target, false).unwrap();
            prop_assert_eq!(offsets(&t), (0..size * m).collect::<Vec<_>>());
        }
    }
}
