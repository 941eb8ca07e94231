//! F2 affine forms of index expressions: every bit of a value as an XOR of input bits
//! plus a constant (docs: design-notes "Lowering to F2: bits as affine forms").
//!
//! The input bits are the lane-id bits of a warp, the warp-index bits and the bits of
//! loop counters with power-of-two trip counts. A value is a 64-bit two's-complement
//! word of [`AffineBit`]s. The translation is exact for XOR, AND/OR/NOT with constant
//! masks, shifts by constants, multiplication and division by constants that do not
//! carry, `% 2^k`, and `+`, `|`, `-` of operands whose possibly-set bits cannot meet
//! (then they are XOR). Anything else that depends on the lane is rejected with a
//! reason; anything that does not depend on the lane becomes an opaque, warp-uniform
//! constant, which is exact because a constant XORed into every lane's address cannot
//! change a bank count. This module knows nothing of banks; it depends only on the IR.

use crate::model::ir::{Axis, BinOp, BlockShape, Expr, LoweredAccess, UnOp, VarKind};

/// The constant part of one bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BitConst {
    Zero,
    One,
    /// The same for every lane of one warp in one iteration, value unknown.
    Uniform,
}

/// One bit of a value: the XOR of the input bits in `inputs` and `constant`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AffineBit {
    pub inputs: u64,
    pub constant: BitConst,
}

impl AffineBit {
    pub const ZERO: AffineBit = AffineBit {
        inputs: 0,
        constant: BitConst::Zero,
    };
    pub const ONE: AffineBit = AffineBit {
        inputs: 0,
        constant: BitConst::One,
    };
    pub const UNIFORM: AffineBit = AffineBit {
        inputs: 0,
        constant: BitConst::Uniform,
    };

    /// The bit of input `i`.
    pub fn input(i: u32) -> AffineBit {
        AffineBit {
            inputs: 1u64 << i,
            constant: BitConst::Zero,
        }
    }

    /// False only when the bit is known to be zero.
    pub fn may_be_one(self) -> bool {
        self.inputs != 0 || self.constant != BitConst::Zero
    }

    /// The bit's value when it is a known constant.
    pub fn known(self) -> Option<bool> {
        match (self.inputs, self.constant) {
            (0, BitConst::Zero) => Some(false),
            (0, BitConst::One) => Some(true),
            _ => None,
        }
    }

    /// Sum over F2.
    #[must_use]
    pub fn xor(self, other: AffineBit) -> AffineBit {
        let constant = match (self.constant, other.constant) {
            (BitConst::Uniform, _) | (_, BitConst::Uniform) => BitConst::Uniform,
            (a, b) if a == b => BitConst::Zero,
            _ => BitConst::One,
        };
        AffineBit {
            inputs: self.inputs ^ other.inputs,
            constant,
        }
    }

    fn not(self) -> AffineBit {
        self.xor(AffineBit::ONE)
    }
}

/// A 64-bit two's-complement value, bit `i` in `bits[i]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AffineForm {
    pub bits: [AffineBit; 64],
}

impl AffineForm {
    /// The constant `c`.
    pub fn constant(c: i64) -> AffineForm {
        let mut bits = [AffineBit::ZERO; 64];
        for (i, bit) in bits.iter_mut().enumerate() {
            if (c >> i) & 1 == 1 {
                *bit = AffineBit::ONE;
            }
        }
        AffineForm { bits }
    }

    /// An unknown warp-uniform value below `2^len` (`len >= 64`: any value).
    pub fn uniform_below(len: u32) -> AffineForm {
        let mut bits = [AffineBit::ZERO; 64];
        for bit in bits.iter_mut().take(len as usize) {
            *bit = AffineBit::UNIFORM;
        }
        AffineForm { bits }
    }

    /// The value when every bit is a known constant.
    pub fn known(&self) -> Option<i64> {
        let mut v = 0i64;
        for (i, b) in self.bits.iter().enumerate() {
            if b.known()? {
                v |= 1i64 << i;
            }
        }
        Some(v)
    }

