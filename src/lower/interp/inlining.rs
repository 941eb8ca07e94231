//! Helpers inlined at their call: the overload chosen, its template arguments deduced, the
//! caller's argument values bound to its parameters, its body walked in a frame of its
//! own (so its shared accesses are lowered per call site), and its value, `out`
//! parameters and assigned fields handed back to the caller.

use super::budget::{MAX_CALL_DEPTH, MAX_INLINED_STATEMENTS, TOO_MUCH_WORK};
use super::{is_integer_type, Interp, Place, Value, Vars};
use crate::diag::{AccessKind, Span};
use crate::extract::ast::TypeName;
use crate::extract::ast::{Expr, ExprKind, Function};
use crate::lower::steps::assigned_names;
use crate::model::site::InFunction;
use std::collections::{HashMap, HashSet};

/// The caller's frame while a helper is inlined ([`Interp::enter_helper`]).
struct SavedFrame<'a> {
    types: HashMap<String, TypeName>,
    /// The caller's scopes (`None`: a lambda's scope is pushed on top of them).
    scopes: Option<Vec<Vars>>,
    /// The index of the helper's scope.
    frame: usize,
    guard_base: usize,
    returns: super::Returns,
    function: InFunction,
    owner: Option<String>,
    this_place: Option<Place>,
    objects: HashMap<String, (String, Vec<String>)>,
    text: &'a str,
    foreign: Option<std::sync::Arc<str>>,
    /// The caller's type template parameters.
    type_params: Vec<String>,
}

/// What a helper hands back to its caller ([`Interp::handed_back`]).
struct HandedBack<'e> {
    /// Arguments of `out`/`inout` and reference parameters, and their final values.
    written: Vec<(&'e Expr, Value)>,
    /// Fields the member function assigned, and their final values.
    fields: Vec<(String, Value)>,
    /// Shared elements passed by reference and assigned: stored to.
    stores: Vec<&'e Expr>,
}

impl<'a> Interp<'a> {
    /// Interprets a call to a helper defined in the same file with the caller's argument
    /// values bound to its parameters, so its shared accesses are lowered per call site.
    pub(super) fn inline_call(
        &mut self,
        call: &Expr,
        name: &str,
        template_args: &[String],
        args: &[Expr],
    ) -> Option<Value> {
        // A bare call inside a member function may be another member of its struct.
        let sibling = self.calls.owner.clone().filter(|o| {
            self.syn
                .functions
                .iter()
                .any(|f| f.name == name && f.owner.as_deref() == Some(o.as_str()))
        });
        let method = sibling.map(|owner| Method {
            // On an object in shared memory the fields are places, not variables.
            fields: if self.calls.this_place.is_some() {
                Vec::new()
            } else {
                self.struct_fields(&owner, None)
            },
            owner,
            object: None,
            this: self.calls.this_place.clone(),
        });
        self.inline_function(call, name, template_args, args, method.as_ref())
    }

    /// Why a call of `name` (`key`: with its owner and arity) is not inlined though its
    /// definition is known: a limit of the interpreter, or recursion. Its value is then
    /// `unknown` with that reason, not data.
    fn inlining_refused(&self, name: &str, key: &str) -> Option<String> {
        if self.calls.stack.iter().any(|k| k == key) {
            return Some(format!(
                "`{name}` calls itself: bankcheck does not follow recursion"
            ));
        }
        if self.calls.stack.len() >= MAX_CALL_DEPTH {
            return Some(format!(
                "`{name}` is called {MAX_CALL_DEPTH} helpers deep, past what bankcheck follows"
            ));
        }
        if self.budget.exhausted() {
            return Some(TOO_MUCH_WORK.to_string());
        }
        let spent =
            self.budget.inline_calls_left == 0 || self.budget.inline_work > MAX_INLINED_STATEMENTS;
        spent.then(|| {
            format!("too much work: bankcheck's budget of inlined helpers for this function is spent before `{name}`")
        })
    }

