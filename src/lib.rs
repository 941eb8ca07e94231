//! bankcheck: a static linter for shared-memory bank conflicts in CUDA and HLSL.
//!
//! The pipeline is `source -> extract -> lower -> analyse -> rules -> report`;
//! `f2`, `bank` and `diag` are leaves. See docs/architecture.md for the map.

pub mod analyse;
pub mod bank;
pub mod config;
pub mod diag;
pub mod f2;
pub mod lower;
pub mod rules;
