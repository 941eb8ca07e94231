//! The optimal memory layout for a set of accesses to one buffer: the construction of the
//! swizzle spec §3.4 (the Linear Layouts paper's §5.4, made exact for any element size and
//! for non-unit layouts), generalised to any number of accesses (docs/swizzling.md,
//! "Three or more accesses").
//!
//! Steps, all in the logical space F2^d:
//! 1. `V`: the common register directions that no thread direction touches (the Vec bits).
//! 2. `K ⊇ N`: a complement of `V` that holds every lane/warp direction; all other columns
//!    come from `K`, which keeps every access aligned.
//! 3. Sub-word bank slots (elements narrower than a bank word), chosen before the segment.
//! 4. The segment `S`, in the quotient by `V` and the sub-word slots: for every pair of
//!    accesses the paper's pairing (protect `I`, pair `E` with `F` by XOR, free directions
//!    first), plus a greedy search over all quotient vectors; each candidate is scored with
//!    the exact cost (§2.4) against the Lemma 9.5 bounds and the best one is kept.
//! 5. The one-sided boost (§3.4 step 7): the same again with a few more of one access's
//!    registers fixed right after `V`, so that access alone moves a wider vector; kept
//!    only when the exact cost says it is better.
//!
//! For two accesses the pairing reaches both Lemma 9.5 bounds at once (spec §4.2), so the
//! result is optimal. For three or more it is the best of the candidates tried: a heuristic,
//! whose distance from the per-access bounds is reported in [`Construction::excess`].

use super::bound::{lemma95, transaction_lanes, Bound};
use super::cost::{exact_cost, AccessCost};
use super::layout::{DistributedLayout, Geometry, MemoryLayout};
use crate::f2::{BitMatrix, Subspace};

/// Most quotient dimensions for which the greedy search tries every vector.
const EXHAUSTIVE_DIMS: u32 = 14;
/// Most accesses whose pairs are all tried as pairing candidates.
const MAX_PAIRED_ACCESSES: usize = 8;

/// A constructed memory layout with its exact per-access costs and bounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Construction {
    pub layout: MemoryLayout,
    /// The common vector `V` (the layout's first `|V|` columns).
    pub vec: Vec<u64>,
    /// Exact cost of each access under `layout` (§2.4), in input order.
    pub costs: Vec<AccessCost>,
    /// Lemma 9.5 bound of each access with this `V` (§4.2).
    pub bounds: Vec<Bound>,
    /// Which candidate won: `pairing(i,j)` or `greedy`, prefixed by `boost(access,bits)+`
    /// when a one-sided wider vector was kept.
    pub method: String,
}

impl Construction {
    /// Largest number of conflict bits any access has beyond its bound (0 = optimal).
    pub fn excess(&self) -> u32 {
        self.costs
            .iter()
            .zip(&self.bounds)
            .map(|(c, b)| c.conflict_bits.saturating_sub(b.conflict_bits))
            .max()
            .unwrap_or(0)
    }
}

/// Splits vectors along `F2^d = span(V) ⊕ K`.
struct Split {
    basis: BitMatrix,
    n_vec: usize,
}

impl Split {
    /// The `K` component of `x` (drops its `V` part); `x` itself if it cannot be split.
    fn k_part(&self, x: u64) -> u64 {
        match self.basis.solve(x) {
            Some(coeffs) => {
                let k_mask = !((1u64 << self.n_vec) - 1);
                self.basis.apply(coeffs & k_mask)
            }
            None => x,
        }
    }
}