    /// Inlines a call of `name`: a free function, or with `method` a member function of
    /// that struct, its fields bound to the object's. `None` when no definition fits;
    /// `unknown` with the reason when a limit stops inlining.
    pub(super) fn inline_function(
        &mut self,
        call: &Expr,
        name: &str,
        template_args: &[String],
        args: &[Expr],
        method: Option<&Method>,
    ) -> Option<Value> {
        let owner = method.as_ref().map(|m| m.owner.clone());
        let f = match self.overload(name, owner.as_deref(), args.len())? {
            Ok(f) => f,
            // Defined per branch of a conditional bankcheck cannot decide: not followed,
            // its arguments still evaluated once.
            Err(why) => {
                for a in args {
                    self.eval(a);
                }
                return Some(Value::Unknown(why.into()));
            }
        };
        if self.float_only.is_some_and(|s| s.contains(name)) {
            for a in args {
                self.eval(a);
            }
            return Some(Value::Data("a floating-point value".into()));
        }
        // Overloads share a name: recursion is the same name with the same arity.
        let key = match &owner {
            Some(o) => format!("{o}::{name}/{}", args.len()),
            None => format!("{name}/{}", args.len()),
        };
        if let Some(why) = self.inlining_refused(name, &key) {
            // The call is not followed, but its arguments are still evaluated once.
            for a in args {
                self.eval(a);
            }
            return Some(Value::Unknown(why.into()));
        }
        self.budget.inline_calls_left -= 1;

        self.inlined.insert(name.to_string());
        // Reference parameters name the caller's places only when the helper is written in
        // the caller's text: an access in another file's helper could not be reported at
        // the argument, so there the argument stays read at the call and written back.
        let same_text = match (&f.foreign_text, &self.foreign) {
            (None, None) => true,
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            _ => false,
        };
        let values: Vec<Value> = args
            .iter()
            .enumerate()
            .map(|(i, a)| match f.params.get(i) {
                Some(p) if same_text && p.reference && p.ty.pointers == 0 => {
                    self.referenced(a, &p.name)
                }
                _ => self.eval(a),
            })
            .collect();
        let saved = self.enter_helper(call, f, name, template_args, values, method);
        self.calls.stack.push(key);
        let ref_args = f
            .params
            .iter()
            .zip(args)
            .filter(|(p, _)| {
                matches!(
                    self.scopes.get(saved.frame).and_then(|s| s.get(&p.name)),
                    Some(Value::Ref { .. })
                )
            })
            .map(|(p, a)| (p.name.clone(), a.span))
            .collect();
        self.calls.ref_args.push(ref_args);
        self.calls.spans.push((call.span, saved.foreign.clone()));
        self.block(&f.body);
        self.calls.spans.pop();
        self.calls.ref_args.pop();
        self.calls.stack.pop();
        self.flow.returned = false;
        let back = self.handed_back(f, name, args, method, saved.frame);
        let result = match self.blanked_statement(f) {
            Some(why) => Value::Unknown(why.into()),
            None => self
                .helper_value()
                .unwrap_or_else(|| Value::Data(format!("the result of `{name}()`"))),
        };
        self.leave_helper(saved);
        self.give_back(method, back);
        Some(result)
    }

