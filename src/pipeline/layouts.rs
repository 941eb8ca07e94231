//! Pass `layouts`: the verified layout fix (swizzle or padding) of every array with a
//! conflicting access, computed over all its accesses before the rules run; the rules
//! receive it (`rules::Layouts`): the conflict findings carry it as their help and
//! suggestion, `layout-conflict` reports it at the declaration.

use crate::analyse::AnalysedSite;
use crate::config::Settings;
use crate::model::site::LoweredFile;
use crate::rules::{Layout, Layouts};

/// For every array with a conflicting access, computes the verified fix over all its
/// accesses.
///
/// `every` holds each access in every context it was analysed in (call site, launch
/// shape, instantiation): the fix is verified on all of them, not only on the worst.
pub(super) fn advise(
    analysed: &[AnalysedSite],
    every: &[AnalysedSite],
    lowered: &LoweredFile,
    text: &str,
    settings: &Settings,
    cache: &crate::swizzle::LayoutCache,
) -> Layouts {
    let mut layouts = Layouts::default();
    // Only files with a conflicting array need line numbers for the fix.
    let mut line_starts = None;
    // Sites by array, once: a file of many arrays stays linear.
    let reported = group(analysed, lowered.arrays.len());
    let mut contexts = group(every, lowered.arrays.len());
    for (index, info) in lowered.arrays.iter().enumerate() {
        if !reported[index]
            .iter()
            .any(|a| a.verdict.cost.is_some_and(|w| w.wavefronts > w.ideal))
        {
            continue;
        }
        // Each distinct lowering once: contexts that lower an access alike add nothing.
        let mut sites: Vec<&AnalysedSite> = Vec::new();
        for a in std::mem::take(&mut contexts[index]) {
            let same = |b: &&AnalysedSite| {
                b.site.span == a.site.span
                    && b.site.helper_span == a.site.helper_span
                    && b.site.kind == a.site.kind
                    && same_lowering(&b.site.lowered, &a.site.lowered)
            };
            if !sites.iter().any(same) {
                sites.push(a);
            }
        }
        let line_starts = line_starts.get_or_insert_with(|| crate::diag::line_starts(text));
        let Some(array) = array_use(info, &sites, text, line_starts) else {
            continue;
        };
        let Some((mut suggestion, fix)) = suggestion_for(&array, &sites, settings, cache) else {
            continue;
        };
        suggestion.after = one_row_per_access(std::mem::take(&mut suggestion.after));
        // Each access's finding shows its own rows and shares the whole table.
        suggestion.share();
        let patterns: std::collections::HashSet<String> = array
            .accesses
            .iter()
            .map(|a| format!("{:?}", a.lowered.address))
            .collect();
        // Several patterns of several source accesses: one access lowered per candidate
        // block shape or instantiation is one pattern, whatever its lowerings.
        let mut accesses: Vec<(crate::diag::Span, Option<crate::diag::Span>)> = sites
            .iter()
            .map(|a| (a.site.span, a.site.helper_span))
            .collect();
        accesses.sort_by_key(|(s, h)| (s.start, s.end, h.map(|h| (h.start, h.end))));
        accesses.dedup();
        let several_patterns = patterns.len() >= 2 && accesses.len() >= 2;
        let spans: Vec<crate::diag::Span> = sites.iter().map(|a| a.site.span).collect();
        layouts.push(
            Layout {
                array,
                suggestion,
                several_patterns,
                fix,
            },
            spans,
        );
    }
    if let Some(line_starts) = line_starts {
        layouts.line_starts = line_starts;
    }
    layouts
}

/// `sites` grouped by the array they reach, in order.
fn group(sites: &[AnalysedSite], arrays: usize) -> Vec<Vec<&AnalysedSite>> {
    let mut by_array: Vec<Vec<&AnalysedSite>> = vec![Vec::new(); arrays];
    for a in sites {
        if let Some(v) = by_array.get_mut(a.site.array) {
            v.push(a);
        }
    }
    by_array
}

