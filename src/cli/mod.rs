//! Where users meet bankcheck: the only module that touches files, the terminal and
//! the environment. It finds files and `lint.toml`s, checks files in parallel, and
//! prints reports; everything it calls below is pure.

/// `eprintln!` that cannot panic: with standard error closed the message is lost, the
/// run and its exit status are not.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::stderr_line(format_args!($($arg)*))
    };
}

pub mod args;
mod baseline;
mod check;
mod configs;
mod crash;
mod files;
mod fix;
mod generate;
mod read;

use anyhow::Context as _;
use args::{Args, CheckArgs, ColorWhen, Command, Format, PresetArg, RulesFormat, SeverityArg};
use bankcheck::config::{
    resolve, BlockOverride, ConfigError, Exclusions, Layer, PathGlobs, PerFileIgnore, Preset,
    RuleInfo, Settings,
};
use bankcheck::diag::Severity;
use bankcheck::driver::{self, Session};
use bankcheck::report::{self, Run};
use bankcheck::rules::metas;
use bankcheck::source::decode::{self, Decoded};
use bankcheck::FileReport;
use configs::{BadConfig, ConfigStore};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::Instant;

/// The rules of this build as configuration sees them.
pub(crate) fn rule_catalog() -> &'static [RuleInfo] {
    bankcheck::rules::catalog()
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
        Some(Command::Rules { format }) => list_rules(format),
        Some(Command::Explain { rule }) => explain(&rule),
        Some(Command::Completions { shell }) => generate::completions(shell),
        Some(Command::Manpage) => generate::manpage(),
        Some(Command::Check(check)) => check_paths(&check),
        None => match late_subcommand(&args.check) {
            Some(LateSubcommand::Check(check)) => check_paths(&check),
            Some(LateSubcommand::Explain(rule)) => explain(&rule),
            Some(LateSubcommand::Rules) => list_rules(RulesFormat::Text),
            None => check_paths(&args.check),
        },
    }
}

/// A subcommand written after options (`bankcheck --color never explain bank-conflict`):
/// clap reads the options as the default command's, and the subcommand as a path.
enum LateSubcommand {
    Check(Box<CheckArgs>),
    Explain(String),
    Rules,
}

/// The subcommand that the first path names, when no file or folder has that name and
/// the rest of the paths fit it.
fn late_subcommand(args: &CheckArgs) -> Option<LateSubcommand> {
    let (first, rest) = args.paths.split_first()?;
    if Path::new(first).exists() {
        return None;
    }
    match (first.as_str(), rest) {
        ("check", _) => Some(LateSubcommand::Check(Box::new(CheckArgs {
            paths: rest.to_vec(),
            ..args.clone()
        }))),
        ("explain", [rule]) => Some(LateSubcommand::Explain(rule.clone())),
        ("rules", []) => Some(LateSubcommand::Rules),
        _ => None,
    }
}

