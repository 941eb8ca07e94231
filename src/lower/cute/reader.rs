//! Reads the C++ spellings of CuTe layouts into values: `Layout<Shape<_8, Int<64>>,
//! Stride<Int<64>, _1>>{}`, `composition(Swizzle<3, 3, 3>{}, ...)`, `tile_to_shape(Atom{},
//! Shape<Int<kBlockM>, Int<kHeadDim>>{})`, `make_layout(make_shape(...), GenRowMajor{})`,
//! `decltype(...)` around any of them.
//!
//! The reader knows CuTe's vocabulary only; every other name goes to [`Names`]: an
//! integer constant expression (`kBlockM * 2`) to the interpreter's constant evaluation,
//! a type name (`SmemLayoutAtomQ`, `typename Traits::SmemLayoutQ`) to the alias it
//! stands for. A spelling it does not know is an error with a reason, never a guess.

use super::layout::{self, Layout, Tiler};
use super::swizzle::{Swizzle, SwizzledLayout};
use super::text::split_args;
use super::tuple::IntTuple;

/// What the reader asks of the code around it.
pub(crate) trait Names {
    /// The value of a constant expression (`kBlockKSmem`, `kHeadDim / 8`).
    fn int(&mut self, text: &str) -> Option<i64>;
    /// What a name that is not CuTe's denotes, when it is a layout, a shape or an
    /// integer (`SmemLayoutAtomQ`, `typename Kernel_traits::SmemLayoutQ`, a local):
    /// `None` when the name is no such thing, an error when it is an alias that cannot
    /// be read.
    fn named(&mut self, name: &str) -> Option<Result<Value, String>>;
}

/// A CuTe value: an integer, a tuple (a shape, stride, tile or coordinate), a layout
/// (swizzled or not), a swizzle, a mode order (`LayoutRight`: row-major), or a tiled copy.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(i64),
    Tuple(Vec<Value>),
    Layout(SwizzledLayout),
    Swizzle(Swizzle),
    RowMajor(bool),
    /// A `TiledCopy` (`make_tiled_copy(...)`), which the interpreter builds.
    TiledCopy(Box<super::tiled::TiledCopy>),
    /// A `ThrCopy`: a tiled copy's slice for the thread index (`get_slice(tid)`).
    ThrCopy(Box<super::tiled::TiledCopy>, crate::model::ir::Expr),
    /// A `TiledMMA`, for the copies `make_tiled_copy_A/B/C` build from it.
    TiledMma(Box<super::mma::TiledMma>),
}

/// Deepest nesting of spellings read (the text of one alias; aliases are the caller's).
const MAX_DEPTH: u32 = 64;
/// Largest integer read: CuTe's shapes and strides are small, and products of a few of
/// them must not overflow.
const MAX_INT: i64 = 1 << 32;

impl Value {
    /// The value as an integer tuple (a shape or a stride).
    pub(crate) fn int_tuple(&self) -> Option<IntTuple> {
        match self {
            Value::Int(v) => Some(IntTuple::Int(*v)),
            Value::Tuple(t) => Some(IntTuple::Tuple(
                t.iter().map(Value::int_tuple).collect::<Option<_>>()?,
            )),
            _ => None,
        }
    }

    /// The value as a tiler: a layout, an integer `n` (`n:1`), or one tiler per mode.
    pub(crate) fn tiler(&self) -> Option<Tiler> {
        match self {
            Value::Int(n) => Layout::vector(*n).map(Tiler::Layout),
            Value::Layout(l) if l.swizzle.is_none() && l.offset == 0 => {
                Some(Tiler::Layout(l.layout.clone()))
            }
            Value::Tuple(t) => Some(Tiler::Modes(
                t.iter().map(Value::tiler).collect::<Option<_>>()?,
            )),
            _ => None,
        }
    }

    /// The value as a layout: a layout, or a shape taken as its compact column-major
    /// layout (CuTe accepts a shape where a layout is expected).
    pub(crate) fn layout(&self) -> Option<SwizzledLayout> {
        match self {
            Value::Layout(l) => Some(l.clone()),
            Value::Int(_) | Value::Tuple(_) => {
                Layout::compact(self.int_tuple()?, false).map(SwizzledLayout::plain)
            }
            _ => None,
        }
    }
}

