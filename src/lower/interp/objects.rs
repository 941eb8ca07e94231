//! Local objects of struct or class type and member functions: fields held as variables
//! (`st.buf`), aggregate initialisers, calls of member functions on local objects, on
//! objects in shared memory (`this` a place) and static ones, and the fields a call may
//! change.

use super::inlining::Method;
use super::{Interp, Value};
use crate::extract::ast::{Expr, ExprKind, Function, UnaryOp, VarDecl};
use crate::lower::steps::assigned_names;
use std::collections::HashSet;

impl<'a> Interp<'a> {
    /// The variable holding `base.field` when `base` is a local object (`st.buf`) or
    /// `this` inside a member function (the field, named bare).
    pub(super) fn field_variable(&self, base: &Expr, field: &str) -> Option<String> {
        match &base.kind {
            ExprKind::Ident(o) if o == "this" && self.calls.owner.is_some() => {
                Some(field.to_string())
            }
            ExprKind::Unary(UnaryOp::Deref, inner)
                if matches!(&inner.kind, ExprKind::Ident(o) if o == "this")
                    && self.calls.owner.is_some() =>
            {
                Some(field.to_string())
            }
            ExprKind::Ident(o) if self.objects.contains_key(o) => Some(format!("{o}.{field}")),
            _ => None,
        }
    }

    /// The fields of struct `owner` and their values: the object's (`object.field`), or
    /// the current member function's (named bare) when no object is given.
    pub(super) fn struct_fields(&self, owner: &str, object: Option<&str>) -> Vec<(String, Value)> {
        let Some(def) = self.struct_def(owner) else {
            return Vec::new();
        };
        def.fields
            .iter()
            .map(|f| {
                let key = match object {
                    Some(o) => format!("{o}.{}", f.name),
                    None => f.name.clone(),
                };
                let v = self.lookup(&key).cloned().unwrap_or_else(|| {
                    Value::Unknown(format!("the field `{key}` is not set where it is read").into())
                });
                (f.name.clone(), v)
            })
            .collect()
    }

