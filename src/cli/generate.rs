//! `bankcheck completions SHELL` and `bankcheck manpage`: shell completion scripts and
//! the man page, generated from the clap definition in `args.rs`, so that they always
//! name the flags this build has.

use super::args::Args;
use super::{write_stdout, ExitStatus};
use clap::CommandFactory;

/// The binary's name as the scripts complete it.
const NAME: &str = "bankcheck";

/// Prints the completion script of `shell` to standard output.
pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<ExitStatus> {
    let mut command = Args::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, NAME, &mut out);
    write_stdout(&out)?;
    Ok(ExitStatus::Success)
}

/// Prints the man page (section 1, roff) to standard output.
pub fn manpage() -> anyhow::Result<ExitStatus> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Args::command()).render(&mut out)?;
    write_stdout(&out)?;
    Ok(ExitStatus::Success)
}
