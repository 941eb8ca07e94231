//! Resolution: `lint.toml` [`Options`] and command-line values become validated
//! [`Layer`]s, and layers stack (defaults, file, matching overrides, command line)
//! into one concrete [`Settings`] per checked file. No I/O happens here.

use super::error::{did_you_mean, ConfigError};
use super::options::{self, Options, TOP_LEVEL_KEYS};
use super::settings::{BlockOverride, Settings};
use crate::bank::BankParams;
use crate::diag::Severity;
use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// A named hardware configuration (docs/configuration.md gives each one's source).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    Nvidia,
    AmdRdnaWave32,
    AmdGcnWave64,
    IntelXe,
}

impl Preset {
    pub const ALL: [Preset; 4] = [
        Preset::Nvidia,
        Preset::AmdRdnaWave32,
        Preset::AmdGcnWave64,
        Preset::IntelXe,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Nvidia => "nvidia",
            Preset::AmdRdnaWave32 => "amd-rdna-wave32",
            Preset::AmdGcnWave64 => "amd-gcn-wave64",
            Preset::IntelXe => "intel-xe",
        }
    }

    pub fn params(self) -> BankParams {
        let (bank_count, bank_width, warp_size) = match self {
            Preset::Nvidia | Preset::AmdRdnaWave32 => (32, 4, 32),
            Preset::AmdGcnWave64 => (32, 4, 64),
            Preset::IntelXe => (16, 4, 16),
        };
        BankParams {
            bank_count,
            bank_width,
            warp_size,
        }
    }

    /// The preset called `name`, or an error message with a suggestion.
    pub fn parse(name: &str) -> Result<Preset, (String, Option<String>)> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| {
                let names = Preset::ALL.map(Preset::name);
                let help = did_you_mean(name, names).map_or_else(
                    || format!("known presets: {}", names.join(", ")),
                    |close| format!("did you mean `{close}`?"),
                );
                (format!("unknown preset `{name}`"), Some(help))
            })
    }
}

/// One validated source of settings; every field is optional and later layers win.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Layer {
    pub preset: Option<Preset>,
    pub bank_count: Option<u32>,
    pub bank_width: Option<u32>,
    pub warp_size: Option<u32>,
    pub block_shapes: Vec<BlockOverride>,
    pub defines: Vec<(String, String)>,
    pub include_dirs: Vec<String>,
    pub min_conflict_factor: Option<f64>,
    pub select: Option<Vec<&'static str>>,
    /// Rules enabled on top of `select` (or of the layers below).
    pub extend_select: Vec<&'static str>,
    pub ignore: Vec<&'static str>,
    /// Severity per rule, in the order given; `None` turns the rule off.
    pub severities: Vec<(&'static str, Option<Severity>)>,
    pub fail_on: Option<Severity>,
    /// Rules turned off for the files some globs match; applied after every layer.
    pub per_file_ignores: Vec<PerFileIgnore>,
}

/// Globs of paths relative to one directory (a `lint.toml`'s, or the working directory
/// for the command line's); a glob also matches a path's last component alone, so
/// `build` names any directory or file called so.
#[derive(Debug, Clone)]
pub struct PathGlobs {
    pub base: PathBuf,
    pub patterns: Vec<String>,
    set: GlobSet,
}

impl PartialEq for PathGlobs {
    fn eq(&self, other: &Self) -> bool {
        self.base == other.base && self.patterns == other.patterns
    }
}

impl PathGlobs {
    /// Compiles `patterns` (relative to `base`); the error names the bad glob.
    pub fn new(base: &Path, patterns: &[String]) -> Result<PathGlobs, String> {
        Ok(PathGlobs {
            base: base.to_path_buf(),
            patterns: patterns.to_vec(),
            set: globs(patterns.iter().map(String::as_str))?,
        })
    }

    /// Whether `path` (absolute) itself matches: its path relative to the base, or its
    /// name.
    pub fn matches(&self, path: &Path) -> bool {
        let relative = path.strip_prefix(&self.base).unwrap_or(path);
        let name = path.file_name().map_or(relative, Path::new);
        self.set.is_match(relative) || self.set.is_match(name)
    }

    /// Whether `path` (absolute) or one of its directories below the base matches: for
    /// a path named on the command line with `--force-exclude`. Above the base only the
    /// name counts, so where the project lives never excludes it.
    pub fn matches_with_ancestors(&self, path: &Path) -> bool {
        let Ok(relative) = path.strip_prefix(&self.base) else {
            return self.matches(path);
        };
        relative
            .ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .any(|a| self.set.is_match(a) || a.file_name().is_some_and(|n| self.set.is_match(n)))
    }
}

/// Rules turned off for the files that some globs match (`[per-file-ignores]`,
/// `--per-file-ignores`).
#[derive(Debug, Clone, PartialEq)]
pub struct PerFileIgnore {
    pub globs: PathGlobs,
    /// The rule ids (groups expanded), in the order given.
    pub rules: Vec<&'static str>,
    /// Where it was set: a `lint.toml` or `--per-file-ignores`.
    pub source: String,
}

