//! The one driver of a run: a [`Session`] builds the run-wide index from the files the
//! caller hands in, checks each file through the named passes, catches a panic per file,
//! applies suppressions and severities, and runs files in parallel. The command line, the
//! benchmark and the tests all check files through it, so they check alike.
//!
//! It does no I/O: the caller reads files and hands in their text, and a reader for the
//! headers the index may need.

mod finish;
mod guard;
mod index;
mod session;
mod workers;

pub use guard::CRASHED;
pub use index::include_dirs;
pub use session::Session;
pub use workers::{MAX_THREADS, WORKER_STACK_BYTES};
