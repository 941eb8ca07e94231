//! Statements: blocks (their scope and guards), declarations, expressions, `while` and
//! `switch` (walked with what they assign unknown), `return`, `break` and `continue`;
//! `if` is in [`super::branches`], `for` in [`super::loops`].

use super::{Interp, Vars};
use crate::extract::ast::Stmt;
use crate::lower::steps::assigned_names;

impl Interp<'_> {
    /// Interprets a block in a scope of its own; the guards it adds end with it.
    pub(crate) fn block(&mut self, stmts: &[Stmt]) {
        let guard_len = self.flow.guards.len();
        self.scopes.push(Vars::default());
        for (i, s) in stmts.iter().enumerate() {
            if self.flow.returned {
                break;
            }
            match s {
                // A variable declared alone: the rest of the block is its scope.
                Stmt::Decl(ds) if ds.len() == 1 => {
                    self.charge_stmt();
                    self.declare_in(&ds[0], Some(&stmts[i + 1..]));
                }
                _ => self.stmt(s),
            }
        }
        self.scopes.pop();
        self.flow.guards.truncate(guard_len);
    }

    /// Charges one statement to the work budget.
    fn charge_stmt(&mut self) {
        if !self.calls.stack.is_empty() {
            self.budget.inline_work += 1;
        }
        self.budget.spend(1);
    }

    /// Interprets one statement.
    pub(super) fn stmt(&mut self, s: &Stmt) {
        self.charge_stmt();
        match s {
            Stmt::Decl(decls) => {
                for d in decls {
                    self.declare(d);
                }
            }
            Stmt::Expr(e) => {
                if !self.static_assertion(e) {
                    self.eval(e);
                }
            }
            Stmt::Block(b) => self.block(b),
            Stmt::If {
                cond,
                then,
                otherwise,
            } => self.if_stmt(cond, then, otherwise.as_deref()),
            Stmt::For {
                init,
                cond,
                update,
                body,
                ..
            } => self.for_stmt(init, cond.as_ref(), update, body),
            Stmt::While {
                cond,
                body,
                do_while,
            } => {
                let assigned = assigned_names(body);
                self.invalidate(&assigned, "it changes in a loop");
                if !*do_while {
                    self.eval(cond);
                }
                self.flow.opaque += 1;
                self.block(std::slice::from_ref(body));
                self.flow.opaque -= 1;
                self.flow.returned = false;
                self.invalidate(&assigned, "it changes in a loop");
            }
            Stmt::Switch { cond, body } => {
                self.eval(cond);
                let assigned = assigned_names(body);
                self.invalidate(&assigned, "it is assigned in a switch");
                // Each case is walked on its own: a `break` ends its case, not the switch.
                let cases: &[Stmt] = match body.as_ref() {
                    Stmt::Block(b) => b,
                    other => std::slice::from_ref(other),
                };
                self.flow.opaque += 1;
                for case in cases {
                    self.block(std::slice::from_ref(case));
                    self.flow.returned = false;
                }
                self.flow.opaque -= 1;
                self.invalidate(&assigned, "it is assigned in a switch");
            }
            Stmt::Return(e) => {
                let v = e.as_ref().map(|e| self.eval(e));
                if !self.calls.stack.is_empty() {
                    self.record_return(v);
                }
                self.flow.returned = true;
            }
            // Lanes that leave the loop body skip the rest of it: like a return, the
            // enclosing `if` turns into a guard on what follows.
            Stmt::Break | Stmt::Continue => self.flow.returned = true,
            Stmt::Alias { name, text } => {
                self.local_alias(name, text);
                self.local_type(name, text);
            }
            Stmt::Macro(m) => self.macro_statement(m),
            Stmt::Other => {}
        }
    }
}
