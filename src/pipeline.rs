//! The per-file pipeline: source -> extract -> lower -> analyse -> rules.
//!
//! Pure: bytes and settings in, a [`FileReport`] out.

use crate::analyse::{analyse_cached, AnalysedSite, Budget, Verdict};
use crate::bank::Wavefronts;
use crate::config::Settings;
use crate::diag::{AccessFacts, Status};
use crate::lower::site::LoweredFile;
use crate::project::ProjectIndex;
use crate::rules;
use crate::FileReport;
use std::time::{Duration, Instant};

pub(crate) fn check_source(
    path: &str,
    bytes: &[u8],
    settings: &Settings,
    project: &ProjectIndex,
) -> FileReport {
    let Some(file) = crate::source::load(path, bytes) else {
        let text = String::from_utf8_lossy(bytes).into_owned();
        return FileReport {
            path: path.to_string(),
            text,
            language: None,
            diagnostics: Vec::new(),
            accesses: Vec::new(),
            stats: crate::FileStats::default(),
        };
    };
    let mut report = FileReport {
        path: path.to_string(),
        text: file.text.clone(),
        language: Some(file.language),
        diagnostics: Vec::new(),
        accesses: Vec::new(),
        stats: crate::FileStats::default(),
    };
    // A file that never mentions shared memory has no access to check: skip the parse,
    // as a text search skips files without a match (its kernels' launches are still
    // found by the run-wide index, which scans text).
    // A header included by shared-memory code may reach its arrays through its helpers.
    if !crate::source::mentions_shared_memory(&file.text)
        && !project.is_included_by_shared_memory_code(std::path::Path::new(path))
    {
        return report;
    }
    let clock = Instant::now();
    let Some(tree) = crate::source::parse(&file) else {
        return report;
    };
    report.stats.parse = clock.elapsed();
    let clock = Instant::now();
    let file_path = std::path::Path::new(path);
    // Functions that cannot reach shared memory are skipped, unless functions of other
    // files may be added to this one: a header's includers analyse its helpers.
    let only_relevant = !project.is_included(file_path);
    let mut syntax = if only_relevant {
        crate::extract::extract_relevant(&file, &tree)
    } else {
        crate::extract::extract(&file, &tree)
    };
    report.stats.extract = clock.elapsed();
    add_external_launches(&mut syntax, file_path, project, settings);
    for span in syntax.parse_errors.iter().take(5) {
        if let Some(d) = rules::parse_error::check(*span, &file.text, settings) {
            report.diagnostics.push(d);
        }
    }
    let clock = Instant::now();
    crate::lower::interp::start_file(file.text.len());
    let mut lowered = crate::lower::lower_file(&syntax, &file.text, settings);
    // Included headers are parsed only when the file alone leaves something unresolved:
    // most files need nothing from them, and headers can be large.
    if needs_includes(&lowered, &file)
        && file.text.contains("#include")
        && project.includes_define_anything(file_path, &file.text)
    {
        // A header's functions may call back into any function of this file.
        if only_relevant {
            syntax = crate::extract::extract(&file, &tree);
            add_external_launches(&mut syntax, file_path, project, settings);
        }
        project.merge_includes(
            file_path,
            &file.text,
            &mut syntax,
            0,
            &mut std::collections::HashSet::new(),
        );
        lowered = crate::lower::lower_file(&syntax, &file.text, settings);
    }
    drop(tree);
    // Sites inside included headers' helpers belong to those headers' reports.
    lowered.sites.retain(|s| s.foreign.is_none());
    // Helpers no function of this file calls (a header's): analyse them through the
    // kernels of the files of the run that include this one.
    // Only a file that others include has includers to analyse its helpers through.
    let uncalled_helpers = || -> Vec<&str> {
        let called = crate::lower::called_helpers(&syntax);
        let touching = crate::lower::touching_helpers(&syntax);
        let reaching = crate::lower::reaching_shared(&syntax, &file.text);
        // Shared memory comes into a helper from its own code or through a parameter.
        let can_receive = |f: &crate::extract::ast::Function| {
            reaching.contains(&f.name)
                || f.params.iter().any(|p| p.ty.pointers > 0 || p.array_or_ref)
        };
        // A function that launches kernels runs on the host: it touches no shared memory.
        let launching: std::collections::HashSet<usize> = syntax
            .launches
            .iter()
            .filter_map(|l| l.in_function)
            .collect();
        let launches = |fi: usize| launching.contains(&fi);
        syntax
            .functions
            .iter()
            .enumerate()
            .filter(|(fi, f)| {
                !f.is_kernel
                    && f.foreign_text.is_none()
                    && !f.body.is_empty()
                    && !called.contains(&f.name)
                    && touching.contains(&f.name)
                    && can_receive(f)
                    && !launches(*fi)
            })
            .map(|(_, f)| f.name.as_str())
            .collect()
    };
    let helpers = if only_relevant {
        Vec::new()
    } else {
        uncalled_helpers()
    };
    // A header's kernels left undecided on their own, or decided on macros taken as not
    // defined: the files that include it may define what they need (`#define TILE 16`
    // before the `#include`), and each includer may define it differently.
    let kernels: std::collections::HashSet<&str> = syntax
        .functions
        .iter()
        .filter(|f| f.is_kernel && f.foreign_text.is_none())
        .map(|f| f.name.as_str())
        .collect();
    // What they miss: the names in backticks of their reasons and macro assumptions.
    let mut missing: Vec<&str> = Vec::new();
    if !only_relevant {
        for s in &lowered.sites {
            if s.foreign.is_some() || !kernels.contains(s.function.as_str()) {
                continue;
            }
            let notes = s.lowered.as_ref().err().into_iter().chain(
                s.assumptions
                    .iter()
                    .filter(|a| a.contains("preprocessor condition")),
            );
            for note in notes {
                for name in note.split('`').skip(1).step_by(2) {
                    let ident =
                        !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
                    if ident && !missing.contains(&name) {
                        missing.push(name);
                    }
                }
            }
        }
    }
    if !missing.is_empty() {
        for other in project.kernel_sites_through_includers(file_path, &missing, settings) {
            adopt_foreign_sites(&mut lowered, other);
        }
    }
    if !helpers.is_empty() {
        for other in project.sites_through_includers(file_path, &file.text, &helpers, settings) {
            adopt_foreign_sites(&mut lowered, other);
        }
    }
    report.stats.lower = clock.elapsed();
    let clock = Instant::now();
    let (analysed, slowest) = analyse_sites(&lowered, settings);
    report.stats.analyse = clock.elapsed();
    report.stats.slowest_access = slowest;
    let clock = Instant::now();
    for a in &analysed {
        let facts = facts_of(a, &lowered);
        rules::check_access(a, &facts, &lowered, settings, &mut report.diagnostics);
        report.accesses.push(facts);
    }
    rules::check_arrays(
        &analysed,
        &lowered,
        &file.text,
        settings,
        &mut report.diagnostics,
    );
    report.accesses.sort_by_key(|f| (f.span.start, f.kind));
    report
        .diagnostics
        .sort_by(|a, b| (a.span.start, a.rule).cmp(&(b.span.start, b.rule)));
    report.stats.rules = clock.elapsed();
    report
}

