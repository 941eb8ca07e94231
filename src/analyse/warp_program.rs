//! An expression evaluated for a whole warp at once, for enumeration.
//!
//! Enumeration evaluates the same guards and address for every lane of every warp and
//! every combination of values. Lane by lane, each operator costs a dispatch per lane;
//! here each operator runs once over up to 64 lanes in a tight loop, and the
//! subexpressions without a thread variable (the combination's values) are computed
//! once per call. The result is what [`Expr::eval`] gives for each lane, C semantics
//! included: a lane fails on a division by zero or an out-of-range shift only where C
//! evaluates that operand (the taken side of `?:`, the right side of `&&` only when the
//! left is true, of `||` only when it is false). `tests/enumeration_oracle.rs` checks it
//! against the tree evaluator, lane by lane.

use crate::model::ir::{BinOp, Expr, UnOp};

/// Most lanes one call evaluates: failures are kept in a `u64` mask.
pub const MAX_LANES: usize = 64;

#[derive(Debug, Clone, Copy)]
enum Node {
    Const(i64),
    /// A variable with one value for every lane.
    Uniform(usize),
    /// A thread variable: `k`-th per-lane input.
    Lane(usize),
    Unary(UnOp, usize),
    Binary(BinOp, usize, usize),
    Select(usize, usize, usize),
}

/// What a node's value depends on, which says when it is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// No thread variable: one value per combination of values, for every lane.
    Uniform,
    /// Thread variables and constants only: the same in every combination, computed once
    /// per chunk of lanes.
    Lane,
    /// Both: computed on every call.
    Mixed,
}

/// A flattened [`Expr`] over lanes; nodes are in evaluation order (operands first).
#[derive(Debug, Clone)]
pub struct WarpProgram {
    nodes: Vec<Node>,
    class: Vec<Class>,
    /// Per node: no variable below it.
    constant: Vec<bool>,
    /// Uniform nodes read by a lane node (constants) or a mixed node: broadcast to
    /// every lane before those run.
    broadcast: Vec<usize>,
}

/// Registers and caches of one program, reused across calls.
#[derive(Debug, Default)]
pub struct Scratch {
    regs: Vec<i64>,
    failed: Vec<u64>,
    /// Uniform nodes' values (`None`: failed) for the combination numbered `combo`.
    uniform: Vec<Option<i64>>,
    combo: Option<u64>,
    /// Per chunk of lanes: the lane nodes' registers and failures.
    chunks: Vec<Option<(Vec<i64>, Vec<u64>)>>,
    /// The combination and lane count whose uniform values `regs` holds broadcast: the
    /// other warps of a combination read the same, and mixed nodes never write them.
    broadcast: Option<(u64, usize)>,
}

impl WarpProgram {
    /// Flattens `e`; `lane_vars[k]` is the variable index read from the `k`-th per-lane
    /// input at evaluation (the thread variables).
    pub fn new(e: &Expr, lane_vars: &[usize]) -> WarpProgram {
        let mut p = WarpProgram {
            nodes: Vec::new(),
            class: Vec::new(),
            constant: Vec::new(),
            broadcast: Vec::new(),
        };
        p.emit(e, lane_vars);
        for (d, node) in p.nodes.iter().enumerate() {
            if p.class[d] == Class::Uniform {
                continue;
            }
            for o in operands(node) {
                if p.class[o] == Class::Uniform && !p.broadcast.contains(&o) {
                    p.broadcast.push(o);
                }
            }
        }
        p
    }

    fn push(&mut self, node: Node) -> usize {
        let class = match node {
            Node::Const(_) | Node::Uniform(_) => Class::Uniform,
            Node::Lane(_) => Class::Lane,
            _ => {
                let (mut lane, mut uniform_var) = (false, false);
                for o in operands(&node) {
                    match self.class[o] {
                        Class::Mixed => return self.push_as(node, Class::Mixed),
                        Class::Lane => lane = true,
                        Class::Uniform => uniform_var |= !self.constant[o],
                    }
                }
                match (lane, uniform_var) {
                    (false, _) => Class::Uniform,
                    (true, false) => Class::Lane,
                    (true, true) => Class::Mixed,
                }
            }
        };
        self.push_as(node, class)
    }

