//! Types and constants that live in struct bodies.
//!
//! Layouts come from [`crate::extract::types`], which binds a struct template's
//! parameters to a use's arguments (`Pack<float>`, through typedefs and the function's
//! own template arguments) and asks the interpreter for the constant expressions of the
//! struct's body: member extents (`E v[size]`), `alignas`, static members. Those are
//! evaluated in the struct's scope: its template parameters bound, its static members
//! named bare, and none of the function's locals or template arguments in sight.

use super::{int, Interp, Value};
use crate::extract::ast::{Expr, TypeName};
use crate::extract::types::{Consts, Layout, Member, Scope};
use std::collections::HashMap;

impl Consts for Interp<'_> {
    fn value(&mut self, e: &Expr, scope: &Scope) -> Option<i64> {
        match self.eval_in(e, scope) {
            Value::Int(i) => i.as_const(),
            _ => None,
        }
    }
}

impl<'a> Interp<'a> {
    /// The layout of `ty`, named in the function (its template arguments substituted).
    pub(super) fn layout(&mut self, ty: &TypeName) -> Option<Layout> {
        let types = self.syn.types();
        let here = self.here();
        let l = types.layout(ty, &here, self);
        self.type_args = here.types;
        l
    }

    /// The layout of a type named by a member alias, in the body of the struct being
    /// evaluated (`sizeof(Element)` in a traits struct's `static constexpr` member, with
    /// `using Element = typename Base::Element;` and `Base` a defaulted parameter) or as
    /// `Owner::Alias`: each alias followed to its spelling in the scope it is written
    /// in, up to eight steps; `None` when a spelling is not one type or not laid out.
    pub(super) fn alias_layout(&mut self, name: &str) -> Option<Layout> {
        let syn = self.syn;
        let types = syn.types();
        let mut scope = self.names.struct_context.last().map(|owner| Scope {
            owner: Some(owner.clone()),
            types: self.type_args.clone(),
            values: self
                .scopes
                .first()
                .into_iter()
                .flatten()
                .filter_map(|(k, v)| match v {
                    Value::Int(i) => Some((k.clone(), i.as_const()?)),
                    _ => None,
                })
                .collect(),
        });
        let mut name = name.to_string();
        for _ in 0..8 {
            let (texts, inner) = self.type_alias(&name, scope.as_ref())?;
            let [text] = texts.as_slice() else {
                return None;
            };
            let inner = inner.unwrap_or_else(|| Scope {
                owner: None,
                types: self.type_args.clone(),
                values: HashMap::new(),
            });
            let ty = TypeName {
                base: text
                    .trim()
                    .trim_start_matches("typename ")
                    .trim()
                    .to_string(),
                pointers: 0,
            };
            if let Some(l) = types.layout(&ty, &inner, self) {
                return Some(l);
            }
            name = ty.base;
            scope = Some(inner);
        }
        None
    }

    /// Member `field` of `ty`, named in the function.
    pub(super) fn member_layout(&mut self, ty: &TypeName, field: &str) -> Option<Member> {
        let types = self.syn.types();
        let here = self.here();
        let m = types.member(ty, field, &here, self);
        self.type_args = here.types;
        m
    }

    /// `Owner::member` where `Owner` is a struct with a `static constexpr` member, named
    /// directly, through a typedef (`x128` for `Pack<float>`) or as a template type
    /// argument (`Traits`); the member's value is evaluated in the struct's scope.
    pub(super) fn static_member(&mut self, name: &str) -> Option<Value> {
        let (owner, member) = name.rsplit_once("::")?;
        let owner = owner.trim_start_matches("typename ").trim();
        let syn = self.syn;
        let types = syn.types();
        let here = self.here();
        let found = types.struct_scope(owner, &here, self);
        self.type_args = here.types;
        let (short, scope) = found?;
        // A specialisation the use names has members of its own, not the primary's.
        let (key, scope) = match self.specialisation(&short, &scope) {
            Ok(Some(chosen)) => chosen,
            Ok(None) => (short, scope),
            Err(why) => return Some(Value::Unknown(why.into())),
        };
        let found = syn.static_members.get(&key).and_then(|m| m.get(member));
        match self.member_definition(found, &key, member)? {
            Ok(value) => Some(self.eval_in(value, &scope)),
            Err(unknown) => Some(unknown),
        }
    }

