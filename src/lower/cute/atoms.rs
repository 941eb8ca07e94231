//! CuTe's copy atoms: the thread-value layouts of the common copy instructions, in bits
//! as CuTe's `Copy_Traits` state them (include/cute/atom/copy_traits.hpp,
//! copy_traits_sm75.hpp, copy_traits_sm80.hpp, copy_traits_sm90.hpp), and what each
//! instruction does to shared memory (docs/bank-model.md, "CuTe copies").
//!
//! `Copy_Atom<Op, T>` holds the layouts recast from bits to elements of `T`
//! (`recast_layout<uint1_t, T>`, CuTe's `upcast` by `sizeof_bits<T>`).

use super::layout::Layout;
use super::text::split_args;
use super::tuple::IntTuple::{self, Int as I, Tuple as T};

/// Which operand of the instruction is in shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    Src,
    Dst,
}

/// A copy atom, its layouts in elements of the value type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CopyAtom {
    /// The operation as spelled (`SM75_U32x4_LDSM_N`), for reports.
    pub(crate) op: String,
    /// `(src-thr, src-val) -> element`.
    pub(crate) src: Layout,
    /// `(dst-thr, dst-val) -> element`.
    pub(crate) dst: Layout,
    /// The reference `(thr, val) -> element` (`src` or `dst`).
    pub(crate) reference: Layout,
    /// The operand the instruction requires in shared memory (`None`: either may be).
    pub(crate) shared: Option<Side>,
    /// The lanes of a warp that give an address (`ldmatrix.x1`: 8), `None` for all.
    pub(crate) lanes: Option<u32>,
    /// Bytes each lane moves per instruction on the `src` and `dst` side.
    pub(crate) bytes: (u32, u32),
}

fn l(shape: IntTuple, stride: IntTuple) -> Option<Layout> {
    Layout::new(shape, stride)
}

/// `Layout<Shape<_1, Int<bits>>>`: one thread moving `bits` contiguous bits.
fn one_thread(bits: i64) -> Option<Layout> {
    l(T(vec![I(1), I(bits)]), T(vec![I(1), I(1)]))
}

/// `ldmatrix` source layouts (`SM75_U32x{1,2,4}_LDSM_N`): `n` lanes give row addresses.
fn ldsm_src(n: i64) -> Option<Layout> {
    if n == 32 {
        return l(T(vec![I(32), I(128)]), T(vec![I(128), I(1)]));
    }
    l(
        T(vec![T(vec![I(n), I(32 / n)]), I(128)]),
        T(vec![T(vec![I(128), I(0)]), I(1)]),
    )
}

/// `SM75_U32x{1,2,4}_LDSM_N` destination layouts (registers).
fn ldsm_n_dst(matrices: i64) -> Option<Layout> {
    if matrices == 1 {
        return l(T(vec![I(32), I(32)]), T(vec![I(32), I(1)]));
    }
    l(
        T(vec![I(32), T(vec![I(32), I(matrices)])]),
        T(vec![I(32), T(vec![I(1), I(1024)])]),
    )
}

/// `SM75_U16x{2,4,8}_LDSM_T` destination layouts (registers).
fn ldsm_t_dst(matrices: i64) -> Option<Layout> {
    let mut shape = vec![I(16), I(2)];
    let mut stride = vec![I(1), I(128)];
    if matrices > 1 {
        shape.push(I(matrices));
        stride.push(I(1024));
    }
    l(
        T(vec![T(vec![I(4), I(8)]), T(shape)]),
        T(vec![T(vec![I(256), I(16)]), T(stride)]),
    )
}

/// The size in bits of a register type an atom is parameterised by (`uint128_t`).
pub(crate) fn register_bits(ty: &str) -> Option<i64> {
    let t = ty
        .trim()
        .trim_start_matches("cute::")
        .trim_start_matches("std::");
    Some(match t {
        "uint128_t" | "cute::uint128_t" => 128,
        "uint64_t" | "int64_t" | "double" => 64,
        "uint32_t" | "int32_t" | "float" | "uint" | "unsigned" | "int" => 32,
        "uint16_t" | "int16_t" | "half_t" | "half" | "__half" | "bfloat16_t" => 16,
        "uint8_t" | "int8_t" => 8,
        _ => return None,
    })
}

