//! Constants defined once per branch of a conditional the front end leaves whole
//! (`#ifndef USE_AMD_ROCM` / `constexpr int kWarpSize = 32;` / `#else` / `... = 64;`): the
//! definition read is the one whose branch the known macros select, a name none of them
//! defines taken as not defined, as the preprocessor does and as conditionals inside
//! function bodies are read (`preproc.rs`), the assumption stated. When a branch that
//! is not ruled out has a condition bankcheck cannot read, or several remain, the
//! constant's value is unknown: the last definition in the text is no better a guess
//! than the first.

use super::Interp;
use crate::diag::Span;
use crate::extract::ast::{Expr, ExprKind};
use crate::extract::conditions::{Requirement, Test};
use crate::extract::constants::Alternative;
use crate::model::reason::Reason;

impl<'a> Interp<'a> {
    /// The definition of constant `name` (found under `key`) to evaluate, when it is
    /// defined in several preprocessor branches: `Ok(None)` when it is not.
    pub(super) fn constant_branch(
        &mut self,
        name: &str,
        key: &str,
    ) -> Result<Option<&'a Expr>, Reason> {
        let syn = self.syn;
        let Some(alternatives) = syn.constant_alternatives.get(key) else {
            return Ok(None);
        };
        if alternatives.len() < 2 {
            return Ok(None);
        }
        let mut open: Vec<&Alternative> = Vec::new();
        let mut taken_undefined = Vec::new();
        for a in alternatives {
            match self.branch_selected(&a.branch.requires, &mut taken_undefined) {
                Some(false) => {}
                Some(true) if !a.branch.opaque => open.push(a),
                _ => {
                    return Err(Reason::from(format!(
                        "`{name}` is defined in several branches of a preprocessor conditional, and bankcheck cannot tell which one the build takes (set the macros with `-D NAME=VALUE` or lint.toml `defines`)"
                    )))
                }
            }
        }
        match open.as_slice() {
            [one] => {
                for n in taken_undefined {
                    self.assume_undefined(&n);
                }
                Ok(Some(&one.value))
            }
            [] => Err(Reason::from(format!(
                "no branch that defines `{name}` is taken with the macros bankcheck knows"
            ))),
            _ => Err(Reason::from(format!(
                "`{name}` is defined in several preprocessor branches the known macros all take"
            ))),
        }
    }

    /// Whether the known macros select a branch asking `requires`: a name nothing
    /// defines is taken as not defined (and listed in `taken_undefined`); `None` when a
    /// test needs a macro only defined conditionally, or a value that cannot be read.
    fn branch_selected(
        &mut self,
        requires: &[Requirement],
        taken_undefined: &mut Vec<String>,
    ) -> Option<bool> {
        let mut all = Some(true);
        for (name, test) in requires {
            let surely = self.syn.defined.contains(name) || self.extra_constants.contains_key(name);
            let maybe = self.syn.macros.contains_key(name) || self.syn.fn_macros.contains_key(name);
            let holds = if surely {
                match test {
                    Test::Defined => Some(true),
                    Test::Undefined => Some(false),
                    Test::NonZero | Test::Zero => {
                        let e = Expr {
                            span: Span::default(),
                            kind: ExprKind::Ident(name.clone()),
                        };
                        self.const_eval(&e)
                            .map(|v| (v != 0) == (*test == Test::NonZero))
                    }
                }
            } else if maybe {
                None
            } else {
                if !taken_undefined.contains(name) {
                    taken_undefined.push(name.clone());
                }
                Some(matches!(test, Test::Undefined | Test::Zero))
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