/// Two lowerings the bank model cannot tell apart: the same addresses, guards, widths
/// and block over variables of the same kinds (their names, and where the block shape
/// came from, do not matter).
fn same_lowering(
    a: &Result<Vec<crate::model::ir::LoweredAccess>, crate::model::reason::Reason>,
    b: &Result<Vec<crate::model::ir::LoweredAccess>, crate::model::reason::Reason>,
) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => {
            a.len() == b.len()
                && a.iter().zip(b).all(|(x, y)| {
                    x.address == y.address
                        && x.guards == y.guards
                        && x.coords == y.coords
                        && x.extents == y.extents
                        && x.width == y.width
                        && x.atomic == y.atomic
                        && x.block == y.block
                        && x.warp_size == y.warp_size
                        && x.vars.len() == y.vars.len()
                        && x.vars.iter().zip(&y.vars).all(|(v, w)| v.kind == w.kind)
                })
        }
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

/// The `after` table with one row per reported access (its line, the helper line it
/// reaches, its kind) and per named context: the contexts that lower one access alike
/// but through different outer calls (all verified) are shown as their worst.
fn one_row_per_access(after: Vec<crate::diag::AfterAccess>) -> Vec<crate::diag::AfterAccess> {
    let mut out: Vec<crate::diag::AfterAccess> = Vec::with_capacity(after.len());
    for a in after {
        let same = |b: &&mut crate::diag::AfterAccess| {
            b.line == a.line
                && b.helper_line == a.helper_line
                && b.kind == a.kind
                && b.context == a.context
        };
        match out.iter_mut().find(same) {
            Some(row) => {
                row.wavefronts = row.wavefronts.max(a.wavefronts);
                row.before_wavefronts = row.before_wavefronts.max(a.before_wavefronts);
                row.ideal_wavefronts = row.ideal_wavefronts.max(a.ideal_wavefronts);
            }
            None => out.push(a),
        }
    }
    out
}

/// The verified fix for an array, with the layout it gives the array. When the source
/// already XOR-swizzles every access, the fix is computed on the logical coordinates and
/// replaces that XOR; the "before" figures are then the analysed verdicts of the accesses
/// as written.
fn suggestion_for(
    array: &crate::swizzle::ArrayUse,
    sites: &[&AnalysedSite],
    settings: &Settings,
    cache: &crate::swizzle::LayoutCache,
) -> Option<(crate::diag::Suggestion, crate::swizzle::FixLayout)> {
    let as_written = |(s, offsets)| {
        let fix = crate::swizzle::FixLayout {
            offsets,
            replaces_xor: None,
        };
        (s, fix)
    };
    let Some((stripped, right_is_term)) = crate::swizzle::existing::strip_existing_xor_side(array)
    else {
        let (s, fix) = crate::swizzle::suggest_with_offsets(cache, array, &settings.bank, true)
            .map(as_written)?;
        // The simulation's "before" must be what the analysis reported for every access:
        // figures that disagree with the verdicts are not shown.
        let agrees = s.after.iter().zip(sites).all(|(after, site)| {
            site.verdict.exact
                && site
                    .verdict
                    .cost
                    .is_some_and(|w| w.wavefronts == after.before_wavefronts)
        });
        return agrees.then_some((s, fix));
    };
    // Padding was measured without the existing XOR, which the source would keep: only the
    // swizzle, which replaces that XOR, carries over.
    let (mut s, offsets) =
        crate::swizzle::suggest_with_offsets(cache, &stripped, &settings.bank, false)?;
    if s.kind != crate::diag::FixKind::Swizzle {
        return crate::swizzle::suggest_with_offsets(cache, array, &settings.bank, true)
            .map(as_written);
    }
    for (after, site) in s.after.iter_mut().zip(sites) {
        after.before_wavefronts = site.verdict.cost?.wavefronts;
    }
    let better = s.after.iter().any(|a| a.wavefronts < a.before_wavefronts);
    let worse = s.after.iter().any(|a| {
        a.wavefronts * a.ideal_wavefronts.max(1) > a.before_wavefronts * a.ideal_wavefronts.max(1)
    });
    let fix = crate::swizzle::FixLayout {
        offsets,
        replaces_xor: Some(right_is_term),
    };
    (better && !worse).then_some((s, fix))
}

