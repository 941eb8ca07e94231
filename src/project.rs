//! The run-wide index: what one file needs to know about the other files of a run.
//!
//! Real kernels are launched from other files (`kernel<<<grid, block>>>` in a host
//! `.cu`) and take their constants and types from headers (`#include "params.h"`).
//! The index is built once per run from a cheap text scan; the expensive part
//! (parsing a launcher or a header) happens lazily, once per file, and is cached.
//! It does no I/O itself: the CLI hands it a reader.

use crate::config::Settings;
use crate::extract::{ExternalLaunch, FileSyntax};
use crate::lower::ir::ShapeSource;
use regex::Regex;
use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Reads a file of the run (or an include) by path; `None` when it cannot be read.
pub type Reader = dyn Fn(&Path) -> Option<Vec<u8>> + Send + Sync;

/// Lists the source files of the workspace around the run (called at most once, and
/// only when an include names no file bankcheck knows).
pub type Lister = dyn Fn() -> Vec<PathBuf> + Send + Sync;

/// A parsed header's definitions and its text.
type Header = Arc<(FileSyntax, String)>;

/// The include graph of a run, resolved once every file is scanned.
#[derive(Default)]
struct Includes {
    /// Files of the run that include each header (by normalised path).
    includers: HashMap<PathBuf, Vec<PathBuf>>,
    /// Includes that name no file next to the includer nor in an include directory,
    /// resolved to the only file of the run whose path ends with the included path
    /// (the build's `-I` flags are not known to bankcheck).
    by_name: HashMap<(PathBuf, String), PathBuf>,
}

/// Launches, headers and include directories of one run.
pub struct ProjectIndex {
    /// Files that launch each kernel, by kernel name.
    launchers: HashMap<String, Vec<PathBuf>>,
    /// Quoted includes seen by the scan: (includer, included name), in scan order.
    includes: Vec<(PathBuf, String)>,
    /// Files of the run whose text mentions shared memory.
    shared_files: HashSet<PathBuf>,
    /// Every scanned file of the run, by file name in lower case.
    run_files: HashMap<String, Vec<PathBuf>>,
    /// Built on first use, once every file is scanned.
    resolved: OnceLock<Includes>,
    /// Where to look for included files that are not part of the run.
    lister: Option<Box<Lister>>,
    /// The lister's files, by file name.
    workspace: OnceLock<HashMap<String, Vec<PathBuf>>>,
    include_dirs: Vec<PathBuf>,
    reader: Box<Reader>,
    /// Parsed headers, by normalised path (`None`: unreadable).
    headers: Mutex<HashMap<PathBuf, Option<Header>>>,
    /// Resolved launch shapes per (launcher, kernel).
    shapes: Mutex<HashMap<(PathBuf, String), Vec<ExternalLaunch>>>,
}

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

fn include_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"(?m)^\s*#\s*include\s*"([^"]+)""#).expect("valid include pattern")
    })
}

/// A cheap text test: a file that never spells `shared` (`__shared__`, `groupshared`,
/// `FFX_GROUPSHARED`, `SharedMemory<T>`) declares and reaches no shared memory of its
/// own (its launches are still found by the index's text scan).
pub(crate) fn mentions_shared_memory(text: &str) -> bool {
    text.contains("shared") || text.contains("SHARED") || text.contains("Shared")
}

