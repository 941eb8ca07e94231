//! Cross-file context: launches in another file of the run fix a kernel's block shape,
//! and quoted includes provide constants and types.

use bankcheck::config::Settings;
use bankcheck::driver::Session;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn index(files: &[(&str, &str)]) -> Session {
    let map: HashMap<PathBuf, Vec<u8>> = files
        .iter()
        .map(|(p, t)| (PathBuf::from(p), t.as_bytes().to_vec()))
        .collect();
    let mut session = Session::new().with_headers(
        vec![PathBuf::from("inc")],
        Box::new(move |p: &Path| map.get(p).cloned()),
    );
    session.index(files, |(p, t)| Some((PathBuf::from(p), t.to_string())));
    session
}

/// `path`, one of `files`, checked in a run of all of them with the default settings.
fn check_among(files: &[(&str, &str)], path: &str) -> bankcheck::FileReport {
    let text = files.iter().find(|(p, _)| *p == path).map_or("", |f| f.1);
    index(files).check(path, text.as_bytes(), &Settings::default())
}

/// The report read the whole file (no parse error) and its first access is `factor`-way.
fn assert_read_with_factor(r: &bankcheck::FileReport, factor: f64) {
    assert!(
        r.diagnostics.iter().all(|d| d.rule != "parse-error"),
        "{:?}",
        r.diagnostics
    );
    assert_eq!(
        r.accesses.first().and_then(|a| a.conflict_factor),
        Some(factor),
        "{:?}",
        r.accesses
    );
}

const PARAMS: &str = "#pragma once\n#define TILE 16\nconstexpr int kRows = 4;\n";
const KERNEL: &str = r#"#include "params.h"
__global__ void k(float* o) {
    __shared__ float s[TILE * TILE];
    o[threadIdx.x] = s[threadIdx.x * (blockDim.x / 2)];
}
"#;
const LAUNCHER: &str = r#"#include "../inc/params.h"
void run(float* o) {
    dim3 block(TILE, kRows);
    k<<<1, block>>>(o);
}
"#;

#[test]
fn a_launch_in_another_file_fixes_the_block_shape() {
    let files = [
        ("inc/params.h", PARAMS),
        ("src/kernel.cu", KERNEL),
        ("src/launch.cu", LAUNCHER),
    ];
    let session = index(&files);
    let r = session.check("src/kernel.cu", KERNEL.as_bytes(), &Settings::default());
    assert_eq!(r.accesses.len(), 1, "{:?}", r.accesses);
    let a = &r.accesses[0];
    // blockDim = (16, 4) from the launcher: a warp is two rows of 16 lanes that read the
    // same 16 words (broadcast), 8 words apart: 4 banks, 4 words each.
    assert_eq!(a.conflict_factor, Some(4.0), "{a:?}");
    assert!(a.assumptions.is_empty(), "{:?}", a.assumptions);
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.rule != "parse-error")
        .expect("a diagnostic");
    assert!(
        d.notes.iter().any(|n| n.contains("src/launch.cu")),
        "{:?}",
        d.notes
    );
}

#[test]
fn without_the_index_the_shape_is_assumed_and_said() {
    let r = bankcheck::check_source("src/kernel.cu", KERNEL.as_bytes(), &Settings::default());
    let a = &r.accesses[0];
    assert!(
        a.assumptions.iter().any(|s| s.contains("assumed")),
        "{:?}",
        a.assumptions
    );
}

const SHADER: &str = r#"#include "tile_size.h"
groupshared float tile[TILE][TILE];
[numthreads(TILE, TILE, 1)]
void main(uint3 t : SV_GroupThreadID) {
    tile[t.x][t.y] = 0;
}
"#;

fn check_shader(files: &[(&str, &str)]) -> Option<f64> {
    let session = index(files);
    let r = session.check("shaders/blur.hlsl", SHADER.as_bytes(), &Settings::default());
    r.accesses.first().and_then(|a| a.conflict_factor)
}

#[test]
fn an_include_outside_the_include_path_is_found_by_its_unique_name() {
    // The build passes `-I lib/config`; bankcheck is not told, but only one file of the
    // run is called tile_size.h. TILE = 32: a column walk, every lane in one bank.
    let header = ("lib/config/tile_size.h", "#define TILE 32\n");
    assert_eq!(
        check_shader(&[header, ("shaders/blur.hlsl", SHADER)]),
        Some(32.0)
    );
    // Two candidates: bankcheck does not guess between them.
    let other = ("lib/other/tile_size.h", "#define TILE 8\n");
    assert_eq!(
        check_shader(&[header, other, ("shaders/blur.hlsl", SHADER)]),
        None
    );
}

