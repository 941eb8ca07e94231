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
    // Strides that do not divide are a static assertion in CuTe.
    assert_eq!(composition(&lay("(6,2):(1,7)"), &lay("4:4")), None);
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
