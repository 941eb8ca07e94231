//! The constant-stride analysis: accesses whose lanes sit at `base + S * lane` in every
//! warp, counted by closed formulas instead of enumeration (docs: bank-model.md §1, the
//! `s[t * S]` row: conflict factor gcd(S, 32) for 4-byte words and 32 banks).
//!
//! The address is split symbolically into a part linear in the thread coordinates with
//! constant coefficients and a warp-uniform rest; with the block shape this gives the lane
//! stride `S`. A uniform value multiplying the lane, or any non-linear use of a thread
//! coordinate, makes the access non-constant-stride and the analysis returns `None`.
//! Every count is exact; where no exact closed form is known, the answer is `None`.

use crate::bank::{BankParams, Wavefronts};
use crate::lower::affine::low_residues;
use crate::model::ir::{Axis, BinOp, Expr, LoweredAccess, UnOp, VarKind};
use crate::model::verdict::{Method, Verdict};

/// Most warps the analysis walks (far beyond any real block).
const MAX_WARPS: u64 = 1 << 16;
/// Most threads whose guards are evaluated to prove they exclude no lane.
const MAX_GUARD_THREADS: u64 = 1 << 16;

/// `c + Σ coef[axis] * thread[axis] + Σ m * uniform_term`.
#[derive(Debug, Clone, Default)]
struct LaneLinear {
    constant: i64,
    coef: [i64; 3],
    uniform: Vec<(i64, Expr)>,
}

impl LaneLinear {
    fn scale(mut self, k: i64) -> Option<LaneLinear> {
        self.constant = self.constant.checked_mul(k)?;
        for c in &mut self.coef {
            *c = c.checked_mul(k)?;
        }
        for (m, _) in &mut self.uniform {
            *m = m.checked_mul(k)?;
        }
        Some(self)
    }

    fn add(mut self, other: LaneLinear) -> Option<LaneLinear> {
        self.constant = self.constant.checked_add(other.constant)?;
        for (c, o) in self.coef.iter_mut().zip(other.coef) {
            *c = c.checked_add(o)?;
        }
        self.uniform.extend(other.uniform);
        Some(self)
    }
}

fn axis_index(axis: Axis) -> usize {
    match axis {
        Axis::X => 0,
        Axis::Y => 1,
        Axis::Z => 2,
    }
}

/// Splits `e` into thread-linear and warp-uniform parts; `None` when a thread coordinate
/// is used other than linearly with a constant coefficient.
fn lane_linear(e: &Expr, access: &LoweredAccess, thread_mask: u64) -> Option<LaneLinear> {
    if e.var_mask() & thread_mask == 0 {
        return Some(match e.as_const() {
            Some(c) => LaneLinear {
                constant: c,
                ..LaneLinear::default()
            },
            None => LaneLinear {
                uniform: vec![(1, e.clone())],
                ..LaneLinear::default()
            },
        });
    }
    match e {
        Expr::Var(i) => match access.vars.get(*i)?.kind {
            VarKind::Thread(axis) => {
                let mut l = LaneLinear::default();
                l.coef[axis_index(axis)] = 1;
                Some(l)
            }
            _ => None,
        },
        Expr::Unary(UnOp::Neg, a) => lane_linear(a, access, thread_mask)?.scale(-1),
        Expr::Binary(BinOp::Add, a, b) => {
            lane_linear(a, access, thread_mask)?.add(lane_linear(b, access, thread_mask)?)
        }
        Expr::Binary(BinOp::Sub, a, b) => lane_linear(a, access, thread_mask)?
            .add(lane_linear(b, access, thread_mask)?.scale(-1)?),
        Expr::Binary(BinOp::Mul, a, b) => match (a.as_const(), b.as_const()) {
            (Some(k), _) => lane_linear(b, access, thread_mask)?.scale(k),
            (_, Some(k)) => lane_linear(a, access, thread_mask)?.scale(k),
            _ => None,
        },
        Expr::Binary(BinOp::Shl, a, b) => {
            let k = b.as_const().filter(|k| (0..62).contains(k))?;
            lane_linear(a, access, thread_mask)?.scale(1i64 << k)
        }
        // Lane/warp decompositions: `t % 32`, `t & 31`, `t / 32`, `t >> 5`. When the
        // quotient `a / m` is the same for every lane of each warp, `a % m` is `a` minus a
        // warp-uniform multiple of `m`, and `a / m` is warp-uniform.
        Expr::Binary(op @ (BinOp::Rem | BinOp::And | BinOp::Div | BinOp::Shr), a, b) => {
            let c = b.as_const()?;
            let m = match op {
                BinOp::Rem | BinOp::Div => c,
                BinOp::And => c.checked_add(1).filter(|m| *m > 0 && m & (m - 1) == 0)?,
                _ => 1i64.checked_shl(u32::try_from(c).ok().filter(|k| *k < 62)?)?,
            };
            if m <= 0 || !quotient_is_warp_uniform(a, m, access, thread_mask) {
                return None;
            }
            let quotient = Expr::bin(BinOp::Div, (**a).clone(), Expr::Const(m));
            match op {
                BinOp::Rem | BinOp::And => {
                    let mut inner = lane_linear(a, access, thread_mask)?;
                    inner.uniform.push((-m, quotient));
                    Some(inner)
                }
                _ => Some(LaneLinear {
                    uniform: vec![(1, quotient)],
                    ..LaneLinear::default()
                }),
            }
        }
        _ => None,
    }
}