    /// Bits that may be one.
    pub fn may_mask(&self) -> u64 {
        self.bits
            .iter()
            .enumerate()
            .filter(|(_, b)| b.may_be_one())
            .fold(0, |m, (i, _)| m | 1u64 << i)
    }

    /// Bits known to be one.
    pub fn ones_mask(&self) -> u64 {
        self.bits
            .iter()
            .enumerate()
            .filter(|(_, b)| b.known() == Some(true))
            .fold(0, |m, (i, _)| m | 1u64 << i)
    }

    /// The union of the input bits any bit depends on.
    pub fn inputs(&self) -> u64 {
        self.bits.iter().fold(0, |m, b| m | b.inputs)
    }

    /// True when the value cannot be negative.
    pub fn non_negative(&self) -> bool {
        self.bits[63].known() == Some(false)
    }

    /// Number of low bits that can be set (64 when the value may be negative).
    fn bit_len(&self) -> u32 {
        if self.non_negative() {
            64 - self.may_mask().leading_zeros()
        } else {
            64
        }
    }

    /// The value for concrete input bits (`None` when a uniform constant is involved).
    pub fn evaluate(&self, input_values: u64) -> Option<i64> {
        let mut v = 0i64;
        for (i, b) in self.bits.iter().enumerate() {
            let c = match b.constant {
                BitConst::Zero => false,
                BitConst::One => true,
                BitConst::Uniform => return None,
            };
            if c ^ ((b.inputs & input_values).count_ones() % 2 == 1) {
                v |= 1i64 << i;
            }
        }
        Some(v)
    }

    fn map2(
        &self,
        other: &AffineForm,
        f: impl Fn(AffineBit, AffineBit) -> Option<AffineBit>,
    ) -> Option<AffineForm> {
        let mut bits = [AffineBit::ZERO; 64];
        for (i, bit) in bits.iter_mut().enumerate() {
            *bit = f(self.bits[i], other.bits[i])?;
        }
        Some(AffineForm { bits })
    }

    fn xor(&self, other: &AffineForm) -> AffineForm {
        let mut bits = self.bits;
        for (bit, o) in bits.iter_mut().zip(other.bits.iter()) {
            *bit = bit.xor(*o);
        }
        AffineForm { bits }
    }

    fn not(&self) -> AffineForm {
        let mut bits = self.bits;
        for bit in &mut bits {
            *bit = bit.not();
        }
        AffineForm { bits }
    }

    fn shl(&self, k: u32) -> AffineForm {
        let k = (k as usize).min(64);
        let mut bits = [AffineBit::ZERO; 64];
        bits[k..].copy_from_slice(&self.bits[..64 - k]);
        AffineForm { bits }
    }

    /// Arithmetic shift right: the sign bit fills the top.
    fn shr(&self, k: u32) -> AffineForm {
        let k = (k as usize).min(64);
        let mut bits = [self.bits[63]; 64];
        bits[..64 - k].copy_from_slice(&self.bits[k..]);
        AffineForm { bits }
    }

    fn low_bits(&self, k: u32) -> AffineForm {
        let mut bits = [AffineBit::ZERO; 64];
        bits[..k as usize].copy_from_slice(&self.bits[..k as usize]);
        AffineForm { bits }
    }
}

/// The role of an input bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputRole {
    /// A bit of the lane id within the warp.
    Lane,
    /// A bit of the warp index within the block.
    Warp,
    /// A bit of a loop counter with a power-of-two trip count.
    Counter,
}

/// What an input bit stands for, for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputBit {
    pub role: InputRole,
    /// The variable's source name (`threadIdx.x`, `k`), or `warp`.
    pub name: String,
    /// The bit of that variable.
    pub bit: u32,
}

/// The bit view of one access's variables: the input bits and each variable's form.
#[derive(Debug, Clone)]
pub struct BitContext {
    /// Meaning of input bit `i`; lane bits come first (input `i < lane_bits` is lane-id bit `i`).
    pub inputs: Vec<InputBit>,
    /// Lane-id bits that vary within a warp: `log2` of the lanes that exist in every warp.
    pub lane_bits: u32,
    /// False when the block shape does not split the lanes into bits; then `lane_bits` is
    /// meaningless and no count may rest on it.
    pub lanes_are_bits: bool,
    /// The form of each variable of the access, or why it has none.
    var_forms: Vec<Result<AffineForm, String>>,
}

