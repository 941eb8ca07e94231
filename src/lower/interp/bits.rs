//! Bit intrinsics whose result rearranges their operands' bits in a fixed way: CUDA
//! `__brev` and HLSL `reversebits`, `__byte_perm` with a constant selector, and the funnel
//! shifts by a constant. They are written as shifts and masks of the index IR, so every
//! analysis follows them exactly (a bit permutation is linear over F2; enumeration
//! evaluates it) instead of calling their result data. FFT kernels index shared memory by
//! bit-reversed thread ids.

use super::{fold, int, Interp, Value};
use crate::extract::ast::Expr;
use crate::model::ir::{BinOp, Expr as Ir};

/// The low 32 bits: these intrinsics work on 32-bit words.
const LOW32: i64 = 0xFFFF_FFFF;

impl Interp<'_> {
    /// The value of a bit intrinsic call; `None` for another name, or a form that is not
    /// a fixed rearrangement (a selector or shift that is not a constant, `__byte_perm`'s
    /// sign-replicating selectors), which the caller treats as any other call.
    pub(super) fn bit_intrinsic(&mut self, short: &str, args: &[Expr]) -> Option<Value> {
        match short {
            "__brev" | "reversebits" if args.len() == 1 => {
                let v = self.eval(&args[0]);
                Some(self.word_op(short, &[v], |w| reverse32(w[0].clone())))
            }
            "__byte_perm" if args.len() == 3 => {
                let selector = self.const_eval(&args[2])?;
                let nibbles: Vec<i64> = (0..4).map(|i| (selector >> (4 * i)) & 0xF).collect();
                if nibbles.iter().any(|n| n & 8 != 0) {
                    return None;
                }
                let x = self.eval(&args[0]);
                let y = self.eval(&args[1]);
                Some(self.word_op(short, &[x, y], |w| byte_perm(&w[0], &w[1], &nibbles)))
            }
            "__funnelshift_l" | "__funnelshift_lc" | "__funnelshift_r" | "__funnelshift_rc"
                if args.len() == 3 =>
            {
                let shift = self.const_eval(&args[2])? & LOW32;
                // `_lc`/`_rc` clamp the shift to 32; the others take it modulo 32.
                let n = if short.ends_with('c') {
                    shift.min(32)
                } else {
                    shift & 31
                };
                let lo = self.eval(&args[0]);
                let hi = self.eval(&args[1]);
                let left = short.starts_with("__funnelshift_l");
                Some(self.word_op(short, &[lo, hi], |w| funnel(&w[0], &w[1], n, left)))
            }
            _ => None,
        }
    }

    /// `f` over the operands' low 32 bits when every operand is an integer in the index IR,
    /// else data.
    fn word_op(&self, short: &str, values: &[Value], f: impl Fn(&[Ir]) -> Ir) -> Value {
        let words: Option<Vec<Ir>> = values
            .iter()
            .map(|v| match v {
                Value::Int(x) => Some(fold(BinOp::And, x.clone(), int(LOW32))),
                _ => None,
            })
            .collect();
        match words {
            Some(w) => Value::Int(f(&w)),
            None => Value::Data(format!("the result of `{short}()`")),
        }
    }
}

/// The 32-bit word `w` (already masked) with its bits in reverse order: five swaps, of
/// neighbouring bits, pairs, nibbles, bytes and halves.
fn reverse32(w: Ir) -> Ir {
    let mut v = w;
    for (shift, mask) in [
        (1, 0x5555_5555),
        (2, 0x3333_3333),
        (4, 0x0F0F_0F0F),
        (8, 0x00FF_00FF),
        (16, 0x0000_FFFF),
    ] {
        let low = fold(
            BinOp::Shl,
            fold(BinOp::And, v.clone(), int(mask)),
            int(shift),
        );
        let high = fold(BinOp::And, fold(BinOp::Shr, v, int(shift)), int(mask));
        v = fold(BinOp::Or, low, high);
    }
    v
}

/// `__byte_perm(x, y, s)`: byte `i` of the result is byte `s[i]` of the eight bytes of
/// `y:x` (nibble values 0 to 7).
fn byte_perm(x: &Ir, y: &Ir, nibbles: &[i64]) -> Ir {
    let mut out = int(0);
    for (i, &n) in nibbles.iter().enumerate() {
        let source = if n < 4 { x } else { y };
        let byte = fold(
            BinOp::And,
            fold(BinOp::Shr, source.clone(), int(8 * (n & 3))),
            int(0xFF),
        );
        out = fold(BinOp::Or, out, fold(BinOp::Shl, byte, int(8 * i as i64)));
    }
    out
}

/// The high (left) or low (right) word of the 64-bit `hi:lo` shifted by `n` (0 to 32).
fn funnel(lo: &Ir, hi: &Ir, n: i64, left: bool) -> Ir {
    let (a, b) = if left {
        (
            fold(BinOp::Shl, hi.clone(), int(n)),
            fold(BinOp::Shr, lo.clone(), int(32 - n)),
        )
    } else {
        (
            fold(BinOp::Shr, lo.clone(), int(n)),
            fold(BinOp::Shl, hi.clone(), int(32 - n)),
        )
    };
    fold(BinOp::And, fold(BinOp::Or, a, b), int(LOW32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(e: &Ir, x: i64) -> i64 {
        e.eval(&[x]).expect("evaluates")
    }

    /// Each form agrees with the intrinsic's definition on sampled words.
    #[test]
    fn forms_match_their_definitions() {
        let x = Ir::Var(0);
        let w = fold(BinOp::And, x.clone(), int(LOW32));
        for v in [
            0i64,
            1,
            2,
            3,
            31,
            0x1234_5678,
            0x8000_0001,
            0xFFFF_FFFF,
            -1,
            1023,
        ] {
            let word = (v & LOW32) as u32;
            assert_eq!(
                eval(&reverse32(w.clone()), v),
                i64::from(word.reverse_bits())
            );
            let perm = byte_perm(&w, &int(0xAABB_CCDD), &[1, 4, 0, 7]);
            let bytes = word.to_le_bytes();
            let ybytes = 0xAABB_CCDDu32.to_le_bytes();
            let all = [
                bytes[0], bytes[1], bytes[2], bytes[3], ybytes[0], ybytes[1], ybytes[2], ybytes[3],
            ];
            let expected = u32::from_le_bytes([all[1], all[4], all[0], all[7]]);
            assert_eq!(eval(&perm, v), i64::from(expected));
            for n in [0i64, 1, 5, 31, 32] {
                let both = (u64::from(0x0F0F_1234u32) << 32) | u64::from(word);
                let l = eval(&funnel(&w, &int(0x0F0F_1234), n, true), v);
                let r = eval(&funnel(&w, &int(0x0F0F_1234), n, false), v);
                assert_eq!(l as u64, ((both << n) >> 32) & 0xFFFF_FFFF, "left {n}");
                assert_eq!(r as u64, (both >> n) & 0xFFFF_FFFF, "right {n}");
            }
        }
    }
}
