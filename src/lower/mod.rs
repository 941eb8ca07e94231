//! Lowering: from extracted syntax to access sites whose addresses are index-IR
//! expressions over thread, loop and uniform variables (see [`ir`]).
//!
//! Every function that touches shared memory is lowered once per block shape it may run
//! with ([`shape`]); the same source site may therefore appear several times, once per
//! context, and the pipeline keeps the worst. A shape that the interpreter would follow
//! alike (see [`shape_reads`]) takes a copy of an earlier shape's sites.

pub mod affine;
mod assigned_memo;
pub(crate) mod cute;
mod fold;
pub mod host_args;
mod host_constants;
pub mod induction;
pub mod interp;
pub mod purity;
pub mod real;
pub mod shape;
mod shape_reads;
mod steps;
pub mod templates;
pub mod value;
pub mod vector;

use crate::config::Settings;
use crate::extract::ast::{Expr, ExprKind};
use crate::extract::FileSyntax;
use crate::model::{ir, site, site::LoweredFile};
use interp::Interp;
use std::collections::HashMap;

/// Lowers every shared-memory access of a file.
pub fn lower_file(syn: &FileSyntax, text: &str, settings: &Settings) -> LoweredFile {
    lower_roots(syn, text, settings, None)
}

/// Lowers the kernels of an included file (`header`, the text its functions carry) in
/// the context of the including file `syn`: its macros, constants and launches. A
/// header's kernel sized by macros its includers define before the `#include` is
/// decided that way, once per includer.
pub fn lower_kernels_of(
    syn: &FileSyntax,
    text: &str,
    settings: &Settings,
    header: &std::sync::Arc<str>,
) -> LoweredFile {
    lower_roots(syn, text, settings, Some(header))
}