/// Reads `text`, a CuTe spelling, resolving other names through `names`.
pub(crate) fn read(text: &str, names: &mut dyn Names) -> Result<Value, String> {
    Reader { names, depth: 0 }.value(&without_comments(text))
}

/// `text` with its comments replaced by spaces (an alias's spelling may hold them).
pub(crate) fn without_comments(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("//") && !text.contains("/*") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(['/']) {
        let (before, from) = rest.split_at(i);
        out.push_str(before);
        if from.starts_with("//") {
            let end = from.find('\n').unwrap_or(from.len());
            out.push(' ');
            rest = &from[end..];
        } else if let Some(body) = from.strip_prefix("/*") {
            let end = body.find("*/").map_or(from.len(), |e| e + 4);
            out.push(' ');
            rest = &from[end..];
        } else {
            out.push('/');
            rest = &from[1..];
        }
    }
    out.push_str(rest);
    out.into()
}

struct Reader<'n> {
    names: &'n mut dyn Names,
    depth: u32,
}

/// A name with its template arguments and call arguments, as raw texts.
struct Term<'t> {
    name: &'t str,
    targs: Option<Vec<&'t str>>,
    args: Option<Vec<&'t str>>,
}

impl Reader<'_> {
    fn value(&mut self, text: &str) -> Result<Value, String> {
        if self.depth >= MAX_DEPTH {
            return Err("a layout nested too deeply".into());
        }
        self.depth += 1;
        let v = self.value_inner(text.trim());
        self.depth -= 1;
        v
    }

    fn value_inner(&mut self, text: &str) -> Result<Value, String> {
        let text = text
            .strip_prefix("typename ")
            .or_else(|| text.strip_prefix("const "))
            .map_or(text, str::trim);
        if let Some(inner) = wrapped(text, "decltype") {
            return self.value(inner);
        }
        if let Some(v) = small_int(text) {
            return Ok(Value::Int(v));
        }
        let Some(term) = term(text) else {
            return self.constant(text);
        };
        let name = term.name.strip_prefix("cute::").unwrap_or(term.name);
        if let Some(v) = self.cute_term(name, &term)? {
            return Ok(v);
        }
        if term.targs.is_none() && term.args.is_none() {
            if let Some(v) = self.names.named(term.name) {
                return v;
            }
        }
        if term.args.is_some() {
            return Err(format!(
                "`{}` is not a CuTe function bankcheck knows",
                term.name
            ));
        }
        self.constant(text)
    }

    /// An integer constant expression, through the interpreter.
    fn constant(&mut self, text: &str) -> Result<Value, String> {
        match self.names.int(text) {
            Some(v) if v.abs() <= MAX_INT => Ok(Value::Int(v)),
            Some(_) => Err(format!("`{text}` is too large for a layout")),
            None => Err(format!("`{text}` is not known to bankcheck")),
        }
    }

    fn values(&mut self, texts: &[&str]) -> Result<Vec<Value>, String> {
        texts.iter().map(|t| self.value(t)).collect()
    }

    fn int(&mut self, text: &str) -> Result<i64, String> {
        match self.value(text)? {
            Value::Int(v) => Ok(v),
            _ => Err(format!("`{text}` is not an integer")),
        }
    }

    /// A name of CuTe's vocabulary; `None` for any other name.
    fn cute_term(&mut self, name: &str, t: &Term) -> Result<Option<Value>, String> {
        let targs = t.targs.as_deref().unwrap_or(&[]);
        let args = t.args.as_deref().unwrap_or(&[]);
        let v = match name {
            "Int" | "C" | "_" if targs.len() == 1 => Value::Int(self.int(targs[0])?),
            "constant" | "integral_constant" if targs.len() == 2 => Value::Int(self.int(targs[1])?),
            "Shape" | "Stride" | "Step" | "Tile" | "Coord" | "tuple" => {
                Value::Tuple(self.values(targs)?)
            }
            "make_shape" | "make_stride" | "make_step" | "make_tile" | "make_coord"
            | "make_tuple" => Value::Tuple(self.values(args)?),
            "GenRowMajor" | "LayoutRight" => Value::RowMajor(true),
            "GenColMajor" | "LayoutLeft" => Value::RowMajor(false),
            "Swizzle" if targs.len() == 3 => {
                let (b, m, s) = (
                    self.int(targs[0])?,
                    self.int(targs[1])?,
                    self.int(targs[2])?,
                );
                Value::Swizzle(
                    Swizzle::new(b, m, s)
                        .ok_or_else(|| format!("`{}` is not a valid swizzle", t.name))?,
                )
            }
            "Layout" if !targs.is_empty() => {
                let vs = self.values(targs)?;
                self.make_layout(&vs)?
            }
            "make_layout" => {
                let vs = self.values(args)?;
                self.make_layout(&vs)?
            }
            "composition" => {
                let vs = self.values(args)?;
                composition(&vs)?
            }
            "tile_to_shape" | "coalesce" | "logical_divide" | "zipped_divide"
            | "logical_product" | "blocked_product" | "right_inverse" | "complement" => {
                let vs = self.values(args)?;
                algebra(name, &vs)?
            }
            _ => match name.strip_prefix('_').and_then(|n| n.parse::<i64>().ok()) {
                Some(v) if t.targs.is_none() && t.args.is_none() => Value::Int(v),
                _ => return Ok(None),
            },
        };
        Ok(Some(v))
    }

    /// `Layout<Shape, Stride>`, `make_layout(shape[, stride or order])`, and
    /// `make_layout(layouts...)`.
    fn make_layout(&mut self, vs: &[Value]) -> Result<Value, String> {
        let bad = || "a layout bankcheck cannot build".to_string();
        let plain = |l: Option<Layout>| {
            l.map(|l| Value::Layout(SwizzledLayout::plain(l)))
                .ok_or_else(bad)
        };
        match vs {
            [Value::Layout(l)] => Ok(Value::Layout(l.clone())),
            [s] => plain(Layout::compact(s.int_tuple().ok_or_else(bad)?, false)),
            [s, Value::RowMajor(row)] => {
                plain(Layout::compact(s.int_tuple().ok_or_else(bad)?, *row))
            }
            [s, d] if s.int_tuple().is_some() && d.int_tuple().is_some() => plain(Layout::new(
                s.int_tuple().ok_or_else(bad)?,
                d.int_tuple().ok_or_else(bad)?,
            )),
            _ => {
                let modes = vs
                    .iter()
                    .map(|v| match v {
                        Value::Layout(l) if l.swizzle.is_none() && l.offset == 0 => {
                            Some(l.layout.clone())
                        }
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(bad)?;
                plain(Some(Layout::concat(modes)))
            }
        }
    }
}

/// `composition(a, b)`, `composition(swizzle, layout)`, `composition(swizzle, offset, layout)`.
fn composition(vs: &[Value]) -> Result<Value, String> {
    let bad = || "a composition bankcheck cannot build".to_string();
    match vs {
        [Value::Swizzle(s), b] => {
            let b = b.layout().ok_or_else(bad)?;
            if b.swizzle.is_some() || b.offset != 0 {
                return Err(bad());
            }
            Ok(Value::Layout(SwizzledLayout {
                swizzle: Some(*s),
                offset: 0,
                layout: b.layout,
            }))
        }
        [Value::Swizzle(s), Value::Int(o), b] => {
            let b = b.layout().ok_or_else(bad)?;
            if b.swizzle.is_some() || b.offset != 0 {
                return Err(bad());
            }
            Ok(Value::Layout(SwizzledLayout {
                swizzle: Some(*s),
                offset: *o,
                layout: b.layout,
            }))
        }
        [a, b] => {
            let a = a.layout().ok_or_else(bad)?;
            let tiler = b.tiler().ok_or_else(bad)?;
            let inner = layout::compose_tiler(&a.layout, &tiler).ok_or_else(bad)?;
            Ok(Value::Layout(a.with(inner)))
        }
        _ => Err(bad()),
    }
}

/// The algebra on the layout in the first argument (a swizzle kept around it).
fn algebra(name: &str, vs: &[Value]) -> Result<Value, String> {
    let bad = || format!("a `{name}` bankcheck cannot compute");
    let a = vs.first().and_then(Value::layout).ok_or_else(bad)?;
    let second = vs.get(1);
    let inner = match (name, second) {
        ("tile_to_shape", Some(shape)) => {
            let row = match vs.get(2) {
                None => false,
                Some(Value::RowMajor(r)) => *r,
                Some(_) => return Err(bad()),
            };
            layout::tile_to_shape(&a.layout, &shape.int_tuple().ok_or_else(bad)?, row)
        }
        ("coalesce", None) => Some(layout::coalesce(&a.layout)),
        ("coalesce", Some(p)) => layout::coalesce_by(&a.layout, &p.int_tuple().ok_or_else(bad)?),
        ("logical_divide", Some(t)) => {
            layout::logical_divide(&a.layout, &t.tiler().ok_or_else(bad)?)
        }
        ("zipped_divide", Some(t)) => layout::zipped_divide(&a.layout, &t.tiler().ok_or_else(bad)?),
        ("logical_product" | "blocked_product", Some(b)) => {
            let b = b
                .layout()
                .filter(|b| b.swizzle.is_none() && b.offset == 0)
                .ok_or_else(bad)?;
            if name == "logical_product" {
                layout::logical_product(&a.layout, &b.layout)
            } else {
                layout::blocked_product(&a.layout, &b.layout)
            }
        }
        ("right_inverse", None) if a.swizzle.is_none() => layout::right_inverse(&a.layout),
        ("complement", n) if a.swizzle.is_none() => {
            let max = match n {
                None => 1,
                Some(Value::Int(n)) => *n,
                Some(_) => return Err(bad()),
            };
            layout::complement(&a.layout, max)
        }
        _ => None,
    };
    Ok(Value::Layout(a.with(inner.ok_or_else(bad)?)))
}

/// `word( inner )` with the parentheses closing at the end: `inner`.
fn wrapped<'t>(text: &'t str, word: &str) -> Option<&'t str> {
    let rest = text.strip_prefix(word)?.trim_start();
    if !rest.starts_with('(') {
        return None;
    }
    let close = matching(rest, 0, b'(', b')')?;
    rest[close + 1..].trim().is_empty().then(|| &rest[1..close])
}

