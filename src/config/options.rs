//! The `lint.toml` schema: every key optional, unknown keys rejected, values kept with
//! their byte spans so that problems found after parsing still point into the file.
//!
//! This module only parses text into [`Options`]; resolving into [`super::Settings`]
//! happens in `resolve.rs`. It does no I/O.

use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

macro_rules! options_struct {
    ($(#[$meta:meta])* $name:ident { $($(#[$fmeta:meta])* $extra:ident : $ety:ty,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, Deserialize)]
        #[serde(deny_unknown_fields, rename_all = "kebab-case")]
        pub struct $name {
            $($(#[$fmeta])* pub $extra: $ety,)*
            /// Hardware preset: `nvidia`, `amd-rdna-wave32`, `amd-gcn-wave64` or `intel-xe`.
            /// Explicit `bank-count`, `bank-width` and `warp-size` win over it.
            pub preset: Option<Spanned<String>>,
            /// Number of shared-memory banks (a power of two). Default 32.
            pub bank_count: Option<Spanned<u32>>,
            /// Bytes per bank word (a power of two). Default 4.
            pub bank_width: Option<Spanned<u32>>,
            /// Lanes that issue one shared-memory instruction together (warp or wave size). Default 32.
            pub warp_size: Option<Spanned<u32>>,
            /// Default block shape per kernel name, `"*"` for any kernel: `[x, y, z]`, missing sizes are 1.
            pub block_shapes: Option<BTreeMap<String, Spanned<Vec<u32>>>>,
            /// Preprocessor defines, `-D` style: `["TILE=32", "USE_PAD"]`.
            pub defines: Option<Vec<Spanned<String>>>,
            /// Directories searched for `#include "..."`, relative to this file.
            pub include_dirs: Option<Vec<String>>,
            /// Smallest conflict factor reported as a finding. Default 2.
            pub min_conflict_factor: Option<Spanned<f64>>,
            /// Only these rules (ids or groups) are enabled.
            pub select: Option<Vec<Spanned<String>>>,
            /// These rules (ids or groups) are enabled on top of `select` (or the defaults).
            pub extend_select: Option<Vec<Spanned<String>>>,
            /// These rules (ids or groups) are disabled.
            pub ignore: Option<Vec<Spanned<String>>>,
            /// Severity per rule id or group: `error`, `warning`, `info` or `off`.
            pub rules: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
            /// The least severity that makes the exit status 1: `error`, `warning` or `info`. Default `warning`.
            pub fail_on: Option<Spanned<String>>,
        }
    };
}

options_struct! {
    /// The top level of a `lint.toml`.
    Options {
        /// File-name globs a directory walk picks up. Default: `*.cu`, `*.cuh`, `*.hlsl`, `*.hlsli`, `*.fx`.
        include: Option<Vec<String>>,
        /// Whether a directory walk also checks the C/C++ headers (`.h`, `.hpp`, ...) it
        /// finds that declare shared memory. Default true.
        include_headers: Option<bool>,
        /// Globs (relative to this file's directory, or names) that a directory walk
        /// skips, instead of the default list (`resolve::DEFAULT_EXCLUDE`).
        exclude: Option<Spanned<Vec<String>>>,
        /// Globs a directory walk skips as well as `exclude` (or the default list).
        extend_exclude: Option<Spanned<Vec<String>>>,
        /// Rules (ids or groups) turned off for the files a glob matches, relative to this
        /// file's directory: `"tests/**" = ["possible-conflict"]`.
        per_file_ignores: Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>,
        /// Settings for some paths only: `files = ["glob"]` plus any setting key.
        overrides: Option<Vec<Override>>,
    }
}

options_struct! {
    /// One `[[overrides]]` table: settings that apply to the files its globs match.
    Override {
        /// Globs relative to the directory of the `lint.toml` that declares them.
        files: Option<Spanned<Vec<String>>>,
    }
}

/// Every top-level key, for "did you mean" suggestions and the docs test.
pub const TOP_LEVEL_KEYS: &[&str] = &[
    "preset",
    "bank-count",
    "bank-width",
    "warp-size",
    "include",
    "include-headers",
    "exclude",
    "extend-exclude",
    "block-shapes",
    "defines",
    "include-dirs",
    "min-conflict-factor",
    "select",
    "extend-select",
    "ignore",
    "rules",
    "fail-on",
    "per-file-ignores",
    "overrides",
];

/// Parses the text of a `lint.toml`; errors carry the byte span toml reported.
pub(crate) fn parse(text: &str) -> Result<Options, toml::de::Error> {
    toml::from_str(text)
}
