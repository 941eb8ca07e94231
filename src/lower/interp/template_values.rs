//! Template parameters that no instantiation bankcheck follows gives a value, as
//! warp-uniform unknowns. A non-type template parameter is a compile-time constant, the
//! same in every lane of a warp: where no launch, explicit instantiation, default or
//! explicit argument at a call fixes it, it becomes a warp-uniform unknown, as a kernel
//! parameter is, of the range its type allows, and the analyses decide over every value
//! (or name the values that reach the worst case). A member of a type template parameter
//! read as a value (`Ktraits::COLS`) is a static member or an enumerator, which device
//! code can only read as a constant (CUDA allows no device variable as a static data
//! member), so it is one too. Only values: a type nothing fixes stays unknown (or is tried
//! at every element size, `templates`).
//!
//! Concrete arguments win: a parameter is bound only when no instantiation bound it, a
//! member only when the type's struct is not known, and every site that reads one
//! carries an [`Assumption::TemplateValue`], which the pipeline treats as open: the
//! headers' definitions are merged and includers that name it are lowered, as for a name
//! defined nowhere, and their concrete lowering replaces this one.

use super::{Interp, Value};
use crate::extract::ast::Function;
use crate::model::assumption::Assumption;
use crate::model::ir::{Expr as Ir, LoweredAccess, VarKind};

/// The most combinations of values that [`Interp::few_values`] lets an expression keep.
const FEW_VALUES: i64 = 64;

/// The prefix of the keys of template values among the uniform variables.
const KEY: &str = "template value ";