impl BitContext {
    /// Mask of the lane input bits.
    pub fn lane_mask(&self) -> u64 {
        if self.lane_bits >= 64 {
            u64::MAX
        } else {
            (1u64 << self.lane_bits) - 1
        }
    }
}

fn log2_exact(n: u64) -> Option<u32> {
    n.is_power_of_two().then(|| n.trailing_zeros())
}

fn bits_for(max_value: u64) -> u32 {
    64 - max_value.leading_zeros()
}

/// The name to print for a thread axis: the access's own variable name when it has one.
fn axis_name(access: &LoweredAccess, axis: Axis) -> String {
    access
        .vars
        .iter()
        .find(|v| v.kind == VarKind::Thread(axis))
        .map_or_else(
            || format!("threadIdx.{}", format!("{axis:?}").to_lowercase()),
            |v| v.name.clone(),
        )
}

/// How the lanes of a warp decompose into bits under `block`.
enum ThreadBits {
    /// Every dimension a power of two: linear-id bit `j` is lane bit `j` below the lane
    /// bits, warp bit `j - lane_bits` above.
    PowerOfTwo {
        log: [u32; 3],
        lane_bits: u32,
        warp_bits: u32,
    },
    /// `blockDim.x` a multiple of the warp size: a warp lies in one row, `x`'s low bits are
    /// the lane and everything else is uniform within the warp.
    RowAligned {
        lane_bits: u32,
        dims: [u32; 3],
    },
    Unsupported,
}

fn thread_bits(block: BlockShape, warp_size: u32) -> ThreadBits {
    let Some(lw) = log2_exact(u64::from(warp_size)) else {
        return ThreadBits::Unsupported;
    };
    let dims = [block.x, block.y, block.z];
    if let (Some(lx), Some(ly), Some(lz)) = (
        log2_exact(u64::from(block.x)),
        log2_exact(u64::from(block.y)),
        log2_exact(u64::from(block.z)),
    ) {
        let total = lx + ly + lz;
        if total > 40 {
            return ThreadBits::Unsupported;
        }
        let lane_bits = total.min(lw);
        return ThreadBits::PowerOfTwo {
            log: [lx, ly, lz],
            lane_bits,
            warp_bits: total - lane_bits,
        };
    }
    if block.x > 0 && block.y > 0 && block.z > 0 && block.x.is_multiple_of(warp_size) {
        return ThreadBits::RowAligned {
            lane_bits: lw,
            dims,
        };
    }
    ThreadBits::Unsupported
}

