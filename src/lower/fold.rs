//! Constant folding of index IR as it is built, so that expressions stay small.

use crate::model::ir::{BinOp, Expr as Ir};

/// Folds constant subexpressions so that the IR stays small.
pub(super) fn fold(op: BinOp, a: Ir, b: Ir) -> Ir {
    let e = Ir::bin(op, a, b);
    if let Some(c) = e.as_const() {
        Ir::Const(c)
    } else {
        if let Ir::Binary(op, a, b) = &e {
            match (op, a.as_ref(), b.as_ref()) {
                (
                    BinOp::Add | BinOp::Sub | BinOp::Or | BinOp::Xor | BinOp::Shl | BinOp::Shr,
                    x,
                    Ir::Const(0),
                ) => return x.clone(),
                (BinOp::Add | BinOp::Or | BinOp::Xor, Ir::Const(0), x) => return x.clone(),
                (BinOp::Mul | BinOp::Div, x, Ir::Const(1)) => return x.clone(),
                (BinOp::Mul, Ir::Const(1), x) => return x.clone(),
                (BinOp::Mul, _, Ir::Const(0)) | (BinOp::Mul, Ir::Const(0), _) => {
                    return Ir::Const(0)
                }
                _ => {}
            }
        }
        e
    }
}
