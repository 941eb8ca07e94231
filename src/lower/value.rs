//! The values the interpreter computes: integers as index IR, vectors, pointers into
//! shared memory, data, and what could not be followed (with its reason). Its own file
//! so that the helpers of lowering (vectors, templates) name values without depending on
//! the interpreter.

use crate::extract::ast::TypeName;
use crate::model::ir::Expr as Ir;
use crate::model::reason::Reason;

/// A value during interpretation.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(Ir),
    /// A vector of 1 to 4 components (`threadIdx`, `uint3 gtid : SV_GroupThreadID`,
    /// `dim3`, `uint2(a, b)`); see [`super::vector`].
    Vector(Vec<Value>),
    /// A pointer into shared array `array` at `offset` bytes, pointing at `pointee`.
    Ptr {
        array: usize,
        offset: Ir,
        pointee: TypeName,
        name: Option<String>,
    },
    /// The shared array itself (decays to a pointer to its first element).
    Array(usize),
    /// A pointer into shared array `array` at an offset bankcheck cannot follow
    /// (`s + g[i]`), and why: what it reaches is an access of `array`, `unknown`, rather
    /// than nothing.
    LostPtr {
        array: usize,
        reason: Reason,
    },
    /// A reference bound to a place in shared memory (`T& r = s[i];`,
    /// `Storage& st = *reinterpret_cast<Storage*>(smem);`): reading `r` loads that place,
    /// assigning it stores there, and `r.f`, `r[i]` reach into it, as `*p` of a pointer
    /// `p` with the same fields would.
    Ref {
        array: usize,
        offset: Ir,
        pointee: TypeName,
        name: Option<String>,
    },
    /// A pointer to global or local memory: loads through it are data.
    Memory,
    /// A real value the interpreter follows exactly ([`super::real`]): a floating-point
    /// literal, an integer in a floating-point variable, a floating-point shader constant.
    Real(super::real::Real),
    /// A value loaded from memory or computed by an unknown function.
    Data(String),
    /// A value bankcheck could not follow, and why.
    Unknown(Reason),
    /// A cooperative group of `n` consecutive threads (`0`: the whole block).
    Group(u64),
    /// A thread-local array: every lane has its own, so its elements are per-lane data,
    /// unless it is a table of values the code only reads (see `interp/tables.rs`),
    /// found under its declaration's span.
    Local(Option<crate::diag::Span>),
    /// A CuTe tensor over shared memory (`make_tensor(make_smem_ptr(p), layout)`).
    Tensor(Box<crate::lower::cute::tensor::SharedTensor>),
    /// A CuTe layout, shape or tuple held in a local (`auto tile = make_layout(...)`).
    Cute(Box<crate::lower::cute::reader::Value>),
}

impl Value {
    pub(super) fn reason(&self) -> Reason {
        Reason::new(match self {
            Value::Unknown(r) => return r.clone(),
            Value::LostPtr { reason, .. } => return reason.clone(),
            Value::Data(r) => r.clone(),
            Value::Real(_) => "a floating-point value".to_string(),
            Value::Ptr { .. } | Value::Array(_) => {
                "a pointer into shared memory is used as an integer".to_string()
            }
            Value::Ref { .. } => "a reference into shared memory is used as an integer".to_string(),
            Value::Memory => "a pointer to memory is used as an integer".to_string(),
            Value::Local(_) => "a thread-local array is used as an integer".to_string(),
            Value::Vector(_) => "a vector is used as an integer".to_string(),
            Value::Group(_) => "a thread group is used as an integer".to_string(),
            Value::Tensor(_) => "a CuTe tensor is used as an integer".to_string(),
            Value::Cute(_) => "a CuTe layout is used as an integer".to_string(),
            Value::Int(_) => "an integer is combined with a non-integer value".to_string(),
        })
    }
}
