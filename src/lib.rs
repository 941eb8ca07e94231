//! bankcheck: a static linter for shared-memory bank conflicts in CUDA and HLSL.
//!
//! The pipeline is `source -> extract -> lower -> analyse -> rules -> report`;
//! `f2`, `bank` and `diag` are leaves. Every caller checks files through one driver,
//! [`driver::Session`]. See docs/architecture.md for the map.

pub mod analyse;
pub mod bank;
pub mod config;
pub mod diag;
pub mod driver;
pub mod extract;
pub mod f2;
pub mod fix;
pub mod lower;
pub mod model;
pub mod project;
pub mod report;
pub mod rules;
pub mod source;
pub mod swizzle;

use crate::config::Settings;
use crate::diag::{AccessFacts, Diagnostic};

/// The source language of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Cuda,
    Hlsl,
}

/// Everything bankcheck found in one file.
#[derive(Debug, Clone)]
pub struct FileReport {
    /// The path as the user named it (or as found under a named directory).
    pub path: String,
    /// The decoded text (lossy for non-UTF-8 input); spans index into it.
    pub text: String,
    pub language: Option<Language>,
    /// Findings, sorted by span start then rule id.
    pub diagnostics: Vec<Diagnostic>,
    /// Every shared-memory access site found, decided or not.
    pub accesses: Vec<AccessFacts>,
    /// What became of each shared array the file declares.
    pub arrays: ArrayStates,
    /// Accesses in this file's helpers that another file of the run reports, at the call
    /// that hands them its array: a suppression comment here acts there.
    pub reported_elsewhere: Vec<diag::Span>,
    /// Time spent per stage, for `--stats`.
    pub stats: FileStats,
}

/// The shared arrays a file declares, by what the run found of them: every array ends in
/// exactly one state, so that coverage counts what bankcheck cannot see.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArrayStates {
    /// At least one access decided (conflict-free or conflicting).
    pub reported: usize,
    /// Accesses found, none decided: all reported `unknown`.
    pub unknown: usize,
    /// No access found (an `undecided-access` diagnostic says why, when the rule is on).
    pub undecided: usize,
}

/// Time one file took per stage of the pipeline, and its slowest access.
#[derive(Debug, Clone, Default)]
pub struct FileStats {
    pub parse: std::time::Duration,
    pub extract: std::time::Duration,
    pub lower: std::time::Duration,
    pub analyse: std::time::Duration,
    pub rules: std::time::Duration,
    /// The access that took longest to analyse: its span and the time.
    pub slowest_access: Option<(crate::diag::Span, std::time::Duration)>,
    /// Regions the parser could not read that hold no shared-memory code: counted, not
    /// reported (`parse-error` reports the others).
    pub unreported_parse_errors: usize,
}

/// Checks one file's contents on its own (no other file of a run, no header read): a
/// [`driver::Session`] of that file alone. Never panics on any input (a panic becomes an
/// `internal-error` finding) and does no I/O: the bytes are handed in, the report handed
/// back. `path` picks the language by extension (and by content for C/C++ headers) and is
/// reported as given.
pub fn check_source(path: &str, bytes: &[u8], settings: &Settings) -> FileReport {
    driver::Session::new().check(path, bytes, settings)
}

mod pipeline;
