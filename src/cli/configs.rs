//! Finding and loading `lint.toml`: the nearest one from each file's directory upward,
//! or the one given with `--config`, or none with `--isolated`. Each is read and
//! validated once; a bad one stops the run before any file is checked. The store is
//! shared (cloned) with the directory walker, which asks it what to skip.

use bankcheck::config::Config;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use super::read::absolute;

/// The file name bankcheck looks for.
pub const CONFIG_NAME: &str = "lint.toml";

/// How configuration is found for this run; clones share one cache.
#[derive(Clone)]
pub struct ConfigStore(Arc<Store>);

enum Store {
    /// `--config FILE` or `--isolated`: one configuration for every file.
    Fixed(Arc<Config>),
    /// Discovery, cached per directory.
    Discover {
        by_dir: Mutex<HashMap<PathBuf, Arc<Config>>>,
        fallback: Arc<Config>,
    },
}

/// A configuration problem, already rendered with file, line and key.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadConfig(pub String);

impl ConfigStore {
    pub fn new(config: Option<&Path>, isolated: bool) -> anyhow::Result<ConfigStore> {
        let cwd = absolute(Path::new("."));
        let store = if isolated {
            Store::Fixed(Arc::new(Config::empty(cwd, super::rule_catalog())))
        } else if let Some(file) = config {
            Store::Fixed(Arc::new(load(file)?))
        } else {
            Store::Discover {
                by_dir: Mutex::new(HashMap::new()),
                fallback: Arc::new(Config::empty(cwd, super::rule_catalog())),
            }
        };
        Ok(ConfigStore(Arc::new(store)))
    }

    /// The configuration that applies to `file` (a path to a file, existing or not).
    pub fn for_file(&self, file: &Path) -> anyhow::Result<Arc<Config>> {
        self.for_absolute(&absolute(file))
    }

    /// [`ConfigStore::for_file`] of a path already absolute.
    pub fn for_absolute(&self, file: &Path) -> anyhow::Result<Arc<Config>> {
        self.for_dir(file.parent().unwrap_or(file))
    }

    fn for_dir(&self, dir: &Path) -> anyhow::Result<Arc<Config>> {
        let (by_dir, fallback) = match &*self.0 {
            Store::Fixed(config) => return Ok(config.clone()),
            Store::Discover { by_dir, fallback } => (by_dir, fallback),
        };
        let cached = by_dir
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(dir)
            .cloned();
        if let Some(config) = cached {
            return Ok(config);
        }
        let candidate = dir.join(CONFIG_NAME);
        let config = if candidate.is_file() && !foreign(&candidate) {
            Arc::new(load(&candidate)?)
        } else if dir.join(".git").exists() {
            // Discovery stops at the repository's root: a lint.toml above it belongs to
            // something else.
            fallback.clone()
        } else {
            match dir.parent() {
                Some(parent) if parent != dir => self.for_dir(parent)?,
                _ => fallback.clone(),
            }
        };
        by_dir
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(dir.to_path_buf(), config.clone());
        Ok(config)
    }
}

/// True when `file` is another tool's `lint.toml`: a TOML table none of whose keys is
/// bankcheck's. It is skipped, with a note, and discovery goes on above it.
fn foreign(file: &Path) -> bool {
    let Ok(loaded) = super::read::read_source(file, super::read::DEFAULT_MAX_FILE_SIZE) else {
        return false;
    };
    let Ok(table) = String::from_utf8_lossy(&loaded.bytes).parse::<toml::Table>() else {
        return false;
    };
    // A key close to one of bankcheck's is a typo in bankcheck's file, reported as such.
    let keys = bankcheck::config::options::TOP_LEVEL_KEYS;
    let ours = |key: &String| {
        keys.contains(&key.as_str())
            || key == "files"
            || bankcheck::config::error::did_you_mean(key, keys.iter().copied()).is_some()
    };
    let foreign = !table.is_empty() && !table.keys().any(ours);
    if foreign {
        errln!(
            "note: {}: skipped: it holds no bankcheck settings (another tool's lint.toml)",
            pretty(file)
        );
    }
    foreign
}

/// Reads and validates one configuration file.
fn load(file: &Path) -> anyhow::Result<Config> {
    // Read as sources are: a FIFO or device given to --config is refused, not waited on.
    let cannot = |e: String| {
        BadConfig(format!(
            "{}: cannot read configuration: {e}",
            file.display()
        ))
    };
    let bytes = super::read::read_source(file, super::read::DEFAULT_MAX_FILE_SIZE)
        .map_err(cannot)?
        .bytes;
    let text = String::from_utf8(bytes)
        .map_err(|_| cannot("stream did not contain valid UTF-8".to_string()))?;
    let base = absolute(file)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let shown = pretty(file);
    let config = Config::parse(&shown, &base, &text, super::rule_catalog())
        .map_err(|e| BadConfig(e.to_string()))?;
    // What works but should be written otherwise (a retired rule id) is said once, here.
    for note in &config.notes {
        errln!("note: {note}");
    }
    Ok(config)
}

/// The configuration path relative to the working directory when it is below it.
fn pretty(file: &Path) -> String {
    let cwd = absolute(Path::new("."));
    let abs = absolute(file);
    abs.strip_prefix(&cwd)
        .map_or_else(|_| file.display().to_string(), |p| p.display().to_string())
}
