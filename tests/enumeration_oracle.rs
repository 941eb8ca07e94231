//! Property tests: the warp program gives, lane by lane, what the tree evaluator gives
//! (failures included); and `enumerate`, with its per-warp evaluation, its caches and
//! its shortcuts (thread-only guards folded once per lane, value-only parts once per
//! combination, shifts reduced to residues, each (warp, active lanes) counted once),
//! finds the same worst case as the plainest possible enumeration: every combination of
//! values, every lane, the tree evaluator, the bank model.

use bankcheck::analyse::warp_program::{Scratch, WarpProgram};
use bankcheck::analyse::{enumerate, Budget};
use bankcheck::bank::{BankParams, Wavefronts};
use bankcheck::model::ir::{Axis, BinOp, BlockShape, Expr, LoweredAccess, UnOp, VarInfo, VarKind};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::cell::Cell;

#[path = "support/brute_force.rs"]
mod brute_force;

const K: usize = 2;
const U: usize = 3;

fn vars(trips: u64, hi: i64) -> Vec<VarInfo> {
    let var = |name: &str, kind| VarInfo {
        name: name.to_string(),
        kind,
        loop_value: None,
    };
    vec![
        var("threadIdx.x", VarKind::Thread(Axis::X)),
        var("threadIdx.y", VarKind::Thread(Axis::Y)),
        var("k", VarKind::Counter { trips: Some(trips) }),
        var(
            "u",
            VarKind::Uniform {
                range: Some((0, hi)),
            },
        ),
    ]
}

const BINOPS: [BinOp; 20] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::Rem,
    BinOp::Shl,
    BinOp::Shr,
    BinOp::And,
    BinOp::Or,
    BinOp::Xor,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
    BinOp::Eq,
    BinOp::Ne,
    BinOp::LogicAnd,
    BinOp::LogicOr,
    BinOp::Min,
    BinOp::Max,
];

/// Small expressions over all four variables, every operator included.
fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (-2i64..40).prop_map(Expr::Const),
        (0usize..4).prop_map(Expr::Var)
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (0usize..3, inner.clone()).prop_map(|(u, a)| {
                Expr::Unary([UnOp::Neg, UnOp::BitNot, UnOp::LogicNot][u], Box::new(a))
            }),
            (0usize..BINOPS.len(), inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| Expr::bin(BINOPS[op], a, b)),
            (inner.clone(), inner.clone(), inner).prop_map(|(c, t, e)| Expr::Select(
                Box::new(c),
                Box::new(t),
                Box::new(e)
            )),
        ]
    })
}

/// An expression that depends on a thread index (so that enumeration keeps it).
fn with_thread(e: Expr, op: usize, axis: usize) -> Expr {
    let ops = [BinOp::Add, BinOp::Xor, BinOp::Lt, BinOp::Ne];
    Expr::bin(ops[op % ops.len()], e, Expr::Var(axis))
}

#[derive(Debug, Clone)]
struct Case {
    access: LoweredAccess,
}

fn case() -> impl Strategy<Value = Case> {
    let shape = prop_oneof![
        Just((BlockShape { x: 32, y: 2, z: 1 }, 32u32)),
        Just((BlockShape { x: 16, y: 4, z: 1 }, 32)),
        Just((BlockShape { x: 8, y: 5, z: 1 }, 32)),
        Just((BlockShape { x: 64, y: 2, z: 1 }, 64)),
        Just((BlockShape { x: 32, y: 4, z: 1 }, 128)),
    ];
    (
        shape,
        (expr(), 0usize..4, 0usize..2),
        proptest::collection::vec((expr(), 0usize..4, 0usize..2), 0..3),
        (0i64..3, prop_oneof![Just(4u32), Just(8), Just(16)]),
        (
            1u64..4,
            0i64..6,
            prop_oneof![Just(1i64), Just(2), Just(8), Just(32), Just(33)],
        ),
    )
        .prop_map(
            |((block, warp_size), (a, op, axis), guards, (shift, width), (trips, hi, stride))| {
                // The address in bytes (`stride` elements per step of the index), with a
                // pure shift `shift * 4 * u` that moves every lane alike (enumeration
                // reduces it to residues).
                let lane = with_thread(a, op, axis);
                let address = Expr::bin(
                    BinOp::Add,
                    Expr::bin(BinOp::Mul, lane, Expr::Const(i64::from(width) * stride)),
                    Expr::bin(BinOp::Mul, Expr::Const(shift * 4), Expr::Var(U)),
                );
                Case {
                    access: LoweredAccess {
                        vars: vars(trips, hi),
                        address,
                        width,
                        atomic: false,
                        guards: guards
                            .into_iter()
                            .map(|(g, op, axis)| with_thread(g, op, axis))
                            .collect(),
                        block,
                        warp_size,
                        coords: None,
                        extents: Vec::new(),
                    },
                }
            },
        )
}

