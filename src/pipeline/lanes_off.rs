//! An access whose guards could not be decided for every value (their run-time values
//! sampled, or no sampled value switching a lane on) is analysed again with its guards
//! dropped: every lane of every warp active, at every iteration and value. Guards only
//! switch lanes off, and lanes switched off never make a phase cost more, so when that
//! is exactly conflict-free, so is the access under any guards (docs/bank-model.md,
//! "What a verdict promises").

use crate::analyse::{Budget, Verdict, VerdictCache};
use crate::bank::BankParams;
use crate::model::ir::LoweredAccess;
use crate::model::verdict::Undecided;

/// `verdict` of `access`, or, when it is undecided for want of values and the access is
/// conflict-free with its guards dropped, that exact `ok` with a note saying so.
pub(super) fn decide_without_guards(
    access: &LoweredAccess,
    verdict: Verdict,
    cache: &VerdictCache,
    params: &BankParams,
    budget: Budget,
) -> Verdict {
    // Only a verdict left undecided for want of values: one whose index cannot be
    // evaluated stays so (the index is the same without the guards).
    let sampled = matches!(&verdict.reason, Some(Undecided::Because(why))
        if why.starts_with("not proven") || why.starts_with("no sampled combination"));
    if verdict.cost.is_some() || !sampled || access.guards.is_empty() {
        return verdict;
    }
    let mut free = access.clone();
    free.guards.clear();
    let mut v = cache.analyse(&free, params, budget);
    if !(v.exact && v.cost.is_some_and(|c| c.wavefronts <= c.ideal)) {
        return verdict;
    }
    v.notes.push(format!(
        "conflict-free with every lane active; its guards, which were not decided for every value ({}), only switch lanes off",
        verdict.reason.as_ref().map_or_else(String::new, ToString::to_string)
    ));
    v
}
