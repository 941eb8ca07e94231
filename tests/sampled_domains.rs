//! Property tests of issue 16: values that enumeration used to sample are now decided
//! for every value, and each such verdict is the worst case of a plain enumeration over
//! every value the program can take (the bank model's lane enumeration, every warp).
//!
//! - A term of the address that is the same for every lane of a warp and a multiple of
//!   the bank width (`(ty + a) * C / d * 4` when rows are whole warps) is dropped, even
//!   when a guard reads its values (`tx * g + k * h < C`).
//! - A value that the address and every guard read only periodically
//!   (`(b * M + t) % R`) is enumerated over one period.
//! - A value that a guard bounds (`t + b * M2 < K`) is enumerated up to that bound.
//! - Nested doubling counters (`size = c << a`, `stride = size / 2 >> b`), whose
//!   rectangle is over the budget, are enumerated by their distinct strides where the
//!   guards without a thread id hold; a ranged length that only the outer loop's bound
//!   reads (`size <= L`) is replaced by the end of its range.
//!
//! The plain enumeration's domains are exhaustive by construction: `C` has a small range,
//! the counter is below `C` wherever a lane is active, the block index is either bounded
//! by the guard or read through `% R` of non-negative terms only.

use bankcheck::analyse::{enumerate, Budget};
use bankcheck::bank::BankParams;
use bankcheck::model::ir::{Axis, BinOp, BlockShape, Expr, LoweredAccess, VarInfo, VarKind};
use bankcheck::model::verdict::Undecided;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::cell::Cell;

#[path = "support/brute_force.rs"]
mod brute_force;
#[path = "support/ir.rs"]
mod ir;
use ir::{b, c, v, var};

/// An access with the enumeration domains of its non-thread variables (index, values).
#[derive(Debug, Clone)]
struct Case {
    access: LoweredAccess,
    domains: Vec<(usize, Vec<i64>)>,
}

/// `tx`, `ty`, `tz`, `C` in `0..=39`, a counter `k` of unknown trip count, and the block
/// index `b` in `0..=65535`.
fn vars() -> Vec<VarInfo> {
    vec![
        var("threadIdx.x", VarKind::Thread(Axis::X)),
        var("threadIdx.y", VarKind::Thread(Axis::Y)),
        var("threadIdx.z", VarKind::Thread(Axis::Z)),
        var(
            "C",
            VarKind::Uniform {
                range: Some((0, 39)),
            },
        ),
        var("k", VarKind::Counter { trips: None }),
        var(
            "blockIdx.x",
            VarKind::Uniform {
                range: Some((0, 65535)),
            },
        ),
    ]
}
const TX: usize = 0;
const TY: usize = 1;
const CC: usize = 3;
const KK: usize = 4;
const BX: usize = 5;

fn access(address: Expr, guards: Vec<Expr>, block: BlockShape, width: u32) -> LoweredAccess {
    ir::access(vars(), address, guards, block, width)
}

/// `s[(tx * s1 + k * s2)] + ((ty + a) * C / d) * m` bytes under `tx * g + k * h < C`
/// (and sometimes `ty < 1`), in blocks whose rows are or are not whole warps.
fn row_shift_case() -> impl Strategy<Value = Case> {
    (
        (
            1i64..=33,
            prop_oneof![Just(0i64), Just(1), Just(7), Just(32), Just(64)],
        ),
        (0i64..3, prop_oneof![Just(1i64), Just(2), Just(4), Just(8)]),
        prop_oneof![
            Just(1i64),
            Just(2),
            Just(4),
            Just(8),
            Just(16),
            Just(32),
            Just(6)
        ],
        (1i64..=8, 1i64..=64),
        (
            prop_oneof![Just(8u32), Just(16), Just(32), Just(64)],
            1u32..=4,
        ),
        prop_oneof![Just(4u32), Just(8), Just(16)],
        any::<bool>(),
    )
        .prop_map(|((s1, s2), (a, d), m, (g, h), (x, y), width, one_row)| {
            let lane = b(
                BinOp::Mul,
                b(
                    BinOp::Add,
                    b(BinOp::Mul, v(TX), c(s1)),
                    b(BinOp::Mul, v(KK), c(s2)),
                ),
                c(i64::from(width)),
            );
            let row = b(
                BinOp::Mul,
                b(
                    BinOp::Div,
                    b(BinOp::Mul, b(BinOp::Add, v(TY), c(a)), v(CC)),
                    c(d),
                ),
                c(m),
            );
            let mut guards = vec![b(
                BinOp::Lt,
                b(
                    BinOp::Add,
                    b(BinOp::Mul, v(TX), c(g)),
                    b(BinOp::Mul, v(KK), c(h)),
                ),
                v(CC),
            )];
            if one_row {
                guards.push(b(BinOp::Lt, v(TY), c(1)));
            }
            Case {
                access: access(
                    b(BinOp::Add, lane, row),
                    guards,
                    BlockShape { x, y, z: 1 },
                    width,
                ),
                // k * h < C <= 39 wherever a lane is active.
                domains: vec![(CC, (0..40).collect()), (KK, (0..40).collect())],
            }
        })
}

