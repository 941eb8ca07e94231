//! Which block shapes a kernel runs with: `[numthreads]`, an annotation comment,
//! lint.toml, launches in the same file, `__launch_bounds__`, or an assumption.

use super::interp::{Interp, Value};
use super::ir::{BlockShape, ShapeSource};
use crate::config::Settings;
use crate::extract::ast::{ExprKind, Stmt};
use crate::extract::FileSyntax;
use std::collections::HashMap;

/// The shapes to analyse `f` under, each with where it came from.
pub fn shapes_for(
    syn: &FileSyntax,
    text: &str,
    f_index: usize,
    settings: &Settings,
    extra: &HashMap<String, crate::extract::ast::Expr>,
) -> Vec<(BlockShape, ShapeSource)> {
    let f = &syn.functions[f_index];
    let mut arrays = Vec::new();
    let mut probe = probe(syn, text, &mut arrays, settings, extra);

    // HLSL: [numthreads(x, y, z)].
    if let Some(args) = &f.numthreads {
        let dims: Vec<Option<u32>> = args.iter().map(|a| to_u32(probe.const_eval(a))).collect();
        if let [Some(x), Some(y), Some(z)] = dims.as_slice() {
            return vec![(
                BlockShape {
                    x: *x,
                    y: *y,
                    z: *z,
                },
                ShapeSource::Known(format!("[numthreads({x}, {y}, {z})]")),
            )];
        }
    }
    // An annotation comment just above the function.
    if let Some(a) = syn
        .annotations
        .iter()
        .filter(|a| a.span.end <= f.span.start)
        .max_by_key(|a| a.span.end)
    {
        let between = text.get(a.span.end..f.span.start).unwrap_or("");
        if between.lines().count() <= 3 && !between.contains('}') && !between.contains(';') {
            let (x, y, z) = a.shape;
            return vec![(
                BlockShape { x, y, z },
                ShapeSource::Known(format!("block ({x}, {y}, {z}) from an annotation")),
            )];
        }
    }
    // lint.toml, by kernel name.
    if let Some(o) = settings.block_shapes.iter().find(|o| o.kernel == f.name) {
        let (x, y, z) = o.shape;
        return vec![(
            BlockShape { x, y, z },
            ShapeSource::Known(format!("block ({x}, {y}, {z}) from configuration")),
        )];
    }
    // Launches in the same file, then in other files of the run.
    let mut shapes = launch_shapes(syn, text, &f.name, settings, extra);
    if shapes.is_empty() {
        if let Some(list) = syn.external_launches.get(&f.name) {
            for ((x, y, z), place) in list {
                let s = BlockShape {
                    x: *x,
                    y: *y,
                    z: *z,
                };
                if !shapes.iter().any(|(t, _)| *t == s) {
                    shapes.push((
                        s,
                        ShapeSource::Known(format!(
                            "block ({x}, {y}, {z}) from the launch in {place}"
                        )),
                    ));
                }
            }
        }
    }
    if !shapes.is_empty() {
        return shapes;
    }
    if let Some(lb) = &f.launch_bounds {
        if let Some(n) = to_u32(probe.const_eval(lb)) {
            return vec![(
                BlockShape { x: n, y: 1, z: 1 },
                ShapeSource::Known(format!("block ({n}, 1, 1) from __launch_bounds__")),
            )];
        }
    }
    if let Some(o) = settings.block_shapes.iter().find(|o| o.kernel == "*") {
        let (x, y, z) = o.shape;
        return vec![(
            BlockShape { x, y, z },
            ShapeSource::Known(format!("block ({x}, {y}, {z}) from configuration")),
        )];
    }
    // HLSL helpers: the single [numthreads] entry of the file, if there is one.
    let entries: Vec<usize> = syn
        .functions
        .iter()
        .enumerate()
        .filter(|(_, g)| g.numthreads.is_some())
        .map(|(i, _)| i)
        .collect();
    if entries.len() == 1 && entries[0] != f_index {
        let mut s = shapes_for(syn, text, entries[0], settings, extra);
        for (_, src) in &mut s {
            if let ShapeSource::Known(t) = src {
                *t = format!("{t} of `{}`", syn.functions[entries[0]].name);
            }
        }
        return s;
    }
    let w = settings.bank.warp_size.max(1);
    let uses = |axis: &str| {
        text.get(f.span.start..f.span.end)
            .is_some_and(|t| t.contains(&format!("threadIdx.{axis}")))
    };
    let shape = if uses("z") {
        BlockShape { x: w, y: 4, z: 2 }
    } else if uses("y") {
        BlockShape { x: w, y: 8, z: 1 }
    } else {
        BlockShape {
            x: 8 * w,
            y: 1,
            z: 1,
        }
    };
    vec![(shape, ShapeSource::Assumed(format!("block ({}, {}, {}) assumed: nothing in the file fixes the block shape; set it with `// bankcheck: block(x, y, z)` or lint.toml", shape.x, shape.y, shape.z)))]
}

