//! Property tests: `floor()` of a real shader constant times a thread id, through the
//! whole pipeline (lowering to a digitised line, enumeration of its masks, the bound
//! over groups of lanes), against brute force under the bank model: the addresses
//! `4 * (k * floor(c + a * t) + r * other + q * t)` computed directly for many reals
//! `a` and `c` (random floating-point values, and exact rationals on and next to the
//! slopes where the pattern changes), every warp of the block, `count_wavefronts`.
//!
//! - No real case is worse than an exact verdict (it covers every value).
//! - The verdict (exact, or a lower bound when the masks had to be sampled) is reached at
//!   rational points that meet every cell of the arrangement
//!   (it is not worse than every value).

use bankcheck::bank::{count_wavefronts, BankParams};
use bankcheck::config::Settings;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// One generated kernel: `s[k * floor(kA * t + kB) + r * other + q * t]`, with `t` the
/// thread id on x (or y when `on_y`), `other` the id on the other axis.
#[derive(Debug, Clone)]
struct Case {
    bx: u32,
    by: u32,
    on_y: bool,
    k: i64,
    r: i64,
    q: i64,
}

impl Case {
    fn text(&self) -> String {
        let (t, o) = if self.on_y { ("y", "x") } else { ("x", "y") };
        format!(
            "cbuffer CB {{ float kA; float kB; }};\n\
             groupshared float s[65536];\n\
             [numthreads({bx}, {by}, 1)]\n\
             void main(uint3 GTid : SV_GroupThreadID) {{\n\
             int w = floor(kA * GTid.{t} + kB);\n\
             float v = s[{k} * w + {r} * GTid.{o} + {q} * GTid.{t}];\n\
             s[GTid.x] = v;\n\
             }}\n",
            bx = self.bx,
            by = self.by,
            k = self.k,
            r = self.r,
            q = self.q,
        )
    }

    /// The worst factor over the warps of the block at slope `a` and offset `c`, as
    /// `(wavefronts, ideal)`, with `floor_at(t)` the value of `floor(c + a t)`.
    fn worst(&self, floor_at: &dyn Fn(i64) -> i64) -> (u64, u64) {
        let params = BankParams::default();
        let threads = u64::from(self.bx * self.by);
        let mut worst = (0u64, 1u64);
        for warp in 0..threads.div_ceil(32) {
            let lanes: Vec<Option<i64>> = (0..32)
                .map(|l| {
                    let id = warp * 32 + l;
                    (id < threads).then(|| {
                        let x = (id % u64::from(self.bx)) as i64;
                        let y = (id / u64::from(self.bx)) as i64;
                        let (t, o) = if self.on_y { (y, x) } else { (x, y) };
                        4 * (self.k * floor_at(t) + self.r * o + self.q * t)
                    })
                })
                .collect();
            let w = count_wavefronts(&params, 4, &lanes, false);
            if w.ideal > 0 && w.wavefronts * worst.1 > worst.0 * w.ideal {
                worst = (w.wavefronts, w.ideal);
            }
        }
        worst
    }

    fn span(&self) -> i64 {
        i64::from(if self.on_y { self.by } else { self.bx }) - 1
    }
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::sample::select(vec![2u32, 4, 8, 16]),
        prop::sample::select(vec![1u32, 2, 4]),
        any::<bool>(),
        prop::sample::select(vec![1i64, 2, 3, 16, 32]),
        0i64..40,
        0i64..3,
    )
        .prop_map(|(bx, by, on_y, k, r, q)| Case {
            bx,
            by,
            on_y,
            k,
            r,
            q,
        })
}

/// `floor(c + a t)` for rationals `a = an / ad`, `c = cn / cd`, exactly.
fn rational_floor(an: i64, ad: i64, cn: i64, cd: i64) -> impl Fn(i64) -> i64 {
    let (an, ad, cn, cd) = (
        i128::from(an),
        i128::from(ad),
        i128::from(cn),
        i128::from(cd),
    );
    move |t| ((cn * ad + an * i128::from(t) * cd).div_euclid(ad * cd)) as i64
}

#[test]
fn floors_of_lines_agree_with_brute_force() {
    let mut runner = TestRunner::new(Config {
        cases: 96,
        ..Config::default()
    });
    runner
        .run(&(case(), any::<u64>()), |(case, seed)| {
            let report =
                bankcheck::check_source("k.hlsl", case.text().as_bytes(), &Settings::default());
            let load = report
                .accesses
                .iter()
                .find(|a| a.kind == bankcheck::diag::AccessKind::Load)
                .expect("the load is found");
            // A sampled verdict (too many masks and residues for the budget) only claims
            // a witnessed conflict, which the real values must reach.
            if !load.exact {
                prop_assert!(
                    load.factor_is_lower_bound || load.wavefronts.is_none(),
                    "{case:?}: an inexact verdict that is not a lower bound"
                );
            }
            let Some(verdict) = load.wavefronts.zip(load.ideal_wavefronts) else {
                return Ok(());
            };
            let exact = load.exact;
            let below = |w: (u64, u64)| w.0 * verdict.1 <= verdict.0 * w.1;
            // Random reals (slopes up to 80, offsets anywhere), as floating-point values.
            let mut state = seed | 1;
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 11) as f64 / (1u64 << 53) as f64
            };
            for _ in 0..300 {
                let (a, c) = (next() * 80.0 - 8.0, next() * 20.0 - 10.0);
                let w = case.worst(&|t| (c + a * t as f64).floor() as i64);
                prop_assert!(
                    !exact || below(w),
                    "{case:?} a={a} c={c}: {w:?} beyond {verdict:?}"
                );
            }
            // Exact rationals on and next to the breakpoints h / d (d <= span), with
            // integer parts that cover every residue modulo 32 far from zero (where lanes
            // share no word: the worst case of each residue), and 0, and a dense set of
            // offsets: every cell of the arrangement, and so the worst case, is met.
            // (The cells are at least 1 / (2 span (span + 1)) wide in c next to such a
            // slope: the grid of step 1 / (4 span^2 + 1) meets each. Up to 8 lanes on the
            // line's axis, to keep the test quick.)
            let span = case.span().max(1);
            if span > 7 {
                return Ok(());
            }
            let mut best = (0u64, 1u64);
            for n in (0..32).map(|r| r + 32 * 1000).chain([0]) {
                for d in 1..=span {
                    for h in 0..d {
                        for (an, ad) in [
                            (n * d + h, d),
                            (2 * (n * d + h) * (span + 1) + 1, 2 * d * (span + 1)),
                        ] {
                            let cd = 4 * span * span + 1;
                            for j in 0..cd {
                                let w = case.worst(&rational_floor(an, ad, j, cd));
                                prop_assert!(
                                    !exact || below(w),
                                    "{case:?} a={an}/{ad} c={j}/{cd}: {w:?}"
                                );
                                if w.0 * best.1 > best.0 * w.1 {
                                    best = w;
                                }
                            }
                        }
                    }
                }
            }
            let reached = if exact {
                best.0 * verdict.1 == verdict.0 * best.1
            } else {
                best.0 * verdict.1 >= verdict.0 * best.1
            };
            prop_assert!(
                reached,
                "{case:?}: the verdict {verdict:?} is not reached (best {best:?})"
            );
            Ok(())
        })
        .unwrap();
}
