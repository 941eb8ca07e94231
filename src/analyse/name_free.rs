//! The verdict cache's key: an access with its variables' names replaced by placeholders.
//!
//! The instantiations of a templated kernel (flash-attention's 32 per kernel) lower to
//! accesses that often differ only in the names of their uniforms and loop variables.
//! A verdict reads names only to compare them for equality and to write them into its
//! words, so the verdict of the placeholder form, with each placeholder written back as
//! the name it stands for, is the verdict of the access: one analysis serves them all.
//!
//! The names of the thread variables are kept as they are: the F2 analysis sorts the
//! names of lane bits and writes `threadIdx.x` for an axis the access has no variable
//! of, which a placeholder would sort or compare differently. So is any other name
//! spelled like a thread variable's, so that equal names stay equal.

use crate::model::ir::{LoweredAccess, VarKind};
use crate::model::verdict::{Undecided, Verdict};

/// Opens a placeholder, `\u{1}` index `\u{2}`: characters no identifier or expression
/// text spells (an access whose names hold one is not renamed).
const OPEN: char = '\u{1}';
const CLOSE: char = '\u{2}';

/// Names the analyses write themselves (`lower::affine`'s lane and warp bits), kept as
/// they are wherever they occur.
const WRITTEN: [&str; 4] = ["threadIdx.x", "threadIdx.y", "threadIdx.z", "warp"];

/// The names the placeholders of one access stand for, in order.
pub(super) struct Names(Vec<String>);

/// The placeholder form of `access` and what its placeholders stand for; `None` when a
/// name already holds a placeholder's delimiters (then the access is its own key).
pub(super) fn name_free(access: &LoweredAccess) -> Option<(LoweredAccess, Names)> {
    let spelled = |s: &str| s.contains([OPEN, CLOSE]);
    let kept: Vec<&str> = access
        .vars
        .iter()
        .filter(|v| matches!(v.kind, VarKind::Thread(_)))
        .map(|v| v.name.as_str())
        .chain(WRITTEN)
        .collect();
    let mut names: Vec<String> = Vec::new();
    let mut rename = |name: &mut String| {
        if kept.contains(&name.as_str()) {
            return;
        }
        let i = names.iter().position(|n| n == name).unwrap_or_else(|| {
            names.push(std::mem::take(name));
            names.len() - 1
        });
        *name = format!("{OPEN}{i}{CLOSE}");
    };
    let mut renamed = access.clone();
    for v in &mut renamed.vars {
        if spelled(&v.name) || v.loop_value.as_ref().is_some_and(|l| spelled(&l.variable)) {
            return None;
        }
        rename(&mut v.name);
        if let Some(l) = &mut v.loop_value {
            rename(&mut l.variable);
        }
    }
    Some((renamed, Names(names)))
}

impl Names {
    /// `verdict` (of the placeholder form) with each placeholder written back as the
    /// name it stands for in this access.
    pub fn named(&self, mut verdict: Verdict) -> Verdict {
        let put = |s: &mut String| {
            if s.contains(OPEN) {
                *s = self.put_names(s);
            }
        };
        if let Some(Undecided::Because(why)) = &mut verdict.reason {
            put(why);
        }
        verdict.explanation.iter_mut().for_each(put);
        verdict.depends_on.iter_mut().for_each(put);
        verdict.notes.iter_mut().for_each(put);
        verdict.worst_case.iter_mut().for_each(|(n, _)| put(n));
        verdict.condition.iter_mut().for_each(put);
        verdict
    }

