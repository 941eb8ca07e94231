//! CuTe's integer tuples: an integer or a tuple of integer tuples (`Shape<_8, Shape<_2, _4>>`),
//! the shapes and strides of layouts.
//!
//! Arithmetic is checked: a product past `i64` is `None`, never a wrapped value, since
//! these integers come from the source text.

/// An integer or a nested tuple of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IntTuple {
    Int(i64),
    Tuple(Vec<IntTuple>),
}

impl IntTuple {
    /// The number of top-level modes: 1 for an integer.
    pub(crate) fn rank(&self) -> usize {
        match self {
            IntTuple::Int(_) => 1,
            IntTuple::Tuple(t) => t.len(),
        }
    }

    /// Mode `i` (an integer is its own mode 0).
    pub(crate) fn mode(&self, i: usize) -> Option<&IntTuple> {
        match self {
            IntTuple::Int(_) => (i == 0).then_some(self),
            IntTuple::Tuple(t) => t.get(i),
        }
    }

    /// The product of every integer (1 for the empty tuple).
    pub(crate) fn product(&self) -> Option<i64> {
        match self {
            IntTuple::Int(v) => Some(*v),
            IntTuple::Tuple(t) => t
                .iter()
                .try_fold(1i64, |acc, m| acc.checked_mul(m.product()?)),
        }
    }

    /// The integers, depth first.
    pub(crate) fn flatten(&self) -> Vec<i64> {
        let mut out = Vec::new();
        self.flatten_into(&mut out);
        out
    }

    fn flatten_into(&self, out: &mut Vec<i64>) {
        match self {
            IntTuple::Int(v) => out.push(*v),
            IntTuple::Tuple(t) => t.iter().for_each(|m| m.flatten_into(out)),
        }
    }

    /// Same nesting as `self` (an integer where `self` has one).
    pub(crate) fn congruent(&self, other: &IntTuple) -> bool {
        match (self, other) {
            (IntTuple::Int(_), IntTuple::Int(_)) => true,
            (IntTuple::Tuple(a), IntTuple::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.congruent(y))
            }
            _ => false,
        }
    }

    /// Rebuilds a tuple of `self`'s nesting from flat integers, in order.
    pub(crate) fn unflatten(&self, flat: &mut impl Iterator<Item = i64>) -> Option<IntTuple> {
        Some(match self {
            IntTuple::Int(_) => IntTuple::Int(flat.next()?),
            IntTuple::Tuple(t) => {
                IntTuple::Tuple(t.iter().map(|m| m.unflatten(flat)).collect::<Option<_>>()?)
            }
        })
    }
}

/// Compact strides for `shape`: column-major (`LayoutLeft`, the first mode fastest,
/// CuTe's `compact_col_major`) or row-major (`LayoutRight`, the last mode fastest),
/// starting at `current`, in the nesting of `shape`.
pub(crate) fn compact(shape: &IntTuple, row_major: bool, current: i64) -> Option<IntTuple> {
    let flat = shape.flatten();
    let mut strides = vec![0i64; flat.len()];
    let mut cur = current;
    let order: Vec<usize> = if row_major {
        (0..flat.len()).rev().collect()
    } else {
        (0..flat.len()).collect()
    };
    for i in order {
        strides[i] = cur;
        cur = cur.checked_mul(flat[i])?;
    }
    shape.unflatten(&mut strides.into_iter())
}

impl std::fmt::Display for IntTuple {
    /// CuTe's own notation: `(8,(2,4))`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IntTuple::Int(v) => write!(f, "{v}"),
            IntTuple::Tuple(t) => {
                write!(f, "(")?;
                for (i, m) in t.iter().enumerate() {
                    if i > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{m}")?;
                }
                write!(f, ")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(v: Vec<IntTuple>) -> IntTuple {
        IntTuple::Tuple(v)
    }
    use IntTuple::Int as I;

    #[test]
    fn compact_strides_follow_the_nesting() {
        // (2,(3,4)) column-major: 1, (2, 6); row-major: 12, (4, 1).
        let s = t(vec![I(2), t(vec![I(3), I(4)])]);
        assert_eq!(
            compact(&s, false, 1),
            Some(t(vec![I(1), t(vec![I(2), I(6)])]))
        );
        assert_eq!(
            compact(&s, true, 1),
            Some(t(vec![I(12), t(vec![I(4), I(1)])]))
        );
        assert_eq!(s.product(), Some(24));
        assert_eq!(s.flatten(), vec![2, 3, 4]);
    }

    #[test]
    fn products_do_not_wrap() {
        let s = t(vec![I(1 << 40), I(1 << 40)]);
        assert_eq!(s.product(), None);
    }
}
