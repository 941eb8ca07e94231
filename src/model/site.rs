//! What lowering hands to the analyses and rules: shared arrays and access sites.

use crate::diag::{AccessKind, Span};
use crate::model::ir::LoweredAccess;

/// A shared-memory array declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayInfo {
    pub name: String,
    /// The declarator's name span.
    pub name_span: Span,
    /// The whole declaration statement.
    pub decl_span: Span,
    pub element_type: String,
    pub element_bytes: u32,
    /// Extents outermost first; `None` when not a constant (`extern __shared__ T s[]`).
    pub extents: Vec<Option<u64>>,
    /// Span of each extent expression (for padding edits).
    pub extent_spans: Vec<Option<Span>>,
    pub dynamic: bool,
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
    pub array: usize,
    pub pointer: Option<String>,
    pub kind: AccessKind,
    pub element_bytes: u32,
    pub function: String,
    /// The lowered access, one per naturally aligned component, or why it could not be lowered.
    pub lowered: Result<Vec<LoweredAccess>, String>,
    /// Span and source text of each subscript's index, outermost first.
    pub index_spans: Vec<Span>,
    pub index_texts: Vec<String>,
    /// Every dimension subscripted directly on the array, no pointer in between.
    pub plain_subscript: bool,
    /// Things assumed while lowering (the block shape).
    pub assumptions: Vec<String>,
    /// The launch shape this lowering used, when several were analysed.
    pub context: Option<String>,
    /// The instantiation this lowering used (`` `T` = `float` ``), when several were analysed.
    pub instantiation: Option<String>,
    /// A type parameter nothing instantiates and the element size tried for it: the
    /// pipeline decides the site only when every size gives the same verdict.
    pub type_variant: Option<(String, u32)>,
    /// The text of another file when the site is in one of its functions (see
    /// `Function::foreign_text`): the site's spans index into it.
    pub foreign: Option<std::sync::Arc<str>>,
}

/// Everything lowered from one file.
#[derive(Debug, Default)]
pub struct LoweredFile {
    pub arrays: Vec<ArrayInfo>,
    pub sites: Vec<AccessSite>,
}
