//! Building the run-wide index ([`ProjectIndex`]) from the files the caller hands in:
//! each file's text is scanned for launches and includes, in parallel, and the scans are
//! added in the caller's order, so the index does not depend on the thread count.

use crate::config::Settings;
use crate::project::{FileScan, ProjectIndex};
use rayon::prelude::*;
use std::path::PathBuf;

/// The include directories of every file's settings, each once, in order of first use:
/// the index reads headers from all of them.
pub fn include_dirs<'a>(settings: impl IntoIterator<Item = &'a Settings>) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for settings in settings {
        for dir in &settings.include_dirs {
            let dir = PathBuf::from(dir);
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
    }
    dirs
}

/// Scans every file of `files` whose text `text_of` gives (its path as reported, and
/// its text) into `index`; a file without text is left out (the caller reports it when
/// it is checked).
/// `checked`: whether the run checks them (else they are context only, see
/// `ProjectIndex::add_unchecked`).
pub(super) fn scan_into<T: Sync>(
    index: &mut ProjectIndex,
    files: &[T],
    checked: bool,
    text_of: impl Fn(&T) -> Option<(PathBuf, String)> + Sync + Send,
) {
    let scans: Vec<FileScan> = files
        .par_iter()
        .filter_map(|f| {
            let (path, text) = text_of(f)?;
            Some(FileScan::of(&path, &text))
        })
        .collect();
    for scan in scans {
        if checked {
            index.add(scan);
        } else {
            index.add_unchecked(scan);
        }
    }
}
