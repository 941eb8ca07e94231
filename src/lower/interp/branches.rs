//! `if` statements: a known condition is a guard on the accesses of each branch, a
//! constant one takes one branch, and the variables the branches assign merge into a
//! `select` on the condition (or become unknown when it cannot be followed). A branch that
//! returns guards what follows it.

use super::budget::{value_size, MAX_IR_NODES};
use super::{Interp, Value, Vars};
use crate::extract::ast::{BinaryOp, Expr, ExprKind, Stmt, UnaryOp};
use crate::model::ir::{BinOp, Expr as Ir, UnOp};

impl Interp<'_> {
    /// Interprets `if (cond) then else otherwise`.
    pub(super) fn if_stmt(&mut self, cond: &Expr, then: &Stmt, otherwise: Option<&Stmt>) {
        if self.preproc_if(cond, then, otherwise) {
            return;
        }
        // The `if` of inductions stepped under a condition that stays false once false
        // (`guarded_steps.rs`): its guard is known, the variables only in its branch.
        let guarded = self.guarded_condition(cond);
        let known = guarded.as_ref().map(|(c, _)| c.clone());
        self.if_branches(cond, known, then, otherwise);
        if let Some((_, names)) = guarded {
            self.invalidate(&names, "it changes across loop iterations");
        }
    }

    /// Interprets the branches of an `if` whose condition is `known` or evaluated here.
    fn if_branches(
        &mut self,
        cond: &Expr,
        known: Option<Value>,
        then: &Stmt,
        otherwise: Option<&Stmt>,
    ) {
        // An early exit (`if (i >= LIMIT) break;`) guards what follows: a name defined
        // nowhere in its condition is a run-time value. Other conditions keep such a name
        // unknown (values merged under them would grow without bound).
        let exits = |s: &Stmt| match s {
            Stmt::Break | Stmt::Continue | Stmt::Return(_) => true,
            Stmt::Block(b) => matches!(
                b.as_slice(),
                [Stmt::Break | Stmt::Continue | Stmt::Return(_)]
            ),
            _ => false,
        };
        let (c, conjuncts) = if let Some(c) = known {
            (c, Vec::new())
        } else if exits(then) && otherwise.is_none() {
            (self.eval_control(cond), Vec::new())
        } else {
            self.eval_conjunction(cond)
        };
        // A constant condition (`if (0)`, a resolved `#ifdef`) takes one branch only.
        if let Some(k) = match &c {
            Value::Int(e) => e.as_const(),
            _ => None,
        } {
            if k != 0 {
                self.block(std::slice::from_ref(then));
            } else if let Some(o) = otherwise {
                self.block(std::slice::from_ref(o));
            }
            return;
        }
        let guard = match &c {
            Value::Int(e) => Some(e.clone()),
            _ => None,
        };
        // Of a conjunction that is not a guard as a whole, the conjuncts that are guards
        // still hold in the `then` branch (`tid < 16 && flags[tid]`: the data is taken as
        // true for every lane, as the bank model says, the bound on the lanes is not).
        let then_guard = guard.clone().or_else(|| {
            conjuncts
                .iter()
                .filter_map(|v| match v {
                    Value::Int(e) => Some(e.clone()),
                    _ => None,
                })
                .reduce(|a, b| super::fold(BinOp::LogicAnd, a, b))
        });
        let before = self.scopes.clone();
        if let Some(g) = &then_guard {
            self.flow.guards.push(g.clone());
        }
        let opaque = u32::from(guard.is_none());
        self.flow.opaque += opaque;
        let on_data = u32::from(matches!(c, Value::Data(_)));
        self.flow.data_ifs += on_data;
        // A condition bankcheck cannot follow (not data, which the model takes as true
        // for every lane) may select any lanes: the accesses of both branches say so.
        let unfollowed = std::iter::once(&c)
            .chain(&conjuncts)
            .find_map(|v| match v {
                Value::Unknown(why) => Some(why.clone()),
                _ => None,
            })
            .filter(|_| guard.is_none() && !self.compile_time(cond));
        if let Some(why) = &unfollowed {
            self.flow.unfollowed.push(why.clone());
        }
        self.block(std::slice::from_ref(then));
        if then_guard.is_some() {
            self.flow.guards.pop();
        }
        let then_returned = std::mem::replace(&mut self.flow.returned, false);
        let after_then = std::mem::replace(&mut self.scopes, before);
        let negated = guard
            .as_ref()
            .map(|g| Ir::Unary(UnOp::LogicNot, Box::new(g.clone())));
        if let Some(o) = otherwise {
            if let Some(n) = &negated {
                self.flow.guards.push(n.clone());
            }
            self.block(std::slice::from_ref(o));
            if negated.is_some() {
                self.flow.guards.pop();
            }
        }
        self.flow.opaque -= opaque;
        self.flow.data_ifs -= on_data;
        if unfollowed.is_some() {
            self.flow.unfollowed.pop();
        }
        let else_returned = std::mem::replace(&mut self.flow.returned, false);
        self.merge_branches(
            &after_then,
            (then_returned, else_returned),
            guard.as_ref(),
            &c,
        );
        // `if (tid >= n) return;` guards the rest of the block.
        if then_returned && !else_returned {
            if let Some(n) = negated {
                self.flow.guards.push(n);
            }
        } else if else_returned && !then_returned {
            if let Some(g) = guard {
                self.flow.guards.push(g);
            }
        } else if then_returned && else_returned {
            self.flow.returned = true;
        }
    }

    /// Whether `e` is a compile-time constant of C++ as written (literals, `sizeof`, and
    /// qualified names that are no local, `std::is_same<T, half2>::value`, through
    /// operators): the same in every lane, so a branch on it is taken by every lane or
    /// by none, whatever its value.
    fn compile_time(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::SizeofType(_)
            | ExprKind::SizeofExpr(_) => true,
            ExprKind::Ident(name) => name.contains("::") && self.lookup(name).is_none(),
            ExprKind::Unary(UnaryOp::Deref | UnaryOp::AddrOf, _) => false,
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => self.compile_time(a),
            ExprKind::Binary(_, a, b) => self.compile_time(a) && self.compile_time(b),
            ExprKind::Cond(c, a, b) => {
                self.compile_time(c) && self.compile_time(a) && self.compile_time(b)
            }
            _ => false,
        }
    }

    /// Evaluates `cond` as `eval` does, and, when it is a conjunction (`a && b && c`),
    /// the value of each conjunct too, left to right (each evaluated once).
    fn eval_conjunction(&mut self, cond: &Expr) -> (Value, Vec<Value>) {
        let mut parts: Vec<&Expr> = Vec::new();
        let mut stack = vec![cond];
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Binary(BinaryOp::LogicAnd, a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
                _ => parts.push(e),
            }
        }
        if parts.len() < 2 {
            return (self.eval(cond), Vec::new());
        }
        let values: Vec<Value> = parts.iter().map(|p| self.eval(p)).collect();
        let whole = values
            .iter()
            .cloned()
            .reduce(|a, b| self.binary(BinaryOp::LogicAnd, a, b))
            .unwrap_or_else(|| self.eval(cond));
        (whole, values)
    }

    /// Merges the scopes after the `then` branch (`after_then`) into the current ones,
    /// those after the `else` branch (or after none): equal values stay, different ones
    /// select on the condition. `returned`: whether each branch returned.
    fn merge_branches(
        &mut self,
        after_then: &[Vars],
        returned: (bool, bool),
        guard: Option<&Ir>,
        c: &Value,
    ) {
        let mut merged = std::mem::take(&mut self.scopes);
        for (depth, scope) in merged.iter_mut().enumerate() {
            for (name, v) in scope.iter_mut() {
                let t = after_then.get(depth).and_then(|s| s.get(name));
                let Some(t) = t else { continue };
                if t == v {
                    continue;
                }
                *v = merged_value(name, t, v, returned, guard, c);
            }
        }
        // Merges nest a `select` per branch: bound them as expressions are.
        for scope in &mut merged {
            for v in scope.values_mut() {
                if value_size(v) > MAX_IR_NODES {
                    *v = Value::Unknown("the index expression grows too large to follow".into());
                }
            }
        }
        self.scopes = merged;
    }
}

