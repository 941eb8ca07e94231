//! Rules: turn analysis results into diagnostics with ids, severities and messages.
//!
//! One file per rule (named after its id) holds its metadata; `registry.rs` lists them.

pub mod bank_conflict;
pub mod internal_error;
pub mod layout_conflict;
pub mod parse_error;
pub mod possible_conflict;
pub mod registry;
pub mod stride_conflict;
pub mod suppress;
pub mod undecided_access;
pub mod unused_suppression;

pub use registry::{rule, RuleMeta, RULES};
pub(crate) mod conflict;

use crate::analyse::AnalysedSite;
use crate::config::Settings;
use crate::diag::{AccessFacts, Diagnostic};
use crate::lower::site::LoweredFile;

/// Runs every per-access rule on one analysed access.
pub(crate) fn check_access(
    a: &AnalysedSite,
    facts: &AccessFacts,
    lowered: &LoweredFile,
    settings: &Settings,
    out: &mut Vec<Diagnostic>,
) {
    bank_conflict::check(a, facts, lowered, settings, out);
    stride_conflict::check(a, facts, lowered, settings, out);
    possible_conflict::check(a, facts, lowered, settings, out);
    undecided_access::check(a, facts, settings, out);
}

/// Runs the per-array rules: for every array with a conflicting access, computes the
/// verified fix over all its accesses, attaches it to each conflicting access's
/// diagnostic, and reports `layout-conflict` when several access patterns share the array.
pub(crate) fn check_arrays(
    analysed: &[AnalysedSite],
    lowered: &LoweredFile,
    text: &str,
    settings: &Settings,
    out: &mut Vec<Diagnostic>,
) {
    // Only files with a conflicting array need line numbers for the fix.
    let mut line_starts = None;
    // Sites by array and diagnostics by span, once: a file of many arrays stays linear.
    let mut by_array: Vec<Vec<&AnalysedSite>> = vec![Vec::new(); lowered.arrays.len()];
    for a in analysed {
        if let Some(v) = by_array.get_mut(a.site.array) {
            v.push(a);
        }
    }
    let mut by_span: std::collections::HashMap<crate::diag::Span, Vec<usize>> =
        std::collections::HashMap::new();
    for (i, d) in out.iter().enumerate() {
        by_span.entry(d.span).or_default().push(i);
    }
    for (index, info) in lowered.arrays.iter().enumerate() {
        let sites = std::mem::take(&mut by_array[index]);
        if !sites
            .iter()
            .any(|a| a.verdict.cost.is_some_and(|w| w.wavefronts > w.ideal))
        {
            continue;
        }
        let line_starts = line_starts.get_or_insert_with(|| crate::diag::line_starts(text));
        let Some(array) = array_use(info, &sites, text, line_starts) else {
            continue;
        };
        let Some(suggestion) = suggestion_for(&array, &sites, settings) else {
            continue;
        };
        let mut mine: Vec<usize> = sites
            .iter()
            .filter_map(|a| by_span.get(&a.site.span))
            .flatten()
            .copied()
            .collect();
        mine.sort_unstable();
        mine.dedup();
        for i in mine {
            let d = &mut out[i];
            let ours = d.access.as_ref().is_some_and(|f| f.array == info.name);
            if ours && d.suggestion.is_none() && d.rule != layout_conflict::META.id {
                d.help = Some(suggestion.message.clone());
                d.suggestion = Some(suggestion.clone());
            }
        }
        let patterns: std::collections::HashSet<String> = array
            .accesses
            .iter()
            .map(|a| format!("{:?}", a.lowered.address))
            .collect();
        if patterns.len() >= 2 {
            if let Some(severity) = settings.severity_of(
                layout_conflict::META.id,
                layout_conflict::META.default_severity,
            ) {
                layout_conflict::report(&array, &suggestion, severity, out);
            }
        }
    }
}

/// The verified fix for an array. When the source already XOR-swizzles every access, the
/// fix is computed on the logical coordinates and replaces that XOR; the "before" figures
/// are then the analysed verdicts of the accesses as written.
fn suggestion_for(
    array: &crate::swizzle::ArrayUse,
    sites: &[&AnalysedSite],
    settings: &Settings,
) -> Option<crate::diag::Suggestion> {
    let Some(stripped) = crate::swizzle::existing::strip_existing_xor(array) else {
        return crate::swizzle::suggest(array, &settings.bank);
    };
    let mut s = crate::swizzle::suggest(&stripped, &settings.bank)?;
    // Padding was measured without the existing XOR, which the source would keep: only the
    // swizzle, which replaces that XOR, carries over.
    if s.kind != "swizzle" {
        return crate::swizzle::suggest(array, &settings.bank);
    }
    if let Some(cut) = s.message.find("; padding") {
        s.message.truncate(cut);
    }
    for (after, site) in s.after.iter_mut().zip(sites) {
        after.before_wavefronts = site.verdict.cost?.wavefronts;
    }
    let better = s.after.iter().any(|a| a.wavefronts < a.before_wavefronts);
    let worse = s.after.iter().any(|a| {
        a.wavefronts * a.ideal_wavefronts.max(1) > a.before_wavefronts * a.ideal_wavefronts.max(1)
    });
    (better && !worse).then_some(s)
}

/// The swizzle engine's view of one array: every access must be lowered to a single
/// component, or no fix can be verified and none is offered.
fn array_use(
    info: &crate::lower::site::ArrayInfo,
    sites: &[&AnalysedSite],
    text: &str,
    line_starts: &[usize],
) -> Option<crate::swizzle::ArrayUse> {
    if info.dynamic || info.element_bytes == 0 {
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
        let Ok(components) = &a.site.lowered else {
            return None;
        };
        let [lowered] = components.as_slice() else {
            return None;
        };
        accesses.push(crate::swizzle::SiteUse {
            line: crate::diag::line_of(line_starts, a.site.span.start),
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
