//! `TiledMMA` in the interpreter, as far as copies need it (docs/bank-model.md, "CuTe
//! copies"): a `TiledMMA<MMA_Atom<Op>, AtomLayoutMNK, Tile<...>>` spelled by a type
//! (an alias of a traits struct, `typename Kernel_traits::TiledMma tiled_mma;`) or made
//! by `make_tiled_mma(...)`, and `make_tiled_copy_A/B/C(copy_atom, tiled_mma)`, the
//! `TiledCopy` whose thread-value layout is the MMA's for that operand.

use super::super::{Interp, Value};
use crate::extract::ast::{Expr, ExprKind};
use crate::extract::types::Scope;
use crate::lower::cute::layout::{Layout, Tiler};
use crate::lower::cute::mma::{mma_atom, MmaAtom, Operand, TiledMma};
use crate::lower::cute::reader;
use crate::lower::cute::text::split_args;
use crate::lower::cute::tiled::make_tiled_copy_mma;

/// Deepest chain of aliases followed to an MMA atom.
const MAX_ATOM_DEPTH: u32 = 8;

/// `text` without `typename`, `cute::`, a trailing `{}` or `()`.
fn bare(text: &str) -> &str {
    text.trim()
        .trim_end_matches("{}")
        .trim_end_matches("()")
        .trim()
        .trim_start_matches("typename ")
        .trim_start_matches("cute::")
        .trim()
}

/// The template arguments of `name<...>` spelled by `text`.
fn template_args<'t>(text: &'t str, name: &str) -> Option<Vec<&'t str>> {
    let inner = bare(text).strip_prefix(name)?.trim_start();
    let inner = inner.strip_prefix('<')?.strip_suffix('>')?;
    Some(split_args(inner))
}

