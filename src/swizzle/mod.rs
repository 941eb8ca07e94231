//! Shared-memory layout advice: the optimal swizzle of a buffer for all its accesses at
//! once, computed over F2 (docs/swizzling.md; the method is the Linear Layouts paper's
//! §5.4 as specified in the project's swizzle spec), and the padding alternative.
//!
//! The math (`layout`, `cost`, `bound`, `construct`, `normal`, `classic`) knows nothing
//! of source code; `derive`, `simulate`, `render` and `suggest` bridge it to the
//! [`input::ArrayUse`] records the front end fills, and every suggestion they return has
//! been verified by re-simulating each access under the bank model.

pub mod bound;
pub mod classic;
pub mod construct;
pub mod cost;
pub mod derive;
pub mod existing;
pub mod fixed;
pub mod input;
pub mod layout;
pub mod normal;
pub mod render;
pub mod simulate;
pub mod suggest;

pub use bound::{lemma95, Bound};
pub use classic::{
    classic_layout, cute_layout, cute_of_classic, equivalent_classic, exact_classic, Classic, Cute,
};
pub use construct::{construct, Construction};
pub use cost::{brute_cost, exact_cost, vectorisation, AccessCost};
pub use fixed::{FixLayout, FixOffsets};
pub use input::{ArrayUse, SiteUse};
pub use layout::{flatten, row_major, DistributedLayout, Geometry, MemoryLayout};
pub use suggest::{
    suggest, suggest_cached, suggest_padding, suggest_swizzle, suggest_with_offsets,
    suggest_without_padding_alternative, LayoutCache,
};
