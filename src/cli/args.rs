//! The command line, declared with clap's derive: the doc comments here are the
//! `--help` text, and every hardware or rule flag matches a `lint.toml` key.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Finds shared-memory bank conflicts in CUDA `__shared__` and HLSL `groupshared` kernels.
///
/// With no subcommand, checks the given paths (the current directory when none are given).
#[derive(Debug, Parser)]
#[command(
    name = "bankcheck",
    version,
    args_conflicts_with_subcommands = true,
    max_term_width = 100
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub check: CheckArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check files, directories or glob patterns (the default command).
    Check(Box<CheckArgs>),
    /// List every rule with its group, default severity and summary.
    Rules {
        /// `text` (a table) or `json` (an array of objects).
        #[arg(long, value_enum, default_value_t = RulesFormat::Text)]
        format: RulesFormat,
    },
    /// Print the documentation page of a rule.
    Explain {
        /// The rule id, as printed in brackets after the severity.
        rule: String,
    },
    /// Print a completion script for SHELL, generated from this command line
    /// (e.g. `bankcheck completions bash > /etc/bash_completion.d/bankcheck`).
    #[command(alias = "generate-shell-completion")]
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), generated from this command line
    /// (e.g. `bankcheck manpage > bankcheck.1; man ./bankcheck.1`).
    Manpage,
}

/// How `bankcheck rules` prints the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    Text,
    Json,
}

