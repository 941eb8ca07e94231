//! CuTe's layout algebra, for kernels that reach shared memory through CuTe tensors
//! (`make_tensor(make_smem_ptr(p), SmemLayout{})`; docs/bank-model.md, "CuTe layouts").
//!
//! `tuple` and `layout` are the algebra on integers (shapes, strides, `composition`,
//! `tile_to_shape`, the divides), `swizzle` CuTe's XOR swizzles and swizzled layouts,
//! `reader` turns the C++ spellings of layouts into values, `tensor` holds tensors over
//! shared memory and their slices, and `offset` lowers a
//! layout's offset function at thread-dependent coordinates into the index IR. Nothing
//! here knows the interpreter: names are resolved through [`reader::Names`].

pub(crate) mod atoms;
pub(crate) mod layout;
pub(crate) mod mma;
pub(crate) mod offset;
pub(crate) mod reader;
pub(crate) mod swizzle;
pub(crate) mod tensor;
pub(crate) mod text;
pub(crate) mod tiled;
pub(crate) mod tuple;
