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
            // A panic is caught as `internal-error`: the check must not have needed it.
            assert_ne!(d.rule, "internal-error", "{}", d.message);
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

// ----- Bounds on every recursive walk and on work, each tested 10x past its bound -----

/// The stack a worker of the command line has: the walks are bounded for it.
const WORKER_STACK: usize = bankcheck::driver::WORKER_STACK_BYTES;

/// Checks `src` as `path` on a thread with a worker's stack and returns the report.
fn check_on_worker(path: &'static str, src: String) -> bankcheck::FileReport {
    let report = std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn(move || bankcheck::check_source(path, src.as_bytes(), &Settings::default()))
        .expect("a worker thread starts")
        .join()
        .expect("checking does not panic");
    // A panic is caught as `internal-error`: the check must not have needed it.
    assert!(
        report
            .diagnostics
            .iter()
            .all(|d| d.rule != "internal-error"),
        "{:?}",
        report.diagnostics
    );
    report
}

/// The reasons of the report's undecided accesses.
fn reasons(report: &bankcheck::FileReport) -> Vec<String> {
    report
        .accesses
        .iter()
        .filter_map(|a| a.reason.clone())
        .collect()
}

fn kernel(body: &str) -> String {
    format!("__global__ void k(float* o, int c) {{ __shared__ float s[64]; int i = threadIdx.x;\n{body}\n}}\n")
}

/// The syntax-tree converter stops at `MAX_DEPTH` (150): ten times as deep, in every
/// kind of nesting the grammars have, is checked without exhausting the stack. An access
/// whose index nests too deeply is still reported (undecided); statements nested past
/// the bound are not followed, and say so with a `parse-error` (see docs/reliability.md).
#[test]
fn syntax_nesting_ten_times_past_the_converter_bound() {
    let n = 1500;
    for body in [
        format!("{} o[0] = s[i]; {}", "{".repeat(n), "}".repeat(n)),
        format!("{} o[0] = s[i];", "if (i > 1) ".repeat(n)),
        format!("{} o[0] = s[i];", "for (;;) ".repeat(n)),
    ] {
        let report = check_on_worker("deep.cu", kernel(&body));
        assert!(
            report.diagnostics.iter().any(|d| d.rule == "parse-error"),
            "code nested past the bound is named, not dropped in silence"
        );
    }
    let nested = [
        format!("o[0] = s[{}i{}];", "(".repeat(n), ")".repeat(n)),
        format!("o[0] = s[i{}];", " + 1".repeat(n)),
        format!("o[0] = s[{}i];", "- ".repeat(n)),
        format!("o[0] = s[{}i];", "(int)".repeat(n)),
        format!("o[0] = {}s{};", "s[".repeat(n), "]".repeat(n)),
        format!("o[0] = s[{}i{}];", "f(".repeat(n), ")".repeat(n)),
        format!("o[0] = s[{}i];", "c ? 1 : ".repeat(n)),
    ];
    for body in nested {
        let report = check_on_worker("deep.cu", kernel(&body));
        assert!(!report.accesses.is_empty(), "the access is still reported");
    }
}

/// Expressions nest further than the syntax through macros; the interpreter stops at 200
/// nested evaluations.
#[test]
fn macro_nesting_ten_times_past_the_interpreter_bound() {
    let mut src: String = "#define A0 threadIdx.x\n".into();
    src += &(1..2000)
        .map(|i| format!("#define A{i} (A{} + 1)\n", i - 1))
        .collect::<Vec<_>>()
        .concat();
    src += &kernel("o[0] = s[A1999 & 63];");
    let report = check_on_worker("macros.cu", src);
    assert_eq!(report.accesses.len(), 1);
    assert!(
        reasons(&report)[0].contains("too"),
        "{:?}",
        reasons(&report)
    );
}

/// Inlined helpers nest 8 deep at most: 80 is checked.
#[test]
fn call_chains_ten_times_past_the_inlining_bound() {
    let mut src: String = "__device__ int f0(int x) { return x; }\n".into();
    src += &(1..80)
        .map(|i| {
            format!(
                "__device__ int f{i}(int x) {{ return f{}(x) + 1; }}\n",
                i - 1
            )
        })
        .collect::<Vec<_>>()
        .concat();
    src += &kernel("o[0] = s[f79(i) & 63];");
    let report = check_on_worker("calls.cu", src);
    assert_eq!(report.accesses.len(), 1);
}

