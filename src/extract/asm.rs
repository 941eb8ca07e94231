//! Inline PTX: the shared-memory instructions of an `asm` template, with the operand
//! that holds each one's address. Text only: the template is a string, and what an
//! operand's C++ expression is worth is the lowering's business.

/// A string literal's text (with its quotes, as written) with the quotes removed and the
/// escapes the compiler decodes (`\n`, `\t`, `\"`, `\\`) decoded.
pub fn unescape(literal: &str) -> String {
    let body = literal
        .strip_prefix('"')
        .and_then(|b| b.strip_suffix('"'))
        .unwrap_or(literal);
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// What a shared-memory instruction does to its address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PtxKind {
    /// `ld.shared`.
    Load,
    /// `st.shared`, and `cp.async` into shared memory.
    Store,
}

/// An operand of the template named in an address: `%1` or `%[name]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OperandRef {
    Number(usize),
    Named(String),
}

/// One shared-memory instruction of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PtxAccess {
    /// The instruction as written (for messages).
    pub text: String,
    pub kind: PtxKind,
    /// Bytes per lane, or why the instruction's size is not known.
    pub width: Result<u32, String>,
    /// The operand holding the address and the immediate offset added to it (`[%1+16]`),
    /// or the address operand as written when it is not of that form.
    pub address: Result<(OperandRef, i64), String>,
    /// The lanes that supply an address, the first `n` of the warp (`ldmatrix.x1`: 8);
    /// `None`: every lane.
    pub lanes: Option<u32>,
    /// The operand that holds the size of a `cp.async` written as an operand
    /// (`cp.async.cg.shared.global [%0], [%1], %2;` with `"n"(16)`): its value is the width.
    pub size_operand: Option<OperandRef>,
}

/// The shared-memory instructions of a PTX template, in order: `ld.shared`, `st.shared`
/// (any type and vector width), `cp.async.{ca,cg}.shared.global` and
/// `ldmatrix`/`stmatrix` (shared memory whether or not `.shared` is written). Instructions on
/// another CTA's memory (`.shared::cluster`) and bulk copies are not accesses of this
/// block's banks by its lanes, and are left out.
pub fn shared_accesses(template: &str) -> Vec<PtxAccess> {
    template
        .split([';', '\n'])
        .filter_map(|stmt| instruction(stmt.trim().trim_matches(['{', '}']).trim()))
        .collect()
}

/// One instruction, when it reaches shared memory.
fn instruction(stmt: &str) -> Option<PtxAccess> {
    // A predicate guard (`@p`, `@!p`) runs the instruction on some lanes: the lowering
    // cannot tell which, so it is read as running on all of them (the model's rule for
    // data-dependent guards).
    let stmt = match stmt.strip_prefix('@') {
        Some(rest) => rest.split_once(char::is_whitespace)?.1.trim_start(),
        None => stmt,
    };
    let (opcode, rest) = stmt.split_once(char::is_whitespace).unwrap_or((stmt, ""));
    let parts: Vec<&str> = opcode.split('.').collect();
    let operands = split_operands(rest);
    let in_cta = parts.iter().any(|p| *p == "shared" || *p == "shared::cta");
    let mut lanes = None;
    let mut size_operand = None;
    let (kind, width, address) = match parts.first().copied() {
        Some(op @ ("ldmatrix" | "stmatrix")) => {
            // Each 8x8 matrix of 16-bit elements is 8 rows of 16 bytes whose addresses
            // lanes 8m to 8m+7 give; `.xN` loads N matrices.
            let count = parts.iter().find_map(|p| match *p {
                "x1" => Some(1),
                "x2" => Some(2),
                "x4" => Some(4),
                _ => None,
            });
            let width = match count {
                Some(n) if parts.contains(&"m8n8") && parts.contains(&"b16") => {
                    lanes = Some(8 * n);
                    Ok(16)
                }
                _ => Err(format!(
                    "the shape of `{opcode}` is not m8n8 .x1/.x2/.x4 .b16"
                )),
            };
            let (kind, address) = if op == "ldmatrix" {
                (PtxKind::Load, operands.get(1))
            } else {
                (PtxKind::Store, operands.first())
            };
            (kind, width, address)
        }
        Some(op @ ("ld" | "st")) if in_cta => {
            let kind = if op == "ld" {
                PtxKind::Load
            } else {
                PtxKind::Store
            };
            let address = if op == "ld" {
                operands.get(1)
            } else {
                operands.first()
            };
            (kind, width_of(&parts[1..]), address)
        }
        Some("cp")
            if parts.get(1) == Some(&"async")
                && in_cta
                && !parts.iter().any(|p| p.starts_with("bulk")) =>
        {
            let size = operands.get(2).copied().unwrap_or("");
            size_operand = operand_ref(size)
                .filter(|(_, rest)| rest.trim().is_empty())
                .map(|(r, _)| r);
            let width = match parse_imm(size) {
                Some(w @ (4 | 8 | 16)) => Ok(w as u32),
                _ => Err(format!("the copy size `{size}` is not 4, 8 or 16 bytes")),
            };
            (PtxKind::Store, width, operands.first())
        }
        _ => return None,
    };
    let address = match address {
        Some(a) => address_of(a).ok_or_else(|| a.to_string()),
        None => Err(String::new()),
    };
    Some(PtxAccess {
        text: stmt.trim().to_string(),
        kind,
        width,
        address,
        lanes,
        size_operand,
    })
}

