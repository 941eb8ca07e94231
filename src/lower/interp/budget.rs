//! The interpreter's work limits, counted (not timed) so that verdicts stay
//! deterministic: steps per function and per file, calls inlined, statements walked
//! inside helpers, expression nesting, and the size of index expressions. Past a limit
//! values become `unknown` ("too much work") instead of the run growing without bound.
//!
//! A leaf: nothing here knows the interpreter, which holds a [`Budget`].

use crate::lower::value::Value;

/// Largest index expression (in IR nodes) lowering builds before giving up.
pub(super) const MAX_IR_NODES: usize = 4000;
/// Helpers nest this deep at most (callback chains of library headers reach 6 or 7).
pub(super) const MAX_CALL_DEPTH: usize = 8;
/// Calls inlined per lowered function at most.
const MAX_INLINED_CALLS: u32 = 1500;
/// Statements interpreted inside inlined helpers per lowered function at most: many
/// small helpers (bit-field remaps) are cheap, a few huge ones called often are not.
pub(super) const MAX_INLINED_STATEMENTS: u32 = 6000;
/// Work one function (under one block shape) may cost, in steps: a statement or an
/// expression interpreted is one step, a large index expression built or recorded
/// costs in proportion to its size. Counted, not timed, so verdicts stay deterministic;
/// past it every value is `unknown` ("too much work"). Real kernels of the corpus use
/// a few thousand; a chain of doubling macros or of dereferences would use 2^n.
const MAX_STEPS: u64 = 1_000_000;
/// Expression nesting the interpreter follows (the converter already bounds syntax
/// trees at [`crate::extract::convert::MAX_DEPTH`]; macro bodies and inlined helpers
/// nest further).
pub(super) const MAX_EVAL_DEPTH: u32 = 200;
/// Loop iterations `trip_count` evaluates over all threads before giving up.
pub(super) const MAX_TRIP_EVALS: u64 = 1 << 20;
/// Steps a whole file may cost: a base and an allowance per byte, so that cost grows
/// linearly with the file (functions lowered more than once, through headers or
/// includers, count each time).
const FILE_BASE_STEPS: u64 = 4_000_000;
const FILE_STEPS_PER_BYTE: u64 = 64;
/// Why a value is unknown once the budget is spent.
pub(super) const TOO_MUCH_WORK: &str =
    "too much work: bankcheck's budget of interpretation steps for this function or file is spent";

thread_local! {
    /// Steps left for the file being checked on this thread ([`start_file`]).
    static FILE_STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
}

/// Starts the step budget of a file of `bytes` bytes, checked on this thread.
pub(crate) fn start_file(bytes: usize) {
    FILE_STEPS
        .set(FILE_BASE_STEPS.saturating_add(FILE_STEPS_PER_BYTE.saturating_mul(bytes as u64)));
}

/// Runs `f` with a budget of its own for a file of `bytes` bytes, then restores the
/// budget of the file being checked: a lowering that the run caches and shares (an
/// includer's) must not depend on which file asked for it first.
pub(crate) fn with_file_budget<T>(bytes: usize, f: impl FnOnce() -> T) -> T {
    let saved = FILE_STEPS.get();
    start_file(bytes);
    let out = f();
    FILE_STEPS.set(saved);
    out
}

/// Code checked apart (branches of other configurations) gets at most this share of a
/// function's steps, all of it together.
const APART_SHARE: u64 = 4;

/// What [`Budget::apart`] saves.
#[derive(Debug)]
pub(super) struct Apart {
    steps_left: u64,
    allowance: u64,
    inline_calls_left: u32,
    inline_work: u32,
}

/// The counters of one function's interpretation (under one block shape).
#[derive(Debug)]
pub(super) struct Budget {
    /// Work left for this function, in steps ([`MAX_STEPS`], less when the file has less).
    steps_left: u64,
    /// What `steps_left` started at.
    steps_start: u64,
    /// Calls still allowed to be inlined in this function: bounds the cost of deep,
    /// wide call trees.
    pub(super) inline_calls_left: u32,
    /// Statements interpreted inside inlined helpers so far.
    pub(super) inline_work: u32,
    /// Nesting of the expression being evaluated.
    pub(super) depth: u32,
    /// Steps that code checked apart may still spend ([`Budget::apart`]).
    apart_left: u64,
}