/// Index expressions are followed up to 4000 nodes: a chain of 40000 conditional
/// reassignments (each one a `select` around the last, once a stack overflow) and of
/// branch merges is undecided, not followed.
#[test]
fn index_expressions_ten_times_past_the_size_bound() {
    for step in ["i = c ? i : 1;", "if (c > 3) i = i ^ 1;", "i = i * 3 + c;"] {
        let report = check_on_worker(
            "chain.cu",
            kernel(&format!("{}o[0] = s[i];", step.repeat(40_000))),
        );
        assert_eq!(report.accesses.len(), 1);
        let reason = reasons(&report).join("; ");
        assert!(
            reason.contains("too large") || reason.contains("too much work"),
            "{reason}"
        );
    }
}

/// Struct layouts nest: a chain of 3000 structs each holding two of the previous one, and
/// a struct that holds itself.
#[test]
fn type_layout_chains() {
    let mut src: String = "struct S0 { int a; };\n".into();
    src += &(1..3000)
        .map(|i| format!("struct S{i} {{ S{p} a; S{p} b; }};\n", p = i - 1))
        .collect::<Vec<_>>()
        .concat();
    src += "__global__ void k(float* o) { __shared__ S2999 s[4]; o[0] = s[threadIdx.x].a.a.a; }\n";
    check_on_worker("structs.cu", src);
    check_on_worker(
        "self.cu",
        "struct S { S a[2]; int x; };\ntypedef T1 T0; typedef T0 T1;\n__global__ void k(float* o) { __shared__ S s[4]; __shared__ T0 t[4]; o[0] = s[threadIdx.x].x + t[threadIdx.x]; }\n".into(),
    );
}

/// Template instantiation chains: a struct template defined by itself at N-1 and N-2, used
/// at 100000.
#[test]
fn template_chains() {
    let src = "template<int N> struct T { static const int v = T<N - 1>::v + T<N - 2>::v; };\n"
        .to_string()
        + &kernel("o[0] = s[T<100000>::v + i];");
    let report = check_on_worker("templates.cu", src);
    assert_eq!(report.accesses.len(), 1);
}

// ----- Work budgets: counted in steps, always a verdict or `unknown` -----

/// The reproducer: a loop whose step is a uniform value (maybe zero), around an
/// index divided by zero. It used to run without end.
#[test]
fn a_loop_with_an_unknown_step_around_a_division_by_zero_ends() {
    let src = "__global__ void k(int C) {\n    __shared__ float s[64];\n    for (int t = blockIdx.x; t < threadIdx.x; t += C)\n        for (int j = 0; j < 64; j += 4)\n            s[j / 0] = 0;\n}\n";
    let report = check_on_worker("loop.cu", src.into());
    assert_eq!(report.accesses.len(), 1);
    assert!(
        reasons(&report)[0].contains("cannot be evaluated"),
        "{:?}",
        reasons(&report)
    );
}

/// Loops that do not progress (`t += 0`, `t <<= 0`) are not iterated to find their trip count.
#[test]
fn loops_that_do_not_progress_are_not_iterated() {
    for step in ["t += 0", "t <<= 0", "t -= 0"] {
        let body = format!("for (int t = threadIdx.x; t < 1000000000; {step}) o[t] = s[t & 63];");
        let report = check_on_worker("still.cu", kernel(&body));
        assert_eq!(report.accesses.len(), 1);
    }
}

/// Function-like macros each doubling the previous one (`M30` expands to 2^30 calls):
/// the step budget ends it with `unknown` ("too much work").
#[test]
fn doubling_macro_chains_end_in_unknown() {
    let mut src: String = "#define M0(x) ((x) + 1)\n".into();
    src += &(1..=30)
        .map(|i| format!("#define M{i}(x) M{p}(M{p}(x))\n", p = i - 1))
        .collect::<Vec<_>>()
        .concat();
    src += &kernel("o[0] = s[M30(i) & 63];");
    let report = check_on_worker("doubling.cu", src);
    assert_eq!(report.accesses.len(), 1);
    let reason = reasons(&report).join("; ");
    assert!(
        reason.contains("too much work") || reason.contains("too large"),
        "{reason}"
    );
}

/// A chain of 40 dereferences once evaluated its operand twice per level (2^40 work and
/// gigabytes of sites).
#[test]
fn dereference_chains_are_linear() {
    let report = check_on_worker("deref.cu", kernel(&format!("o[0] = {}s;", "*".repeat(400))));
    assert!(report.accesses.len() <= 1);
}

