//! Property test of issue 12: a verdict never claims more than holds for every value.
//! Random affine and XOR index programs over a thread id and unknown kernel arguments
//! go through the whole pipeline (`check_source`); a plain enumeration of every value of
//! the arguments in a bounded range (covering every residue modulo the bank row twice)
//! then checks that `ok` has no conflicting value and that a definite factor (exact, not
//! a lower bound) is the enumerated worst case.
//!
//! The same holds for accesses under a guard that compares an expression of the thread
//! id, an argument and the block index with another argument (`if (t + 32 * b < p2)`):
//! the lanes a guard switches off, for every value of what it reads.

#[path = "support/index_programs.rs"]
mod index_programs;

use bankcheck::config::Settings;
use bankcheck::diag::Status;
use index_programs::{fits, program, runner, Ix};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

fn source(ix: &Ix) -> String {
    format!(
        "// bankcheck: block(32)\n__global__ void k(float* out, int p0, int p1) {{\n    __shared__ float s[1 << 20];\n    out[threadIdx.x] = s[{}];\n}}\n",
        ix.c()
    )
}

#[test]
fn ok_and_definite_factors_hold_for_every_value() {
    let settings = Settings::default();
    runner(96)
        .run(&program(), |ix| {
            if !fits(&ix) {
                return Ok(());
            }
            let report = bankcheck::check_source("k.cu", source(&ix).as_bytes(), &settings);
            let Some(a) = report.accesses.iter().find(|a| a.array == "s") else {
                return Err(TestCaseError::fail(format!("no access for {}", ix.c())));
            };
            index_programs::holds_for_every_value(&ix, a)?;
            Ok(())
        })
        .unwrap();
}

/// How a guard compares its expression with the argument `p1`, which the address never
/// reads.
#[derive(Debug, Clone, Copy)]
enum Compare {
    Lt,
    Ge,
    Eq,
}

#[derive(Debug, Clone)]
struct Guarded {
    /// The element type and its size: `float`, `double` (two phases of 16 lanes) or
    /// `float4` (four phases of 8).
    element: (&'static str, i64),
    /// The address: over the thread id and `p0`.
    ix: Ix,
    /// The guard's side: over the thread id, `p0` and `blockIdx.x`.
    side: Ix,
    compare: Compare,
}

impl Guarded {
    fn guard_c(&self) -> String {
        let op = match self.compare {
            Compare::Lt => "<",
            Compare::Ge => ">=",
            Compare::Eq => "==",
        };
        format!("{} {op} p1", self.side.c())
    }

    fn active(&self, t: i64, p0: i64, p1: i64, b: i64) -> bool {
        let g = self.side.eval_in_block(t, [p0, 0], b);
        match self.compare {
            Compare::Lt => g < p1,
            Compare::Ge => g >= p1,
            Compare::Eq => g == p1,
        }
    }

    /// The factor of one warp for one value of each argument and block index (the bank
    /// model: per phase, the most distinct words in one bank; over the phases with an
    /// active lane); `None` when no lane is active.
    fn factor_at(&self, p0: i64, p1: i64, b: i64) -> Option<f64> {
        let width = self.element.1;
        let phase = (32 * 4 / width) as usize;
        let (mut wavefronts, mut ideal) = (0u64, 0u64);
        for lanes in (0..32i64).collect::<Vec<_>>().chunks(phase) {
            let mut words: Vec<i64> = lanes
                .iter()
                .filter(|&&t| self.active(t, p0, p1, b))
                .flat_map(|&t| {
                    let first = self.ix.eval(t, [p0, 0]) * width / 4;
                    first..first + width / 4
                })
                .collect();
            if words.is_empty() {
                continue;
            }
            words.sort_unstable();
            words.dedup();
            let mut per_bank = [0u64; 32];
            for w in words {
                per_bank[w.rem_euclid(32) as usize] += 1;
            }
            wavefronts += per_bank.into_iter().max().unwrap_or(0);
            ideal += 1;
        }
        (ideal > 0).then(|| wavefronts as f64 / ideal as f64)
    }

    /// The worst factor over `p0` in `p0s`, the block index in `blocks` and every `p1`:
    /// the guard changes only where `p1` crosses a value of its side, so those values,
    /// their successors and one value below them all stand for every `p1`.
    fn worst(&self, p0s: std::ops::Range<i64>, blocks: std::ops::Range<i64>) -> f64 {
        let used = self.ix.uses(0) || self.side.uses(0);
        let p0s = if used { p0s } else { 0..1 };
        let blocks = if self.side.uses_block() { blocks } else { 0..1 };
        let mut worst = 0.0f64;
        for p0 in p0s {
            for b in blocks.clone() {
                let sides: Vec<i64> = (0..32)
                    .map(|t| self.side.eval_in_block(t, [p0, 0], b))
                    .collect();
                let below = sides.iter().min().map_or(0, |m| m - 1);
                for p1 in sides.iter().flat_map(|&v| [v, v + 1]).chain([below]) {
                    worst = worst.max(self.factor_at(p0, p1, b).unwrap_or(0.0));
                }
            }
        }
        worst
    }