    /// The definition of static member `member` of struct `key` to evaluate: `found`
    /// (made outside conditional groups of the body), else the one of the branch the
    /// known macros take; `Err` with the value `unknown` when that is not decided or the
    /// budget is spent (members defined by other members, `T<N - 1>::v + T<N - 2>::v`,
    /// can multiply work).
    fn member_definition(
        &mut self,
        found: Option<&'a Expr>,
        key: &str,
        member: &str,
    ) -> Option<Result<&'a Expr, Value>> {
        let value = match found {
            Some(v) => v,
            None => match self.static_member_branch(key, member)? {
                Ok(v) => v,
                Err(why) => return Some(Err(Value::Unknown(why))),
            },
        };
        if self.budget.exhausted() {
            return Some(Err(Value::Unknown(super::budget::TOO_MUCH_WORK.into())));
        }
        Some(Ok(value))
    }

    /// The spellings of the type alias `name` (one, or one per branch of an undecided
    /// conditional) and the scope they are read in (`None`: the function's own):
    /// `Traits::SmemLayoutQ` in the struct `Traits` stands for, a bare name in the
    /// struct of `scope` or at file scope.
    pub(super) fn type_alias(
        &mut self,
        name: &str,
        scope: Option<&Scope>,
    ) -> Option<(Vec<String>, Option<Scope>)> {
        let syn = self.syn;
        let name = name.trim_start_matches("typename ").trim();
        if let Some((owner, member)) = name.rsplit_once("::") {
            let types = syn.types();
            let found = if let Some(s) = scope {
                types.struct_scope(owner, s, self)
            } else {
                let here = self.here();
                let found = types.struct_scope(owner, &here, self);
                self.type_args = here.types;
                found
            };
            let (short, inner) = found?;
            let (key, inner) = match self.specialisation(&short, &inner) {
                Ok(Some(chosen)) => chosen,
                Ok(None) => (short, inner),
                Err(_) => return None,
            };
            let text = syn.type_aliases.get(&key)?.get(member)?;
            if let Some(chosen) = self.alias_branch(&key, member) {
                return Some((vec![chosen], Some(inner)));
            }
            return Some((text.clone(), Some(inner)));
        }
        if let Some(s) = scope {
            let own = s
                .owner
                .as_ref()
                .and_then(|o| syn.type_aliases.get(o)?.get(name));
            if let Some(text) = own {
                return Some((text.clone(), Some(s.clone())));
            }
        }
        let text = syn.type_aliases.get("")?.get(name)?;
        Some((text.clone(), scope.cloned()))
    }

    /// The spelling of member alias `member` of struct `key` in the branch of its body's
    /// conditional group that the known macros take (the toolchain's, such as
    /// `__CUDA_ARCH__`, as a device compilation assumes them, stated), when the body
    /// defines it only in such groups; `None` when it does not, or no one branch is taken
    /// (every spelling is then read, and they must agree).
    fn alias_branch(&mut self, key: &str, member: &str) -> Option<String> {
        let syn = self.syn;
        let alternatives = syn.type_alias_branches.get(key)?.get(member)?;
        let name = format!("{key}::{member}");
        match self.taken_branch("alias", &name, alternatives.iter().map(|(b, _)| b)) {
            Ok(Some(i)) => Some(alternatives[i].1.clone()),
            _ => None,
        }
    }

    /// A static member of the innermost struct being evaluated in, or of the struct whose
    /// member function is being inlined, named bare (`I` in `tile<I_, J_, T>::get_i`,
    /// evaluated where the function's template parameters are bound).
    pub(super) fn own_static_member(&mut self, name: &str) -> Option<Value> {
        let owner = self
            .names
            .struct_context
            .last()
            .or(self.calls.owner.as_ref())?
            .clone();
        let found = self.own_static_definition(&owner, name);
        match self.member_definition(found, &owner, name)? {
            Ok(value) => Some(self.eval(value)),
            Err(unknown) => Some(unknown),
        }
    }

    /// The definition of static member `name` of `owner` made outside conditional groups
    /// of its body.
    fn own_static_definition(&self, owner: &str, name: &str) -> Option<&'a Expr> {
        let syn = self.syn;
        let value = if self.names.struct_context.is_empty() {
            let members = syn.static_members.get(owner).or_else(|| {
                // Methods are owned under the struct's name without spaces.
                owner.contains('<').then(|| {
                    syn.static_members.iter().find_map(|(k, m)| {
                        k.chars()
                            .filter(|c| !c.is_whitespace())
                            .eq(owner.chars())
                            .then_some(m)
                    })
                })?
            })?;
            members.get(name)?
        } else {
            syn.static_members.get(owner)?.get(name)?
        };
        Some(value)
    }

    /// The function's own scope, its template arguments moved out of `self` for the
    /// time of a layout (the caller puts them back).
    pub(super) fn here(&mut self) -> Scope {
        Scope {
            owner: None,
            types: std::mem::take(&mut self.type_args),
            values: HashMap::new(),
        }
    }

    /// Evaluates `e` in `scope`: the function's own (template arguments replaced by the
    /// scope's), or a struct's body, where only the struct's parameters, its static
    /// members and file-level names are known.
    pub(super) fn eval_in(&mut self, e: &Expr, scope: &Scope) -> Value {
        let saved_types = std::mem::replace(&mut self.type_args, scope.types.clone());
        let v = match &scope.owner {
            Some(owner) => {
                let bound = scope
                    .values
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::Int(int(*v))))
                    .collect();
                let saved_scopes = std::mem::replace(&mut self.scopes, vec![bound]);
                self.names.struct_context.push(owner.clone());
                let v = self.eval(e);
                self.names.struct_context.pop();
                self.scopes = saved_scopes;
                v
            }
            None => self.eval(e),
        };
        self.type_args = saved_types;
        v
    }
}
