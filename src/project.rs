//! The run-wide index: what one file needs to know about the other files of a run.
//!
//! Real kernels are launched from other files (`kernel<<<grid, block>>>` in a host
//! `.cu`) and take their constants and types from headers (`#include "params.h"`).
//! The index is built once per run from a cheap text scan; the expensive part
//! (parsing a launcher or a header) happens lazily, once per file, and is cached.
//! It does no I/O itself: the CLI hands it a reader.

use crate::config::Settings;
use crate::extract::{ExternalLaunch, FileSyntax};
use crate::model::assumption::ShapeSource;
use regex::Regex;
use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

mod between;

/// Reads a file of the run (or an include) by path; `None` when it cannot be read.
pub type Reader = dyn Fn(&Path) -> Option<Vec<u8>> + Send + Sync;

/// Lists the source files of the workspace around the run (called at most once, and
/// only when an include names no file bankcheck knows).
pub type Lister = dyn Fn() -> Vec<PathBuf> + Send + Sync;

/// How many levels of includes a file's definitions are taken from: its own includes
/// and theirs, down to four levels. Project constants and helpers sit near the kernels
/// that use them; deeper levels are library umbrella headers (`cute/tensor.hpp` pulls
/// in hundreds), which cost most of a run's parsing and decided no more accesses on
/// the real-world corpus (docs/performance.md).
const MAX_INCLUDE_DEPTH: u32 = 4;

/// Most includers a header's kernels, or each of its helpers, are analysed through.
const MAX_INCLUDERS: usize = 4;

/// Most includers listed per header. Those a header's helpers are analysed through are
/// chosen from this list by the helpers they name: with 64, ggml's `common.cuh` (over
/// a hundred includers) never reached the three that call its `block_reduce`.
const MAX_LISTED_INCLUDERS: usize = 4096;

/// A parsed header's definitions and its text (the text its functions carry).
type Header = Arc<(FileSyntax, Arc<str>)>;

/// A header's parse, made once per run by the first thread that asks (`None` inside:
/// unreadable). Parsing outside any lock let two threads parse the same header at once:
/// ggml's `ggml-common.h` (0.2 s) was parsed twice by the two threads that start on it.
type HeaderCell = Arc<OnceLock<Option<Header>>>;

/// The launch shapes found in one launcher file, by kernel, resolved once.
type LauncherShapes = Arc<OnceLock<HashMap<String, Vec<ExternalLaunch>>>>;

/// A fingerprint of the settings a lowering depends on: results cached per file are
/// cached per settings too (a configuration may differ between folders).
fn settings_key(settings: &Settings) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    format!("{settings:?}").hash(&mut h);
    h.finish()
}

/// An includer lowered with its headers merged: the sites in the headers' helpers, each
/// tagged with its header's text (`None`: the includer could not be read or parsed).
type ThroughIncluder = Arc<OnceLock<Option<Arc<crate::model::site::LoweredFile>>>>;

/// The include graph of a run, resolved once every file is scanned.
#[derive(Default)]
struct Includes {
    /// Files of the run that include each header (by normalised path).
    includers: HashMap<PathBuf, Vec<PathBuf>>,
    /// Includes that name no file next to the includer nor in an include directory,
    /// resolved to the only file of the run whose path ends with the included path
    /// (the build's `-I` flags are not known to bankcheck).
    by_name: HashMap<(PathBuf, String), PathBuf>,
    /// The includes of `by_name` whose file matched only with letter case ignored:
    /// (includer, included name, file found).
    case_folded: Vec<(PathBuf, String, PathBuf)>,
    /// Files of the run that include each header in angle brackets (`<lib/kernels.cuh>`,
    /// resolved by path ending): read for their qualifier macros only.
    angle_includers: HashMap<PathBuf, Vec<PathBuf>>,
}

/// What the index learns from one file's text: the cheap part of [`ProjectIndex::scan`],
/// independent of the other files, so that files can be scanned in parallel.
#[derive(Debug)]
pub struct FileScan {
    path: PathBuf,
    shared: bool,
    includes: Vec<String>,
    /// Includes in angle brackets that name a path (`<lib/detail/kernels.cuh>`).
    angle_includes: Vec<String>,
    launches: Vec<String>,
    /// Calls with explicit template arguments, `f<A, B>(`, in a file that explicitly
    /// specialises or instantiates a template (flash-attention's generated `.cu` files):
    /// the instantiations of host templates it asks of the headers it includes.
    template_calls: Vec<(String, Vec<String>)>,
}

impl FileScan {
    /// Scans `text`, the content of `path`: its shared memory, quoted includes and the
    /// kernels it launches (each once, in order).
    pub(crate) fn of(path: &Path, text: &str) -> FileScan {
        let includes = include_regex()
            .captures_iter(text)
            .filter_map(|c| c.get(1).map(|m| m.as_str().to_string()))
            .collect();
        // Only project-style paths: `<cuda/std/atomic>` or `<cstdint>` name no file of a
        // run but cost a lookup each.
        let angle_includes = any_include_regex()
            .captures_iter(text)
            .filter_map(|c| c.get(2).map(|m| m.as_str().to_string()))
            .filter(|inc| inc.contains('/') && inc.contains('.'))
            .collect();
        let mut launches: Vec<String> = Vec::new();
        if text.contains("<<<") {
            for c in launch_regex().captures_iter(text) {
                if let Some(k) = c.get(1) {
                    if !launches.iter().any(|l| l == k.as_str()) {
                        launches.push(k.as_str().to_string());
                    }
                }
            }
        }
        FileScan {
            path: normalise(path),
            shared: crate::source::mentions_shared_memory(text),
            includes,
            angle_includes,
            launches,
            template_calls: template_calls(text),
        }
    }
}

