//! The per-file pipeline: source -> extract -> lower -> analyse -> rules.
//!
//! Pure: bytes and settings in, a [`FileReport`] out.

use crate::analyse::{AnalysedSite, Budget, Verdict, VerdictCache};
use crate::bank::Wavefronts;
use crate::config::Settings;
use crate::diag::{AccessFacts, Status};
use crate::model::assumption::{Assumption, CandidateShape, ShapeGap};
use crate::model::site::LoweredFile;
use crate::project::ProjectIndex;
use crate::rules;
use crate::FileReport;
use std::time::{Duration, Instant};

mod dead_branches;
mod elsewhere;
mod lanes_off;
mod layouts;
mod segmented;
mod unfollowed;

/// What every pass after parsing reads: the file, where it is, the run and its settings.
struct Inputs<'a> {
    path: &'a std::path::Path,
    file: &'a crate::source::SourceFile<'a>,
    project: &'a ProjectIndex,
    settings: &'a Settings,
}

/// A file's syntax, and its tree while a later pass may extract the whole file again.
struct Extracted {
    syntax: crate::extract::FileSyntax,
    tree: Option<tree_sitter::Tree>,
    /// Only the functions that can reach shared memory were extracted.
    only_relevant: bool,
}

/// What one run remembers across files: verdicts of identical accesses and the numeric
/// part of layout fixes, both pure functions of their keys. The session owns them, so no
/// state outlives a run or is shared between runs.
#[derive(Default)]
pub(crate) struct Caches {
    pub verdicts: VerdictCache,
    pub layouts: crate::swizzle::LayoutCache,
}

/// The per-file passes, in order: parse, extract, lower, resolve includes, adopt from
/// includers, analyse, layouts (the verified fixes the rules hand out), rules. The session (`crate::driver`) runs them, then suppressions
/// and severities.
pub(crate) fn check_source(
    path: &str,
    bytes: &[u8],
    settings: &Settings,
    project: &ProjectIndex,
    caches: &Caches,
) -> FileReport {
    let Ok(decoded) = crate::source::decode::decode(bytes) else {
        return empty_report(path, String::from_utf8_lossy(bytes).into_owned(), None);
    };
    let mut report = check_text(path, &decoded.text, settings, project, caches);
    report.text = decoded.text;
    report
}

/// [`check_source`] on decoded text, which the passes borrow: the report, without its
/// text (the caller hands it over once the passes are done, so a big file's text is
/// never copied).
pub(crate) fn check_text(
    path: &str,
    text: &str,
    settings: &Settings,
    project: &ProjectIndex,
    caches: &Caches,
) -> FileReport {
    let Some(mut file) = crate::source::load_text(path, text) else {
        return empty_report(path, String::new(), None);
    };
    check_loaded(path, &mut file, settings, project, caches)
}

/// [`check_source`] on a decoded file: the report, without its text.
fn check_loaded(
    path: &str,
    file: &mut crate::source::SourceFile<'_>,
    settings: &Settings,
    project: &ProjectIndex,
    caches: &Caches,
) -> FileReport {
    let mut report = empty_report(path, String::new(), Some(file.language));
    let file_path = std::path::Path::new(path);
    // A file that never mentions shared memory has no access to check: skip the parse,
    // as a text search skips files without a match (its kernels' launches are still
    // found by the run-wide index, which scans text).
    // A header included by shared-memory code may reach its arrays through its helpers.
    if !crate::source::mentions_shared_memory(&file.text)
        && !project.is_included_by_shared_memory_code(file_path)
    {
        return report;
    }
    let clock = Instant::now();
    prepare(file, file_path, project, settings);
    // Lowering's work budget is the file's, across all its segments.
    crate::lower::interp::start_file(file.text.len());
    if let Some(plan) = segmented::plan(file, file_path, project, settings) {
        let inputs = Inputs {
            path: file_path,
            file,
            project,
            settings,
        };
        if segmented::check(&inputs, &plan, caches, &mut report) {
            sort(&mut report);
            return report;
        }
        // A segment did not parse cleanly: the file is checked whole, as any other.
        report = empty_report(path, String::new(), Some(file.language));
        crate::lower::interp::start_file(file.text.len());
    }
    let Some(tree) = crate::source::parse_resolving(file) else {
        // The grammar's error recovery ran past the parse budget: said, never skipped.
        let budget = crate::source::ParseBudget::for_len(file.parse_text().len());
        if rules::parse_error::META.enabled(settings) {
            report
                .diagnostics
                .push(rules::parse_error::gave_up(&file.text, &budget));
        }
        return report;
    };
    report.stats.parse = clock.elapsed();
    let inputs = Inputs {
        path: file_path,
        file,
        project,
        settings,
    };
    check_tree(&inputs, tree, caches, &mut report);
    sort(&mut report);
    report
}

