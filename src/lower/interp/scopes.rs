//! Scopes and local variables: binding, lookup and assignment across nested scopes,
//! declarations (shared arrays, local arrays and objects, typed values), and forgetting
//! what a construct bankcheck does not follow may have changed.

use super::access::LoweredPlace;
use super::{int, Interp, Value, Vars};
use crate::diag::AccessKind;
use crate::extract::ast::{ExprKind, Stmt, TypeName, VarDecl};

impl Interp<'_> {
    /// Opens a scope for [`Interp::bind_value`] (used to evaluate launch arguments).
    pub(crate) fn push_scope(&mut self) {
        self.scopes.push(Vars::default());
    }

    /// Closes the scope opened by [`Interp::push_scope`].
    pub(crate) fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    /// Binds `name` to `v` in the innermost scope.
    pub(crate) fn bind_value(&mut self, name: &str, v: Value) {
        self.bind(name, v);
    }

    /// The value of variable `name`, innermost scope first.
    pub(super) fn lookup(&self, name: &str) -> Option<&Value> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// Binds `name` to `v` in the innermost scope.
    pub(super) fn bind(&mut self, name: &str, v: Value) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), v);
        }
    }

    /// Assigns to an existing variable in the scope that holds it (or binds it here).
    pub(super) fn assign(&mut self, name: &str, v: Value) {
        for s in self.scopes.iter_mut().rev() {
            if let Some(slot) = s.get_mut(name) {
                *slot = v;
                return;
            }
        }
        self.bind(name, v);
    }

    /// Makes the variables `names` unknown, saying `why` (`obj.*method`: the fields that
    /// member function assigns).
    pub(super) fn invalidate(&mut self, names: &[String], why: &str) {
        for n in names {
            if let Some((object, method)) = n.split_once(".*") {
                self.invalidate_fields(object, method, why);
                continue;
            }
            // A shared variable is read from memory, whatever was stored before.
            if matches!(self.lookup(n), Some(Value::Array(_))) {
                continue;
            }
            if self.lookup(n).is_some() {
                self.assign(
                    n,
                    Value::Unknown(
                        format!("`{n}` is assigned where bankcheck cannot follow it ({why})")
                            .into(),
                    ),
                );
            }
        }
    }

    /// `using name = text;` or `typedef text name;` in a body: when `text` is a type whose
    /// layout is known (a built-in, a struct, a pointer, a type parameter bound here),
    /// `name` stands for it in the rest of the function, as a template type argument does.
    pub(super) fn local_type(&mut self, name: &str, text: &str) {
        let mut ty = crate::extract::convert::type_from_text(text);
        if let Some(bound) = self.type_args.get(&ty.base) {
            ty = TypeName {
                base: bound.base.clone(),
                pointers: bound.pointers + ty.pointers,
            };
        }
        if ty.base.is_empty() || ty.base == name || self.layout(&ty).is_none() {
            return;
        }
        self.type_args.insert(name.to_string(), ty);
    }

    /// Declares a variable: a shared array, a local array, an object, or a typed value.
    pub(super) fn declare(&mut self, d: &VarDecl) {
        self.declare_in(d, None);
    }

    /// [`Self::declare`], knowing the rest of the block the variable is declared in when
    /// it is declared alone (its whole scope: a local array only read there may be a
    /// table, `tables.rs`).
    pub(super) fn declare_in(&mut self, d: &VarDecl, rest: Option<&[Stmt]>) {
        if d.shared {
            self.register_array(d);
            return;
        }
        // Before arrays: `float (&row)[33] = tile[ty];` is a reference to a row.
        if self.declare_reference(d) {
            return;
        }
        if !d.extents.is_empty() {
            self.declare_local_array(d, rest);
            return;
        }
        if self.declare_cute(d) {
            return;
        }
        if d.ty.pointers == 0 && self.declare_object(d) {
            return;
        }
        let v = match &d.init {
            Some(init) => {
                let v = self.eval(init);
                let v = self.convert_to(&d.ty, v);
                self.uniform_local(d, v)
            }
            None => crate::lower::vector::undefined(&d.name, &d.ty, &self.syn.typedefs)
                .unwrap_or_else(|| {
                    Value::Unknown(format!("`{}` is declared without a value", d.name).into())
                }),
        };
        self.bind(&d.name, v);
    }

    /// `T& r = place;` with `place` in shared memory whose address is known: `r` names
    /// that place ([`Value::Ref`]). Binding reads nothing; its uses are the accesses.
    /// A place whose address cannot be lowered is left to the plain declaration, which
    /// reports the initialiser as an `unknown` access rather than losing the uses.
    /// A reference to a one-dimensional array, `float (&col)[33] = tile[x];` (a row) or
    /// `= s;` (a whole array), names its first element, so `col[i]` reaches `tile[x][i]`;
    /// one to a multi-dimensional array, or a pointer to an array (`float (*row)[33]`),
    /// bound in shared memory, is not followed and said so ([`Self::unfollowed_view`]).
    fn declare_reference(&mut self, d: &VarDecl) -> bool {
        if d.array_pointer || (d.reference && d.extents.len() > 1) {
            return self.unfollowed_view(d);
        }
        let Some(init) = d
            .init
            .as_ref()
            .filter(|_| d.reference && d.ty.pointers == 0)
        else {
            return false;
        };
        if d.extents.len() == 1 {
            if let ExprKind::Ident(n) = &init.kind {
                if let Some(Value::Array(a)) = self.lookup(n).cloned() {
                    if self.arrays[a].extents.len() != 1 {
                        return self.unfollowed_view(d);
                    }
                    let r = match self.decay(a) {
                        Value::Ptr {
                            array,
                            offset,
                            pointee,
                            ..
                        } => Value::Ref {
                            array,
                            offset,
                            pointee,
                            name: Some(d.name.clone()),
                        },
                        other => other,
                    };
                    self.bind(&d.name, r);
                    return true;
                }
            }
        }
        let place = self.place(init);
        if !d.extents.is_empty() && matches!(place, Some(Err(_))) {
            return self.unfollowed_view(d);
        }
        let Some(Ok(p)) = place else {
            return false;
        };
        let r = Value::Ref {
            array: p.array,
            offset: p.offset,
            pointee: p.ty,
            name: Some(d.name.clone()),
        };
        self.bind(&d.name, r);
        true
    }

    /// A reference or pointer to an array, `d`, that bankcheck does not follow: bound in
    /// shared memory, an `unknown` access at its initialiser says the accesses through it
    /// are not checked, and the name is unknown; bound elsewhere, it points to memory.
    fn unfollowed_view(&mut self, d: &VarDecl) -> bool {
        let Some(init) = &d.init else {
            self.bind(&d.name, Value::Memory);
            return true;
        };
        let (array, index_spans) = self.array_of(init);
        let Some(array) = array else {
            self.eval(init);
            self.bind(&d.name, Value::Memory);
            return true;
        };
        let what = if d.array_pointer {
            "a pointer to arrays"
        } else {
            "a reference to a multi-dimensional array, or to a place bankcheck cannot lower,"
        };
        let why = format!(
            "`{}` is {what} in `{}`, which bankcheck does not follow: the accesses through it are not checked",
            d.name, self.arrays[array].name
        );
        let place = LoweredPlace {
            array,
            lowered: Err(why.clone().into()),
            pointer: None,
            index_spans,
            plain: false,
            elem_bytes: self.arrays[array].element_bytes,
        };
        self.record_site(init.span, AccessKind::Load, place);
        self.bind(&d.name, Value::Unknown(why.into()));
        true
    }

    /// Applies a declared type to a value: pointer types retype shared pointers.
    pub(super) fn convert_to(&self, ty: &TypeName, v: Value) -> Value {
        match v {
            Value::Array(a) if ty.pointers > 0 => Value::Ptr {
                array: a,
                offset: int(0),
                pointee: TypeName {
                    base: ty.base.clone(),
                    pointers: ty.pointers - 1,
                },
                name: None,
            },
            Value::Ptr { array, offset, .. } if ty.pointers > 0 && ty.base != "auto" => {
                Value::Ptr {
                    array,
                    offset,
                    pointee: TypeName {
                        base: ty.base.clone(),
                        pointers: ty.pointers - 1,
                    },
                    name: None,
                }
            }
            other => crate::lower::vector::fit(ty, other, &self.syn.typedefs),
        }
    }
}
