//! Property test of issue 16: a variable a loop changes without a closed form, the same
//! in every lane (`x = x * m + d`, stepped every iteration or under a condition on the
//! iteration, with lanes leaving the loop on their own), is a warp-uniform unknown in
//! each iteration. Whatever bankcheck decides must hold for the values the program
//! really takes: each iteration of the loop is run lane by lane, its addresses counted
//! under the bank model, and no iteration may cost more than the verdict says (a
//! conflict-free verdict: no iteration conflicts). A step that reads the thread id is
//! never decided.

use bankcheck::bank::{count_wavefronts, BankParams};
use bankcheck::config::Settings;
use bankcheck::diag::Status;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// `buf[a * t + b * x + c]` in a loop of `trips` iterations over `i`, `x` starting at `x0`
/// and becoming `x * m + d` (only when `i % 2 == parity`, with `parity`), lanes
/// `t >= leave - i` leaving first (with `leave`).
#[derive(Debug, Clone)]
struct Case {
    a: i64,
    b: i64,
    c: i64,
    x0: i64,
    m: i64,
    d: i64,
    trips: i64,
    parity: Option<i64>,
    leave: Option<i64>,
    /// The step adds the thread id (through a macro): not uniform.
    lane_step: bool,
}

impl Case {
    fn text(&self) -> String {
        let leave = self.leave.map_or(String::new(), |l| {
            format!("        if (threadIdx.x >= {l} - i) {{ break; }}\n")
        });
        // Through a macro: the check after the body, not the look at what the step
        // reads, must find it.
        let lane = if self.lane_step { " + LANE_ID" } else { "" };
        let step = format!("x = x * {} + {}{lane};", self.m, self.d);
        let step = match self.parity {
            Some(p) => format!("if (i % 2 == {p}) {{ {step} }}"),
            None => step,
        };
        format!(
            "#define LANE_ID threadIdx.x\n__global__ void k(int* out) {{\n    __shared__ int buf[1048576];\n    int x = {x0};\n    for (int i = 0; i < {t}; ++i) {{\n{leave}        buf[{a} * threadIdx.x + {b} * x + {c}] = i;\n        {step}\n    }}\n}}\nint main() {{ k<<<1, 32>>>(0); }}\n",
            x0 = self.x0,
            t = self.trips,
            a = self.a,
            b = self.b,
            c = self.c,
        )
    }

    /// The worst wavefronts and ideal of any iteration, lane by lane.
    fn worst(&self) -> Option<(u64, u64)> {
        let params = BankParams::default();
        let mut x = vec![self.x0; 32];
        let mut active = [true; 32];
        let mut worst: Option<(u64, u64)> = None;
        for i in 0..self.trips {
            let mut lanes = vec![None; 32];
            for t in 0..32 {
                if let Some(l) = self.leave {
                    if t >= l - i {
                        active[t as usize] = false;
                    }
                }
                if active[t as usize] {
                    lanes[t as usize] = Some(4 * (self.a * t + self.b * x[t as usize] + self.c));
                }
            }
            let w = count_wavefronts(&params, 4, &lanes, false);
            if w.ideal > 0 && worst.is_none_or(|(ww, wi)| w.wavefronts * wi > ww * w.ideal) {
                worst = Some((w.wavefronts, w.ideal));
            }
            for t in 0..32 {
                if self.parity.is_none_or(|p| i % 2 == p) {
                    let lane = if self.lane_step { t } else { 0 };
                    x[t as usize] = x[t as usize] * self.m + self.d + lane;
                }
            }
        }
        worst
    }
}

fn case() -> impl Strategy<Value = Case> {
    (
        (0i64..=33, 0i64..=40, 0i64..=40, 0i64..=5),
        (0i64..=3, 0i64..=40, 1i64..=7),
        (prop::option::of(0i64..=1), prop::option::of(1i64..=40)),
        prop::bool::weighted(0.2),
    )
        .prop_map(
            |((a, b, c, x0), (m, d, trips), (parity, leave), lane_step)| Case {
                a,
                b,
                c,
                x0,
                m,
                d,
                trips,
                parity,
                leave,
                lane_step,
            },
        )
}

#[test]
fn uniform_loop_state_holds_for_the_values_the_loop_takes() {
    let mut runner = TestRunner::new(Config {
        cases: 160,
        ..Config::default()
    });
    runner
        .run(&case(), |case| {
            let report =
                bankcheck::check_source("k.cu", case.text().as_bytes(), &Settings::default());
            let store = report.accesses.first().expect("the store is found");
            if case.lane_step && case.b != 0 {
                prop_assert_eq!(store.status, Status::Unknown, "{:?}", case);
            }
            let Some(real) = case.worst() else {
                return Ok(());
            };
            match store.status {
                Status::Unknown => {}
                Status::Ok => prop_assert!(
                    real.0 == real.1,
                    "{case:?}: conflict-free, but an iteration costs {real:?}"
                ),
                Status::Conflict => {
                    let (w, i) = (
                        store.wavefronts.expect("a conflict has wavefronts"),
                        store.ideal_wavefronts.expect("and an ideal"),
                    );
                    // A lower bound (sampled values) claims only what it witnessed.
                    if !store.factor_is_lower_bound {
                        prop_assert!(
                            real.0 * i <= w * real.1,
                            "{case:?}: {real:?} beyond the verdict {w}/{i}"
                        );
                    }
                }
            }
            Ok(())
        })
        .unwrap();
}
