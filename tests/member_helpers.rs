//! Issue 16, item 4: index helpers that are static member functions of a struct template
//! (`tile<I, J, T>::get_i(l)`, ggml's `mma.cuh`), called through the type itself, a
//! `typedef`, a template type argument or a traits member alias, are inlined with the
//! struct's template parameters and `static constexpr` members bound, following
//! `if constexpr` on them; a partial specialisation is chosen as C++ chooses it.
//!
//! Every tile kind, row stride (padded or not) and spelling goes through the whole
//! pipeline (`check_source`), and the verdict must be decided and equal to the worst
//! case counted by a plain enumeration of the same lane-to-element maps, written again
//! here, under the bank model (32 banks of 4 bytes, one warp of 32 lanes, one wavefront
//! per distinct word in a bank). A type whose template arguments are not known stays
//! `unknown`, saying why.

use bankcheck::config::Settings;
use bankcheck::diag::Status;
use std::collections::{HashMap, HashSet};

/// The struct template: a primary left empty, an I-major partial specialisation (two
/// shapes, chosen by `if constexpr` on its static members), a J-major one for `float`, and
/// a traits struct naming one of them by `DV`: the fixture's, up to its first kernel.
const FIXTURE: &str = include_str!("fixtures/cuda/idioms/member_index_helpers.cu");

fn tiles() -> &'static str {
    let end = FIXTURE
        .find("// tile<8, 8>:")
        .expect("the fixture's first kernel");
    &FIXTURE[..end]
}

/// A tile kind: how the struct is named, its `(I, J)` and layout.
#[derive(Debug, Clone, Copy)]
enum Kind {
    I8x8,
    I16x8,
    J16x16,
}

impl Kind {
    fn type_name(self) -> &'static str {
        match self {
            Kind::I8x8 => "tile<8, 8, float>",
            Kind::I16x8 => "tile<16, 8, float>",
            Kind::J16x16 => "tile<16, 16, float, LAYOUT_J_MAJOR>",
        }
    }

    /// The `sizes<DV>` instantiation whose `T_C` is this tile.
    fn dv(self) -> u32 {
        match self {
            Kind::I8x8 => 64,
            Kind::I16x8 => 80,
            Kind::J16x16 => 128,
        }
    }

    fn ne(self) -> i64 {
        match self {
            Kind::I8x8 => 2,
            Kind::I16x8 => 4,
            Kind::J16x16 => 8,
        }
    }

    /// Row and column of element `l` of lane `t`, as the struct's member functions say.
    fn element(self, l: i64, t: i64) -> (i64, i64) {
        match self {
            Kind::I8x8 => (t / 4, l * 4 + t % 4),
            Kind::I16x8 => ((l / 2) * 8 + t / 4, (t % 4) * 2 + l % 2),
            Kind::J16x16 => (t % 16, l),
        }
    }
}

/// How the kernel names the tile type.
#[derive(Debug, Clone, Copy)]
enum Spelling {
    Direct,
    Typedef,
    TypeArgument,
    Traits,
}

