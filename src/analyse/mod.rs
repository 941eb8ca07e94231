//! Analyses of lowered accesses: exact enumeration (the oracle), the stride formula
//! and the F2 intersection count, and the choice between them.
//!
//! Never sees a syntax tree: its input is [`crate::model::ir::LoweredAccess`].

pub mod enumerate;
pub mod explain;
pub mod linear;
mod name_free;
pub mod stride;
pub mod warp_program;

pub use crate::model::verdict::{Method, Verdict};
pub use enumerate::{enumerate, Budget};

use crate::bank::BankParams;
use crate::model::ir::LoweredAccess;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

/// Decides one access: the cheapest exact analysis that applies (constant stride, then
/// the F2 count), else enumeration. Stride and F2 verdicts are exact whenever they answer;
/// debug builds check them against enumeration when that fits the budget.
pub fn analyse(access: &LoweredAccess, params: &BankParams, budget: Budget) -> Verdict {
    if let Some(verdict) = stride::stride(access, params).or_else(|| linear::linear(access, params))
    {
        cross_check(access, params, budget, &verdict);
        return verdict;
    }
    let mut verdict = enumerate(access, params, budget);
    let conflicts = verdict.cost.is_some_and(|c| c.wavefronts > c.ideal);
    if conflicts && verdict.explanation.is_none() {
        verdict.explanation =
            explain::explain_conflict(access, params, verdict.worst_warp, &verdict.worst_case);
    }
    verdict
}

/// [`analyse`], remembered for one run (the session owns it): identical lowered accesses
/// (the same index in several contexts, or in kernels that repeat within and across
/// files) are decided once, and so are accesses that differ only in their variables'
/// names (the instantiations of a template): the key is the access with placeholders
/// for names (`name_free`), whose verdict is given back with each access's own names.
/// A verdict is a pure function of the access, the bank geometry and the budget, so the
/// output does not depend on which file or thread filled an entry.
#[derive(Default)]
pub struct VerdictCache {
    map: Mutex<HashMap<VerdictKey, Verdict>>,
}

type VerdictKey = (LoweredAccess, BankParams, u64, u64);

impl VerdictCache {
    /// Entries kept before the cache is emptied (bounds memory on very large runs).
    const LIMIT: usize = 16_384;

    pub fn analyse(&self, access: &LoweredAccess, params: &BankParams, budget: Budget) -> Verdict {
        let (subject, names) = match name_free::name_free(access) {
            Some((renamed, names)) => (renamed, Some(names)),
            None => (access.clone(), None),
        };
        let named = |v: Verdict| match &names {
            Some(names) => names.named(v),
            None => v,
        };
        let key = (
            subject,
            *params,
            budget.max_lane_evals,
            budget.sample_values,
        );
        if let Some(v) = self
            .map
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
        {
            return named(v.clone());
        }
        let verdict = analyse(&key.0, params, budget);
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        if map.len() >= Self::LIMIT {
            map.clear();
        }
        map.insert(key, verdict.clone());
        named(verdict)
    }
}

/// In debug builds, an exact enumeration within the budget must agree with the cheaper
/// analysis on the worst case's wavefronts.
#[cfg(debug_assertions)]
fn cross_check(access: &LoweredAccess, params: &BankParams, budget: Budget, verdict: &Verdict) {
    // Keep debug builds quick: beyond this the check is skipped (enumeration samples and
    // says it is not exact).
    let budget = Budget {
        max_lane_evals: budget.max_lane_evals.min(1 << 18),
        ..budget
    };
    let oracle = enumerate(access, params, budget);
    if oracle.exact && oracle.cost.is_some() {
        debug_assert_eq!(
            oracle.cost,
            verdict.cost,
            "{} analysis disagrees with enumeration on {:?}",
            verdict.method.as_str(),
            access.address
        );
    }
}

#[cfg(not(debug_assertions))]
fn cross_check(_: &LoweredAccess, _: &BankParams, _: Budget, _: &Verdict) {}

/// One analysed access site: the worst verdict over its contexts and components.
pub struct AnalysedSite {
    pub site: crate::model::site::AccessSite,
    pub verdict: Verdict,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::Wavefronts;
    use crate::model::ir::{Axis, BinOp, BlockShape, Expr, VarInfo, VarKind};

    fn access(address: Expr) -> LoweredAccess {
        LoweredAccess {
            vars: vec![VarInfo {
                name: "threadIdx.x".to_string(),
                kind: VarKind::Thread(Axis::X),
                loop_value: None,
            }],
            address,
            width: 4,
            atomic: false,
            guards: Vec::new(),
            block: BlockShape { x: 64, y: 1, z: 1 },
            warp_size: 32,
            coords: None,
            extents: Vec::new(),
        }
    }

    #[test]
    fn picks_the_cheapest_exact_analysis() {
        let p = BankParams::default();
        let t = || Expr::Var(0);
        let strided = access(Expr::bin(BinOp::Mul, t(), Expr::Const(8)));
        assert_eq!(
            analyse(&strided, &p, Budget::default()).method,
            Method::Stride
        );
        let swizzled = access(Expr::bin(
            BinOp::Mul,
            Expr::bin(
                BinOp::Xor,
                Expr::bin(BinOp::Mul, t(), Expr::Const(32)),
                Expr::bin(BinOp::Shr, t(), Expr::Const(2)),
            ),
            Expr::Const(4),
        ));
        let v = analyse(&swizzled, &p, Budget::default());
        assert_eq!(v.method, Method::F2);
        assert_eq!(v.cost, enumerate(&swizzled, &p, Budget::default()).cost);
        // t*t is neither: enumeration decides, and explains the conflict.
        let square = access(Expr::bin(
            BinOp::Mul,
            Expr::bin(BinOp::Mul, t(), t()),
            Expr::Const(4),
        ));
        let v = analyse(&square, &p, Budget::default());
        assert_eq!(v.method, Method::Enumeration);
        assert!(v.cost.is_some_and(|c: Wavefronts| c.wavefronts > c.ideal));
        assert!(v.explanation.is_some_and(|e| e.starts_with("lanes ")));
    }
}