// ----- Through the binary: a file that kills its worker does not cost the run -----

const BIN: &str = env!("CARGO_BIN_EXE_bankcheck");

fn good_kernel(n: usize) -> String {
    format!(
        "__global__ void k{n}(float* o) {{\n    __shared__ float s[32][32];\n    o[threadIdx.x] = s[threadIdx.x][0];\n}}\n"
    )
}

/// One file whose worker dies (a stack overflow, injected by `BANKCHECK_TEST_CRASH`: no
/// input is known to cause one) among good ones: every good file is reported in full, the
/// bad one has its `internal-error` finding, and the run ends with status 2.
#[test]
fn one_file_that_kills_its_worker_in_a_directory_of_good_ones() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    for n in 0..6 {
        std::fs::write(dir.path().join(format!("good{n}.cu")), good_kernel(n)).unwrap();
    }
    std::fs::write(dir.path().join("bad.cu"), good_kernel(99)).unwrap();
    let run = |env: Option<&str>| {
        let mut command = std::process::Command::new(BIN);
        command
            .args(["--format", "json", "--threads", "2", "."])
            .current_dir(dir.path())
            .env_remove("BANKCHECK_CRASHED")
            .env_remove("BANKCHECK_RESTARTS");
        if let Some(bad) = env {
            command.env("BANKCHECK_TEST_CRASH", bad);
        }
        command.output().expect("bankcheck runs")
    };
    let clean = run(None);
    assert_eq!(
        clean.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&clean.stderr)
    );
    let crashed = run(Some("bad.cu"));
    assert_eq!(
        crashed.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&crashed.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&crashed.stdout).expect("a JSON report");
    let accesses = json["accesses"].as_array().unwrap();
    for n in 0..6 {
        let file = format!("good{n}.cu");
        assert!(
            accesses
                .iter()
                .any(|a| a["file"] == file.as_str() && a["status"] == "conflict"),
            "{file} is reported in full"
        );
    }
    let diags = json["diagnostics"].as_array().unwrap();
    let bad: Vec<_> = diags.iter().filter(|d| d["file"] == "bad.cu").collect();
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert_eq!(bad[0]["rule"], "internal-error");
    assert!(!accesses.iter().any(|a| a["file"] == "bad.cu"));
    // The same findings for the good files as in the clean run.
    let clean: serde_json::Value = serde_json::from_slice(&clean.stdout).unwrap();
    // A fix is numbered by its place in the report's `fixes`: compared by what it names.
    let good = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["file"] != "bad.cu")
            .map(|d| {
                let mut d = d.clone();
                if let Some(n) = d["suggestion"]["fix"].as_u64() {
                    d["suggestion"]["fix"] = v["fixes"][n as usize].clone();
                }
                d
            })
            .collect()
    };
    assert_eq!(good(&clean), good(&json));
}

/// Standard input cannot be read twice: a crash on it is reported and the run exits 2.
#[test]
fn a_crash_on_standard_input_is_an_error() {
    use std::io::Write as _;
    let mut child = std::process::Command::new(BIN)
        .args(["--stdin-filename", "in.cu", "-"])
        .env("BANKCHECK_TEST_CRASH", "in.cu")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("bankcheck runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(good_kernel(0).as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("in.cu: bankcheck crashed"));
}

/// `--threads` has a ceiling (256): 65535 asked for is not 65535 threads started.
#[test]
fn thread_counts_have_a_ceiling() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    std::fs::write(dir.path().join("k.cu"), good_kernel(0)).unwrap();
    let start = std::time::Instant::now();
    let out = std::process::Command::new(BIN)
        .args(["--threads", "65535", "k.cu"])
        .current_dir(dir.path())
        .output()
        .expect("bankcheck runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
}

/// Every input the fuzzers flagged (scripts/fuzz.py: runs past 10 s, or memory past
/// 500 MB, before the budgets) is checked again, each in the language its name says.
#[test]
fn fuzz_regressions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fuzz_regressions exists")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for path in files {
        let bytes = std::fs::read(&path).expect("a regression input");
        let name: &'static str = Box::leak(
            path.file_name()
                .expect("a file name")
                .to_string_lossy()
                .into_owned()
                .into_boxed_str(),
        );
        let report = std::thread::Builder::new()
            .stack_size(WORKER_STACK)
            .spawn(move || bankcheck::check_source(name, &bytes, &Settings::default()))
            .expect("a worker thread starts")
            .join()
            .unwrap_or_else(|_| panic!("{name} does not panic"));
        for d in &report.diagnostics {
            assert!(d.span.start <= d.span.end && d.span.end <= report.text.len());
            assert_ne!(d.rule, "internal-error", "{name}");
        }
    }
}

