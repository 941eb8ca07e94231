//! Turning the command line's paths into the list of files to check: named files as
//! given, directories walked with the `ignore` crate (hidden and ignored files skipped,
//! `.gitignore` honoured even outside a git repository, excluded paths pruned), glob
//! patterns expanded here. A path that cannot be walked is a failure of its own; the
//! run goes on with the others. Reading the files is `read.rs`'s.

use super::configs::ConfigStore;
use super::read::{absolute, not_regular};
use bankcheck::config::Exclusions;
use globset::GlobBuilder;
use ignore::WalkBuilder;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a walk skips besides hidden and ignored files: each path's `lint.toml`
/// `exclude`/`extend-exclude` (or the defaults) and the command line's. Paths named on
/// the command line are checked anyway unless `force` (`--force-exclude`).
#[derive(Clone)]
pub struct Skip {
    pub configs: ConfigStore,
    pub exclusions: Arc<CommandLineExclusions>,
    pub force: bool,
}

/// The command line's exclusions and the working directory they are relative to.
pub struct CommandLineExclusions {
    pub globs: Exclusions,
    pub cwd: PathBuf,
}

impl Skip {
    /// Whether a walk skips `path` (and, for a directory, everything below it). A path
    /// whose `lint.toml` is bad is not skipped: checking it reports the error.
    fn walk_skips(&self, path: &Path) -> bool {
        // Asked for every entry of a walk: the working directory is not asked again.
        let path = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.exclusions.cwd.join(path)
        };
        self.configs
            .for_absolute(&path)
            .is_ok_and(|c| c.excludes(&path, &self.exclusions.globs, false))
    }

    /// Whether a path named on the command line (or matched by its glob) is skipped:
    /// only with `--force-exclude`, when it or a directory above it is excluded.
    pub fn named_skips(&self, path: &Path) -> bool {
        self.force
            && self
                .configs
                .for_file(path)
                .is_ok_and(|c| c.excludes(&absolute(path), &self.exclusions.globs, true))
    }
}

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
pub fn discover(paths: &[String], skip: &Skip) -> anyhow::Result<Found> {
    let mut found = Found::default();
    let mut seen = BTreeSet::new();
    for arg in paths {
        let path = Path::new(arg);
        // `metadata` follows symbolic links and never opens the file: a FIFO is not
        // waited on here.
        match std::fs::metadata(path) {
            Ok(meta) if (meta.is_file() || meta.is_dir()) && skip.named_skips(path) => {}
            Ok(meta) if meta.is_file() => {
                push(&mut found, &mut seen, arg.clone(), path.to_path_buf());
            }
            Ok(meta) if meta.is_dir() => {
                let (files, failures) = walk(path, Some(skip));
                for (failed, reason) in failures {
                    found.failures.push((display(arg, &failed), reason));
                }
                for file in files {
                    if walk_picks(&*skip.configs.for_file(&file)?, &file) {
                        push(&mut found, &mut seen, display(arg, &file), file);
                    }
                }
            }
            Ok(meta) => found.failures.push((arg.clone(), not_regular(&meta))),
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                found.failures.push((arg.clone(), e.to_string()));
            }
            Err(_) if is_glob(arg) => {
                let (matched, failures) = expand_glob(arg, skip)?;
                found.failures.extend(failures);
                if matched.is_empty() {
                    found
                        .failures
                        .push((arg.clone(), "no files match this pattern".to_string()));
                }
                for file in matched.into_iter().filter(|f| !skip.named_skips(f)) {
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

/// A walker of `dir` (hidden and ignored files skipped, in name order) that prunes
/// what `skip` excludes below `dir` (`dir` itself was named).
fn walker(dir: &Path, skip: Option<&Skip>) -> ignore::Walk {
    let mut builder = WalkBuilder::new(dir);
    builder.require_git(false).sort_by_file_name(Ord::cmp);
    if let Some(skip) = skip.cloned() {
        builder.filter_entry(move |entry| entry.depth() == 0 || !skip.walk_skips(entry.path()));
    }
    builder.build()
}

/// Every regular file under `dir`, skipping hidden, ignored and excluded ones, and the
/// paths that could not be read (an unreadable subdirectory) with the reason.
fn walk(dir: &Path, skip: Option<&Skip>) -> (Vec<PathBuf>, Vec<(PathBuf, String)>) {
    let mut files = Vec::new();
    let mut failures = Vec::new();
    for entry in walker(dir, skip) {
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

/// Whether a directory walk checks `file`, found under it and not excluded: its name is
/// in `include`, or it is a header that declares shared memory.
fn walk_picks(config: &bankcheck::config::Config, file: &Path) -> bool {
    let path = absolute(file);
    config.walk_selects(&path) || (config.walk_reads_header(&path) && declares_shared_memory(file))
}

/// Whether a header found by a walk declares shared memory (`__shared__`, `groupshared`,
/// `SharedMemory<T>`), read up to the default size limit: such a header holds kernels or
/// helpers of its own, and is checked like a `.cu` file. One that cannot be read is not
/// (nothing says it is GPU code).
fn declares_shared_memory(path: &Path) -> bool {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| {
        f.take(super::read::DEFAULT_MAX_FILE_SIZE)
            .read_to_end(&mut bytes)
    });
    read.is_ok() && bankcheck::source::spells_shared_declaration(&String::from_utf8_lossy(&bytes))
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
/// workspace gives. At most `LIMIT` entries are visited. Files named from outside the
/// workspace (`bankcheck /tmp/k.cu` run in a repository) get no context: its launches
/// and headers are another program's.
pub fn workspace_context(root: &Path, named: &[PathBuf], skip: &Skip) -> Vec<Target> {
    const LIMIT: usize = 200_000;
    let Some(root_abs) = root.canonicalize().ok() else {
        return Vec::new();
    };
    let inside = |p: &PathBuf| {
        p.canonicalize()
            .or_else(|_| std::path::absolute(p))
            .is_ok_and(|p| p.starts_with(&root_abs))
    };
    if !named.iter().any(inside) {
        return Vec::new();
    }
    let named: std::collections::HashSet<PathBuf> =
        named.iter().filter_map(|p| p.canonicalize().ok()).collect();
    let arg = root.to_string_lossy().into_owned();
    let mut out = Vec::new();
    for entry in walker(root, Some(skip)).take(LIMIT).filter_map(Result::ok) {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let file = entry.into_path();
        let selected = skip
            .configs
            .for_file(&file)
            .is_ok_and(|c| walk_picks(&c, &file));
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

fn expand_glob(pattern: &str, skip: &Skip) -> anyhow::Result<Expanded> {
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
    let (files, failures) = walk(&base, Some(skip));
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
}