/// Block shapes of the file's kernels launched only in other files of the run.
fn add_external_launches(
    syntax: &mut crate::extract::FileSyntax,
    file_path: &std::path::Path,
    project: &ProjectIndex,
    settings: &Settings,
) {
    // A set, not a scan per kernel: a file of many kernels and launches stays linear.
    let launched: std::collections::HashSet<&str> =
        syntax.launches.iter().map(|l| l.kernel.as_str()).collect();
    let kernels_without_launch: Vec<String> = syntax
        .functions
        .iter()
        .filter(|f| f.is_kernel && f.numthreads.is_none() && !launched.contains(f.name.as_str()))
        .map(|f| f.name.clone())
        .collect();
    for k in kernels_without_launch {
        let shapes = project.external_launches(file_path, &k, settings);
        if !shapes.is_empty() {
            syntax.external_launches.insert(k, shapes);
        }
    }
}

/// Adds sites found through an includer, replacing this file's own lowering of the same
/// site (made without callers). Arrays declared in the includer keep their names; they
/// have no declaration in this file, so no label or fix points at them.
fn adopt_foreign_sites(lowered: &mut LoweredFile, other: LoweredFile) {
    for mut site in other.sites {
        let Some(info) = other.arrays.get(site.array) else {
            continue;
        };
        let local = lowered.arrays.iter().position(|a| {
            a.name == info.name
                && (a.decl_span == info.decl_span || a.decl_span == crate::diag::Span::default())
        });
        site.array = if let Some(i) = local {
            i
        } else {
            let mut info = info.clone();
            info.name_span = crate::diag::Span::default();
            info.decl_span = crate::diag::Span::default();
            info.extent_spans = info.extent_spans.iter().map(|_| None).collect();
            info.dynamic = true;
            lowered.arrays.push(info);
            lowered.arrays.len() - 1
        };
        lowered
            .sites
            .retain(|s| s.foreign.is_some() || !(s.span == site.span && s.kind == site.kind));
        lowered.sites.push(site);
    }
}

