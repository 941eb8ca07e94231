//! The index IR: integer expressions over thread, loop and uniform variables.
//!
//! Every shared-memory access is lowered to a byte-address expression in this IR,
//! plus the guards that decide which lanes are active. The IR is small on purpose:
//! analyses evaluate it (enumeration), pattern-match it (stride) or bit-blast it (F2).

use serde::Serialize;

/// A thread-index axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Axis {
    X,
    Y,
    Z,
}

/// What a variable of the IR stands for and which values it takes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub enum VarKind {
    /// `threadIdx.{x,y,z}` (HLSL `SV_GroupThreadID`): differs between lanes.
    Thread(Axis),
    /// A loop counter `k = 0, 1, .., trips - 1` (uniform across the warp). Loop
    /// variables are lowered as `start + step * k`, so `k` always counts from 0.
    /// `trips == None` when the trip count is not a known constant; then the
    /// loop's condition is kept as a guard and `k` is enumerated up to the budget.
    Counter { trips: Option<u64> },
    /// A value the same for every lane of the warp (`blockIdx`, a kernel parameter).
    /// `range` is the inclusive range of values when known.
    Uniform { range: Option<(i64, i64)> },
    /// The steps of a digitised line, the same for every lane of the warp: bit `i` is
    /// set when `floor(c + f * t)` grows from `t = i` to `t = i + 1`, for a slope `f` and
    /// an offset `c` in `[0, 1)` of unknown value and `t = 0..=span` (at most 62). It
    /// takes exactly the masks that some real `f` and `c` give (docs/bank-model.md,
    /// "Floors of real values").
    Line { span: u32 },
}

/// The most steps a digitised line ([`VarKind::Line`]) takes: its masks are 62 bits.
pub const MAX_LINE_SPAN: u32 = 62;

/// A named variable of one lowered access.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct VarInfo {
    /// The source name (`threadIdx.x`, `k`, `stride`) for messages.
    pub name: String,
    pub kind: VarKind,
    /// For a loop counter, the loop variable's value in each iteration, when it is a
    /// constant progression: messages name the value (`s = 4`), not the iteration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loop_value: Option<LoopValue>,
}

/// The value of a loop variable in iteration `k` of its loop: `start + step * k`, or
/// with `shift`, `start << (step * k)` (`>>` for a negative step).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct LoopValue {
    /// The loop variable's name.
    pub variable: String,
    pub start: i64,
    pub step: i64,
    pub shift: bool,
}

impl LoopValue {
    /// The variable's value in iteration `k`, when it fits in an `i64`.
    pub fn at(&self, k: i64) -> Option<i64> {
        if !self.shift {
            return self.start.checked_add(self.step.checked_mul(k)?);
        }
        let by = u32::try_from(self.step.checked_mul(k)?.unsigned_abs()).ok()?;
        if self.step >= 0 {
            let v = self.start.checked_shl(by)?;
            // A shift that drops bits is past what the variable holds.
            (v.checked_shr(by)? == self.start).then_some(v)
        } else {
            Some(self.start.checked_shr(by).unwrap_or(0))
        }
    }
}

/// Binary operators, with C semantics on 64-bit signed integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LogicAnd,
    LogicOr,
    Min,
    Max,
}

impl BinOp {
    /// `a op b` with C semantics on `i64` (the logical operators on evaluated operands);
    /// `None` on division by zero or an out-of-range shift.
    #[inline]
    pub fn apply(self, a: i64, b: i64) -> Option<i64> {
        Some(match self {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div => a.checked_div(b)?,
            BinOp::Rem => a.checked_rem(b)?,
            BinOp::Shl => {
                if !(0..63).contains(&b) {
                    return None;
                }
                a.wrapping_shl(b as u32)
            }
            BinOp::Shr => {
                if !(0..63).contains(&b) {
                    return None;
                }
                a >> b
            }
            BinOp::And => a & b,
            BinOp::Or => a | b,
            BinOp::Xor => a ^ b,
            BinOp::Lt => i64::from(a < b),
            BinOp::Le => i64::from(a <= b),
            BinOp::Gt => i64::from(a > b),
            BinOp::Ge => i64::from(a >= b),
            BinOp::Eq => i64::from(a == b),
            BinOp::Ne => i64::from(a != b),
            BinOp::LogicAnd => i64::from(a != 0 && b != 0),
            BinOp::LogicOr => i64::from(a != 0 || b != 0),
            BinOp::Min => a.min(b),
            BinOp::Max => a.max(b),
        })
    }
}

