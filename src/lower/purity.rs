//! What a helper's body touches: shared variables, memory, nothing but floats.
//!
//! Their results are floating-point data, which no index can use exactly, and they
//! hold no access: inlining them (filter weights, `sinc`, tone curves, often called
//! in unrolled tables) would cost time and tell nothing.

use crate::extract::ast::{Expr, ExprKind, Function, Stmt, UnaryOp};
use crate::extract::FileSyntax;
use std::collections::HashSet;

/// Names of the helpers whose calls need not be inlined: every parameter is a
/// floating-point value, and neither they nor anything they call subscripts,
/// dereferences or names a shared variable.
pub fn float_only_helpers(syn: &FileSyntax) -> HashSet<String> {
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

fn scan<'a>(f: &Function, shared: &'a HashSet<&'a str>) -> Scan<'a> {
    let mut scan = Scan {
        shared,
        touches: false,
        names_shared: false,
        calls: HashSet::new(),
    };
    f.body.iter().for_each(|s| scan.stmt(s));
    scan
}

fn is_float_param(p: &crate::extract::ast::Param) -> bool {
    let base = p.ty.base.trim_start_matches("const ").trim();
    p.ty.pointers == 0
        && !p.array_or_ref
        && ["float", "half", "double", "min16float", "min10float"]
            .iter()
            .any(|t| base.starts_with(t))
}

struct Scan<'a> {
    shared: &'a HashSet<&'a str>,
    touches: bool,
    names_shared: bool,
    calls: HashSet<String>,
}

impl Scan<'_> {
    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Decl(ds) => ds
                .iter()
                .filter_map(|d| d.init.as_ref())
                .for_each(|e| self.expr(e)),
            Stmt::Expr(e) | Stmt::Return(Some(e)) => self.expr(e),
            Stmt::Block(b) => b.iter().for_each(|s| self.stmt(s)),
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond);
                self.stmt(then);
                if let Some(o) = otherwise {
                    self.stmt(o);
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
                    self.stmt(s);
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                for e in update {
                    self.expr(e);
                }
                self.stmt(body);
            }
            Stmt::While { cond, body, .. } | Stmt::Switch { cond, body } => {
                self.expr(cond);
                self.stmt(body);
            }
            Stmt::Return(None) | Stmt::Break | Stmt::Continue | Stmt::Other => {}
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Opaque => self.touches = true,
            ExprKind::Index(a, b) => {
                self.touches = true;
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Unary(UnaryOp::Deref, b) => {
                self.touches = true;
                self.expr(b);
            }
            ExprKind::Ident(name) => {
                if self.shared.contains(name.as_str()) {
                    self.touches = true;
                    self.names_shared = true;
                }
            }
            ExprKind::Call { callee, args, .. } => {
                // `helper<16>(...)` written as one name calls `helper`.
                let name = callee.split('<').next().unwrap_or(callee);
                self.calls
                    .insert(name.rsplit("::").next().unwrap_or(name).to_string());
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::Member(b, _)
            | ExprKind::Unary(_, b)
            | ExprKind::IncDec(b, _)
            | ExprKind::Cast(_, b)
            | ExprKind::SizeofExpr(b) => self.expr(b),
            ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Cond(a, b, c) => {
                self.expr(a);
                self.expr(b);
                self.expr(c);
            }
            ExprKind::Comma(items) => items.iter().for_each(|a| self.expr(a)),
            ExprKind::Int(_) | ExprKind::Float | ExprKind::Bool(_) | ExprKind::SizeofType(_) => {}
        }
    }
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
