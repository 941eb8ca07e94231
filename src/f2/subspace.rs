//! Subspaces of F2^n as echelon bases: span, membership, sum, intersection, complement.

/// A subspace of F2^64, stored as an echelon basis indexed by pivot (lowest set bit).
///
/// Invariant: `rows[p]`, when present, has lowest set bit `p`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Subspace {
    rows: Vec<(u32, u64)>,
}

impl Subspace {
    /// The zero subspace.
    pub fn zero() -> Self {
        Subspace::default()
    }

    /// The span of `vectors`.
    ///
    /// ```
    /// use bankcheck::f2::Subspace;
    /// let s = Subspace::span([0b011, 0b110, 0b101]);
    /// assert_eq!(s.dim(), 2);
    /// assert!(s.contains(0b101));
    /// ```
    pub fn span(vectors: impl IntoIterator<Item = u64>) -> Self {
        let mut s = Subspace::zero();
        for v in vectors {
            s.insert(v);
        }
        s
    }

    /// Dimension of the subspace.
    pub fn dim(&self) -> usize {
        self.rows.len()
    }

    /// Reduces `v` by the basis: the result is zero exactly when `v` is in the span.
    /// The remainder is a fixed representative of `v`'s coset only in its pivot bits.
    /// Linear in `v`: the rows are fully reduced, so the row of pivot `p` is applied exactly
    /// when bit `p` of `v` is set.
    pub fn reduce(&self, mut v: u64) -> u64 {
        // Rows sorted by pivot: XOR with the row of pivot p only changes bits >= p.
        for &(p, row) in &self.rows {
            if v >> p & 1 == 1 {
                v ^= row;
            }
        }
        v
    }

    /// Canonical representative of `v + self`: every pivot bit of the basis cleared.
    /// Two vectors lie in the same coset iff their canonical representatives agree.
    pub fn full_reduce(&self, v: u64) -> u64 {
        let reduced = self.reduce(v);
        // After `reduce` the pivot bits are clear, but rows have non-pivot bits; the
        // representative is already unique because every pivot bit is zero.
        debug_assert!(self.rows.iter().all(|&(p, _)| reduced >> p & 1 == 0));
        reduced
    }

    /// True when `v` lies in the subspace.
    pub fn contains(&self, v: u64) -> bool {
        self.reduce(v) == 0
    }

    /// Adds `v` to the spanning set; returns true when the dimension grew.
    pub fn insert(&mut self, v: u64) -> bool {
        let r = self.reduce(v);
        if r == 0 {
            return false;
        }
        let p = r.trailing_zeros();
        // Keep every other row free of the new pivot so rows stay fully reduced.
        for row in &mut self.rows {
            if row.1 >> p & 1 == 1 {
                row.1 ^= r;
            }
        }
        let pos = self.rows.partition_point(|&(q, _)| q < p);
        self.rows.insert(pos, (p, r));
        true
    }

    /// The basis vectors, in increasing pivot order (reduced row echelon form).
    pub fn basis(&self) -> Vec<u64> {
        self.rows.iter().map(|&(_, r)| r).collect()
    }

    /// The pivot columns of the basis, ascending.
    pub fn pivots(&self) -> Vec<u32> {
        self.rows.iter().map(|&(p, _)| p).collect()
    }

    /// `self + other`.
    pub fn sum(&self, other: &Subspace) -> Subspace {
        let mut s = self.clone();
        for v in other.basis() {
            s.insert(v);
        }
        s
    }

    /// `self ∩ other`, by Zassenhaus' algorithm on 128-bit rows `[u | u]`, `[v | 0]`.
    ///
    /// ```
    /// use bankcheck::f2::Subspace;
    /// let a = Subspace::span([0b001, 0b010]);
    /// let b = Subspace::span([0b011, 0b100]);
    /// assert_eq!(a.intersection(&b).basis(), vec![0b011]);
    /// ```
    pub fn intersection(&self, other: &Subspace) -> Subspace {
        // Rows sorted by pivot (lowest set bit); a reduced vector has every pivot bit clear.
        fn insert(rows: &mut Vec<u128>, mut v: u128) {
            for &r in rows.iter() {
                if v >> r.trailing_zeros() & 1 == 1 {
                    v ^= r;
                }
            }
            if v != 0 {
                let pos = rows.partition_point(|r| r.trailing_zeros() < v.trailing_zeros());
                rows.insert(pos, v);
            }
        }
        let mut rows: Vec<u128> = Vec::new();
        for u in self.basis() {
            insert(&mut rows, u128::from(u) | (u128::from(u) << 64));
        }
        for v in other.basis() {
            insert(&mut rows, u128::from(v));
        }
        Subspace::span(
            rows.iter()
                .filter(|&&r| r as u64 == 0)
                .map(|&r| (r >> 64) as u64),
        )
    }

    /// Unit vectors `e_j` (`j < n_bits`, ascending) that complete `self` to F2^n_bits:
    /// the non-pivot columns of the reduced basis.
    pub fn complement_units(&self, n_bits: u32) -> Vec<u64> {
        let pivots = self.pivots();
        (0..n_bits)
            .filter(|j| !pivots.contains(j))
            .map(|j| 1u64 << j)
            .collect()
    }

    /// Vectors from `candidates`, in order, that extend `self` to a basis of `self + span(candidates)`.
    pub fn extend_from(&self, candidates: impl IntoIterator<Item = u64>) -> Vec<u64> {
        let mut s = self.clone();
        candidates.into_iter().filter(|&v| s.insert(v)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute_span(vs: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64];
        for &v in vs {
            let more: Vec<u64> = out.iter().map(|x| x ^ v).collect();
            out.extend(more);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    proptest! {
        #[test]
        fn intersection_matches_brute_force(a in prop::collection::vec(0u64..256, 0..5), b in prop::collection::vec(0u64..256, 0..5)) {
            let sa = brute_span(&a);
            let sb = brute_span(&b);
            let common: Vec<u64> = sa.iter().copied().filter(|x| sb.contains(x)).collect();
            let i = Subspace::span(a.clone()).intersection(&Subspace::span(b.clone()));
            prop_assert_eq!(brute_span(&i.basis()), common);
        }

        #[test]
        fn dim_matches_span_size(a in prop::collection::vec(0u64..1024, 0..8)) {
            let s = Subspace::span(a.clone());
            prop_assert_eq!(1usize << s.dim(), brute_span(&a).len());
            for x in brute_span(&a) { prop_assert!(s.contains(x)); }
        }

        #[test]
        fn full_reduce_is_canonical(a in prop::collection::vec(0u64..256, 0..5), x in 0u64..256, y in 0u64..256) {
            let s = Subspace::span(a);
            prop_assert_eq!(s.full_reduce(x) == s.full_reduce(y), s.contains(x ^ y));
        }

        #[test]
        fn reduce_is_linear(a in prop::collection::vec(0u64..256, 0..6), x in 0u64..256, y in 0u64..256) {
            let s = Subspace::span(a);
            prop_assert_eq!(s.reduce(x ^ y), s.reduce(x) ^ s.reduce(y));
        }

        #[test]
        fn complement_completes(a in prop::collection::vec(0u64..256, 0..8)) {
            let s = Subspace::span(a);
            let full = s.sum(&Subspace::span(s.complement_units(8)));
            prop_assert_eq!(full.dim(), 8);
        }
    }
}
