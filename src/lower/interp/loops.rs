//! Loops: the induction variable a `for` steps becomes `start + step * k` over a counter
//! `k` (or a shift by `k`), simple inductions of the body get closed forms, state that
//! cycles through a few values becomes a function of `k` (`loop_state.rs`), the trip
//! count is computed when every lane's is known, and whatever else the body assigns is
//! unknown.

use super::budget::MAX_TRIP_EVALS;
use super::{fold, int, Interp, Value, Vars};
use crate::extract::ast::{Expr, Stmt};
use crate::lower::assigned_memo::AssignedMemo;
use crate::lower::steps::{step_of, Step};
use crate::model::ir::{BinOp, Expr as Ir, VarInfo, VarKind};

impl Interp<'_> {
    /// Interprets `for (init; cond; update) body`.
    pub(super) fn for_stmt(
        &mut self,
        init: &[Stmt],
        cond: Option<&Expr>,
        update: &[Expr],
        body: &Stmt,
    ) {
        self.scopes.push(Vars::default());
        let guard_len = self.flow.guards.len();
        for s in init {
            self.stmt(s);
        }
        // Find the induction variable: the one the update steps, by a step the loop does
        // not change (`j0 += w` with `w` assigned in the body steps by the value of `w`
        // in each iteration, not by its first).
        let updates = Stmt::Block(update.iter().cloned().map(Stmt::Expr).collect());
        // What the body, the update and their statements assign, asked once each.
        let mut memo = AssignedMemo::default();
        let in_body = memo.of(body);
        let in_updates = memo.of(&updates);
        let mut changed = in_body.to_vec();
        changed.extend(in_updates.iter().cloned());
        let induction = update
            .iter()
            .find_map(step_of)
            .filter(|(name, step)| !step_mentions(step, &changed, name));
        let counter = induction
            .as_ref()
            .and_then(|(name, step)| Some((self.loop_counter(name, step, body)?, name.clone())));
        let unknown_start = match (&induction, &counter) {
            (Some((name, step)), None) => self.unknown_start(name, step),
            _ => None,
        };
        // What the update assigns besides a followed loop variable (`j = j * 3 + 1`, a
        // second variable `i++, j--`, a step bankcheck cannot follow) changes across
        // iterations like what the body assigns: it must not keep its first value.
        let followed = counter.as_ref().map(|(_, n)| n);
        // Other variables assigned in the body or the update: simple `x += c` inductions,
        // else unknown.
        let mut assigned = in_body.to_vec();
        for n in in_updates.iter() {
            if !assigned.contains(n) {
                assigned.push(n.clone());
            }
        }
        assigned.retain(|n| Some(n) != followed);
        let mut body_inductions = Vec::new();
        let mut closed_forms = Vec::new();
        let mut unknown_starts: Vec<(String, Value)> = Vec::new();
        for name in &assigned {
            // A variable the update steps is stepped once per iteration when the body
            // leaves it alone.
            let step = if in_body.contains(name) {
                crate::lower::induction::body_step(body, name, &mut memo)
            } else {
                crate::lower::induction::body_step(&updates, name, &mut memo)
            };
            let (Some((k, _)), Some(start), Some(step)) =
                (&counter, self.lookup(name).cloned(), step)
            else {
                continue;
            };
            if !matches!(start, Value::Int(_) | Value::Unknown(_) | Value::Data(_)) {
                continue;
            }
            // A step that reads the loop's own variable (`x += i`) is not the same in every
            // iteration: the closed form would multiply its value by `k`.
            let reads_counter = |s: &crate::lower::induction::StepValue| {
                let mut found = false;
                if let crate::lower::induction::StepValue::Add(a) = s {
                    a.each_var(&mut |v| found |= v == *k);
                }
                found
            };
            let Some(s) = crate::lower::induction::step_value(&step, &mut |e| self.eval_step(e))
                .filter(|s| !reads_counter(s))
            else {
                continue;
            };
            match start {
                Value::Int(x0) => {
                    let value = crate::lower::induction::closed_form(x0.clone(), &s, Ir::Var(*k));
                    self.assign(name, Value::Int(value));
                    body_inductions.push(name.clone());
                    closed_forms.push((name.clone(), x0, s));
                }
                // Stepped by a followed amount from a start that is not: unknown in the
                // body for the start's reason (a value after an earlier loop), not the loop's.
                start @ (Value::Unknown(_) | Value::Data(_)) => {
                    unknown_starts.push((name.clone(), start));
                }
                _ => {}
            }
        }
        // Inductions stepped under a condition that stays false once false
        // (`guarded_steps.rs`): known in their branch only.
        let registered = self.flow.guarded.len();
        let guarded = match &counter {
            Some((k, _)) => {
                let rest: Vec<String> = assigned
                    .iter()
                    .filter(|n| !body_inductions.contains(n))
                    .cloned()
                    .collect();
                self.guarded_steps(body, update, &rest, *k, &mut memo)
            }
            None => Vec::new(),
        };
        let mut unresolved: Vec<String> = assigned
            .iter()
            .filter(|n| !body_inductions.contains(n) && !guarded.contains(n))
            .cloned()
            .collect();
        // State cycling through a few values (ping-pong buffers, ring-buffer heads).
        let cycling = match &counter {
            Some((k, _)) => self.follow_loop_state(&unresolved, body, *k),
            None => Vec::new(),
        };
        unresolved.retain(|n| !cycling.contains(n));
        // State the same in every lane (`uniform_state.rs`): a fresh uniform value per
        // iteration, when the body keeps it uniform; else interpreted again without it.
        let mut carried = self.uniform_candidates(&unresolved, body, update);
        let snapshot = (!carried.is_empty()).then(|| self.snapshot());
        let (uniform_trips, condition) = loop {
            let rest: Vec<String> = unresolved
                .iter()
                .filter(|n| !carried.contains(n))
                .cloned()
                .collect();
            self.invalidate(&rest, "it changes across loop iterations");
            self.invalidate(&guarded, "it changes across loop iterations");
            for (name, start) in unknown_start.iter().chain(&unknown_starts) {
                self.assign(name, start.clone());
            }
            self.bind_uniform_state(&carried);
            let (uniform_trips, condition) =
                self.loop_condition(cond, counter.as_ref().map(|(k, _)| *k), !carried.is_empty());
            let saved_returned = self.flow.returned;
            // The body's own induction steps are the loop's, not extra assignments.
            self.flow.opaque += 1;
            self.block(std::slice::from_ref(body));
            self.flow.opaque -= 1;
            self.flow.returned = saved_returned;
            let failed = self.non_uniform_state(&carried, update);
            match &snapshot {
                Some(s) if !failed.is_empty() => {
                    self.restore(s);
                    // Once more, without any: what a failing variable feeds may make
                    // others fail, and each attempt costs a whole body.
                    carried.clear();
                }
                _ => break (uniform_trips, condition),
            }
        };
        self.flow.guards.truncate(guard_len);
        self.flow.guarded.truncate(registered);
        self.scopes.pop();
        // What the body leaves depending on data (assigned under a test of a loaded value)
        // depends on data after the loop too: that is why it is not followed, not the
        // iterations.
        let data: Vec<(String, Value)> = unresolved
            .iter()
            .filter_map(|n| match self.lookup(n) {
                Some(v @ Value::Data(_)) => Some((n.clone(), v.clone())),
                _ => None,
            })
            .collect();
        let mut after = unresolved;
        after.extend(guarded);
        after.extend(body_inductions);
        after.extend(cycling);
        self.invalidate(&after, "it changes across loop iterations");
        for (n, v) in data {
            self.assign(&n, v);
        }
        // Every lane ran the same known number of iterations: the inductions' final values.
        if let Some(t) = uniform_trips.filter(|_| !crate::lower::induction::leaves_early(body)) {
            for (name, x0, s) in closed_forms {
                let v = crate::lower::induction::closed_form(x0, &s, int(t as i64));
                self.assign(&name, Value::Int(v));
            }
        } else if let (Some((k, _)), false) = (&counter, closed_forms.is_empty()) {
            // Known in every iteration, unknown after: for the number of iterations.
            let why = self.unknown_trips(condition.as_ref(), *k, body);
            let names: Vec<String> = closed_forms.into_iter().map(|(n, _, _)| n).collect();
            self.invalidate(&names, &why);
        }
    }

    /// The value of a body induction's step at the loop's entry, as an integer. What it
    /// loads is not an access made there (`sum += s[j]` is interpreted in the body, with
    /// the body's `j`): no site is recorded.
    pub(super) fn eval_step(&mut self, e: &Expr) -> Option<Ir> {
        let sites = self.sites.len();
        let v = self.eval_int(e);
        self.sites.truncate(sites);
        v
    }

    /// The counter of a loop whose variable `name` the update steps by `step`: a new
    /// counter variable `k`, `name` set to its value in iteration `k` (`start + step * k`,
    /// or a shift by `k`); `None` when the step is not an integer or the loop variable
    /// is not otherwise followed.
    fn loop_counter(&mut self, name: &str, step: &Step, body: &Stmt) -> Option<usize> {
        // A floating-point loop variable that holds an integer counts like an integer one.
        let start = match self.lookup(name).cloned() {
            Some(Value::Real(r)) if r.terms.is_empty() && r.den == 1 => {
                Some(Value::Int(r.constant))
            }
            other => other,
        };
        let mut step_int = |e: &Expr| match self.eval_control(e) {
            Value::Int(i) => Some(i),
            _ => None,
        };
        let step_value = match step {
            Step::Add(e) => step_int(e).map(|s| (false, s)),
            Step::Sub(e) => step_int(e).map(|s| (false, fold(BinOp::Sub, int(0), s))),
            Step::Shl(e) => step_int(e).map(|s| (true, s)),
            Step::Shr(e) => step_int(e).map(|s| (true, fold(BinOp::Sub, int(0), s))),
        };
        let stepped = step_value.is_some();
        if let (Some(Value::Int(start)), Some((shift, step))) = (start, step_value) {
            let k = self.vars.len();
            let loop_value = start.as_const().zip(step.as_const()).map(|(start, step)| {
                crate::model::ir::LoopValue {
                    variable: name.to_string(),
                    start,
                    step,
                    shift,
                }
            });
            self.vars.push(VarInfo {
                name: format!("{name} (iteration)"),
                kind: VarKind::Counter { trips: None },
                loop_value,
            });
            let kv = Ir::Var(k);
            let value = if shift {
                match step.as_const() {
                    Some(s) if s > 0 => {
                        fold(BinOp::Shl, start.clone(), fold(BinOp::Mul, kv, int(s)))
                    }
                    Some(s) if s < 0 => {
                        fold(BinOp::Shr, start.clone(), fold(BinOp::Mul, kv, int(-s)))
                    }
                    _ => Ir::Const(0),
                }
            } else {
                fold(
                    BinOp::Add,
                    start.clone(),
                    fold(BinOp::Mul, kv, step.clone()),
                )
            };
            self.assign(name, Value::Int(value));
            return Some(k);
        } else if stepped && !crate::lower::induction::stmt_mentions(body, name) {
            // The loop variable starts from a value bankcheck cannot follow (it keeps
            // that value's reason) and only counts the iterations: they still count the
            // body's inductions. (A body that reads it, in a guard say, stays unknown.)
            let k = self.vars.len();
            self.vars.push(VarInfo {
                name: format!("{name} (iteration)"),
                kind: VarKind::Counter { trips: None },
                loop_value: None,
            });
            return Some(k);
        }
        None
    }

    /// The value in the body of a loop variable stepped by an amount bankcheck follows
    /// from a start it does not (`for (y = bounds.y; ...; y++)` over a bound loaded from
    /// memory): data, or unknown, for that start's reason, since the step alone would be
    /// followed.
    fn unknown_start(&mut self, name: &str, step: &Step) -> Option<(String, Value)> {
        let start = self.lookup(name)?.clone();
        if matches!(start, Value::Int(_) | Value::Real(_)) {
            return None;
        }
        let (Step::Add(e) | Step::Sub(e) | Step::Shl(e) | Step::Shr(e)) = step;
        if !matches!(self.eval_control(e), Value::Int(s) if s.var_mask() & 0b111 == 0) {
            return None;
        }
        let value = match start {
            Value::Data(d) => Value::Data(format!("`{name}` starts from data ({d})")),
            other => {
                let why = other.reason();
                let words = format!(
                    "`{name}` starts from a value bankcheck cannot follow ({})",
                    why.words()
                );
                Value::Unknown(why.reworded(words))
            }
        };
        Some((name.to_string(), value))
    }

    /// Evaluates a loop's condition over its counter `k`: the counter gets its trip count,
    /// and the condition is a guard unless that count already says all it does. Returns
    /// the trip count when every lane runs the same one.
    /// With `carried` state bound to per-iteration values and no counter, a condition that
    /// evaluates is still a guard: every name in it holds its value in the iteration.
    fn loop_condition(
        &mut self,
        cond: Option<&Expr>,
        counter: Option<usize>,
        carried: bool,
    ) -> (Option<u64>, Option<Ir>) {
        if let (Some(c), None, true) = (cond, counter, carried) {
            if let Value::Int(g) = self.eval_control(c) {
                self.flow.guards.push(g.clone());
                return (None, Some(g));
            }
            return (None, None);
        }
        if let (Some(c), Some(k)) = (cond, counter) {
            if let Value::Int(g) = self.eval_control(c) {
                let trips = self.trip_count(&g, k);
                self.vars[k].kind = VarKind::Counter { trips };
                let uniform_trips = trips.filter(|_| g.var_mask() & 0b111 == 0);
                // With a known trip count and a condition that is the same for every lane,
                // the counter's range already says everything the condition does.
                if trips.is_none() || g.var_mask() & 0b111 != 0 {
                    self.flow.guards.push(g.clone());
                }
                return (uniform_trips, Some(g));
            }
        } else if let Some(c) = cond {
            self.eval(c);
        }
        (None, None)
    }

    /// Why the value after a loop of a variable stepped in each iteration is not known:
    /// the loop's number of iterations (its condition `cond` over the counter `k`).
    fn unknown_trips(&self, cond: Option<&Ir>, k: usize, body: &Stmt) -> String {
        let of_loop = "it is stepped in each iteration of a loop";
        if crate::lower::induction::leaves_early(body) {
            return format!("{of_loop} that may end early (`break`, `return`)");
        }
        let Some(cond) = cond else {
            return format!("{of_loop} whose condition bankcheck cannot follow");
        };
        if cond.var_mask() & 0b111 != 0 {
            return format!("{of_loop} whose number of iterations differs between lanes");
        }
        let mut names: Vec<String> = Vec::new();
        cond.each_var(&mut |v| {
            if v != k {
                if let Some(info) = self.vars.get(v) {
                    let n = format!("`{}`", info.name);
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
            }
        });
        if names.is_empty() {
            format!("{of_loop} whose number of iterations bankcheck does not count")
        } else {
            format!(
                "{of_loop} whose number of iterations depends on the run-time value of {}",
                names.join(", ")
            )
        }
    }

    /// The largest number of iterations any thread runs when `guard` (over counter `k`)
    /// holds for a prefix of `k`; `None` when it depends on uniform values or is huge.
    pub(super) fn trip_count(&self, guard: &Ir, k: usize) -> Option<u64> {
        let mask = guard.var_mask();
        // Variables past the 63rd share the mask's last bit: the guard's own variables
        // say whether it reads anything but the thread ids and the counter.
        let (mut reads_counter, mut reads_other) = (false, false);
        guard.each_var(&mut |i| {
            if i == k {
                reads_counter = true;
            } else if i > 2 {
                reads_other = true;
            }
        });
        if reads_other {
            return None;
        }
        // A condition that does not change with the counter never ends the loop (`t += 0`):
        // not iterated.
        if !reads_counter {
            return None;
        }
        let mut values = vec![0i64; self.vars.len()];
        let mut best = 0u64;
        let mut evals = 0u64;
        // Thread 0 alone when the guard names no thread id: any shape's (0, 0, 0).
        let shape = if mask & 0b111 == 0 {
            self.block
        } else {
            self.shape_reads.whole(self.block)
        };
        let threads = shape.threads().min(4096);
        for t in 0..threads {
            let (x, y, z) = shape.coords(t);
            values[0] = x;
            values[1] = y;
            values[2] = z;
            let mut n = 0u64;
            loop {
                values[k] = n as i64;
                evals += 1;
                if evals > MAX_TRIP_EVALS {
                    return None;
                }
                match guard.eval(&values) {
                    Some(v) if v != 0 => n += 1,
                    Some(_) => break,
                    None => return None,
                }
                if n > 1 << 16 {
                    return None;
                }
            }
            best = best.max(n);
            if mask & 0b111 == 0 {
                break;
            }
        }
        Some(best)
    }
}

/// True when the amount of `step` names one of `changed` other than `variable` itself.
fn step_mentions(step: &Step, changed: &[String], variable: &str) -> bool {
    let (Step::Add(e) | Step::Sub(e) | Step::Shl(e) | Step::Shr(e)) = step;
    let mut found = false;
    e.walk(&mut |x| {
        if let crate::extract::ast::ExprKind::Ident(n) = &x.kind {
            found |= n != variable && changed.contains(n);
        }
    });
    found
}
