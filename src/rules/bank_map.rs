//! The bank maps of a conflicting access (`Diagnostic::bank_maps`): its worst wavefront,
//! which lanes reach which bank at which word, and the same lanes under the array's
//! verified fix. Computed once here, drawn by each report.
//!
//! Nothing is drawn by hand: the "before" is the lowered address evaluated for one warp
//! at the worst case's values and counted by the bank model, shown only when that count is
//! the verdict's; the "after" is the same lanes placed by the offsets the fix search
//! verified (`swizzle::FixLayout`, the function the re-simulation ran).

use crate::analyse::{AnalysedSite, Method};
use crate::bank::{count_wavefronts, phase_words, worst_phase, BankParams};
use crate::diag::{BankCell, BankMap, BankMaps};
use crate::model::ir::LoweredAccess;

/// Most warps searched for one whose instruction costs what the verdict says, when the
/// verdict names none (the formulas hold for every warp).
const MAX_WARPS: u64 = 64;

/// The bank maps of `a`, a conflicting access, with `fix` the verified layout of its
/// array when there is one. `None` when the access is
/// split into components, its verdict has no conflict, or no instruction of the named
/// warps and values costs what the verdict says.
pub(crate) fn bank_maps(
    a: &AnalysedSite,
    fix: Option<&super::facts::Layout>,
    params: &BankParams,
    worst_value: &dyn Fn(&str, i64) -> String,
) -> Option<BankMaps> {
    let cost = a.verdict.cost.filter(|c| c.wavefronts > c.ideal)?;
    let [access] = a.site.lowered.as_ref().ok()?.as_slice() else {
        return None;
    };
    // Enumeration takes its worst case where the guards it does not evaluate hold.
    let deciding;
    let access = if a.verdict.method == Method::Enumeration {
        deciding = crate::analyse::enumerate::with_deciding_guards(access, params);
        &deciding
    } else {
        access
    };
    let named = a.verdict.worst_warp;
    let warps = access
        .block
        .threads()
        .div_ceil(u64::from(access.warp_size.max(1)));
    let (warp, lanes, addrs) = std::iter::once(named)
        .chain((0..warps.min(MAX_WARPS)).filter(|&w| w != named))
        .find_map(|warp| {
            let lanes = access.warp_lane_values(warp, &a.verdict.worst_case)?;
            let addrs = addresses(access, &lanes)?;
            (count_wavefronts(params, access.width, &addrs, access.atomic) == cost)
                .then_some((warp, lanes, addrs))
        })?;
    let (phase, _) = worst_phase(params, access.width, &addrs, access.atomic)?;
    let before = map(params, access, &addrs, phase);
    let mut at = vec![format!("warp {warp}")];
    // Only enumeration names values; the formulas' verdicts hold at any.
    if a.verdict.method == Method::Enumeration {
        at.extend(
            a.verdict
                .worst_case
                .iter()
                .map(|(name, value)| worst_value(name, *value)),
        );
    }
    let (after, fix) = match fix {
        Some(layout) => {
            let s = &layout.suggestion;
            let fix = format!("{} `{}`", s.kind, s.replacement);
            match layout
                .fix
                .lane_addresses(access, &lanes, layout.array.element_bytes)
            {
                Some(addrs) => (Some(map(params, access, &addrs, phase)), fix),
                // The fix was verified on every instruction it could place; these lanes
                // it cannot (outside the declared extents): no picture rather than a guess.
                None => (
                    None,
                    format!("the {fix} cannot place these lanes (outside the declared extents)"),
                ),
            }
        }
        None => (
            None,
            "no layout fix was verified for this array".to_string(),
        ),
    };
    Some(BankMaps {
        at: at.join(", "),
        atomic: access.atomic,
        before,
        after,
        fix,
    })
}

/// Each lane's byte address (`None`: inactive); `None` when an active lane's address
/// cannot be evaluated.
fn addresses(
    access: &LoweredAccess,
    lanes: &crate::model::ir::LaneValues,
) -> Option<Vec<Option<i64>>> {
    lanes
        .iter()
        .map(|l| match l {
            None => Some(None),
            Some(values) => access.address.eval(values).map(Some),
        })
        .collect()
}

/// The map of phase `phase` of one warp's addresses.
fn map(
    params: &BankParams,
    access: &LoweredAccess,
    addrs: &[Option<i64>],
    phase: usize,
) -> BankMap {
    let lanes = params.phase_lanes(access.width);
    let warp = count_wavefronts(params, access.width, addrs, access.atomic);
    let from = (phase * lanes as usize).min(addrs.len());
    let to = (from + lanes as usize).min(addrs.len());
    let this = count_wavefronts(params, access.width, &addrs[from..to], access.atomic);
    let mut banks: Vec<BankCell> = Vec::new();
    for (bank, word, lanes) in phase_words(params, access.width, addrs, phase) {
        match banks.last_mut() {
            Some(cell) if cell.bank == bank => cell.words.push((word, lanes)),
            _ => banks.push(BankCell {
                bank,
                words: vec![(word, lanes)],
            }),
        }
    }
    BankMap {
        first_lane: from as u32,
        lanes: (to - from) as u32,
        bank_count: params.bank_count,
        wavefronts: this.wavefronts,
        warp_wavefronts: warp.wavefronts,
        warp_ideal: warp.ideal,
        banks,
    }
}