impl Budget {
    /// A function's budget: [`MAX_STEPS`], or what the file has left when that is less.
    pub(super) fn new() -> Self {
        let steps = MAX_STEPS.min(FILE_STEPS.get());
        Budget {
            steps_left: steps,
            steps_start: steps,
            inline_calls_left: MAX_INLINED_CALLS,
            inline_work: 0,
            depth: 0,
            apart_left: steps / APART_SHARE,
        }
    }

    /// Steps left for this function.
    pub(super) fn steps_left(&self) -> u64 {
        self.steps_left
    }

    /// What the function's budget started at.
    pub(super) fn steps_start(&self) -> u64 {
        self.steps_start
    }

    /// Takes `n` steps at once: what an earlier lowering reused in place of this one
    /// spent (`lower::lower_function`).
    pub(super) fn take(&mut self, n: u64) {
        self.steps_left = self.steps_left.saturating_sub(n);
    }

    /// Charges the steps spent so far to the file's budget.
    pub(super) fn charge_file(&mut self) {
        let spent = self.steps_start - self.steps_left;
        FILE_STEPS.set(FILE_STEPS.get().saturating_sub(spent));
        self.steps_start = self.steps_left;
    }

    /// Spends `n` steps (at least one); false once the budget is exhausted.
    pub(super) fn spend(&mut self, n: u64) -> bool {
        if self.steps_left == 0 {
            return false;
        }
        self.steps_left = self.steps_left.saturating_sub(n.max(1));
        true
    }

    /// Starts code checked apart (a branch of another configuration), or `None` when
    /// the share of the function's steps such code may spend is gone. All of it together
    /// spends at most [`APART_SHARE`] of the function's steps, and the inlining counters
    /// are given back after ([`Budget::rejoin`]), so that it cannot starve the
    /// configuration that is compiled. The steps it spends are never given back: the
    /// step budget still bounds the total.
    pub(super) fn apart(&mut self) -> Option<Apart> {
        let allowance = self.apart_left.min(self.steps_left);
        if allowance == 0 {
            return None;
        }
        let saved = Apart {
            steps_left: self.steps_left,
            allowance,
            inline_calls_left: self.inline_calls_left,
            inline_work: self.inline_work,
        };
        self.steps_left = allowance;
        Some(saved)
    }

    /// Ends code checked apart, started by [`Budget::apart`].
    pub(super) fn rejoin(&mut self, saved: &Apart) {
        let spent = saved.allowance - self.steps_left.min(saved.allowance);
        self.apart_left -= spent;
        self.steps_left = saved.steps_left - spent;
        self.inline_calls_left = saved.inline_calls_left;
        self.inline_work = saved.inline_work;
    }

    /// Whether the budget is spent (everything from now on is unknown).
    pub(super) fn exhausted(&self) -> bool {
        self.steps_left == 0
    }

    /// `v`, or `unknown` when an index expression in it is too large to follow; the
    /// size is charged to the budget (building it cost that much).
    pub(super) fn bounded(&mut self, v: Value) -> Value {
        let size = value_size(&v);
        if size > MAX_IR_NODES {
            return Value::Unknown("the index expression grows too large to follow".into());
        }
        self.spend(size as u64 / 2);
        v
    }
}

/// Nodes of the index expressions in `v` (up to just past [`MAX_IR_NODES`]).
pub(super) fn value_size(v: &Value) -> usize {
    match v {
        Value::Int(e) => e.size_up_to(MAX_IR_NODES),
        Value::Ptr { offset, .. } => offset.size_up_to(MAX_IR_NODES),
        Value::Vector(c) => c.iter().map(value_size).sum(),
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Branches of other configurations spend, all together, at most their share of a
    /// function's steps, and the configuration compiled keeps the rest.
    #[test]
    fn code_checked_apart_spends_at_most_its_share() {
        let mut b = Budget::new();
        let start = b.steps_left();
        let apart = b.apart().expect("a share to spend");
        assert_eq!(b.steps_left(), start / APART_SHARE);
        b.inline_calls_left = 0;
        b.spend(u64::MAX);
        assert!(b.exhausted());
        b.rejoin(&apart);
        assert_eq!(b.steps_left(), start - start / APART_SHARE);
        assert_eq!(b.inline_calls_left, MAX_INLINED_CALLS);
        assert!(b.apart().is_none(), "the share is spent");
        assert!(!b.exhausted());
    }
}