/// Launches, headers and include directories of one run.
pub struct ProjectIndex {
    /// Files that launch each kernel, by kernel name.
    launchers: HashMap<String, Vec<PathBuf>>,
    /// Calls with explicit template arguments in files that specialise or instantiate
    /// templates, by callee: the file and the arguments ([`FileScan`]).
    template_calls: HashMap<String, Vec<(PathBuf, Vec<String>)>>,
    /// Quoted includes seen by the scan: (includer, included name), in scan order.
    includes: Vec<(PathBuf, String)>,
    /// Includes in angle brackets seen by the scan, likewise.
    angle_includes: Vec<(PathBuf, String)>,
    /// Files of the run whose text mentions shared memory.
    shared_files: HashSet<PathBuf>,
    /// Every scanned file of the run, by file name in lower case.
    run_files: HashMap<String, Vec<PathBuf>>,
    /// Files scanned for their launches and includes that the run does not check (the
    /// rest of the workspace): they report nothing, so a header keeps what they reach.
    unchecked: HashSet<PathBuf>,
    /// Built on first use, once every file is scanned.
    resolved: OnceLock<Includes>,
    /// Where to look for included files that are not part of the run.
    lister: Option<Box<Lister>>,
    /// The lister's files, by file name.
    workspace: OnceLock<HashMap<String, Vec<PathBuf>>>,
    include_dirs: Vec<PathBuf>,
    reader: Box<Reader>,
    /// Parsed headers, by normalised path (`None`: unreadable).
    headers: Mutex<HashMap<PathBuf, HeaderCell>>,
    /// Resolved launch shapes per launcher (and settings), by kernel.
    shapes: Mutex<HashMap<(PathBuf, u64), LauncherShapes>>,
    /// Includers lowered with their headers, per (includer, settings): every header of
    /// an includer takes its sites from one lowering instead of one each.
    through: Mutex<HashMap<(PathBuf, u64), ThroughIncluder>>,
    /// The macros each header defines, per (header, settings), read once per run
    /// (`None`: unreadable).
    header_macros: Mutex<HashMap<(PathBuf, u64), Option<HeaderMacros>>>,
    /// Where each header's includes may live, as [`Self::include_candidates`] (`false`:
    /// of the parsed header's text) or [`Self::macro_include_candidates`] (`true`: of the
    /// text its macros were read from) finds them: a header is walked once per file that
    /// includes it, and its includes were searched for and resolved each time.
    header_includes: Mutex<HashMap<(PathBuf, bool), IncludeLists>>,
}

/// For each `#include` of a file, in order, the paths where the included file may be.
type IncludeLists = Arc<Vec<Vec<PathBuf>>>;

/// The macro definitions of one header and its text (for its own includes).
type HeaderMacros = Arc<(Vec<crate::source::Definition>, String)>;

impl std::fmt::Debug for ProjectIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProjectIndex")
            .field("launchers", &self.launchers)
            .finish_non_exhaustive()
    }
}

fn launch_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:<[^<>;{}]*(?:<[^<>;{}]*>[^<>;{}]*)*>)?\s*<<<")
            .expect("valid launch pattern")
    })
}

/// `f<A, B>(` anywhere in `text`, when `text` holds an explicit specialisation or
/// instantiation (`template<>`, `template void`); otherwise nothing, so that ordinary
/// files cost no scan. Arguments are split at top-level commas.
fn template_calls(text: &str) -> Vec<(String, Vec<String>)> {
    static RE: OnceLock<Regex> = OnceLock::new();
    static MARK: OnceLock<Regex> = OnceLock::new();
    let mark = MARK.get_or_init(|| {
        Regex::new(r"template\s*<\s*>|template\s+void\b").expect("valid marker pattern")
    });
    if !mark.is_match(text) {
        return Vec::new();
    }
    let re = RE.get_or_init(|| {
        Regex::new(r"([A-Za-z_][A-Za-z0-9_]*)\s*<([^<>;{}()]*(?:<[^<>;{}()]*>[^<>;{}()]*)*)>\s*\(")
            .expect("valid template call pattern")
    });
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for c in re.captures_iter(text) {
        let (Some(name), Some(args)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let call = (name.as_str().to_string(), split_top_level(args.as_str()));
        if !out.contains(&call) {
            out.push(call);
        }
    }
    out
}

/// `a, B<c, d>, e` split at the commas outside angle brackets, each part trimmed.
fn split_top_level(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, ch) in text.char_indices() {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim().to_string());
    out
}

fn include_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"(?m)^\s*#\s*include\s*"([^"]+)""#).expect("valid include pattern")
    })
}

/// Quoted includes and those in angle brackets (a project's own `<lib/common.h>`).
fn any_include_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"(?m)^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)"#)
            .expect("valid include pattern")
    })
}

/// True when `word` occurs in `text` as a whole identifier.
fn mentions_word(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    !word.is_empty()
        && text.match_indices(word).any(|(i, _)| {
            !text[..i].chars().next_back().is_some_and(is_ident)
                && !text[i + word.len()..].chars().next().is_some_and(is_ident)
        })
}

/// Which includers of a header its kernels are lowered through.
#[derive(Clone, Copy)]
pub enum Includers<'a> {
    /// Those that name one of these: what the kernels could not resolve on their own.
    Naming(&'a [&'a str]),
    /// Those that instantiate one of these kernels with template arguments
    /// (`k<8><<<...>>>`): where the header alone takes a template parameter as any value,
    /// their arguments give the concrete verdict.
    Instantiating(&'a [&'a str]),
}

/// True when `text` names function `name` with template arguments (`name<`).
fn instantiates(text: &str, name: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    !name.is_empty()
        && text.match_indices(name).any(|(i, _)| {
            !text[..i].chars().next_back().is_some_and(is_ident)
                && text[i + name.len()..].trim_start().starts_with('<')
        })
}

/// `a/b/../c` -> `a/c`, without touching the file system.
/// True when the last components of `path` spell `inc` (leading `..` dropped) with the
/// same letter case.
fn ends_with_exactly(path: &Path, inc: &str) -> bool {
    let tail: Vec<&std::ffi::OsStr> = Path::new(inc)
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n),
            _ => None,
        })
        .collect();
    let comps: Vec<&std::ffi::OsStr> = path.components().map(Component::as_os_str).collect();
    comps.len() >= tail.len() && comps[comps.len() - tail.len()..] == tail[..]
}

/// The name `path` is loaded under: its own, or for a header whose content does not say
/// otherwise (a `.h` of launches and macro-defined kernels, with no `__shared__` of its
/// own) one that reads it with the CUDA grammar, as a header included by CUDA code is.
fn header_language_name(path: &Path, bytes: &[u8]) -> String {
    let name = path.display().to_string();
    if crate::source::language_of(&name, &String::from_utf8_lossy(bytes)).is_some() {
        name
    } else {
        format!("{name}.cuh")
    }
}