/// The passes after parsing, on one tree (the whole file's, or a segment's): their
/// findings, accesses and array states are added to `report`.
fn check_tree(
    inputs: &Inputs<'_>,
    tree: tree_sitter::Tree,
    caches: &Caches,
    report: &mut FileReport,
) {
    let (file, settings) = (inputs.file, inputs.settings);
    let clock = Instant::now();
    let mut extracted = extract(inputs, tree);
    report.stats.extract += clock.elapsed();
    let clock = Instant::now();
    let mut lowered = lower(inputs, &extracted);
    resolve_includes(inputs, &mut extracted, &mut lowered);
    drop(extracted.tree.take());
    // Sites inside included headers' helpers belong to those headers' reports, unless
    // they reach an array of this file: those are reported here, at the call.
    claim_foreign_sites(&mut lowered);
    assume_resolved_conditionals(&mut lowered, &extracted.syntax, file);
    adopt_from_includers(inputs, &extracted, &mut lowered);
    report.stats.lower += clock.elapsed();
    report_at_calls(&mut lowered);
    report
        .reported_elsewhere
        .extend(lowered.reported_elsewhere.iter().copied());
    let clock = Instant::now();
    let (analysed, every, slowest) = analyse_sites(&lowered, settings, &caches.verdicts);
    report.stats.analyse += clock.elapsed();
    if slowest.as_ref().map(|s| s.1) > report.stats.slowest_access.as_ref().map(|s| s.1) {
        report.stats.slowest_access = slowest;
    }
    let clock = Instant::now();
    let layouts = layouts::advise(
        &analysed,
        &every,
        &lowered,
        &file.text,
        settings,
        &caches.layouts,
    );
    apply_rules(
        inputs,
        &extracted.syntax,
        &lowered,
        &analysed,
        &every,
        &layouts,
        report,
    );
    report.stats.rules += clock.elapsed();
}

/// The report of a file before any pass: its text, and nothing found.
fn empty_report(path: &str, text: String, language: Option<crate::Language>) -> FileReport {
    FileReport {
        path: path.to_string(),
        text,
        language,
        diagnostics: Vec::new(),
        accesses: Vec::new(),
        arrays: crate::ArrayStates::default(),
        reported_elsewhere: Vec::new(),
        stats: crate::FileStats::default(),
    }
}

/// Pass `prepare`: the preprocessor's view of the text (with the settings' defines and
/// the macros of the project headers it includes), which the grammar then parses.
fn prepare(
    file: &mut crate::source::SourceFile,
    path: &std::path::Path,
    project: &ProjectIndex,
    settings: &Settings,
) {
    // Macros of the project's own headers (`#define HD __host__ __device__`) are read as
    // the compiler reads them.
    // A header's includers come first, so that its own includes win.
    let mut header_definitions = project.includer_qualifier_definitions(path, settings);
    if file.text.contains("#include") {
        header_definitions.extend(project.header_definitions(path, &file.text, settings));
    }
    let front = crate::source::FrontEnd {
        defines: Some(&settings.defines),
        header_definitions: &header_definitions,
    };
    crate::source::prepare(file, front);
}

/// Pass `extract`: the file's functions, arrays and launches, with the block shapes of
/// its kernels launched only in other files of the run.
fn extract(inputs: &Inputs<'_>, tree: tree_sitter::Tree) -> Extracted {
    let file = inputs.file;
    // Functions that cannot reach shared memory are skipped, unless functions of other
    // files may be added to this one: a header's includers analyse its helpers.
    let only_relevant = !inputs.project.is_included(inputs.path);
    let mut syntax = if only_relevant {
        crate::extract::extract_relevant(file, &tree)
    } else {
        crate::extract::extract(file, &tree)
    };
    // The tree is needed again only to extract the whole file for its headers' sake
    // (`resolve_includes`); otherwise it is dropped before lowering, whose memory can
    // reuse it.
    let tree = (only_relevant && file.text.contains("#include")).then_some(tree);
    add_external_launches(&mut syntax, inputs.path, inputs.project, inputs.settings);
    Extracted {
        syntax,
        tree,
        only_relevant,
    }
}

/// Pass `lower`: the file's access sites in the index IR, from its own text alone.
fn lower(inputs: &Inputs<'_>, extracted: &Extracted) -> LoweredFile {
    crate::lower::lower_file(&extracted.syntax, &inputs.file.text, inputs.settings)
}

