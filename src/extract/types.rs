//! Sizes and alignments of element types: scalars, CUDA and HLSL vectors, HLSL
//! matrices, and structs declared in the file (C layout rules), struct templates
//! included: `Pack<float>` binds the template's parameters to its arguments, and the
//! constant expressions of its body (member extents such as `E v[size]`, `alignas(N)`)
//! are evaluated by the caller's [`Consts`] in the struct's [`Scope`].

use super::ast::{Expr, ExprKind, Field, StructDef, TypeName};
use super::convert::{parse_int, type_from_text};
use std::collections::HashMap;

/// Size and alignment in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub size: u64,
    pub align: u64,
}

/// The size of a built-in scalar type, or `None`.
fn scalar(name: &str) -> Option<u64> {
    let n = name.trim();
    Some(match n {
        "char" | "signed char" | "unsigned char" | "int8_t" | "uint8_t" | "bool"
        | "__nv_fp8_e4m3" | "__nv_fp8_e5m2" | "uchar" | "byte" | "int8_t4_packed" => 1,
        "short" | "unsigned short" | "short int" | "unsigned short int" | "int16_t"
        | "uint16_t" | "half" | "__half" | "__nv_bfloat16" | "nv_bfloat16" | "bf16"
        | "float16_t" | "min16float" | "min16int" | "min16uint" | "min10float" | "min12int"
        | "ushort" | "int16" | "uint16"
        // CUTLASS's numeric types (cutlass/numeric_types.h): a 16-bit storage each.
        | "cutlass::half_t" | "half_t" | "cutlass::bfloat16_t" | "bfloat16_t" => 2,
        "int" | "unsigned" | "unsigned int" | "signed" | "signed int" | "float" | "int32_t"
        | "uint32_t" | "uint" | "dword" | "float32_t" | "__half2"
        | "half2" | "__nv_bfloat162" | "nv_bfloat162" | "int32" | "uint32"
        | "cutlass::tfloat32_t" | "tfloat32_t" => 4,
        "double"
        | "long long"
        | "unsigned long long"
        | "long long int"
        | "unsigned long long int"
        | "int64_t"
        | "uint64_t"
        | "size_t"
        | "float64_t"
        | "uint64"
        | "int64"
        // CUDA's `long` is the host's: 8 bytes under the LP64 data model of 64-bit Linux,
        // which bankcheck assumes (docs/bank-model.md); `clock_t` is a `long` there.
        | "long"
        | "unsigned long"
        | "long int"
        | "unsigned long int"
        | "clock_t" => 8,
        // 128-bit integers: CUTLASS's `uint128_t` (two 64-bit words, `alignas(16)`), the
        // unit of CuTe's 16-byte copies (`sizeof(cute::uint128_t)`), and GCC's.
        "cutlass::uint128_t" | "cute::uint128_t" | "uint128_t" | "__uint128_t" | "__int128"
        | "unsigned __int128" => 16,
        _ => return None,
    })
}

/// CUDA and HLSL vector and matrix types: `float4`, `uint2`, `half3`, `float4x4`, `double2`.
fn vector(name: &str) -> Option<Layout> {
    let base_len = name
        .trim_end_matches(|c: char| c.is_ascii_digit() || c == 'x')
        .len();
    let (base, dims) = name.split_at(base_len);
    if dims.is_empty() {
        return None;
    }
    let elem = match base {
        "float" | "int" | "uint" | "dword" => 4,
        "double" | "longlong" | "ulonglong" | "long" | "ulong" | "int64_t" | "uint64_t" => 8,
        "half" | "short" | "ushort" | "min16float" | "min16int" | "min16uint" | "float16_t"
        | "int16_t" | "uint16_t" => 2,
        "char" | "uchar" | "bool" => {
            if base == "bool" {
                4
            } else {
                1
            }
        }
        _ => return None,
    };
    let count: u64 = dims
        .split('x')
        .map(|d| d.parse::<u64>().ok())
        .product::<Option<u64>>()?;
    if count == 0 || count > 16 {
        return None;
    }
    // CUDA vector types of 2 and 4 components are aligned to their size; 3-component
    // ones and HLSL types only to their component.
    let size = elem * count;
    let align = if (count == 2 || count == 4) && size <= 16 && !dims.contains('x') {
        size
    } else {
        elem
    };
    Some(Layout { size, align })
}

