//! Which definition of a struct template a use names: the primary template, or a partial
//! or full specialisation whose argument pattern matches the use's arguments
//! (`tile<16, 8, float>` names `template <int I_, int J_, typename T> struct tile<I_, J_,
//! T, DATA_LAYOUT_I_MAJOR>`, the fourth argument a default of the primary), the most
//! specialised of those that match, as C++ picks it. When a specialisation may match but
//! an argument it tests is not known, no definition is chosen: the caller stays unknown.

use super::{Interp, Vars};
use crate::extract::ast::{StructDef, TypeName};
use crate::extract::convert::{parse_int, type_from_text};
use crate::extract::types::{split_template, Scope};
use crate::lower::templates::STAND_IN;

/// One argument of a specialisation's pattern: a parameter of its own, bound by the
/// match, or a type or value the use's argument must equal.
#[derive(Debug, Clone, PartialEq)]
enum Pattern {
    Param(String),
    Type(TypeName),
    Value(i64),
}

impl Interp<'_> {
    /// The specialisation of struct template `short` that a use binding the primary
    /// template's parameters as in `primary` names: its key in the file's structs and the
    /// scope of its body (its own parameters bound). `Ok(None)`: no specialisation
    /// matches, the primary template is meant. `Err`: one may match, but an argument it
    /// tests is not known, or two match and neither is more specialised.
    pub(super) fn specialisation(
        &mut self,
        short: &str,
        primary: &Scope,
    ) -> Result<Option<(String, Scope)>, String> {
        let syn = self.syn;
        let Some(def) = syn.structs.get(short) else {
            return Ok(None);
        };
        let undecided = |k: &str| {
            syn.redefined_structs.contains(k).then(|| {
                format!(
                    "`{k}` is defined more than once, in the branches of a conditional bankcheck does not decide"
                )
            })
        };
        if let Some(why) = undecided(short) {
            return Err(why);
        }
        let mut candidates: Vec<(&String, &StructDef)> = syn
            .structs
            .iter()
            .filter(|(k, _)| {
                let (base, args) = split_template(k);
                args.is_some() && base.rsplit("::").next().unwrap_or(base).trim() == short
            })
            .collect();
        if candidates.is_empty() {
            return Ok(None);
        }
        candidates.sort_by(|a, b| a.0.cmp(b.0));
        let mut matched: Vec<(String, Vec<Pattern>, Scope)> = Vec::new();
        for (key, spec) in candidates {
            if let Some(why) = undecided(key) {
                return Err(why);
            }
            let patterns = self.patterns(key, spec)?;
            if patterns.len() != def.template_params.len() {
                continue;
            }
            let mut scope = Scope {
                owner: Some(key.clone()),
                ..Scope::default()
            };
            let mut fits = true;
            for (p, pattern) in def.template_params.iter().zip(&patterns) {
                let (ty, value) = (primary.types.get(&p.name), primary.values.get(&p.name));
                match pattern {
                    Pattern::Param(name) => {
                        let clash = match (ty, value) {
                            (Some(t), _) => scope
                                .types
                                .insert(name.clone(), t.clone())
                                .is_some_and(|old| old != *t),
                            (None, Some(v)) => scope
                                .values
                                .insert(name.clone(), *v)
                                .is_some_and(|old| old != *v),
                            (None, None) => {
                                return Err(format!(
                                    "the template argument `{}` of `{short}` is not known, and a specialisation of `{short}` depends on it",
                                    p.name
                                ))
                            }
                        };
                        fits &= !clash;
                    }
                    Pattern::Type(want) if !p.is_type => {
                        return Err(format!(
                            "the argument `{}` of a specialisation of `{short}` is not a constant bankcheck knows",
                            want.base
                        ))
                    }
                    Pattern::Type(want) => match ty {
                        Some(t) if self.type_args.get(STAND_IN).is_some_and(|s| same_type(s, t)) => {
                            return Err(format!(
                                "`{}` stands for a type of its size here, and which specialisation of `{short}` is meant depends on the type itself",
                                t.base
                            ))
                        }
                        Some(t) => fits &= same_type(t, want),
                        None => {
                            return Err(format!(
                                "the type argument `{}` of `{short}` is not known, and a specialisation of `{short}` depends on it",
                                p.name
                            ))
                        }
                    },
                    Pattern::Value(want) => match value {
                        Some(v) => fits &= v == want,
                        None => {
                            return Err(format!(
                                "the template argument `{}` of `{short}` is not known, and a specialisation of `{short}` depends on it",
                                p.name
                            ))
                        }
                    },
                }
            }
            if fits {
                matched.push((key.clone(), patterns, scope));
            }
        }
        let most = matched
            .iter()
            .position(|(_, a, _)| matched.iter().all(|(_, b, _)| at_least_as_special(a, b)));
        match most {
            Some(i) => {
                let (_, _, scope) = matched.swap_remove(i);
                let key = scope.owner.clone().unwrap_or_default();
                Ok(Some((key, scope)))
            }
            None if matched.is_empty() => Ok(None),
            None => Err(format!(
                "several specialisations of `{short}` match and bankcheck does not tell which is meant"
            )),
        }
    }

    /// Some struct of the file is a specialisation of the template that `name`
    /// (`Block<4>`, `ns::Block`) names.
    pub(super) fn has_specialisations(&self, name: &str) -> bool {
        let (base, _) = split_template(name);
        let short = base.rsplit("::").next().unwrap_or(base).trim();
        self.syn.structs.keys().any(|k| {
            if !(k.contains('<') && k.contains(short)) {
                return false;
            }
            let (b, args) = split_template(k);
            args.is_some() && b.rsplit("::").next().unwrap_or(b).trim() == short
        })
    }

    /// The argument pattern of specialisation `key` (`tile<I_, J_, T, DATA_LAYOUT_I_MAJOR>`):
    /// its own parameters, types and constant values. `Err` for an argument that is an
    /// expression of its parameters (`S<N + 1>`, `S<T*>`), which is not matched.
    fn patterns(&mut self, key: &str, spec: &StructDef) -> Result<Vec<Pattern>, String> {
        let (_, args) = split_template(key);
        let own = |a: &str| spec.template_params.iter().any(|p| p.name == a);
        let mut out = Vec::new();
        for a in args.unwrap_or_default() {
            let a = a.trim();
            if own(a) {
                out.push(Pattern::Param(a.to_string()));
                continue;
            }
            let mentions_own = a
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(own);
            if mentions_own {
                return Err(format!(
                    "the specialisation `{key}` is matched by an expression of its parameters, which bankcheck does not follow"
                ));
            }
            match self.file_constant(a) {
                Some(v) => out.push(Pattern::Value(v)),
                None if a.chars().next().is_some_and(|c| c.is_ascii_digit() || c == '-') => {
                    return Err(format!(
                        "the argument `{a}` of the specialisation `{key}` is not a constant bankcheck knows"
                    ))
                }
                None => out.push(Pattern::Type(type_from_text(a))),
            }
        }
        Ok(out)
    }

    /// The value of `text` as a constant of the file (a literal, an enumerator, a
    /// constant), with none of the function's locals in sight.
    fn file_constant(&mut self, text: &str) -> Option<i64> {
        if let Some(v) = parse_int(text) {
            return Some(v);
        }
        let name = !text.is_empty()
            && text
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ':');
        if !name || self.find_constant(text).is_none() {
            return None;
        }
        let saved = std::mem::replace(&mut self.scopes, vec![Vars::default()]);
        let v = self.template_value(text);
        self.scopes = saved;
        match v {
            super::Value::Int(i) => i.as_const(),
            _ => None,
        }
    }
}

/// The same type, spaces aside.
fn same_type(a: &TypeName, b: &TypeName) -> bool {
    let squash = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    a.pointers == b.pointers && squash(&a.base) == squash(&b.base)
}

/// Pattern `a` is at least as specialised as `b`: wherever `b` asks for a type or a value,
/// `a` asks for the same one.
fn at_least_as_special(a: &[Pattern], b: &[Pattern]) -> bool {
    a.iter().zip(b).all(|(x, y)| match y {
        Pattern::Param(_) => true,
        concrete => match (x, concrete) {
            (Pattern::Type(s), Pattern::Type(t)) => same_type(s, t),
            (x, y) => x == y,
        },
    })
}
