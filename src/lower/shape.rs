//! Which block shapes a kernel runs with: `[numthreads]`, an annotation comment,
//! lint.toml, launches in the same file, `__launch_bounds__`, or, when nothing fixes the
//! shape, every candidate of the family the code allows ([`candidate_shapes`]).

use super::interp::Interp;
use super::value::Value;
use crate::config::Settings;
use crate::extract::ast::{ExprKind, Stmt};
use crate::extract::FileSyntax;
use crate::model::assumption::ShapeSource;
use crate::model::assumption::{CandidateShape, ShapeGap, ShapeOrigin};
use crate::model::ir::BlockShape;
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

    // HLSL: [numthreads(x, y, z)]; the dimensions it fixes when it does not fix all.
    let mut fixed = [None; 3];
    if let Some(args) = &f.numthreads {
        let dims: Vec<Option<u32>> = args.iter().map(|a| to_u32(probe.const_eval(a))).collect();
        for (slot, d) in fixed.iter_mut().zip(&dims) {
            *slot = *d;
        }
        if let [Some(x), Some(y), Some(z)] = dims.as_slice() {
            return vec![(
                BlockShape {
                    x: *x,
                    y: *y,
                    z: *z,
                },
                ShapeSource::Known(
                    BlockShape {
                        x: *x,
                        y: *y,
                        z: *z,
                    },
                    ShapeOrigin::NumThreads,
                ),
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
                ShapeSource::Known(BlockShape { x, y, z }, ShapeOrigin::Annotation),
            )];
        }
    }
    // lint.toml, by kernel name.
    if let Some(o) = settings.block_shapes.iter().find(|o| o.kernel == f.name) {
        let (x, y, z) = o.shape;
        return vec![(
            BlockShape { x, y, z },
            ShapeSource::Known(BlockShape { x, y, z }, ShapeOrigin::Configuration),
        )];
    }
    // Launches in the same file, then in other files of the run.
    let launches = launch_extents(syn, text, &f.name, settings, extra);
    let mut shapes = shapes_of_launches(syn, &launches).0;
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
                        ShapeSource::Known(s, ShapeOrigin::LaunchIn(place.clone())),
                    ));
                }
            }
        }
    }
    if !shapes.is_empty() {
        return shapes;
    }
    let bound = f
        .launch_bounds
        .as_ref()
        .and_then(|lb| to_u32(probe.const_eval(lb)));
    let axes = axes_read(syn, text, f);
    if let Some(n) = bound {
        // A one-dimensional kernel under `__launch_bounds__(n)` runs `n` threads.
        if !axes[1] && !axes[2] {
            return vec![(
                BlockShape { x: n, y: 1, z: 1 },
                ShapeSource::Known(BlockShape { x: n, y: 1, z: 1 }, ShapeOrigin::LaunchBounds),
            )];
        }
    }
    // Extents that the launches all leave partly to run time, or the kernel asserts.
    let mut partly = false;
    let launched = extents_all_launches_fix(&launches);
    let asserted = asserted_extents(f, &mut probe);
    let mut axes = axes;
    for a in 0..3 {
        if fixed[a].is_none() {
            if let Some(v) = asserted[a].or(launched[a]) {
                fixed[a] = Some(v);
                partly = true;
                // An axis fixed at one thread does not vary: it is not one of the
                // family's dimensions.
                axes[a] = v > 1;
            }
        }
    }
    if let Some(o) = settings.block_shapes.iter().find(|o| o.kernel == "*") {
        let (x, y, z) = o.shape;
        return vec![(
            BlockShape { x, y, z },
            ShapeSource::Known(BlockShape { x, y, z }, ShapeOrigin::Configuration),
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
            if let ShapeSource::Known(_, origin) = src {
                *origin = ShapeOrigin::OfEntry(
                    Box::new(origin.clone()),
                    syn.functions[entries[0]].name.clone(),
                );
            }
        }
        return s;
    }
    if f.numthreads.is_some() {
        // HLSL: an axis whose `[numthreads]` argument is not known may be anything.
        for (a, d) in axes.iter_mut().zip(&fixed) {
            *a = d.is_none_or(|d| d > 1);
        }
    }
    let limits = extent_limits(syn, f, &mut probe);
    let family = candidate_shapes(settings.bank.warp_size.max(1), bound, axes, fixed, limits);
    let (family, total) = family;
    let analysed = family.len();
    let gap = if bound.is_some() {
        ShapeGap::ThreadCountOnly
    } else if partly {
        ShapeGap::SomeExtents
    } else {
        ShapeGap::NothingFixes
    };
    family
        .into_iter()
        .map(|shape| {
            (
                shape,
                ShapeSource::Assumed(CandidateShape {
                    shape,
                    gap,
                    analysed,
                    family: total,
                }),
            )
        })
        .collect()
}

