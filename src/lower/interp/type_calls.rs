//! Static member functions called through a type: `tile<16, 8, float>::get_i(l)`, and
//! the same through a `typedef` or `using` alias (`tile_C::get_j(l)`), a template type
//! argument (`T_C::get_i(l)`) or a member alias of a traits struct
//! (`mma_tile_sizes<DV, 8>::T_C`). The type is resolved to the definition it names (a
//! specialisation, [`super::specialisations`]), and the member function is inlined like
//! a free helper with that definition's template parameters bound to the use's arguments;
//! its static members (`I`, `ne`) are named bare in its body ([`super::structs`]). A type
//! whose arguments are not known gives `unknown` with the reason, never a guess.

use super::inlining::Method;
use super::{Interp, Value};
use crate::extract::ast::Expr;
use crate::extract::convert::type_from_text;
use crate::extract::types::{split_template, substitute};

/// How many aliases deep a qualifier is followed (`A::B` whose `B` is `C::D` ...).
const MAX_QUALIFIER_DEPTH: u32 = 8;

impl Interp<'_> {
    /// `q::method(args)` where `q` names a struct through an alias, a template argument
    /// or a traits member, and some definition of that struct template defines `method`.
    /// `None` when `q` names no such struct (the call is tried as something else).
    pub(super) fn call_through_type(
        &mut self,
        call: &Expr,
        q: &str,
        method: &str,
        template_args: &[String],
        args: &[Expr],
    ) -> Option<Value> {
        let q = unqualified(q);
        let ty = match self.qualifier_type(&q, 0) {
            Ok(Some(ty)) => ty,
            Ok(None) => return None,
            Err(why) => return Some(self.not_followed(args, why)),
        };
        let types = self.syn.types();
        let here = self.here();
        let found = types.struct_scope(&ty, &here, self);
        self.type_args = here.types;
        let Some((short, primary)) = found else {
            if !self.has_method(None, method) {
                return None;
            }
            if self.lookup(&super::cute::unread_alias(&ty)).is_some() {
                let why = format!(
                    "`{q}` is a local alias of a type bankcheck does not resolve here, so `{q}::{method}()` is not followed"
                );
                return Some(self.not_followed(args, why));
            }
            if self.is_type_parameter(&ty) {
                let why = format!(
                    "`{q}` is a template type parameter whose argument bankcheck does not know here, so `{q}::{method}()` is not followed"
                );
                return Some(self.not_followed(args, why));
            }
            return None;
        };
        if !self.template_defines(&short, method) {
            return None;
        }
        let (key, scope) = match self.specialisation(&short, &primary) {
            Ok(Some(chosen)) => chosen,
            Ok(None) => (short.clone(), primary),
            Err(why) => return Some(self.not_followed(args, why)),
        };
        let owner: String = key.chars().filter(|c| !c.is_whitespace()).collect();
        if !self.has_method(Some(&owner), method) {
            let why = format!(
                "the definition of `{short}` that `{q}` names has no member function `{method}` bankcheck finds"
            );
            return Some(self.not_followed(args, why));
        }
        let params = self
            .syn
            .structs
            .get(&key)
            .map(|d| d.template_params.clone())
            .unwrap_or_default();
        let mut targs = Vec::with_capacity(params.len() + template_args.len());
        for p in &params {
            let text = if p.is_type {
                scope
                    .types
                    .get(&p.name)
                    .map(|t| format!("{}{}", t.base, "*".repeat(t.pointers as usize)))
            } else {
                scope.values.get(&p.name).map(i64::to_string)
            };
            let Some(text) = text else {
                let why = format!(
                    "the template argument `{}` of `{q}` is not known here, so `{q}::{method}` is not followed",
                    p.name
                );
                return Some(self.not_followed(args, why));
            };
            targs.push(text);
        }
        targs.extend(template_args.iter().cloned());
        let m = Method {
            owner,
            object: None,
            fields: Vec::new(),
            this: None,
        };
        Some(
            self.inline_function(call, method, &targs, args, Some(&m))
                .unwrap_or_else(|| Value::Data(format!("the result of `{q}::{method}()`"))),
        )
    }

    /// The type qualifier `q` stands for, in the caller's terms: through the function's
    /// template arguments and local aliases, and through member aliases of traits
    /// structs (the specialisation the use names). `Ok(None)`: not a type bankcheck
    /// resolves. `Err`: a traits struct whose definition is not decided.
    fn qualifier_type(&mut self, q: &str, depth: u32) -> Result<Option<String>, String> {
        if depth > MAX_QUALIFIER_DEPTH {
            return Ok(None);
        }
        if let Some(t) = self.type_args.get(q) {
            return Ok((t.pointers == 0).then(|| t.base.clone()));
        }
        if split_template(q).1.is_some() || self.syn.typedefs.contains_key(q) {
            return Ok(Some(q.to_string()));
        }
        let Some((outer, member)) = q.rsplit_once("::") else {
            return Ok(Some(q.to_string()));
        };
        let Some(outer_ty) = self.qualifier_type(&unqualified(outer), depth + 1)? else {
            return Ok(None);
        };
        let types = self.syn.types();
        let here = self.here();
        let found = types.struct_scope(&outer_ty, &here, self);
        self.type_args = here.types;
        // A namespace, not a struct: the name as written.
        let Some((short, primary)) = found else {
            return Ok(Some(q.to_string()));
        };
        let (key, scope) = match self.specialisation(&short, &primary)? {
            Some(chosen) => chosen,
            None => (short, primary),
        };
        let Some(texts) = self.syn.type_aliases.get(&key).and_then(|a| a.get(member)) else {
            return Ok(None);
        };
        let Some(text) = texts.first().filter(|t| texts.iter().all(|u| u == *t)) else {
            return Err(format!(
                "`{q}` is spelled differently in the branches of a conditional bankcheck does not decide"
            ));
        };
        if self.names_members_of(&key, text) {
            return Ok(None);
        }
        let ty = substitute(&type_from_text(text), &scope);
        if ty.pointers > 0 {
            return Ok(None);
        }
        let inner = unqualified(&ty.base);
        // Bound types are in the caller's terms; any other name in the spelling is the
        // file's, not the caller's: only a further member alias is followed.
        if split_template(&inner).1.is_some() || !inner.contains("::") {
            return Ok(Some(inner));
        }
        self.qualifier_type(&inner, depth + 1)
    }

    /// Some definition of struct template `short` (the primary or a specialisation)
    /// defines member function `method`.
    fn template_defines(&self, short: &str, method: &str) -> bool {
        let prefix = format!("{short}<");
        let owned = |o: &str| o == short || o.starts_with(&prefix);
        match self.functions_by_name {
            Some(index) => index
                .get(method)
                .into_iter()
                .flatten()
                .filter_map(|&i| self.syn.functions.get(i))
                .any(|f| f.owner.as_deref().is_some_and(owned)),
            None => self
                .syn
                .functions
                .iter()
                .any(|f| f.name == method && f.owner.as_deref().is_some_and(owned)),
        }
    }

    /// `name` is a template type parameter of some function of the file (and, not bound
    /// here, one whose argument is not known).
    fn is_type_parameter(&self, name: &str) -> bool {
        let plain = name.chars().all(|c| c.is_alphanumeric() || c == '_');
        plain
            && !self.syn.typedefs.contains_key(name)
            && self.syn.functions.iter().any(|f| {
                f.template_params
                    .iter()
                    .any(|p| p.is_type && p.name == name)
            })
    }

    /// `text`, written in the body of struct `key`, names one of its static members or
    /// member aliases, which the caller's scope would read wrongly.
    fn names_members_of(&self, key: &str, text: &str) -> bool {
        let syn = self.syn;
        text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .any(|w| {
                syn.static_members
                    .get(key)
                    .is_some_and(|m| m.contains_key(w))
                    || syn.type_aliases.get(key).is_some_and(|m| m.contains_key(w))
            })
    }

    /// A call not followed for reason `why`: its arguments are evaluated once, and its
    /// value is unknown.
    fn not_followed(&mut self, args: &[Expr], why: String) -> Value {
        for a in args {
            if !self.whole_object_handed_over(a) {
                self.eval(a);
            }
        }
        Value::Unknown(why.into())
    }
}

/// `q` without `typename`, `template` or a leading `::`.
fn unqualified(q: &str) -> String {
    q.trim()
        .trim_start_matches("typename ")
        .trim_start_matches("template ")
        .trim()
        .trim_start_matches("::")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::unqualified;

    #[test]
    fn qualifiers_lose_typename_and_the_global_scope() {
        assert_eq!(unqualified(" typename ::T_C "), "T_C");
        assert_eq!(unqualified("tile<16, 8, float>"), "tile<16, 8, float>");
    }
}