/// The layout of a built-in scalar or vector type, or `None`.
pub fn builtin(name: &str) -> Option<Layout> {
    let name = name.trim().trim_start_matches("::");
    let short = name.rsplit("::").next().unwrap_or(name);
    if let Some(s) = scalar(name).or_else(|| scalar(short)) {
        return Some(Layout { size: s, align: s });
    }
    vector(short)
}

const POINTER: Layout = Layout { size: 8, align: 8 };

/// Where the names of a type or a constant expression are looked up: the body of a
/// struct (`owner`), its template parameters bound to the types and values of one use,
/// or, with no owner, the code that names the type (the caller's own context).
#[derive(Debug, Clone, Default)]
pub struct Scope {
    pub owner: Option<String>,
    pub types: HashMap<String, TypeName>,
    pub values: HashMap<String, i64>,
}

/// Evaluates the constant expressions a layout depends on.
pub trait Consts {
    /// The value of `e` in `scope`, or `None` when it is not a known integer constant.
    fn value(&mut self, e: &Expr, scope: &Scope) -> Option<i64>;
}

/// A member of a struct or a component of a vector: its byte offset, its layout (of one
/// element, for a member array) and, for a struct member, its type with the struct's
/// template parameters replaced by the use's arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub offset: u64,
    pub layout: Layout,
    pub ty: Option<TypeName>,
}

/// `Pack<float, 4>` as the template's name and its arguments' text (split at the commas
/// outside nested brackets); `None` for a name with no template argument list, or one
/// followed by more (`Outer<4>::Inner`).
pub fn split_template(name: &str) -> (&str, Option<Vec<String>>) {
    let name = name.trim();
    let Some(open) = name.find('<') else {
        return (name, None);
    };
    let mut depth = 0i32;
    let mut args = Vec::new();
    let mut start = open + 1;
    for (i, c) in name.char_indices().skip_while(|&(i, _)| i < open) {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    if i + 1 != name.len() {
                        return (name, None);
                    }
                    let last = name[start..i].trim();
                    if !(args.is_empty() && last.is_empty()) {
                        args.push(last.to_string());
                    }
                }
            }
            ',' if depth == 1 => {
                args.push(name[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return (name, None);
    }
    (name[..open].trim(), Some(args))
}

/// `ty` with the template parameters bound in `scope` replaced, in the name itself
/// (`E` with `E = float`) and in its template arguments (`Pack<E>`).
pub fn substitute(ty: &TypeName, scope: &Scope) -> TypeName {
    if let Some(t) = scope.types.get(ty.base.as_str()) {
        return TypeName {
            base: t.base.clone(),
            pointers: t.pointers + ty.pointers,
        };
    }
    if !ty.base.contains('<') || (scope.types.is_empty() && scope.values.is_empty()) {
        return ty.clone();
    }
    let mut base = String::with_capacity(ty.base.len());
    let mut word = String::new();
    let flush = |word: &mut String, base: &mut String| {
        if let Some(t) = scope.types.get(word.as_str()) {
            base.push_str(&t.base);
            base.extend(std::iter::repeat_n('*', t.pointers as usize));
        } else if let Some(v) = scope.values.get(word.as_str()) {
            base.push_str(&v.to_string());
        } else {
            base.push_str(word);
        }
        word.clear();
    };
    for c in ty.base.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut base);
            base.push(c);
        }
    }
    flush(&mut word, &mut base);
    TypeName {
        base,
        pointers: ty.pointers,
    }
}

/// The type definitions of a file, and its language's layout rules.
#[derive(Clone, Copy)]
pub struct Types<'a> {
    pub typedefs: &'a HashMap<String, TypeName>,
    pub structs: &'a HashMap<String, StructDef>,
    /// HLSL aligns vector members of structs to their component: `struct { uint4 c;
    /// uint e; }` is 20 bytes, not 32.
    pub hlsl: bool,
}

