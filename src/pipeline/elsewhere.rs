//! An access in a helper of another file that reaches this file's array is reported
//! here, at the call that hands the array over (`claim_foreign_sites`): where the access
//! itself is, in that file, for the reports and the suppression comments written there.

use crate::diag::{HelperElsewhere, Span};
use crate::project::ProjectIndex;
use std::collections::HashMap;
use std::sync::Arc;

/// The helpers' files of one report, each indexed once: its path and line starts.
pub(super) struct HelperFiles<'a> {
    project: &'a ProjectIndex,
    by_text: HashMap<usize, Option<(String, Vec<usize>)>>,
}

impl<'a> HelperFiles<'a> {
    pub(super) fn new(project: &'a ProjectIndex) -> Self {
        HelperFiles {
            project,
            by_text: HashMap::new(),
        }
    }

    /// Where `span` of `text` (a header's, see `Function::foreign_text`) is; `None` when
    /// the run does not know that text's file.
    pub(super) fn place(&mut self, text: &Arc<str>, span: Span) -> Option<Box<HelperElsewhere>> {
        let project = self.project;
        let file = self
            .by_text
            .entry(Arc::as_ptr(text).cast::<u8>() as usize)
            .or_insert_with(|| {
                let path = project.path_of_header_text(text)?;
                Some((path.display().to_string(), crate::diag::line_starts(text)))
            });
        let (path, starts) = file.as_ref()?;
        let (line, column) = line_col(text, starts, span.start);
        let (end_line, end_column) = line_col(text, starts, span.end.max(span.start));
        Some(Box::new(HelperElsewhere {
            path: path.clone(),
            line,
            column,
            end_line,
            end_column,
            suppressions: crate::rules::suppress::at_line_of(text, span.start),
        }))
    }
}

/// 1-based line and column (in characters) of byte `offset`, as the reports count them.
fn line_col(text: &str, starts: &[usize], offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line = starts.partition_point(|&s| s <= offset).max(1);
    let start = starts[line - 1];
    (line, text[start..offset].chars().count() + 1)
}
