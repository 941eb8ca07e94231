//! A comparison the grammar reads as a template call: in `m < size<1>(S)`, tree-sitter
//! takes `m<size<1>` for a template name with the argument `size<1` and `(S)` for its
//! call (CuTe's copy loops, `for (int m = 0; m < size<1>(S); ++m)`). A template
//! argument with a `<` it does not close is no C++ type or value, so such a call is
//! the comparison `m < size<1>(S)` the compiler reads: the callee compared with the call
//! of the argument's name, the rest of the argument its template arguments.

use super::ast::{BinaryOp, Expr, ExprKind};
use crate::diag::Span;

/// `callee<targs>(args)` read back as `callee < inner<rest>(args)` when `callee` is a
/// plain name and the first template argument is `inner<rest` with one `<` left open
/// (the later ones holding no angle bracket), taking `args` for that call; `None`,
/// taking nothing, for a true template call.
/// `callee_span` is the name's, `targs_start` where the first template argument
/// begins, `whole` the call's.
pub(super) fn misread_comparison(
    callee: &str,
    callee_span: Span,
    targs: &[String],
    targs_start: usize,
    args: &mut Vec<Expr>,
    whole: Span,
) -> Option<ExprKind> {
    let is_name = |s: &str| {
        let mut c = s.chars();
        c.next()
            .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
            && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
    };
    if !is_name(callee) {
        return None;
    }
    let (first, later) = targs.split_first()?;
    let (inner, open) = first.split_once('<')?;
    let inner = inner.trim();
    let angle = |s: &str| s.contains(['<', '>']);
    let qualified = inner.split("::").all(is_name);
    if !qualified || angle(open) || later.iter().any(|t| angle(t)) {
        return None;
    }
    let inner_targs: Vec<String> = std::iter::once(open.trim().to_string())
        .chain(later.iter().cloned())
        .filter(|t| !t.is_empty())
        .collect();
    let call = Expr {
        span: Span::new(targs_start, whole.end),
        kind: ExprKind::Call {
            callee: inner.to_string(),
            template_args: inner_targs,
            args: std::mem::take(args),
        },
    };
    let lhs = Expr {
        span: callee_span,
        kind: ExprKind::Ident(callee.to_string()),
    };
    Some(ExprKind::Binary(
        BinaryOp::Lt,
        Box::new(lhs),
        Box::new(call),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(callee: &str, targs: &[&str]) -> Option<ExprKind> {
        let targs: Vec<String> = targs.iter().map(ToString::to_string).collect();
        misread_comparison(
            callee,
            Span::new(0, 1),
            &targs,
            4,
            &mut Vec::new(),
            Span::new(0, 10),
        )
    }

    #[test]
    fn an_open_angle_in_the_argument_is_a_comparison() {
        let Some(ExprKind::Binary(BinaryOp::Lt, lhs, rhs)) = parts("m", &["size<1"]) else {
            panic!("not read as a comparison");
        };
        assert_eq!(lhs.kind, ExprKind::Ident("m".into()));
        let ExprKind::Call {
            callee,
            template_args,
            ..
        } = rhs.kind
        else {
            panic!("no call");
        };
        assert_eq!(
            (callee.as_str(), template_args),
            ("size", vec!["1".to_string()])
        );
        let Some(ExprKind::Binary(_, _, rhs)) = parts("i", &["cute::size<1", "0"]) else {
            panic!("not read as a comparison");
        };
        assert!(
            matches!(rhs.kind, ExprKind::Call { ref callee, ref template_args, .. }
                if callee == "cute::size" && template_args == &["1".to_string(), "0".to_string()])
        );
    }

    #[test]
    fn true_template_calls_stay_calls() {
        assert!(parts("f", &["T"]).is_none());
        assert!(parts("f", &["Shape<_8, _4>"]).is_none());
        assert!(parts("ns::f", &["size<1"]).is_none());
        assert!(parts("f", &["a<b<c"]).is_none());
        assert!(parts("f", &["1 + 2<3"]).is_none());
    }
}
