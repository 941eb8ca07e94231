//! CuTe tensors over shared memory (docs/bank-model.md, "CuTe layouts"):
//! `make_tensor(make_smem_ptr(p), Layout{})` binds a tensor, whose layout is read by
//! [`crate::lower::cute::reader`] from its spelling, type aliases of traits structs
//! included (evaluated with the kernel's template arguments, as static members are);
//! `tensor(i, j)` is an access at the layout's offset function; `local_partition`,
//! `local_tile` and `tensor(_, j)` slice it. Copies through a `TiledCopy` partition
//! are in `tiled`; the partitions of a `TiledMMA` are not modelled: they are `unknown`
//! accesses that say so.

mod host;
mod mma;
mod sizes;
mod tiled;

use super::access::LoweredPlace;
use super::budget::TOO_MUCH_WORK;
use super::{Interp, Place, Value};
use crate::diag::{AccessKind, Span};
use crate::extract::ast::{Expr, ExprKind, TypeName, VarDecl};
use crate::extract::convert::type_from_text;
use crate::extract::parse_snippet;
use crate::extract::types::Scope;
use crate::lower::cute::layout::Layout;
use crate::lower::cute::reader::{self, Names};
use crate::lower::cute::tensor::SharedTensor;
use crate::lower::fold::fold;
use crate::model::ir::{BinOp, Expr as Ir};

/// Deepest chain of aliases followed (`SmemLayoutQ` names `SmemLayoutAtomQ` ...).
const MAX_ALIAS_DEPTH: u32 = 8;

/// The CuTe functions whose result is a layout, a shape or a tuple.
const LAYOUT_FUNCTIONS: &[&str] = &[
    "make_layout",
    "make_shape",
    "make_stride",
    "make_tile",
    "make_coord",
    "composition",
    "tile_to_shape",
    "coalesce",
    "logical_divide",
    "zipped_divide",
    "logical_product",
    "blocked_product",
    "right_inverse",
    "complement",
];

/// The member functions that partition a tensor for a `TiledCopy` or `TiledMMA`.
const PARTITIONS: &[&str] = &[
    "partition_S",
    "partition_D",
    "partition_A",
    "partition_B",
    "partition_C",
    "retile_S",
    "retile_D",
];

/// The reader's view of the interpreter: constants and aliases in `scope` (`None`: the
/// function being interpreted).
struct InterpNames<'i, 'a> {
    interp: &'i mut Interp<'a>,
    scope: Option<Scope>,
    depth: u32,
    /// Reading a launch's host function: its locals before this point come first.
    host: Option<host::HostAt>,
}

impl Names for InterpNames<'_, '_> {
    fn int(&mut self, text: &str) -> Option<i64> {
        if let (Some(at), true) = (self.host, is_name(text)) {
            if let Some(v) = self.host_named(text.trim(), at) {
                return match v {
                    Ok(reader::Value::Int(i)) => Some(i),
                    _ => None,
                };
            }
        }
        let e = if is_name(text) {
            Expr {
                span: Span::new(0, 0),
                kind: ExprKind::Ident(text.to_string()),
            }
        } else {
            parse_snippet(text, self.interp.language(), Span::new(0, 0))?
        };
        let v = match &self.scope {
            Some(s) => self.interp.eval_in(&e, s),
            None => self.interp.eval(&e),
        };
        match v {
            Value::Int(i) => i.as_const(),
            _ => None,
        }
    }

    fn named(&mut self, name: &str) -> Option<Result<reader::Value, String>> {
        if let Some(at) = self.host {
            if let Some(v) = self.host_named(name, at) {
                return Some(v);
            }
        }
        if self.scope.is_none() {
            if let Some(Value::Cute(v)) = self.interp.lookup(name) {
                return Some(Ok((**v).clone()));
            }
            if let Some(Value::Unknown(why)) = self.interp.lookup(&unread_alias(name)) {
                return Some(Err(why.to_string()));
            }
        }
        if self.depth >= MAX_ALIAS_DEPTH {
            return Some(Err(format!("`{name}` names aliases too deeply")));
        }
        let (texts, scope) = self.interp.type_alias(name, self.scope.as_ref())?;
        // Each branch's spelling is read; they must agree.
        let mut value: Option<reader::Value> = None;
        for text in texts {
            // Reading costs in proportion to the text read, as building IR does.
            if !self.interp.budget.spend(text.len() as u64) {
                return Some(Err(TOO_MUCH_WORK.into()));
            }
            let mut inner = InterpNames {
                interp: &mut *self.interp,
                scope: scope.clone(),
                depth: self.depth + 1,
                // A file-level alias sees no host function's locals.
                host: None,
            };
            let v = match reader::read(&text, &mut inner) {
                Ok(v) => v,
                Err(why) => return Some(Err(why)),
            };
            if value.as_ref().is_some_and(|w| *w != v) {
                return Some(Err(format!(
                    "`{name}` differs between the branches of a conditional"
                )));
            }
            value = Some(v);
        }
        value.map(Ok)
    }
}

