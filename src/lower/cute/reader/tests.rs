//! The reader on the spellings flash-attention and CUTLASS write, with names resolved
//! by a table standing in for the interpreter.

use super::*;
use std::collections::HashMap;

/// Integer constants and aliases by name; an alias's text is read again.
struct Table {
    ints: HashMap<&'static str, i64>,
    aliases: HashMap<&'static str, &'static str>,
}

impl Names for Table {
    fn int(&mut self, text: &str) -> Option<i64> {
        self.ints.get(text.trim()).copied()
    }
    fn named(&mut self, name: &str) -> Option<Result<Value, String>> {
        let text = *self.aliases.get(name)?;
        Some(read(text, self))
    }
}

fn table() -> Table {
    Table {
        ints: [
            ("kBlockM", 128),
            ("kHeadDim", 64),
            ("kBlockKSmem", 64),
            ("kSwizzle", 3),
        ]
        .into_iter()
        .collect(),
        aliases: [
            (
                "SmemLayoutAtomQ",
                "decltype(composition(Swizzle<kSwizzle, 3, 3>{},
                    // This has to be kBlockKSmem, using kHeadDim gives wrong results
                    Layout<Shape<_8, Int<kBlockKSmem>>, /* rows */ Stride<Int<kBlockKSmem>, _1>>{}))",
            ),
            (
                "Kernel_traits::SmemLayoutQ",
                "decltype(tile_to_shape(SmemLayoutAtomQ{}, Shape<Int<kBlockM>, Int<kHeadDim>>{}))",
            ),
        ]
        .into_iter()
        .collect(),
    }
}

fn layout_of(text: &str) -> SwizzledLayout {
    match read(text, &mut table()) {
        Ok(Value::Layout(l)) => l,
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn static_integers() {
    let mut t = table();
    for (text, v) in [
        ("_8", 8),
        ("Int<64>{}", 64),
        ("cute::Int<kBlockM>{}", 128),
        ("C<4>", 4),
        ("16", 16),
    ] {
        assert_eq!(read(text, &mut t), Ok(Value::Int(v)), "{text}");
    }
}

#[test]
fn layouts_as_written() {
    assert_eq!(
        layout_of("Layout<Shape<_8, Int<64>>, Stride<Int<64>, _1>>{}").to_string(),
        "(8,64):(64,1)"
    );
    // A shape alone is column-major; `GenRowMajor` makes it row-major.
    assert_eq!(
        layout_of("Layout<Shape<_4, _8>>").to_string(),
        "(4,8):(1,4)"
    );
    assert_eq!(
        layout_of("make_layout(make_shape(Int<4>{}, Int<8>{}), GenRowMajor{})").to_string(),
        "(4,8):(8,1)"
    );
    assert_eq!(
        layout_of("make_layout(make_shape(_4{}, _8{}), make_stride(_1{}, _4{}))").to_string(),
        "(4,8):(1,4)"
    );
}

#[test]
fn flash_attention_q_layout() {
    // Flash_fwd_kernel_traits with kBlockM = 128, kHeadDim = 64: an 8x64 atom swizzled
    // by Swizzle<3,3,3>, tiled down the rows.
    let atom = layout_of("SmemLayoutAtomQ");
    assert_eq!(atom.to_string(), "Swizzle<3,3,3> o (8,64):(64,1)");
    let q = layout_of("typename Kernel_traits::SmemLayoutQ{}");
    assert_eq!(
        q.to_string(),
        "Swizzle<3,3,3> o ((8,16),(64,1)):((64,512),(1,8192))"
    );
    // Row 1, column 0 (offset 64) is swizzled to 72: its 16-byte chunk moves by one.
    assert_eq!(q.at(1), Some(72));
}

#[test]
fn unknown_spellings_say_why() {
    let mut t = table();
    assert!(read("Layout<Shape<_8, Int<kUnknown>>>{}", &mut t)
        .unwrap_err()
        .contains("kUnknown"));
    assert!(read("raked_product(A{}, B{})", &mut t).is_err());
    // Swizzle<3,0,2> breaks CuTe's |S| >= B.
    assert!(read("Swizzle<3,0,2>{}", &mut t).is_err());
}
