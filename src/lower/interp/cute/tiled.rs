//! `TiledCopy` in the interpreter (docs/bank-model.md, "CuTe copies"):
//! `make_tiled_copy(Copy_Atom<Op, T>{}, thr_layout, val_layout)` binds a tiled copy,
//! `get_slice(tid)` its slice for a thread, `partition_S`/`partition_D` a shared tensor's
//! part for that thread, and `cute::copy(tiled_copy, src, dst)` on such a part is one
//! access per instruction the copy issues: its iterations are a loop counter, so the
//! verdict is the worst over them.

use super::super::access::LoweredPlace;
use super::super::{Interp, Place, Value};
use crate::diag::AccessKind;
use crate::extract::ast::{Expr, ExprKind, TypeName};
use crate::extract::convert::type_from_text;
use crate::extract::types::{Layout as TypeLayout, Scope};
use crate::lower::cute::atoms::{self, CopyAtom, Side};
use crate::lower::cute::layout::{coalesce, Layout};
use crate::lower::cute::reader::{self, Names as _};
use crate::lower::cute::tensor::SharedTensor;
use crate::lower::cute::tiled::{make_tiled_copy, TiledCopy};
use crate::lower::fold::fold;
use crate::model::ir::{BinOp, Expr as Ir, VarInfo, VarKind};

/// `make_tiled_copy(atom, thr_layout[, val_layout])` of layouts read.
fn build(atom: CopyAtom, layouts: &[Layout]) -> Result<TiledCopy, String> {
    let one = Layout::vector(1).expect("1:1 is a layout");
    let (thr, val) = match layouts {
        [t] => (t.clone(), one),
        [t, v] => (t.clone(), v.clone()),
        _ => return Err("a `make_tiled_copy` of other arguments".into()),
    };
    make_tiled_copy(atom, &thr, &val)
        .ok_or_else(|| format!("`make_tiled_copy` of `{thr}` and `{val}` (CuTe rejects it)"))
}

/// Deepest chain of aliases followed to a `Copy_Atom`.
const MAX_ATOM_DEPTH: u32 = 8;

