//! Leaf module: the vocabulary every stage shares to talk about findings.
//!
//! Spans are byte ranges into the original file; line and column are only computed
//! when a report is rendered. This module depends on nothing else in the crate.

use serde::Serialize;
use std::fmt;

/// A half-open byte range `start..end` into a source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start,
            end: end.max(start),
        }
    }
}

/// 1-based line of byte `offset`, given the byte offsets where lines start (ascending,
/// starting with 0); binary search, so that numbering many sites stays cheap.
pub fn line_of(line_starts: &[usize], offset: usize) -> usize {
    line_starts.partition_point(|&s| s <= offset).max(1)
}

/// The byte offsets where the lines of `text` start. A line ends at LF, CRLF, or a lone
/// CR (files saved with classic Mac line ends).
pub fn line_starts(text: &str) -> Vec<usize> {
    // memchr's vectorised search, with the room counted first: every file checked is
    // numbered, and a search per line otherwise costs more than the line.
    let bytes = text.as_bytes();
    if memchr::memchr(b'\r', bytes).is_some() {
        return std::iter::once(0)
            .chain(
                memchr::memchr2_iter(b'\n', b'\r', bytes)
                    .filter(|&i| bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n'))
                    .map(|i| i + 1),
            )
            .collect();
    }
    let mut starts = Vec::with_capacity(memchr::memchr_iter(b'\n', bytes).count() + 1);
    starts.push(0);
    starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1));
    starts
}

/// `text` with each lone CR made an LF, for code that knows only LF (and CRLF) line
/// ends; the length, and so every span, is unchanged.
pub fn lone_cr_as_lf(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes.get(i + 1) != Some(&b'\n');
    if !memchr::memchr_iter(b'\r', bytes).any(lone) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = bytes.to_vec();
    for i in memchr::memchr_iter(b'\r', bytes).filter(|&i| lone(i)) {
        out[i] = b'\n';
    }
    // Only an ASCII byte changed into another: still UTF-8.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| text.to_string()))
}

/// How loudly a finding is reported; ordered from least to most severe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(text: &str) -> Option<Severity> {
        match text {
            "info" => Some(Severity::Info),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a suggested edit can be applied without changing behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Applicability {
    /// The edit keeps the program's meaning and can be applied by `--fix`.
    Safe,
    /// The edit changes something a user may rely on (the array's size, say).
    Unsafe,
    /// Shown to the user, never applied.
    DisplayOnly,
}

/// A secondary span with a short explanation ("declared here", "loop variable").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A text replacement of `span` by `text` in the diagnostic's file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edit {
    pub span: Span,
    pub text: String,
}

/// The wavefronts of one access of an array under a suggested layout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AfterAccess {
    pub line: usize,
    /// The line of the access inside a helper, when `line` is the call that reaches it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub helper_line: Option<usize>,
    /// The launch shape or instantiation this entry was simulated under, when the array
    /// is reached under several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    pub kind: String,
    pub wavefronts: u64,
    pub ideal_wavefronts: u64,
    /// Wavefronts of this access under the current layout, for before/after tables.
    pub before_wavefronts: u64,
}

/// What a fix changes: the index (an XOR swizzle), the declaration (padding), or a rule
/// id in a suppression comment (rename: a retired id to the rule's id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FixKind {
    Swizzle,
    Padding,
    Rename,
}

impl std::fmt::Display for FixKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FixKind::Swizzle => "swizzle",
            FixKind::Padding => "padding",
            FixKind::Rename => "rename",
        })
    }
}

/// A fix proposal, always verified by re-simulation before it is attached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suggestion {
    /// `swizzle` or `padding`.
    pub kind: FixKind,
    /// Shared with the suggestions of the array's other accesses and their help: a big
    /// file's report holds each array's once.
    pub message: std::sync::Arc<str>,
    /// Text to paste: the new declaration (padding) or the new index expression (swizzle).
    pub replacement: String,
    /// CuTe `Swizzle<B,M,S>` equivalent, when one exists.
    pub cute: Option<String>,
    /// Triton-style `(vec, perPhase, maxPhase)`, when one exists.
    pub classic: Option<[u64; 3]>,
    pub after: Vec<AfterAccess>,
    pub lower_bound_wavefronts: Option<u64>,
    /// Extra bytes of shared memory the fix costs (padding).
    pub memory_cost_bytes: Option<u64>,
    pub applicability: Applicability,
    /// The edits that apply the fix, file-local; empty when it cannot be applied.
    #[serde(skip)]
    pub edits: Vec<Edit>,
    /// The array's whole fix when this suggestion is one of its accesses' and `after` holds
    /// only that access's rows and `edits` none ([`Suggestion::for_access`]): shared, so
    /// that an array of n accesses costs n rows and edits, not n times n (the JSON report
    /// writes it once).
    #[serde(skip)]
    pub table: Option<std::sync::Arc<FixTable>>,
}

