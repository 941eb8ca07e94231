//! Property test of issue 16, item 1: template parameters no instantiation fixes are
//! warp-uniform unknowns (`lower/interp/template_values.rs`). Random affine and XOR index
//! programs over the thread id and two values, spelled as non-type template parameters,
//! or as local enumerators of a non-type parameter and of a member of a type parameter
//! (`enum { p1 = Tr::V };`), go through the whole pipeline.
//!
//! - With no launch, the verdict is the one of the same program over kernel parameters
//!   (a template value is a warp-uniform unknown as they are), and a plain enumeration of every value in a bounded range (every residue
//!   modulo the bank row, eight times) checks that `ok` has no conflicting value and that
//!   a factor claimed exact is the worst case, reached by some value.
//! - Launched with concrete arguments (`k<a, b>`, or `k<a, Tr>` with `Tr::V = b`), the
//!   verdict is the concrete one, the factor at those values, never the guess over every
//!   value.

#[path = "support/index_programs.rs"]
mod index_programs;

use bankcheck::config::Settings;
use bankcheck::diag::Status;
use index_programs::{factor_at, fits, holds_for_every_value, program, runner, Ix};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// The kernel reading `s[ix]`, its values spelled as template parameters (`traits`:
/// `p0` an enumerator of a non-type parameter, `p1` one of a member of a type parameter),
/// launched with `launch` = (`p0`, `p1`) when given.
fn source(ix: &Ix, traits: bool, launch: Option<[i64; 2]>) -> String {
    let (head, body) = if traits {
        (
            "template <int q0, typename Tr>",
            "    enum { p0 = q0 };\n    enum { p1 = Tr::V };\n",
        )
    } else {
        ("template <int p0, int p1>", "")
    };
    let mut text = format!(
        "// bankcheck: block(32)\n{head}\n__global__ void k(float* out) {{\n{body}    __shared__ float s[1 << 20];\n    out[threadIdx.x] = s[{}];\n}}\n",
        ix.c()
    );
    if let Some([a, b]) = launch {
        let run = if traits {
            format!(
                "struct Values {{ static constexpr int V = {b}; }};\nvoid run(float* f) {{ k<{a}, Values><<<1, 32>>>(f); }}\n"
            )
        } else {
            format!("void run(float* f) {{ k<{a}, {b}><<<1, 32>>>(f); }}\n")
        };
        text.push_str(&run);
    }
    text
}

/// The same kernel with its values as kernel parameters.
fn parameters(ix: &Ix) -> String {
    format!(
        "// bankcheck: block(32)\n__global__ void k(float* out, int p0, int p1) {{\n    __shared__ float s[1 << 20];\n    out[threadIdx.x] = s[{}];\n}}\n",
        ix.c()
    )
}

#[test]
fn uninstantiated_template_values_hold_for_every_value() {
    let settings = Settings::default();
    runner(96)
        .run(&(program(), any::<bool>()), |(ix, traits)| {
            if !fits(&ix) {
                return Ok(());
            }
            let text = source(&ix, traits, None);
            let report = bankcheck::check_source("k.cu", text.as_bytes(), &settings);
            let Some(a) = report.accesses.iter().find(|a| a.array == "s") else {
                return Err(TestCaseError::fail(format!("no access for {text}")));
            };
            // Decided as the same program over kernel parameters is: a template value is
            // a warp-uniform unknown of the same range.
            let kernel_args =
                bankcheck::check_source("p.cu", parameters(&ix).as_bytes(), &settings);
            if let Some(p) = kernel_args.accesses.iter().find(|a| a.array == "s") {
                prop_assert_eq!(
                    (a.status, a.conflict_factor, a.exact),
                    (p.status, p.conflict_factor, p.exact),
                    "{}",
                    text
                );
            }
            holds_for_every_value(&ix, a)
        })
        .unwrap();
}

#[test]
fn launched_template_values_keep_the_concrete_verdict() {
    let settings = Settings::default();
    runner(96)
        .run(
            &(program(), any::<bool>(), 0i64..64, 0i64..64),
            |(ix, traits, a, b)| {
                if !fits(&ix) {
                    return Ok(());
                }
                let text = source(&ix, traits, Some([a, b]));
                let report = bankcheck::check_source("k.cu", text.as_bytes(), &settings);
                let Some(site) = report.accesses.iter().find(|s| s.array == "s") else {
                    return Err(TestCaseError::fail(format!("no access for {text}")));
                };
                let f = factor_at(&ix, [a, b]);
                prop_assert!(
                    site.depends_on.is_empty(),
                    "depends on {:?}: {}",
                    site.depends_on,
                    text
                );
                if f == 1 {
                    prop_assert_eq!(site.status, Status::Ok, "{}", text);
                } else {
                    prop_assert_eq!(site.status, Status::Conflict, "{}", text);
                    prop_assert_eq!(site.conflict_factor, Some(f as f64), "{}", text);
                }
                Ok(())
            },
        )
        .unwrap();
}