/// True when `a` depends on thread coordinates only, is never negative, and `a / m` takes
/// one value across the lanes of each warp (checked on every thread of the block).
fn quotient_is_warp_uniform(a: &Expr, m: i64, access: &LoweredAccess, thread_mask: u64) -> bool {
    if a.var_mask() & !thread_mask != 0 || access.block.threads() > MAX_GUARD_THREADS {
        return false;
    }
    let warp = u64::from(access.warp_size.max(1));
    let mut values = vec![0i64; access.vars.len()];
    let mut current: Option<(u64, i64)> = None;
    for t in 0..access.block.threads() {
        access.bind_thread(&mut values, t);
        let Some(v) = a.eval(&values) else {
            return false;
        };
        if v < 0 {
            return false;
        }
        let q = v / m;
        match current {
            Some((w, q0)) if w == t / warp => {
                if q != q0 {
                    return false;
                }
            }
            _ => current = Some((t / warp, q)),
        }
    }
    true
}

/// The decomposition and the lane stride in bytes under the block shape.
fn decompose(access: &LoweredAccess) -> Option<(LaneLinear, i64)> {
    let lin = lane_linear(&access.address, access, access.thread_mask())?;
    let b = access.block;
    let [ax, ay, az] = lin.coef;
    // Within a warp either only x moves (rows of whole warps, or a 1-D block), or the
    // coefficients follow the linear id `x + y*Dx + z*Dx*Dy`.
    let x_only =
        (b.y <= 1 && b.z <= 1) || (access.warp_size > 0 && b.x.is_multiple_of(access.warp_size));
    let follows_linear_id = (b.y <= 1 || Some(ay) == ax.checked_mul(i64::from(b.x)))
        && (b.z <= 1
            || Some(az)
                == ax
                    .checked_mul(i64::from(b.x))
                    .and_then(|v| v.checked_mul(i64::from(b.y))));
    // Thread coordinates below 2^32 times coefficients must not overflow.
    let small = lin.coef.iter().all(|c| c.unsigned_abs() < 1 << 30);
    (small && (x_only || follows_linear_id)).then_some((lin, ax))
}

