//! Preprocessor conditionals inside function bodies (`#if`, `#ifdef`, `#ifndef`,
//! `#elif`, `#else`), which extraction turns into an `if` on a marker call.
//!
//! The condition is decided from the macros bankcheck knows (the file's, its headers',
//! the settings' defines). A name none of them defines is taken as not defined, as the
//! preprocessor does, and the assumption is stated on every access recorded after it
//! (a compiler flag may define it). A decided conditional walks the taken branch in the
//! enclosing scope, as the preprocessor pastes it there; the dropped branch is walked
//! apart, for its accesses only. An undecided one is an `if` whose condition is not
//! known.

use super::{Interp, Value};
use crate::extract::ast::{Expr, ExprKind, Stmt};
use crate::model::assumption::Assumption;
use crate::model::ir::Expr as Ir;
use crate::source::Predefined;

impl Interp<'_> {
    /// Whether `name` is a macro or constant bankcheck knows: one defined only inside
    /// conditional blocks is defined when the branch of a definition is taken (`None`
    /// when that cannot be decided), and not while its own branch is being decided
    /// (`#ifndef TILE` / `#define TILE 16`).
    fn defined(&mut self, name: &str) -> Option<bool> {
        // Device code is what bankcheck checks: the device pass defines the toolchain's
        // macros, and the compiler its predefined ones (`__CUDACC__`, `__cplusplus` for
        // CUDA, `__HLSL_VERSION`; never `__cplusplus` for HLSL), as the front end reads them.
        if self.toolchain_value(name).is_some() {
            return Some(true);
        }
        if let Some(p) = self.predefined(name) {
            return Some(p != Predefined::Undefined);
        }
        if self.syn.defined.contains(name) || self.extra_constants.contains_key(name) {
            return Some(true);
        }
        if self.names.in_branches.iter().any(|k| k == name) {
            return Some(false);
        }
        if self.syn.constant_alternatives.contains_key(name) {
            return self.defined_in_branches(name);
        }
        Some(self.syn.macros.contains_key(name) || self.syn.fn_macros.contains_key(name))
    }

    /// The value a device compilation is taken to give toolchain macro `name`
    /// (`__CUDA_ARCH__`, `CUDART_VERSION`) when no setting defines it, and why: defined
    /// in every compilation, with a value only assumed. A header's own definition is
    /// another platform's shim (ggml's `vendors/hip.h` defines `__CUDA_ARCH__ 1300`,
    /// included under `#if defined(GGML_USE_HIP)`, which the merge of includes does not
    /// see), not the compiler's value.
    pub(super) fn toolchain_value(&self, name: &str) -> Option<(&'static str, &'static str)> {
        if self.extra_constants.contains_key(name) {
            return None;
        }
        crate::source::toolchain_value(self.language(), name)
    }

    /// The language of the file being lowered.
    pub(super) fn language(&self) -> crate::Language {
        if self.syn.hlsl {
            crate::Language::Hlsl
        } else {
            crate::Language::Cuda
        }
    }

    /// The compiler's predefined macro `name`, unless the file or the settings define it;
    /// `None` when it is not one.
    fn predefined(&self, name: &str) -> Option<Predefined> {
        if self.syn.defined.contains(name) || self.extra_constants.contains_key(name) {
            return None;
        }
        crate::source::predefined_macro(self.language(), name)
    }

    /// States `note` on every access recorded after it, once.
    pub(super) fn state_assumption(&mut self, note: Assumption) {
        if !self.pp_assumptions.contains(&note) {
            self.pp_assumptions.push(note);
        }
    }

    /// States that `name` was taken as not defined.
    pub(super) fn assume_undefined(&mut self, name: &str) {
        self.names.assumed_decisions += 1;
        self.state_assumption(Assumption::MacroUndefined(name.to_string()));
    }

    /// The value of a marker call `#if(c)`, `#ifdef(X)`, `#ifndef(X)`; `None` for other calls.
    pub(super) fn preproc_condition(&mut self, callee: &str, args: &[Expr]) -> Option<Value> {
        let negated = match callee {
            "#ifdef" => false,
            "#ifndef" => true,
            "#if" => {
                let cond = args.first()?;
                // Names no macro defines are 0 in `#if` (locals and `static const`s
                // are invisible to the preprocessor).
                let mut names = Vec::new();
                condition_names(cond, false, &mut names);
                let mut zeros = super::Vars::default();
                for n in names {
                    if let Some((value, why)) = self.toolchain_value(&n) {
                        self.names.assumed_decisions += 1;
                        self.state_assumption(Assumption::ToolchainValue {
                            name: n.clone(),
                            value,
                            why,
                        });
                        let v = value.parse::<i64>().unwrap_or(0);
                        zeros.insert(n, Value::Int(Ir::Const(v)));
                        continue;
                    }
                    if let Some(p) = self.predefined(&n) {
                        let value = match p {
                            Predefined::Value(v) => v,
                            Predefined::Undefined => 0,
                        };
                        zeros.insert(n, Value::Int(Ir::Const(value)));
                        continue;
                    }
                    match self.defined(&n) {
                        Some(true) => {}
                        Some(false) => {
                            if !self.syn.constant_alternatives.contains_key(&n) {
                                self.assume_undefined(&n);
                            }
                            zeros.insert(n, Value::Int(Ir::Const(0)));
                        }
                        None => {
                            return Some(Value::Unknown(
                                format!("whether `{n}` is defined depends on a preprocessor condition bankcheck cannot decide").into(),
                            ))
                        }
                    }
                }
                self.scopes.push(zeros);
                let v = self.eval(cond);
                self.scopes.pop();
                return Some(match v {
                    Value::Int(i) => match i.as_const() {
                        Some(c) => Value::Int(Ir::Const(i64::from(c != 0))),
                        None => Value::Unknown("a preprocessor condition is not a constant".into()),
                    },
                    other => other,
                });
            }
            _ => return None,
        };
        let Some(ExprKind::Ident(name)) = args.first().map(|a| &a.kind) else {
            return Some(Value::Unknown("a preprocessor condition".into()));
        };
        let Some(defined) = self.defined(name) else {
            return Some(Value::Unknown(
                format!("whether `{name}` is defined depends on a preprocessor condition bankcheck cannot decide").into(),
            ));
        };
        if !defined
            && !self.syn.constant_alternatives.contains_key(name)
            && self.predefined(name).is_none()
        {
            self.assume_undefined(name);
        }
        Some(Value::Int(Ir::Const(i64::from(defined != negated))))
    }

    /// Whether `s` may hold a shared-memory access (`purity::may_hold_access`): a branch
    /// of another configuration that cannot is not walked, since all it would leave is
    /// discarded.
    fn may_hold_access(&self, s: &Stmt) -> bool {
        let Some(touching) = self.touching else {
            return true;
        };
        let is_shared = |name: &str| {
            matches!(self.lookup(name), Some(Value::Array(_) | Value::Ptr { .. }))
                || self.syn.global_shared.iter().any(|d| d.name == name)
        };
        crate::lower::purity::may_hold_access(s, touching, &is_shared)
    }

    /// Walks a decided preprocessor conditional's taken branch in the enclosing scope;
    /// `false` when `cond` is not a preprocessor condition or is not decided.
    pub(super) fn preproc_if(
        &mut self,
        cond: &Expr,
        then: &Stmt,
        otherwise: Option<&Stmt>,
    ) -> bool {
        let ExprKind::Call { callee, args, .. } = &cond.kind else {
            return false;
        };
        if !callee.starts_with('#') {
            return false;
        }
        let before = self.names.assumed_decisions;
        let taken = match self.preproc_condition(callee, args) {
            Some(Value::Int(i)) => i.as_const(),
            _ => None,
        };
        let (branch, dropped) = match taken {
            Some(0) => (otherwise, Some(then)),
            Some(_) => (Some(then), otherwise),
            None => return false,
        };
        // When the decision rests on a macro taken as not defined (a build flag may define
        // it), the dropped branch is still checked, as code of another configuration: its
        // accesses are recorded, its effects on values and returns are discarded. A branch
        // that macros the file defines drop is not compiled, and not checked.
        let mut names = Vec::new();
        for a in args {
            if callee == "#if" {
                condition_names(a, true, &mut names);
            } else if let ExprKind::Ident(n) = &a.kind {
                names.push(n.clone());
            }
        }
        // Decided on an assumption, here or in the branches that define a macro it tests.
        let mut assumed = self.names.assumed_decisions > before;
        for n in &names {
            assumed |= self.defined(n) != Some(true);
        }
        // A toolchain macro's value is only assumed (its being defined is not).
        if callee == "#if" {
            let mut values = Vec::new();
            for a in args {
                condition_names(a, false, &mut values);
            }
            assumed |= values.iter().any(|n| self.toolchain_value(n).is_some());
        }
        // Such code is walked only while its share of the budget lasts (`Budget::apart`);
        // past it, it is left unchecked as any branch the preprocessor drops.
        let apart = dropped
            .filter(|d| assumed && self.may_hold_access(d))
            .and_then(|d| Some((d, self.budget.apart()?)));
        if let Some((d, apart)) = apart {
            let scopes = self.scopes.clone();
            let guards = self.flow.guards.len();
            let returned = self.flow.returned;
            let (opaque_base, data_base) =
                (self.calls.returns.opaque_base, self.calls.returns.data_base);
            let returns = std::mem::take(&mut self.calls.returns);
            self.calls.returns.opaque_base = opaque_base;
            self.calls.returns.data_base = data_base;
            let notes = self.pp_assumptions.len();
            self.pp_assumptions.push(Assumption::OtherConfiguration);
            self.flow.opaque += 1;
            self.block(std::slice::from_ref(d));
            self.flow.opaque -= 1;
            self.budget.rejoin(&apart);
            self.pp_assumptions.truncate(notes);
            self.scopes = scopes;
            self.flow.guards.truncate(guards);
            self.flow.returned = returned;
            self.calls.returns = returns;
        }
        match branch {
            Some(Stmt::Block(stmts)) => {
                for s in stmts {
                    if self.flow.returned {
                        break;
                    }
                    self.stmt(s);
                }
            }
            Some(other) => self.stmt(other),
            None => {}
        }
        true
    }
}

/// Identifiers of a `#if` condition outside `defined(...)`, and with `defined` also those
/// it asks about (`defined(X)`, which extraction writes as the marker call `#ifdef`).
fn condition_names(e: &Expr, defined: bool, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Ident(n) => out.push(n.clone()),
        ExprKind::Call { callee, args, .. } if defined && callee == "#ifdef" => {
            if let [Expr {
                kind: ExprKind::Ident(n),
                ..
            }] = args.as_slice()
            {
                out.push(n.clone());
            }
        }
        ExprKind::Unary(_, a) => condition_names(a, defined, out),
        ExprKind::Binary(_, a, b) => {
            condition_names(a, defined, out);
            condition_names(b, defined, out);
        }
        ExprKind::Cond(a, b, c) => {
            condition_names(a, defined, out);
            condition_names(b, defined, out);
            condition_names(c, defined, out);
        }
        _ => {}
    }
}