/// The atom an operation spells, its layouts still in bits; `op_bits` gives the size of
/// a template argument of the operation. `Err` says why an operation is not modelled.
pub(crate) fn atom_in_bits(
    op: &str,
    op_bits: &mut dyn FnMut(&str) -> Option<i64>,
) -> Result<CopyAtom, String> {
    let op = op.trim().trim_start_matches("cute::").trim();
    let (name, args) = match op.find('<') {
        Some(i) if op.ends_with('>') => (&op[..i], Some(&op[i + 1..op.len() - 1])),
        _ => (op, None),
    };
    let name = name.trim();
    let unknown = || format!("the copy operation `{op}` is not one bankcheck models");
    let lanes_of = |n: i64| (n < 32).then_some(n as u32);
    let (src, dst, reference, shared, lanes) = match name {
        "UniversalCopy"
        | "SM80_CP_ASYNC_CACHEALWAYS"
        | "SM80_CP_ASYNC_CACHEGLOBAL"
        | "SM80_CP_ASYNC_CACHEALWAYS_ZFILL"
        | "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL" => {
            let parts: Vec<&str> = args.map(split_args).unwrap_or_default();
            let s = parts.first().and_then(|p| op_bits(p)).ok_or_else(unknown)?;
            let d = match parts.get(1) {
                Some(p) => op_bits(p).ok_or_else(unknown)?,
                None => s,
            };
            let src = one_thread(s).ok_or_else(unknown)?;
            let shared = (name != "UniversalCopy").then_some(Side::Dst);
            (
                src.clone(),
                one_thread(d).ok_or_else(unknown)?,
                src,
                shared,
                None,
            )
        }
        "SM75_U32x1_LDSM_N" | "SM75_U32x2_LDSM_N" | "SM75_U32x4_LDSM_N" => {
            let m = matrices(name);
            let dst = ldsm_n_dst(m).ok_or_else(unknown)?;
            let src = ldsm_src(8 * m).ok_or_else(unknown)?;
            (src, dst.clone(), dst, Some(Side::Src), lanes_of(8 * m))
        }
        "SM75_U16x2_LDSM_T" | "SM75_U16x4_LDSM_T" | "SM75_U16x8_LDSM_T" => {
            let m = matrices(name) / 2;
            let dst = ldsm_t_dst(m).ok_or_else(unknown)?;
            let src = ldsm_src(8 * m).ok_or_else(unknown)?;
            (src, dst.clone(), dst, Some(Side::Src), lanes_of(8 * m))
        }
        "SM90_U32x1_STSM_N" | "SM90_U32x2_STSM_N" | "SM90_U32x4_STSM_N" => {
            let m = matrices(name);
            let src = ldsm_n_dst(m).ok_or_else(unknown)?;
            let dst = ldsm_src(8 * m).ok_or_else(unknown)?;
            (src.clone(), dst, src, Some(Side::Dst), lanes_of(8 * m))
        }
        "SM90_U16x2_STSM_T" | "SM90_U16x4_STSM_T" | "SM90_U16x8_STSM_T" => {
            let m = matrices(name) / 2;
            let src = ldsm_t_dst(m).ok_or_else(unknown)?;
            let dst = ldsm_src(8 * m).ok_or_else(unknown)?;
            (src.clone(), dst, src, Some(Side::Dst), lanes_of(8 * m))
        }
        _ => return Err(unknown()),
    };
    let bytes = |x: &Layout| {
        x.mode(1)
            .and_then(|v| v.size())
            .and_then(|b| u32::try_from(b / 8).ok())
            .unwrap_or(0)
    };
    Ok(CopyAtom {
        op: op.to_string(),
        bytes: (bytes(&src), bytes(&dst)),
        src,
        dst,
        reference,
        shared,
        lanes,
    })
}

/// The `N` of `UxN` in an `ldmatrix`/`stmatrix` operation's name.
fn matrices(name: &str) -> i64 {
    let digit = name
        .split('x')
        .nth(1)
        .and_then(|r| r.chars().next())
        .and_then(|c| c.to_digit(10));
    i64::from(digit.unwrap_or(0))
}