impl Types<'_> {
    /// The layout of `ty` named in `scope`, through typedefs, template parameters and
    /// struct definitions; a pointer type is a 64-bit address, as in all device code of
    /// 64-bit CUDA (the only kind CUDA 12 compiles).
    pub fn layout(&self, ty: &TypeName, scope: &Scope, consts: &mut dyn Consts) -> Option<Layout> {
        if ty.pointers > 0 {
            return Some(POINTER);
        }
        self.layout_rec(&ty.base, scope, consts, 0)
    }

    /// Member `field` of the struct or vector type `ty` named in `scope`.
    pub fn member(
        &self,
        ty: &TypeName,
        field: &str,
        scope: &Scope,
        consts: &mut dyn Consts,
    ) -> Option<Member> {
        let name = self.resolve(&ty.base, scope);
        let (base, args) = split_template(&name);
        if let Some((def, inner)) = self.instance(base, args.as_deref(), scope, consts, false) {
            let (offset, layout) = self.lay_out(def, &inner, consts, 1, Some(field))?;
            let f = self.find_field(def, field)?;
            return Some(Member {
                offset,
                layout,
                ty: Some(substitute(&f.ty, &inner)),
            });
        }
        let (offset, layout) = vector_member(&name, field)?;
        Some(Member {
            offset,
            layout,
            ty: None,
        })
    }

    /// The struct that `name`, written in `scope`, stands for (through template parameters
    /// and typedefs): its short name and the scope of its body. A struct template named
    /// without arguments gets a scope with its parameters unbound.
    pub fn struct_scope(
        &self,
        name: &str,
        scope: &Scope,
        consts: &mut dyn Consts,
    ) -> Option<(String, Scope)> {
        let name = self.resolve(name, scope);
        let (base, args) = split_template(&name);
        let (_, inner) = self.instance(base, args.as_deref(), scope, consts, true)?;
        Some((inner.owner.clone()?, inner))
    }

    /// `name` through the template parameters of `scope`, then through typedefs to
    /// non-pointer types.
    fn resolve(&self, name: &str, scope: &Scope) -> String {
        let mut name = name.trim().trim_start_matches("::").to_string();
        if let Some(t) = scope.types.get(&name).filter(|t| t.pointers == 0) {
            name.clone_from(&t.base);
        }
        for _ in 0..16 {
            if name.contains('<') {
                break;
            }
            let short = name.rsplit("::").next().unwrap_or(&name);
            match self
                .typedefs
                .get(&name)
                .or_else(|| self.typedefs.get(short))
            {
                Some(t) if t.pointers == 0 && t.base != name => name.clone_from(&t.base),
                _ => break,
            }
        }
        name
    }

    fn layout_rec(
        &self,
        name: &str,
        scope: &Scope,
        consts: &mut dyn Consts,
        depth: u32,
    ) -> Option<Layout> {
        if depth > 16 {
            return None;
        }
        let name = name.trim().trim_start_matches("::");
        // Bound types are written in the terms of the use, which are the file's.
        if let Some(t) = scope.types.get(name) {
            if t.pointers > 0 {
                return Some(POINTER);
            }
            return self.layout_rec(&t.base, &Scope::default(), consts, depth + 1);
        }
        let (base, args) = split_template(name);
        if args.is_none() {
            if let Some(l) = builtin(name) {
                return Some(l);
            }
            let short = name.rsplit("::").next().unwrap_or(name);
            if let Some(t) = self.typedefs.get(name).or_else(|| self.typedefs.get(short)) {
                if t.pointers > 0 {
                    return Some(POINTER);
                }
                return self.layout_rec(&t.base, &Scope::default(), consts, depth + 1);
            }
        }
        let (def, inner) = self.instance(base, args.as_deref(), scope, consts, false)?;
        self.lay_out(def, &inner, consts, depth, None)
            .map(|(_, l)| l)
    }

    /// The definition of struct `base` and the scope of its body, its template
    /// parameters bound to `args` (written in `outer`) or to their defaults. Unless
    /// `partial`, a parameter left unbound (or an argument that is not a known constant)
    /// gives `None`.
    fn instance(
        &self,
        base: &str,
        args: Option<&[String]>,
        outer: &Scope,
        consts: &mut dyn Consts,
        partial: bool,
    ) -> Option<(&StructDef, Scope)> {
        let short = base.rsplit("::").next().unwrap_or(base);
        let def = self.structs.get(base).or_else(|| self.structs.get(short))?;
        let mut inner = Scope {
            owner: Some(short.to_string()),
            ..Scope::default()
        };
        // A struct or union defined without a name where it is declared is written in
        // the scope of that declaration: its member types are the enclosing function's
        // (`SegmentSizeT counts[N]` in a kernel templated on `SegmentSizeT`).
        if base.starts_with("anonymous ") {
            inner.types.clone_from(&outer.types);
            inner.values.clone_from(&outer.values);
        }
        let Some(args) = args else {
            return (partial || def.template_params.is_empty()).then_some((def, inner));
        };
        if args.len() > def.template_params.len() {
            return None;
        }
        for (i, p) in def.template_params.iter().enumerate() {
            let bound = match (p.is_type, args.get(i)) {
                (true, Some(a)) => {
                    let t = substitute(&type_from_text(a), outer);
                    inner.types.insert(p.name.clone(), t);
                    true
                }
                (true, None) => match p.default.as_ref().map(|d| &d.kind) {
                    Some(ExprKind::Ident(t)) => {
                        let t = substitute(&type_from_text(t), &inner);
                        inner.types.insert(p.name.clone(), t);
                        true
                    }
                    _ => false,
                },
                (false, arg) => {
                    let v = match arg {
                        Some(a) => argument_value(a, outer, consts),
                        None => p.default.as_ref().and_then(|d| consts.value(d, &inner)),
                    };
                    v.map(|v| inner.values.insert(p.name.clone(), v)).is_some()
                }
            };
            if !bound && !partial {
                return None;
            }
        }
        Some((def, inner))
    }

    /// Lays out the members of `def` in `scope` (C rules; HLSL's for vector members).
    /// With `target`, stops at that member: its offset and the layout of one of its
    /// elements; else offset 0 and the whole struct's layout, `alignas` applied.
    fn lay_out(
        &self,
        def: &StructDef,
        scope: &Scope,
        consts: &mut dyn Consts,
        depth: u32,
        target: Option<&str>,
    ) -> Option<(u64, Layout)> {
        if def.opaque {
            return None;
        }
        // Every member of a union starts at its first byte, whatever the others are.
        if let (true, Some(name)) = (def.union, target) {
            if let Some(f) = def.fields.iter().find(|f| f.name == name) {
                let l = self.field_layout(f, scope, consts, depth)?;
                return Some((0, l));
            }
            let inner = def
                .fields
                .iter()
                .filter(|f| f.name.is_empty())
                .find_map(|f| self.structs.get(&f.ty.base))
                .filter(|d| self.find_field(d, name).is_some())?;
            return self.lay_out(inner, scope, consts, depth + 1, target);
        }
        let mut offset = 0u64;
        let mut align = 1u64;
        for f in &def.fields {
            let l = self.field_layout(f, scope, consts, depth)?;
            if def.union {
                offset = offset.max(l.size * count(f, scope, consts)?);
                align = align.max(l.align);
                continue;
            }
            offset = offset.div_ceil(l.align) * l.align;
            if target == Some(f.name.as_str()) {
                return Some((offset, l));
            }
            // A member of a struct or union member without a name, at that member's place.
            if let (true, Some(name), Some(inner)) =
                (f.name.is_empty(), target, self.structs.get(&f.ty.base))
            {
                if self.find_field(inner, name).is_some() {
                    let (at, l) = self.lay_out(inner, scope, consts, depth + 1, target)?;
                    return Some((offset + at, l));
                }
            }
            offset += l.size * count(f, scope, consts)?;
            align = align.max(l.align);
        }
        if target.is_some() {
            return None;
        }
        if let Some(e) = &def.align {
            align = align.max(self.alignas(e, scope, consts, depth)?);
        }
        Some((
            0,
            Layout {
                size: offset.div_ceil(align) * align,
                align,
            },
        ))
    }

    /// The layout of one element of member `f` of a struct laid out at `depth`.
    fn field_layout(
        &self,
        f: &Field,
        scope: &Scope,
        consts: &mut dyn Consts,
        depth: u32,
    ) -> Option<Layout> {
        if f.ty.pointers > 0 {
            Some(POINTER)
        } else {
            self.member_layout(&f.ty.base, scope, consts, depth + 1)
        }
    }

    /// Member `name` of `def`, or of a struct or union member of it without a name
    /// (whose members are named as `def`'s).
    pub fn find_field<'d>(&'d self, def: &'d StructDef, name: &str) -> Option<&'d Field> {
        def.fields.iter().find(|f| f.name == name).or_else(|| {
            def.fields
                .iter()
                .filter(|f| f.name.is_empty())
                .filter_map(|f| self.structs.get(&f.ty.base))
                .find_map(|d| self.find_field(d, name))
        })
    }

    /// The alignment `alignas(e)` asks for: of a type, or a power of two.
    fn alignas(&self, e: &Expr, scope: &Scope, consts: &mut dyn Consts, depth: u32) -> Option<u64> {
        if let ExprKind::Ident(name) = &e.kind {
            if let Some(l) = self.layout_rec(name, scope, consts, depth + 1) {
                return Some(l.align);
            }
        }
        let v = u64::try_from(consts.value(e, scope)?).ok()?;
        v.is_power_of_two().then_some(v)
    }

    /// The layout of a struct member's type: in HLSL, vector members are aligned to their
    /// component.
    fn member_layout(
        &self,
        name: &str,
        scope: &Scope,
        consts: &mut dyn Consts,
        depth: u32,
    ) -> Option<Layout> {
        let l = self.layout_rec(name, scope, consts, depth)?;
        let short = name.rsplit("::").next().unwrap_or(name);
        if self.hlsl && !self.structs.contains_key(name) {
            if let Some(v) = vector(short) {
                return Some(Layout {
                    size: v.size,
                    align: v.size / components(short).max(1),
                });
            }
        }
        Some(l)
    }
}

