//! The F2 analysis: wavefronts of an access whose byte address is F2-affine in the lane
//! bits, by the exact form of Lemma 9.4 (docs: swizzle-algorithm.md §2.4).
//!
//! The address is lowered by [`crate::lower::affine`]; each lane bit's image in the
//! address space gives a subspace, and one subspace intersection counts the wavefronts of
//! a phase. The result is exact (never a bound): when an access is not affine, or its
//! lanes are not aligned to the access width, or it is guarded or atomic, the analysis
//! returns `None` and enumeration decides.

use crate::bank::{BankParams, Wavefronts};
use crate::f2::{BitMatrix, Subspace};
use crate::lower::affine::{
    affine_form, bit_context, low_residues, AffineForm, BitContext, InputRole,
};
use crate::model::ir::{BinOp, Expr, LoweredAccess, VarKind};
use crate::model::verdict::{Method, Verdict};

/// The outcome of the F2 count for one access.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinearCost {
    /// Wavefronts of every warp (all warps and iterations cost the same).
    pub cost: Wavefronts,
    /// `log2` of the wavefronts of one phase.
    pub conflict_bits: u32,
    /// Lanes per phase.
    pub phase_lanes: u64,
    /// Lane-bit combinations (masks over lane bits) that change the word but not the bank,
    /// as many as `conflict_bits`.
    pub colliding: Vec<u64>,
}

fn log2_exact(n: u64) -> Option<u32> {
    n.is_power_of_two().then(|| n.trailing_zeros())
}

fn sum_terms(terms: &[(&Expr, bool)]) -> Expr {
    terms.iter().fold(Expr::Const(0), |acc, (t, neg)| {
        if matches!(acc, Expr::Const(0)) && !neg {
            (*t).clone()
        } else {
            Expr::bin(
                if *neg { BinOp::Sub } else { BinOp::Add },
                acc,
                (*t).clone(),
            )
        }
    })
}

/// The address form used for counting.
///
/// Additive terms that do not involve a thread variable are the same for every lane:
/// adding `u` to every address renames the banks (word `w` goes to `w + u/bw`) when `u`
/// is a multiple of the bank width, so only `u mod bw` matters. When the low bits of that
/// shift take a single residue, the count uses the lane terms plus that residue; otherwise
/// the whole address is lowered.
fn counting_form(
    access: &LoweredAccess,
    ctx: &BitContext,
    log_bw: u32,
) -> Result<AffineForm, String> {
    let thread_mask = access
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| matches!(v.kind, VarKind::Thread(_)))
        .fold(0u64, |m, (i, _)| m | 1u64 << i.min(63));
    let mut terms = Vec::new();
    access.address.additive_terms(false, &mut terms);
    let (lane_terms, shift_terms): (Vec<_>, Vec<_>) = terms
        .into_iter()
        .partition(|(t, _)| t.var_mask() & thread_mask != 0);
    if !shift_terms.is_empty() && log_bw <= 6 {
        let residues = low_residues(&sum_terms(&shift_terms), access, log_bw);
        if residues.is_power_of_two() {
            let residue = i64::from(residues.trailing_zeros());
            let peeled = Expr::bin(BinOp::Add, sum_terms(&lane_terms), Expr::Const(residue));
            if let Ok(form) = affine_form(&peeled, ctx) {
                return Ok(form);
            }
        }
    }
    affine_form(&access.address, ctx)
}

