//! Leaf module: linear algebra over F2 = {0, 1}, on bit vectors packed in `u64`.
//!
//! Vectors are `u64` bit masks (bit `i` = coordinate `i`), addition is XOR. A
//! [`Subspace`] is kept as an echelon basis with lowest-bit pivots; a [`BitMatrix`]
//! is a list of columns (the images of the input unit vectors). Everything here is
//! exact; nothing here knows about GPUs, banks or source code.

mod matrix;
mod subspace;

pub use matrix::BitMatrix;
pub use subspace::Subspace;

/// The unit vector `e_i`.
///
/// ```
/// assert_eq!(bankcheck::f2::unit(3), 0b1000);
/// ```
pub fn unit(i: u32) -> u64 {
    1u64 << i
}

/// Parity of the bits of `v` (the F2 dot product of `v` with all-ones).
pub fn parity(v: u64) -> bool {
    v.count_ones() % 2 == 1
}
