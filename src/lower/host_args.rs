//! Kernel parameters bound to what the launching host function builds: a CuTe
//! `TiledCopy` or layout made on the host (`auto tiled_copy = make_tiled_copy(...);`,
//! `auto sA = make_layout(...);`) and passed at the launch (`kernel<<<g, b>>>(...,
//! tiled_copy, sA)`). Each launch is a context of its own; the interpreter reads the
//! value from the host's text ([`crate::lower::interp`], `cute/host.rs`).

use crate::diag::Span;
use crate::extract::ast::{Expr, ExprKind, Function, Launch, Stmt, VarDecl};
use crate::extract::FileSyntax;

/// One kernel parameter's argument at one launch.
#[derive(Debug, Clone, PartialEq)]
pub struct HostArg {
    /// The launching function (`None`: a launch outside any function).
    pub function: Option<usize>,
    /// The argument as written (`None`: the launch passes fewer arguments).
    pub arg: Option<Expr>,
    /// The launch: the host's locals visible there are the ones read.
    pub launch: Span,
}

/// What a name denotes in a host function at a point: a local or a body alias.
pub enum HostItem<'f> {
    Local(&'f VarDecl),
    Alias(&'f str),
    Param,
}

/// The host-built CuTe arguments of `f`'s launches, one list per launch, by parameter
/// name: a parameter is bound when some launch passes it a local whose initialiser
/// spells a CuTe `TiledCopy` or layout; every launch then binds it (to what it passes,
/// readable or not).
pub fn launch_bindings(syn: &FileSyntax, f: &Function, text: &str) -> Vec<Vec<(String, HostArg)>> {
    // Cheap tests first: most files and parameters have nothing to do with CuTe.
    if !text.contains("Layout") && !text.contains("make_tiled_copy") {
        return Vec::new();
    }
    let launches: Vec<&Launch> = syn.launches_of(&f.name).collect();
    let bound: Vec<usize> = (0..f.params.len())
        .filter(|&i| {
            let p = &f.params[i];
            let ty = p.ty.base.trim_start_matches("const ").trim();
            let typed = f
                .template_params
                .iter()
                .any(|tp| tp.is_type && tp.name == ty)
                || ty.contains("Copy")
                || ty.contains("Layout");
            typed
                && p.ty.pointers == 0
                && !p.name.is_empty()
                && launches.iter().any(|l| {
                    let host = l.in_function.and_then(|h| syn.functions.get(h));
                    match (host, l.args.get(i)) {
                        (Some(h), Some(a)) => {
                            spelling(h, a, l.span, text).is_some_and(|(t, _)| is_cute(&t))
                        }
                        _ => false,
                    }
                })
        })
        .collect();
    if bound.is_empty() {
        return Vec::new();
    }
    launches
        .iter()
        .map(|l| {
            bound
                .iter()
                .map(|&i| {
                    let arg = HostArg {
                        function: l.in_function,
                        arg: l.args.get(i).cloned(),
                        launch: l.span,
                    };
                    (f.params[i].name.clone(), arg)
                })
                .collect()
        })
        .collect()
}

/// The text a host argument spells and where the names in it are read: a local's
/// initialiser (from its declaration), or the argument itself.
pub fn spelling(host: &Function, arg: &Expr, at: Span, text: &str) -> Option<(String, usize)> {
    // A host function of another file indexes another text.
    if host.foreign_text.is_some() {
        return None;
    }
    let snippet = |s: Span| text.get(s.start..s.end).map(str::to_string);
    match &arg.kind {
        ExprKind::Ident(name) => match visible(host, name, at.start)? {
            HostItem::Local(d) => match &d.init {
                Some(init) => Some((snippet(init.span)?, d.span.start)),
                None => Some((format!("{}{{}}", d.ty.base), d.span.start)),
            },
            HostItem::Alias(_) | HostItem::Param => None,
        },
        _ => Some((snippet(arg.span)?, at.start)),
    }
}

/// Whether a spelling is one of CuTe's tiled copies or layouts.
fn is_cute(text: &str) -> bool {
    let t = text.trim().trim_start_matches("cute::");
    [
        "make_tiled_copy(",
        "make_layout(",
        "composition(",
        "tile_to_shape(",
        "Layout<",
        "ComposedLayout<",
    ]
    .iter()
    .any(|p| t.starts_with(p))
}

/// What `name` denotes in `host` at byte `at`: the last local or body alias of that
/// name declared before `at` in a block that holds `at`, or a parameter.
pub fn visible<'f>(host: &'f Function, name: &str, at: usize) -> Option<HostItem<'f>> {
    visible_in(&host.body, name, at).or_else(|| {
        host.params
            .iter()
            .any(|p| p.name == name)
            .then_some(HostItem::Param)
    })
}

fn visible_in<'f>(stmts: &'f [Stmt], name: &str, at: usize) -> Option<HostItem<'f>> {
    let mut found = None;
    for s in stmts {
        let (start, end) = extent(s);
        if start <= at && at < end {
            // The statement holding the point: its nested blocks may declare it again.
            let inner: Vec<&'f [Stmt]> = match s {
                Stmt::Block(b) => vec![b.as_slice()],
                Stmt::If {
                    then, otherwise, ..
                } => std::iter::once(&**then)
                    .chain(otherwise.as_deref())
                    .map(std::slice::from_ref)
                    .collect(),
                Stmt::For { init, body, .. } => {
                    vec![init.as_slice(), std::slice::from_ref(&**body)]
                }
                Stmt::While { body, .. } | Stmt::Switch { body, .. } => {
                    vec![std::slice::from_ref(&**body)]
                }
                _ => Vec::new(),
            };
            for b in inner {
                if let Some(d) = visible_in(b, name, at) {
                    found = Some(d);
                }
            }
            break;
        }
        match s {
            Stmt::Decl(ds) => {
                for d in ds {
                    if d.name == name && d.span.end <= at {
                        found = Some(HostItem::Local(d));
                    }
                }
            }
            Stmt::Alias { name: n, text } if n == name => found = Some(HostItem::Alias(text)),
            _ => {}
        }
        // A statement with no span of its own (`Other`, an alias) is passed over.
        if start != usize::MAX && start > at {
            break;
        }
    }
    found
}

/// The bytes a statement's declarations and expressions cover (`(MAX, 0)` for none).
fn extent(s: &Stmt) -> (usize, usize) {
    let (mut lo, mut hi) = (usize::MAX, 0);
    let mut see = |sp: Span| {
        lo = lo.min(sp.start);
        hi = hi.max(sp.end);
    };
    s.walk_decls(&mut |d: &VarDecl| see(d.span));
    s.walk_exprs(&mut |e: &Expr| see(e.span));
    if let Stmt::For { span, .. } = s {
        see(*span);
    }
    (lo, hi)
}
