//! Cross-file context: launches in another file of the run fix a kernel's block shape,
//! and quoted includes provide constants and types.

use bankcheck::config::Settings;
use bankcheck::driver::Session;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn index(files: &[(&str, &str)]) -> Session {
    index_with_context(files, &[])
}

/// A session that checks `files` and also scans `context`, files the run does not check
/// (the rest of a workspace).
fn index_with_context(files: &[(&str, &str)], context: &[(&str, &str)]) -> Session {
    let map: HashMap<PathBuf, Vec<u8>> = files
        .iter()
        .chain(context)
        .map(|(p, t)| (PathBuf::from(p), t.as_bytes().to_vec()))
        .collect();
    let mut session = Session::new().with_headers(
        vec![PathBuf::from("inc")],
        Box::new(move |p: &Path| map.get(p).cloned()),
    );
    let text_of = |(p, t): &(&str, &str)| Some((PathBuf::from(p), t.to_string()));
    session.index(files, text_of);
    session.index_unchecked(context, text_of);
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
    let files: Vec<(&str, &str)> = owned
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    // The includers are context the run does not check, so the header reports what
    // they reach (checked, each would report its own array's accesses at its call).
    let session = index_with_context(&[("inc/util.cuh", HEADER)], &files);
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
    // The includers are context the run does not check: they report nothing, so the
    // helper's file reports the accesses they reach (a checked includer reports them
    // itself, at its call: see `foreign_helper_accesses_are_reported_by_the_file_of_the_array`).
    let session = index_with_context(&[("util.cuh", UTIL)], &[("k1.cu", K1), ("k2.cu", K2)]);
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

/// tests/fixtures/project/foreign_helper: kernels of two headers hand their own shared
/// arrays to helpers of a third file, which both include.
const FH_UTIL: &str = include_str!("fixtures/project/foreign_helper/util.cu");
const FH_KERN: &str = include_str!("fixtures/project/foreign_helper/kern.cuh");
const FH_KERN2: &str = include_str!("fixtures/project/foreign_helper/kern2.cuh");

fn foreign_helper_session() -> Session {
    index(&[
        ("util.cu", FH_UTIL),
        ("kern.cuh", FH_KERN),
        ("kern2.cuh", FH_KERN2),
    ])
}

/// The 1-based line of byte `at` of `text`.
fn line_at(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// The 1-based line of the first line of `text` containing `needle`.
fn line_of_text(text: &str, needle: &str) -> usize {
    line_at(
        text,
        text.find(needle).unwrap_or_else(|| panic!("{needle}")),
    )
}

#[test]
fn foreign_helper_accesses_are_reported_by_the_file_of_the_array() {
    let session = foreign_helper_session();
    let settings = Settings::default();
    let util = session.check("util.cu", FH_UTIL.as_bytes(), &settings);
    let helper_line = line_of_text(FH_UTIL, "return p[threadIdx.x * stride]");
    // Each kernel's own array, at its call, with the helper's line in the helper's file.
    for (path, text, call, array, factor) in [
        ("kern.cuh", FH_KERN, "load_strided(s, 32)", "s", 32.0),
        ("kern2.cuh", FH_KERN2, "load_strided(t, 1)", "t", 1.0),
    ] {
        let r = session.check(path, text.as_bytes(), &settings);
        assert_eq!(r.arrays.undecided, 0, "{path}: {:?}", r.diagnostics);
        let a = r
            .accesses
            .iter()
            .find(|a| a.array == array)
            .unwrap_or_else(|| panic!("{path}: no access of `{array}`: {:?}", r.accesses));
        assert_eq!(
            line_at(text, a.span.start),
            line_of_text(text, call),
            "{a:?}"
        );
        assert_eq!(a.conflict_factor, Some(factor), "{a:?}");
        let h = a.helper_elsewhere.as_deref().expect("the helper's place");
        assert_eq!((h.path.as_str(), h.line), ("util.cu", helper_line), "{h:?}");
        assert!(
            a.function
                .as_deref()
                .unwrap_or("")
                .starts_with("load_strided"),
            "{a:?}"
        );
    }
    // The helper's file claims no site for another file's array, and says nothing.
    assert!(util.accesses.is_empty(), "{:?}", util.accesses);
    assert!(util.diagnostics.is_empty(), "{:?}", util.diagnostics);
}

#[test]
fn a_suppression_at_the_access_in_another_files_helper_covers_the_call() {
    let session = foreign_helper_session();
    let settings = Settings::default();
    let r = session.check("kern2.cuh", FH_KERN2.as_bytes(), &settings);
    let u = r.accesses.iter().find(|a| a.array == "u").expect("`u`");
    assert_eq!(u.conflict_factor, Some(32.0), "{u:?}");
    assert!(
        !r.diagnostics.iter().any(|d| d.rule == "bank-conflict"),
        "{:?}",
        r.diagnostics
    );
    // The comment in util.cu acts in kern2.cuh: it is not unused.
    let util = session.check("util.cu", FH_UTIL.as_bytes(), &settings);
    assert!(
        !util
            .diagnostics
            .iter()
            .any(|d| d.rule == "unused-suppression"),
        "{:?}",
        util.diagnostics
    );
}

#[test]
fn fixes_edit_the_declaration_in_the_file_that_declares_the_array() {
    let session = foreign_helper_session();
    let r = session.check("kern.cuh", FH_KERN.as_bytes(), &Settings::default());
    let fixes: Vec<_> = r
        .diagnostics
        .iter()
        .filter_map(|d| d.suggestion.as_ref())
        .collect();
    // `tile` is also read through the helper at flat offsets, which no layout change can
    // be verified against: no fix. `grid`'s padding edits its declaration, here.
    assert_eq!(fixes.len(), 1, "{:?}", r.diagnostics);
    let grid = fixes[0];
    assert!(grid.message.contains("`grid`"), "{}", grid.message);
    let decl = line_of_text(FH_KERN, "__shared__ float grid[32][32];");
    for e in grid.fix_edits() {
        assert_eq!(line_at(FH_KERN, e.span.start), decl, "{e:?}");
    }
    assert!(!grid.fix_edits().is_empty());
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
