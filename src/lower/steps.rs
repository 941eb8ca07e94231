//! What the statements of a loop body change: the variables a statement assigns, and
//! how a loop's update statement steps its variable. Shared by the interpreter and the
//! induction-variable finder.

use crate::extract::ast::{BinaryOp, Expr, ExprKind, Stmt, UnaryOp};

/// How a loop's update statement steps its variable.
pub(super) enum Step {
    Add(Expr),
    Sub(Expr),
    Shl(Expr),
    Shr(Expr),
}

pub(super) fn step_of(u: &Expr) -> Option<(String, Step)> {
    let one = || Expr {
        span: u.span,
        kind: ExprKind::Int(1),
    };
    match &u.kind {
        ExprKind::IncDec(t, d) => {
            let ExprKind::Ident(n) = &t.kind else {
                return None;
            };
            Some((
                n.clone(),
                if *d > 0 {
                    Step::Add(one())
                } else {
                    Step::Sub(one())
                },
            ))
        }
        ExprKind::Assign(Some(op), t, r) => {
            let ExprKind::Ident(n) = &t.kind else {
                return None;
            };
            let step = match op {
                BinaryOp::Add => Step::Add((**r).clone()),
                BinaryOp::Sub => Step::Sub((**r).clone()),
                BinaryOp::Shl => Step::Shl((**r).clone()),
                BinaryOp::Shr => Step::Shr((**r).clone()),
                BinaryOp::Mul => Step::Shl(log2_expr(r)?),
                BinaryOp::Div => Step::Shr(log2_expr(r)?),
                _ => return None,
            };
            Some((n.clone(), step))
        }
        ExprKind::Assign(None, t, r) => {
            let ExprKind::Ident(n) = &t.kind else {
                return None;
            };
            if let ExprKind::Binary(op, a, b) = &r.kind {
                if matches!(&a.kind, ExprKind::Ident(m) if m == n) {
                    let step = match op {
                        BinaryOp::Add => Step::Add((**b).clone()),
                        BinaryOp::Sub => Step::Sub((**b).clone()),
                        BinaryOp::Shl => Step::Shl((**b).clone()),
                        BinaryOp::Shr => Step::Shr((**b).clone()),
                        BinaryOp::Mul => Step::Shl(log2_expr(b)?),
                        BinaryOp::Div => Step::Shr(log2_expr(b)?),
                        _ => return None,
                    };
                    return Some((n.clone(), step));
                }
            }
            None
        }
        _ => None,
    }
}

/// `log2(c)` for a literal power of two `c`.
fn log2_expr(e: &Expr) -> Option<Expr> {
    match e.kind {
        ExprKind::Int(c) if c > 0 && (c & (c - 1)) == 0 => Some(Expr {
            span: e.span,
            kind: ExprKind::Int(i64::from(c.trailing_zeros())),
        }),
        _ => None,
    }
}

