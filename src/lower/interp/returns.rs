//! The value of an inlined helper with several `return`s.
//!
//! Each `return` is recorded with the guards in force since the helper was entered; the
//! helper's value is the first return whose guards hold: `select(g1, v1, select(g2, v2,
//! ... vn))`. The guards of a later return already exclude the lanes that returned
//! earlier (an `if` that returns guards the rest of its block), and the last return is
//! what lanes reaching it get. A side whose value is unknown makes the merged value
//! unknown for that side's reason, not for the merge's. A return
//! under control flow bankcheck does not follow as
//! a guard (a condition it cannot evaluate, a loop, a switch) makes the value unknown;
//! one under `if`s on data only makes it data.

use super::{fold, Interp, Returns, Value};
use crate::model::ir::{BinOp, Expr as Ir};

impl Returns {
    /// The helper may return before its end (a guarded or unfollowed return).
    pub(super) fn returns_early(&self) -> bool {
        self.opaque || self.on_data || self.entries.iter().any(|(g, _)| g.is_some())
    }
}

impl Interp<'_> {
    /// Records a `return` of the helper being inlined.
    pub(super) fn record_return(&mut self, v: Option<Value>) {
        let r = &self.calls.returns;
        // After an unconditional return nothing else is reached.
        if r.entries.last().is_some_and(|(g, _)| g.is_none()) {
            return;
        }
        // Under unfollowed control flow: when all of it is `if`s on data, the value
        // depends on data; otherwise it is not known.
        let opaque = self.flow.opaque.saturating_sub(r.opaque_base);
        if opaque > 0 {
            if opaque == self.flow.data_ifs.saturating_sub(r.data_base) {
                self.calls.returns.on_data = true;
            } else {
                self.calls.returns.opaque = true;
            }
        }
        let guard = self.flow.guards[self.calls.guard_base.min(self.flow.guards.len())..]
            .iter()
            .cloned()
            .reduce(|a, b| fold(BinOp::LogicAnd, a, b));
        let v = v.unwrap_or_else(|| Value::Unknown("a helper returns nothing".into()));
        self.calls.returns.entries.push((guard, v));
    }

    /// The helper's value from its recorded returns; `None` when it returned nothing.
    pub(super) fn helper_value(&mut self) -> Option<Value> {
        let r = std::mem::take(&mut self.calls.returns);
        let mut entries = r.entries.into_iter().rev();
        let (_, last) = entries.next()?;
        let branch = || Value::Unknown("a helper returns from inside a branch".into());
        if r.opaque {
            return Some(branch());
        }
        // Returns under `if`s on data: which one a lane takes depends on data (a value
        // not known among them stays unknown).
        if r.on_data {
            let all = std::iter::once(last).chain(entries.map(|(_, v)| v));
            let mut unknown = None;
            for v in all {
                if let Value::Unknown(_) = v {
                    unknown.get_or_insert(v);
                }
            }
            return Some(unknown.unwrap_or_else(|| {
                Value::Data("a value a helper returns under a condition on data".into())
            }));
        }
        let mut value = last;
        for (guard, v) in entries {
            let Some(g) = guard else {
                return Some(branch());
            };
            value = match (v, value) {
                // A side that is not known leaves the value unknown, for that side's
                // reason (the merge itself is sound).
                (u @ Value::Unknown(_), _) | (_, u @ Value::Unknown(_)) => u,
                (Value::Int(a), Value::Int(b)) => {
                    Value::Int(Ir::Select(Box::new(g), Box::new(a), Box::new(b)))
                }
                (a, b) if a == b => a,
                (a @ Value::Vector(_), b @ Value::Vector(_)) => {
                    crate::lower::vector::merge(&a, &b, |x, y| match (x, y) {
                        (Value::Int(x), Value::Int(y)) => Some(Value::Int(Ir::Select(
                            Box::new(g.clone()),
                            Box::new(x.clone()),
                            Box::new(y.clone()),
                        ))),
                        _ => None,
                    })
                    .unwrap_or_else(branch)
                }
                (d @ Value::Data(_), _) | (_, d @ Value::Data(_)) => d,
                (Value::Real(_), _) | (_, Value::Real(_)) => {
                    Value::Data("a floating-point value returned under a condition".into())
                }
                _ => branch(),
            };
        }
        Some(value)
    }
}