/// Lowers the file's own kernels and uncalled helpers, or with `header`, only the
/// kernels of that included file.
fn lower_roots(
    syn: &FileSyntax,
    text: &str,
    settings: &Settings,
    header: Option<&std::sync::Arc<str>>,
) -> LoweredFile {
    templates::start_file();
    let mut out = LoweredFile::default();
    let mut defines: HashMap<String, Expr> = HashMap::new();
    for (name, value) in &settings.defines {
        // Every define counts for `#ifdef`; an integer or a name is also a value.
        let value = value.trim();
        let kind = if let Ok(v) = value.parse::<i64>() {
            ExprKind::Int(v)
        } else if !value.is_empty() && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            ExprKind::Ident(value.to_string())
        } else {
            ExprKind::Opaque
        };
        defines.insert(
            name.clone(),
            Expr {
                span: crate::diag::Span::default(),
                kind,
            },
        );
    }
    // Helpers called from other functions of the file are analysed through their callers.
    let called = called_helpers(syn);
    let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, f) in syn.functions.iter().enumerate() {
        by_name.entry(f.name.clone()).or_default().push(i);
    }
    let owners = syn
        .functions
        .iter()
        .filter_map(|f| f.owner.clone())
        .collect();
    let mut helpers = Helpers {
        by_name,
        owners,
        float_only: purity::float_only_helpers(syn),
        touching: purity::touching_helpers(syn),
        reached: std::collections::HashSet::new(),
    };
    let naming_shared = purity::naming_shared(syn);
    // `out.arrays` by declaration span (see `Interp::array_index`).
    let mut array_index: foldhash::HashMap<crate::diag::Span, usize> = foldhash::HashMap::default();
    // Pass 0: kernels and helpers nothing calls. Pass 1: called helpers that name a
    // shared variable and that no call reached (past the inlining depth or budget, or
    // called only from unlowered code): analysed on their own rather than lost.
    for pass in 0..2 {
        for (fi, f) in syn.functions.iter().enumerate() {
            // Helpers of another file are analysed only through the calls that reach them.
            let is_called = !f.is_kernel && called.contains(&f.name);
            // A member function is reached through calls on its object or type only;
            // one naming a shared variable that no call reached is lowered on its own.
            let is_called = is_called || f.owner.is_some() || f.captures;
            let wanted = if pass == 0 {
                !is_called
            } else {
                is_called && !helpers.reached.contains(&f.name) && naming_shared.contains(&f.name)
            };
            // Kept for its launches or as a kernel, but on its own it cannot reach shared
            // memory (see `extract::extract_relevant`).
            let root = match header {
                None => f.foreign_text.is_none(),
                Some(h) => {
                    f.is_kernel
                        && f.foreign_text
                            .as_ref()
                            .is_some_and(|t| std::sync::Arc::ptr_eq(t, h))
                }
            };
            if !wanted || !root || syn.no_shared_memory.get(fi).copied().unwrap_or(false) {
                continue;
            }
            // Non-type template parameters: their defaults, unless an instantiation sets them.
            let mut constants = defines.clone();
            for tp in &f.template_params {
                if let (false, Some(d)) = (tp.is_type, &tp.default) {
                    constants.insert(tp.name.clone(), d.clone());
                }
            }
            // Every distinct instantiation, named when there are several.
            let mut insts =
                templates::distinct_types_first(templates::instantiations(syn, f, text));
            let total = insts.len();
            insts.truncate(templates::MAX_INSTANTIATIONS);
            let named = insts.len() > 1;
            let contexts: Vec<templates::Instantiation> = if insts.is_empty() {
                vec![templates::Instantiation::default()]
            } else {
                insts
            };
            let aliases = templates::dependent_aliases(f, text);
            for (ci, inst) in contexts.into_iter().enumerate() {
                let label = named.then(|| templates::describe(&inst, f, text));
                let types = inst.types.clone();
                let host_args = &inst.host_args;
                let mut constants = constants.clone();
                for (name, v) in &inst.values {
                    constants.insert(name.clone(), v.clone());
                }
                let shapes = shape::shapes_for(syn, text, fi, settings, &constants);
                let mut lower = |types: &templates::TypeArgs| {
                    lower_function(
                        syn,
                        text,
                        (&mut out.arrays, &mut array_index),
                        f,
                        &shapes,
                        settings,
                        &constants,
                        (types, host_args),
                        &mut helpers,
                    )
                };
                let mut sites = lower(&types);
                // A type parameter nothing fixes that some access needs: try every element size.
                let needed = if syn.hlsl {
                    None
                } else {
                    templates::unfixed_param_needed(
                        f,
                        &types,
                        &aliases,
                        sites
                            .iter()
                            .filter_map(|s| s.lowered.as_ref().err())
                            .filter_map(|r| r.unknown_types().first())
                            .map(String::as_str),
                    )
                };
                if let Some(p) = needed {
                    sites.clear();
                    for (size, ty) in templates::ELEMENT_SIZES {
                        let mut t = types.clone();
                        t.insert(p.clone(), crate::extract::convert::type_from_text(ty));
                        t.insert(
                            templates::STAND_IN.into(),
                            crate::extract::convert::type_from_text(ty),
                        );
                        let mut vs = lower(&t);
                        for s in &mut vs {
                            s.type_variant = Some((p.clone(), size));
                        }
                        sites.extend(vs);
                    }
                }
                // A function with no shared access in one instantiation has none in the others
                // (every branch is walked whatever its condition).
                if ci == 0 && sites.is_empty() {
                    break;
                }
                for s in &mut sites {
                    s.instantiation.clone_from(&label);
                    if total > templates::MAX_INSTANTIATIONS {
                        s.assumptions.push(
                            crate::model::assumption::Assumption::SomeInstantiations {
                                analysed: templates::MAX_INSTANTIATIONS,
                                total,
                                function: f.name.clone(),
                            },
                        );
                    }
                }
                out.sites.extend(sites);
            }
        }
    }
    // Shared arrays declared at file scope but never accessed still count as arrays.
    out
}

/// What lowering learns about helpers across the functions of a file.
struct Helpers {
    /// The file's functions by name, for resolving calls.
    by_name: HashMap<String, Vec<usize>>,
    /// The structs and classes that own a member function.
    owners: std::collections::HashSet<String>,
    /// Helpers whose calls give floating-point data without inlining.
    float_only: std::collections::HashSet<String>,
    /// Helpers that can hold an access.
    touching: std::collections::HashSet<String>,
    /// Helpers inlined from some function lowered so far.
    reached: std::collections::HashSet<String>,
}

