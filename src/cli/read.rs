//! Reading the files to check: only regular files, never more than `--max-file-size`
//! bytes, so a FIFO or `/dev/zero` named as a source neither blocks nor exhausts memory;
//! a file's stamp for `--fix`; sizes in words; absolute paths.

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The default of `--max-file-size`: 128 MiB, far above any real kernel source, low
/// enough that a runaway input cannot take the machine's memory.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 128 << 20;

/// What a file was when it was read: which file (device and inode), its size and its
/// modification time. `--fix` writes only to a file whose stamp and bytes still match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    id: (u64, u64),
    len: u64,
    modified: Option<SystemTime>,
}

impl Stamp {
    pub fn of(meta: &Metadata) -> Stamp {
        #[cfg(unix)]
        let id = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        #[cfg(not(unix))]
        let id = (0, 0);
        Stamp {
            id,
            len: meta.len(),
            modified: meta.modified().ok(),
        }
    }

    /// Whether both stamps are of one file (the same inode), whatever its state.
    pub fn same_file(&self, other: &Stamp) -> bool {
        cfg!(unix) && self.id == other.id
    }
}

/// Whether `a` and `b` name one file (through any path, symbolic or hard link).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(ma), Ok(mb)) if cfg!(unix) => Stamp::of(&ma).same_file(&Stamp::of(&mb)),
        (Ok(_), Ok(_)) => std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok(),
        _ => false,
    }
}

/// A source file's bytes and its stamp before they were read.
#[derive(Debug)]
pub struct Loaded {
    pub bytes: Vec<u8>,
    pub stamp: Stamp,
}

/// Reads `path` if it is a regular file of at most `limit` bytes. The type and size are
/// checked before opening, and again on the opened file (which is opened without
/// waiting, in case a FIFO was put in its place), and the read stops after `limit + 1`
/// bytes whatever the size said. Errors are the reason to print after the path.
pub fn read_source(path: &Path, limit: u64) -> Result<Loaded, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    acceptable(&meta, limit)?;
    let file = open_for_reading(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    acceptable(&meta, limit)?;
    let stamp = Stamp::of(&meta);
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64, limit));
    }
    Ok(Loaded { bytes, stamp })
}

/// Standard input, at most `limit` bytes.
pub fn read_stdin(limit: u64) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "standard input is over the limit of {} (raise it with --max-file-size)",
            size_text(limit)
        ));
    }
    Ok(bytes)
}

/// Opens `path` for reading without blocking on a FIFO and without making a terminal
/// the controlling one.
pub fn open_for_reading(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

fn acceptable(meta: &Metadata, limit: u64) -> Result<(), String> {
    if !meta.is_file() {
        return Err(not_regular(meta));
    }
    if meta.len() > limit {
        return Err(too_large(meta.len(), limit));
    }
    Ok(())
}

/// Why a path that is not a regular file is skipped, naming what it is.
pub(super) fn not_regular(meta: &Metadata) -> String {
    let file_type = meta.file_type();
    let mut kind = if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            kind = "a FIFO";
        } else if file_type.is_char_device() {
            kind = "a character device";
        } else if file_type.is_block_device() {
            kind = "a block device";
        } else if file_type.is_socket() {
            kind = "a socket";
        }
    }
    if kind == "not a regular file" {
        "not a regular file; skipped".to_string()
    } else {
        format!("not a regular file ({kind}); skipped")
    }
}

fn too_large(len: u64, limit: u64) -> String {
    format!(
        "{len} bytes, over the limit of {} (raise it with --max-file-size); skipped",
        size_text(limit)
    )
}

/// A byte count as the user would write it for `--max-file-size`.
fn size_text(bytes: u64) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}

/// Parses `--max-file-size`: bytes, or a whole number with `K`, `M` or `G` (binary
/// multiples; `KB`, `KiB` and lower case accepted too).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = text[digits.len()..].to_ascii_lowercase();
    let shift = match unit.as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(format!("unknown unit `{unit}`; use K, M or G")),
    };
    let value: u64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a size such as 64M"))?;
    if value == 0 {
        return Err("the limit must be at least 1 byte".to_string());
    }
    value
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}` is too large"))
}

/// The absolute form of `path` without touching the file system beyond the working directory.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("2kib"), Ok(2048));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert!(parse_size("0").is_err() && parse_size("5T").is_err() && parse_size("M").is_err());
        assert_eq!(size_text(DEFAULT_MAX_FILE_SIZE), "128 MiB");
        assert_eq!(size_text(1000), "1000 bytes");
    }
}
