//! Preprocessor conditionals in bodies follow the defines of the settings (`-D`,
//! `defines` in lint.toml), valued or not; so do file-scope constants defined once per
//! branch of a conditional the front end leaves whole.

use bankcheck::config::Settings;
use bankcheck::diag::Status;

const KERNEL: &str = r"
groupshared float tile[64 * 2];
[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex)
{
#ifdef STRIDED
    uint i = gi * 2;
#else
    uint i = gi;
#endif
    tile[i] = 0;
}
";

fn factor(settings: &Settings) -> (Status, Option<f64>, Vec<String>) {
    let report = bankcheck::check_source("k.hlsl", KERNEL.as_bytes(), settings);
    let a = &report.accesses[0];
    (a.status, a.conflict_factor, a.assumptions.clone())
}

#[test]
fn ifdef_follows_settings_defines() {
    let mut settings = Settings::default();
    let (status, f, assumptions) = factor(&settings);
    assert_eq!((status, f), (Status::Ok, Some(1.0)));
    assert!(assumptions.iter().any(|a| a.contains("`STRIDED`")));
    for value in ["1", "", "yes please"] {
        settings.defines.insert("STRIDED".into(), value.into());
        let (status, f, assumptions) = factor(&settings);
        assert_eq!(
            (status, f),
            (Status::Conflict, Some(2.0)),
            "STRIDED={value}"
        );
        assert!(!assumptions.iter().any(|a| a.contains("`STRIDED`")));
    }
}

/// `kWarpSize` per branch of `#ifndef USE_WIDE` (no file defines it; a build flag may).
const PER_BRANCH: &str = r"
#ifndef USE_WIDE
constexpr int kWarpSize = 32;
#else
constexpr int kWarpSize = 16;
#endif
__global__ void k(float* o) {
    __shared__ float s[32 * 64];
    s[threadIdx.x * kWarpSize] = 0;
}
void run(float* o) { k<<<1, 32>>>(o); }
";

fn per_branch(text: &str, settings: &Settings) -> (Option<f64>, Option<String>, Vec<String>) {
    let report = bankcheck::check_source("k.cu", text.as_bytes(), settings);
    let a = &report.accesses[0];
    (a.conflict_factor, a.reason.clone(), a.assumptions.clone())
}

#[test]
fn a_constant_defined_per_branch_takes_the_branch_the_macros_select() {
    // Not defined: 32, every lane in bank 0 (32-way), the assumption said. The text's
    // last definition (16) was read before.
    let (f, _, assumptions) = per_branch(PER_BRANCH, &Settings::default());
    assert_eq!(f, Some(32.0));
    assert!(
        assumptions.iter().any(|a| a.contains("`USE_WIDE`")),
        "{assumptions:?}"
    );
    // Defined: 16, lanes 2 apart share a bank (16-way).
    let mut settings = Settings::default();
    settings.defines.insert("USE_WIDE".into(), String::new());
    let (f, _, assumptions) = per_branch(PER_BRANCH, &settings);
    assert_eq!(f, Some(16.0));
    assert!(!assumptions.iter().any(|a| a.contains("`USE_WIDE`")));
    // `#if WIDTH > 32`, WIDTH defined nowhere: 0, so the `#else` (16-way), said; with
    // WIDTH=64 the first branch (32-way).
    let compared = PER_BRANCH.replace("#ifndef USE_WIDE", "#if WIDTH > 32");
    let (f, _, assumptions) = per_branch(&compared, &Settings::default());
    assert_eq!(f, Some(16.0));
    assert!(
        assumptions.iter().any(|a| a.contains("`WIDTH`")),
        "{assumptions:?}"
    );
    let mut settings = Settings::default();
    settings.defines.insert("WIDTH".into(), "64".into());
    assert_eq!(per_branch(&compared, &settings).0, Some(32.0));
    // A macro defined per branch, its condition on a macro defined in another branch:
    // `WIDE` is defined (its branch is taken), so `TILE` is 32.
    let chained = r"
#ifndef NARROW
#define WIDE 1
#endif
#if WIDE
#define TILE 32
#else
#define TILE 16
#endif
__global__ void k(float* o) {
    __shared__ float s[32 * 64];
    s[threadIdx.x * TILE] = 0;
}
void run(float* o) { k<<<1, 32>>>(o); }
";
    assert_eq!(per_branch(chained, &Settings::default()).0, Some(32.0));
    let mut settings = Settings::default();
    settings.defines.insert("NARROW".into(), String::new());
    assert_eq!(per_branch(chained, &settings).0, Some(16.0));
}

