//! The layout advisor for one shared array: builds the optimal XOR swizzle for all its
//! accesses (docs/swizzling.md), tries padding the last dimension, re-simulates every
//! access under each candidate, and returns the simplest verified fix that reaches the
//! best wavefront counts found.
//!
//! Padding is preferred when it reaches what the swizzle reaches: it is one edit to the
//! declaration. The swizzle needs no extra memory, and the message says so.

use super::bound::lemma95;
use super::classic::{classic_layout, cute_layout, cute_of_classic};
use super::construct::construct;
use super::derive::derive;
use super::fixed::FixOffsets;
use super::input::ArrayUse;
use super::layout::{dim_offsets, row_major, DistributedLayout, Geometry};
use super::normal::simplest;
use super::render::{formulas, operand, render, subscript};
use super::simulate::{row_major_offset, Lanes, Simulated};
use crate::bank::{BankParams, Wavefronts};
use crate::diag::{AfterAccess, Applicability, Edit, FixKind, Suggestion};
use crate::model::ir::{BlockShape, Expr, VarKind};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Largest padding tried, in elements.
const MAX_PADDING: u64 = 32;

/// Every access simulated under the array's current (row-major) layout.
pub fn current(array: &ArrayUse, params: &BankParams) -> Option<Vec<Simulated>> {
    current_of(array, params, &lanes(array)?)
}

fn current_of(array: &ArrayUse, params: &BankParams, lanes: &[Lanes]) -> Option<Vec<Simulated>> {
    let ext = &array.extents;
    simulate_all(array, params, lanes, &|c| row_major_offset(c, ext, ext))
}

/// Every access's lanes, enumerated once and simulated under each candidate layout.
/// `None` when one access cannot be enumerated (then no layout simulates).
fn lanes(array: &ArrayUse) -> Option<Vec<Lanes>> {
    array.accesses.iter().map(Lanes::of).collect()
}

fn simulate_all(
    array: &ArrayUse,
    params: &BankParams,
    lanes: &[Lanes],
    offset_of: &dyn Fn(&[u64]) -> Option<u64>,
) -> Option<Vec<Simulated>> {
    lanes
        .iter()
        .map(|l| l.simulate(array.element_bytes, params, offset_of))
        .collect()
}

/// A verified candidate fix, before it is turned into a [`Suggestion`].
struct Plan {
    after: Vec<Simulated>,
    replacement: String,
    edits: Vec<Edit>,
    memory_cost_bytes: u64,
    applicability: Applicability,
    cute: Option<String>,
    classic: Option<[u64; 3]>,
    /// Human description of the change, e.g. "pad the rows of `tile` to 34 elements".
    what: String,
    /// The new text in backquotes, plus the swizzle's CuTe name when it has one.
    detail: String,
    lower_bound: Option<u64>,
    /// Where the fix stores each element: what was verified.
    offsets: FixOffsets,
}

fn total(sims: &[Simulated]) -> u64 {
    sims.iter().map(|s| s.worst.wavefronts).sum()
}

/// True when `after` is no worse than `before` on every access and better on one.
fn improves(after: &[Simulated], before: &[Simulated]) -> bool {
    after.len() == before.len()
        && after.iter().zip(before).all(|(a, b)| {
            !a.worst.is_worse_than(&b.worst) && a.worst.wavefronts <= b.worst.wavefronts
        })
        && total(after) < total(before)
}

/// True when `a` reaches `b` on every access (wavefronts of the worst instruction).
fn reaches(a: &[Simulated], b: &[Simulated]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.worst.wavefronts <= y.worst.wavefronts)
}

/// The verified optimal swizzle of `array`, when its accesses are linear and it improves
/// on the current layout. Applicability is always display-only.
pub fn suggest_swizzle(array: &ArrayUse, params: &BankParams) -> Option<Suggestion> {
    let lanes = lanes(array)?;
    let before = current_of(array, params, &lanes)?;
    let plan = swizzle_text(array, &swizzle_core(array, params, &lanes, &before)?)?;
    Some(finish(array, &before, plan, FixKind::Swizzle, None).0)
}

/// The cheapest verified padding of the last dimension that improves `array`.
pub fn suggest_padding(array: &ArrayUse, params: &BankParams) -> Option<Suggestion> {
    let lanes = lanes(array)?;
    let before = current_of(array, params, &lanes)?;
    let plan = padding_plan(array, params, &lanes, &before, None)?;
    Some(finish(array, &before, plan, FixKind::Padding, None).0)
}