/// Pass `resolve includes`: included headers are parsed only when the file alone leaves
/// something unresolved (most files need nothing from them, and headers can be large);
/// then their definitions are merged and the file is lowered again.
fn resolve_includes(inputs: &Inputs<'_>, extracted: &mut Extracted, lowered: &mut LoweredFile) {
    let (file, file_path, project, settings) =
        (inputs.file, inputs.path, inputs.project, inputs.settings);
    // Functions this file hands a shared array to without defining them: a header's
    // helper reached so reports the access here, at the call (`claim_foreign_sites`).
    let mut handed: Vec<&str> = lowered
        .arrays
        .iter()
        .flat_map(|a| a.handed_to.iter().map(String::as_str))
        .collect();
    handed.sort_unstable();
    handed.dedup();
    let includes = file.text.contains("#include");
    if includes
        && ((needs_includes(lowered, file)
            && project.includes_define_anything(file_path, &file.text))
            || (!handed.is_empty()
                && project.includes_define_function(file_path, &file.text, &handed)))
    {
        let syntax = &mut extracted.syntax;
        // A header's functions may call back into any function of this file.
        if let Some(tree) = extracted.tree.as_ref().filter(|_| extracted.only_relevant) {
            *syntax = crate::extract::extract(file, tree);
            add_external_launches(syntax, file_path, project, settings);
        }
        project.merge_includes(
            file_path,
            &file.text,
            syntax,
            0,
            &mut std::collections::HashSet::new(),
        );
        *lowered = crate::lower::lower_file(syntax, &file.text, settings);
    }
}