fn list_rules(format: RulesFormat) -> anyhow::Result<ExitStatus> {
    if format == RulesFormat::Json {
        let rules: Vec<serde_json::Value> = metas()
            .map(|r| {
                serde_json::json!({
                    "id": r.id,
                    "group": r.group,
                    "default_severity": r.default_severity.as_str(),
                    "enabled_by_default": r.default_enabled,
                    "summary": r.summary,
                    "retired_ids": r.retired,
                })
            })
            .collect();
        let mut text = serde_json::to_string_pretty(&rules)?;
        text.push('\n');
        write_stdout(text.as_bytes())?;
        return Ok(ExitStatus::Success);
    }
    let mut out = String::new();
    let width = metas().map(|r| r.id.len()).max().unwrap_or(0);
    for rule in metas() {
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
    // Retired ids still work in configuration and suppressions; say what they became.
    for rule in metas() {
        for old in rule.retired {
            let _ = writeln!(out, "({old} is a retired id of {})", rule.id);
        }
    }
    write_stdout(out.as_bytes())?;
    Ok(ExitStatus::Success)
}

fn explain(rule: &str) -> anyhow::Result<ExitStatus> {
    if let Some(meta) = bankcheck::rules::rule(rule) {
        write_stdout(meta.page.as_bytes())?;
        return Ok(ExitStatus::Success);
    }
    let help = bankcheck::config::error::did_you_mean(rule, metas().map(|r| r.id)).map_or_else(
        || "`bankcheck rules` lists them".to_string(),
        |c| format!("did you mean `{c}`?"),
    );
    errln!("error: unknown rule `{rule}`\n  = help: {help}");
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
    let unparsed: usize = files.iter().map(|f| f.stats.unreported_parse_errors).sum();
    let _ = write!(
        line,
        "; {unparsed} unparsed region(s) without shared-memory code (not reported)"
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
    let (layer, exclusions) = match command_line_layer(args).and_then(|layer| {
        let exclusions = command_line_exclusions(args)?;
        Ok((layer, exclusions))
    }) {
        Ok(both) => both,
        Err(e) => {
            errln!("error: {e}");
            return Ok(ExitStatus::Error);
        }
    };
    // A baseline that cannot be used stops the run before anything is checked.
    let baseline = match args.baseline.as_deref().map(baseline::Baseline::load) {
        None => None,
        Some(Ok(baseline)) => Some(baseline),
        Some(Err(e)) => {
            errln!("error: {e}");
            return Ok(ExitStatus::Error);
        }
    };
    let write_dir = args.write_baseline.as_deref().map(baseline::directory_of);
    let adopt = Adopt {
        baseline: baseline.as_ref(),
        write_dir: write_dir.as_deref(),
    };
    let stdin_mode = args.stdin_filename.is_some() || args.paths.iter().any(|p| p == "-");
    if stdin_mode && args.paths.iter().any(|p| p != "-") {
        errln!(
            "error: standard input (`-` or --stdin-filename) cannot be checked together with other paths; run bankcheck once for each"
        );
        return Ok(ExitStatus::Error);
    }
    crash::install(!stdin_mode);
    let crashed_before = crash::crashed_before();
    let mut stats = Stats::default();
    let mut clock = Instant::now();
    let store = match ConfigStore::new(args.config.as_deref(), args.isolated) {
        Ok(store) => store,
        Err(e) => return config_failure(e),
    };
    let skip = files::Skip {
        configs: store.clone(),
        exclusions: std::sync::Arc::new(files::CommandLineExclusions {
            globs: exclusions,
            cwd: read::absolute(Path::new(".")),
        }),
        force: args.force_exclude,
    };
    stats.lap("configuration", &mut clock);

    let limit = args.max_file_size.unwrap_or(read::DEFAULT_MAX_FILE_SIZE);
    let mut failures = Vec::new();
    let mut notes: Vec<(String, String)> = Vec::new();
    let mut reports: Vec<Checked> = Vec::new();
    if stdin_mode {
        let name = args
            .stdin_filename
            .clone()
            .unwrap_or_else(|| "-".to_string());
        if refuse_output_over(args, [Path::new(&name)].into_iter()) {
            return Ok(ExitStatus::Error);
        }
        let bytes = match read::read_stdin(limit) {
            Ok(bytes) => bytes,
            Err(e) => {
                errln!("error: {e}");
                return Ok(ExitStatus::Error);
            }
        };
        // `--force-exclude` with an excluded name: nothing is checked, and `--fix` hands
        // the source back unchanged (an editor replaces its buffer with standard output).
        if args.stdin_filename.is_some() && skip.named_skips(Path::new(&name)) {
            if args.fix {
                write_stdout(&bytes)?;
            }
            return Ok(ExitStatus::Success);
        }
        let config = match store.for_file(Path::new(&name)) {
            Ok(config) => config,
            Err(e) => return config_failure(e),
        };
        let mut settings = config.settings_for(&read::absolute(Path::new(&name)), &layer);
        settings.bank_maps = draws_bank_maps(args);
        stats.lap("discovery", &mut clock);
        let named = [read::absolute(Path::new(&name))];
        let context = files::workspace_root()
            .map(|root| files::workspace_context(&root, &named, &skip))
            .unwrap_or_default();
        let session = session(args, &[], limit, &context)?;
        match decode::decode(&bytes) {
            Ok(decoded) => {
                notes.extend(decoded.note.as_ref().map(|n| (name.clone(), n.clone())));
                // Standard input's file is checked on a worker too, for its stack.
                let mut done = session.on_workers(|| {
                    crash::checking(&name, || {
                        check_text(&name, decoded, None, &settings, args, &session)
                    })
                });
                adopt.apply(&mut done, &settings);
                reports.push(done);
            }
            Err(e) => failures.push((name, e.to_string())),
        }
    } else {
        let paths = if args.paths.is_empty() {
            vec![".".to_string()]
        } else {
            args.paths.clone()
        };
        let found = match files::discover(&paths, &skip) {
            Ok(found) => found,
            Err(e) => return config_failure(e),
        };
        // `bankcheck rule` meant the subcommand, not a file of that name.
        let mut found = found;
        for (path, reason) in &mut found.failures {
            if let Some(command) = mistyped_command(path) {
                let _ = write!(reason, "; did you mean `bankcheck {command}`?");
            }
        }
        if args.show_files {
            let mut list = String::new();
            for target in &found.targets {
                let _ = writeln!(list, "{}", target.display);
            }
            write_stdout(list.as_bytes())?;
            for (path, reason) in &found.failures {
                errln!("error: {path}: {reason}");
            }
            return Ok(if found.failures.is_empty() {
                ExitStatus::Success
            } else {
                ExitStatus::Error
            });
        }
        if args.show_settings {
            let Some(target) = found.targets.first() else {
                errln!("error: no file to show the settings of");
                return Ok(ExitStatus::Error);
            };
            let config = match store.for_file(&target.path) {
                Ok(config) => config,
                Err(e) => return config_failure(e),
            };
            let settings = config.settings_for(&read::absolute(&target.path), &layer);
            let from = if config.file.is_empty() {
                "no lint.toml (defaults and the command line)".to_string()
            } else {
                config.file.clone()
            };
            let paths = config.describe_paths(
                &read::absolute(&target.path),
                &layer,
                &skip.exclusions.globs,
            );
            let shown = format!(
                "Settings for {}\nFrom: {from}\n{settings:#?}\n{paths}",
                target.display
            );
            write_stdout(shown.as_bytes())?;
            return Ok(ExitStatus::Success);
        }
        failures.extend(found.failures);
        if refuse_output_over(args, found.targets.iter().map(|t| t.path.as_path()))
            || refuse_baseline_over(args, found.targets.iter().map(|t| t.path.as_path()))
        {
            return Ok(ExitStatus::Error);
        }
        let mut jobs = Vec::with_capacity(found.targets.len());
        for target in found.targets {
            let config = match store.for_file(&target.path) {
                Ok(config) => config,
                Err(e) => return config_failure(e),
            };
            let mut settings = config.settings_for(&read::absolute(&target.path), &layer);
            settings.bank_maps = draws_bank_maps(args);
            jobs.push((target, settings));
        }
        // The rest of the workspace: its launches and includes count in every run. A run
        // of the whole workspace root has nothing left to add.
        let whole = paths.iter().all(|p| p == ".")
            && files::workspace_root().is_some_and(|r| r == Path::new("."));
        let context = if whole {
            Vec::new()
        } else {
            let named: Vec<std::path::PathBuf> = jobs.iter().map(|(t, _)| t.path.clone()).collect();
            files::workspace_root()
                .map(|root| files::workspace_context(&root, &named, &skip))
                .unwrap_or_default()
        };
        stats.lap("discovery", &mut clock);
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let session = session(args, &jobs, limit, &context)?;
        stats.lap("read and index", &mut clock);
        // Files are read again to be checked (the index kept none of their text), and
        // each one's bytes are dropped once it is checked, and so is the text of a report
        // with nothing to show: a run holds only what it will print.
        let results: Vec<Result<(Checked, Option<String>), Failure>> =
            session.check_all(&jobs, |(target, settings)| {
                let (mut loaded, mut decoded) =
                    read_decoded(&target.path, limit).map_err(|e| (target.display.clone(), e))?;
                // The bytes as read serve only `--fix`, to see that the file is unchanged
                // before writing it: otherwise dropped once decoded.
                if !args.fix {
                    loaded.bytes = Vec::new();
                }
                let note = decoded.note.take();
                if crashed_before.contains(&target.display) {
                    let report = session.failed(
                        &target.display,
                        decoded.text.as_bytes(),
                        settings,
                        driver::CRASHED,
                    );
                    let mut done = Checked::new(report, settings);
                    done.fails = true;
                    return Ok((done, note));
                }
                let mut done = crash::checking(&target.display, || {
                    check_text(
                        &target.display,
                        decoded,
                        Some((target.path.as_path(), &loaded)),
                        settings,
                        args,
                        &session,
                    )
                });
                drop(loaded);
                adopt.apply(&mut done, settings);
                let report = &mut done.report;
                if report.accesses.is_empty() && report.diagnostics.is_empty() {
                    report.text = String::new();
                }
                Ok((done, note))
            });
        std::panic::set_hook(hook);
        for result in results {
            match result {
                Ok((done, note)) => {
                    notes.extend(note.map(|n| (done.report.path.clone(), n)));
                    reports.push(done);
                }
                Err(failure) => failures.push(failure),
            }
        }
        // Includes found only with letter case ignored (src/project.rs).
        notes.extend(session.project().include_notes());
    }
    stats.lap("check", &mut clock);

    let fails = reports.iter().any(|c| c.fails);
    if let Some(file) = &args.baseline {
        let matched: usize = reports.iter().map(|c| c.baselined.matched).sum();
        let stale: usize = reports.iter().map(|c| c.baselined.stale).sum();
        let mut note = format!(
            "{matched} {} matched the baseline and {} not reported",
            plural(matched, "finding", "findings"),
            if matched == 1 { "is" } else { "are" }
        );
        if stale > 0 {
            let _ = write!(
                note,
                "; {stale} of its {} in the checked files matched nothing (fixed or changed: --write-baseline records the findings of today)",
                plural(stale, "entry", "entries"),
            );
        }
        notes.push((file.display().to_string(), note));
    }
    let entries: Vec<baseline::Entry> = reports
        .iter_mut()
        .flat_map(|c| std::mem::take(&mut c.entries))
        .collect();
    // A file bankcheck failed on (a panic or a dead worker) makes the run an error.
    let internal = reports.iter().any(|c| check::has_internal_error(&c.report));
    let diffs: Vec<String> = reports.iter_mut().filter_map(|c| c.diff.take()).collect();
    let fixed_texts: Vec<String> = reports
        .iter_mut()
        .filter_map(|c| c.fixed_text.take())
        .collect();
    // What `--fix` changed, file by file, then in total.
    let mut fixed: Vec<(String, usize)> = reports
        .iter()
        .filter(|c| c.fixed > 0)
        .map(|c| (c.report.path.clone(), c.fixed))
        .collect();
    fixed.sort();
    failures.extend(
        reports
            .iter_mut()
            .filter_map(|c| c.error.take().map(|e| (c.report.path.clone(), e))),
    );
    let mut files: Vec<FileReport> = reports.into_iter().map(|c| c.report).collect();
    report::sort(&mut files);
    // (A file bankcheck failed on has no language either: its `internal-error` says why.)
    for file in files
        .iter()
        .filter(|f| f.language.is_none() && !check::has_internal_error(f))
    {
        // Headers without kernels are expected; anything else named explicitly is a slip.
        let ext = Path::new(&file.path)
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("");
        if !args.quiet && !matches!(ext, "h" | "hh" | "hpp" | "hxx" | "inl" | "cuh" | "hlsli") {
            errln!(
                "warning: {}: neither CUDA nor HLSL (by extension or content); nothing checked",
                file.path
            );
        }
    }
    notes.sort();
    for (path, note) in notes.iter().filter(|_| !args.quiet) {
        errln!("note: {path}: {note}");
    }
    if files.is_empty() && failures.is_empty() && !args.quiet {
        errln!("warning: no CUDA or HLSL file to check in the given paths");
    }
    failures.sort();
    for (path, reason) in &failures {
        errln!("error: {path}: {reason}");
    }
    if let Some(file) = &args.write_baseline {
        let count = entries.len();
        let paths: std::collections::BTreeSet<&str> =
            entries.iter().map(|e| e.path.as_str()).collect();
        let files_with = paths.len();
        if let Err(e) = baseline::write(file, entries) {
            errln!("error: {e}");
            return Ok(ExitStatus::Error);
        }
        if !args.quiet {
            errln!(
                "wrote {}: {count} {} in {files_with} {}",
                file.display(),
                plural(count, "finding", "findings"),
                plural(files_with, "file", "files")
            );
        }
        return Ok(if failures.is_empty() && !internal {
            ExitStatus::Success
        } else {
            ExitStatus::Error
        });
    }
    if args.fix && !args.quiet {
        for (path, n) in &fixed {
            errln!(
                "fixed: {path}: {n} {}",
                if *n == 1 { "edit" } else { "edits" }
            );
        }
        let total: usize = fixed.iter().map(|(_, n)| n).sum();
        errln!(
            "--fix applied {total} {} in {} {}",
            if total == 1 { "edit" } else { "edits" },
            fixed.len(),
            if fixed.len() == 1 { "file" } else { "files" }
        );
    }
    let run = Run {
        files: &files,
        failures: &failures,
        notes: &notes,
    };
    let status = if !failures.is_empty() || internal {
        ExitStatus::Error
    } else if fails && !args.exit_zero {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    };
    // Standard input with `--fix`: the fixed source on standard output, the report of
    // what remains on standard error (or in `--output`).
    let stdin_fix = stdin_mode && args.fix;
    let mut printed = if stdin_fix && args.output.is_none() {
        let mut err = std::io::stderr().lock();
        let _ = render(&run, args, &mut err).and_then(|()| err.flush());
        write_stdout(fixed_texts.concat().as_bytes())
    } else if let Some(path) = &args.output {
        std::fs::File::create(path)
            .and_then(|file| {
                let mut out = std::io::BufWriter::new(file);
                render(&run, args, &mut out)?;
                out.flush()
            })
            .with_context(|| format!("cannot write the report to {}", path.display()))?;
        Ok(())
    } else {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        render(&run, args, &mut out).and_then(|()| out.flush())
    };
    if printed.is_ok() && stdin_fix && args.output.is_some() {
        printed = write_stdout(fixed_texts.concat().as_bytes());
    }
    if printed.is_ok() && !diffs.is_empty() {
        printed = write_stdout(diffs.concat().as_bytes());
    }
    match printed {
        // The reader of standard output left early (`| head`): the run is still
        // reported by its status.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(status),
        Err(e) => return Err(anyhow::Error::new(e).context("cannot write the report")),
        Ok(()) => {}
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
        errln!(
            "bankcheck stats: {} files; {}",
            files.len(),
            parts.join(", ")
        );
        errln!("{}", stage_stats(&files));
    }
    Ok(status)
}

/// A file that could not be checked: its path and why.
type Failure = (String, String);

/// Whether `--output` names one of `inputs` (the same file, through any path or link);
/// if so says so: the report would overwrite a file being checked.
fn refuse_output_over<'a>(args: &CheckArgs, mut inputs: impl Iterator<Item = &'a Path>) -> bool {
    let Some(output) = &args.output else {
        return false;
    };
    let Some(clash) = inputs.find(|input| read::same_file(output, input)) else {
        return false;
    };
    errln!(
        "error: --output {} is {}, a file being checked; the report would overwrite it",
        output.display(),
        clash.display()
    );
    true
}

/// Whether `--write-baseline FILE` names one of `inputs`; if so says so.
fn refuse_baseline_over<'a>(args: &CheckArgs, mut inputs: impl Iterator<Item = &'a Path>) -> bool {
    let Some(output) = &args.write_baseline else {
        return false;
    };
    let Some(clash) = inputs.find(|input| read::same_file(output, input)) else {
        return false;
    };
    errln!(
        "error: --write-baseline {} is {}, a file being checked; the baseline would overwrite it",
        output.display(),
        clash.display()
    );
    true
}