/// The fix for `array`: the simplest verified layout change that reaches the best
/// wavefronts found (one element of row padding when it matches the swizzle, else the
/// swizzle), or `None`
/// when nothing improves on the current layout.
///
/// Units: every `after` entry is the access's worst instruction (as in the bank model's
/// verdict), before and after; `lower_bound_wavefronts` is the sum over the accesses of the
/// Lemma 9.5 bound of one instruction (present when the accesses are linear).
pub fn suggest(array: &ArrayUse, params: &BankParams) -> Option<Suggestion> {
    suggest_fix(&LayoutCache::default(), array, params, true).map(|(s, _)| s)
}

/// [`suggest`], reusing the numeric work of `cache` (one per run).
pub fn suggest_cached(
    cache: &LayoutCache,
    array: &ArrayUse,
    params: &BankParams,
) -> Option<Suggestion> {
    suggest_fix(cache, array, params, true).map(|(s, _)| s)
}

/// [`suggest_cached`] (or, with `name_padding` false,
/// [`suggest_without_padding_alternative`]) with the offsets of the fix it verified.
pub fn suggest_with_offsets(
    cache: &LayoutCache,
    array: &ArrayUse,
    params: &BankParams,
    name_padding: bool,
) -> Option<(Suggestion, FixOffsets)> {
    suggest_fix(cache, array, params, name_padding)
}

/// Like [`suggest_cached`], but a swizzle's message does not name the padding that would
/// do the same: for an array whose index already applies an XOR, where the padding was
/// measured without that XOR, which the source would keep.
pub fn suggest_without_padding_alternative(
    cache: &LayoutCache,
    array: &ArrayUse,
    params: &BankParams,
) -> Option<Suggestion> {
    suggest_fix(cache, array, params, false).map(|(s, _)| s)
}

fn suggest_fix(
    cache: &LayoutCache,
    array: &ArrayUse,
    params: &BankParams,
    name_padding: bool,
) -> Option<(Suggestion, FixOffsets)> {
    let core = cached_core(cache, array, params);
    let before = core.before.as_ref()?;
    let swizzle = core.swizzle.as_ref().and_then(|c| swizzle_text(array, c));
    let padding = if padding_applies(array) {
        let found = if swizzle.is_some() {
            &core.padding_vs_swizzle
        } else {
            &core.padding_vs_ideal
        }
        .get_or_init(|| {
            padding_search(
                array,
                params,
                &lanes(array)?,
                before,
                swizzle.as_ref().map(|p| p.after.as_slice()),
            )
        });
        found.clone().and_then(|f| padding_text(array, f))
    } else {
        None
    };
    // One element of padding per row is the textbook fix, applied by `--fix`: it wins when
    // it is as good as the swizzle. Wider padding costs more memory than a swizzle that
    // reaches the same wavefronts, so then the swizzle is the simpler fix.
    let rows: u64 = array.extents.iter().rev().skip(1).product::<u64>().max(1);
    let one_element = |p: &Plan| p.memory_cost_bytes == rows * u64::from(array.element_bytes);
    match (swizzle, padding) {
        (Some(s), Some(p)) if reaches(&p.after, &s.after) && !one_element(&p) => {
            let alt = format!(
                "; padding ({}, +{} bytes) does the same with more memory",
                p.detail, p.memory_cost_bytes
            );
            Some(finish(
                array,
                before,
                s,
                FixKind::Swizzle,
                Some(alt).filter(|_| name_padding),
            ))
        }
        (Some(s), Some(p)) if reaches(&p.after, &s.after) => {
            let alt = format!(
                "; an XOR swizzle of every access ({}) does the same with no extra memory",
                s.detail
            );
            Some(finish(
                array,
                before,
                Plan {
                    lower_bound: s.lower_bound,
                    ..p
                },
                FixKind::Padding,
                Some(alt),
            ))
        }
        (Some(s), Some(p)) => {
            let alt = format!(
                "; padding instead ({}, +{} bytes) only gets {} wavefronts against {}",
                p.detail,
                p.memory_cost_bytes,
                total(&p.after),
                total(&s.after)
            );
            Some(finish(
                array,
                before,
                s,
                FixKind::Swizzle,
                Some(alt).filter(|_| name_padding),
            ))
        }
        (Some(s), None) => Some(finish(array, before, s, FixKind::Swizzle, None)),
        (None, Some(p)) => Some(finish(array, before, p, FixKind::Padding, None)),
        (None, None) => None,
    }
}