/// `s[(b * M + tx * s) % R]` under some of `(b * M + tx) % R < L`, `tx < T`,
/// `tx + b * M2 < K`.
fn block_index_case() -> impl Strategy<Value = Case> {
    (
        (0i64..=300, 1i64..=4, 1i64..=64),
        (0i64..=64, 1i64..=64),
        (1i64..=64, 0i64..=1500),
        (any::<bool>(), any::<bool>(), any::<bool>()),
        prop_oneof![Just(32u32), Just(64), Just(128)],
        prop_oneof![Just(4u32), Just(8)],
    )
        .prop_map(|((m, s, r), (l, t), (m2, k), (g1, g2, g3), x, width)| {
            let mixed = |s: i64| {
                b(
                    BinOp::Add,
                    b(BinOp::Mul, v(BX), c(m)),
                    b(BinOp::Mul, v(TX), c(s)),
                )
            };
            let address = b(
                BinOp::Mul,
                b(BinOp::Rem, mixed(s), c(r)),
                c(i64::from(width)),
            );
            let mut guards = Vec::new();
            if g1 {
                guards.push(b(BinOp::Lt, b(BinOp::Rem, mixed(1), c(r)), c(l)));
            }
            if g2 {
                guards.push(b(BinOp::Lt, v(TX), c(t)));
            }
            if g3 {
                guards.push(b(
                    BinOp::Lt,
                    b(BinOp::Add, v(TX), b(BinOp::Mul, v(BX), c(m2))),
                    c(k),
                ));
            }
            // Past `K / M2` no lane passes the bound; without it, everything repeats
            // every `R` values.
            let last = if g3 { k / m2 + 1 } else { 2 * r };
            Case {
                access: access(address, guards, BlockShape { x, y: 1, z: 1 }, width),
                domains: vec![(BX, (0..=last).collect())],
            }
        })
}