impl UnOp {
    /// `op a` with C semantics on `i64`.
    pub fn apply(self, a: i64) -> i64 {
        match self {
            UnOp::Neg => a.wrapping_neg(),
            UnOp::BitNot => !a,
            UnOp::LogicNot => i64::from(a == 0),
        }
    }
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum UnOp {
    Neg,
    BitNot,
    LogicNot,
}

/// An integer expression over the variables of its access (`Var(i)` indexes `vars`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub enum Expr {
    Const(i64),
    Var(usize),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `cond ? then : else`.
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Pushes the conjuncts of this guard onto `out` (`a && b` is `a` and `b`).
    pub fn conjuncts<'e>(&'e self, out: &mut Vec<&'e Expr>) {
        match self {
            Expr::Binary(BinOp::LogicAnd, a, b) => {
                a.conjuncts(out);
                b.conjuncts(out);
            }
            _ => out.push(self),
        }
    }

    /// Pushes this guard's conjuncts onto `out` as separate guards, splitting `a && b`
    /// only where `a` cannot fail to evaluate: a list of guards is a conjunction in which
    /// a guard that cannot be evaluated holds, so `b` after a failing `a` would decide
    /// what `a && b` (failing, hence holding) does not. Separate comparisons let the
    /// analyses see each bound on its own (`x < cols && y + i < rows`).
    pub fn split_conjuncts(&self, out: &mut Vec<Expr>) {
        match self {
            Expr::Binary(BinOp::LogicAnd, a, b) if !a.can_fail() => {
                a.split_conjuncts(out);
                b.split_conjuncts(out);
            }
            _ => out.push(self.clone()),
        }
    }

    /// This expression as `a * v + b` over one variable `v`, with constants `a` and `b`
    /// (sums, differences, products and left shifts by constants).
    pub fn as_linear(&self) -> Option<(usize, i64, i64)> {
        let scaled = |e: &Expr, k: i64| {
            e.as_linear()
                .and_then(|(v, a, b)| Some((v, a.checked_mul(k)?, b.checked_mul(k)?)))
        };
        let shifted = |e: &Expr, k: i64| {
            e.as_linear()
                .and_then(|(v, a, b)| Some((v, a, b.checked_add(k)?)))
        };
        match self {
            Expr::Var(v) => Some((*v, 1, 0)),
            Expr::Binary(op, x, y) => match (op, x.as_const(), y.as_const()) {
                (BinOp::Mul, None, Some(k)) => scaled(x, k),
                (BinOp::Mul, Some(k), None) => scaled(y, k),
                (BinOp::Shl, None, Some(s)) if (0..31).contains(&s) => scaled(x, 1i64 << s),
                (BinOp::Add, None, Some(k)) => shifted(x, k),
                (BinOp::Add, Some(k), None) => shifted(y, k),
                (BinOp::Sub, None, Some(k)) => shifted(x, k.checked_neg()?),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether evaluation can fail at some values: a division or remainder by a
    /// non-constant or zero, a shift by a non-constant or out-of-range amount.
    pub fn can_fail(&self) -> bool {
        match self {
            Expr::Const(_) | Expr::Var(_) => false,
            Expr::Unary(_, a) => a.can_fail(),
            Expr::Binary(op, a, b) => {
                let right_fails = match op {
                    BinOp::Div | BinOp::Rem => b.as_const().is_none_or(|c| c == 0),
                    BinOp::Shl | BinOp::Shr => b.as_const().is_none_or(|c| !(0..63).contains(&c)),
                    _ => false,
                };
                right_fails || a.can_fail() || b.can_fail()
            }
            Expr::Select(c, t, e) => c.can_fail() || t.can_fail() || e.can_fail(),
        }
    }

    pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::Binary(op, Box::new(a), Box::new(b))
    }

    /// Evaluates with C semantics; `None` on division by zero or an out-of-range shift.
    pub fn eval(&self, values: &[i64]) -> Option<i64> {
        Some(match self {
            Expr::Const(c) => *c,
            Expr::Var(i) => *values.get(*i)?,
            Expr::Unary(op, a) => op.apply(a.eval(values)?),
            Expr::Binary(op, a, b) => {
                let a = a.eval(values)?;
                // Short-circuit the logical operators as C does.
                match op {
                    BinOp::LogicAnd if a == 0 => return Some(0),
                    BinOp::LogicOr if a != 0 => return Some(1),
                    _ => {}
                }
                op.apply(a, b.eval(values)?)?
            }
            Expr::Select(c, t, e) => {
                if c.eval(values)? != 0 {
                    t.eval(values)?
                } else {
                    e.eval(values)?
                }
            }
        })
    }

    /// Appends the top-level additive terms of the expression to `out`, each with
    /// whether it is subtracted (flipped when `negate`).
    pub fn additive_terms<'a>(&'a self, negate: bool, out: &mut Vec<(&'a Expr, bool)>) {
        match self {
            Expr::Binary(BinOp::Add, a, b) => {
                a.additive_terms(negate, out);
                b.additive_terms(negate, out);
            }
            Expr::Binary(BinOp::Sub, a, b) => {
                a.additive_terms(negate, out);
                b.additive_terms(!negate, out);
            }
            _ => out.push((self, negate)),
        }
    }

    /// Bit mask of the variables the expression reads.
    pub fn var_mask(&self) -> u64 {
        match self {
            Expr::Const(_) => 0,
            Expr::Var(i) => 1u64 << (*i).min(63),
            Expr::Unary(_, a) => a.var_mask(),
            Expr::Binary(_, a, b) => a.var_mask() | b.var_mask(),
            Expr::Select(c, t, e) => c.var_mask() | t.var_mask() | e.var_mask(),
        }
    }

    /// The expression's operands, in order (none for a constant or a variable).
    pub fn operands(&self) -> impl Iterator<Item = &Expr> {
        let (a, b, c) = match self {
            Expr::Const(_) | Expr::Var(_) => (None, None, None),
            Expr::Unary(_, a) => (Some(&**a), None, None),
            Expr::Binary(_, a, b) => (Some(&**a), Some(&**b), None),
            Expr::Select(c, t, f) => (Some(&**c), Some(&**t), Some(&**f)),
        };
        a.into_iter().chain(b).chain(c)
    }

    /// Calls `f` with the index of every variable the expression reads.
    pub fn each_var(&self, f: &mut dyn FnMut(usize)) {
        match self {
            Expr::Const(_) => {}
            Expr::Var(i) => f(*i),
            Expr::Unary(_, a) => a.each_var(f),
            Expr::Binary(_, a, b) => {
                a.each_var(f);
                b.each_var(f);
            }
            Expr::Select(c, t, e) => {
                c.each_var(f);
                t.each_var(f);
                e.each_var(f);
            }
        }
    }

    /// The expression with every variable `i` renamed `map[i]` (which must be `Some`).
    #[must_use]
    pub fn renumbered(&self, map: &[Option<usize>]) -> Expr {
        match self {
            Expr::Const(c) => Expr::Const(*c),
            Expr::Var(i) => Expr::Var(map.get(*i).copied().flatten().unwrap_or(*i)),
            Expr::Unary(op, a) => Expr::Unary(*op, Box::new(a.renumbered(map))),
            Expr::Binary(op, a, b) => Expr::bin(*op, a.renumbered(map), b.renumbered(map)),
            Expr::Select(c, t, e) => Expr::Select(
                Box::new(c.renumbered(map)),
                Box::new(t.renumbered(map)),
                Box::new(e.renumbered(map)),
            ),
        }
    }

    /// Number of nodes, stopping early once past `limit` (keeps checks cheap).
    pub fn size_up_to(&self, limit: usize) -> usize {
        fn walk(e: &Expr, n: &mut usize, limit: usize) {
            *n += 1;
            if *n > limit {
                return;
            }
            match e {
                Expr::Const(_) | Expr::Var(_) => {}
                Expr::Unary(_, a) => walk(a, n, limit),
                Expr::Binary(_, a, b) => {
                    walk(a, n, limit);
                    walk(b, n, limit);
                }
                Expr::Select(c, t, f) => {
                    walk(c, n, limit);
                    walk(t, n, limit);
                    walk(f, n, limit);
                }
            }
        }
        let mut n = 0;
        walk(self, &mut n, limit);
        n
    }

    /// The constant value, when the expression has no variables and evaluates.
    pub fn as_const(&self) -> Option<i64> {
        if self.var_mask() == 0 {
            self.eval(&[])
        } else {
            None
        }
    }
}

/// The thread-block shape `(x, y, z)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct BlockShape {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl BlockShape {
    pub fn threads(&self) -> u64 {
        u64::from(self.x) * u64::from(self.y) * u64::from(self.z)
    }

    /// The thread coordinates of linear id `linear` (`x + y*Dx + z*Dx*Dy`).
    pub fn coords(&self, linear: u64) -> (i64, i64, i64) {
        let x = linear % u64::from(self.x.max(1));
        let rest = linear / u64::from(self.x.max(1));
        let y = rest % u64::from(self.y.max(1));
        let z = rest / u64::from(self.y.max(1));
        (x as i64, y as i64, z as i64)
    }
}