    fn source(&self) -> String {
        format!(
            "// bankcheck: block(32)\n__global__ void k({t}* out, int p0, int p1) {{\n    __shared__ {t} s[1 << 20];\n    if ({}) {{\n        out[threadIdx.x] = s[{}];\n    }}\n}}\n",
            self.guard_c(),
            self.ix.c(),
            t = self.element.0
        )
    }
}

/// Programs over the thread id, `p0` and constants (no `p1`: the guard's argument).
fn program_without_p1() -> impl Strategy<Value = Ix> {
    program().prop_map(|ix| ix.without_p1(&Ix::P(0)))
}

/// Guard sides: like programs, where `p1` is read as `blockIdx.x`.
fn guard_side() -> impl Strategy<Value = Ix> {
    program().prop_map(|ix| ix.without_p1(&Ix::B))
}

impl Ix {
    fn uses_block(&self) -> bool {
        match self {
            Ix::B => true,
            Ix::T | Ix::P(_) | Ix::C(_) => false,
            Ix::Add(a, b) | Ix::Mul(a, b) | Ix::Xor(a, b) => a.uses_block() || b.uses_block(),
            Ix::And(a, _) => a.uses_block(),
        }
    }

    fn without_p1(self, by: &Ix) -> Ix {
        match self {
            Ix::P(1) => by.clone(),
            Ix::Add(a, b) => Ix::Add(Box::new(a.without_p1(by)), Box::new(b.without_p1(by))),
            Ix::Mul(a, b) => Ix::Mul(Box::new(a.without_p1(by)), Box::new(b.without_p1(by))),
            Ix::Xor(a, b) => Ix::Xor(Box::new(a.without_p1(by)), Box::new(b.without_p1(by))),
            Ix::And(a, m) => Ix::And(Box::new(a.without_p1(by)), m),
            other => other,
        }
    }
}

#[test]
fn guarded_verdicts_hold_for_every_value_of_the_guard() {
    let settings = Settings::default();
    let strategy = (
        program_without_p1(),
        guard_side(),
        prop_oneof![Just(Compare::Lt), Just(Compare::Ge), Just(Compare::Eq)],
        prop_oneof![
            2 => Just(("float", 4)),
            1 => Just(("double", 8)),
            1 => Just(("float4", 16)),
        ],
    )
        .prop_map(|(ix, side, compare, element)| Guarded {
            element,
            ix,
            side,
            compare,
        });
    runner(128)
        .run(&strategy, |g| {
            let fits = (0..32).all(|t| {
                [0, 63]
                    .iter()
                    .all(|&p0| (0..1 << 20).contains(&g.ix.eval(t, [p0, 0])))
            });
            if !fits {
                return Ok(());
            }
            let report = bankcheck::check_source("k.cu", g.source().as_bytes(), &settings);
            let Some(a) = report.accesses.iter().find(|a| a.array == "s") else {
                return Err(TestCaseError::fail(format!("no access in {}", g.source())));
            };
            // `p0` over every residue modulo the bank row twice, the block index over every
            // pattern of the lane bits and the next, `p1` everywhere.
            let worst = g.worst(0..64, 0..64);
            match a.status {
                Status::Ok => prop_assert!(
                    worst <= 1.0,
                    "`ok` for {} but {}-way for some value",
                    g.source(),
                    worst
                ),
                Status::Conflict if a.exact && !a.factor_is_lower_bound => {
                    // Not exceeded in range, and reached there or with `p0` further out.
                    let f = a.conflict_factor.unwrap_or(0.0);
                    prop_assert!(
                        worst <= f + 1e-9,
                        "definite {}-way for {} but {}-way for some value",
                        f,
                        g.source(),
                        worst
                    );
                    if (f - worst).abs() > 1e-9 {
                        let far = if g.side.uses_block() {
                            g.worst(0..1 << 10, 0..64)
                        } else {
                            g.worst(0..1 << 16, 0..1)
                        };
                        prop_assert!(
                            (f - far).abs() < 1e-9,
                            "definite {}-way for {} but no value tried reaches it ({}-way)",
                            f,
                            g.source(),
                            far
                        );
                    }
                }
                Status::Conflict | Status::Unknown => {}
            }
            Ok(())
        })
        .unwrap();
}
