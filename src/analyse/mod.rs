//! Analyses of lowered accesses: exact enumeration (the oracle), the stride formula
//! and the F2 intersection count, and the choice between them.
//!
//! Never sees a syntax tree: its input is [`crate::lower::ir::LoweredAccess`].

pub mod enumerate;
pub mod verdict;

pub use enumerate::{enumerate, Budget};
pub use verdict::{Method, Verdict};

use crate::bank::BankParams;
use crate::lower::ir::LoweredAccess;

/// Decides one access: the cheapest exact analysis that applies, else enumeration.
pub fn analyse(access: &LoweredAccess, params: &BankParams, budget: Budget) -> Verdict {
    enumerate(access, params, budget)
}