#[test]
fn of_several_copies_of_a_header_the_one_in_the_includers_project_is_read() {
    // Two projects of one checkout each carry `tile_size.h` at their root and build with
    // `-I` to it; the shader is in the first. Its copy (TILE 32: a column walk, 32-way)
    // is in a folder enclosing the shader; the other project's is not.
    let mine = ("samples/blur/tile_size.h", "#define TILE 32\n");
    let theirs = ("samples/other/tile_size.h", "#define TILE 8\n");
    let session = index(&[mine, theirs, ("samples/blur/shaders/blur.hlsl", SHADER)]);
    let r = session.check(
        "samples/blur/shaders/blur.hlsl",
        SHADER.as_bytes(),
        &Settings::default(),
    );
    assert_eq!(
        r.accesses.first().and_then(|a| a.conflict_factor),
        Some(32.0)
    );
    // Two enclosing copies: the nearer one, in `shaders/` (TILE 8: an 8x8 block, a warp
    // of rows x = 0..7 and y = 0..3 at words 8x + y, two words per bank: 2-way).
    let nested = ("samples/blur/shaders/tile_size.h", "#define TILE 8\n");
    let inner = ("samples/blur/shaders/inner/blur.hlsl", SHADER);
    let session = index(&[mine, nested, inner]);
    let r = session.check(inner.0, SHADER.as_bytes(), &Settings::default());
    assert_eq!(
        r.accesses.first().and_then(|a| a.conflict_factor),
        Some(2.0),
        "the nearer copy, in shaders/, is read"
    );
}

const UNROLLED: &str = r"#include <lib/device.h>
__global__ void k(float* out) {
    __shared__ float s[32 * 32];
    LIB_UNROLL
    for (int l = 0; l < 4; ++l) {
        s[threadIdx.x * 32 + l] = out[l];
    }
}
void run(float* o) { k<<<1, 32>>>(o); }
";

#[test]
fn macros_of_headers_included_in_angle_brackets_are_read() {
    // The project's own headers, included as `<lib/...>` (the build passes `-I include`),
    // the second from the first: its unroll macro stands before a loop, and unread it
    // leaves the loop unparsed. Read, the column walk is found: 32-way.
    let files = [
        ("include/lib/device.h", "#pragma once\n#include <lib/common.h>\n"),
        (
            "include/lib/common.h",
            "#pragma once\n#if defined(__CUDA_ARCH__)\n#define LIB_UNROLL _Pragma(\"unroll\")\n#else\n#define LIB_UNROLL\n#endif\n",
        ),
        ("src/k.cu", UNROLLED),
    ];
    assert_read_with_factor(&check_among(&files, "src/k.cu"), 32.0);
}

#[test]
fn a_header_reads_the_qualifier_macros_its_includer_defines_first() {
    // A library's kernels header that is not self-contained: `LIB_KERNEL` comes from a
    // header that the umbrella header includes before it (in angle brackets, as
    // `-I include` builds do). Checked on its own, the kernel's head must still read.
    const KERNELS: &str = "template <int B>\nLIB_KERNEL void k(float* o) {\n    __shared__ float s[32 * 32];\n    o[threadIdx.x] = s[threadIdx.x * 32];\n}\n";
    let files = [
        (
            "include/lib/detail/util.cuh",
            "#pragma once\n#define LIB_KERNEL __attribute__((visibility(\"hidden\"))) __global__\n",
        ),
        (
            "include/lib/map.cuh",
            "#pragma once\n#include <lib/detail/util.cuh>\n#include <lib/detail/kernels.cuh>\n",
        ),
        ("include/lib/detail/kernels.cuh", KERNELS),
    ];
    assert_read_with_factor(&check_among(&files, "include/lib/detail/kernels.cuh"), 32.0);
}

