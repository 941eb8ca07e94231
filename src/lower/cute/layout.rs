//! CuTe layouts (a shape and a congruent stride) and their algebra, as CuTe defines it
//! (include/cute/layout.hpp; its Python twin `pycute/layout.py` states the same
//! definitions compactly and is what each function here follows).
//!
//! Every operation returns `None` where CuTe would reject the program (a static
//! assertion: a composition whose strides do not divide, a rank mismatch) or where an
//! integer would overflow, so a layout bankcheck holds is the one the compiler computes.

use super::tuple::{compact, IntTuple};

/// A layout: `shape` and `stride`, congruent, every extent at least 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) shape: IntTuple,
    pub(crate) stride: IntTuple,
}

/// What a divide or a composition tiles by: one layout, or one per mode (a `Shape` or
/// `Tile` tiler: an integer `n` is the layout `n:1`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tiler {
    Layout(Layout),
    Modes(Vec<Tiler>),
}

impl Layout {
    /// `Layout<shape, stride>`, when the two are congruent and no extent is below 1.
    pub(crate) fn new(shape: IntTuple, stride: IntTuple) -> Option<Layout> {
        (shape.congruent(&stride) && shape.flatten().iter().all(|&s| s >= 1))
            .then_some(Layout { shape, stride })
    }

    /// The compact layout of `shape`, column-major (`LayoutLeft`, CuTe's default) or
    /// row-major (`LayoutRight`).
    pub(crate) fn compact(shape: IntTuple, row_major: bool) -> Option<Layout> {
        let stride = compact(&shape, row_major, 1)?;
        Layout::new(shape, stride)
    }

    /// `n:1`.
    pub(crate) fn vector(n: i64) -> Option<Layout> {
        Layout::new(IntTuple::Int(n), IntTuple::Int(1))
    }

    pub(crate) fn size(&self) -> Option<i64> {
        self.shape.product()
    }

    pub(crate) fn rank(&self) -> usize {
        self.shape.rank()
    }

    /// Mode `i` as a layout.
    pub(crate) fn mode(&self, i: usize) -> Option<Layout> {
        Some(Layout {
            shape: self.shape.mode(i)?.clone(),
            stride: self.stride.mode(i)?.clone(),
        })
    }

    pub(crate) fn modes(&self) -> Vec<Layout> {
        (0..self.rank()).filter_map(|i| self.mode(i)).collect()
    }

    /// `make_layout(l0, l1, ...)`: the layouts as the modes of one (a tuple even of one).
    pub(crate) fn concat(modes: Vec<Layout>) -> Layout {
        let (shape, stride) = modes.into_iter().map(|l| (l.shape, l.stride)).unzip();
        Layout {
            shape: IntTuple::Tuple(shape),
            stride: IntTuple::Tuple(stride),
        }
    }

    /// The offset of the one-dimensional coordinate `crd` (CuTe's `crd2idx`: the
    /// coordinate split column-major over the modes, the last mode taking the rest).
    pub(crate) fn at(&self, crd: i64) -> Option<i64> {
        crd2idx(crd, &self.shape, &self.stride)
    }

    /// One past the largest offset: `layout(size - 1) + 1`.
    pub(crate) fn cosize(&self) -> Option<i64> {
        self.at(self.size()?.checked_sub(1)?)?.checked_add(1)
    }

    /// The flat (shape, stride) pairs, depth first.
    fn flat(&self) -> Vec<(i64, i64)> {
        self.shape
            .flatten()
            .into_iter()
            .zip(self.stride.flatten())
            .collect()
    }

    /// Pads with `1:0` modes up to rank `r` (CuTe's `append<R>`).
    pub(crate) fn append_to(&self, r: usize) -> Layout {
        if self.rank() >= r {
            return self.clone();
        }
        let mut modes = self.modes();
        while modes.len() < r {
            modes.push(Layout {
                shape: IntTuple::Int(1),
                stride: IntTuple::Int(0),
            });
        }
        Layout::concat(modes)
    }
}

