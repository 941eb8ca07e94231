//! Linear maps F2^cols -> F2^64 as lists of column images.

use super::Subspace;

/// A linear map over F2, given by the images of the input unit vectors.
///
/// `columns[i]` is the image of `e_i`; `apply(x)` XORs the columns of the set bits of `x`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct BitMatrix {
    pub columns: Vec<u64>,
}

impl BitMatrix {
    /// The map with the given column images.
    pub fn from_columns(columns: Vec<u64>) -> Self {
        BitMatrix { columns }
    }

    /// The identity on F2^n.
    pub fn identity(n: u32) -> Self {
        BitMatrix {
            columns: (0..n).map(|i| 1u64 << i).collect(),
        }
    }

    /// Number of input bits.
    pub fn n_inputs(&self) -> usize {
        self.columns.len()
    }

    /// The image of `x` (bits of `x` beyond the inputs are ignored).
    ///
    /// ```
    /// use bankcheck::f2::BitMatrix;
    /// let m = BitMatrix::from_columns(vec![0b01, 0b11]);
    /// assert_eq!(m.apply(0b11), 0b10);
    /// ```
    pub fn apply(&self, x: u64) -> u64 {
        let mut out = 0;
        for (i, &c) in self.columns.iter().enumerate() {
            if x >> i & 1 == 1 {
                out ^= c;
            }
        }
        out
    }

    /// `self ∘ inner`: first `inner`, then `self`. Requires `inner`'s outputs to fit `self`'s inputs.
    pub fn compose(&self, inner: &BitMatrix) -> BitMatrix {
        BitMatrix {
            columns: inner.columns.iter().map(|&c| self.apply(c)).collect(),
        }
    }

    /// The image (column space).
    pub fn image(&self) -> Subspace {
        Subspace::span(self.columns.iter().copied())
    }

    /// Rank of the map.
    pub fn rank(&self) -> usize {
        self.image().dim()
    }

    /// A basis of the kernel, as input bit masks. `rank + kernel.len() == n_inputs`.
    pub fn kernel(&self) -> Vec<u64> {
        // Eliminate on rows [image | input-combination]; images reduced to zero give kernel vectors.
        let mut rows: Vec<(u64, u64)> = Vec::new();
        let mut kernel = Vec::new();
        for (i, &c) in self.columns.iter().enumerate() {
            let mut img = c;
            let mut comb = 1u64 << i;
            for &(r_img, r_comb) in &rows {
                if img >> r_img.trailing_zeros() & 1 == 1 {
                    img ^= r_img;
                    comb ^= r_comb;
                }
            }
            if img == 0 {
                kernel.push(comb);
            } else {
                // Keep rows fully reduced on their pivots so one pass suffices.
                let p = img.trailing_zeros();
                for row in &mut rows {
                    if row.0 >> p & 1 == 1 {
                        row.0 ^= img;
                        row.1 ^= comb;
                    }
                }
                rows.push((img, comb));
            }
        }
        kernel
    }

    /// An input `x` with `apply(x) == y`, or `None` when `y` is not in the image.
    pub fn solve(&self, y: u64) -> Option<u64> {
        let mut rows: Vec<(u64, u64)> = Vec::new();
        for (i, &c) in self.columns.iter().enumerate() {
            let mut img = c;
            let mut comb = 1u64 << i;
            for &(r_img, r_comb) in &rows {
                if img >> r_img.trailing_zeros() & 1 == 1 {
                    img ^= r_img;
                    comb ^= r_comb;
                }
            }
            if img != 0 {
                let p = img.trailing_zeros();
                for row in &mut rows {
                    if row.0 >> p & 1 == 1 {
                        row.0 ^= img;
                        row.1 ^= comb;
                    }
                }
                rows.push((img, comb));
            }
        }
        let mut rest = y;
        let mut x = 0;
        for &(r_img, r_comb) in &rows {
            if rest >> r_img.trailing_zeros() & 1 == 1 {
                rest ^= r_img;
                x ^= r_comb;
            }
        }
        (rest == 0).then_some(x)
    }

    /// The inverse of a square invertible map on F2^n (`n == n_inputs`, image == F2^n).
    pub fn inverse(&self) -> Option<BitMatrix> {
        let n = self.columns.len() as u32;
        if n > 64
            || self.rank() != n as usize
            || self.columns.iter().any(|&c| n < 64 && c >> n != 0)
        {
            return None;
        }
        let columns = (0..n)
            .map(|i| self.solve(1u64 << i))
            .collect::<Option<Vec<_>>>()?;
        Some(BitMatrix { columns })
    }

    /// The map restricted to the inputs selected by `mask` (kept in order).
    pub fn restrict_inputs(&self, mask: u64) -> BitMatrix {
        BitMatrix {
            columns: self
                .columns
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, &c)| c)
                .collect(),
        }
    }

    /// The map followed by keeping only the output bits in `mask`.
    pub fn mask_outputs(&self, mask: u64) -> BitMatrix {
        BitMatrix {
            columns: self.columns.iter().map(|&c| c & mask).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn rank_plus_kernel_is_inputs(cols in prop::collection::vec(0u64..64, 0..10)) {
            let m = BitMatrix::from_columns(cols);
            let k = m.kernel();
            prop_assert_eq!(m.rank() + k.len(), m.n_inputs());
            for v in k { prop_assert_eq!(m.apply(v), 0); }
        }

        #[test]
        fn solve_succeeds_exactly_on_image(cols in prop::collection::vec(0u64..64, 0..8), y in 0u64..64) {
            let m = BitMatrix::from_columns(cols);
            match m.solve(y) {
                Some(x) => prop_assert_eq!(m.apply(x), y),
                None => prop_assert!(!m.image().contains(y)),
            }
        }

        #[test]
        fn compose_is_associative(a in prop::collection::vec(0u64..64, 6), b in prop::collection::vec(0u64..64, 6), c in prop::collection::vec(0u64..64, 6)) {
            let (a, b, c) = (BitMatrix::from_columns(a), BitMatrix::from_columns(b), BitMatrix::from_columns(c));
            prop_assert_eq!(a.compose(&b).compose(&c), a.compose(&b.compose(&c)));
        }

        #[test]
        fn inverse_composes_to_identity(cols in prop::collection::vec(0u64..64, 6)) {
            let m = BitMatrix::from_columns(cols);
            if let Some(inv) = m.inverse() {
                prop_assert_eq!(inv.compose(&m), BitMatrix::identity(6));
                prop_assert_eq!(m.compose(&inv), BitMatrix::identity(6));
            } else {
                prop_assert!(m.rank() < 6);
            }
        }
    }
}