#[test]
fn each_helper_of_a_header_is_analysed_through_its_own_includers() {
    // Five files call `put_a`; only the sixth calls `put_b`. Choosing the first few
    // includers that name any helper missed `put_b` (32-way) altogether.
    const HEADER: &str = "#pragma once\n\
        __device__ void put_a(float* s) { s[threadIdx.x * 2] = 1.0f; }\n\
        __device__ void put_b(float* s) { s[threadIdx.x * 32] = 1.0f; }\n";
    let calling = |helper: &str| {
        format!(
            "#include \"../inc/util.cuh\"\n__global__ void k(float* o) {{\n    __shared__ float s[1024];\n    {helper}(s);\n    o[0] = s[0];\n}}\nvoid run(float* o) {{ k<<<1, 32>>>(o); }}\n"
        )
    };
    let mut owned: Vec<(String, String)> = (0..5)
        .map(|i| (format!("src/a{i}.cu"), calling("put_a")))
        .collect();
    owned.push(("src/b.cu".to_string(), calling("put_b")));
    owned.push(("inc/util.cuh".to_string(), HEADER.to_string()));
    let files: Vec<(&str, &str)> = owned
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let session = index(&files);
    let r = session.check("inc/util.cuh", HEADER.as_bytes(), &Settings::default());
    let factor_on = |line: usize| {
        r.accesses
            .iter()
            .filter(|a| HEADER[..a.span.start].matches('\n').count() + 1 == line)
            .filter_map(|a| a.conflict_factor)
            .fold(None, |m: Option<f64>, f| Some(m.map_or(f, |m| m.max(f))))
    };
    assert_eq!(factor_on(2), Some(2.0), "{:?}", r.accesses);
    assert_eq!(factor_on(3), Some(32.0), "{:?}", r.accesses);
}

const GROUPS: &str = r"#pragma once
namespace SortRays {
    namespace ThreadGroup { enum Enum { Width = 64, Size = Width * 2 }; }
}
namespace Filter {
    static const uint Radius = 1;
    static const uint Width = 1 + 2 * Radius;
}
";
const FILTER: &str = r#"#include "groups.h"
groupshared float s[4096];
[numthreads(32, 1, 1)]
void main(uint GI : SV_GroupIndex)
{
    s[GI * Filter::Width] = 0;
    s[GI * Width] = 0;
    s[GI * SortRays::ThreadGroup::Size] = 0;
}
"#;

#[test]
fn a_name_several_namespaces_define_is_read_only_qualified() {
    // `Filter::Width` is 3: words 3 * lane, all banks distinct (1-way). The bare `Width`
    // is `Filter::Width` or `SortRays::ThreadGroup::Width` (64: 32-way): neither is
    // guessed. `Size` is read in its own namespace: 128, every lane in bank 0 (32-way).
    let header = ("shaders/groups.h", GROUPS);
    let check = |shader: &str| {
        let session = index(&[header, ("shaders/filter.hlsl", shader)]);
        session.check(
            "shaders/filter.hlsl",
            shader.as_bytes(),
            &Settings::default(),
        )
    };
    let r = check(FILTER);
    let factors: Vec<_> = r.accesses.iter().map(|a| a.conflict_factor).collect();
    assert_eq!(factors, [Some(1.0), None, Some(32.0)]);
    let reason = r.accesses[1].reason.as_deref().unwrap_or_default();
    assert!(
        reason.contains("`Filter::Width`") && reason.contains("`SortRays::ThreadGroup::Width`"),
        "{reason}"
    );
    // A definition at file scope owns the bare name: 2, two lanes per bank (2-way).
    let own = FILTER.replace("groupshared", "static const uint Width = 2;\ngroupshared");
    let r = check(&own);
    let factors: Vec<_> = r.accesses.iter().map(|a| a.conflict_factor).collect();
    assert_eq!(factors, [Some(1.0), Some(2.0), Some(32.0)]);
}

