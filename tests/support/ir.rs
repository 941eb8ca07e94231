//! Building index IR by hand, for the property tests that generate accesses
//! (`sampled_domains.rs`, `enumeration_shortcuts.rs`).

use bankcheck::model::ir::{BinOp, BlockShape, Expr, LoweredAccess, VarInfo, VarKind};

pub fn var(name: &str, kind: VarKind) -> VarInfo {
    VarInfo {
        name: name.to_string(),
        kind,
        loop_value: None,
    }
}

/// A constant, a variable, a binary operation: the address and guards are written
/// with these.
pub fn c(k: i64) -> Expr {
    Expr::Const(k)
}

pub fn v(i: usize) -> Expr {
    Expr::Var(i)
}

pub fn b(op: BinOp, x: Expr, y: Expr) -> Expr {
    Expr::bin(op, x, y)
}

/// A plain (not atomic) access of `width` bytes at `address` (bytes) under `guards`, in
/// warps of 32.
pub fn access(
    vars: Vec<VarInfo>,
    address: Expr,
    guards: Vec<Expr>,
    block: BlockShape,
    width: u32,
) -> LoweredAccess {
    LoweredAccess {
        vars,
        address,
        width,
        atomic: false,
        guards,
        block,
        warp_size: 32,
        coords: None,
        extents: vec![],
    }
}
