//! `size(x)`, `size<I...>(x)` and `cosize` of CuTe tensors, layouts and tiled copies,
//! and the sizes a static assertion ties to known ones: CuTe's copy and GEMM helpers
//! loop over a mode of a global-memory tensor bankcheck does not follow
//! (`for (m = 0; m < size<1>(S); ++m)`) after asserting it equal to that mode of the
//! shared one (`CUTE_STATIC_ASSERT_V(size<1>(S) == size<1>(D))`). An assertion every
//! compilation checks is a fact, so the loop's trip count is known and its counter is
//! enumerated whole, where a count not known leaves it sampled.

use super::super::{Interp, Value};
use crate::extract::ast::{BinaryOp, Expr, ExprKind};
use crate::lower::cute::layout::Layout;
use crate::lower::cute::reader;
use crate::model::ir::Expr as Ir;

/// The macros that assert a compile-time condition (CuTe's spelling of `static_assert`
/// on an integral constant's value).
const STATIC_ASSERTIONS: &[&str] = &["CUTE_STATIC_ASSERT_V", "CUTE_STATIC_ASSERT"];

/// A key no identifier can be: the scope variable that holds an asserted size.
fn fact_key(callee: &str, modes: &[i64], name: &str) -> String {
    let modes: Vec<String> = modes.iter().map(i64::to_string).collect();
    format!("#{callee}<{}>({name})", modes.join(","))
}

/// The callee without `cute::`, the mode path of its template arguments (`size<1, 0>`)
/// and its one argument, of a `size` or `cosize` call; `None` for any other expression
/// or a template argument that is no integer literal.
fn size_call_parts(e: &Expr) -> Option<(&str, Vec<i64>, &Expr)> {
    let ExprKind::Call {
        callee,
        template_args,
        args,
    } = &e.kind
    else {
        return None;
    };
    let short = callee.strip_prefix("cute::").unwrap_or(callee);
    if !matches!(short, "size" | "cosize") || args.len() != 1 {
        return None;
    }
    let modes = template_args
        .iter()
        .map(|a| a.trim().parse::<i64>().ok().filter(|m| *m >= 0))
        .collect::<Option<Vec<i64>>>()?;
    Some((short, modes, &args[0]))
}

/// The sub-layout at a mode path (`get<1, 0>(l)`).
fn mode_at(l: Layout, modes: &[i64]) -> Option<Layout> {
    modes
        .iter()
        .try_fold(l, |l, &m| l.mode(usize::try_from(m).ok()?))
}

impl Interp<'_> {
    /// `size(x)`, `size<I...>(x)`, `cosize(x)` and `cosize<I...>(x)`: the size (or
    /// cosize) of the layout of a shared tensor, a layout or shape bankcheck reads, or
    /// the threads of a tiled copy; else a size asserted equal to one known
    /// ([`Interp::static_assertion`]); `None` when neither.
    pub(super) fn size_call(&mut self, e: &Expr, short: &str, arg: &Expr) -> Option<Value> {
        let Some((_, modes, _)) = size_call_parts(e) else {
            return Some(Value::Unknown(
                format!("the mode `{short}` takes is not an integer bankcheck reads").into(),
            ));
        };
        let l = match self.tensor_arg(arg) {
            Some(t) => t.layout.ok().map(|l| l.layout),
            None => match self.read_cute(arg).ok() {
                // A tiled copy's size is its threads (`size<0>(TiledLayout_TV)`).
                Some(reader::Value::TiledCopy(tc)) if short == "size" && modes.is_empty() => {
                    tc.layout_tv.mode(0)
                }
                Some(reader::Value::TiledCopy(_)) => None,
                Some(v) => v.layout().map(|l| l.layout),
                None => None,
            },
        };
        let Some(l) = l else {
            return self.asserted_size(short, &modes, arg);
        };
        let Some(l) = mode_at(l, &modes) else {
            return Some(Value::Unknown(
                format!("`{short}` names a mode the layout does not have").into(),
            ));
        };
        let n = if short == "size" {
            l.size()
        } else {
            l.cosize()
        };
        Some(n.map_or_else(
            || Value::Unknown("the size of a CuTe layout overflows".into()),
            |n| Value::Int(Ir::Const(n)),
        ))
    }

    /// The size a static assertion in scope tied to `short<modes>(arg)`, when `arg` is a
    /// name no declaration after the assertion shadows.
    fn asserted_size(&self, short: &str, modes: &[i64], arg: &Expr) -> Option<Value> {
        let ExprKind::Ident(name) = &arg.kind else {
            return None;
        };
        let key = fact_key(short, modes, name);
        let at = self.scopes.iter().rposition(|s| s.contains_key(&key))?;
        let bound = self.scopes.iter().rposition(|s| s.contains_key(name));
        if bound.is_some_and(|b| b > at) {
            return None;
        }
        self.scopes[at].get(&key).cloned()
    }

    /// `CUTE_STATIC_ASSERT_V(size<1>(S) == size<1>(D))` as a statement: when one side's
    /// size is known and the other is the size of a name's mode that is not, the
    /// assertion is kept in scope as that size. Nothing is evaluated at run time, so
    /// nothing else is done. `false` for any other statement.
    pub(in crate::lower::interp) fn static_assertion(&mut self, e: &Expr) -> bool {
        let ExprKind::Call { callee, args, .. } = &e.kind else {
            return false;
        };
        let short = callee.rsplit("::").next().unwrap_or(callee);
        if !STATIC_ASSERTIONS.contains(&short) {
            return false;
        }
        if let Some(ExprKind::Binary(BinaryOp::Eq, a, b)) = args.first().map(|a| &a.kind) {
            self.assert_equal_sizes(a, b);
            self.assert_equal_sizes(b, a);
        }
        true
    }

    /// Records `unknown == known` when `unknown` is a size call on a name that
    /// bankcheck cannot size and `known` is one it can.
    fn assert_equal_sizes(&mut self, unknown: &Expr, known: &Expr) {
        let (Some((short, modes, arg)), Some((known_short, _, known_arg))) =
            (size_call_parts(unknown), size_call_parts(known))
        else {
            return;
        };
        let ExprKind::Ident(name) = &arg.kind else {
            return;
        };
        if matches!(self.size_call(unknown, short, arg), Some(Value::Int(_))) {
            return;
        }
        if let Some(Value::Int(Ir::Const(n))) = self.size_call(known, known_short, known_arg) {
            self.bind(&fact_key(short, &modes, name), Value::Int(Ir::Const(n)));
        }
    }
}
