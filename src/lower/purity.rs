//! What a helper's body touches: shared variables, memory, nothing but floats.
//!
//! Their results are floating-point data, which no index can use exactly, and they
//! hold no access: inlining them (filter weights, `sinc`, tone curves, often called
//! in unrolled tables) would cost time and tell nothing.

use crate::extract::ast::{ExprKind, Function, Stmt, UnaryOp};
use crate::extract::FileSyntax;
use std::collections::HashSet;

/// Names of the helpers whose calls need not be inlined: every parameter is a
/// floating-point value, and neither they nor anything they call subscripts,
/// dereferences or names a shared variable.
pub fn float_only_helpers(syn: &FileSyntax) -> HashSet<String> {
    let pure = untouching(syn);
    let qualifies: HashSet<*const Function> = pure
        .iter()
        .filter(|(f, _)| !f.params.is_empty() && f.params.iter().all(is_float_param))
        .map(|(f, _)| std::ptr::from_ref::<Function>(f))
        .collect();
    // Calls resolve by name: every overload of the name must qualify.
    let mut names: HashSet<String> = HashSet::new();
    let mut spoiled: HashSet<&str> = HashSet::new();
    for f in syn.functions.iter().filter(|f| !f.body.is_empty()) {
        if qualifies.contains(&std::ptr::from_ref(f)) {
            names.insert(f.name.clone());
        } else {
            spoiled.insert(&f.name);
        }
    }
    names.retain(|n| !spoiled.contains(n.as_str()));
    names
}

/// Names of the helpers (non-kernel functions with a body) that can hold an access:
/// they, or a function of the file they call, subscript, dereference or name a shared
/// variable. The others hold none, whatever their callers pass them.
pub fn touching_helpers(syn: &FileSyntax) -> HashSet<String> {
    let pure: HashSet<*const Function> = untouching(syn)
        .iter()
        .map(|(f, _)| std::ptr::from_ref::<Function>(f))
        .collect();
    syn.functions
        .iter()
        .filter(|f| !f.body.is_empty() && !f.is_kernel && !pure.contains(&std::ptr::from_ref(*f)))
        .map(|f| f.name.clone())
        .collect()
}

/// Whether statement `s` may hold a shared-memory access: it declares a shared
/// variable, subscripts or dereferences anything, names a variable `is_shared` says
/// reaches shared memory, runs inline `asm`, holds what extraction could not read,
/// calls a member function or one of the `touching` helpers ([`touching_helpers`]).
/// Calls of other functions (built-ins, helpers that touch no memory) only compute
/// values.
pub fn may_hold_access(
    s: &Stmt,
    touching: &HashSet<String>,
    is_shared: &dyn Fn(&str) -> bool,
) -> bool {
    let mut found = false;
    s.walk_decls(&mut |d| found |= d.shared);
    if found {
        return true;
    }
    s.walk_exprs(&mut |e| {
        found |= match &e.kind {
            ExprKind::Opaque
            | ExprKind::Asm(_)
            | ExprKind::Index(..)
            | ExprKind::Unary(UnaryOp::Deref, _) => true,
            ExprKind::Ident(name) => is_shared(name),
            ExprKind::Call { callee, .. } => {
                let name = callee.split('<').next().unwrap_or(callee);
                name.contains('.')
                    || name.contains("->")
                    || touching.contains(name.rsplit("::").next().unwrap_or(name))
            }
            _ => false,
        };
    });
    found
}

/// Names of the functions that reach shared memory of their own: their text spells a
/// shared qualifier or names a shared variable of the file, or they call a function of
/// the file that does. The others can reach only what their callers pass them.
pub fn reaching_shared(syn: &FileSyntax, text: &str) -> HashSet<String> {
    let shared: HashSet<&str> = syn.global_shared.iter().map(|d| d.name.as_str()).collect();
    let defined: HashSet<&str> = syn.functions.iter().map(|f| f.name.as_str()).collect();
    let mut reach: HashSet<String> = HashSet::new();
    let mut calls: Vec<(&Function, HashSet<String>)> = Vec::new();
    for f in syn.functions.iter().filter(|f| !f.body.is_empty()) {
        let scan = scan(f, &shared);
        let body = f.source(text);
        if scan.names_shared
            || crate::source::mentions_shared_memory(body)
            || subscripts_free_names(f)
        {
            reach.insert(f.name.clone());
        }
        let callees = scan
            .calls
            .into_iter()
            .filter(|c| defined.contains(c.as_str()))
            .collect();
        calls.push((f, callees));
    }
    loop {
        let before = reach.len();
        for (f, callees) in &calls {
            if !reach.contains(&f.name) && callees.iter().any(|c| reach.contains(c)) {
                reach.insert(f.name.clone());
            }
        }
        if reach.len() == before {
            break;
        }
    }
    reach
}

