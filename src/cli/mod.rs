//! Where users meet bankcheck: the only module that touches files, the terminal and
//! the environment. It finds files and `lint.toml`s, checks files in parallel, and
//! prints reports; everything it calls below is pure.

pub mod args;
mod check;
mod configs;
mod crash;
mod files;
mod fix;

use anyhow::Context as _;
use args::{Args, CheckArgs, ColorWhen, Command, Format, PresetArg, SeverityArg};
use bankcheck::config::{resolve, BlockOverride, ConfigError, Layer, Preset, RuleInfo, Settings};
use bankcheck::diag::Severity;
use bankcheck::project::{FileScan, ProjectIndex};
use bankcheck::report::{self, Run};
use bankcheck::rules::RULES;
use bankcheck::FileReport;
use configs::{BadConfig, ConfigStore};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::io::{IsTerminal, Read, Write};
use std::path::Path;
use std::time::Instant;

/// The rules of this build as configuration sees them.
pub(crate) fn rule_catalog() -> &'static [RuleInfo] {
    static CATALOG: std::sync::OnceLock<Vec<RuleInfo>> = std::sync::OnceLock::new();
    CATALOG.get_or_init(|| {
        RULES
            .iter()
            .map(|r| RuleInfo {
                id: r.id,
                group: r.group,
                default_severity: r.default_severity,
                default_enabled: r.default_enabled,
            })
            .collect()
    })
}

/// How the run ended, as the exit status the house style fixes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// Nothing at or above the failing severity.
    Success = 0,
    /// Findings at or above the failing severity.
    Failure = 1,
    /// A usage error, a bad configuration, a file that could not be read, or a file
    /// bankcheck failed on (`internal-error`).
    Error = 2,
}

/// Runs the parsed command line.
pub fn run(args: Args) -> anyhow::Result<ExitStatus> {
    match args.command {
        Some(Command::Rules) => list_rules(),
        Some(Command::Explain { rule }) => explain(&rule),
        Some(Command::Check(check)) => check_paths(&check),
        None => check_paths(&args.check),
    }
}

fn list_rules() -> anyhow::Result<ExitStatus> {
    let mut out = String::new();
    let width = RULES.iter().map(|r| r.id.len()).max().unwrap_or(0);
    for rule in RULES {
        let state = if rule.default_enabled {
            rule.default_severity.as_str()
        } else {
            "off"
        };
        let _ = writeln!(
            out,
            "{:width$}  {:8}  {:7}  {}",
            rule.id, rule.group, state, rule.summary
        );
    }
    write_stdout(out.as_bytes())?;
    Ok(ExitStatus::Success)
}

fn explain(rule: &str) -> anyhow::Result<ExitStatus> {
    if let Some(meta) = bankcheck::rules::rule(rule) {
        write_stdout(meta.page.as_bytes())?;
        return Ok(ExitStatus::Success);
    }
    let help = bankcheck::config::error::did_you_mean(rule, RULES.iter().map(|r| r.id))
        .map_or_else(
            || "`bankcheck rules` lists them".to_string(),
            |c| format!("did you mean `{c}`?"),
        );
    eprintln!("error: unknown rule `{rule}`\n  = help: {help}");
    Ok(ExitStatus::Error)
}

/// The per-stage times summed over the files (and so over threads), and the slowest
/// access of the run, for `--stats`.
fn stage_stats(files: &[FileReport]) -> String {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let sum = |f: fn(&bankcheck::FileStats) -> std::time::Duration| -> f64 {
        files.iter().map(|r| ms(f(&r.stats))).sum()
    };
    let mut line = format!(
        "bankcheck stats: stages summed over threads: parse {:.1} ms, extract {:.1} ms, lower {:.1} ms, analyse {:.1} ms, rules {:.1} ms",
        sum(|s| s.parse),
        sum(|s| s.extract),
        sum(|s| s.lower),
        sum(|s| s.analyse),
        sum(|s| s.rules)
    );
    let slowest = files
        .iter()
        .filter_map(|f| f.stats.slowest_access.map(|(span, t)| (f, span, t)))
        .max_by_key(|(_, _, t)| *t);
    if let Some((file, span, t)) = slowest {
        let (l, c) = report::LineIndex::new(&file.text).line_col(span.start);
        let _ = write!(
            line,
            "; slowest access: {}:{l}:{c} ({:.2} ms)",
            file.path,
            ms(t)
        );
    }
    line
}

