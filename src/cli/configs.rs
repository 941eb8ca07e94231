//! Finding and loading `lint.toml`: the nearest one from each file's directory upward,
//! or the one given with `--config`, or none with `--isolated`. Each is read and
//! validated once; a bad one stops the run before any file is checked.

use bankcheck::config::Config;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::read::absolute;

/// The file name bankcheck looks for.
pub const CONFIG_NAME: &str = "lint.toml";

/// How configuration is found for this run.
pub enum ConfigStore {
    /// `--config FILE` or `--isolated`: one configuration for every file.
    Fixed(Arc<Config>),
    /// Discovery, cached per directory.
    Discover {
        by_dir: HashMap<PathBuf, Arc<Config>>,
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
        if isolated {
            return Ok(ConfigStore::Fixed(Arc::new(Config::empty(
                cwd,
                super::rule_catalog(),
            ))));
        }
        if let Some(file) = config {
            return Ok(ConfigStore::Fixed(Arc::new(load(file)?)));
        }
        Ok(ConfigStore::Discover {
            by_dir: HashMap::new(),
            fallback: Arc::new(Config::empty(cwd, super::rule_catalog())),
        })
    }

    /// The configuration that applies to `file` (a path to a file, existing or not).
    pub fn for_file(&mut self, file: &Path) -> anyhow::Result<Arc<Config>> {
        let dir = absolute(file)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        self.for_dir(&dir)
    }

    fn for_dir(&mut self, dir: &Path) -> anyhow::Result<Arc<Config>> {
        let (by_dir, fallback) = match self {
            ConfigStore::Fixed(config) => return Ok(config.clone()),
            ConfigStore::Discover { by_dir, fallback } => (by_dir, fallback),
        };
        if let Some(config) = by_dir.get(dir) {
            return Ok(config.clone());
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
                Some(parent) if parent != dir => {
                    let parent = parent.to_path_buf();
                    self.for_dir(&parent)?
                }
                _ => fallback.clone(),
            }
        };
        if let ConfigStore::Discover { by_dir, .. } = self {
            by_dir.insert(dir.to_path_buf(), config.clone());
        }
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
