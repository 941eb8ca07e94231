//! Vector values: HLSL `uint2`/`int3`/`float4`..., CUDA `int2`/`dim3` and the thread-id
//! vectors, as a list of 1 to 4 component values.
//!
//! The rules are HLSL's: constructors concatenate their arguments' components (`uint3(v.xy,
//! 0)`), a scalar broadcasts to every component (`Tile * 8 - 8`), operators and
//! `min`/`max`/`clamp` act component-wise, a longer vector is truncated to the shorter
//! (implicit truncation, also when a vector is assigned to a scalar) and swizzles pick
//! components by `xyzw` or `rgba`. Floating-point components are data, as floating-point
//! scalars are.

use super::real::Real;
use super::value::Value;
use crate::extract::ast::TypeName;
use crate::model::ir::Expr as Ir;
use std::collections::HashMap;

/// The element kind of a vector type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elem {
    Int,
    Float,
}

/// The component count and element kind of a vector type name: `uint2` (2, int),
/// `min16int3`, `float4` (4, float), `bool2`, `dim3`, `vector<uint, 2>`, through typedefs.
/// Matrices (`float4x4`) and scalars are not vectors.
pub fn vector_type(base: &str, typedefs: &HashMap<String, TypeName>) -> Option<(usize, Elem)> {
    let mut base = base;
    for _ in 0..8 {
        match typedefs.get(base) {
            Some(t) if t.pointers == 0 && t.base != base => base = &t.base,
            _ => break,
        }
    }
    let base = base.trim();
    if base == "dim3" {
        return Some((3, Elem::Int));
    }
    if let Some(inner) = base
        .strip_prefix("vector")
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix('<'))
        .and_then(|r| r.strip_suffix('>'))
    {
        let (elem, n) = inner.rsplit_once(',')?;
        let n: usize = n.trim().parse().ok()?;
        let elem = elem_kind(elem.trim())?;
        return (1..=4).contains(&n).then_some((n, elem));
    }
    let digit = base.chars().last()?;
    let n = digit.to_digit(10)? as usize;
    let elem = &base[..base.len() - 1];
    if !(1..=4).contains(&n) || elem.ends_with(|c: char| c.is_ascii_digit() || c == 'x') {
        return None;
    }
    Some((n, elem_kind(elem)?))
}

fn elem_kind(elem: &str) -> Option<Elem> {
    Some(match elem {
        "int" | "uint" | "dword" | "bool" | "min16int" | "min16uint" | "min12int" | "int16_t"
        | "uint16_t" | "int32_t" | "uint32_t" | "int64_t" | "uint64_t" | "short" | "ushort"
        | "long" | "ulong" | "longlong" | "ulonglong" | "char" | "uchar" => Elem::Int,
        "float" | "half" | "double" | "min16float" | "min10float" | "float16_t" | "float32_t"
        | "float64_t" => Elem::Float,
        _ => return None,
    })
}

/// The callee names that construct vectors: HLSL `uint2(...)`, CUDA `make_int2(...)`.
pub fn constructor_type(
    callee: &str,
    typedefs: &HashMap<String, TypeName>,
) -> Option<(usize, Elem)> {
    let name = callee.strip_prefix("make_").unwrap_or(callee);
    vector_type(name, typedefs)
}

/// An integer held in a floating-point component: the same number, as a real.
fn float_component(v: Value) -> Value {
    match v {
        Value::Int(i) => Value::Real(Real::int(i)),
        other => other,
    }
}

/// A real held in an integer component: truncated toward zero when it holds no unknown
/// symbol, else data (its sign, and so the rounding, is not known).
pub fn int_component(v: Value) -> Value {
    match v {
        Value::Real(r) => r.truncated().map_or_else(
            || Value::Data("the integer conversion of a floating-point value".into()),
            Value::Int,
        ),
        other => other,
    }
}

/// `T(args...)`: the arguments' components concatenated; one scalar broadcasts. `dim3`
/// fills missing components with 1.
pub fn construct(callee: &str, n: usize, elem: Elem, args: Vec<Value>) -> Value {
    let mut comps = Vec::with_capacity(n);
    for a in args {
        match a {
            Value::Vector(c) => comps.extend(c),
            other => comps.push(other),
        }
    }
    if callee.ends_with("dim3") {
        comps.resize(3, Value::Int(Ir::Const(1)));
    } else if comps.len() == 1 && n > 1 {
        comps = vec![comps[0].clone(); n];
    }
    if comps.len() < n {
        return Value::Unknown(
            format!("`{callee}` is constructed from {} components", comps.len()).into(),
        );
    }
    comps.truncate(n);
    let convert = match elem {
        Elem::Float => float_component,
        Elem::Int => int_component,
    };
    Value::Vector(comps.into_iter().map(convert).collect())
}