/// `singular` or `plural` after the count `n`.
fn plural(n: usize, singular: &'static str, plural: &'static str) -> &'static str {
    if n == 1 {
        singular
    } else {
        plural
    }
}

/// The baseline of the run: the one findings are matched against (`--baseline`), or
/// the directory of the one being written (`--write-baseline`).
#[derive(Clone, Copy)]
struct Adopt<'a> {
    baseline: Option<&'a baseline::Baseline>,
    write_dir: Option<&'a Path>,
}

impl Adopt<'_> {
    /// Drops a checked file's findings that the baseline holds, or records them for the
    /// one being written (an `internal-error` is neither: it is never recorded).
    fn apply(self, done: &mut Checked, settings: &Settings) {
        if let Some(dir) = self.write_dir {
            done.entries = baseline::entries(&done.report, dir)
                .into_iter()
                .map(|(_, e)| e)
                .collect();
        }
        if let Some(baseline) = self.baseline {
            done.baselined = baseline.filter(&mut done.report);
            done.fails = check::fails(&done.report, settings);
        }
    }
}

/// A checked file: its report, whether it fails the run, the diff `--diff` prints, and
/// the error that makes the run fail (fixes that could not be written).
struct Checked {
    report: FileReport,
    fails: bool,
    /// What `--baseline` removed from the report.
    baselined: baseline::Filtered,
    /// Its findings, for `--write-baseline`.
    entries: Vec<baseline::Entry>,
    diff: Option<String>,
    error: Option<String>,
    /// Edits `--fix` wrote to the file.
    fixed: usize,
    /// Standard input with `--fix`: its text with the safe fixes applied, for standard
    /// output.
    fixed_text: Option<String>,
}