/// The value of `name` after an `if` whose `then` branch leaves `t` and whose `else`
/// branch leaves `v`: a branch that returned leaves the other's, a known condition
/// (`guard`) selects, data stays data, anything else is unknown.
fn merged_value(
    name: &str,
    t: &Value,
    v: &Value,
    (then_returned, else_returned): (bool, bool),
    guard: Option<&Ir>,
    c: &Value,
) -> Value {
    if then_returned {
        v.clone()
    } else if else_returned {
        t.clone()
    } else {
        match (guard, t, v) {
            (Some(g), Value::Int(a), Value::Int(b)) => Value::Int(Ir::Select(
                Box::new(g.clone()),
                Box::new(a.clone()),
                Box::new(b.clone()),
            )),
            // Vectors select component by component.
            (Some(g), t @ Value::Vector(_), v @ Value::Vector(_)) => {
                crate::lower::vector::merge(t, v, |a, b| match (a, b) {
                    (Value::Int(a), Value::Int(b)) => Some(Value::Int(Ir::Select(
                        Box::new(g.clone()),
                        Box::new(a.clone()),
                        Box::new(b.clone()),
                    ))),
                    _ => None,
                })
                .unwrap_or_else(|| {
                    Value::Unknown(
                        format!("`{name}` is assigned in a branch bankcheck cannot resolve").into(),
                    )
                })
            }
            // A branch that assigns data: the merged value depends on data.
            (_, d @ Value::Data(_), _) | (_, _, d @ Value::Data(_)) => d.clone(),
            // Floating-point values of the branches differ: data, as floats were.
            (_, Value::Real(_), _) | (_, _, Value::Real(_)) => {
                Value::Data("a floating-point value assigned in a branch".into())
            }
            (None, _, _) if matches!(c, Value::Data(_)) => Value::Data(format!(
                "`{name}` is assigned under a condition that depends on data ({})",
                c.reason()
            )),
            _ => Value::Unknown(
                format!("`{name}` is assigned in a branch bankcheck cannot resolve").into(),
            ),
        }
    }
}