/// Builds the input bits and variable forms of `access`. Never fails: a variable that has
/// no exact bit view gets an error that surfaces only when an expression uses it.
pub fn bit_context(access: &LoweredAccess) -> BitContext {
    let tb = thread_bits(access.block, access.warp_size);
    let mut inputs = Vec::new();
    let lane_bits = match tb {
        ThreadBits::PowerOfTwo { lane_bits, .. } | ThreadBits::RowAligned { lane_bits, .. } => {
            lane_bits
        }
        ThreadBits::Unsupported => 0,
    };
    // Lane bits: named after the thread coordinate bit they are.
    let axis_of_linear_bit = |j: u32, log: [u32; 3]| -> (Axis, u32) {
        if j < log[0] {
            (Axis::X, j)
        } else if j < log[0] + log[1] {
            (Axis::Y, j - log[0])
        } else {
            (Axis::Z, j - log[0] - log[1])
        }
    };
    match tb {
        ThreadBits::PowerOfTwo {
            log,
            lane_bits,
            warp_bits,
        } => {
            for j in 0..lane_bits {
                let (axis, bit) = axis_of_linear_bit(j, log);
                inputs.push(InputBit {
                    role: InputRole::Lane,
                    name: axis_name(access, axis),
                    bit,
                });
            }
            for j in 0..warp_bits {
                inputs.push(InputBit {
                    role: InputRole::Warp,
                    name: "warp".to_string(),
                    bit: j,
                });
            }
        }
        ThreadBits::RowAligned { lane_bits, .. } => {
            for j in 0..lane_bits {
                inputs.push(InputBit {
                    role: InputRole::Lane,
                    name: axis_name(access, Axis::X),
                    bit: j,
                });
            }
        }
        ThreadBits::Unsupported => {}
    }
    let mut var_forms = Vec::with_capacity(access.vars.len());
    for var in &access.vars {
        let form = match &var.kind {
            VarKind::Thread(axis) => thread_form(*axis, &tb, &inputs),
            VarKind::Counter { trips: Some(0) } => {
                Err(format!("the loop over `{}` never runs", var.name))
            }
            VarKind::Counter { trips: Some(t) } => match log2_exact(*t) {
                Some(k) if inputs.len() + k as usize <= 64 => {
                    let first = inputs.len() as u32;
                    let mut form = AffineForm::constant(0);
                    for b in 0..k {
                        inputs.push(InputBit {
                            role: InputRole::Counter,
                            name: var.name.clone(),
                            bit: b,
                        });
                        form.bits[b as usize] = AffineBit::input(first + b);
                    }
                    Ok(form)
                }
                Some(_) => Err("too many input bits".to_string()),
                None => Ok(AffineForm::uniform_below(bits_for(t - 1))),
            },
            VarKind::Uniform {
                range: Some((lo, hi)),
            } => {
                if lo > hi {
                    Err(format!("`{}` has no possible value", var.name))
                } else if lo == hi {
                    Ok(AffineForm::constant(*lo))
                } else if *lo >= 0 {
                    Ok(AffineForm::uniform_below(bits_for(*hi as u64)))
                } else {
                    Ok(AffineForm::uniform_below(64))
                }
            }
            VarKind::Uniform { range: None } | VarKind::Counter { trips: None } => {
                Ok(AffineForm::uniform_below(64))
            }
            VarKind::Line { span } => Ok(AffineForm::uniform_below(*span)),
        };
        var_forms.push(form);
    }
    let lanes_are_bits = !matches!(tb, ThreadBits::Unsupported);
    BitContext {
        inputs,
        lane_bits,
        lanes_are_bits,
        var_forms,
    }
}

fn thread_form(axis: Axis, tb: &ThreadBits, inputs: &[InputBit]) -> Result<AffineForm, String> {
    let index = match axis {
        Axis::X => 0,
        Axis::Y => 1,
        Axis::Z => 2,
    };
    let mut form = AffineForm::constant(0);
    match *tb {
        ThreadBits::PowerOfTwo { log, lane_bits, .. } => {
            let start: u32 = log[..index].iter().sum();
            for b in 0..log[index] {
                // Linear-id bit `start + b`: a lane bit, or a warp bit above the lanes.
                // (Lane inputs come first, then the warp inputs, so the index is `j` itself.)
                let j = start + b;
                debug_assert!(
                    (j as usize) < inputs.len()
                        && (j < lane_bits) == (inputs[j as usize].role == InputRole::Lane)
                );
                form.bits[b as usize] = AffineBit::input(j);
            }
        }
        ThreadBits::RowAligned { lane_bits, dims } => {
            let len = bits_for(u64::from(dims[index].saturating_sub(1)));
            for b in 0..len {
                form.bits[b as usize] = if index == 0 && b < lane_bits {
                    AffineBit::input(b)
                } else {
                    AffineBit::UNIFORM
                };
            }
        }
        ThreadBits::Unsupported => {
            return Err(
                "the block shape does not split the lanes into bits (a dimension is not a power \
                        of two and blockDim.x is not a multiple of the warp size)"
                    .to_string(),
            )
        }
    }
    Ok(form)
}

