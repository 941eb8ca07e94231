//! Turning the command line's paths into the list of files to check: named files as
//! given, directories walked with the `ignore` crate (hidden and ignored files skipped,
//! `.gitignore` honoured even outside a git repository), glob patterns expanded here.
//! And reading them: only regular files, never more than `--max-file-size` bytes, so a
//! FIFO or `/dev/zero` named as a source neither blocks nor exhausts memory. A path that
//! cannot be walked or read is a failure of its own; the run goes on with the others.

use super::configs::ConfigStore;
use globset::GlobBuilder;
use ignore::WalkBuilder;
use std::collections::BTreeSet;
use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The default of `--max-file-size`: 128 MiB, far above any real kernel source, low
/// enough that a runaway input cannot take the machine's memory.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 128 << 20;

/// One file to check: the path as reported, and where to read it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Target {
    pub display: String,
    pub path: PathBuf,
}

/// The result of expanding the paths: files to check and paths that named nothing.
#[derive(Debug, Default)]
pub struct Found {
    pub targets: Vec<Target>,
    pub failures: Vec<(String, String)>,
}

/// Expands `paths`; walked files must be selected by their `lint.toml`'s include/exclude.
/// A named path that is not a regular file or directory, and a directory entry that
/// cannot be read, are failures; everything else found is still checked.
pub fn discover(paths: &[String], configs: &mut ConfigStore) -> anyhow::Result<Found> {
    let mut found = Found::default();
    let mut seen = BTreeSet::new();
    for arg in paths {
        let path = Path::new(arg);
        // `metadata` follows symbolic links and never opens the file: a FIFO is not
        // waited on here.
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_file() => {
                push(&mut found, &mut seen, arg.clone(), path.to_path_buf());
            }
            Ok(meta) if meta.is_dir() => {
                let (files, failures) = walk(path);
                for (failed, reason) in failures {
                    found.failures.push((display(arg, &failed), reason));
                }
                for file in files {
                    if configs.for_file(&file)?.walk_selects(&absolute(&file)) {
                        push(&mut found, &mut seen, display(arg, &file), file);
                    }
                }
            }
            Ok(meta) => found.failures.push((arg.clone(), not_regular(&meta))),
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                found.failures.push((arg.clone(), e.to_string()));
            }
            Err(_) if is_glob(arg) => {
                let (matched, failures) = expand_glob(arg)?;
                found.failures.extend(failures);
                if matched.is_empty() {
                    found
                        .failures
                        .push((arg.clone(), "no files match this pattern".to_string()));
                }
                for file in matched {
                    push(&mut found, &mut seen, display(arg, &file), file);
                }
            }
            Err(_) => found
                .failures
                .push((arg.clone(), "no such file or directory".to_string())),
        }
    }
    found.targets.sort();
    Ok(found)
}

fn push(found: &mut Found, seen: &mut BTreeSet<String>, display: String, path: PathBuf) {
    if seen.insert(display.clone()) {
        found.targets.push(Target { display, path });
    }
}

/// The path as reported: as found under the named directory, without a leading `./`
/// when the user named `.` itself.
fn display(arg: &str, file: &Path) -> String {
    let text = file.to_string_lossy().into_owned();
    if arg == "." {
        return text
            .strip_prefix("./")
            .map_or_else(|| text.clone(), str::to_string);
    }
    text
}

/// Every regular file under `dir`, skipping hidden and ignored ones, and the paths that
/// could not be read (an unreadable subdirectory) with the reason.
fn walk(dir: &Path) -> (Vec<PathBuf>, Vec<(PathBuf, String)>) {
    let mut files = Vec::new();
    let mut failures = Vec::new();
    let walker = WalkBuilder::new(dir)
        .require_git(false)
        .sort_by_file_name(Ord::cmp)
        .build();
    for entry in walker {
        match entry {
            Ok(entry) => {
                if entry.file_type().is_some_and(|t| t.is_file()) {
                    files.push(entry.into_path());
                }
            }
            Err(err) => {
                let (path, reason) = walk_failure(&err);
                let path = path.unwrap_or_else(|| dir.to_path_buf());
                let what = if path.is_dir() {
                    "cannot read this directory"
                } else {
                    "cannot read"
                };
                failures.push((path, format!("{what}: {reason}")));
            }
        }
    }
    (files, failures)
}

/// The path a walk error is about, if it names one, and its innermost reason.
fn walk_failure(err: &ignore::Error) -> (Option<PathBuf>, String) {
    match err {
        ignore::Error::WithPath { path, err } => (Some(path.clone()), walk_failure(err).1),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_failure(err)
        }
        ignore::Error::Loop { child, .. } => (
            Some(child.clone()),
            "a symbolic link loops back to a directory above it".to_string(),
        ),
        other => (
            None,
            system_error(other).unwrap_or_else(|| other.to_string()),
        ),
    }
}