/// An interpreter for evaluating constant expressions of the file (launch arguments,
/// `[numthreads]`), outside any function.
fn probe<'a>(
    syn: &'a FileSyntax,
    text: &'a str,
    arrays: &'a mut Vec<crate::lower::site::ArrayInfo>,
    settings: &Settings,
    extra: &'a HashMap<String, crate::extract::ast::Expr>,
) -> Interp<'a> {
    let shape = BlockShape { x: 32, y: 1, z: 1 };
    Interp::new(
        syn,
        text,
        arrays,
        shape,
        ShapeSource::Assumed(String::new()),
        settings.bank.warp_size,
        String::new(),
        extra,
    )
}

/// A positive `u32` from an evaluated constant.
fn to_u32(v: Option<i64>) -> Option<u32> {
    v.and_then(|v| u32::try_from(v).ok()).filter(|v| *v > 0)
}

/// The distinct block shapes of the launches of `kernel` in this file.
pub fn launch_shapes(
    syn: &FileSyntax,
    text: &str,
    kernel: &str,
    settings: &Settings,
    extra: &HashMap<String, crate::extract::ast::Expr>,
) -> Vec<(BlockShape, ShapeSource)> {
    launch_shapes_and_completeness(syn, text, kernel, settings, extra).0
}

/// [`launch_shapes`], and whether every launch of `kernel` gave a shape (when one did
/// not, the definitions of included headers may fix it).
pub fn launch_shapes_and_completeness(
    syn: &FileSyntax,
    text: &str,
    kernel: &str,
    settings: &Settings,
    extra: &HashMap<String, crate::extract::ast::Expr>,
) -> (Vec<(BlockShape, ShapeSource)>, bool) {
    let mut complete = true;
    let mut arrays = Vec::new();
    let mut probe = probe(syn, text, &mut arrays, settings, extra);
    let mut shapes: Vec<(BlockShape, ShapeSource)> = Vec::new();
    for l in syn.launches_of(kernel) {
        // Locals of the launching function declared before the launch (`const int rows = 16;
        // dim3 block(rows);`) are in scope for the launch's block argument.
        probe.push_scope();
        if let Some(fi) = l.in_function {
            bind_locals_before(&mut probe, &syn.functions[fi].body, l.span.start);
        }
        let v = match (&l.block.kind, l.in_function) {
            (ExprKind::Ident(name), Some(fi)) => {
                // `dim3 block(TILE, ROWS); kernel<<<grid, block>>>`: find the local's initialiser.
                match find_local_init(&syn.functions[fi].body, name) {
                    Some(init) => probe.eval(&init),
                    None => probe.eval(&l.block),
                }
            }
            _ => probe.eval(&l.block),
        };
        probe.pop_scope();
        let shape = match v {
            Value::Int(i) => to_u32(i.as_const()).map(|x| BlockShape { x, y: 1, z: 1 }),
            Value::Vector(c) => {
                let d: Vec<Option<u32>> = c
                    .iter()
                    .map(|v| {
                        if let Value::Int(i) = v {
                            to_u32(i.as_const())
                        } else {
                            None
                        }
                    })
                    .collect();
                match d.as_slice() {
                    [Some(x), Some(y), Some(z)] => Some(BlockShape {
                        x: *x,
                        y: *y,
                        z: *z,
                    }),
                    _ => None,
                }
            }
            _ => None,
        };
        complete &= shape.is_some();
        if let Some(s) = shape {
            if !shapes.iter().any(|(t, _)| *t == s) {
                let line = crate::diag::line_of(&syn.line_starts, l.span.start);
                shapes.push((
                    s,
                    ShapeSource::Known(format!(
                        "block ({}, {}, {}) from the launch on line {line}",
                        s.x, s.y, s.z
                    )),
                ));
            }
        }
    }
    (shapes, complete)
}

/// Binds, in `probe`, every local declared with an initialiser before byte `before`.
fn bind_locals_before(probe: &mut Interp, body: &[Stmt], before: usize) {
    for s in body {
        match s {
            Stmt::Decl(ds) => {
                for d in ds {
                    if d.span.end > before || !d.extents.is_empty() {
                        continue;
                    }
                    if let Some(init) = &d.init {
                        let v = probe.eval(init);
                        probe.bind_value(&d.name, v);
                    }
                }
            }
            Stmt::Block(b) => bind_locals_before(probe, b, before),
            _ => {}
        }
    }
}

fn find_local_init(body: &[Stmt], name: &str) -> Option<crate::extract::ast::Expr> {
    for s in body {
        match s {
            Stmt::Decl(ds) => {
                if let Some(d) = ds.iter().find(|d| d.name == name) {
                    return d.init.clone();
                }
            }
            Stmt::Block(b) => {
                if let Some(e) = find_local_init(b, name) {
                    return Some(e);
                }
            }
            Stmt::If {
                then, otherwise, ..
            } => {
                if let Some(e) = find_local_init(std::slice::from_ref(then), name) {
                    return Some(e);
                }
                if let Some(o) = otherwise {
                    if let Some(e) = find_local_init(std::slice::from_ref(o), name) {
                        return Some(e);
                    }
                }
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => {
                if let Some(e) = find_local_init(std::slice::from_ref(body), name) {
                    return Some(e);
                }
            }
            _ => {}
        }
    }
    None
}