    fn push_as(&mut self, node: Node, class: Class) -> usize {
        let constant = match node {
            Node::Const(_) => true,
            Node::Uniform(_) | Node::Lane(_) => false,
            ref n => operands(n).all(|o| self.constant[o]),
        };
        self.nodes.push(node);
        self.class.push(class);
        self.constant.push(constant);
        self.nodes.len() - 1
    }

    fn emit(&mut self, e: &Expr, lane_vars: &[usize]) -> usize {
        let node = match e {
            Expr::Const(c) => Node::Const(*c),
            Expr::Var(i) => match lane_vars.iter().position(|v| v == i) {
                Some(k) => Node::Lane(k),
                None => Node::Uniform(*i),
            },
            Expr::Unary(op, a) => Node::Unary(*op, self.emit(a, lane_vars)),
            Expr::Binary(op, a, b) => {
                let a = self.emit(a, lane_vars);
                Node::Binary(*op, a, self.emit(b, lane_vars))
            }
            Expr::Select(c, t, f) => {
                let c = self.emit(c, lane_vars);
                let t = self.emit(t, lane_vars);
                Node::Select(c, t, self.emit(f, lane_vars))
            }
        };
        self.push(node)
    }

    /// Evaluates `n` lanes (at most [`MAX_LANES`]): `values` holds the uniform variables,
    /// `lanes[k]` the `n` values of the `k`-th thread variable. Returns each lane's value
    /// and the mask of lanes whose evaluation failed (their value is meaningless).
    ///
    /// `chunk` names the lanes and `combo` the values: a caller passes the same `lanes`
    /// whenever it passes the same `chunk`, and the same `values` for the same `combo`, so
    /// that what depends on one of them only is computed once.
    pub fn eval<'s>(
        &self,
        values: &[i64],
        lanes: &[&[i64]],
        n: usize,
        (chunk, combo): (usize, u64),
        scratch: &'s mut Scratch,
    ) -> (&'s [i64], u64) {
        let n = n.min(MAX_LANES);
        let all: u64 = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let size = self.nodes.len() * n;
        if scratch.combo != Some(combo) || scratch.uniform.len() != self.nodes.len() {
            self.uniforms(values, &mut scratch.uniform);
            scratch.combo = Some(combo);
        }
        if scratch.chunks.len() <= chunk {
            scratch.chunks.resize_with(chunk + 1, || None);
        }
        if scratch.chunks[chunk]
            .as_ref()
            .is_none_or(|(r, _)| r.len() != size)
        {
            let mut regs = vec![0; size];
            let mut failed = vec![0; self.nodes.len()];
            self.fill_broadcasts(&scratch.uniform, n, all, &mut regs, &mut failed);
            for d in (0..self.nodes.len()).filter(|&d| self.class[d] == Class::Lane) {
                let (done, rest) = regs.split_at_mut(d * n);
                failed[d] = lane_node(self.nodes[d], done, &failed, lanes, &mut rest[..n], all);
            }
            scratch.chunks[chunk] = Some((regs, failed));
        }
        let Some((lane_regs, lane_failed)) = scratch.chunks[chunk].as_ref() else {
            return (&[], all);
        };
        let root = self.nodes.len().saturating_sub(1);
        match self.class.get(root) {
            None => return (&[], all),
            Some(Class::Lane) => return (&lane_regs[root * n..(root + 1) * n], lane_failed[root]),
            _ => {}
        }
        scratch.regs.resize(size.max(scratch.regs.len()), 0);
        scratch
            .failed
            .resize(self.nodes.len().max(scratch.failed.len()), 0);
        let (regs, failed) = (&mut scratch.regs[..size], &mut scratch.failed);
        if scratch.broadcast != Some((combo, n)) {
            self.fill_broadcasts(&scratch.uniform, n, all, regs, failed);
            scratch.broadcast = Some((combo, n));
        }
        if self.class[root] == Class::Uniform {
            let v = scratch.uniform[root];
            regs[root * n..(root + 1) * n].fill(v.unwrap_or(0));
            return (
                &regs[root * n..(root + 1) * n],
                if v.is_some() { 0 } else { all },
            );
        }
        for d in (0..self.nodes.len()).filter(|&d| self.class[d] == Class::Mixed) {
            let (done, rest) = regs.split_at_mut(d * n);
            let out = &mut rest[..n];
            // Operands: lane nodes from the chunk's cache, the others from this call.
            let reg = |i: usize| {
                if self.class[i] == Class::Lane {
                    &lane_regs[i * n..(i + 1) * n]
                } else {
                    &done[i * n..(i + 1) * n]
                }
            };
            let fail = |i: usize| {
                if self.class[i] == Class::Lane {
                    lane_failed[i]
                } else {
                    failed[i]
                }
            };
            failed[d] = compute(self.nodes[d], reg, fail, out, all);
        }
        (&regs[root * n..(root + 1) * n], failed[root])
    }

    /// The value of every uniform node for `values` (`None` where it fails).
    fn uniforms(&self, values: &[i64], out: &mut Vec<Option<i64>>) {
        out.clear();
        out.resize(self.nodes.len(), None);
        for (d, node) in self.nodes.iter().enumerate() {
            if self.class[d] != Class::Uniform {
                continue;
            }
            let v = |i: usize| out[i];
            out[d] = match *node {
                Node::Const(c) => Some(c),
                Node::Uniform(i) => values.get(i).copied(),
                Node::Lane(_) => None,
                Node::Unary(op, a) => v(a).map(|x| op.apply(x)),
                Node::Binary(op, a, b) => v(a).and_then(|x| match op {
                    // C evaluates the right side only when it decides.
                    BinOp::LogicAnd if x == 0 => Some(0),
                    BinOp::LogicOr if x != 0 => Some(1),
                    _ => op.apply(x, v(b)?),
                }),
                Node::Select(c, t, e) => v(c).and_then(|c| v(if c != 0 { t } else { e })),
            };
        }
    }

    /// Writes the uniform nodes that lane or mixed nodes read into every lane.
    fn fill_broadcasts(
        &self,
        uniform: &[Option<i64>],
        n: usize,
        all: u64,
        regs: &mut [i64],
        failed: &mut [u64],
    ) {
        for &u in &self.broadcast {
            regs[u * n..(u + 1) * n].fill(uniform[u].unwrap_or(0));
            failed[u] = if uniform[u].is_some() { 0 } else { all };
        }
    }
}

