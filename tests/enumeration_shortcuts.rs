//! Property test: the enumeration's shortcuts, which skip a walk whose result could not
//! change the verdict (a sampled walk that an exact conflict-free bound overrules, a
//! sampled bound that could not be exact or would not decide), give the verdict of the
//! enumeration that walks everything, field for field.
//!
//! The accesses are built to reach those paths: run-time values of unknown range in
//! non-linear addresses (sampled), guards on values the address does not read (the
//! bounds drop them), accesses of 8 and 16 bytes (a warp of several phases), small
//! budgets, and addresses that divide by a lane-dependent amount (a lane that only the
//! dropped guards switch off may fail to evaluate).

use bankcheck::analyse::enumerate::enumerate_walking_everything;
use bankcheck::analyse::{enumerate, Budget};
use bankcheck::bank::BankParams;
use bankcheck::model::ir::{Axis, BinOp, BlockShape, Expr, LoweredAccess, VarInfo, VarKind};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::cell::Cell;

#[path = "support/ir.rs"]
mod ir;
use ir::{b, c, v, var};

const TX: usize = 0;
const TY: usize = 1;
const K: usize = 2;
const U: usize = 3;
const W: usize = 4;
const N: usize = 5;
const R: usize = 6;

/// Thread ids, a counter of unknown trip count, three uniform values of unknown range
/// (`u` for the address, `w` and `n` for guards) and a small ranged one.
fn vars() -> Vec<VarInfo> {
    vec![
        var("threadIdx.x", VarKind::Thread(Axis::X)),
        var("threadIdx.y", VarKind::Thread(Axis::Y)),
        var("k", VarKind::Counter { trips: None }),
        var("u", VarKind::Uniform { range: None }),
        var("w", VarKind::Uniform { range: None }),
        var("n", VarKind::Uniform { range: None }),
        var(
            "r",
            VarKind::Uniform {
                range: Some((0, 7)),
            },
        ),
    ]
}

/// The per-lane part of the address, in elements.
fn lane_part() -> impl Strategy<Value = Expr> {
    (0usize..7, 1i64..=33, 0i64..4).prop_map(|(form, s, d)| match form {
        0 => b(BinOp::Mul, v(TX), c(s)),
        1 => b(BinOp::Add, b(BinOp::Mul, v(TY), c(s)), v(TX)),
        2 => b(BinOp::Xor, v(TX), b(BinOp::Mul, v(TY), c(s % 8))),
        // Non-linear in `u`: sampled.
        3 => b(BinOp::Div, b(BinOp::Mul, v(TX), v(U)), c(d + 1)),
        4 => b(
            BinOp::Mul,
            v(TX),
            b(BinOp::Add, b(BinOp::Rem, v(U), c(4)), c(s)),
        ),
        // Fails at one lane (division by zero), on thread ids alone.
        5 => b(BinOp::Div, c(64 * s), b(BinOp::Sub, v(TX), c(d + 3))),
        _ => b(
            BinOp::Add,
            b(BinOp::Mul, v(TX), c(s)),
            b(
                BinOp::Div,
                v(K),
                b(BinOp::Add, b(BinOp::Rem, v(U), c(3)), c(1)),
            ),
        ),
    })
}

/// A guard: on values the address does not read (`w`, `n`), on thread ids, or on both.
fn guard() -> impl Strategy<Value = Expr> {
    (0usize..9, 1i64..=40).prop_map(|(form, m)| match form {
        0 => b(
            BinOp::Lt,
            b(BinOp::Add, v(TX), b(BinOp::Mul, v(W), c(32))),
            v(N),
        ),
        1 => b(BinOp::Lt, v(K), v(N)),
        2 => b(BinOp::Ne, b(BinOp::Add, v(TX), v(W)), c(m % 8)),
        3 => b(BinOp::Lt, v(TX), c(m)),
        4 => b(BinOp::Eq, b(BinOp::Rem, v(TX), c(2)), c(0)),
        5 => b(
            BinOp::Lt,
            b(BinOp::Add, b(BinOp::Mul, v(W), c(4)), v(K)),
            c(m),
        ),
        6 => b(BinOp::Ne, v(U), c(m % 4)),
        7 => b(BinOp::Lt, b(BinOp::Mul, v(R), v(TY)), c(m % 5)),
        _ => b(BinOp::Gt, b(BinOp::Mul, v(W), v(TX)), c(m)),
    })
}

fn case() -> impl Strategy<Value = (LoweredAccess, Budget)> {
    let shape = prop_oneof![
        Just(BlockShape { x: 32, y: 1, z: 1 }),
        Just(BlockShape { x: 64, y: 1, z: 1 }),
        Just(BlockShape { x: 32, y: 2, z: 1 }),
        Just(BlockShape { x: 16, y: 4, z: 1 }),
        Just(BlockShape { x: 128, y: 1, z: 1 }),
    ];
    (
        shape,
        lane_part(),
        prop_oneof![Just(0i64), Just(1), Just(32)],
        proptest::collection::vec(guard(), 0..4),
        prop_oneof![Just(4u32), Just(8), Just(16)],
        (
            prop_oneof![Just(1u64 << 10), Just(1 << 12), Just(1 << 14)],
            prop_oneof![Just(4u64), Just(8), Just(64)],
        ),
    )
        .prop_map(|(block, lane, shift, guards, width, (lanes, samples))| {
            // In bytes, with a pure shift `shift * u` elements.
            let elements = b(BinOp::Add, lane, b(BinOp::Mul, c(shift), v(U)));
            let address = b(BinOp::Mul, elements, c(i64::from(width)));
            let access = ir::access(vars(), address, guards, block, width);
            let budget = Budget {
                max_lane_evals: lanes,
                sample_values: samples,
            };
            (access, budget)
        })
}

#[test]
fn shortcuts_give_the_verdict_of_walking_everything() {
    let params = BankParams::default();
    let (exact, lower, undecided) = (Cell::new(0u32), Cell::new(0u32), Cell::new(0u32));
    let cases = 3000;
    let mut runner = TestRunner::new(Config {
        cases,
        ..Config::default()
    });
    runner
        .run(&case(), |(access, budget)| {
            let everything = enumerate_walking_everything(&access, &params, budget);
            let quick = enumerate(&access, &params, budget);
            prop_assert_eq!(&quick, &everything, "{:?}", access);
            let counter = if everything.exact {
                &exact
            } else if everything.cost.is_some() {
                &lower
            } else {
                &undecided
            };
            counter.set(counter.get() + 1);
            Ok(())
        })
        .unwrap();
    // Not trivial: every kind of outcome occurs often.
    for (what, n) in [
        ("exact", exact.get()),
        ("lower bounds", lower.get()),
        ("undecided", undecided.get()),
    ] {
        assert!(n > cases / 20, "{what}: {n} of {cases}");
    }
}
