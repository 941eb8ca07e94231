//! A layout's offset function at coordinates that depend on the thread, as index IR:
//! CuTe's `crd2idx` (a coordinate split column-major over a mode's nested shape with `/`
//! and `%` by the sub-shapes' sizes, the last sub-mode taking the rest) and the swizzle's
//! XOR and shifts, which the analyses follow exactly (docs/bank-model.md, "CuTe layouts").

use super::layout::Layout;
use super::swizzle::{Swizzle, SwizzledLayout};
use super::tuple::IntTuple;
use crate::lower::fold::fold;
use crate::model::ir::{BinOp, Expr as Ir};

/// `crd2idx(crd, shape, stride)` for a one-dimensional coordinate `crd`.
pub(crate) fn crd2idx(crd: &Ir, shape: &IntTuple, stride: &IntTuple) -> Option<Ir> {
    match (shape, stride) {
        (IntTuple::Int(s), IntTuple::Int(d)) => Some(if *s == 1 || *d == 0 {
            // A mode of one element contributes nothing in bounds (CuTe's `crd2idx`
            // multiplies, but its coordinate is 0 there); nor does a stride of 0.
            Ir::Const(0)
        } else {
            fold(BinOp::Mul, crd.clone(), Ir::Const(*d))
        }),
        (IntTuple::Tuple(s), IntTuple::Tuple(d)) if s.len() == d.len() => {
            let mut crd = crd.clone();
            let mut result = Ir::Const(0);
            for (i, (si, di)) in s.iter().zip(d).enumerate() {
                let term = if i + 1 == s.len() {
                    crd2idx(&crd, si, di)?
                } else {
                    let p = si.product()?;
                    if p == 1 {
                        continue;
                    }
                    let here = crd2idx(&fold(BinOp::Rem, crd.clone(), Ir::Const(p)), si, di)?;
                    crd = fold(BinOp::Div, crd, Ir::Const(p));
                    here
                };
                result = fold(BinOp::Add, result, term);
            }
            Some(result)
        }
        _ => None,
    }
}

/// The offset of `layout` at `crds`: one coordinate per top-level mode, or a single
/// one-dimensional coordinate over the whole layout.
pub(crate) fn at(layout: &Layout, crds: &[Ir]) -> Option<Ir> {
    if crds.len() == 1 {
        return crd2idx(&crds[0], &layout.shape, &layout.stride);
    }
    if crds.len() != layout.rank() {
        return None;
    }
    let mut result = Ir::Const(0);
    for (i, c) in crds.iter().enumerate() {
        let m = layout.mode(i)?;
        result = fold(BinOp::Add, result, crd2idx(c, &m.shape, &m.stride)?);
    }
    Some(result)
}

/// The swizzle applied to `o`: `o ^ ((o & read_mask) >> S)` (`<< -S` for a negative `S`).
pub(crate) fn swizzle(s: Swizzle, o: Ir) -> Ir {
    if s.bits == 0 {
        return o;
    }
    let picked = fold(BinOp::And, o.clone(), Ir::Const(s.read_mask()));
    let moved = if s.shift >= 0 {
        fold(BinOp::Shr, picked, Ir::Const(i64::from(s.shift)))
    } else {
        fold(BinOp::Shl, picked, Ir::Const(i64::from(-s.shift)))
    };
    fold(BinOp::Xor, o, moved)
}

/// The element offset of a swizzled layout at `crds`, after the dynamic offset `inner`
/// that slicing added inside the swizzle.
pub(crate) fn swizzled_at(l: &SwizzledLayout, inner: &Ir, crds: &[Ir]) -> Option<Ir> {
    let o = fold(
        BinOp::Add,
        fold(BinOp::Add, Ir::Const(l.offset), inner.clone()),
        at(&l.layout, crds)?,
    );
    Some(match l.swizzle {
        Some(s) => swizzle(s, o),
        None => o,
    })
}