/// Counts the wavefronts of `access` from its F2-affine address (Lemma 9.4, exact form).
///
/// Work in the byte-address space, bit `j` = address bit `j`. With `T` the span of the
/// images of the lane bits of one phase (the low `log2(phase lanes)` lane bits; the top
/// lane bits select the phase), `Vk` the word bits inside one lane's own access (address
/// bits `log2 bw .. log2 W`), `Sub` the byte bits inside a word (below `log2 bw`) and
/// `Seg` the address bits above the bank bits (from `log2 bw + log2 banks`), every phase
/// costs exactly `2^c` wavefronts with
///
/// `c = dim((T + Vk + Sub) ∩ (Seg + Sub)) - dim(Sub)`.
///
/// Why exact: the words a phase touches are `π(a0 + T + Vk)` (π drops the byte bits), a
/// coset of `X = π(T + Vk)`; the words of one bank form a coset of `X ∩ π(Seg)`, so every
/// bank that is hit holds exactly `|X ∩ π(Seg)|` distinct words, and that dimension is
/// `c`. The constant `a0` (the phase-select lane bits, the warp bits, counter bits and
/// any uniform constant XORed in) only picks the coset, so it never changes the count:
/// every warp and every iteration costs the same, and the worst case is any of them.
///
/// Requires: powers of two for the bank count and width, the warp size and `W`; the
/// address bits below `log2 W` constant zero (each lane's access aligned); no guards.
pub fn linear_cost(access: &LoweredAccess, params: &BankParams) -> Result<LinearCost, String> {
    if access.atomic {
        return Err("atomics are counted per lane, not per word".to_string());
    }
    if !access.guards.is_empty() {
        return Err("guarded access".to_string());
    }
    let (Some(log_bw), Some(log_b), Some(log_w), Some(_)) = (
        log2_exact(u64::from(params.bank_width)),
        log2_exact(u64::from(params.bank_count)),
        log2_exact(u64::from(access.width)),
        log2_exact(u64::from(access.warp_size)),
    ) else {
        return Err("bank geometry, warp size or access width is not a power of two".to_string());
    };
    if access.block.threads() == 0 {
        return Err("empty thread block".to_string());
    }
    if log_bw + log_b >= 63 || log_w >= 63 {
        return Err("bank geometry too large".to_string());
    }
    if log_w > log_bw + log_b {
        // One lane would wrap around the banks on its own; the index view below assumes
        // a lane's own words lie in distinct banks.
        return Err("one lane's access is wider than a bank line".to_string());
    }
    let ctx = bit_context(access);
    if !ctx.lanes_are_bits {
        return Err("the block shape does not split the lanes of a warp into bits".to_string());
    }
    let form = counting_form(access, &ctx, log_bw)?;
    if form.bits[..log_w as usize]
        .iter()
        .any(|b| b.known() != Some(false))
    {
        return Err("lanes are not aligned to the access width".to_string());
    }
    let phase = u64::from(params.phase_lanes(access.width));
    let log_phase =
        log2_exact(phase).ok_or_else(|| "phase size is not a power of two".to_string())?;
    let lane_bits = ctx.lane_bits;
    let phase_bits = lane_bits.min(log_phase);
    let n_phases = 1u64 << (lane_bits - phase_bits);

    // Images of the phase's lane bits in the address space.
    let images: Vec<u64> = (0..phase_bits)
        .map(|i| {
            form.bits
                .iter()
                .enumerate()
                .filter(|(_, b)| b.inputs >> i & 1 == 1)
                .fold(0u64, |m, (j, _)| m | 1u64 << j)
        })
        .collect();
    let range = |lo: u32, hi: u32| -> u64 { (lo..hi.min(64)).fold(0u64, |m, j| m | 1u64 << j) };
    let units = |mask: u64| {
        (0..64)
            .filter(move |j| mask >> j & 1 == 1)
            .map(|j| 1u64 << j)
    };
    let sub_mask = range(0, log_bw);
    let vk_mask = if log_w > log_bw {
        range(log_bw, log_w)
    } else {
        0
    };
    let seg_mask = range(log_bw + log_b, 64);
    let sub = Subspace::span(units(sub_mask));
    let lanes_side = Subspace::span(
        images
            .iter()
            .copied()
            .chain(units(vk_mask))
            .chain(units(sub_mask)),
    );
    let seg_side = Subspace::span(units(seg_mask).chain(units(sub_mask)));
    // Sub lies in both sides, so the intersection contains it.
    let c = lanes_side
        .intersection(&seg_side)
        .dim()
        .saturating_sub(sub.dim()) as u32;

    // The same count in the index view (design-notes): lane directions that leave the
    // bank bits outside the lane's own words unchanged but change a segment bit.
    let bank_rest = range(log_bw.max(log_w), log_bw + log_b);
    let lanes = BitMatrix::from_columns(images.clone());
    let same_bank = lanes.mask_outputs(bank_rest).kernel();
    let candidates = (0..phase_bits)
        .map(|i| 1u64 << i)
        .filter(|&u| lanes.apply(u) & bank_rest == 0)
        .chain(same_bank);
    let mut seg_images = Subspace::zero();
    let colliding: Vec<u64> = candidates
        .filter(|&d| seg_images.insert(lanes.apply(d) & seg_mask))
        .collect();
    debug_assert_eq!(
        colliding.len() as u32,
        c,
        "index view and Lemma 9.4 disagree"
    );

    let per_phase = 1u64
        .checked_shl(c)
        .ok_or_else(|| "too many conflict bits".to_string())?;
    Ok(LinearCost {
        cost: Wavefronts {
            wavefronts: n_phases * per_phase,
            ideal: n_phases,
        },
        conflict_bits: c,
        phase_lanes: 1u64 << phase_bits,
        colliding,
    })
}

