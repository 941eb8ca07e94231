//! The `bankcheck` binary: parses arguments, hands over to `cli::run`, and turns the
//! outcome into an exit status (0 clean, 1 findings, 2 usage or input errors).

#[macro_use]
mod cli;

use clap::Parser;
use std::process::ExitCode;

/// bankcheck allocates many small, short-lived values per file (syntax, index
/// expressions, verdicts); mimalloc serves them faster than the system allocator. The
/// grammars' parser allocates through its own C allocator and is not affected.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
            errln!("bankcheck failed: {err}");
            for cause in err.chain().skip(1) {
                errln!("  caused by: {cause}");
            }
            ExitCode::from(2)
        }
    }
}
