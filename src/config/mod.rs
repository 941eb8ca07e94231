//! Configuration: the `lint.toml` schema, its parsing, and resolution into [`Settings`].
//!
//! Nothing here reads files: the command line hands in text and paths. Depends on
//! `bank` and `diag` only: the rules known to the build are handed in as [`RuleInfo`]s.

pub mod error;
pub mod options;
pub mod resolve;
pub mod settings;

pub use error::ConfigError;
pub use resolve::{Config, Exclusions, Layer, PathGlobs, PerFileIgnore, Preset, RuleInfo};
pub use settings::{BlockOverride, Settings};
