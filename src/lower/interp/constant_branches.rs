//! Constants and object-like macros defined per branch of a conditional the front end
//! leaves whole (`#ifndef USE_AMD_ROCM` / `constexpr int kWarpSize = 32;` / `#else` /
//! `... = 64;`, or `#if TILES_PER_BIN < 64` / `#define GROUP_THREAD_COUNT 64`): the
//! definition read is the one whose branch the known macros select, each condition
//! decided as conditionals in bodies are (`preproc.rs`: a name nothing defines is not
//! defined, and the assumption is said). When a condition cannot be decided, or several
//! branches are taken, the value is unknown: the last definition in the text is no
//! better a guess than the first.
//!
//! The same choice picks the member functions and static members a struct body defines
//! per branch of a conditional group (ggml's `tile<I, J, T>::get_i` and `ne`, once per
//! architecture in mma.cuh) and a function-like macro defined per branch (ggml.h's
//! `GGML_UNUSED_VARS` under `#ifdef __CUDACC__`); an undecided branch leaves the call or
//! use unknown, the reason spelling the condition. Each choice is made once per
//! interpretation, with the assumptions that made it.

use super::{Interp, Value};
use crate::extract::ast::{Expr, ExprKind, Function};
use crate::extract::constants::{Alternative, Branch};
use crate::extract::FnMacro;
use crate::model::reason::Reason;

/// Which definition the known macros select.
enum Selection<'a> {
    /// The branch of this one is taken.
    One(&'a Alternative),
    /// No branch is taken.
    None,
    /// A condition cannot be decided, or several branches are taken.
    Undecided,
}

/// How deep definitions may depend on each other's branches before bankcheck gives up.
const MAX_NESTING: usize = 16;