impl PerFileIgnore {
    /// Parses the command line's `GLOB:RULE,RULE` (the glob relative to `base`).
    pub fn from_flag(
        text: &str,
        base: &Path,
        rules: &[RuleInfo],
    ) -> Result<PerFileIgnore, (String, Option<String>)> {
        let Some((glob, names)) = text.rsplit_once(':') else {
            return Err((format!("`{text}` is not GLOB:RULE,RULE"), None));
        };
        let mut ids = Vec::new();
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            ids.extend(rule_selector(name, rules)?);
        }
        if ids.is_empty() {
            return Err((format!("`{text}` names no rule after the `:`"), None));
        }
        let globs = PathGlobs::new(base, &[glob.trim().to_string()]).map_err(|m| (m, None))?;
        Ok(PerFileIgnore {
            globs,
            rules: ids,
            source: "--per-file-ignores".to_string(),
        })
    }
}

/// What a directory walk skips besides hidden and git-ignored files, from the command
/// line: `--exclude` replaces every `lint.toml`'s `exclude` (and the defaults),
/// `--extend-exclude` adds to them. Globs are relative to the working directory.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Exclusions {
    pub exclude: Option<PathGlobs>,
    pub extend_exclude: Option<PathGlobs>,
}

/// Directories (or files) a walk skips unless `exclude` replaces the list: build output
/// and package managers' folders, which hold generated or vendored code. Hidden
/// directories (`.git`) and git-ignored paths are skipped by the walk itself.
pub const DEFAULT_EXCLUDE: &[&str] = &[
    "build",
    "_build",
    "dist",
    "node_modules",
    "CMakeFiles",
    "_deps",
];

/// What configuration needs to know of one rule. The command line builds the list from
/// the rule registry, so this module does not depend on `rules`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleInfo {
    pub id: &'static str,
    /// Retired ids that select this rule still (`stride-conflict` is `bank-conflict`).
    pub retired: &'static [&'static str],
    pub group: &'static str,
    pub default_severity: Severity,
    pub default_enabled: bool,
}

/// The rules a name stands for: a rule id, a retired id, a group or `all`; unknown names
/// are an error message with a suggestion.
pub fn rule_selector(
    name: &str,
    rules: &[RuleInfo],
) -> Result<Vec<&'static str>, (String, Option<String>)> {
    let ids: Vec<&'static str> = rules
        .iter()
        .filter(|r| r.id == name || r.retired.contains(&name) || r.group == name || name == "all")
        .map(|r| r.id)
        .collect();
    if !ids.is_empty() {
        return Ok(ids);
    }
    let mut names: Vec<&str> = rules.iter().flat_map(|r| [r.id, r.group]).collect();
    names.push("all");
    let help = did_you_mean(name, names.iter().copied())
        .map(|close| format!("did you mean `{close}`?"))
        .or_else(|| Some("`bankcheck rules` lists the rule ids and groups".to_string()));
    Err((format!("unknown rule or group `{name}`"), help))
}

/// A severity name from configuration: `error`, `warning`, `info`, or `off` (`None`).
pub fn severity_setting(text: &str) -> Result<Option<Severity>, (String, Option<String>)> {
    if text == "off" {
        return Ok(None);
    }
    Severity::parse(text).map(Some).ok_or_else(|| {
        let names = ["error", "warning", "info", "off"];
        let help = did_you_mean(text, names).map(|close| format!("did you mean `{close}`?"));
        (
            format!("unknown severity `{text}` (expected error, warning, info or off)"),
            help,
        )
    })
}

/// Parses `NAME=VALUE` (or `NAME`, value `1`) as a preprocessor define.
pub fn define_setting(text: &str) -> Result<(String, String), String> {
    let (name, value) = text.split_once('=').unwrap_or((text, "1"));
    let valid = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if valid {
        Ok((name.to_string(), value.to_string()))
    } else {
        Err(format!(
            "`{text}` is not a define: expected NAME=VALUE with NAME a C identifier"
        ))
    }
}

/// Checks a hardware value: positive, a power of two where the hardware demands it.
pub fn hardware_value(key: &str, value: u32) -> Result<u32, String> {
    let power_of_two = matches!(key, "bank-count" | "bank-width");
    if value == 0 || (power_of_two && !value.is_power_of_two()) || value > 1024 {
        let need = if power_of_two {
            "a power of two between 1 and 1024"
        } else {
            "between 1 and 1024"
        };
        return Err(format!("`{key}` must be {need}, not {value}"));
    }
    Ok(value)
}

/// Checks a block shape: one to three sizes, each at least 1.
pub fn block_shape(sizes: &[u32]) -> Result<(u32, u32, u32), String> {
    if sizes.is_empty() || sizes.len() > 3 || sizes.contains(&0) {
        return Err("a block shape is one to three sizes, each at least 1: [x, y, z]".to_string());
    }
    let at = |i: usize| sizes.get(i).copied().unwrap_or(1);
    Ok((at(0), at(1), at(2)))
}

/// Checks `min-conflict-factor`: a finite number at least 1.
pub fn min_conflict_factor(value: f64) -> Result<f64, String> {
    if value.is_finite() && value >= 1.0 {
        Ok(value)
    } else {
        Err(format!(
            "`min-conflict-factor` must be a number at least 1, not {value}"
        ))
    }
}

