//! Branch alternatives that no value reaches.
//!
//! A copy helper sized by a compile-time expression (`copy<n * 4>` choosing `char`,
//! `short`, `int`, `int2` or `int4` stores by `if constexpr (nbytes == 1)` and so on) is
//! lowered once per branch when `n` is not fixed, and each branch is a site of its own
//! (its own helper line and element size). A branch whose guard no integer solves
//! (`n * 4 == 1`) runs in no instantiation: reporting it as an access nobody could decide
//! would count dead code as a gap. It is dropped when another branch of the same access
//! is reported; alone, it stays `unknown`, saying that no value runs it (nothing else
//! would tell that the line was read).

use crate::analyse::{AnalysedSite, Verdict};
use crate::diag::{AccessKind, Span};
use crate::model::site::AccessSite;
use std::collections::HashSet;

/// The reason of an access that no value runs.
const NEVER_RUNS: &str = "no value reaches the access: a guard it is under holds for no integer \
     (a branch that runs in no instantiation and for no run-time value)";

/// Whether every lowering of `site` has a guard that no value satisfies.
pub(super) fn never_runs(site: &AccessSite) -> bool {
    match &site.lowered {
        Ok(components) => {
            !components.is_empty() && components.iter().all(crate::analyse::enumerate::never_runs)
        }
        Err(_) => false,
    }
}

/// Drops the entries of `out` that never run (`dead`, entry by entry: every lowering of
/// every context never runs) when an entry of the same source access and kind that can
/// run is kept; one kept alone says why nothing runs it.
pub(super) fn drop_dead_alternatives(out: &mut Vec<AnalysedSite>, dead: &[bool]) {
    let live: HashSet<(Span, AccessKind)> = out
        .iter()
        .zip(dead)
        .filter(|(_, &d)| !d)
        .map(|(a, _)| (a.site.span, a.site.kind))
        .collect();
    // Before the retain below, while `dead` still lines up with `out`.
    for (a, _) in out.iter_mut().zip(dead).filter(|(_, &d)| d) {
        let notes = std::mem::take(&mut a.verdict.notes);
        a.verdict = Verdict::unknown(NEVER_RUNS);
        a.verdict.notes = notes;
    }
    let mut i = 0;
    out.retain(|a| {
        let keep = !dead[i] || !live.contains(&(a.site.span, a.site.kind));
        i += 1;
        keep
    });
}