/// `crd2idx` for a one-dimensional coordinate.
pub(crate) fn crd2idx(crd: i64, shape: &IntTuple, stride: &IntTuple) -> Option<i64> {
    match (shape, stride) {
        (IntTuple::Int(_), IntTuple::Int(d)) => crd.checked_mul(*d),
        (IntTuple::Tuple(s), IntTuple::Tuple(d)) if s.len() == d.len() => {
            let mut crd = crd;
            let mut result = 0i64;
            for (i, (si, di)) in s.iter().zip(d).enumerate() {
                if i + 1 == s.len() {
                    return result.checked_add(crd2idx(crd, si, di)?);
                }
                let p = si.product()?;
                result = result.checked_add(crd2idx(crd.rem_euclid(p), si, di)?)?;
                crd = crd.div_euclid(p);
            }
            Some(result)
        }
        _ => None,
    }
}

/// A flat layout from (shape, stride) pairs: a single mode is not a tuple.
fn from_pairs(pairs: Vec<(i64, i64)>) -> Layout {
    if pairs.len() == 1 {
        return Layout {
            shape: IntTuple::Int(pairs[0].0),
            stride: IntTuple::Int(pairs[0].1),
        };
    }
    let (s, d): (Vec<_>, Vec<_>) = pairs
        .into_iter()
        .map(|(s, d)| (IntTuple::Int(s), IntTuple::Int(d)))
        .unzip();
    Layout {
        shape: IntTuple::Tuple(s),
        stride: IntTuple::Tuple(d),
    }
}

/// Merges neighbouring modes where the first's extent times stride is the next's stride,
/// drops extents of 1: the same function of the one-dimensional coordinate, at most one
/// level deep.
pub(crate) fn coalesce(l: &Layout) -> Layout {
    let mut out: Vec<(i64, i64)> = vec![(1, 0)];
    for (s, d) in l.flat() {
        let last = out.len() - 1;
        if s == 1 {
            continue;
        }
        if out[last].0 == 1 {
            out[last] = (s, d);
        } else if out[last].0.checked_mul(out[last].1) == Some(d) {
            out[last].0 *= s;
        } else {
            out.push((s, d));
        }
    }
    from_pairs(out)
}

/// `coalesce(layout, profile)`: each mode the profile names coalesced alone.
pub(crate) fn coalesce_by(l: &Layout, profile: &IntTuple) -> Option<Layout> {
    let IntTuple::Tuple(p) = profile else {
        return Some(coalesce(l));
    };
    map_leading_modes(l, p.len(), &mut |i, m| coalesce_by(m, &p[i]))
}

/// `l` with its first `n` modes replaced by `f(i, mode)`, the others kept.
fn map_leading_modes(
    l: &Layout,
    n: usize,
    f: &mut dyn FnMut(usize, &Layout) -> Option<Layout>,
) -> Option<Layout> {
    if l.rank() < n {
        return None;
    }
    let modes = l.modes();
    let mut out = Vec::with_capacity(modes.len());
    for (i, m) in modes.into_iter().enumerate() {
        out.push(if i < n { f(i, &m)? } else { m });
    }
    Some(Layout::concat(out))
}