impl<'a> Interp<'a> {
    /// The definition of constant or macro `name` (found under `key`) to evaluate, when
    /// it is defined in preprocessor branches: `Ok(None)` when it is not.
    pub(super) fn constant_branch(
        &mut self,
        name: &str,
        key: &str,
    ) -> Result<Option<&'a Expr>, Reason> {
        let syn = self.syn;
        let Some(alternatives) = syn.constant_alternatives.get(key) else {
            return Ok(None);
        };
        // A definition outside any branch too (`#undef` and redefine): as written.
        if syn.defined.contains(key) {
            return Ok(None);
        }
        match self.selected(key, alternatives) {
            Selection::One(a) => a.value.get().map(Some).ok_or_else(|| {
                Reason::from(format!(
                    "`{name}` is defined, in the branch the known macros select, as no expression"
                ))
            }),
            // Its one definition, when the code using it compiles: the branch was misread
            // (a guard the grammar splits), or a build flag selects it.
            Selection::None if alternatives.len() == 1 => Ok(None),
            Selection::None => Err(Reason::from(format!(
                "no preprocessor branch that defines `{name}` is taken with the macros bankcheck knows"
            ))),
            Selection::Undecided => Err(Reason::from(format!(
                "`{name}` is defined in branches of a preprocessor conditional bankcheck cannot decide (set the macros with `-D NAME=VALUE` or lint.toml `defines`)"
            ))),
        }
    }

    /// The definition of static member `member` of struct `key` (its name as the file
    /// spells it, or without spaces as member functions name their owner) to evaluate,
    /// when the struct's body defines it only in conditional groups: `None` when it
    /// does not.
    pub(super) fn static_member_branch(
        &mut self,
        key: &str,
        member: &str,
    ) -> Option<Result<&'a Expr, Reason>> {
        let syn = self.syn;
        let members = syn.static_member_alternatives.get(key).or_else(|| {
            syn.static_member_alternatives.iter().find_map(|(k, m)| {
                let squashed = k.chars().filter(|c| !c.is_whitespace());
                squashed
                    .eq(key.chars().filter(|c| !c.is_whitespace()))
                    .then_some(m)
            })
        })?;
        let alternatives = members.get(member)?;
        let name = format!("{key}::{member}");
        let branches = alternatives.iter().map(|a| &a.branch);
        Some(match self.taken_branch("member", &name, branches) {
            Ok(Some(i)) => alternatives[i].value.get().ok_or_else(|| {
                Reason::from(format!("`{name}` is defined, in the branch the known macros select, as no expression"))
            }),
            // Its one definition, when the code using it compiles (as for constants).
            Ok(None) if alternatives.len() == 1 => alternatives[0]
                .value
                .get()
                .ok_or_else(|| Reason::from(format!("`{name}` is defined as no expression"))),
            Ok(None) => Err(Reason::from(format!(
                "no preprocessor branch of the body of `{key}` that defines `{member}` is taken with the macros bankcheck knows"
            ))),
            Err(why) => Err(Reason::from(format!(
                "`{name}` is defined in branches of a preprocessor conditional bankcheck cannot decide ({why}; set the macros with `-D NAME=VALUE` or lint.toml `defines`)"
            ))),
        })
    }

    /// The definition of function-like macro `name` to expand: the one whose branch the
    /// known macros take when it is defined only in preprocessor branches. `None`: no such
    /// macro; `Err`: why no one definition is selected.
    pub(super) fn fn_macro_definition(
        &mut self,
        name: &str,
    ) -> Option<Result<&'a FnMacro, String>> {
        let syn = self.syn;
        let last = syn.fn_macros.get(name)?;
        let Some(alternatives) = syn
            .fn_macro_alternatives
            .get(name)
            .filter(|_| !syn.defined.contains(name))
        else {
            return Some(Ok(last));
        };
        Some(match self.taken_branch("macro", name, alternatives.iter().map(|(b, _)| b)) {
            Ok(Some(i)) => Ok(&alternatives[i].1),
            Ok(None) if alternatives.len() == 1 => Ok(&alternatives[0].1),
            Ok(None) => Err(format!(
                "no preprocessor branch that defines the macro `{name}` is taken with the macros bankcheck knows"
            )),
            Err(why) => Err(format!(
                "the macro `{name}` is defined in branches of a preprocessor conditional bankcheck cannot decide ({why}; set the macros with `-D NAME=VALUE` or lint.toml `defines`)"
            )),
        })
    }

    /// Of the definitions of member function `name` of `owner` made in conditional
    /// groups of the struct's body, the one whose branch the known macros take.
    pub(super) fn method_branch(
        &mut self,
        name: &str,
        owner: Option<&str>,
        definitions: &[&'a Function],
    ) -> Result<&'a Function, String> {
        let qualified = match owner {
            Some(o) => format!("{o}::{name}"),
            None => name.to_string(),
        };
        let branches = definitions.iter().filter_map(|f| f.branch.as_ref());
        match self.taken_branch("method", &qualified, branches) {
            Ok(Some(i)) => Ok(definitions[i]),
            Ok(None) if definitions.len() == 1 => Ok(definitions[0]),
            Ok(None) => Err(format!(
                "no preprocessor branch that defines `{qualified}` is taken with the macros bankcheck knows, so the call is not followed"
            )),
            Err(why) => Err(format!(
                "`{qualified}` is defined in branches of a preprocessor conditional bankcheck cannot decide ({why}), so the call is not followed (set the macros with `-D NAME=VALUE` or lint.toml `defines`)"
            )),
        }
    }

    /// Whether macro `name`, defined only inside conditional blocks, is defined: `None`
    /// when its branches cannot be decided, or it has none recorded.
    pub(super) fn defined_in_branches(&mut self, name: &str) -> Option<bool> {
        let syn = self.syn;
        let alternatives = syn.constant_alternatives.get(name)?;
        let outermost = self.names.in_branches.is_empty();
        if outermost {
            if let Some(&(known, assumed)) = self.names.defined_in_branches.get(name) {
                self.names.assumed_decisions += usize::from(assumed);
                return known;
            }
        }
        let before = self.names.assumed_decisions;
        let defined = match self.selected(name, alternatives) {
            Selection::One(_) => Some(true),
            Selection::None => Some(false),
            Selection::Undecided => None,
        };
        if outermost {
            let assumed = self.names.assumed_decisions > before;
            self.names
                .defined_in_branches
                .insert(name.to_string(), (defined, assumed));
        }
        defined
    }

    /// The one alternative whose branch is taken.
    fn selected(&mut self, key: &str, alternatives: &'a [Alternative]) -> Selection<'a> {
        match self.taken_branch("constant", key, alternatives.iter().map(|a| &a.branch)) {
            Ok(Some(i)) => Selection::One(&alternatives[i]),
            Ok(None) => Selection::None,
            Err(_) => Selection::Undecided,
        }
    }

    /// The index of the one branch of `branches` that the known macros take (`key`: the
    /// name being defined, which its own conditions see as not defined yet; `kind`: what
    /// it is, as the decision is kept per interpretation). `Ok(None)`: none is taken.
    /// `Err`: why no one branch is decided.
    pub(super) fn taken_branch<'b>(
        &mut self,
        kind: &str,
        key: &str,
        branches: impl Iterator<Item = &'b Branch>,
    ) -> Result<Option<usize>, String> {
        if !self.names.in_branches.is_empty() {
            return self.decide_branches(key, branches);
        }
        let cached = format!("{kind} {key}");
        if let Some((taken, notes)) = self.names.taken_branches.get(&cached) {
            let (taken, notes) = (taken.clone(), notes.clone());
            for n in notes {
                self.state_assumption(n);
            }
            return taken;
        }
        let before = self.pp_assumptions.len();
        let taken = self.decide_branches(key, branches);
        let notes = self.pp_assumptions[before..].to_vec();
        self.names
            .taken_branches
            .insert(cached, (taken.clone(), notes));
        taken
    }

    /// [`Self::taken_branch`], decided afresh.
    fn decide_branches<'b>(
        &mut self,
        key: &str,
        branches: impl Iterator<Item = &'b Branch>,
    ) -> Result<Option<usize>, String> {
        if self.names.in_branches.len() >= MAX_NESTING
            || self.names.in_branches.iter().any(|k| k == key)
        {
            return Err(format!(
                "the preprocessor conditions around `{key}` depend on its own definition"
            ));
        }
        self.names.in_branches.push(key.to_string());
        let mut taken = Ok(None);
        for (i, b) in branches.enumerate() {
            match self.branch_decision(b) {
                Ok(false) => {}
                Ok(true) if matches!(taken, Ok(None)) => taken = Ok(Some(i)),
                Ok(true) => {
                    taken = Err(format!(
                        "several preprocessor branches that define `{key}` are taken"
                    ));
                    break;
                }
                Err(why) => {
                    taken = Err(why);
                    break;
                }
            }
        }
        self.names.in_branches.pop();
        taken
    }

    /// Whether `name` is an include guard: defined only empty, each time inside
    /// `#ifndef name` (the extraction misses a guard whose group the grammar splits).
    fn include_guard(&self, name: &str) -> bool {
        self.syn
            .constant_alternatives
            .get(name)
            .is_some_and(|alternatives| {
                alternatives.iter().all(|a| {
                    a.value.get().is_none()
                        && a.branch
                            .tests
                            .iter()
                            .any(|(m, wanted)| *wanted && tests_undefined(m, name))
                })
            })
    }

    /// Whether every condition around `branch` has the value its branch needs. The
    /// test of an include guard holds: its code is read the first time, unguarded.
    /// `Err`: why a condition cannot be decided, naming it.
    fn branch_decision(&mut self, branch: &Branch) -> Result<bool, String> {
        let mut all = Ok(true);
        for (marker, wanted) in &branch.tests {
            let ExprKind::Call { callee, args, .. } = &marker.kind else {
                return Err("a preprocessor condition bankcheck does not read".into());
            };
            let guard = *wanted
                && matches!(args.first().map(|a| &a.kind), Some(ExprKind::Ident(g))
                    if tests_undefined(marker, g) && self.include_guard(g));
            if guard {
                continue;
            }
            let named = |why: String| format!("`{}`: {why}", condition_text(marker));
            let holds = match self.preproc_condition(callee, args) {
                Some(Value::Int(i)) => i
                    .as_const()
                    .map(|c| (c != 0) == *wanted)
                    .ok_or_else(|| named("not a constant".to_string())),
                Some(Value::Unknown(why)) => Err(named(why.to_string())),
                _ => Err(named("not a condition bankcheck reads".to_string())),
            };
            match holds {
                Ok(false) => return Ok(false),
                Err(why) => {
                    if all.is_ok() {
                        all = Err(why);
                    }
                }
                Ok(true) => {}
            }
        }
        all
    }
}

