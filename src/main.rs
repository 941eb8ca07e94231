//! The `bankcheck` binary: parses arguments, hands over to `cli::run`, and turns the
//! outcome into an exit status (0 clean, 1 findings, 2 usage or input errors).

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::args::Args::parse();
    match cli::run(args) {
        Ok(status) => ExitCode::from(status as u8),
        Err(err) => {
            if err.chain().any(|cause| {
                cause
                    .downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("bankcheck failed: {err}");
            for cause in err.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
            ExitCode::from(2)
        }
    }
}
