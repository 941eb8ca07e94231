//! Rule `parse-error`: part of a file that holds shared-memory code could not be
//! parsed, so accesses in it may be missed.
//!
//! Only a region that holds, or may hold, shared-memory code is reported: its text (or
//! the function it is in) spells a shared-memory qualifier or the name of a shared
//! array. Other regions cannot hide an access; they are counted (`--stats`, the JSON
//! summary), not reported.
//!
//! The rule's page, `rules/parse-error.md`, is this module's documentation too:
#![doc = include_str!("../../rules/parse-error.md")]

use super::facts::Unparsed;
use super::rule::RuleMeta;
use crate::diag::{Diagnostic, Severity, Span};

pub const META: RuleMeta = RuleMeta {
    id: "parse-error",
    retired: &[],
    group: "input",
    default_severity: Severity::Info,
    default_enabled: true,
    summary: "part of a file with shared-memory code could not be parsed, so accesses in it may be missed",
    page: include_str!("../../rules/parse-error.md"),
};

/// The rule; it reports at most [`MAX_REPORTED`] regions per file.
pub(crate) struct ParseError;

/// Most regions reported per file: the first ones say what is wrong.
pub const MAX_REPORTED: usize = 5;

impl super::rule::Rule for ParseError {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, file: &super::facts::FileFacts<'_>, out: &mut Vec<Diagnostic>) {
        let ctx = file.unparsed;
        out.extend(
            ctx.regions
                .iter()
                .filter_map(|span| finding(*span, ctx))
                .chain(
                    ctx.refused_heads
                        .iter()
                        .filter_map(|(span, name, why)| refused_head(*span, name, why, ctx)),
                )
                .take(MAX_REPORTED),
        );
    }
}

/// Whether a region the parser could not read may hold shared-memory code (else it is
/// only counted, `FileStats::unreported_parse_errors`).
pub(crate) fn holds_shared(span: Span, ctx: &Unparsed<'_>) -> bool {
    region(span, ctx).2
}

/// The finding for a file the parser gave up on, past its work budget: reported at the
/// first line, since nothing of the file was read (at the default severity: the
/// driver's `severities` pass applies the configured one).
pub(crate) fn gave_up(text: &str, budget: &dyn std::fmt::Display) -> Diagnostic {
    let first_line = Span::new(0, text.find('\n').unwrap_or(text.len()));
    Diagnostic::new(
        META.id,
        META.default_severity,
        first_line,
        format!(
            "the parser gave up on this file past {budget} (its budget for {} bytes): none of its shared-memory accesses are checked",
            text.len()
        ),
    )
}

/// The largest character boundary of `text` at or before `i`.
fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest character boundary of `text` at or after `i`.
fn ceil_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// One region the parser could not read: widened to whole characters, the function it is
/// in (else the one it swallowed), and whether it may hold shared-memory code.
fn region<'c>(span: Span, ctx: &'c Unparsed<'_>) -> (Span, Option<&'c (&'c str, Span)>, bool) {
    let text = ctx.text;
    // The parser's spans are bytes; the region is widened to whole characters (a file
    // read as Latin-1 has two-byte characters), and an empty one to the next character.
    let start = floor_char_boundary(text, span.start.min(text.len()));
    let mut end = ceil_char_boundary(text, span.end.clamp(start, text.len()));
    if end == start {
        end = ceil_char_boundary(text, (start + 1).min(text.len()));
    }
    let span = Span::new(start, end);
    // The function the region is in, else the one it swallowed.
    let enclosing = ctx
        .functions
        .iter()
        .filter(|(_, f)| f.start <= span.start && span.end <= f.end)
        .min_by_key(|(_, f)| f.end - f.start);
    // Outside a function, the region's whole lines.
    let ends = ctx
        .line_ends
        .get_or_init(|| memchr::memchr_iter(b'\n', text.as_bytes()).collect());
    let before = ends.partition_point(|&n| n < span.start);
    let lines = Span::new(
        before.checked_sub(1).map_or(0, |k| ends[k] + 1),
        ends.get(ends.partition_point(|&n| n < span.end))
            .copied()
            .unwrap_or(text.len()),
    );
    let scope = enclosing.map_or(lines, |(_, f)| *f);
    let key = (scope.start, scope.end);
    if let Some(&known) = ctx.scope_holds_shared.borrow().get(&key) {
        return (span, enclosing, known);
    }
    let scope_text = text.get(scope.start..scope.end).unwrap_or("");
    let holds_shared = (ctx.mentions_shared)(scope_text)
        || ctx
            .shared_names
            .iter()
            .any(|n| !n.is_empty() && has_word(scope_text, n));
    ctx.scope_holds_shared
        .borrow_mut()
        .insert(key, holds_shared);
    (span, enclosing, holds_shared)
}