/// True when lowering left something that an included header may define: an index,
/// type or extent it could not resolve, a block shape it had to assume, or an array
/// whose accesses it did not find.
fn needs_includes(lowered: &LoweredFile, file: &crate::source::SourceFile) -> bool {
    // A CUDA file with no launch and no `__launch_bounds__` has nothing a header's
    // constants could turn into a block shape: an assumed shape stays assumed.
    let shape_from_text = file.language == crate::Language::Hlsl
        || file.text.contains("<<<")
        || file.text.contains("__launch_bounds__");
    let open = |a: &String| shape_from_text || !a.contains("assumed: nothing in the file fixes");
    let accessed: std::collections::HashSet<usize> =
        lowered.sites.iter().map(|s| s.array).collect();
    lowered
        .sites
        .iter()
        .any(|s| s.lowered.is_err() || s.assumptions.iter().any(open))
        || lowered.arrays.iter().enumerate().any(|(i, a)| {
            a.element_bytes == 0
                || (!a.dynamic && a.extents.iter().any(Option::is_none))
                // An array with no access found may be reached through a header's helpers.
                || !accessed.contains(&i)
        })
}

/// Analyses every site and keeps, per source site and kind, the worst context.
/// Also returns the site that took longest to analyse, for `--stats`.
fn analyse_sites(
    lowered: &LoweredFile,
    settings: &Settings,
) -> (Vec<AnalysedSite>, Option<(crate::diag::Span, Duration)>) {
    let mut slowest: Option<(crate::diag::Span, Duration)> = None;
    let budget = Budget {
        max_lane_evals: settings.max_lane_evals,
        ..Budget::default()
    };
    let mut verdicts: Vec<Verdict> = Vec::with_capacity(lowered.sites.len());
    for site in &lowered.sites {
        let clock = Instant::now();
        let verdict = match &site.lowered {
            Err(reason) => Verdict::unknown(reason.clone()),
            Ok(components) => {
                let mut total: Option<Verdict> = None;
                for c in components {
                    let v = analyse_cached(c, &settings.bank, budget);
                    total = Some(match total {
                        None => v,
                        Some(t) => worst_of(t, v),
                    });
                }
                total.unwrap_or_else(|| Verdict::unknown("no component"))
            }
        };
        let took = clock.elapsed();
        if slowest.is_none_or(|(_, t)| took > t) {
            slowest = Some((site.span, took));
        }
        verdicts.push(verdict);
    }
    combine_type_variants(&lowered.sites, &mut verdicts);
    let mut out: Vec<AnalysedSite> = Vec::new();
    // Where each (span, kind) went in `out`: a lookup, not a scan, per site.
    let mut slot: std::collections::HashMap<(crate::diag::Span, crate::diag::AccessKind), usize> =
        std::collections::HashMap::new();
    for (site, verdict) in lowered.sites.iter().zip(verdicts) {
        if let Some(existing) = slot
            .get(&(site.span, site.kind))
            .and_then(|&i| out.get_mut(i))
        {
            if is_worse(&verdict, &existing.verdict) {
                existing.site = site.clone();
                existing.verdict = verdict;
            }
        } else {
            slot.insert((site.span, site.kind), out.len());
            out.push(AnalysedSite {
                site: site.clone(),
                verdict,
            });
        }
    }
    (out, slowest)
}

