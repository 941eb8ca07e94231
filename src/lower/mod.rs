//! Lowering: from extracted syntax to access sites whose addresses are index-IR
//! expressions over thread, loop and uniform variables (see [`ir`]).
//!
//! Every function that touches shared memory is interpreted once per block shape it
//! may run with ([`shape`]); the same source site may therefore appear several times,
//! once per context, and the pipeline keeps the worst.

pub mod interp;
pub mod ir;

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
            defines.insert(name.clone(), Expr { span: crate::diag::Span::default(), kind: ExprKind::Int(v) });
        }
    }
    for (fi, f) in syn.functions.iter().enumerate() {
        // Template parameters: defaults, or the arguments of a launch in this file.
        let mut constants = defines.clone();
        let launch_args = syn.launches.iter().find(|l| l.kernel == f.name && !l.template_args.is_empty()).map(|l| l.template_args.clone());
        for (i, tp) in f.template_params.iter().enumerate() {
            if tp.is_type {
                continue;
            }
            let from_launch = launch_args.as_ref().and_then(|a| a.get(i)).and_then(|t| crate::extract::convert::parse_int(t.trim()));
            if let Some(v) = from_launch {
                constants.insert(tp.name.clone(), Expr { span: crate::diag::Span::default(), kind: ExprKind::Int(v) });
            } else if let Some(d) = &tp.default {
                constants.insert(tp.name.clone(), d.clone());
            }
        }
        let shapes = shape::shapes_for(syn, text, fi, settings, &constants);
        for (block, source) in shapes {
            let mut warp = settings.bank.warp_size;
            let mut interp = Interp::new(syn, text, &mut out.arrays, block, source.clone(), warp, f.name.clone(), &constants);
            if let Some(ws) = &f.wave_size {
                if let Some(w) = interp.const_eval(ws).and_then(|w| u32::try_from(w).ok()).filter(|w| *w > 0) {
                    warp = w;
                    interp.warp_size = w;
                }
            }
            interp.bind_params(f);
            interp.block(&f.body);
            let _ = warp;
            let sites = std::mem::take(&mut interp.sites);
            out.sites.extend(sites);
        }
    }
    // Shared arrays declared at file scope but never accessed still count as arrays.
    out
}