/// What the suggestions of one array's accesses share: every access's row of `after`, and
/// the edits (a swizzle rewrites every access).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixTable {
    pub after: Vec<AfterAccess>,
    pub edits: Vec<Edit>,
}

impl Suggestion {
    /// Shares this suggestion's table and edits ([`Suggestion::table`]) with the
    /// suggestions that [`Suggestion::for_access`] makes of it.
    pub fn share(&mut self) {
        self.table = Some(std::sync::Arc::new(FixTable {
            after: self.after.clone(),
            edits: self.edits.clone(),
        }));
    }

    /// The edits that apply the fix: those of the shared table, else its own.
    pub fn fix_edits(&self) -> &[Edit] {
        self.table.as_ref().map_or(&self.edits, |t| &t.edits)
    }

    /// This suggestion as shown at one access of the array, reported at `line` (and
    /// `helper_line` inside a helper): `after` keeps that access's rows, the edits and
    /// the whole table are in `table` (see [`Suggestion::share`]).
    pub fn for_access(&self, line: usize, helper_line: Option<usize>) -> Suggestion {
        let table = self.table.clone().unwrap_or_else(|| {
            std::sync::Arc::new(FixTable {
                after: self.after.clone(),
                edits: self.edits.clone(),
            })
        });
        Suggestion {
            kind: self.kind,
            message: self.message.clone(),
            replacement: self.replacement.clone(),
            cute: self.cute.clone(),
            classic: self.classic,
            after: table
                .after
                .iter()
                .filter(|a| a.line == line && a.helper_line == helper_line)
                .cloned()
                .collect(),
            lower_bound_wavefronts: self.lower_bound_wavefronts,
            memory_cost_bytes: self.memory_cost_bytes,
            applicability: self.applicability,
            edits: Vec::new(),
            table: Some(table),
        }
    }
}

/// One finding: a rule fired at a span, or a problem with the input.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    pub rule: &'static str,
    pub severity: Severity,
    pub span: Span,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    /// Shared with the suggestion's message when it is that ([`Suggestion::message`]).
    pub help: Option<std::sync::Arc<str>>,
    pub suggestion: Option<Suggestion>,
    /// The access facts, when the finding is about a shared-memory access (boxed: a
    /// finding of a whole array has none, and findings are many in a big file).
    pub access: Option<Box<AccessFacts>>,
    /// The access's lane pattern, up to a shift by whole banks (`s[2 * t]` and
    /// `s[2 * t + 1]` in one function): accesses with one pattern conflict alike, for one
    /// cause, and one change of the index mends them all (`rules::group`).
    #[serde(skip)]
    pub pattern: Option<u64>,
    /// The findings of the same problem folded into this one (each conflicting access of
    /// an array that one fix mends, the store of `s[i] += x`): shown as labels, listed in
    /// the reports, never reported on their own (`rules::group`).
    pub related: Vec<Diagnostic>,
    /// The worst wavefront of a conflicting access, before and after its fix.
    #[serde(skip)]
    pub bank_maps: Option<Box<BankMaps>>,
}

/// One phase of one warp's access as the banks see it: which lanes reach which bank at
/// which word (`rules::bank_map` fills it from the bank model's evaluation).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BankMap {
    /// The lanes of the phase: `first_lane .. first_lane + lanes`.
    pub first_lane: u32,
    pub lanes: u32,
    pub bank_count: u32,
    /// Wavefronts of this phase: the most distinct words in one bank.
    pub wavefronts: u64,
    /// Wavefronts and ideal of the whole warp's instruction (every phase).
    pub warp_wavefronts: u64,
    pub warp_ideal: u64,
    /// Every bank the phase touches, in bank order.
    pub banks: Vec<BankCell>,
}

/// The words one bank serves in a phase, each with the lanes that reach it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BankCell {
    pub bank: u32,
    /// `(word, lanes)`, by word; a word is a bank-width unit from the array's start.
    pub words: Vec<(i64, Vec<u32>)>,
}

