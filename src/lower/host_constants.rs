//! Non-type template arguments of a launch spelled as a `const` local of the host
//! function (`const uint BM = 64; ... sgemm<BM, BN><<<grid, block>>>(...)`, as
//! SGEMM_CUDA's runner writes every launch): the local's value, when its declaration is
//! the one in scope at the launch and its initialiser integer arithmetic on literals and
//! such locals (`constexpr uint WMITER = (WM * WN) / (32 * TM * TN * WNITER);`).

use crate::extract::ast::{BinaryOp, Expr, ExprKind, Function, UnaryOp};

/// Most locals one value is computed through.
const MAX_DEPTH: u32 = 8;

/// The value of `name`, a `const` (or `constexpr`) integer local of `host` in scope at
/// byte `at` of `text` (the host's text), computed from literals and such locals; `None`
/// otherwise.
pub fn literal_local(host: &Function, name: &str, at: usize, text: &str) -> Option<i64> {
    local_value(host, name, at, text, 0)
}

fn local_value(host: &Function, name: &str, at: usize, text: &str, depth: u32) -> Option<i64> {
    if host.foreign_text.is_some() || depth > MAX_DEPTH {
        return None;
    }
    let mut last = None;
    for s in &host.body {
        s.walk_decls(&mut |d| {
            if d.name == name && d.extents.is_empty() && d.span.end <= at {
                last = Some(d.clone());
            }
        });
    }
    let d = last?;
    if !d.is_const || d.ty.pointers > 0 || d.reference {
        return None;
    }
    if !in_scope(text.get(d.span.end..at)?) {
        return None;
    }
    let v = value_of(host, d.init.as_ref()?, d.span.start, text, depth)?;
    // An unsigned local does not hold a negative value (it would wrap).
    let unsigned = ["unsigned", "uint", "size_t"]
        .iter()
        .any(|u| d.ty.base.contains(u));
    (v >= 0 || !unsigned).then_some(v)
}

/// `e`, written at byte `at`, as integer arithmetic on literals and `const` locals.
fn value_of(host: &Function, e: &Expr, at: usize, text: &str, depth: u32) -> Option<i64> {
    let v = |x: &Expr| value_of(host, x, at, text, depth);
    match &e.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Ident(n) => local_value(host, n, at, text, depth + 1),
        ExprKind::Unary(UnaryOp::Neg, a) => v(a)?.checked_neg(),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (v(a)?, v(b)?);
            match op {
                BinaryOp::Add => a.checked_add(b),
                BinaryOp::Sub => a.checked_sub(b),
                BinaryOp::Mul => a.checked_mul(b),
                BinaryOp::Div => a.checked_div(b),
                BinaryOp::Rem => a.checked_rem(b),
                BinaryOp::Shl => u32::try_from(b).ok().and_then(|s| a.checked_shl(s)),
                BinaryOp::Shr => u32::try_from(b).ok().and_then(|s| a.checked_shr(s)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether a declaration followed by `between` (the text up to a use) is still in scope
/// at the use: no `}` closes its block in between (comments and literals skipped).
fn in_scope(between: &str) -> bool {
    let b = between.as_bytes();
    let mut depth = 0i64;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::in_scope;

    #[test]
    fn a_closed_block_ends_the_scope() {
        assert!(in_scope(" x; { int y; } f<A><<<1, 2>>>();"));
        assert!(!in_scope(" x; } else { f<A><<<1, 2>>>();"));
        assert!(in_scope(" x; printf(\"}\"); // }\n /* } */ f<A>"));
    }
}
