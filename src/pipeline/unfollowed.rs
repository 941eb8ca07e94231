//! Accesses under an `if` whose condition bankcheck cannot follow
//! (`Assumption::UnfollowedCondition`): they were analysed with every lane taking the
//! branch. Switching lanes off never makes a phase cost more, so a conflict-free verdict
//! holds whatever lanes the condition selects; a conflict may vanish with the lanes the
//! condition drops (`tile.thread_rank() == 0` of a tile of unknown size), so it is not
//! claimed.

use crate::analyse::Verdict;
use crate::model::assumption::Assumption;
use crate::model::site::AccessSite;
use crate::model::verdict::factor_number;

/// Turns the conflicts of sites under an unfollowed condition into `unknown`, saying why
/// and what every lane taking the branch would give.
pub(super) fn undecide_conflicts(sites: &[AccessSite], verdicts: &mut [Verdict]) {
    for (site, verdict) in sites.iter().zip(verdicts.iter_mut()) {
        let Some(why) = site
            .assumptions
            .iter()
            .find_map(Assumption::unfollowed_condition)
        else {
            continue;
        };
        let Some(factor) = verdict.cost.map(|c| c.factor()) else {
            continue;
        };
        // Conflict-free holds for any lanes, unless warps were skipped for a lane whose
        // address cannot be evaluated, which the condition may switch off.
        let skipped = crate::analyse::enumerate::skipped_warps(verdict);
        if factor <= 1.0 + 1e-9 && !skipped {
            continue;
        }
        let bound = if verdict.lower_bound { "at least " } else { "" };
        let mut v = Verdict::unknown(if factor <= 1.0 + 1e-9 {
            format!(
                "the access is under an `if` whose condition bankcheck cannot follow ({}): with every lane taking it, some warps divide by zero or shift out of range, and the lanes it selects may be those that do not",
                why.words()
            )
        } else {
            format!(
                "the access is under an `if` whose condition bankcheck cannot follow ({}): with every lane taking it, it is {bound}{}-way, but the lanes it selects may not conflict",
                why.words(),
                factor_number(factor)
            )
        });
        v.notes = std::mem::take(&mut verdict.notes);
        *verdict = v;
    }
}