impl Interp<'_> {
    /// The tiled MMA a type spells, `TiledMMA<atom, layout[, Tile<...>]>` read in
    /// `scope`; `None` when it spells none.
    pub(super) fn tiled_mma_spelled(
        &mut self,
        text: &str,
        scope: Option<&Scope>,
    ) -> Option<Result<TiledMma, String>> {
        let text = reader::without_comments(text);
        let args = template_args(&text, "TiledMMA")?;
        Some(self.tiled_mma_of(&args, scope))
    }

    /// `make_tiled_mma(atom, layout[, tile])` in the function's scope.
    pub(super) fn tiled_mma_value(&mut self, args: &[Expr]) -> Value {
        let text = self.text;
        let texts: Vec<&str> = args
            .iter()
            .map(|a| text.get(a.span.start..a.span.end).unwrap_or(""))
            .collect();
        match self.tiled_mma_of(&texts, None) {
            Ok(m) => Value::Cute(Box::new(reader::Value::TiledMma(Box::new(m)))),
            Err(why) => Value::Unknown(why.into()),
        }
    }

    /// A tiled MMA from the spellings of its atom, its atom layout and its permutation.
    fn tiled_mma_of(&mut self, args: &[&str], scope: Option<&Scope>) -> Result<TiledMma, String> {
        let (atom, rest) = args.split_first().ok_or("a `TiledMMA` without an atom")?;
        let atom = self.mma_atom_spelled(atom, scope.cloned(), 0)?;
        let mut names = super::InterpNames {
            interp: &mut *self,
            scope: scope.cloned(),
            depth: 0,
            host: None,
        };
        let layout = match rest.first() {
            Some(t) => {
                reader::read(t, &mut names)?
                    .layout()
                    .filter(|l| l.swizzle.is_none() && l.offset == 0)
                    .ok_or_else(|| format!("`{t}` is not an atom layout bankcheck reads"))?
                    .layout
            }
            None => Layout::compact(
                crate::lower::cute::tuple::IntTuple::Tuple(vec![
                    crate::lower::cute::tuple::IntTuple::Int(1);
                    3
                ]),
                false,
            )
            .ok_or("a layout")?,
        };
        let mut perm = [None, None, None];
        if let Some(t) = rest.get(1) {
            let parts = template_args(t, "Tile")
                .or_else(|| {
                    let b = bare(t);
                    let inner = b.strip_prefix("make_tile(")?.strip_suffix(')')?;
                    Some(split_args(inner))
                })
                .filter(|p| p.len() == 3)
                .ok_or_else(|| format!("`{t}` is not a permutation bankcheck reads"))?;
            for (slot, p) in perm.iter_mut().zip(parts) {
                if matches!(bare(p), "_" | "Underscore") {
                    continue;
                }
                let v = reader::read(p, &mut names)?;
                match v.tiler() {
                    Some(Tiler::Layout(l)) => *slot = Some(l),
                    _ => return Err(format!("`{p}` is not a permutation bankcheck reads")),
                }
            }
        }
        if rest.len() > 2 {
            return Err("a `TiledMMA` of other arguments".into());
        }
        TiledMma::new(atom, &layout, perm)
            .ok_or_else(|| format!("a `TiledMMA` over `{layout}` (CuTe rejects it)"))
    }

    /// The MMA atom `text` spells: `MMA_Atom<Op>`, `Op` itself, an alias of one, or a
    /// `std::conditional_t` whose two alternatives are the same atom.
    fn mma_atom_spelled(
        &mut self,
        text: &str,
        scope: Option<Scope>,
        depth: u32,
    ) -> Result<MmaAtom, String> {
        let t = bare(text);
        if let Some(args) = template_args(t, "MMA_Atom") {
            let [op] = args.as_slice() else {
                return Err(format!("`{t}` is not an MMA atom bankcheck reads"));
            };
            let op = template_args(op, "MMA_Traits")
                .and_then(|a| a.first().copied())
                .unwrap_or(op);
            return self.mma_atom_spelled(op, scope, depth);
        }
        if let Some(a) = mma_atom(t) {
            return Ok(a);
        }
        let conditional =
            template_args(t, "std::conditional_t").or_else(|| template_args(t, "conditional_t"));
        if let Some([_, yes, no]) = conditional.as_deref() {
            if depth >= MAX_ATOM_DEPTH {
                return Err(format!("`{t}` names aliases too deeply"));
            }
            let a = self.mma_atom_spelled(yes, scope.clone(), depth + 1)?;
            let b = self.mma_atom_spelled(no, scope, depth + 1)?;
            if !a.same_layouts(&b) {
                return Err(format!(
                    "`{t}` chooses between MMA atoms of different layouts (`{}`, `{}`) on a condition bankcheck does not evaluate",
                    a.op, b.op
                ));
            }
            return Ok(a);
        }
        if depth < MAX_ATOM_DEPTH {
            let read = |i: &mut Self, text: &str, inner| i.mma_atom_spelled(text, inner, depth + 1);
            if let Some(a) = self.alias_alternatives(t, scope, MmaAtom::same_layouts, read) {
                return a;
            }
        }
        Err(format!("`{t}` is not an MMA atom bankcheck models"))
    }

    /// `make_tiled_copy_A/B/C(copy_atom, tiled_mma)`.
    pub(super) fn tiled_copy_for_mma(&mut self, which: &str, args: &[Expr]) -> Value {
        let made = (|| {
            let [atom, mma] = args else {
                return Err(format!("a `{which}` of other arguments"));
            };
            let operand = match which {
                "make_tiled_copy_A" => Operand::A,
                "make_tiled_copy_B" => Operand::B,
                _ => Operand::C,
            };
            if let ExprKind::Ident(n) = &mma.kind {
                if let Some(Value::Unknown(r)) = self.lookup(n) {
                    let r = match self.lookup(&super::unread_alias(n)) {
                        Some(Value::Unknown(why)) => why.clone(),
                        _ => r.clone(),
                    };
                    return Err(format!("the TiledMMA `{n}`: {r}"));
                }
            }
            let mma = match self.read_cute(mma) {
                Ok(reader::Value::TiledMma(m)) => *m,
                Ok(_) => {
                    return Err(format!(
                        "`{}` is not a TiledMMA bankcheck reads",
                        self.snippet(mma.span)
                    ))
                }
                Err(why) => return Err(why),
            };
            let text = self.text;
            let atom_text = text.get(atom.span.start..atom.span.end).unwrap_or("");
            let atom = self.copy_atom(atom_text, None, 0)?;
            make_tiled_copy_mma(atom, &mma, operand).ok_or_else(|| {
                format!(
                    "`{which}` of `{}` over `{}` (CuTe rejects it)",
                    self.snippet(args[0].span),
                    mma.atom.op
                )
            })
        })();
        match made {
            Ok(tc) => Value::Cute(Box::new(reader::Value::TiledCopy(Box::new(tc)))),
            Err(why) => Value::Unknown(why.into()),
        }
    }
}