/// Builds the layout for `accesses` over a `d`-bit logical space (spec §3.4, generalised).
/// `None` when there is nothing to build (no access, `d` out of range).
pub fn construct(accesses: &[DistributedLayout], d: u32, geom: &Geometry) -> Option<Construction> {
    if accesses.is_empty() || d == 0 || d > 40 {
        return None;
    }
    let all_units = (1u64 << d) - 1;
    if accesses.iter().any(|a| {
        a.reg
            .iter()
            .chain(&a.lane)
            .chain(&a.warp)
            .any(|&x| x & !all_units != 0)
    }) {
        return None;
    }
    let line = geom.line_bits().min(d);

    // 1. Common vector: shared register directions independent of every thread direction.
    let mut common = accesses[0].reg_span();
    for a in &accesses[1..] {
        common = common.intersection(&a.reg_span());
    }
    let threads = accesses
        .iter()
        .fold(Subspace::zero(), |s, a| s.sum(&a.thread_span()));
    let cap = geom.max_vec_bits.min(line) as usize;
    let mut grown = threads.clone();
    let vec: Vec<u64> = common
        .basis()
        .into_iter()
        .filter(|&r| grown.insert(r))
        .take(cap)
        .collect();

    let bounds: Vec<Bound> = accesses.iter().map(|a| lemma95(a, &vec, d, geom)).collect();
    let v = vec.len() as u32;
    let mut candidates = candidates_for(
        accesses,
        &vec,
        &vec![v; accesses.len()],
        [&Subspace::zero(), &threads],
        d,
        geom,
    );

    // 5. One-sided boost (spec §3.4 step 7): a prefix of one access's other registers placed
    //    right after V, protected like V, so that access moves wider vectors. Only that
    //    access's own threads must avoid the new vector bits; the others must still see
    //    no V component, which holds when V meets span(X ∪ threads) trivially.
    for (i, a) in accesses.iter().enumerate() {
        let own = a.thread_span();
        let mut grown = own.sum(&Subspace::span(vec.iter().copied()));
        let extra: Vec<u64> = a.reg.iter().copied().filter(|&r| grown.insert(r)).collect();
        for len in 1..=extra.len().min(cap.saturating_sub(vec.len())) {
            let boost = Subspace::span(extra[..len].iter().copied()).sum(&threads);
            if boost
                .intersection(&Subspace::span(vec.iter().copied()))
                .dim()
                != 0
            {
                continue;
            }
            let fixed: Vec<u64> = vec.iter().chain(&extra[..len]).copied().collect();
            let mut widths = vec![v; accesses.len()];
            widths[i] = v + len as u32;
            for (name, layout) in
                candidates_for(accesses, &fixed, &widths, [&own, &threads], d, geom)
            {
                candidates.push((format!("boost({i},{len})+{name}"), layout));
            }
        }
    }

    let mut best: Option<((u32, u64, usize), Construction)> = None;
    for (index, (method, layout)) in candidates.into_iter().enumerate() {
        let costs: Vec<AccessCost> = accesses
            .iter()
            .map(|a| exact_cost(&layout, a, geom))
            .collect();
        let built = Construction {
            layout,
            vec: vec.clone(),
            costs,
            bounds: bounds.clone(),
            method,
        };
        let key = (
            built.excess(),
            built.costs.iter().map(|c| c.wavefronts).sum::<u64>(),
            index,
        );
        if best.as_ref().is_none_or(|(k, _)| key < *k) {
            best = Some((key, built));
        }
    }
    best.map(|(_, c)| c)
}

/// Candidate layouts whose first columns are `fixed` (the common vector, possibly boosted),
/// when access `i` moves `2^widths[i]` elements per lane: steps 2-4 of the module doc.
fn candidates_for(
    accesses: &[DistributedLayout],
    fixed: &[u64],
    widths: &[u32],
    threads: [&Subspace; 2],
    d: u32,
    geom: &Geometry,
) -> Vec<(String, MemoryLayout)> {
    let line = geom.line_bits().min(d);
    // 2. K: a basis of the thread spans (the boosted access's first), then ascending units,
    //    completing span(fixed).
    let mut full = Subspace::span(fixed.iter().copied());
    let mut k_basis: Vec<u64> = Vec::new();
    let thread_vectors = threads[0].basis().into_iter().chain(threads[1].basis());
    for x in thread_vectors.chain((0..d).map(|j| 1u64 << j)) {
        if full.insert(x) {
            k_basis.push(x);
        }
    }
    let split = Split {
        basis: BitMatrix::from_columns(
            fixed
                .iter()
                .copied()
                .chain(k_basis.iter().copied())
                .collect(),
        ),
        n_vec: fixed.len(),
    };
    let covers: Vec<Subspace> = accesses
        .iter()
        .zip(widths)
        .map(|(a, &w)| Subspace::span(fixed.iter().copied().chain(transaction_lanes(a, w, geom))))
        .collect();

    // 3. Sub-word slots (spec §3.4 step 4).
    let slots = choose_sub_word_slots(accesses, fixed, &covers, &split, d, geom);
    let mut low: Vec<u64> = fixed.to_vec();
    low.extend(&slots);
    let zq = Subspace::span(low.iter().copied());
    let s = d.saturating_sub(line) as usize;

    // 4. Segment candidates in the quotient by span(fixed ∪ slots).
    let quotient_covers: Vec<Subspace> = covers
        .iter()
        .map(|u| Subspace::span(u.basis().into_iter().map(|x| zq.full_reduce(x))))
        .collect();
    let mut segs: Vec<(String, Vec<u64>)> = Vec::new();
    let n = accesses.len().min(MAX_PAIRED_ACCESSES);
    for i in 0..n {
        for j in i..n {
            if i == j && n > 1 {
                continue;
            }
            let seg = pairing(&quotient_covers[i], &quotient_covers[j], &zq, d, s);
            segs.push((format!("pairing({i},{j})"), seg));
        }
    }
    segs.push(("greedy".to_string(), greedy(&quotient_covers, &zq, d, s)));
    segs.into_iter()
        .filter_map(|(name, seg)| Some((name, assemble(&low, &seg, &split, d)?)))
        .collect()
}

