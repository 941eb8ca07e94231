//! Writes a memory layout as new subscripts in the user's own index expressions:
//! for the 16x32 transpose, `tile[m][n]` becomes `tile[m][n ^ ((m & 15) << 1)]`.
//!
//! The new row-major subscripts are a linear function of the old coordinates' bits; it is
//! written dimension by dimension as the coordinate itself (when it passes through
//! unchanged) XORed with masked, shifted copies of the coordinates that feed it.

use super::layout::{dim_offsets, MemoryLayout};

/// One XOR term: `((coord[src] & mask) << shift)` (a right shift when `shift < 0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Term {
    pub src: usize,
    pub mask: u64,
    pub shift: i32,
}

/// The new subscript of one dimension.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DimFormula {
    /// The dimension's own coordinate passes through unchanged (then XORed with `terms`).
    pub keeps_self: bool,
    pub terms: Vec<Term>,
}

/// The new subscripts of every dimension (outermost first) that store the array with
/// layout `mem` in the declared row-major array; `None` for non-power-of-two extents.
pub fn formulas(mem: &MemoryLayout, extents: &[u64]) -> Option<Vec<DimFormula>> {
    let offs = dim_offsets(extents)?;
    let q = mem.offsets()?;
    // Row-major position of each dimension: the last dimension is least significant.
    let mut rm_at = vec![0u32; extents.len()];
    let mut at = 0u32;
    for j in (0..extents.len()).rev() {
        rm_at[j] = at;
        at += offs[j].1;
    }
    if at as usize != mem.columns.len() {
        return None;
    }
    let mut out = vec![DimFormula::default(); extents.len()];
    for (j, formula) in out.iter_mut().enumerate() {
        // groups[(src, shift)] = mask of source bits landing in dimension j at bit + shift.
        let mut groups: Vec<(usize, i32, u64)> = Vec::new();
        for (k, &(logical_at, bits)) in offs.iter().enumerate() {
            for b in 0..bits {
                let off = q.apply(1u64 << (logical_at + b));
                for t in 0..offs[j].1 {
                    if off >> (rm_at[j] + t) & 1 == 1 {
                        let shift = t as i32 - b as i32;
                        match groups.iter_mut().find(|g| g.0 == k && g.1 == shift) {
                            Some(g) => g.2 |= 1u64 << b,
                            None => groups.push((k, shift, 1u64 << b)),
                        }
                    }
                }
            }
        }
        let full = (1u64 << offs[j].1) - 1;
        formula.keeps_self = groups.iter().any(|g| g.0 == j && g.1 == 0 && g.2 == full);
        groups.retain(|g| !(formula.keeps_self && g.0 == j && g.1 == 0));
        groups.sort_by_key(|g| (g.0, -g.1));
        formula.terms = groups
            .into_iter()
            .map(|(src, shift, mask)| Term { src, mask, shift })
            .collect();
    }
    Some(out)
}

/// True for text that needs no parentheses as an operand: a name, a number, a member access.
fn is_atom(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// `text` as an operand of `^`/`&`: parenthesised unless it is an atom.
pub fn operand(text: &str) -> String {
    let t = text.trim();
    if is_atom(t) {
        t.to_string()
    } else {
        format!("({t})")
    }
}

/// The new subscript texts, given the old ones (`texts[j]` is dimension j's index text).
pub fn render(formulas: &[DimFormula], texts: &[String]) -> Option<Vec<String>> {
    if formulas.len() != texts.len() {
        return None;
    }
    let mut out = Vec::with_capacity(texts.len());
    for (j, f) in formulas.iter().enumerate() {
        if f.keeps_self && f.terms.is_empty() {
            out.push(texts[j].trim().to_string());
            continue;
        }
        let mut parts = Vec::new();
        if f.keeps_self {
            parts.push(operand(&texts[j]));
        }
        for t in &f.terms {
            let src = texts.get(t.src)?;
            let masked = format!("({} & {})", operand(src), t.mask);
            parts.push(match t.shift {
                0 => masked,
                s if s > 0 => format!("({masked} << {s})"),
                s => format!("({masked} >> {})", -s),
            });
        }
        out.push(if parts.is_empty() {
            "0".to_string()
        } else {
            parts.join(" ^ ")
        });
    }
    Some(out)
}

/// `name[i0][i1]..` with the given subscript texts.
pub fn subscript(name: &str, indices: &[String]) -> String {
    let mut s = name.to_string();
    for i in indices {
        s.push('[');
        s.push_str(i);
        s.push(']');
    }
    s
}
