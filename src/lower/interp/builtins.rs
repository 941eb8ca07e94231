//! Built-in functions the interpreter knows the meaning of: atomics (an access of their
//! first argument), `min`/`max`/`clamp`, lane ids, cooperative groups and their methods,
//! the CUDA samples' `SharedMemory<T>` wrapper, powers of two written with floating-point
//! functions (`pow(2, k)`, `exp2`, `log2`), `__mul24`, integer conversions.

use super::{fold, int, Interp, Value};
use crate::diag::AccessKind;
use crate::extract::ast::{BinaryOp, Expr, ExprKind, TypeName, UnaryOp, VarDecl};
use crate::model::ir::BinOp;

/// The methods of a cooperative group bankcheck knows the meaning of.
const GROUP_METHODS: [&str; 5] = [
    "thread_rank",
    "size",
    "num_threads",
    "meta_group_rank",
    "meta_group_size",
];

impl Interp<'_> {
    /// An atomic (`atomicAdd`, `InterlockedAdd`): an access of its first argument's place;
    /// HLSL's last argument receives the original value. `lower` is `short` in lower case.
    pub(super) fn atomic_call(&mut self, short: &str, lower: &str, args: &[Expr]) -> Value {
        if let Some(first) = args.first() {
            let target = match &first.kind {
                ExprKind::Unary(UnaryOp::AddrOf, inner) => inner.as_ref(),
                _ => first,
            };
            if self.place(target).is_some() {
                self.access_value(target, AccessKind::Atomic);
            } else {
                self.eval(first);
            }
        }
        for a in args.iter().skip(1) {
            self.eval(a);
        }
        // HLSL returns the original value through a last argument:
        // `InterlockedAdd(dest, v, original)`, `InterlockedCompareExchange(dest, c, v, original)`.
        let out_arg = if lower.contains("comparestore") {
            None
        } else if lower.contains("compareexchange") {
            args.get(3)
        } else {
            args.get(2)
        };
        if let (true, Some(out)) = (lower.starts_with("interlocked"), out_arg) {
            let v = Value::Data(format!("the result of `{short}`"));
            self.write_back(out, v);
        }
        Value::Data(format!("the result of `{short}`"))
    }

    /// A built-in with an integer meaning (`min`, lane ids, cooperative groups, the
    /// `SharedMemory<T>` wrapper, powers of two, `__mul24`, integer conversions, the bit
    /// intrinsics of `bits.rs`); `None`
    /// for any other name.
    pub(super) fn builtin_call(
        &mut self,
        e: &Expr,
        short: &str,
        template_args: &[String],
        args: &[Expr],
    ) -> Option<Value> {
        if let Some(v) = self.bit_intrinsic(short, args) {
            return Some(v);
        }
        Some(match short {
            "min" | "max" | "umin" | "umax" | "imin" | "imax" | "clamp"
                if args.len() == 2 || (short == "clamp" && args.len() == 3) =>
            {
                let values: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
                super::vectors::min_max(short, values)
            }
            "__lane_id" | "LaneId" | "laneid" | "WaveGetLaneIndex" | "lane_id" | "get_lane_id" => {
                Value::Int(fold(
                    BinOp::Rem,
                    self.linear_tid(),
                    int(i64::from(self.warp_size)),
                ))
            }
            "WaveGetLaneCount" => Value::Int(int(i64::from(self.warp_size))),
            "__cvta_generic_to_shared" if args.len() == 1 => self.shared_window_address(&args[0]),
            // Cooperative groups: the block and its tiles of consecutive threads.
            "this_thread_block" => Value::Group(0),
            "tiled_partition" => {
                let n = template_args
                    .first()
                    .and_then(|t| crate::extract::convert::parse_int(t.trim()))
                    .or_else(|| args.get(1).and_then(|a| self.const_eval(a)));
                let spelled = template_args.first().map(|t| t.trim().to_string());
                n.filter(|n| *n > 0).map_or_else(
                    || {
                        Value::Unknown(
                            match spelled {
                                Some(t) => format!(
                                    "a tile of `{t}` threads, a number bankcheck does not know"
                                ),
                                None => "a tile whose size is not a constant".to_string(),
                            }
                            .into(),
                        )
                    },
                    |n| Value::Group(n as u64),
                )
            }
            // The CUDA samples' `SharedMemory<T>` wrapper around `extern __shared__`.
            "SharedMemory" if template_args.len() == 1 => {
                self.shared_memory_wrapper(e, &template_args[0])
            }
            // Powers of two written with floating-point functions, exact on integers:
            // `pow(2, d + 1)`, `exp2(k)`, `log2(256)`.
            "pow" | "exp2" if args.len() == 2 || (short == "exp2" && args.len() == 1) => {
                let (base, exponent) = if args.len() == 2 {
                    (self.const_eval(&args[0]), &args[1])
                } else {
                    (Some(2), &args[0])
                };
                let shift = base
                    .filter(|b| *b > 0 && (*b as u64).is_power_of_two())
                    .map(|b| i64::from((b as u64).trailing_zeros()));
                let e = self.eval(exponent);
                match (shift, e) {
                    (Some(m), Value::Int(e)) => {
                        Value::Int(fold(BinOp::Shl, int(1), fold(BinOp::Mul, e, int(m))))
                    }
                    _ => Value::Data(format!("the result of `{short}()`")),
                }
            }
            "log2" if args.len() == 1 => match self.const_eval(&args[0]) {
                Some(v) if v > 0 && (v as u64).is_power_of_two() => {
                    Value::Int(int(i64::from((v as u64).trailing_zeros())))
                }
                _ => {
                    self.eval(&args[0]);
                    Value::Data("the result of `log2()`".into())
                }
            },
            "__mul24" | "__umul24" | "mul24" if args.len() == 2 => {
                let a = self.eval(&args[0]);
                let b = self.eval(&args[1]);
                self.binary(BinaryOp::Mul, a, b)
            }
            "floor" | "ceil" | "floorf" | "ceilf" if args.len() == 1 => {
                self.floor_call(short.starts_with("ceil"), args)
            }
            "uint" | "int" | "unsigned" | "size_t" if args.len() == 1 => {
                let v = self.eval(&args[0]);
                let ty = TypeName {
                    base: short.to_string(),
                    pointers: 0,
                };
                crate::lower::vector::fit(&ty, v, &self.syn.typedefs)
            }
            _ => return None,
        })
    }

    /// `SharedMemory<T>()`: a pointer to the `extern __shared__` array the wrapper
    /// declares, of element type `arg`.
    fn shared_memory_wrapper(&mut self, e: &Expr, arg: &str) -> Value {
        let ty = crate::extract::convert::type_from_text(arg);
        // Reported under the array the wrapper declares (`__smem`), the
        // specialisation's for this type first.
        let declared = [format!("SharedMemory<{}>", ty.base), "SharedMemory".into()]
            .iter()
            .find_map(|k| self.syn.structs.get(k)?.shared_arrays.first().cloned());
        let decl = VarDecl {
            name: declared.unwrap_or_else(|| format!("SharedMemory<{}>", ty.base)),
            name_span: e.span,
            ty: ty.clone(),
            extents: vec![None],
            init: None,
            shared: true,
            extern_: true,
            is_const: false,
            reference: false,
            array_pointer: false,
            enumerator: false,
            span: e.span,
        };
        let saved = self.lookup(&decl.name).cloned();
        let a = self.register_array(&decl);
        if let Some(v) = saved {
            self.bind(&decl.name, v);
        }
        Value::Ptr {
            array: a,
            offset: int(0),
            pointee: ty,
            name: None,
        }
    }

    /// `g.thread_rank()`, `g.size()`, `g.meta_group_rank()` on a cooperative group.
    pub(super) fn group_method(&mut self, callee: &str) -> Option<Value> {
        let (object, method) = callee
            .rsplit_once('.')
            .or_else(|| callee.rsplit_once("->"))?;
        let n = match self.lookup(object).cloned()? {
            Value::Group(n) => n,
            // A group bankcheck could not make (`tiled_partition<tile_size>` of a size it
            // does not know): its ranks depend on the lane, they are not loaded data.
            Value::Unknown(why) if GROUP_METHODS.contains(&method) => {
                return Some(Value::Unknown(
                    why.reworded(format!("`{callee}()`: `{object}` is {}", why.words())),
                ));
            }
            _ => return None,
        };
        let threads = self.shape_reads.whole(self.block).threads() as i64;
        let tid = self.linear_tid();
        let n = if n == 0 { threads } else { n as i64 };
        Some(Value::Int(match method {
            "thread_rank" => fold(BinOp::Rem, tid, int(n)),
            "size" | "num_threads" => int(n),
            "meta_group_rank" => fold(BinOp::Div, tid, int(n)),
            "meta_group_size" => int(threads / n.max(1)),
            _ => return None,
        }))
    }
}
