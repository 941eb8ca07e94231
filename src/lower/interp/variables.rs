//! The IR's variables: the thread coordinates (constant 0 on an axis of extent 1), the
//! linear thread id, warp-uniform unknowns, and the root function's parameters that
//! become them (HLSL semantics, integer parameters as uniform values).

use super::{fold, int, is_integer_type, Interp, Value};
use crate::extract::ast::{Function, TypeName};
use crate::model::ir::{Axis, BinOp, Expr as Ir, VarInfo, VarKind};

impl Interp<'_> {
    /// The thread coordinate on `axis` (0 when the block has extent 1 there).
    pub(super) fn thread(&self, axis: Axis) -> Ir {
        if !self.shape_reads.spans(self.block, axis) {
            return int(0);
        }
        Ir::Var(axis as usize)
    }

    /// The linear thread id `x + y*Dx + z*Dx*Dy`.
    pub(super) fn linear_tid(&self) -> Ir {
        let b = self.shape_reads.for_linear_id(self.block);
        let y = fold(BinOp::Mul, self.thread(Axis::Y), int(i64::from(b.x)));
        let z = fold(
            BinOp::Mul,
            self.thread(Axis::Z),
            int(i64::from(b.x) * i64::from(b.y)),
        );
        fold(BinOp::Add, fold(BinOp::Add, self.thread(Axis::X), y), z)
    }

    /// A new warp-uniform unknown, distinct from every other (one value read at one place).
    pub(super) fn fresh_uniform(&mut self, name: &str) -> Ir {
        let i = self.vars.len();
        self.vars.push(VarInfo {
            name: name.to_string(),
            kind: VarKind::Uniform { range: None },
            loop_value: None,
        });
        Ir::Var(i)
    }

    /// The warp-uniform variable `name` (one per name), of range `range` when known.
    pub(super) fn uniform(&mut self, name: &str, range: Option<(i64, i64)>) -> Ir {
        self.keyed_var(name, name, VarKind::Uniform { range })
    }

    /// The variable registered under `key` (one per key), created as `name` of `kind`
    /// the first time.
    pub(super) fn keyed_var(&mut self, key: &str, name: &str, kind: VarKind) -> Ir {
        if let Some(&i) = self.uniform_names.get(key) {
            return Ir::Var(i);
        }
        let i = self.vars.len();
        self.vars.push(VarInfo {
            name: name.to_string(),
            kind,
            loop_value: None,
        });
        self.uniform_names.insert(key.to_string(), i);
        Ir::Var(i)
    }

    /// Binds the kernel's parameters: HLSL semantics, integers as uniform values.
    pub(crate) fn bind_params(&mut self, f: &Function) {
        let b = self.block;
        for p in &f.params {
            let v = match p.semantic.as_deref() {
                // `uint gtid : SV_GroupThreadID` (a scalar) is the x component.
                Some("SV_GROUPTHREADID") if is_scalar_type(&p.ty) => {
                    Value::Int(self.thread(Axis::X))
                }
                Some("SV_GROUPTHREADID") => self.vec3_threads(),
                Some("SV_GROUPINDEX") => Value::Int(self.linear_tid()),
                Some("SV_DISPATCHTHREADID") => {
                    let b = self.shape_reads.whole(b);
                    let gx = self.uniform("SV_GroupID.x", Some((0, 65535)));
                    let gy = self.uniform("SV_GroupID.y", Some((0, 65535)));
                    let gz = self.uniform("SV_GroupID.z", Some((0, 65535)));
                    let c = |g: Ir, d: u32, t: Ir| {
                        Value::Int(fold(BinOp::Add, fold(BinOp::Mul, g, int(i64::from(d))), t))
                    };
                    Value::Vector(vec![
                        c(gx, b.x, self.thread(Axis::X)),
                        c(gy, b.y, self.thread(Axis::Y)),
                        c(gz, b.z, self.thread(Axis::Z)),
                    ])
                }
                Some("SV_GROUPID") => {
                    let gx = self.uniform("SV_GroupID.x", Some((0, 65535)));
                    let gy = self.uniform("SV_GroupID.y", Some((0, 65535)));
                    let gz = self.uniform("SV_GroupID.z", Some((0, 65535)));
                    Value::Vector(vec![Value::Int(gx), Value::Int(gy), Value::Int(gz)])
                }
                // A CuTe `TiledCopy` or layout the launch's host function builds.
                _ if self.host_args.iter().any(|(n, _)| *n == p.name) => self
                    .host_arg_value(&p.name)
                    .unwrap_or_else(|| Value::Unknown("no host argument".into())),
                _ if !f.is_kernel && p.ty.pointers == 0 && !p.array_or_ref => Value::Unknown(
                    format!(
                        "`{}` is a parameter of `{}`, which no kernel in the file calls",
                        p.name, f.name
                    )
                    .into(),
                ),
                _ => {
                    if p.ty.pointers > 0 || p.array_or_ref {
                        Value::Memory
                    } else if is_integer_type(&p.ty)
                        && self.layout(&p.ty).is_some_and(|l| l.size <= 8)
                    {
                        let range = if p.ty.base.contains("unsigned") || p.ty.base.starts_with('u')
                        {
                            Some((0, i64::from(u32::MAX)))
                        } else {
                            None
                        };
                        Value::Int(self.uniform(&p.name, range))
                    } else {
                        Value::Data(format!("`{}` is not an integer parameter", p.name))
                    }
                }
            };
            // A scalar parameter with a vector semantic holds its x component; a
            // `uint2` one its first two.
            let v = match v {
                Value::Vector(mut c) if p.semantic.is_some() && is_scalar_type(&p.ty) => {
                    c.swap_remove(0)
                }
                v @ Value::Vector(_) => crate::lower::vector::fit(&p.ty, v, &self.syn.typedefs),
                other => other,
            };
            if !p.name.is_empty() {
                self.bind(&p.name, v);
            }
        }
    }

    /// `threadIdx` as a vector of its three coordinates.
    pub(super) fn vec3_threads(&self) -> Value {
        Value::Vector(vec![
            Value::Int(self.thread(Axis::X)),
            Value::Int(self.thread(Axis::Y)),
            Value::Int(self.thread(Axis::Z)),
        ])
    }
}

/// A scalar (not a vector) type: `uint`, `int`, `unsigned int`.
fn is_scalar_type(t: &TypeName) -> bool {
    t.pointers == 0 && !t.base.ends_with(|c: char| c.is_ascii_digit())
}
