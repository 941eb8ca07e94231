//! What the front end hands the swizzle advisor about one shared array: its declaration,
//! where its extents and subscripts are in the file, and every access lowered to the IR.

use crate::diag::{AccessKind, Span};
use crate::model::ir::LoweredAccess;

/// One shared array and all its access sites in one kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayUse {
    pub name: String,
    pub element_bytes: u32,
    /// Declared extents, outermost first (`tile[16][32]` -> `[16, 32]`).
    pub extents: Vec<u64>,
    pub decl_span: Span,
    /// The declaration text, e.g. `__shared__ float tile[16][32]`.
    pub decl_text: String,
    /// Span of each extent expression in the file, outermost first.
    pub extent_spans: Vec<Span>,
    pub accesses: Vec<SiteUse>,
}

/// One access site of the array.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteUse {
    /// The line reported for the access: the call that supplies its address when it is
    /// in a helper.
    pub line: usize,
    /// The access's own line inside the helper, when `line` is a call.
    pub helper_line: Option<usize>,
    /// The launch shape or instantiation, when the access is simulated under several.
    pub context: Option<String>,
    pub kind: AccessKind,
    pub lowered: LoweredAccess,
    /// Span of each subscript's index expression, outermost first.
    pub index_spans: Vec<Span>,
    /// Source text of each subscript's index expression, outermost first.
    pub index_texts: Vec<String>,
    /// Every dimension is subscripted directly on the array (no pointer in between).
    pub plain_subscript: bool,
}
