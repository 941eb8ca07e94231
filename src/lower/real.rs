//! Real values the interpreter follows exactly: `(sum of symbol_i * X_i + X_0) / den`,
//! with `X` integer index expressions, `den > 0`, and the symbols floating-point shader
//! constants of unknown value (one per component: `kRcpScale.x`), so that `floor()` of
//! such a value can become an index (docs/bank-model.md, "Floors of real values").
//!
//! The arithmetic is that of real numbers: floating-point rounding is not modelled
//! (the assumption is stated there). A product of two values that both hold symbols, or
//! a division by a value that is not a known constant, is not followed.

use super::fold::fold;
use crate::model::ir::{BinOp, Expr as Ir, UnOp};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Denominators past this are not followed (they come from long chains of divisions).
const MAX_DEN: i64 = 1 << 40;

/// A real value: `(sum of symbol * X + constant) / den`. Terms are sorted by symbol,
/// one per symbol.
#[derive(Debug, Clone, PartialEq)]
pub struct Real {
    pub terms: Vec<(String, Ir)>,
    pub constant: Ir,
    pub den: i64,
}

impl Real {
    /// An integer as a real.
    pub fn int(i: Ir) -> Real {
        Real {
            terms: Vec::new(),
            constant: i,
            den: 1,
        }
    }

    /// A floating-point shader constant of unknown value.
    pub fn symbol(name: &str) -> Real {
        Real {
            terms: vec![(name.to_string(), Ir::Const(1))],
            constant: Ir::Const(0),
            den: 1,
        }
    }

    /// The value with every part multiplied by `k` (the denominator unchanged).
    fn scaled(&self, k: &Ir) -> Real {
        Real {
            terms: self
                .terms
                .iter()
                .map(|(s, x)| (s.clone(), fold(BinOp::Mul, x.clone(), k.clone())))
                .collect(),
            constant: fold(BinOp::Mul, self.constant.clone(), k.clone()),
            den: self.den,
        }
    }

    /// `self + other` (`negate`: `self - other`).
    fn sum(&self, other: &Real, negate: bool) -> Option<Real> {
        let den = lcm(self.den, other.den)?;
        let a = self.scaled(&Ir::Const(den / self.den));
        let b = other.scaled(&Ir::Const(den / other.den));
        let op = if negate { BinOp::Sub } else { BinOp::Add };
        let mut terms: BTreeMap<String, Ir> = a.terms.into_iter().collect();
        for (s, x) in b.terms {
            let cur = terms.remove(&s).unwrap_or(Ir::Const(0));
            terms.insert(s, fold(op, cur, x));
        }
        terms.retain(|_, x| *x != Ir::Const(0));
        Some(Real {
            terms: terms.into_iter().collect(),
            constant: fold(op, a.constant, b.constant),
            den,
        })
    }

    /// `-self`.
    pub fn neg(&self) -> Real {
        self.scaled(&Ir::Const(-1))
    }

    /// `self op other` for `+ - * /`; `None` when the result is not of this form.
    pub fn binary(&self, op: BinOp, other: &Real) -> Option<Real> {
        match op {
            BinOp::Add => self.sum(other, false),
            BinOp::Sub => self.sum(other, true),
            BinOp::Mul => {
                let (sym, plain) = if other.terms.is_empty() {
                    (self, other)
                } else if self.terms.is_empty() {
                    (other, self)
                } else {
                    return None;
                };
                let den = sym.den.checked_mul(plain.den).filter(|d| *d <= MAX_DEN)?;
                Some(Real {
                    den,
                    ..sym.scaled(&plain.constant)
                })
            }
            BinOp::Div => {
                let c = other.as_integer_fraction()?;
                let (num, den) = (c.0.checked_mul(self.den)?, c.1);
                // self / (num / den) = self * den / num.
                if num == 0 {
                    return None;
                }
                let sign = num.signum();
                let den_new = num.abs();
                let mut r = self.scaled(&Ir::Const(den * sign));
                r.den = den_new;
                r.reduced()
            }
            _ => None,
        }
    }