/// Bytes per lane of `ld`/`st` qualifiers (`v4`, `b32`, ...): the vector count times the
/// type's size.
fn width_of(qualifiers: &[&str]) -> Result<u32, String> {
    let mut count = 1;
    let mut size = None;
    for q in qualifiers {
        match *q {
            "v2" => count = 2,
            "v4" => count = 4,
            "v8" => count = 8,
            "b8" | "u8" | "s8" => size = Some(1),
            "b16" | "u16" | "s16" | "f16" | "bf16" => size = Some(2),
            "b32" | "u32" | "s32" | "f32" | "f16x2" | "bf16x2" => size = Some(4),
            "b64" | "u64" | "s64" | "f64" => size = Some(8),
            "b128" => size = Some(16),
            _ => {}
        }
    }
    match size {
        Some(s) if count * s <= 16 => Ok(count * s),
        Some(s) => Err(format!("{} bytes per lane", count * s)),
        None => Err(format!(
            "the type of `{}` is not known",
            qualifiers.join(".")
        )),
    }
}

/// The operands of an instruction, split at top-level commas.
fn split_operands(rest: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in rest.char_indices() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(rest[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = rest[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// `[%1]`, `[%1+16]`, `[%[addr] + 0x10]`: the operand and the immediate offset.
fn address_of(operand: &str) -> Option<(OperandRef, i64)> {
    let inner = operand.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    let (reference, rest) = operand_ref(inner)?;
    let rest = rest.trim();
    let offset = if rest.is_empty() {
        0
    } else if let Some(r) = rest.strip_prefix('+') {
        parse_imm(r)?
    } else if let Some(r) = rest.strip_prefix('-') {
        -parse_imm(r)?
    } else {
        return None;
    };
    Some((reference, offset))
}

/// `%1` or `%[name]` at the start of `text`, and the text after it.
fn operand_ref(text: &str) -> Option<(OperandRef, &str)> {
    let inner = text.trim().strip_prefix('%')?;
    if let Some(named) = inner.strip_prefix('[') {
        let (name, rest) = named.split_once(']')?;
        return Some((OperandRef::Named(name.trim().to_string()), rest));
    }
    let digits = inner.len() - inner.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    Some((
        OperandRef::Number(inner[..digits].parse().ok()?),
        &inner[digits..],
    ))
}

/// A PTX integer immediate: decimal or `0x` hexadecimal.
fn parse_imm(s: &str) -> Option<i64> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_stores_and_copies() {
        let a = shared_accesses("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];");
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].kind, PtxKind::Load);
        assert_eq!(a[0].width, Ok(16));
        assert_eq!(a[0].address, Ok((OperandRef::Number(4), 0)));
        let a = shared_accesses("{\n st.shared.u16 [%0+0x10], %1;\n}");
        assert_eq!(a[0].kind, PtxKind::Store);
        assert_eq!(a[0].width, Ok(2));
        assert_eq!(a[0].address, Ok((OperandRef::Number(0), 16)));
        let a = shared_accesses("cp.async.cg.shared.global [%[dst]], [%[src]], 16;\n");
        assert_eq!(a[0].width, Ok(16));
        assert_eq!(a[0].address, Ok((OperandRef::Named("dst".into()), 0)));
        let a = shared_accesses("cp.async.cg.shared.global [%0], [%1], %2, %3;");
        assert!(a[0].width.is_err());
        assert_eq!(a[0].size_operand, Some(OperandRef::Number(2)));
        assert_eq!(
            shared_accesses("ld.shared.v2.f64 {%0, %1}, [%2-8];")[0].address,
            Ok((OperandRef::Number(2), -8))
        );
    }

    #[test]
    fn matrix_loads_and_stores() {
        let a =
            shared_accesses("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];");
        assert_eq!(a[0].kind, PtxKind::Load);
        assert_eq!((a[0].width.clone(), a[0].lanes), (Ok(16), Some(32)));
        assert_eq!(a[0].address, Ok((OperandRef::Number(4), 0)));
        let a = shared_accesses("ldmatrix.sync.aligned.m8n8.x2.b16 {%0, %1}, [%2];");
        assert_eq!(a[0].lanes, Some(16));
        let a = shared_accesses("stmatrix.sync.aligned.x1.m8n8.shared.b16 [%0], {%1};");
        assert_eq!(a[0].kind, PtxKind::Store);
        assert_eq!(a[0].lanes, Some(8));
        assert_eq!(a[0].address, Ok((OperandRef::Number(0), 0)));
        assert!(
            shared_accesses("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%0, %1}, [%2];")[0]
                .width
                .is_err()
        );
    }

    #[test]
    fn other_instructions_are_not_accesses() {
        assert!(shared_accesses("mov.u32 %0, %%laneid;").is_empty());
        assert!(shared_accesses("ld.global.b32 %0, [%1];").is_empty());
        assert!(shared_accesses("ld.shared::cluster.b32 %0, [%1];").is_empty());
        assert!(shared_accesses("cp.async.bulk.shared::cluster.global [%0], [%1], 64;").is_empty());
        assert!(shared_accesses("cp.async.commit_group;").is_empty());
    }

    #[test]
    fn what_is_not_followed_says_so() {
        let a = shared_accesses("ld.shared.b32 %0, [r1];");
        assert_eq!(a[0].address, Err("[r1]".to_string()));
        let a = shared_accesses("ld.shared. ? %0, [%1];");
        assert!(a[0].width.is_err());
    }

    #[test]
    fn escapes_are_decoded() {
        assert_eq!(unescape(r#""a\n\tb\"c""#), "a\n\tb\"c");
    }
}