/// The form of `expr` under `ctx`, or why it is not F2-affine in the lane bits.
pub fn affine_form(expr: &Expr, ctx: &BitContext) -> Result<AffineForm, String> {
    let lanes = ctx.lane_mask();
    let lane_free = |f: &AffineForm| f.inputs() & lanes == 0;
    match expr {
        Expr::Const(c) => Ok(AffineForm::constant(*c)),
        Expr::Var(i) => match ctx.var_forms.get(*i) {
            Some(Ok(f)) => Ok(f.clone()),
            Some(Err(e)) => Err(e.clone()),
            None => Err("unknown variable".to_string()),
        },
        Expr::Unary(op, a) => {
            let a = affine_form(a, ctx)?;
            if let Some(v) = a.known() {
                return Ok(AffineForm::constant(
                    Expr::Unary(*op, Box::new(Expr::Const(v)))
                        .eval(&[])
                        .unwrap_or(0),
                ));
            }
            match op {
                UnOp::BitNot => Ok(a.not()),
                // -a = ~a + 1, exact when the +1 cannot carry.
                UnOp::Neg => add(&a.not(), &AffineForm::constant(1)).or_else(|e| {
                    if lane_free(&a) {
                        Ok(AffineForm::uniform_below(64))
                    } else {
                        Err(e)
                    }
                }),
                UnOp::LogicNot if lane_free(&a) => Ok(AffineForm::uniform_below(1)),
                UnOp::LogicNot => Err("`!` of a lane-dependent value".to_string()),
            }
        }
        Expr::Binary(op, a, b) => {
            let a = affine_form(a, ctx)?;
            let b = affine_form(b, ctx)?;
            if let (Some(x), Some(y)) = (a.known(), b.known()) {
                return Expr::bin(*op, Expr::Const(x), Expr::Const(y))
                    .eval(&[])
                    .map(AffineForm::constant)
                    .ok_or_else(|| "division by zero or a bad shift in a constant".to_string());
            }
            let exact = binary(*op, &a, &b);
            match exact {
                Ok(f) => Ok(f),
                Err(e) if lane_free(&a) && lane_free(&b) => uniform_result(*op, &a, &b).ok_or(e),
                Err(e) => Err(e),
            }
        }
        Expr::Select(c, t, e) => {
            let c = affine_form(c, ctx)?;
            let t = affine_form(t, ctx)?;
            let e = affine_form(e, ctx)?;
            match c.known() {
                Some(0) => Ok(e),
                Some(_) => Ok(t),
                None if lane_free(&c) && lane_free(&t) && lane_free(&e) => {
                    Ok(AffineForm::uniform_below(t.bit_len().max(e.bit_len())))
                }
                None => Err("a lane-dependent `?:`".to_string()),
            }
        }
    }
}

/// `a + b`, exact as XOR when no bit can be one in both.
fn add(a: &AffineForm, b: &AffineForm) -> Result<AffineForm, String> {
    if a.may_mask() & b.may_mask() == 0 {
        Ok(a.xor(b))
    } else {
        Err("`+` of values whose bits may overlap (carries)".to_string())
    }
}

/// `a * c` for a constant `c >= 0`, as a sum of shifts that must not carry.
fn mul_const(a: &AffineForm, c: i64) -> Result<AffineForm, String> {
    if c < 0 {
        return Err(format!("multiplication by the negative constant {c}"));
    }
    let mut acc = AffineForm::constant(0);
    for k in 0..63 {
        if (c >> k) & 1 == 1 {
            acc = add(&acc, &a.shl(k)).map_err(|_| format!("multiplication by {c} carries"))?;
        }
    }
    Ok(acc)
}

fn shift_amount(b: &AffineForm) -> Option<u32> {
    b.known().filter(|k| (0..63).contains(k)).map(|k| k as u32)
}

