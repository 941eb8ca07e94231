//! What lowering hands to the analyses and rules: shared arrays and access sites.

use crate::diag::{AccessKind, Span};
use crate::model::assumption::{Assumption, ShapeSource};
use crate::model::ir::LoweredAccess;
use crate::model::reason::Reason;

/// A shared-memory array declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayInfo {
    pub name: String,
    /// The declarator's name span.
    pub name_span: Span,
    /// The whole declaration statement.
    pub decl_span: Span,
    pub element_type: String,
    /// The `*`s of the declarator (`__shared__ Vector<int> *s_vector`): the elements are
    /// pointers to `element_type`.
    pub element_pointers: u32,
    pub element_bytes: u32,
    /// Extents outermost first; `None` when not a constant (`extern __shared__ T s[]`).
    pub extents: Vec<Option<u64>>,
    /// Span of each extent expression (for padding edits).
    pub extent_spans: Vec<Option<Span>>,
    pub dynamic: bool,
    /// Why the first extent written but not a constant is not (`kLanes` unknown).
    pub extent_unknown: Option<String>,
    /// Declared in another file's text (a header's helper or file scope): an access to it
    /// belongs to that file's report, wherever the helper is called from.
    pub foreign: bool,
    /// Functions the lowering found no definition of that the array was handed to (a
    /// pointer into it, or the array): an included header may define them.
    pub handed_to: Vec<String>,
}

/// One access site: one subscript (or pointer dereference) of a shared array.
#[derive(Debug, Clone, PartialEq)]
pub struct AccessSite {
    /// From the start of the address expression to the end of the subscript.
    pub span: Span,
    /// The call that supplies the address, when the access is in an inlined helper (the
    /// innermost call written in the same file); the pipeline reports the access there.
    pub call: Option<Span>,
    /// The access's own span in the helper, once the pipeline has moved `span` to the call.
    pub helper_span: Option<Span>,
    /// For a site in another file's helper (`foreign`): the innermost call written in the
    /// text of the file being lowered, through which that file's own array reaches it.
    pub owner_call: Option<Span>,
    /// The text `helper_span` indexes when the helper is in another file (the pipeline
    /// reports such a site at `owner_call`, in the file that declares the array).
    pub helper_text: Option<std::sync::Arc<str>>,
    pub array: usize,
    pub pointer: Option<String>,
    pub kind: AccessKind,
    pub element_bytes: u32,
    pub function: InFunction,
    /// The lowered access, one per naturally aligned component, or why it could not be lowered.
    pub lowered: Result<Vec<LoweredAccess>, Reason>,
    /// Span and source text of each subscript's index, outermost first.
    pub index_spans: Vec<Span>,
    pub index_texts: Vec<String>,
    /// Every dimension subscripted directly on the array, no pointer in between.
    pub plain_subscript: bool,
    /// Things assumed while lowering (the block shape, macros taken as undefined).
    pub assumptions: Vec<Assumption>,
    /// The launch shape this lowering used (and the includers it went through), when
    /// several were analysed.
    pub context: Option<LoweringContext>,
    /// The instantiation this lowering used (`` `T` = `float` ``), when several were analysed.
    pub instantiation: Option<String>,
    /// A type parameter nothing instantiates and the element size tried for it: the
    /// pipeline decides the site only when every size gives the same verdict.
    pub type_variant: Option<(String, u32)>,
    /// The text of another file when the site is in one of its functions (see
    /// `Function::foreign_text`): the site's spans index into it.
    pub foreign: Option<std::sync::Arc<str>>,
    /// For a site in another file's helper (`foreign`): the calls that reached it,
    /// outermost first, each with the text it is written in (`None`: the file being
    /// lowered). A header whose helpers are lowered through an includer finds here the
    /// call in its own text through which its array reaches a third file's helper
    /// (`ProjectIndex::sites_through_includers`).
    pub via_calls: Vec<(Span, Option<std::sync::Arc<str>>)>,
}

