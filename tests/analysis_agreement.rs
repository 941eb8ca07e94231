//! Property tests: the stride and F2 analyses agree exactly with enumeration (the bank
//! model's ground truth) wherever they answer, on thousands of random accesses, and they
//! answer often enough to matter.

use bankcheck::analyse::explain::explain_conflict;
use bankcheck::analyse::linear::linear;
use bankcheck::analyse::stride::{lane_stride_bytes, stride};
use bankcheck::analyse::{analyse, enumerate, Budget};
use bankcheck::bank::{BankParams, Wavefronts};
use bankcheck::lower::affine::{lower_affine, BitConst};
use bankcheck::model::ir::{Axis, BinOp, BlockShape, Expr, LoweredAccess, VarInfo, VarKind};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::sync::atomic::{AtomicUsize, Ordering};

const TX: usize = 0;
const TY: usize = 1;
const K: usize = 2;
const U: usize = 3;

fn vars(trips: u64) -> Vec<VarInfo> {
    vec![
        VarInfo {
            name: "threadIdx.x".to_string(),
            kind: VarKind::Thread(Axis::X),
            loop_value: None,
        },
        VarInfo {
            name: "threadIdx.y".to_string(),
            kind: VarKind::Thread(Axis::Y),
            loop_value: None,
        },
        VarInfo {
            name: "k".to_string(),
            kind: VarKind::Counter { trips: Some(trips) },
            loop_value: None,
        },
        VarInfo {
            name: "u".to_string(),
            kind: VarKind::Uniform {
                range: Some((0, 5)),
            },
            loop_value: None,
        },
    ]
}

fn access(
    address: Expr,
    width: u32,
    block: BlockShape,
    warp_size: u32,
    trips: u64,
) -> LoweredAccess {
    LoweredAccess {
        vars: vars(trips),
        address,
        width,
        atomic: false,
        guards: Vec::new(),
        block,
        warp_size,
        coords: None,
        extents: Vec::new(),
    }
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::bin(op, a, b)
}

/// One piece of a random bit-twiddled index: `((var >> right) & mask) << left`.
#[derive(Debug, Clone)]
struct Term {
    var: usize,
    right: i64,
    mask: i64,
    left: i64,
    combine: BinOp,
}

#[derive(Debug, Clone)]
struct LinearCase {
    log_width: u32,
    params: BankParams,
    block: BlockShape,
    trips: u64,
    terms: Vec<Term>,
    xor_constant: i64,
}

impl LinearCase {
    fn index(&self) -> Expr {
        self.terms.iter().fold(Expr::Const(0), |acc, t| {
            let piece = bin(
                BinOp::Shl,
                bin(
                    BinOp::And,
                    bin(BinOp::Shr, Expr::Var(t.var), Expr::Const(t.right)),
                    Expr::Const(t.mask),
                ),
                Expr::Const(t.left),
            );
            bin(t.combine, acc, piece)
        })
    }

    fn access_with(&self, index: Expr) -> LoweredAccess {
        let width = 1u32 << self.log_width;
        let address = bin(BinOp::Mul, index, Expr::Const(i64::from(width)));
        access(
            address,
            width,
            self.block,
            self.params.warp_size,
            self.trips,
        )
    }

    fn access(&self) -> LoweredAccess {
        self.access_with(self.index())
    }

    /// The same index with a constant XORed in.
    fn xored(&self) -> LoweredAccess {
        self.access_with(bin(
            BinOp::Xor,
            self.index(),
            Expr::Const(self.xor_constant),
        ))
    }
}

fn params_strategy() -> impl Strategy<Value = BankParams> {
    params_with_banks(vec![16, 32, 64])
}

fn params_with_banks(bank_counts: Vec<u32>) -> impl Strategy<Value = BankParams> {
    (
        prop::sample::select(bank_counts),
        prop::sample::select(vec![4u32, 4, 4, 8]),
        prop::sample::select(vec![32u32, 64]),
    )
        .prop_map(|(bank_count, bank_width, warp_size)| BankParams {
            bank_count,
            bank_width,
            warp_size,
        })
}