/// The nodes a node reads.
fn operands(node: &Node) -> impl Iterator<Item = usize> {
    let (a, b, c) = match *node {
        Node::Const(_) | Node::Uniform(_) | Node::Lane(_) => (None, None, None),
        Node::Unary(_, a) => (Some(a), None, None),
        Node::Binary(_, a, b) => (Some(a), Some(b), None),
        Node::Select(c, t, e) => (Some(c), Some(t), Some(e)),
    };
    a.into_iter().chain(b).chain(c)
}

/// Computes a lane node from registers computed before it (`done`, node-major).
fn lane_node(
    node: Node,
    done: &[i64],
    failed: &[u64],
    lanes: &[&[i64]],
    out: &mut [i64],
    all: u64,
) -> u64 {
    let n = out.len();
    if let Node::Lane(k) = node {
        return match lanes.get(k).and_then(|l| l.get(..n)) {
            Some(l) => {
                out.copy_from_slice(l);
                0
            }
            None => all,
        };
    }
    compute(node, |i| &done[i * n..(i + 1) * n], |i| failed[i], out, all)
}

/// Computes an operator node over lanes from its operands' registers and failures.
fn compute<'r>(
    node: Node,
    reg: impl Fn(usize) -> &'r [i64],
    fail: impl Fn(usize) -> u64,
    out: &mut [i64],
    all: u64,
) -> u64 {
    let f = match node {
        Node::Const(_) | Node::Uniform(_) | Node::Lane(_) => 0,
        Node::Unary(op, a) => {
            for (o, &x) in out.iter_mut().zip(reg(a)) {
                *o = op.apply(x);
            }
            fail(a)
        }
        Node::Binary(op, a, b) => {
            binary(op, reg(a), reg(b), out)
                | match op {
                    // The right side counts only where C evaluates it.
                    BinOp::LogicAnd => fail(a) | fail(b) & truth(reg(a)),
                    BinOp::LogicOr => fail(a) | fail(b) & !truth(reg(a)),
                    _ => fail(a) | fail(b),
                }
        }
        Node::Select(c, t, e) => {
            let cond = truth(reg(c));
            let (t_reg, e_reg) = (reg(t), reg(e));
            for (l, o) in out.iter_mut().enumerate() {
                *o = if cond >> l & 1 == 1 {
                    t_reg[l]
                } else {
                    e_reg[l]
                };
            }
            fail(c) | fail(t) & cond | fail(e) & !cond
        }
    };
    f & all
}

