//! How much work tree-sitter may spend on one text before bankcheck gives up on it.
//!
//! Two limits, checked from the parser's progress callback: its own operations, which
//! keep every ordinary run's outcome the same on any machine, and the thread's CPU time,
//! a backstop for error recovery that costs more per operation the longer it runs (each
//! skipped token re-summarises a growing error node), which an operation count does
//! not see: 20,000 unbraced `if`s inside an unclosed parameter list take 3,600
//! operations and 36 s.

use std::fmt;
use std::time::Duration;

/// The parser's work allowed per byte of text, and at least, in the units it reports
/// progress in (about 100 parse operations each). Real code needs at most 0.03 units per
/// byte, and the worst inputs found (long runs of `a<b,`, casts, templates) 0.1
/// (docs/reliability.md): only error recovery gone superlinear reaches the allowance.
pub const UNITS_PER_BYTE: u64 = 1;
pub const UNITS_AT_LEAST: u64 = 100_000;

/// The parser's CPU time allowed per byte of text, and at least: 20 s per MB, two
/// hundred times what the largest real files of the corpus take (0.1 ms per KB) and
/// several times what constructed worst cases for the operation count take (20 KB of
/// `f<g<`: 0.25 s), so only superlinear error recovery reaches it.
pub const CPU_NANOS_PER_BYTE: u64 = 20_000;
pub const CPU_AT_LEAST: Duration = Duration::from_millis(500);

/// The progress callbacks between two readings of the CPU clock (a system call).
const CALLS_PER_CLOCK_READING: u64 = 16;

/// The work the parser may spend on one text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseBudget {
    /// Progress callbacks (about 100 parse operations each).
    pub units: u64,
    /// CPU time of the parsing thread.
    pub cpu: Duration,
}

impl ParseBudget {
    /// The budget of a text of `len` bytes.
    pub fn for_len(len: usize) -> Self {
        let len = len as u64;
        Self {
            units: len.saturating_mul(UNITS_PER_BYTE).max(UNITS_AT_LEAST),
            cpu: Duration::from_nanos(len.saturating_mul(CPU_NANOS_PER_BYTE)).max(CPU_AT_LEAST),
        }
    }

    /// A progress callback's test: true once either limit is passed. The clock starts
    /// when the meter is made.
    pub fn meter(self) -> impl FnMut() -> bool {
        let start = thread_cpu_time();
        let mut calls = 0u64;
        move || {
            calls += 1;
            calls > self.units
                || (calls.is_multiple_of(CALLS_PER_CLOCK_READING)
                    && thread_cpu_time().saturating_sub(start) > self.cpu)
        }
    }
}

impl fmt::Display for ParseBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} units of work or {:.2} s of CPU",
            self.units,
            self.cpu.as_secs_f64()
        )
    }
}

/// CPU time the calling thread has used: unlike wall time, it does not grow while other
/// work holds the machine's cores.
#[cfg(unix)]
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec and the clock id is a constant libc knows.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &raw mut ts) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// Elsewhere, time since the first reading (wall time: the backstop still holds).
#[cfg(not(unix))]
fn thread_cpu_time() -> Duration {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_texts_get_the_least_budget() {
        assert_eq!(ParseBudget::for_len(0).units, UNITS_AT_LEAST);
        assert_eq!(ParseBudget::for_len(0).cpu, CPU_AT_LEAST);
        let big = ParseBudget::for_len(10_000_000);
        assert_eq!(big.units, 10_000_000 * UNITS_PER_BYTE);
        assert_eq!(big.cpu, Duration::from_secs(200));
    }

    #[test]
    fn the_meter_stops_at_either_limit() {
        let mut units = ParseBudget {
            units: 3,
            cpu: Duration::MAX,
        }
        .meter();
        assert_eq!(
            (0..4).map(|_| units()).collect::<Vec<_>>(),
            [false, false, false, true]
        );
        let mut cpu = ParseBudget {
            units: u64::MAX,
            cpu: Duration::ZERO,
        }
        .meter();
        // The clock is read every 16th call; some CPU time has passed by then.
        let first_stop = (1..=1_000_000u64).find(|_| {
            std::hint::black_box((0..1000).sum::<u64>());
            cpu()
        });
        assert_eq!(first_stop.map(|n| n % CALLS_PER_CLOCK_READING), Some(0));
    }

    #[test]
    fn the_clock_counts_this_threads_work() {
        let before = thread_cpu_time();
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        assert!(thread_cpu_time() > before, "{x}");
    }
}
