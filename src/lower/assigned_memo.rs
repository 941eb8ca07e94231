//! What each statement of one loop assigns, computed once per loop.
//!
//! Finding a loop's inductions asks, for every variable the body assigns, what the body
//! and each of its statements (and those of the loops nested in it) assign: a body of
//! `n` statements assigning `v` variables was walked about `v * n` times, a fifth of a
//! CUTLASS run (docs/performance.md). [`steps::assigned_names`](super::steps::assigned_names)
//! is a pure function of the statement, so each statement's answer is kept while the
//! loop is interpreted.

use super::steps::assigned_names;
use crate::extract::ast::Stmt;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::rc::Rc;

/// `assigned_names` of statements that all outlive the memo (`'s`): a statement's
/// address names it while the memo lives, since none can be freed and replaced.
#[derive(Default)]
pub(super) struct AssignedMemo<'s> {
    by_stmt: HashMap<usize, Rc<[String]>>,
    borrowed: PhantomData<&'s Stmt>,
}

impl<'s> AssignedMemo<'s> {
    /// The names `s` assigns, as [`assigned_names`] gives them.
    pub(super) fn of(&mut self, s: &'s Stmt) -> Rc<[String]> {
        let key = std::ptr::from_ref(s) as usize;
        self.by_stmt
            .entry(key)
            .or_insert_with(|| assigned_names(s).into())
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::ast::{Expr, ExprKind};

    fn assign(name: &str) -> Stmt {
        let e = |kind| Expr {
            span: crate::diag::Span::default(),
            kind,
        };
        Stmt::Expr(e(ExprKind::Assign(
            None,
            Box::new(e(ExprKind::Ident(name.to_string()))),
            Box::new(e(ExprKind::Int(1))),
        )))
    }

    #[test]
    fn each_statement_answers_as_assigned_names() {
        let body = Stmt::Block(vec![assign("a"), assign("b"), assign("a")]);
        let mut memo = AssignedMemo::default();
        assert_eq!(&*memo.of(&body), assigned_names(&body).as_slice());
        let Stmt::Block(stmts) = &body else {
            unreachable!()
        };
        // Two statements with equal text are still two statements.
        assert_eq!(&*memo.of(&stmts[0]), ["a".to_string()].as_slice());
        assert_eq!(&*memo.of(&stmts[1]), ["b".to_string()].as_slice());
        assert_eq!(&*memo.of(&stmts[2]), ["a".to_string()].as_slice());
        assert_eq!(memo.by_stmt.len(), 4);
    }
}