/// The byte distance between consecutive lanes of a warp, when the access has one
/// (ignoring guards and the base).
pub fn lane_stride_bytes(access: &LoweredAccess) -> Option<i64> {
    decompose(access).map(|(_, s)| s)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Wavefronts of one phase of `p` lanes at `r + s*i` (`0 <= r < bw`), each lane touching
/// bytes `addr .. addr + w`. Exact closed forms (the bank count need not be a power of two):
///
/// 1. `|s| <= max(w, bw)`: consecutive lanes' words touch or overlap, so the phase covers
///    one run of `n = ⌊(r + |s|(p-1) + w - 1)/bw⌋ + 1` consecutive words: `⌈n / banks⌉`.
///    (Includes `s = 0`, the broadcast.)
/// 2. `|s| > max(w, bw)`, `w <= bw`, each lane inside one word: all words differ. With
///    `L = bw * banks` (one bank line) and `g = gcd(s, L)`, lane `i`'s bank is fixed by
///    `(r + s i) mod L`, periodic in `i` with period `L/g`.
///    - `g >= bw`: the `L/g` residues fall in distinct banks: `⌈p / (L/g)⌉` (for 4-byte
///      words, 32 banks and `p = 32`: `gcd(s/4, 32)`).
///    - `g < bw`, `g` divides `bw` and `L/g` divides `p`: every bank holds `bw/g` residues
///      of `p g / L` lanes each: `p / banks`. Otherwise `None`.
/// 3. `|s| > w > bw`, lanes aligned to the bank width and `s` a multiple of `w`: a lane
///    fills `m = w/bw` consecutive banks of one group of `m` (when `m` divides the bank
///    count), lane `i` at group `(s/w) i mod (banks/m)`: `⌈p / ((banks/m)/gcd(s/w, banks/m))⌉`.
///
/// Returns the wavefronts and `(banks touched, times each)` for the explanation.
#[allow(
    clippy::many_single_char_names,
    reason = "the names are the formula's symbols above"
)]
fn phase_cost(
    r: i64,
    p: u64,
    s: i64,
    w: i64,
    bw: i64,
    banks: i64,
) -> Option<(u64, Option<(u64, u64)>)> {
    if p == 0 {
        return Some((0, None));
    }
    let (r, s) = if s < 0 {
        // The same lanes in reverse order: base at the last lane.
        (
            r.checked_add(s.checked_mul(p as i64 - 1)?)?.rem_euclid(bw),
            s.checked_neg()?,
        )
    } else {
        (r, s)
    };
    let pi = p as i64;
    let ceil = |a: u64, b: u64| a.div_ceil(b.max(1));
    if s <= w.max(bw) {
        let n = (r.checked_add(s.checked_mul(pi - 1)?)?.checked_add(w - 1)?) / bw + 1;
        let count = ceil(n as u64, banks as u64);
        let touched = (n as u64).min(banks as u64);
        return Some((count, Some((touched, count))));
    }
    let line = bw.checked_mul(banks)?;
    if w <= bw {
        let one_word = if s % bw == 0 {
            r + w <= bw
        } else {
            bw % w == 0 && s % w == 0 && r % w == 0
        };
        if !one_word {
            return None;
        }
        let g = gcd(s as u64, line as u64);
        let period = line as u64 / g;
        if g >= bw as u64 {
            return Some((ceil(p, period), Some((p.min(period), ceil(p, period)))));
        }
        if p.is_multiple_of(period) && (bw as u64).is_multiple_of(g) {
            let count = p / banks as u64;
            return Some((count, Some((banks as u64, count))));
        }
        return None;
    }
    if w % bw != 0 || r != 0 || s % w != 0 {
        return None;
    }
    let m = w / bw;
    if banks % m != 0 {
        return None;
    }
    let groups = (banks / m) as u64;
    let k = (s / w) as u64;
    let period = groups / gcd(k, groups);
    Some((
        ceil(p, period),
        Some((p.min(period) * m as u64, ceil(p, period))),
    ))
}

/// The residues modulo `bw` the uniform part can take (a superset), or `None` when the
/// bank width is too large for the residue analysis.
fn uniform_residues(access: &LoweredAccess, lin: &LaneLinear, bw: i64) -> Option<Vec<i64>> {
    if bw > 64 {
        return None;
    }
    let expr = lin
        .uniform
        .iter()
        .fold(Expr::Const(lin.constant), |acc, (m, t)| {
            Expr::bin(
                BinOp::Add,
                acc,
                Expr::bin(BinOp::Mul, Expr::Const(*m), t.clone()),
            )
        });
    let mask = low_residues(&expr, access, bw.trailing_zeros());
    Some((0..bw).filter(|r| mask >> r & 1 == 1).collect())
}

/// True when the guards provably keep every lane of the block active.
fn guards_keep_all_lanes(access: &LoweredAccess) -> bool {
    if access.guards.is_empty() {
        return true;
    }
    let tm = access.thread_mask();
    if access.guards.iter().any(|g| g.var_mask() & !tm != 0)
        || access.block.threads() > MAX_GUARD_THREADS
    {
        return false;
    }
    let mut values = vec![0i64; access.vars.len()];
    (0..access.block.threads()).all(|linear| {
        let (x, y, z) = access.block.coords(linear);
        for (i, v) in access.vars.iter().enumerate() {
            if let VarKind::Thread(axis) = v.kind {
                values[i] = [x, y, z][axis_index(axis)];
            }
        }
        // As in enumeration, a guard that cannot be evaluated keeps the lane.
        access
            .guards
            .iter()
            .all(|g| g.eval(&values).is_none_or(|v| v != 0))
    })
}

