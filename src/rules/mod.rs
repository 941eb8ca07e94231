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
pub(crate) mod conflict;

use crate::config::Settings;
use crate::diag::{AccessFacts, Diagnostic};
use crate::lower::site::LoweredFile;
use crate::pipeline::AnalysedSite;

/// Runs every per-access rule on one analysed access.
pub(crate) fn check_access(a: &AnalysedSite, facts: &AccessFacts, lowered: &LoweredFile, settings: &Settings, out: &mut Vec<Diagnostic>) {
    bank_conflict::check(a, facts, lowered, settings, out);
    stride_conflict::check(a, facts, lowered, settings, out);
    possible_conflict::check(a, facts, lowered, settings, out);
    undecided_access::check(a, facts, settings, out);
}

/// Runs the per-array rules (layouts that cannot serve all accesses).
pub(crate) fn check_arrays(_analysed: &[AnalysedSite], _lowered: &LoweredFile, _settings: &Settings, _out: &mut [Diagnostic]) {}
