//! The resolved settings every stage below `cli` reads: no I/O, no parsing here.

use crate::bank::BankParams;
use crate::diag::Severity;
use std::collections::BTreeMap;

/// A block shape fixed by configuration for kernels matching a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockOverride {
    /// Kernel name, or `*` for every kernel whose shape nothing else fixes.
    pub kernel: String,
    pub shape: (u32, u32, u32),
}

/// Everything the analysis of one file needs to know, resolved from defaults,
/// lint.toml and the command line.
#[derive(Debug, Clone)]
pub struct Settings {
    pub bank: BankParams,
    /// Block shapes from configuration (`[block-shapes]`), consulted after the source.
    pub block_shapes: Vec<BlockOverride>,
    /// `-D NAME=VALUE` defines, applied before the file's own `#define`s.
    pub defines: BTreeMap<String, String>,
    /// `-I DIR` and `include-dirs`: where `#include "..."` is looked up, in order.
    pub include_dirs: Vec<String>,
    /// Smallest conflict factor reported as a finding.
    pub min_conflict_factor: f64,
    /// Severity per rule id; a rule absent here uses its default, `None` = off.
    pub severities: BTreeMap<String, Option<Severity>>,
    /// The severity at and above which the exit status is 1.
    pub fail_on: Severity,
    /// Lane-evaluation budget per access for exact enumeration.
    pub max_lane_evals: u64,
    /// Files whose text is at least this long are checked a segment at a time
    /// (`source::segments`), so that their memory is a segment's, not the whole file's.
    /// Not a lint.toml key: the verdicts are the same either way.
    pub segment_from_bytes: usize,
    /// About how many bytes of code each segment of such a file holds.
    pub segment_bytes: usize,
    /// Whether conflicts carry their bank maps: only the reports that draw them need
    /// them (`--show-banks`, `--format html`, the GitHub step summary), and a big run's
    /// maps take memory. Not a lint.toml key.
    pub bank_maps: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            bank: BankParams::default(),
            block_shapes: Vec::new(),
            defines: BTreeMap::new(),
            include_dirs: Vec::new(),
            min_conflict_factor: 1.0,
            severities: BTreeMap::new(),
            fail_on: Severity::Warning,
            max_lane_evals: 1 << 17,
            segment_from_bytes: 2 << 20,
            segment_bytes: 1 << 19,
            bank_maps: true,
        }
    }
}