/// A literal integer (`64`, `8u`) or CuTe's `_64`.
fn small_int(text: &str) -> Option<i64> {
    let digits = text.trim_end_matches(['u', 'U', 'l', 'L']);
    let v: i64 = digits.parse().ok()?;
    (v.abs() <= MAX_INT).then_some(v)
}

/// `name`, `name<targs>`, each optionally followed by `{}` or `(args)`, spanning all of
/// `text`; `None` for anything else (an arithmetic expression).
fn term(text: &str) -> Option<Term<'_>> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b':') {
        i += 1;
    }
    if i == 0 || b[0].is_ascii_digit() {
        return None;
    }
    let name = &text[..i];
    let mut rest = text[i..].trim_start();
    let mut targs = None;
    if rest.starts_with('<') {
        let close = matching(rest, 0, b'<', b'>')?;
        targs = Some(split_args(&rest[1..close]));
        rest = rest[close + 1..].trim_start();
        // `Traits<4>::Layout`: a member of a template, a name for the caller.
        if rest.starts_with("::") {
            return None;
        }
    }
    let mut args = None;
    if rest.starts_with('{') {
        let close = matching(rest, 0, b'{', b'}')?;
        if !rest[1..close].trim().is_empty() {
            return None;
        }
        rest = rest[close + 1..].trim_start();
    } else if rest.starts_with('(') {
        let close = matching(rest, 0, b'(', b')')?;
        args = Some(split_args(&rest[1..close]));
        rest = rest[close + 1..].trim_start();
    }
    rest.is_empty().then_some(Term { name, targs, args })
}

/// The index of the bracket closing the one at `open` (`<` and `>` counted only at the
/// top level of the other brackets).
fn matching(text: &str, open: usize, left: u8, right: u8) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth = 0i32;
    let mut nest = 0i32;
    for (i, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'(' | b'[' | b'{' if left == b'<' => nest += 1,
            b')' | b']' | b'}' if left == b'<' => nest -= 1,
            _ => {}
        }
        if nest > 0 {
            continue;
        }
        if c == left {
            depth += 1;
        } else if c == right {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests;