    /// The definition a call of `name` with `arity` arguments inlines (a member function
    /// of `owner` when given): of the overloads of that arity (else the only definition,
    /// when it takes more parameters), the one whose `#if` requirements the known macros
    /// support best; of member functions defined per branch of a conditional group in
    /// their struct's body, the one whose branch is taken (`Err`: why that is not
    /// decided). Kernels are launched, not inlined.
    fn overload(
        &mut self,
        name: &str,
        owner: Option<&str>,
        arity: usize,
    ) -> Option<Result<&'a Function, String>> {
        let syn = self.syn;
        let wanted = |f: &&Function| {
            f.name == name && !f.is_kernel && !f.body.is_empty() && f.owner.as_deref() == owner
        };
        let named: Vec<&Function> = match self.functions_by_name {
            Some(index) => index
                .get(name)
                .into_iter()
                .flatten()
                .filter_map(|&i| syn.functions.get(i))
                .filter(wanted)
                .collect(),
            None => syn.functions.iter().filter(wanted).collect(),
        };
        let mut candidates = named
            .iter()
            .copied()
            .filter(|f| f.params.len() == arity)
            .peekable();
        // No overload of that arity: the only definition, when it takes more parameters
        // (defaults, or a parameter list cut by `#ifdef`); the missing ones are unknown.
        let sole = match named.as_slice() {
            [f] if f.params.len() > arity && candidates.peek().is_none() => Some(*f),
            _ => None,
        };
        let first = candidates.next().or(sole)?;
        if first.branch.is_some() {
            let grouped: Vec<&Function> = std::iter::once(first)
                .chain(candidates)
                .filter(|f| f.branch.is_some())
                .collect();
            return Some(self.method_branch(name, owner, &grouped));
        }
        // The alternative the known macros support best: none contradicted, most met.
        let mut best: Option<(usize, &Function)> = None;
        for f in std::iter::once(first).chain(candidates) {
            let met = f
                .requires
                .iter()
                .map(|r| self.requirements_hold(std::slice::from_ref(r)))
                .try_fold(0, |n, h| match h {
                    Some(false) => None,
                    Some(true) => Some(n + 1),
                    None => Some(n),
                });
            if let Some(n) = met {
                if best.is_none_or(|(m, _)| n > m) {
                    best = Some((n, f));
                }
            }
        }
        Some(Ok(best.map_or(first, |(_, f)| f)))
    }

    /// Enters helper `f` called at `call` with argument `values`: its template arguments
    /// deduced (see `templates`), a frame of its own (scopes, guards, returns, function
    /// name, member context, text), its parameters bound. Returns what the caller's frame
    /// was, for [`Interp::leave_helper`].
    fn enter_helper(
        &mut self,
        call: &Expr,
        f: &'a Function,
        name: &str,
        template_args: &[String],
        values: Vec<Value>,
        method: Option<&Method>,
    ) -> SavedFrame<'a> {
        let (types, non_type) = crate::lower::templates::deduce_call(
            f,
            template_args,
            &values,
            self.arrays,
            &self.type_args,
        );
        let values = crate::lower::templates::resolve_pointees(values, &self.type_args);
        let non_type: Vec<(String, Value)> = non_type
            .into_iter()
            .map(|(n, t)| (n, self.template_value(&t)))
            .collect();
        let saved_types = std::mem::replace(&mut self.type_args, types);
        // A lambda sees (and may assign) its caller's variables: it gets a scope of its own
        // on top of theirs; any other helper sees only its parameters.
        let saved_scopes = if f.captures {
            self.scopes.push(Vars::default());
            None
        } else {
            Some(std::mem::replace(&mut self.scopes, vec![Vars::default()]))
        };
        let frame = self.scopes.len() - 1;
        let explicit: Vec<String> = non_type.iter().map(|(n, _)| n.clone()).collect();
        for (n, v) in non_type {
            self.bind(&n, v);
        }
        let type_params = self.bind_helper_template_values(f, &explicit, call.span.start);
        let owner = method.as_ref().map(|m| m.owner.clone());
        let saved_base = std::mem::replace(&mut self.calls.guard_base, self.flow.guards.len());
        let saved_return = std::mem::take(&mut self.calls.returns);
        self.calls.returns.opaque_base = self.flow.opaque;
        self.calls.returns.data_base = self.flow.data_ifs;
        let saved_function = self.function.clone();
        let line = if std::ptr::eq(self.text, self.base_text) {
            crate::diag::line_of(&self.syn.line_starts, call.span.start)
        } else {
            self.text
                .get(..call.span.start)
                .map_or(1, |t| t.matches('\n').count() + 1)
        };
        let shown = match &owner {
            Some(o) => format!("{o}::{name}"),
            None => name.to_string(),
        };
        self.function = saved_function.calling(shown, line);
        let saved_owner = std::mem::replace(&mut self.calls.owner, owner);
        let saved_this = std::mem::replace(
            &mut self.calls.this_place,
            method.and_then(|m| m.this.clone()),
        );
        let saved_objects = if f.captures {
            self.objects.clone()
        } else {
            std::mem::take(&mut self.objects)
        };
        // A helper of another file: its spans index into that file's text.
        let saved_text = self.text;
        let saved_foreign = self.foreign.take();
        self.text = f.foreign_text.as_deref().unwrap_or(self.base_text);
        self.foreign.clone_from(&f.foreign_text);
        self.bind_arguments(f, values, method);
        SavedFrame {
            types: saved_types,
            scopes: saved_scopes,
            frame,
            guard_base: saved_base,
            returns: saved_return,
            function: saved_function,
            owner: saved_owner,
            this_place: saved_this,
            objects: saved_objects,
            text: saved_text,
            foreign: saved_foreign,
            type_params,
        }
    }

    /// Binds the parameters of helper `f` in its frame: the arguments' `values`, the
    /// default arguments of those the call leaves out, and with `method` the object's
    /// fields.
    fn bind_arguments(&mut self, f: &Function, values: Vec<Value>, method: Option<&Method>) {
        // Parameters the call leaves out: their default arguments, evaluated here (they are
        // constants in practice), else unknown.
        let defaults: Vec<(String, Value)> = f
            .params
            .iter()
            .skip(values.len())
            .filter(|p| !p.name.is_empty())
            .map(|p| {
                let v = match &p.default {
                    Some(d) => self.eval(d),
                    None => {
                        Value::Unknown(format!("`{}` has no value at this call", p.name).into())
                    }
                };
                (p.name.clone(), v)
            })
            .collect();
        for (name, v) in defaults {
            self.bind(&name, v);
        }
        if let Some(m) = &method {
            for (field, v) in &m.fields {
                self.bind(field, v.clone());
            }
        }
        for (p, v) in f.params.iter().zip(values) {
            let v = match v {
                Value::Int(i)
                    if !is_integer_type(&p.ty) && p.ty.pointers == 0 && !p.array_or_ref =>
                {
                    if p.ty.base.contains("float")
                        || p.ty.base.contains("half")
                        || p.ty.base.contains("double")
                    {
                        Value::Data("a floating-point value".into())
                    } else {
                        Value::Int(i)
                    }
                }
                other => self.convert_to(&p.ty, other),
            };
            if !p.name.is_empty() {
                self.bind(&p.name, v);
            }
        }
    }

    /// The value of argument `a` bound to reference parameter `param`: a place in shared
    /// memory with a known address becomes a [`Value::Ref`], so the helper's reads and
    /// writes through it are the accesses (nothing is read at the call); anything else
    /// is evaluated as before.
    fn referenced(&mut self, a: &Expr, param: &str) -> Value {
        match self.place(a) {
            Some(Ok(p)) => Value::Ref {
                array: p.array,
                offset: p.offset,
                pointee: p.ty,
                name: Some(param.to_string()),
            },
            _ => self.eval(a),
        }
    }

    /// Goes back to the caller's frame saved by [`Interp::enter_helper`].
    fn leave_helper(&mut self, saved: SavedFrame<'a>) {
        self.calls.returns = saved.returns;
        self.type_args = saved.types;
        self.calls.guard_base = saved.guard_base;
        match saved.scopes {
            Some(scopes) => self.scopes = scopes,
            None => {
                self.scopes.truncate(saved.frame);
            }
        }
        self.function = saved.function;
        self.text = saved.text;
        self.foreign = saved.foreign;
        self.calls.owner = saved.owner;
        self.calls.this_place = saved.this_place;
        self.objects = saved.objects;
        self.restore_type_params(saved.type_params);
    }

    /// What helper `f`, its body walked, hands back to its caller through its frame
    /// (`frame`, the index of its scope): `out`/`inout` and reference parameters, the
    /// fields a member function assigns, and shared elements passed by reference.
    fn handed_back<'e>(
        &self,
        f: &Function,
        name: &str,
        args: &'e [Expr],
        method: Option<&Method>,
        frame: usize,
    ) -> HandedBack<'e> {
        // `out`/`inout` and reference parameters: their final values go back to the
        // caller's arguments (unknown when the helper may return before its end).
        let early = self.calls.returns.returns_early();
        // A reference bound to a place in shared memory was accessed in the helper itself.
        let by_ref = |param: &str| {
            matches!(
                self.scopes.get(frame).and_then(|s| s.get(param)),
                Some(Value::Ref { .. })
            )
        };
        let written: Vec<(&Expr, Value)> = f
            .params
            .iter()
            .zip(args)
            .filter(|(p, _)| {
                p.writes_back && p.ty.pointers == 0 && !p.name.is_empty() && !by_ref(&p.name)
            })
            .map(|(p, a)| {
                let v = match self.scopes.get(frame).and_then(|s| s.get(&p.name)) {
                    Some(_) if early => Value::Unknown(
                        format!(
                            "`{}` is set through a parameter of `{name}`, which may return early",
                            self.snippet(a.span)
                        )
                        .into(),
                    ),
                    Some(v) => v.clone(),
                    None => Value::Unknown(
                        format!("`{}` is set by `{name}`", self.snippet(a.span)).into(),
                    ),
                };
                (a, v)
            })
            .collect();
        // A shared element passed by reference and assigned in the helper
        // (`swap(s[a], s[b])` with `T&` parameters) is read at the call and written back.
        let assigned: HashSet<String> = f.body.iter().flat_map(assigned_names).collect();
        // Fields the member function assigns: their final values go back to the object
        // (unknown when it may return before its end).
        let fields_back: Vec<(String, Value)> = method
            .as_ref()
            .map(|m| {
                m.fields
                    .iter()
                    .filter(|(field, _)| assigned.contains(field))
                    .map(|(field, _)| {
                        let v = match self.scopes.get(frame).and_then(|s| s.get(field)) {
                            Some(_) if early => Value::Unknown(
                                format!(
                                "the field `{field}` is set by `{name}`, which may return early"
                            )
                                .into(),
                            ),
                            Some(v) => v.clone(),
                            None => Value::Unknown(
                                format!("the field `{field}` is set by `{name}`").into(),
                            ),
                        };
                        (field.clone(), v)
                    })
                    .collect()
            })
            .unwrap_or_default();
        let stores: Vec<&Expr> = f
            .params
            .iter()
            .zip(args)
            .filter(|(p, _)| {
                p.writes_back
                    && p.ty.pointers == 0
                    && !p.name.is_empty()
                    && assigned.contains(&p.name)
                    && !by_ref(&p.name)
            })
            .map(|(_, a)| a)
            .collect();
        HandedBack {
            written,
            fields: fields_back,
            stores,
        }
    }

    /// Gives the caller what the helper handed back: fields to the object, parameter
    /// values to the arguments, stores to the shared elements passed by reference.
    fn give_back(&mut self, method: Option<&Method>, back: HandedBack<'_>) {
        for (field, v) in back.fields {
            let key = match method.as_ref().and_then(|m| m.object.as_ref()) {
                Some(o) => format!("{o}.{field}"),
                None => field,
            };
            self.assign(&key, v);
        }
        for (a, v) in back.written {
            self.write_back(a, v);
        }
        for a in back.stores {
            if self.place(a).is_some() {
                self.access_value(a, AccessKind::Store);
            }
        }
    }

    /// Whether the macros known here (the file's, its headers', `-D`) meet `requires`:
    /// `None` when a test needs a macro bankcheck does not know (it may come from the
    /// build's flags) or a value it cannot evaluate.
    fn requirements_hold(
        &mut self,
        requires: &[crate::extract::conditions::Requirement],
    ) -> Option<bool> {
        use crate::extract::conditions::Test;
        let mut all = Some(true);
        for (name, test) in requires {
            let defined =
                self.syn.defined.contains(name) || self.extra_constants.contains_key(name);
            // A toolchain macro is defined, and non-zero whatever its value.
            if self.toolchain_value(name).is_some() {
                if matches!(test, Test::Undefined | Test::Zero) {
                    return Some(false);
                }
                continue;
            }
            let holds = match test {
                Test::Defined => defined.then_some(true),
                Test::Undefined => defined.then_some(false),
                Test::NonZero | Test::Zero => {
                    let value = if defined {
                        let e = Expr {
                            span: Span::default(),
                            kind: ExprKind::Ident(name.clone()),
                        };
                        self.const_eval(&e)
                    } else {
                        None
                    };
                    value.map(|v| (v != 0) == (*test == Test::NonZero))
                }
            };
            match holds {
                Some(false) => return Some(false),
                None => all = None,
                Some(true) => {}
            }
        }
        all
    }
}

/// A member function call being inlined: the struct, the object it is called on (`None`
/// for a static member or a call from another member), and the fields bound in it.
pub(super) struct Method {
    pub(super) owner: String,
    pub(super) object: Option<String>,
    pub(super) fields: Vec<(String, Value)>,
    /// The object in shared memory the member function is called on (`h.add(b)` with
    /// `__shared__ Hist h`): its fields are places there.
    pub(super) this: Option<Place>,
}