    /// A known constant fraction `(num, den)`.
    fn as_integer_fraction(&self) -> Option<(i64, i64)> {
        if !self.terms.is_empty() {
            return None;
        }
        Some((self.constant.as_const()?, self.den))
    }

    /// The value with the common factor of its constants and denominator divided out,
    /// when every part is a multiple of a constant; `None` past the denominator limit.
    fn reduced(self) -> Option<Real> {
        if self.den > MAX_DEN {
            return None;
        }
        let mut g = self.den;
        for x in self.terms.iter().map(|t| &t.1).chain([&self.constant]) {
            g = gcd(g, x.as_const().unwrap_or(1));
        }
        if g <= 1 {
            return Some(self);
        }
        let div = |x: Ir| match x.as_const() {
            Some(c) => Ir::Const(c / g),
            None => x,
        };
        Some(Real {
            terms: self.terms.into_iter().map(|(s, x)| (s, div(x))).collect(),
            constant: div(self.constant),
            den: self.den / g,
        })
    }

    /// The integer conversion (truncation toward zero), when the value holds no symbol:
    /// C's integer division truncates likewise.
    pub fn truncated(&self) -> Option<Ir> {
        self.terms
            .is_empty()
            .then(|| fold(BinOp::Div, self.constant.clone(), Ir::Const(self.den)))
    }

    /// `floor(X / den)` for an integer `X`, exactly: C's division truncates, one less
    /// when the remainder is negative.
    pub fn floor_of_fraction(x: Ir, den: i64) -> Ir {
        if den == 1 {
            return x;
        }
        let q = fold(BinOp::Div, x.clone(), Ir::Const(den));
        let negative = fold(BinOp::Lt, fold(BinOp::Rem, x, Ir::Const(den)), Ir::Const(0));
        fold(BinOp::Sub, q, negative)
    }

    /// A key equal for equal values written alike: linear parts normalised, the whole
    /// divided by the common factor of its coefficients and denominator.
    pub fn key(&self) -> String {
        let forms: Vec<(String, Result<Linear, String>)> = self
            .terms
            .iter()
            .map(|(s, x)| (s.clone(), linear(x).ok_or_else(|| format!("{x:?}"))))
            .chain([(
                String::new(),
                linear(&self.constant).ok_or_else(|| format!("{:?}", self.constant)),
            )])
            .collect();
        let mut g = self.den;
        for (_, f) in &forms {
            match f {
                Ok(l) => {
                    for c in l.0.values().chain([&l.1]) {
                        g = gcd(g, *c);
                    }
                }
                Err(_) => g = 1,
            }
        }
        let g = g.max(1);
        let mut out = format!("/{}", self.den / g);
        for (s, f) in forms {
            match f {
                Ok((coefs, c)) => {
                    let coefs: Vec<(usize, i64)> =
                        coefs.into_iter().map(|(v, k)| (v, k / g)).collect();
                    let _ = write!(out, " {s}:{coefs:?}+{}", c / g);
                }
                Err(text) => {
                    let _ = write!(out, " {s}:{text}");
                }
            }
        }
        out
    }
}

/// A linear form: coefficients by variable, and a constant.
type Linear = (BTreeMap<usize, i64>, i64);

/// `e` as a linear form over its variables, when it is one.
pub fn linear(e: &Ir) -> Option<Linear> {
    Some(match e {
        Ir::Const(c) => (BTreeMap::new(), *c),
        Ir::Var(i) => ([(*i, 1)].into_iter().collect(), 0),
        Ir::Unary(UnOp::Neg, a) => scale(linear(a)?, -1)?,
        Ir::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let (mut x, cx) = linear(a)?;
            let (y, cy) = scale(linear(b)?, if *op == BinOp::Sub { -1 } else { 1 })?;
            for (v, k) in y {
                let e = x.entry(v).or_insert(0);
                *e = e.checked_add(k)?;
            }
            x.retain(|_, k| *k != 0);
            (x, cx.checked_add(cy)?)
        }
        Ir::Binary(BinOp::Mul, a, b) => match (a.as_const(), b.as_const()) {
            (Some(k), _) => scale(linear(b)?, k)?,
            (_, Some(k)) => scale(linear(a)?, k)?,
            _ => return None,
        },
        Ir::Binary(BinOp::Shl, a, b) => {
            let k = b.as_const().filter(|k| (0..40).contains(k))?;
            scale(linear(a)?, 1 << k)?
        }
        _ => return None,
    })
}

