//! Statements the front end blanked: a function-like macro used alone on its line without
//! `;` supplies a whole statement the grammar cannot read (`source/macros.rs`), and is
//! blanked before parsing; the extraction puts a [`Stmt::Macro`] in its place, naming
//! what it may assign and reach (`source/blanked.rs`). Interpreting one makes every
//! local it may assign unknown, saying which macro, and records an `unknown` access of
//! every shared array it names (directly, or through a pointer or reference), since an
//! access may be hidden there.
//!
//! When such a statement returns (ggml's configuration tables, `CONFIG_CASE(64, 2, 128)`
//! line after line, each `if (...) return ...;`), the helper's body as read ends in its
//! default `return 0;`: a wrong value, not an unknown one. The value of a helper holding
//! such a use is therefore not followed.
//!
//! [`Stmt::Macro`]: crate::extract::ast::Stmt::Macro

use super::access::LoweredPlace;
use super::{Interp, Value};
use crate::diag::AccessKind;
use crate::extract::ast::{Expr, ExprKind, Function, MacroStmt, UnaryOp};
use crate::source::BlankedStatement;

/// What may follow a macro use on its line for the front end to keep it: it is then an
/// expression or a declaration head, not a blanked statement.
const CONTINUES: &[u8] = b";{},)=+-*/&|<>?:.[";

impl Interp<'_> {
    /// Why the value helper `f` returns cannot be followed: its body, in the text of its
    /// file, holds a function-like macro used alone on its line without `;` (the test
    /// `source/macros.rs` blanks by). `None` when it holds none.
    pub(super) fn blanked_statement(&self, f: &Function) -> Option<String> {
        let text = f.foreign_text.as_deref().unwrap_or(self.base_text);
        let body = text.get(f.span.start..f.span.end)?;
        let b = body.as_bytes();
        let mut line_start = 0;
        while line_start < b.len() {
            let line_end = body[line_start..]
                .find('\n')
                .map_or(b.len(), |n| line_start + n);
            let indent = body[line_start..line_end]
                .find(|c: char| !c.is_whitespace())
                .map_or(line_end, |n| line_start + n);
            let name_end = body[indent..line_end]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(line_end, |n| indent + n);
            let name = &body[indent..name_end];
            if !name.is_empty() && self.syn.fn_macros.contains_key(name) {
                let mut open = name_end;
                while matches!(b.get(open), Some(b' ' | b'\t')) {
                    open += 1;
                }
                if let Some(close) = closing(b, open) {
                    let mut next = close;
                    while next < b.len() && b[next].is_ascii_whitespace() {
                        next += 1;
                    }
                    let ends_line = body[close..next].contains('\n') || next == b.len();
                    if ends_line && b.get(next).is_none_or(|c| !CONTINUES.contains(c)) {
                        return Some(format!(
                            "`{}` holds `{name}(...)`, a macro standing for a statement bankcheck does not read (it may return)",
                            f.name
                        ));
                    }
                }
            }
            line_start = line_end + 1;
        }
        None
    }
}