fn term_strategy() -> impl Strategy<Value = Term> {
    (
        prop::sample::select(vec![TX, TX, TX, TY, K, U]),
        0i64..6,
        1i64..64,
        0i64..10,
        prop::sample::select(vec![
            BinOp::Xor,
            BinOp::Xor,
            BinOp::Xor,
            BinOp::Or,
            BinOp::Add,
        ]),
    )
        .prop_map(|(var, right, mask, left, combine)| Term {
            var,
            right,
            mask,
            left,
            combine,
        })
}

fn linear_case() -> impl Strategy<Value = LinearCase> {
    (
        0u32..5,
        params_strategy(),
        (
            prop::sample::select(vec![8u32, 16, 32, 64, 128, 256, 96, 160]),
            prop::sample::select(vec![1u32, 2, 4, 3]),
        ),
        0u32..4,
        prop::collection::vec(term_strategy(), 1..6),
        0i64..4096,
    )
        .prop_map(
            |(log_width, params, (bx, by), log_trips, terms, xor_constant)| LinearCase {
                log_width,
                params,
                block: BlockShape { x: bx, y: by, z: 1 },
                trips: 1 << log_trips,
                terms,
                xor_constant,
            },
        )
}

fn oracle(a: &LoweredAccess, p: &BankParams) -> Option<Wavefronts> {
    let v = enumerate(a, p, Budget::default());
    assert!(v.exact, "enumeration must be exact on these small cases");
    v.cost
}

proptest! {
    #![proptest_config(Config { cases: 3000, ..Config::default() })]

    /// (a) Whenever the F2 count answers, it equals enumeration; XORing a constant into
    /// the index changes neither.
    #[test]
    fn f2_count_equals_enumeration(case in linear_case()) {
        let a = case.access();
        let p = case.params;
        if let Some(v) = linear(&a, &p) {
            prop_assert!(v.exact);
            prop_assert_eq!(v.cost, oracle(&a, &p), "index {:?}", a.address);
            let x = case.xored();
            let vx = linear(&x, &p);
            prop_assert!(vx.is_some(), "XOR with a constant keeps the index linear");
            prop_assert_eq!(vx.and_then(|v| v.cost), v.cost);
            prop_assert_eq!(oracle(&x, &p), v.cost);
        }
    }
}

proptest! {
    #![proptest_config(Config { cases: 1000, ..Config::default() })]

    /// Whatever analysis `analyse` picks (and in debug builds it cross-checks itself), its
    /// wavefronts are enumeration's; a conflict it leaves to enumeration is explained by
    /// two lanes that really hit one bank in different words.
    #[test]
    fn analyse_agrees_and_explains(case in linear_case()) {
        let a = case.access();
        let p = case.params;
        let v = analyse(&a, &p, Budget::default());
        let truth = enumerate(&a, &p, Budget::default());
        prop_assert_eq!(v.cost, truth.cost);
        let conflicting = truth.cost.is_some_and(|c| c.wavefronts > c.ideal);
        if conflicting {
            let text = explain_conflict(&a, &p, truth.worst_warp, &truth.worst_case);
            prop_assert!(text.is_some(), "a conflict has two colliding lanes");
            check_explanation(&a, &p, truth.worst_warp, &truth.worst_case, &text.unwrap_or_default())?;
        }
    }
}