/// Of `hits` (files whose last `tail` components spell an include), the one whose include
/// root (the file's path without those components) is the deepest folder enclosing
/// `dir`, when exactly one is; `None` when none encloses it or two are as near.
fn nearest_enclosing(dir: &Path, hits: &[&PathBuf], tail: usize) -> Option<PathBuf> {
    let mut best: Option<(usize, &PathBuf)> = None;
    let mut tied = false;
    for hit in hits {
        let hit_path = normalise(hit);
        let comps: Vec<Component> = hit_path.components().collect();
        let root: PathBuf = comps[..comps.len().saturating_sub(tail)].iter().collect();
        if !dir.starts_with(&root) {
            continue;
        }
        let depth = root.components().count();
        match best {
            Some((d, _)) if d == depth => tied = true,
            Some((d, _)) if d > depth => {}
            _ => {
                best = Some((depth, hit));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(_, h)| h.clone())
}

fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

impl ProjectIndex {
    /// An index that knows nothing: each file is checked on its own.
    pub(crate) fn empty() -> Self {
        ProjectIndex::new(Vec::new(), Box::new(|_| None))
    }

    /// A new index reading includes from `include_dirs` (besides the including file's folder).
    pub(crate) fn new(include_dirs: Vec<PathBuf>, reader: Box<Reader>) -> Self {
        ProjectIndex {
            launchers: HashMap::new(),
            template_calls: HashMap::new(),
            includes: Vec::new(),
            angle_includes: Vec::new(),
            shared_files: HashSet::new(),
            run_files: HashMap::new(),
            unchecked: HashSet::new(),
            resolved: OnceLock::new(),
            lister: None,
            workspace: OnceLock::new(),
            include_dirs,
            reader,
            headers: Mutex::new(HashMap::new()),
            shapes: Mutex::new(HashMap::new()),
            through: Mutex::new(HashMap::new()),
            header_macros: Mutex::new(HashMap::new()),
            header_includes: Mutex::new(HashMap::new()),
        }
    }

    /// Also resolves includes by name among the files `lister` lists (the headers of the
    /// workspace that the run does not check).
    #[must_use]
    pub(crate) fn with_workspace(mut self, lister: Box<Lister>) -> Self {
        self.lister = Some(lister);
        self
    }

    /// Adds one file's scan (see [`FileScan::of`], which runs in parallel).
    pub(crate) fn add(&mut self, scan: FileScan) {
        let FileScan {
            path: me,
            shared,
            includes,
            angle_includes,
            launches,
            template_calls,
        } = scan;
        self.resolved = OnceLock::new();
        // Includes are resolved against the run's files, which this one joins.
        if let Ok(lists) = self.header_includes.get_mut() {
            lists.clear();
        }
        if shared {
            self.shared_files.insert(me.clone());
        }
        if let Some(name) = me.file_name() {
            self.run_files
                .entry(name.to_string_lossy().to_lowercase())
                .or_default()
                .push(me.clone());
        }
        for inc in includes {
            self.includes.push((me.clone(), inc));
        }
        for inc in angle_includes {
            self.angle_includes.push((me.clone(), inc));
        }
        for k in launches {
            self.launchers.entry(k).or_default().push(me.clone());
        }
        for (name, args) in template_calls {
            self.template_calls
                .entry(name)
                .or_default()
                .push((me.clone(), args));
        }
    }

    /// Records in `syn` the explicit template arguments its host templates (templated
    /// functions that are no kernels) are called with in the files that include `path`.
    pub fn add_includers_template_calls(&self, path: &Path, syn: &mut FileSyntax) {
        if self.template_calls.is_empty() {
            return;
        }
        for f in syn.functions.iter().filter(|f| !f.is_kernel) {
            if f.template_params.is_empty() || syn.external_template_calls.contains_key(&f.name) {
                continue;
            }
            let calls = self.includers_template_calls(path, &f.name);
            if !calls.is_empty() {
                syn.external_template_calls.insert(f.name.clone(), calls);
            }
        }
    }

    /// The explicit template arguments of calls of `name` written in the files that
    /// include `path` (directly or through other headers): a host template of a header
    /// instantiated only by its includers' explicit specialisations.
    pub fn includers_template_calls(&self, path: &Path, name: &str) -> Vec<Vec<String>> {
        let Some(calls) = self.template_calls.get(name) else {
            return Vec::new();
        };
        let includers = self.transitive_includers(&normalise(path));
        let mut out: Vec<Vec<String>> = Vec::new();
        for (file, args) in calls {
            if includers.contains(file) && !out.contains(args) {
                out.push(args.clone());
            }
        }
        out
    }

    /// Adds the scan of a file the run does not check (see [`Self::add`]).
    pub(crate) fn add_unchecked(&mut self, scan: FileScan) {
        self.unchecked.insert(scan.path.clone());
        self.add(scan);
    }

    /// True when `includer`'s own check reports the sites of another file's helpers
    /// that reach its arrays (`AccessSite::claimed_by_lowered_file`): it is checked in
    /// this run. The helper's file then leaves them out.
    fn reports_claimed_sites(&self, includer: &Path) -> bool {
        let scanned = includer
            .file_name()
            .and_then(|n| self.run_files.get(&n.to_string_lossy().to_lowercase()))
            .is_some_and(|v| v.iter().any(|f| f == includer));
        scanned && !self.unchecked.contains(includer)
    }

    /// Block shapes of `kernel` launched in files other than `path`, with where (a file
    /// that defines its own `kernel` launches that one, and is left out).
    pub fn external_launches(
        &self,
        path: &Path,
        kernel: &str,
        settings: &Settings,
    ) -> Vec<ExternalLaunch> {
        let me = normalise(path);
        let Some(files) = self.launchers.get(kernel) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for f in files.iter().filter(|f| **f != me) {
            let key = (f.clone(), settings_key(settings));
            let Some(cell) = self
                .shapes
                .lock()
                .ok()
                .map(|mut m| m.entry(key).or_default().clone())
            else {
                continue;
            };
            let by_kernel = cell.get_or_init(|| self.resolve_launches(f, settings));
            out.extend(by_kernel.get(kernel).cloned().unwrap_or_default());
        }
        out
    }

    /// The block shapes of every kernel launched in `file` that the run's index lists
    /// (the file is parsed once, however many of its kernels other files define).
    fn resolve_launches(
        &self,
        file: &Path,
        settings: &Settings,
    ) -> HashMap<String, Vec<ExternalLaunch>> {
        let mut out = HashMap::new();
        let Some(bytes) = (self.reader)(file) else {
            return out;
        };
        let name = file.display().to_string();
        let Some(source) = crate::source::load(&name, &bytes) else {
            return out;
        };
        let Some(tree) = crate::source::parse(&source) else {
            return out;
        };
        let mut syn = crate::extract::extract(&source, &tree);
        drop(tree);
        let me = normalise(file);
        // A launch of a kernel the file defines itself binds to that definition: it says
        // nothing of a kernel of the same name in another file (two samples' `kernel`).
        let kernels: Vec<&String> = self
            .launchers
            .iter()
            .filter(|(k, files)| {
                files.contains(&me)
                    && !syn
                        .functions
                        .iter()
                        .any(|f| f.is_kernel && f.name == **k && f.foreign_text.is_none())
            })
            .map(|(k, _)| k)
            .collect();
        let no_extra = HashMap::new();
        let shapes_of = |syn: &FileSyntax| -> Vec<_> {
            kernels
                .iter()
                .map(|k| {
                    crate::lower::shape::launch_shapes_and_completeness(
                        syn,
                        &source.text,
                        k,
                        settings,
                        &no_extra,
                    )
                })
                .collect()
        };
        // The headers are parsed only when the file's own definitions leave a launch
        // without a shape; the file's definitions win over theirs anyway.
        let mut all = shapes_of(&syn);
        if all.iter().any(|(_, complete)| !complete) {
            self.merge_includes(file, &source.text, &mut syn, 0, &mut HashSet::new());
            all = shapes_of(&syn);
        }
        for (kernel, (shapes, _)) in kernels.into_iter().zip(all) {
            let shapes = shapes
                .into_iter()
                .map(|(s, src)| {
                    let place = match &src {
                        ShapeSource::Known(shape, origin) => origin.place(*shape),
                        other => other.to_string(),
                    };
                    ((s.x, s.y, s.z), format!("{name} ({place})"))
                })
                .collect();
            out.insert(kernel.clone(), shapes);
        }
        out
    }

    /// A note for each include that found its file only with letter case ignored
    /// (`"Ray Sorting/x.hlsli"` for `Ray sorting/x.hlsli`, written on a case-insensitive
    /// file system): (includer, note), in scan order. A compiler on a case-sensitive file
    /// system would not find the file, so the user is told which one bankcheck read.
    pub fn include_notes(&self) -> Vec<(String, String)> {
        self.includes()
            .case_folded
            .iter()
            .map(|(includer, inc, hit)| {
                (
                    includer.display().to_string(),
                    format!(
                        "`#include \"{inc}\"` names no file with that letter case; bankcheck read `{}`, which matches it only when letter case is ignored (a case-sensitive file system would not find it)",
                        hit.display()
                    ),
                )
            })
            .collect()
    }

    /// True when some file of the run includes `path`.
    pub fn is_included(&self, path: &Path) -> bool {
        self.includes().includers.contains_key(&normalise(path))
    }

    /// True when a file of the run that mentions shared memory includes `path`: only
    /// then can the header's helpers receive a shared array from an includer.
    pub fn is_included_by_shared_memory_code(&self, path: &Path) -> bool {
        self.includes()
            .includers
            .get(&normalise(path))
            .is_some_and(|inc| inc.iter().any(|i| self.shared_files.contains(i)))
    }

    /// Where `inc`, included by `includer`, may live: next to the includer, then in
    /// each include directory.
    fn candidates<'a>(
        &'a self,
        includer: &Path,
        inc: &'a str,
    ) -> impl Iterator<Item = PathBuf> + 'a {
        let dir = includer.parent().map(Path::to_path_buf).unwrap_or_default();
        std::iter::once(normalise(&dir.join(inc))).chain(
            self.include_dirs
                .iter()
                .map(move |d| normalise(&d.join(inc))),
        )
    }

    /// The only file of the run whose path ends with `inc` (leading `..` dropped), else
    /// the only such file of the workspace. Letter case is ignored: projects written on
    /// case-insensitive file systems spell folders loosely (`Ray Sorting/` for `Ray sorting/`).
    /// When several match, the one whose include root (its path without `inc`) is the
    /// nearest folder enclosing `includer` is taken, if only one is nearest: a checkout of
    /// several projects that each carry a copy of a shared header (`-I` to the project's
    /// own root); copies elsewhere are other projects'.
    fn unique_run_file(&self, includer: &Path, inc: &str) -> Option<PathBuf> {
        let lower = |c: &Component| c.as_os_str().to_string_lossy().to_lowercase();
        let tail: Vec<String> = Path::new(inc)
            .components()
            .filter(|c| matches!(c, Component::Normal(_)))
            .map(|c| lower(&c))
            .collect();
        let name = tail.last()?.clone();
        let includer_dir = normalise(includer.parent().unwrap_or(Path::new("")));
        let unique = |files: Option<&Vec<PathBuf>>| -> Option<PathBuf> {
            let hits: Vec<&PathBuf> = files?
                .iter()
                .filter(|f| {
                    let comps: Vec<String> = f.components().map(|c| lower(&c)).collect();
                    comps.len() >= tail.len() && comps[comps.len() - tail.len()..] == tail[..]
                })
                .collect();
            match hits.as_slice() {
                [] => None,
                [one] => Some((*one).clone()),
                many => nearest_enclosing(&includer_dir, many, tail.len()),
            }
        };
        if let Some(hit) = unique(self.run_files.get(&name)) {
            return Some(hit);
        }
        if self.run_files.get(&name).is_some_and(|v| !v.is_empty()) {
            return None; // ambiguous in the run itself
        }
        let workspace = self.workspace.get_or_init(|| {
            let mut by_name: HashMap<String, Vec<PathBuf>> = HashMap::new();
            for f in self.lister.as_ref().map(|l| l()).unwrap_or_default() {
                let f = normalise(&f);
                if let Some(n) = f.file_name() {
                    by_name
                        .entry(n.to_string_lossy().to_lowercase())
                        .or_default()
                        .push(f);
                }
            }
            by_name
        });
        unique(workspace.get(&name))
    }

    fn includes(&self) -> &Includes {
        self.resolved.get_or_init(|| {
            let is_run_file = |p: &Path| {
                p.file_name()
                    .and_then(|n| self.run_files.get(&n.to_string_lossy().to_lowercase()))
                    .is_some_and(|v| v.iter().any(|f| f == p))
            };
            let mut out = Includes::default();
            // The includes of the headers between the scanned files (see `between`).
            let read_includes = |p: &PathBuf| {
                let bytes = (self.reader)(p)?;
                let text = String::from_utf8_lossy(&bytes);
                Some(
                    include_regex()
                        .captures_iter(&text)
                        .filter_map(|c| c.get(1).map(|m| m.as_str().to_string()))
                        .collect(),
                )
            };
            let candidates =
                |includer: &PathBuf, inc: &str| self.candidates(includer, inc).collect();
            let between = between::edges_of_unscanned(
                &self.includes,
                MAX_INCLUDE_DEPTH,
                &|p| is_run_file(p),
                &candidates,
                &read_includes,
            );
            for (includer, inc) in self.includes.iter().chain(&between) {
                let mut found = false;
                for cand in self.candidates(includer, inc) {
                    found |= is_run_file(&cand);
                    let list = out.includers.entry(cand).or_default();
                    if list.len() < MAX_LISTED_INCLUDERS {
                        list.push(includer.clone());
                    }
                }
                if found {
                    continue;
                }
                if let Some(hit) = self.unique_run_file(includer, inc) {
                    if hit != *includer {
                        let list = out.includers.entry(hit.clone()).or_default();
                        if list.len() < MAX_LISTED_INCLUDERS {
                            list.push(includer.clone());
                        }
                        if !ends_with_exactly(&hit, inc) {
                            out.case_folded
                                .push((includer.clone(), inc.clone(), hit.clone()));
                        }
                        out.by_name.insert((includer.clone(), inc.clone()), hit);
                    }
                }
            }
            for (includer, inc) in &self.angle_includes {
                let hit = self
                    .candidates(includer, inc)
                    .into_iter()
                    .find(|c| is_run_file(c))
                    .or_else(|| self.unique_run_file(includer, inc));
                if let Some(hit) = hit.filter(|h| h != includer) {
                    let list = out.angle_includers.entry(hit).or_default();
                    if list.len() < MAX_LISTED_INCLUDERS {
                        list.push(includer.clone());
                    }
                }
            }
            out
        })
    }

    /// The accesses in `header`'s helpers as the kernels of the files that include it
    /// call them: each includer that names one of `helpers` (the header's functions
    /// nothing in it calls) is lowered with its headers merged (once per run, see
    /// [`Self::through_includer`]), and only the sites inside this header's functions
    /// are kept (their spans index into the header).
    pub fn sites_through_includers(
        &self,
        header: &Path,
        text: &str,
        helpers: &[&str],
        settings: &Settings,
    ) -> Vec<crate::model::site::LoweredFile> {
        let Some((me, includers, own)) = self.header_and_includers(header) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        // A header without shared memory of its own reaches only arrays that an includer
        // with shared-memory code hands its helpers.
        let own_shared = crate::source::mentions_shared_memory(text);
        // An includer that never names a helper of the header calls none of them. Each
        // helper gets its own includers: the first few that name any helper may all call
        // the same ones (ggml's `common.cuh` has dozens, and `block_reduce` went unseen).
        let mut chosen: Vec<&PathBuf> = Vec::new();
        let mut per_helper = vec![0usize; helpers.len()];
        for inc in includers
            .iter()
            .filter(|i| **i != me && (own_shared || self.shared_files.contains(*i)))
        {
            if per_helper.iter().all(|&n| n >= MAX_INCLUDERS) {
                break;
            }
            let Some(bytes) = (self.reader)(inc) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            let mut wanted = false;
            for (h, n) in helpers.iter().zip(per_helper.iter_mut()) {
                if *n < MAX_INCLUDERS && mentions_word(&text, h) {
                    *n += 1;
                    wanted = true;
                }
            }
            if wanted {
                chosen.push(inc);
            }
        }
        for inc in chosen {
            let Some(lowered) = self.through_includer(inc, settings) else {
                continue;
            };
            let mine = |s: &&crate::model::site::AccessSite| {
                s.foreign.as_ref().is_some_and(|t| Arc::ptr_eq(t, &own.1))
            };
            // Sites reaching the includer's own arrays are its to report, at its call.
            let claimed = |s: &crate::model::site::AccessSite| {
                self.reports_claimed_sites(inc) && s.claimed_by_lowered_file(&lowered.arrays)
            };
            let reported_elsewhere: Vec<_> = lowered
                .sites
                .iter()
                .filter(|s| mine(s) && claimed(s))
                .map(|s| s.span)
                .collect();
            let mine = |s: &&crate::model::site::AccessSite| mine(s) && !claimed(s);
            // Sites in a third file's helper that this header's own code calls, reaching
            // an array declared outside the includer: the header claims them at its
            // call, as its own lowering does (the pipeline keeps those whose array is
            // the header's own).
            let via_me = |s: &crate::model::site::AccessSite| {
                let outside = lowered.arrays.get(s.array).is_some_and(|a| a.foreign);
                let third = s.foreign.as_ref().is_some_and(|t| !Arc::ptr_eq(t, &own.1));
                let call = s
                    .via_calls
                    .iter()
                    .rev()
                    .find(|(_, t)| t.as_ref().is_some_and(|t| Arc::ptr_eq(t, &own.1)));
                (outside && third)
                    .then_some(call.map(|(at, _)| *at))
                    .flatten()
            };
            if !lowered
                .sites
                .iter()
                .any(|s| mine(&s) || via_me(s).is_some())
                && reported_elsewhere.is_empty()
            {
                continue;
            }
            let name = inc.display().to_string();
            let sites = lowered
                .sites
                .iter()
                .filter_map(|s| {
                    let mut s = s.clone();
                    if let Some(call) = via_me(&s) {
                        let text = s.foreign.clone()?;
                        s.move_to_owner_call(call, text);
                    } else if !mine(&&s) {
                        return None;
                    }
                    through_includer(&mut s, &name);
                    Some(s)
                })
                .collect();
            out.push(crate::model::site::LoweredFile {
                arrays: lowered.arrays.clone(),
                sites,
                reported_elsewhere,
            });
        }
        out
    }

    /// `includer` lowered with the headers it includes merged, keeping only the sites in
    /// the headers' functions. Computed once per run and settings, however many of its
    /// headers ask.
    fn through_includer(
        &self,
        includer: &Path,
        settings: &Settings,
    ) -> Option<Arc<crate::model::site::LoweredFile>> {
        let key = (includer.to_path_buf(), settings_key(settings));
        let cell = self.through.lock().ok()?.entry(key).or_default().clone();
        cell.get_or_init(|| {
            let (syn, text) = self.includer_syntax(includer, settings)?;
            let mut lowered = crate::lower::interp::with_file_budget(text.len(), || {
                crate::lower::lower_file(&syn, &text, settings)
            });
            lowered.sites.retain(|s| s.foreign.is_some());
            Some(Arc::new(lowered))
        })
        .clone()
    }

    /// `includer` parsed, with the definitions of the headers it includes merged and
    /// their shared arrays added (an includer's own check leaves those out: they are the
    /// headers' to report, and the headers' functions name them); and its text. The
    /// front end reads it as the includer's own check does, so that a kernel whose head
    /// is a macro use (`DEFINE_FLASH_FORWARD_KERNEL(name, ...) { ... }`) is a kernel here
    /// too.
    fn includer_syntax(
        &self,
        includer: &Path,
        settings: &Settings,
    ) -> Option<(FileSyntax, String)> {
        let bytes = (self.reader)(includer)?;
        let name = header_language_name(includer, &bytes);
        let mut source = crate::source::load(&name, &bytes)?;
        let header_definitions = self.header_definitions(includer, &source.text, settings);
        let front = crate::source::FrontEnd {
            defines: Some(&settings.defines),
            header_definitions: &header_definitions,
        };
        crate::source::prepare(&mut source, front);
        let tree = crate::source::parse(&source)?;
        let mut syn = crate::extract::extract(&source, &tree);
        drop(tree);
        let mut visited = HashSet::new();
        self.merge_includes(includer, &source.text, &mut syn, 0, &mut visited);
        self.add_includers_template_calls(includer, &mut syn);
        let mut headers: Vec<PathBuf> = visited.into_iter().collect();
        headers.sort();
        for h in headers.iter().filter_map(|p| self.header(p)) {
            for d in &h.0.global_shared {
                if !syn.global_shared.iter().any(|g| g.name == d.name) {
                    syn.foreign_shared.insert(d.name.clone());
                    syn.global_shared.push(d.clone());
                }
            }
        }
        Some((syn, source.text.into_owned()))
    }

    /// For each quoted `#include` of `text` (the content of `path`), in order, where the
    /// included file may be: next to `path`, in each include directory, then the file
    /// the run resolved it to by name.
    fn include_candidates(&self, path: &Path, text: &str) -> Vec<Vec<PathBuf>> {
        self.candidates_of_includes(path, text, false)
    }

    /// [`Self::include_candidates`] for the includes in angle brackets too, each also
    /// resolved to the one file of the run or workspace whose path ends with the
    /// included path (a system header matches none). Only macros are read this way: a
    /// text scan is cheap, while parsing a library's whole include tree for every file
    /// that includes it (CCCL, CUTLASS) made a run several times as costly.
    fn macro_include_candidates(&self, path: &Path, text: &str) -> Vec<Vec<PathBuf>> {
        self.candidates_of_includes(path, text, true)
    }

    fn candidates_of_includes(&self, path: &Path, text: &str, angle: bool) -> Vec<Vec<PathBuf>> {
        let me = normalise(path);
        let regex = if angle {
            any_include_regex()
        } else {
            include_regex()
        };
        regex
            .captures_iter(text)
            .filter_map(|c| c.get(1).or_else(|| c.get(2)))
            .map(|inc| {
                let inc = inc.as_str();
                let by_name = self
                    .includes()
                    .by_name
                    .get(&(me.clone(), inc.to_string()))
                    .cloned()
                    .or_else(|| {
                        // A header outside the run names its own includes.
                        angle
                            .then(|| self.unique_run_file(&me, inc))
                            .flatten()
                            .filter(|hit| *hit != me)
                    });
                self.candidates(&me, inc).chain(by_name).collect()
            })
            .collect()
    }

    /// The files `text` (the content of `path`) includes directly, with their text: a
    /// text search, no parse.
    fn direct_includes(&self, path: &Path, text: &str) -> Vec<(PathBuf, String)> {
        let mut out = Vec::new();
        for candidates in self.include_candidates(path, text) {
            if let Some(found) = candidates.into_iter().find_map(|p| {
                let bytes = (self.reader)(&p)?;
                Some((p, String::from_utf8_lossy(&bytes).into_owned()))
            }) {
                out.push(found);
            }
        }
        out
    }

    /// A header's normalised path, the files of the run that include it, and its cached
    /// definitions (its functions carry the cached text: sites in them point at it).
    fn header_and_includers(&self, header: &Path) -> Option<(PathBuf, &[PathBuf], Header)> {
        let me = normalise(header);
        let includers = self.includes().includers.get(&me)?;
        let own = self.header(&me)?;
        Some((me, includers, own))
    }

    /// The accesses of `header`'s kernels as each file that includes it compiles them:
    /// with the includer's macros and constants (a `#define` before the `#include`) and
    /// launches. Only the includers `which` picks by their text, or that of a file they
    /// include directly, are lowered, at most four; the caller keeps the worst.
    pub fn kernel_sites_through_includers(
        &self,
        header: &Path,
        which: Includers<'_>,
        settings: &Settings,
    ) -> Vec<crate::model::site::LoweredFile> {
        let wanted = |t: &str| match which {
            Includers::Naming(names) => names.iter().any(|m| mentions_word(t, m)),
            Includers::Instantiating(kernels) => kernels.iter().any(|k| instantiates(t, k)),
        };
        let Some((me, _, own)) = self.header_and_includers(header) else {
            return Vec::new();
        };
        let includers = self.transitive_includers(&me);
        // The includer's text, or that of a file it includes directly (its config header).
        let names_one = |inc: &Path| {
            let Some(bytes) = (self.reader)(inc) else {
                return false;
            };
            let text = String::from_utf8_lossy(&bytes);
            wanted(&text)
                || self
                    .direct_includes(inc, &text)
                    .iter()
                    .any(|(h, t)| *h != me && wanted(t))
        };
        let mut out = Vec::new();
        for inc in includers
            .iter()
            .filter(|i| **i != me && names_one(i))
            .take(MAX_INCLUDERS)
        {
            let Some((syn, text)) = self.includer_syntax(inc, settings) else {
                continue;
            };
            let mut lowered = crate::lower::interp::with_file_budget(text.len(), || {
                crate::lower::lower_kernels_of(&syn, &text, settings, &own.1)
            });
            let claims = self.reports_claimed_sites(inc);
            let arrays = &lowered.arrays;
            let mut reported_elsewhere = Vec::new();
            lowered.sites.retain(|s| {
                let mine = s.foreign.as_ref().is_some_and(|t| Arc::ptr_eq(t, &own.1));
                let claimed = claims && s.claimed_by_lowered_file(arrays);
                if mine && claimed {
                    reported_elsewhere.push(s.span);
                }
                mine && !claimed
            });
            lowered.reported_elsewhere = reported_elsewhere;
            if lowered.sites.is_empty() && lowered.reported_elsewhere.is_empty() {
                continue;
            }
            let name = inc.display().to_string();
            for s in &mut lowered.sites {
                through_includer(s, &name);
            }
            out.push(lowered);
        }
        out
    }

    /// The files that include `me`, directly first, then through the headers that do, as
    /// deep as an includer's definitions are merged (`MAX_INCLUDE_DEPTH`): a kernel
    /// header reached through an umbrella header (`runner.cu` includes `kernels.cuh`,
    /// which includes each kernel's header) is launched by the umbrella's includers.
    fn transitive_includers(&self, me: &Path) -> Vec<PathBuf> {
        let map = &self.includes().includers;
        let mut out: Vec<PathBuf> = Vec::new();
        let mut seen: HashSet<&Path> = HashSet::from([me]);
        let mut level: Vec<PathBuf> = vec![me.to_path_buf()];
        for _ in 0..MAX_INCLUDE_DEPTH {
            let mut next = Vec::new();
            for h in &level {
                for inc in map.get(h).into_iter().flatten() {
                    if out.len() < MAX_LISTED_INCLUDERS && seen.insert(inc) {
                        out.push(inc.clone());
                        next.push(inc.clone());
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        out
    }

    /// Adds the definitions of the headers `text` includes (transitively) to `syn`.
    pub fn merge_includes(
        &self,
        path: &Path,
        text: &str,
        syn: &mut FileSyntax,
        depth: u32,
        visited: &mut HashSet<PathBuf>,
    ) {
        self.walk_includes(path, text, depth, visited, &mut |h| {
            syn.merge_included(&h.0);
            true
        });
    }

    /// The macros defined by the headers `text` (the content of `path`) includes, as far
    /// as `MAX_INCLUDE_DEPTH` and the run can read them, in include order: the front end
    /// needs them to read the file as its compiler does (`#define HD __host__ __device__`
    /// in a project header, used in the file). A text scan of each header, no parse.
    pub fn header_definitions(
        &self,
        path: &Path,
        text: &str,
        settings: &Settings,
    ) -> Vec<crate::source::Definition> {
        let key = settings_key(settings);
        let mut out = Vec::new();
        let mut visited = HashSet::new();
        let lists = self.macro_include_candidates(path, text);
        self.collect_macros(&lists, settings, key, 0, &mut visited, &mut out);
        out
    }

    /// The qualifier macros a header sees from the files that include it: a header
    /// that is not self-contained (cuCollections' `static_map_kernels.cuh` writes
    /// `CUCO_KERNEL void insert(...)`, defined in a header its includer includes first)
    /// is read as its includers compile it. Only qualifiers, attributes and pragmas are
    /// taken, from the first includers: values and conditions stay the header's own.
    pub fn includer_qualifier_definitions(
        &self,
        path: &Path,
        settings: &Settings,
    ) -> Vec<crate::source::Definition> {
        const INCLUDERS_READ: usize = 2;
        let me = normalise(path);
        let graph = self.includes();
        let includers = graph
            .includers
            .get(&me)
            .into_iter()
            .chain(graph.angle_includers.get(&me))
            .flatten();
        let key = settings_key(settings);
        let mut defs = Vec::new();
        for inc in includers.filter(|i| **i != me).take(INCLUDERS_READ) {
            let Some(h) = self.header_macros(inc, settings, key) else {
                continue;
            };
            let mut visited = HashSet::from([me.clone(), inc.clone()]);
            let lists = self.header_include_lists(inc, &h.1, true);
            self.collect_macros(&lists, settings, key, 0, &mut visited, &mut defs);
            defs.extend(h.0.iter().cloned());
        }
        crate::source::qualifier_definitions(defs)
    }

    /// The macros of the headers `lists` names (a file's includes, as
    /// [`Self::macro_include_candidates`] finds them), depth first in include order.
    fn collect_macros(
        &self,
        lists: &[Vec<PathBuf>],
        settings: &Settings,
        key: u64,
        depth: u32,
        visited: &mut HashSet<PathBuf>,
        out: &mut Vec<crate::source::Definition>,
    ) {
        if depth >= MAX_INCLUDE_DEPTH {
            return;
        }
        for candidates in lists {
            for cand in candidates {
                if !visited.insert(cand.clone()) {
                    break;
                }
                if let Some(h) = self.header_macros(cand, settings, key) {
                    out.extend(h.0.iter().cloned());
                    if depth + 1 < MAX_INCLUDE_DEPTH {
                        let inner = self.header_include_lists(cand, &h.1, true);
                        self.collect_macros(&inner, settings, key, depth + 1, visited, out);
                    }
                    break;
                }
            }
        }
    }

    /// [`Self::macro_include_candidates`] (`angle`) or [`Self::include_candidates`] of
    /// header `path` whose text is `text`, the one the run keeps for it (the text its
    /// macros were read from for `angle`, the parsed header's otherwise): found once per
    /// run.
    fn header_include_lists(&self, path: &Path, text: &str, angle: bool) -> IncludeLists {
        cached(&self.header_includes, (path.to_path_buf(), angle), || {
            Arc::new(self.candidates_of_includes(path, text, angle))
        })
    }

    /// One header's macros, read once per run and settings.
    fn header_macros(&self, path: &Path, settings: &Settings, key: u64) -> Option<HeaderMacros> {
        cached(&self.header_macros, (path.to_path_buf(), key), || {
            self.read_header_macros(path, settings)
        })
    }

    /// One header's macros and text, read (see [`Self::header_macros`]).
    fn read_header_macros(&self, path: &Path, settings: &Settings) -> Option<HeaderMacros> {
        (self.reader)(path).map(|bytes| {
            let text = crate::source::decode::decode(&bytes)
                .map_or_else(|_| String::from_utf8_lossy(&bytes).into_owned(), |d| d.text);
            let name = path.display().to_string();
            let language =
                crate::source::language_of(&name, &text).unwrap_or(crate::Language::Cuda);
            let defs = crate::source::definitions_of(&text, language, &settings.defines);
            Arc::new((defs, text))
        })
    }

    /// True when a header `text` includes (transitively, as far as the run can read
    /// them) defines anything: otherwise merging them changes nothing. Stops at the
    /// first that does.
    pub fn includes_define_anything(&self, path: &Path, text: &str) -> bool {
        let mut found = false;
        self.walk_includes(path, text, 0, &mut HashSet::new(), &mut |h| {
            let s = &h.0;
            found = !(s.functions.is_empty()
                && s.constants.is_empty()
                && s.macros.is_empty()
                && s.fn_macros.is_empty()
                && s.typedefs.is_empty()
                && s.structs.is_empty()
                && s.shared_macros.is_empty());
            !found
        });
        found
    }

    /// The path of the header whose parsed text is `text` (the text its functions carry,
    /// `Function::foreign_text`), as the run names it.
    pub fn path_of_header_text(&self, text: &Arc<str>) -> Option<PathBuf> {
        let headers = self.headers.lock().ok()?;
        headers.iter().find_map(|(path, h)| {
            h.get()
                .and_then(Option::as_ref)
                .filter(|h| Arc::ptr_eq(&h.1, text))
                .map(|_| normalise(path))
        })
    }

    /// True when a header `text` includes (as [`Self::includes_define_anything`] walks
    /// them) defines a function named one of `names` (bare or the last part of a
    /// qualified name).
    pub fn includes_define_function(&self, path: &Path, text: &str, names: &[&str]) -> bool {
        let mut found = false;
        self.walk_includes(path, text, 0, &mut HashSet::new(), &mut |h| {
            found = h.0.functions.iter().any(|f| {
                let bare = f.name.rsplit("::").next().unwrap_or(&f.name);
                names.iter().any(|n| *n == bare || *n == f.name)
            });
            !found
        });
        found
    }

    /// Calls `f` on each header `text` includes, depth first in include order, until it
    /// returns false; `false` when it did.
    fn walk_includes(
        &self,
        path: &Path,
        text: &str,
        depth: u32,
        visited: &mut HashSet<PathBuf>,
        f: &mut dyn FnMut(&Header) -> bool,
    ) -> bool {
        if depth >= MAX_INCLUDE_DEPTH {
            return true;
        }
        self.walk_include_lists(&self.include_candidates(path, text), depth, visited, f)
    }

    /// [`Self::walk_includes`] over the includes `lists` names.
    fn walk_include_lists(
        &self,
        lists: &[Vec<PathBuf>],
        depth: u32,
        visited: &mut HashSet<PathBuf>,
        f: &mut dyn FnMut(&Header) -> bool,
    ) -> bool {
        for candidates in lists {
            for cand in candidates {
                if !visited.insert(cand.clone()) {
                    break;
                }
                if let Some(h) = self.header(cand) {
                    if !f(&h) {
                        return false;
                    }
                    if depth + 1 < MAX_INCLUDE_DEPTH {
                        let inner = self.header_include_lists(cand, &h.1, false);
                        if !self.walk_include_lists(&inner, depth + 1, visited, f) {
                            return false;
                        }
                    }
                    break;
                }
            }
        }
        true
    }

    /// The definitions of a header and its text, parsed once per run.
    fn header(&self, path: &Path) -> Option<Header> {
        let cell = self
            .headers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(path.to_path_buf())
            .or_default()
            .clone();
        // Parsed outside the map's lock: a thread asking for the same header waits for it.
        cell.get_or_init(|| self.parse_header(path)).clone()
    }

    /// A header's definitions and text, parsed (see [`Self::header`]).
    fn parse_header(&self, path: &Path) -> Option<Header> {
        (self.reader)(path).and_then(|bytes| {
            let lang_name = header_language_name(path, &bytes);
            let mut source = crate::source::load(&lang_name, &bytes)?;
            prepare_header(&mut source);
            let tree = crate::source::parse(&source)?;
            let full = crate::extract::extract(&source, &tree);
            let mut syn = strip(&full);
            syn.global_shared.clone_from(&full.global_shared);
            let text: Arc<str> = Arc::from(source.text);
            syn.functions = full
                .functions
                .into_iter()
                .filter(|f| !f.body.is_empty())
                .map(|mut f| {
                    f.foreign_text = Some(text.clone());
                    f
                })
                .collect();
            Some(Arc::new((syn, text)))
        })
    }
}

/// A header read for its definitions passes the front end as a file checked alone
/// does (no settings' defines: the cache is per run), so that the kernels its macro heads
/// define (flash-attention's `DEFINE_FLASH_FORWARD_KERNEL`) and `typename T::X{}`
/// arguments are read in its includers' lowering as in its own.
fn prepare_header(source: &mut crate::source::SourceFile) {
    let front = crate::source::FrontEnd {
        defines: None,
        header_definitions: &[],
    };
    crate::source::prepare(source, front);
}

/// The definitions of a header without its function bodies (kept small for the cache).
fn strip(syn: &FileSyntax) -> FileSyntax {
    let mut s = FileSyntax::default();
    s.merge_included(syn);
    s
}

/// The value cached under `key`, made by `make` outside the lock when missing (two
/// threads may both make it; either answer is the same).
fn cached<K: std::hash::Hash + Eq, V: Clone>(
    map: &Mutex<HashMap<K, V>>,
    key: K,
    make: impl FnOnce() -> V,
) -> V {
    if let Some(hit) = map.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return hit;
    }
    let value = make();
    if let Ok(mut m) = map.lock() {
        m.insert(key, value.clone());
    }
    value
}

/// Marks a site as taken from the lowering of includer `name`.
fn through_includer(s: &mut crate::model::site::AccessSite, name: &str) {
    let context = s
        .context
        .get_or_insert_with(|| crate::model::site::LoweringContext {
            shape: ShapeSource::Unstated,
            through: Vec::new(),
        });
    context.through.insert(0, name.to_string());
}