/// Names the lane bits of `direction` (`threadIdx.x bits 0-3`, `threadIdx.x bit 0 ^ threadIdx.y bit 1`).
fn name_direction(direction: u64, ctx: &BitContext) -> Vec<(String, u32)> {
    (0..64u32)
        .filter(|i| direction >> i & 1 == 1)
        .filter_map(|i| ctx.inputs.get(i as usize))
        .filter(|b| b.role == InputRole::Lane)
        .map(|b| (b.name.clone(), b.bit))
        .collect()
}

/// Renders colliding directions: single bits grouped into ranges per variable, others as XORs.
pub(crate) fn describe_directions(directions: &[u64], ctx: &BitContext) -> (String, bool) {
    let mut singles: Vec<(String, u32)> = Vec::new();
    let mut combos: Vec<String> = Vec::new();
    for &d in directions {
        let named = name_direction(d, ctx);
        if let [one] = named.as_slice() {
            singles.push(one.clone());
        } else {
            combos.push(
                named
                    .iter()
                    .map(|(n, b)| format!("{n} bit {b}"))
                    .collect::<Vec<_>>()
                    .join(" ^ "),
            );
        }
    }
    singles.sort();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < singles.len() {
        let name = &singles[i].0;
        let mut j = i;
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        while j < singles.len() && &singles[j].0 == name {
            let b = singles[j].1;
            match ranges.last_mut() {
                Some(r) if r.1 + 1 == b => r.1 = b,
                _ => ranges.push((b, b)),
            }
            j += 1;
        }
        let bits: Vec<String> = ranges
            .iter()
            .map(|&(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                }
            })
            .collect();
        let plural = ranges.len() > 1 || ranges.iter().any(|&(a, b)| a != b);
        parts.push(format!(
            "{name} {} {}",
            if plural { "bits" } else { "bit" },
            bits.join(", ")
        ));
        i = j;
    }
    parts.extend(combos);
    let plural = directions.len() > 1;
    (parts.join(" and "), plural)
}

