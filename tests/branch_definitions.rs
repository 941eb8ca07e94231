//! Issue 16, item 4 follow-up: definitions made per branch of a conditional bankcheck's
//! front end leaves whole, as ggml writes them.
//!
//! - Member functions and static members defined in conditional groups of a struct body
//!   (ggml's `mma.cuh`: `tile<I, J, T>::get_i`/`get_j`/`ne` once per architecture) are
//!   read from the branch the known macros select, as a device compilation for the
//!   default `__CUDA_ARCH__` (900, said in an assumption) with names nobody defines not
//!   defined. Under each configuration (the default, `-D __CUDA_ARCH__=700`, a HIP build
//!   for CDNA) and every row stride from 8 to 24 floats, the verdict must be decided and
//!   equal to a plain enumeration of that branch's lane-to-element maps under the bank
//!   model (32 banks of 4 bytes, one warp of 32 lanes, one wavefront per distinct word in
//!   a bank). A branch whose condition cannot be decided leaves the call `unknown`, naming
//!   the condition.
//! - ggml's `GGML_UNUSED_VARS(tile_Q, ...)` (under `__CUDACC__` a variadic macro handing its
//!   arguments to a function template that does nothing) accesses nothing, while a
//!   variadic macro handing a shared array to a helper that indexes it is followed into
//!   the helper (its verdict enumerated for strides 1 to 8), and a macro defined per
//!   branch of an undecided conditional stays `unknown`.

use bankcheck::config::Settings;
use bankcheck::diag::{AccessFacts, AccessKind, Status};
use bankcheck::driver::Session;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

const HEADER: &str = include_str!("fixtures/cuda/idioms/member_function_branches.cuh");
const FIXTURE: &str = include_str!("fixtures/cuda/idioms/member_function_branches.cu");
const VARIADIC_HEADER: &str = include_str!("fixtures/cuda/idioms/variadic_macros.h");
const VARIADIC: &str = include_str!("fixtures/cuda/idioms/variadic_macros.cu");

/// Checks `main` (`k.cu`) in a run with `files`, as the command line would.
fn check(files: &[(&str, &str)], main: &str, settings: &Settings) -> bankcheck::FileReport {
    let map: HashMap<PathBuf, Vec<u8>> = files
        .iter()
        .map(|(p, t)| (PathBuf::from(p), t.as_bytes().to_vec()))
        .collect();
    let mut session =
        Session::new().with_headers(Vec::new(), Box::new(move |p: &Path| map.get(p).cloned()));
    session.index(files, |(p, t)| Some((PathBuf::from(p), t.to_string())));
    let text = files
        .iter()
        .find(|(p, _)| *p == main)
        .map(|(_, t)| *t)
        .expect("the main file");
    session.check(main, text.as_bytes(), settings)
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The accesses reported on the line of `text` that holds `marker`.
fn on_line<'r>(
    report: &'r bankcheck::FileReport,
    text: &str,
    marker: &str,
) -> Vec<&'r AccessFacts> {
    let at = text.find(marker).expect("the marker is in the text");
    let n = line_of(text, at);
    report
        .accesses
        .iter()
        .filter(|a| line_of(&report.text, a.span.start) == n)
        .collect()
}

/// Which branch of the struct body a configuration compiles, with its lane maps.
#[derive(Debug, Clone, Copy)]
enum Branch {
    Mfma,
    Volta,
    Turing,
}

impl Branch {
    /// `ne` of `btile<16, 8, float>` in this branch.
    fn ne(self) -> i64 {
        match self {
            Branch::Mfma => 16 * 8 / 64,
            Branch::Volta | Branch::Turing => 16 * 8 / 32,
        }
    }

    /// Row and column of element `l` of lane `t`, as the branch's `get_i`/`get_j` say.
    fn element(self, l: i64, t: i64) -> (i64, i64) {
        match self {
            Branch::Mfma => (t % 16, 2 * (t / 16) + l),
            Branch::Volta => ((l & 2) + (t & !2), (t & 2) + (l & 5)),
            Branch::Turing => ((l / 2) * 8 + t / 4, (t % 4) * 2 + l % 2),
        }
    }
}

/// The worst wavefronts of one warp's store over the tile's elements.
fn enumerated_worst(branch: Branch, stride: i64) -> usize {
    (0..branch.ne())
        .map(|l| {
            let mut banks: HashMap<i64, HashSet<i64>> = HashMap::new();
            for t in 0..32 {
                let (i, j) = branch.element(l, t);
                let word = i * stride + j;
                banks.entry(word.rem_euclid(32)).or_default().insert(word);
            }
            banks.values().map(HashSet::len).max().unwrap_or(0)
        })
        .max()
        .unwrap_or(0)
}

/// The fixture's struct (up to its first kernel) and one kernel storing a
/// `btile<16, 8, float>` at `stride` floats per row.
fn tile_source(stride: i64) -> String {
    let end = FIXTURE
        .find("__global__")
        .expect("the fixture's first kernel");
    format!(
        "{}\n__global__ void k(float *out) {{\n    typedef btile<16, 8, float> tile_C;\n    __shared__ float s[16 * {stride}];\n    for (int l = 0; l < tile_C::ne; ++l) {{\n        s[tile_C::get_i(l) * {stride} + tile_C::get_j(l)] = 1.0f; // store\n    }}\n    out[threadIdx.x] = s[threadIdx.x];\n}}\nvoid launch(float *o) {{ k<<<1, 32>>>(o); }}\n",
        &FIXTURE[..end]
    )
}