/// The numeric results of the fix search for one array: they depend only on the
/// accesses' lowered form, the extents, the element size and the bank geometry, so arrays
/// that agree on those (common within and across files) share them. Source text (names,
/// index expressions, spans) is applied afterwards.
#[derive(Debug, Default)]
struct Core {
    before: Option<Vec<Simulated>>,
    swizzle: Option<SwizzleCore>,
    /// The padding search aiming at the swizzle's wavefronts.
    padding_vs_swizzle: OnceLock<Option<(u64, Vec<Simulated>)>>,
    /// The padding search aiming at every access's ideal (no swizzle).
    padding_vs_ideal: OnceLock<Option<(u64, Vec<Simulated>)>>,
}

/// What the fix search reads of one access (never its source names or text).
#[derive(Debug, PartialEq, Eq, Hash)]
struct AccessKey {
    kinds: Vec<VarKind>,
    coords: Option<Vec<Expr>>,
    guards: Vec<Expr>,
    width: u32,
    atomic: bool,
    block: BlockShape,
    warp_size: u32,
}

/// What the fix search reads of one array.
#[derive(Debug, PartialEq, Eq, Hash)]
struct CoreKey {
    params: BankParams,
    element_bytes: u32,
    extents: Vec<u64>,
    accesses: Vec<AccessKey>,
}

impl CoreKey {
    fn of(array: &ArrayUse, params: &BankParams) -> CoreKey {
        CoreKey {
            params: *params,
            element_bytes: array.element_bytes,
            extents: array.extents.clone(),
            accesses: array
                .accesses
                .iter()
                .map(|s| {
                    let a = &s.lowered;
                    AccessKey {
                        kinds: a.vars.iter().map(|v| v.kind.clone()).collect(),
                        coords: a.coords.clone(),
                        guards: a.guards.clone(),
                        width: a.width,
                        atomic: a.atomic,
                        block: a.block,
                        warp_size: a.warp_size,
                    }
                })
                .collect(),
        }
    }
}

/// The numeric part of the fixes ([`Core`]s) found in one run (the session owns it):
/// every entry is a pure function of its key, so output does not depend on which file
/// filled it, nor on the thread count.
#[derive(Default)]
pub struct LayoutCache {
    map: Mutex<HashMap<CoreKey, Arc<Core>>>,
}

impl LayoutCache {
    /// Entries kept before the cache is emptied (bounds memory on very large runs).
    const LIMIT: usize = 4096;
}

fn cached_core(cache: &LayoutCache, array: &ArrayUse, params: &BankParams) -> Arc<Core> {
    let key = CoreKey::of(array, params);
    if let Some(core) = cache
        .map
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(&key)
    {
        return Arc::clone(core);
    }
    let lanes = lanes(array);
    let before = lanes.as_ref().and_then(|l| current_of(array, params, l));
    let swizzle = lanes
        .as_ref()
        .zip(before.as_ref())
        .and_then(|(l, b)| swizzle_core(array, params, l, b));
    let core = Arc::new(Core {
        before,
        swizzle,
        ..Core::default()
    });
    let mut map = cache
        .map
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if map.len() >= LayoutCache::LIMIT {
        map.clear();
    }
    Arc::clone(map.entry(key).or_insert(core))
}

fn finish(
    array: &ArrayUse,
    before: &[Simulated],
    plan: Plan,
    kind: FixKind,
    alternative: Option<String>,
) -> (Suggestion, FixOffsets) {
    let after: Vec<AfterAccess> = array
        .accesses
        .iter()
        .zip(&plan.after)
        .zip(before)
        .map(|((site, a), b)| AfterAccess {
            line: site.line,
            helper_line: site.helper_line,
            context: site.context.clone(),
            kind: site.kind.as_str().to_string(),
            wavefronts: a.worst.wavefronts,
            ideal_wavefronts: a.worst.ideal,
            before_wavefronts: b.worst.wavefronts,
        })
        .collect();
    let all_ideal = after.iter().all(|a| a.wavefronts <= a.ideal_wavefronts);
    let outcome = if all_ideal {
        "every access becomes conflict-free".to_string()
    } else {
        format!(
            "the accesses take {} wavefronts instead of {}",
            total(&plan.after),
            total(before)
        )
    };
    let cost = if plan.memory_cost_bytes == 0 {
        "no extra memory".to_string()
    } else {
        format!("+{} bytes", plan.memory_cost_bytes)
    };
    let message = format!(
        "{} ({}, {cost}) and {outcome}{}",
        plan.what,
        plan.detail,
        alternative.unwrap_or_default()
    );
    let suggestion = Suggestion {
        kind,
        message: message.into(),
        replacement: plan.replacement,
        cute: plan.cute,
        classic: plan.classic,
        after,
        lower_bound_wavefronts: plan.lower_bound,
        memory_cost_bytes: Some(plan.memory_cost_bytes),
        applicability: plan.applicability,
        edits: plan.edits,
        table: None,
    };
    (suggestion, plan.offsets)
}