/// Sites lowered once per element size of a type parameter nothing instantiates (see
/// `lower::templates`): decided only when every size gives the same factor, with that
/// stated; otherwise undecided, naming the sizes that differ.
fn combine_type_variants(sites: &[crate::lower::site::AccessSite], verdicts: &mut [Verdict]) {
    let mut done = vec![false; sites.len()];
    // Sites of the same span and kind, in order: each group is searched among those only.
    let mut by_span: std::collections::HashMap<
        (crate::diag::Span, crate::diag::AccessKind),
        Vec<usize>,
    > = std::collections::HashMap::new();
    for (i, s) in sites.iter().enumerate() {
        if s.type_variant.is_some() {
            by_span.entry((s.span, s.kind)).or_default().push(i);
        }
    }
    for i in 0..sites.len() {
        let Some((param, _)) = &sites[i].type_variant else {
            continue;
        };
        if done[i] {
            continue;
        }
        let same = |a: &crate::lower::site::AccessSite, b: &crate::lower::site::AccessSite| {
            a.span == b.span
                && a.kind == b.kind
                && a.context == b.context
                && a.function == b.function
                && a.instantiation == b.instantiation
                && a.type_variant.as_ref().map(|v| &v.0) == Some(param)
        };
        let group: Vec<usize> = by_span[&(sites[i].span, sites[i].kind)]
            .iter()
            .copied()
            .filter(|&j| j >= i && !done[j] && same(&sites[i], &sites[j]))
            .collect();
        for &j in &group {
            done[j] = true;
        }
        // An undecided size leaves the site undecided, with that size's reason.
        if group.iter().any(|&j| verdicts[j].cost.is_none()) {
            continue;
        }
        let factors: Vec<(u32, f64)> = group
            .iter()
            .map(|&j| {
                let size = sites[j].type_variant.as_ref().map_or(0, |v| v.1);
                (size, verdicts[j].cost.map_or(1.0, |w| w.factor()))
            })
            .collect();
        let agree = factors.windows(2).all(|w| (w[0].1 - w[1].1).abs() < 1e-9);
        if agree {
            let note = crate::lower::templates::every_size_assumption(param);
            for &j in &group {
                verdicts[j].notes.push(note.clone());
            }
        } else {
            let mut parts: Vec<String> = Vec::new();
            let mut k = 0;
            // Consecutive sizes with the same factor are named together.
            while k < factors.len() {
                let f = factors[k].1;
                let mut sizes = vec![factors[k].0.to_string()];
                while k + 1 < factors.len() && (factors[k + 1].1 - f).abs() < 1e-9 {
                    k += 1;
                    sizes.push(factors[k].0.to_string());
                }
                let way = if (f - f.round()).abs() < 1e-9 {
                    format!("{}", f.round() as i64)
                } else {
                    format!("{f:.2}")
                };
                parts.push(format!("{way}-way for {}-byte", sizes.join(", ")));
                k += 1;
            }
            let reason = format!(
                "the verdict depends on the type `{param}`, which no instantiation in the run fixes: {} elements",
                parts.join("; ")
            );
            for &j in &group {
                verdicts[j] = Verdict::unknown(reason.clone());
            }
        }
    }
}

/// An undecided context makes the site undecided; otherwise the larger factor wins.
/// A context in which no lane reaches the access (another instantiation's branch) counts
/// only when no context does.
fn is_worse(a: &Verdict, b: &Verdict) -> bool {
    let unreached = |v: &Verdict| {
        v.cost.is_none() && v.reason.as_deref() == Some("no lane of any warp is active")
    };
    if unreached(a) || unreached(b) {
        return unreached(b) && !unreached(a);
    }
    match (a.cost, b.cost) {
        (None, _) => b.cost.is_some(),
        (Some(_), None) => false,
        (Some(x), Some(y)) => x.is_worse_than(&y),
    }
}

fn worst_of(a: Verdict, b: Verdict) -> Verdict {
    if is_worse(&b, &a) {
        b
    } else {
        a
    }
}

fn facts_of(a: &AnalysedSite, lowered: &LoweredFile) -> AccessFacts {
    let array = lowered
        .arrays
        .get(a.site.array)
        .map_or_else(String::new, |x| x.name.clone());
    let (status, factor) = match a.verdict.cost {
        None => (Status::Unknown, None),
        Some(w) => (
            if w.wavefronts > w.ideal {
                Status::Conflict
            } else {
                Status::Ok
            },
            Some(w.factor()),
        ),
    };
    let mut assumptions = a.site.assumptions.clone();
    assumptions.extend(a.verdict.notes.iter().cloned());
    AccessFacts {
        span: a.site.span,
        array,
        pointer: a.site.pointer.clone(),
        kind: a.site.kind,
        element_bytes: a.site.element_bytes,
        status,
        conflict_factor: factor,
        wavefronts: a.verdict.cost.map(|w: Wavefronts| w.wavefronts),
        ideal_wavefronts: a.verdict.cost.map(|w| w.ideal),
        reason: a.verdict.reason.clone(),
        assumptions,
        depends_on: a.verdict.depends_on.clone(),
        method: a
            .verdict
            .cost
            .map(|_| a.verdict.method.as_str().to_string()),
        exact: a.verdict.exact,
        explanation: a.verdict.explanation.clone(),
        function: Some(a.site.function.clone()),
    }
}
