//! Property tests of issue 16's loop-carried inductions, against the program run lane by
//! lane under the bank model:
//!
//! - a variable stepped once per iteration of a nested counted loop (`idx++` in the
//!   inner loop of a window walk), in the inner loop and after both;
//! - variables stepped in a branch whose test, once false for a lane, stays false
//!   (`if (t < n) { ...; n -= 8; x += 32; }`), and with a disturbance that lets lanes
//!   resume (then nothing may be claimed beyond what the lanes do).
//!
//! Whatever bankcheck decides must hold for the values the program really takes: no
//! iteration may cost more than the verdict, a conflict-free verdict means no iteration
//! conflicts, and a verdict that is not a lower bound is reached by some iteration.

use bankcheck::bank::{count_wavefronts, BankParams};
use bankcheck::config::Settings;
use bankcheck::diag::AccessFacts;
use bankcheck::diag::Status;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// The byte address of each lane (`None`: inactive) at each step of a loop.
type Steps = Vec<Vec<Option<i64>>>;

/// The worst `(wavefronts, ideal)` of the addresses of each step, by ratio.
fn worst(steps: &[Vec<Option<i64>>]) -> Option<(u64, u64)> {
    let params = BankParams::default();
    let mut worst: Option<(u64, u64)> = None;
    for lanes in steps {
        let w = count_wavefronts(&params, 4, lanes, false);
        if w.ideal > 0 && worst.is_none_or(|(ww, wi)| w.wavefronts * wi > ww * w.ideal) {
            worst = Some((w.wavefronts, w.ideal));
        }
    }
    worst
}

/// Checks an access's verdict against the worst step the lanes really take.
fn agrees(access: &AccessFacts, real: Option<(u64, u64)>, case: &str) -> Result<(), TestCaseError> {
    let Some(real) = real else {
        return Ok(());
    };
    match access.status {
        Status::Unknown => {}
        Status::Ok => prop_assert!(
            real.0 == real.1,
            "{case}: conflict-free, but a step costs {real:?}"
        ),
        Status::Conflict => {
            let (w, i) = (
                access.wavefronts.expect("a conflict has wavefronts"),
                access.ideal_wavefronts.expect("and an ideal"),
            );
            if !access.factor_is_lower_bound {
                prop_assert!(
                    real.0 * i == w * real.1,
                    "{case}: the lanes' worst {real:?}, the verdict {w}/{i}"
                );
            }
        }
    }
    Ok(())
}

/// `for (i < outer) for (j = start; j cmp bound; j += by) { buf[a*t + b*idx + c]; idx += d; }`
/// then `buf[a*t + b*idx + c + 65536]` after the loops.
#[derive(Debug, Clone)]
struct Nested {
    a: i64,
    b: i64,
    c: i64,
    idx0: i64,
    d: i64,
    outer: i64,
    start: i64,
    bound: i64,
    by: i64,
    cmp: &'static str,
}

impl Nested {
    fn text(&self) -> String {
        let step = if self.d == 1 {
            "idx++;".to_string()
        } else {
            format!("idx += {};", self.d)
        };
        format!(
            "__global__ void k(int* out) {{\n    __shared__ int buf[1048576];\n    int t = threadIdx.x;\n    int idx = {idx0};\n    for (int i = 0; i < {outer}; ++i) {{\n        for (int j = {start}; j {cmp} {bound}; j += {by}) {{\n            buf[{a} * t + {b} * idx + {c}] = i;\n            {step}\n        }}\n    }}\n    buf[{a} * t + {b} * idx + {c} + 65536] = 0;\n}}\nint main() {{ k<<<1, 32>>>(0); }}\n",
            idx0 = self.idx0,
            outer = self.outer,
            start = self.start,
            cmp = self.cmp,
            bound = self.bound,
            by = self.by,
            a = self.a,
            b = self.b,
            c = self.c,
        )
    }

    fn holds(&self, j: i64) -> bool {
        match self.cmp {
            "<" => j < self.bound,
            "<=" => j <= self.bound,
            ">" => j > self.bound,
            _ => j >= self.bound,
        }
    }

    /// The addresses of the inner store at each step, and of the store after the loops.
    fn run(&self) -> (Steps, Steps) {
        let mut idx = self.idx0;
        let mut inner = Vec::new();
        for _ in 0..self.outer {
            let mut j = self.start;
            while self.holds(j) {
                inner.push(
                    (0..32)
                        .map(|t| Some(4 * (self.a * t + self.b * idx + self.c)))
                        .collect(),
                );
                idx += self.d;
                j += self.by;
            }
        }
        let after = vec![(0..32)
            .map(|t| Some(4 * (self.a * t + self.b * idx + self.c + 65536)))
            .collect()];
        (inner, after)
    }
}

fn nested() -> impl Strategy<Value = Nested> {
    (
        (0i64..=33, 0i64..=40, 0i64..=40, 0i64..=5, 1i64..=3),
        (1i64..=4, -6i64..=6, -6i64..=6, 1i64..=3, 0usize..4),
    )
        .prop_map(|((a, b, c, idx0, d), (outer, start, bound, by, cmp))| {
            let cmp = ["<", "<=", ">", ">="][cmp];
            // A step towards the bound, so that the loop ends.
            let by = if cmp.starts_with('<') { by } else { -by };
            Nested {
                a,
                b,
                c,
                idx0,
                d,
                outer,
                start,
                bound,
                by,
                cmp,
            }
        })
}

