//! The `bankcheck` binary: parses arguments, hands over to `cli::run`, and turns the
//! outcome into an exit status (0 clean, 1 findings, 2 usage or input errors).

#[macro_use]
mod cli;

use clap::Parser;
use std::process::ExitCode;

/// bankcheck allocates many small, short-lived values per file (syntax, index
/// expressions, verdicts); mimalloc serves them faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// mimalloc's C entry points, linked in with the global allocator above.
extern "C" {
    fn mi_malloc(size: usize) -> *mut std::ffi::c_void;
    fn mi_calloc(count: usize, size: usize) -> *mut std::ffi::c_void;
    fn mi_realloc(p: *mut std::ffi::c_void, size: usize) -> *mut std::ffi::c_void;
    fn mi_free(p: *mut std::ffi::c_void);
}

/// The grammars' parser allocates through mimalloc too: a big file's syntax tree
/// (about 34 bytes per byte of source) is freed once the file is extracted, and with
/// one allocator the later stages reuse that memory, where the system allocator
/// would keep it from them and the run's peak would be the sum of both.
fn share_the_allocator() {
    // SAFETY: called first thing in `main`, before any tree-sitter object exists, so
    // no memory allocated by one allocator is freed by the other; the functions are
    // mimalloc's C API with the signatures tree-sitter asks for.
    unsafe {
        tree_sitter::set_allocator(
            Some(mi_malloc),
            Some(mi_calloc),
            Some(mi_realloc),
            Some(mi_free),
        );
    }
}

fn main() -> ExitCode {
    share_the_allocator();
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