impl BankCell {
    /// The wavefronts this bank costs: its distinct words (an atomic's lanes on one word
    /// each cost one).
    pub fn cost(&self, atomic: bool) -> u64 {
        if atomic {
            self.words.iter().map(|(_, l)| l.len() as u64).sum()
        } else {
            self.words.len() as u64
        }
    }
}

/// The worst wavefront of a conflicting access, and the same lanes under its fix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BankMaps {
    /// The instruction pictured: `warp 1, s = 4`.
    pub at: String,
    pub atomic: bool,
    pub before: BankMap,
    /// The same lanes and values under the verified fix, when there is one.
    pub after: Option<BankMap>,
    /// The fix `after` shows (`pad each row of `tile` by 1 element`), or why there is no
    /// `after`.
    pub fix: String,
}

impl Diagnostic {
    pub fn new(rule: &'static str, severity: Severity, span: Span, message: String) -> Self {
        Diagnostic {
            rule,
            severity,
            span,
            message,
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
            suggestion: None,
            access: None,
            pattern: None,
            related: Vec::new(),
            bank_maps: None,
        }
    }

    /// This finding and those folded into it.
    pub fn with_related(&self) -> impl Iterator<Item = &Diagnostic> {
        std::iter::once(self).chain(&self.related)
    }

    /// The bank maps of the worst access of this finding, or of those folded into it,
    /// that has them.
    pub fn bank_maps(&self) -> Option<&BankMaps> {
        self.bank_maps_finding()
            .and_then(|d| d.bank_maps.as_deref())
    }

    /// The finding, this one or one folded into it, whose bank maps [`Self::bank_maps`]
    /// gives: the access they picture.
    pub fn bank_maps_finding(&self) -> Option<&Diagnostic> {
        self.with_related()
            .filter(|d| d.bank_maps.is_some())
            .max_by(|a, b| {
                let (x, y) = (a.access.as_deref(), b.access.as_deref());
                x.and_then(AccessFacts::excess_wavefronts)
                    .cmp(&y.and_then(AccessFacts::excess_wavefronts))
                    .then(b.span.start.cmp(&a.span.start))
            })
    }

    /// The access facts of the worst access of this finding or of those folded into it
    /// (most excess wavefronts, then the largest factor): what a finding of a whole array
    /// costs.
    pub fn worst_access(&self) -> Option<&AccessFacts> {
        self.with_related()
            .filter_map(|d| d.access.as_deref())
            .max_by(|a, b| {
                a.excess_wavefronts()
                    .cmp(&b.excess_wavefronts())
                    .then(
                        a.conflict_factor
                            .unwrap_or(0.0)
                            .total_cmp(&b.conflict_factor.unwrap_or(0.0)),
                    )
                    .then(b.span.start.cmp(&a.span.start))
            })
    }
}

/// Load, store or atomic read-modify-write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AccessKind {
    Load,
    Store,
    Atomic,
}

impl AccessKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AccessKind::Load => "load",
            AccessKind::Store => "store",
            AccessKind::Atomic => "atomic",
        }
    }
}

/// The verdict class of an access: conflict-free, conflicting, or undecided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Conflict,
    Unknown,
}

/// Everything decided about one access site; the JSON `accesses` entries are these.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AccessFacts {
    #[serde(skip)]
    pub span: Span,
    /// The access itself, inside a helper, when `span` is the call that supplies its
    /// address (the line the user edits).
    #[serde(skip)]
    pub helper_span: Option<Span>,
    /// The access itself, in a helper of another file, when `span` is the call in this
    /// file that hands it this file's array (then `helper_span` is `None`).
    #[serde(skip)]
    pub helper_elsewhere: Option<Box<HelperElsewhere>>,
    pub array: String,
    pub pointer: Option<String>,
    pub kind: AccessKind,
    pub element_bytes: u32,
    pub status: Status,
    pub conflict_factor: Option<f64>,
    pub wavefronts: Option<u64>,
    pub ideal_wavefronts: Option<u64>,
    pub reason: Option<String>,
    pub assumptions: Vec<String>,
    pub depends_on: Vec<String>,
    /// Which analysis decided the verdict: `enumeration`, `f2`, `stride`.
    pub method: Option<&'static str>,
    /// Whether the verdict is exact or a sound bound (budget exceeded, sampled values).
    pub exact: bool,
    /// True when `conflict_factor` is only a lower bound: a conflict witnessed at some
    /// sampled values (or block shapes), other values possibly worse ("at least N-way").
    pub factor_is_lower_bound: bool,
    /// The values the factor depends on and what each gives, in words, when decided for
    /// every value ("32-way when `d` is a multiple of 32; conflict-free when `d` is odd").
    pub condition: Option<String>,
    /// Lane (and other) bits that collide, in words, for messages.
    pub explanation: Option<String>,
    /// The kernel (or helper) the access is in.
    pub function: Option<String>,
}

