//! [`FileFacts`]: everything the passes before the rules found in one file, which is
//! all a rule reads (the rules see no syntax tree, no settings file, no other file).

use crate::analyse::AnalysedSite;
use crate::config::Settings;
use crate::diag::{AccessFacts, Diagnostic, Span, Suggestion};
use crate::model::site::LoweredFile;
use crate::swizzle::ArrayUse;
use std::collections::HashMap;

/// What the rules read of one file.
pub struct FileFacts<'a> {
    pub text: &'a str,
    pub settings: &'a Settings,
    pub lowered: &'a LoweredFile,
    /// Each reported access: its worst context, and what is reported of it (same order).
    pub analysed: &'a [AnalysedSite],
    pub facts: &'a [AccessFacts],
    /// The shared arrays none of whose accesses was found, and why.
    pub unfound: &'a [UnfoundArray],
    /// The verified layout fixes of the arrays with a conflicting access.
    pub layouts: &'a Layouts,
    /// The regions the parser could not read that may hold shared-memory code.
    pub unparsed: &'a Unparsed<'a>,
}

impl FileFacts<'_> {
    /// The reported accesses with their facts.
    pub fn accesses(&self) -> impl Iterator<Item = (&AnalysedSite, &AccessFacts)> {
        self.analysed.iter().zip(self.facts)
    }

    /// Gives the finding `d` of one access the verified fix of its array, when there is
    /// one: as its help, and as its suggestion (`--fix`).
    pub fn attach_layout(&self, d: &mut Diagnostic) {
        let Some(access) = &d.access else {
            return;
        };
        if d.suggestion.is_some() {
            return;
        }
        if let Some(layout) = self.layouts.at(d.span, &access.array) {
            let line_of = |at: usize| crate::diag::line_of(&self.layouts.line_starts, at);
            let line = line_of(d.span.start);
            let helper_line = access.helper_span.map(|h| line_of(h.start));
            d.help = Some(layout.suggestion.message.clone());
            d.suggestion = Some(layout.suggestion.for_access(line, helper_line));
        }
    }
}

/// A shared array the file declares none of whose accesses was found.
#[derive(Debug, Clone)]
pub struct UnfoundArray {
    pub name: String,
    /// Its name in the declaration.
    pub span: Span,
    /// Why no access was found.
    pub reason: String,
    /// A use of it in code bankcheck does not follow.
    pub used: Option<Span>,
}

/// The verified layout fix of one array with a conflicting access.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The array and every context of every access, as the swizzle engine saw them.
    pub array: ArrayUse,
    pub suggestion: Suggestion,
    /// Several access patterns, of several source accesses, share the array.
    pub several_patterns: bool,
    /// Where the fix stores each element, as verified: the bank maps' "after".
    pub fix: crate::swizzle::FixLayout,
}

/// The layout fixes of a file, in the order of its arrays, and which access findings
/// they belong to.
#[derive(Debug, Clone, Default)]
pub struct Layouts {
    pub arrays: Vec<Layout>,
    /// By the span of an access and its array's name: the first array's fix.
    by_access: HashMap<(Span, String), usize>,
    /// The file's line starts, when it has a fix: a finding names its access's rows.
    pub line_starts: Vec<usize>,
}

impl Layouts {
    /// Adds the fix of an array whose accesses are at `spans` (in every context).
    pub fn push(&mut self, layout: Layout, spans: impl IntoIterator<Item = Span>) {
        let i = self.arrays.len();
        for span in spans {
            self.by_access
                .entry((span, layout.array.name.clone()))
                .or_insert(i);
        }
        self.arrays.push(layout);
    }

    /// The fix for an access at `span` of the array named `array`.
    pub fn at(&self, span: Span, array: &str) -> Option<&Layout> {
        let i = self.by_access.get(&(span, array.to_string()))?;
        self.arrays.get(*i)
    }
}

/// What the pipeline knows of the file around the regions the parser could not read
/// (the `parse-error` rule reads it).
pub struct Unparsed<'a> {
    pub text: &'a str,
    /// The regions the parser could not read, in order.
    pub regions: &'a [Span],
    /// Functions the extraction found: name and span.
    pub functions: Vec<(&'a str, Span)>,
    /// Names of the file's shared arrays and of its macros that stand for a shared
    /// qualifier.
    pub shared_names: Vec<&'a str>,
    /// The text test for a shared-memory declaration (`source::spells_shared_declaration`).
    pub mentions_shared: fn(&str) -> bool,
    /// Whether a name is a macro the file or its settings define.
    pub is_defined: &'a dyn Fn(&str) -> bool,
    /// Spans of the accesses found and checked.
    pub accesses: Vec<Span>,
    /// Function heads written as a macro use that bankcheck could not expand: the use,
    /// the name the function is read under, and why.
    pub refused_heads: &'a [(Span, String, String)],
    /// The offsets of the text's line ends, found once: each region looks up its lines
    /// (a scan per region made a file of thousands of regions on long lines quadratic).
    pub line_ends: std::cell::OnceCell<Vec<usize>>,
    /// Whether each scope searched so far (a function's span, or a region's lines) holds
    /// shared-memory code: the regions of one function share the answer.
    pub scope_holds_shared: std::cell::RefCell<std::collections::HashMap<(usize, usize), bool>>,
}
