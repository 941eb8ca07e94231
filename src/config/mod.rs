//! Configuration: the `lint.toml` schema, its parsing, and resolution into [`Settings`].
//!
//! Nothing here reads files: the command line hands in text and paths. Depends on
//! `bank`, `diag` and the rule registry (to check rule ids) only.

pub mod error;
pub mod options;
pub mod resolve;
pub mod settings;

pub use error::ConfigError;
pub use resolve::{Config, Layer, Preset};
pub use settings::{BlockOverride, Settings};