/// Whether marker call `m` is `#ifndef name`.
fn tests_undefined(m: &Expr, name: &str) -> bool {
    matches!(&m.kind, ExprKind::Call { callee, args, .. }
        if callee == "#ifndef"
            && matches!(args.first().map(|a| &a.kind), Some(ExprKind::Ident(n)) if n == name))
}

/// The directive a marker call stands for, in words for a reason (`#if defined(A) &&
/// N > 2`); a part bankcheck does not spell back is `...`.
fn condition_text(marker: &Expr) -> String {
    let ExprKind::Call { callee, args, .. } = &marker.kind else {
        return "#if ...".into();
    };
    match (callee.as_str(), args.first()) {
        ("#if", Some(c)) => format!("#if {}", spelled(c, 0)),
        (d, Some(a)) => format!("{d} {}", spelled(a, 0)),
        (d, None) => d.to_string(),
    }
}

/// `e` spelled as a preprocessor expression, parenthesised where it nests.
fn spelled(e: &Expr, depth: u32) -> String {
    use crate::extract::ast::{BinaryOp as B, UnaryOp};
    if depth > 8 {
        return "...".into();
    }
    match &e.kind {
        ExprKind::Ident(n) => n.clone(),
        ExprKind::Int(i) => i.to_string(),
        ExprKind::Call { callee, args, .. } if callee == "#ifdef" && args.len() == 1 => {
            format!("defined({})", spelled(&args[0], depth + 1))
        }
        ExprKind::Unary(UnaryOp::Not, a) => format!("!{}", spelled(a, depth + 1)),
        ExprKind::Binary(op, a, b) => {
            let token = match op {
                B::Add => "+",
                B::Sub => "-",
                B::Mul => "*",
                B::Div => "/",
                B::Lt => "<",
                B::Le => "<=",
                B::Gt => ">",
                B::Ge => ">=",
                B::Eq => "==",
                B::Ne => "!=",
                B::LogicAnd => "&&",
                B::LogicOr => "||",
                _ => return "...".into(),
            };
            let side = |x: &Expr| match x.kind {
                ExprKind::Binary(..) => format!("({})", spelled(x, depth + 1)),
                _ => spelled(x, depth + 1),
            };
            format!("{} {token} {}", side(a), side(b))
        }
        _ => "...".into(),
    }
}
