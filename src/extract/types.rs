//! Sizes and alignments of element types: scalars, CUDA and HLSL vectors, HLSL
//! matrices, and structs declared in the same file (C layout rules).

use super::ast::{StructDef, TypeName};
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
        | "ushort" | "int16" | "uint16" => 2,
        "int" | "unsigned" | "unsigned int" | "signed" | "signed int" | "float" | "int32_t"
        | "uint32_t" | "uint" | "dword" | "long" | "unsigned long" | "float32_t" | "__half2"
        | "half2" | "__nv_bfloat162" | "nv_bfloat162" | "int32" | "uint32" => 4,
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
        | "int64" => 8,
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

/// Resolves the layout of `ty` (no pointers), through typedefs and structs.
pub fn layout_of(
    ty: &TypeName,
    typedefs: &HashMap<String, TypeName>,
    structs: &HashMap<String, StructDef>,
) -> Option<Layout> {
    layout_rec(&ty.base, typedefs, structs, 0, false)
}

/// Like [`layout_of`], with HLSL's rule for struct members when `hlsl`: vectors are
/// aligned to their component, so `struct { uint4 c; uint e; }` is 20 bytes, not 32.
pub fn layout_in(
    ty: &TypeName,
    typedefs: &HashMap<String, TypeName>,
    structs: &HashMap<String, StructDef>,
    hlsl: bool,
) -> Option<Layout> {
    layout_rec(&ty.base, typedefs, structs, 0, hlsl)
}

fn layout_rec(
    name: &str,
    typedefs: &HashMap<String, TypeName>,
    structs: &HashMap<String, StructDef>,
    depth: u32,
    hlsl: bool,
) -> Option<Layout> {
    if depth > 16 {
        return None;
    }
    let name = name.trim().trim_start_matches("::");
    let short = name.rsplit("::").next().unwrap_or(name);
    if let Some(s) = scalar(name).or_else(|| scalar(short)) {
        return Some(Layout { size: s, align: s });
    }
    if let Some(v) = vector(short) {
        return Some(v);
    }
    if let Some(t) = typedefs.get(name).or_else(|| typedefs.get(short)) {
        if t.pointers > 0 {
            return Some(Layout { size: 8, align: 8 });
        }
        return layout_rec(&t.base, typedefs, structs, depth + 1, hlsl);
    }
    if let Some(s) = structs.get(name).or_else(|| structs.get(short)) {
        let mut offset = 0u64;
        let mut align = 1u64;
        for (_, fty, count) in &s.fields {
            // A member array whose extent is not a literal: the size is not known.
            if *count == 0 {
                return None;
            }
            let f = if fty.pointers > 0 {
                Layout { size: 8, align: 8 }
            } else {
                member_layout(&fty.base, typedefs, structs, depth + 1, hlsl)?
            };
            offset = offset.div_ceil(f.align) * f.align;
            offset += f.size * count;
            align = align.max(f.align);
        }
        return Some(Layout {
            size: offset.div_ceil(align) * align,
            align,
        });
    }
    None
}

/// The layout of a struct member: in HLSL, vector members are aligned to their component.
fn member_layout(
    name: &str,
    typedefs: &HashMap<String, TypeName>,
    structs: &HashMap<String, StructDef>,
    depth: u32,
    hlsl: bool,
) -> Option<Layout> {
    let l = layout_rec(name, typedefs, structs, depth, hlsl)?;
    let short = name.rsplit("::").next().unwrap_or(name);
    if hlsl && !structs.contains_key(name) {
        if let Some(v) = vector(short) {
            let base_len = short
                .trim_end_matches(|c: char| c.is_ascii_digit() || c == 'x')
                .len();
            let count: u64 = short[base_len..]
                .split('x')
                .filter_map(|d| d.parse::<u64>().ok())
                .product();
            return Some(Layout {
                size: v.size,
                align: v.size / count.max(1),
            });
        }
    }
    Some(l)
}

/// Byte offset and type of member `field` of the struct or vector type `ty`.
pub fn member_of(
    ty: &TypeName,
    field: &str,
    typedefs: &HashMap<String, TypeName>,
    structs: &HashMap<String, StructDef>,
) -> Option<(u64, Layout)> {
    member_in(ty, field, typedefs, structs, false)
}

/// Like [`member_of`], with HLSL's alignment of vector members when `hlsl`.
pub fn member_in(
    ty: &TypeName,
    field: &str,
    typedefs: &HashMap<String, TypeName>,
    structs: &HashMap<String, StructDef>,
    hlsl: bool,
) -> Option<(u64, Layout)> {
    let mut name = ty.base.clone();
    for _ in 0..16 {
        match typedefs.get(&name) {
            Some(t) if t.pointers == 0 => name.clone_from(&t.base),
            _ => break,
        }
    }
    if let Some(s) = structs.get(&name) {
        let mut offset = 0u64;
        for (fname, fty, count) in &s.fields {
            let f = member_layout(&fty.base, typedefs, structs, 1, hlsl)?;
            offset = offset.div_ceil(f.align) * f.align;
            if fname == field {
                return Some((offset, f));
            }
            offset += f.size * count;
        }
        return None;
    }
    // Vector components and HLSL swizzles: `.x`, `.xy`, `.rgba`.
    let v = vector(&name)?;
    let base_len = name
        .trim_end_matches(|c: char| c.is_ascii_digit() || c == 'x')
        .len();
    let count: u64 = name[base_len..]
        .split('x')
        .filter_map(|d| d.parse::<u64>().ok())
        .product();
    let elem = v.size / count.max(1);
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

    fn t(name: &str) -> TypeName {
        TypeName {
            base: name.into(),
            pointers: 0,
        }
    }

    #[test]
    fn builtin_sizes() {
        let (td, st) = (HashMap::new(), HashMap::new());
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
            assert_eq!(
                layout_of(&t(name), &td, &st),
                Some(Layout { size, align }),
                "{name}"
            );
        }
    }

    #[test]
    fn struct_layout_follows_c_rules() {
        let mut st = HashMap::new();
        st.insert(
            "KV".to_string(),
            StructDef {
                fields: vec![("k".into(), t("float"), 1), ("v".into(), t("double"), 1)],
            },
        );
        let td = HashMap::new();
        assert_eq!(
            layout_of(&t("KV"), &td, &st),
            Some(Layout { size: 16, align: 8 })
        );
        assert_eq!(member_of(&t("KV"), "v", &td, &st).map(|m| m.0), Some(8));
        assert_eq!(
            member_of(&t("float4"), "zw", &td, &st).map(|m| (m.0, m.1.size)),
            Some((8, 8))
        );
    }
}