/// `a ∘ b`: the layout whose offset at `c` is `a(b(c))`, with `b`'s shape.
pub(crate) fn composition(a: &Layout, b: &Layout) -> Option<Layout> {
    if let IntTuple::Tuple(_) = b.shape {
        let modes = b
            .modes()
            .iter()
            .map(|bi| composition(a, bi))
            .collect::<Option<Vec<_>>>()?;
        return Some(Layout::concat(modes));
    }
    let (IntTuple::Int(b_shape), IntTuple::Int(b_stride)) = (&b.shape, &b.stride) else {
        return None;
    };
    if *b_stride == 0 {
        return Layout::new(IntTuple::Int(*b_shape), IntTuple::Int(0));
    }
    if *b_stride < 0 {
        return None;
    }
    // CuTe's `composition_impl` (include/cute/layout.hpp), with its static assertions
    // (the stride and shape divisibility conditions) as `None`.
    let flat_a = coalesce(a).flat();
    let &(_, last_stride) = flat_a.last()?;
    if flat_a.len() == 1 {
        return Layout::new(
            IntTuple::Int(*b_shape),
            IntTuple::Int(b_stride.checked_mul(last_stride)?),
        );
    }
    let mut result = Vec::new();
    let mut rest_shape = *b_shape;
    let mut rest_stride = *b_stride;
    for &(curr_shape, curr_stride) in &flat_a[..flat_a.len() - 1] {
        if rest_stride % curr_shape != 0 && rest_stride >= curr_shape {
            return None;
        }
        let next_shape = ceil_div(curr_shape, rest_stride);
        let next_stride = ceil_div(rest_stride, curr_shape);
        if next_shape == 1 || rest_shape == 1 {
            rest_stride = next_stride;
            continue;
        }
        let new_shape = next_shape.min(rest_shape);
        if rest_shape % new_shape != 0 {
            return None;
        }
        result.push((new_shape, rest_stride.checked_mul(curr_stride)?));
        rest_shape /= new_shape;
        rest_stride = next_stride;
    }
    if result.is_empty() || rest_shape != 1 {
        result.push((rest_shape, rest_stride.checked_mul(last_stride)?));
    }
    Some(from_pairs(result))
}

/// `composition(a, tiler)`: by mode for a tuple of tilers, the rest of `a`'s modes kept.
pub(crate) fn compose_tiler(a: &Layout, tiler: &Tiler) -> Option<Layout> {
    by_mode(a, tiler, &composition)
}

/// Applies `op` to `a` and a layout tiler, or mode by mode for a tuple of tilers (the
/// modes of `a` past the tiler's kept as they are).
fn by_mode(
    a: &Layout,
    tiler: &Tiler,
    op: &dyn Fn(&Layout, &Layout) -> Option<Layout>,
) -> Option<Layout> {
    match tiler {
        Tiler::Layout(b) => op(a, b),
        Tiler::Modes(ts) => map_leading_modes(a, ts.len(), &mut |i, m| by_mode(m, &ts[i], op)),
    }
}

/// Ceiling division of non-negative `a` by positive `b`.
fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// The layout of the offsets `l` does not reach, up to `max_idx`: `(l, complement)` is a
/// bijection onto `[0, max_idx)` when `l` is injective.
pub(crate) fn complement(l: &Layout, max_idx: i64) -> Option<Layout> {
    let mut pairs: Vec<(i64, i64)> = l.flat().into_iter().map(|(s, d)| (d, s)).collect();
    pairs.sort_unstable();
    let mut result = Vec::new();
    let mut current = 1i64;
    for (stride, shape) in pairs {
        if stride == 0 || shape == 1 {
            continue;
        }
        if stride < 0 || current > shape.checked_mul(stride)? || stride % current != 0 {
            return None;
        }
        result.push((stride / current, current));
        current = shape.checked_mul(stride)?;
    }
    result.push((ceil_div(max_idx, current).max(1), current));
    Some(coalesce(&from_pairs(result)))
}

/// The layout `r` with `l(r(i)) == i` on the largest prefix of offsets it can reach.
pub(crate) fn right_inverse(l: &Layout) -> Option<Layout> {
    let flat = l.flat();
    let mut rstrides = Vec::with_capacity(flat.len());
    let mut acc = 1i64;
    for &(s, _) in &flat {
        rstrides.push(acc);
        acc = acc.checked_mul(s)?;
    }
    let mut sorted: Vec<(i64, i64, i64)> = flat
        .iter()
        .zip(rstrides)
        .map(|(&(s, d), r)| (d, s, r))
        .collect();
    sorted.sort_unstable();
    let mut result = Vec::new();
    let mut current = 1i64;
    for (stride, shape, rstride) in sorted {
        if shape == 1 {
            continue;
        }
        if current != stride {
            break;
        }
        result.push((shape, rstride));
        current = shape.checked_mul(stride)?;
    }
    if result.is_empty() {
        result.push((1, 0));
    }
    Some(coalesce(&from_pairs(result)))
}