/// `M = low | bank | seg`, with seg and bank projected into `K` and the bank taken as the
/// lowest-bit-pivot unit complement (spec §3.4 step 6).
fn assemble(low: &[u64], seg: &[u64], split: &Split, d: u32) -> Option<MemoryLayout> {
    let seg: Vec<u64> = seg.iter().map(|&x| split.k_part(x)).collect();
    let taken = Subspace::span(low.iter().chain(&seg).copied());
    let bank: Vec<u64> = taken
        .complement_units(d)
        .into_iter()
        .map(|x| split.k_part(x))
        .collect();
    let mut columns = low.to_vec();
    columns.extend(bank);
    columns.extend(seg);
    if columns.len() != d as usize {
        return None;
    }
    MemoryLayout::new(columns)
}

/// How many conflict bits the sub-word region `low` forces on the accesses: the Lemma 9.5
/// count `Σ max(0, dim(U_X + low) − ℓ)`.
fn forced(covers: &[Subspace], low: &Subspace, line: u32) -> u32 {
    covers
        .iter()
        .map(|u| (u.sum(low).dim() as u32).saturating_sub(line))
        .sum()
}

/// Picks the `z − v` bank slots inside one bank word, in the spec's order of preference
/// (directions common to every access, lanes that are no register, other lanes, warps,
/// then units), taking at each step the first candidate that forces the fewest conflicts.
fn choose_sub_word_slots(
    accesses: &[DistributedLayout],
    vec: &[u64],
    covers: &[Subspace],
    split: &Split,
    d: u32,
    geom: &Geometry,
) -> Vec<u64> {
    let line = geom.line_bits().min(d);
    let want = (geom.sub_bits().min(line) as usize).saturating_sub(vec.len());
    if want == 0 {
        return Vec::new();
    }
    let mut shared = covers[0].clone();
    for u in &covers[1..] {
        shared = shared.intersection(u);
    }
    let regs = accesses
        .iter()
        .fold(Subspace::zero(), |s, a| s.sum(&a.reg_span()));
    let mut prefs: Vec<u64> = shared.basis();
    prefs.extend(
        accesses
            .iter()
            .flat_map(|a| a.lane.iter().copied())
            .filter(|&l| !regs.contains(l)),
    );
    prefs.extend(accesses.iter().flat_map(|a| a.lane.iter().copied()));
    prefs.extend(accesses.iter().flat_map(|a| a.warp.iter().copied()));
    prefs.extend((0..d).map(|j| 1u64 << j));
    let prefs: Vec<u64> = prefs
        .into_iter()
        .map(|x| split.k_part(x))
        .filter(|&x| x != 0)
        .collect();

    let mut low = Subspace::span(vec.iter().copied());
    let mut slots = Vec::new();
    while slots.len() < want {
        let pick = prefs
            .iter()
            .copied()
            .filter(|&x| !low.contains(x))
            .min_by_key(|&x| {
                let mut with = low.clone();
                with.insert(x);
                forced(covers, &with, line)
            });
        let Some(x) = pick else { break };
        low.insert(x);
        slots.push(x);
    }
    slots
}

/// The paper's pairing for two accesses in the quotient by `zq` (spec §3.4 step 5):
/// `C` (free directions) first, then `H = {small_i ⊕ large_i}`, then, when short, the
/// unpaired vectors of the larger side, the smaller side's halves of the pairs, and `I`.
fn pairing(ua: &Subspace, ub: &Subspace, zq: &Subspace, d: u32, s: usize) -> Vec<u64> {
    let inter = ua.intersection(ub);
    let mut only_a = inter.extend_from(ua.basis());
    let mut only_b = inter.extend_from(ub.basis());
    only_a.sort_unstable();
    only_b.sort_unstable();
    let spanned = zq
        .sum(&inter)
        .sum(&Subspace::span(only_a.iter().chain(&only_b).copied()));
    let (small, large) = if only_a.len() <= only_b.len() {
        (only_a, only_b)
    } else {
        (only_b, only_a)
    };
    let mut order: Vec<u64> = spanned.complement_units(d);
    order.extend(small.iter().zip(&large).map(|(x, y)| x ^ y));
    order.extend(large.iter().skip(small.len()).copied());
    order.extend(small.iter().copied());
    let mut inter_basis = inter.basis();
    inter_basis.sort_unstable();
    order.extend(inter_basis);
    order.extend((0..d).map(|j| 1u64 << j));
    take_independent(order, zq, s)
}