fn scale((coefs, c): Linear, k: i64) -> Option<Linear> {
    let mut out = BTreeMap::new();
    for (v, x) in coefs {
        let y = x.checked_mul(k)?;
        if y != 0 {
            out.insert(v, y);
        }
    }
    Some((out, c.checked_mul(k)?))
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).unwrap_or(1)
}

fn lcm(a: i64, b: i64) -> Option<i64> {
    let g = gcd(a, b).max(1);
    (a / g).checked_mul(b).filter(|l| *l <= MAX_DEN)
}

/// The SWAR population count of the low `t` bits of `mask` (`t` at most 62, `mask`
/// non-negative): how many steps a digitised line took before lane position `t`.
pub fn steps_before(mask: Ir, t: Ir) -> Ir {
    let c = Ir::Const;
    let low = fold(BinOp::Sub, fold(BinOp::Shl, c(1), t), c(1));
    let m = fold(BinOp::And, mask, low);
    let m1 = fold(
        BinOp::Sub,
        m.clone(),
        fold(
            BinOp::And,
            fold(BinOp::Shr, m, c(1)),
            c(0x5555_5555_5555_5555),
        ),
    );
    let m2 = fold(
        BinOp::Add,
        fold(BinOp::And, m1.clone(), c(0x3333_3333_3333_3333)),
        fold(
            BinOp::And,
            fold(BinOp::Shr, m1, c(2)),
            c(0x3333_3333_3333_3333),
        ),
    );
    let m3 = fold(
        BinOp::And,
        fold(BinOp::Add, m2.clone(), fold(BinOp::Shr, m2, c(4))),
        c(0x0f0f_0f0f_0f0f_0f0f),
    );
    fold(
        BinOp::Shr,
        fold(BinOp::Mul, m3, c(0x0101_0101_0101_0101)),
        c(56),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn popcount_of_low_bits() {
        for mask in [0i64, 1, 0b1011, 0x3fff_ffff_ffff_ffff, 0x1555] {
            for t in 0..=62 {
                let e = steps_before(Ir::Var(0), Ir::Var(1));
                let want = i64::from((mask & ((1i64 << t) - 1)).count_ones() as u8);
                assert_eq!(e.eval(&[mask, t]), Some(want), "mask {mask:#x} t {t}");
            }
        }
    }

    #[test]
    fn floor_of_fractions_is_exact() {
        for x in -20..20 {
            for d in 1..6 {
                let f = Real::floor_of_fraction(Ir::Var(0), d);
                assert_eq!(f.eval(&[x]), Some(x.div_euclid(d)));
            }
        }
    }

    #[test]
    fn equal_values_have_equal_keys() {
        // s * (16 g + 0.5) - 1.5 written two ways.
        let g = || Ir::Var(3);
        let a = Real::symbol("s")
            .binary(
                BinOp::Mul,
                &Real::int(fold(BinOp::Mul, g(), Ir::Const(16)))
                    .binary(
                        BinOp::Add,
                        &Real {
                            terms: vec![],
                            constant: Ir::Const(1),
                            den: 2,
                        },
                    )
                    .unwrap(),
            )
            .unwrap();
        let b = Real {
            terms: vec![(
                "s".into(),
                fold(
                    BinOp::Add,
                    fold(BinOp::Mul, g(), Ir::Const(32)),
                    Ir::Const(1),
                ),
            )],
            constant: Ir::Const(0),
            den: 2,
        };
        assert_eq!(a.key(), b.key());
    }
}
