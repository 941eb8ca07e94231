//! Lowering: from extracted syntax to access sites whose addresses are index-IR
//! expressions over thread, loop and uniform variables (see [`ir`]).
//!
//! Every function that touches shared memory is interpreted once per block shape it
//! may run with ([`shape`]); the same source site may therefore appear several times,
//! once per context, and the pipeline keeps the worst.

pub mod affine;
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
    for (fi, f) in syn.functions.iter().enumerate() {
        // Helpers of another file are analysed only through the calls that reach them.
        if (!f.is_kernel && called.contains(&f.name)) || f.foreign_text.is_some() {
            continue;
        }
        // Kept for its launches or as a kernel, but on its own it cannot reach shared memory.
        if syn.no_shared_memory.get(fi).copied().unwrap_or(false) {
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
                    Some(ExprKind::Ident(t)) => Some(crate::extract::convert::type_from_text(t)),
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

/// Names of non-kernel functions called by some function of the file.
pub fn called_helpers(syn: &FileSyntax) -> std::collections::HashSet<String> {
    fn walk_expr(e: &Expr, out: &mut std::collections::HashSet<String>) {
        match &e.kind {
            ExprKind::Call { callee, args, .. } => {
                out.insert(callee.rsplit("::").next().unwrap_or(callee).to_string());
                for a in args {
                    walk_expr(a, out);
                }
            }
            ExprKind::Member(b, _)
            | ExprKind::Unary(_, b)
            | ExprKind::IncDec(b, _)
            | ExprKind::Cast(_, b)
            | ExprKind::SizeofExpr(b) => walk_expr(b, out),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
                walk_expr(a, out);
                walk_expr(b, out);
            }
            ExprKind::Cond(a, b, c) => {
                walk_expr(a, out);
                walk_expr(b, out);
                walk_expr(c, out);
            }
            ExprKind::Comma(items) => items.iter().for_each(|a| walk_expr(a, out)),
            _ => {}
        }
    }
    fn walk_stmt(s: &crate::extract::ast::Stmt, out: &mut std::collections::HashSet<String>) {
        use crate::extract::ast::Stmt;
        match s {
            Stmt::Decl(ds) => ds
                .iter()
                .filter_map(|d| d.init.as_ref())
                .for_each(|e| walk_expr(e, out)),
            Stmt::Expr(e) | Stmt::Return(Some(e)) => walk_expr(e, out),
            Stmt::Block(b) => b.iter().for_each(|s| walk_stmt(s, out)),
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                walk_expr(cond, out);
                walk_stmt(then, out);
                if let Some(o) = otherwise {
                    walk_stmt(o, out);
                }
            }
            Stmt::For {
                init,
                cond,
                update,
                body,
                ..
            } => {
                for s in init {
                    walk_stmt(s, out);
                }
                if let Some(c) = cond {
                    walk_expr(c, out);
                }
                for e in update {
                    walk_expr(e, out);
                }
                walk_stmt(body, out);
            }
            Stmt::While { cond, body, .. } | Stmt::Switch { cond, body } => {
                walk_expr(cond, out);
                walk_stmt(body, out);
            }
            _ => {}
        }
    }
    let mut out = std::collections::HashSet::new();
    for f in &syn.functions {
        f.body.iter().for_each(|s| walk_stmt(s, &mut out));
    }
    out
}