    /// The definition of struct `name` (a template's, for `Pack<float>`).
    pub(super) fn struct_def(&self, name: &str) -> Option<&'a crate::extract::ast::StructDef> {
        let syn = self.syn;
        syn.structs.get(name).or_else(|| {
            syn.structs
                .get(name.split('<').next().unwrap_or(name).trim())
        })
    }

    /// True when some member function of the file belongs to `owner`.
    fn owns_members(&self, owner: &str) -> bool {
        match self.member_owners {
            Some(owners) => owners.contains(owner),
            None => self
                .syn
                .functions
                .iter()
                .any(|f| f.owner.as_deref() == Some(owner)),
        }
    }

    /// True when some struct of the file defines a member function `name`, of `owner`
    /// when given.
    pub(super) fn has_method(&self, owner: Option<&str>, name: &str) -> bool {
        let found = |f: &Function| {
            f.name == name
                && f.owner.is_some()
                && owner.is_none_or(|o| f.owner.as_deref() == Some(o))
        };
        match self.functions_by_name {
            Some(index) => index
                .get(name)
                .into_iter()
                .flatten()
                .any(|&i| self.syn.functions.get(i).is_some_and(found)),
            None => self.syn.functions.iter().any(found),
        }
    }

    /// Declares a local object of a struct or class type: an aggregate initialiser
    /// (`Stage st{a};`) sets its fields in order. False when the type is not one.
    pub(super) fn declare_object(&mut self, d: &VarDecl) -> bool {
        let (owner, targs) = self.owner_of(&d.ty.base);
        let ty = owner.split('<').next().unwrap_or(&owner).to_string();
        let def = self.struct_def(&owner);
        let methods = self.owns_members(&owner);
        if def.is_none() && !methods {
            return false;
        }
        let fields: Vec<String> = def
            .map(|d| d.fields.iter().map(|f| f.name.clone()).collect())
            .unwrap_or_default();
        match &d.init {
            Some(Expr {
                kind: ExprKind::Call { callee, args, .. },
                ..
            }) if callee.split('<').next().unwrap_or(callee).trim().ends_with(ty.as_str())
                && args.len() <= fields.len()
                // A constructor of its own sets the fields its way, which is not followed.
                && !self.has_method(Some(&owner), &ty) =>
            {
                for (field, a) in fields.iter().zip(args) {
                    let v = self.eval(a);
                    self.bind(&format!("{}.{field}", d.name), v);
                }
            }
            Some(init) => {
                self.eval(init);
            }
            None => {}
        }
        self.objects.insert(d.name.clone(), (owner, targs));
        self.bind(&d.name, Value::Data(format!("the object `{}`", d.name)));
        true
    }

    /// The owner of the member functions of type `text` (`Stage<T>` with `T` = `float`)
    /// and the template arguments they take: a specialisation the file defines
    /// (`SharedMemory<float>`, no arguments), else the template (`Stage`, `["float"]`).
    fn owner_of(&self, text: &str) -> (String, Vec<String>) {
        let (name, args) = crate::extract::types::split_template(text);
        let name = name.rsplit("::").next().unwrap_or(name).trim().to_string();
        let args: Vec<String> = args
            .unwrap_or_default()
            .iter()
            .map(|a| {
                let a = a.trim();
                self.type_args.get(a).map_or_else(
                    || a.to_string(),
                    |t| format!("{}{}", t.base, "*".repeat(t.pointers as usize)),
                )
            })
            .collect();
        if args.is_empty() {
            return (name, args);
        }
        let full: String = format!("{name}<{}>", args.join(","))
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let specialised = self.syn.structs.contains_key(&full) || self.owns_members(&full);
        if specialised {
            (full, Vec::new())
        } else {
            (name, args)
        }
    }

    /// A call of a member function: `obj.m(...)` or `obj->m(...)` on a local object,
    /// `Type::m(...)` or `Type<4>::m(...)` (a static member, the qualifier's template
    /// arguments bound to the struct's parameters), `obj(...)` on an object with
    /// `operator()`. `None` when no member function of the file fits.
    pub(super) fn member_call(
        &mut self,
        call: &Expr,
        callee: &str,
        template_args: &[String],
        args: &[Expr],
    ) -> Option<Value> {
        let (object, owner, method, targs): (Option<String>, String, String, Vec<String>) =
            if let Some((obj, m)) = callee.rsplit_once("->").or_else(|| callee.rsplit_once('.')) {
                let obj = obj.trim();
                if !self.objects.contains_key(obj) {
                    return self.shared_member_call(
                        call,
                        callee,
                        obj,
                        m.trim(),
                        template_args,
                        args,
                    );
                }
                let (owner, mut targs) = self.objects.get(obj)?.clone();
                targs.extend(template_args.iter().cloned());
                (Some(obj.to_string()), owner, m.trim().to_string(), targs)
            } else if let Some((q, m)) = callee.rsplit_once("::") {
                let (owner, mut targs) = self.owner_of(q);
                let found = self.has_method(Some(&owner), m.trim());
                // A template with specialisations is matched as C++ matches it.
                if !found || self.has_specialisations(q) {
                    let through = self.call_through_type(call, q, m.trim(), template_args, args);
                    if through.is_some() || !found {
                        return through;
                    }
                }
                targs.extend(template_args.iter().cloned());
                (None, owner, m.trim().to_string(), targs)
            } else {
                let (owner, mut targs) = self.objects.get(callee.trim())?.clone();
                targs.extend(template_args.iter().cloned());
                (
                    Some(callee.trim().to_string()),
                    owner,
                    "operator()".to_string(),
                    targs,
                )
            };
        if !self.has_method(Some(&owner), &method) {
            return None;
        }
        let fields = match &object {
            Some(o) => self.struct_fields(&owner, Some(o)),
            None => Vec::new(),
        };
        let m = Method {
            owner,
            object,
            fields,
            this: None,
        };
        Some(
            self.inline_function(call, &method, &targs, args, Some(&m))
                .unwrap_or_else(|| Value::Data(format!("the result of `{callee}()`"))),
        )
    }

    /// `obj.m(...)` (or `obj->m(...)`) where `obj` is an object in shared memory (a
    /// `__shared__` struct, or a pointer to one): the member function is inlined with
    /// `this` at that place. `None` when `obj` is not one or no member function fits.
    fn shared_member_call(
        &mut self,
        call: &Expr,
        callee: &str,
        obj: &str,
        method: &str,
        template_args: &[String],
        args: &[Expr],
    ) -> Option<Value> {
        if !obj.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let ident = Expr {
            span: call.span,
            kind: ExprKind::Ident(obj.to_string()),
        };
        let target = if callee.contains("->") {
            Expr {
                span: call.span,
                kind: ExprKind::Unary(UnaryOp::Deref, Box::new(ident)),
            }
        } else {
            ident
        };
        let Some(Ok(place)) = self.place(&target) else {
            return None;
        };
        let (owner, mut targs) = self.owner_of(&place.ty.base);
        if !self.has_method(Some(&owner), method) {
            return None;
        }
        targs.extend(template_args.iter().cloned());
        let m = Method {
            owner,
            object: None,
            fields: Vec::new(),
            this: Some(place),
        };
        Some(
            self.inline_function(call, method, &targs, args, Some(&m))
                .unwrap_or_else(|| Value::Data(format!("the result of `{callee}()`"))),
        )
    }

    /// Forgets the fields of local object `object` that member function `method` assigns
    /// (every field when `method` is empty: the object is handed to a call).
    pub(super) fn invalidate_fields(&mut self, object: &str, method: &str, why: &str) {
        let Some((owner, _)) = self.objects.get(object).cloned() else {
            return;
        };
        let assigned: Option<HashSet<String>> = (!method.is_empty()).then(|| {
            self.syn
                .functions
                .iter()
                .filter(|f| f.name == method && f.owner.as_deref() == Some(owner.as_str()))
                .flat_map(|f| f.body.iter().flat_map(assigned_names))
                .collect()
        });
        let prefix = format!("{object}.");
        let fields: Vec<String> = self
            .scopes
            .iter()
            .flat_map(|s| s.keys())
            .filter_map(|k| k.strip_prefix(&prefix))
            .filter(|f| assigned.as_ref().is_none_or(|a| a.contains(*f)))
            .map(str::to_string)
            .collect();
        for field in fields {
            let key = format!("{prefix}{field}");
            self.assign(
                &key,
                Value::Unknown(
                    format!("`{key}` is assigned where bankcheck cannot follow it ({why})").into(),
                ),
            );
        }
    }

    /// A local object handed to a call (`init(s)`, `f(&s)`) may have its fields changed
    /// there: they are no longer known after it. (A member function called on the object
    /// gives its fields back itself.)
    pub(super) fn forget_passed_objects(&mut self, callee: &str, args: &[Expr]) {
        if self.objects.is_empty() {
            return;
        }
        for a in args {
            let object = match &a.kind {
                ExprKind::Ident(o) => o,
                ExprKind::Unary(UnaryOp::AddrOf, inner) => match &inner.kind {
                    ExprKind::Ident(o) => o,
                    _ => continue,
                },
                _ => continue,
            };
            let Some((owner, _)) = self.objects.get(object).cloned() else {
                continue;
            };
            let fields: Vec<String> = self
                .struct_def(&owner)
                .map(|d| d.fields.iter().map(|f| f.name.clone()).collect())
                .unwrap_or_default();
            for field in fields {
                let key = format!("{object}.{field}");
                if self.lookup(&key).is_some() {
                    self.assign(
                        &key,
                        Value::Unknown(format!("`{key}` may be changed by `{callee}`").into()),
                    );
                }
            }
        }
    }
}