/// Names of variables assigned anywhere in `s` (assignments and increments).
pub(super) fn assigned_names(s: &Stmt) -> Vec<String> {
    /// A variable, or an object's field (`st.buf`; `this->buf` is the field `buf`).
    fn target(l: &Expr, out: &mut Vec<String>) {
        match &l.kind {
            ExprKind::Ident(n) => out.push(n.clone()),
            ExprKind::Member(b, f) => match &b.kind {
                ExprKind::Ident(o) if o == "this" => out.push(f.clone()),
                ExprKind::Ident(o) => out.push(format!("{o}.{f}")),
                ExprKind::Unary(UnaryOp::Deref, i) if matches!(&i.kind, ExprKind::Ident(o) if o == "this") =>
                {
                    out.push(f.clone());
                }
                _ => {}
            },
            _ => {}
        }
    }
    fn expr(e: &Expr, out: &mut Vec<String>) {
        match &e.kind {
            ExprKind::Assign(_, l, r) => {
                target(l, out);
                expr(l, out);
                expr(r, out);
            }
            ExprKind::IncDec(t, _) => target(t, out),
            // An inline `asm` assigns its outputs.
            ExprKind::Asm(asm) => {
                for o in &asm.outputs {
                    target(&o.value, out);
                }
                for o in asm.operands() {
                    expr(&o.value, out);
                }
            }
            ExprKind::Member(b, _)
            | ExprKind::Unary(_, b)
            | ExprKind::Cast(_, b)
            | ExprKind::SizeofExpr(b) => expr(b, out),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                expr(a, out);
                expr(b, out);
            }
            ExprKind::Cond(a, b, c) => {
                expr(a, out);
                expr(b, out);
                expr(c, out);
            }
            ExprKind::Call { callee, args, .. } => {
                // A member function may assign its object's fields (`o.*m`: those `m`
                // assigns), and a call handed an object may assign any of them (`o.*`).
                if let Some((o, m)) = callee.rsplit_once("->").or_else(|| callee.rsplit_once('.')) {
                    let o = o.trim();
                    if !o.is_empty() && o.chars().all(|c| c.is_alphanumeric() || c == '_') {
                        out.push(format!("{o}.*{}", m.trim()));
                    }
                }
                for a in args {
                    let object = match &a.kind {
                        ExprKind::Unary(UnaryOp::AddrOf, inner) => &inner.kind,
                        other => other,
                    };
                    if let ExprKind::Ident(o) = object {
                        out.push(format!("{o}.*"));
                    }
                    expr(a, out);
                }
            }
            ExprKind::Comma(args) => {
                for a in args {
                    expr(a, out);
                }
            }
            _ => {}
        }
    }
    fn stmt(s: &Stmt, out: &mut Vec<String>, declared: &mut Vec<String>) {
        match s {
            Stmt::Decl(ds) => {
                for d in ds {
                    declared.push(d.name.clone());
                    if let Some(i) = &d.init {
                        expr(i, out);
                    }
                }
            }
            Stmt::Expr(e) | Stmt::Return(Some(e)) => expr(e, out),
            Stmt::Block(b) => {
                // What a statement assigns after a declaration of the same name in this
                // block is the block's own variable (`float r = ...; r *= h;` shadows a
                // parameter `r`), not the variable outside.
                let mut inner = declared.clone();
                let mut own: Vec<String> = Vec::new();
                for s in b {
                    let mut assigned = Vec::new();
                    stmt(s, &mut assigned, &mut inner);
                    out.extend(assigned.into_iter().filter(|n| {
                        let base = n.split('.').next().unwrap_or(n);
                        !own.iter().any(|o| o == base)
                    }));
                    if let Stmt::Decl(ds) = s {
                        own.extend(ds.iter().map(|d| d.name.clone()));
                    }
                }
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                expr(cond, out);
                stmt(then, out, declared);
                if let Some(o) = otherwise {
                    stmt(o, out, declared);
                }
            }
            Stmt::For {
                init,
                cond,
                update,
                body,
                ..
            } => {
                let mut inner = declared.clone();
                for s in init {
                    stmt(s, out, &mut inner);
                }
                if let Some(c) = cond {
                    expr(c, out);
                }
                let mut upd = Vec::new();
                for u in update {
                    expr(u, &mut upd);
                }
                stmt(body, &mut upd, &mut inner);
                out.extend(
                    upd.into_iter()
                        .filter(|n| !inner.contains(n) || declared.contains(n)),
                );
            }
            Stmt::While { cond, body, .. } | Stmt::Switch { cond, body } => {
                expr(cond, out);
                stmt(body, out, declared);
            }
            // A blanked macro statement: what its expansion may assign, and the fields
            // of an object it is handed.
            Stmt::Macro(m) => {
                for n in m.spelled.assigns.iter().chain(&m.spelled.writes) {
                    out.push(n.clone());
                    out.push(format!("{n}.*"));
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    let mut declared = Vec::new();
    stmt(s, &mut out, &mut declared);
    // Variables declared inside `s` are local to it.
    let locals = {
        let mut l = Vec::new();
        if let Stmt::Block(b) = s {
            for st in b {
                if let Stmt::Decl(ds) = st {
                    l.extend(ds.iter().map(|d| d.name.clone()));
                }
            }
        }
        l
    };
    out.retain(|n| !locals.contains(n));
    out.sort();
    out.dedup();
    out
}