/// Pass `adopt from includers`: a header's helpers no function of it calls, and its
/// kernels left undecided on their own, are lowered through the files that include it.
fn adopt_from_includers(inputs: &Inputs<'_>, extracted: &Extracted, lowered: &mut LoweredFile) {
    let (file, file_path, project, settings) =
        (inputs.file, inputs.path, inputs.project, inputs.settings);
    let (syntax, only_relevant) = (&extracted.syntax, extracted.only_relevant);
    // Helpers no function of this file calls (a header's): analyse them through the
    // kernels of the files of the run that include this one.
    // Only a file that others include has includers to analyse its helpers through.
    let uncalled_helpers = || -> Vec<&str> {
        let called = crate::lower::called_helpers(syntax);
        let touching = crate::lower::touching_helpers(syntax);
        let reaching = crate::lower::reaching_shared(syntax, &file.text);
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
                    && f.owner.is_none()
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
    // What they miss: the names in backticks of their reasons and macro assumptions; and
    // the kernels whose template values were taken as any value.
    let mut missing: Vec<&str> = Vec::new();
    let mut instantiated: Vec<String> = Vec::new();
    if !only_relevant {
        for s in &lowered.sites {
            if s.foreign.is_some()
                || s.function.is_inlined()
                || !kernels.contains(s.function.name.as_str())
            {
                continue;
            }
            let names = s
                .lowered
                .as_ref()
                .err()
                .into_iter()
                .flat_map(|r| r.unresolved_names().iter().chain(r.unknown_types()))
                .chain(
                    s.assumptions
                        .iter()
                        .filter_map(Assumption::macro_taken_undefined),
                )
                // The names an unfollowed condition around the access rests on.
                .chain(
                    s.assumptions
                        .iter()
                        .filter_map(Assumption::unfollowed_condition)
                        .flat_map(crate::model::reason::Reason::unresolved_names),
                );
            // A template value taken as any value: an includer may instantiate the kernel.
            if s.assumptions.iter().any(|a| a.template_value().is_some())
                && !instantiated.contains(&s.function.name)
            {
                instantiated.push(s.function.name.clone());
            }
            for name in names {
                let ident =
                    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
                if ident && !missing.contains(&name.as_str()) {
                    missing.push(name);
                }
            }
        }
    }
    if !missing.is_empty() {
        for other in project.kernel_sites_through_includers(
            file_path,
            crate::project::Includers::Naming(&missing),
            settings,
        ) {
            adopt_foreign_sites(lowered, other);
        }
    }
    // An includer's instantiations replace the guess over every value only at the
    // accesses where their arguments fixed every template value, in every context.
    if !instantiated.is_empty() {
        let kernels: Vec<&str> = instantiated.iter().map(String::as_str).collect();
        for mut other in project.kernel_sites_through_includers(
            file_path,
            crate::project::Includers::Instantiating(&kernels),
            settings,
        ) {
            let open: std::collections::HashSet<_> = other
                .sites
                .iter()
                .filter(|s| s.assumptions.iter().any(|a| a.template_value().is_some()))
                .map(|s| (s.span, s.kind))
                .collect();
            other.sites.retain(|s| !open.contains(&(s.span, s.kind)));
            adopt_foreign_sites(lowered, other);
        }
    }
    if !helpers.is_empty() {
        for other in project.sites_through_includers(file_path, &file.text, &helpers, settings) {
            adopt_foreign_sites(lowered, other);
        }
    }
}

/// Pass `rules`: the access facts, the arrays' states and the unparsed regions, then
/// every enabled rule on them; sorted. `analysed` holds each access's worst context,
/// `every` all its contexts.
fn apply_rules(
    inputs: &Inputs<'_>,
    syntax: &crate::extract::FileSyntax,
    lowered: &LoweredFile,
    analysed: &[AnalysedSite],
    every: &[AnalysedSite],
    layouts: &rules::Layouts,
    report: &mut FileReport,
) {
    let (text, settings) = (&*inputs.file.text, inputs.settings);
    let mut helper_files = elsewhere::HelperFiles::new(inputs.project);
    let facts: Vec<AccessFacts> = analysed
        .iter()
        .map(|a| {
            let mut facts = facts_of(a, lowered);
            if let (Some(text), Some(span)) = (&a.site.helper_text, a.site.helper_span) {
                facts.helper_span = None;
                facts.helper_elsewhere = helper_files.place(text, span);
            }
            facts
        })
        .collect();
    let mut unfound = Vec::new();
    let arrays = array_states(syntax, lowered, every, text, &mut unfound);
    report.arrays.reported += arrays.reported;
    report.arrays.unknown += arrays.unknown;
    report.arrays.undecided += arrays.undecided;
    let is_defined = |n: &str| {
        syntax.defined.contains(n)
            || syntax.macros.contains_key(n)
            || syntax.fn_macros.contains_key(n)
            || settings.defines.contains_key(n)
    };
    let unparsed = unparsed_regions(syntax, lowered, text, &facts, &is_defined);
    // Regions that cannot hide an access are counted, not reported.
    report.stats.unreported_parse_errors += unparsed
        .regions
        .iter()
        .filter(|span| !rules::parse_error::holds_shared(**span, &unparsed))
        .count();
    let file_facts = rules::FileFacts {
        text,
        settings,
        lowered,
        analysed,
        facts: &facts,
        unfound: &unfound,
        layouts,
        unparsed: &unparsed,
    };
    for rule in rules::RULES {
        if rule.meta().enabled(settings) {
            rule.check(&file_facts, &mut report.diagnostics);
        }
    }
    report.accesses.extend(facts);
}

/// The last pass: accesses and findings in the order of the file. Run once per file,
/// after every segment (the sort is stable, so the order is the same as sorting after
/// each), and by key with the values permuted in place: a stable sort of the values
/// themselves takes scratch room for half of them, at a big file's peak.
fn sort(report: &mut FileReport) {
    report
        .accesses
        .sort_by_cached_key(|f| (f.span.start, f.kind));
    report
        .diagnostics
        .sort_by_cached_key(|d| (d.span.start, d.rule));
}

/// The conditional groups the front end resolved as a device compilation (because the
/// parse failed otherwise): their assumption goes on every site of a function they touch.
fn assume_resolved_conditionals(
    lowered: &mut LoweredFile,
    syntax: &crate::extract::FileSyntax,
    file: &crate::source::SourceFile,
) {
    if file.assumptions.is_empty() {
        return;
    }
    let mut by_name: std::collections::HashMap<&str, Vec<&crate::extract::ast::Function>> =
        std::collections::HashMap::new();
    for f in syntax.functions.iter().filter(|f| f.foreign_text.is_none()) {
        by_name.entry(f.name.as_str()).or_default().push(f);
    }
    for site in &mut lowered.sites {
        let function = by_name
            .get(site.function.name.as_str())
            .into_iter()
            .flatten()
            .find(|f| {
                site.function.is_own(&f.name)
                    && f.span.start <= site.span.start
                    && site.span.end <= f.span.end
            });
        let Some(f) = function else {
            continue;
        };
        for (span, words) in &file.assumptions {
            let note = Assumption::ResolvedConditional(words.clone());
            if span.start < f.span.end
                && f.span.start < span.end
                && !site.assumptions.contains(&note)
            {
                site.assumptions.push(note);
            }
        }
    }
}

/// What the `parse-error` rule reads of the regions the parser could not read.
fn unparsed_regions<'a>(
    syntax: &'a crate::extract::FileSyntax,
    lowered: &'a LoweredFile,
    text: &'a str,
    facts: &[AccessFacts],
    is_defined: &'a dyn Fn(&str) -> bool,
) -> rules::Unparsed<'a> {
    let regions = syntax.parse_errors.as_slice();
    // A file the parser read whole, every macro head expanded, needs none of the rest.
    let any = !regions.is_empty() || !syntax.macro_refusals.is_empty();
    rules::Unparsed {
        text,
        regions,
        functions: syntax
            .functions
            .iter()
            .filter(|f| any && f.foreign_text.is_none())
            .map(|f| (f.name.as_str(), f.span))
            .collect(),
        shared_names: lowered
            .arrays
            .iter()
            .map(|a| a.name.as_str())
            .chain(syntax.shared_macros.iter().map(String::as_str))
            .filter(|_| any)
            .collect(),
        mentions_shared: crate::source::spells_shared_declaration,
        is_defined,
        accesses: facts.iter().filter(|_| any).map(|a| a.span).collect(),
        refused_heads: &syntax.macro_refusals,
        line_ends: std::cell::OnceCell::new(),
        scope_holds_shared: std::cell::RefCell::default(),
    }
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
    project.add_includers_template_calls(file_path, syntax);
}