/// Options of `bankcheck check` (and of plain `bankcheck PATH...`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct CheckArgs {
    /// Files, directories (walked, honouring .gitignore) or quoted glob patterns such as
    /// 'src/**/*.cu'; `-` reads standard input.
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,

    /// Output format.
    #[arg(long, visible_alias = "output-format", value_enum, default_value_t = Format::Text, help_heading = "Output")]
    pub format: Format,
    /// Print the findings and nothing else: no summary line, no notes or warnings about
    /// the run on standard error (errors are still printed).
    #[arg(long, short = 'q', help_heading = "Output")]
    pub quiet: bool,
    /// Print the settings that apply to the first file that would be checked (after
    /// lint.toml and the command line), and where they come from; check nothing.
    #[arg(long, help_heading = "Output", conflicts_with = "show_files")]
    pub show_settings: bool,
    /// Print the files that would be checked, one per line, and check nothing.
    #[arg(long, help_heading = "Output")]
    pub show_files: bool,
    /// Print how many findings each rule has, most first, instead of the findings.
    #[arg(long, help_heading = "Output", conflicts_with_all = ["fix", "diff"])]
    pub statistics: bool,
    /// Show each conflict's bank map in text output: which lanes of its worst wavefront
    /// reach which bank at which word, before and after the suggested fix.
    #[arg(long, help_heading = "Output")]
    pub show_banks: bool,
    /// Write the report to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,
    /// When to colour text output; `auto` colours a terminal unless NO_COLOR is set.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN", help_heading = "Output")]
    pub color: ColorWhen,
    /// Print the time each stage took to standard error.
    #[arg(long, help_heading = "Output")]
    pub stats: bool,

    /// Apply the suggestions that are safe (keep the program's meaning) to the files.
    #[arg(long, help_heading = "Fixes")]
    pub fix: bool,
    /// Print the safe fixes as a unified diff, and nothing else, instead of writing them.
    #[arg(long, help_heading = "Fixes")]
    pub diff: bool,

    /// Read the source from standard input and report it as NAME (which also picks
    /// the language and the lint.toml).
    #[arg(long, value_name = "NAME", help_heading = "Input")]
    pub stdin_filename: Option<String>,
    /// Skip (as an error) any file larger than SIZE, standard input included; bytes or
    /// a number with K, M or G [default: 128M].
    #[arg(long, value_name = "SIZE", value_parser = super::read::parse_size, help_heading = "Input")]
    pub max_file_size: Option<u64>,
    /// Skip these paths in directory walks, instead of lint.toml's `exclude` and the
    /// default list (globs relative to the working directory, or names; comma-separated
    /// or repeated).
    #[arg(long, value_name = "GLOB", help_heading = "Input")]
    pub exclude: Vec<String>,
    /// Skip these paths in directory walks as well (config: extend-exclude).
    #[arg(long, value_name = "GLOB", help_heading = "Input")]
    pub extend_exclude: Vec<String>,
    /// Apply the exclusions to the paths named on the command line too (and to the
    /// matches of its glob patterns).
    #[arg(long, help_heading = "Input")]
    pub force_exclude: bool,
    /// Number of files checked in parallel (default: one per core, at most 256); output is the same for any N.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..), help_heading = "Input")]
    pub threads: Option<u16>,

    /// Use this configuration file instead of discovering lint.toml next to each file.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "isolated",
        help_heading = "Configuration"
    )]
    pub config: Option<PathBuf>,
    /// Ignore every lint.toml; use defaults and the command line only.
    #[arg(long, help_heading = "Configuration")]
    pub isolated: bool,

    /// Enable only these rules (ids or groups, comma-separated).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "RULE",
        help_heading = "Rules"
    )]
    pub select: Option<Vec<String>>,
    /// Enable these rules as well as the selected ones (ids or groups, comma-separated;
    /// config: extend-select).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "RULE",
        help_heading = "Rules"
    )]
    pub extend_select: Vec<String>,
    /// Disable rules for the files a glob matches, relative to the working directory:
    /// `GLOB:RULE,RULE` (repeatable; config: [per-file-ignores]).
    #[arg(long, value_name = "GLOB:RULES", help_heading = "Rules")]
    pub per_file_ignores: Vec<String>,
    /// Disable these rules (ids or groups, comma-separated).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "RULE",
        help_heading = "Rules"
    )]
    pub ignore: Vec<String>,
    /// Exit with status 0 even when findings reach `--fail-on` (a path that could not be
    /// checked, or an internal error, still exits 2).
    #[arg(long, help_heading = "Rules")]
    pub exit_zero: bool,
    /// The least severity that makes the exit status 1 (config: fail-on).
    #[arg(long, value_enum, value_name = "SEVERITY", help_heading = "Rules")]
    pub fail_on: Option<SeverityArg>,
    /// Smallest conflict factor reported as a finding (config: min-conflict-factor).
    #[arg(long, value_name = "FACTOR", help_heading = "Rules")]
    pub min_conflict_factor: Option<f64>,

    /// Report only the findings that are not in this baseline file (written by
    /// --write-baseline), and say how many it matched.
    #[arg(long, value_name = "FILE", help_heading = "Baseline")]
    pub baseline: Option<PathBuf>,
    /// Record today's findings in FILE (JSON) and print no report; exit 0 unless a
    /// path could not be checked.
    #[arg(
        long,
        value_name = "FILE",
        help_heading = "Baseline",
        conflicts_with_all = ["baseline", "fix", "diff", "statistics", "output", "show_files", "show_settings"]
    )]
    pub write_baseline: Option<PathBuf>,

    /// Hardware preset (config: preset).
    #[arg(long, value_enum, help_heading = "Hardware")]
    pub preset: Option<PresetArg>,
    /// Number of shared-memory banks (config: bank-count).
    #[arg(long, value_name = "N", help_heading = "Hardware")]
    pub bank_count: Option<u32>,
    /// Bytes per bank word (config: bank-width).
    #[arg(long, value_name = "BYTES", help_heading = "Hardware")]
    pub bank_width: Option<u32>,
    /// Lanes per warp or wave (config: warp-size).
    #[arg(long, value_name = "N", help_heading = "Hardware")]
    pub warp_size: Option<u32>,
    /// Block shape for a kernel, `*` for any kernel (config: [block-shapes]).
    #[arg(long, value_name = "KERNEL=X,Y,Z", help_heading = "Hardware")]
    pub block: Vec<String>,

    /// Define a preprocessor macro (config: defines).
    #[arg(
        short = 'D',
        long = "define",
        value_name = "NAME=VALUE",
        help_heading = "Preprocessor"
    )]
    pub defines: Vec<String>,
    /// Add a directory to the include search path (config: include-dirs).
    #[arg(
        short = 'I',
        long = "include-dir",
        value_name = "DIR",
        help_heading = "Preprocessor"
    )]
    pub include_dirs: Vec<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    /// Source snippets with the access underlined, and a summary line.
    #[default]
    Text,
    /// The stable JSON report (docs/report.schema.json).
    Json,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions annotations.
    Github,
    /// One line per finding: file:line:col: severity[rule] message.
    Compact,
    /// One self-contained HTML page: a sortable table of the findings and a bank map per
    /// conflict.
    Html,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorWhen {
    #[default]
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SeverityArg {
    Error,
    Warning,
    Info,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PresetArg {
    /// 32 banks of 4 bytes, warps of 32.
    Nvidia,
    /// 32 banks of 4 bytes, waves of 32.
    AmdRdnaWave32,
    /// 32 banks of 4 bytes, waves of 64.
    AmdGcnWave64,
    /// 16 banks of 4 bytes, sub-groups of 16.
    IntelXe,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Args::command().debug_assert();
    }

    /// docs/configuration.md documents every flag and subcommand (by its long name or
    /// its short one), so the page and `--help` cannot drift apart.
    #[test]
    fn every_flag_and_subcommand_is_documented() {
        let docs = include_str!("../../docs/configuration.md");
        let command = Args::command();
        let check = command
            .find_subcommand("check")
            .expect("the check subcommand");
        for arg in check.get_arguments() {
            let (long, short) = (arg.get_long(), arg.get_short());
            if long.is_none() && short.is_none() || matches!(long, Some("help" | "version")) {
                continue;
            }
            // `--select` must not be found in `--select-all`.
            let mentions = |flag: String| {
                docs.match_indices(&flag).any(|(at, _)| {
                    !docs[at + flag.len()..]
                        .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
                })
            };
            let documented = long.is_some_and(|l| mentions(format!("--{l}")))
                || short.is_some_and(|s| mentions(format!("`-{s}")));
            assert!(
                documented,
                "docs/configuration.md lacks {long:?} / {short:?}"
            );
        }
        for sub in command.get_subcommands() {
            let name = sub.get_name();
            assert!(
                docs.contains(&format!("`bankcheck {name}")),
                "docs/configuration.md lacks `bankcheck {name}`"
            );
        }
    }

    #[test]
    fn lists_split_on_commas_but_block_shapes_do_not() {
        let args = Args::try_parse_from([
            "bankcheck",
            "--select",
            "conflict,parse-error",
            "--block",
            "k=32,8,1",
            "a.cu",
        ])
        .unwrap();
        assert_eq!(
            args.check.select,
            Some(vec!["conflict".to_string(), "parse-error".to_string()])
        );
        assert_eq!(args.check.block, vec!["k=32,8,1".to_string()]);
        assert_eq!(args.check.paths, vec!["a.cu".to_string()]);
    }

    #[test]
    fn subcommands_and_plain_paths() {
        let args = Args::try_parse_from(["bankcheck", "explain", "bank-conflict"]).unwrap();
        assert!(
            matches!(args.command, Some(Command::Explain { ref rule }) if rule == "bank-conflict")
        );
        let args =
            Args::try_parse_from(["bankcheck", "check", "-D", "TILE=32", "-I", "inc", "x.cu"])
                .unwrap();
        let Some(Command::Check(check)) = args.command else {
            panic!("expected check")
        };
        assert_eq!(
            (check.defines.clone(), check.include_dirs.clone()),
            (vec!["TILE=32".to_string()], vec![PathBuf::from("inc")])
        );
    }
}
