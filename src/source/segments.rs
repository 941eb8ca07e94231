//! Segments of a big file: the file's top-level constructs grouped so that each group can
//! be parsed, extracted, lowered and analysed without the others, a group at a time, so
//! that a file's memory is that of its largest group rather than of the whole file.
//!
//! A text scan (no parse) splits the front end's text into items: a directive line, a
//! declaration that ends at `;`, a definition that ends at `}`, each with the comments
//! and blank lines before it. An item *mentions* the identifiers of its code and
//! *defines* the names it may declare, over-approximated: the identifiers at its top
//! level (outside parentheses and braces, keywords left out), the name before each
//! parameter list, a macro's name, an enum's or a struct's members; a namespace or a
//! linkage block defines every identifier in it.
//!
//! Items that only declare (macros, `typedef`/`using`, enums, HLSL `cbuffer`s, constants
//! with no braces and no shared-memory qualifier) are copied into every segment that
//! mentions them.
//! Every other item is *code*, and code items are joined into one segment with every
//! item that mentions one of their names, and with every code item they reach through
//! declarations: callers and callees, launches and kernels, all the accesses of a
//! file-scope array are always together. Over-approximation only joins more items, so a
//! segment holds everything the analysis of its code reads.
//!
//! [`segments`] gives up (`None`) on anything it does not follow: conditional groups the
//! front end left undecided, `#pragma pack` (whose effect depends on position), raw
//! string literals, unbalanced brackets, a file that is one group anyway. Callers check
//! such a file whole.

use std::collections::HashMap;

/// One segment: the byte ranges of its items, in file order, adjacent ranges merged.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    pub ranges: Vec<(usize, usize)>,
}

impl Segment {
    /// The bytes the segment covers.
    pub fn len(&self) -> usize {
        self.ranges.iter().map(|(s, e)| e - s).sum()
    }

    /// True when the segment covers nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// Declares only: copied into the segments that mention it.
    Declaration,
    /// Joined with every item that mentions it.
    Code,
    /// In every segment (`#include`, `using namespace`): tiny, and read by position.
    Global,
}

#[derive(Debug)]
struct Item {
    start: usize,
    end: usize,
    kind: Kind,
    /// A directive line (`#define`): never code for spelling shared memory itself.
    directive: bool,
    mentions: Vec<u32>,
    defines: Vec<u32>,
}

/// Words that never name something a file defines: keywords, qualifiers, built-in types.
fn is_reserved(w: &str) -> bool {
    matches!(
        w,
        "auto"
            | "bool"
            | "break"
            | "case"
            | "char"
            | "class"
            | "const"
            | "constexpr"
            | "consteval"
            | "continue"
            | "decltype"
            | "default"
            | "delete"
            | "do"
            | "double"
            | "else"
            | "enum"
            | "explicit"
            | "extern"
            | "false"
            | "float"
            | "for"
            | "friend"
            | "goto"
            | "half"
            | "if"
            | "inline"
            | "int"
            | "long"
            | "mutable"
            | "namespace"
            | "new"
            | "noexcept"
            | "nullptr"
            | "operator"
            | "private"
            | "protected"
            | "public"
            | "register"
            | "restrict"
            | "return"
            | "short"
            | "signed"
            | "sizeof"
            | "static"
            | "static_assert"
            | "struct"
            | "switch"
            | "template"
            | "this"
            | "true"
            | "typedef"
            | "typename"
            | "union"
            | "unsigned"
            | "using"
            | "virtual"
            | "void"
            | "volatile"
            | "while"
            | "uint"
            | "dword"
            | "min16float"
            | "min16int"
            | "min16uint"
            | "size_t"
            | "dim3"
            | "__global__"
            | "__device__"
            | "__host__"
            | "__forceinline__"
            | "__noinline__"
            | "__inline__"
            | "__constant__"
            | "__managed__"
            | "__restrict__"
            | "__launch_bounds__"
            | "__grid_constant__"
            | "__declspec"
            | "__shared__"
            | "groupshared"
            | "in"
            | "out"
            | "inout"
            | "uniform"
            | "precise"
            | "nointerpolation"
    ) || is_vector_type(w)
}