/// The numeric part of the swizzle plan: everything that depends only on the accesses'
/// lowered form, the extents, the element size and the bank geometry (no source text).
#[derive(Debug, Clone)]
struct SwizzleCore {
    after: Vec<Simulated>,
    formulas: Vec<super::render::DimFormula>,
    cute: Option<String>,
    classic: Option<[u64; 3]>,
    lower_bound: u64,
    offsets: FixOffsets,
}

/// Builds, simplifies and verifies the swizzle: the numeric part.
fn swizzle_core(
    array: &ArrayUse,
    params: &BankParams,
    lanes: &[Lanes],
    before: &[Simulated],
) -> Option<SwizzleCore> {
    let ext = &array.extents;
    let geom = Geometry::new(array.element_bytes, *params, false)?;
    if array
        .accesses
        .iter()
        .any(|s| s.lowered.width != array.element_bytes || s.lowered.warp_size != params.warp_size)
    {
        return None;
    }
    let layouts: Vec<DistributedLayout> = array
        .accesses
        .iter()
        .map(|s| derive(s, ext))
        .collect::<Result<_, _>>()
        .ok()?;
    let reference = row_major(ext)?;
    let d = reference.dim();
    let built = construct(&layouts, d, &geom)?;
    let (mem, classic) = simplest(&built, &layouts, ext, &geom);
    let cute = classic.and_then(|cl| {
        let sw = cute_of_classic(cl, ext)?;
        (cute_layout(sw, ext) == classic_layout(cl, ext)).then(|| sw.to_string())
    });

    // Verify: re-simulate every access at the new offsets.
    let offsets = FixOffsets::Swizzle {
        matrix: mem.offsets()?,
        dims: dim_offsets(ext)?,
    };
    let after = simulate_all(array, params, lanes, &|c| offsets.offset(c))?;
    if !improves(&after, before) {
        return None;
    }
    let formulas = formulas(&mem, ext)?;
    let lower_bound = layouts
        .iter()
        .map(|a| lemma95(a, &[], d, &geom).per_instruction)
        .sum();
    Some(SwizzleCore {
        after,
        formulas,
        cute,
        classic: classic.map(|c| [c.vec, c.per_phase, c.max_phase]),
        lower_bound,
        offsets,
    })
}

/// The swizzle plan written in the array's own index expressions.
fn swizzle_text(array: &ArrayUse, core: &SwizzleCore) -> Option<Plan> {
    let ext = &array.extents;
    let f = &core.formulas;
    let mut edits = Vec::new();
    let mut first: Option<String> = None;
    for site in &array.accesses {
        let texts = if site.index_texts.len() == ext.len() {
            site.index_texts.clone()
        } else {
            (0..ext.len()).map(|j| format!("i{j}")).collect()
        };
        let new = render(f, &texts)?;
        if first.is_none() {
            first = Some(subscript(&array.name, &new));
        }
        if site.index_spans.len() == ext.len() && site.index_texts.len() == ext.len() {
            for ((span, old), new) in site.index_spans.iter().zip(&site.index_texts).zip(&new) {
                if old.trim() != new {
                    edits.push(Edit {
                        span: *span,
                        text: new.clone(),
                    });
                }
            }
        }
    }
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    edits.dedup();
    let replacement = first?;
    let named = core
        .cute
        .as_ref()
        .map(|c| format!(", CuTe `{c}`"))
        .unwrap_or_default();
    Some(Plan {
        after: core.after.clone(),
        what: format!("XOR-swizzle every access to `{}`", array.name),
        detail: format!("`{replacement}`{named}"),
        replacement,
        edits,
        memory_cost_bytes: 0,
        applicability: Applicability::DisplayOnly,
        cute: core.cute.clone(),
        classic: core.classic,
        lower_bound: Some(core.lower_bound),
        offsets: core.offsets.clone(),
    })
}

