//! Rules: turn analysis results into diagnostics with ids, severities and messages.
//!
//! One file per rule (named after its id) holds its metadata; `registry.rs` lists them.

pub mod bank_conflict;
pub mod internal_error;
pub mod layout_conflict;
pub mod parse_error;
pub mod possible_conflict;
pub mod registry;
pub mod stride_conflict;
pub mod suppress;
pub mod undecided_access;
pub mod unused_suppression;

pub use registry::{rule, RuleMeta, RULES};
