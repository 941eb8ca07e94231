//! Property test: dropping the guards that only pick which copies of an address run
//! (they read thread coordinates the address does not, and values nothing else reads,
//! `threadIdx.y % np == 0`) gives the verdict of plain enumeration of every lane of
//! every warp at every value, the guards kept (`support/brute_force.rs`).
//!
//! Every value has a small range, so the plain enumeration is exhaustive; the guards'
//! values are few enough that the search for a witness is exhaustive too, and a warp
//! without one (`threadIdx.y = 1` under `threadIdx.y % np == 0 && np > 1`) must keep the
//! verdict exact either way.

use bankcheck::analyse::{enumerate, Budget};
use bankcheck::bank::BankParams;
use bankcheck::model::ir::{Axis, BinOp, BlockShape, Expr, VarInfo, VarKind};
use bankcheck::model::verdict::Undecided;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

#[path = "support/brute_force.rs"]
mod brute_force;
#[path = "support/ir.rs"]
mod ir;
use ir::{access, b, c, v, var};

const TX: usize = 0;
const TY: usize = 1;
const TZ: usize = 2;
const U: usize = 3;
const K: usize = 4;
const NP: usize = 5;
const IP: usize = 6;

fn vars() -> Vec<VarInfo> {
    vec![
        var("threadIdx.x", VarKind::Thread(Axis::X)),
        var("threadIdx.y", VarKind::Thread(Axis::Y)),
        var("threadIdx.z", VarKind::Thread(Axis::Z)),
        var(
            "u",
            VarKind::Uniform {
                range: Some((0, 5)),
            },
        ),
        var("k", VarKind::Counter { trips: Some(3) }),
        var(
            "np",
            VarKind::Uniform {
                range: Some((-1, 6)),
            },
        ),
        var("ip", VarKind::Counter { trips: Some(4) }),
    ]
}

/// Addresses in elements over `threadIdx.x`, sometimes `threadIdx.y`, `u` and `k`.
fn address() -> impl Strategy<Value = Expr> {
    (0usize..5, 1i64..=33).prop_map(|(form, s)| match form {
        0 => b(BinOp::Mul, v(TX), c(s)),
        1 => b(BinOp::Mul, v(TX), v(U)),
        2 => b(
            BinOp::Add,
            b(BinOp::Mul, v(TX), c(s)),
            b(BinOp::Mul, v(K), c(32)),
        ),
        3 => b(BinOp::Add, b(BinOp::Mul, v(TY), c(s)), v(TX)),
        _ => b(BinOp::Xor, v(TX), b(BinOp::Mul, v(U), c(s % 8))),
    })
}

/// Guards: those that pick copies (on `threadIdx.y`, `threadIdx.z` and `np`, `ip`), and
/// some tied to the address.
fn guard() -> impl Strategy<Value = Expr> {
    (0usize..9, 0i64..8).prop_map(|(form, n)| match form {
        0 => b(BinOp::Eq, b(BinOp::Rem, v(TY), v(NP)), c(0)),
        1 => b(BinOp::Ne, b(BinOp::Rem, v(TY), v(NP)), c(0)),
        2 => b(BinOp::Gt, v(NP), c(1)),
        3 => b(BinOp::Lt, b(BinOp::Add, c(1), v(IP)), v(NP)),
        4 => b(BinOp::Lt, b(BinOp::Add, v(TY), v(IP)), c(n)),
        5 => b(BinOp::Eq, v(TZ), c(n % 2)),
        6 => b(BinOp::Lt, v(TX), b(BinOp::Add, v(U), c(4 * n))),
        7 => b(BinOp::Ne, v(TY), c(n)),
        _ => b(BinOp::Lt, v(K), v(U)),
    })
}

fn block() -> impl Strategy<Value = BlockShape> {
    prop::sample::select(vec![
        BlockShape { x: 32, y: 4, z: 1 },
        BlockShape { x: 2, y: 32, z: 1 },
        BlockShape { x: 16, y: 8, z: 1 },
        BlockShape { x: 8, y: 4, z: 2 },
        BlockShape { x: 64, y: 2, z: 1 },
        BlockShape { x: 32, y: 2, z: 2 },
        BlockShape { x: 4, y: 4, z: 4 },
    ])
}

#[test]
fn dropping_copy_picking_guards_keeps_the_exact_verdict() {
    let mut runner = TestRunner::new(Config {
        cases: 400,
        ..Config::default()
    });
    let params = BankParams::default();
    let domains: Vec<(usize, Vec<i64>)> = vec![
        (U, (0..=5).collect()),
        (K, (0..3).collect()),
        (NP, (-1..=6).collect()),
        (IP, (0..4).collect()),
    ];
    let case = (
        address(),
        prop::collection::vec(guard(), 1..4),
        block(),
        prop::sample::select(vec![1u32, 4, 8, 16]),
        any::<bool>(),
    );
    runner
        .run(&case, |(addr, guards, block, width, atomic)| {
            let bytes = b(BinOp::Mul, addr, c(i64::from(width)));
            let mut a = access(vars(), bytes, guards, block, width);
            a.atomic = atomic;
            let verdict = enumerate(&a, &params, Budget::default());
            let truth = brute_force::worst_case(&a, &domains, &params);
            match (verdict.cost, truth) {
                (Some(got), Some(want)) => {
                    prop_assert!(verdict.exact, "not exact: {verdict:?} for {a:?}");
                    prop_assert_eq!(got, want, "{:?}", a);
                }
                (None, None) => {
                    prop_assert_eq!(verdict.reason, Some(Undecided::NoLaneActive), "{:?}", a);
                }
                (got, want) => prop_assert!(false, "{got:?} against {want:?} for {a:?}"),
            }
            Ok(())
        })
        .unwrap();
}