/// Re-evaluates the two lanes an explanation names: same bank, the stated words.
fn check_explanation(
    access: &LoweredAccess,
    params: &BankParams,
    warp: u64,
    worst: &[(String, i64)],
    text: &str,
) -> Result<(), TestCaseError> {
    // "lanes A and B[ of warp W] hit bank C at words D and E"
    let numbers: Vec<i64> = text
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    let (lane_a, lane_b, bank, word_a, word_b) = match numbers.as_slice() {
        [la, lb, bank, wa, wb] | [la, lb, _, bank, wa, wb] => (*la, *lb, *bank, *wa, *wb),
        _ => {
            return Err(TestCaseError::fail(format!(
                "unexpected explanation {text}"
            )))
        }
    };
    let warp = warp as i64;
    let k = worst.iter().find(|(n, _)| n == "k").map_or(0, |w| w.1);
    let uniform = worst.iter().find(|(n, _)| n == "u").map_or(0, |w| w.1);
    let bw = i64::from(params.bank_width);
    let banks = i64::from(params.bank_count);
    for (lane, word) in [(lane_a, word_a), (lane_b, word_b)] {
        let linear = warp * i64::from(access.warp_size) + lane;
        let coords = access.block.coords(linear as u64);
        let addr = access
            .address
            .eval(&[coords.0, coords.1, k, uniform])
            .ok_or_else(|| TestCaseError::fail("eval"))?;
        let first = addr.div_euclid(bw);
        let last = (addr + i64::from(access.width) - 1).div_euclid(bw);
        prop_assert!(
            (first..=last).contains(&word),
            "{text}: lane {lane} touches words {first}..={last}"
        );
        prop_assert_eq!(word.rem_euclid(banks), bank, "{}", text);
    }
    prop_assert!(word_a != word_b, "{text}");
    Ok(())
}

proptest! {
    #![proptest_config(Config { cases: 500, ..Config::default() })]

    /// The lowered F2 form evaluates to the IR's value for every thread and counter value.
    #[test]
    fn affine_form_agrees_with_evaluation(case in linear_case()) {
        let a = case.access();
        if let Ok(lin) = lower_affine(&a) {
            let threads = case.block.threads();
            if !threads.is_power_of_two() {
                // Row-aligned blocks: the upper thread bits are opaque; covered by (a).
                return Ok(());
            }
            let thread_bits = threads.trailing_zeros();
            prop_assert_eq!(lin.ctx.inputs.len() as u32, thread_bits + case.trips.trailing_zeros());
            for linear_id in 0..threads {
                let (x, y, z) = case.block.coords(linear_id);
                prop_assert_eq!(z, 0);
                for (k, u) in (0..case.trips).flat_map(|k| [(k, 0), (k, 5)]) {
                    let inputs = linear_id | k << thread_bits;
                    // Bits the lowering made opaque (non-linear but warp-uniform) have no
                    // value to compare; every other bit must match the IR's value.
                    let Some(expected) = a.address.eval(&[x, y, k as i64, u]) else { continue };
                    for (i, bit) in lin.address.bits.iter().enumerate() {
                        let constant = match bit.constant {
                            BitConst::Uniform => continue,
                            BitConst::Zero => false,
                            BitConst::One => true,
                        };
                        let value = constant ^ ((bit.inputs & inputs).count_ones() % 2 == 1);
                        prop_assert_eq!(value, (expected >> i) & 1 == 1, "bit {} at thread {} k {}", i, linear_id, k);
                    }
                    if lin.address.bits.iter().all(|b| b.constant != BitConst::Uniform) {
                        prop_assert_eq!(lin.address.evaluate(inputs), Some(expected));
                    }
                }
            }
        }
    }
}