/// A kernel whose padding depends on the target and the toolkit: nvcc defines
/// `__CUDA_ARCH__` and `CUDART_VERSION` in every device compilation.
const TOOLCHAIN: &str = r"
__global__ void k(float* out) {
    __shared__ float s[32 * 33];
    int pad, skew;
#if __CUDA_ARCH__ >= 800
    pad = 1;
#else
    pad = 0;
#endif
#ifdef __CUDA_ARCH__
    skew = 0;
#else
    skew = 2;
#endif
#if CUDART_VERSION >= 11070
    out[threadIdx.x] = s[threadIdx.x * (32 + pad + skew)];
#endif
}
void run(float* o) { k<<<1, 32>>>(o); }
";

fn toolchain(settings: &Settings) -> (Status, Option<f64>, Vec<String>) {
    let report = bankcheck::check_source("k.cu", TOOLCHAIN.as_bytes(), settings);
    assert_eq!(report.accesses.len(), 1, "{:?}", report.accesses);
    let a = &report.accesses[0];
    (a.status, a.conflict_factor, a.assumptions.clone())
}

#[test]
fn toolchain_macros_are_defined_in_device_code_with_their_value_stated() {
    // Device code: `__CUDA_ARCH__` defined (skew 0), taken as 900 (pad 1), and the
    // access under `CUDART_VERSION >= 11070` is compiled: stride 33, conflict-free.
    let (status, f, assumptions) = toolchain(&Settings::default());
    assert_eq!((status, f), (Status::Ok, Some(1.0)), "{assumptions:?}");
    for name in [
        "`__CUDA_ARCH__` is taken as 900",
        "`CUDART_VERSION` is taken as",
    ] {
        assert!(
            assumptions.iter().any(|a| a.contains(name)),
            "{name}: {assumptions:?}"
        );
    }
    assert!(
        !assumptions.iter().any(|a| a.contains("not defined")),
        "{assumptions:?}"
    );
    assert!(
        !assumptions
            .iter()
            .any(|a| a.contains("another configuration")),
        "{assumptions:?}"
    );
    // An older target, set by the user: pad 0, stride 32, every lane in one bank.
    let mut settings = Settings::default();
    settings
        .defines
        .insert("__CUDA_ARCH__".into(), "700".into());
    let (status, f, assumptions) = toolchain(&settings);
    assert_eq!(
        (status, f),
        (Status::Conflict, Some(32.0)),
        "{assumptions:?}"
    );
    assert!(
        !assumptions.iter().any(|a| a.contains("`__CUDA_ARCH__`")),
        "{assumptions:?}"
    );
    // A toolkit older than the condition asks, set by the user: the access is not compiled.
    settings
        .defines
        .insert("CUDART_VERSION".into(), "11000".into());
    let report = bankcheck::check_source("k.cu", TOOLCHAIN.as_bytes(), &settings);
    assert!(report.accesses.is_empty(), "{:?}", report.accesses);
}

/// The compiler's predefined macros read in a body conditional the front end leaves to
/// the lowering (a name a header may define, `MAYBE`, is in it) as the front end reads
/// them: `__cplusplus` is C++17's in CUDA and never defined in HLSL; nothing about them is
/// stated as assumed. (Taken as not defined, the CUDA kernel was a definite 32-way.)
#[test]
fn predefined_macros_in_bodies_have_the_compilers_values() {
    let cuda = r#"
#include "somewhere.h"
__global__ void k(float* out) {
    __shared__ float s[32 * 33];
    int stride;
#if !defined(MAYBE) && __cplusplus >= 201703L
    stride = 33;
#else
    stride = 32;
#endif
    out[threadIdx.x] = s[threadIdx.x * stride];
}
void run(float* o) { k<<<1, 32>>>(o); }
"#;
    assert_factor_without_cplusplus("k.cu", cuda, 1.0);
    let hlsl = r#"
#include "somewhere.hlsli"
groupshared float tile[64 * 32];
[numthreads(32, 1, 1)]
void main(uint gi : SV_GroupIndex)
{
#if defined(MAYBE) || defined(__cplusplus)
    uint i = gi;
#else
    uint i = gi * 32;
#endif
    tile[i] = 0;
}
"#;
    assert_factor_without_cplusplus("k.hlsl", hlsl, 32.0);
}

fn assert_factor_without_cplusplus(path: &str, text: &str, factor: f64) {
    let report = bankcheck::check_source(path, text.as_bytes(), &Settings::default());
    let a = &report.accesses[0];
    assert_eq!(a.conflict_factor, Some(factor), "{a:?}");
    assert!(
        !a.assumptions.iter().any(|s| s.contains("__cplusplus")),
        "{:?}",
        a.assumptions
    );
}