/// Tries `[..][M + P]` for `P = 1..=MAX_PADDING`: the smallest `P` that reaches `target`
/// (or, without a target, every access's ideal), else the `P` with the fewest wavefronts.
fn padding_plan(
    array: &ArrayUse,
    params: &BankParams,
    lanes: &[Lanes],
    before: &[Simulated],
    target: Option<&[Simulated]>,
) -> Option<Plan> {
    if !padding_applies(array) {
        return None;
    }
    let found = padding_search(array, params, lanes, before, target)?;
    padding_text(array, found)
}

/// Padding needs at least two dimensions whose extents are spelled in the source.
fn padding_applies(array: &ArrayUse) -> bool {
    array.extents.len() >= 2 && array.extent_spans.len() == array.extents.len()
}

/// The numeric part of the padding plan: the padding chosen and every access under it.
fn padding_search(
    array: &ArrayUse,
    params: &BankParams,
    lanes: &[Lanes],
    before: &[Simulated],
    target: Option<&[Simulated]>,
) -> Option<(u64, Vec<Simulated>)> {
    let ext = &array.extents;
    let (&last, rows) = ext.split_last()?;
    if rows.is_empty() {
        return None;
    }
    let ideal: Vec<Simulated> = before
        .iter()
        .map(|b| Simulated {
            worst: Wavefronts {
                wavefronts: b.worst.ideal,
                ideal: b.worst.ideal,
            },
            total: 0,
        })
        .collect();
    let goal = target.unwrap_or(&ideal);
    let mut best: Option<(u64, Vec<Simulated>)> = None;
    for p in 1..=MAX_PADDING {
        let mut stored = ext.clone();
        let Some(padded) = last.checked_add(p) else {
            break;
        };
        stored[ext.len() - 1] = padded;
        let offsets = FixOffsets::Padding {
            logical: ext.clone(),
            stored,
        };
        let Some(after) = simulate_all(array, params, lanes, &|c| offsets.offset(c)) else {
            continue;
        };
        if reaches(&after, goal) {
            best = Some((p, after));
            break;
        }
        if best.as_ref().is_none_or(|(_, b)| total(&after) < total(b)) {
            best = Some((p, after));
        }
    }
    let (p, after) = best?;
    if !improves(&after, before) {
        return None;
    }
    Some((p, after))
}

/// The padding plan written as an edit of the declaration.
fn padding_text(array: &ArrayUse, (p, after): (u64, Vec<Simulated>)) -> Option<Plan> {
    let ext = &array.extents;
    let (&last, rows) = ext.split_last()?;
    let memory_cost_bytes = rows
        .iter()
        .try_fold(p * u64::from(array.element_bytes), |acc, &r| {
            acc.checked_mul(r)
        })?;
    let span = array.extent_spans[ext.len() - 1];
    let from = span.start.checked_sub(array.decl_span.start);
    let to = span.end.checked_sub(array.decl_span.start);
    let old = from.zip(to).and_then(|(f, t)| array.decl_text.get(f..t));
    let new_extent = match old.map(str::trim) {
        Some(t) if t.parse::<u64>().ok() == Some(last) => (last + p).to_string(),
        Some(t) if !t.is_empty() => format!("{} + {p}", operand(t)),
        _ => (last + p).to_string(),
    };
    let replacement = if let (Some(f), Some(t), Some(_)) = (from, to, old) {
        format!(
            "{}{}{}",
            array.decl_text.get(..f).unwrap_or_default(),
            new_extent,
            array.decl_text.get(t..).unwrap_or_default()
        )
    } else {
        let mut dims: Vec<String> = rows.iter().map(u64::to_string).collect();
        dims.push(new_extent.clone());
        subscript(&array.name, &dims)
    };
    let applicability = if array.accesses.iter().all(|s| s.plain_subscript) {
        Applicability::Safe
    } else {
        Applicability::Unsafe
    };
    Some(Plan {
        after,
        what: format!(
            "pad each row of `{}` by {p} element{}",
            array.name,
            if p == 1 { "" } else { "s" }
        ),
        detail: format!("`{replacement}`"),
        replacement,
        edits: vec![Edit {
            span,
            text: new_extent,
        }],
        memory_cost_bytes,
        applicability,
        cute: None,
        classic: None,
        lower_bound: None,
        offsets: FixOffsets::Padding {
            logical: ext.clone(),
            stored: stored_extents(ext, p)?,
        },
    })
}

/// The extents with the last one padded by `p` elements.
fn stored_extents(ext: &[u64], p: u64) -> Option<Vec<u64>> {
    let mut stored = ext.to_vec();
    let last = stored.last_mut()?;
    *last = last.checked_add(p)?;
    Some(stored)
}
