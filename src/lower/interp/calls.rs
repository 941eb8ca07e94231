//! Calls, tried in order: member functions ([`super::objects`]), built-ins
//! ([`super::builtins`]), vector built-ins, cooperative-group methods, preprocessor
//! markers, function-like macros (expanded here), and helpers inlined
//! ([`super::inlining`]); any other call gives data.

use super::budget::TOO_MUCH_WORK;
use super::{Interp, Value, Vars};
use crate::extract::ast::Expr;

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
                let values: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
                self.scopes.push(Vars::default());
                for (p, v) in params.iter().zip(values) {
                    self.bind(p, v);
                }
                let v = self.eval(&body);
                self.scopes.pop();
                return v;
            }
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