/// One access site lowered to a byte address over named variables.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct LoweredAccess {
    pub vars: Vec<VarInfo>,
    /// Byte offset from the start of the array (16-byte aligned).
    pub address: Expr,
    /// Bytes moved per lane (1, 2, 4, 8, 16 after splitting).
    pub width: u32,
    /// Atomic accesses: lanes hitting the same word are not merged.
    pub atomic: bool,
    /// Conditions that must all be non-zero for a lane to take part.
    pub guards: Vec<Expr>,
    pub block: BlockShape,
    /// Lanes per warp (wave size) for this kernel.
    pub warp_size: u32,
    /// The logical coordinates (one per array dimension, outermost first) and the
    /// declared extents, when the access is a plain multi-dimensional subscript.
    pub coords: Option<Vec<Expr>>,
    pub extents: Vec<u64>,
}

impl LoweredAccess {
    /// For tests: a 4-byte access by one warp of a block (32, 1, 1) at `address`, under
    /// `guards`, over `vars`.
    #[cfg(test)]
    pub(crate) fn one_warp(vars: Vec<VarInfo>, address: Expr, guards: Vec<Expr>) -> LoweredAccess {
        LoweredAccess {
            vars,
            address,
            width: 4,
            atomic: false,
            guards,
            block: BlockShape { x: 32, y: 1, z: 1 },
            warp_size: 32,
            coords: None,
            extents: Vec::new(),
        }
    }