/// Parses a fail-on severity.
pub fn fail_on_setting(text: &str) -> Result<Severity, (String, Option<String>)> {
    Severity::parse(text).ok_or_else(|| {
        let help = did_you_mean(text, ["error", "warning", "info"])
            .map(|close| format!("did you mean `{close}`?"));
        (
            format!("unknown severity `{text}` for `fail-on` (expected error, warning or info)"),
            help,
        )
    })
}

/// A parsed, validated `lint.toml`.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file as it was named or found.
    pub file: String,
    /// Its directory: globs and include directories are relative to it.
    pub base_dir: PathBuf,
    root: Layer,
    overrides: Vec<(GlobSet, Layer)>,
    include: GlobSet,
    /// `include-headers`: whether a walk picks up headers that declare shared memory.
    include_headers: bool,
    /// `exclude`, or the defaults when the file does not set it.
    exclude: PathGlobs,
    /// Whether `exclude` is the default list.
    default_exclude: bool,
    extend_exclude: Option<PathGlobs>,
    /// The rules known to this build, for ids, groups and defaults.
    rules: &'static [RuleInfo],
    /// What the file says that works but should be written otherwise (a retired rule
    /// id), each with its position: the command line prints them as notes.
    pub notes: Vec<String>,
}

/// The note for `name` when it is a retired id: which rule it selects, and where.
pub fn retired_note(name: &str, rules: &[RuleInfo]) -> Option<String> {
    let rule = rules.iter().find(|r| r.retired.contains(&name))?;
    Some(format!(
        "`{name}` is a retired rule id: it selects `{}`; write `{}`",
        rule.id, rule.id
    ))
}

/// The extensions of the C/C++ headers a directory walk checks when they declare
/// shared memory (`include-headers`).
pub const HEADER_EXTENSIONS: &[&str] = &["h", "hh", "hpp", "hxx", "inl", "inc"];

/// File names a directory walk picks up when `include` is not set.
pub const DEFAULT_INCLUDE: &[&str] = &["*.cu", "*.cuh", "*.hlsl", "*.hlsli", "*.fx"];

impl Config {
    /// A configuration with no file: the defaults.
    pub fn empty(base_dir: PathBuf, rules: &'static [RuleInfo]) -> Config {
        Config {
            file: String::new(),
            root: Layer::default(),
            overrides: Vec::new(),
            include: globs(DEFAULT_INCLUDE.iter().copied()).unwrap_or_else(|_| GlobSet::empty()),
            include_headers: true,
            exclude: default_exclude(&base_dir),
            default_exclude: true,
            extend_exclude: None,
            base_dir,
            rules,
            notes: Vec::new(),
        }
    }

    /// Parses and validates the text of `file`, which lives in `base_dir`.
    pub fn parse(
        file: &str,
        base_dir: &Path,
        text: &str,
        rules: &'static [RuleInfo],
    ) -> Result<Config, Box<ConfigError>> {
        let options = options::parse(text).map_err(|err| Box::new(toml_error(file, text, &err)))?;
        let ctx = Context {
            file,
            text,
            base_dir,
            rules,
            notes: std::cell::RefCell::new(Vec::new()),
        };
        let mut root = ctx.layer(&LayerOptions::from_options(&options))?;
        for (glob, names) in options.per_file_ignores.iter().flatten() {
            let globs = PathGlobs::new(base_dir, std::slice::from_ref(glob.get_ref()))
                .map_err(|m| ctx.error(glob.span(), "per-file-ignores", m, None))?;
            let rules = ctx
                .rules("per-file-ignores", Some(names))?
                .unwrap_or_default();
            root.per_file_ignores.push(PerFileIgnore {
                globs,
                rules,
                source: file.to_string(),
            });
        }
        let mut overrides = Vec::new();
        for entry in options.overrides.iter().flatten() {
            let Some(files) = &entry.files else {
                let at = text.find("[[overrides]]").unwrap_or(0);
                let message =
                    "every `[[overrides]]` table needs `files = [\"glob\", ...]`".to_string();
                return Err(ctx.error(at..at + "[[overrides]]".len(), "overrides", message, None));
            };
            let set = globs(files.get_ref().iter().map(String::as_str))
                .map_err(|message| ctx.error(files.span(), "files", message, None))?;
            overrides.push((set, ctx.layer(&LayerOptions::from_override(entry))?));
        }
        let include = match &options.include {
            Some(list) => globs(list.iter().map(String::as_str)),
            None => globs(DEFAULT_INCLUDE.iter().copied()),
        }
        .map_err(|message| {
            Box::new(ConfigError {
                file: file.to_string(),
                key: Some("include".into()),
                ..ConfigError::command_line(message, None)
            })
        })?;
        let path_globs = |key: &str, list: &Option<Spanned<Vec<String>>>| {
            list.as_ref()
                .map(|list| {
                    PathGlobs::new(base_dir, list.get_ref())
                        .map_err(|m| ctx.error(list.span(), key, m, None))
                })
                .transpose()
        };
        let exclude = path_globs("exclude", &options.exclude)?;
        let extend_exclude = path_globs("extend-exclude", &options.extend_exclude)?;
        Ok(Config {
            file: file.to_string(),
            base_dir: base_dir.to_path_buf(),
            root,
            overrides,
            include,
            include_headers: options.include_headers.unwrap_or(true),
            default_exclude: exclude.is_none(),
            exclude: exclude.unwrap_or_else(|| default_exclude(base_dir)),
            extend_exclude,
            rules,
            notes: ctx.notes.into_inner(),
        })
    }

