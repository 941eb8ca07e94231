//! Lowering: from extracted syntax to access sites whose addresses are index-IR
//! expressions over thread, loop and uniform variables (see [`ir`]).
//!
//! Every function that touches shared memory is interpreted once per block shape it
//! may run with ([`shape`]); the same source site may therefore appear several times,
//! once per context, and the pipeline keeps the worst.

pub mod affine;
pub mod induction;
pub mod interp;
pub mod ir;
pub mod shape;
pub mod site;
pub mod templates;

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
        // Non-type template parameters: their defaults, unless an instantiation sets them.
        let mut constants = defines.clone();
        for tp in &f.template_params {
            if let (false, Some(d)) = (tp.is_type, &tp.default) {
                constants.insert(tp.name.clone(), d.clone());
            }
        }
        // Every distinct instantiation, named when there are several.
        let mut insts = templates::instantiations(syn, f, text);
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
            let label = named.then(|| templates::describe(&inst, f));
            let types = inst.types.clone();
            let mut constants = constants.clone();
            for (name, v) in &inst.values {
                constants.insert(name.clone(), v.clone());
            }
            let shapes = shape::shapes_for(syn, text, fi, settings, &constants);
            let mut sites = lower_function(
                syn,
                text,
                &mut out.arrays,
                f,
                &shapes,
                settings,
                &constants,
                &types,
            );
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
                        .filter_map(|s| s.lowered.as_ref().err().map(String::as_str)),
                )
            };
            if let Some(p) = needed {
                sites.clear();
                for (size, ty) in templates::ELEMENT_SIZES {
                    let mut t = types.clone();
                    t.insert(p.clone(), crate::extract::convert::type_from_text(ty));
                    let mut vs = lower_function(
                        syn,
                        text,
                        &mut out.arrays,
                        f,
                        &shapes,
                        settings,
                        &constants,
                        &t,
                    );
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
                    s.assumptions.push(format!(
                        "only {} of the {total} instantiations of `{}` were analysed",
                        templates::MAX_INSTANTIATIONS,
                        f.name
                    ));
                }
            }
            out.sites.extend(sites);
        }
    }
    // Shared arrays declared at file scope but never accessed still count as arrays.
    out
}

/// Lowers one function under each of its block shapes with the given type arguments.
#[allow(clippy::too_many_arguments)]
fn lower_function(
    syn: &FileSyntax,
    text: &str,
    arrays: &mut Vec<site::ArrayInfo>,
    f: &crate::extract::ast::Function,
    shapes: &[(ir::BlockShape, ir::ShapeSource)],
    settings: &Settings,
    constants: &HashMap<String, Expr>,
    types: &templates::TypeArgs,
) -> Vec<site::AccessSite> {
    let mut out = Vec::new();
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
        if let Some(ws) = &f.wave_size {
            if let Some(w) = interp
                .const_eval(ws)
                .and_then(|w| u32::try_from(w).ok())
                .filter(|w| *w > 0)
            {
                interp.warp_size = w;
            }
        }
        interp.type_args.clone_from(types);
        interp.bind_params(f);
        interp.block(&f.body);
        out.append(&mut interp.sites);
    }
    out
}

/// Names of non-kernel functions called by some function of the file.
pub fn called_helpers(syn: &FileSyntax) -> std::collections::HashSet<String> {
    fn walk_expr(e: &Expr, out: &mut std::collections::HashSet<String>) {
        match &e.kind {
            ExprKind::Call { callee, args, .. } => {
                // `helper<16>(...)` written as one name calls `helper`.
                let name = callee.split('<').next().unwrap_or(callee);
                out.insert(name.rsplit("::").next().unwrap_or(name).to_string());
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
