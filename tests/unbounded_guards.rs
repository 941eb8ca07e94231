//! Property test: a guard comparing with a side that runs through every large and small
//! value as a value of unknown range does (`i0 * 32 < DVp / 2`, `k < d - n`), that value
//! read nowhere else, holds for some value of it: the verdict is that of plain
//! enumeration (`support/brute_force.rs`) over a window of the value (-120..=120) wide enough that
//! the guard holds somewhere in it for every other value.

use bankcheck::analyse::{enumerate, Budget};
use bankcheck::bank::BankParams;
use bankcheck::model::ir::{Axis, BinOp, BlockShape, Expr, UnOp, VarInfo, VarKind};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

#[path = "support/brute_force.rs"]
mod brute_force;
#[path = "support/ir.rs"]
mod ir;
use ir::{access, b, c, v, var};

const TX: usize = 0;
const TY: usize = 1;
const K: usize = 2;
const U: usize = 3;
const N: usize = 4;

fn vars() -> Vec<VarInfo> {
    vec![
        var("threadIdx.x", VarKind::Thread(Axis::X)),
        var("threadIdx.y", VarKind::Thread(Axis::Y)),
        var("k", VarKind::Counter { trips: Some(4) }),
        var(
            "u",
            VarKind::Uniform {
                range: Some((0, 5)),
            },
        ),
        var("n", VarKind::Uniform { range: None }),
    ]
}

/// A side unbounded in `n` (or, form 6, one that is not: `n % 8`).
fn side() -> impl Strategy<Value = Expr> {
    (0usize..7, 1i64..4).prop_map(|(form, k)| match form {
        0 => v(N),
        1 => b(BinOp::Div, v(N), c(k)),
        2 => b(BinOp::Mul, c(-k), v(N)),
        3 => b(BinOp::Sub, v(U), v(N)),
        4 => Expr::Unary(UnOp::Neg, Box::new(b(BinOp::Add, v(N), c(k)))),
        5 => b(BinOp::Add, b(BinOp::Div, v(N), c(k)), v(K)),
        _ => b(BinOp::Rem, v(N), c(8)),
    })
}

#[test]
fn a_comparison_with_an_unbounded_side_holds_for_some_value() {
    let mut runner = TestRunner::new(Config {
        cases: 100,
        ..Config::default()
    });
    let params = BankParams::default();
    let domains: Vec<(usize, Vec<i64>)> = vec![
        (K, (0..4).collect()),
        (U, (0..=5).collect()),
        (N, (-120..=120).collect()),
    ];
    let case = (
        side(),
        prop::sample::select(vec![BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge, BinOp::Ne]),
        0usize..3,
        1i64..=33,
        any::<bool>(),
        prop::sample::select(vec![4u32, 16]),
    );
    let exact = std::cell::Cell::new(0u32);
    runner
        .run(&case, |(side, op, lhs, s, swap, width)| {
            let lhs = match lhs {
                0 => b(BinOp::Mul, v(K), c(8)),
                1 => b(BinOp::Add, v(TX), v(U)),
                _ => b(BinOp::Add, v(K), v(TY)),
            };
            let g = if swap {
                b(op, side, lhs)
            } else {
                b(op, lhs, side)
            };
            let address = b(
                BinOp::Mul,
                b(
                    BinOp::Add,
                    b(BinOp::Mul, v(TX), c(s)),
                    b(BinOp::Mul, v(K), v(U)),
                ),
                c(i64::from(width)),
            );
            let a = access(
                vars(),
                address,
                vec![g, b(BinOp::Lt, v(K), c(3))],
                BlockShape { x: 32, y: 2, z: 1 },
                width,
            );
            let verdict = enumerate(&a, &params, Budget::default());
            let truth = brute_force::worst_case(&a, &domains, &params);
            if verdict.exact {
                exact.set(exact.get() + 1);
                prop_assert_eq!(verdict.cost, truth, "{:?}", a);
            }
            Ok(())
        })
        .unwrap();
    // Most cases are decided exactly (the one-phase ones, at least).
    assert!(exact.get() >= 30, "only {} exact", exact.get());
}