/// The finding for one region the parser could not read, when it may hold shared-memory
/// code.
fn finding(span: Span, ctx: &Unparsed<'_>) -> Option<Diagnostic> {
    let text = ctx.text;
    let (span, enclosing, holds_shared) = region(span, ctx);
    if !holds_shared {
        return None;
    }
    let region = text.get(span.start..span.end).unwrap_or("");
    let name = enclosing
        .map(|(n, _)| n.to_string())
        .or_else(|| swallowed_function(region));
    let checked = ctx
        .accesses
        .iter()
        .filter(|a| span.start <= a.start && a.end <= span.end)
        .count();
    let who = name.as_deref().map_or_else(
        || "shared-memory code".to_string(),
        |n| format!("shared-memory code of `{n}`"),
    );
    let message = if checked > 0 {
        format!(
            "part of this region could not be parsed; the {checked} access(es) found in it were checked, others of {who} may be missed"
        )
    } else {
        format!(
            "this region could not be parsed: it holds {who}, whose accesses here are not checked"
        )
    };
    let mut d = Diagnostic::new(META.id, META.default_severity, span, message);
    let snippet: String = region
        .chars()
        .take(40)
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if !snippet.is_empty() {
        d.notes
            .push(format!("unparsed text starts with `{snippet}`"));
    }
    d.help = Some(match unknown_macro(region, ctx.is_defined) {
        Some(m) => format!(
            "if `{m}` is a macro of a header bankcheck does not read (a qualifier, an attribute), define it: `-D {m}=` on the command line or `defines = [\"{m}=\"]` in lint.toml"
        ),
        None => "if the file compiles, a macro bankcheck does not know may be the cause: define it with `-D NAME=VALUE` (or lint.toml `defines`); a conditional may need the same".to_string(),
    }.into());
    Some(d)
}

/// The finding for a function head written as a macro use that bankcheck could not
/// expand, when the function holds shared-memory code: it is read under the macro's
/// name, with no parameters, and not as a kernel.
fn refused_head(span: Span, name: &str, why: &str, ctx: &Unparsed<'_>) -> Option<Diagnostic> {
    // The use is inside the function it heads: the region's scope is that function.
    let (span, _, holds_shared) = region(span, ctx);
    if !holds_shared {
        return None;
    }
    let mut d = Diagnostic::new(
        META.id,
        META.default_severity,
        span,
        format!(
            "this function's head is a use of the macro `{name}`, which bankcheck did not expand: {why}"
        ),
    );
    d.notes.push(format!(
        "the function is read as `{name}` with no parameters and not as a kernel: accesses that depend on its head are unknown"
    ));
    Some(d)
}

/// Whether `word` occurs in `text` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let b = text.as_bytes();
    text.match_indices(word).any(|(i, _)| {
        (i == 0 || !ident(b[i - 1])) && b.get(i + word.len()).is_none_or(|c| !ident(*c))
    })
}

/// The name of the first function definition in `region`: an identifier, a
/// parenthesised list, then `{`.
fn swallowed_function(region: &str) -> Option<String> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(r"\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*(?:const\s*)?\{")
            .expect("valid function pattern")
    });
    re.captures_iter(region)
        .map(|c| c[1].to_string())
        .find(|n| {
            !matches!(
                n.as_str(),
                "if" | "for" | "while" | "switch" | "catch" | "return"
            )
        })
}

/// The first upper-case, macro-like identifier of `region` that nothing defines.
fn unknown_macro(region: &str, is_defined: &dyn Fn(&str) -> bool) -> Option<String> {
    region
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|w| {
            w.len() >= 3
                && w.contains('_')
                && w.chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
                && w.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                && !w.starts_with("__")
                && !is_defined(w)
        })
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file the parser gave up on is reported at its first line, naming the budget.
    #[test]
    fn a_parse_given_up_is_reported() {
        let text = "__global__ void k() {\n}\n";
        let d = gave_up(text, &"100000 units of work or 0.50 s of CPU");
        assert_eq!(d.rule, "parse-error");
        assert_eq!(d.span, Span::new(0, 21));
        assert!(
            d.message.contains("100000 units of work or 0.50 s of CPU"),
            "{}",
            d.message
        );
    }

    #[test]
    fn names_and_macros_are_found() {
        assert_eq!(
            swallowed_function("KERNEL_ATTR void scan(float* a, int n) { if (n) {").as_deref(),
            Some("scan")
        );
        assert_eq!(
            unknown_macro("MY_QUAL void f(TILE_N x)", &|w| w == "MY_QUAL").as_deref(),
            Some("TILE_N")
        );
        assert!(has_word("x = tile[i];", "tile") && !has_word("tiles[i]", "tile"));
    }
}