/// Adds sites found through an includer, replacing this file's own lowering of the same
/// site (made without callers). Arrays declared in the includer keep their names; they
/// have no declaration in this file, so no label or fix points at them.
fn adopt_foreign_sites(lowered: &mut LoweredFile, other: LoweredFile) {
    lowered.reported_elsewhere.extend(other.reported_elsewhere);
    for mut site in other.sites {
        let Some(info) = other.arrays.get(site.array) else {
            continue;
        };
        let local = lowered.arrays.iter().position(|a| {
            a.name == info.name
                && (a.decl_span == info.decl_span || a.decl_span == crate::diag::Span::default())
        });
        // A site claimed at this file's call (in a third file's helper) is this file's
        // only when it reaches this file's own array.
        let own_array = local.and_then(|i| lowered.arrays.get(i)).is_some_and(|a| {
            !a.foreign
                && a.decl_span == info.decl_span
                && a.decl_span != crate::diag::Span::default()
        });
        if site.helper_text.is_some() && !own_array {
            continue;
        }
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
        // A lowering that takes a template value as any value (the includer does not
        // see the instantiations) does not replace one that fixed it, and is replaced by
        // one that does.
        let guess = rests_on_template_value(&site);
        let here = |s: &crate::model::site::AccessSite| {
            s.span == site.span && s.kind == site.kind && s.helper_span == site.helper_span
        };
        // This file's own lowering of the site, not one adopted through an includer.
        let own = |s: &crate::model::site::AccessSite| {
            s.foreign.is_none() && s.context.as_ref().is_none_or(|c| c.through.is_empty())
        };
        if guess
            && lowered
                .sites
                .iter()
                .any(|s| here(s) && !rests_on_template_value(s))
        {
            continue;
        }
        lowered
            .sites
            .retain(|s| !(here(s) && (own(s) || (!guess && rests_on_template_value(s)))));
        lowered.sites.push(site);
    }
}

/// True when the site's lowering took a template value as any value.
fn rests_on_template_value(s: &crate::model::site::AccessSite) -> bool {
    s.assumptions.iter().any(|a| a.template_value().is_some())
}

/// Sorts every shared array the file declares (at file scope or in one of its functions),
/// by every context its accesses were analysed in, into one of three states: accesses reported, accesses all `unknown`, or none found;
/// for the last, an `undecided-access` diagnostic says why.
fn array_states(
    syntax: &crate::extract::FileSyntax,
    lowered: &LoweredFile,
    analysed: &[AnalysedSite],
    text: &str,
    unfound: &mut Vec<rules::UnfoundArray>,
) -> crate::ArrayStates {
    let mut declared: Vec<(&crate::extract::ast::VarDecl, Option<crate::diag::Span>)> =
        syntax.global_shared.iter().map(|d| (d, None)).collect();
    for f in syntax.functions.iter().filter(|f| f.foreign_text.is_none()) {
        for st in &f.body {
            st.walk_decls(&mut |d| {
                if d.shared {
                    declared.push((d, Some(f.span)));
                }
            });
        }
    }
    let mut states = crate::ArrayStates::default();
    let mut seen = std::collections::HashSet::new();
    // Lookups by declaration and by array, not scans: a file may declare thousands.
    let mut by_span = std::collections::HashMap::new();
    for (i, a) in lowered.arrays.iter().enumerate() {
        by_span.entry(a.name_span).or_insert(i);
    }
    // Per array: (has a site, has a decided site).
    let mut found: Vec<(bool, bool)> = vec![(false, false); lowered.arrays.len()];
    for a in analysed {
        if let Some(f) = found.get_mut(a.site.array) {
            f.0 = true;
            f.1 |= a.verdict.cost.is_some();
        }
    }
    for (d, scope) in declared {
        if !seen.insert(d.name_span) {
            continue;
        }
        let index = by_span.get(&d.name_span).copied();
        let (any_site, decided) = index
            .and_then(|i| found.get(i).copied())
            .unwrap_or_default();
        if decided {
            states.reported += 1;
        } else if any_site {
            states.unknown += 1;
        } else {
            states.undecided += 1;
            let scope = scope.unwrap_or(crate::diag::Span::new(0, text.len()));
            let (reason, used) = why_no_access(d, scope, text, index.is_some());
            unfound.push(rules::UnfoundArray {
                name: d.name.clone(),
                span: d.name_span,
                reason,
                used,
            });
        }
    }
    states
}

