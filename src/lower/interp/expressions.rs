//! Expressions: literals, operators (component-wise on vectors, pointer arithmetic in
//! element sizes), conditionals, casts, `sizeof`, assignments; loads and stores go to
//! [`super::access`], names to [`super::names`], calls to [`super::calls`].

use super::budget::{MAX_EVAL_DEPTH, MAX_IR_NODES};
use super::{fold, int, Interp, Value};
use crate::diag::{AccessKind, Span};
use crate::extract::ast::{BinaryOp, Expr, ExprKind, TypeName, UnaryOp};
use crate::model::ir::{BinOp, Expr as Ir, UnOp};
use crate::model::reason::Reason;

impl Interp<'_> {
    /// The value of `e` when it is an integer.
    pub(super) fn eval_int(&mut self, e: &Expr) -> Option<Ir> {
        match self.eval(e) {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    /// Evaluates a file-level constant expression (extents, `[numthreads]`).
    pub(crate) fn const_eval(&mut self, e: &Expr) -> Option<i64> {
        match self.eval(e) {
            Value::Int(i) => i.as_const(),
            _ => None,
        }
    }

    /// The value of `e`, within the budget and the nesting limit.
    pub(crate) fn eval(&mut self, e: &Expr) -> Value {
        // Past the budget, evaluation goes on (what multiplies work, macro expansion and
        // inlining, stops), so that every access is still recorded, as `unknown` when it
        // needed what was cut.
        self.budget.spend(1);
        self.budget.depth += 1;
        let v = if self.budget.depth > MAX_EVAL_DEPTH {
            Value::Unknown("expression nested too deeply".into())
        } else {
            self.eval_inner(e)
        };
        self.budget.depth -= 1;
        self.budget.bounded(v)
    }

    /// The value of `e`, by its kind.
    fn eval_inner(&mut self, e: &Expr) -> Value {
        match &e.kind {
            ExprKind::Int(c) => Value::Int(int(*c)),
            ExprKind::Bool(b) => Value::Int(int(i64::from(*b))),
            ExprKind::Float(value) => super::reals::literal(*value),
            ExprKind::Ident(name)
                if self.calls.this_place.is_some() && self.this_field(name).is_some() =>
            {
                self.this_member_value(e, name)
            }
            ExprKind::Ident(name) => match self.ident(name) {
                // Reading a shared scalar (`__shared__ int count;`) is a load.
                Value::Array(a) if self.arrays[a].extents.is_empty() => {
                    self.access_value(e, AccessKind::Load)
                }
                // Reading a reference to shared memory loads what it names.
                Value::Ref { .. } => self.access_value(e, AccessKind::Load),
                v => v,
            },
            ExprKind::Member(base, field) => self.member(e, base, field),
            ExprKind::Index(..) => self.access_value(e, AccessKind::Load),
            ExprKind::Unary(UnaryOp::Deref, _) => self.access_value(e, AccessKind::Load),
            ExprKind::Unary(UnaryOp::AddrOf, inner) => self.address_of(inner),
            ExprKind::Unary(op, inner) => self.unary(*op, inner),
            ExprKind::Binary(op, a, b) => {
                let va = self.eval(a);
                let vb = self.eval(b);
                self.binary(*op, va, vb)
            }
            ExprKind::Assign(op, lhs, rhs) => self.assignment(*op, lhs, rhs),
            ExprKind::IncDec(target, delta) => {
                let one = Expr {
                    span: e.span,
                    kind: ExprKind::Int(1),
                };
                let op = if *delta > 0 {
                    BinaryOp::Add
                } else {
                    BinaryOp::Sub
                };
                self.assignment(Some(op), target, &one)
            }
            ExprKind::Cond(c, t, f) => self.conditional(c, t, f),
            ExprKind::Cast(ty, inner) => {
                let v = self.eval(inner);
                self.cast(ty, v)
            }
            ExprKind::SizeofType(ty) => {
                match self.layout(ty).or_else(|| self.alias_layout(&ty.base)) {
                    Some(l) if ty.pointers == 0 => Value::Int(int(l.size as i64)),
                    _ if ty.pointers > 0 => Value::Int(int(8)),
                    _ => Value::Unknown(Reason::unknown_type(
                        format!("sizeof of unknown type `{}`", ty.base),
                        &ty.base,
                    )),
                }
            }
            ExprKind::SizeofExpr(inner) => self.sizeof_expr(inner),
            ExprKind::Comma(items) => {
                let mut last = Value::Unknown("empty".into());
                for i in items {
                    last = self.eval(i);
                }
                last
            }
            ExprKind::Call {
                callee,
                template_args,
                args,
            } => {
                let v = self.call(e, callee, template_args, args);
                self.forget_passed_objects(callee, args);
                v
            }
            ExprKind::Asm(asm) => self.inline_asm(asm),
            ExprKind::Opaque => {
                Value::Unknown(format!("`{}` is not understood", self.snippet(e.span)).into())
            }
        }
    }

    /// The value of `name`, a field of the shared object whose member function is being
    /// inlined (or `this` itself): an array member decays to a pointer, another is loaded.
    fn this_member_value(&mut self, e: &Expr, name: &str) -> Value {
        match self.this_field(name) {
            Some(p) if name != "this" => match self
                .calls
                .this_place
                .as_ref()
                .and_then(|t| self.array_member(&t.ty, name, &p))
            {
                Some(ptr) => ptr,
                None => self.access_value(e, AccessKind::Load),
            },
            _ => Value::Unknown("`this` of an object in shared memory".into()),
        }
    }

    /// `-x`, `+x`, `~x`, `!x` (component-wise on vectors).
    fn unary(&mut self, op: UnaryOp, inner: &Expr) -> Value {
        let v = self.eval(inner);
        let unary = |v: Value| match v {
            Value::Int(i) => Value::Int(match op {
                UnaryOp::Neg => fold(BinOp::Sub, int(0), i),
                UnaryOp::Plus => i,
                UnaryOp::BitNot => Ir::Unary(UnOp::BitNot, Box::new(i)),
                _ => Ir::Unary(UnOp::LogicNot, Box::new(i)),
            }),
            Value::Real(r) => match op {
                UnaryOp::Neg => Value::Real(r.neg()),
                UnaryOp::Plus => Value::Real(r),
                _ => Value::Data("a floating-point value".into()),
            },
            other => other,
        };
        match v {
            Value::Vector(c) => Value::Vector(c.into_iter().map(unary).collect()),
            other => unary(other),
        }
    }

    /// `c ? t : f`: the branch a constant condition takes, else a `select` (component-wise
    /// on vectors).
    fn conditional(&mut self, c: &Expr, t: &Expr, f: &Expr) -> Value {
        let c = self.eval(c);
        let t = self.eval(t);
        let f = self.eval(f);
        match (c, t, f) {
            (Value::Int(c), Value::Int(t), Value::Int(f)) => Value::Int(match c.as_const() {
                Some(0) => f,
                Some(_) => t,
                None => Ir::Select(Box::new(c), Box::new(t), Box::new(f)),
            }),
            (Value::Int(c), t, f) => match c.as_const() {
                Some(0) => f,
                Some(_) => t,
                None => crate::lower::vector::merge(&t, &f, |a, b| match (a, b) {
                    (Value::Int(a), Value::Int(b)) => Some(Value::Int(Ir::Select(
                        Box::new(c.clone()),
                        Box::new(a.clone()),
                        Box::new(b.clone()),
                    ))),
                    _ => None,
                })
                .unwrap_or_else(|| match (t, f) {
                    (d @ Value::Data(_), _) | (_, d @ Value::Data(_)) => d,
                    (Value::Real(_), _) | (_, Value::Real(_)) => {
                        Value::Data("a floating-point value chosen by a condition".into())
                    }
                    // A branch bankcheck could not follow says why.
                    (u @ Value::Unknown(_), _) | (_, u @ Value::Unknown(_)) => u,
                    _ => Value::Unknown("a conditional value bankcheck cannot resolve".into()),
                }),
            },
            (d @ Value::Data(_), _, _) => d,
            (c, _, _) => Value::Unknown(c.reason()),
        }
    }

    /// The source text of `span`, on one line, cut at 40 characters (for reasons).
    pub(super) fn snippet(&self, span: Span) -> String {
        let t = self.text.get(span.start..span.end).unwrap_or("?");
        let t: String = t.split_whitespace().collect::<Vec<_>>().join(" ");
        if t.len() > 40 {
            format!(
                "{}...",
                &t[..t.char_indices().nth(37).map_or(t.len(), |(i, _)| i)]
            )
        } else {
            t
        }
    }

    /// `sizeof(x)` parsed as an expression: an array's size, or a type's.
    fn sizeof_expr(&mut self, inner: &Expr) -> Value {
        // `sizeof(T)` parsed as an expression: try the name as a type first.
        if let ExprKind::Ident(n) = &inner.kind {
            if let Some(Value::Array(a)) = self.lookup(n).cloned() {
                let info = &self.arrays[a];
                let total: Option<u64> = info
                    .extents
                    .iter()
                    .try_fold(u64::from(info.element_bytes), |acc, e| e.map(|e| acc * e));
                return total.map_or(Value::Unknown("sizeof a dynamic array".into()), |t| {
                    Value::Int(int(t as i64))
                });
            }
            let ty = TypeName {
                base: n.clone(),
                pointers: 0,
            };
            if let Some(l) = self.layout(&ty).or_else(|| self.alias_layout(n)) {
                return Value::Int(int(l.size as i64));
            }
            if self.lookup(n).is_none() {
                // A type bankcheck cannot lay out: often a template type parameter that
                // no instantiation it follows binds.
                return Value::Unknown(format!("the size of the type `{n}` is not known").into());
            }
        }
        Value::Unknown("sizeof of an expression".into())
    }

    /// Evaluates a condition or a loop step, names defined nowhere being run-time values.
    pub(super) fn eval_control(&mut self, e: &Expr) -> Value {
        let saved = std::mem::replace(&mut self.names.unresolved_as_uniform, true);
        let v = self.eval(e);
        self.names.unresolved_as_uniform = saved;
        v
    }

    /// `base.field` (`whole`): a load from shared memory, a field of a local object, a
    /// vector component or swizzle.
    pub(super) fn member(&mut self, whole: &Expr, base: &Expr, field: &str) -> Value {
        // An array member of a struct in shared memory used whole (`f(st.bins)`) decays
        // to a pointer to its first element: nothing is read.
        if let Some(v) = self.array_member_decayed(whole, base, field) {
            return v;
        }
        // Members of a shared element are loads of that member.
        if self.place(whole).is_some() {
            return self.access_value(whole, AccessKind::Load);
        }
        // A field of a local object or of `this`, when it holds a value.
        if let Some(v) = self
            .field_variable(base, field)
            .and_then(|key| self.lookup(&key).cloned())
        {
            return v;
        }
        match self.eval(base) {
            // A component (`p.x`) or a swizzle (`gtid.xy`, `v.yx`, `s.xx`).
            v @ (Value::Vector(_) | Value::Int(_) | Value::Real(_)) => {
                crate::lower::vector::swizzle(&v, field).unwrap_or_else(|| {
                    Value::Unknown(format!("member `{field}` of a scalar or vector").into())
                })
            }
            Value::Data(r) => Value::Data(r),
            other => {
                let why = other.reason();
                Value::Unknown(why.reworded(format!("member `{field}` of {why}")))
            }
        }
    }

    /// `base.field` when `base` is a struct in shared memory and `field` one of its array
    /// members: the pointer it decays to, or why its place is not known; `None` for
    /// anything else.
    fn array_member_decayed(&mut self, whole: &Expr, base: &Expr, field: &str) -> Option<Value> {
        let Some(Ok(owner)) = self.place(base) else {
            return None;
        };
        let def = self.struct_def(&owner.ty.base)?;
        let types = self.syn.types();
        if !types
            .find_field(def, field)
            .is_some_and(|f| !f.extents.is_empty() && f.ty.pointers == 0)
        {
            return None;
        }
        Some(match self.place(whole)? {
            Ok(p) => self
                .array_member(&owner.ty, field, &p)
                .unwrap_or_else(|| Value::Unknown(format!("member `{field}`").into())),
            Err(v) => v,
        })
    }

    /// `a op b`: folded on integers, component-wise on vectors, in element sizes on pointers.
    pub(super) fn binary(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        // Vectors act component-wise, a scalar broadcasting (`Tile * 8 - 8`).
        if let Some(pairs) = crate::lower::vector::zip(&a, &b) {
            return Value::Vector(
                pairs
                    .into_iter()
                    .map(|(x, y)| self.binary(op, x, y))
                    .collect(),
            );
        }
        match (a, b) {
            (Value::Int(a), Value::Int(b)) => {
                let e = fold(map_binop(op), a, b);
                // Long chains of reassignments would make deep expressions: give up on them.
                if e.size_up_to(MAX_IR_NODES) > MAX_IR_NODES {
                    return Value::Unknown("the index expression grows too large to follow".into());
                }
                Value::Int(e)
            }
            (
                Value::Ptr {
                    array,
                    offset,
                    pointee,
                    name,
                },
                Value::Int(i),
            )
            | (
                Value::Int(i),
                Value::Ptr {
                    array,
                    offset,
                    pointee,
                    name,
                },
            ) if matches!(op, BinaryOp::Add | BinaryOp::Sub) => {
                let size = self.layout(&pointee).map_or(1, |l| l.size as i64);
                let delta = fold(BinOp::Mul, i, int(size));
                let op = if op == BinaryOp::Add {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                Value::Ptr {
                    array,
                    offset: fold(op, offset, delta),
                    pointee,
                    name,
                }
            }
            (Value::Array(a), Value::Int(i)) if matches!(op, BinaryOp::Add) => {
                let v = self.decay(a);
                self.binary(op, v, Value::Int(i))
            }
            // A pointer into shared memory moved by what bankcheck cannot follow still
            // points into its array: what it reaches is an `unknown` access there.
            (Value::LostPtr { array, reason }, other)
                if matches!(op, BinaryOp::Add | BinaryOp::Sub) && !is_pointer(&other) =>
            {
                Value::LostPtr { array, reason }
            }
            (other, Value::LostPtr { array, reason })
                if matches!(op, BinaryOp::Add) && !is_pointer(&other) =>
            {
                Value::LostPtr { array, reason }
            }
            (
                p @ (Value::Ptr { .. } | Value::Array(_)),
                other @ (Value::Data(_) | Value::Unknown(_)),
            ) if matches!(op, BinaryOp::Add | BinaryOp::Sub) => lost_pointer(&p, &other),
            (
                other @ (Value::Data(_) | Value::Unknown(_)),
                p @ (Value::Ptr { .. } | Value::Array(_)),
            ) if matches!(op, BinaryOp::Add) => lost_pointer(&p, &other),
            (Value::Data(r), _) | (_, Value::Data(r)) => Value::Data(r),
            (Value::Unknown(r), _) | (_, Value::Unknown(r)) => Value::Unknown(r),
            (a @ (Value::Real(_) | Value::Int(_)), b @ (Value::Real(_) | Value::Int(_))) => {
                super::reals::binary(map_binop(op), a, b)
            }
            (a, _) => Value::Unknown(a.reason()),
        }
    }

    /// `(ty)v`: vectors fitted, pointers retyped, narrow unsigned integers masked.
    fn cast(&mut self, ty: &TypeName, v: Value) -> Value {
        // `(uint2)v`, `(uint)v`: truncate or broadcast.
        if ty.pointers == 0
            && crate::lower::vector::vector_type(&ty.base, &self.syn.typedefs).is_some()
        {
            return crate::lower::vector::fit(ty, v, &self.syn.typedefs);
        }
        let v = match v {
            Value::Vector(_) => crate::lower::vector::fit(ty, v, &self.syn.typedefs),
            other => other,
        };
        match v {
            Value::Array(a) => {
                let p = self.decay(a);
                self.cast(ty, p)
            }
            Value::LostPtr { .. } if ty.pointers > 0 => v,
            Value::Ptr {
                array,
                offset,
                name,
                ..
            } if ty.pointers > 0 => Value::Ptr {
                array,
                offset,
                pointee: TypeName {
                    base: ty.base.clone(),
                    pointers: ty.pointers - 1,
                },
                name,
            },
            Value::Int(i) if ty.pointers == 0 => {
                // Narrowing casts to 8/16-bit types wrap; model unsigned char/short as masks.
                match ty.base.as_str() {
                    "unsigned char" | "uint8_t" | "uchar" => {
                        Value::Int(fold(BinOp::And, i, int(0xff)))
                    }
                    "unsigned short" | "uint16_t" | "ushort" => {
                        Value::Int(fold(BinOp::And, i, int(0xffff)))
                    }
                    b if b.contains("float") || b.contains("double") || b.contains("half") => {
                        Value::Real(crate::lower::real::Real::int(i))
                    }
                    _ => Value::Int(i),
                }
            }
            Value::Real(r) if ty.pointers == 0 => {
                let b = ty.base.as_str();
                if b.contains("float") || b.contains("double") || b.contains("half") {
                    Value::Real(r)
                } else {
                    crate::lower::vector::int_component(Value::Real(r))
                }
            }
            other => other,
        }
    }

    /// `lhs = rhs` (or `lhs op= rhs`): a store to shared memory, or a new value for a
    /// variable, a field or a vector component.
    pub(super) fn assignment(&mut self, op: Option<BinaryOp>, lhs: &Expr, rhs: &Expr) -> Value {
        if self.place(lhs).is_some() {
            if op.is_some() {
                self.access_value(lhs, AccessKind::Load);
            }
            self.eval(rhs);
            self.access_value(lhs, AccessKind::Store);
            return Value::Data("a value stored to shared memory".into());
        }
        let r = self.eval(rhs);
        let field = match &lhs.kind {
            ExprKind::Member(base, f) => self.field_variable(base, f),
            _ => None,
        };
        if let Some(key) = field {
            let v = match op {
                None => r,
                Some(op) => {
                    let cur = self.lookup(&key).cloned().unwrap_or_else(|| {
                        Value::Unknown(
                            format!("the field `{key}` is not set where it is read").into(),
                        )
                    });
                    self.binary(op, cur, r)
                }
            };
            self.assign(&key, v.clone());
            return v;
        }
        if let ExprKind::Ident(name) = &lhs.kind {
            let v = match op {
                None => r,
                Some(op) => {
                    let cur = self.ident(name);
                    self.binary(op, cur, r)
                }
            };
            self.assign(name, v.clone());
            v
        } else if let Some(v) = self.assign_component(op, lhs, r.clone()) {
            v
        } else {
            // Stores to global memory or fields: evaluate for nested accesses.
            self.eval_lvalue_parts(lhs);
            r
        }
    }

    /// Evaluates the subscripts and bases of an lvalue outside shared memory, for the
    /// accesses nested in them.
    pub(super) fn eval_lvalue_parts(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Index(b, i) => {
                self.eval(b);
                self.eval(i);
            }
            ExprKind::Member(b, _) | ExprKind::Unary(_, b) => self.eval_lvalue_parts(b),
            _ => {}
        }
    }
}

/// The IR operator of a source operator.
fn map_binop(op: BinaryOp) -> BinOp {
    match op {
        BinaryOp::Add => BinOp::Add,
        BinaryOp::Sub => BinOp::Sub,
        BinaryOp::Mul => BinOp::Mul,
        BinaryOp::Div => BinOp::Div,
        BinaryOp::Rem => BinOp::Rem,
        BinaryOp::Shl => BinOp::Shl,
        BinaryOp::Shr => BinOp::Shr,
        BinaryOp::And => BinOp::And,
        BinaryOp::Or => BinOp::Or,
        BinaryOp::Xor => BinOp::Xor,
        BinaryOp::Lt => BinOp::Lt,
        BinaryOp::Le => BinOp::Le,
        BinaryOp::Gt => BinOp::Gt,
        BinaryOp::Ge => BinOp::Ge,
        BinaryOp::Eq => BinOp::Eq,
        BinaryOp::Ne => BinOp::Ne,
        BinaryOp::LogicAnd => BinOp::LogicAnd,
        BinaryOp::LogicOr => BinOp::LogicOr,
    }
}

/// Whether `v` is a pointer into shared memory (the difference of two is an integer).
fn is_pointer(v: &Value) -> bool {
    matches!(
        v,
        Value::Ptr { .. } | Value::Array(_) | Value::LostPtr { .. } | Value::Ref { .. }
    )
}

/// Pointer `p` (or array) moved by `by`, a value bankcheck cannot follow.
fn lost_pointer(p: &Value, by: &Value) -> Value {
    let (Value::Ptr { array, .. } | Value::Array(array)) = p else {
        return Value::Unknown(by.reason());
    };
    let why = super::places::describe_unknown(by);
    Value::LostPtr {
        array: *array,
        reason: why.reworded(format!("the pointer's offset {why}")),
    }
}