/// `float4`, `int2`, `uint3x3`, `half2`: the built-in vector and matrix types.
fn is_vector_type(w: &str) -> bool {
    let base = w.trim_end_matches(|c: char| c.is_ascii_digit() || c == 'x');
    base.len() < w.len()
        && matches!(
            base,
            "float"
                | "int"
                | "uint"
                | "half"
                | "double"
                | "bool"
                | "char"
                | "uchar"
                | "short"
                | "ushort"
                | "long"
                | "ulong"
                | "longlong"
                | "ulonglong"
                | "min16float"
                | "min16int"
                | "min16uint"
        )
}

/// Interned identifiers.
#[derive(Default)]
struct Words<'t> {
    ids: HashMap<&'t str, u32>,
    names: Vec<&'t str>,
}

impl<'t> Words<'t> {
    fn id(&mut self, w: &'t str) -> u32 {
        if let Some(&i) = self.ids.get(w) {
            return i;
        }
        let i = self.names.len() as u32;
        self.ids.insert(w, i);
        self.names.push(w);
        i
    }
}

/// A token of the scan: what item building needs to know.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok<'t> {
    Word(&'t str),
    Open(u8),
    Close(u8),
    Semi,
    Assign,
    Comma,
    Less,
    Greater,
    Colon,
    Scope,
    Other,
}

/// Builds one item from its tokens.
struct Building<'t> {
    start: usize,
    toks: Vec<(Tok<'t>, u32)>,
}

/// The items of `text`, or `None` for text the scan does not follow.
fn items<'t>(text: &'t str, words: &mut Words<'t>) -> Option<Vec<Item>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut cur = Building {
        start: 0,
        toks: Vec::new(),
    };
    let mut depth = 0u32;
    let mut line_start = true;
    let mut i = 0;
    // After a definition closed at depth 0 that needs no `;`: the item ends unless a
    // `;` follows.
    let mut closed_at: Option<usize> = None;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && !(b[i] == b'\n' && b[i - 1] != b'\\') {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let end = text[i + 2..].find("*/")? + i + 4;
            i = end;
            continue;
        }
        if let Some(end) = closed_at.take() {
            if c == b';' {
                finish(&mut out, &mut cur, i + 1);
                i += 1;
                line_start = false;
                continue;
            }
            finish(&mut out, &mut cur, end);
        }
        if c == b'#' && line_start {
            let mut end = i;
            while end < b.len() && !(b[end] == b'\n' && (end == 0 || b[end - 1] != b'\\')) {
                end += 1;
            }
            let line = &text[i..end];
            let name = line[1..].trim_start();
            let directive = name
                .split(|ch: char| !ch.is_ascii_alphanumeric() && ch != '_')
                .next()
                .unwrap_or("");
            match directive {
                "if" | "ifdef" | "ifndef" | "elif" | "else" | "endif" | "elifdef" | "elifndef" => {
                    return None
                }
                "pragma" if name["pragma".len()..].trim_start().starts_with("pack") => return None,
                _ => {}
            }
            if depth == 0 && cur.toks.is_empty() {
                // The line end belongs to the directive: an item parsed after it without
                // the items between still starts on a line of its own.
                let end = (end + 1).min(b.len());
                directive_item(&mut out, cur.start, end, line, directive, words);
                cur.start = end;
                i = end;
                line_start = true;
                continue;
            }
            for w in identifiers(line) {
                cur.toks.push((Tok::Word(w), words.id(w)));
            }
            i = end;
            continue;
        }
        line_start = false;
        let (tok, next) = scan_token(text, i)?;
        i = next;
        let id = match tok {
            Tok::Word(w) => words.id(w),
            _ => 0,
        };
        cur.toks.push((tok, id));
        match tok {
            Tok::Open(_) => depth += 1,
            Tok::Close(close) => {
                depth = depth.checked_sub(1)?;
                if close == b'}' && depth == 0 && !needs_semicolon(&cur.toks) {
                    closed_at = Some(i);
                }
            }
            Tok::Semi if depth == 0 => finish(&mut out, &mut cur, i),
            _ => {}
        }
    }
    if depth != 0 {
        return None;
    }
    let end = closed_at.unwrap_or(b.len());
    finish(&mut out, &mut cur, end);
    // Trailing comments and blanks go with the last item.
    if let Some(last) = out.last_mut() {
        last.end = b.len();
    }
    Some(out)
}