impl Interp<'_> {
    /// `make_tiled_copy(atom, thr_layout[, val_layout])`.
    pub(super) fn tiled_copy_value(&mut self, args: &[Expr]) -> Value {
        let made = self.tiled_copy(args);
        match made {
            Ok(tc) => Value::Cute(Box::new(reader::Value::TiledCopy(Box::new(tc)))),
            Err(why) => Value::Unknown(why.into()),
        }
    }

    /// The tiled copy a type spells, `decltype(make_tiled_copy(atom{}, thr{}, val{}))`
    /// (read in `scope`); `None` when it spells none.
    pub(super) fn tiled_copy_spelled(
        &mut self,
        text: &str,
        scope: Option<&Scope>,
        host: Option<super::host::HostAt>,
    ) -> Option<Result<TiledCopy, String>> {
        let t = text.trim().trim_start_matches("typename ").trim();
        let inner = t
            .strip_prefix("decltype(")
            .and_then(|r| r.strip_suffix(')'))?
            .trim();
        let args = inner
            .trim_start_matches("cute::")
            .strip_prefix("make_tiled_copy(")
            .and_then(|r| r.strip_suffix(')'))?;
        let args = crate::lower::cute::text::split_args(args);
        let Some((atom, layouts)) = args.split_first() else {
            return Some(Err("a `make_tiled_copy` without a copy atom".into()));
        };
        let made = (|| {
            let atom = self.copy_atom(atom, scope.cloned(), 0)?;
            let mut read = Vec::new();
            for l in layouts {
                let mut names = super::InterpNames {
                    interp: &mut *self,
                    scope: scope.cloned(),
                    depth: 0,
                    host,
                };
                let v = reader::read(l, &mut names)?;
                read.push(
                    v.layout()
                        .filter(|l| l.swizzle.is_none() && l.offset == 0)
                        .ok_or_else(|| format!("`{l}` is not a thread or value layout"))?
                        .layout,
                );
            }
            build(atom, &read)
        })();
        Some(made)
    }

    /// `T name;` for a type `T` that spells a tiled copy or a tiled MMA (an alias of a
    /// traits struct or of the body): the name is bound to it. `false` for any other
    /// type; when `T` is qualified and cannot be resolved, why is kept for the reasons
    /// of what uses the name.
    pub(super) fn declare_tiled_copy(&mut self, name: &str, ty: &str) -> bool {
        let key = ty.trim().trim_start_matches("typename ").trim();
        if let Some(Value::Cute(v)) = self.lookup(key) {
            if let reader::Value::TiledCopy(_) | reader::Value::TiledMma(_) = **v {
                let v = Value::Cute(v.clone());
                self.bind(name, v);
                return true;
            }
        }
        if !key.contains("::") {
            return false;
        }
        let Some((texts, scope)) = self.type_alias(key, None) else {
            let owner = key.rsplit_once("::").map_or(key, |(o, _)| o);
            let why = format!(
                "`{name}` is of type `{key}`, which bankcheck cannot resolve here: `{owner}` is not bound to a type it reads (a template parameter that no instantiation it follows fixes, or a type it does not know)"
            );
            self.bind(&super::unread_alias(name), Value::Unknown(why.into()));
            return false;
        };
        let mut found: Option<Result<reader::Value, String>> = None;
        for text in texts {
            let made = match self.tiled_copy_spelled(&text, scope.as_ref(), None) {
                Some(made) => made.map(|tc| reader::Value::TiledCopy(Box::new(tc))),
                None => match self.tiled_mma_spelled(&text, scope.as_ref()) {
                    Some(made) => made.map(|m| reader::Value::TiledMma(Box::new(m))),
                    None => return false,
                },
            };
            if found.as_ref().is_some_and(|f| *f != made) {
                found = Some(Err(format!(
                    "`{key}` differs between the branches of a conditional"
                )));
                break;
            }
            found = Some(made);
        }
        let Some(made) = found else { return false };
        let v = match made {
            Ok(v) => Value::Cute(Box::new(v)),
            Err(why) => Value::Unknown(why.into()),
        };
        self.bind(name, v);
        true
    }

    fn tiled_copy(&mut self, args: &[Expr]) -> Result<TiledCopy, String> {
        let Some(atom) = args.first() else {
            return Err("a `make_tiled_copy` without a copy atom".into());
        };
        let text = self.text;
        let atom_text = text.get(atom.span.start..atom.span.end).unwrap_or("");
        let atom = self.copy_atom(atom_text, None, 0)?;
        let mut layouts = Vec::new();
        for a in &args[1..] {
            let l = self
                .read_cute(a)?
                .layout()
                .filter(|l| l.swizzle.is_none() && l.offset == 0)
                .ok_or_else(|| {
                    format!(
                        "`{}` is not a thread or value layout bankcheck reads",
                        self.snippet(a.span)
                    )
                })?;
            layouts.push(l.layout);
        }
        build(atom, &layouts)
    }

    /// The atom `text` spells: `Copy_Atom<Op, T>{}` or an alias of one, its layouts in
    /// elements of `T`.
    pub(super) fn copy_atom(
        &mut self,
        text: &str,
        scope: Option<Scope>,
        depth: u32,
    ) -> Result<CopyAtom, String> {
        let t = text
            .trim()
            .trim_end_matches("{}")
            .trim_end_matches("()")
            .trim()
            .trim_start_matches("typename ")
            .trim_start_matches("cute::")
            .trim();
        if let Some(inner) = t
            .strip_prefix("Copy_Atom<")
            .and_then(|r| r.strip_suffix('>'))
        {
            let parts = crate::lower::cute::text::split_args(inner);
            let [op, ty] = parts.as_slice() else {
                return Err(format!("`{t}` is not a copy atom bankcheck reads"));
            };
            let op = op.trim_start_matches("cute::");
            let op = op
                .strip_prefix("Copy_Traits<")
                .and_then(|r| r.strip_suffix('>'))
                .unwrap_or(op);
            let op = self.copy_operation(op, scope.as_ref(), 0);
            let mut bits = |name: &str| self.type_bits(name, scope.as_ref());
            let atom = atoms::atom_in_bits(&op, &mut bits)?;
            let elem = self
                .type_bits(ty, scope.as_ref())
                .ok_or_else(|| format!("the value type `{ty}` of the copy atom is not known"))?;
            return atoms::in_elements(atom, elem).ok_or_else(|| {
                format!("the copy atom `{t}` over values of {elem} bits (CuTe rejects it)")
            });
        }
        if depth < MAX_ATOM_DEPTH {
            let read = |i: &mut Self, text: &str, inner| i.copy_atom(text, inner, depth + 1);
            if let Some(a) = self.alias_alternatives(t, scope, |a, b| a == b, read) {
                return a;
            }
        }
        Err(format!("`{t}` is not a copy atom bankcheck reads"))
    }

    /// What alias `t` (read in `scope`) names, each of its spellings read by `read`:
    /// `None` when it is no alias; an error when the spellings of the branches of a
    /// conditional are not `same`.
    pub(super) fn alias_alternatives<T>(
        &mut self,
        t: &str,
        scope: Option<Scope>,
        same: impl Fn(&T, &T) -> bool,
        mut read: impl FnMut(&mut Self, &str, Option<Scope>) -> Result<T, String>,
    ) -> Option<Result<T, String>> {
        let (texts, inner) = self.type_alias(t, scope.as_ref())?;
        let inner = inner.or(scope);
        let mut found: Option<T> = None;
        for text in texts {
            let a = match read(self, &text, inner.clone()) {
                Ok(a) => a,
                Err(why) => return Some(Err(why)),
            };
            if found.as_ref().is_some_and(|f| !same(f, &a)) {
                return Some(Err(format!(
                    "`{t}` differs between the branches of a conditional"
                )));
            }
            found = Some(a);
        }
        found.map(Ok)
    }

    /// The copy operation `op` names: itself, or through an alias of a traits struct
    /// (`using Gmem_copy_struct = std::conditional_t<Has_cp_async, SM80_CP_ASYNC_...,
    /// ...>;`) the operation it spells, a `std::conditional_t` by the value of its
    /// condition; `op` itself when it is neither (the atom table then says why).
    fn copy_operation(&mut self, op: &str, scope: Option<&Scope>, depth: u32) -> String {
        let t = op.trim().trim_start_matches("typename ").trim();
        if depth >= MAX_ATOM_DEPTH {
            return t.to_string();
        }
        let inner = t
            .strip_prefix("std::conditional_t")
            .or_else(|| t.strip_prefix("conditional_t"))
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix('<')?.strip_suffix('>'));
        if let Some(inner) = inner {
            let parts = crate::lower::cute::text::split_args(inner);
            if let [cond, yes, no] = parts.as_slice() {
                let mut names = super::InterpNames {
                    interp: &mut *self,
                    scope: scope.cloned(),
                    depth: 0,
                    host: None,
                };
                return match names.int(cond) {
                    Some(0) => self.copy_operation(no, scope, depth + 1),
                    Some(_) => self.copy_operation(yes, scope, depth + 1),
                    None => t.to_string(),
                };
            }
            return t.to_string();
        }
        if t.contains('<') {
            return t.to_string();
        }
        match self.type_alias(t, scope) {
            Some((texts, inner)) if texts.len() == 1 => {
                let inner = inner.or_else(|| scope.cloned());
                self.copy_operation(&texts[0], inner.as_ref(), depth + 1)
            }
            _ => t.to_string(),
        }
    }

    /// The size in bits of a type named in an atom (a register type, a template
    /// argument, an alias of a traits struct).
    fn type_bits(&mut self, name: &str, scope: Option<&Scope>) -> Option<i64> {
        if let Some(b) = atoms::register_bits(name) {
            return Some(b);
        }
        let ty = self
            .resolve_alias_type(name.trim(), scope, 1)
            .or_else(|| scope.and_then(|s| s.types.get(name.trim()).cloned()))
            .unwrap_or_else(|| type_from_text(name.trim()));
        if let Some(b) = atoms::register_bits(&ty.base) {
            return Some(b);
        }
        let size = self.layout(&ty)?.size;
        i64::try_from(size).ok()?.checked_mul(8)
    }

    /// `tiled_copy.get_slice(tid)` / `get_thread_slice(tid)`.
    pub(super) fn thread_slice(&mut self, object: &str, args: &[Expr]) -> Option<Value> {
        let tc = match self.lookup(object.trim()) {
            Some(Value::Cute(v)) => match &**v {
                reader::Value::TiledCopy(tc) => tc.clone(),
                _ => return None,
            },
            // A `make_tiled_copy` bankcheck could not read: its slice says why, or why
            // its declared type could not be resolved.
            Some(Value::Unknown(r)) => {
                let r = match self.lookup(&super::unread_alias(object.trim())) {
                    Some(Value::Unknown(why)) => why.clone(),
                    _ => r.clone(),
                };
                return Some(Value::Unknown(r));
            }
            _ => return None,
        };
        let [arg] = args else { return None };
        Some(match self.eval(arg) {
            Value::Int(i) => Value::Cute(Box::new(reader::Value::ThrCopy(tc, i))),
            other => Value::Unknown(
                other
                    .reason()
                    .reworded(format!("the thread index of `{object}` {}", other.reason())),
            ),
        })
    }

    /// `thr_copy.partition_S(t)` or `partition_D(t)` of a shared tensor; `None` when
    /// `object` is no thread slice of a tiled copy.
    pub(super) fn copy_partition(
        &mut self,
        object: &str,
        method: &str,
        t: &SharedTensor,
    ) -> Option<Value> {
        let side = match method {
            "partition_S" => Side::Src,
            "partition_D" => Side::Dst,
            _ => return None,
        };
        let (tc, thread) = match self.lookup(object.trim()) {
            Some(Value::Cute(v)) => match &**v {
                reader::Value::ThrCopy(tc, thread) => (tc.clone(), thread.clone()),
                _ => return None,
            },
            _ => return None,
        };
        Some(Value::Tensor(Box::new(
            t.copy_partition(&tc, &thread, side),
        )))
    }

    /// The tiled copy the first argument of `cute::copy` names, if any.
    pub(super) fn copy_of(&self, e: &Expr) -> Option<TiledCopy> {
        let ExprKind::Ident(n) = &e.kind else {
            return None;
        };
        match self.lookup(n) {
            Some(Value::Cute(v)) => match &**v {
                reader::Value::TiledCopy(tc) | reader::Value::ThrCopy(tc, _) => {
                    Some((**tc).clone())
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// `cute::copy(tiled_copy, src, dst)` for its shared operand `t` (a `kind` access):
    /// one access per instruction, at the first element of each instruction's values,
    /// of the bytes the instruction moves per lane; `Err` says why it is not modelled.
    pub(super) fn tiled_copy_access(
        &mut self,
        e: &Expr,
        operand: &Expr,
        tc: &TiledCopy,
        t: &SharedTensor,
        kind: AccessKind,
    ) -> Result<(), String> {
        let l = t.layout.clone()?;
        let Some(part) = t.copy.as_deref() else {
            return Err(format!(
                "`{}` is not a partition by this TiledCopy (`partition_S`/`partition_D`)",
                self.snippet(operand.span)
            ));
        };
        let (atom, side) = part;
        if *atom != tc.atom {
            return Err(format!(
                "`{}` was partitioned for `{}`, copied with `{}`",
                self.snippet(operand.span),
                atom.op,
                tc.atom.op
            ));
        }
        if atom.shared.is_some_and(|s| s != *side) {
            return Err(format!(
                "`{}` moves shared memory on its other side than this partition",
                atom.op
            ));
        }
        let (values, bytes) = match side {
            Side::Src => (atom.src.mode(1), atom.bytes.0),
            Side::Dst => (atom.dst.mode(1), atom.bytes.1),
        };
        let values = values.and_then(|v| v.size()).unwrap_or(0);
        let elem = self.layout(&t.pointee).map_or(0, |l| l.size);
        let width = u64::try_from(values).unwrap_or(0) * elem;
        if width != u64::from(bytes) || !matches!(width, 1 | 2 | 4 | 8 | 16) {
            return Err(format!(
                "`{}` moves {bytes} bytes per lane, {values} elements of {elem} bytes here",
                atom.op
            ));
        }
        // The instruction's values: mode 0 of the partition, or its first sub-mode
        // (`(FrgV, FrgX)`), the rest iterated (`Copy_Atom::call` peels mode 0).
        let modes = l.layout.modes();
        let first = modes.first().ok_or("an empty partition")?.clone();
        let (frg, mut iter) = if first.size() == Some(values) {
            (first, Vec::new())
        } else if first.rank() == 2 && first.mode(0).and_then(|m| m.size()) == Some(values) {
            (
                first.mode(0).ok_or("a partition")?,
                vec![first.mode(1).ok_or("a partition")?],
            )
        } else {
            return Err(format!(
                "the partition `{l}` does not give `{}` its {values} values",
                atom.op
            ));
        };
        iter.extend(modes.into_iter().skip(1));
        // The values of one instruction are contiguous (CuTe recasts them to the
        // instruction's register type), and the swizzle keeps them so.
        let contiguous = values == 1 || coalesce(&frg) == Layout::vector(values).ok_or("")?;
        let swizzle_keeps = l
            .swizzle
            .is_none_or(|s| s.bits == 0 || (s.shift >= 0 && (1i64 << s.base) >= values));
        if !contiguous || !swizzle_keeps {
            return Err(format!(
                "the {values} values of one `{}` are not contiguous in `{l}`",
                atom.op
            ));
        }
        let iter = Layout::concat(iter);
        let trips = iter.size().ok_or("a partition too large")?;
        let k = if trips > 1 {
            let k = self.vars.len();
            self.vars.push(VarInfo {
                name: format!("the iterations of `{}`", self.snippet(e.span)),
                kind: VarKind::Counter {
                    trips: u64::try_from(trips).ok(),
                },
                loop_value: None,
            });
            Ir::Var(k)
        } else {
            Ir::Const(0)
        };
        let at = SharedTensor {
            layout: Ok(l.with(Layout::concat(vec![frg, iter]))),
            ..t.clone()
        };
        let offset = at.element_offset(&[Ir::Const(0), k])?;
        let layout = TypeLayout {
            size: width,
            align: width,
        };
        let place = Place {
            array: t.array,
            offset: fold(
                BinOp::Add,
                t.base.clone(),
                fold(BinOp::Mul, offset, Ir::Const(elem as i64)),
            ),
            ty: TypeName {
                base: format!("{width}-byte `{}`", atom.op),
                pointers: 0,
            },
            layout: Some(layout),
            pointer: t.name.clone(),
            index_spans: vec![operand.span],
            plain: false,
            coords: None,
        };
        // `ldmatrix.x1`/`.x2` (and `stmatrix`) take the addresses of the first 8 or 16
        // lanes only.
        let lowered = self.components_of_lanes(&place, layout, atom.lanes);
        let lowered = LoweredPlace {
            array: t.array,
            lowered,
            pointer: place.pointer,
            index_spans: place.index_spans,
            plain: false,
            elem_bytes: width as u32,
        };
        self.record_site(e.span, kind, lowered);
        Ok(())
    }
}
