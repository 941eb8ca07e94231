//! Places in shared memory: the shared arrays (registered once per declaration), and
//! the byte offset, type and layout an lvalue reaches through subscripts, members,
//! dereferences and fields of `this`.

use super::access::unknown_type_reason;
use super::{fold, int, Interp, Place, Value};
use crate::diag::Span;
use crate::extract::ast::{Expr, ExprKind, TypeName, UnaryOp, VarDecl};
use crate::model::ir::{BinOp, Expr as Ir, VarInfo, VarKind};
use crate::model::reason::Reason;
use crate::model::site::ArrayInfo;

impl Interp<'_> {
    /// Registers shared array `d` (once per declaration, see `array_index`) and binds its
    /// name; another instantiation's element type or extents make it dynamic.
    pub(super) fn register_array(&mut self, d: &VarDecl) -> usize {
        let layout = self.layout(&d.ty);
        let mut extent_unknown = None;
        let mut symbolic: Vec<Option<Ir>> = Vec::with_capacity(d.extents.len());
        let extents: Vec<Option<u64>> = d
            .extents
            .iter()
            .map(|e| {
                let Some(e) = e.as_ref() else {
                    symbolic.push(None);
                    return None;
                };
                let v = self.eval(e);
                let c = match &v {
                    Value::Int(i) => i.as_const().and_then(|c| u64::try_from(c).ok()),
                    _ => None,
                };
                symbolic.push(match &v {
                    Value::Int(i) if c.is_none() => self.symbolic_extent(i),
                    _ => None,
                });
                if c.is_none() && extent_unknown.is_none() {
                    extent_unknown = Some(match v {
                        Value::Unknown(why) => why.to_string(),
                        _ => "its value depends on values the source does not fix".to_string(),
                    });
                }
                c
            })
            .collect();
        let info = ArrayInfo {
            name: d.name.clone(),
            name_span: d.name_span,
            decl_span: d.span,
            element_type: d.ty.base.clone(),
            element_pointers: d.ty.pointers,
            element_bytes: layout.map_or(0, |l| l.size as u32),
            extent_spans: d
                .extents
                .iter()
                .map(|e| e.as_ref().map(|e| e.span))
                .collect(),
            dynamic: d.extern_ || d.extents.iter().any(Option::is_none),
            extents,
            extent_unknown,
            foreign: self.foreign.is_some(),
            handed_to: Vec::new(),
        };
        let found = match &self.array_index {
            Some(index) => index.get(&info.name_span).copied(),
            None => self
                .arrays
                .iter()
                .position(|a| a.name_span == info.name_span),
        };
        let symbolic = symbolic.iter().any(Option::is_some).then_some(symbolic);
        let idx = if let Some(i) = found {
            // Another instantiation with another element type or extents: this one's hold
            // for the accesses that follow; no single fix fits them all.
            let a = &mut self.arrays[i];
            if (info.element_bytes != 0 && a.element_bytes != info.element_bytes)
                || a.extents != info.extents
            {
                a.element_bytes = info.element_bytes;
                a.extents = info.extents;
                a.extent_unknown = info.extent_unknown;
                a.dynamic = true;
            }
            i
        } else {
            if let Some(index) = &mut self.array_index {
                index.insert(info.name_span, self.arrays.len());
            }
            self.arrays.push(info);
            self.arrays.len() - 1
        };
        match symbolic {
            Some(extents) => self.symbolic_extents.insert(idx, extents),
            None => self.symbolic_extents.remove(&idx),
        };
        self.bind(&d.name, Value::Array(idx));
        idx
    }

    /// An extent that is an expression over warp-uniform values only (a template value
    /// no instantiation fixes). An array's extent is positive, so the code compiles only
    /// where it is: `a * v + b` with `a > 0`, declared where every value reaches it,
    /// narrows `v`'s range to the values that make it so (as a `static_assert` would);
    /// another expression is taken as at least 1, a value it can take, so no address it
    /// gives is one the code cannot form.
    fn symbolic_extent(&mut self, e: &Ir) -> Option<Ir> {
        let mut uniform = true;
        e.each_var(&mut |i| {
            uniform &= matches!(
                self.vars.get(i).map(|v| &v.kind),
                Some(VarKind::Uniform { .. })
            );
        });
        if !uniform || e.var_mask() == 0 {
            return None;
        }
        // Only where the declaration is reached whatever the values: one under a guard
        // or a branch (`if constexpr (N > 32) { float s[N - 32]; }`) says nothing of the
        // values that do not reach it.
        let unconditional = self.flow.guards.is_empty() && self.flow.opaque == 0;
        if let Some((v, a, b)) = e.as_linear().filter(|&(_, a, _)| a > 0 && unconditional) {
            // a * v + b >= 1  <=>  v >= ceil((1 - b) / a).
            let least = (1i64.checked_sub(b)?).div_euclid(a)
                + i64::from((1i64.checked_sub(b)?).rem_euclid(a) != 0);
            if let Some(VarInfo {
                kind: VarKind::Uniform { range },
                ..
            }) = self.vars.get_mut(v)
            {
                let (lo, hi) = range.unwrap_or((i64::MIN, i64::MAX));
                if least > hi {
                    return None;
                }
                *range = Some((lo.max(least), hi));
                return Some(e.clone());
            }
        }
        Some(Ir::bin(BinOp::Max, e.clone(), int(1)))
    }

    /// Array `a` as a pointer to its first element.
    pub(super) fn decay(&self, a: usize) -> Value {
        let info = &self.arrays[a];
        Value::Ptr {
            array: a,
            offset: int(0),
            pointee: element_of(info),
            name: None,
        }
    }

    /// A field of the shared object whose member function is being inlined, named bare
    /// (or `this` itself): its place. `None` outside such a function, or for a name the
    /// function binds.
    pub(super) fn this_field(&mut self, name: &str) -> Option<Place> {
        let this = self.calls.this_place.clone()?;
        if name == "this" {
            return Some(this);
        }
        if self.lookup(name).is_some() {
            return None;
        }
        let m = self.member_layout(&this.ty, name)?;
        let ty = m.ty.unwrap_or_else(|| TypeName {
            base: format!("__bytes{}", m.layout.size),
            pointers: 0,
        });
        Some(Place {
            offset: fold(BinOp::Add, this.offset.clone(), int(m.offset as i64)),
            ty,
            layout: Some(m.layout),
            pointer: None,
            index_spans: Vec::new(),
            plain: false,
            coords: None,
            ..this
        })
    }

    /// Member `field` of the struct at `p` when bankcheck cannot lay the struct out (a
    /// member before it is a library type, `cute::ArrayEngine<T, N> A;`) but knows the
    /// member's own type: a scalar member at an offset that is the same in every lane, a
    /// multiple of its alignment, a warp-uniform unknown decided over all its values. Only
    /// when `p` is the same in every lane too (`shared_storage.seq_len`), where the
    /// offset cannot matter: each lane reads the same bytes.
    fn member_at_unknown_offset(&mut self, p: &Place, field: &str) -> Option<Place> {
        if p.offset.var_mask() & 0b111 != 0 {
            return None;
        }
        let def = self.struct_def(&p.ty.base)?;
        // A member of an unnamed member is not placed here: its offset is the unnamed
        // member's plus its own.
        let f = def.fields.iter().find(|f| f.name == field)?;
        // A member typed by the struct's own template parameter is not known here.
        if !f.extents.is_empty() || def.template_params.iter().any(|t| t.name == f.ty.base) {
            return None;
        }
        let ty = f.ty.clone();
        let layout = self.layout(&ty)?;
        let key = format!("offsetof({}, {field})", p.ty.base);
        let offset = self.keyed_var(&key, &key, VarKind::Uniform { range: None });
        Some(Place {
            offset: fold(
                BinOp::Add,
                p.offset.clone(),
                fold(BinOp::Mul, offset, int(layout.align.max(1) as i64)),
            ),
            ty,
            layout: Some(layout),
            index_spans: Vec::new(),
            plain: false,
            coords: None,
            ..p.clone()
        })
    }

    /// The type of member `field` of struct `owner` when bankcheck cannot lay that type
    /// out (a template type parameter: `volatile SegmentSizeT counts[N]`).
    pub(super) fn unknown_member_type(&mut self, owner: &TypeName, field: &str) -> Option<String> {
        let def = self.struct_def(&owner.base)?;
        let types = self.syn.types();
        let f = types.find_field(def, field)?;
        let ty = f.ty.clone();
        (ty.pointers == 0 && self.layout(&ty).is_none()).then_some(ty.base)
    }

    /// A pointer to the first element of `p`, the place of member `field` of a struct of
    /// type `owner` in shared memory, when that member is an array (`h.bins`).
    pub(super) fn array_member(&self, owner: &TypeName, field: &str, p: &Place) -> Option<Value> {
        let def = self.struct_def(&owner.base)?;
        let types = self.syn.types();
        let f = types.find_field(def, field)?;
        (!f.extents.is_empty() && f.ty.pointers == 0).then(|| Value::Ptr {
            array: p.array,
            offset: p.offset.clone(),
            pointee: p.ty.clone(),
            name: Some(field.to_string()),
        })
    }

    /// `&inner`: a pointer into shared memory, or memory elsewhere.
    pub(super) fn address_of(&mut self, inner: &Expr) -> Value {
        match self.place(inner) {
            Some(Ok(p)) => Value::Ptr {
                array: p.array,
                offset: p.offset,
                pointee: p.ty,
                name: p.pointer,
            },
            // Still a pointer into the array it names, at an offset not followed.
            Some(Err(v)) => match self.array_of(inner).0 {
                Some(array) if !matches!(v, Value::LostPtr { .. }) => Value::LostPtr {
                    array,
                    reason: v.reason(),
                },
                _ => v,
            },
            None => {
                self.eval_lvalue_parts(inner);
                Value::Memory
            }
        }
    }

    /// The shared-memory place an lvalue reaches: `None` when it is not in shared
    /// memory, `Some(Err)` when it is but its address cannot be lowered.
    pub(super) fn place(&mut self, e: &Expr) -> Option<Result<Place, Value>> {
        match &e.kind {
            ExprKind::Index(base, index) => {
                // Collect the chain of subscripts down to the root.
                let mut indices = vec![index.as_ref()];
                let mut root = base.as_ref();
                while let ExprKind::Index(b, i) = &root.kind {
                    indices.push(i.as_ref());
                    root = b.as_ref();
                }
                indices.reverse();
                let root_value = self.root_value(root)?;
                let index_spans: Vec<Span> = indices.iter().map(|i| i.span).collect();
                let idx_values: Vec<Value> = indices.iter().map(|i| self.eval(i)).collect();
                Some(self.index_place(
                    root_value,
                    &idx_values,
                    index_spans,
                    matches!(root.kind, ExprKind::Ident(_)),
                ))
            }
            ExprKind::Member(base, field) => {
                let p = self.place(base)?;
                Some(p.and_then(|p| {
                    let Some(m) = self.member_layout(&p.ty, field) else {
                        return self.member_at_unknown_offset(&p, field).ok_or_else(|| {
                            let why = unknown_member(field, &p.ty.base);
                            // A member whose own type is not known names it, so that a
                            // type parameter no instantiation fixes is tried at each size.
                            Value::Unknown(match self.unknown_member_type(&p.ty, field) {
                                Some(t) => Reason::unknown_type(why, &t),
                                None => why.into(),
                            })
                        });
                    };
                    let fty = m.ty.unwrap_or_else(|| TypeName {
                        base: format!("__bytes{}", m.layout.size),
                        pointers: 0,
                    });
                    Ok(Place {
                        offset: fold(BinOp::Add, p.offset, int(m.offset as i64)),
                        ty: fty,
                        layout: Some(m.layout),
                        ..p
                    })
                }))
            }
            ExprKind::Unary(UnaryOp::Deref, inner) => {
                // `*p`, and `*arr` where the array decays to a pointer to its first element.
                let pointer = match self.eval(inner) {
                    Value::Array(a) => self.decay(a),
                    lost @ Value::LostPtr { .. } => return Some(Err(lost)),
                    other => other,
                };
                let Value::Ptr {
                    array,
                    offset,
                    pointee,
                    name,
                } = pointer
                else {
                    return None;
                };
                Some(Ok(self.pointee_place(array, offset, pointee, name)))
            }
            ExprKind::Call { callee, args, .. } => self.tensor_place(callee, args),
            ExprKind::Ident(name)
                if self.calls.this_place.is_some() && self.this_field(name).is_some() =>
            {
                self.this_field(name).map(Ok)
            }
            ExprKind::Ident(name) => match self.lookup(name).cloned().or_else(|| {
                self.syn
                    .global_shared
                    .iter()
                    .any(|d| d.name == *name)
                    .then(|| self.ident(name))
            }) {
                // A reference to a place in shared memory (`T& r = s[i];`).
                Some(Value::Ref {
                    array,
                    offset,
                    pointee,
                    name,
                }) => Some(Ok(self.pointee_place(array, offset, pointee, name))),
                // A scalar shared variable (`__shared__ int count;`).
                Some(Value::Array(a)) if self.arrays[a].extents.is_empty() => {
                    let ty = element_of(&self.arrays[a]);
                    let layout = self.layout(&ty);
                    Some(Ok(Place {
                        array: a,
                        offset: int(0),
                        ty,
                        layout,
                        pointer: None,
                        index_spans: Vec::new(),
                        plain: true,
                        coords: None,
                    }))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The place a pointer points at, or a reference names: its pointee at `offset`.
    fn pointee_place(
        &mut self,
        array: usize,
        offset: crate::model::ir::Expr,
        pointee: TypeName,
        name: Option<String>,
    ) -> Place {
        let layout = self.layout(&pointee);
        Place {
            array,
            offset,
            ty: pointee,
            layout,
            pointer: name,
            index_spans: Vec::new(),
            plain: false,
            coords: None,
        }
    }

    /// The value of the root of a subscript chain when it refers to shared memory.
    fn root_value(&mut self, root: &Expr) -> Option<Value> {
        // A reference subscripted is a reference to an array or a row
        // (`auto& row = tile[ty]; row[tx]`): its first element's address, nothing read.
        if let ExprKind::Ident(n) = &root.kind {
            if let Some(Value::Ref {
                array,
                offset,
                pointee,
                name,
            }) = self.lookup(n).cloned()
            {
                return Some(Value::Ptr {
                    array,
                    offset,
                    pointee,
                    name,
                });
            }
        }
        let v = match &root.kind {
            ExprKind::Ident(_)
            | ExprKind::Cast(..)
            | ExprKind::Member(..)
            | ExprKind::Binary(..)
            | ExprKind::Unary(UnaryOp::AddrOf, _)
            | ExprKind::Call { .. } => {
                if let ExprKind::Member(base, field) = &root.kind {
                    if let Some(p) = self.place(root) {
                        // An array member of a struct in shared memory (`h.bins[i]`):
                        // subscripted through a pointer to its first element.
                        let owner = match self.place(base) {
                            Some(Ok(b)) => Some(b.ty),
                            _ => None,
                        };
                        return match (p, owner) {
                            (Ok(p), Some(owner)) => self.array_member(&owner, field, &p),
                            // In shared memory, at a place bankcheck cannot lower: the
                            // subscript is still an access, `unknown` with the reason.
                            (Err(v @ Value::Unknown(_)), _) => Some(v),
                            _ => None,
                        };
                    }
                }
                self.eval(root)
            }
            _ => return None,
        };
        match v {
            Value::Array(_) | Value::LostPtr { .. } => Some(v),
            Value::Ptr { .. } => Some(if let ExprKind::Ident(n) = &root.kind {
                match v {
                    Value::Ptr {
                        array,
                        offset,
                        pointee,
                        name: None,
                    } => Value::Ptr {
                        array,
                        offset,
                        pointee,
                        name: Some(n.clone()),
                    },
                    other => other,
                }
            } else {
                v
            }),
            _ => None,
        }
    }

    /// The place `root[idx...]` reaches (`root` an array or a pointer), or why it
    /// cannot be lowered.
    fn index_place(
        &mut self,
        root: Value,
        idx: &[Value],
        index_spans: Vec<Span>,
        root_is_name: bool,
    ) -> Result<Place, Value> {
        let mut ints = Vec::with_capacity(idx.len());
        for v in idx {
            // A floating-point index is converted to an integer, truncated.
            let v = &crate::lower::vector::int_component(v.clone());
            match v {
                Value::Int(i) => ints.push(i.clone()),
                other => {
                    let why = describe_unknown(other);
                    return Err(Value::Unknown(why.reworded(format!("the index {why}"))));
                }
            }
        }
        match root {
            Value::Array(a) => {
                let info = self.arrays[a].clone();
                let elem_ty = element_of(&info);
                let elem = u64::from(info.element_bytes.max(1));
                // Strides of the dimensions, innermost 1.
                let n = info.extents.len();
                let mut offset = int(0);
                let symbolic = self.symbolic_extents.get(&a);
                for (d, i) in ints.iter().enumerate() {
                    let mut stride = elem;
                    let mut symbolic_stride: Option<Ir> = None;
                    for (k, e) in info.extents.iter().enumerate().skip(d + 1) {
                        if let Some(e) = e {
                            stride *= e;
                            continue;
                        }
                        let Some(s) = symbolic.and_then(|v| v.get(k)).cloned().flatten() else {
                            let why = info
                                .extent_unknown
                                .as_deref()
                                .map_or(String::new(), |w| format!(": {w}"));
                            return Err(Value::Unknown(
                                format!("an extent of `{}` is not a constant{why}", info.name)
                                    .into(),
                            ));
                        };
                        symbolic_stride = Some(match symbolic_stride {
                            Some(t) => fold(BinOp::Mul, t, s),
                            None => s,
                        });
                    }
                    let mut term = fold(BinOp::Mul, i.clone(), int(stride as i64));
                    if let Some(s) = symbolic_stride {
                        term = fold(BinOp::Mul, term, s);
                    }
                    offset = fold(BinOp::Add, offset, term);
                }
                if info.element_bytes == 0 {
                    return Err(Value::Unknown(Reason::unknown_type(
                        format!(
                            "the element type `{}` of `{}` is not known",
                            info.element_type, info.name
                        ),
                        &info.element_type,
                    )));
                }
                if ints.len() < n {
                    // A sub-array: a pointer to its first element.
                    return Ok(Place {
                        array: a,
                        offset,
                        ty: elem_ty.clone(),
                        layout: None,
                        pointer: None,
                        index_spans,
                        plain: false,
                        coords: None,
                    });
                }
                let layout = self.layout(&elem_ty);
                Ok(Place {
                    array: a,
                    offset,
                    ty: elem_ty,
                    layout,
                    pointer: None,
                    index_spans,
                    plain: root_is_name && ints.len() == n,
                    coords: (root_is_name && ints.len() == n).then(|| ints.clone()),
                })
            }
            Value::Ptr {
                array,
                offset,
                pointee,
                name,
            } => {
                let layout = self.layout(&pointee).ok_or_else(|| {
                    Value::Unknown(unknown_type_reason("the pointee type", &pointee.base))
                })?;
                let mut off = offset;
                if let Some(i) = ints.first() {
                    off = fold(
                        BinOp::Add,
                        off,
                        fold(BinOp::Mul, i.clone(), int(layout.size as i64)),
                    );
                }
                if ints.len() > 1 {
                    return Err(Value::Unknown(
                        "a multi-dimensional subscript of a pointer".into(),
                    ));
                }
                Ok(Place {
                    array,
                    offset: off,
                    ty: pointee,
                    layout: Some(layout),
                    pointer: name,
                    index_spans,
                    plain: false,
                    coords: None,
                })
            }
            lost @ Value::LostPtr { .. } => Err(lost),
            Value::Unknown(r) => Err(Value::Unknown(r)),
            _ => Err(Value::Unknown("not a shared array".into())),
        }
    }
}

/// The type of an element of shared array `info`, with the pointers of its declarator.
pub(super) fn element_of(info: &ArrayInfo) -> TypeName {
    TypeName {
        base: info.element_type.clone(),
        pointers: info.element_pointers,
    }
}

/// Why a subscript's value is not an integer expression.
pub(super) fn describe_unknown(v: &Value) -> Reason {
    match v {
        Value::Data(r) => Reason::new(format!("depends on data: {r}")),
        Value::Unknown(r) => r.reworded(format!("cannot be resolved: {r}")),
        other => Reason::new(format!("is not an integer: {}", other.reason())),
    }
}

/// Why member `field` of a shared-memory value of type `ty` has no place bankcheck
/// knows: a swizzle of components that are not adjacent (`.yw`) is several accesses,
/// not one; anything else is a member of a type whose layout is not known.
fn unknown_member(field: &str, ty: &str) -> String {
    let swizzle = field.len() > 1
        && (field.chars().all(|c| "xyzw".contains(c)) || field.chars().all(|c| "rgba".contains(c)));
    if swizzle {
        format!(
            "the swizzle `.{field}` of `{ty}` reads components that are not adjacent, which bankcheck does not model as one access"
        )
    } else {
        format!("member `{field}` of `{ty}`, which bankcheck cannot place")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_swizzle_of_components_apart_says_so() {
        assert!(super::unknown_member("yw", "lpfloat4").starts_with("the swizzle `.yw`"));
        assert!(super::unknown_member("ra", "float4").starts_with("the swizzle `.ra`"));
        assert!(super::unknown_member("x", "Opaque").starts_with("member `x` of `Opaque`"));
        assert!(super::unknown_member("xr", "float4").starts_with("member `xr`"));
    }
}