/// A plain or qualified identifier.
fn is_name(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty()
        && !t.starts_with(|c: char| c.is_ascii_digit())
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

impl Interp<'_> {
    /// The CuTe value `e` spells (a local holding one, or its text), in the function's
    /// scope.
    fn read_cute(&mut self, e: &Expr) -> Result<reader::Value, String> {
        if let ExprKind::Ident(n) = &e.kind {
            if let Some(Value::Cute(v)) = self.lookup(n) {
                return Ok((**v).clone());
            }
        }
        let text = self.text;
        let spelled = text.get(e.span.start..e.span.end).unwrap_or("");
        if !self.budget.spend(spelled.len() as u64) {
            return Err(TOO_MUCH_WORK.into());
        }
        let mut names = InterpNames {
            interp: self,
            scope: None,
            depth: 0,
            host: None,
        };
        reader::read(spelled, &mut names)
    }

    /// `using name = text;` in a body: bound to the CuTe value it spells; when it spells
    /// none, why is kept under another key (the alias may name any type, which the
    /// name must not shadow).
    pub(super) fn local_alias(&mut self, name: &str, text: &str) {
        if let Some(made) = self.tiled_copy_spelled(text, None, None) {
            match made {
                Ok(tc) => self.bind(
                    name,
                    Value::Cute(Box::new(reader::Value::TiledCopy(Box::new(tc)))),
                ),
                Err(why) => self.bind(&unread_alias(name), Value::Unknown(why.into())),
            }
            return;
        }
        let mut names = InterpNames {
            interp: self,
            scope: None,
            depth: 0,
            host: None,
        };
        match reader::read(text, &mut names) {
            Ok(v) => self.bind(name, Value::Cute(Box::new(v))),
            Err(why) => {
                self.bind(&unread_alias(name), Value::Unknown(why.into()));
                if let Some(ty) = self.alias_type(text) {
                    self.type_args.insert(name.to_string(), ty);
                }
            }
        }
    }

    /// The type a member alias of a traits struct stands for (`typename
    /// Kernel_traits::Element`, through `using Element = elem_type;` to the struct's
    /// template argument), for element types named through a local alias; the
    /// branches of an undecided conditional must agree.
    fn alias_type(&mut self, text: &str) -> Option<TypeName> {
        let name = unqualified(text);
        if !name.contains("::") {
            return None;
        }
        self.resolve_alias_type(&name, None, 0)
    }

    /// `name` in `scope` (`None`: the function's) through aliases to a type: a template
    /// argument of the scope, or a spelling that is no alias.
    fn resolve_alias_type(
        &mut self,
        name: &str,
        scope: Option<&Scope>,
        depth: u32,
    ) -> Option<TypeName> {
        if let Some(t) = scope.and_then(|s| s.types.get(name)) {
            return Some(t.clone());
        }
        if depth >= MAX_ALIAS_DEPTH {
            return None;
        }
        let Some((texts, inner)) = self.type_alias(name, scope) else {
            // No alias: a type as written, when it is one the layouts know.
            let ty = type_from_text(name);
            return (depth > 0 && self.layout(&ty).is_some()).then_some(ty);
        };
        let inner = inner.or_else(|| scope.cloned());
        let mut found: Option<TypeName> = None;
        for t in texts {
            let ty = self.resolve_alias_type(&unqualified(&t), inner.as_ref(), depth + 1)?;
            if found.as_ref().is_some_and(|f| *f != ty) {
                return None;
            }
            found = Some(ty);
        }
        found
    }

    /// The shared tensor a name is bound to.
    fn tensor_named(&self, callee: &str) -> Option<SharedTensor> {
        match self.lookup(callee.trim()) {
            Some(Value::Tensor(t)) => Some((**t).clone()),
            _ => None,
        }
    }

    /// `Tensor t = ...` or `auto t = ...` initialised by a CuTe function: bound to the
    /// tensor or layout it gives, not read as an object of a CuTe class.
    pub(super) fn declare_cute(&mut self, d: &VarDecl) -> bool {
        if d.init.is_none() && d.ty.pointers == 0 && self.declare_tiled_copy(&d.name, &d.ty.base) {
            return true;
        }
        let Some(Expr {
            kind: ExprKind::Call { callee, .. },
            ..
        }) = &d.init
        else {
            return false;
        };
        let short = callee.strip_prefix("cute::").unwrap_or(callee);
        let method = short.rsplit_once('.').map(|(_, m)| m);
        let cute = matches!(
            short,
            "make_tensor"
                | "local_partition"
                | "local_tile"
                | "make_tiled_copy"
                | "make_tiled_copy_A"
                | "make_tiled_copy_B"
                | "make_tiled_copy_C"
                | "make_tiled_mma"
        ) || LAYOUT_FUNCTIONS.contains(&short)
            || method.is_some_and(|m| {
                PARTITIONS.contains(&m) || matches!(m, "data" | "get_slice" | "get_thread_slice")
            });
        if !cute || d.ty.pointers > 0 {
            return false;
        }
        let v = self.eval(d.init.as_ref().expect("matched above"));
        self.bind(&d.name, v);
        true
    }

    /// A call that CuTe defines on shared tensors and layouts; `None` for any other.
    pub(super) fn cute_call(&mut self, e: &Expr, callee: &str, args: &[Expr]) -> Option<Value> {
        if self.tensor_named(callee).is_some() {
            let kind = AccessKind::Load;
            return Some(if args.iter().any(is_underscore) {
                self.slice_value(callee, args)
            } else {
                self.access_value(e, kind)
            });
        }
        if let Some((object, method)) = callee.rsplit_once('.') {
            return self.cute_method(object, method, args);
        }
        let short = callee.strip_prefix("cute::").unwrap_or(callee);
        match short {
            "make_smem_ptr" if args.len() == 1 => Some(self.eval(&args[0])),
            "make_tensor" if args.len() >= 2 => Some(self.make_tensor(args)),
            "make_tiled_copy" if (2..=3).contains(&args.len()) => Some(self.tiled_copy_value(args)),
            "make_tiled_copy_A" | "make_tiled_copy_B" | "make_tiled_copy_C" if args.len() == 2 => {
                Some(self.tiled_copy_for_mma(short, args))
            }
            "make_tiled_mma" if (1..=3).contains(&args.len()) => Some(self.tiled_mma_value(args)),
            "local_partition" | "local_tile" if args.len() == 3 => {
                let t = self.tensor_arg(&args[0])?;
                Some(self.partition(short, &t, &args[1], &args[2]))
            }
            "copy" | "copy_if" | "copy_aligned" => self.copy_call(e, args),
            "gemm" => self.gemm_call(e, args),
            "size" | "cosize" if args.len() == 1 => self.size_call(e, short, &args[0]),
            _ if LAYOUT_FUNCTIONS.contains(&short) => Some(match self.read_cute(e) {
                Ok(v) => Value::Cute(Box::new(v)),
                Err(why) => Value::Unknown(why.into()),
            }),
            _ => None,
        }
    }

    /// `t.data()` of a shared tensor, and the partitions of one by a `TiledCopy` or
    /// `TiledMMA` slice (not modelled: the accesses through them are `unknown`).
    fn cute_method(&mut self, object: &str, method: &str, args: &[Expr]) -> Option<Value> {
        if method == "data" && args.is_empty() {
            let t = self.tensor_named(object)?;
            return Some(Value::Ptr {
                array: t.array,
                offset: t.base,
                pointee: t.pointee,
                name: t.name,
            });
        }
        if matches!(method, "get_slice" | "get_thread_slice") {
            return self.thread_slice(object, args);
        }
        if !PARTITIONS.contains(&method) || args.len() != 1 {
            return None;
        }
        let t = self.tensor_arg(&args[0])?;
        if let Some(v) = self.copy_partition(object, method, &t) {
            return Some(v);
        }
        let why = match method {
            "partition_S" | "partition_D" => {
                match self.lookup(object.trim()) {
                    Some(Value::Unknown(r)) => {
                        format!("`{object}` is the slice of a TiledCopy bankcheck cannot read: {r}")
                    }
                    _ => format!(
                        "`{object}` is not the slice of a TiledCopy bankcheck follows: one made in this function by `make_tiled_copy`, or passed as an argument from a host function of the file that makes it"
                    ),
                }
            }
            "partition_A" | "partition_B" | "partition_C" => format!(
                "`{object}.{method}` partitions the shared tensor for a TiledMMA, which bankcheck does not follow yet"
            ),
            _ => format!(
                "`{object}.{method}` retiles the shared tensor for a TiledCopy, which bankcheck does not follow yet"
            ),
        };
        Some(Value::Tensor(Box::new(t.unknown(why))))
    }

    /// The shared tensor an argument names (an identifier bound to one, or an
    /// expression giving one); `None` when it is none, evaluating nothing.
    fn tensor_arg(&mut self, a: &Expr) -> Option<SharedTensor> {
        match &a.kind {
            ExprKind::Ident(n) => self.tensor_named(n),
            // A slice, `tCsA(_, _, k)`.
            ExprKind::Call { callee, args, .. }
                if args.iter().any(is_underscore) && self.tensor_named(callee).is_some() =>
            {
                match self.slice_value(callee, args) {
                    Value::Tensor(t) => Some(*t),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `make_tensor(ptr, layout)` or `make_tensor(ptr, shape, stride)`: a shared tensor
    /// when `ptr` points into shared memory.
    fn make_tensor(&mut self, args: &[Expr]) -> Value {
        let pointer = match self.eval(&args[0]) {
            Value::Array(a) => self.decay(a),
            other => other,
        };
        let Value::Ptr {
            array,
            offset: base,
            pointee,
            name,
        } = pointer
        else {
            for a in &args[1..] {
                self.eval(a);
            }
            return Value::Memory;
        };
        let layout = if args.len() == 2 {
            self.read_cute(&args[1])
                .and_then(|v| v.layout().ok_or_else(|| "not a layout".to_string()))
        } else {
            let parts: Result<Vec<_>, String> =
                args[1..].iter().map(|a| self.read_cute(a)).collect();
            parts.and_then(|p| match p.as_slice() {
                [s, d] => s
                    .int_tuple()
                    .zip(d.int_tuple())
                    .and_then(|(s, d)| Layout::new(s, d))
                    .map(crate::lower::cute::swizzle::SwizzledLayout::plain)
                    .ok_or_else(|| "a shape and stride that do not fit".to_string()),
                _ => Err("a tensor made from more than a shape and a stride".to_string()),
            })
        };
        let layout = layout.map_err(|why| format!("the layout of the tensor: {why}"));
        Value::Tensor(Box::new(SharedTensor {
            array,
            base,
            pointee,
            name,
            inner: Ir::Const(0),
            layout,
            copy: None,
        }))
    }

    /// `local_partition(t, threads, index)` or `local_tile(t, tiler, coord)`.
    fn partition(&mut self, which: &str, t: &SharedTensor, tiler: &Expr, at: &Expr) -> Value {
        let spelled = self.read_cute(tiler);
        let coords: Vec<Value> = match &at.kind {
            ExprKind::Call { callee, args, .. }
                if callee.trim_start_matches("cute::") == "make_coord" =>
            {
                args.iter().map(|a| self.eval(a)).collect()
            }
            _ => vec![self.eval(at)],
        };
        let coords: Option<Vec<Ir>> = coords
            .into_iter()
            .map(|v| match v {
                Value::Int(i) => Some(i),
                _ => None,
            })
            .collect();
        let sliced = match (spelled, coords) {
            (Err(why), _) => t.unknown(format!("the tiler of `{which}`: {why}")),
            (_, None) => t.unknown(format!("the coordinate of `{which}` is not followed")),
            (Ok(v), Some(c)) if which == "local_partition" => match (v.layout(), c.as_slice()) {
                (Some(l), [index]) if l.swizzle.is_none() && l.offset == 0 => {
                    t.local_partition(&l.layout, index)
                }
                _ => t.unknown("the thread layout of `local_partition`".to_string()),
            },
            (Ok(v), Some(c)) => match v.tiler() {
                Some(tiler) => t.local_tile(&tiler, c),
                None => t.unknown("the tiler of `local_tile`".to_string()),
            },
        };
        Value::Tensor(Box::new(sliced))
    }

    /// `t(c0, _, ...)`: the tensor with the `_` modes kept.
    fn slice_value(&mut self, callee: &str, args: &[Expr]) -> Value {
        let Some(t) = self.tensor_named(callee) else {
            return Value::Unknown("not a tensor".into());
        };
        let mut crds = Vec::with_capacity(args.len());
        for a in args {
            if is_underscore(a) {
                crds.push(None);
                continue;
            }
            let text = self.snippet(a.span);
            match self.eval(a) {
                Value::Int(i) => crds.push(Some(i)),
                _ if static_int(&text).is_some() => {
                    crds.push(static_int(&text).map(super::int));
                }
                _ => {
                    return Value::Tensor(Box::new(t.unknown(format!(
                        "the coordinate `{}` is not followed",
                        self.snippet(a.span)
                    ))))
                }
            }
        }
        Value::Tensor(Box::new(t.slice(&crds)))
    }

    /// The place `t(args...)` reaches, for a name bound to a shared tensor; `None` for
    /// any other call.
    pub(super) fn tensor_place(
        &mut self,
        callee: &str,
        args: &[Expr],
    ) -> Option<Result<Place, Value>> {
        let t = self.tensor_named(callee)?;
        if args.iter().any(is_underscore) {
            return None;
        }
        let mut crds = Vec::with_capacity(args.len());
        for a in args {
            match self.eval(a) {
                Value::Int(i) => crds.push(i),
                other => {
                    return Some(Err(Value::Unknown(
                        other
                            .reason()
                            .reworded(format!("the coordinate {}", other.reason())),
                    )))
                }
            }
        }
        let spans = args.iter().map(|a| a.span).collect();
        Some(self.element_place(t, &crds, spans, callee))
    }

    /// The place of the element of `t` at `crds`.
    fn element_place(
        &mut self,
        t: SharedTensor,
        crds: &[Ir],
        index_spans: Vec<Span>,
        tensor: &str,
    ) -> Result<Place, Value> {
        let offset = t
            .element_offset(crds)
            .map_err(|why| Value::Unknown(why.into()))?;
        let Some(elem) = self.layout(&t.pointee) else {
            return Err(Value::Unknown(super::access::unknown_type_reason(
                "the element type",
                &t.pointee.base,
            )));
        };
        Ok(Place {
            array: t.array,
            offset: fold(
                BinOp::Add,
                t.base,
                fold(BinOp::Mul, offset, Ir::Const(elem.size as i64)),
            ),
            ty: t.pointee,
            layout: Some(elem),
            pointer: t.name.or_else(|| Some(tensor.to_string())),
            index_spans,
            plain: false,
            coords: None,
        })
    }

    /// `cute::copy(..., src, dst)` with a shared tensor among its operands: one access
    /// per shared operand (a load from the source, a store to the destination).
    /// `copy(src, dst)` of one element is that element's access, whatever the copy
    /// vectorises; any other copy is `unknown`, since the instructions it issues (their
    /// vector width, their iterations) are not modelled yet. `None` when no operand is
    /// a shared tensor.
    fn copy_call(&mut self, e: &Expr, args: &[Expr]) -> Option<Value> {
        let n = args.len();
        if n < 2 {
            return None;
        }
        let tiled = (n == 3).then(|| self.copy_of(&args[0])).flatten();
        let operands = self.shared_operands(args, 0..n)?;
        for (i, t) in operands {
            let kind = if i == n - 1 {
                AccessKind::Store
            } else {
                AccessKind::Load
            };
            if let Some(tc) = &tiled {
                if let Err(why) = self.tiled_copy_access(e, &args[i], tc, &t, kind) {
                    self.unknown_access(e, &args[i], kind, &t, why);
                }
                continue;
            }
            let single = t.layout.as_ref().is_ok_and(|l| l.layout.size() == Some(1));
            if n == 2 && single {
                let name = self.snippet(args[i].span);
                let place = self.element_place(t, &[Ir::Const(0)], vec![args[i].span], &name);
                if let Some(lowered) = self.lower_place(e, place, kind) {
                    self.record_site(e.span, kind, lowered);
                }
                continue;
            }
            let why = match &t.layout {
                Err(why) => why.clone(),
                Ok(l) => format!(
                    "the accesses of `cute::copy` over the layout `{l}` are not modelled yet (its vector width and iterations)"
                ),
            };
            self.unknown_access(e, &args[i], kind, &t, why);
        }
        Some(Value::Data("a CuTe copy".into()))
    }

    /// The arguments at `positions` that name shared tensors, the other arguments
    /// evaluated (for the accesses in them); `None`, evaluating nothing, when none does.
    fn shared_operands(
        &mut self,
        args: &[Expr],
        positions: impl IntoIterator<Item = usize>,
    ) -> Option<Vec<(usize, SharedTensor)>> {
        let shared: Vec<(usize, SharedTensor)> = positions
            .into_iter()
            .filter_map(|i| Some((i, self.tensor_arg(args.get(i)?)?)))
            .collect();
        if shared.is_empty() {
            return None;
        }
        for (i, a) in args.iter().enumerate() {
            if !shared.iter().any(|(j, _)| *j == i) {
                self.eval(a);
            }
        }
        Some(shared)
    }

    /// Records an `unknown` access at the call `e` of the shared tensor `operand`
    /// (its array, pointee and name in `t`), saying `why`.
    fn unknown_access(
        &mut self,
        e: &Expr,
        operand: &Expr,
        kind: AccessKind,
        t: &SharedTensor,
        why: String,
    ) {
        let elem_bytes = self.layout(&t.pointee).map_or(0, |l| l.size as u32);
        let place = LoweredPlace {
            array: t.array,
            lowered: Err(why.into()),
            pointer: t.name.clone(),
            index_spans: vec![operand.span],
            plain: false,
            elem_bytes,
        };
        self.record_site(e.span, kind, place);
    }
}

impl Interp<'_> {
    /// `cute::gemm([mma,] [D,] A, B, C)` with a shared tensor as `A` or `B`: one
    /// `unknown` load per shared operand, since the instructions an MMA's partition of
    /// shared memory issues are not modelled yet. `None` when neither is shared.
    fn gemm_call(&mut self, e: &Expr, args: &[Expr]) -> Option<Value> {
        let (a, b) = match args.len() {
            3 => (0, 1),
            4 => (1, 2),
            5 => (2, 3),
            _ => return None,
        };
        let shared = self.shared_operands(args, [a, b])?;
        for (i, t) in shared {
            let why = t.layout.clone().err().unwrap_or_else(|| {
                "the accesses of `cute::gemm` to a shared tensor are not modelled yet".to_string()
            });
            self.unknown_access(e, &args[i], AccessKind::Load, &t, why);
        }
        Some(Value::Data("the result of a CuTe gemm".into()))
    }
}

/// A type's spelling without `typename`.
fn unqualified(text: &str) -> String {
    text.trim()
        .trim_start_matches("typename ")
        .trim()
        .to_string()
}

/// The key under which why a local alias could not be read is kept (not an identifier,
/// so that no variable is shadowed).
pub(super) fn unread_alias(name: &str) -> String {
    format!("using {name}")
}

/// CuTe's `_`, the slice marker.
/// The value of a CuTe compile-time integer written as a value: `_0{}`, `cute::_2{}`,
/// `Int<4>{}` (a coordinate `tCsA(_, _, _0{})`).
fn static_int(text: &str) -> Option<i64> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let t = t.strip_prefix("cute::").unwrap_or(&t);
    let t = t.strip_suffix("{}").or_else(|| t.strip_suffix("()"))?;
    let digits = t
        .strip_prefix('_')
        .or_else(|| t.strip_prefix("Int<")?.strip_suffix('>'))?;
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

fn is_underscore(a: &Expr) -> bool {
    matches!(&a.kind, ExprKind::Ident(n) if n == "_" || n == "cute::_")
}

#[cfg(test)]
mod tests {
    #[test]
    fn static_ints_are_read_from_their_spelling() {
        assert_eq!(super::static_int("_0{}"), Some(0));
        assert_eq!(super::static_int("cute::_12{}"), Some(12));
        assert_eq!(super::static_int("Int<4>{}"), Some(4));
        assert_eq!(super::static_int("_{}"), None);
        assert_eq!(super::static_int("Int<k>{}"), None);
        assert_eq!(super::static_int("_0"), None);
    }
}