/// The lanes whose value is non-zero.
fn truth(v: &[i64]) -> u64 {
    v.iter()
        .enumerate()
        .fold(0, |m, (l, &x)| m | u64::from(x != 0) << l)
}

/// `out[l] = a[l] op b[l]`; returns the lanes where the operation itself fails. The
/// common operators cannot fail and run as plain loops.
fn binary(op: BinOp, a: &[i64], b: &[i64], out: &mut [i64]) -> u64 {
    fn each(a: &[i64], b: &[i64], out: &mut [i64], f: impl Fn(i64, i64) -> i64) -> u64 {
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            *o = f(x, y);
        }
        0
    }
    match op {
        BinOp::Add => each(a, b, out, i64::wrapping_add),
        BinOp::Sub => each(a, b, out, i64::wrapping_sub),
        BinOp::Mul => each(a, b, out, i64::wrapping_mul),
        BinOp::And => each(a, b, out, |x, y| x & y),
        BinOp::Or => each(a, b, out, |x, y| x | y),
        BinOp::Xor => each(a, b, out, |x, y| x ^ y),
        BinOp::Lt => each(a, b, out, |x, y| i64::from(x < y)),
        BinOp::Le => each(a, b, out, |x, y| i64::from(x <= y)),
        BinOp::Gt => each(a, b, out, |x, y| i64::from(x > y)),
        BinOp::Ge => each(a, b, out, |x, y| i64::from(x >= y)),
        BinOp::Eq => each(a, b, out, |x, y| i64::from(x == y)),
        BinOp::Ne => each(a, b, out, |x, y| i64::from(x != y)),
        BinOp::Min => each(a, b, out, i64::min),
        BinOp::Max => each(a, b, out, i64::max),
        BinOp::LogicAnd => each(a, b, out, |x, y| i64::from(x != 0 && y != 0)),
        BinOp::LogicOr => each(a, b, out, |x, y| i64::from(x != 0 || y != 0)),
        BinOp::Div => fallible(a, b, out, i64::checked_div),
        BinOp::Rem => fallible(a, b, out, i64::checked_rem),
        BinOp::Shl => fallible(a, b, out, |x, y| BinOp::Shl.apply(x, y)),
        BinOp::Shr => fallible(a, b, out, |x, y| BinOp::Shr.apply(x, y)),
    }
}

/// `out[l] = f(a[l], b[l])` for an operation that can fail (`None`): returns the lanes
/// where it did (their value 0). One loop per operator, so that `f` is inlined.
#[inline]
fn fallible(a: &[i64], b: &[i64], out: &mut [i64], f: impl Fn(i64, i64) -> Option<i64>) -> u64 {
    let mut failed = 0u64;
    for (l, ((o, &x), &y)) in out.iter_mut().zip(a).zip(b).enumerate() {
        *o = f(x, y).unwrap_or_else(|| {
            failed |= 1 << l;
            0
        });
    }
    failed
}