fn binary(op: BinOp, a: &AffineForm, b: &AffineForm) -> Result<AffineForm, String> {
    match op {
        BinOp::Xor => Ok(a.xor(b)),
        BinOp::Add => add(a, b),
        BinOp::Or => a
            .map2(b, |x, y| match (x.known(), y.known()) {
                (Some(true), _) | (_, Some(true)) => Some(AffineBit::ONE),
                (Some(false), _) => Some(y),
                (_, Some(false)) => Some(x),
                _ if x.inputs == 0 && y.inputs == 0 => Some(AffineBit::UNIFORM),
                _ => None,
            })
            .ok_or_else(|| "`|` of two variable bits".to_string()),
        BinOp::And => a
            .map2(b, |x, y| match (x.known(), y.known()) {
                (Some(false), _) | (_, Some(false)) => Some(AffineBit::ZERO),
                (Some(true), _) => Some(y),
                (_, Some(true)) => Some(x),
                _ if x.inputs == 0 && y.inputs == 0 => Some(AffineBit::UNIFORM),
                _ => None,
            })
            .ok_or_else(|| "`&` of two variable bits".to_string()),
        BinOp::Sub => {
            // a - b is a ^ b when every bit b may set is a known one in a (no borrow).
            if b.may_mask() & !a.ones_mask() == 0 {
                Ok(a.xor(b))
            } else {
                Err("`-` that may borrow".to_string())
            }
        }
        BinOp::Mul => match (a.known(), b.known()) {
            (Some(c), _) => mul_const(b, c),
            (_, Some(c)) => mul_const(a, c),
            _ => Err("product of two variable values".to_string()),
        },
        BinOp::Shl => shift_amount(b)
            .map(|k| a.shl(k))
            .ok_or_else(|| "shift by a variable amount".to_string()),
        BinOp::Shr => shift_amount(b)
            .map(|k| a.shr(k))
            .ok_or_else(|| "shift by a variable amount".to_string()),
        BinOp::Div => match b.known() {
            Some(1) => Ok(a.clone()),
            Some(d) if d > 0 && (d as u64).is_power_of_two() && a.non_negative() => {
                Ok(a.shr(d.trailing_zeros()))
            }
            _ => Err("division that is not by a power of two of a non-negative value".to_string()),
        },
        BinOp::Rem => match b.known() {
            Some(d) if d > 0 && (d as u64).is_power_of_two() && a.non_negative() => {
                Ok(a.low_bits(d.trailing_zeros()))
            }
            Some(d)
                if d > 0
                    && a.non_negative()
                    && (a.bit_len() >= 64 || (1u64 << a.bit_len()) <= d as u64) =>
            {
                Ok(a.clone())
            }
            _ => Err("`%` that is not by a power of two of a non-negative value".to_string()),
        },
        _ => Err(format!("{op:?} of a lane-dependent value")),
    }
}

/// The result of a non-linear operation on warp-uniform operands: a uniform constant
/// with a bound on its bits. `None` when the operation may fail to evaluate.
fn uniform_result(op: BinOp, a: &AffineForm, b: &AffineForm) -> Option<AffineForm> {
    let (la, lb) = (a.bit_len(), b.bit_len());
    let nonneg = a.non_negative() && b.non_negative();
    let len = match op {
        // A divisor that may be zero would make evaluation fail.
        BinOp::Div | BinOp::Rem if b.ones_mask() == 0 => return None,
        BinOp::Shl | BinOp::Shr => return None,
        BinOp::Lt
        | BinOp::Le
        | BinOp::Gt
        | BinOp::Ge
        | BinOp::Eq
        | BinOp::Ne
        | BinOp::LogicAnd
        | BinOp::LogicOr => 1,
        _ if !nonneg => 64,
        BinOp::Add => la.max(lb) + 1,
        BinOp::Mul => la + lb,
        BinOp::Div => la,
        BinOp::Rem | BinOp::And => la.min(lb),
        BinOp::Or | BinOp::Xor | BinOp::Min | BinOp::Max => la.max(lb),
        BinOp::Sub => 64,
    };
    Some(AffineForm::uniform_below(len))
}

