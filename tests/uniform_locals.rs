//! Property test: a `const` local whose value bankcheck cannot follow is taken as one
//! value in every lane only when its initialiser reads no per-lane value
//! (`lower/interp/invariant.rs`). Initialisers are generated from uniform atoms (a kernel
//! parameter, `blockIdx.x`, a literal, a `constexpr` local bankcheck cannot evaluate) and
//! per-lane atoms (a thread id, a lane id in a local, a load, a global variable, a helper
//! that reads the thread id), combined by arithmetic, conditionals and helper calls, and
//! wrapped in a helper whose loop bankcheck does not follow, so that only that analysis
//! can make the value uniform.
//!
//! - With a per-lane atom, `s[a]` is `unknown`: a uniform `a` would be a broadcast, `ok`,
//!   whatever the lanes read.
//! - Without one, `s[a]` is the same word in every lane: `ok` for every value.

use bankcheck::config::Settings;
use bankcheck::diag::Status;
use proptest::prelude::*;

const PRELUDE: &str = "
static constexpr __device__ int config_threads(int type) {
    switch (type) {
        case 0: return 128;
        default: return 64;
    }
}
static __device__ int log2_floor(int n) {
    int r = 0;
    while (n > 1) { n >>= 1; r++; }
    return r;
}
static __device__ int lane_steps(int n) {
    int r = 0;
    while (r < n) { r += threadIdx.x + 1; }
    return r;
}
__device__ int g_scale;
";

/// An initialiser, and whether it reads a per-lane value.
#[derive(Debug, Clone)]
struct Init {
    text: String,
    per_lane: bool,
}

fn atom() -> impl Strategy<Value = Init> {
    prop_oneof![
        Just(("n", false)),
        Just(("blockIdx.x", false)),
        Just(("7", false)),
        Just(("W", false)),
        Just(("threadIdx.x", true)),
        Just(("lane", true)),
        Just(("idx[threadIdx.x]", true)),
        Just(("g_scale", true)),
        Just(("lane_steps(n)", true)),
    ]
    .prop_map(|(t, per_lane)| Init {
        text: t.to_string(),
        per_lane,
    })
}

fn init() -> impl Strategy<Value = Init> {
    atom().prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone(), 0usize..4).prop_map(|(a, b, op)| {
                let op = ["+", "*", "^", "-"][op];
                Init {
                    text: format!("({} {op} {})", a.text, b.text),
                    per_lane: a.per_lane || b.per_lane,
                }
            }),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| Init {
                text: format!("({} > 3 ? {} : {})", c.text, a.text, b.text),
                per_lane: c.per_lane || a.per_lane || b.per_lane,
            }),
            (inner.clone(), inner).prop_map(|(a, b)| Init {
                text: format!("min({}, log2_floor({}))", a.text, b.text),
                per_lane: a.per_lane || b.per_lane,
            }),
        ]
    })
}

fn kernel(i: &Init) -> String {
    format!(
        "{PRELUDE}
template <int T>
__global__ void k(float* out, const int* idx, int n) {{
    __shared__ float s[4096];
    constexpr int W = config_threads(T) / 32;
    const int lane = threadIdx.x % 32;
    const int a = log2_floor({});
    out[threadIdx.x] = s[a];
}}
void launch(float* f, int* i, int n) {{ k<0><<<1, 32>>>(f, i, n); }}
",
        i.text
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn only_initialisers_without_per_lane_values_are_uniform(i in init()) {
        let text = kernel(&i);
        let report = bankcheck::check_source("k.cu", text.as_bytes(), &Settings::default());
        let site = report
            .accesses
            .iter()
            .find(|a| a.array == "s")
            .expect("the access of `s`");
        if i.per_lane {
            prop_assert_eq!(site.status, Status::Unknown, "{}", text);
        } else {
            prop_assert_eq!(site.status, Status::Ok, "{}", text);
        }
    }
}