fn source(kind: Kind, stride: u32, spelling: Spelling) -> String {
    let ty = kind.type_name();
    let body = |q: &str| {
        format!(
            "    for (int l = 0; l < {q}::ne; ++l) {{\n        s[{q}::get_i(l) * {stride} + {q}::get_j(l)] = 1.0f;\n    }}\n"
        )
    };
    let kernel = match spelling {
        Spelling::Direct => format!(
            "__global__ void k(float *out) {{\n    __shared__ float s[16 * {stride}];\n{}    out[threadIdx.x] = s[threadIdx.x];\n}}\nvoid launch(float *o) {{ k<<<1, 32>>>(o); }}\n",
            body(ty)
        ),
        Spelling::Typedef => format!(
            "__global__ void k(float *out) {{\n    typedef {ty} tile_C;\n    __shared__ float s[16 * {stride}];\n{}    out[threadIdx.x] = s[threadIdx.x];\n}}\nvoid launch(float *o) {{ k<<<1, 32>>>(o); }}\n",
            body("tile_C")
        ),
        Spelling::TypeArgument => format!(
            "template <typename T_C> __device__ void store(float *s) {{\n{}}}\n__global__ void k(float *out) {{\n    __shared__ float s[16 * {stride}];\n    store<{ty}>(s);\n    out[threadIdx.x] = s[threadIdx.x];\n}}\nvoid launch(float *o) {{ k<<<1, 32>>>(o); }}\n",
            body("T_C")
        ),
        Spelling::Traits => format!(
            "template <int DV> __global__ void k(float *out) {{\n    using T_C = typename tile_sizes<DV>::T_C;\n    __shared__ float s[16 * {stride}];\n{}    out[threadIdx.x] = s[threadIdx.x];\n}}\ntemplate __global__ void k<{}>(float *);\n",
            body("T_C"),
            kind.dv()
        ),
    };
    format!("{}\n{kernel}", tiles())
}

/// The worst wavefronts of one warp's store over the tile's elements: per bank, the
/// number of distinct words its lanes touch.
fn enumerated_worst(kind: Kind, stride: u32) -> usize {
    (0..kind.ne())
        .map(|l| {
            let mut banks: HashMap<i64, HashSet<i64>> = HashMap::new();
            for t in 0..32 {
                let (i, j) = kind.element(l, t);
                let word = i * i64::from(stride) + j;
                banks.entry(word % 32).or_default().insert(word);
            }
            banks.values().map(HashSet::len).max().unwrap_or(0)
        })
        .max()
        .unwrap_or(0)
}

fn store_verdict(src: &str) -> (Status, Option<f64>, bool, Option<String>) {
    let report = bankcheck::check_source("k.cu", src.as_bytes(), &Settings::default());
    let a = report
        .accesses
        .iter()
        .find(|a| a.array == "s" && a.kind == bankcheck::diag::AccessKind::Store)
        .expect("the store is recorded");
    (
        a.status,
        a.conflict_factor,
        a.exact && !a.factor_is_lower_bound,
        a.reason.clone(),
    )
}

#[test]
fn member_index_helpers_agree_with_enumeration() {
    for kind in [Kind::I8x8, Kind::I16x8, Kind::J16x16] {
        for stride in 8..=24 {
            for spelling in [
                Spelling::Direct,
                Spelling::Typedef,
                Spelling::TypeArgument,
                Spelling::Traits,
            ] {
                let src = source(kind, stride, spelling);
                let (status, factor, exact, reason) = store_verdict(&src);
                let worst = enumerated_worst(kind, stride);
                let case = format!("{kind:?} stride {stride} {spelling:?}");
                match status {
                    Status::Ok => assert_eq!(worst, 1, "{case}: `ok` but {worst}-way"),
                    Status::Conflict => {
                        assert!(exact, "{case}: a conflict that is not exact");
                        let f = factor.unwrap_or(0.0);
                        assert!(
                            (f - worst as f64).abs() < 1e-9,
                            "{case}: {f}-way reported, {worst}-way enumerated"
                        );
                    }
                    Status::Unknown => panic!("{case}: unknown ({reason:?})"),
                }
            }
        }
    }
}