/// The token at `i` and where the next one starts; `None` for a raw string literal.
fn scan_token(text: &str, i: usize) -> Option<(Tok<'_>, usize)> {
    let b = text.as_bytes();
    let c = b[i];
    let tok = match c {
        b'"' | b'\'' => {
            let mut j = i + 1;
            while j < b.len() && b[j] != c && b[j] != b'\n' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let mut end = (j + 1).min(b.len());
            while end < b.len() && !text.is_char_boundary(end) {
                end += 1;
            }
            return Some((Tok::Other, end));
        }
        b'{' | b'(' | b'[' => Tok::Open(c),
        b'}' | b')' | b']' => Tok::Close(c),
        b';' => Tok::Semi,
        b',' => Tok::Comma,
        b'<' if b.get(i + 1) != Some(&b'<')
            && b.get(i + 1) != Some(&b'=')
            && i.checked_sub(1).and_then(|p| b.get(p)) != Some(&b'<') =>
        {
            Tok::Less
        }
        b'>' if b.get(i + 1) != Some(&b'=')
            && i.checked_sub(1).and_then(|p| b.get(p)) != Some(&b'-') =>
        {
            Tok::Greater
        }
        b'=' if b.get(i + 1) != Some(&b'=')
            && !matches!(b.get(i.wrapping_sub(1)), Some(b'=' | b'!' | b'<' | b'>')) =>
        {
            Tok::Assign
        }
        b':' if b.get(i + 1) == Some(&b':') => return Some((Tok::Scope, i + 2)),
        b':' => Tok::Colon,
        _ if c.is_ascii_digit() => {
            let mut j = i + 1;
            while j < b.len()
                && (b[j].is_ascii_alphanumeric()
                    || b[j] == b'.'
                    || b[j] == b'_'
                    || (b[j] == b'\'' && b.get(j + 1).is_some_and(u8::is_ascii_alphanumeric))
                    || (matches!(b[j], b'+' | b'-')
                        && matches!(b[j - 1], b'e' | b'E' | b'p' | b'P')))
            {
                j += 1;
            }
            return Some((Tok::Other, j));
        }
        _ if (c.is_ascii_alphabetic() || c == b'_' || c >= 0x80) && text.is_char_boundary(i) => {
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] >= 0x80) {
                j += 1;
            }
            let w = &text[i..j];
            // `R"delim(...)delim"` may hold anything, quotes included.
            if b.get(j) == Some(&b'"') && w.ends_with('R') {
                return None;
            }
            return Some((Tok::Word(w), j));
        }
        _ => Tok::Other,
    };
    // Multi-byte characters outside identifiers are skipped whole.
    let mut next = i + 1;
    while next < b.len() && !text.is_char_boundary(next) {
        next += 1;
    }
    Some((tok, next))
}

/// The identifiers of a directive line.
fn identifiers(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().next().is_some_and(|c| !c.is_ascii_digit()))
}