/// The residues modulo `2^log_m` (`log_m <= 6`) that `expr` can take, as a bit mask
/// (bit `r` set when residue `r` is possible); a superset, exact for `+`, `-`, `*`, `<<`
/// and bitwise operators, which only look at low bits. Other operators and thread
/// variables give every residue.
pub fn low_residues(expr: &Expr, access: &LoweredAccess, log_m: u32) -> u64 {
    let log_m = log_m.min(6);
    let m = 1i64 << log_m;
    let all = if log_m == 6 {
        u64::MAX
    } else {
        (1u64 << m) - 1
    };
    let range = |lo: i64, hi: i64| -> u64 {
        if hi < lo {
            0
        } else if hi.saturating_sub(lo) >= m - 1 {
            all
        } else {
            (lo..=hi).fold(0u64, |acc, v| acc | 1u64 << v.rem_euclid(m))
        }
    };
    let combine = |a: u64, b: u64, f: &dyn Fn(i64, i64) -> Option<i64>| -> u64 {
        let mut out = 0u64;
        for x in (0..m).filter(|x| a >> x & 1 == 1) {
            for y in (0..m).filter(|y| b >> y & 1 == 1) {
                match f(x, y) {
                    Some(v) => out |= 1u64 << v.rem_euclid(m),
                    None => return all,
                }
            }
        }
        out
    };
    match expr {
        Expr::Const(c) => 1u64 << c.rem_euclid(m),
        Expr::Var(i) => match access.vars.get(*i).map(|v| &v.kind) {
            Some(VarKind::Counter { trips: Some(t) }) => range(0, (*t as i64).saturating_sub(1)),
            Some(VarKind::Uniform {
                range: Some((lo, hi)),
            }) => range(*lo, *hi),
            _ => all,
        },
        Expr::Unary(op, a) => {
            let a = low_residues(a, access, log_m);
            match op {
                UnOp::Neg => combine(a, 1, &|x, _| Some(x.wrapping_neg())),
                UnOp::BitNot => combine(a, 1, &|x, _| Some(!x)),
                UnOp::LogicNot => all,
            }
        }
        Expr::Binary(op, a, b) => {
            let shift = if matches!(op, BinOp::Shl) {
                b.as_const()
            } else {
                None
            };
            let (a, b) = (
                low_residues(a, access, log_m),
                low_residues(b, access, log_m),
            );
            match op {
                BinOp::Add => combine(a, b, &|x, y| Some(x + y)),
                BinOp::Sub => combine(a, b, &|x, y| Some(x - y)),
                BinOp::Mul => combine(a, b, &|x, y| Some(x * y)),
                BinOp::Xor => combine(a, b, &|x, y| Some(x ^ y)),
                BinOp::And => combine(a, b, &|x, y| Some(x & y)),
                BinOp::Or => combine(a, b, &|x, y| Some(x | y)),
                BinOp::Shl => match shift {
                    Some(k) if (0..63).contains(&k) => {
                        combine(a, 1, &|x, _| Some(x.wrapping_shl(k as u32)))
                    }
                    _ => all,
                },
                _ => all,
            }
        }
        Expr::Select(..) => all,
    }
}

/// An access's byte address as an affine form in the input bits.
#[derive(Debug, Clone)]
pub struct LinearAddress {
    pub address: AffineForm,
    pub ctx: BitContext,
}