/// The suffix that marks a type parameter among the values a verdict depends on.
pub const TYPE_SUFFIX: &str = " (type)";

/// Where an access in a helper of another file is: that file as the run names it, the
/// 1-based place, and the rules that suppression comments there silence (a suppression
/// at the access in the helper covers every call, in whichever file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelperElsewhere {
    pub path: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub suppressions: Vec<String>,
}

impl HelperElsewhere {
    /// `util.cu:5:12`, as the notes of a finding say it.
    pub fn place(&self) -> String {
        format!("{}:{}:{}", self.path, self.line, self.column)
    }
}

impl AccessFacts {
    /// The note naming the run-time values the verdict hinges on, when there are any:
    /// one wording for the rules and the reports, so that it is printed once.
    pub fn depends_note(&self) -> Option<String> {
        if self.depends_on.is_empty() {
            return None;
        }
        let what = if self.status == Status::Conflict {
            "the conflict"
        } else {
            "the verdict"
        };
        // A loop counter is named `s (iteration)`: said as the loop's iteration; a type
        // parameter `T (type)` as the type.
        let (types, rest): (Vec<&String>, Vec<&String>) = self
            .depends_on
            .iter()
            .partition(|n| n.ends_with(TYPE_SUFFIX));
        let (loops, values): (Vec<&String>, Vec<&String>) =
            rest.into_iter().partition(|n| n.ends_with(" (iteration)"));
        let mut parts = Vec::new();
        if !types.is_empty() {
            let names: Vec<String> = types
                .iter()
                .map(|n| format!("`{}`", n.trim_end_matches(TYPE_SUFFIX)))
                .collect();
            let plural = if types.len() == 1 { "" } else { "s" };
            parts.push(format!("the type{plural} {}", names.join(", ")));
        }
        if !values.is_empty() {
            let names: Vec<String> = values.iter().map(|n| format!("`{n}`")).collect();
            parts.push(format!("the run-time value of {}", names.join(", ")));
        }
        if !loops.is_empty() {
            let names: Vec<String> = loops
                .iter()
                .map(|n| format!("`{}`", n.trim_end_matches(" (iteration)")))
                .collect();
            let plural = if loops.len() == 1 { "" } else { "s" };
            parts.push(format!(
                "the iteration of the loop{plural} over {}",
                names.join(", ")
            ));
        }
        Some(format!("{what} depends on {}", parts.join(" and on ")))
    }

    /// Wavefronts beyond the ideal: what profilers' bank-conflict counters count.
    pub fn excess_wavefronts(&self) -> Option<u64> {
        Some(self.wavefronts?.saturating_sub(self.ideal_wavefronts?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loop counter is said as the loop's iteration, not as a value named `s (iteration)`.
    #[test]
    fn depends_note_names_values_and_loops() {
        let facts = AccessFacts {
            span: Span::default(),
            helper_span: None,
            helper_elsewhere: None,
            array: "s".into(),
            pointer: None,
            kind: AccessKind::Load,
            element_bytes: 4,
            status: Status::Conflict,
            conflict_factor: Some(2.0),
            wavefronts: Some(2),
            ideal_wavefronts: Some(1),
            reason: None,
            assumptions: Vec::new(),
            depends_on: vec!["n".into(), "stride (iteration)".into()],
            method: None,
            exact: true,
            factor_is_lower_bound: false,
            condition: None,
            explanation: None,
            function: None,
        };
        assert_eq!(
            facts.depends_note().as_deref(),
            Some("the conflict depends on the run-time value of `n` and on the iteration of the loop over `stride`")
        );
        let facts = AccessFacts {
            depends_on: vec![format!("T{TYPE_SUFFIX}"), "n".into()],
            ..facts
        };
        assert_eq!(
            facts.depends_note().as_deref(),
            Some("the conflict depends on the type `T` and on the run-time value of `n`")
        );
    }
}