#[test]
fn nested_loop_inductions_hold_for_the_values_the_loops_take() {
    let mut runner = TestRunner::new(Config {
        cases: 120,
        ..Config::default()
    });
    runner
        .run(&nested(), |case| {
            let report =
                bankcheck::check_source("k.cu", case.text().as_bytes(), &Settings::default());
            let (inner, after) = case.run();
            let name = format!("{case:?}");
            // Sorted by line: the inner store, then the store after the loops.
            let [first, second] = report.accesses.as_slice() else {
                return Err(TestCaseError::fail(format!("{name}: two stores")));
            };
            agrees(first, worst(&inner), &name)?;
            agrees(second, worst(&after), &name)?;
            // Both are followed: every value here is a known constant.
            prop_assert!(
                first.status != Status::Unknown || inner.is_empty(),
                "{name}: {first:?}"
            );
            prop_assert!(second.status != Status::Unknown, "{name}: {second:?}");
            Ok(())
        })
        .unwrap();
}

/// `for (i < trips) { if (t cmp n) { buf[a*t + b*x + c] = i; n step; x step; } disturb }`,
/// the test written `t cmp n` or mirrored.
#[derive(Debug, Clone)]
struct Guarded {
    a: i64,
    b: i64,
    c: i64,
    n0: i64,
    x0: i64,
    trips: i64,
    cmp: &'static str,
    mirrored: bool,
    /// `n -= s`, `n += s`, `n >>= 1`, `n <<= 1`.
    n_step: (usize, i64),
    /// `x += s`, `x <<= 1`.
    x_step: (usize, i64),
    /// `n ^= 8` after the branch: lanes may resume.
    disturb: bool,
}

impl Guarded {
    fn text(&self) -> String {
        let test = if self.mirrored {
            let flipped = match self.cmp {
                "<" => ">",
                "<=" => ">=",
                ">" => "<",
                _ => "<=",
            };
            format!("n {flipped} t")
        } else {
            format!("t {} n", self.cmp)
        };
        let n_step = match self.n_step {
            (0, s) => format!("n -= {s};"),
            (1, s) => format!("n += {s};"),
            (2, _) => "n >>= 1;".to_string(),
            _ => "n <<= 1;".to_string(),
        };
        let x_step = match self.x_step {
            (0, s) => format!("x += {s};"),
            _ => "x <<= 1;".to_string(),
        };
        let disturb = if self.disturb { "n ^= 8;" } else { "" };
        format!(
            "__global__ void k(int* out) {{\n    __shared__ int buf[1048576];\n    int t = threadIdx.x;\n    int n = {n0};\n    int x = {x0};\n    for (int i = 0; i < {trips}; ++i) {{\n        if ({test}) {{\n            buf[{a} * t + {b} * x + {c}] = i;\n            {n_step}\n            {x_step}\n        }}\n        {disturb}\n    }}\n}}\nint main() {{ k<<<1, 32>>>(0); }}\n",
            n0 = self.n0,
            x0 = self.x0,
            trips = self.trips,
            a = self.a,
            b = self.b,
            c = self.c,
        )
    }

    fn run(&self) -> Steps {
        let mut n = [self.n0; 32];
        let mut x = [self.x0; 32];
        let mut steps = Vec::new();
        for _ in 0..self.trips {
            let mut lanes = vec![None; 32];
            for t in 0..32usize {
                let ti = t as i64;
                let holds = match self.cmp {
                    "<" => ti < n[t],
                    "<=" => ti <= n[t],
                    ">" => ti > n[t],
                    _ => ti >= n[t],
                };
                if holds {
                    lanes[t] = Some(4 * (self.a * ti + self.b * x[t] + self.c));
                    n[t] = match self.n_step {
                        (0, s) => n[t] - s,
                        (1, s) => n[t] + s,
                        (2, _) => n[t] >> 1,
                        _ => n[t] << 1,
                    };
                    x[t] = match self.x_step {
                        (0, s) => x[t] + s,
                        _ => x[t] << 1,
                    };
                }
                if self.disturb {
                    n[t] ^= 8;
                }
            }
            steps.push(lanes);
        }
        steps
    }
}

fn guarded() -> impl Strategy<Value = Guarded> {
    (
        (0i64..=33, 0i64..=40, 0i64..=40, 0i64..=40, 0i64..=5),
        (1i64..=7, 0usize..4, prop::bool::ANY),
        ((0usize..4, 0i64..=12), (0usize..2, 0i64..=40)),
        prop::bool::weighted(0.2),
    )
        .prop_map(
            |((a, b, c, n0, x0), (trips, cmp, mirrored), (n_step, x_step), disturb)| Guarded {
                a,
                b,
                c,
                n0,
                x0,
                trips,
                cmp: ["<", "<=", ">", ">="][cmp],
                mirrored,
                n_step,
                x_step,
                disturb,
            },
        )
}

#[test]
fn inductions_under_a_test_that_stays_false_hold_for_the_lanes_still_running() {
    let mut runner = TestRunner::new(Config {
        cases: 200,
        ..Config::default()
    });
    runner
        .run(&guarded(), |case| {
            let report =
                bankcheck::check_source("k.cu", case.text().as_bytes(), &Settings::default());
            let name = format!("{case:?}");
            let store = report
                .accesses
                .first()
                .ok_or_else(|| TestCaseError::fail(format!("{name}: the store is found")))?;
            let real = worst(&case.run());
            agrees(store, real, &name)?;
            // Without the disturbance every value is followed.
            if !case.disturb && case.b != 0 && real.is_some() {
                prop_assert!(store.status != Status::Unknown, "{name}: {store:?}");
            }
            Ok(())
        })
        .unwrap();
}
