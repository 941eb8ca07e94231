//! Inline PTX: the shared-memory instructions of an `asm` statement
//! (`extract::asm::shared_accesses`) recorded as accesses at the address their operand's
//! C++ expression holds, and `__cvta_generic_to_shared`, which turns a pointer into
//! shared memory into the byte address those instructions take.

use super::access::LoweredPlace;
use super::{fold, int, Interp, Place, Value};
use crate::diag::AccessKind;
use crate::extract::asm::{shared_accesses, OperandRef, PtxAccess, PtxKind};
use crate::extract::ast::{Asm, AsmOperand, Expr, ExprKind, TypeName};
use crate::extract::types::Layout;
use crate::model::ir::BinOp;
use crate::model::reason::Reason;

impl Interp<'_> {
    /// `__cvta_generic_to_shared(p)`: the shared-window address of `p`, kept as a pointer
    /// to bytes into `p`'s array, so that the integer arithmetic PTX addresses take
    /// (`addr + 16`) counts bytes and an `asm` operand finds the array again.
    pub(super) fn shared_window_address(&mut self, arg: &Expr) -> Value {
        let v = match self.eval(arg) {
            Value::Array(a) => self.decay(a),
            v => v,
        };
        match v {
            Value::Ptr {
                array,
                offset,
                name,
                ..
            } => Value::Ptr {
                array,
                offset,
                pointee: TypeName {
                    base: "unsigned char".into(),
                    pointers: 0,
                },
                name,
            },
            lost @ (Value::Unknown(_) | Value::LostPtr { .. }) => lost,
            _ => Value::Unknown(
                format!(
                    "`{}` is not a pointer into a shared array bankcheck follows",
                    self.snippet(arg.span)
                )
                .into(),
            ),
        }
    }

    /// An inline `asm` statement: its input operands are evaluated (their own accesses
    /// recorded), each shared-memory instruction of its template is an access at the
    /// address of its operand, and its outputs become data.
    pub(super) fn inline_asm(&mut self, asm: &Asm) -> Value {
        let mut values: Vec<Option<Value>> = Vec::with_capacity(asm.outputs.len());
        for o in &asm.outputs {
            // A read-write output (`"+r"(x)`) is an input too.
            values.push(o.constraint.starts_with('+').then(|| self.eval(&o.value)));
        }
        for i in &asm.inputs {
            values.push(Some(self.eval(&i.value)));
        }
        let operands: Vec<&AsmOperand> = asm.operands().collect();
        for access in shared_accesses(&asm.template) {
            self.ptx_access(&access, &operands, &values);
        }
        for o in &asm.outputs {
            let key = match &o.value.kind {
                ExprKind::Ident(name) => Some(name.clone()),
                ExprKind::Member(base, field) => self.field_variable(base, field),
                _ => None,
            };
            if let Some(key) = key.filter(|k| self.lookup(k).is_some()) {
                let why = format!("`{key}` is set by inline assembly");
                self.assign(&key, Value::Data(why));
            }
        }
        Value::Data("inline assembly".into())
    }

    /// Records one shared-memory instruction at the array its address operand points
    /// into; an address bankcheck cannot follow is an `unknown` access of the array its
    /// expression names, and no access when it names none.
    fn ptx_access(
        &mut self,
        access: &PtxAccess,
        operands: &[&AsmOperand],
        values: &[Option<Value>],
    ) {
        let kind = match access.kind {
            PtxKind::Load => AccessKind::Load,
            PtxKind::Store => AccessKind::Store,
        };
        let position = |r: &OperandRef| match r {
            OperandRef::Number(n) => Some(*n),
            OperandRef::Named(name) => operands
                .iter()
                .position(|o| o.name.as_deref() == Some(name)),
        };
        let (index, imm) = match &access.address {
            Ok((r, imm)) => (position(r), *imm),
            Err(_) => (None, 0),
        };
        // A copy size given as an operand (`"n"(16)`) is its constant value.
        let size = access
            .size_operand
            .as_ref()
            .and_then(position)
            .and_then(|n| match values.get(n) {
                Some(Some(Value::Int(i))) => i.as_const(),
                _ => None,
            });
        let width = match (&access.width, size) {
            (Err(_), Some(w @ (4 | 8 | 16))) => Ok(w as u32),
            (w, _) => w.clone(),
        };
        let Some(operand) = index.and_then(|n| operands.get(n)) else {
            return;
        };
        let value = match values.get(index.unwrap_or(0)).cloned().flatten() {
            Some(Value::Array(a)) => self.decay(a),
            Some(v) => v,
            None => Value::Unknown("the address operand is an output of the assembly".into()),
        };
        let span = operand.value.span;
        let place = match (value, &width) {
            (
                Value::Ptr {
                    array,
                    offset,
                    name,
                    ..
                },
                Ok(width),
            ) => {
                let layout = Layout {
                    size: u64::from(*width),
                    align: u64::from(*width),
                };
                let place = Place {
                    array,
                    offset: super::fold(crate::model::ir::BinOp::Add, offset, super::int(imm)),
                    ty: TypeName {
                        base: format!("{width}-byte PTX operand"),
                        pointers: 0,
                    },
                    layout: Some(layout),
                    pointer: name,
                    index_spans: vec![span],
                    plain: false,
                    coords: None,
                };
                let lowered = self.components_of_lanes(&place, layout, access.lanes);
                LoweredPlace {
                    array,
                    lowered,
                    pointer: place.pointer,
                    index_spans: place.index_spans,
                    plain: false,
                    elem_bytes: *width,
                }
            }
            (value, width) => {
                let named = match &value {
                    Value::LostPtr { array, .. } => Some(*array),
                    _ => self.array_named_in(&operand.value),
                };
                let Some(array) = named else {
                    return;
                };
                let reason = if let Err(w) = width {
                    Reason::new(format!("`{}`: {w}", access.text))
                } else {
                    let why = value.reason();
                    why.reworded(format!(
                        "the address of `{}` is not followed: {why}",
                        access.text
                    ))
                };
                LoweredPlace {
                    array,
                    lowered: Err(reason),
                    pointer: None,
                    index_spans: vec![span],
                    plain: false,
                    elem_bytes: width.as_ref().map_or(0, |w| *w),
                }
            }
        };
        self.record_site(span, kind, place);
    }

    /// The components of an access by the first `lanes` lanes of each warp only
    /// (`ldmatrix.x2`: the first 16 give addresses): the others are switched off as a
    /// guard would.
    pub(super) fn components_of_lanes(
        &mut self,
        place: &Place,
        layout: Layout,
        lanes: Option<u32>,
    ) -> Result<Vec<crate::model::ir::LoweredAccess>, Reason> {
        let guard = lanes.filter(|n| *n < self.warp_size).map(|n| {
            let lane = fold(
                BinOp::Rem,
                self.linear_tid(),
                int(i64::from(self.warp_size)),
            );
            fold(BinOp::Lt, lane, int(i64::from(n)))
        });
        let pushed = guard.is_some();
        self.flow.guards.extend(guard);
        let lowered = self.components(place, layout, false);
        if pushed {
            self.flow.guards.pop();
        }
        lowered
    }

    /// The shared array an expression names (`smem` in `__cvta_generic_to_shared(&smem[i])`
    /// or in a pointer local to it), found by its names only.
    fn array_named_in(&mut self, e: &Expr) -> Option<usize> {
        let mut names = Vec::new();
        e.walk(&mut |x| {
            if let ExprKind::Ident(n) = &x.kind {
                names.push(n.clone());
            }
        });
        names
            .into_iter()
            .find_map(|n| match self.lookup(&n).cloned() {
                Some(Value::Ptr { array, .. } | Value::LostPtr { array, .. }) => Some(array),
                Some(Value::Array(a)) => Some(a),
                Some(_) => None,
                None => match self.ident(&n) {
                    Value::Array(a) => Some(a),
                    _ => None,
                },
            })
    }
}