/// The F2 verdict of `access`, or `None` when the address is not F2-affine in the lane bits
/// (or the access is atomic or guarded). Exact whenever it answers.
pub fn linear(access: &LoweredAccess, params: &BankParams) -> Option<Verdict> {
    let result = linear_cost(access, params).ok()?;
    let ctx = bit_context(access);
    let scope = if result.cost.ideal > 1 {
        format!("per phase of {} lanes", result.phase_lanes)
    } else {
        "per warp".to_string()
    };
    let explanation = if result.colliding.is_empty() {
        format!("no lane bit changes the word without changing the bank: 1 wavefront {scope}")
    } else {
        let (names, plural) = describe_directions(&result.colliding, &ctx);
        format!(
            "{names} {} the word but not the bank: {} wavefronts {scope}",
            if plural { "change" } else { "changes" },
            1u64 << result.conflict_bits
        )
    };
    Some(Verdict {
        cost: Some(result.cost),
        reason: None,
        method: Method::F2,
        exact: true,
        explanation: Some(explanation),
        depends_on: Vec::new(),
        notes: Vec::new(),
        worst_warp: 0,
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
    use crate::model::ir::{Axis, BlockShape, VarInfo};

    fn access(address: Expr, vars: Vec<VarInfo>, width: u32, block_x: u32) -> LoweredAccess {
        LoweredAccess {
            vars,
            address,
            width,
            atomic: false,
            guards: Vec::new(),
            block: BlockShape {
                x: block_x,
                y: 1,
                z: 1,
            },
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
    fn vars() -> Vec<VarInfo> {
        vec![
            VarInfo {
                name: "threadIdx.x".to_string(),
                kind: VarKind::Thread(Axis::X),
                loop_value: None,
            },
            VarInfo {
                name: "r".to_string(),
                kind: VarKind::Counter { trips: Some(16) },
                loop_value: None,
            },
        ]
    }

    /// The 16x32 transpose read: `m = t%16`, `n = 2r + t/16`, offset `32m + f(m, n)`.
    fn transpose(f: impl Fn(Expr, Expr) -> Expr) -> LoweredAccess {
        let t = Expr::Var(0);
        let m = bin(BinOp::Rem, t.clone(), c(16));
        let n = bin(
            BinOp::Add,
            bin(BinOp::Mul, c(2), Expr::Var(1)),
            bin(BinOp::Div, t, c(16)),
        );
        let offset = bin(BinOp::Add, bin(BinOp::Mul, c(32), m.clone()), f(m, n));
        access(bin(BinOp::Mul, c(4), offset), vars(), 4, 32)
    }

    fn factor(a: &LoweredAccess, p: &BankParams) -> Option<u64> {
        let v = linear(a, p)?;
        let w = v.cost?;
        Some(w.wavefronts / w.ideal)
    }

    #[test]
    fn transpose_read_is_16_2_1() {
        let p = BankParams::default();
        let plain = transpose(|_, n| n);
        let xor_m = transpose(|m, n| bin(BinOp::Xor, n, m));
        let xor_2m = transpose(|m, n| bin(BinOp::Xor, n, bin(BinOp::Mul, c(2), m)));
        assert_eq!(factor(&plain, &p), Some(16));
        assert_eq!(factor(&xor_m, &p), Some(2));
        assert_eq!(factor(&xor_2m, &p), Some(1));
        let v = linear(&plain, &p)
            .and_then(|v| v.explanation)
            .unwrap_or_default();
        assert!(
            v.starts_with("threadIdx.x bits 0-3 change the word but not the bank"),
            "{v}"
        );
        for a in [&plain, &xor_m, &xor_2m] {
            assert_eq!(
                linear(a, &p).and_then(|v| v.cost),
                enumerate(a, &p, Budget::default()).cost
            );
        }
    }

    #[test]
    fn wide_accesses_use_phases() {
        let p = BankParams::default();
        let t = Expr::Var(0);
        // double s[t]: two half-warps, 1 each. double s[2t]: 2 per half-warp.
        let d1 = access(bin(BinOp::Mul, t.clone(), c(8)), vars(), 8, 64);
        assert_eq!(
            linear(&d1, &p).and_then(|v| v.cost),
            Some(Wavefronts {
                wavefronts: 2,
                ideal: 2
            })
        );
        let d2 = access(bin(BinOp::Mul, t.clone(), c(16)), vars(), 8, 64);
        assert_eq!(
            linear(&d2, &p).and_then(|v| v.cost),
            Some(Wavefronts {
                wavefronts: 4,
                ideal: 2
            })
        );
        // float4 s[t]: four quarter-warps, conflict-free; float4 s[t ^ 8*(t/8)...] via XOR of bit 3 into bit 0.
        let f4 = access(bin(BinOp::Mul, t.clone(), c(16)), vars(), 16, 32);
        assert_eq!(
            linear(&f4, &p).and_then(|v| v.cost),
            Some(Wavefronts {
                wavefronts: 4,
                ideal: 4
            })
        );
        // Lanes 0..8 of a float4 access at stride 32 floats: 8 words in bank 0..3, 8-way.
        let f4s = access(bin(BinOp::Mul, t, c(128)), vars(), 16, 32);
        assert_eq!(
            linear(&f4s, &p).and_then(|v| v.cost),
            Some(Wavefronts {
                wavefronts: 32,
                ideal: 4
            })
        );
        for a in [&d1, &d2, &f4, &f4s] {
            assert_eq!(
                linear(a, &p).and_then(|v| v.cost),
                enumerate(a, &p, Budget::default()).cost
            );
        }
    }

    #[test]
    fn sub_word_lanes_share_words_or_collide() {
        let p = BankParams::default();
        let t = Expr::Var(0);
        // char s[t]: 8 words, 1 wavefront. short s[t]: 16 words, 1.
        let b1 = access(t.clone(), vars(), 1, 32);
        let h1 = access(bin(BinOp::Mul, c(2), t.clone()), vars(), 2, 32);
        // short s[(t&1) | (t>>1)<<6]: lanes 2k and 2k+1 share a word; pairs stride 128 bytes: 16-way.
        let h2 = access(
            bin(
                BinOp::Mul,
                c(2),
                bin(
                    BinOp::Or,
                    bin(BinOp::And, t.clone(), c(1)),
                    bin(BinOp::Shl, bin(BinOp::Shr, t.clone(), c(1)), c(6)),
                ),
            ),
            vars(),
            2,
            32,
        );
        // char s[(t&3) ^ 128*(t&4)...]: the sub-word correction: lane bit 0 moves byte 1 and
        // segment bit 7 together, so lanes 0 and 1 hit bank 0 in different words.
        let b2 = access(
            bin(
                BinOp::Xor,
                t.clone(),
                bin(BinOp::Mul, c(128), bin(BinOp::And, t.clone(), c(1))),
            ),
            vars(),
            1,
            32,
        );
        assert_eq!(
            linear(&b1, &p).and_then(|v| v.cost),
            Some(Wavefronts {
                wavefronts: 1,
                ideal: 1
            })
        );
        assert_eq!(
            linear(&h1, &p).and_then(|v| v.cost),
            Some(Wavefronts {
                wavefronts: 1,
                ideal: 1
            })
        );
        assert_eq!(
            linear(&h2, &p).and_then(|v| v.cost),
            Some(Wavefronts {
                wavefronts: 16,
                ideal: 1
            })
        );
        assert_eq!(
            linear(&b2, &p).and_then(|v| v.cost),
            Some(Wavefronts {
                wavefronts: 2,
                ideal: 1
            })
        );
        for a in [&b1, &h1, &h2, &b2] {
            assert_eq!(
                linear(a, &p).and_then(|v| v.cost),
                enumerate(a, &p, Budget::default()).cost
            );
        }
    }

    #[test]
    fn declines_what_it_cannot_count_exactly() {
        let p = BankParams::default();
        let t = Expr::Var(0);
        // 33-word stride carries; misaligned floats straddle words; atomics count lanes.
        assert!(linear(
            &access(bin(BinOp::Mul, c(132), t.clone()), vars(), 4, 64),
            &p
        )
        .is_none());
        assert!(linear(
            &access(
                bin(BinOp::Add, bin(BinOp::Mul, c(4), t.clone()), c(2)),
                vars(),
                4,
                32
            ),
            &p
        )
        .is_none());
        let mut atomic = access(bin(BinOp::Mul, c(4), t.clone()), vars(), 4, 32);
        atomic.atomic = true;
        assert!(linear(&atomic, &p).is_none());
        // Guards are left to enumeration, even ones that exclude no lane.
        let mut guarded = access(bin(BinOp::Mul, c(4), t.clone()), vars(), 4, 32);
        guarded.guards.push(bin(BinOp::Lt, t.clone(), c(64)));
        assert!(linear(&guarded, &p).is_none());
        // A float4 lane spans more than a 2-bank line.
        let tiny = BankParams {
            bank_count: 2,
            bank_width: 4,
            warp_size: 32,
        };
        let wide = access(bin(BinOp::Mul, c(16), t), vars(), 16, 32);
        assert!(linear(&wide, &tiny).is_none());
        assert!(linear(&wide, &p).is_some());
    }
}