impl Checked {
    fn new(report: FileReport, settings: &Settings) -> Checked {
        let fails = check::fails(&report, settings);
        Checked {
            report,
            fails,
            baselined: baseline::Filtered::default(),
            entries: Vec::new(),
            diff: None,
            error: None,
            fixed: 0,
            fixed_text: None,
        }
    }
}

/// Reads a file (a regular file of at most `limit` bytes) and decodes it
/// (`source::decode`): where the command line's bytes become text. The error names why
/// the file is not checked.
fn read_decoded(path: &Path, limit: u64) -> Result<(read::Loaded, Decoded), String> {
    let loaded = read::read_source(path, limit)?;
    let decoded = decode::decode(&loaded.bytes).map_err(|e| e.to_string())?;
    Ok((loaded, decoded))
}

/// Checks one file's decoded text; with `--fix`/`--diff` applies safe fixes and checks
/// again. `read_from` is the file and its bytes and state when read (none for standard
/// input); fixes are written there only while that state still holds, in the file's
/// own encoding (byte-order mark included), and not at all when the fixed text has no
/// place in it.
fn check_text(
    display: &str,
    decoded: Decoded,
    read_from: Option<(&Path, &read::Loaded)>,
    settings: &Settings,
    args: &CheckArgs,
    session: &Session,
) -> Checked {
    let encoding = decoded.encoding;
    // The report takes the text (one copy of a big file's text, not two).
    let report = session.check_text(display, decoded.text, settings);
    let edits = if args.fix || args.diff {
        fix::safe_edits(&report)
    } else {
        Vec::new()
    };
    // Standard input is fixed to standard output: its text goes there, fixed or not.
    let to_stdout = args.fix && read_from.is_none();
    let unfixed = |report: FileReport| {
        let original = to_stdout.then(|| report.text.clone());
        let mut done = Checked::new(report, settings);
        done.fixed_text = original;
        done
    };
    if edits.is_empty() {
        return unfixed(report);
    }
    let original = report.text.clone();
    let original = original.as_str();
    let fixed = match fix::apply(original, &edits) {
        Ok(fixed) => fixed,
        Err(e) => {
            errln!("warning: {display}: fixes not applied: {e}");
            return unfixed(report);
        }
    };
    if to_stdout {
        let mut done = Checked::new(session.check(display, fixed.as_bytes(), settings), settings);
        done.fixed = edits.len();
        done.fixed_text = Some(fixed);
        return done;
    }
    if args.diff {
        let mut done = Checked::new(report, settings);
        done.diff = Some(fix::diff(display, original, &fixed));
        return done;
    }
    let Some((path, loaded)) = read_from else {
        return Checked::new(report, settings);
    };
    let Some(encoded) = decode::encode(&fixed, encoding) else {
        errln!(
            "warning: {display}: fixes not applied: the fixed text cannot be written in the file's encoding ({})",
            encoding.name()
        );
        return Checked::new(report, settings);
    };
    match fix::write_in_place(path, &loaded.bytes, &loaded.stamp, &encoded) {
        Ok(()) => {
            let mut done =
                Checked::new(session.check(display, fixed.as_bytes(), settings), settings);
            done.fixed = edits.len();
            done
        }
        Err(e @ fix::WriteError::Changed(_)) => {
            errln!("warning: {display}: {e}");
            Checked::new(report, settings)
        }
        Err(e) => {
            let mut done = Checked::new(report, settings);
            done.error = Some(e.to_string());
            done
        }
    }
}