/// Which thread axes `f` reads (`threadIdx.y`, `blockDim.y`, ...): the kernel's own text
/// and that of the file's helpers whose name it mentions.
fn axes_read(syn: &FileSyntax, text: &str, f: &crate::extract::ast::Function) -> [bool; 3] {
    let own = text.get(f.span.start..f.span.end).unwrap_or("");
    let mut texts = vec![own];
    for g in syn.functions.iter().filter(|g| {
        !g.is_kernel && g.foreign_text.is_none() && g.name != f.name && own.contains(&g.name)
    }) {
        texts.push(text.get(g.span.start..g.span.end).unwrap_or(""));
    }
    let reads = |axis: &str| {
        texts.iter().any(|t| {
            t.contains(&format!("threadIdx.{axis}")) || t.contains(&format!("blockDim.{axis}"))
        })
    };
    [true, reads("y"), reads("z")]
}

/// Upper bounds on the block's extents that the code implies: an array dimension of
/// extent `E` subscripted by a thread id alone (`cache[gtid.y][gtid.x]` in
/// `float cache[4][8][8]`, or a local `int tx = threadIdx.x;`) keeps that axis at `E` or
/// below, as every thread's access must be in bounds.
fn extent_limits(
    syn: &FileSyntax,
    f: &crate::extract::ast::Function,
    probe: &mut Interp,
) -> [Option<u32>; 3] {
    use crate::extract::ast::Expr;
    // Names that hold one thread id: HLSL group-thread-id parameters, and locals
    // initialised to `threadIdx.a` (or such a parameter's component).
    let gtid: Vec<&str> = f
        .params
        .iter()
        .filter(|p| p.semantic.as_deref() == Some("SV_GROUPTHREADID"))
        .map(|p| p.name.as_str())
        .collect();
    let axis_of_member = |e: &Expr| -> Option<usize> {
        let ExprKind::Member(b, field) = &e.kind else {
            return None;
        };
        let ExprKind::Ident(name) = &b.kind else {
            return None;
        };
        if name != "threadIdx" && !gtid.contains(&name.as_str()) {
            return None;
        }
        ["x", "y", "z"].iter().position(|a| a == field)
    };
    let mut locals: HashMap<String, usize> = HashMap::new();
    let mut decls: HashMap<String, Vec<Option<Expr>>> = syn
        .global_shared
        .iter()
        .map(|d| (d.name.clone(), d.extents.clone()))
        .collect();
    for s in &f.body {
        s.walk_decls(&mut |d| {
            if d.shared && !d.extents.is_empty() {
                decls.insert(d.name.clone(), d.extents.clone());
            }
            if let Some(a) = d.init.as_ref().and_then(&axis_of_member) {
                if d.extents.is_empty() {
                    locals.insert(d.name.clone(), a);
                }
            }
        });
    }
    let axis_of = |e: &Expr| -> Option<usize> {
        if let ExprKind::Ident(n) = &e.kind {
            return locals.get(n).copied();
        }
        axis_of_member(e)
    };
    let mut found: Vec<(usize, Expr)> = Vec::new();
    let mut visit = |e: &Expr| {
        // The subscripts of a chain `a[i][j][k]`, innermost last.
        let mut subs = Vec::new();
        let mut cur = e;
        while let ExprKind::Index(b, i) = &cur.kind {
            subs.push(i.as_ref());
            cur = b;
        }
        let ExprKind::Ident(name) = &cur.kind else {
            return;
        };
        let Some(extents) = decls.get(name) else {
            return;
        };
        // Only a full subscript chain names every dimension.
        if subs.len() != extents.len() {
            return;
        }
        subs.reverse();
        for (i, ext) in subs.iter().zip(extents) {
            if let (Some(a), Some(ext)) = (axis_of(i), ext) {
                found.push((a, ext.clone()));
            }
        }
    };
    for s in &f.body {
        s.walk_exprs(&mut visit);
    }
    let mut limits = [None; 3];
    for (a, ext) in found {
        if let Some(e) = to_u32(probe.const_eval(&ext)) {
            limits[a] = Some(limits[a].map_or(e, |l: u32| l.min(e)));
        }
    }
    limits
}