/// (a) The F2 count must not simply decline: on the same random family it answers on a
/// good fraction of cases (those without carries), and it reports conflicts on some.
#[test]
fn f2_count_answers_on_most_linear_cases() {
    let answered = AtomicUsize::new(0);
    let conflicting = AtomicUsize::new(0);
    let total = 2000;
    let mut runner = TestRunner::new(Config {
        cases: total,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&linear_case(), |case| {
        if let Some(v) = linear(&case.access(), &case.params) {
            answered.fetch_add(1, Ordering::Relaxed);
            if v.cost.is_some_and(|c| c.wavefronts > c.ideal) {
                conflicting.fetch_add(1, Ordering::Relaxed);
            }
        }
        Ok(())
    });
    assert!(result.is_ok());
    let answered = answered.load(Ordering::Relaxed);
    let conflicting = conflicting.load(Ordering::Relaxed);
    assert!(
        answered * 2 >= total as usize,
        "the F2 count answered only {answered} of {total}"
    );
    assert!(
        conflicting * 10 >= answered,
        "only {conflicting} of {answered} answered cases conflict"
    );
}

#[derive(Debug, Clone)]
struct StrideCase {
    width: u32,
    k: i64,
    params: BankParams,
    block: BlockShape,
    two_d: bool,
    base_elems: i64,
    counter_elems: i64,
    trips: u64,
}

impl StrideCase {
    fn access(&self) -> LoweredAccess {
        let w = i64::from(self.width);
        let lane = if self.two_d {
            bin(
                BinOp::Add,
                bin(
                    BinOp::Mul,
                    Expr::Var(TY),
                    Expr::Const(i64::from(self.block.x)),
                ),
                Expr::Var(TX),
            )
        } else {
            Expr::Var(TX)
        };
        let base = bin(
            BinOp::Add,
            Expr::Const(self.base_elems * w),
            bin(
                BinOp::Mul,
                Expr::Var(K),
                Expr::Const(self.counter_elems * w),
            ),
        );
        let address = bin(
            BinOp::Add,
            bin(BinOp::Mul, lane, Expr::Const(self.k * w)),
            base,
        );
        access(
            address,
            self.width,
            self.block,
            self.params.warp_size,
            self.trips,
        )
    }
}

fn stride_case() -> impl Strategy<Value = StrideCase> {
    (
        prop::sample::select(vec![1u32, 2, 4, 4, 8, 16]),
        0i64..200,
        params_with_banks(vec![16, 24, 32, 48, 64]),
        (
            prop::sample::select(vec![8u32, 16, 24, 32, 48, 64, 100, 128]),
            1u32..4,
            any::<bool>(),
        ),
        (-40i64..40, -9i64..9, 1u64..5),
    )
        .prop_map(
            |(width, k, params, (x, y, two_d), (base_elems, counter_elems, trips))| StrideCase {
                width,
                k,
                params,
                block: BlockShape {
                    x,
                    y: if two_d { y } else { 1 },
                    z: 1,
                },
                two_d,
                base_elems,
                counter_elems,
                trips,
            },
        )
}

proptest! {
    #![proptest_config(Config { cases: 3000, ..Config::default() })]

    /// (b) Constant strides `S = k*W`: the closed forms equal enumeration when they answer,
    /// and they always answer when elements are at least one bank word wide.
    #[test]
    fn stride_formula_equals_enumeration(case in stride_case()) {
        let a = case.access();
        let p = case.params;
        prop_assert_eq!(lane_stride_bytes(&a), Some(case.k * i64::from(case.width)));
        match stride(&a, &p) {
            Some(v) => {
                prop_assert!(v.exact);
                prop_assert_eq!(v.cost, oracle(&a, &p), "stride {} bytes, width {}", case.k * i64::from(case.width), case.width);
            }
            None => prop_assert!(case.width < p.bank_width, "no answer for a {}-byte stride of {}-byte elements", case.k * i64::from(case.width), case.width),
        }
    }
}

/// (b) For 4-byte words, 32 banks and one full warp, the factor is gcd(S/4, 32) for every
/// word stride 0..200 (gcd(0, 32) = 32 would be wrong: stride 0 is a broadcast).
#[test]
fn word_strides_have_factor_gcd() {
    let p = BankParams::default();
    for k in 0..200i64 {
        let a = access(
            bin(BinOp::Mul, Expr::Var(TX), Expr::Const(4 * k)),
            4,
            BlockShape { x: 32, y: 1, z: 1 },
            32,
            1,
        );
        let v = stride(&a, &p).and_then(|v| v.cost);
        let g = if k == 0 {
            1
        } else {
            (1..=32u64)
                .rev()
                .find(|g| (k as u64).is_multiple_of(*g) && 32 % g == 0)
                .unwrap_or(1)
        };
        assert_eq!(
            v,
            Some(Wavefronts {
                wavefronts: g,
                ideal: 1
            }),
            "stride {k} words"
        );
        assert_eq!(v, oracle(&a, &p));
    }
}
