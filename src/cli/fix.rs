//! `--fix` and `--diff`: applying the suggestions marked safe with the library's edit
//! engine (`bankcheck::fix`), keeping the file's line endings and leaving non-UTF-8
//! files alone. A file is rewritten in place, as rustfmt and ruff do, so its symbolic
//! links, hard links, owner, group, mode and extended attributes stay as they were; and
//! only after checking that it is writable by intent (a mode with no write bit is
//! refused even to root) and unchanged since it was read. docs/reliability.md lists the
//! guarantees.

use super::read::Stamp;
use bankcheck::diag::{Applicability, Edit};
use bankcheck::FileReport;
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The edits of every safe suggestion in `report`, in file order; a fix that an array's
/// diagnostics share (`Suggestion::table`) is taken once.
pub fn safe_edits(report: &FileReport) -> Vec<Edit> {
    let mut shared = std::collections::HashSet::new();
    let mut edits: Vec<Edit> = report
        .diagnostics
        .iter()
        .filter_map(|d| d.suggestion.as_ref())
        .filter(|s| s.applicability == Applicability::Safe)
        .filter(|s| {
            s.table
                .as_ref()
                .is_none_or(|t| shared.insert(std::sync::Arc::as_ptr(t)))
        })
        .flat_map(|s| s.fix_edits().iter().cloned())
        .collect();
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    edits.dedup();
    edits
}

/// Applies `edits` to `text` with the library's edit engine, first giving inserted
/// line breaks the file's own line ending (CRLF files stay CRLF, CR-only files CR).
pub fn apply(text: &str, edits: &[Edit]) -> Result<String, bankcheck::fix::FixError> {
    let ending = if text.contains("\r\n") {
        "\r\n"
    } else if text.contains('\r') && !text.contains('\n') {
        "\r"
    } else {
        "\n"
    };
    let edits: Vec<Edit> = edits
        .iter()
        .map(|e| Edit {
            span: e.span,
            text: if ending == "\n" {
                e.text.clone()
            } else {
                e.text.replace("\r\n", "\n").replace('\n', ending)
            },
        })
        .collect();
    bankcheck::fix::apply_edits(text, &edits)
}

/// A unified diff of `old` to `new` for `path`, empty when they are equal.
pub fn diff(path: &str, old: &str, new: &str) -> String {
    bankcheck::fix::unified_diff(path, old, new)
}

/// Why fixes were not written to a file.
#[derive(Debug)]
pub enum WriteError {
    /// The file changed since it was read (its stamp or bytes differ), or another
    /// program holds its lock: the user's edit wins and the fixes are skipped, with a
    /// warning.
    Changed(&'static str),
    /// The file's mode (or, for other users, its owner) says it is not to be written.
    ReadOnly(String),
    /// Reading it back or writing it failed; `restored` says whether the file holds
    /// its original bytes again.
    Io {
        error: std::io::Error,
        restored: bool,
    },
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Changed(what) => {
                write!(f, "{what} since it was read; fixes not written")
            }
            WriteError::ReadOnly(why) => write!(f, "{why}; fixes not written"),
            WriteError::Io { error, restored } => {
                write!(f, "cannot write fixes: {error}")?;
                if !restored {
                    write!(f, " (the file may be partly written)")?;
                }
                Ok(())
            }
        }
    }
}

/// Replaces the contents of `path` (following symbolic links) with `contents`, in place,
/// if it still holds `original` as read with `stamp`. When the new text is longer, the
/// added tail is written first, past the old end, so a full disk fails before a single
/// old byte changes; a failure after that writes the original back.
pub fn write_in_place(
    path: &Path,
    original: &[u8],
    stamp: &Stamp,
    contents: &[u8],
) -> Result<(), WriteError> {
    let io = |error| WriteError::Io {
        error,
        restored: true,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.permissions().readonly() {
        return Err(WriteError::ReadOnly(
            "the file is read-only (no write permission in its mode)".to_string(),
        ));
    }
    let mut file = match open_for_writing(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            return Err(WriteError::ReadOnly(format!(
                "the file is not writable: {e}"
            )));
        }
        Err(e) => return Err(io(e)),
    };
    // Another bankcheck fixing the same file (a second name of it, or another run)
    // waits here, then finds it changed.
    if !lock(&file) {
        return Err(WriteError::Changed(
            "the file stayed locked by another program",
        ));
    }
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() || (cfg!(unix) && !Stamp::of(&meta).same_file(stamp)) {
        return Err(WriteError::Changed("the path names another file"));
    }
    if Stamp::of(&meta) != *stamp {
        return Err(WriteError::Changed("the file was modified"));
    }
    let mut current = Vec::with_capacity(original.len());
    (&mut file)
        .take(original.len() as u64 + 1)
        .read_to_end(&mut current)
        .map_err(io)?;
    if current != original {
        return Err(WriteError::Changed("the file's contents changed"));
    }
    overwrite(&file, original, contents)
}