/// The run's session: its workers (`--threads`), and its index of launches and includes,
/// built from every checked file (`jobs`) and the rest of the workspace (`context`,
/// scanned, never checked), each read and decoded here; headers are read from disk on
/// demand from the include directories of every file.
fn session(
    args: &CheckArgs,
    jobs: &[(files::Target, Settings)],
    limit: u64,
    context: &[files::Target],
) -> anyhow::Result<Session> {
    // Headers are decoded as the checked files are: the index reads UTF-8.
    let read = move |path: &Path| {
        read_decoded(path, limit)
            .ok()
            .map(|(_, d)| d.text.into_bytes())
    };
    let mut session = Session::new()
        .with_headers(
            driver::include_dirs(jobs.iter().map(|(_, settings)| settings)),
            Box::new(read),
        )
        .with_workspace(Box::new(files::workspace_sources))
        .with_workers(args.threads.map_or(0, usize::from))
        .context("cannot start worker threads")?;
    // A file that cannot be read or decoded is reported when it is checked.
    let text_of = |target: &&files::Target| {
        let (_, decoded) = read_decoded(&target.path, limit).ok()?;
        Some((std::path::PathBuf::from(&target.display), decoded.text))
    };
    let checked: Vec<&files::Target> = jobs.iter().map(|(t, _)| t).collect();
    session.index(&checked, text_of);
    let unchecked: Vec<&files::Target> = context.iter().collect();
    session.index_unchecked(&unchecked, text_of);
    Ok(session)
}