    fn put_names(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find(OPEN) {
            out.push_str(&rest[..open]);
            let after = &rest[open + OPEN.len_utf8()..];
            let close = after.find(CLOSE);
            let name = close
                .and_then(|c| after[..c].parse::<usize>().ok())
                .and_then(|i| self.0.get(i));
            if let (Some(c), Some(name)) = (close, name) {
                out.push_str(name);
                rest = &after[c + CLOSE.len_utf8()..];
            } else {
                // Not a placeholder of this access: kept as written.
                out.push(OPEN);
                rest = after;
            }
        }
        out.push_str(rest);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::{analyse, Budget, VerdictCache};
    use crate::bank::BankParams;
    use crate::model::ir::{Axis, BinOp, BlockShape, Expr, LoopValue, VarInfo};
    use proptest::prelude::*;

    fn var(name: &str, kind: VarKind) -> VarInfo {
        VarInfo {
            name: name.to_string(),
            kind,
            loop_value: None,
        }
    }

    /// `s[tx * u + k]` (4-byte words) under `k < u`, over `threadIdx.x`, a uniform `u`
    /// and a loop counter `k` (of loop variable `loop`), named as given.
    fn access(u: &str, k: &str, loop_var: &str, range: Option<(i64, i64)>) -> LoweredAccess {
        let mut counter = var(k, VarKind::Counter { trips: Some(4) });
        counter.loop_value = Some(LoopValue {
            variable: loop_var.to_string(),
            start: 0,
            step: 2,
            shift: false,
        });
        let (tx, uv, kv) = (Expr::Var(0), Expr::Var(1), Expr::Var(2));
        LoweredAccess {
            vars: vec![
                var("threadIdx.x", VarKind::Thread(Axis::X)),
                var(u, VarKind::Uniform { range }),
                counter,
            ],
            address: Expr::bin(
                BinOp::Mul,
                Expr::bin(
                    BinOp::Add,
                    Expr::bin(BinOp::Mul, tx, uv.clone()),
                    kv.clone(),
                ),
                Expr::Const(4),
            ),
            width: 4,
            atomic: false,
            guards: vec![Expr::bin(BinOp::Lt, kv, uv)],
            block: BlockShape { x: 64, y: 1, z: 1 },
            warp_size: 32,
            coords: None,
            extents: Vec::new(),
        }
    }

    fn key(a: &LoweredAccess) -> LoweredAccess {
        name_free(a).expect("no placeholder spelled").0
    }

    #[test]
    fn accesses_that_differ_only_in_names_share_a_key() {
        let range = Some((1, 40));
        let a = access("n", "k", "i", range);
        let b = access("cols", "j", "jj", range);
        assert_eq!(key(&a), key(&b));
        // One analysis serves both, each verdict in its own names.
        let cache = VerdictCache::default();
        let (p, budget) = (BankParams::default(), Budget::default());
        let va = cache.analyse(&a, &p, budget);
        let vb = cache.analyse(&b, &p, budget);
        assert_eq!(cache.map.lock().unwrap().len(), 1);
        assert_eq!(va, analyse(&a, &p, budget));
        assert_eq!(vb, analyse(&b, &p, budget));
        assert!(vb.depends_on.contains(&"cols".to_string()), "{vb:?}");
        assert!(!format!("{vb:?}").contains(OPEN));
    }

    #[test]
    fn accesses_that_differ_in_what_matters_do_not() {
        let base = key(&access("n", "k", "i", Some((1, 40))));
        // Another range, another kind.
        assert_ne!(base, key(&access("n", "k", "i", Some((1, 41)))));
        assert_ne!(base, key(&access("n", "k", "i", None)));
        // Names that are equal in one and distinct in the other.
        assert_ne!(
            key(&access("n", "n", "i", Some((1, 40)))),
            key(&access("n", "k", "i", Some((1, 40))))
        );
        // The address, the guards, the block, the loop's progression.
        let mut other = access("n", "k", "i", Some((1, 40)));
        other.address = Expr::bin(BinOp::Add, other.address, Expr::Const(4));
        assert_ne!(base, key(&other));
        let mut other = access("n", "k", "i", Some((1, 40)));
        other.guards.clear();
        assert_ne!(base, key(&other));
        let mut other = access("n", "k", "i", Some((1, 40)));
        other.block.x = 128;
        assert_ne!(base, key(&other));
        let mut other = access("n", "k", "i", Some((1, 40)));
        other.vars[2].loop_value.as_mut().unwrap().step = 3;
        assert_ne!(base, key(&other));
        // A thread variable's name is kept: it is compared with the names the F2
        // analysis writes itself.
        let mut other = access("n", "k", "i", Some((1, 40)));
        other.vars[0].name = "tid".to_string();
        assert_ne!(base, key(&other));
    }

    #[test]
    fn a_name_that_spells_a_placeholder_is_not_renamed() {
        let a = access("\u{1}0\u{2}", "k", "i", None);
        assert!(name_free(&a).is_none());
        let cache = VerdictCache::default();
        let (p, budget) = (BankParams::default(), Budget::default());
        assert_eq!(cache.analyse(&a, &p, budget), analyse(&a, &p, budget));
    }

    proptest! {
        /// Whatever the names (equal or not, spelled like a thread variable or like the
        /// names the analyses write), a verdict given back from an entry another
        /// naming filled is the verdict of analysing the access itself.
        #[test]
        fn a_shared_verdict_is_the_access_own(
            names in prop::collection::vec(
                prop::sample::select(vec!["n", "k", "i", "m", "warp", "threadIdx.y", "threadIdx.x", "a.b"]),
                6,
            ),
            range in prop::option::of((0i64..8, 0i64..40)),
            scale in 1i64..40,
            xor in any::<bool>(),
            guarded in any::<bool>(),
        ) {
            let make = |n: &[&str]| {
                let mut a = access(n[0], n[1], n[2], range.map(|(lo, span)| (lo, lo + span)));
                let (tx, uv, kv) = (Expr::Var(0), Expr::Var(1), Expr::Var(2));
                let op = if xor { BinOp::Xor } else { BinOp::Add };
                a.address = Expr::bin(
                    BinOp::Mul,
                    Expr::bin(
                        op,
                        Expr::bin(BinOp::Mul, tx, Expr::bin(BinOp::Add, uv, Expr::Const(scale))),
                        kv,
                    ),
                    Expr::Const(4),
                );
                if !guarded {
                    a.guards.clear();
                }
                a
            };
            let (first, second) = (make(&names[..3]), make(&names[3..]));
            let cache = VerdictCache::default();
            let (p, budget) = (BankParams::default(), Budget::default());
            prop_assert_eq!(cache.analyse(&first, &p, budget), analyse(&first, &p, budget));
            prop_assert_eq!(cache.analyse(&second, &p, budget), analyse(&second, &p, budget));
        }
    }
}