/// A definition closed by `}` at depth 0 goes on to a `;` when it is a type, an
/// initialiser or a variable: `struct S {...};`, `int a[] = {...};`; a function body or a
/// namespace does not.
fn needs_semicolon(toks: &[(Tok<'_>, u32)]) -> bool {
    // An `=` at the top level, not a template parameter's default
    // (`template <int N = 4> __global__ void k() {...}`).
    head_top_level(toks).any(|t| t == Tok::Assign) || is_type_definition(toks)
}

/// A `struct`, `class`, `union`, `enum` or `typedef` whose first brace opens its body (not
/// a function returning such a type: `struct S* f() {`).
fn is_type_definition(toks: &[(Tok<'_>, u32)]) -> bool {
    let Some(open) = toks.iter().position(|(t, _)| *t == Tok::Open(b'{')) else {
        return false;
    };
    head_top_level(toks).any(|t| {
        matches!(
            t,
            Tok::Word("struct" | "class" | "union" | "enum" | "typedef")
        )
    }) && !matches!(
        open.checked_sub(1).map(|p| toks[p].0),
        Some(Tok::Close(b')'))
    )
}

/// The tokens of an item's head (before its first `{`) at the top level: outside
/// brackets and outside `template <...>` parameter lists (`template <class T>` defines no
/// type, `template <int N = 4>` assigns nothing).
fn head_top_level<'a, 't>(toks: &'a [(Tok<'t>, u32)]) -> impl Iterator<Item = Tok<'t>> + 'a {
    let open = toks
        .iter()
        .position(|(t, _)| *t == Tok::Open(b'{'))
        .unwrap_or(0);
    let head = &toks[..open];
    let (mut depth, mut angle) = (0u32, 0u32);
    head.iter().enumerate().filter_map(move |(k, &(t, _))| {
        let top = depth == 0 && angle == 0;
        match t {
            Tok::Open(_) => depth += 1,
            Tok::Close(_) => depth = depth.saturating_sub(1),
            Tok::Less
                if depth == 0
                    && (angle > 0
                        || matches!(
                            k.checked_sub(1).map(|p| head[p].0),
                            Some(Tok::Word("template"))
                        )) =>
            {
                angle += 1;
            }
            Tok::Greater if depth == 0 && angle > 0 => angle -= 1,
            _ => {}
        }
        top.then_some(t)
    })
}

/// True when the item runs on past a brace that closes at the top level (other than
/// into its `;`): several constructs read as one, whose names are then all its words.
fn merged(toks: &[(Tok<'_>, u32)]) -> bool {
    let mut depth = 0u32;
    for (k, (t, _)) in toks.iter().enumerate() {
        match t {
            Tok::Open(_) => depth += 1,
            Tok::Close(c) => {
                depth = depth.saturating_sub(1);
                if *c == b'}'
                    && depth == 0
                    && toks[k + 1..].iter().any(|(t, _)| !matches!(t, Tok::Semi))
                {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// A directive line at the top level as an item of its own.
fn directive_item<'t>(
    out: &mut Vec<Item>,
    start: usize,
    end: usize,
    line: &'t str,
    directive: &str,
    words: &mut Words<'t>,
) {
    let mut names = identifiers(line).skip(1);
    let (kind, defines) = match directive {
        "define" | "undef" => (
            Kind::Declaration,
            names.next().map(|n| words.id(n)).into_iter().collect(),
        ),
        _ => (Kind::Global, Vec::new()),
    };
    let mentions = identifiers(line).skip(1).map(|w| words.id(w)).collect();
    out.push(Item {
        start,
        end,
        kind,
        directive: true,
        mentions,
        defines,
    });
}

/// Ends the item being built at `end` and starts the next one there.
fn finish(out: &mut Vec<Item>, cur: &mut Building<'_>, end: usize) {
    fn word<'t>(t: &Tok<'t>) -> Option<&'t str> {
        match t {
            Tok::Word(w) => Some(*w),
            _ => None,
        }
    }
    let toks = std::mem::take(&mut cur.toks);
    let start = std::mem::replace(&mut cur.start, end);
    if toks.is_empty() {
        return;
    }
    let first = toks.iter().find_map(|(t, _)| word(t)).unwrap_or("");
    let has_brace = toks.iter().any(|(t, _)| *t == Tok::Open(b'{'));
    let has_paren = toks.iter().any(|(t, _)| *t == Tok::Open(b'('));
    let shared = toks
        .iter()
        .filter_map(|(t, _)| word(t))
        .any(|w| w.to_ascii_lowercase().contains("shared"));
    let namespace_like = toks.iter().enumerate().any(|(k, (t, _))| {
        matches!(t, Tok::Word("namespace"))
            || (matches!(t, Tok::Word("extern"))
                && matches!(toks.get(k + 1), Some((Tok::Other, _)))
                && matches!(toks.get(k + 2), Some((Tok::Open(b'{'), _))))
    }) || toks.iter().any(|(t, _)| matches!(t, Tok::Word("operator")))
        || merged(&toks);
    let kind = if first == "using"
        && toks
            .iter()
            .any(|(t, _)| matches!(t, Tok::Word("namespace")))
    {
        Kind::Global
    } else if !shared
        // No function body can hide in it (a `typedef` or `using` with parentheses may
        // hold member functions or function types: code, to be safe).
        && (first == "enum"
            || (matches!(first, "typedef" | "using" | "cbuffer" | "tbuffer") && !has_paren)
            || (!has_brace && !has_paren))
    {
        Kind::Declaration
    } else {
        Kind::Code
    };
    let mut defines = Vec::new();
    let mut mentions = Vec::new();
    // A type's members (`struct S { void add(); }`, an enum's enumerators) are its names.
    let type_body = is_type_definition(&toks);
    let enum_like = matches!(first, "enum" | "typedef");
    // An HLSL `cbuffer`'s members are shader constants: its names.
    let cbuffer_like = matches!(first, "cbuffer" | "tbuffer");
    // Words of attributes whose parentheses are not a parameter list.
    let attribute = |w: &str| {
        matches!(
            w,
            "__launch_bounds__"
                | "__declspec"
                | "decltype"
                | "alignas"
                | "__align__"
                | "__attribute__"
                | "noexcept"
                | "sizeof"
                | "alignof"
                | "static_assert"
                | "throw"
                | "requires"
        )
    };
    let (mut depth, mut template_depth) = (0u32, 0u32);
    let (mut template_pending, mut declaring, mut in_init) = (false, true, false);
    for (k, (t, id)) in toks.iter().enumerate() {
        match t {
            Tok::Word(w) => {
                mentions.push(*id);
                if namespace_like {
                    defines.push(*id);
                    continue;
                }
                let next = toks.get(k + 1).map(|x| x.0);
                if *w == "template" && depth == 0 && next == Some(Tok::Less) {
                    template_pending = true;
                    continue;
                }
                // Template parameters are not the item's names.
                if template_depth > 0 || is_reserved(w) {
                    continue;
                }
                let before_paren = next == Some(Tok::Open(b'('));
                let before_scope = next == Some(Tok::Scope);
                // A declarator's name comes right before `[`, `=`, `;`, `,`, `{`, `:` or
                // `<` (a specialisation); the words before it are types and qualifiers
                // (`SMEM float a[32];` declares `a`, not `SMEM`).
                let declarator = matches!(
                    next,
                    None | Some(
                        Tok::Open(b'[' | b'{')
                            | Tok::Assign
                            | Tok::Semi
                            | Tok::Comma
                            | Tok::Colon
                            | Tok::Less
                    )
                );
                let top = depth == 0 && declaring && !in_init && declarator;
                let member = depth == 1
                    && (type_body && before_paren || enum_like || cbuffer_like && declarator);
                if top || member || before_scope || (depth == 0 && before_paren) {
                    defines.push(*id);
                }
            }
            Tok::Less if depth == 0 && (template_pending || template_depth > 0) => {
                template_pending = false;
                template_depth += 1;
            }
            Tok::Greater if depth == 0 && template_depth > 0 => template_depth -= 1,
            Tok::Open(c) => {
                // A parameter list ends the names a function head declares (what follows
                // is `const`, a trailing return type, an HLSL semantic).
                let after_name = matches!(
                    k.checked_sub(1).and_then(|p| toks.get(p)),
                    Some((Tok::Word(w), _)) if !attribute(w)
                );
                if depth == 0 && template_depth == 0 && *c == b'(' && after_name {
                    declaring = false;
                }
                depth += 1;
            }
            Tok::Close(_) => depth = depth.saturating_sub(1),
            Tok::Assign if depth == 0 && template_depth == 0 => in_init = true,
            Tok::Comma if depth == 0 && template_depth == 0 => in_init = false,
            _ => {}
        }
    }
    defines.sort_unstable();
    defines.dedup();
    mentions.sort_unstable();
    mentions.dedup();
    out.push(Item {
        start,
        end,
        kind,
        directive: false,
        mentions,
        defines,
    });
}

/// Passes allowed for the fixpoints over definitions (shared-memory macros, declarations
/// that reach code): real files settle in two or three.
const MAX_PASSES: usize = 16;

/// Union-find over item indices.
struct Sets(Vec<u32>);

impl Sets {
    fn find(&mut self, mut i: u32) -> u32 {
        while self.0[i as usize] != i {
            let parent = self.0[self.0[i as usize] as usize];
            self.0[i as usize] = parent;
            i = parent;
        }
        i
    }

    fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b) as usize] = a.min(b);
        }
    }
}

/// The segments of `text` (the front end's text), each about `target` bytes of code or
/// more, in file order of their first item; `None` when the file is not split (see the
/// module's doc) or would be one segment.
pub fn segments(text: &str, target: usize) -> Option<Vec<Segment>> {
    segments_spelled(text, text, target)
}

/// [`segments`] of the front end's `text` of a file whose own text is `original`, at the
/// same byte offsets: a code item also mentions the names it spells there, so a
/// statement macro whose use the front end blanked (`CONFIG_CASE(0, 64)` alone on its
/// line) keeps its definition in the segment of the helper that uses it.
pub fn segments_spelled(text: &str, original: &str, target: usize) -> Option<Vec<Segment>> {
    let mut words = Words::default();
    let mut items = items(text, &mut words)?;
    if original.len() == text.len() && original != text {
        for item in items.iter_mut().filter(|i| i.kind == Kind::Code) {
            let Some(spelled) = original.get(item.start..item.end) else {
                continue;
            };
            for w in identifiers(spelled) {
                if let Some(&id) = words.ids.get(w) {
                    if !item.mentions.contains(&id) {
                        item.mentions.push(id);
                    }
                }
            }
        }
    }
    let n_words = words.names.len();
    // A macro that spells shared memory makes what uses it code (`#define SMEM __shared__`).
    let mut shared: Vec<bool> = words
        .names
        .iter()
        .map(|w| w.to_ascii_lowercase().contains("shared"))
        .collect();
    // Each pass costs one walk over the mentions; a chain of definitions longer than
    // the passes allowed (only a made-up file has one) is not split.
    let mut settled = false;
    for _ in 0..MAX_PASSES {
        let mut changed = false;
        for item in items.iter().filter(|i| i.kind == Kind::Declaration) {
            if item.mentions.iter().any(|&m| shared[m as usize]) {
                for &d in &item.defines {
                    changed |= !std::mem::replace(&mut shared[d as usize], true);
                }
            }
        }
        if !changed {
            settled = true;
            break;
        }
    }
    if !settled {
        return None;
    }
    for item in &mut items {
        if item.kind == Kind::Declaration
            && !item.directive
            && item.mentions.iter().any(|&m| shared[m as usize])
        {
            item.kind = Kind::Code;
        }
    }
    let mut definers: Vec<Vec<u32>> = vec![Vec::new(); n_words];
    for (i, item) in items.iter().enumerate() {
        for &d in &item.defines {
            definers[d as usize].push(i as u32);
        }
    }
    // Declarations that reach code through what they mention are code too
    // (`#define RUN helper()`), until nothing changes.
    let mut code: Vec<bool> = items.iter().map(|i| i.kind == Kind::Code).collect();
    let mut settled = false;
    for _ in 0..MAX_PASSES {
        // Words some code item defines (an item that is not code is never among them).
        let word_code: Vec<bool> = definers
            .iter()
            .map(|ds| ds.iter().any(|&d| code[d as usize]))
            .collect();
        let mut changed = false;
        for (i, item) in items.iter().enumerate() {
            if !code[i]
                && item.kind == Kind::Declaration
                && item.mentions.iter().any(|&m| word_code[m as usize])
            {
                code[i] = true;
                changed = true;
            }
        }
        if !changed {
            settled = true;
            break;
        }
    }
    if !settled {
        return None;
    }
    // Code items join every code item that defines a word they mention (and, through the
    // word, every other code item that defines it).
    let mut sets = Sets((0..items.len() as u32).collect());
    for ds in &definers {
        let mut code_definers = ds.iter().copied().filter(|&d| code[d as usize]);
        if let Some(first) = code_definers.next() {
            for d in code_definers {
                sets.union(first, d);
            }
        }
    }
    let mut word_code: Vec<Option<u32>> = vec![None; n_words];
    for (w, ds) in definers.iter().enumerate() {
        word_code[w] = ds.iter().copied().find(|&d| code[d as usize]);
    }
    for (i, item) in items.iter().enumerate() {
        if !code[i] {
            continue;
        }
        for &m in &item.mentions {
            if let Some(d) = word_code[m as usize] {
                sets.union(i as u32, d);
            }
        }
    }
    // An HLSL helper no entry calls takes the block shape of the file's only
    // `[numthreads]` entry when there is one (`lower::shape`): such a file is one shader,
    // checked whole. Entries of a file with several are kept together, so that each
    // segment sees all of them or none.
    if let Some(&word) = words.ids.get("numthreads") {
        let entries: Vec<u32> = (0..items.len() as u32)
            .filter(|&i| code[i as usize] && items[i as usize].mentions.contains(&word))
            .collect();
        if entries.len() == 1 {
            return None;
        }
        for pair in entries.windows(2) {
            sets.union(pair[0], pair[1]);
        }
    }
    // Components in order of their first item.
    let mut component_of: HashMap<u32, usize> = HashMap::new();
    let mut components: Vec<Vec<u32>> = Vec::new();
    for i in 0..items.len() as u32 {
        if !code[i as usize] {
            continue;
        }
        let root = sets.find(i);
        let c = *component_of.entry(root).or_insert_with(|| {
            components.push(Vec::new());
            components.len() - 1
        });
        components[c].push(i);
    }
    if components.len() < 2 {
        return None;
    }
    let globals: Vec<u32> = (0..items.len() as u32)
        .filter(|&i| items[i as usize].kind == Kind::Global)
        .collect();
    let size = |i: u32| items[i as usize].end - items[i as usize].start;
    let mut out = Vec::new();
    let mut batch: Vec<u32> = Vec::new();
    let mut bytes = 0;
    let mut seen = vec![u32::MAX; items.len()];
    let flush = |batch: &mut Vec<u32>, out: &mut Vec<Segment>, seen: &mut Vec<u32>| {
        let mark = out.len() as u32;
        let mut chosen: Vec<u32> = Vec::new();
        let mut stack: Vec<u32> = batch.drain(..).chain(globals.iter().copied()).collect();
        // The declarations they mention, and those these mention.
        while let Some(i) = stack.pop() {
            if seen[i as usize] == mark {
                continue;
            }
            seen[i as usize] = mark;
            chosen.push(i);
            for &m in &items[i as usize].mentions {
                for &d in &definers[m as usize] {
                    if !code[d as usize] && seen[d as usize] != mark {
                        stack.push(d);
                    }
                }
            }
        }
        chosen.sort_unstable();
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for i in chosen {
            let (s, e) = (items[i as usize].start, items[i as usize].end);
            match ranges.last_mut() {
                Some(last) if last.1 == s => last.1 = e,
                _ => ranges.push((s, e)),
            }
        }
        out.push(Segment { ranges });
    };
    for component in &components {
        batch.extend(component.iter().copied());
        bytes += component.iter().map(|&i| size(i)).sum::<usize>();
        if bytes >= target {
            flush(&mut batch, &mut out, &mut seen);
            bytes = 0;
        }
    }
    if !batch.is_empty() {
        flush(&mut batch, &mut out, &mut seen);
    }
    (out.len() > 1).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str, seg: &Segment) -> String {
        seg.ranges.iter().map(|&(s, e)| &text[s..e]).collect()
    }

    /// Independent kernels land in separate segments, each with the macros it uses and
    /// without the others'; a kernel and its launch, helper and file-scope array stay
    /// together.
    #[test]
    fn kernels_split_with_what_they_need() {
        let text = "#include <cuda.h>\n#define TILE_A 32\n#define TILE_B 16\n\
                    __shared__ float grid[32];\n\
                    __device__ float get(int i) { return grid[i]; }\n\
                    __global__ void a(float* o) { o[0] = get(threadIdx.x) * TILE_A; }\n\
                    // bankcheck: block(32)\n\
                    __global__ void b(float* o) { __shared__ float s[TILE_B]; o[0] = s[0]; }\n\
                    void launch_a(float* o) { a<<<1, 32>>>(o); }\n";
        let segs = segments(text, 1).expect("split");
        assert_eq!(segs.len(), 2, "{segs:?}");
        let first = texts(text, &segs[0]);
        let second = texts(text, &segs[1]);
        assert!(
            first.contains("TILE_A") && !first.contains("#define TILE_B"),
            "{first}"
        );
        assert!(
            first.contains("grid[32]")
                && first.contains("get(int i)")
                && first.contains("launch_a")
        );
        assert!(
            second.contains("#define TILE_B") && second.contains("bankcheck: block(32)"),
            "{second}"
        );
        assert!(
            !second.contains("get(int i)") && !second.contains("TILE_A 32"),
            "{second}"
        );
        assert!(first.contains("#include") && second.contains("#include"));
        // Ranges lie on item boundaries and never overlap.
        for seg in &segs {
            assert!(seg.ranges.windows(2).all(|w| w[0].1 < w[1].0));
        }
    }

    proptest::proptest! {
        /// Any text: no panic, and segments made of whole lines of the text's own bytes,
        /// in order, on character boundaries.
        #[test]
        fn any_text_splits_safely(text in "(\\PC|[{}();#\\n\"'/*\\\\]|__global__ void k|int a;|é){0,300}") {
            if let Some(segs) = segments(&text, 1) {
                for seg in &segs {
                    for w in seg.ranges.windows(2) {
                        proptest::prop_assert!(w[0].1 < w[1].0);
                    }
                    for &(s, e) in &seg.ranges {
                        proptest::prop_assert!(s < e && e <= text.len());
                        proptest::prop_assert!(text.is_char_boundary(s) && text.is_char_boundary(e));
                    }
                }
            }
        }
    }

    /// What the scan does not follow is not split.
    #[test]
    fn undecided_conditionals_and_one_group_are_not_split() {
        assert!(segments(
            "#if X\nint a;\n#endif\n__global__ void k() {}\n__global__ void j() {}\n",
            1
        )
        .is_none());
        assert!(segments(
            "#pragma pack(1)\n__global__ void k() {}\n__global__ void j() {}\n",
            1
        )
        .is_none());
        assert!(segments("__global__ void k() { j(); }\n__global__ void j() {}\n", 1).is_none());
        assert!(segments("__global__ void k() { {\n", 1).is_none());
    }

    /// A struct with `;`, an initialiser and a function returning a struct end where C
    /// says; a macro that spells shared memory makes its users code.
    #[test]
    fn items_end_where_their_construct_does() {
        let mut words = Words::default();
        let text = "struct S { int x; } s1;\nint t[] = { 1, 2 };\nstruct S* f() { return 0; }\n\
                    template <class T> __device__ T g(T v) { return v; }\nint z;\n\
                    template <int N = 4> __global__ void h() {}\nconstexpr int M = 2;\n";
        let items = items(text, &mut words).unwrap();
        let ends: Vec<&str> = items.iter().map(|i| text[i.start..i.end].trim()).collect();
        assert_eq!(
            ends,
            [
                "struct S { int x; } s1;",
                "int t[] = { 1, 2 };",
                "struct S* f() { return 0; }",
                "template <class T> __device__ T g(T v) { return v; }",
                "int z;",
                "template <int N = 4> __global__ void h() {}",
                "constexpr int M = 2;"
            ]
        );
        let text = "#define SMEM __shared__\nSMEM float a[32];\nSMEM float b[32];\n\
                    __global__ void k() { a[0] = 1; }\n__global__ void j() { b[0] = 1; }\n";
        let segs = segments(text, 1).expect("split");
        assert_eq!(segs.len(), 2);
        assert!(
            texts(text, &segs[0]).contains("a[32]") && !texts(text, &segs[0]).contains("b[32]")
        );
    }
}