impl Interp<'_> {
    /// Interprets the blanked macro statement `m`: the shared arrays it names get an
    /// `unknown` access at the use (a store when it may assign the name), and the locals
    /// it may assign are unknown after it.
    pub(super) fn macro_statement(&mut self, m: &MacroStmt) {
        if !m.followed {
            self.blanked_use(&m.spelled, None);
        }
    }

    /// [`Self::macro_statement`] of the use `m`; `why`, when given, is why its
    /// expansion is not known (else: it is not interpreted).
    fn blanked_use(&mut self, m: &BlankedStatement, why: Option<&str>) {
        let mut arrays: Vec<usize> = Vec::new();
        for n in &m.mentions {
            let value = match self.lookup(n) {
                Some(v) => v.clone(),
                None if self.syn.global_shared.iter().any(|d| d.name == *n) => self.ident(n),
                None => continue,
            };
            let array = match &value {
                Value::Array(a) | Value::Ptr { array: a, .. } | Value::Ref { array: a, .. } => *a,
                Value::Tensor(t) => t.array,
                _ => continue,
            };
            if arrays.contains(&array) {
                continue;
            }
            arrays.push(array);
            let info = &self.arrays[array];
            let through = if info.name == *n {
                String::new()
            } else {
                format!(" through `{n}`")
            };
            let why = match why {
                Some(why) => format!("{why}: it names `{}`{through}, so it may access it there", info.name),
                None => format!(
                    "`{}(...)` stands for statements bankcheck does not interpret (a macro): it names `{}`{through}, so it may access it there",
                    m.name, info.name
                ),
            };
            let kind = if m.assigns.contains(n) || m.writes.contains(n) {
                AccessKind::Store
            } else {
                AccessKind::Load
            };
            let place = LoweredPlace {
                array,
                lowered: Err(why.into()),
                pointer: (!through.is_empty()).then(|| n.clone()),
                index_spans: Vec::new(),
                plain: false,
                elem_bytes: info.element_bytes,
            };
            self.record_site(m.span, kind, place);
        }
        for (n, through) in m
            .assigns
            .iter()
            .map(|n| (n, false))
            .chain(m.writes.iter().map(|n| (n, true)))
        {
            if self.objects.contains_key(n) {
                self.invalidate_fields(n, "", &format!("by the macro `{}`", m.name));
            }
            match self.lookup(n) {
                // A shared variable is read from memory, whatever was stored before; a
                // reference assigned stores into its place, and a pointer written
                // through still points where it did.
                None | Some(Value::Array(_) | Value::Ref { .. }) => {}
                Some(Value::Ptr { .. } | Value::Tensor(_)) if through => {}
                Some(_) => self.assign(
                    n,
                    Value::Unknown(
                        format!(
                            "`{n}` is assigned by the macro `{}`, which bankcheck does not expand",
                            m.name
                        )
                        .into(),
                    ),
                ),
            }
        }
    }
}

impl Interp<'_> {
    /// A function-like macro `name` read as the call `e` whose body bankcheck does not
    /// read as an expression (statements, `{ ... }`), used with other arguments, or whose
    /// definition is not decided (`why`): as a blanked statement, the shared arrays its arguments name get an `unknown` access,
    /// and the variables they are rooted at may change (a pointer written through does
    /// not).
    pub(super) fn unread_macro_call(
        &mut self,
        e: &Expr,
        name: &str,
        args: &[Expr],
        why: Option<&str>,
    ) {
        let mut m = BlankedStatement {
            name: name.to_string(),
            span: e.span,
            assigns: Vec::new(),
            writes: Vec::new(),
            mentions: Vec::new(),
        };
        for a in args {
            a.walk(&mut |x| {
                if let ExprKind::Ident(n) = &x.kind {
                    if !m.mentions.contains(n) {
                        m.mentions.push(n.clone());
                    }
                }
            });
            let (mut root, mut direct) = (a, true);
            if let ExprKind::Unary(UnaryOp::AddrOf, inner) = &a.kind {
                root = inner;
            }
            while let ExprKind::Index(b, _)
            | ExprKind::Member(b, _)
            | ExprKind::Unary(UnaryOp::Deref, b)
            | ExprKind::Cast(_, b) = &root.kind
            {
                direct = false;
                root = b;
            }
            if let ExprKind::Ident(n) = &root.kind {
                // A plain argument goes with the writes: a pointer handed over still
                // points where it did, a scalar may be assigned.
                let addressed = direct && matches!(a.kind, ExprKind::Unary(UnaryOp::AddrOf, _));
                if addressed {
                    m.assigns.push(n.clone());
                } else {
                    m.writes.push(n.clone());
                }
            }
        }
        self.blanked_use(&m, why);
    }
}

/// The position after the `)` that closes the `(` at `open`; `None` when there is none.
fn closing(b: &[u8], open: usize) -> Option<usize> {
    if b.get(open) != Some(&b'(') {
        return None;
    }
    let mut depth = 0usize;
    for (i, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}
