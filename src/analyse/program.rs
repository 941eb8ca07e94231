//! An expression flattened into a little stack program, for enumeration.
//!
//! Enumeration evaluates the same guards and address for every lane of every warp
//! and every combination of values: walking a boxed tree each time costs a pointer
//! chase per node. The flat form evaluates the same thing, with the same C semantics
//! (short-circuit `&&` and `||`, only the taken side of `?:`), in one pass over an
//! array.

use crate::lower::ir::{BinOp, Expr, UnOp};

#[derive(Debug, Clone, Copy)]
enum Op {
    Const(i64),
    Var(usize),
    Unary(UnOp),
    Binary(BinOp),
    /// `&&` after its left side: 0 and jump when that is false.
    AndElse(usize),
    /// `||` after its left side: 1 and jump when that is true.
    OrElse(usize),
    /// The right side's truth (0 or 1), ending a short-circuit operator.
    Truth,
    /// Pops a condition and jumps when it is false.
    JumpIfFalse(usize),
    Jump(usize),
}

/// A flattened [`Expr`]; [`Program::eval`] gives what [`Expr::eval`] gives.
#[derive(Debug, Clone)]
pub struct Program {
    ops: Vec<Op>,
}

impl Program {
    pub fn new(e: &Expr) -> Program {
        let mut ops = Vec::new();
        emit(e, &mut ops);
        Program { ops }
    }

    /// Evaluates with C semantics; `None` on division by zero or an out-of-range shift.
    /// `stack` is scratch space, reused across calls.
    pub fn eval(&self, values: &[i64], stack: &mut Vec<i64>) -> Option<i64> {
        stack.clear();
        let mut pc = 0;
        while let Some(op) = self.ops.get(pc) {
            pc += 1;
            match *op {
                Op::Const(c) => stack.push(c),
                Op::Var(i) => stack.push(*values.get(i)?),
                Op::Unary(u) => {
                    let a = stack.pop()?;
                    stack.push(u.apply(a));
                }
                Op::Binary(b) => {
                    let rhs = stack.pop()?;
                    let lhs = stack.pop()?;
                    stack.push(b.apply(lhs, rhs)?);
                }
                Op::AndElse(to) => {
                    if stack.last().copied()? == 0 {
                        pc = to;
                    } else {
                        stack.pop();
                    }
                }
                Op::OrElse(to) => {
                    if stack.last().copied()? != 0 {
                        *stack.last_mut()? = 1;
                        pc = to;
                    } else {
                        stack.pop();
                    }
                }
                Op::Truth => {
                    let a = stack.pop()?;
                    stack.push(i64::from(a != 0));
                }
                Op::JumpIfFalse(to) => {
                    if stack.pop()? == 0 {
                        pc = to;
                    }
                }
                Op::Jump(to) => pc = to,
            }
        }
        stack.pop()
    }
}

fn emit(e: &Expr, ops: &mut Vec<Op>) {
    match e {
        Expr::Const(c) => ops.push(Op::Const(*c)),
        Expr::Var(i) => ops.push(Op::Var(*i)),
        Expr::Unary(u, a) => {
            emit(a, ops);
            ops.push(Op::Unary(*u));
        }
        Expr::Binary(op @ (BinOp::LogicAnd | BinOp::LogicOr), a, b) => {
            emit(a, ops);
            let at = ops.len();
            ops.push(Op::Jump(0)); // patched below
            emit(b, ops);
            ops.push(Op::Truth);
            let end = ops.len();
            ops[at] = if *op == BinOp::LogicAnd {
                Op::AndElse(end)
            } else {
                Op::OrElse(end)
            };
        }
        Expr::Binary(op, a, b) => {
            emit(a, ops);
            emit(b, ops);
            ops.push(Op::Binary(*op));
        }
        Expr::Select(c, t, f) => {
            emit(c, ops);
            let branch = ops.len();
            ops.push(Op::JumpIfFalse(0)); // patched below
            emit(t, ops);
            let skip = ops.len();
            ops.push(Op::Jump(0)); // patched below
            ops[branch] = Op::JumpIfFalse(ops.len());
            emit(f, ops);
            ops[skip] = Op::Jump(ops.len());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const BINOPS: [BinOp; 20] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::LogicAnd,
        BinOp::LogicOr,
        BinOp::Min,
        BinOp::Max,
    ];

    fn expr() -> impl Strategy<Value = Expr> {
        let leaf = prop_oneof![
            (-4i64..70).prop_map(Expr::Const),
            (0usize..3).prop_map(Expr::Var)
        ];
        leaf.prop_recursive(5, 48, 3, |inner| {
            prop_oneof![
                (0usize..3, inner.clone()).prop_map(|(u, a)| {
                    let u = [UnOp::Neg, UnOp::BitNot, UnOp::LogicNot][u];
                    Expr::Unary(u, Box::new(a))
                }),
                (0usize..BINOPS.len(), inner.clone(), inner.clone())
                    .prop_map(|(op, a, b)| Expr::bin(BINOPS[op], a, b)),
                (inner.clone(), inner.clone(), inner)
                    .prop_map(|(c, t, e)| { Expr::Select(Box::new(c), Box::new(t), Box::new(e)) }),
            ]
        })
    }

    proptest! {
        /// The flat program and the tree agree on every expression and every values,
        /// failures (division by zero, bad shifts) included.
        #[test]
        fn program_agrees_with_the_tree(e in expr(), values in proptest::collection::vec(-3i64..40, 3)) {
            let mut stack = Vec::new();
            prop_assert_eq!(Program::new(&e).eval(&values, &mut stack), e.eval(&values));
        }
    }

    #[test]
    fn short_circuits_skip_failing_sides() {
        let fail = Expr::bin(BinOp::Div, Expr::Const(1), Expr::Const(0));
        let and = Expr::bin(BinOp::LogicAnd, Expr::Const(0), fail.clone());
        let or = Expr::bin(BinOp::LogicOr, Expr::Const(7), fail.clone());
        let sel = Expr::Select(
            Box::new(Expr::Var(0)),
            Box::new(Expr::Const(5)),
            Box::new(fail),
        );
        let mut stack = Vec::new();
        assert_eq!(Program::new(&and).eval(&[], &mut stack), Some(0));
        assert_eq!(Program::new(&or).eval(&[], &mut stack), Some(1));
        assert_eq!(Program::new(&sel).eval(&[1], &mut stack), Some(5));
        assert_eq!(Program::new(&sel).eval(&[0], &mut stack), None);
    }
}