/// Timings for `--stats`.
#[derive(Default)]
struct Stats(Vec<(&'static str, std::time::Duration)>);

impl Stats {
    fn lap(&mut self, stage: &'static str, since: &mut Instant) {
        self.0.push((stage, since.elapsed()));
        *since = Instant::now();
    }
}

fn check_paths(args: &CheckArgs) -> anyhow::Result<ExitStatus> {
    let layer = match command_line_layer(args) {
        Ok(layer) => layer,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitStatus::Error);
        }
    };
    let stdin_mode = args.stdin_filename.is_some() || args.paths.iter().any(|p| p == "-");
    if stdin_mode && args.fix {
        eprintln!("error: --fix cannot rewrite standard input; use --diff to see the fixes");
        return Ok(ExitStatus::Error);
    }
    crash::install(!stdin_mode);
    let crashed_before = crash::crashed_before();
    let mut stats = Stats::default();
    let mut clock = Instant::now();
    // Workers have large stacks (see `check::WORKER_STACK_BYTES`), standard input's
    // file is checked on one of them too.
    let threads = args.threads.map_or(0, usize::from).min(check::MAX_THREADS);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(check::WORKER_STACK_BYTES)
        .build()
        .context("cannot start worker threads")?;
    let mut store = match ConfigStore::new(args.config.as_deref(), args.isolated) {
        Ok(store) => store,
        Err(e) => return config_failure(e),
    };
    stats.lap("configuration", &mut clock);

    let mut failures = Vec::new();
    let mut reports: Vec<Checked> = Vec::new();
    if stdin_mode {
        let name = args
            .stdin_filename
            .clone()
            .unwrap_or_else(|| "-".to_string());
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        let config = match store.for_file(Path::new(&name)) {
            Ok(config) => config,
            Err(e) => return config_failure(e),
        };
        let settings = config.settings_for(&files::absolute(Path::new(&name)), &layer);
        stats.lap("discovery", &mut clock);
        let project = project_index(&[], &[]);
        reports.push(pool.install(|| {
            crash::checking(&name, || {
                check_bytes(&name, &bytes, &settings, args, &project)
            })
        }));
    } else {
        let paths = if args.paths.is_empty() {
            vec![".".to_string()]
        } else {
            args.paths.clone()
        };
        let found = match files::discover(&paths, &mut store) {
            Ok(found) => found,
            Err(e) => return config_failure(e),
        };
        failures.extend(found.failures);
        let mut jobs = Vec::with_capacity(found.targets.len());
        for target in found.targets {
            let config = match store.for_file(&target.path) {
                Ok(config) => config,
                Err(e) => return config_failure(e),
            };
            let settings = config.settings_for(&files::absolute(&target.path), &layer);
            jobs.push((target, settings));
        }
        stats.lap("discovery", &mut clock);
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let contents: Vec<std::io::Result<Vec<u8>>> = pool.install(|| {
            jobs.par_iter()
                .map(|(t, _)| std::fs::read(&t.path))
                .collect()
        });
        stats.lap("read", &mut clock);
        let project = pool.install(|| project_index(&jobs, &contents));
        stats.lap("index", &mut clock);
        // Each file's bytes are dropped once it is checked, and so is the text of a
        // report with nothing to show: a run holds only what it will print.
        let results: Vec<Result<Checked, (String, String)>> = pool.install(|| {
            jobs.par_iter()
                .zip(contents.into_par_iter())
                .map(|((target, settings), bytes)| match bytes {
                    Ok(bytes) if crashed_before.contains(&target.display) => {
                        let report = check::crashed(&target.display, &bytes, settings);
                        Ok((report, true, None))
                    }
                    Ok(bytes) => {
                        let mut done = crash::checking(&target.display, || {
                            check_bytes(&target.display, &bytes, settings, args, &project)
                        });
                        drop(bytes);
                        let report = &mut done.0;
                        if report.accesses.is_empty() && report.diagnostics.is_empty() {
                            report.text = String::new();
                        }
                        Ok(done)
                    }
                    Err(e) => Err((target.display.clone(), e.to_string())),
                })
                .collect()
        });
        std::panic::set_hook(hook);
        for result in results {
            match result {
                Ok(done) => reports.push(done),
                Err(failure) => failures.push(failure),
            }
        }
    }
    stats.lap("check", &mut clock);

    let fails = reports.iter().any(|(_, fails, _)| *fails);
    // A file bankcheck failed on (a panic or a dead worker) makes the run an error.
    let internal = reports.iter().any(|(r, _, _)| check::has_internal_error(r));
    let diffs: Vec<String> = reports
        .iter_mut()
        .filter_map(|(_, _, d)| d.take())
        .collect();
    let mut files: Vec<FileReport> = reports.into_iter().map(|(r, _, _)| r).collect();
    report::sort(&mut files);
    for file in files.iter().filter(|f| f.language.is_none()) {
        // Headers without kernels are expected; anything else named explicitly is a slip.
        let ext = Path::new(&file.path)
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("");
        if !matches!(ext, "h" | "hh" | "hpp" | "hxx" | "inl" | "cuh" | "hlsli") {
            eprintln!(
                "warning: {}: neither CUDA nor HLSL (by extension or content); nothing checked",
                file.path
            );
        }
    }
    failures.sort();
    for (path, reason) in &failures {
        eprintln!("error: {path}: {reason}");
    }
    let run = Run {
        files: &files,
        failures: &failures,
    };
    let rendered = render(&run, args);
    match &args.output {
        Some(path) => std::fs::write(path, &rendered)
            .with_context(|| format!("cannot write the report to {}", path.display()))?,
        None => write_stdout(&rendered)?,
    }
    if !diffs.is_empty() {
        write_stdout(diffs.concat().as_bytes())?;
    }
    if args.format == Format::Github {
        if let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|s| !s.is_empty()) {
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&summary)
                .with_context(|| {
                    format!(
                        "cannot open GITHUB_STEP_SUMMARY {}",
                        Path::new(&summary).display()
                    )
                })?;
            file.write_all(report::github::step_summary(&run).as_bytes())
                .context("cannot write the step summary")?;
        }
    }
    stats.lap("report", &mut clock);
    if args.stats {
        let parts: Vec<String> = stats
            .0
            .iter()
            .map(|(stage, t)| format!("{stage} {:.1} ms", t.as_secs_f64() * 1e3))
            .collect();
        eprintln!(
            "bankcheck stats: {} files; {}",
            files.len(),
            parts.join(", ")
        );
        eprintln!("{}", stage_stats(&files));
    }
    Ok(if !failures.is_empty() || internal {
        ExitStatus::Error
    } else if fails {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// A checked file: its report, whether it fails the run, and the diff `--diff` prints.
type Checked = (FileReport, bool, Option<String>);

/// Checks one file's bytes; with `--fix`/`--diff` applies safe fixes and checks again.
/// Returns the report, whether it fails the run, and the diff to print.
fn check_bytes(
    display: &str,
    bytes: &[u8],
    settings: &Settings,
    args: &CheckArgs,
    project: &ProjectIndex,
) -> Checked {
    let checker = |path: &str, bytes: &[u8], settings: &Settings| {
        bankcheck::check_source_in(path, bytes, settings, project)
    };
    let report = check::check(checker, display, bytes, settings);
    let edits = if args.fix || args.diff {
        fix::safe_edits(&report)
    } else {
        Vec::new()
    };
    if edits.is_empty() {
        let fails = check::fails(&report, settings);
        return (report, fails, None);
    }
    let Ok(original) = std::str::from_utf8(bytes) else {
        eprintln!("warning: {display}: not valid UTF-8, fixes not applied");
        let fails = check::fails(&report, settings);
        return (report, fails, None);
    };
    let fixed = match fix::apply(original, &edits) {
        Ok(fixed) => fixed,
        Err(e) => {
            eprintln!("warning: {display}: fixes not applied: {e}");
            let fails = check::fails(&report, settings);
            return (report, fails, None);
        }
    };
    if args.diff {
        let fails = check::fails(&report, settings);
        return (report, fails, Some(fix::diff(display, original, &fixed)));
    }
    if let Err(e) = fix::write_atomic(Path::new(display), fixed.as_bytes()) {
        eprintln!("error: {display}: cannot write fixes: {e}");
        return (report, true, None);
    }
    let report = check::check(checker, display, fixed.as_bytes(), settings);
    let fails = check::fails(&report, settings);
    (report, fails, None)
}

/// The run-wide index of launches and includes: every checked file is scanned, and
/// headers are read from disk on demand from the include directories of every file.
fn project_index(
    jobs: &[(files::Target, Settings)],
    contents: &[std::io::Result<Vec<u8>>],
) -> ProjectIndex {
    let mut include_dirs: Vec<std::path::PathBuf> = Vec::new();
    for (_, settings) in jobs {
        for dir in &settings.include_dirs {
            let dir = std::path::PathBuf::from(dir);
            if !include_dirs.contains(&dir) {
                include_dirs.push(dir);
            }
        }
    }
    let mut project = ProjectIndex::new(include_dirs, Box::new(|path| std::fs::read(path).ok()))
        .with_workspace(Box::new(files::workspace_sources));
    // Scanned in parallel, added in order.
    let scans: Vec<FileScan> = jobs
        .par_iter()
        .zip(contents.par_iter())
        .filter_map(|((target, _), bytes)| {
            let bytes = bytes.as_ref().ok()?;
            Some(FileScan::of(
                Path::new(&target.display),
                &String::from_utf8_lossy(bytes),
            ))
        })
        .collect();
    for scan in scans {
        project.add(scan);
    }
    project
}

fn render(run: &Run<'_>, args: &CheckArgs) -> Vec<u8> {
    match args.format {
        Format::Text => report::text::render(run, use_color(args)),
        Format::Json => report::json::render(run).into_bytes(),
        Format::Sarif => {
            let base = std::env::var_os("GITHUB_WORKSPACE")
                .map_or_else(|| files::absolute(Path::new(".")), Into::into);
            report::sarif::render(run, Some(&base)).into_bytes()
        }
        Format::Github => report::github::render(run).into_bytes(),
        Format::Compact => report::compact::render(run).into_bytes(),
    }
}

fn use_color(args: &CheckArgs) -> bool {
    match args.color {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => {
            args.output.is_none()
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()
}

/// Prints a configuration problem and ends the run with status 2.
fn config_failure(e: anyhow::Error) -> anyhow::Result<ExitStatus> {
    if e.downcast_ref::<BadConfig>().is_some() {
        eprintln!("error: {e}");
        return Ok(ExitStatus::Error);
    }
    Err(e)
}

/// The command line's settings as the top layer; errors name the flag.
fn command_line_layer(args: &CheckArgs) -> Result<Layer, Box<ConfigError>> {
    let err = |flag: &str, (message, help): (String, Option<String>)| {
        Box::new(ConfigError::command_line(
            format!("{flag}: {message}"),
            help,
        ))
    };
    let mut layer = Layer {
        preset: args.preset.map(|p| match p {
            PresetArg::Nvidia => Preset::Nvidia,
            PresetArg::AmdRdnaWave32 => Preset::AmdRdnaWave32,
            PresetArg::AmdGcnWave64 => Preset::AmdGcnWave64,
            PresetArg::IntelXe => Preset::IntelXe,
        }),
        fail_on: args.fail_on.map(|s| match s {
            SeverityArg::Error => Severity::Error,
            SeverityArg::Warning => Severity::Warning,
            SeverityArg::Info => Severity::Info,
        }),
        ..Layer::default()
    };
    for (flag, key, value, slot) in [
        (
            "--bank-count",
            "bank-count",
            args.bank_count,
            &mut layer.bank_count,
        ),
        (
            "--bank-width",
            "bank-width",
            args.bank_width,
            &mut layer.bank_width,
        ),
        (
            "--warp-size",
            "warp-size",
            args.warp_size,
            &mut layer.warp_size,
        ),
    ] {
        if let Some(value) = value {
            *slot = Some(resolve::hardware_value(key, value).map_err(|m| err(flag, (m, None)))?);
        }
    }
    if let Some(value) = args.min_conflict_factor {
        layer.min_conflict_factor = Some(
            resolve::min_conflict_factor(value)
                .map_err(|m| err("--min-conflict-factor", (m, None)))?,
        );
    }
    if let Some(select) = &args.select {
        let mut ids = Vec::new();
        for name in select {
            ids.extend(
                resolve::rule_selector(name.trim(), rule_catalog())
                    .map_err(|e| err("--select", e))?,
            );
        }
        layer.select = Some(ids);
    }
    for name in &args.ignore {
        layer.ignore.extend(
            resolve::rule_selector(name.trim(), rule_catalog()).map_err(|e| err("--ignore", e))?,
        );
    }
    for define in &args.defines {
        layer
            .defines
            .push(resolve::define_setting(define).map_err(|m| err("-D", (m, None)))?);
    }
    layer.include_dirs = args
        .include_dirs
        .iter()
        .map(|d| files::absolute(d).to_string_lossy().into_owned())
        .collect();
    for block in &args.block {
        let Some((kernel, sizes)) = block.split_once('=') else {
            return Err(err(
                "--block",
                (format!("`{block}` is not KERNEL=X,Y,Z"), None),
            ));
        };
        let sizes: Result<Vec<u32>, _> =
            sizes.split(',').map(|s| s.trim().parse::<u32>()).collect();
        let sizes = sizes.map_err(|_| {
            err(
                "--block",
                (format!("`{block}`: sizes must be whole numbers"), None),
            )
        })?;
        let shape = resolve::block_shape(&sizes).map_err(|m| err("--block", (m, None)))?;
        layer.block_shapes.push(BlockOverride {
            kernel: kernel.trim().to_string(),
            shape,
        });
    }
    Ok(layer)
}
