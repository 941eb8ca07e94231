//! CCCL's target dispatch macros (`<nv/target>`): `NV_IF_TARGET(q, (stmts))`,
//! `NV_IF_ELSE_TARGET(q, (a), (b))`, `NV_DISPATCH_TARGET(q1, (a), q2, (b), ...)`.
//!
//! Their branches are statement lists in parentheses, which the grammar cannot read; the
//! compiler keeps the branch whose target query holds for the compilation. As for
//! `#if __CUDA_ARCH__`, the front end takes the branch a device compilation for the
//! assumed architecture takes (`__CUDA_ARCH__` from the settings, else
//! [`super::preproc::DEVICE_ARCH`]), rewritten in place: the chosen branch's parentheses
//! become braces, everything else of the use is blanked (same length, newlines kept).
//! When the architecture is only assumed, the choice is stated as an assumption on the
//! accesses of the code around it. A query the front end does not know leaves the use
//! as it is.

use super::lex;

/// A byte range of the text.
type Span = (usize, usize);

/// The dispatch macros, by name.
const NAMES: [&str; 3] = ["NV_IF_TARGET", "NV_IF_ELSE_TARGET", "NV_DISPATCH_TARGET"];

/// Whether `word` names one of the dispatch macros (for the lexer's filter).
pub fn is_target_macro(word: &str) -> bool {
    NAMES.contains(&word)
}

/// Whether the target query `q` holds for a device compilation for `arch`
/// (`__CUDA_ARCH__`, e.g. 900); `None` for a query not known here.
fn holds(q: &str, arch: u32) -> Option<bool> {
    let sm = |rest: &str| -> Option<u32> {
        rest.chars()
            .all(|c| c.is_ascii_digit())
            .then(|| rest.parse::<u32>().ok())
            .flatten()
            .map(|n| n * 10)
    };
    match q.trim() {
        "NV_IS_DEVICE" | "NV_ANY_TARGET" => Some(true),
        "NV_IS_HOST" | "NV_NO_TARGET" => Some(false),
        q => {
            if let Some(rest) = q.strip_prefix("NV_PROVIDES_SM_") {
                sm(rest).map(|n| arch >= n)
            } else if let Some(rest) = q.strip_prefix("NV_IS_EXACTLY_SM_") {
                sm(rest).map(|n| arch == n)
            } else {
                None
            }
        }
    }
}

/// The end of the comment that starts at `i` (`//` to the line's end, `/* */`), if one
/// does, up to `end`.
fn comment_end(b: &[u8], i: usize, end: usize) -> Option<usize> {
    match b.get(i..i + 2)? {
        b"//" => Some(
            b[i..end]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(end, |n| i + n),
        ),
        b"/*" => Some(
            b[i + 2..end]
                .windows(2)
                .position(|w| w == b"*/")
                .map_or(end, |n| i + 2 + n + 2),
        ),
        _ => None,
    }
}

