//! Thread-local arrays that are tables of values the code only reads:
//! `int2 offset[4] = {int2(0, 0), int2(8, 0), int2(0, 8), int2(8, 8)};`, then
//! `s[gtid + offset[j]]` in a loop over `j`. Every lane holds its own copy, with the
//! same entries, so an element is a function of its index: a `select` over the entries
//! (`j == 0 ? e0 : j == 1 ? e1 : ...`), exact for every index in range (one out of
//! range reads past the array, which C and HLSL leave undefined).
//!
//! Only a one-dimensional array declared alone, whose initialiser gives every entry an
//! integer or an integer vector, and whose name the rest of its block uses subscripted
//! only: never assigned, incremented, given its address, handed (whole or an element) to
//! a call, whose `out` or reference parameter might write it, nor declared again there.

use super::uniform_state::has_unread_statement;
use super::{fold, int, Interp, Value};
use crate::diag::Span;
use crate::extract::ast::{Expr, ExprKind, Stmt, UnaryOp, VarDecl};
use crate::model::ir::{BinOp, Expr as Ir};

/// Most entries a table holds: a longer array stays per-lane data.
const MAX_ENTRIES: usize = 64;

impl Interp<'_> {
    /// Declares the thread-local array `d`, alone in its declaration, whose scope is
    /// `rest` (the statements after it in its block, when known).
    pub(super) fn declare_local_array(&mut self, d: &VarDecl, rest: Option<&[Stmt]>) {
        let Some(init) = &d.init else {
            self.bind(&d.name, Value::Local(None));
            return;
        };
        // `{e0, e1, ...}` reads as a construction of the element type from the entries.
        let entries = match &init.kind {
            ExprKind::Call { callee, args, .. } if *callee == d.ty.base && d.extents.len() == 1 => {
                args.iter().map(|a| self.eval(a)).collect::<Vec<_>>()
            }
            _ => {
                self.eval(init);
                self.bind(&d.name, Value::Local(None));
                return;
            }
        };
        let length = match &d.extents[0] {
            Some(e) => self.const_eval(e),
            None => i64::try_from(entries.len()).ok(),
        };
        let table = rest.is_some_and(|r| only_read(r, &d.name))
            && length == i64::try_from(entries.len()).ok()
            && (1..=MAX_ENTRIES).contains(&entries.len())
            && same_shape(&entries);
        if table {
            self.tables.insert(d.name_span, entries);
            self.bind(&d.name, Value::Local(Some(d.name_span)));
        } else {
            self.bind(&d.name, Value::Local(None));
        }
    }

    /// Entry `index` of the table declared at `table`, `None` when it is not one or the
    /// index is not an integer.
    pub(super) fn table_element(&self, table: Span, index: &Value) -> Option<Value> {
        let entries = self.tables.get(&table)?;
        let Value::Int(index) = index else {
            return None;
        };
        if let Some(k) = index.as_const() {
            return usize::try_from(k)
                .ok()
                .and_then(|k| entries.get(k))
                .cloned();
        }
        let pick = |part: &dyn Fn(&Value) -> Option<Ir>| -> Option<Ir> {
            select_over(
                index,
                entries.iter().map(part).collect::<Option<Vec<Ir>>>()?,
            )
        };
        match &entries[0] {
            Value::Int(_) => pick(&|v| match v {
                Value::Int(i) => Some(i.clone()),
                _ => None,
            })
            .map(Value::Int),
            Value::Vector(first) => (0..first.len())
                .map(|c| {
                    pick(&|v| match v {
                        Value::Vector(comps) => match comps.get(c) {
                            Some(Value::Int(i)) => Some(i.clone()),
                            _ => None,
                        },
                        _ => None,
                    })
                    .map(Value::Int)
                })
                .collect::<Option<Vec<_>>>()
                .map(Value::Vector),
            _ => None,
        }
    }
}

/// `parts[index]` as `index == 0 ? parts[0] : index == 1 ? parts[1] : ...`, the last
/// entry standing for every index past the others (an index out of range is undefined).
fn select_over(index: &Ir, mut parts: Vec<Ir>) -> Option<Ir> {
    let mut out = parts.pop()?;
    for (k, e) in parts.into_iter().enumerate().rev() {
        if e != out {
            let at = fold(BinOp::Eq, index.clone(), int(k as i64));
            out = Ir::Select(Box::new(at), Box::new(e), Box::new(out));
        }
    }
    Some(out)
}

/// Every entry an integer, or every entry an integer vector of one length.
fn same_shape(entries: &[Value]) -> bool {
    let ints = |c: &[Value]| c.iter().all(|v| matches!(v, Value::Int(_)));
    match entries.first() {
        Some(Value::Int(_)) => ints(entries),
        Some(Value::Vector(first)) => entries
            .iter()
            .all(|v| matches!(v, Value::Vector(c) if c.len() == first.len() && ints(c))),
        _ => false,
    }
}

/// True when `rest` uses `name` subscripted only, and never writes it or lets a call
/// see it (see the module's comment).
fn only_read(rest: &[Stmt], name: &str) -> bool {
    let roots_at = |e: &Expr| root(e) == Some(name);
    let (mut ok, mut named, mut subscripted) = (true, 0usize, 0usize);
    for s in rest {
        if has_unread_statement(s) {
            return false;
        }
        s.walk_decls(&mut |d| ok &= d.name != name);
        s.walk_exprs(&mut |e| match &e.kind {
            ExprKind::Ident(n) if n == name => named += 1,
            ExprKind::Index(a, _) if matches!(&a.kind, ExprKind::Ident(n) if n == name) => {
                subscripted += 1;
            }
            ExprKind::Assign(_, l, _) | ExprKind::IncDec(l, _) => ok &= !roots_at(l),
            ExprKind::Unary(UnaryOp::AddrOf, x) => ok &= !roots_at(x),
            ExprKind::Call { args, .. } => ok &= !args.iter().any(&roots_at),
            ExprKind::Asm(asm) => ok &= !asm.outputs.iter().any(|o| roots_at(&o.value)),
            _ => {}
        });
    }
    ok && named == subscripted
}

/// The variable an lvalue `e` is part of (`t` of `t[i].x`).
fn root(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n),
        ExprKind::Index(b, _) | ExprKind::Member(b, _) | ExprKind::Cast(_, b) => root(b),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_select_over_the_entries_picks_the_entry_of_each_index() {
        let entries = [5, 7, 5, 5, 9, 9];
        let parts = entries.iter().map(|&e| int(e)).collect();
        let picked = select_over(&Ir::Var(0), parts).expect("entries");
        for (k, &e) in entries.iter().enumerate() {
            assert_eq!(picked.eval(&[k as i64]), Some(e), "index {k}");
        }
        assert_eq!(select_over(&Ir::Var(0), Vec::new()), None);
    }
}