/// The number of elements of member `f` (1 when it is not an array); `None` when an
/// extent is left out, not a known constant, or not positive.
fn count(f: &Field, scope: &Scope, consts: &mut dyn Consts) -> Option<u64> {
    f.extents.iter().try_fold(1u64, |n, e| {
        let v = match &e.as_ref()?.kind {
            ExprKind::Int(v) => *v,
            _ => consts.value(e.as_ref()?, scope)?,
        };
        n.checked_mul(u64::try_from(v).ok().filter(|&v| v > 0)?)
    })
}

/// The value of a non-type template argument as written in `outer`: a literal, a bound
/// parameter, or a name the caller knows.
fn argument_value(text: &str, outer: &Scope, consts: &mut dyn Consts) -> Option<i64> {
    if let Some(v) = parse_int(text) {
        return Some(v);
    }
    if let Some(v) = outer.values.get(text) {
        return Some(*v);
    }
    let name = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == ':');
    if name {
        let e = Expr {
            span: crate::diag::Span::default(),
            kind: ExprKind::Ident(text.to_string()),
        };
        return consts.value(&e, outer);
    }
    // An expression (`2 * STAGES`, `kBlockM / 2`), parsed once per text and thread.
    // Evaluating it can lay out other types whose arguments are expressions in turn
    // (CuTe's nested `Int<A * B>` shapes): only the outermost one is evaluated, as a
    // chain of them costs a product of their alternatives.
    thread_local! {
        static PARSED: std::cell::RefCell<HashMap<String, Option<Expr>>> =
            std::cell::RefCell::new(HashMap::new());
        static EVALUATING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if EVALUATING.with(std::cell::Cell::get) {
        return None;
    }
    let e = PARSED.with(|cache| {
        cache
            .borrow_mut()
            .entry(text.to_string())
            .or_insert_with(|| {
                super::parse_snippet(text, crate::Language::Cuda, crate::diag::Span::default())
            })
            .clone()
    })?;
    /// Clears the flag however the evaluation ends (a panic is caught per file).
    struct Evaluating;
    impl Drop for Evaluating {
        fn drop(&mut self) {
            EVALUATING.with(|c| c.set(false));
        }
    }
    EVALUATING.with(|c| c.set(true));
    let _evaluating = Evaluating;
    consts.value(&e, outer)
}