    /// The access with only the variables it reads (the thread coordinates, the first
    /// `keep`, always stay first), renumbered in their order: a function's accesses each
    /// carried the whole function's list, which grew with every uniform load, so the
    /// memory of a function's sites grew with the square of its loads.
    #[must_use]
    pub fn with_used_vars(mut self, keep: usize) -> LoweredAccess {
        let all = std::mem::take(&mut self.vars);
        self.with_vars_from(&all, keep)
    }

    /// Gives an access built with no variables of its own the variables it uses out of
    /// `all` (the interpreter's whole table, whose numbering its expressions follow),
    /// renumbered: only those are cloned, as a kernel whose helpers are inlined many
    /// times can hold thousands of variables and thousands of accesses.
    pub fn with_vars_from(mut self, all: &[VarInfo], keep: usize) -> LoweredAccess {
        let mut used = vec![false; all.len()];
        for u in used.iter_mut().take(keep) {
            *u = true;
        }
        let mut mark = |i: usize| {
            if let Some(u) = used.get_mut(i) {
                *u = true;
            }
        };
        self.address.each_var(&mut mark);
        for g in &self.guards {
            g.each_var(&mut mark);
        }
        for c in self.coords.iter().flatten() {
            c.each_var(&mut mark);
        }
        self.vars = all
            .iter()
            .zip(&used)
            .filter(|(_, &u)| u)
            .map(|(v, _)| v.clone())
            .collect();
        if used.iter().all(|u| *u) {
            return self;
        }
        let mut next = 0;
        let map: Vec<Option<usize>> = used
            .iter()
            .map(|&u| {
                u.then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect();
        self.address = self.address.renumbered(&map);
        self.guards = self.guards.iter().map(|g| g.renumbered(&map)).collect();
        self.coords = self
            .coords
            .as_ref()
            .map(|cs| cs.iter().map(|c| c.renumbered(&map)).collect());
        self
    }

    /// The thread variables, as a mask of variable indices.
    pub fn thread_mask(&self) -> u64 {
        self.vars
            .iter()
            .enumerate()
            .filter(|(_, v)| matches!(v.kind, VarKind::Thread(_)))
            .fold(0u64, |m, (i, _)| m | 1u64 << i.min(63))
    }

    /// Sets the thread variables in `values` to the coordinates of the thread with
    /// linear id `linear` in the block.
    pub fn bind_thread(&self, values: &mut [i64], linear: u64) {
        let (x, y, z) = self.block.coords(linear);
        for (i, v) in self.vars.iter().enumerate() {
            if let (VarKind::Thread(axis), Some(slot)) = (&v.kind, values.get_mut(i)) {
                *slot = match axis {
                    Axis::X => x,
                    Axis::Y => y,
                    Axis::Z => z,
                };
            }
        }
    }

    /// Whether a lane with these variables' values takes part: every guard holds, a
    /// guard that cannot be evaluated counting as true, as in the bank model.
    pub fn guards_hold(&self, values: &[i64]) -> bool {
        self.guards
            .iter()
            .all(|g| g.eval(values).is_none_or(|v| v != 0))
    }

    /// Every variable's value for each lane of warp `warp` (`None`: the lane is outside
    /// the block or a guard excludes it), the non-thread variables at `fixed` (by name)
    /// or, when it omits them, at the first value enumeration tries. A guard that cannot
    /// be evaluated is taken as true, as the bank model does. `None` when the warp size
    /// is beyond any GPU's or the lane ids overflow.
    ///
    /// What explanations and bank maps evaluate: one instruction of the access.
    pub fn warp_lane_values(&self, warp: u64, fixed: &[(String, i64)]) -> Option<LaneValues> {
        let mut values: Vec<i64> = self
            .vars
            .iter()
            .map(|v| {
                fixed
                    .iter()
                    .find(|(n, _)| *n == v.name)
                    .map_or_else(|| v.kind.first_value(), |&(_, x)| x)
            })
            .collect();
        let ws = u64::from(self.warp_size.max(1));
        if ws > 1024 {
            return None;
        }
        let threads = self.block.threads();
        let mut lanes = Vec::with_capacity(ws as usize);
        for lane in 0..ws {
            let linear = warp.checked_mul(ws)?.checked_add(lane)?;
            if linear >= threads {
                lanes.push(None);
                continue;
            }
            self.bind_thread(&mut values, linear);
            lanes.push(self.guards_hold(&values).then(|| values.clone()));
        }
        Some(lanes)
    }
}

/// The variables' values of each lane of one warp, `None` for an inactive lane
/// ([`LoweredAccess::warp_lane_values`]).
pub type LaneValues = Vec<Option<Vec<i64>>>;

impl VarKind {
    /// The first value enumeration tries for a variable of this kind: the low end of a
    /// uniform's known range, else 0.
    pub fn first_value(&self) -> i64 {
        match self {
            VarKind::Uniform {
                range: Some((lo, _)),
            } => *lo,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BinOp, Expr, LoopValue};

    /// `x < n && y < m` is two guards; `10 / x > 1 && x > 0` stays one, since split its
    /// second half would switch off the lane at `x = 0` that the failing whole keeps on.
    #[test]
    fn conjunctions_split_where_the_left_side_cannot_fail() {
        let v = Expr::Var;
        let lt = |a, b| Expr::bin(BinOp::Lt, a, b);
        let both = Expr::bin(BinOp::LogicAnd, lt(v(0), v(1)), lt(v(2), v(3)));
        let mut out = Vec::new();
        both.split_conjuncts(&mut out);
        assert_eq!(out, vec![lt(v(0), v(1)), lt(v(2), v(3))]);

        let quotient = Expr::bin(BinOp::Div, Expr::Const(10), v(0));
        let failing = Expr::bin(
            BinOp::LogicAnd,
            Expr::bin(BinOp::Gt, quotient, Expr::Const(1)),
            Expr::bin(BinOp::Gt, v(0), Expr::Const(0)),
        );
        let mut out = Vec::new();
        failing.split_conjuncts(&mut out);
        assert_eq!(out, vec![failing.clone()]);
        let whole_holds = failing.eval(&[0]).is_none_or(|r| r != 0);
        let parts_hold = out.iter().all(|g| g.eval(&[0]).is_none_or(|r| r != 0));
        assert_eq!(whole_holds, parts_hold);
        assert!(!Expr::bin(BinOp::Shr, v(0), Expr::Const(3)).can_fail());
        assert!(Expr::bin(BinOp::Shl, v(0), v(1)).can_fail());
    }

    #[test]
    fn loop_values_step_add_or_shift() {
        let value = |start, step, shift| LoopValue {
            variable: "s".into(),
            start,
            step,
            shift,
        };
        assert_eq!(value(1, 1, true).at(2), Some(4));
        assert_eq!(value(128, -1, true).at(3), Some(16));
        assert_eq!(value(3, 4, false).at(2), Some(11));
        assert_eq!(value(1, 1, true).at(70), None);
    }
}
