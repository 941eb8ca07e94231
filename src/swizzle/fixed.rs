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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::{Axis, BlockShape, VarInfo, VarKind};

    /// `tile[t][c ^ (t & 1)]` over a 32-lane warp, `c` a loop counter.
    fn xored_column() -> LoweredAccess {
        let t = Expr::Var(0);
        let last = Expr::bin(
            BinOp::Xor,
            Expr::Var(1),
            Expr::bin(BinOp::And, t.clone(), Expr::Const(1)),
        );
        LoweredAccess {
            vars: vec![
                VarInfo {
                    name: "threadIdx.x".into(),
                    kind: VarKind::Thread(Axis::X),
                    loop_value: None,
                },
                VarInfo {
                    name: "c".into(),
                    kind: VarKind::Counter { trips: Some(32) },
                    loop_value: None,
                },
            ],
            address: Expr::Const(0),
            width: 4,
            atomic: false,
            guards: Vec::new(),
            block: BlockShape { x: 32, y: 1, z: 1 },
            warp_size: 32,
            coords: Some(vec![t, last]),
            extents: vec![32, 32],
        }
    }

    #[test]
    fn places_lanes_as_the_fix_stores_them() {
        let access = xored_column();
        let lanes = access
            .warp_lane_values(0, &[("c".into(), 0)])
            .expect("one warp");
        let padded = FixOffsets::Padding {
            logical: vec![32, 32],
            stored: vec![32, 33],
        };
        // Kept as written: lane t reads element (t, t & 1) of rows of 33.
        let as_written = FixLayout {
            offsets: padded.clone(),
            replaces_xor: None,
        };
        let bytes = as_written
            .lane_addresses(&access, &lanes, 4)
            .expect("every lane placed");
        assert_eq!(bytes[3], Some(4 * (3 * 33 + 1)));
        // Replacing the XOR: lane t reads element (t, 0).
        let replacing = FixLayout {
            offsets: padded,
            replaces_xor: Some(true),
        };
        let bytes = replacing
            .lane_addresses(&access, &lanes, 4)
            .expect("every lane placed");
        assert_eq!(bytes[3], Some(4 * 3 * 33));
        // A coordinate outside the declared extents is not placed.
        let small = FixLayout {
            offsets: FixOffsets::Padding {
                logical: vec![16, 32],
                stored: vec![16, 33],
            },
            replaces_xor: None,
        };
        assert_eq!(small.lane_addresses(&access, &lanes, 4), None);
    }
}