/// The worst case by brute force over every iteration and every value of `u`.
fn brute_force(a: &LoweredAccess, params: &BankParams) -> Option<Wavefronts> {
    let VarKind::Counter { trips: Some(trips) } = a.vars[K].kind else {
        unreachable!()
    };
    let VarKind::Uniform {
        range: Some((lo, hi)),
    } = a.vars[U].kind
    else {
        unreachable!()
    };
    let domains = [(K, (0..trips as i64).collect()), (U, (lo..=hi).collect())];
    brute_force::worst_case(a, &domains, params)
}

/// Runs the comparison on many random cases, and checks that they are not trivial: most
/// decide a cost, and many of those are conflicts.
#[test]
fn enumeration_equals_brute_force() {
    let params = BankParams::default();
    let (decided, conflicts) = (Cell::new(0u32), Cell::new(0u32));
    let cases = 1500;
    let mut runner = TestRunner::new(Config {
        cases,
        ..Config::default()
    });
    runner
        .run(&case(), |case| {
            let verdict = enumerate(&case.access, &params, Budget::default());
            prop_assert!(
                verdict.exact || verdict.cost.is_none(),
                "small cases fit the budget: {:?}",
                verdict
            );
            prop_assert_eq!(verdict.cost, brute_force(&case.access, &params));
            if let Some(c) = verdict.cost {
                decided.set(decided.get() + 1);
                conflicts.set(conflicts.get() + u32::from(c.wavefronts > c.ideal));
            }
            Ok(())
        })
        .unwrap();
    assert!(
        decided.get() > cases / 2,
        "decided {} of {cases}",
        decided.get()
    );
    assert!(
        conflicts.get() > cases / 10,
        "conflicts {} of {cases}",
        conflicts.get()
    );
}

/// A value that only shifts every lane (`0 * u`) but also sits in a term that reads a
/// loop counter (`k / u`, a term that stays with the lanes): it must be enumerated with
/// the lanes, not reduced to a shift and left at zero (a draw the property test found).
#[test]
fn shift_variable_shared_with_a_lane_term_is_enumerated() {
    let lane = Expr::bin(
        BinOp::Add,
        Expr::bin(BinOp::Div, Expr::Var(K), Expr::Var(U)),
        Expr::Var(0),
    );
    let access = LoweredAccess {
        vars: vars(1, 1),
        address: Expr::bin(
            BinOp::Add,
            Expr::bin(BinOp::Mul, lane, Expr::Const(4)),
            Expr::bin(BinOp::Mul, Expr::Const(0), Expr::Var(U)),
        ),
        width: 4,
        atomic: false,
        // `k` in a guard keeps the `k / u` term with the lanes.
        guards: vec![Expr::bin(BinOp::Sub, Expr::Var(0), Expr::Var(K))],
        block: BlockShape { x: 32, y: 2, z: 1 },
        warp_size: 32,
        coords: None,
        extents: Vec::new(),
    };
    let params = BankParams::default();
    let verdict = enumerate(&access, &params, Budget::default());
    assert_eq!(verdict.cost, brute_force(&access, &params));
    assert!(verdict.cost.is_some(), "{verdict:?}");
}

/// Each lane's value, or `None` where it failed, as the tree evaluator sees it.
fn per_lane(e: &Expr, uniform: &[i64], x: &[i64], y: &[i64]) -> Vec<Option<i64>> {
    (0..x.len())
        .map(|l| {
            let mut values = uniform.to_vec();
            values[0] = x[l];
            values[1] = y[l];
            e.eval(&values)
        })
        .collect()
}

fn warp(e: &Expr, uniform: &[i64], x: &[i64], y: &[i64]) -> Vec<Option<i64>> {
    let p = WarpProgram::new(e, &[0, 1]);
    let mut scratch = Scratch::default();
    let (v, failed) = p.eval(uniform, &[x, y], x.len(), (0, 0), &mut scratch);
    v.iter()
        .enumerate()
        .map(|(l, &v)| (failed >> l & 1 == 0).then_some(v))
        .collect()
}

proptest! {
    /// The warp program and the tree agree on every lane of every expression,
    /// failures (division by zero, bad shifts, short-circuited sides) included.
    #[test]
    fn warp_program_agrees_with_the_tree(
        e in expr(),
        uniform in proptest::collection::vec(-3i64..40, 4),
        lanes in proptest::collection::vec((-3i64..40, -3i64..40), 1..=64),
    ) {
        let (x, y): (Vec<i64>, Vec<i64>) = lanes.into_iter().unzip();
        prop_assert_eq!(warp(&e, &uniform, &x, &y), per_lane(&e, &uniform, &x, &y));
    }
}