/// The atom recast from bits to elements of `bits` bits (`recast_layout<uint1_t, T>`).
pub(crate) fn in_elements(atom: CopyAtom, bits: i64) -> Option<CopyAtom> {
    Some(CopyAtom {
        src: upcast(&atom.src, bits)?,
        dst: upcast(&atom.dst, bits)?,
        reference: upcast(&atom.reference, bits)?,
        ..atom
    })
}

/// CuTe's `upcast<n>(layout)`, leaf by leaf: a stride of 0 is kept; otherwise the stride
/// and `n` must divide one another (CuTe's static assertion, here `None`), the shape
/// becomes `ceil_div(shape, ceil_div(n, |stride|))` and the stride
/// `signum(stride) * ceil_div(|stride|, n)`.
pub(crate) fn upcast(layout: &Layout, n: i64) -> Option<Layout> {
    fn leaf(s: &IntTuple, d: &IntTuple, n: i64) -> Option<(IntTuple, IntTuple)> {
        match (s, d) {
            (I(s), I(0)) => Some((I(*s), I(0))),
            (I(s), I(d)) => {
                let a = d.abs();
                if a % n != 0 && n % a != 0 {
                    return None;
                }
                let div = |x: i64, y: i64| (x + y - 1) / y;
                Some((I(div(*s, div(n, a))), I(d.signum() * div(a, n))))
            }
            (T(ss), T(ds)) if ss.len() == ds.len() => {
                let (a, b): (Vec<_>, Vec<_>) = ss
                    .iter()
                    .zip(ds)
                    .map(|(s, d)| leaf(s, d, n))
                    .collect::<Option<Vec<_>>>()?
                    .into_iter()
                    .unzip();
                Some((T(a), T(b)))
            }
            _ => None,
        }
    }
    if n <= 0 {
        return None;
    }
    let (s, d) = leaf(&layout.shape, &layout.stride, n)?;
    Layout::new(s, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(t: &str) -> Option<i64> {
        register_bits(t)
    }

    #[test]
    fn ldsm_layouts_in_halves_are_row_addresses() {
        let a = atom_in_bits("SM75_U32x4_LDSM_N", &mut bits).unwrap();
        let a = in_elements(a, 16).unwrap();
        // (32,128):(128,1) bits -> (32,8):(8,1) halves: lane t's row starts at 8t.
        assert_eq!(a.src.to_string(), "(32,8):(8,1)");
        assert_eq!(a.dst.to_string(), "(32,(2,4)):(2,(1,64))");
        assert_eq!(a.bytes, (16, 16));
        let x1 = atom_in_bits("SM75_U32x1_LDSM_N", &mut bits).unwrap();
        assert_eq!(x1.lanes, Some(8));
        assert_eq!(
            in_elements(x1, 16).unwrap().src.to_string(),
            "((8,4),8):((8,0),1)"
        );
    }

    #[test]
    fn cp_async_moves_its_register_type() {
        let a = atom_in_bits("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", &mut bits).unwrap();
        let a = in_elements(a, 16).unwrap();
        assert_eq!(a.dst.to_string(), "(1,8):(1,1)");
        assert_eq!(a.shared, Some(Side::Dst));
        assert_eq!(a.bytes, (16, 16));
        assert!(atom_in_bits("SM90_TMA_LOAD", &mut bits).is_err());
    }

    #[test]
    fn stsm_t_mirrors_ldsm_t() {
        // copy_traits_sm90.hpp: Src is LDSM_T's Dst, Dst its Src, Ref the Src.
        for (st, ld) in [
            ("SM90_U16x2_STSM_T", "SM75_U16x2_LDSM_T"),
            ("SM90_U16x4_STSM_T", "SM75_U16x4_LDSM_T"),
            ("SM90_U16x8_STSM_T", "SM75_U16x8_LDSM_T"),
        ] {
            let s = atom_in_bits(st, &mut bits).unwrap();
            let l = atom_in_bits(ld, &mut bits).unwrap();
            assert_eq!((&s.src, &s.dst, &s.reference), (&l.dst, &l.src, &l.dst));
            assert_eq!(
                (s.shared, s.lanes, s.bytes),
                (Some(Side::Dst), l.lanes, (l.bytes.1, l.bytes.0))
            );
        }
    }
}
