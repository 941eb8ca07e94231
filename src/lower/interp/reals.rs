//! `floor()`, `ceil()` and floating-point shader constants: real values
//! ([`crate::lower::real`]) become integer indices (docs/bank-model.md, "Floors of real
//! values").
//!
//! `floor(s * X + C)`, with `s` a real shader constant, `X` an integer over the thread
//! ids and `C` the same for the whole warp, is `floor(C') + n * t + e(t)`: `t` the lane
//! part of `X` counted from its smallest value in steps of the gcd of its values (at most
//! 62 steps), `n` the integer part of the slope `a = s * step / den`, `e(t)` the digitised
//! line of the slope's fractional part `f` and of the fraction of `C'` (a
//! [`VarKind::Line`] mask, its steps counted by a population count). `floor(C')` and `n`
//! are run-time values of unknown range. That is exact when `f`, `n`, `floor(C')` and
//! the fraction of `C'` take their values independently, which needs `C'` to be free of
//! `s`: it holds a value the analysis may choose (another real constant, or `s` times a
//! group id of at least 2^16 values, whose multiples fall everywhere modulo 1 for almost
//! every `s`). The `floor()`s of one family (one offset, one slope) share their
//! variables; an access that reads variables of two families of the same constant is
//! not decided, as their values are not independent ([`Floors`]).

use super::{fold, int, Interp, Value};
use crate::extract::ast::Expr;
use crate::lower::real::{linear, steps_before, Real};
use crate::model::ir::{BinOp, Expr as Ir, VarInfo, VarKind};

/// The variables that `floor()`s of real values made, each with its family: the key of
/// the offset, the slope symbol and scale for a line, and the real constants it reads.
/// An access that reads two variables of different families sharing a constant is not
/// decided ([`Interp::floor_clash`]): their values are not independent.
#[derive(Default)]
pub(super) struct Floors {
    families: foldhash::HashMap<usize, Family>,
}

struct Family {
    offset: String,
    line: Option<(String, (i64, i64))>,
    symbols: Vec<String>,
}

impl Family {
    /// Whether two variables can take their values independently, as enumeration does.
    fn agrees(&self, other: &Family) -> bool {
        if !self.symbols.iter().any(|s| other.symbols.contains(s)) {
            return true;
        }
        self.offset == other.offset
            && match (&self.line, &other.line) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
    }
}

/// A group id of at least this many values makes an offset free (module comment).
const FREE_RANGE: i64 = 1 << 16;

