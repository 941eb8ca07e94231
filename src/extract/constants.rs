//! File-scope constants by the names they are looked up under.
//!
//! A constant in a namespace is kept under its qualified name (`FilterKernel::Width`) and,
//! since bankcheck does not follow which namespace a function is written in or which
//! `using` directives apply, also under its bare name (`Width`) while that name is
//! unambiguous. Headers reuse short names in different namespaces
//! (`SortRays::ThreadGroup::Width`, `DefaultComputeShaderParams::ThreadGroup::Width`,
//! `FilterKernel::Width`): the bare name of two such definitions denotes neither, and is
//! left out rather than bound to whichever came last. A definition outside any namespace
//! owns its bare name.
//!
//! A constant defined in the branches of a conditional the front end leaves whole
//! (`#ifndef USE_AMD_ROCM` ... `#else` ...: a build flag may decide it) keeps each
//! definition with what its branch asks of the macros ([`Alternative`]); the lowering
//! picks the one the known macros select (`lower/interp/constant_branches.rs`).

pub use super::ast::Branch;
use super::ast::Expr;
use super::{FileSyntax, LazyExpr};
use std::collections::HashMap;

/// The bare names of constants defined in namespaces.
#[derive(Debug, Default, Clone)]
pub struct BareNames {
    /// Bare name to the qualified name of the one namespaced definition it stands for.
    pub single: HashMap<String, String>,
    /// Bare names defined in several namespaces, with those qualified names.
    pub ambiguous: HashMap<String, Vec<String>>,
}

/// One definition of a constant or object-like macro inside a conditional block.
#[derive(Debug, Clone)]
pub struct Alternative {
    pub branch: Branch,
    pub value: LazyExpr,
}

impl FileSyntax {
    /// Records constant `short` = `value`, defined in namespace `namespace` (empty at file
    /// scope), in preprocessor branch `branch` (`None` outside any conditional).
    pub fn define_constant(
        &mut self,
        short: &str,
        value: Expr,
        namespace: &str,
        branch: Option<&Branch>,
    ) {
        if let Some(b) = branch {
            let keys = if namespace.is_empty() {
                vec![short.to_string()]
            } else {
                vec![short.to_string(), format!("{namespace}::{short}")]
            };
            for k in keys {
                self.add_alternative(&k, b.clone(), LazyExpr::ready(value.clone()));
            }
        }
        if namespace.is_empty() {
            self.bare_names.single.remove(short);
            self.bare_names.ambiguous.remove(short);
            self.constants.insert(short.to_string(), value);
            return;
        }
        let qualified = format!("{namespace}::{short}");
        self.constants.insert(qualified.clone(), value.clone());
        self.bind_bare(short, &qualified, value);
    }

    /// Binds bare name `short` to the namespaced definition `qualified` unless a
    /// file-scope definition owns it or another namespace defines it too.
    fn bind_bare(&mut self, short: &str, qualified: &str, value: Expr) {
        if let Some(list) = self.bare_names.ambiguous.get_mut(short) {
            if !list.iter().any(|q| q == qualified) {
                list.push(qualified.to_string());
            }
            return;
        }
        match self.bare_names.single.get(short) {
            Some(q) if q == qualified => {
                self.constants.insert(short.to_string(), value);
            }
            Some(q) => {
                let list = vec![q.clone(), qualified.to_string()];
                self.bare_names.single.remove(short);
                self.bare_names.ambiguous.insert(short.to_string(), list);
                self.constants.remove(short);
            }
            None if self.constants.contains_key(short) => {}
            None => {
                self.bare_names
                    .single
                    .insert(short.to_string(), qualified.to_string());
                self.constants.insert(short.to_string(), value);
            }
        }
    }

    /// Records that `key` is defined as `value` in preprocessor branch `branch`.
    pub fn add_alternative(&mut self, key: &str, branch: Branch, value: LazyExpr) {
        self.constant_alternatives
            .entry(key.to_string())
            .or_default()
            .push(Alternative { branch, value });
    }

    /// Adds the constants of an included file: its qualified names where this file has
    /// none, its bare names under the rules above (this file's file-scope definitions win).
    pub(super) fn merge_constants(&mut self, other: &FileSyntax) {
        for (k, alternatives) in &other.constant_alternatives {
            let mine = self.constants.contains_key(k)
                || self.macros.contains_key(k)
                || self.constant_alternatives.contains_key(k);
            if !mine {
                self.constant_alternatives
                    .insert(k.clone(), alternatives.clone());
            }
        }
        for (k, v) in &other.constants {
            if other.bare_names.single.contains_key(k) {
                continue;
            }
            // A file-scope definition in the header owns its bare name over this file's
            // namespaced ones.
            let namespaced = self.bare_names.single.remove(k).is_some()
                | self.bare_names.ambiguous.remove(k).is_some();
            if namespaced {
                self.constants.insert(k.clone(), v.clone());
            } else {
                self.constants.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        for (short, qualified) in &other.bare_names.single {
            if let Some(v) = other.constants.get(short) {
                self.bind_bare(short, qualified, v.clone());
            }
        }
        for (short, list) in &other.bare_names.ambiguous {
            let owned =
                self.constants.contains_key(short) && !self.bare_names.single.contains_key(short);
            if owned {
                continue;
            }
            let mut all = self.bare_names.ambiguous.remove(short).unwrap_or_default();
            if let Some(q) = self.bare_names.single.remove(short) {
                all.push(q);
            }
            for q in list {
                if !all.contains(q) {
                    all.push(q.clone());
                }
            }
            self.constants.remove(short);
            self.bare_names.ambiguous.insert(short.clone(), all);
        }
    }

    /// The qualified names of a bare name defined in several namespaces.
    pub fn ambiguous_constant(&self, short: &str) -> Option<&[String]> {
        self.bare_names.ambiguous.get(short).map(Vec::as_slice)
    }
}