/// Takes an exclusive advisory lock on `file`, waiting at most two seconds; true also
/// where the file system has no locks.
fn lock(file: &File) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        match file.try_lock() {
            Ok(()) => return true,
            Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            Err(std::fs::TryLockError::WouldBlock) => return false,
            Err(std::fs::TryLockError::Error(_)) => return true,
        }
    }
}

fn open_for_writing(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// Writes `contents` over a file that holds `original`, growing it first when needed.
fn overwrite(file: &File, original: &[u8], contents: &[u8]) -> Result<(), WriteError> {
    let old_len = original.len();
    if contents.len() > old_len {
        if let Err(error) = write_at(file, &contents[old_len..], old_len as u64) {
            let restored = file.set_len(old_len as u64).is_ok();
            return Err(WriteError::Io { error, restored });
        }
    }
    let head = &contents[..contents.len().min(old_len)];
    let result = write_at(file, head, 0)
        .and_then(|()| file.set_len(contents.len() as u64))
        .and_then(|()| file.sync_all());
    result.map_err(|error| {
        let restored = write_at(file, original, 0)
            .and_then(|()| file.set_len(old_len as u64))
            .is_ok();
        WriteError::Io { error, restored }
    })
}

#[cfg(unix)]
fn write_at(file: &File, bytes: &[u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, offset)
}

#[cfg(not(unix))]
fn write_at(mut file: &File, bytes: &[u8], offset: u64) -> std::io::Result<()> {
    use std::io::{Seek, SeekFrom, Write};
    file.seek(SeekFrom::Start(offset))?;
    file.write_all(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bankcheck::diag::Span;

    fn edit(start: usize, end: usize, text: &str) -> Edit {
        Edit {
            span: Span::new(start, end),
            text: text.to_string(),
        }
    }

    #[test]
    fn applies_in_order_and_refuses_overlaps() {
        let text = "float tile[32][32];\n";
        let out = apply(text, &[edit(15, 17, "33"), edit(11, 13, "32")]).unwrap();
        assert_eq!(out, "float tile[32][33];\n");
        assert_eq!(apply(&out, &[]).unwrap(), out, "no edits, no change");
        assert!(apply(text, &[edit(11, 13, "32"), edit(12, 16, "x")]).is_err());
    }

    #[test]
    fn keeps_crlf_line_endings() {
        let text = "a;\r\nb;\r\n";
        assert_eq!(
            apply(text, &[edit(0, 2, "x;\ny;")]).unwrap(),
            "x;\r\ny;\r\nb;\r\n"
        );
    }

    #[test]
    fn keeps_cr_only_line_endings() {
        assert_eq!(
            apply("a;\rb;\r", &[edit(0, 2, "x;\ny;")]).unwrap(),
            "x;\ry;\rb;\r"
        );
    }

    fn stamped(path: &Path) -> (Vec<u8>, Stamp) {
        let loaded = super::super::read::read_source(path, 1 << 20).unwrap();
        (loaded.bytes, loaded.stamp)
    }

    #[test]
    fn writes_in_place_when_unchanged_and_diffs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.cu");
        for (old, new) in [("old\n", "newer\n"), ("longer\n", "new\n")] {
            std::fs::write(&path, old).unwrap();
            let (bytes, stamp) = stamped(&path);
            write_in_place(&path, &bytes, &stamp, new.as_bytes()).unwrap();
            assert_eq!(std::fs::read_to_string(&path).unwrap(), new);
        }
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left behind"
        );
        let (bytes, stamp) = stamped(&path);
        std::fs::write(&path, "edited\n").unwrap();
        assert!(matches!(
            write_in_place(&path, &bytes, &stamp, b"fixed\n"),
            Err(WriteError::Changed(_))
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "edited\n");
        let d = diff("k.cu", "a\nold\n", "a\nnew\n");
        assert!(d.starts_with("--- a/k.cu\n+++ b/k.cu\n"), "{d}");
        assert!(d.contains("-old\n+new\n"), "{d}");
        assert_eq!(diff("k.cu", "same", "same"), "");
    }
}