impl Interp<'_> {
    /// Binds the non-type template parameters of the root function `f` that no
    /// instantiation bound (its constants hold those that one did), and makes its type
    /// parameters those whose members are values.
    pub(crate) fn bind_template_values(&mut self, f: &Function) {
        self.names.type_params = type_params(f);
        for tp in &f.template_params {
            if !self.extra_constants.contains_key(&tp.name) {
                self.bind_template_value(tp, &tp.name);
            }
        }
    }

    /// Binds the non-type template parameters of helper `f`, entered at the call at
    /// `call`, that the call does not give (`explicit`): one value per call, since each
    /// call may instantiate it differently. Returns the caller's type parameters.
    pub(super) fn bind_helper_template_values(
        &mut self,
        f: &Function,
        explicit: &[String],
        call: usize,
    ) -> Vec<String> {
        for tp in &f.template_params {
            if explicit.contains(&tp.name) {
                continue;
            }
            // A parameter the call leaves out takes its default (`int alignment = 0`),
            // evaluated in the helper's frame, where the earlier ones are bound; only one
            // without a default that bankcheck can evaluate is any value.
            let default = tp
                .default
                .as_ref()
                .filter(|_| !tp.is_type)
                .map(|d| self.eval(d))
                .filter(|v| matches!(v, Value::Int(i) if i.as_const().is_some()));
            match default {
                Some(v) => self.bind(&tp.name, v),
                None => self.bind_template_value(tp, &format!("{}@{call}", tp.name)),
            }
        }
        // A lambda sees its enclosing function's parameters as well as its own.
        let mut own = type_params(f);
        if f.captures {
            own.extend(self.names.type_params.iter().cloned());
        }
        std::mem::replace(&mut self.names.type_params, own)
    }

    /// Puts back the caller's type parameters on leaving a helper.
    pub(super) fn restore_type_params(&mut self, saved: Vec<String>) {
        self.names.type_params = saved;
    }

    /// Binds non-type parameter `tp` to the uniform value of `key` when its type is an
    /// integer or an enum (not a pointer, a floating-point type or `auto`).
    fn bind_template_value(&mut self, tp: &crate::extract::ast::TemplateParam, key: &str) {
        let Some(ty) = tp.ty.as_ref().filter(|_| !tp.is_type) else {
            return;
        };
        let range = match self.integer_range(ty) {
            Some(r) => r.0,
            None if ty.pointers == 0
                && !ty.base.is_empty()
                && super::is_integer_type(ty)
                && !matches!(ty.base.as_str(), "auto" | "decltype(auto)")
                && self.layout(ty).is_none_or(|l| l.size <= 8) =>
            {
                None
            }
            None => return,
        };
        let v = self.template_var(key, &tp.name, range);
        self.bind(&tp.name, Value::Int(v));
    }

    /// `T::member` read as a value, `T` a type template parameter of the function being
    /// interpreted whose struct bankcheck does not know (the caller tried it first): a
    /// uniform unknown, the same at every read. CUDA only: an HLSL `static` member is a
    /// variable of each thread.
    pub(super) fn type_param_member(&mut self, name: &str) -> Option<Value> {
        if self.syn.hlsl {
            return None;
        }
        let name = name.trim_start_matches("typename ").trim();
        let (owner, member) = name.split_once("::")?;
        let plain = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || c == '_');
        if !self.names.type_params.iter().any(|t| t == owner) || !member.split("::").all(plain) {
            return None;
        }
        Some(Value::Int(self.template_var(name, name, None)))
    }

    /// The uniform variable of template value `key`, shown as `name`.
    fn template_var(&mut self, key: &str, name: &str, range: Option<(i64, i64)>) -> Ir {
        let v = self.keyed_var(&format!("{KEY}{key}"), name, VarKind::Uniform { range });
        if let Ir::Var(i) = v {
            if !self.names.template_vars.iter().any(|(j, _)| *j == i) {
                self.names.template_vars.push((i, vec![name.to_string()]));
            }
        }
        v
    }

    /// A `constexpr` local or enumerator `d` whose value `e` is computed from template
    /// values by more than sums and constant multiples (`K / W`, `N * M`): a fresh
    /// warp-uniform unknown of `d`'s type, standing for the template values it reads.
    /// Every value of it is considered, a superset of those the relation allows; the
    /// analyses decide over a value for every value where a quotient of unknowns would
    /// only be sampled. `None` for any other value.
    pub(super) fn opaque_template_local(
        &mut self,
        d: &crate::extract::ast::VarDecl,
        e: &Ir,
        range: Option<(i64, i64)>,
    ) -> Option<Value> {
        if e.var_mask() & 0b111 != 0 || plain(e) || self.few_values(e) {
            return None;
        }
        let mut names: Vec<String> = Vec::new();
        e.each_var(&mut |i| {
            for (j, from) in &self.names.template_vars {
                if *j == i {
                    for n in from {
                        if !names.contains(n) {
                            names.push(n.clone());
                        }
                    }
                }
            }
        });
        if names.is_empty() {
            return None;
        }
        // A choice between constants (`type == F16 ? 8 : 4`) is one of them: the range
        // between the least and the greatest, when the type holds both.
        let range = choice_bounds(e)
            .filter(|&(lo, hi)| range.is_none_or(|(a, b)| a <= lo && hi <= b))
            .or(range);
        let v = self.fresh_uniform(&d.name);
        if let (Ir::Var(i), Some(info)) = (&v, self.vars.last_mut()) {
            info.kind = VarKind::Uniform { range };
            self.names.template_vars.push((*i, names));
        }
        Some(Value::Int(v))
    }

    /// Whether every variable `e` reads is a warp-uniform one of a range so small that
    /// the analyses walk all its values (together at most [`FEW_VALUES`]): `e` is then
    /// kept as it is, its relation to those values intact (`nbytes = rows / 2 * 4` with
    /// `rows` 4 or 8 is 8 or 16, never 1), where a fresh unknown would take any value.
    fn few_values(&self, e: &Ir) -> bool {
        let mut count: i64 = 1;
        let mut any = false;
        e.each_var(&mut |i| {
            any = true;
            let width = match self.vars.get(i).map(|v| &v.kind) {
                Some(VarKind::Uniform {
                    range: Some((lo, hi)),
                }) => hi.checked_sub(*lo).and_then(|w| w.checked_add(1)),
                _ => None,
            };
            count = width.map_or(i64::MAX, |w| count.saturating_mul(w));
        });
        any && count <= FEW_VALUES
    }

    /// The assumptions of an access whose lowering reads template values.
    pub(super) fn template_assumptions(&self, comps: &[LoweredAccess]) -> Vec<Assumption> {
        let mut out: Vec<Assumption> = Vec::new();
        for (i, from) in &self.names.template_vars {
            let Some(info) = self.vars.get(*i) else {
                continue;
            };
            let read = comps.iter().any(|c| {
                c.vars
                    .iter()
                    .any(|v| v.name == info.name && matches!(v.kind, VarKind::Uniform { .. }))
            });
            for name in from.iter().filter(|_| read) {
                let a = Assumption::TemplateValue(name.clone());
                if !out.contains(&a) {
                    out.push(a);
                }
            }
        }
        out.sort_by_key(ToString::to_string);
        out
    }
}

/// True when `e` is a sum of constant multiples of its variables (and a constant): the
/// form whose values the analyses reduce exhaustively.
fn plain(e: &Ir) -> bool {
    use crate::model::ir::{BinOp, UnOp};
    match e {
        Ir::Const(_) | Ir::Var(_) => true,
        Ir::Unary(UnOp::Neg, a) => plain(a),
        Ir::Binary(BinOp::Add | BinOp::Sub, a, b) => plain(a) && plain(b),
        Ir::Binary(BinOp::Mul, a, b) => {
            (a.as_const().is_some() && plain(b)) || (b.as_const().is_some() && plain(a))
        }
        Ir::Binary(BinOp::Shl, a, b) => b.as_const().is_some() && plain(a),
        _ => false,
    }
}

/// The least and greatest value of `e` when it is a choice (`c ? a : b`, nested) whose
/// every outcome is a constant.
fn choice_bounds(e: &Ir) -> Option<(i64, i64)> {
    match e {
        Ir::Const(c) => Some((*c, *c)),
        Ir::Select(_, a, b) => {
            let (a, b) = (choice_bounds(a)?, choice_bounds(b)?);
            Some((a.0.min(b.0), a.1.max(b.1)))
        }
        _ => None,
    }
}

/// The type template parameters of `f`.
fn type_params(f: &Function) -> Vec<String> {
    f.template_params
        .iter()
        .filter(|tp| tp.is_type)
        .map(|tp| tp.name.clone())
        .collect()
}
