//! No input makes bankcheck panic or hang: random bytes, random token soup, and
//! truncations of real kernels, in both languages.

use bankcheck::config::Settings;
use proptest::prelude::*;

const TOKENS: &[&str] = &[
    "__shared__",
    "groupshared",
    "float",
    "int",
    "float4",
    "double",
    "s",
    "t",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    ";",
    "=",
    "+=",
    "*",
    "^",
    "<<",
    ">>",
    "threadIdx.x",
    "threadIdx.y",
    "blockDim.x",
    "for",
    "if",
    "return",
    "32",
    "0",
    "1",
    "#define",
    "N",
    "\n",
    "__global__",
    "void",
    "k",
    "extern",
    "[numthreads(8,8,1)]",
    "SV_GroupIndex",
    ":",
    "uint",
    "i",
    "<",
    "++",
    "atomicAdd",
    "&",
    ",",
    "/",
    "%",
    "?",
    "struct",
    "typedef",
    "template",
    "<<<",
    ">>>",
    "dim3",
    "reinterpret_cast<float4*>",
    "__align__(16)",
    "cbuffer",
    "register(b0)",
    "while",
    "do",
    "switch",
    "case",
    "-",
    "~",
];

fn check_all_languages(bytes: &[u8]) {
    let settings = Settings::default();
    for path in ["fuzz.cu", "fuzz.hlsl", "fuzz.h"] {
        let report = bankcheck::check_source(path, bytes, &settings);
        for d in &report.diagnostics {
            assert!(d.span.start <= d.span.end && d.span.end <= report.text.len());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        check_all_languages(&bytes);
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..120)) {
        check_all_languages(tokens.join(" ").as_bytes());
    }


}

proptest! {
    // Each case checks three whole examples in three languages: fewer cases suffice.
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

    #[test]
    fn truncated_kernels_never_panic(cut in 0usize..2000) {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        for f in ["cuda/transpose.cu", "cuda/reduction.cu", "hlsl/blur.hlsl"] {
            let text = std::fs::read(root.join(f)).expect("example exists");
            let cut = cut.min(text.len());
            check_all_languages(&text[..cut]);
        }
    }
}

#[test]
fn deeply_nested_input_is_handled() {
    let src = format!(
        "__global__ void k(float* o) {{ __shared__ float s[64]; o[0] = s[{}threadIdx.x{}]; }}",
        "(".repeat(3000),
        ")".repeat(3000)
    );
    check_all_languages(src.as_bytes());
}

#[test]
fn empty_and_whitespace_files_have_no_accesses() {
    for src in ["", "\n\n", "\u{feff}"] {
        let r = bankcheck::check_source("e.cu", src.as_bytes(), &Settings::default());
        assert!(r.accesses.is_empty());
    }
}

#[test]
fn long_reassignment_chains_are_bounded() {
    let body: String = (0..20000).map(|_| "i = i * 3 + 1;\n").collect();
    let src = format!("__global__ void k(float* o) {{ __shared__ float s[64]; int i = threadIdx.x;\n{body} o[0] = s[i]; }}");
    check_all_languages(src.as_bytes());
    let nested: String = (0..5000)
        .map(|_| "#ifdef A\n")
        .chain((0..5000).map(|_| "#endif\n"))
        .collect();
    check_all_languages(nested.as_bytes());
}