/// Error recovery that costs more per operation the longer it runs (each skipped token
/// re-summarises a growing error node): this mutant of a fixture (fuzz seed 1, case
/// 1356: a stray byte-order mark, a directive inside a line, then 20,000 unbraced `if`s
/// inside an unclosed parameter list) takes the grammar over 30 s of CPU in 3,600
/// progress calls, well inside the operation budget. The CPU backstop of the parse
/// budget (20 s per MB) gives up on it, and says so.
#[test]
fn superlinear_error_recovery_is_cut_by_the_cpu_backstop() {
    let head = "\u{ff}\u{fe}// Idiom (unknown reason \"the accessed type `_` is not known\"): the shared variable's
// type is a struct nested in a class template (the TempStorage pattern of block-wide
// collectives). bankcheck does not resolve `Outer<N>::Inner`. Once understood:
template <int THREADS>
struct BlockSum {
    struct Storage {
        float partial[THREADS / 32];
        float total#include \"row_kernel.hlsli\"
;
    };
};

// bankcheck: block(256)
__global__ void sum_block(const float* in, float* out {";
    let tail = " threadIdx.x;
    __shared__ typename BlockSum<256>::Storage storage;
    storage.partial[threadIdx.x / 32] = in[threadIdx.x];
}
";
    let src = format!("{head}{}{tail}", "if (threadIdx.x) ".repeat(20_000));
    let report = check_on_worker("recover.cu", src);
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.rule == "parse-error" && d.message.contains("gave up")),
        "{:?}",
        report.diagnostics
    );
}

/// Function heads written as macro uses (`DEFINE_KERNEL(name, ...) { ... }`) are
/// expanded within bounds (32 nested expansions, 100,000 tokens of work, a file's budget
/// linear in its size): ten times past each, the check ends, the function is read as
/// before (named after the macro) and a `parse-error` says why.
#[test]
fn macro_heads_ten_times_past_the_expansion_bounds() {
    let body = "{ __shared__ float s[64]; s[threadIdx.x] = 0.0f; }\n";
    let chain: String = (0..320)
        .map(|k| format!("#define C{k} C{}\n", k + 1))
        .collect::<Vec<_>>()
        .concat()
        + "#define C320 int\n#define DEEP(n) __global__ void n(C0 x)\n";
    let doubling: String = "#define M0(x) x\n".to_string()
        + &(1..=25)
            .map(|k| format!("#define M{k}(x) M{p}(x) M{p}(x)\n", p = k - 1))
            .collect::<Vec<_>>()
            .concat()
        + "#define WIDE(n) __global__ void n(M25(int) x)\n";
    let long_params: String = (0..41_000)
        .map(|k| format!("int a{k}, "))
        .collect::<Vec<_>>()
        .concat();
    let long = format!("#define LONG(n) __global__ void n({long_params}int z)\n");
    let nested = format!(
        "#define F(x) x\n#define NEST(n) __global__ void n({}int{} x)\n",
        "F(".repeat(320),
        ")".repeat(320)
    );
    let many: String = "#define ONE(n) __global__ void n(float* p)\n".to_string()
        + &(0..2000)
            .map(|k| format!("ONE(k{k}) {body}"))
            .collect::<Vec<_>>()
            .concat();
    for (name, defs, expected) in [
        ("DEEP", chain, "more than 32 deep"),
        ("WIDE", doubling, "grows past"),
        ("LONG", long, "grows past"),
        ("NEST", nested, "more than 32 deep"),
    ] {
        let src = format!("{defs}{name}(k) {body}");
        let report = check_on_worker("heads.cu", src);
        assert_eq!(
            report.accesses.len(),
            1,
            "{name}: the access is still found"
        );
        let found = report
            .diagnostics
            .iter()
            .find(|d| d.rule == "parse-error")
            .unwrap_or_else(|| panic!("{name}: {:?}", report.diagnostics));
        assert!(
            found.message.contains(expected),
            "{name}: {}",
            found.message
        );
    }
    // Many good heads in one file are all expanded: each is a kernel of its own name.
    let report = check_on_worker("many.cu", many);
    assert_eq!(report.accesses.len(), 2000);
    assert!(report.diagnostics.iter().all(|d| d.rule != "parse-error"));
}