/// `logical_divide(a, b)`: `a ∘ (b, complement(b, size(a)))`, mode by mode for a
/// tuple of tilers.
pub(crate) fn logical_divide(a: &Layout, tiler: &Tiler) -> Option<Layout> {
    by_mode(a, tiler, &|a, b| {
        let c = complement(b, a.size()?)?;
        composition(a, &Layout::concat(vec![b.clone(), c]))
    })
}

/// `zipped_divide(a, tiler)`: the tile modes gathered in mode 0, the rest in mode 1.
pub(crate) fn zipped_divide(a: &Layout, tiler: &Tiler) -> Option<Layout> {
    match tiler {
        Tiler::Layout(b) => logical_divide(a, &Tiler::Layout(b.clone())),
        Tiler::Modes(ts) => {
            if a.rank() < ts.len() {
                return None;
            }
            let mut tiles = Vec::new();
            let mut rests = Vec::new();
            for (i, t) in ts.iter().enumerate() {
                let split = zipped_divide(&a.mode(i)?, t)?;
                tiles.push(split.mode(0)?);
                rests.push(split.mode(1)?);
            }
            rests.extend((ts.len()..a.rank()).filter_map(|i| a.mode(i)));
            Some(Layout::concat(vec![
                Layout::concat(tiles),
                Layout::concat(rests),
            ]))
        }
    }
}

/// `logical_product(a, b)`: `(a, complement(a, size(a) * cosize(b)) ∘ b)`.
pub(crate) fn logical_product(a: &Layout, b: &Layout) -> Option<Layout> {
    let c = complement(a, a.size()?.checked_mul(b.cosize()?)?)?;
    Some(Layout::concat(vec![a.clone(), composition(&c, b)?]))
}

/// `blocked_product(block, tiler)`: the logical product with each mode of the block
/// paired with the same mode of the tiler (CuTe's `zip`).
pub(crate) fn blocked_product(block: &Layout, tiler: &Layout) -> Option<Layout> {
    zipped_product(block, tiler, false)
}

/// `raked_product(block, tiler)`: the same pairs, the tiler's part first (`zip(get<1>,
/// get<0>)`), so that the block's elements are spread across the tiler's.
pub(crate) fn raked_product(block: &Layout, tiler: &Layout) -> Option<Layout> {
    zipped_product(block, tiler, true)
}

/// The logical product of `block` and `tiler` padded to one rank, its two parts zipped
/// mode by mode (the tiler's part first when `raked`).
fn zipped_product(block: &Layout, tiler: &Layout, raked: bool) -> Option<Layout> {
    let r = block.rank().max(tiler.rank());
    let product = logical_product(&block.append_to(r), &tiler.append_to(r))?;
    let (mut first, mut second) = (product.mode(0)?, product.mode(1)?);
    if raked {
        std::mem::swap(&mut first, &mut second);
    }
    let modes = (0..r)
        .map(|i| Some(Layout::concat(vec![first.mode(i)?, second.mode(i)?])))
        .collect::<Option<Vec<_>>>()?;
    Some(Layout::concat(modes))
}

/// `tile_to_shape(block, target, order)`: copies of `block` laid over `target`, the
/// copies ordered column-major (`LayoutLeft`, the default) or row-major.
pub(crate) fn tile_to_shape(block: &Layout, target: &IntTuple, row_major: bool) -> Option<Layout> {
    let r = target.rank();
    if block.rank() > r {
        return None;
    }
    let padded = block.append_to(r);
    let mut counts = Vec::with_capacity(r);
    for i in 0..r {
        let b = padded.mode(i)?.size()?;
        let t = target.mode(i)?.product()?;
        if b <= 0 || t % b != 0 {
            return None;
        }
        counts.push(IntTuple::Int(t / b));
    }
    let tiler = Layout::compact(IntTuple::Tuple(counts), row_major)?;
    blocked_product(&padded, &tiler)
}

#[cfg(test)]
mod tests;

impl std::fmt::Display for Layout {
    /// CuTe's notation, `shape:stride`: `(8,64):(64,1)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.shape, self.stride)
    }
}
