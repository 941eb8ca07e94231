//! Random affine and XOR index programs over a thread id and two unknown values, with
//! the plain enumeration of their worst case under the bank model, for the property
//! tests that check a verdict claimed for every value (`sound_verdicts.rs`,
//! `template_values.rs`).

use bankcheck::diag::{AccessFacts, Status};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// An index expression over `threadIdx.x` (`t`) and the arguments `p0`, `p1`.
#[derive(Debug, Clone)]
pub enum Ix {
    T,
    P(usize),
    /// `blockIdx.x`, in guards only.
    #[allow(dead_code, reason = "only sound_verdicts.rs writes guards")]
    B,
    C(i64),
    Add(Box<Ix>, Box<Ix>),
    Mul(Box<Ix>, Box<Ix>),
    Xor(Box<Ix>, Box<Ix>),
    And(Box<Ix>, i64),
}

impl Ix {
    pub fn c(&self) -> String {
        match self {
            Ix::T => "threadIdx.x".into(),
            Ix::P(i) => format!("p{i}"),
            Ix::B => "blockIdx.x".into(),
            Ix::C(c) => c.to_string(),
            Ix::Add(a, b) => format!("({} + {})", a.c(), b.c()),
            Ix::Mul(a, b) => format!("({} * {})", a.c(), b.c()),
            Ix::Xor(a, b) => format!("({} ^ {})", a.c(), b.c()),
            Ix::And(a, m) => format!("({} & {m})", a.c()),
        }
    }

    pub fn eval(&self, t: i64, p: [i64; 2]) -> i64 {
        self.eval_in_block(t, p, 0)
    }

    pub fn eval_in_block(&self, t: i64, p: [i64; 2], b: i64) -> i64 {
        match self {
            Ix::T => t,
            Ix::P(i) => p[*i],
            Ix::B => b,
            Ix::C(c) => *c,
            Ix::Add(x, y) => x.eval_in_block(t, p, b) + y.eval_in_block(t, p, b),
            Ix::Mul(x, y) => x.eval_in_block(t, p, b) * y.eval_in_block(t, p, b),
            Ix::Xor(x, y) => x.eval_in_block(t, p, b) ^ y.eval_in_block(t, p, b),
            Ix::And(x, m) => x.eval_in_block(t, p, b) & m,
        }
    }

    pub fn uses(&self, i: usize) -> bool {
        match self {
            Ix::P(j) => *j == i,
            Ix::T | Ix::B | Ix::C(_) => false,
            Ix::Add(a, b) | Ix::Mul(a, b) | Ix::Xor(a, b) => a.uses(i) || b.uses(i),
            Ix::And(a, _) => a.uses(i),
        }
    }
}

pub fn leaf() -> impl Strategy<Value = Ix> {
    prop_oneof![
        3 => Just(Ix::T),
        2 => (0usize..2).prop_map(Ix::P),
        2 => (0i64..40).prop_map(Ix::C),
    ]
}

/// Small affine and XOR programs: at most a few operators, so that values stay small.
pub fn program() -> impl Strategy<Value = Ix> {
    leaf().prop_recursive(3, 8, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Ix::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Ix::Mul(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Ix::Xor(Box::new(a), Box::new(b))),
            (
                inner,
                prop_oneof![Just(31i64), Just(63), Just(255), Just(1023)]
            )
                .prop_map(|(a, m)| Ix::And(Box::new(a), m)),
        ]
    })
}

/// The worst conflict factor of one warp of 32 lanes reading 4-byte words at `ix`, over
/// every value of the arguments it uses in `0..256` (the bank model: distinct words per
/// bank, the most of any bank; lanes sharing a word count once).
pub fn enumerated_worst(ix: &Ix) -> u64 {
    let range = |i: usize| if ix.uses(i) { 0..256i64 } else { 0..1 };
    let mut worst = 0;
    for p0 in range(0) {
        for p1 in range(1) {
            worst = worst.max(factor_at(ix, [p0, p1]));
        }
    }
    worst
}

/// The worst factor of one warp at `ix` with one argument anywhere in `0..2^16` and the
/// other in `0..4`: where a verdict over every value finds what `0..256` cannot.
pub fn witnessed_worst(ix: &Ix) -> u64 {
    let far = |i: usize| if ix.uses(i) { 0..1i64 << 16 } else { 0..1 };
    let near = |i: usize| if ix.uses(i) { 0..4i64 } else { 0..1 };
    let mut worst = 0;
    for (r0, r1) in [(far(0), near(1)), (near(0), far(1))] {
        for p0 in r0 {
            for p1 in r1.clone() {
                worst = worst.max(factor_at(ix, [p0, p1]));
            }
        }
    }
    worst
}

/// The conflict factor of one warp of 32 lanes reading 4-byte words at `ix` for one
/// value of each argument.
pub fn factor_at(ix: &Ix, p: [i64; 2]) -> u64 {
    let mut words: Vec<i64> = (0..32).map(|t| ix.eval(t, p)).collect();
    words.sort_unstable();
    words.dedup();
    let mut per_bank = [0u64; 32];
    for w in words {
        per_bank[w.rem_euclid(32) as usize] += 1;
    }
    per_bank.into_iter().max().unwrap_or(0)
}

/// True when every address of `ix` stays in an array of 2^20 words for the values tried
/// (negative words are not addresses of the array).
pub fn fits(ix: &Ix) -> bool {
    (0..32).all(|t| {
        [[0, 0], [255, 255], [0, 255], [255, 0]]
            .iter()
            .all(|p| (0..1 << 20).contains(&ix.eval(t, *p)))
    })
}

/// A runner of `cases` cases that keeps no failure file.
pub fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Checks the verdict `a` of `s[ix]` against the enumeration: `ok` has no conflicting
/// value, and a factor claimed exact is not exceeded by any value and is reached by one.
pub fn holds_for_every_value(ix: &Ix, a: &AccessFacts) -> Result<(), TestCaseError> {
    let worst = enumerated_worst(ix);
    match a.status {
        Status::Ok => prop_assert_eq!(
            worst,
            1,
            "`ok` for {} but {}-way for some value",
            ix.c(),
            worst
        ),
        Status::Conflict if a.exact && !a.factor_is_lower_bound => {
            // The verdict holds for every value, the enumeration sees 0..256: it
            // may not exceed the verdict, and a larger verdict must be reached by
            // some value further out (an argument up to 2^16 with the other small).
            let f = a.conflict_factor.unwrap_or(0.0);
            prop_assert!(
                worst as f64 <= f + 1e-9,
                "definite {}-way for {} but {}-way for some value",
                f,
                ix.c(),
                worst
            );
            if (f - worst as f64).abs() > 1e-9 {
                let far = witnessed_worst(ix);
                prop_assert!(
                    (f - far as f64).abs() < 1e-9,
                    "definite {}-way for {} but no value up to 2^16 reaches it ({}-way)",
                    f,
                    ix.c(),
                    far
                );
            }
        }
        // A lower bound must be witnessed by some value: not above the worst case
        // when the witness lies in the range (it may lie beyond).
        Status::Conflict | Status::Unknown => {}
    }
    Ok(())
}