/// Sorting-network loops in a block of 256: `a`, `b` counters of 24 iterations, `L` in
/// `0..=Lmax`, `size = c << a`, `stride = (size >> 1) >> b`, under `size <= L`,
/// `stride > 0` and sometimes `(t & (size / 2 - 1)) >= stride`, at one of several
/// addresses over `t` and `stride`.
fn doubling_case() -> impl Strategy<Value = Case> {
    (
        (1i64..=3, 0i64..=64),
        (0usize..4, 1i64..=3),
        any::<bool>(),
        prop_oneof![Just(4u32), Just(8)],
    )
        .prop_map(|((c0, most), (shape, q), offset_guard, width)| {
            const A: usize = 3;
            const B: usize = 4;
            const L: usize = 5;
            let vars = vec![
                var("threadIdx.x", VarKind::Thread(Axis::X)),
                var("threadIdx.y", VarKind::Thread(Axis::Y)),
                var("threadIdx.z", VarKind::Thread(Axis::Z)),
                var("a", VarKind::Counter { trips: Some(24) }),
                var("b", VarKind::Counter { trips: Some(24) }),
                var(
                    "length",
                    VarKind::Uniform {
                        range: Some((0, most)),
                    },
                ),
            ];
            let size = b(BinOp::Shl, c(c0), v(A));
            let stride = b(BinOp::Shr, b(BinOp::Shr, size.clone(), c(1)), v(B));
            let t = v(TX);
            let words = match shape {
                // 2t - (t & (stride - 1)) - q * stride
                0 => b(
                    BinOp::Sub,
                    b(
                        BinOp::Sub,
                        b(BinOp::Mul, c(2), t.clone()),
                        b(BinOp::And, t.clone(), b(BinOp::Sub, stride.clone(), c(1))),
                    ),
                    b(BinOp::Mul, stride.clone(), c(q)),
                ),
                1 => b(BinOp::Xor, t.clone(), stride.clone()),
                2 => b(BinOp::Mul, t.clone(), stride.clone()),
                _ => b(BinOp::Add, t.clone(), b(BinOp::Mul, stride.clone(), c(q))),
            };
            let mut guards = vec![
                b(BinOp::Le, size.clone(), v(L)),
                b(BinOp::Gt, stride.clone(), c(0)),
            ];
            if offset_guard {
                let half = b(BinOp::Shr, size, c(1));
                guards.push(b(
                    BinOp::Ge,
                    b(BinOp::And, t, b(BinOp::Sub, half, c(1))),
                    stride,
                ));
            }
            let address = b(BinOp::Mul, words, c(i64::from(width)));
            Case {
                access: LoweredAccess {
                    vars,
                    address,
                    width,
                    atomic: false,
                    guards,
                    block: BlockShape { x: 256, y: 1, z: 1 },
                    warp_size: 32,
                    coords: None,
                    extents: vec![],
                },
                domains: vec![
                    (A, (0..24).collect()),
                    (B, (0..24).collect()),
                    (L, (0..=most).collect()),
                ],
            }
        })
}

/// Runs `strategy`'s cases: an exact verdict has the brute-force worst case's factor (no
/// lane active: none); a sampled conflict is a lower bound of it. Returns how many verdicts
/// were exact.
fn check(strategy: impl Strategy<Value = Case>, cases: u32) -> u32 {
    let params = BankParams::default();
    let exact = Cell::new(0u32);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&strategy, |case| {
            let verdict = enumerate(&case.access, &params, Budget::default());
            let truth = brute_force::worst_case(&case.access, &case.domains, &params);
            if verdict.exact {
                exact.set(exact.get() + 1);
                // The same factor (the relaxation may report it with other lanes on); an
                // access no lane reaches is unreached, or conflict-free by the bound.
                let same = match (verdict.cost, truth) {
                    (Some(x), Some(y)) => x.wavefronts * y.ideal == y.wavefronts * x.ideal,
                    (None, None) => true,
                    (Some(x), None) => x.wavefronts == x.ideal,
                    (None, Some(_)) => false,
                };
                prop_assert!(
                    same,
                    "{:?} but {:?}: {:?}",
                    verdict.cost,
                    truth,
                    case.access
                );
            } else if matches!(verdict.reason, Some(Undecided::NoLaneActive)) {
                prop_assert!(
                    truth.is_none(),
                    "unreached but {:?}: {:?}",
                    truth,
                    case.access
                );
            } else if let Some(cost) = verdict.cost {
                let truth = truth.expect("a sampled case is a real case");
                prop_assert!(
                    !cost.is_worse_than(&truth),
                    "lower bound {:?} above the worst case {:?}: {:?}",
                    cost,
                    truth,
                    case.access
                );
            }
            Ok(())
        })
        .unwrap();
    exact.get()
}

#[test]
fn row_shifts_of_whole_words_are_decided_for_every_value() {
    let cases = 48;
    let exact = check(row_shift_case(), cases);
    assert!(exact > cases / 2, "exact {exact} of {cases}");
}

#[test]
fn block_indices_periodic_or_bounded_are_decided_for_every_value() {
    let cases = 128;
    let exact = check(block_index_case(), cases);
    assert!(exact > cases * 3 / 4, "exact {exact} of {cases}");
}

#[test]
fn doubling_counters_are_decided_by_their_distinct_strides() {
    let cases = 12;
    let exact = check(doubling_case(), cases);
    assert!(exact > cases / 2, "exact {exact} of {cases}");
}
