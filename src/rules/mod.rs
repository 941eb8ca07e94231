//! Rules: turn what the passes found in a file ([`FileFacts`]) into diagnostics with ids,
//! messages and default severities.
//!
//! One file per rule (named after its id) holds its metadata and its [`Rule`];
//! `registry.rs` lists them. The conflict rules share one check (`conflict.rs`).

pub mod bank_conflict;
pub mod group;
pub mod internal_error;
pub mod layout_conflict;
pub mod parse_error;
pub mod possible_conflict;
pub mod registry;
pub mod retired_rule_id;
pub mod suppress;
pub mod undecided_access;
pub mod unused_suppression;

pub use facts::{FileFacts, Layout, Layouts, UnfoundArray, Unparsed};
pub use registry::{catalog, metas, rule, RULES};
pub use rule::{Rule, RuleMeta};
mod bank_map;
pub(crate) mod conflict;
mod facts;
mod rule;