    /// Whether a directory walk should pick up the file `path` (absolute) by its name:
    /// `include`. Exclusions are [`Config::excludes`]'s.
    pub fn walk_selects(&self, path: &Path) -> bool {
        let relative = path.strip_prefix(&self.base_dir).unwrap_or(path);
        let name = path.file_name().map_or(relative, Path::new);
        self.include.is_match(name) || self.include.is_match(relative)
    }

    /// Whether a directory walk reads the file `path` to see if it declares shared
    /// memory: a C/C++ header `include` does not pick up, unless `include-headers` is
    /// off. CUDA libraries keep their kernels in `.h` and `.hpp` files.
    pub fn walk_reads_header(&self, path: &Path) -> bool {
        self.include_headers
            && path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| HEADER_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
    }

    /// Whether a walk skips `path` (absolute; a directory's contents with it): the
    /// command line's `--exclude` or else this file's `exclude` (or the defaults), and
    /// both `extend-exclude`s. With `ancestors`, a directory above `path` that matches
    /// excludes it too (`--force-exclude` on a named path).
    pub fn excludes(&self, path: &Path, command_line: &Exclusions, ancestors: bool) -> bool {
        let hit = |globs: &PathGlobs| {
            if ancestors {
                globs.matches_with_ancestors(path)
            } else {
                globs.matches(path)
            }
        };
        command_line
            .exclude
            .as_ref()
            .map_or_else(|| hit(&self.exclude), hit)
            || self.extend_exclude.as_ref().is_some_and(hit)
            || command_line.extend_exclude.as_ref().is_some_and(hit)
    }

    /// The exclusions and per-file ignores in force, for `--show-settings`: each with
    /// where it comes from, and whether it applies to `path` (absolute).
    pub fn describe_paths(&self, path: &Path, command_line: &Layer, cli: &Exclusions) -> String {
        use std::fmt::Write as _;
        let file = if self.file.is_empty() {
            "defaults"
        } else {
            self.file.as_str()
        };
        let mut out = String::new();
        let list = |g: &PathGlobs| format!("{:?}", g.patterns);
        match &cli.exclude {
            Some(globs) => {
                let _ = writeln!(out, "exclude: {} (--exclude)", list(globs));
            }
            None if self.default_exclude => {
                let _ = writeln!(out, "exclude: {} (the defaults)", list(&self.exclude));
            }
            None => {
                let _ = writeln!(out, "exclude: {} ({file})", list(&self.exclude));
            }
        }
        for (globs, from) in [
            (&self.extend_exclude, file),
            (&cli.extend_exclude, "--extend-exclude"),
        ] {
            if let Some(globs) = globs {
                let _ = writeln!(out, "extend-exclude: {} ({from})", list(globs));
            }
        }
        let ignores: Vec<&PerFileIgnore> = self
            .root
            .per_file_ignores
            .iter()
            .chain(&command_line.per_file_ignores)
            .collect();
        if ignores.is_empty() {
            out.push_str("per-file-ignores: none\n");
        }
        for ignore in ignores {
            let applies = if ignore.globs.matches(path) {
                "applies to this file"
            } else {
                "not this file"
            };
            let _ = writeln!(
                out,
                "per-file-ignores: {} = {:?} ({}; {applies})",
                list(&ignore.globs),
                ignore.rules,
                ignore.source
            );
        }
        out
    }

    /// The settings for `path` (absolute): defaults, this file, the overrides that match it,
    /// then `command_line`; last, the per-file ignores (this file's and the command
    /// line's) that match it turn their rules off, whatever selected them.
    pub fn settings_for(&self, path: &Path, command_line: &Layer) -> Settings {
        let relative = path.strip_prefix(&self.base_dir).unwrap_or(path);
        let name = path.file_name().map_or(relative, Path::new);
        let mut layers = vec![&self.root];
        for (set, layer) in &self.overrides {
            if set.is_match(relative) || set.is_match(name) {
                layers.push(layer);
            }
        }
        layers.push(command_line);
        let mut settings = stack(&layers, self.rules);
        for ignore in layers.iter().flat_map(|l| &l.per_file_ignores) {
            if ignore.globs.matches(path) {
                for id in &ignore.rules {
                    settings.severities.insert((*id).to_string(), None);
                }
            }
        }
        settings
    }
}

/// The default exclusions, relative to `base`.
fn default_exclude(base: &Path) -> PathGlobs {
    let patterns: Vec<String> = DEFAULT_EXCLUDE.iter().map(|p| (*p).to_string()).collect();
    PathGlobs::new(base, &patterns).unwrap_or_else(|_| PathGlobs {
        base: base.to_path_buf(),
        patterns: Vec::new(),
        set: GlobSet::empty(),
    })
}