/// Lowers one function under each of its block shapes with the given type arguments and
/// host-built arguments.
#[allow(clippy::too_many_arguments)]
fn lower_function(
    syn: &FileSyntax,
    text: &str,
    (arrays, array_index): (
        &mut Vec<site::ArrayInfo>,
        &mut foldhash::HashMap<crate::diag::Span, usize>,
    ),
    f: &crate::extract::ast::Function,
    shapes: &[(ir::BlockShape, crate::model::assumption::ShapeSource)],
    settings: &Settings,
    constants: &HashMap<String, Expr>,
    (types, host_args): (&templates::TypeArgs, &[(String, host_args::HostArg)]),
    helpers: &mut Helpers,
) -> Vec<site::AccessSite> {
    let mut out = Vec::new();
    // The lowerings made so far, for the shapes that would lower alike.
    let mut done: Vec<DoneLowering> = Vec::new();
    for (block, source) in shapes {
        let mut interp = Interp::new(
            syn,
            text,
            arrays,
            *block,
            source.clone(),
            settings.bank.warp_size,
            f.name.clone(),
            constants,
        );
        // Another shape that answers every question this lowering asked alike: its sites
        // with this shape, at the same cost to the file's budget. Only when interpreting
        // again would take the same path: that lowering ran within its budget and this
        // one's is larger, or both start with the same budget (it only matters once spent).
        let left = interp.steps_left();
        if let Some(d) = done.iter().find(|d| {
            d.reads.same_lowering(d.block, *block)
                && ((d.within && d.spent < left) || d.start == left)
        }) {
            interp.take_steps(d.spent);
            interp.finish();
            let sites: Vec<site::AccessSite> = out[d.sites.clone()]
                .iter()
                .map(|s| shape_reads::restamp(s, &d.source, (*block, source)))
                .collect();
            out.extend(sites);
            continue;
        }
        if let Some(ws) = &f.wave_size {
            if let Some(w) = interp
                .const_eval(ws)
                .and_then(|w| u32::try_from(w).ok())
                .filter(|w| *w > 0)
            {
                interp.warp_size = w;
            }
        }
        interp.array_index = Some(&mut *array_index);
        interp.enter_foreign(f);
        interp.type_args.clone_from(types);
        interp.host_args = host_args.to_vec();
        interp.float_only = Some(&helpers.float_only);
        interp.touching = Some(&helpers.touching);
        interp.functions_by_name = Some(&helpers.by_name);
        interp.member_owners = Some(&helpers.owners);
        interp.bind_params(f);
        interp.bind_template_values(f);
        interp.block(&f.body);
        let start = interp.steps_start();
        let spent = start - interp.steps_left();
        let within = !interp.out_of_steps();
        interp.finish();
        let first = out.len();
        out.append(&mut interp.sites);
        helpers.reached.extend(std::mem::take(&mut interp.inlined));
        done.push(DoneLowering {
            block: *block,
            source: source.clone(),
            reads: std::mem::take(&mut interp.shape_reads),
            start,
            spent,
            within,
            sites: first..out.len(),
        });
    }
    out
}

/// One lowering of a function under one of its shapes, kept for the shapes after it.
struct DoneLowering {
    block: ir::BlockShape,
    source: crate::model::assumption::ShapeSource,
    /// What the lowering asked of `block`.
    reads: shape_reads::ShapeReads,
    /// The steps it started with and spent, and whether they sufficed.
    start: u64,
    spent: u64,
    within: bool,
    /// Its sites in the output.
    sites: std::ops::Range<usize>,
}

/// Names of the helpers that can hold an access (see [`purity::touching_helpers`]).
pub fn touching_helpers(syn: &FileSyntax) -> std::collections::HashSet<String> {
    purity::touching_helpers(syn)
}

/// Names of the functions that reach shared memory of their own (see
/// [`purity::reaching_shared`]).
pub fn reaching_shared(syn: &FileSyntax, text: &str) -> std::collections::HashSet<String> {
    purity::reaching_shared(syn, text)
}

/// Names of non-kernel functions called by some function of the file.
pub fn called_helpers(syn: &FileSyntax) -> std::collections::HashSet<String> {
    purity::callees(syn)
}
