//! Recording accesses: at a place in shared memory an lvalue reaches, an [`AccessSite`]
//! with its lowered components (a `float3` is three 4-byte accesses), the guards in force,
//! the assumptions made, and the call it is reported at; the value it loads.

use super::budget::{MAX_IR_NODES, TOO_MUCH_WORK};
use super::{fold, int, Interp, Place, Value};
use crate::diag::{AccessKind, Span};
use crate::extract::ast::{Expr, ExprKind};
use crate::extract::types::Layout;
use crate::model::assumption::{Assumption, ShapeSource};
use crate::model::ir::{BinOp, LoweredAccess};
use crate::model::reason::Reason;
use crate::model::site::{AccessSite, LoweringContext};

/// An access lowered at its place, with what its site reports.
pub(super) struct LoweredPlace {
    pub(super) array: usize,
    pub(super) lowered: Result<Vec<LoweredAccess>, Reason>,
    pub(super) pointer: Option<String>,
    pub(super) index_spans: Vec<Span>,
    pub(super) plain: bool,
    pub(super) elem_bytes: u32,
}

impl Interp<'_> {
    /// Records an access of kind `kind` at the place `e` reaches, and returns the loaded value.
    pub(super) fn access_value(&mut self, e: &Expr, kind: AccessKind) -> Value {
        let Some(place) = self.place(e) else {
            return self.load_elsewhere(e);
        };
        if let Ok(p) = &place {
            if kind == AccessKind::Load && self.is_sub_array(e, p) {
                // `tile[i]` of a `tile[N][M]` reads nothing: the row decays to a pointer
                // to its first element, as C converts an array operand.
                return Value::Ptr {
                    array: p.array,
                    offset: p.offset.clone(),
                    pointee: p.ty.clone(),
                    name: None,
                };
            }
        }
        let Some(lowered) = self.lower_place(e, place, kind) else {
            return Value::Data("shared".into());
        };
        self.record_site(e.span, kind, lowered)
    }

    /// Whether `e`, a subscript chain whose place is `p`, names a whole row of a shared
    /// array (fewer subscripts than the array has dimensions) rather than an element.
    fn is_sub_array(&self, e: &Expr, p: &Place) -> bool {
        let mut subscripts = 0;
        let mut root = e;
        while let ExprKind::Index(b, _) = &root.kind {
            subscripts += 1;
            root = b;
        }
        // Only a subscript of the array itself leaves its place without a layout.
        p.layout.is_none() && subscripts > 0 && subscripts < self.arrays[p.array].extents.len()
    }

    /// The value of `e`, which is not in shared memory: its operands are evaluated for
    /// the accesses nested in them; the value is data (or, at a warp-uniform address, one
    /// uniform value).
    fn load_elsewhere(&mut self, e: &Expr) -> Value {
        let mut lane_dependent = false;
        if let ExprKind::Index(b, i) = &e.kind {
            let base = self.eval(b);
            // A component of a local vector, `v[1]`.
            if let Value::Vector(c) = &base {
                return match self.const_eval(i).and_then(|k| usize::try_from(k).ok()) {
                    Some(k) if k < c.len() => c[k].clone(),
                    _ => Value::Unknown(
                        format!(
                            "`{}` picks a vector component that is not a constant",
                            self.snippet(e.span)
                        )
                        .into(),
                    ),
                };
            }
            if let Value::Local(table) = base {
                let index = self.eval(i);
                if let Some(v) = table.and_then(|t| self.table_element(t, &index)) {
                    return v;
                }
                return Value::Data(format!(
                    "`{}` is an element of a thread-local array",
                    self.snippet(e.span)
                ));
            }
            if let Value::Int(i) = self.eval(i) {
                lane_dependent = i.var_mask() & 0b111 != 0;
                if !lane_dependent && i.var_mask() & !0b111 == 0 {
                    // A load at a warp-uniform constant address is one uniform value.
                    let name = self.snippet(e.span);
                    return Value::Int(self.uniform(&name, None));
                }
                if !lane_dependent {
                    let name = self.snippet(e.span);
                    return Value::Int(self.uniform(&name, None));
                }
            } else {
                lane_dependent = true;
            }
        } else if let ExprKind::Member(b, _) = &e.kind {
            self.eval(b);
        }
        // (`place` has evaluated the operand of a dereference already: evaluating it
        // again would double the work at each level of `***p`.)
        Value::Data(if lane_dependent {
            format!("`{}` is loaded per lane from memory", self.snippet(e.span))
        } else {
            format!("`{}` is loaded from memory", self.snippet(e.span))
        })
    }

    /// The lowered components of an access at `place` (or why it cannot be lowered),
    /// with what the site reports of it; `None` when the array of an unlowerable access
    /// cannot be found.
    pub(super) fn lower_place(
        &mut self,
        e: &Expr,
        place: Result<Place, Value>,
        kind: AccessKind,
    ) -> Option<LoweredPlace> {
        Some(match place {
            Ok(p) => {
                let elem = p.layout.map_or(0, |l| l.size as u32);
                let comps = match p.layout {
                    Some(l) => self.components(&p, l, kind == AccessKind::Atomic),
                    None => Err(unknown_type_reason("the accessed type", &p.ty.base)),
                };
                LoweredPlace {
                    array: p.array,
                    lowered: comps,
                    pointer: p.pointer,
                    index_spans: p.index_spans,
                    plain: p.plain,
                    elem_bytes: elem,
                }
            }
            Err(v) => {
                let (array, idx_spans) = self.array_of(e);
                let array = match &v {
                    Value::LostPtr { array, .. } => *array,
                    _ => array?,
                };
                LoweredPlace {
                    array,
                    lowered: Err(v.reason()),
                    pointer: None,
                    index_spans: idx_spans,
                    plain: false,
                    elem_bytes: self.arrays[array].element_bytes,
                }
            }
        })
    }

    /// Records the site of an access at `span` and returns the value it loads.
    pub(super) fn record_site(
        &mut self,
        span: Span,
        kind: AccessKind,
        place: LoweredPlace,
    ) -> Value {
        let LoweredPlace {
            array,
            lowered,
            pointer,
            index_spans,
            plain,
            elem_bytes,
        } = place;
        let index_texts = index_spans
            .iter()
            .map(|s| self.text.get(s.start..s.end).unwrap_or("").to_string())
            .collect();
        let mut assumptions = match &self.shape_source {
            ShapeSource::Assumed(c) => vec![Assumption::BlockShape(*c)],
            ShapeSource::Known(..) | ShapeSource::Unstated => Vec::new(),
        };
        assumptions.extend(self.pp_assumptions.iter().cloned());
        if let Some(why) = self.flow.unfollowed.last() {
            assumptions.push(Assumption::UnfollowedCondition(why.clone()));
        }
        if let Ok(comps) = &lowered {
            assumptions.extend(self.template_assumptions(comps));
        }
        // Every lane reading one word (an address no thread index reaches) reads one value:
        // a warp-uniform unknown, as a kernel parameter is.
        // What a site keeps is charged: the sites of a function stay within the budget.
        let stored: usize = lowered.as_ref().map_or(1, |comps| {
            comps
                .iter()
                .map(|c| {
                    c.address.size_up_to(MAX_IR_NODES)
                        + c.guards
                            .iter()
                            .map(|g| g.size_up_to(MAX_IR_NODES))
                            .sum::<usize>()
                        + c.vars.len()
                })
                .sum()
        });
        if !self.budget.spend(stored as u64) && self.sites.iter().any(|s| s.span == span) {
            // Past the budget a site already recorded is not recorded again.
            return Value::Unknown(TOO_MUCH_WORK.into());
        }
        let uniform_value = match &lowered {
            Ok(comps) => {
                !comps.is_empty() && comps.iter().all(|c| c.address.var_mask() & 0b111 == 0)
            }
            Err(_) => false,
        };
        // The innermost call written in the same file as the access: the line the user
        // edits (a call in another file cannot be pointed at from this file's report).
        let same_text = |t: &Option<std::sync::Arc<str>>| match (t, &self.foreign) {
            (None, None) => true,
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            _ => false,
        };
        let innermost = self.calls.spans.iter().rposition(|(_, t)| same_text(t));
        let call = innermost.map(|k| {
            // Through a reference parameter bound at this call: at the argument.
            self.calls
                .ref_args
                .get(k)
                .and_then(|refs| refs.iter().find(|(n, _)| Some(n) == pointer.as_ref()))
                .map_or(self.calls.spans[k].0, |(_, at)| *at)
        });
        // In another file's helper: the innermost call in the text being lowered, where
        // an array of that file reaches the helper (see `AccessSite::owner_call`).
        let owner_call = self.foreign.as_ref().and_then(|_| {
            self.calls
                .spans
                .iter()
                .rev()
                .find(|(_, t)| t.is_none())
                .map(|(at, _)| *at)
        });
        self.sites.push(AccessSite {
            span,
            call,
            helper_span: None,
            owner_call,
            helper_text: None,
            array,
            pointer,
            kind,
            element_bytes: elem_bytes,
            function: self.function.clone(),
            lowered,
            index_spans,
            index_texts,
            plain_subscript: plain,
            assumptions,
            foreign: self.foreign.clone(),
            via_calls: if self.foreign.is_some() {
                self.calls.spans.clone()
            } else {
                Vec::new()
            },
            type_variant: None,
            instantiation: None,
            context: Some(LoweringContext {
                shape: self.shape_source.clone(),
                through: Vec::new(),
            }),
        });
        if uniform_value {
            let name = self.snippet(span);
            return Value::Int(self.fresh_uniform(&name));
        }
        Value::Data(format!(
            "`{}` is loaded from shared memory",
            self.snippet(span)
        ))
    }

    /// The array an unlowerable access refers to, found syntactically.
    pub(super) fn array_of(&mut self, e: &Expr) -> (Option<usize>, Vec<Span>) {
        let mut spans = Vec::new();
        let mut cur = e;
        loop {
            match &cur.kind {
                ExprKind::Index(b, i) => {
                    spans.push(i.span);
                    cur = b;
                }
                ExprKind::Member(b, _) | ExprKind::Unary(_, b) | ExprKind::Cast(_, b) => cur = b,
                ExprKind::Ident(name) => {
                    spans.reverse();
                    // The name's value, not a read of it (a shared scalar or a reference
                    // evaluated would be recorded as a load).
                    return match self.ident(name) {
                        Value::Array(a)
                        | Value::Ptr { array: a, .. }
                        | Value::LostPtr { array: a, .. }
                        | Value::Ref { array: a, .. } => (Some(a), spans),
                        Value::Tensor(t) => (Some(t.array), spans),
                        _ => (None, spans),
                    };
                }
                // A CuTe tensor called at coordinates (`sQ(i, j)`).
                ExprKind::Call { callee, args, .. } => {
                    return match self.lookup(callee) {
                        Some(Value::Tensor(t)) => {
                            (Some(t.array), args.iter().map(|a| a.span).collect())
                        }
                        _ => (None, spans),
                    };
                }
                _ => return (None, spans),
            }
        }
    }

    /// Splits an access into naturally aligned components (bank-model.md: `float3` is three
    /// 4-byte accesses) and builds the lowered accesses.
    pub(super) fn components(
        &self,
        p: &Place,
        l: Layout,
        atomic: bool,
    ) -> Result<Vec<LoweredAccess>, Reason> {
        let read = self
            .flow
            .guards
            .iter()
            .fold(p.offset.var_mask(), |m, g| m | g.var_mask());
        if let Some(why) = self.floor_clash(read) {
            return Err(why);
        }
        let natural = matches!(l.size, 1 | 2 | 4 | 8 | 16) && l.align >= l.size;
        let (width, count) = if natural {
            (l.size, 1)
        } else {
            (l.align.clamp(1, 16), l.size / l.align.clamp(1, 16))
        };
        if width == 0 || count == 0 || count > 64 {
            return Err(format!("an element of {} bytes", l.size).into());
        }
        Ok((0..count)
            .map(|c| LoweredAccess {
                vars: Vec::new(),
                address: fold(BinOp::Add, p.offset.clone(), int((c * width) as i64)),
                width: width as u32,
                atomic,
                guards: self.flow.guards.iter().fold(Vec::new(), |mut out, g| {
                    g.split_conjuncts(&mut out);
                    out
                }),
                block: self.block,
                warp_size: self.warp_size,
                coords: if count == 1 { p.coords.clone() } else { None },
                extents: self.arrays[p.array]
                    .extents
                    .iter()
                    .map(|e| e.unwrap_or(0))
                    .collect(),
            })
            // The thread coordinates stay variables 0 to 2, as the analyses expect.
            .map(|a| a.with_vars_from(&self.vars, 3))
            .collect())
    }
}

/// Why a type's size is unknown. Library storage types (CUB's `TempStorage`, CUTLASS's
/// `SharedStorage`, CuTe buffers, barriers) are opaque by design and said to be so, so
/// that they are counted apart from what bankcheck fails to follow.
pub(super) fn unknown_type_reason(what: &str, ty: &str) -> Reason {
    let opaque = [
        "Storage",
        "storage",
        "barrier",
        "__uninitialized_array",
        "cute::",
    ];
    if opaque.iter().any(|o| ty.contains(o)) {
        // Library storage is opaque by design: not a type to try sizes for.
        Reason::new(format!(
            "opaque library storage: {what} `{ty}` is a library's type"
        ))
    } else {
        Reason::unknown_type(format!("{what} `{ty}` is not known"), ty)
    }
}