/// How the lanes of one phase spread over the banks, for the explanation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PhaseShape {
    lanes: u64,
    banks: u64,
    each: u64,
}

/// A warp's wavefronts and the shape of its first phase.
type WarpCost = (Wavefronts, Option<PhaseShape>);

/// Wavefronts of one warp of `n` active lanes with its first lane at residue `r`.
#[allow(
    clippy::many_single_char_names,
    reason = "the names are phase_cost's symbols"
)]
fn warp_cost(
    access: &LoweredAccess,
    params: &BankParams,
    r: i64,
    n: u64,
    s: i64,
) -> Option<WarpCost> {
    let bw = i64::from(params.bank_width);
    let banks = i64::from(params.bank_count);
    let w = i64::from(access.width);
    let phase = u64::from(params.phase_lanes(access.width));
    let mut total = Wavefronts::default();
    let mut first: Option<PhaseShape> = None;
    let mut start = 0u64;
    while start < n {
        let p = phase.min(n - start);
        let rj = r.checked_add(s.checked_mul(start as i64)?)?.rem_euclid(bw);
        let (count, shape) = phase_cost(rj, p, s, w, bw, banks)?;
        if first.is_none() {
            first = shape.map(|(banks, each)| PhaseShape {
                lanes: p,
                banks,
                each,
            });
        }
        total.wavefronts += count;
        total.ideal += 1;
        start += phase;
    }
    Some((total, first))
}

fn explain(
    step: i64,
    bank_width: i64,
    cost: Wavefronts,
    shape: Option<PhaseShape>,
    phases: bool,
) -> String {
    let stride = if step % bank_width == 0 {
        let words = step / bank_width;
        format!(
            "stride of {words} word{}",
            if words.abs() == 1 { "" } else { "s" }
        )
    } else {
        format!(
            "stride of {step} byte{}",
            if step.abs() == 1 { "" } else { "s" }
        )
    };
    let Some(PhaseShape { lanes, banks, each }) = shape else {
        return format!(
            "{stride}: {} wavefronts for {} phases",
            cost.wavefronts, cost.ideal
        );
    };
    let who = if phases {
        format!("each phase's {lanes} lanes")
    } else {
        format!("the {lanes} lanes")
    };
    format!(
        "{stride}: {who} touch {banks} bank{}, {each} time{} each",
        if banks == 1 { "" } else { "s" },
        if each == 1 { "" } else { "s" }
    )
}