#[test]
fn member_functions_per_branch_agree_with_enumeration() {
    let default = Settings::default();
    let mut volta = Settings::default();
    volta
        .defines
        .insert("__CUDA_ARCH__".to_string(), "700".to_string());
    let mut cdna = Settings::default();
    for m in ["MFB_USE_HIP", "MFB_CDNA"] {
        cdna.defines.insert(m.to_string(), "1".to_string());
    }
    let configurations = [
        ("default", &default, Branch::Turing),
        ("__CUDA_ARCH__=700", &volta, Branch::Volta),
        ("HIP for CDNA", &cdna, Branch::Mfma),
    ];
    for (name, settings, branch) in configurations {
        for stride in 8..=24 {
            let src = tile_source(stride);
            let files = [("member_function_branches.cuh", HEADER), ("k.cu", &src)];
            let report = check(&files, "k.cu", settings);
            let store = on_line(&report, &src, "// store");
            let a = store
                .iter()
                .find(|a| a.kind == AccessKind::Store)
                .expect("the store is recorded");
            let worst = enumerated_worst(branch, stride);
            let case = format!("{name}, stride {stride}");
            match a.status {
                Status::Ok => assert_eq!(worst, 1, "{case}: `ok` but {worst}-way"),
                Status::Conflict => {
                    assert!(a.exact && !a.factor_is_lower_bound, "{case}: not exact");
                    let f = a.conflict_factor.unwrap_or(0.0);
                    assert!(
                        (f - worst as f64).abs() < 1e-9,
                        "{case}: {f}-way reported, {worst}-way enumerated"
                    );
                }
                Status::Unknown => panic!("{case}: unknown ({:?})", a.reason),
            }
            // The architecture is said where it decided the branch (a HIP build's branch is
            // taken before any test of it is read), and only there.
            let assumed = a
                .assumptions
                .iter()
                .any(|s| s.contains("`__CUDA_ARCH__` is taken as 900"));
            assert_eq!(assumed, name == "default", "{case}: {:?}", a.assumptions);
        }
    }
}

#[test]
fn an_undecided_branch_leaves_the_call_unknown_naming_the_condition() {
    let files = [
        ("member_function_branches.cuh", HEADER),
        ("member_function_branches.cu", FIXTURE),
    ];
    let report = check(&files, "member_function_branches.cu", &Settings::default());
    let sites = on_line(&report, FIXTURE, "s[depth_tile<1>::get_i(0)]");
    assert_unknown_naming(&sites, &["cannot decide", "`#if MFB_DEPTH > 2`"]);
}

/// Every site of `sites` (at least one) is `unknown` with a reason holding `words`.
fn assert_unknown_naming(sites: &[&AccessFacts], words: &[&str]) {
    assert!(!sites.is_empty());
    for a in sites {
        assert_eq!(a.status, Status::Unknown);
        let reason = a.reason.clone().unwrap_or_default();
        assert!(words.iter().all(|w| reason.contains(w)), "reason: {reason}");
    }
}

#[test]
fn arrays_handed_to_a_function_that_does_nothing_are_not_accessed() {
    let files = [
        ("variadic_macros.h", VARIADIC_HEADER),
        ("variadic_macros.cu", VARIADIC),
    ];
    let report = check(&files, "variadic_macros.cu", &Settings::default());
    // `vm_iter(s, q, n)` compiles `VM_UNUSED_VARS(tile, other, n)`: no access of its
    // own (its other configuration's accesses are checked apart, and decided).
    for a in on_line(&report, VARIADIC, "vm_iter(s, q, n);") {
        assert_ne!(a.status, Status::Unknown, "{:?}", a.reason);
    }
    // `(void)(s)` and `(void)q` read nothing.
    assert!(on_line(&report, VARIADIC, "VM_UNUSED(s);").is_empty());
    assert!(on_line(&report, VARIADIC, "(void)q;").is_empty());
    // The helper a variadic macro hands the array to is followed.
    let forwarded = on_line(&report, VARIADIC, "VM_FORWARD(s, 2);");
    assert!(forwarded
        .iter()
        .any(|a| a.status == Status::Conflict && a.conflict_factor == Some(2.0)));
    // A macro defined per branch of an undecided conditional is not guessed.
    let touched = on_line(&report, VARIADIC, "VM_TOUCH(p, threadIdx.x);");
    assert_unknown_naming(&touched, &["`VM_TOUCH`", "`#if VM_DEPTH > 2`"]);
}

#[test]
fn a_variadic_macro_forwarding_to_a_helper_agrees_with_enumeration() {
    for stride in 1..=8i64 {
        let src = format!(
            "#define FORWARD(...) store(__VA_ARGS__)\n__device__ void store(float *t, int s) {{ t[threadIdx.x * s] = 1.0f; }}\n__global__ void k(float *out) {{\n    __shared__ float s[32 * 8];\n    FORWARD(s, {stride}); // call\n    out[threadIdx.x] = s[threadIdx.x];\n}}\nvoid launch(float *o) {{ k<<<1, 32>>>(o); }}\n"
        );
        let report = bankcheck::check_source("k.cu", src.as_bytes(), &Settings::default());
        let sites = on_line(&report, &src, "// call");
        let a = sites
            .iter()
            .find(|a| a.kind == AccessKind::Store)
            .expect("the helper's store is reported at the macro's use");
        let mut banks: HashMap<i64, HashSet<i64>> = HashMap::new();
        for t in 0..32 {
            banks
                .entry((t * stride) % 32)
                .or_default()
                .insert(t * stride);
        }
        let worst = banks.values().map(HashSet::len).max().unwrap_or(0);
        let factor = match a.status {
            Status::Ok => 1.0,
            Status::Conflict => a.conflict_factor.unwrap_or(0.0),
            Status::Unknown => panic!("stride {stride}: unknown ({:?})", a.reason),
        };
        assert!(
            (factor - worst as f64).abs() < 1e-9,
            "stride {stride}: {factor}-way reported, {worst}-way enumerated"
        );
    }
}