#[test]
fn a_tile_type_not_known_stays_unknown() {
    // A template type argument no instantiation fixes.
    let src = format!(
        "{}\ntemplate <typename T_C> __global__ void k(float *out) {{\n    __shared__ float s[16 * 16];\n    for (int l = 0; l < 4; ++l) {{\n        s[T_C::get_i(l) * 16 + T_C::get_j(l)] = 1.0f;\n    }}\n}}\n",
        tiles()
    );
    let (status, _, _, reason) = store_verdict(&src);
    assert_eq!(status, Status::Unknown);
    let reason = reason.unwrap_or_default();
    assert!(
        reason.contains("`T_C` is a template type parameter"),
        "reason: {reason}"
    );
    // A traits struct with specialisations, its argument not known: which `T_C` it
    // names is not decided, so neither is the tile.
    let src = format!(
        "{}\ntemplate <int DV> __global__ void k(float *out) {{\n    using T_C = typename tile_sizes<DV>::T_C;\n    __shared__ float s[16 * 16];\n    for (int l = 0; l < 4; ++l) {{\n        s[T_C::get_i(l) * 16 + T_C::get_j(l)] = 1.0f;\n    }}\n}}\n",
        tiles()
    );
    let (status, _, _, reason) = store_verdict(&src);
    assert_eq!(status, Status::Unknown);
    let reason = reason.unwrap_or_default();
    assert!(reason.contains("is not followed"), "reason: {reason}");
    // A traits struct each branch of an undecided conditional defines its own way (the
    // macro may come from the header): which tile it names is not decided (at stride 11
    // the two tiles are 3-way and 2-way).
    let src = format!(
        "#include \"arch.h\"\n{}\n#if defined(ARCH_A)\ntemplate <int DV> struct pick_sizes {{ using T_C = tile<8, 8, float>; }};\n#else\ntemplate <int DV> struct pick_sizes {{ using T_C = tile<16, 8, float>; }};\n#endif\ntemplate <int DV> __global__ void k(float *out) {{\n    using T_C = typename pick_sizes<DV>::T_C;\n    __shared__ float s[16 * 11];\n    for (int l = 0; l < 2; ++l) {{\n        s[T_C::get_i(l) * 11 + T_C::get_j(l)] = 1.0f;\n    }}\n}}\ntemplate __global__ void k<80>(float *);\n",
        tiles()
    );
    let (status, _, _, reason) = store_verdict(&src);
    assert_eq!(status, Status::Unknown, "reason: {reason:?}");
    // A tile whose arguments no specialisation matches is the empty primary template:
    // it has no `get_i`, and the call is not taken for data.
    let src = format!(
        "{}\n__global__ void k(float *out) {{\n    typedef tile<16, 8, int, LAYOUT_J_MAJOR> bad;\n    __shared__ float s[16 * 16];\n    s[bad::get_i(0) * 16] = 1.0f;\n}}\nvoid launch(float *o) {{ k<<<1, 32>>>(o); }}\n",
        tiles()
    );
    let (status, _, _, reason) = store_verdict(&src);
    assert_eq!(status, Status::Unknown);
    let reason = reason.unwrap_or_default();
    assert!(
        reason.contains("has no member function `get_i`"),
        "reason: {reason}"
    );
}

#[test]
fn a_specialisation_is_not_chosen_by_a_stand_in_type() {
    // `T` is fixed by nothing, so bankcheck tries a type of each element size; `pick<T>`
    // has a specialisation for `float`, a 4-byte type like the stand-in `int`: which
    // definition is meant depends on the type itself (for `float`, a 2-way conflict), so
    // no size may decide it.
    let src = r"
template <typename T> struct pick {
    static __device__ int row() { return threadIdx.x; }
};
template <> struct pick<float> {
    static __device__ int row() { return threadIdx.x * 2; }
};
template <typename T> __global__ void k(T *out) {
    __shared__ T s[64];
    s[pick<T>::row()] = out[0];
}
void launch(float *o) { }
";
    let (status, _, _, reason) = store_verdict(src);
    assert_eq!(status, Status::Unknown, "reason: {reason:?}");
    // With the type fixed, the specialisation decides: `float` is 2-way.
    let fixed = format!("{src}\ntemplate __global__ void k<float>(float *);\n");
    let (status, factor, exact, _) = store_verdict(&fixed);
    assert_eq!((status, factor, exact), (Status::Conflict, Some(2.0), true));
}