/// Why no access of `d` was found, and where it is used when it is: its name never
/// appears again, or every use is in code that lowering does not follow.
fn why_no_access(
    d: &crate::extract::ast::VarDecl,
    scope: crate::diag::Span,
    text: &str,
    lowered: bool,
) -> (String, Option<crate::diag::Span>) {
    let body = text.get(scope.start..scope.end).unwrap_or("");
    // A use in a comment is not one (`// char* p = smem_ + 2;`).
    let first_use = crate::source::uses_of(body, &d.name)
        .into_iter()
        .map(|i| scope.start + i)
        .find(|&at| at != d.name_span.start);
    match first_use {
        None => (format!("`{}` is declared but never used", d.name), None),
        Some(at) => {
            let span = crate::diag::Span::new(at, at + d.name.len());
            let why = if lowered {
                "every use is in code bankcheck does not follow (a constructor, a member \
                 function of an object it cannot type, a call past the inlining budget, or a \
                 branch the preprocessor drops)"
            } else {
                "the code declaring it was not lowered (no kernel or caller reaches it, or \
                 the preprocessor drops it)"
            };
            // The code of the first use, on its line, as the user sees it.
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            let code: String = text[line_start..line_end].trim().chars().take(80).collect();
            (
                format!(
                    "no access to `{}` was found: it is first used in `{code}`, and {why}",
                    d.name
                ),
                Some(span),
            )
        }
    }
}

/// An access inside an inlined helper is reported at the call that supplies its address
/// (the line the user edits), one entry per call site; the helper's own span stays as a
/// secondary label.
fn report_at_calls(lowered: &mut LoweredFile) {
    for s in &mut lowered.sites {
        if let Some(call) = s.call.take() {
            s.helper_span = Some(s.span);
            s.span = call;
        }
    }
}