/// The constant-stride verdict of `access`, or `None` when the access is not
/// constant-stride or no exact closed form covers it. Exact whenever it answers.
pub fn stride(access: &LoweredAccess, params: &BankParams) -> Option<Verdict> {
    let bw = i64::from(params.bank_width);
    let banks = i64::from(params.bank_count);
    // The residue analysis of the base needs a power-of-two bank width; the bank count
    // may be anything.
    if !(bw > 0 && banks > 0 && (bw as u64).is_power_of_two()) {
        return None;
    }
    if !(1..=1024).contains(&access.width) || access.atomic || access.warp_size == 0 {
        return None;
    }
    // Variables whose loop never runs or which have no value: nothing executes.
    for (i, v) in access.vars.iter().enumerate() {
        let used = (access.address.var_mask()
            | access.guards.iter().fold(0, |m, g| m | g.var_mask()))
            >> i.min(63)
            & 1
            == 1;
        let empty = match v.kind {
            VarKind::Counter { trips: Some(0) } => true,
            VarKind::Uniform {
                range: Some((lo, hi)),
            } => lo > hi,
            _ => false,
        };
        if used && empty {
            return None;
        }
    }
    let (lin, step) = decompose(access)?;
    if !guards_keep_all_lanes(access) {
        return None;
    }
    let threads = access.block.threads();
    let ws = u64::from(access.warp_size);
    let n_warps = threads.div_ceil(ws);
    if threads == 0 || n_warps > MAX_WARPS {
        return None;
    }
    let uniform = uniform_residues(access, &lin, bw)?;
    let mut worst: Option<(WarpCost, u64)> = None;
    for warp in 0..n_warps {
        let first = warp * ws;
        let active = ws.min(threads - first);
        let coords = access.block.coords(first);
        let t0 = lin.coef[0]
            .checked_mul(coords.0)?
            .checked_add(lin.coef[1].checked_mul(coords.1)?)?
            .checked_add(lin.coef[2].checked_mul(coords.2)?)?;
        // Every possible residue of the base must give the same count, or the worst case
        // would rest on which residues really occur.
        let mut this: Option<WarpCost> = None;
        for &residue in &uniform {
            let first_lane = t0.wrapping_add(residue).rem_euclid(bw);
            let cost = warp_cost(access, params, first_lane, active, step)?;
            match &this {
                Some(prev) if prev.0 != cost.0 => return None,
                Some(_) => {}
                None => this = Some(cost),
            }
        }
        let (cost, shape) = this?;
        if worst
            .as_ref()
            .is_none_or(|((w, _), _)| cost.is_worse_than(w))
        {
            worst = Some(((cost, shape), warp));
        }
    }
    let ((cost, shape), warp) = worst?;
    let phases = u64::from(params.phase_lanes(access.width)) < ws.min(threads);
    Some(Verdict {
        cost: Some(cost),
        reason: None,
        method: Method::Stride,
        exact: true,
        explanation: Some(explain(step, bw, cost, shape, phases)),
        depends_on: Vec::new(),
        notes: Vec::new(),
        worst_warp: warp,
        worst_case: Vec::new(),
        lower_bound: false,
        condition: None,
        condition_names_shapes: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::enumerate::{enumerate, Budget};
    use crate::model::ir::{BlockShape, VarInfo};

    fn access(address: Expr, width: u32, block: BlockShape) -> LoweredAccess {
        LoweredAccess {
            vars: vec![
                VarInfo {
                    name: "threadIdx.x".to_string(),
                    kind: VarKind::Thread(Axis::X),
                    loop_value: None,
                },
                VarInfo {
                    name: "threadIdx.y".to_string(),
                    kind: VarKind::Thread(Axis::Y),
                    loop_value: None,
                },
                VarInfo {
                    name: "k".to_string(),
                    kind: VarKind::Counter { trips: Some(5) },
                    loop_value: None,
                },
                VarInfo {
                    name: "stride".to_string(),
                    kind: VarKind::Uniform { range: None },
                    loop_value: None,
                },
            ],
            address,
            width,
            atomic: false,
            guards: Vec::new(),
            block,
            warp_size: 32,
            coords: None,
            extents: Vec::new(),
        }
    }
    fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::bin(op, a, b)
    }
    fn c(v: i64) -> Expr {
        Expr::Const(v)
    }
    fn block(x: u32, y: u32) -> BlockShape {
        BlockShape { x, y, z: 1 }
    }

    fn gcd_brute(words: u64) -> u64 {
        (1..=32)
            .rev()
            .find(|g| words.is_multiple_of(*g) && 32 % g == 0)
            .unwrap_or(1)
    }

    #[test]
    fn word_stride_factor_is_gcd() {
        let params = BankParams::default();
        for words in 1..=64i64 {
            let acc = access(
                bin(BinOp::Mul, Expr::Var(0), c(4 * words)),
                4,
                block(128, 1),
            );
            let verdict = stride(&acc, &params).expect("constant stride");
            let g = gcd_brute(words as u64);
            let expected = Wavefronts {
                wavefronts: g,
                ideal: 1,
            };
            assert_eq!(verdict.cost, Some(expected), "stride {words}");
            let text = verdict.explanation.unwrap_or_default();
            let banks = 32 / g;
            let plural = if banks == 1 { "" } else { "s" };
            let expected_text = format!("the 32 lanes touch {banks} bank{plural}, {g} time");
            assert!(text.contains(&expected_text), "{text}");
            let oracle = enumerate(&acc, &params, Budget::default()).cost;
            assert_eq!(verdict.cost, oracle, "stride {words}");
        }
    }

    #[test]
    fn stride_32_explanation() {
        let p = BankParams::default();
        let a = access(bin(BinOp::Mul, Expr::Var(0), c(128)), 4, block(32, 1));
        let v = stride(&a, &p).and_then(|v| v.explanation);
        assert_eq!(
            v.as_deref(),
            Some("stride of 32 words: the 32 lanes touch 1 bank, 32 times each")
        );
    }

    #[test]
    fn wide_and_sub_word_strides_match_enumeration() {
        let p = BankParams::default();
        for w in [1u32, 2, 4, 8, 16] {
            for k in 0..70i64 {
                let a = access(
                    bin(BinOp::Mul, Expr::Var(0), c(k * i64::from(w))),
                    w,
                    block(64, 1),
                );
                if let Some(v) = stride(&a, &p) {
                    assert_eq!(
                        v.cost,
                        enumerate(&a, &p, Budget::default()).cost,
                        "w {w} k {k}"
                    );
                } else {
                    assert!(
                        w < 4,
                        "4-byte and wider element strides always have a closed form (w {w} k {k})"
                    );
                }
            }
        }
    }

    #[test]
    fn double_and_float4_phases() {
        let p = BankParams::default();
        let d = access(bin(BinOp::Mul, Expr::Var(0), c(8)), 8, block(32, 1));
        assert_eq!(
            stride(&d, &p).and_then(|v| v.cost),
            Some(Wavefronts {
                wavefronts: 2,
                ideal: 2
            })
        );
        let f4 = access(bin(BinOp::Mul, Expr::Var(0), c(16)), 16, block(32, 1));
        assert_eq!(
            stride(&f4, &p).and_then(|v| v.cost),
            Some(Wavefronts {
                wavefronts: 4,
                ideal: 4
            })
        );
        // double at a 2-element stride: each half-warp hits 8 bank pairs twice.
        let d2 = access(bin(BinOp::Mul, Expr::Var(0), c(16)), 8, block(32, 1));
        assert_eq!(
            stride(&d2, &p).and_then(|v| v.cost),
            Some(Wavefronts {
                wavefronts: 4,
                ideal: 2
            })
        );
    }

    #[test]
    fn two_dimensional_blocks_follow_the_linear_id() {
        let p = BankParams::default();
        // s[ty*16 + tx] with blockDim (16, 8): stride 1 word across the warp.
        let idx = bin(
            BinOp::Add,
            bin(BinOp::Mul, Expr::Var(1), c(16)),
            Expr::Var(0),
        );
        let a = access(bin(BinOp::Mul, idx, c(4)), 4, block(16, 8));
        assert_eq!(lane_stride_bytes(&a), Some(4));
        assert_eq!(
            stride(&a, &p).and_then(|v| v.cost),
            Some(Wavefronts {
                wavefronts: 1,
                ideal: 1
            })
        );
        // s[ty*17 + tx]: not one stride across the warp.
        let idx = bin(
            BinOp::Add,
            bin(BinOp::Mul, Expr::Var(1), c(17)),
            Expr::Var(0),
        );
        assert!(stride(&access(bin(BinOp::Mul, idx, c(4)), 4, block(16, 8)), &p).is_none());
    }

    #[test]
    fn negative_strides_match_enumeration() {
        let params = BankParams::default();
        for words in 1..=40i64 {
            // s[(63 - t) * words]: lanes walk down.
            let idx = bin(BinOp::Sub, c(63), Expr::Var(0));
            let acc = access(bin(BinOp::Mul, idx, c(4 * words)), 4, block(64, 1));
            assert_eq!(lane_stride_bytes(&acc), Some(-4 * words));
            let verdict = stride(&acc, &params).and_then(|v| v.cost);
            assert!(verdict.is_some(), "stride -{words}");
            assert_eq!(
                verdict,
                enumerate(&acc, &params, Budget::default()).cost,
                "stride -{words}"
            );
        }
    }

    #[test]
    fn uniform_multiplying_the_lane_is_not_constant_stride() {
        let p = BankParams::default();
        let a = access(
            bin(
                BinOp::Mul,
                bin(BinOp::Mul, Expr::Var(0), Expr::Var(3)),
                c(4),
            ),
            4,
            block(32, 1),
        );
        assert!(stride(&a, &p).is_none());
        assert_eq!(lane_stride_bytes(&a), None);
        // A uniform base is fine: s[tid*2 + 32*k] (floats).
        let idx = bin(
            BinOp::Add,
            bin(BinOp::Mul, Expr::Var(0), c(2)),
            bin(BinOp::Mul, Expr::Var(2), c(32)),
        );
        let a = access(bin(BinOp::Mul, idx, c(4)), 4, block(32, 1));
        assert_eq!(
            stride(&a, &p).and_then(|v| v.cost),
            Some(Wavefronts {
                wavefronts: 2,
                ideal: 1
            })
        );
    }
}
