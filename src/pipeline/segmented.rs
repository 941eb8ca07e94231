//! Big files a segment at a time: a file of many independent kernels is split
//! ([`crate::source::segments`]) into groups of top-level items that need nothing from
//! one another, and each group is parsed (only its byte ranges), extracted, lowered,
//! analysed and given its findings before the next, so the syntax and the sites of
//! only one segment are alive at once. Every span stays the file's own, and a segment
//! holds all that its code reads (its callees, launches, macros, the other accesses of
//! its arrays), so the findings are the whole file's.

use super::{check_tree, Caches, Inputs};
use crate::config::Settings;
use crate::project::ProjectIndex;
use crate::source::segments::Segment;
use crate::source::SourceFile;
use crate::FileReport;
use std::path::Path;
use std::time::Instant;

/// The segments `file` is checked in, when it is at least `segment_from_bytes` long and
/// can be split; `None` to check it whole.
pub(super) fn plan(
    file: &SourceFile,
    path: &Path,
    project: &ProjectIndex,
    settings: &Settings,
) -> Option<Vec<Segment>> {
    if file.parse_text().len() < settings.segment_from_bytes
        // A header others include is lowered with their functions, and undecided
        // conditionals are resolved by looking at the whole file's parse.
        || project.is_included(path)
        || crate::source::has_undecided(file)
        // A head written as a macro use names its function only in its expansion, which
        // the text scan of the segments does not see (its kernel and launches could part).
        || !file.macro_heads.is_empty()
    {
        return None;
    }
    crate::source::segments::segments_spelled(file.parse_text(), &file.text, settings.segment_bytes)
}

/// Checks each segment of `plan`, adding its findings to `report`. False when a segment
/// does not parse cleanly (the parser may have read the file whole otherwise, with its
/// own error recovery): the caller then checks the file whole.
pub(super) fn check(
    inputs: &Inputs<'_>,
    plan: &[Segment],
    caches: &Caches,
    report: &mut FileReport,
) -> bool {
    // Line starts of the parsed text, for the parser's points (only `\n` ends its lines).
    let text = inputs.file.parse_text();
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
        .collect();
    for segment in plan {
        let clock = Instant::now();
        let Some(tree) = crate::source::parse_ranges(inputs.file, &segment.ranges, &line_starts)
        else {
            return false;
        };
        report.stats.parse += clock.elapsed();
        if tree.root_node().has_error() {
            return false;
        }
        check_tree(inputs, tree, caches, report);
    }
    true
}