impl Interp<'_> {
    /// A shader constant (`cbuffer` member) of a scalar or vector type: one real symbol
    /// per floating-point component; an integer one is a run-time value the same in every
    /// lane of the dispatch, as a kernel parameter is. `None` for other names and types.
    pub(super) fn shader_constant(&mut self, name: &str) -> Option<Value> {
        let ty = self.syn.shader_constants.get(name)?;
        if ty.pointers > 0 {
            return None;
        }
        let integer = |s: &mut Self, n: &str| Value::Int(s.uniform(n, None));
        let comps = match crate::lower::vector::vector_type(&ty.base, &self.syn.typedefs) {
            Some((n, crate::lower::vector::Elem::Float)) => n,
            Some((n, crate::lower::vector::Elem::Int)) => {
                return Some(Value::Vector(
                    "xyzw"
                        .chars()
                        .take(n)
                        .map(|c| integer(self, &format!("{name}.{c}")))
                        .collect(),
                ));
            }
            None if matches!(ty.base.as_str(), "float" | "half" | "double" | "min16float") => 0,
            None if matches!(
                ty.base.as_str(),
                "uint" | "int" | "dword" | "min16uint" | "min16int" | "uint32_t" | "int32_t"
            ) =>
            {
                return Some(integer(self, name));
            }
            None => return None,
        };
        if comps == 0 {
            return Some(Value::Real(Real::symbol(name)));
        }
        Some(Value::Vector(
            "xyzw"
                .chars()
                .take(comps)
                .map(|c| Value::Real(Real::symbol(&format!("{name}.{c}"))))
                .collect(),
        ))
    }

    /// `floor(x)` (`ceil`: `-floor(-x)`), component-wise on vectors.
    pub(super) fn floor_call(&mut self, ceil: bool, args: &[Expr]) -> Value {
        let v = self.eval(&args[0]);
        let one = |s: &mut Self, v: Value| match v {
            Value::Int(i) => Value::Int(i),
            Value::Real(r) => s.floor_real(&r, ceil),
            d @ Value::Data(_) => d,
            other => Value::Unknown(other.reason()),
        };
        match v {
            Value::Vector(c) => Value::Vector(c.into_iter().map(|x| one(self, x)).collect()),
            other => one(self, other),
        }
    }

    /// `floor(r)` (`ceil`: `ceil(r)`) as an index expression, or data with the reason it
    /// is not one.
    fn floor_real(&mut self, r: &Real, ceil: bool) -> Value {
        let negated = |v: Value| match v {
            Value::Int(i) => Value::Int(fold(BinOp::Sub, int(0), i)),
            other => other,
        };
        if r.terms.is_empty() {
            let f = |r: &Real| Value::Int(Real::floor_of_fraction(r.constant.clone(), r.den));
            return if ceil { negated(f(&r.neg())) } else { f(r) };
        }
        let thread_mask = self.thread_var_mask();
        let (lane0, _) = split_lane(&r.constant, thread_mask);
        if lane0 != int(0) {
            return data(
                "the lane-dependent part under `floor()` is not a real constant times an integer",
            );
        }
        let mut lines = Vec::new();
        let mut offset = r.clone();
        for (k, (s, x)) in r.terms.iter().enumerate() {
            let (lane, uniform) = split_lane(x, thread_mask);
            if lane != int(0) {
                lines.push((s.clone(), lane));
                offset.terms[k].1 = uniform;
            }
        }
        match lines.len() {
            // A run-time value of its own: `ceil` is not written `-floor(-r)`, whose
            // variable sampling would try with the wrong sign.
            0 => self.uniform_floor(r, ceil),
            1 if ceil => {
                let (s, lane) = lines.remove(0);
                let lane = fold(BinOp::Sub, int(0), lane);
                negated(self.line_floor(&s, &lane, offset.neg()))
            }
            1 => {
                let (s, lane) = lines.remove(0);
                self.line_floor(&s, &lane, offset)
            }
            _ => data("`floor()` of several real constants times thread ids"),
        }
    }

    /// `floor(r)` (`ceil(r)`) of a value the same for the whole warp: a run-time value.
    fn uniform_floor(&mut self, r: &Real, ceil: bool) -> Value {
        if !free(r, None, &self.vars) {
            return data("`floor()` of a real value that may not take every value");
        }
        let key = r.key();
        let var = self.floor_var(r, &key, ceil);
        // `ceil(r)` and `floor(r)` are not independent: families of their own.
        let family = if ceil { format!("ceil {key}") } else { key };
        self.record_family(&var, r, &family, None);
        Value::Int(var)
    }

    /// `floor(s * lane / den + offset)`: a digitised line (module comment).
    fn line_floor(&mut self, s: &str, lane: &Ir, offset: Real) -> Value {
        if lane.var_mask() & !self.thread_var_mask() != 0 {
            return data("`floor()` of a real constant times a value that is not a thread id");
        }
        let block = self.shape_reads.whole(self.block);
        let mut values = Vec::new();
        for linear_id in 0..block.threads().min(1 << 12) {
            let (x, y, z) = block.coords(linear_id);
            match lane.eval(&[x, y, z]) {
                Some(v) => values.push(v),
                None => return data("`floor()` of a lane value that cannot be evaluated"),
            }
        }
        let (Some(&lo), Some(&hi)) = (values.iter().min(), values.iter().max()) else {
            return data("`floor()` in an empty block");
        };
        let step = values.iter().fold(0i64, |g, v| gcd(g, v - lo));
        // The offset takes the lane part at its smallest value: C' = C + s * lo / den.
        let mut c = offset;
        if let Some(t) = c.terms.iter_mut().find(|t| t.0 == s) {
            t.1 = fold(BinOp::Add, t.1.clone(), int(lo));
        }
        c.terms.retain(|t| t.1 != int(0));
        if step == 0 {
            return self.uniform_floor(&c, false);
        }
        let span = (hi - lo) / step;
        if span > i64::from(crate::model::ir::MAX_LINE_SPAN) {
            return data("`floor()` over more than 62 steps of the thread ids");
        }
        if !free(&c, Some(s), &self.vars) {
            return data("`floor()` of a line whose offset may not take every value");
        }
        let g = gcd(step, c.den);
        let scale = (step / g, c.den / g);
        let key = c.key();
        let t = fold(
            BinOp::Div,
            fold(BinOp::Sub, lane.clone(), int(lo)),
            int(step),
        );
        let slope = match scale {
            (1, 1) => s.to_string(),
            (p, 1) => format!("{p}·{s}"),
            (p, q) => format!("{p}·{s}/{q}"),
        };
        let base = self.floor_var(&c, &key, false);
        let whole = self.uniform(&format!("floor({slope})"), None);
        let mask = self.line_var(&format!("line of frac({slope})"), &key, span as u32);
        for v in [&base, &whole, &mask] {
            self.record_family(v, &c, &key, Some((s, scale)));
        }
        Value::Int(fold(
            BinOp::Add,
            fold(BinOp::Add, base, fold(BinOp::Mul, whole, t.clone())),
            steps_before(mask, t),
        ))
    }

    /// Records the family of a variable a `floor()` made (see [`Floors`]).
    fn record_family(&mut self, var: &Ir, r: &Real, key: &str, line: Option<(&str, (i64, i64))>) {
        let Ir::Var(i) = var else { return };
        let mut symbols: Vec<String> = r.terms.iter().map(|t| t.0.clone()).collect();
        if let Some((s, _)) = line {
            if !symbols.iter().any(|x| x == s) {
                symbols.push(s.to_string());
            }
        }
        self.floors.families.entry(*i).or_insert(Family {
            offset: key.to_string(),
            line: line.map(|(s, sc)| (s.to_string(), sc)),
            symbols,
        });
    }

    /// Why an access reading the variables of `mask` is not decided: two of them come
    /// from `floor()`s of related real values that enumeration would take as independent.
    pub(super) fn floor_clash(&self, mask: u64) -> Option<crate::model::reason::Reason> {
        let read: Vec<&Family> = (0..64usize)
            .filter(|i| mask >> i & 1 == 1)
            .filter_map(|i| self.floors.families.get(&i))
            .collect();
        for (k, a) in read.iter().enumerate() {
            if read[k + 1..].iter().any(|b| !a.agrees(b)) {
                return Some(
                    "the index depends on data: `floor()`s of related real values whose \
                     results are not independent"
                        .into(),
                );
            }
        }
        None
    }

    /// The run-time value `floor(r)` (`ceil(r)`) of a real the same for the whole warp (one
    /// per key).
    fn floor_var(&mut self, r: &Real, key: &str, ceil: bool) -> Ir {
        let f = if ceil { "ceil" } else { "floor" };
        let lookup = format!("{f} {key}");
        if let Some(&i) = self.uniform_names.get(&lookup) {
            return Ir::Var(i);
        }
        let name = format!("{f}({})", self.describe(r));
        let i = self.vars.len();
        self.vars.push(VarInfo {
            name,
            kind: VarKind::Uniform { range: None },
            loop_value: None,
        });
        self.uniform_names.insert(lookup, i);
        Ir::Var(i)
    }

    /// `r` in words, with the names of its variables.
    fn describe(&self, r: &Real) -> String {
        let name = |i: usize| {
            self.vars
                .get(i)
                .map_or("?", |v| v.name.as_str())
                .to_string()
        };
        let form = |x: &Ir| match linear(x) {
            Some((coefs, c)) => {
                let mut parts: Vec<String> = coefs
                    .into_iter()
                    .map(|(v, k)| match k {
                        1 => name(v),
                        _ => format!("{k}·{}", name(v)),
                    })
                    .collect();
                if c != 0 || parts.is_empty() {
                    parts.push(c.to_string());
                }
                parts.join(" + ")
            }
            None => "…".to_string(),
        };
        let mut parts: Vec<String> = r
            .terms
            .iter()
            .map(|(s, x)| match x.as_const() {
                Some(1) => s.clone(),
                _ => format!("{s}·({})", form(x)),
            })
            .collect();
        if r.constant != int(0) {
            parts.push(form(&r.constant));
        }
        let sum = parts.join(" + ").replace("+ -", "- ");
        if r.den == 1 {
            sum
        } else {
            format!("({sum})/{}", r.den)
        }
    }

    /// The digitised-line variable of family `key` (one per family).
    fn line_var(&mut self, name: &str, key: &str, span: u32) -> Ir {
        self.keyed_var(&format!("line {key}"), name, VarKind::Line { span })
    }

    /// The thread coordinates, as a mask of variables.
    fn thread_var_mask(&self) -> u64 {
        self.vars
            .iter()
            .enumerate()
            .filter(|(_, v)| matches!(v.kind, VarKind::Thread(_)))
            .fold(0, |m, (i, _)| m | 1u64 << i.min(63))
    }
}