/// The thread counts of the candidate family when nothing fixes the shape: for a
/// one-dimensional kernel every power of two from the warp size to 1024; for two
/// dimensions, blocks of 64, 256 and 1024 threads; for three, 256 threads with `z` at
/// most 4 (the extents' splits multiply quickly).
const TWO_DIMENSIONAL_THREADS: [u64; 3] = [64, 256, 1024];
const THREE_DIMENSIONAL_THREADS: [u64; 1] = [256];
const THREE_DIMENSIONAL_MAX_Z: u32 = 4;

/// Most candidate shapes analysed for one kernel: beyond, the family is sampled and its
/// verdicts are lower bounds.
const MAX_CANDIDATES: usize = 32;

/// The candidate family of block shapes (docs/bank-model.md): power-of-two extents on the
/// axes the kernel reads (1 on the others), at most 1024 threads (exactly `bound` under
/// `__launch_bounds__`, the usual launch), `z` at most 64, each axis within what the code
/// implies (`limits`, `fixed` by `[numthreads]`), at least a warp of threads unless the
/// limits force fewer. Always at least one shape. Also returns the size of the family,
/// larger than the list when the list had to be thinned to [`MAX_CANDIDATES`].
pub fn candidate_shapes(
    warp: u32,
    bound: Option<u32>,
    axes: [bool; 3],
    fixed: [Option<u32>; 3],
    limits: [Option<u32>; 3],
) -> (Vec<BlockShape>, usize) {
    let dims = axes.iter().filter(|a| **a).count();
    let cap = |a: usize, max: u32| -> u32 {
        match fixed[a] {
            Some(v) => v,
            None if !axes[a] => 1,
            None => limits[a].map_or(max, |l| l.min(max)),
        }
    };
    let powers = |a: usize, max: u32| -> Vec<u32> {
        match fixed[a] {
            Some(v) => vec![v],
            None if !axes[a] => vec![1],
            None => (0..=10)
                .map(|k| 1u32 << k)
                .filter(|&p| p <= cap(a, max))
                .collect(),
        }
    };
    let mut all = Vec::new();
    for x in powers(0, 1024) {
        for y in powers(1, 1024) {
            let max_z = if dims == 3 && bound.is_none() {
                THREE_DIMENSIONAL_MAX_Z
            } else {
                64
            };
            for z in powers(2, max_z) {
                let s = BlockShape { x, y, z };
                if s.threads() <= 1024 {
                    all.push(s);
                }
            }
        }
    }
    let largest = all.iter().map(BlockShape::threads).max().unwrap_or(1);
    let wanted = |t: u64| -> bool {
        match bound {
            Some(n) => t == u64::from(n),
            None if dims <= 1 => t >= u64::from(warp).min(largest),
            None => {
                let family: &[u64] = if dims == 2 {
                    &TWO_DIMENSIONAL_THREADS
                } else {
                    &THREE_DIMENSIONAL_THREADS
                };
                family.contains(&t) || (t == largest && t < family[0])
            }
        }
    };
    let mut out: Vec<BlockShape> = all.into_iter().filter(|s| wanted(s.threads())).collect();
    if out.is_empty() {
        // Nothing fits the family (a bound that is not a power of two): one shape with
        // the bound's threads on x.
        let n = bound.unwrap_or(256);
        out.push(BlockShape { x: n, y: 1, z: 1 });
    }
    // The axes read every thread: more than a warp of x first.
    out.sort_by_key(|s| (std::cmp::Reverse(s.threads()), std::cmp::Reverse(s.x), s.y));
    let total = out.len();
    if out.len() > MAX_CANDIDATES {
        let step = out.len().div_ceil(MAX_CANDIDATES);
        out = out.into_iter().step_by(step).collect();
    }
    (out, total)
}

