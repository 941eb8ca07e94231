//! Lowering: from extracted index expressions to the index IR over thread, loop and
//! uniform variables, flattened to byte addresses.

pub mod affine;
pub mod ir;