/// The coordinate, one per top-level mode, at which `layout` takes the value `idx`
/// (CuTe's `get_flat_coord`: `idx2crd` by the strides, each mode's coordinate then made
/// one-dimensional column-major).
pub(crate) fn flat_coord(layout: &Layout, idx: &Ir) -> Option<Vec<Ir>> {
    layout
        .modes()
        .iter()
        .map(|m| {
            let mut c = Ir::Const(0);
            let mut scale = 1i64;
            for (s, d) in m.shape.flatten().into_iter().zip(m.stride.flatten()) {
                if s != 1 {
                    let part = fold(
                        BinOp::Rem,
                        fold(BinOp::Div, idx.clone(), Ir::Const(d)),
                        Ir::Const(s),
                    );
                    c = fold(BinOp::Add, c, fold(BinOp::Mul, part, Ir::Const(scale)));
                }
                scale = scale.checked_mul(s)?;
            }
            Some(c)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::tuple::IntTuple::{Int as I, Tuple as T};
    use super::*;

    /// Evaluates `ir` with variable 0 set to `v`.
    fn eval(ir: &Ir, v: i64) -> i64 {
        ir.eval(&[v]).unwrap()
    }

    #[test]
    fn lowered_offsets_equal_the_layout() {
        // The tile_to_shape result of flash-attention's Q tile, and a column-major one.
        let q = Layout::new(
            T(vec![T(vec![I(8), I(16)]), T(vec![I(64), I(1)])]),
            T(vec![T(vec![I(64), I(512)]), T(vec![I(1), I(8192)])]),
        )
        .unwrap();
        let ir = at(&q, &[Ir::Var(0)]).unwrap();
        for i in 0..8192 {
            assert_eq!(eval(&ir, i), q.at(i).unwrap(), "at {i}");
        }
        // Two coordinates: row r = var, column 5.
        let ir = at(&q, &[Ir::Var(0), Ir::Const(5)]).unwrap();
        for r in 0..128 {
            assert_eq!(eval(&ir, r), 64 * r + 5);
        }
    }

    #[test]
    fn swizzled_offsets_equal_the_swizzle() {
        let s = Swizzle::new(3, 3, 3).unwrap();
        let l = SwizzledLayout {
            swizzle: Some(s),
            offset: 0,
            layout: Layout::compact(T(vec![I(8), I(64)]), true).unwrap(),
        };
        let ir = swizzled_at(&l, &Ir::Const(0), &[Ir::Var(0)]).unwrap();
        for i in 0..512 {
            assert_eq!(eval(&ir, i), l.at(i).unwrap(), "at {i}");
        }
    }

    #[test]
    fn flat_coord_inverts_the_thread_layout() {
        // Threads laid out (4,8):(8,1), row-major: thread t at row t/8, column t%8.
        let thr = Layout::new(T(vec![I(4), I(8)]), T(vec![I(8), I(1)])).unwrap();
        let c = flat_coord(&thr, &Ir::Var(0)).unwrap();
        for t in 0..32 {
            assert_eq!((eval(&c[0], t), eval(&c[1], t)), (t / 8, t % 8));
        }
    }

    proptest::proptest! {
        /// The lowered offset function equals the layout's, swizzled or not, at every
        /// coordinate of random nested layouts.
        #[test]
        fn lowered_equals_evaluated(
            modes in proptest::collection::vec((1i64..=6, 0i64..=40, 1i64..=4, 0i64..=40), 1..=3),
            swz in proptest::option::of((0i64..=3, 0i64..=4, 3i64..=5)),
        ) {
            // Each mode (s, d) or, when split, ((s, s2), (d, d2)).
            let (shape, stride): (Vec<_>, Vec<_>) = modes
                .iter()
                .map(|&(s, d, s2, d2)| if s2 == 1 {
                    (I(s), I(d))
                } else {
                    (T(vec![I(s), I(s2)]), T(vec![I(d), I(d2)]))
                })
                .unzip();
            let l = SwizzledLayout {
                swizzle: swz.and_then(|(b, m, sh)| Swizzle::new(b, m, sh)),
                offset: 0,
                layout: Layout::new(T(shape), T(stride)).unwrap(),
            };
            let ir = swizzled_at(&l, &Ir::Const(0), &[Ir::Var(0)]).unwrap();
            for i in 0..l.layout.size().unwrap() {
                proptest::prop_assert_eq!(Some(eval(&ir, i)), l.at(i), "at {}", i);
            }
        }
    }
}