/// True when `f` subscripts a name that is neither its parameter nor its local: a
/// variable of the file, or of a file that includes it (a header's callback naming
/// the includer's `groupshared` array).
fn subscripts_free_names(f: &Function) -> bool {
    let mut own: HashSet<&str> = f.params.iter().map(|p| p.name.as_str()).collect();
    for s in &f.body {
        s.walk_decls(&mut |d| {
            own.insert(d.name.as_str());
        });
    }
    let mut free = false;
    for s in &f.body {
        s.walk_exprs(&mut |e| {
            if let ExprKind::Index(base, _) = &e.kind {
                let mut root = base.as_ref();
                while let ExprKind::Index(b, _) | ExprKind::Member(b, _) = &root.kind {
                    root = b;
                }
                if let ExprKind::Ident(name) = &root.kind {
                    free |= !own.contains(name.as_str());
                }
            }
        });
    }
    free
}

/// The helpers with no memory access of their own whose calls to functions of the
/// file reach none either, with those calls.
fn untouching(syn: &FileSyntax) -> Vec<(&Function, HashSet<String>)> {
    let shared: HashSet<&str> = syn.global_shared.iter().map(|d| d.name.as_str()).collect();
    let defined: HashSet<&str> = syn.functions.iter().map(|f| f.name.as_str()).collect();
    // Functions with no memory access of their own, with the defined functions they call.
    let mut pure: Vec<(&Function, HashSet<String>)> = syn
        .functions
        .iter()
        .filter(|f| !f.body.is_empty() && !f.is_kernel)
        .filter_map(|f| {
            let scan = scan(f, &shared);
            (!scan.touches).then(|| {
                let calls = scan
                    .calls
                    .into_iter()
                    .filter(|c| defined.contains(c.as_str()))
                    .collect();
                (f, calls)
            })
        })
        .collect();
    // Drop those calling a defined function that is not pure, until nothing changes.
    loop {
        let names: HashSet<&str> = pure.iter().map(|(f, _)| f.name.as_str()).collect();
        let before = pure.len();
        pure.retain(|(_, calls)| calls.iter().all(|c| names.contains(c.as_str())));
        if pure.len() == before {
            break;
        }
    }
    pure
}

/// Names of the functions whose bodies name a shared variable declared at file scope.
pub fn naming_shared(syn: &FileSyntax) -> HashSet<String> {
    let shared: HashSet<&str> = syn.global_shared.iter().map(|d| d.name.as_str()).collect();
    syn.functions
        .iter()
        .filter(|f| scan(f, &shared).names_shared)
        .map(|f| f.name.clone())
        .collect()
}

/// Names of the functions called anywhere in the file, without their qualifiers.
pub fn callees(syn: &FileSyntax) -> HashSet<String> {
    let none = HashSet::new();
    syn.functions
        .iter()
        .flat_map(|f| scan(f, &none).calls)
        .collect()
}

/// What one function's body touches, and the names it calls (qualifiers and template
/// arguments dropped).
struct Scan {
    touches: bool,
    names_shared: bool,
    calls: HashSet<String>,
}

fn scan(f: &Function, shared: &HashSet<&str>) -> Scan {
    let mut out = Scan {
        touches: false,
        names_shared: false,
        calls: HashSet::new(),
    };
    for s in &f.body {
        s.walk_exprs(&mut |e| match &e.kind {
            ExprKind::Opaque
            | ExprKind::Asm(_)
            | ExprKind::Index(..)
            | ExprKind::Unary(UnaryOp::Deref, _) => {
                out.touches = true;
            }
            ExprKind::Ident(name) if shared.contains(name.as_str()) => {
                out.touches = true;
                out.names_shared = true;
            }
            ExprKind::Call { callee, .. } => {
                // `helper<16>(...)` written as one name calls `helper`.
                let name = callee.split('<').next().unwrap_or(callee);
                out.calls
                    .insert(name.rsplit("::").next().unwrap_or(name).to_string());
            }
            _ => {}
        });
    }
    out
}

fn is_float_param(p: &crate::extract::ast::Param) -> bool {
    let base = p.ty.base.trim_start_matches("const ").trim();
    p.ty.pointers == 0
        && !p.array_or_ref
        && ["float", "half", "double", "min16float", "min10float"]
            .iter()
            .any(|t| base.starts_with(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn syntax(path: &str, text: &str) -> FileSyntax {
        let file = crate::source::load(path, text.as_bytes()).expect("loads");
        let tree = crate::source::parse(&file).expect("parses");
        crate::extract::extract(&file, &tree)
    }

    #[test]
    fn float_helpers_that_touch_nothing_are_not_inlined() {
        let syn = syntax(
            "k.hlsl",
            "groupshared float s[64];\n\
             float Curve(float x) { return x * x; }\n\
             float Tap(float x, float a) { return Curve(x) / a; }\n\
             float Peek(float x) { return s[0] * x; }\n\
             float Indirect(float x) { return Peek(x); }\n\
             uint Twice(uint i) { return i * 2; }\n\
             float Over(float x) { return x; }\n\
             float Over(float x, uint i) { return s[i] * x; }\n",
        );
        let mut got: Vec<String> = float_only_helpers(&syn).into_iter().collect();
        got.sort();
        assert_eq!(got, ["Curve", "Tap"]);
        let mut named: Vec<String> = naming_shared(&syn).into_iter().collect();
        named.sort();
        assert_eq!(named, ["Over", "Peek"]);
    }
}
