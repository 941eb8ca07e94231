//! The worker threads a session checks files on.
//!
//! Every recursive walk over a file's structure is bounded by depth (syntax trees at
//! `extract::convert::MAX_DEPTH`, interpretation at 200 nested expressions and 8 inlined
//! calls, index expressions at 4000 nodes); the workers' stacks leave room for those
//! bounds in unoptimised builds too.

/// Stack of each worker thread. Only touched pages are ever mapped.
pub const WORKER_STACK_BYTES: usize = 256 << 20;

/// Most worker threads a session starts, whatever it is asked: beyond the cores they only
/// cost memory (each has its stack) and start-up time.
pub const MAX_THREADS: usize = 256;

/// A pool of `threads` workers (0: one per core), at most [`MAX_THREADS`], each with a
/// stack of [`WORKER_STACK_BYTES`].
pub(super) fn pool(threads: usize) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.min(MAX_THREADS))
        .stack_size(WORKER_STACK_BYTES)
        .build()
}