/// Keeps, of the sites in another file's helpers, those that reach an array this file
/// declares, moved to the call in this file that hands the array over (as an in-file
/// helper's access is, `report_at_calls`), the access's own place kept as `helper_span`
/// in `helper_text`; drops the rest, which are the other file's to report
/// (the header's side drops them by the same test).
fn claim_foreign_sites(lowered: &mut LoweredFile) {
    let arrays = &lowered.arrays;
    lowered.sites.retain_mut(|s| {
        let Some(text) = s.foreign.take() else {
            return true;
        };
        let Some(call) = s.owner_call.filter(|_| s.claimed_by_lowered_file(arrays)) else {
            return false;
        };
        s.move_to_owner_call(call, text);
        true
    });
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
    let open = |a: &Assumption| {
        shape_from_text
            || !matches!(
                a,
                Assumption::BlockShape(CandidateShape {
                    gap: ShapeGap::NothingFixes,
                    ..
                })
            )
    };
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

/// Analyses every site and keeps, per source site and kind, the worst context; also
/// returns every context analysed (the layout advisor verifies its fix on each) and the
/// site that took longest to analyse, for `--stats`.
type Analysed = (
    Vec<AnalysedSite>,
    Vec<AnalysedSite>,
    Option<(crate::diag::Span, Duration)>,
);

fn analyse_sites(lowered: &LoweredFile, settings: &Settings, cache: &VerdictCache) -> Analysed {
    let mut slowest: Option<(crate::diag::Span, Duration)> = None;
    let budget = Budget {
        max_lane_evals: settings.max_lane_evals,
        ..Budget::default()
    };
    let mut verdicts: Vec<Verdict> = Vec::with_capacity(lowered.sites.len());
    for site in &lowered.sites {
        let clock = Instant::now();
        let verdict = match &site.lowered {
            Err(reason) => Verdict::unknown(reason.words()),
            Ok(components) => {
                let mut total: Option<Verdict> = None;
                for c in components {
                    let v = cache.analyse(c, &settings.bank, budget);
                    let v = lanes_off::decide_without_guards(c, v, cache, &settings.bank, budget);
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
    unfollowed::undecide_conflicts(&lowered.sites, &mut verdicts);
    combine_type_variants(&lowered.sites, &mut verdicts);
    let mut out: Vec<AnalysedSite> = Vec::new();
    let mut every: Vec<AnalysedSite> = Vec::with_capacity(lowered.sites.len());
    // Per output entry, the verdicts of its candidate block shapes (see `combine_shapes`).
    let mut candidates: Vec<Vec<Candidate>> = Vec::new();
    // Where each source site went in `out`: a lookup, not a scan, per site.
    let mut slot: std::collections::HashMap<SiteKey, usize> = std::collections::HashMap::new();
    // Per output entry, whether no context of it can run (see `dead_branches`).
    let mut never_run: Vec<bool> = Vec::new();
    for (site, verdict) in lowered.sites.iter().zip(verdicts) {
        every.push(AnalysedSite {
            site: site.clone(),
            verdict: verdict.clone(),
        });
        let candidate = assumed_shape(site).map(|s| (*s, caller_of(site), verdict.clone()));
        let key = (site.span, site.helper_span, site.kind);
        let dead = dead_branches::never_runs(site);
        if let Some(&i) = slot.get(&key) {
            candidates[i].extend(candidate);
            never_run[i] &= dead;
            let existing = &mut out[i];
            if is_worse(&verdict, &existing.verdict) {
                existing.site = site.clone();
                existing.verdict = verdict;
            }
        } else {
            slot.insert(key, out.len());
            out.push(AnalysedSite {
                site: site.clone(),
                verdict,
            });
            candidates.push(candidate.into_iter().collect());
            never_run.push(dead);
        }
    }
    for (a, c) in out.iter_mut().zip(&candidates) {
        combine_shapes(a, c);
    }
    dead_branches::drop_dead_alternatives(&mut out, &never_run);
    (out, every, slowest)
}

/// A source site: where it is reported, the helper line it stands for, and its kind.
type SiteKey = (
    crate::diag::Span,
    Option<crate::diag::Span>,
    crate::diag::AccessKind,
);

/// The assumption of a site lowered under one candidate block shape, when nothing in the
/// code fixes the shape (`lower::shape`).
fn assumed_shape(site: &crate::model::site::AccessSite) -> Option<&CandidateShape> {
    site.assumptions
        .iter()
        .find_map(Assumption::candidate_shape)
}

/// The name `depends_on` gives the block shape when the verdict hinges on it.
const BLOCK_SHAPE: &str = "block shape";

/// One lowering of a source site under a candidate block shape: the shape, the kernel
/// (and includer) it was reached from, and its verdict.
type Candidate = (CandidateShape, String, Verdict);

/// The kernel a site's lowering started from, with the includer it went through: a
/// header's helper is reached from several kernels, whose verdicts the same candidate
/// shape may split.
fn caller_of(site: &crate::model::site::AccessSite) -> String {
    let root = site
        .function
        .called_from
        .last()
        .map_or(site.function.name.as_str(), |c| c.caller.as_str());
    match site.context.as_ref().and_then(|c| c.through.last()) {
        Some(through) => format!("`{root}` through `{through}`"),
        None => format!("`{root}`"),
    }
}

/// A site analysed under every candidate block shape (the worst already in `a`): definite
/// only when every candidate gives the same factor; otherwise the factor depends on the
/// block shape, which joins `depends_on`, and the condition says which shapes give what.
/// A family that had to be sampled proves no absence of conflicts.
fn combine_shapes(a: &mut AnalysedSite, candidates: &[Candidate]) {
    if candidates.is_empty() || a.verdict.cost.is_none() {
        return;
    }
    // Reached from several kernels: each shape is named with its kernel, so that one
    // shape is never said to give two factors.
    // When each kernel gets one factor whatever the shape, the kernel alone is named.
    let callers: std::collections::BTreeSet<&String> =
        candidates.iter().map(|(_, c, _)| c).collect();
    let factor_of = |v: &Verdict| v.cost.map(|c| c.factor());
    let per_caller = callers.len() > 1
        && callers.iter().all(|caller| {
            let mut factors = candidates
                .iter()
                .filter(|(_, c, _)| c == *caller)
                .map(|(_, _, v)| factor_of(v));
            let first = factors.next().flatten();
            factors.all(|f| f.zip(first).is_some_and(|(f, g)| (f - g).abs() < 1e-9))
        });
    // A shape that gives two factors, one per kernel, is named with its kernel (not when
    // one kernel alone gives it two: its instantiations, which the kernel's name would
    // not tell apart).
    let differ =
        |f: Option<f64>, g: Option<f64>| f.zip(g).is_none_or(|(f, g)| (f - g).abs() > 1e-9);
    let mut by_shape: std::collections::HashMap<String, Option<f64>> =
        std::collections::HashMap::new();
    let mut by_shape_caller: std::collections::HashMap<(String, &String), Option<f64>> =
        std::collections::HashMap::new();
    let (mut across, mut within) = (false, false);
    for (s, c, v) in candidates {
        let f = factor_of(v);
        across |= differ(*by_shape.entry(s.shape_words()).or_insert(f), f);
        within |= differ(*by_shape_caller.entry((s.shape_words(), c)).or_insert(f), f);
    }
    let split = across && !within;
    let reached: Vec<(String, f64)> = candidates
        .iter()
        .filter_map(|(s, c, v)| {
            let words = if per_caller {
                format!("every candidate block from {c}")
            } else if split {
                format!("{} from {c}", s.shape_words())
            } else {
                s.shape_words()
            };
            Some((words, factor_of(v)?))
        })
        .collect();
    let Some(worst) = a.verdict.cost.map(|c| c.factor()) else {
        return;
    };
    let sampled = candidates.iter().any(|(s, _, _)| s.sampled());
    let agree = reached.iter().all(|(_, f)| (f - worst).abs() < 1e-9);
    if !agree {
        let shapes_at = |pred: &dyn Fn(f64) -> bool| -> String {
            let mut names: Vec<&str> = reached
                .iter()
                .filter(|(_, f)| pred(*f))
                .map(|(s, _)| s.as_str())
                .collect();
            let mut seen = std::collections::HashSet::new();
            names.retain(|n| seen.insert(*n));
            let more = names.len().saturating_sub(3);
            names.truncate(3);
            let mut t = names.join(", ");
            if more > 0 {
                t = format!("{t} and {more} more");
            }
            t
        };
        let at_worst = shapes_at(&|f| (f - worst).abs() < 1e-9);
        let free = shapes_at(&|f| f <= 1.0 + 1e-9);
        let mut condition = format!(
            "{}-way with {at_worst}",
            crate::model::verdict::factor_number(worst)
        );
        if !free.is_empty() {
            condition = format!("{condition}; conflict-free with {free}");
        }
        if !per_caller && !a.verdict.depends_on.iter().any(|d| d == BLOCK_SHAPE) {
            a.verdict.depends_on.push(BLOCK_SHAPE.to_string());
        }
        a.verdict.condition = Some(match a.verdict.condition.take() {
            Some(c) => format!("{condition}; {c}"),
            None => condition,
        });
        a.verdict.condition_names_shapes = true;
    }
    if sampled {
        if worst > 1.0 + 1e-9 {
            a.verdict.lower_bound = true;
            a.verdict.exact = false;
            if !a.verdict.depends_on.iter().any(|d| d == BLOCK_SHAPE) {
                a.verdict.depends_on.push(BLOCK_SHAPE.to_string());
            }
        } else {
            let shapes: std::collections::BTreeSet<String> =
                candidates.iter().map(|(s, _, _)| s.shape_words()).collect();
            let mut v = Verdict::unknown(format!(
                "not proven: the block shape was sampled at {} candidate shapes",
                shapes.len()
            ));
            v.notes = std::mem::take(&mut a.verdict.notes);
            a.verdict = v;
        }
    }
}

/// Sites lowered once per element size of a type parameter nothing instantiates (see
/// `lower::templates`): when every size gives the same factor, that verdict, stated as
/// holding for every size; otherwise the worst, as a verdict that depends on the type,
/// with each size's factor. A size left undecided leaves the site undecided.
fn combine_type_variants(sites: &[crate::model::site::AccessSite], verdicts: &mut [Verdict]) {
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
        let same = |a: &crate::model::site::AccessSite, b: &crate::model::site::AccessSite| {
            a.span == b.span
                && a.helper_span == b.helper_span
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
                let unit = if sizes == ["1"] { "byte" } else { "bytes" };
                parts.push(format!("{way}-way at {} {unit}", sizes.join(", ")));
                k += 1;
            }
            // Decided for every size: the worst, as a verdict that hinges on the type,
            // with the factor of each size (as for values and block shapes).
            let worst = group
                .iter()
                .zip(&factors)
                .fold((group[0], factors[0].1), |w, (&j, &(_, f))| {
                    if f > w.1 + 1e-9 {
                        (j, f)
                    } else {
                        w
                    }
                })
                .0;
            let mut verdict = verdicts[worst].clone();
            verdict
                .depends_on
                .push(format!("{param}{}", crate::diag::TYPE_SUFFIX));
            let table = format!("by the size of `{param}`: {}", parts.join(", "));
            verdict.condition = Some(match verdict.condition.take() {
                Some(c) => format!("{table}; {c}"),
                None => table,
            });
            verdict
                .notes
                .push(crate::lower::templates::each_size_assumption(param));
            for &j in &group {
                verdicts[j] = verdict.clone();
            }
        }
    }
}

/// An undecided context makes the site undecided; otherwise the larger factor wins.
/// A context in which no lane reaches the access (another instantiation's branch) counts
/// only when no context does.
fn is_worse(a: &Verdict, b: &Verdict) -> bool {
    let unreached = |v: &Verdict| {
        v.cost.is_none() && v.reason == Some(crate::model::verdict::Undecided::NoLaneActive)
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
    let mut assumptions: Vec<String> = a.site.assumptions.iter().map(ToString::to_string).collect();
    assumptions.extend(a.verdict.notes.iter().cloned());
    AccessFacts {
        span: a.site.span,
        helper_span: a.site.helper_span,
        helper_elsewhere: None,
        array,
        pointer: a.site.pointer.clone(),
        kind: a.site.kind,
        element_bytes: a.site.element_bytes,
        status,
        conflict_factor: factor,
        wavefronts: a.verdict.cost.map(|w: Wavefronts| w.wavefronts),
        ideal_wavefronts: a.verdict.cost.map(|w| w.ideal),
        reason: a.verdict.reason.as_ref().map(ToString::to_string),
        assumptions,
        depends_on: a.verdict.depends_on.clone(),
        method: a.verdict.cost.map(|_| a.verdict.method.as_str()),
        exact: a.verdict.exact,
        factor_is_lower_bound: a.verdict.lower_bound && a.verdict.cost.is_some(),
        condition: a.verdict.condition.clone(),
        explanation: a.verdict.explanation.clone(),
        function: Some(a.site.function.to_string()),
    }
}