/// Lowers the whole byte address of `access`.
pub fn lower_affine(access: &LoweredAccess) -> Result<LinearAddress, String> {
    let ctx = bit_context(access);
    let address = affine_form(&access.address, &ctx)?;
    Ok(LinearAddress { address, ctx })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::VarInfo;

    fn access(address: Expr, vars: Vec<VarInfo>, block: BlockShape) -> LoweredAccess {
        LoweredAccess {
            vars,
            address,
            width: 4,
            atomic: false,
            guards: Vec::new(),
            block,
            warp_size: 32,
            coords: None,
            extents: Vec::new(),
        }
    }

    fn t() -> Expr {
        Expr::Var(0)
    }
    fn c(v: i64) -> Expr {
        Expr::Const(v)
    }
    fn tid() -> VarInfo {
        VarInfo {
            name: "threadIdx.x".to_string(),
            kind: VarKind::Thread(Axis::X),
            loop_value: None,
        }
    }
    fn block(x: u32) -> BlockShape {
        BlockShape { x, y: 1, z: 1 }
    }

    #[test]
    fn transpose_offset_is_linear_and_matches_evaluation() {
        // 32*(t%16) + ((2r + t/16) ^ (2*(t%16))), r a counter of 16 trips.
        let m = Expr::bin(BinOp::Rem, t(), c(16));
        let n = Expr::bin(
            BinOp::Add,
            Expr::bin(BinOp::Mul, c(2), Expr::Var(1)),
            Expr::bin(BinOp::Div, t(), c(16)),
        );
        let off = Expr::bin(
            BinOp::Add,
            Expr::bin(BinOp::Mul, c(32), m.clone()),
            Expr::bin(BinOp::Xor, n, Expr::bin(BinOp::Mul, c(2), m)),
        );
        let addr = Expr::bin(BinOp::Mul, off, c(4));
        let vars = vec![
            tid(),
            VarInfo {
                name: "r".to_string(),
                kind: VarKind::Counter { trips: Some(16) },
                loop_value: None,
            },
        ];
        let acc = access(addr.clone(), vars.clone(), block(32));
        let lin = lower_affine(&acc).expect("linear");
        // 5 lane bits, 4 counter bits.
        assert_eq!(lin.ctx.inputs.len(), 9);
        for tv in 0..32i64 {
            for r in 0..16i64 {
                let inputs = (tv as u64) | ((r as u64) << 5);
                assert_eq!(
                    lin.address.evaluate(inputs),
                    addr.eval(&[tv, r]),
                    "t={tv} r={r}"
                );
            }
        }
        // With 64 threads, t/16 has two bits and `2r + t/16` carries.
        let err = lower_affine(&access(addr, vars, block(64))).expect_err("carries");
        assert!(err.contains("overlap"), "{err}");
    }

    #[test]
    fn carries_are_rejected_with_a_reason() {
        // 33*t carries for t < 64 (bit 5 of t meets bit 0 of 32t... of t<<5).
        let acc = access(Expr::bin(BinOp::Mul, t(), c(33)), vec![tid()], block(64));
        let err = lower_affine(&acc).expect_err("not linear");
        assert!(err.contains("carries"), "{err}");
        // With t < 32 the same product does not carry.
        let acc = access(Expr::bin(BinOp::Mul, t(), c(33)), vec![tid()], block(32));
        let lin = lower_affine(&acc).expect("linear");
        for tv in 0..32 {
            assert_eq!(lin.address.evaluate(tv as u64), Some(33 * tv));
        }
    }

    #[test]
    fn uniform_values_become_uniform_bits() {
        let vars = vec![
            tid(),
            VarInfo {
                name: "u".to_string(),
                kind: VarKind::Uniform { range: None },
                loop_value: None,
            },
        ];
        // t + 64*(u*u) cannot carry into t's bits... but u*u may be negative: overlap.
        let acc = access(
            Expr::bin(
                BinOp::Add,
                t(),
                Expr::bin(BinOp::Mul, Expr::Var(1), Expr::Var(1)),
            ),
            vars.clone(),
            block(32),
        );
        assert!(lower_affine(&acc).is_err());
        let vars = vec![
            tid(),
            VarInfo {
                name: "u".to_string(),
                kind: VarKind::Uniform {
                    range: Some((0, 7)),
                },
                loop_value: None,
            },
        ];
        let acc = access(
            Expr::bin(
                BinOp::Add,
                t(),
                Expr::bin(
                    BinOp::Shl,
                    Expr::bin(BinOp::Mul, Expr::Var(1), Expr::Var(1)),
                    c(5),
                ),
            ),
            vars,
            block(32),
        );
        let lin = lower_affine(&acc).expect("linear");
        assert_eq!(lin.address.bits[5].constant, BitConst::Uniform);
        assert_eq!(lin.address.bits[0].inputs, 1);
    }

    #[test]
    fn row_aligned_blocks_use_uniform_upper_bits() {
        let acc = access(t(), vec![tid()], BlockShape { x: 96, y: 3, z: 1 });
        let lin = lower_affine(&acc).expect("linear");
        assert_eq!(lin.ctx.lane_bits, 5);
        assert_eq!(lin.address.bits[5].constant, BitConst::Uniform);
        let acc = access(t(), vec![tid()], BlockShape { x: 48, y: 1, z: 1 });
        assert!(lower_affine(&acc).is_err());
    }
}