#[test]
fn a_launch_binds_to_the_kernel_its_own_file_defines() {
    // Two files each define their own `k`; only the first launches it, with one thread.
    const OWN: &str = r"__global__ void k(float* o) {
    __shared__ float s[64 * 64];
    o[threadIdx.x] = s[threadIdx.x * 64];
}
void run(float* o) { k<<<1, 1>>>(o); }
";
    const OTHER: &str = r"__global__ void k(float* o) {
    __shared__ float s[32 * 32];
    o[threadIdx.x] = s[threadIdx.x * 32];
}
";
    let files = [("a.cu", OWN), ("b.cu", OTHER)];
    let session = index(&files);
    let r = session.check("b.cu", OTHER.as_bytes(), &Settings::default());
    assert_eq!(r.accesses.len(), 1, "{:?}", r.accesses);
    // `a.cu`'s launch is of `a.cu`'s kernel: `b.cu`'s keeps the candidate shapes, and a
    // stride of 32 words puts a full warp in one bank.
    assert_eq!(
        r.accesses[0].conflict_factor,
        Some(32.0),
        "{:?}",
        r.accesses[0]
    );
    let r = session.check("a.cu", OWN.as_bytes(), &Settings::default());
    assert_eq!(
        r.accesses[0].conflict_factor,
        Some(1.0),
        "{:?}",
        r.accesses[0]
    );
}

#[test]
fn a_header_helper_reached_from_two_kernels_names_each_kernel() {
    // One helper, two kernels in two includers: stride 1 from `k`, 32 from `k2`. The
    // candidate block shapes are the same for both, so the verdict is told per kernel.
    const UTIL: &str = r"__device__ void fill(float* s, int st) {
    s[threadIdx.x * st] = 1.0f;
}
";
    const K1: &str = r#"#include "util.cuh"
__global__ void k() {
    __shared__ float a[32 * 32];
    fill(a, 1);
}
"#;
    const K2: &str = r#"#include "util.cuh"
__global__ void k2() {
    __shared__ float b[32 * 32];
    fill(b, 32);
}
"#;
    let files = [("util.cuh", UTIL), ("k1.cu", K1), ("k2.cu", K2)];
    let session = index(&files);
    let r = session.check("util.cuh", UTIL.as_bytes(), &Settings::default());
    assert_eq!(r.accesses.len(), 1, "{:?}", r.accesses);
    let a = &r.accesses[0];
    assert_eq!(a.conflict_factor, Some(32.0), "{a:?}");
    let condition = a.condition.as_deref().unwrap_or("");
    assert!(
        condition.contains("32-way with every candidate block from `k2`")
            && condition.contains("conflict-free with every candidate block from `k`"),
        "{condition}"
    );
    assert!(!a.depends_on.iter().any(|d| d == "block shape"), "{a:?}");
}

/// A kernel header reached through an umbrella header, instantiated by the umbrella's
/// includer with `const` locals of the launching function (SGEMM_CUDA's `runner.cu`
/// includes `kernels.cuh`, which includes each kernel's header).
const TILED_KERNEL: &str = r"#pragma once
template <const int BM, const int BK>
__global__ void tiled(const float* a) {
    __shared__ float As[BM * BK];
    const int r = threadIdx.x / BK;
    const int c = threadIdx.x % BK;
    As[c * BM + r] = a[threadIdx.x];
}
";
const UMBRELLA: &str = "#pragma once\n#include \"kernels/tiled.cuh\"\n";
const RUNNER: &str = r#"#include "kernels.cuh"
void run_tiled(const float* a, int m) {
    if (m > 4) {
        const unsigned BM = 64;
        const unsigned BK = 8;
        dim3 block((BM * BK) / 2);
        tiled<BM, BK><<<1, block>>>(a);
    } else {
        const unsigned BM = 32;
        const unsigned BK = 4;
        tiled<BM, BK><<<1, 128>>>(a);
    }
}
"#;

#[test]
fn a_kernel_header_is_instantiated_through_an_umbrella_header_with_host_constants() {
    let files = [
        ("src/kernels/tiled.cuh", TILED_KERNEL),
        ("src/kernels.cuh", UMBRELLA),
        ("src/runner.cu", RUNNER),
    ];
    let r = check_among(&files, "src/kernels/tiled.cuh");
    assert_eq!(r.accesses.len(), 1, "{:?}", r.accesses);
    let a = &r.accesses[0];
    // <64, 8> in 256 threads: a warp is rows r = 0..3 of columns c = 0..7, word 64c + r:
    // bank r for every c, 8 words per bank, 8-way. <32, 4> in 128 threads: rows 0..7 of
    // columns 0..3, word 32c + r: bank r, 4 words each, 4-way. The worst is 8-way, for
    // these values only: no template value is taken as any value.
    assert_eq!(a.conflict_factor, Some(8.0), "{a:?}");
    assert!(
        !a.assumptions
            .iter()
            .any(|s| s.contains("template parameter")),
        "{:?}",
        a.assumptions
    );
}