/// Whether the chosen report draws bank maps (`Settings::bank_maps`).
fn draws_bank_maps(args: &CheckArgs) -> bool {
    args.show_banks || matches!(args.format, Format::Html | Format::Github)
}

/// Writes the report in the chosen format; JSON and SARIF are written as they are
/// made, never held whole.
fn render(run: &Run<'_>, args: &CheckArgs, out: &mut dyn Write) -> std::io::Result<()> {
    // `--diff` prints the fixes and nothing else; the exit status still tells the
    // findings.
    if args.diff {
        return Ok(());
    }
    if args.statistics {
        return out.write_all(statistics(run).as_bytes());
    }
    match args.format {
        Format::Text if args.quiet => out.write_all(&report::text::render_findings(
            run,
            use_color(args),
            args.show_banks,
        )),
        Format::Text => out.write_all(&report::text::render(run, use_color(args), args.show_banks)),
        Format::Html => out.write_all(report::html::render(run).as_bytes()),
        Format::Json => report::json::write(run, out),
        Format::Sarif => {
            let base = std::env::var_os("GITHUB_WORKSPACE")
                .map_or_else(|| read::absolute(Path::new(".")), Into::into);
            report::sarif::write(run, Some(&base), out)
        }
        Format::Github => out.write_all(report::github::render(run).as_bytes()),
        Format::Compact => out.write_all(report::compact::render(run).as_bytes()),
    }
}