/// The value of a floating-point literal: a fraction, or data when it has none.
pub(super) fn literal(value: Option<(i64, i64)>) -> Value {
    match value {
        Some((num, den)) if den > 0 => Value::Real(Real {
            terms: Vec::new(),
            constant: Ir::Const(num),
            den,
        }),
        _ => Value::Data("a floating-point value".into()),
    }
}

/// `a op b` where one side is a real and the other a real or an integer: the result
/// of the arithmetic operators when it has this form, else data (comparisons included:
/// a guard on a real is data, as the bank model takes such guards).
pub(super) fn binary(op: BinOp, a: Value, b: Value) -> Value {
    let as_real = |v: Value| match v {
        Value::Real(r) => Some(r),
        Value::Int(i) => Some(Real::int(i)),
        _ => None,
    };
    match (as_real(a), as_real(b)) {
        (Some(a), Some(b)) => a
            .binary(op, &b)
            .map_or_else(|| Value::Data("a floating-point value".into()), Value::Real),
        _ => Value::Data("a floating-point value".into()),
    }
}

fn data(why: &str) -> Value {
    Value::Data(why.to_string())
}

/// `x` split into the sum of its terms that read a thread variable and the rest (a
/// linear form's terms when it is one, else its additive terms).
fn split_lane(x: &Ir, thread_mask: u64) -> (Ir, Ir) {
    if let Some((coefs, c)) = linear(x) {
        let mut lane = int(0);
        let mut rest = int(c);
        for (v, k) in coefs {
            let term = fold(BinOp::Mul, Ir::Var(v), int(k));
            if v < 64 && thread_mask >> v & 1 == 1 {
                lane = fold(BinOp::Add, lane, term);
            } else {
                rest = fold(BinOp::Add, rest, term);
            }
        }
        return (lane, rest);
    }
    let mut terms = Vec::new();
    x.additive_terms(false, &mut terms);
    let mut lane = int(0);
    let mut rest = int(0);
    for (t, neg) in terms {
        let op = if neg { BinOp::Sub } else { BinOp::Add };
        if t.var_mask() & thread_mask != 0 {
            lane = fold(op, lane, t.clone());
        } else {
            rest = fold(op, rest, t.clone());
        }
    }
    (lane, rest)
}

/// Whether the real `r` takes every value modulo 1 (and every integer part) whatever
/// the slope symbol `slope` is: a term of another symbol with a nonzero constant factor,
/// or of any symbol with a factor linear in a run-time value of at least 2^16 values.
fn free(r: &Real, slope: Option<&str>, vars: &[VarInfo]) -> bool {
    let wide = |i: &usize| match vars.get(*i).map(|v| &v.kind) {
        Some(VarKind::Uniform { range: None }) => true,
        Some(VarKind::Uniform {
            range: Some((lo, hi)),
        }) => hi.saturating_sub(*lo) >= FREE_RANGE - 1,
        _ => false,
    };
    r.terms.iter().any(|(s, x)| {
        let Some((coefs, c)) = linear(x) else {
            return false;
        };
        (coefs.is_empty() && c != 0 && Some(s.as_str()) != slope) || coefs.keys().any(wide)
    })
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).unwrap_or(i64::MAX)
}
