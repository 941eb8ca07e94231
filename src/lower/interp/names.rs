//! What an identifier denotes: a local, a built-in (`threadIdx`, `blockDim`, `warpSize`),
//! a static member, a file constant or macro (evaluated once, in its namespace), a
//! shared array declared at file scope, or, in a condition, a run-time uniform value.

use super::{int, Interp, Value, Vars};
use crate::extract::ast::Expr;
use crate::model::reason::Reason;

impl<'a> Interp<'a> {
    /// The value of identifier `name`.
    pub(super) fn ident(&mut self, name: &str) -> Value {
        if let Some(v) = self.lookup(name) {
            return v.clone();
        }
        match name {
            "threadIdx" => return self.vec3_threads(),
            "blockDim" => {
                let b = self.shape_reads.whole(self.block);
                return Value::Vector(vec![
                    Value::Int(int(i64::from(b.x))),
                    Value::Int(int(i64::from(b.y))),
                    Value::Int(int(i64::from(b.z))),
                ]);
            }
            "blockIdx" | "gridDim" | "clusterIdx" => {
                let lo = i64::from(name == "gridDim");
                let c = |s: &mut Self, a: &str| {
                    Value::Int(s.uniform(&format!("{name}.{a}"), Some((lo, 65535))))
                };
                return Value::Vector(vec![c(self, "x"), c(self, "y"), c(self, "z")]);
            }
            "warpSize" => return Value::Int(int(i64::from(self.warp_size))),
            "true" => return Value::Int(int(1)),
            "false" | "nullptr" | "NULL" => return Value::Int(int(0)),
            _ => {}
        }
        if let Some(v) = self.own_static_member(name) {
            return v;
        }
        if let Some(v) = self.static_member(name) {
            return v;
        }
        if let Some((key, def)) = self.find_constant(name) {
            if let Some(v) = self.names.const_cache.get(&key) {
                return v.clone();
            }
            // Guard against self-referential macros.
            self.names.const_cache.insert(
                key.clone(),
                Value::Unknown(format!("`{name}` is defined in terms of itself").into()),
            );
            // Names inside the definition resolve from the definition's namespace first.
            let prefix = key.rsplit_once("::").map(|(p, _)| p.to_string());
            if let Some(p) = &prefix {
                self.names.ns_context.push(p.clone());
            }
            let v = match self.constant_branch(name, &key) {
                Ok(chosen) => self.eval(chosen.unwrap_or(def)),
                Err(why) => Value::Unknown(why),
            };
            if prefix.is_some() {
                self.names.ns_context.pop();
            }
            self.names.const_cache.insert(key, v.clone());
            return v;
        }
        // A shared array declared at file scope.
        if let Some(d) = self
            .syn
            .global_shared
            .iter()
            .find(|d| d.name == name)
            .cloned()
        {
            let saved = std::mem::take(&mut self.scopes);
            self.scopes = vec![Vars::default()];
            let idx = self.register_array(&d);
            // A header's array, added for a lowering through its includer, is the header's.
            if self.syn.foreign_shared.contains(name) {
                self.arrays[idx].foreign = true;
            }
            self.scopes = saved;
            if let Some(s) = self.scopes.first_mut() {
                s.insert(name.to_string(), Value::Array(idx));
            }
            return Value::Array(idx);
        }
        if let Some(v) = self.shader_constant(name) {
            return v;
        }
        if let Some(v) = self.type_param_member(name) {
            return v;
        }
        if self.names.unresolved_as_uniform && !name.contains("::") {
            return Value::Int(self.uniform(name, None));
        }
        let bare = name.rsplit("::").next().unwrap_or(name);
        if let Some(candidates) = self.syn.ambiguous_constant(bare) {
            return Value::Unknown(Reason::ambiguous(name, candidates));
        }
        Value::Unknown(Reason::unresolved(name))
    }

    /// The definition of constant `name` and the key it was found under: a `-D` define,
    /// then the name qualified by the namespaces of the definition being evaluated (innermost
    /// first), then the name as written, then with leading qualifiers dropped.
    /// The definition is borrowed from the file's syntax: a cached constant is not cloned.
    pub(super) fn find_constant(&self, name: &str) -> Option<(String, &'a Expr)> {
        if let Some(d) = self.extra_constants.get(name) {
            return Some((name.to_string(), d));
        }
        let syn = self.syn;
        let def = |k: &str| {
            syn.constants
                .get(k)
                .or_else(|| syn.macros.get(k).and_then(|m| m.get()))
        };
        if let Some(ctx) = self.names.ns_context.last() {
            let mut prefix = ctx.as_str();
            loop {
                let k = format!("{prefix}::{name}");
                if let Some(d) = def(&k) {
                    return Some((k, d));
                }
                match prefix.rsplit_once("::") {
                    Some((p, _)) => prefix = p,
                    None => break,
                }
            }
        }
        let mut rest = name;
        loop {
            if let Some(d) = def(rest) {
                return Some((rest.to_string(), d));
            }
            match rest.split_once("::") {
                Some((_, r)) => rest = r,
                None => return None,
            }
        }
    }

    /// The value of a non-type template argument written at a call: a literal, a name,
    /// or an expression over the caller's values (`V_rows_per_thread/2*sizeof(float)`),
    /// which keeps what it says about them: a helper's `if constexpr (nbytes == 1)` is
    /// then decided by the caller's value, not taken as any value.
    pub(super) fn template_value(&mut self, text: &str) -> Value {
        if let Some(v) = crate::extract::convert::parse_int(text) {
            return Value::Int(int(v));
        }
        if !text.is_empty()
            && text
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
        {
            return self.ident(text);
        }
        match crate::extract::parse_snippet(text, self.language(), crate::diag::Span::new(0, 0)) {
            Some(e) => match self.eval(&e) {
                v @ (Value::Int(_) | Value::Unknown(_)) => v,
                _ => Value::Unknown(format!("the template argument `{text}`").into()),
            },
            None => Value::Unknown(format!("the template argument `{text}`").into()),
        }
    }
}
