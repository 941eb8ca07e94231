//! Configuration: the `lint.toml` schema, its parsing, and resolution into [`Settings`].

pub mod settings;

pub use settings::{BlockOverride, Settings};