/// The top-level arguments of the group `open..close` (its parentheses included), as
/// spans without surrounding white space or comments (CCCL writes a comment before the
/// else-branch of `NV_IF_ELSE_TARGET`).
fn arguments(text: &str, open: usize, close: usize) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = open + 1;
    let mut i = open + 1;
    let end = close - 1;
    let mut push = |mut s: usize, e: usize| {
        loop {
            while s < e && b[s].is_ascii_whitespace() {
                s += 1;
            }
            match comment_end(b, s, e) {
                Some(c) => s = c,
                None => break,
            }
        }
        let arg = &text[s..e];
        out.push((s, s + arg.trim_end().len()));
    };
    while i < end {
        if let Some(c) = comment_end(b, i, end) {
            i = c;
            continue;
        }
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < end && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b',' if depth == 0 => {
                push(start, i);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    push(start, end);
    out
}

/// Rewrites the uses of the dispatch macros among `idents` in `bytes`; returns, for each
/// use decided only by the assumed architecture, its span and what was assumed.
pub fn rewrite_dispatch(
    bytes: &mut [u8],
    text: &str,
    idents: &[(usize, usize)],
    arch: Option<u32>,
) -> Vec<(usize, usize, String)> {
    let b = text.as_bytes();
    let assumed = arch.is_none();
    let arch = arch.unwrap_or_else(|| super::preproc::DEVICE_ARCH.parse().unwrap_or(900));
    let mut out = Vec::new();
    let mut done_to = 0;
    for &(s, e) in idents {
        let name = &text[s..e];
        if s < done_to || !is_target_macro(name) {
            continue;
        }
        let mut open = e;
        while open < b.len() && b[open].is_ascii_whitespace() {
            open += 1;
        }
        let Some(close) = lex::balanced(text, open) else {
            continue;
        };
        let args = arguments(text, open, close);
        // (query, branch) pairs; `NV_IF_TARGET`'s and `NV_IF_ELSE_TARGET`'s optional
        // else-branch is a pair with a query that always holds.
        let pairs: Vec<(Option<Span>, Span)> = match (name, args.len()) {
            ("NV_IF_TARGET", 2) => vec![(Some(args[0]), args[1])],
            ("NV_IF_TARGET" | "NV_IF_ELSE_TARGET", 3) => {
                vec![(Some(args[0]), args[1]), (None, args[2])]
            }
            ("NV_DISPATCH_TARGET", n) if n >= 2 && n % 2 == 0 => {
                args.chunks(2).map(|c| (Some(c[0]), c[1])).collect()
            }
            _ => continue,
        };
        let branches_are_groups = pairs
            .iter()
            .all(|&(_, (bs, be))| b[bs] == b'(' && lex::balanced(text, bs) == Some(be));
        if !branches_are_groups {
            continue;
        }
        let mut chosen = None;
        let mut unknown = false;
        // Device or host queries do not depend on the architecture: bankcheck checks
        // device code.
        let mut by_arch = false;
        for (k, &(q, _)) in pairs.iter().enumerate() {
            by_arch |= q.is_some_and(|(qs, qe)| text[qs..qe].contains("_SM_"));
            match q.map(|(qs, qe)| holds(&text[qs..qe], arch)) {
                None | Some(Some(true)) => {
                    chosen = Some(k);
                    break;
                }
                Some(Some(false)) => {}
                Some(None) => {
                    unknown = true;
                    break;
                }
            }
        }
        if unknown {
            continue;
        }
        lex::blank(bytes, s, close);
        if let Some(k) = chosen {
            let (bs, be) = pairs[k].1;
            bytes[bs + 1..be - 1].copy_from_slice(&b[bs + 1..be - 1]);
            bytes[bs] = b'{';
            bytes[be - 1] = b'}';
        }
        done_to = close;
        if assumed && by_arch {
            let which = match chosen.map(|k| pairs[k].0) {
                None => "none of its branches".to_string(),
                Some(None) => "its else branch".to_string(),
                Some(Some((qs, qe))) => format!("its branch for `{}`", &text[qs..qe]),
            };
            let (qs, qe) = args[0];
            let first = format!("{name}({}, ...)", &text[qs..qe]);
            out.push((
                s,
                close,
                format!(
                    "`{first}` was read as a device compilation for `__CUDA_ARCH__` {arch} reads it, taking {which}; its other branches are not checked (choose with `-D __CUDA_ARCH__=VALUE` or lint.toml `defines`)"
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, arch: Option<u32>) -> (String, usize) {
        let lexed = lex::lex(text, &is_target_macro);
        let mut bytes = text.as_bytes().to_vec();
        let assumed = rewrite_dispatch(&mut bytes, text, &lexed.idents, arch);
        let out = String::from_utf8(bytes).unwrap();
        assert_eq!(out.len(), text.len());
        assert_eq!(out.matches('\n').count(), text.matches('\n').count());
        (out, assumed.len())
    }

    #[test]
    fn the_branch_of_the_assumed_architecture_is_kept_in_place() {
        let text = "NV_IF_ELSE_TARGET(NV_PROVIDES_SM_100, (a = 1;), ({\n  b = 2;\n}));";
        let (out, assumed) = run(text, None);
        assert_eq!(
            out,
            "                                                {{\n  b = 2;\n}} ;"
        );
        assert_eq!(assumed, 1);
        // The settings' architecture decides, and nothing is assumed.
        let (out, assumed) = run(text, Some(1000));
        assert!(out.trim_start().starts_with("{a = 1;}"), "{out}");
        assert_eq!(assumed, 0);
        let (out, _) = run("NV_IF_TARGET(NV_IS_HOST, (h();));", None);
        assert_eq!(out.trim(), ";");
        let (out, _) = run(
            "NV_DISPATCH_TARGET(NV_PROVIDES_SM_100, (x();), NV_PROVIDES_SM_80, (y(f(1, 2));), NV_ANY_TARGET, (z();))",
            None,
        );
        assert_eq!(out.trim(), "{y(f(1, 2));}");
        // A query not known here leaves the use alone.
        let text = "NV_IF_TARGET(MY_QUERY, (h();));";
        assert_eq!(run(text, None).0, text);
        // Comments between the arguments (one with an apostrophe) are not arguments.
        let text = "NV_IF_ELSE_TARGET(\n  NV_PROVIDES_SM_90,\n  (a = 1;),\n  // it's unreachable below sm_90\n  /* else */ (b = 2;));";
        let (out, _) = run(text, None);
        assert!(out.contains("{a = 1;}") && !out.contains("b = 2"), "{out}");
    }
}
