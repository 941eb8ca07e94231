//! The layout a verified fix gives an array, as a function from an element's logical
//! coordinates to its stored offset: the same function the re-simulation verified, kept
//! so that a bank map can show one instruction under the fix (`rules::bank_map`).

use super::layout::flatten_at;
use super::simulate::{lane_byte, row_major_offset};
use crate::f2::BitMatrix;
use crate::model::ir::{BinOp, Expr, LaneValues, LoweredAccess};

/// Where a fixed array stores each element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixLayout {
    pub offsets: FixOffsets,
    /// The source already XORs the last subscript and the fix replaces that XOR: the
    /// coordinates are the access's with the XORed term dropped (the right operand of the
    /// top-level `^` when true, else the left), as the fix search saw them.
    pub replaces_xor: Option<bool>,
}

/// The offset function of a fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixOffsets {
    /// An XOR swizzle: the flattened logical index (bit positions per dimension, `dims`)
    /// mapped by the offset matrix.
    Swizzle {
        matrix: BitMatrix,
        dims: Vec<(u32, u32)>,
    },
    /// Padded rows: the declared extents and the stored ones.
    Padding { logical: Vec<u64>, stored: Vec<u64> },
}

impl FixOffsets {
    /// The element offset of `coords` (outermost first); `None` out of bounds.
    pub fn offset(&self, coords: &[u64]) -> Option<u64> {
        match self {
            FixOffsets::Swizzle { matrix, dims } => {
                flatten_at(coords, dims).map(|f| matrix.apply(f))
            }
            FixOffsets::Padding { logical, stored } => row_major_offset(coords, logical, stored),
        }
    }
}

impl FixLayout {
    /// The byte address each lane of `lanes` touches under the fix (`None` for an inactive
    /// lane), evaluated as the re-simulation evaluates it; `None` when the access has no
    /// coordinates or a lane's cannot be placed.
    pub fn lane_addresses(
        &self,
        access: &LoweredAccess,
        lanes: &LaneValues,
        element_bytes: u32,
    ) -> Option<Vec<Option<i64>>> {
        let mut coords = access.coords.clone()?;
        if let Some(right_is_term) = self.replaces_xor {
            let last = coords.len().checked_sub(1)?;
            coords[last] = without_xor(&coords[last], right_is_term)?;
        }
        lanes
            .iter()
            .map(|lane| {
                let Some(values) = lane else {
                    return Some(None);
                };
                let cs: Vec<u64> = coords
                    .iter()
                    .map(|c| c.eval(values).and_then(|v| u64::try_from(v).ok()))
                    .collect::<Option<_>>()?;
                lane_byte(&cs, element_bytes, access.width.max(1), &|c| {
                    self.offsets.offset(c)
                })
                .map(Some)
            })
            .collect()
    }
}

/// The kept operand of a subscript `a ^ b`: `a` when the term is on the right.
pub fn without_xor(coord: &Expr, right_is_term: bool) -> Option<Expr> {
    let Expr::Binary(BinOp::Xor, l, r) = coord else {
        return None;
    };
    Some(if right_is_term { &**l } else { &**r }.clone())
}