/// An interpreter for evaluating constant expressions of the file (launch arguments,
/// `[numthreads]`), outside any function.
fn probe<'a>(
    syn: &'a FileSyntax,
    text: &'a str,
    arrays: &'a mut Vec<crate::model::site::ArrayInfo>,
    settings: &Settings,
    extra: &'a HashMap<String, crate::extract::ast::Expr>,
) -> Interp<'a> {
    let shape = BlockShape { x: 32, y: 1, z: 1 };
    Interp::new(
        syn,
        text,
        arrays,
        shape,
        ShapeSource::Unstated,
        settings.bank.warp_size,
        String::new(),
        extra,
    )
}

/// A positive `u32` from an evaluated constant.
fn to_u32(v: Option<i64>) -> Option<u32> {
    v.and_then(|v| u32::try_from(v).ok()).filter(|v| *v > 0)
}

/// The distinct block shapes of the launches of `kernel` in this file, and whether every
/// launch gave a shape (when one did not, the definitions of included headers may fix it).
pub fn launch_shapes_and_completeness(
    syn: &FileSyntax,
    text: &str,
    kernel: &str,
    settings: &Settings,
    extra: &HashMap<String, crate::extract::ast::Expr>,
) -> (Vec<(BlockShape, ShapeSource)>, bool) {
    shapes_of_launches(syn, &launch_extents(syn, text, kernel, settings, extra))
}

/// The distinct whole shapes among `launches` ([`launch_extents`]), and whether every
/// launch gave one.
fn shapes_of_launches(
    syn: &FileSyntax,
    launches: &[(usize, [Option<u32>; 3])],
) -> (Vec<(BlockShape, ShapeSource)>, bool) {
    let mut complete = true;
    let mut shapes: Vec<(BlockShape, ShapeSource)> = Vec::new();
    for &(start, dims) in launches {
        let shape = match dims {
            [Some(x), Some(y), Some(z)] => Some(BlockShape { x, y, z }),
            _ => None,
        };
        complete &= shape.is_some();
        if let Some(s) = shape {
            if !shapes.iter().any(|(t, _)| *t == s) {
                let line = crate::diag::line_of(&syn.line_starts, start);
                shapes.push((s, ShapeSource::Known(s, ShapeOrigin::LaunchOnLine(line))));
            }
        }
    }
    (shapes, complete)
}

/// The block extents of each launch of `kernel` in the file, with the launch's start:
/// `None` for an extent known only at run time (`dim3(32, rows)` with `rows` a
/// parameter fixes `x` and `z` only; `kernel<<<g, n>>>` with `n` unknown fixes `y` and
/// `z` at 1).
fn launch_extents(
    syn: &FileSyntax,
    text: &str,
    kernel: &str,
    settings: &Settings,
    extra: &HashMap<String, crate::extract::ast::Expr>,
) -> Vec<(usize, [Option<u32>; 3])> {
    let mut arrays = Vec::new();
    let mut probe = probe(syn, text, &mut arrays, settings, extra);
    let mut out = Vec::new();
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
                match find_local_init(&syn.functions[fi].body, name, l.span.start) {
                    Some(init) => probe.eval(&init),
                    None => probe.eval(&l.block),
                }
            }
            _ => probe.eval(&l.block),
        };
        probe.pop_scope();
        let dims = match v {
            Value::Int(i) => [to_u32(i.as_const()), Some(1), Some(1)],
            Value::Vector(c) if c.len() == 3 => {
                let mut d = [None; 3];
                for (slot, v) in d.iter_mut().zip(&c) {
                    if let Value::Int(i) = v {
                        *slot = to_u32(i.as_const());
                    }
                }
                d
            }
            _ => [None; 3],
        };
        out.push((l.span.start, dims));
    }
    out
}