/// The number of components of a vector or matrix type name (`float4x4`: 16).
fn components(name: &str) -> u64 {
    let base_len = name
        .trim_end_matches(|c: char| c.is_ascii_digit() || c == 'x')
        .len();
    name[base_len..]
        .split('x')
        .filter_map(|d| d.parse::<u64>().ok())
        .product()
}

/// Vector components and HLSL swizzles: `.x`, `.xy`, `.rgba`.
fn vector_member(name: &str, field: &str) -> Option<(u64, Layout)> {
    let v = vector(name)?;
    let elem = v.size / components(name).max(1);
    let index = |c: char| "xyzw".find(c).or_else(|| "rgba".find(c)).map(|i| i as u64);
    let comps: Vec<u64> = field.chars().map(index).collect::<Option<Vec<_>>>()?;
    let first = *comps.first()?;
    // A swizzle is one access only when its components are consecutive.
    if comps
        .iter()
        .enumerate()
        .any(|(i, &c)| c != first + i as u64)
    {
        return None;
    }
    let size = elem * comps.len() as u64;
    let offset = first * elem;
    // `.xy` of a 16-byte vector is an aligned 8-byte access, as a `float2` would be.
    let align = if matches!(size, 8 | 16) && offset.is_multiple_of(size) && v.align >= size {
        size
    } else {
        elem
    };
    Some((offset, Layout { size, align }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::ast::BinaryOp;

    fn t(name: &str) -> TypeName {
        TypeName {
            base: name.into(),
            pointers: 0,
        }
    }

    fn syntax(text: &str) -> crate::extract::FileSyntax {
        let file = crate::source::load("k.cu", text.as_bytes()).expect("loads");
        let tree = crate::source::parse(&file).expect("parses");
        crate::extract::extract(&file, &tree)
    }

    /// Knows no constant: member extents other than literals stay unknown.
    struct Literals;

    impl Consts for Literals {
        fn value(&mut self, _: &Expr, _: &Scope) -> Option<i64> {
            None
        }
    }

    /// Integer arithmetic, the scope's values and `sizeof` of types: enough of a
    /// constant evaluator for the layouts below (the interpreter is the real one).
    struct Arith<'a>(Types<'a>);

    impl Consts for Arith<'_> {
        fn value(&mut self, e: &Expr, scope: &Scope) -> Option<i64> {
            match &e.kind {
                ExprKind::Int(v) => Some(*v),
                ExprKind::Ident(n) => scope.values.get(n).copied(),
                ExprKind::SizeofType(ty) => {
                    let types = self.0;
                    types.layout(ty, scope, self).map(|l| l.size as i64)
                }
                ExprKind::SizeofExpr(inner) => match &inner.kind {
                    ExprKind::Ident(n) => {
                        let types = self.0;
                        types.layout(&t(n), scope, self).map(|l| l.size as i64)
                    }
                    _ => None,
                },
                ExprKind::Binary(op, a, b) => {
                    let (a, b) = (self.value(a, scope)?, self.value(b, scope)?);
                    match op {
                        BinaryOp::Add => Some(a + b),
                        BinaryOp::Mul => Some(a * b),
                        BinaryOp::Div => a.checked_div(b),
                        _ => None,
                    }
                }
                _ => None,
            }
        }
    }

    fn layout(syn: &crate::extract::FileSyntax, name: &str) -> Option<Layout> {
        let types = syn.types();
        types.layout(&t(name), &Scope::default(), &mut Arith(types))
    }

    #[test]
    fn builtin_sizes() {
        let syn = syntax("");
        for (name, size, align) in [
            ("float", 4, 4),
            ("double", 8, 8),
            ("float4", 16, 16),
            ("float3", 12, 4),
            ("half2", 4, 4),
            ("__half", 2, 2),
            ("int2", 8, 8),
            ("uint2", 8, 8),
            ("float4x4", 64, 4),
            ("min16float", 2, 2),
            ("char", 1, 1),
            ("unsigned long long", 8, 8),
        ] {
            assert_eq!(layout(&syn, name), Some(Layout { size, align }), "{name}");
        }
    }

    #[test]
    fn struct_layout_follows_c_rules() {
        let syn = syntax(
            "struct KV { float k; double v; static constexpr int n = 4; int get(); };\n\
             struct P { char c; float* p; };\n",
        );
        assert_eq!(layout(&syn, "KV"), Some(Layout { size: 16, align: 8 }));
        let types = syn.types();
        let member = |ty: &str, f: &str| {
            types
                .member(&t(ty), f, &Scope::default(), &mut Literals)
                .map(|m| (m.offset, m.layout.size))
        };
        assert_eq!(member("KV", "v"), Some((8, 8)));
        assert_eq!(member("P", "p"), Some((8, 8)));
        assert_eq!(member("float4", "zw"), Some((8, 8)));
    }

    #[test]
    fn struct_templates_take_the_arguments_of_each_use() {
        let syn = syntax(
            "template <class E>\n\
             struct alignas(16) Pack { E v[sizeof(int4) / sizeof(E)]; };\n\
             typedef float realT;\n\
             typedef Pack<realT> p32;\n\
             typedef Pack<__nv_bfloat16> p16;\n\
             template <int N, class T = short> struct Buf { T a[N * 2]; char tag; };\n\
             struct alignas(8) Tagged { char c; };\n\
             struct __align__(4) Small { char c; };\n\
             template <class T> struct alignas(T) Like { char c; };\n\
             struct Open { int n; float data[]; };\n\
             struct Base { int n; };\n\
             struct Derived : Base { int m; };\n\
             struct Virtual { int n; virtual void f(); };\n",
        );
        let l = |size, align| Some(Layout { size, align });
        // 4 floats, 8 bfloat16s: 16 bytes either way, aligned to 16 by `alignas`.
        assert_eq!(layout(&syn, "p32"), l(16, 16));
        assert_eq!(layout(&syn, "p16"), l(16, 16));
        assert_eq!(layout(&syn, "Pack<char>"), l(16, 16));
        assert_eq!(layout(&syn, "Pack<double2>"), l(16, 16));
        // A non-type parameter and a defaulted type parameter: 6 shorts and a char.
        assert_eq!(layout(&syn, "Buf<3>"), l(14, 2));
        assert_eq!(layout(&syn, "Buf<2, float>"), l(20, 4));
        assert_eq!(layout(&syn, "Tagged"), l(8, 8));
        assert_eq!(layout(&syn, "Small"), l(4, 4));
        assert_eq!(layout(&syn, "Like<double2>"), l(16, 16));
        // A template named without its arguments, an extent left out, a constant the
        // evaluator does not know: unknown, never guessed.
        assert_eq!(layout(&syn, "Pack"), None);
        assert_eq!(layout(&syn, "Buf<M>"), None);
        assert_eq!(layout(&syn, "Open"), None);
        // Base classes and virtual functions put members where C would not.
        assert_eq!(layout(&syn, "Base"), l(4, 4));
        assert_eq!(layout(&syn, "Derived"), None);
        assert_eq!(layout(&syn, "Virtual"), None);
        assert_eq!(
            syn.types()
                .layout(&t("p32"), &Scope::default(), &mut Literals),
            None
        );
        // Members: their offset, one element's layout and their type at this use.
        let types = syn.types();
        let m = types
            .member(&t("p16"), "v", &Scope::default(), &mut Arith(types))
            .expect("member");
        assert_eq!(
            (m.offset, m.layout, m.ty),
            (0, l(2, 2).unwrap(), Some(t("__nv_bfloat16")))
        );
        let m = types
            .member(&t("Buf<3>"), "tag", &Scope::default(), &mut Arith(types))
            .expect("member");
        assert_eq!((m.offset, m.ty), (12, Some(t("char"))));
        // The function's own template arguments name the struct's.
        let here = Scope {
            types: HashMap::from([("T".to_string(), t("half"))]),
            ..Scope::default()
        };
        assert_eq!(
            types.layout(&t("Pack<T>"), &here, &mut Arith(types)),
            l(16, 16)
        );
        assert_eq!(
            types.layout(&t("Buf<1, T>"), &here, &mut Arith(types)),
            l(6, 2)
        );
    }

    #[test]
    fn a_pointer_is_an_address_whatever_it_points_to() {
        let syn = syntax("struct Big { float v[32]; };\n");
        let types = syn.types();
        let pointer = |base: &str, pointers| {
            types.layout(
                &TypeName {
                    base: base.into(),
                    pointers,
                },
                &Scope::default(),
                &mut Arith(types),
            )
        };
        let address = Some(POINTER);
        assert_eq!(
            pointer("Big", 0),
            Some(Layout {
                size: 128,
                align: 4
            })
        );
        assert_eq!(pointer("Big", 1), address);
        assert_eq!(pointer("float", 2), address);
        // A pointee bankcheck does not know is still an 8-byte address.
        assert_eq!(pointer("Node", 1), address);
        assert_eq!(pointer("Node", 0), None);
    }

    #[test]
    fn template_names_split_at_their_top_level_commas() {
        assert_eq!(split_template("float").1, None);
        assert_eq!(
            split_template("Pack< Pair<int, float>, 4 >"),
            ("Pack", Some(vec!["Pair<int, float>".into(), "4".into()]))
        );
        assert_eq!(split_template("Pack<>"), ("Pack", Some(vec![])));
        assert_eq!(split_template("Outer<4>::Inner").1, None);
        let scope = Scope {
            types: HashMap::from([("E".to_string(), t("float"))]),
            values: HashMap::from([("N".to_string(), 8)]),
            ..Scope::default()
        };
        assert_eq!(substitute(&t("Pair<E, N>"), &scope).base, "Pair<float, 8>");
        assert_eq!(substitute(&t("E"), &scope), t("float"));
    }
}