/// The innermost system error of a walk error (`Permission denied (os error 13)`),
/// without the walker's own wording around it.
fn system_error(err: &ignore::Error) -> Option<String> {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(err.io_error()?);
    while let Some(e) = cause {
        if let Some(code) = e
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::raw_os_error)
        {
            return Some(std::io::Error::from_raw_os_error(code).to_string());
        }
        cause = e.source();
    }
    None
}

/// The root of the workspace the run is in, relative to the working directory (`.`,
/// `..`, ...): the nearest folder holding `.git`, else the nearest holding `lint.toml`.
/// `None` outside any: then the run sees only the files it is given.
pub fn workspace_root() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    let root = cwd
        .ancestors()
        .find(|d| d.join(".git").exists())
        .or_else(|| cwd.ancestors().find(|d| d.join("lint.toml").is_file()))?;
    let up = cwd.strip_prefix(root).ok()?.components().count();
    Some(if up == 0 {
        PathBuf::from(".")
    } else {
        (0..up).map(|_| "..").collect()
    })
}

/// The files a run of the whole workspace would check (hidden, ignored and files its
/// `lint.toml` leaves out skipped), other than `named`: their launches and includes are
/// part of every run, so that checking one file or a folder gives the answer checking the
/// workspace gives. At most `LIMIT` entries are visited.
pub fn workspace_context(root: &Path, named: &[PathBuf], configs: &mut ConfigStore) -> Vec<Target> {
    const LIMIT: usize = 200_000;
    let named: std::collections::HashSet<PathBuf> =
        named.iter().filter_map(|p| p.canonicalize().ok()).collect();
    let arg = root.to_string_lossy().into_owned();
    let mut out = Vec::new();
    let walker = WalkBuilder::new(root)
        .require_git(false)
        .sort_by_file_name(Ord::cmp)
        .build();
    for entry in walker.take(LIMIT).filter_map(Result::ok) {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let file = entry.into_path();
        let selected = configs
            .for_file(&file)
            .is_ok_and(|c| c.walk_selects(&absolute(&file)));
        if !selected || file.canonicalize().is_ok_and(|c| named.contains(&c)) {
            continue;
        }
        out.push(Target {
            display: display(&arg, &file),
            path: file,
        });
    }
    out
}

/// Source and header files under the current directory (ignored and hidden files
/// skipped, at most `LIMIT` entries visited): where includes that name no file of the
/// run may be found. Paths are relative, as the run's own.
pub fn workspace_sources() -> Vec<PathBuf> {
    const LIMIT: usize = 200_000;
    const EXTENSIONS: &[&str] = &[
        "h", "hh", "hpp", "hxx", "inl", "inc", "cuh", "cu", "hlsl", "hlsli", "fx", "fxh",
    ];
    WalkBuilder::new(".")
        .require_git(false)
        .build()
        .take(LIMIT)
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .map(ignore::DirEntry::into_path)
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
        })
        .collect()
}

fn is_glob(arg: &str) -> bool {
    arg.contains(['*', '?', '[', '{'])
}

/// Files matching a glob (the literal leading directories are walked, the rest
/// matched), and the paths under them that could not be read.
type Expanded = (Vec<PathBuf>, Vec<(String, String)>);

fn expand_glob(pattern: &str) -> anyhow::Result<Expanded> {
    let glob = GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()?
        .compile_matcher();
    let mut base = PathBuf::new();
    for component in Path::new(pattern).components() {
        let text = component.as_os_str().to_string_lossy();
        if is_glob(&text) {
            break;
        }
        base.push(component);
    }
    if base.as_os_str().is_empty() {
        base.push(".");
    }
    if !base.is_dir() {
        return Ok((Vec::new(), Vec::new()));
    }
    let strip_dot = !pattern.starts_with("./") && base == Path::new(".");
    let strip = |file: &Path| {
        if strip_dot {
            file.strip_prefix(".")
                .map_or(file.to_path_buf(), Path::to_path_buf)
        } else {
            file.to_path_buf()
        }
    };
    let (files, failures) = walk(&base);
    let mut out = Vec::new();
    for file in files {
        let candidate = strip(&file);
        if glob.is_match(&candidate) {
            out.push(candidate);
        }
    }
    let failures = failures
        .into_iter()
        .map(|(path, reason)| (strip(&path).to_string_lossy().into_owned(), reason))
        .collect();
    Ok((out, failures))
}

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
fn not_regular(meta: &Metadata) -> String {
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
    fn display_drops_the_dot_only_for_dot() {
        assert_eq!(display(".", Path::new("./a/b.cu")), "a/b.cu");
        assert_eq!(
            display("kernels", Path::new("kernels/b.cu")),
            "kernels/b.cu"
        );
        assert!(is_glob("src/**/*.cu") && !is_glob("src/a.cu"));
    }

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