/// The component a swizzle letter names.
fn component(ch: char) -> Option<usize> {
    match ch {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}

/// `v.x`, `v.yx`, `v.rgb`: one component, or a vector of the picked ones. A scalar is a
/// one-component vector (`s.xx`). `None` when `field` is not a swizzle of `v`.
pub fn swizzle(v: &Value, field: &str) -> Option<Value> {
    let one;
    let comps: &[Value] = match v {
        Value::Vector(c) => c,
        Value::Int(_) | Value::Real(_) => {
            one = [v.clone()];
            &one
        }
        _ => return None,
    };
    if field.is_empty() || field.len() > 4 {
        return None;
    }
    let picked: Vec<Value> = field
        .chars()
        .map(|ch| component(ch).and_then(|i| comps.get(i).cloned()))
        .collect::<Option<_>>()?;
    Some(if picked.len() == 1 {
        picked.into_iter().next()?
    } else {
        Value::Vector(picked)
    })
}

/// Assigns `rhs` to the components of `v` that `field` names (`p.x = 3`, `p.yx = q`).
pub fn assign_swizzle(v: &Value, field: &str, rhs: Value) -> Option<Value> {
    let Value::Vector(c) = v else { return None };
    let mut comps = c.clone();
    let targets: Vec<usize> = field.chars().map(component).collect::<Option<_>>()?;
    let values = match rhs {
        Value::Vector(r) if r.len() >= targets.len() => r,
        Value::Vector(_) => return None,
        scalar => vec![scalar; targets.len()],
    };
    for (t, v) in targets.into_iter().zip(values) {
        *comps.get_mut(t)? = v;
    }
    Some(Value::Vector(comps))
}

/// A value that may stand in for every component of a vector.
fn is_scalar(v: &Value) -> bool {
    matches!(
        v,
        Value::Int(_) | Value::Real(_) | Value::Data(_) | Value::Unknown(_)
    )
}

/// Pairs the components of two operands when one of them is a vector: a scalar
/// broadcasts, the longer vector is truncated. `None` when neither is a vector or the
/// other operand is not a number.
pub fn zip(a: &Value, b: &Value) -> Option<Vec<(Value, Value)>> {
    match (a, b) {
        (Value::Vector(x), Value::Vector(y)) => {
            Some(x.iter().cloned().zip(y.iter().cloned()).collect())
        }
        (Value::Vector(x), s) if is_scalar(s) => {
            Some(x.iter().map(|c| (c.clone(), s.clone())).collect())
        }
        (s, Value::Vector(y)) if is_scalar(s) => {
            Some(y.iter().map(|c| (s.clone(), c.clone())).collect())
        }
        _ => None,
    }
}

/// The arguments of a component-wise intrinsic (`min`, `max`, `clamp`), one list per
/// component, when one of them is a vector: scalars broadcast, longer vectors truncate.
pub fn zip_args(args: &[Value]) -> Option<Vec<Vec<Value>>> {
    let n = args
        .iter()
        .filter_map(|a| match a {
            Value::Vector(c) => Some(c.len()),
            _ => None,
        })
        .min()?;
    if !args
        .iter()
        .all(|a| matches!(a, Value::Vector(_)) || is_scalar(a))
    {
        return None;
    }
    Some(
        (0..n)
            .map(|i| {
                args.iter()
                    .map(|a| match a {
                        Value::Vector(c) => c[i].clone(),
                        s => s.clone(),
                    })
                    .collect()
            })
            .collect(),
    )
}

/// The components of a vector, or a scalar as one component.
pub fn components(v: Value) -> Vec<Value> {
    match v {
        Value::Vector(c) => c,
        other => vec![other],
    }
}

/// Applies a declared type to a value: a vector type truncates a longer vector and
/// broadcasts a scalar; a scalar type keeps the first component of a vector.
pub fn fit(ty: &TypeName, v: Value, typedefs: &HashMap<String, TypeName>) -> Value {
    if ty.pointers > 0 {
        return v;
    }
    match (vector_type(&ty.base, typedefs), v) {
        // `dim3 block = 256;` is (256, 1, 1).
        (Some(_), s) if ty.base == "dim3" && is_scalar(&s) => {
            construct("dim3", 3, Elem::Int, vec![s])
        }
        (Some((n, elem)), Value::Vector(mut c)) if c.len() >= n => {
            c.truncate(n);
            let convert = match elem {
                Elem::Float => float_component,
                Elem::Int => int_component,
            };
            Value::Vector(c.into_iter().map(convert).collect())
        }
        (Some((n, Elem::Int)), s) if is_scalar(&s) => Value::Vector(vec![int_component(s); n]),
        (Some((n, Elem::Float)), s) if is_scalar(&s) => Value::Vector(vec![float_component(s); n]),
        (None, Value::Vector(c)) if is_scalar_name(&ty.base) => scalar_of(
            &ty.base,
            c.into_iter()
                .next()
                .unwrap_or(Value::Unknown("an empty vector".into())),
        ),
        (None, v) if is_scalar_name(&ty.base) => scalar_of(&ty.base, v),
        (_, v) => v,
    }
}

/// A scalar of type `base`: a real in an integer type is converted.
fn scalar_of(base: &str, v: Value) -> Value {
    match elem_kind(base) {
        Some(Elem::Float) => float_component(v),
        _ => int_component(v),
    }
}

/// A scalar type name that holds a truncated vector.
fn is_scalar_name(base: &str) -> bool {
    elem_kind(base).is_some() || matches!(base, "unsigned" | "unsigned int" | "signed" | "size_t")
}

/// The components of a vector declared without a value: each one is unknown until assigned.
pub fn undefined(name: &str, ty: &TypeName, typedefs: &HashMap<String, TypeName>) -> Option<Value> {
    let (n, _) = vector_type(&ty.base, typedefs)?;
    (ty.pointers == 0).then(|| {
        Value::Vector(
            "xyzw"
                .chars()
                .take(n)
                .map(|c| Value::Unknown(format!("`{name}.{c}` is declared without a value").into()))
                .collect(),
        )
    })
}

/// Merges two vectors assigned in the branches of an `if` on `guard`, component by
/// component, with `select` combining two different components.
pub fn merge(
    t: &Value,
    f: &Value,
    mut select: impl FnMut(&Value, &Value) -> Option<Value>,
) -> Option<Value> {
    let (Value::Vector(a), Value::Vector(b)) = (t, f) else {
        return None;
    };
    if a.len() != b.len() {
        return None;
    }
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            if x == y {
                Some(x.clone())
            } else {
                select(x, y)
            }
        })
        .collect::<Option<Vec<_>>>()
        .map(Value::Vector)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none() -> HashMap<String, TypeName> {
        HashMap::new()
    }

    #[test]
    fn vector_type_names() {
        assert_eq!(vector_type("uint2", &none()), Some((2, Elem::Int)));
        assert_eq!(vector_type("min16int3", &none()), Some((3, Elem::Int)));
        assert_eq!(vector_type("float4", &none()), Some((4, Elem::Float)));
        assert_eq!(
            vector_type("vector<uint, 2>", &none()),
            Some((2, Elem::Int))
        );
        assert_eq!(vector_type("dim3", &none()), Some((3, Elem::Int)));
        assert_eq!(vector_type("float4x4", &none()), None);
        assert_eq!(vector_type("uint", &none()), None);
        assert_eq!(vector_type("int16_t", &none()), None);
        assert_eq!(vector_type("MyType2", &none()), None);
    }

    #[test]
    fn constructors_concatenate_and_broadcast() {
        let i = |c| Value::Int(Ir::Const(c));
        let v = construct(
            "uint3",
            3,
            Elem::Int,
            vec![Value::Vector(vec![i(1), i(2)]), i(3)],
        );
        assert_eq!(v, Value::Vector(vec![i(1), i(2), i(3)]));
        let b = construct("uint2", 2, Elem::Int, vec![i(5)]);
        assert_eq!(b, Value::Vector(vec![i(5), i(5)]));
        let d = construct("dim3", 3, Elem::Int, vec![i(16)]);
        assert_eq!(d, Value::Vector(vec![i(16), i(1), i(1)]));
        assert!(matches!(
            construct("uint4", 4, Elem::Int, vec![i(1), i(2)]),
            Value::Unknown(_)
        ));
    }

    #[test]
    fn swizzles_pick_and_assign() {
        let i = |c| Value::Int(Ir::Const(c));
        let v = Value::Vector(vec![i(1), i(2), i(3)]);
        assert_eq!(swizzle(&v, "z"), Some(i(3)));
        assert_eq!(swizzle(&v, "yx"), Some(Value::Vector(vec![i(2), i(1)])));
        assert_eq!(swizzle(&v, "w"), None);
        assert_eq!(swizzle(&i(7), "xx"), Some(Value::Vector(vec![i(7), i(7)])));
        assert_eq!(
            assign_swizzle(&v, "zx", Value::Vector(vec![i(9), i(8)])),
            Some(Value::Vector(vec![i(8), i(2), i(9)]))
        );
    }
}
