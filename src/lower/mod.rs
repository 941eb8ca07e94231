//! Lowering: from extracted syntax to access sites whose addresses are index-IR
//! expressions over thread, loop and uniform variables (see [`ir`]).
//!
//! Every function that touches shared memory is interpreted once per block shape it
//! may run with ([`shape`]); the same source site may therefore appear several times,
//! once per context, and the pipeline keeps the worst.

pub mod affine;
pub mod interp;
pub mod ir;
pub mod purity;
pub mod shape;
pub mod site;

use crate::config::Settings;
use crate::extract::ast::{Expr, ExprKind};
use crate::extract::FileSyntax;
use interp::Interp;
use site::LoweredFile;
use std::collections::HashMap;

/// Lowers every shared-memory access of a file.
pub fn lower_file(syn: &FileSyntax, text: &str, settings: &Settings) -> LoweredFile {
    let mut out = LoweredFile::default();
    let mut defines: HashMap<String, Expr> = HashMap::new();
    for (name, value) in &settings.defines {
        if let Ok(v) = value.trim().parse::<i64>() {
            defines.insert(
                name.clone(),
                Expr {
                    span: crate::diag::Span::default(),
                    kind: ExprKind::Int(v),
                },
            );
        }
    }
    // Helpers called from other functions of the file are analysed through their callers.
    let called = called_helpers(syn);
    let float_only = purity::float_only_helpers(syn);
    let naming_shared = purity::naming_shared(syn);
    // Helpers reached by inlining from some function lowered so far.
    let mut reached: std::collections::HashSet<String> = std::collections::HashSet::new();
    // Pass 0: kernels and helpers nothing calls. Pass 1: called helpers that name a
    // shared variable and that no call reached (past the inlining depth or budget, or
    // called only from unlowered code): analysed on their own rather than lost.
    for pass in 0..2 {
        for (fi, f) in syn.functions.iter().enumerate() {
            // Helpers of another file are analysed only through the calls that reach them.
            let is_called = !f.is_kernel && called.contains(&f.name);
            let wanted = if pass == 0 {
                !is_called
            } else {
                is_called && !reached.contains(&f.name) && naming_shared.contains(&f.name)
            };
            if !wanted || f.foreign_text.is_some() {
                continue;
            }
            // Template parameters: defaults, or the arguments of a launch in this file.
            let mut constants = defines.clone();
            let launch_args = syn
                .launches
                .iter()
                .find(|l| l.kernel == f.name && !l.template_args.is_empty())
                .map(|l| l.template_args.clone());
            let mut type_args: HashMap<String, crate::extract::ast::TypeName> = HashMap::new();
            let explicit = syn
                .instantiations
                .iter()
                .find(|(k, _)| *k == f.name)
                .map(|(_, a)| a.clone());
            let launch_args = launch_args.or(explicit);
            for (i, tp) in f.template_params.iter().enumerate() {
                if tp.is_type {
                    // A type argument from a launch or an explicit instantiation, else the default.
                    let from_args = launch_args
                        .as_ref()
                        .and_then(|a| a.get(i))
                        .map(|t| crate::extract::convert::type_from_text(t));
                    let from_default = match tp.default.as_ref().map(|d| &d.kind) {
                        Some(ExprKind::Ident(t)) => {
                            Some(crate::extract::convert::type_from_text(t))
                        }
                        _ => None,
                    };
                    if let Some(t) = from_args.or(from_default) {
                        type_args.insert(tp.name.clone(), t);
                    }
                    continue;
                }
                let from_launch = launch_args
                    .as_ref()
                    .and_then(|a| a.get(i))
                    .and_then(|t| crate::extract::convert::parse_int(t.trim()));
                if let Some(v) = from_launch {
                    constants.insert(
                        tp.name.clone(),
                        Expr {
                            span: crate::diag::Span::default(),
                            kind: ExprKind::Int(v),
                        },
                    );
                } else if let Some(d) = &tp.default {
                    constants.insert(tp.name.clone(), d.clone());
                }
            }
            let shapes = shape::shapes_for(syn, text, fi, settings, &constants);
            for (block, source) in shapes {
                let mut warp = settings.bank.warp_size;
                let mut interp = Interp::new(
                    syn,
                    text,
                    &mut out.arrays,
                    block,
                    source.clone(),
                    warp,
                    f.name.clone(),
                    &constants,
                );
                if let Some(ws) = &f.wave_size {
                    if let Some(w) = interp
                        .const_eval(ws)
                        .and_then(|w| u32::try_from(w).ok())
                        .filter(|w| *w > 0)
                    {
                        warp = w;
                        interp.warp_size = w;
                    }
                }
                interp.type_args.clone_from(&type_args);
                interp.float_only = Some(&float_only);
                interp.bind_params(f);
                interp.block(&f.body);
                let _ = warp;
                let sites = std::mem::take(&mut interp.sites);
                reached.extend(std::mem::take(&mut interp.inlined));
                out.sites.extend(sites);
            }
        }
    }
    // Shared arrays declared at file scope but never accessed still count as arrays.
    out
}

/// Names of non-kernel functions called by some function of the file.
pub fn called_helpers(syn: &FileSyntax) -> std::collections::HashSet<String> {
    purity::callees(syn)
}