proptest! {
    /// One scratch reused across chunks and combinations, as enumeration does: what
    /// it caches per chunk and per combination never leaks into another.
    #[test]
    fn caches_follow_chunks_and_combinations(
        e in expr(),
        combos in proptest::collection::vec(proptest::collection::vec(-3i64..40, 4), 1..4),
        chunks in proptest::collection::vec(proptest::collection::vec((-3i64..40, -3i64..40), 1..=8), 1..4),
    ) {
        let p = WarpProgram::new(&e, &[0, 1]);
        let mut scratch = Scratch::default();
        let chunks: Vec<(Vec<i64>, Vec<i64>)> =
            chunks.into_iter().map(|c| c.into_iter().unzip()).collect();
        for (number, uniform) in combos.iter().enumerate() {
            for (chunk, (x, y)) in chunks.iter().enumerate() {
                let (v, failed) =
                    p.eval(uniform, &[x, y], x.len(), (chunk, number as u64), &mut scratch);
                let got: Vec<Option<i64>> = v
                    .iter()
                    .enumerate()
                    .map(|(l, &v)| (failed >> l & 1 == 0).then_some(v))
                    .collect();
                prop_assert_eq!(got, per_lane(&e, uniform, x, y));
            }
        }
    }
}

#[test]
fn short_circuits_skip_failing_sides() {
    let fail = Expr::bin(BinOp::Div, Expr::Const(1), Expr::Var(0));
    let and = Expr::bin(BinOp::LogicAnd, Expr::Var(0), fail.clone());
    let or = Expr::bin(
        BinOp::LogicOr,
        Expr::bin(BinOp::Eq, Expr::Var(0), Expr::Const(0)),
        fail.clone(),
    );
    let sel = Expr::Select(
        Box::new(Expr::Var(0)),
        Box::new(fail),
        Box::new(Expr::Const(5)),
    );
    let x = [0, 2, 0, 1];
    let y = [0; 4];
    for e in [and, or, sel] {
        let got = warp(&e, &[0, 0], &x, &y);
        assert!(got.iter().all(Option::is_some), "{e:?}: {got:?}");
        assert_eq!(got, per_lane(&e, &[0, 0], &x, &y));
    }
    // A uniform division by zero fails every lane.
    let uniform_fail = Expr::bin(BinOp::Div, Expr::Var(2), Expr::Var(3));
    assert_eq!(warp(&uniform_fail, &[0, 0, 5, 0], &x, &y), vec![None; 4]);
}

proptest! {
    /// Dropping the variables an access does not read (and renumbering the rest, as
    /// lowering does) changes nothing of its verdict.
    #[test]
    fn unused_variables_do_not_matter(case in case()) {
        let params = BankParams::default();
        let full = enumerate(&case.access, &params, Budget::default());
        let compact = case.access.clone().with_used_vars(2);
        prop_assert!(compact.vars.len() <= case.access.vars.len());
        let v = enumerate(&compact, &params, Budget::default());
        prop_assert_eq!(v.cost, full.cost);
        prop_assert_eq!(v.exact, full.exact);
        prop_assert_eq!(v.worst_case, full.worst_case);
    }
}

/// Guards only switch lanes off: an access conflict-free with every lane active is
/// conflict-free under any guards, by brute force over every iteration and value. The
/// pipeline relies on it to keep `ok` under a condition it cannot follow and to decide
/// an access whose guards it could only sample (`pipeline/lanes_off.rs`).
#[test]
fn lanes_switched_off_never_make_a_conflict() {
    let params = BankParams::default();
    let (free_ok, guarded) = (Cell::new(0u32), Cell::new(0u32));
    let mut runner = TestRunner::new(Config {
        cases: 1500,
        ..Config::default()
    });
    runner
        .run(&case(), |case| {
            let mut all = case.access.clone();
            all.guards.clear();
            // A warp with a lane whose address fails is skipped (C leaves it undefined):
            // the property holds of warps evaluated, so only where every lane evaluates.
            if !every_lane_evaluates(&all) {
                return Ok(());
            }
            let Some(free) = brute_force(&all, &params) else {
                return Ok(());
            };
            if free.wavefronts > free.ideal {
                return Ok(());
            }
            free_ok.set(free_ok.get() + 1);
            if let Some(w) = brute_force(&case.access, &params) {
                guarded.set(guarded.get() + u32::from(!case.access.guards.is_empty()));
                prop_assert!(w.wavefronts <= w.ideal, "{:?} under guards: {:?}", w, case);
            }
            Ok(())
        })
        .unwrap();
    assert!(free_ok.get() > 100, "conflict-free cases {}", free_ok.get());
    assert!(guarded.get() > 50, "guarded cases {}", guarded.get());
}

/// Whether `a`'s address evaluates for every thread of the block at every iteration and
/// value of its domains (no division by zero, no shift out of range).
fn every_lane_evaluates(a: &LoweredAccess) -> bool {
    let VarKind::Counter { trips: Some(trips) } = a.vars[K].kind else {
        return false;
    };
    let VarKind::Uniform {
        range: Some((lo, hi)),
    } = a.vars[U].kind
    else {
        return false;
    };
    let mut values = vec![0i64; a.vars.len()];
    for k in 0..trips as i64 {
        for u in lo..=hi {
            values[K] = k;
            values[U] = u;
            for t in 0..a.block.threads() {
                a.bind_thread(&mut values, t);
                if a.address.eval(&values).is_none() {
                    return false;
                }
            }
        }
    }
    true
}
