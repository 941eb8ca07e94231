//! Constants and object-like macros defined per branch of a conditional the front end
//! leaves whole (`#ifndef USE_AMD_ROCM` / `constexpr int kWarpSize = 32;` / `#else` /
//! `... = 64;`, or `#if TILES_PER_BIN < 64` / `#define GROUP_THREAD_COUNT 64`): the
//! definition read is the one whose branch the known macros select, each condition
//! decided as conditionals in bodies are (`preproc.rs`: a name nothing defines is not
//! defined, and the assumption is said). When a condition cannot be decided, or several
//! branches are taken, the value is unknown: the last definition in the text is no
//! better a guess than the first.

use super::{Interp, Value};
use crate::extract::ast::{Expr, ExprKind};
use crate::extract::constants::{Alternative, Branch};
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
        if self.names.in_branches.len() >= MAX_NESTING
            || self.names.in_branches.iter().any(|k| k == key)
        {
            return Selection::Undecided;
        }
        self.names.in_branches.push(key.to_string());
        let mut taken = None;
        let mut decided = true;
        for a in alternatives {
            match self.branch_taken(&a.branch) {
                Some(false) => {}
                Some(true) if taken.is_none() => taken = Some(a),
                _ => {
                    decided = false;
                    break;
                }
            }
        }
        self.names.in_branches.pop();
        match (decided, taken) {
            (false, _) => Selection::Undecided,
            (true, Some(a)) => Selection::One(a),
            (true, None) => Selection::None,
        }
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
    fn branch_taken(&mut self, branch: &Branch) -> Option<bool> {
        let mut all = Some(true);
        for (marker, wanted) in &branch.tests {
            let ExprKind::Call { callee, args, .. } = &marker.kind else {
                return None;
            };
            let guard = *wanted
                && matches!(args.first().map(|a| &a.kind), Some(ExprKind::Ident(g))
                    if tests_undefined(marker, g) && self.include_guard(g));
            if guard {
                continue;
            }
            let holds = match self.preproc_condition(callee, args) {
                Some(Value::Int(i)) => i.as_const().map(|c| (c != 0) == *wanted),
                _ => None,
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

/// Whether marker call `m` is `#ifndef name`.
fn tests_undefined(m: &Expr, name: &str) -> bool {
    matches!(&m.kind, ExprKind::Call { callee, args, .. }
        if callee == "#ifndef"
            && matches!(args.first().map(|a| &a.kind), Some(ExprKind::Ident(n)) if n == name))
}