/// The swizzle engine's view of one array: every access must be lowered to a single
/// component, or no fix can be verified and none is offered.
/// The most threads a block of any GPU bankcheck models has (CUDA's and Direct3D's
/// limit alike).
const MAX_THREADS_PER_BLOCK: u64 = 1024;

fn array_use(
    info: &crate::model::site::ArrayInfo,
    sites: &[&AnalysedSite],
    text: &str,
    line_starts: &[usize],
) -> Option<crate::swizzle::ArrayUse> {
    if info.dynamic || info.element_bytes == 0 {
        return None;
    }
    // The fix is simulated lane by lane over whole blocks: a block larger than any GPU
    // runs (`[numthreads(256, 1024, 1)]`) gets no fix rather than gigabytes of lanes.
    let runnable = |a: &&AnalysedSite| {
        a.site.lowered.as_ref().is_ok_and(|comps| {
            comps
                .iter()
                .all(|c| c.block.threads() <= MAX_THREADS_PER_BLOCK)
        })
    };
    if !sites.iter().all(runnable) {
        return None;
    }
    let extents: Vec<u64> = info.extents.iter().copied().collect::<Option<Vec<_>>>()?;
    let extent_spans: Vec<crate::diag::Span> = info
        .extent_spans
        .iter()
        .copied()
        .collect::<Option<Vec<_>>>()?;
    let mut accesses = Vec::with_capacity(sites.len());
    for a in sites {
        // The same access in several contexts: each is named by what tells it apart (the
        // instantiation, the launch shape, or both).
        let group: Vec<&&AnalysedSite> = sites
            .iter()
            .filter(|b| {
                b.site.span == a.site.span
                    && b.site.helper_span == a.site.helper_span
                    && b.site.kind == a.site.kind
            })
            .collect();
        let instantiation_differs = group
            .iter()
            .any(|b| b.site.instantiation != a.site.instantiation);
        let context_differs = group.iter().any(|b| b.site.context != a.site.context);
        let parts: Vec<String> = [
            a.site
                .instantiation
                .clone()
                .filter(|_| instantiation_differs),
            a.site
                .context
                .as_ref()
                .filter(|_| context_differs)
                .map(ToString::to_string),
        ]
        .into_iter()
        .flatten()
        .collect();
        let context = (!parts.is_empty()).then(|| parts.join("; "));
        let Ok(components) = &a.site.lowered else {
            return None;
        };
        let [lowered] = components.as_slice() else {
            return None;
        };
        accesses.push(crate::swizzle::SiteUse {
            line: crate::diag::line_of(line_starts, a.site.span.start),
            // A helper of another file has no line in this one: the call's row stands.
            helper_line: a
                .site
                .helper_span
                .filter(|_| a.site.helper_text.is_none())
                .map(|h| crate::diag::line_of(line_starts, h.start)),
            context,
            kind: a.site.kind,
            lowered: lowered.clone(),
            index_spans: a.site.index_spans.clone(),
            index_texts: a.site.index_texts.clone(),
            plain_subscript: a.site.plain_subscript,
        });
    }
    Some(crate::swizzle::ArrayUse {
        name: info.name.clone(),
        element_bytes: info.element_bytes,
        extents,
        decl_span: info.decl_span,
        decl_text: text
            .get(info.decl_span.start..info.decl_span.end)
            .unwrap_or("")
            .to_string(),
        extent_spans,
        accesses,
    })
}