/// The extents that every one of `launches` agrees on, when some launch leaves an extent
/// to run time: fixed axes of the candidate family.
fn extents_all_launches_fix(launches: &[(usize, [Option<u32>; 3])]) -> [Option<u32>; 3] {
    let mut fixed = [None; 3];
    for (a, slot) in fixed.iter_mut().enumerate() {
        let mut values = launches.iter().map(|(_, d)| d[a]);
        let first = values.next().flatten();
        if values.all(|v| v.is_some() && v == first) {
            *slot = first;
        }
    }
    fixed
}

/// The extents the kernel asserts (`assert(blockDim.x == 32)` in its body): the code is
/// written for that extent and fails on any other.
fn asserted_extents(f: &crate::extract::ast::Function, probe: &mut Interp) -> [Option<u32>; 3] {
    use crate::extract::ast::{BinaryOp, Expr};
    fn equalities<'e>(e: &'e Expr, out: &mut Vec<(&'e Expr, &'e Expr)>) {
        match &e.kind {
            ExprKind::Binary(BinaryOp::LogicAnd, a, b) => {
                equalities(a, out);
                equalities(b, out);
            }
            ExprKind::Binary(BinaryOp::Eq, a, b) => out.push((a, b)),
            _ => {}
        }
    }
    fn asserts<'e>(body: &'e [Stmt], out: &mut Vec<&'e Expr>) {
        for s in body {
            match s {
                Stmt::Expr(Expr {
                    kind: ExprKind::Call { callee, args, .. },
                    ..
                }) if callee == "assert" && args.len() == 1 => out.push(&args[0]),
                Stmt::Block(b) => asserts(b, out),
                _ => {}
            }
        }
    }
    let axis = |e: &Expr| -> Option<usize> {
        let ExprKind::Member(b, field) = &e.kind else {
            return None;
        };
        matches!(&b.kind, ExprKind::Ident(n) if n == "blockDim")
            .then(|| ["x", "y", "z"].iter().position(|a| a == field))
            .flatten()
    };
    let mut conds = Vec::new();
    asserts(&f.body, &mut conds);
    let mut pairs = Vec::new();
    for c in conds {
        equalities(c, &mut pairs);
    }
    let mut fixed = [None; 3];
    for (a, b) in pairs {
        let (ax, value) = match (axis(a), axis(b)) {
            (Some(ax), None) => (ax, b),
            (None, Some(ax)) => (ax, a),
            _ => continue,
        };
        if let Some(v) = to_u32(probe.const_eval(value)) {
            fixed[ax] = Some(v);
        }
    }
    fixed
}

/// Binds, in `probe`, every local declared with an initialiser before byte `before`.
fn bind_locals_before(probe: &mut Interp, body: &[Stmt], before: usize) {
    let mut decls = Vec::new();
    for s in body {
        s.walk_decls(&mut |d| {
            if d.span.end <= before && d.extents.is_empty() && d.init.is_some() {
                decls.push(d);
            }
        });
    }
    for d in decls {
        if let Some(init) = &d.init {
            let v = probe.eval(init);
            probe.bind_value(&d.name, v);
        }
    }
}

/// The initialiser of the last local `name` declared before byte `before`, in any
/// nested block (a launch in a `case` sees the `dim3` declared above it there).
fn find_local_init(body: &[Stmt], name: &str, before: usize) -> Option<crate::extract::ast::Expr> {
    let mut found = None;
    for s in body {
        s.walk_decls(&mut |d| {
            if d.name == name && d.extents.is_empty() && d.span.end <= before {
                found = Some(d);
            }
        });
    }
    found.and_then(|d| d.init.clone())
}
