//! Vector calls and component stores of the interpreter: vector constructors, `all`,
//! `any`, `dot`, `min`/`max`/`clamp` (component-wise), and stores into the components of
//! a local vector or through `out` arguments. The value rules are in
//! [`crate::lower::vector`].

use super::{fold, int, Interp, Value};
use crate::extract::ast::{BinaryOp, Expr, ExprKind};
use crate::lower::vector;
use crate::model::ir::BinOp;

impl Interp<'_> {
    /// Vector constructors (`uint2(a, b)`, `make_int2`), `all`, `any` and integer `dot`.
    pub(super) fn vector_call(&mut self, callee: &str, args: &[Expr]) -> Option<Value> {
        if let Some((n, elem)) = vector::constructor_type(callee, &self.syn.typedefs) {
            let values: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
            return Some(vector::construct(callee, n, elem, values));
        }
        let (op, combine) = match (callee, args.len()) {
            ("all", 1) => (BinaryOp::LogicAnd, None),
            ("any", 1) => (BinaryOp::LogicOr, None),
            ("dot", 2) => (BinaryOp::Add, Some(BinaryOp::Mul)),
            _ => return None,
        };
        let mut values: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
        let terms = match combine {
            Some(mul) => {
                let b = values.pop()?;
                let a = values.pop()?;
                vector::components(self.binary(mul, a, b))
            }
            // A scalar is true when it is not zero.
            None => vector::components(values.pop()?)
                .into_iter()
                .map(|c| self.binary(BinaryOp::Ne, c, Value::Int(int(0))))
                .collect(),
        };
        let mut terms = terms.into_iter();
        let first = terms.next()?;
        Some(terms.fold(first, |acc, t| self.binary(op, acc, t)))
    }

    /// Stores `v` into a local named by an argument passed by reference (`x`, `p.x`);
    /// shared memory and other places are left alone.
    pub(super) fn write_back(&mut self, arg: &Expr, v: Value) {
        match &arg.kind {
            ExprKind::Ident(name) if !matches!(self.lookup(name), None | Some(Value::Array(_))) => {
                self.assign(name, v);
            }
            ExprKind::Member(..) | ExprKind::Index(..) if self.place(arg).is_none() => {
                self.assign_component(None, arg, v);
            }
            _ => {}
        }
    }

    /// `p.x = v`, `p.yx += q`, `p[1] = v` on a local vector: updates those components
    /// (a field that is not a swizzle, or an index that is not a constant, makes the
    /// vector unknown). `None` when `lhs` is not a part of a local vector.
    pub(super) fn assign_component(
        &mut self,
        op: Option<BinaryOp>,
        lhs: &Expr,
        r: Value,
    ) -> Option<Value> {
        let (base, field) = match &lhs.kind {
            ExprKind::Member(b, f) => (b, f.clone()),
            ExprKind::Index(b, i) => {
                let k = self.const_eval(i);
                let field = k
                    .and_then(|k| usize::try_from(k).ok())
                    .and_then(|k| "xyzw".get(k..=k));
                (b, field.unwrap_or("?").to_string())
            }
            _ => return None,
        };
        let ExprKind::Ident(name) = &base.kind else {
            return None;
        };
        let cur = self.lookup(name)?.clone();
        if !matches!(cur, Value::Vector(_)) {
            return None;
        }
        let rhs = match op {
            None => r,
            Some(op) => {
                let old = vector::swizzle(&cur, &field)
                    .unwrap_or_else(|| Value::Unknown(format!("`{name}.{field}`").into()));
                self.binary(op, old, r)
            }
        };
        let updated = vector::assign_swizzle(&cur, &field, rhs.clone()).unwrap_or_else(|| {
            Value::Unknown(
                format!("`{name}.{field}` is assigned where bankcheck cannot follow it").into(),
            )
        });
        self.assign(name, updated);
        Some(rhs)
    }
}

/// `min`, `max` and `clamp` (`min(max(x, lo), hi)`), component-wise on vectors.
pub(super) fn min_max(short: &str, values: Vec<Value>) -> Value {
    if let Some(per_component) = vector::zip_args(&values) {
        return Value::Vector(
            per_component
                .into_iter()
                .map(|c| min_max(short, c))
                .collect(),
        );
    }
    let mut ints = Vec::with_capacity(values.len());
    for v in values {
        match v {
            Value::Int(i) => ints.push(i),
            d @ Value::Data(_) => return d,
            Value::Real(_) => return Value::Data("a floating-point value".into()),
            other => return Value::Unknown(other.reason()),
        }
    }
    match (short, ints.as_slice()) {
        ("clamp", [x, lo, hi]) => Value::Int(fold(
            BinOp::Min,
            fold(BinOp::Max, x.clone(), lo.clone()),
            hi.clone(),
        )),
        (_, [a, b]) => {
            let op = if short.ends_with("min") {
                BinOp::Min
            } else {
                BinOp::Max
            };
            Value::Int(fold(op, a.clone(), b.clone()))
        }
        _ => Value::Unknown(format!("`{short}` with {} arguments", ints.len()).into()),
    }
}
