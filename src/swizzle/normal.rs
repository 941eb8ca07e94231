//! Rewrites a constructed layout into the cost-equivalent layout closest to a reference
//! (the array's row-major layout), so the suggested index expression is a plain XOR swizzle.
//!
//! Conflicts depend only on the Vec columns, on the span of the sub-word columns and on
//! the span of the segment columns (spec §5.3, "equivalence test"); every other choice is
//! free. This keeps those three and, within them, takes the reference's own columns
//! wherever they fit, and segment columns of the form `reference_i ⊕ (bank directions)`.
//! The caller re-scores the result: this step is a heuristic, never trusted blindly.

use super::layout::MemoryLayout;
use crate::f2::{BitMatrix, Subspace};

/// The layout equivalent to `mem` (same first `fixed` columns, same span of the first
/// `low` columns, same span of the columns from `line` on) that is closest to `reference`.
pub fn towards(
    mem: &MemoryLayout,
    reference: &MemoryLayout,
    fixed: usize,
    low: usize,
    line: usize,
) -> Option<MemoryLayout> {
    let d = mem.columns.len();
    if reference.columns.len() != d || fixed > low || low > line || line > d || d > 40 {
        return None;
    }
    let mut out: Vec<u64> = mem.columns[..fixed].to_vec();
    let mut taken = Subspace::span(out.iter().copied());

    // Sub-word region: same span as mem's, reference columns first.
    let low_span = Subspace::span(mem.columns[..low].iter().copied());
    fill_region(
        &mut out,
        &mut taken,
        low,
        &low_span,
        reference,
        &mem.columns[fixed..low],
    );

    // Bank region: anything independent of the low region and the segment.
    let seg_span = Subspace::span(mem.columns[line..].iter().copied());
    let mut blocked = taken.sum(&seg_span);
    for i in low..line {
        let pick = std::iter::once(reference.columns[i])
            .chain(reference.columns.iter().copied())
            .chain(mem.columns[low..line].iter().copied())
            .find(|&x| !blocked.contains(x))?;
        blocked.insert(pick);
        taken.insert(pick);
        out.push(pick);
    }
    if out.len() != line {
        return None;
    }

    // Segment region: the segment-part of each reference column along the bank directions.
    let mut basis_cols = out.clone();
    let seg_basis = seg_span.basis();
    basis_cols.extend(&seg_basis);
    let solver = BitMatrix::from_columns(basis_cols);
    let below_mask = (1u64 << line) - 1;
    let seg_part = |x: u64| solver.solve(x).map(|c| solver.apply(c & !below_mask));
    let projected: Option<Vec<u64>> = reference.columns[line..]
        .iter()
        .map(|&x| seg_part(x))
        .collect();
    let seg: Vec<u64> = match projected {
        Some(p) if Subspace::span(p.iter().copied()).dim() == d - line => p,
        _ => mem.columns[line..].to_vec(),
    };
    out.extend(seg);
    MemoryLayout::new(out)
}

/// Appends columns up to index `end` that lie in `span` and are independent of `taken`:
/// the reference's column at each index when it fits, then any reference column, then `fallback`.
fn fill_region(
    out: &mut Vec<u64>,
    taken: &mut Subspace,
    end: usize,
    span: &Subspace,
    reference: &MemoryLayout,
    fallback: &[u64],
) {
    while out.len() < end {
        let i = out.len();
        let pick = std::iter::once(reference.columns[i])
            .chain(reference.columns.iter().copied())
            .chain(fallback.iter().copied())
            .find(|&x| span.contains(x) && !taken.contains(x));
        let Some(x) = pick else { return };
        taken.insert(x);
        out.push(x);
    }
}

/// The simplest layout as good as `built` for `accesses` (exact formula, per access, with
/// at least the same vectorisation): the construction rewritten towards the row-major
/// layout, or a classic swizzle when one matches exactly or is equally good (spec §5.3).
/// Returns the layout and its classic triple when it is one.
pub fn simplest(
    built: &super::construct::Construction,
    accesses: &[super::layout::DistributedLayout],
    extents: &[u64],
    geom: &super::layout::Geometry,
) -> (MemoryLayout, Option<super::classic::Classic>) {
    use super::classic::{equivalent_classic, exact_classic};
    use super::cost::exact_cost;
    let d = built.layout.dim();
    let line = geom.line_bits().min(d) as usize;
    // The vector prefix to keep: the widest any access moves (a one-sided boost included).
    let v = built
        .costs
        .iter()
        .map(|c| c.vec_bits as usize)
        .max()
        .unwrap_or(0)
        .max(built.vec.len());
    let low = (geom.sub_bits() as usize).max(v).min(line);
    let targets: Vec<u64> = built.costs.iter().map(|c| c.wavefronts).collect();
    let min_vec: Vec<u32> = built.costs.iter().map(|c| c.vec_bits).collect();
    let as_good = |m: &MemoryLayout| {
        accesses
            .iter()
            .zip(targets.iter().zip(&min_vec))
            .all(|(a, (&t, &k))| {
                let c = exact_cost(m, a, geom);
                c.wavefronts <= t && c.vec_bits >= k
            })
    };
    let mut mem = built.layout.clone();
    if let Some(reference) = super::layout::row_major(extents) {
        if let Some(n) = towards(&mem, &reference, v, low, line) {
            if as_good(&n) {
                mem = n;
            }
        }
    }
    if let Some(cl) = exact_classic(&mem, extents) {
        return (mem, Some(cl));
    }
    if extents.len() >= 2 {
        if let Some((cl, m)) = equivalent_classic(accesses, extents, geom, &targets, &min_vec) {
            return (m, Some(cl));
        }
    }
    (mem, None)
}