impl AccessSite {
    /// True when this site, in a helper of another file, reaches an array declared in the
    /// file being lowered, through a call written there: that file reports it, at the
    /// call, and the helper's file does not.
    pub fn claimed_by_lowered_file(&self, arrays: &[ArrayInfo]) -> bool {
        self.owner_call.is_some() && arrays.get(self.array).is_some_and(|a| !a.foreign)
    }

    /// Moves this site, in the helper of another file whose text is `text`, to `call`
    /// in the file that claims it: the helper's span and text are kept for the labels,
    /// and no edit may point at the subscripts, which are in the other file.
    pub fn move_to_owner_call(&mut self, call: Span, text: std::sync::Arc<str>) {
        self.helper_span = Some(self.span);
        self.helper_text = Some(text);
        self.span = call;
        self.call = None;
        self.index_spans.clear();
        self.plain_subscript = false;
        self.foreign = None;
        self.via_calls.clear();
    }
}

/// The function an access is written in, and the chain of inlined calls that reached it
/// (innermost first), for the messages and for telling a kernel's own accesses apart.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InFunction {
    /// The function's name as shown (`Owner::method` for a member function).
    pub name: String,
    pub called_from: Vec<CallSite>,
}

/// One inlined call: who called, and on which line of the caller's file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSite {
    pub caller: String,
    pub line: usize,
}

impl InFunction {
    pub fn new(name: impl Into<String>) -> InFunction {
        InFunction {
            name: name.into(),
            called_from: Vec::new(),
        }
    }

    /// The function `name` inlined at `line` from this one.
    #[must_use]
    pub fn calling(&self, name: String, line: usize) -> InFunction {
        let mut called_from = vec![CallSite {
            caller: self.name.clone(),
            line,
        }];
        called_from.extend(self.called_from.iter().cloned());
        InFunction { name, called_from }
    }

    /// True when the access is in the named function itself, not in a helper it calls.
    pub fn is_own(&self, name: &str) -> bool {
        self.called_from.is_empty() && self.name == name
    }

    /// True when the access was reached through an inlined call.
    pub fn is_inlined(&self) -> bool {
        !self.called_from.is_empty()
    }
}

/// `h (called from `g (called from `k` on line 5)` on line 10)`.
impl std::fmt::Display for InFunction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn chain(
            f: &mut std::fmt::Formatter<'_>,
            name: &str,
            calls: &[CallSite],
        ) -> std::fmt::Result {
            let Some((call, outer)) = calls.split_first() else {
                return f.write_str(name);
            };
            write!(f, "{name} (called from `")?;
            chain(f, &call.caller, outer)?;
            write!(f, "` on line {})", call.line)
        }
        chain(f, &self.name, &self.called_from)
    }
}

/// What one lowering of a site ran under: its block shape, and the includers whose
/// lowering it was taken from (the last one that took it first).
#[derive(Debug, Clone, PartialEq)]
pub struct LoweringContext {
    pub shape: ShapeSource,
    pub through: Vec<String>,
}

impl LoweringContext {
    /// True when the context says nothing the site's assumptions do not: a candidate
    /// block shape, lowered in the site's own file.
    pub fn is_assumed_shape(&self) -> bool {
        self.through.is_empty() && matches!(self.shape, ShapeSource::Assumed(_))
    }
}

/// `through `a.cu`; block (64, 1, 1) from the launch on line 3`.
impl std::fmt::Display for LoweringContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for name in &self.through {
            write!(f, "through `{name}`; ")?;
        }
        self.shape.fmt(f)
    }
}

/// Everything lowered from one file.
#[derive(Debug, Default)]
pub struct LoweredFile {
    pub arrays: Vec<ArrayInfo>,
    pub sites: Vec<AccessSite>,
    /// Accesses in this file's helpers, found through an includer, that the includer
    /// reports at its call (`AccessSite::claimed_by_lowered_file`): spans in this file.
    pub reported_elsewhere: Vec<Span>,
}
