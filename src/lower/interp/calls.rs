//! Calls, tried in order: member functions ([`super::objects`]), built-ins
//! ([`super::builtins`]), vector built-ins, cooperative-group methods, preprocessor
//! markers, function-like macros (expanded here), and helpers inlined
//! ([`super::inlining`]); any other call gives data.

use super::budget::TOO_MUCH_WORK;
use super::{Interp, Value, Vars};
use crate::extract::ast::{Expr, ExprKind, UnaryOp};

impl Interp<'_> {
    /// A call `callee(args)` (with `template_args` written at it) and its value.
    pub(super) fn call(
        &mut self,
        e: &Expr,
        callee: &str,
        template_args: &[String],
        args: &[Expr],
    ) -> Value {
        if let Some(v) = self.cute_call(e, callee, args) {
            return v;
        }
        if let Some(v) = self.member_call(e, callee, template_args, args) {
            return v;
        }
        // `ns::name<T, 4>` written as one qualified name: split off the template arguments.
        let parsed_args: Vec<String>;
        let (callee, template_args) = match callee.split_once('<') {
            Some((name, rest)) if template_args.is_empty() && !callee.contains('(') => {
                parsed_args = rest
                    .trim_end_matches('>')
                    .split(',')
                    .map(|a| a.trim().to_string())
                    .collect();
                (name, parsed_args.as_slice())
            }
            _ => (callee, template_args),
        };
        let short = callee.rsplit("::").next().unwrap_or(callee);
        // A constructor spelled through a type macro or typedef (`AU2(x, y)`).
        let alias = self.syn.typedefs.get(short).filter(|t| t.pointers == 0);
        let short = alias.map_or(short, |t| t.base.as_str());
        let lower = short.to_ascii_lowercase();
        if lower.starts_with("atomic") || lower.starts_with("interlocked") {
            return self.atomic_call(short, &lower, args);
        }
        if let Some(v) = self.builtin_call(e, short, template_args, args) {
            return v;
        }
        if let Some(v) = self.vector_call(callee, args) {
            return v;
        }
        if let Some(v) = self.group_method(callee) {
            return v;
        }
        if let Some(v) = self.preproc_condition(callee, args) {
            return v;
        }
        if let Some(m) = self.syn.fn_macros.get(short) {
            if self.budget.exhausted() {
                return Value::Unknown(TOO_MUCH_WORK.into());
            }
            if let (true, Some(body)) = (m.params.len() == args.len(), m.body.get()) {
                let (params, body) = (m.params.clone(), body.clone());
                // A body that assigns a parameter assigns the argument written there
                // (`#define NEXT(v) v = perm[v]`): the arguments are put in its place.
                if assigns_a_parameter(&body, &params) {
                    return self.eval(&substituted(&body, &params, args));
                }
                let values: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
                self.scopes.push(Vars::default());
                for (p, v) in params.iter().zip(values) {
                    self.bind(p, v);
                }
                let v = self.eval(&body);
                self.scopes.pop();
                return v;
            }
            // A body that is no expression (statements, `{ ... }`), or a use with other
            // arguments: not interpreted, so what it may assign or access is not known.
            for a in args {
                self.eval(a);
            }
            self.unread_macro_call(e, short, args);
            return Value::Data(format!("the result of `{short}()`"));
        }
        if let Some(v) = self.inline_call(e, short, template_args, args) {
            return v;
        }
        for a in args {
            self.eval(a);
        }
        Value::Data(format!("the result of `{short}()`"))
    }
}

/// Whether the macro body `body` assigns or steps one of `params` (or what it names).
fn assigns_a_parameter(body: &Expr, params: &[String]) -> bool {
    let mut found = false;
    body.walk(&mut |e| {
        if let ExprKind::Assign(_, target, _) | ExprKind::IncDec(target, _) = &e.kind {
            let mut root = target.as_ref();
            while let ExprKind::Index(b, _)
            | ExprKind::Member(b, _)
            | ExprKind::Unary(UnaryOp::Deref, b) = &root.kind
            {
                root = b;
            }
            found |= matches!(&root.kind, ExprKind::Ident(n) if params.contains(n));
        }
    });
    found
}

/// `body` with each of `params` replaced by its argument, as the preprocessor does.
fn substituted(body: &Expr, params: &[String], args: &[Expr]) -> Expr {
    let sub = |e: &Expr| Box::new(substituted(e, params, args));
    let kind = match &body.kind {
        ExprKind::Ident(n) => match params.iter().position(|p| p == n) {
            Some(i) => return args[i].clone(),
            None => ExprKind::Ident(n.clone()),
        },
        ExprKind::Member(b, f) => ExprKind::Member(sub(b), f.clone()),
        ExprKind::Index(a, b) => ExprKind::Index(sub(a), sub(b)),
        ExprKind::Call {
            callee,
            template_args,
            args: call_args,
        } => ExprKind::Call {
            callee: callee.clone(),
            template_args: template_args.clone(),
            args: call_args
                .iter()
                .map(|a| substituted(a, params, args))
                .collect(),
        },
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, sub(a)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, sub(a), sub(b)),
        ExprKind::Assign(op, a, b) => ExprKind::Assign(*op, sub(a), sub(b)),
        ExprKind::IncDec(a, d) => ExprKind::IncDec(sub(a), *d),
        ExprKind::Cond(a, b, c) => ExprKind::Cond(sub(a), sub(b), sub(c)),
        ExprKind::Cast(t, a) => ExprKind::Cast(t.clone(), sub(a)),
        ExprKind::SizeofExpr(a) => ExprKind::SizeofExpr(sub(a)),
        ExprKind::Comma(items) => {
            ExprKind::Comma(items.iter().map(|a| substituted(a, params, args)).collect())
        }
        other => other.clone(),
    };
    Expr {
        span: body.span,
        kind,
    }
}