/// The first `s` vectors of `order` that are independent modulo `zq` and of each other.
fn take_independent(order: Vec<u64>, zq: &Subspace, s: usize) -> Vec<u64> {
    let mut taken = zq.clone();
    let mut out = Vec::with_capacity(s);
    for x in order {
        if out.len() == s {
            break;
        }
        let x = zq.full_reduce(x);
        if taken.insert(x) {
            out.push(x);
        }
    }
    out
}

/// Greedy segment for any number of accesses: at each step, the quotient vector that keeps
/// the worst excess over the bounds lowest, then the total conflict bits, then the smallest.
/// Adding `x` to `S` raises `dim(S ∩ Ū_X)` by one exactly when `x ∈ S + Ū_X`.
fn greedy(covers: &[Subspace], zq: &Subspace, d: u32, s: usize) -> Vec<u64> {
    let pivots = zq.pivots();
    let free_bits: Vec<u32> = (0..d).filter(|j| !pivots.contains(j)).collect();
    let quotient_dim = free_bits.len() as u32;
    let line_q = quotient_dim.saturating_sub(s as u32);
    let bound: Vec<u32> = covers
        .iter()
        .map(|u| (u.dim() as u32).saturating_sub(line_q))
        .collect();
    let exhaustive = quotient_dim <= EXHAUSTIVE_DIMS;
    let listed: Vec<u64> = if exhaustive {
        Vec::new()
    } else {
        let units: Vec<u64> = free_bits.iter().map(|&j| 1u64 << j).collect();
        let mut c = units.clone();
        for (i, a) in units.iter().enumerate() {
            c.extend(units[i + 1..].iter().map(|b| a ^ b));
        }
        c.sort_unstable();
        c
    };
    let mut seg: Vec<u64> = Vec::new();
    let mut span = Subspace::zero();
    let mut conflicts = vec![0u32; covers.len()];
    while seg.len() < s {
        let sums: Vec<Subspace> = covers.iter().map(|u| u.sum(&span)).collect();
        // The (worst excess, total conflicts) of adding `x`, given whether `x` lies in each sum.
        let score = |in_sum: &mut dyn FnMut(usize) -> bool| {
            let mut worst = 0u32;
            let mut total = 0u32;
            for (i, &b) in bound.iter().enumerate() {
                let c = conflicts[i] + u32::from(in_sum(i));
                worst = worst.max(c.saturating_sub(b));
                total += c;
            }
            (worst, total)
        };
        // Ties go to the earlier candidate (ascending mask, or list order).
        let mut best: Option<((u32, u32), u64, u64)> = None;
        let mut offer = |key: (u32, u32), order: u64, x: u64| {
            if best.is_none_or(|(k, o, _)| (key, order) < (k, o)) {
                best = Some((key, order, x));
            }
        };
        if exhaustive {
            // Every mask of the free bits, in Gray-code order: one unit changes per step, so
            // each subspace's remainder (linear in the vector) changes by that unit's.
            let units: Vec<u64> = free_bits.iter().map(|&j| 1u64 << j).collect();
            let spaces: Vec<&Subspace> = std::iter::once(&span).chain(&sums).collect();
            let images: Vec<Vec<u64>> = spaces
                .iter()
                .map(|sp| units.iter().map(|&u| sp.reduce(u)).collect())
                .collect();
            let mut rests = vec![0u64; spaces.len()];
            let mut x = 0u64;
            for i in 1..1u64 << quotient_dim {
                let bit = i.trailing_zeros() as usize;
                x ^= units[bit];
                for (r, img) in rests.iter_mut().zip(&images) {
                    *r ^= img[bit];
                }
                if rests[0] == 0 {
                    continue;
                }
                let key = score(&mut |k| rests[k + 1] == 0);
                offer(key, i ^ (i >> 1), x);
            }
        } else {
            for (order, &x) in listed.iter().enumerate() {
                if span.contains(x) {
                    continue;
                }
                offer(score(&mut |k| sums[k].contains(x)), order as u64, x);
            }
        }
        let Some((_, _, x)) = best else { break };
        for (i, sum) in sums.iter().enumerate() {
            conflicts[i] += u32::from(sum.contains(x));
        }
        span.insert(x);
        seg.push(x);
    }
    seg
}