/// `a/b/../c` -> `a/c`, without touching the file system.
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
    pub fn empty() -> Self {
        ProjectIndex::new(Vec::new(), Box::new(|_| None))
    }

    /// A new index reading includes from `include_dirs` (besides the including file's folder).
    pub fn new(include_dirs: Vec<PathBuf>, reader: Box<Reader>) -> Self {
        ProjectIndex {
            launchers: HashMap::new(),
            includes: Vec::new(),
            shared_files: HashSet::new(),
            run_files: HashMap::new(),
            resolved: OnceLock::new(),
            lister: None,
            workspace: OnceLock::new(),
            include_dirs,
            reader,
            headers: Mutex::new(HashMap::new()),
            shapes: Mutex::new(HashMap::new()),
        }
    }

    /// Also resolves includes by name among the files `lister` lists (the headers of the
    /// workspace that the run does not check).
    #[must_use]
    pub fn with_workspace(mut self, lister: Box<Lister>) -> Self {
        self.lister = Some(lister);
        self
    }

    /// Records the kernels `text` launches (a text scan, no parsing).
    pub fn scan(&mut self, path: &Path, text: &str) {
        let me = normalise(path);
        self.resolved = OnceLock::new();
        if mentions_shared_memory(text) {
            self.shared_files.insert(me.clone());
        }
        if let Some(name) = me.file_name() {
            self.run_files
                .entry(name.to_string_lossy().to_lowercase())
                .or_default()
                .push(me.clone());
        }
        for c in include_regex().captures_iter(text) {
            if let Some(inc) = c.get(1) {
                self.includes.push((me.clone(), inc.as_str().to_string()));
            }
        }
        if !text.contains("<<<") {
            return;
        }
        let mut seen = HashSet::new();
        for c in launch_regex().captures_iter(text) {
            if let Some(k) = c.get(1) {
                if seen.insert(k.as_str().to_string()) {
                    self.launchers
                        .entry(k.as_str().to_string())
                        .or_default()
                        .push(normalise(path));
                }
            }
        }
    }

    /// Block shapes of `kernel` launched in files other than `path`, with where.
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
            let key = (f.clone(), kernel.to_string());
            if let Some(cached) = self.shapes.lock().ok().and_then(|m| m.get(&key).cloned()) {
                out.extend(cached);
                continue;
            }
            let resolved = self.resolve_launches(f, kernel, settings);
            if let Ok(mut m) = self.shapes.lock() {
                m.insert(key, resolved.clone());
            }
            out.extend(resolved);
        }
        out
    }

    fn resolve_launches(
        &self,
        file: &Path,
        kernel: &str,
        settings: &Settings,
    ) -> Vec<ExternalLaunch> {
        let Some(bytes) = (self.reader)(file) else {
            return Vec::new();
        };
        let name = file.display().to_string();
        let Some(source) = crate::source::load(&name, &bytes) else {
            return Vec::new();
        };
        let Some(tree) = crate::source::parse(&source) else {
            return Vec::new();
        };
        let mut syn = crate::extract::extract(&source, &tree);
        drop(tree);
        self.merge_includes(file, &source.text, &mut syn, 0, &mut HashSet::new());
        crate::lower::shape::launch_shapes(&syn, &source.text, kernel, settings, &HashMap::new())
            .into_iter()
            .map(|(s, src)| {
                let place = match src {
                    ShapeSource::Known(t) | ShapeSource::Assumed(t) => {
                        t.rsplit("launch ").next().unwrap_or("").to_string()
                    }
                };
                ((s.x, s.y, s.z), format!("{name} ({place})"))
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
    fn unique_run_file(&self, inc: &str) -> Option<PathBuf> {
        let lower = |c: &Component| c.as_os_str().to_string_lossy().to_lowercase();
        let tail: Vec<String> = Path::new(inc)
            .components()
            .filter(|c| matches!(c, Component::Normal(_)))
            .map(|c| lower(&c))
            .collect();
        let name = tail.last()?.clone();
        let unique = |files: Option<&Vec<PathBuf>>| -> Option<PathBuf> {
            let mut hits = files?.iter().filter(|f| {
                let comps: Vec<String> = f.components().map(|c| lower(&c)).collect();
                comps.len() >= tail.len() && comps[comps.len() - tail.len()..] == tail[..]
            });
            let first = hits.next()?;
            hits.next().is_none().then(|| first.clone())
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
            for (includer, inc) in &self.includes {
                let mut found = false;
                for cand in self.candidates(includer, inc) {
                    found |= is_run_file(&cand);
                    let list = out.includers.entry(cand).or_default();
                    if list.len() < 64 {
                        list.push(includer.clone());
                    }
                }
                if found {
                    continue;
                }
                if let Some(hit) = self.unique_run_file(inc) {
                    if hit != *includer {
                        let list = out.includers.entry(hit.clone()).or_default();
                        if list.len() < 64 {
                            list.push(includer.clone());
                        }
                        out.by_name.insert((includer.clone(), inc.clone()), hit);
                    }
                }
            }
            out
        })
    }

    /// The accesses in `header`'s helpers as the kernels of the files that include it
    /// call them: each includer is parsed with the header's functions added, and only the
    /// sites inside those functions are kept (their spans index into the header).
    pub fn sites_through_includers(
        &self,
        header: &Path,
        syn: &FileSyntax,
        text: &str,
        settings: &Settings,
    ) -> Vec<crate::lower::site::LoweredFile> {
        const MAX_INCLUDERS: usize = 4;
        let me = normalise(header);
        let Some(includers) = self.includes().includers.get(&me) else {
            return Vec::new();
        };
        let foreign_text: Arc<str> = Arc::from(text);
        let mut out = Vec::new();
        // A header without shared memory of its own reaches only arrays that an includer
        // with shared-memory code hands its helpers.
        let own_shared = mentions_shared_memory(text);
        for inc in includers
            .iter()
            .filter(|i| **i != me && (own_shared || self.shared_files.contains(*i)))
            .take(MAX_INCLUDERS)
        {
            let Some(bytes) = (self.reader)(inc) else {
                continue;
            };
            let name = inc.display().to_string();
            let Some(source) = crate::source::load(&name, &bytes) else {
                continue;
            };
            let Some(tree) = crate::source::parse(&source) else {
                continue;
            };
            let mut isyn = crate::extract::extract(&source, &tree);
            drop(tree);
            self.merge_includes(inc, &source.text, &mut isyn, 0, &mut HashSet::new());
            for f in &syn.functions {
                if !isyn
                    .functions
                    .iter()
                    .any(|g| g.name == f.name && g.foreign_text.is_none() && !g.body.is_empty())
                {
                    let mut f = f.clone();
                    f.foreign_text = Some(foreign_text.clone());
                    isyn.functions.push(f);
                }
            }
            for d in &syn.global_shared {
                if !isyn.global_shared.iter().any(|g| g.name == d.name) {
                    isyn.global_shared.push(d.clone());
                }
            }
            let mut lowered = crate::lower::lower_file(&isyn, &source.text, settings);
            lowered.sites.retain(|s| s.foreign);
            if !lowered.sites.is_empty() {
                for s in &mut lowered.sites {
                    s.context = Some(format!(
                        "through `{name}`; {}",
                        s.context.clone().unwrap_or_default()
                    ));
                }
                out.push(lowered);
            }
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
        if depth > 8 {
            return;
        }
        let me = normalise(path);
        for c in include_regex().captures_iter(text) {
            let Some(inc) = c.get(1) else { continue };
            let by_name = self
                .includes()
                .by_name
                .get(&(me.clone(), inc.as_str().to_string()))
                .cloned();
            for cand in self.candidates(&me, inc.as_str()).chain(by_name) {
                if !visited.insert(cand.clone()) {
                    break;
                }
                if let Some(h) = self.header(&cand) {
                    syn.merge_included(&h.0);
                    self.merge_includes(&cand, &h.1, syn, depth + 1, visited);
                    break;
                }
            }
        }
    }

    /// The definitions of a header and its text, parsed once per run.
    fn header(&self, path: &Path) -> Option<Header> {
        if let Some(hit) = self.headers.lock().ok().and_then(|m| m.get(path).cloned()) {
            return hit;
        }
        // Parsed outside the lock; two threads may parse the same header once each.
        let parsed = (self.reader)(path).and_then(|bytes| {
            let name = path.display().to_string();
            // A header whose content does not say otherwise is read with the CUDA grammar.
            let lang_name =
                if crate::source::language_of(&name, &String::from_utf8_lossy(&bytes)).is_some() {
                    name
                } else {
                    format!("{name}.cuh")
                };
            let source = crate::source::load(&lang_name, &bytes)?;
            let tree = crate::source::parse(&source)?;
            let full = crate::extract::extract(&source, &tree);
            let mut syn = strip(&full);
            let text: Arc<str> = Arc::from(source.text.as_str());
            syn.functions = full
                .functions
                .into_iter()
                .filter(|f| !f.body.is_empty())
                .map(|mut f| {
                    f.foreign_text = Some(text.clone());
                    f
                })
                .collect();
            Some(Arc::new((syn, source.text)))
        });
        if let Ok(mut m) = self.headers.lock() {
            m.insert(path.to_path_buf(), parsed.clone());
        }
        parsed
    }
}

/// The definitions of a header without its function bodies (kept small for the cache).
fn strip(syn: &FileSyntax) -> FileSyntax {
    let mut s = FileSyntax::default();
    s.merge_included(syn);
    s
}