/// Stacks layers, later ones winning, on top of the defaults.
pub fn stack(layers: &[&Layer], rules: &[RuleInfo]) -> Settings {
    let mut settings = Settings::default();
    let mut enabled: BTreeSet<&'static str> = rules
        .iter()
        .filter(|r| r.default_enabled)
        .map(|r| r.id)
        .collect();
    let mut severity: Vec<(&'static str, Severity)> =
        rules.iter().map(|r| (r.id, r.default_severity)).collect();
    for layer in layers {
        if let Some(preset) = layer.preset {
            settings.bank = preset.params();
        }
        if let Some(v) = layer.bank_count {
            settings.bank.bank_count = v;
        }
        if let Some(v) = layer.bank_width {
            settings.bank.bank_width = v;
        }
        if let Some(v) = layer.warp_size {
            settings.bank.warp_size = v;
        }
        for shape in &layer.block_shapes {
            settings.block_shapes.retain(|s| s.kernel != shape.kernel);
            settings.block_shapes.push(shape.clone());
        }
        for (name, value) in &layer.defines {
            settings.defines.insert(name.clone(), value.clone());
        }
        settings
            .include_dirs
            .extend(layer.include_dirs.iter().cloned());
        if let Some(v) = layer.min_conflict_factor {
            settings.min_conflict_factor = v;
        }
        if let Some(select) = &layer.select {
            enabled = select.iter().copied().collect();
        }
        enabled.extend(layer.extend_select.iter().copied());
        for id in &layer.ignore {
            enabled.remove(id);
        }
        for (id, level) in &layer.severities {
            match level {
                Some(level) => {
                    enabled.insert(id);
                    if let Some(entry) = severity.iter_mut().find(|(r, _)| r == id) {
                        entry.1 = *level;
                    }
                }
                None => {
                    enabled.remove(id);
                }
            }
        }
        if let Some(v) = layer.fail_on {
            settings.fail_on = v;
        }
    }
    settings.severities = severity
        .into_iter()
        .map(|(id, level)| (id.to_string(), enabled.contains(id).then_some(level)))
        .collect();
    settings
}

/// Compiles globs; `*` does not cross `/`, `**` does.
fn globs<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let pattern = pattern.trim_start_matches("./");
        let glob = GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
            .map_err(|e| format!("bad glob `{pattern}`: {e}"))?;
        builder.add(glob);
        // `dir/**` should also match `dir` itself so whole folders can be excluded.
        if let Some(dir) = pattern.strip_suffix("/**") {
            builder.add(Glob::new(dir).map_err(|e| format!("bad glob `{pattern}`: {e}"))?);
        }
    }
    builder.build().map_err(|e| e.to_string())
}

/// Turns toml's error (unknown key, wrong type, bad syntax) into a [`ConfigError`].
fn toml_error(file: &str, text: &str, err: &toml::de::Error) -> ConfigError {
    let span = err.span().unwrap_or(0..0);
    let message = err.message().trim().to_string();
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let key = rest.split('`').next().unwrap_or_default().to_string();
        let mut candidates: Vec<&str> = TOP_LEVEL_KEYS.to_vec();
        candidates.push("files");
        let help = did_you_mean(&key, candidates).map(|close| format!("did you mean `{close}`?"));
        let help = help.or_else(|| Some("docs/configuration.md lists every key".to_string()));
        return ConfigError::at(
            file,
            text,
            span,
            Some(key.clone()),
            format!("unknown key `{key}`"),
            help,
        );
    }
    let key = key_on_line(text, span.start);
    let message = match &key {
        Some(key) => format!("invalid value for `{key}`: {message}"),
        None => message,
    };
    ConfigError::at(file, text, span, key, message, None)
}

/// The key assigned on the line holding byte `at` (`key = value`), if any.
fn key_on_line(text: &str, at: usize) -> Option<String> {
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next()?;
    let (key, _) = line.split_once('=')?;
    let key = key.trim().trim_matches('"');
    (!key.is_empty()).then(|| key.to_string())
}

/// The settings keys shared by the top level and `[[overrides]]`.
struct LayerOptions<'a> {
    preset: &'a Option<Spanned<String>>,
    bank_count: &'a Option<Spanned<u32>>,
    bank_width: &'a Option<Spanned<u32>>,
    warp_size: &'a Option<Spanned<u32>>,
    block_shapes: &'a Option<std::collections::BTreeMap<String, Spanned<Vec<u32>>>>,
    defines: &'a Option<Vec<Spanned<String>>>,
    include_dirs: &'a Option<Vec<String>>,
    min_conflict_factor: &'a Option<Spanned<f64>>,
    select: &'a Option<Vec<Spanned<String>>>,
    extend_select: &'a Option<Vec<Spanned<String>>>,
    ignore: &'a Option<Vec<Spanned<String>>>,
    rules: &'a Option<std::collections::BTreeMap<Spanned<String>, Spanned<String>>>,
    fail_on: &'a Option<Spanned<String>>,
}

macro_rules! layer_options {
    ($source:expr) => {
        LayerOptions {
            preset: &$source.preset,
            bank_count: &$source.bank_count,
            bank_width: &$source.bank_width,
            warp_size: &$source.warp_size,
            block_shapes: &$source.block_shapes,
            defines: &$source.defines,
            include_dirs: &$source.include_dirs,
            min_conflict_factor: &$source.min_conflict_factor,
            select: &$source.select,
            extend_select: &$source.extend_select,
            ignore: &$source.ignore,
            rules: &$source.rules,
            fail_on: &$source.fail_on,
        }
    };
}

impl<'a> LayerOptions<'a> {
    fn from_options(o: &'a Options) -> Self {
        layer_options!(o)
    }

