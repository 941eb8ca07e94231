//! Calls, tried in order: member functions ([`super::objects`]), built-ins
//! ([`super::builtins`]), vector built-ins, cooperative-group methods, preprocessor
//! markers, function-like macros (expanded here), and helpers inlined
//! ([`super::inlining`]); any other call gives data, and a shared object handed to it
//! whole is not read at the call ([`Interp::whole_object_handed_over`]).

use super::budget::TOO_MUCH_WORK;
use super::{Interp, Place, Value, Vars};
use crate::extract::ast::{Expr, ExprKind, UnaryOp};
use crate::extract::types::builtin;

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
        if let Some(m) = self.fn_macro_definition(short) {
            if self.budget.exhausted() {
                return Value::Unknown(TOO_MUCH_WORK.into());
            }
            let m = match m {
                Ok(m) => m,
                // Which definition the compiler expands is not known: what its arguments
                // name may be accessed there, and its value is unknown.
                Err(why) => {
                    for a in args {
                        self.eval(a);
                    }
                    self.unread_macro_call(e, short, args, Some(&why));
                    return Value::Unknown(why.into());
                }
            };
            let variadic = m.params.last().is_some_and(|p| p == VARIADIC);
            if let Some(expanded) = m
                .body
                .get()
                .filter(|_| variadic)
                .and_then(|body| variadic_expansion(body, &m.params, args))
            {
                // Reported where the macro is used, not where it is defined.
                let expanded = Expr {
                    span: e.span,
                    kind: expanded.kind,
                };
                return self.eval(&expanded);
            }
            if let (true, Some(body)) = (!variadic && m.params.len() == args.len(), m.body.get()) {
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
            self.unread_macro_call(e, short, args, None);
            return Value::Data(format!("the result of `{short}()`"));
        }
        if let Some(v) = self.inline_call(e, short, template_args, args) {
            return v;
        }
        for a in args {
            if self.whole_object_handed_over(a) {
                continue;
            }
            let v = self.eval(a);
            self.handed_to_undefined(&v, short);
        }
        Value::Data(format!("the result of `{short}()`"))
    }

    /// Whether argument `a` names a whole shared object of a class type at a warp-uniform
    /// address (`temp_storage`, `*shared_storage`, `storage.main_loop`) handed to a
    /// function or constructor bankcheck does not read. Bound to a reference there, it
    /// reads nothing at the call; copied, every lane reads the same bytes at once, which
    /// cannot conflict. Either way the call is no access of its own: the accesses are
    /// those the callee makes, checked where it is defined.
    pub(super) fn whole_object_handed_over(&mut self, a: &Expr) -> bool {
        if !names_an_object(a) {
            return false;
        }
        let uniform = |p: &Place| p.offset.var_mask() & 0b111 == 0;
        match self.place(a) {
            Some(Ok(p)) => {
                let ty = self.syn.typedefs.get(&p.ty.base).unwrap_or(&p.ty);
                let class = p.ty.pointers == 0
                    && ty.pointers == 0
                    && p.layout
                        .is_none_or(|l| l.size > 16 || builtin(&ty.base).is_none());
                uniform(&p) && class
            }
            // A member bankcheck cannot place, of a type it cannot lay out (a library's
            // storage), in an object at a warp-uniform address: a member's offset is a
            // constant, so its address is warp-uniform too.
            Some(Err(_)) => match &a.kind {
                ExprKind::Member(base, field) => matches!(self.place(base),
                    Some(Ok(p)) if uniform(&p) && self.unknown_member_type(&p.ty, field).is_some()),
                _ => false,
            },
            None => false,
        }
    }
}

/// An identifier, or members and dereferences of one: an expression whose place can be
/// found without evaluating anything that could itself access memory.
fn names_an_object(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Member(base, _) | ExprKind::Unary(UnaryOp::Deref, base) => names_an_object(base),
        _ => false,
    }
}

impl Interp<'_> {
    /// Notes on the array `v` points into that it was handed to `callee`, a function the
    /// file does not define: an included header may (`ArrayInfo::handed_to`).
    fn handed_to_undefined(&mut self, v: &Value, callee: &str) {
        let array = match v {
            Value::Array(a) | Value::Ptr { array: a, .. } => *a,
            _ => return,
        };
        if let Some(info) = self.arrays.get_mut(array) {
            if !info.handed_to.iter().any(|c| c == callee) {
                info.handed_to.push(callee.to_string());
            }
        }
    }
}

/// The last parameter of a variadic function-like macro (`#define F(a, ...)`).
pub(crate) const VARIADIC: &str = "...";

/// The body of variadic macro `#define F(a, ...) body` used with `args`, as the
/// preprocessor expands it: the named parameters replaced by their arguments and
/// `__VA_ARGS__`, written as whole arguments of calls (`impl(__VA_ARGS__)`), by the
/// rest of the arguments. `None` when `__VA_ARGS__` stands anywhere else (`(__VA_ARGS__,
/// 0)`), or too few arguments are given: the use is then not read.
fn variadic_expansion(body: &Expr, params: &[String], args: &[Expr]) -> Option<Expr> {
    let named = params.len() - 1;
    if args.len() < named {
        return None;
    }
    let spliced = splice_rest(body, &args[named..])?;
    Some(substituted(&spliced, &params[..named], &args[..named]))
}

/// `body` with every call argument `__VA_ARGS__` replaced by `rest`; `None` when
/// `__VA_ARGS__` appears anywhere but as a whole argument of a call that is the body or
/// an argument of such a call.
fn splice_rest(body: &Expr, rest: &[Expr]) -> Option<Expr> {
    let is_rest = |e: &Expr| matches!(&e.kind, ExprKind::Ident(n) if n == "__VA_ARGS__");
    let mut found = 0usize;
    body.walk(&mut |e| found += usize::from(is_rest(e)));
    let mut replaced = 0usize;
    let out = splice_in(body, rest, &is_rest, &mut replaced);
    (replaced == found).then_some(out)
}

/// [`splice_rest`]'s rewrite: the calls' arguments, recursively.
fn splice_in(
    e: &Expr,
    rest: &[Expr],
    is_rest: &dyn Fn(&Expr) -> bool,
    replaced: &mut usize,
) -> Expr {
    let kind = match &e.kind {
        ExprKind::Call {
            callee,
            template_args,
            args,
        } => {
            let mut out = Vec::with_capacity(args.len() + rest.len());
            for a in args {
                if is_rest(a) {
                    *replaced += 1;
                    out.extend(rest.iter().cloned());
                } else {
                    out.push(splice_in(a, rest, is_rest, replaced));
                }
            }
            ExprKind::Call {
                callee: callee.clone(),
                template_args: template_args.clone(),
                args: out,
            }
        }
        _ => return e.clone(),
    };
    Expr { span: e.span, kind }
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