fn use_color(args: &CheckArgs) -> bool {
    match args.color {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        // The conventions of other tools: a CI log that shows colours asks for them.
        ColorWhen::Auto if forced_color() => args.output.is_none(),
        ColorWhen::Auto => {
            args.output.is_none()
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// The subcommand a missing path was probably meant to be (`rule`, `explian`).
fn mistyped_command(path: &str) -> Option<&'static str> {
    if path.contains(['/', '.']) || Path::new(path).exists() {
        return None;
    }
    bankcheck::config::error::did_you_mean(path, ["check", "rules", "explain"])
}

/// `FORCE_COLOR` or `CLICOLOR_FORCE` set to anything but empty or `0`.
fn forced_color() -> bool {
    ["FORCE_COLOR", "CLICOLOR_FORCE"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|value| !value.is_empty() && value != "0"))
}

/// `--statistics`: the number of findings of each rule, most first (then by id), with
/// the rule's summary, and the total.
fn statistics(run: &Run<'_>) -> String {
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for d in run.files.iter().flat_map(|f| &f.diagnostics) {
        *counts.entry(d.rule).or_default() += 1;
    }
    let mut rows: Vec<(&str, usize)> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let width = rows
        .iter()
        .map(|(_, n)| n.to_string().len())
        .max()
        .unwrap_or(1);
    let id_width = rows.iter().map(|(id, _)| id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (id, n) in &rows {
        let summary = bankcheck::rules::rule(id).map_or("", |r| r.summary);
        let _ = writeln!(out, "{n:>width$}  {id:id_width$}  {summary}");
    }
    let total: usize = rows.iter().map(|(_, n)| n).sum();
    let _ = writeln!(
        out,
        "Found {total} {} in {} file{}",
        if total == 1 { "problem" } else { "problems" },
        run.files.len(),
        if run.files.len() == 1 { "" } else { "s" }
    );
    out
}

/// Writes one line to standard error, ignoring failure (see `errln!`).
pub(crate) fn stderr_line(args: std::fmt::Arguments<'_>) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()
}

/// Prints a configuration problem and ends the run with status 2.
fn config_failure(e: anyhow::Error) -> anyhow::Result<ExitStatus> {
    if e.downcast_ref::<BadConfig>().is_some() {
        errln!("error: {e}");
        return Ok(ExitStatus::Error);
    }
    Err(e)
}

/// `--exclude` and `--extend-exclude`, relative to the working directory; errors name
/// the flag.
fn command_line_exclusions(args: &CheckArgs) -> Result<Exclusions, Box<ConfigError>> {
    let cwd = read::absolute(Path::new("."));
    let globs = |flag: &str, values: &[String]| {
        if values.is_empty() {
            return Ok(None);
        }
        let patterns: Vec<String> = values.iter().flat_map(|v| split_globs(v)).collect();
        PathGlobs::new(&cwd, &patterns)
            .map(Some)
            .map_err(|m| Box::new(ConfigError::command_line(format!("{flag}: {m}"), None)))
    };
    Ok(Exclusions {
        exclude: globs("--exclude", &args.exclude)?,
        extend_exclude: globs("--extend-exclude", &args.extend_exclude)?,
    })
}

/// Splits a comma-separated list of globs at the commas outside braces (`{a,b}` is one
/// glob).
fn split_globs(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
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
    for name in &args.extend_select {
        layer.extend_select.extend(
            resolve::rule_selector(name.trim(), rule_catalog())
                .map_err(|e| err("--extend-select", e))?,
        );
    }
    let cwd = read::absolute(Path::new("."));
    for text in &args.per_file_ignores {
        layer.per_file_ignores.push(
            PerFileIgnore::from_flag(text, &cwd, rule_catalog())
                .map_err(|e| err("--per-file-ignores", e))?,
        );
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
        .map(|d| read::absolute(d).to_string_lossy().into_owned())
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