    fn from_override(o: &'a options::Override) -> Self {
        layer_options!(o)
    }
}

/// The file being resolved, for error positions.
struct Context<'a> {
    file: &'a str,
    text: &'a str,
    base_dir: &'a Path,
    rules: &'a [RuleInfo],
    /// Notes on what works but should be written otherwise ([`Config::notes`]).
    notes: std::cell::RefCell<Vec<String>>,
}

impl Context<'_> {
    /// The rules `name` selects; a retired id adds a note naming the new id.
    fn selector(
        &self,
        name: &Spanned<String>,
        key: &str,
    ) -> Result<Vec<&'static str>, Box<ConfigError>> {
        let ids = rule_selector(name.get_ref(), self.rules)
            .map_err(|(m, h)| self.error(name.span(), key, m, h))?;
        if let Some(note) = retired_note(name.get_ref(), self.rules) {
            let line = self.text[..name.span().start.min(self.text.len())]
                .matches('\n')
                .count()
                + 1;
            self.notes
                .borrow_mut()
                .push(format!("{}:{line}: {note}", self.file));
        }
        Ok(ids)
    }

    fn error(
        &self,
        span: std::ops::Range<usize>,
        key: &str,
        message: String,
        help: Option<String>,
    ) -> Box<ConfigError> {
        Box::new(ConfigError::at(
            self.file,
            self.text,
            span,
            Some(key.to_string()),
            message,
            help,
        ))
    }

    fn rules(
        &self,
        key: &str,
        names: Option<&Vec<Spanned<String>>>,
    ) -> Result<Option<Vec<&'static str>>, Box<ConfigError>> {
        let Some(names) = names else { return Ok(None) };
        let mut ids = Vec::new();
        for name in names {
            ids.extend(self.selector(name, key)?);
        }
        Ok(Some(ids))
    }

    fn layer(&self, o: &LayerOptions<'_>) -> Result<Layer, Box<ConfigError>> {
        let mut layer = Layer::default();
        if let Some(preset) = o.preset {
            layer.preset = Some(
                Preset::parse(preset.get_ref())
                    .map_err(|(m, h)| self.error(preset.span(), "preset", m, h))?,
            );
        }
        for (key, value, slot) in [
            ("bank-count", o.bank_count, &mut layer.bank_count),
            ("bank-width", o.bank_width, &mut layer.bank_width),
            ("warp-size", o.warp_size, &mut layer.warp_size),
        ] {
            if let Some(value) = value {
                *slot = Some(
                    hardware_value(key, *value.get_ref())
                        .map_err(|m| self.error(value.span(), key, m, None))?,
                );
            }
        }
        for (kernel, sizes) in o.block_shapes.iter().flatten() {
            let shape = block_shape(sizes.get_ref())
                .map_err(|m| self.error(sizes.span(), "block-shapes", m, None))?;
            layer.block_shapes.push(BlockOverride {
                kernel: kernel.clone(),
                shape,
            });
        }
        for define in o.defines.iter().flatten() {
            layer.defines.push(
                define_setting(define.get_ref())
                    .map_err(|m| self.error(define.span(), "defines", m, None))?,
            );
        }
        for dir in o.include_dirs.iter().flatten() {
            layer
                .include_dirs
                .push(self.base_dir.join(dir).to_string_lossy().into_owned());
        }
        if let Some(value) = o.min_conflict_factor {
            layer.min_conflict_factor = Some(
                min_conflict_factor(*value.get_ref())
                    .map_err(|m| self.error(value.span(), "min-conflict-factor", m, None))?,
            );
        }
        layer.select = self.rules("select", o.select.as_ref())?;
        layer.extend_select = self
            .rules("extend-select", o.extend_select.as_ref())?
            .unwrap_or_default();
        layer.ignore = self.rules("ignore", o.ignore.as_ref())?.unwrap_or_default();
        for (name, level) in o.rules.iter().flatten() {
            let ids = self.selector(name, "rules")?;
            let level = severity_setting(level.get_ref())
                .map_err(|(m, h)| self.error(level.span(), name.get_ref(), m, h))?;
            layer
                .severities
                .extend(ids.into_iter().map(|id| (id, level)));
        }
        if let Some(fail_on) = o.fail_on {
            layer.fail_on = Some(
                fail_on_setting(fail_on.get_ref())
                    .map_err(|(m, h)| self.error(fail_on.span(), "fail-on", m, h))?,
            );
        }
        Ok(layer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for the registry (this module must not depend on `rules`).
    const RULES: &[RuleInfo] = &[
        rule("bank-conflict", "conflict", Severity::Warning, true),
        rule("layout-conflict", "conflict", Severity::Warning, true),
        rule("possible-conflict", "possible", Severity::Info, true),
        rule("stride-conflict", "conflict", Severity::Warning, true),
        rule("undecided-access", "input", Severity::Info, false),
        rule("unused-suppression", "hygiene", Severity::Warning, true),
    ];

    const fn rule(
        id: &'static str,
        group: &'static str,
        default_severity: Severity,
        default_enabled: bool,
    ) -> RuleInfo {
        RuleInfo {
            id,
            retired: &[],
            group,
            default_severity,
            default_enabled,
        }
    }

    fn parse(text: &str) -> Result<Config, Box<ConfigError>> {
        Config::parse("lint.toml", Path::new("/p"), text, RULES)
    }

    #[test]
    fn unknown_key_names_file_line_key_and_suggests() {
        let err = parse("preset = \"nvidia\"\n\nbank-cout = 16\n").unwrap_err();
        assert_eq!(
            (err.file.as_str(), err.line, err.key.as_deref()),
            ("lint.toml", Some(3), Some("bank-cout"))
        );
        assert_eq!(err.help.as_deref(), Some("did you mean `bank-count`?"));
    }

    #[test]
    fn unknown_key_inside_an_override_is_found() {
        let err = parse("[[overrides]]\nfiles = [\"*.cu\"]\nwarp-sise = 64\n").unwrap_err();
        assert_eq!((err.line, err.key.as_deref()), (Some(3), Some("warp-sise")));
        assert_eq!(err.help.as_deref(), Some("did you mean `warp-size`?"));
    }

    #[test]
    fn wrong_type_names_the_key() {
        let err = parse("bank-count = \"many\"\n").unwrap_err();
        assert_eq!(
            (err.line, err.key.as_deref()),
            (Some(1), Some("bank-count"))
        );
    }

    #[test]
    fn unknown_rule_id_is_an_error_with_suggestion() {
        let err = parse("[rules]\nstride-conflcit = \"error\"\n").unwrap_err();
        assert_eq!((err.line, err.column), (Some(2), Some(1)));
        assert_eq!(err.help.as_deref(), Some("did you mean `stride-conflict`?"));
        let err = parse("[rules]\nstride-conflict = \"loud\"\n").unwrap_err();
        assert!(
            err.message.contains("unknown severity `loud`"),
            "{}",
            err.message
        );
    }

    /// A retired id selects the rule that replaced it, with a note naming the new id.
    #[test]
    fn retired_ids_select_their_rule_with_a_note() {
        const RENAMED: &[RuleInfo] = &[RuleInfo {
            id: "bank-conflict",
            retired: &["stride-conflict"],
            group: "conflict",
            default_severity: Severity::Warning,
            default_enabled: true,
        }];
        let text = "ignore = [\"stride-conflict\"]\n[rules]\nstride-conflict = \"error\"\n";
        let config = Config::parse("lint.toml", Path::new("/p"), text, RENAMED).unwrap();
        let settings = config.settings_for(Path::new("/p/a.cu"), &Layer::default());
        assert_eq!(settings.severities["bank-conflict"], Some(Severity::Error));
        assert_eq!(
            config.notes,
            vec![
                "lint.toml:1: `stride-conflict` is a retired rule id: it selects `bank-conflict`; write `bank-conflict`".to_string(),
                "lint.toml:3: `stride-conflict` is a retired rule id: it selects `bank-conflict`; write `bank-conflict`".to_string(),
            ]
        );
    }

    #[test]
    fn bank_count_must_be_a_power_of_two() {
        let err = parse("bank-count = 24\n").unwrap_err();
        assert!(err.message.contains("power of two"), "{}", err.message);
    }

    #[test]
    fn layers_stack_preset_then_keys_then_overrides_then_command_line() {
        let config = parse(concat!(
            "preset = \"amd-gcn-wave64\"\nbank-count = 16\nfail-on = \"error\"\n",
            "[rules]\nconflict = \"error\"\nundecided-access = \"info\"\n",
            "[block-shapes]\n\"*\" = [256]\n",
            "[[overrides]]\nfiles = [\"legacy/**\"]\nwarp-size = 32\nignore = [\"stride-conflict\"]\n",
        ))
        .unwrap();
        let plain = config.settings_for(Path::new("/p/src/a.cu"), &Layer::default());
        assert_eq!(
            plain.bank,
            BankParams {
                bank_count: 16,
                bank_width: 4,
                warp_size: 64
            }
        );
        assert_eq!(plain.fail_on, Severity::Error);
        assert_eq!(plain.severities["stride-conflict"], Some(Severity::Error));
        assert_eq!(plain.severities["undecided-access"], Some(Severity::Info));
        assert_eq!(
            plain.block_shapes,
            vec![BlockOverride {
                kernel: "*".into(),
                shape: (256, 1, 1)
            }]
        );
        let legacy = config.settings_for(Path::new("/p/legacy/old/b.cu"), &Layer::default());
        assert_eq!(legacy.bank.warp_size, 32);
        assert_eq!(legacy.severities["stride-conflict"], None);
        let cli = Layer {
            preset: Some(Preset::IntelXe),
            select: Some(vec!["bank-conflict"]),
            ..Layer::default()
        };
        let forced = config.settings_for(Path::new("/p/src/a.cu"), &cli);
        assert_eq!(forced.bank, Preset::IntelXe.params());
        assert_eq!(forced.severities["bank-conflict"], Some(Severity::Error));
        assert_eq!(forced.severities["stride-conflict"], None);
    }

    #[test]
    fn defaults_keep_default_disabled_rules_off() {
        let settings = stack(&[], RULES);
        assert_eq!(settings.severities["undecided-access"], None);
        assert_eq!(
            settings.severities["stride-conflict"],
            Some(Severity::Warning)
        );
    }

    #[test]
    fn walk_selection_uses_include_and_exclude() {
        let none = Exclusions::default();
        let config = parse("exclude = [\"third_party/**\", \"*.gen.cu\"]\n").unwrap();
        assert!(config.walk_selects(Path::new("/p/src/a.cu")));
        assert!(config.walk_selects(Path::new("/p/src/a.hlsli")));
        assert!(!config.walk_selects(Path::new("/p/src/a.h")));
        assert!(config.excludes(Path::new("/p/third_party/x/a.cu"), &none, false));
        assert!(config.excludes(Path::new("/p/third_party"), &none, false));
        assert!(config.excludes(Path::new("/p/src/k.gen.cu"), &none, false));
        // `exclude` replaced the defaults; `extend-exclude` adds to them.
        assert!(!config.excludes(Path::new("/p/build"), &none, false));
        let config = parse("extend-exclude = [\"gen\"]\n").unwrap();
        assert!(config.excludes(Path::new("/p/build"), &none, false));
        assert!(config.excludes(Path::new("/p/src/gen"), &none, false));
        assert!(!config.excludes(Path::new("/p/src/gen/a.cu"), &none, false));
        assert!(config.excludes(Path::new("/p/src/gen/a.cu"), &none, true));
        // Where the project lives does not count: only directories below the lint.toml.
        let config = Config::parse("lint.toml", Path::new("/build/p"), "", RULES).unwrap();
        assert!(!config.excludes(Path::new("/build/p/src/a.cu"), &none, true));
        // The command line's `--exclude` replaces the file's `exclude`, not its
        // `extend-exclude`.
        let config = parse("exclude = [\"a\"]\nextend-exclude = [\"b\"]\n").unwrap();
        let cli = Exclusions {
            exclude: Some(PathGlobs::new(Path::new("/p"), &["c".to_string()]).unwrap()),
            extend_exclude: None,
        };
        assert!(!config.excludes(Path::new("/p/a"), &cli, false));
        assert!(config.excludes(Path::new("/p/b"), &cli, false));
        assert!(config.excludes(Path::new("/p/c"), &cli, false));
    }

    #[test]
    fn extend_select_adds_and_per_file_ignores_win_last() {
        let config = parse(concat!(
            "select = [\"bank-conflict\"]\nextend-select = [\"undecided-access\"]\n",
            "[per-file-ignores]\n\"tests/**\" = [\"bank-conflict\"]\n",
        ))
        .unwrap();
        let src = config.settings_for(Path::new("/p/src/a.cu"), &Layer::default());
        assert_eq!(src.severities["bank-conflict"], Some(Severity::Warning));
        assert_eq!(src.severities["undecided-access"], Some(Severity::Info));
        assert_eq!(src.severities["stride-conflict"], None);
        let cli = Layer {
            select: Some(vec!["bank-conflict", "stride-conflict"]),
            per_file_ignores: vec![PerFileIgnore::from_flag(
                "src/*.cu:conflict",
                Path::new("/p"),
                RULES,
            )
            .unwrap()],
            ..Layer::default()
        };
        let tests = config.settings_for(Path::new("/p/tests/x/a.cu"), &cli);
        assert_eq!(tests.severities["bank-conflict"], None);
        assert_eq!(tests.severities["stride-conflict"], Some(Severity::Warning));
        let src = config.settings_for(Path::new("/p/src/a.cu"), &cli);
        assert_eq!(src.severities["stride-conflict"], None);
        assert!(PerFileIgnore::from_flag("src/*.cu", Path::new("/p"), RULES).is_err());
        let err = PerFileIgnore::from_flag("a:bank-confict", Path::new("/p"), RULES).unwrap_err();
        assert_eq!(err.1.as_deref(), Some("did you mean `bank-conflict`?"));
        let err = parse("[per-file-ignores]\n\"t/**\" = [\"possible\", \"nope\"]\n").unwrap_err();
        assert_eq!(
            (err.line, err.key.as_deref()),
            (Some(2), Some("per-file-ignores"))
        );
    }

    /// The project's own lint.toml documents every key: uncommented, it must parse, and
    /// docs/configuration.md must mention every key too.
    #[test]
    fn documented_keys_are_complete_and_valid() {
        let documented = include_str!("../../lint.toml");
        let mut uncommented = String::new();
        for line in documented
            .lines()
            .filter_map(|line| line.strip_prefix("# "))
        {
            if line.starts_with('[') || line.contains(" = ") {
                uncommented.push_str(line);
                uncommented.push('\n');
            }
        }
        if let Err(e) = parse(&uncommented) {
            panic!("lint.toml's commented keys do not parse: {e}\n{uncommented}");
        }
        let docs = include_str!("../../docs/configuration.md");
        for key in TOP_LEVEL_KEYS {
            assert!(
                uncommented.contains(&format!("{key} ="))
                    || uncommented.contains(&format!("[{key}]"))
                    || uncommented.contains(&format!("[[{key}]]")),
                "lint.toml lacks `{key}`"
            );
            assert!(
                docs.contains(&format!("`{key}`"))
                    || docs.contains(&format!("`[{key}]`"))
                    || docs.contains(&format!("`[[{key}]]`")),
                "docs/configuration.md lacks `{key}`"
            );
        }
        for preset in Preset::ALL {
            assert!(
                docs.contains(&format!("| `{}` |", preset.name())),
                "docs/configuration.md lacks preset {}",
                preset.name()
            );
        }
    }
}
