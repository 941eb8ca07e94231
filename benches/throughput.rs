//! bankcheck's throughput benchmark: is a full check as fast as parsing?
//!
//! Run with `cargo bench --bench throughput`. For each corpus (the repository's
//! `examples/` and `tests/fixtures/`, a real-world directory given by `--corpus DIR` or
//! `BANKCHECK_CORPUS`, and a generated corpus of `--mb N` / `BANKCHECK_BENCH_MB`
//! megabytes, 50 by default) it measures the parse-only floor (read the bytes,
//! `source::load`, `source::parse`) and the full `check_source`, on the same rayon
//! thread count, each phase in a fresh child process of this binary so that the peak
//! resident memory (`VmHWM`) of each is its own. Both wall time and CPU time (summed
//! over threads, from /proc/self/task/*/schedstat) are reported: the latter hardly
//! moves when other programs share the cores. Files are processed in parallel and
//! only counters are kept, never all trees or reports at once. It then prints the
//! scaling table (full check at `--scale 1,2,4` times the generated size, prefixes of
//! one deterministic corpus), a time-by-stage breakdown of one thread, and the start-up
//! time of the release `bankcheck` binary. Other options: `--runs N` (median of N,
//! default 3), `--threads N` (default: all cores), `--seed N`, `--kernel-share P`
//! (percent of generated code chunks that are kernels, default calibrated on real
//! code; 40 gives the dense stress corpus), `--stages-mb N`
//! (generated megabytes for the stage breakdown, default 10), `--keep DIR` (write the
//! generated corpus there instead of a temporary directory).

mod corpus_gen;

/// The same allocator as the `bankcheck` binary, so that the full check costs here
/// what it costs there.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use bankcheck::config::Settings;
use bankcheck::diag::Status;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// File extensions walked in a corpus directory.
const EXTENSIONS: &[&str] = &["cu", "cuh", "hlsl", "hlsli", "fx", "h", "hpp"];

/// How many slowest files or accesses the child processes report.
const SLOWEST: usize = 5;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(phase) = arg_value(&args, "--phase") {
        child(&phase, &args);
    } else {
        parent(&args);
    }
}

/// The value following `flag` on the command line, if any.
fn arg_value(args: &[String], flag: &str) -> Option<String> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

/// A command-line option, else an environment variable, else a default.
fn option(args: &[String], flag: &str, env: &str, default: &str) -> String {
    arg_value(args, flag)
        .or_else(|| std::env::var(env).ok())
        .unwrap_or_else(|| default.to_string())
}

// ---------------------------------------------------------------------------------
// Child side: one phase over one file list, counters only.

/// Counters of one phase over a list of files; merged across rayon workers.
#[derive(Default)]
struct Counters {
    files: u64,
    bytes: u64,
    unreadable: u64,
    /// Files with a language (CUDA or HLSL); the others are read and skipped.
    recognised: u64,
    /// Trees with at least one syntax error node.
    trees_with_errors: u64,
    accesses: u64,
    conflicts: u64,
    undecided: u64,
    diagnostics: u64,
    /// The slowest files: (nanoseconds, path).
    slowest: Vec<(u128, String)>,
}

impl Counters {
    fn merge(mut self, other: Counters) -> Counters {
        self.files += other.files;
        self.bytes += other.bytes;
        self.unreadable += other.unreadable;
        self.recognised += other.recognised;
        self.trees_with_errors += other.trees_with_errors;
        self.accesses += other.accesses;
        self.conflicts += other.conflicts;
        self.undecided += other.undecided;
        self.diagnostics += other.diagnostics;
        self.slowest.extend(other.slowest);
        keep_slowest(&mut self.slowest);
        self
    }
}

fn keep_slowest<T: Ord>(v: &mut Vec<(u128, T)>) {
    v.sort_by(|a, b| b.cmp(a));
    v.truncate(SLOWEST);
}

fn read_list(args: &[String]) -> Vec<PathBuf> {
    let list = arg_value(args, "--list").expect("child needs --list FILE");
    let text = fs::read_to_string(&list).expect("readable file list");
    text.lines()
        .filter(|l| !l.is_empty())
        .map(PathBuf::from)
        .collect()
}

/// Reads `VmHWM` and `VmRSS` (kB) from /proc/self/status; zero where unavailable.
fn memory_kb() -> (u64, u64) {
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

/// CPU time (ns) of every live thread of this process, from /proc/self/task/*/schedstat.
/// Unlike wall time it hardly changes when other programs load the machine.
fn cpu_ns() -> u128 {
    let Ok(tasks) = fs::read_dir("/proc/self/task") else {
        return 0;
    };
    tasks
        .flatten()
        .filter_map(|t| fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| {
            s.split_whitespace()
                .next()
                .and_then(|n| n.parse::<u128>().ok())
        })
        .sum()
}

fn child(phase: &str, args: &[String]) {
    let threads: usize = arg_value(args, "--threads")
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    let settings = Settings::default();
    let mut out = String::new();
    match phase {
        "first" => {
            // Latency of the first file in a fresh process: grammar and regex set-up included.
            let file = arg_value(args, "--file").expect("--file");
            let start = Instant::now();
            let bytes = fs::read(&file).expect("readable file");
            let report = bankcheck::check_source(&file, &bytes, &settings);
            let ns = start.elapsed().as_nanos();
            let _ = writeln!(
                out,
                "RESULT elapsed_ns={ns} accesses={}",
                report.accesses.len()
            );
        }
        "stages" => stages(&read_list(args), &settings, &mut out),
        "idle" | "parse" | "full" => {
            let files = read_list(args);
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("rayon pool");
            let cpu_start = cpu_ns();
            let start = Instant::now();
            // The full check works as the command line does: one run-wide index of
            // launches and includes (a text scan of every file, in the timed part), then
            // every file checked against it.
            let session = (phase == "full").then(|| {
                let mut session = bankcheck::driver::Session::new()
                    .with_headers(Vec::new(), Box::new(|p: &Path| fs::read(p).ok()));
                // Scanned in parallel and added in order, as the command line does.
                pool.install(|| {
                    session.index(&files, |p| {
                        let bytes = fs::read(p).ok()?;
                        Some((p.clone(), String::from_utf8_lossy(&bytes).into_owned()))
                    });
                });
                session
            });
            let c = pool.install(|| {
                files
                    .par_iter()
                    .map(|p| match (phase, &session) {
                        ("parse", _) => parse_one(p),
                        ("full", Some(session)) => full_one(p, &settings, session),
                        _ => Counters::default(),
                    })
                    .reduce(Counters::default, Counters::merge)
            });
            let ns = start.elapsed().as_nanos();
            // Measured while the pool's threads are alive, so their time is counted.
            let cpu = cpu_ns().saturating_sub(cpu_start);
            let (hwm, rss) = memory_kb();
            let _ = writeln!(
                out,
                "RESULT elapsed_ns={ns} cpu_ns={cpu} files={} bytes={} unreadable={} recognised={} trees_with_errors={} accesses={} conflicts={} undecided={} diagnostics={} hwm_kb={hwm} rss_kb={rss}",
                c.files, c.bytes, c.unreadable, c.recognised, c.trees_with_errors, c.accesses, c.conflicts, c.undecided, c.diagnostics
            );
            for (ns, path) in &c.slowest {
                let _ = writeln!(out, "SLOW {ns} {path}");
            }
        }
        other => panic!("unknown phase {other}"),
    }
    std::io::stdout()
        .write_all(out.as_bytes())
        .expect("write to stdout");
}

fn parse_one(p: &Path) -> Counters {
    let mut c = Counters {
        files: 1,
        ..Counters::default()
    };
    let Ok(bytes) = fs::read(p) else {
        c.unreadable = 1;
        return c;
    };
    c.bytes = bytes.len() as u64;
    let path = p.to_string_lossy();
    if let Some(file) = bankcheck::source::load(&path, &bytes) {
        c.recognised = 1;
        if let Some(tree) = bankcheck::source::parse(&file) {
            c.trees_with_errors = u64::from(tree.root_node().has_error());
        }
    }
    c
}

fn full_one(p: &Path, settings: &Settings, session: &bankcheck::driver::Session) -> Counters {
    let start = Instant::now();
    let mut c = Counters {
        files: 1,
        ..Counters::default()
    };
    let Ok(bytes) = fs::read(p) else {
        c.unreadable = 1;
        return c;
    };
    c.bytes = bytes.len() as u64;
    let path = p.to_string_lossy();
    let report = session.check(&path, &bytes, settings);
    c.recognised = u64::from(report.language.is_some());
    c.accesses = report.accesses.len() as u64;
    c.conflicts = report
        .accesses
        .iter()
        .filter(|a| a.status == Status::Conflict)
        .count() as u64;
    c.undecided = report
        .accesses
        .iter()
        .filter(|a| a.status == Status::Unknown)
        .count() as u64;
    c.diagnostics = report.diagnostics.len() as u64;
    c.slowest
        .push((start.elapsed().as_nanos(), path.into_owned()));
    c
}

/// One thread, every stage timed separately; the rest of `check_source` (rules,
/// access facts, sorting) is the difference to a separate full check of each file.
fn stages(files: &[PathBuf], settings: &Settings, out: &mut String) {
    // Identical accesses are decided once, as a run decides them.
    let verdicts = bankcheck::analyse::VerdictCache::default();
    let budget = bankcheck::analyse::Budget {
        max_lane_evals: settings.max_lane_evals,
        ..bankcheck::analyse::Budget::default()
    };
    let mut stage = [Duration::ZERO; 7];
    let (mut sites, mut components, mut bytes) = (0u64, 0u64, 0u64);
    let mut slow_access: Vec<(u128, String)> = Vec::new();
    // Analysed components by verdict: exact, sampled (not exact), undecided.
    let mut by_verdict = [(0u64, Duration::ZERO); 3];
    for p in files {
        let s = Instant::now();
        let Ok(data) = fs::read(p) else { continue };
        bytes += data.len() as u64;
        let path = p.to_string_lossy();
        stage[0] += s.elapsed();
        let s = Instant::now();
        let Some(file) = bankcheck::source::load(&path, &data) else {
            stage[1] += s.elapsed();
            continue;
        };
        stage[1] += s.elapsed();
        let s = Instant::now();
        let Some(tree) = bankcheck::source::parse(&file) else {
            continue;
        };
        stage[2] += s.elapsed();
        let s = Instant::now();
        let syntax = bankcheck::extract::extract_relevant(&file, &tree);
        drop(tree);
        stage[3] += s.elapsed();
        let s = Instant::now();
        let lowered = bankcheck::lower::lower_file(&syntax, &file.text, settings);
        stage[4] += s.elapsed();
        for site in &lowered.sites {
            sites += 1;
            let Ok(parts) = &site.lowered else { continue };
            let mut e = Duration::ZERO;
            let mut kinds = Vec::new();
            for part in parts {
                components += 1;
                let began = Instant::now();
                let verdict = verdicts.analyse(part, &settings.bank, budget);
                let spent = began.elapsed();
                let class = match (verdict.cost.is_some(), verdict.exact) {
                    (true, true) => 0,
                    (true, false) => 1,
                    (false, _) => 2,
                };
                by_verdict[class].0 += 1;
                by_verdict[class].1 += spent;
                kinds.push(["exact", "sampled", "undecided"][class]);
                e += spent;
            }
            stage[5] += e;
            if slow_access.len() < SLOWEST
                || slow_access.last().is_some_and(|(ns, _)| *ns < e.as_nanos())
            {
                let line = file
                    .text
                    .get(..site.span.start)
                    .map_or(0, |x| x.lines().count().max(1));
                slow_access.push((
                    e.as_nanos(),
                    format!(
                        "{path}:{line} `{}` in {} ({})",
                        site.index_texts.join("]["),
                        site.function,
                        kinds.join(", ")
                    ),
                ));
                keep_slowest(&mut slow_access);
            }
        }
        drop((syntax, lowered, file));
        let s = Instant::now();
        std::hint::black_box(bankcheck::check_source(&path, &data, settings));
        stage[6] += s.elapsed();
    }
    let ns: Vec<u128> = stage.iter().map(Duration::as_nanos).collect();
    let _ = writeln!(
        out,
        "RESULT bytes={bytes} sites={sites} components={components} read_ns={} load_ns={} parse_ns={} extract_ns={} lower_ns={} analyse_ns={} check_ns={}",
        ns[0], ns[1], ns[2], ns[3], ns[4], ns[5], ns[6]
    );
    let _ = writeln!(
        out,
        "RESULT exact_n={} exact_ns={} sampled_n={} sampled_ns={} undecided_n={} undecided_ns={}",
        by_verdict[0].0,
        by_verdict[0].1.as_nanos(),
        by_verdict[1].0,
        by_verdict[1].1.as_nanos(),
        by_verdict[2].0,
        by_verdict[2].1.as_nanos()
    );
    for (ns, what) in &slow_access {
        let _ = writeln!(out, "SLOW {ns} {what}");
    }
}

// ---------------------------------------------------------------------------------
// Parent side: corpora, child runs, tables.

/// What one child run printed: its `key=value` result line and its `SLOW` lines.
struct Outcome {
    values: Vec<(String, u128)>,
    slow: Vec<(u128, String)>,
}

impl Outcome {
    fn get(&self, key: &str) -> u128 {
        self.values
            .iter()
            .find(|(k, _)| k == key)
            .map_or(0, |(_, v)| *v)
    }
}

fn run_child(phase: &str, extra: &[&str]) -> Outcome {
    let exe = std::env::current_exe().expect("path of the bench executable");
    let output = Command::new(exe)
        .arg("--phase")
        .arg(phase)
        .args(extra)
        .output()
        .expect("spawn child phase");
    assert!(
        output.status.success(),
        "child phase {phase} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout);
    let mut values = Vec::new();
    let mut slow = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("RESULT ") {
            for kv in rest.split_whitespace() {
                if let Some((k, v)) = kv.split_once('=') {
                    values.push((k.to_string(), v.parse().unwrap_or(0)));
                }
            }
        } else if let Some(rest) = line.strip_prefix("SLOW ") {
            if let Some((ns, what)) = rest.split_once(' ') {
                slow.push((ns.parse().unwrap_or(0), what.to_string()));
            }
        }
    }
    Outcome { values, slow }
}

struct Corpus {
    name: String,
    files: Vec<PathBuf>,
    bytes: u64,
    list: PathBuf,
}

impl Corpus {
    fn new(name: &str, files: Vec<PathBuf>, work: &Path) -> Corpus {
        let bytes = files
            .iter()
            .map(|f| fs::metadata(f).map_or(0, |m| m.len()))
            .sum();
        let list = work.join(format!(
            "list-{}.txt",
            name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        ));
        let mut text = String::new();
        for f in &files {
            let s = f.to_string_lossy();
            if !s.contains('\n') {
                text.push_str(&s);
                text.push('\n');
            }
        }
        fs::write(&list, text).expect("write file list");
        Corpus {
            name: name.to_string(),
            files,
            bytes,
            list,
        }
    }

    fn mb(&self) -> f64 {
        self.bytes as f64 / 1e6
    }
}

/// Every file under `dir` with one of [`EXTENSIONS`], sorted.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            walk(&p, out);
        } else if ft.is_file()
            && p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| EXTENSIONS.contains(&x.to_ascii_lowercase().as_str()))
        {
            out.push(p);
        }
    }
}

fn walk_sorted(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for d in dirs {
        walk(d, &mut files);
    }
    files.sort();
    files
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        0.0
    } else if v.len() % 2 == 1 {
        v[v.len() / 2]
    } else {
        f64::midpoint(v[v.len() / 2 - 1], v[v.len() / 2])
    }
}

/// Medians of the parse-only and full phases of one corpus.
struct Measured {
    parse_s: f64,
    full_s: f64,
    parse_cpu: f64,
    full_cpu: f64,
    parse_hwm_mb: f64,
    full_hwm_mb: f64,
    idle_hwm_mb: f64,
    full: Outcome,
    parse: Outcome,
}

fn measure(c: &Corpus, threads: &str, runs: usize) -> Measured {
    let list = c.list.to_string_lossy().into_owned();
    let extra = ["--list", list.as_str(), "--threads", threads];
    let idle = run_child("idle", &extra);
    let (mut ps, mut fs_, mut phwm, mut fhwm) = (Vec::new(), Vec::new(), 0u128, 0u128);
    let (mut pc, mut fc) = (Vec::new(), Vec::new());
    let mut last = None;
    for _ in 0..runs.max(1) {
        let p = run_child("parse", &extra);
        let f = run_child("full", &extra);
        ps.push(p.get("elapsed_ns") as f64 / 1e9);
        fs_.push(f.get("elapsed_ns") as f64 / 1e9);
        pc.push(p.get("cpu_ns") as f64 / 1e9);
        fc.push(f.get("cpu_ns") as f64 / 1e9);
        phwm = phwm.max(p.get("hwm_kb"));
        fhwm = fhwm.max(f.get("hwm_kb"));
        last = Some((p, f));
    }
    let (parse, full) = last.expect("at least one run");
    Measured {
        parse_s: median(ps),
        full_s: median(fs_),
        parse_cpu: median(pc),
        full_cpu: median(fc),
        parse_hwm_mb: phwm as f64 / 1024.0,
        full_hwm_mb: fhwm as f64 / 1024.0,
        idle_hwm_mb: idle.get("hwm_kb") as f64 / 1024.0,
        full,
        parse,
    }
}

fn load_average() -> String {
    fs::read_to_string("/proc/loadavg").map_or_else(
        |_| "unknown".into(),
        |l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
    )
}

fn cpu_model() -> String {
    fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines().find_map(|l| {
                l.strip_prefix("model name")
                    .map(|r| r.trim_start_matches([' ', '\t', ':']).to_string())
            })
        })
        .unwrap_or_else(|| "unknown".into())
}

fn parent(args: &[String]) {
    let mb: f64 = option(args, "--mb", "BANKCHECK_BENCH_MB", "50")
        .parse()
        .expect("--mb / BANKCHECK_BENCH_MB is a number");
    let runs: usize = option(args, "--runs", "BANKCHECK_BENCH_RUNS", "3")
        .parse()
        .expect("--runs is a number");
    let seed: u64 = option(args, "--seed", "BANKCHECK_BENCH_SEED", "48879")
        .parse()
        .expect("--seed is a number");
    let kernel_share: u64 = option(
        args,
        "--kernel-share",
        "BANKCHECK_BENCH_KERNEL_SHARE",
        &corpus_gen::KERNEL_PERCENT.to_string(),
    )
    .parse()
    .expect("--kernel-share is a percentage");
    let stages_mb: f64 = option(args, "--stages-mb", "BANKCHECK_BENCH_STAGES_MB", "10")
        .parse()
        .expect("--stages-mb is a number");
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let threads = option(
        args,
        "--threads",
        "BANKCHECK_BENCH_THREADS",
        &cores.to_string(),
    );
    let mut scales: Vec<u64> = option(args, "--scale", "BANKCHECK_BENCH_SCALE", "1,2,4")
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .filter(|s| *s > 0)
        .collect();
    if !scales.contains(&1) {
        scales.insert(0, 1);
    }
    scales.sort_unstable();
    scales.dedup();
    let real = arg_value(args, "--corpus")
        .or_else(|| std::env::var("BANKCHECK_CORPUS").ok())
        .filter(|s| !s.is_empty());

    let tmp = tempfile::Builder::new()
        .prefix("bankcheck-bench-")
        .tempdir()
        .expect("temporary directory");
    let work = tmp.path().to_path_buf();
    let gen_dir = arg_value(args, "--keep").map_or_else(|| work.join("generated"), PathBuf::from);
    let load_before = load_average();

    println!("# bankcheck throughput\n");
    println!("- cores: {cores} (`nproc`), CPU: {}", cpu_model());
    println!("- rayon threads: {threads}; runs per figure: {runs} (median); load average at start: {load_before}");

    // The corpora.
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut corpora = Vec::new();
    let repo_files = walk_sorted(&[manifest.join("examples"), manifest.join("tests/fixtures")]);
    if repo_files.is_empty() {
        println!(
            "- repository corpus: skipped, `examples/` and `tests/fixtures/` hold no source files"
        );
    } else {
        corpora.push(Corpus::new(
            "repository (examples/, tests/fixtures/)",
            repo_files,
            &work,
        ));
    }
    match &real {
        Some(dir) => {
            let files = walk_sorted(&[PathBuf::from(dir)]);
            if files.is_empty() {
                println!("- real-world corpus: {dir} holds no source files, skipped");
            } else {
                corpora.push(Corpus::new(&format!("real-world ({dir})"), files, &work));
            }
        }
        None => println!("- real-world corpus: none given (`--corpus DIR` or `BANKCHECK_CORPUS`)"),
    }
    let max_scale = scales.iter().copied().max().unwrap_or(1);
    let base_bytes = (mb * 1e6) as u64;
    let start = Instant::now();
    let generated = corpus_gen::generate_with(&gen_dir, base_bytes * max_scale, seed, kernel_share)
        .expect("generate the corpus");
    println!(
        "- generated corpus: seed {seed}, kernel share {kernel_share}%, {} files, {:.1} MB written in {:.1} s to {}",
        generated.len(),
        generated.iter().map(|g| g.bytes).sum::<u64>() as f64 / 1e6,
        start.elapsed().as_secs_f64(),
        gen_dir.display()
    );
    // Prefixes of the generated files for each scale.
    let prefix = |target: u64| -> Vec<PathBuf> {
        let mut total = 0;
        generated
            .iter()
            .take_while(|g| {
                let keep = total < target;
                total += g.bytes;
                keep
            })
            .map(|g| g.path.clone())
            .collect()
    };
    let gen1 = Corpus::new(&format!("generated ({mb} MB)"), prefix(base_bytes), &work);
    corpora.push(gen1);
    println!();

    // Parse-only against full, per corpus.
    println!("## Parse-only against full check\n");
    println!("Wall time is what a user waits for; CPU time (all threads) hardly moves when other programs load the machine.\n");
    println!("| corpus | files | MB | parse-only wall s | full wall s | full / parse (wall) | parse-only CPU s | full CPU s | full / parse (CPU) |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut results = Vec::new();
    for c in &corpora {
        let m = measure(c, &threads, runs);
        println!(
            "| {} | {} | {:.1} | {:.3} | {:.3} | {:.2} | {:.3} | {:.3} | {:.2} |",
            c.name,
            c.files.len(),
            c.mb(),
            m.parse_s,
            m.full_s,
            m.full_s / m.parse_s.max(1e-9),
            m.parse_cpu,
            m.full_cpu,
            m.full_cpu / m.parse_cpu.max(1e-9),
        );
        results.push(m);
    }
    println!();
    println!("| corpus | parse MB/s | full MB/s | parse files/s | full files/s | peak MB parse | peak MB full | peak MB idle |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (c, m) in corpora.iter().zip(&results) {
        println!(
            "| {} | {:.1} | {:.1} | {:.0} | {:.0} | {:.1} | {:.1} | {:.1} |",
            c.name,
            c.mb() / m.parse_s.max(1e-9),
            c.mb() / m.full_s.max(1e-9),
            c.files.len() as f64 / m.parse_s.max(1e-9),
            c.files.len() as f64 / m.full_s.max(1e-9),
            m.parse_hwm_mb,
            m.full_hwm_mb,
            m.idle_hwm_mb
        );
    }
    println!();
    println!("Findings per corpus (from the last full run):\n");
    for (c, m) in corpora.iter().zip(&results) {
        println!(
            "- {}: {} recognised as CUDA/HLSL, {} trees with syntax errors, {} accesses ({} conflicting, {} undecided), {} diagnostics",
            c.name,
            m.full.get("recognised"),
            m.parse.get("trees_with_errors"),
            m.full.get("accesses"),
            m.full.get("conflicts"),
            m.full.get("undecided"),
            m.full.get("diagnostics")
        );
        for (ns, path) in &m.full.slow {
            println!("  - slowest file: {:.1} ms {path}", *ns as f64 / 1e6);
        }
    }
    println!();

    // Scaling of the full check over prefixes of the generated corpus, in interleaved
    // rounds so that a change of load hits every scale alike.
    println!("## Scaling (full check, generated corpus)\n");
    let gen_index = corpora.len() - 1;
    let scaled: Vec<Corpus> = scales
        .iter()
        .map(|&s| Corpus::new(&format!("generated-x{s}"), prefix(base_bytes * s), &work))
        .collect();
    let mut wall: Vec<Vec<f64>> = vec![Vec::new(); scaled.len()];
    let mut cpu: Vec<Vec<f64>> = vec![Vec::new(); scaled.len()];
    for _ in 0..runs.max(1) {
        for (k, c) in scaled.iter().enumerate() {
            let list = c.list.to_string_lossy().into_owned();
            let o = run_child("full", &["--list", &list, "--threads", &threads]);
            wall[k].push(o.get("elapsed_ns") as f64 / 1e9);
            cpu[k].push(o.get("cpu_ns") as f64 / 1e9);
        }
    }
    println!("| scale | files | MB | full wall s | wall ms per file | per-file ratio to 1x (wall) | full CPU s | CPU ms per file | per-file ratio to 1x (CPU) | CPU s per MB ratio to 1x |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let (mut worst_wall, mut worst_cpu): (f64, f64) = (0.0, 0.0);
    let mut base: Option<(f64, f64, f64)> = None;
    for (k, c) in scaled.iter().enumerate() {
        let (w, u) = (median(wall[k].clone()), median(cpu[k].clone()));
        let n = c.files.len().max(1) as f64;
        let (wf, uf, um) = (w / n, u / n, u / c.mb().max(1e-9));
        let (bw, bu, bm) = *base.get_or_insert((wf, uf, um));
        worst_wall = worst_wall.max((wf / bw - 1.0).abs());
        worst_cpu = worst_cpu.max((uf / bu - 1.0).abs());
        println!(
            "| {}x | {} | {:.1} | {w:.3} | {:.3} | {:.3} | {u:.3} | {:.3} | {:.3} | {:.3} |",
            scales[k],
            c.files.len(),
            c.mb(),
            wf * 1e3,
            wf / bw,
            uf * 1e3,
            uf / bu,
            um / bm
        );
    }
    println!();

    // Where the time goes: one thread, stage by stage.
    println!("## Time by stage (one thread)\n");
    println!("| corpus | MB | read | load | parse | extract | lower | analyse | rules, facts, report | full check | sites | components |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut stage_sets: Vec<Corpus> = corpora
        .iter()
        .filter(|c| !c.name.starts_with("generated"))
        .map(|c| Corpus::new(&format!("{}-stages", c.name), c.files.clone(), &work))
        .collect();
    stage_sets.push(Corpus::new(
        &format!("generated ({stages_mb} MB prefix)"),
        prefix((stages_mb * 1e6) as u64),
        &work,
    ));
    let mut slow_accesses = Vec::new();
    let mut verdict_rows = Vec::new();
    for c in &stage_sets {
        let list = c.list.to_string_lossy().into_owned();
        let o = run_child("stages", &["--list", &list]);
        let sec = |k: &str| o.get(k) as f64 / 1e9;
        let check = sec("check_ns");
        let parts = sec("read_ns")
            + sec("load_ns")
            + sec("parse_ns")
            + sec("extract_ns")
            + sec("lower_ns")
            + sec("analyse_ns");
        let rest = (check + sec("read_ns") - parts).max(0.0);
        let cell = |s: f64| {
            format!(
                "{s:.3} s ({:.0}%)",
                100.0 * s / (check + sec("read_ns")).max(1e-9)
            )
        };
        println!(
            "| {} | {:.1} | {} | {} | {} | {} | {} | {} | {} | {:.3} s | {} | {} |",
            c.name.trim_end_matches("-stages"),
            c.mb(),
            cell(sec("read_ns")),
            cell(sec("load_ns")),
            cell(sec("parse_ns")),
            cell(sec("extract_ns")),
            cell(sec("lower_ns")),
            cell(sec("analyse_ns")),
            cell(rest),
            check + sec("read_ns"),
            o.get("sites"),
            o.get("components")
        );
        verdict_rows.push(format!(
            "| {} | {} ({:.3} s) | {} ({:.3} s) | {} ({:.3} s) |",
            c.name.trim_end_matches("-stages"),
            o.get("exact_n"),
            sec("exact_ns"),
            o.get("sampled_n"),
            sec("sampled_ns"),
            o.get("undecided_n"),
            sec("undecided_ns")
        ));
        slow_accesses.push((c.name.trim_end_matches("-stages").to_string(), o.slow));
    }
    println!();
    println!("Analysed components by verdict (count and analyse time):\n");
    println!("| corpus | exact | sampled (budget or unknown range) | undecided |");
    println!("|---|---:|---:|---:|");
    for row in &verdict_rows {
        println!("{row}");
    }
    println!();
    for (name, slow) in &slow_accesses {
        println!("Slowest accesses to analyse, {name}:\n");
        for (ns, what) in slow {
            println!("- {:.2} ms {what}", *ns as f64 / 1e6);
        }
        println!();
    }

    // Fast start.
    println!("## Start-up\n");
    let small = work.join("small.cu");
    fs::write(&small, SMALL_KERNEL).expect("write the small kernel");
    let small_s = small.to_string_lossy().into_owned();
    let firsts: Vec<f64> = (0..20)
        .map(|_| run_child("first", &["--file", &small_s]).get("elapsed_ns") as f64 / 1e6)
        .collect();
    let first_ms = median(firsts);
    println!("- first `check_source` in a fresh process (grammar and regex set-up included), median of 20: {first_ms:.2} ms");
    let startup_ms = startup(&small);
    println!();

    // Targets.
    let load_after = load_average();
    println!("## Targets\n");
    let gen = &results[gen_index];
    let ratio = gen.full_s / gen.parse_s.max(1e-9);
    let ratio_cpu = gen.full_cpu / gen.parse_cpu.max(1e-9);
    let peak = results
        .iter()
        .map(|m| m.full_hwm_mb.max(m.parse_hwm_mb))
        .fold(0.0, f64::max);
    let verdict = |ok: bool| if ok { "met" } else { "NOT met" };
    println!(
        "- full check <= 1.3x parse-only (generated corpus): {ratio:.2}x wall, {ratio_cpu:.2}x CPU, {}",
        verdict(ratio <= 1.3 && ratio_cpu <= 1.3)
    );
    for (c, m) in corpora
        .iter()
        .zip(&results)
        .filter(|(c, _)| !c.name.starts_with("generated"))
    {
        println!(
            "  - {}: {:.2}x wall, {:.2}x CPU",
            c.name,
            m.full_s / m.parse_s.max(1e-9),
            m.full_cpu / m.parse_cpu.max(1e-9)
        );
    }
    println!(
        "- peak memory < 200 MB: {peak:.1} MB, {}",
        verdict(peak < 200.0)
    );
    println!(
        "- linear scaling within 15%: worst per-file deviation {:.1}% CPU, {:.1}% wall, {} (judged on CPU time)",
        worst_cpu * 100.0,
        worst_wall * 100.0,
        verdict(worst_cpu <= 0.15)
    );
    match startup_ms {
        Some(ms) => println!("- start-up < 20 ms: {ms:.2} ms, {}", verdict(ms < 20.0)),
        None => println!("- start-up < 20 ms: not measured"),
    }
    println!("\nLoad average at start: {load_before}; at end: {load_after}.");
}

/// Wall time of the release `bankcheck` binary on `small`, median of 20 runs, in ms.
fn startup(small: &Path) -> Option<f64> {
    let Some(bin) = release_binary() else {
        println!("- release `bankcheck` binary not found next to the bench executable; run `cargo build --release` first. Skipped.");
        return None;
    };
    let times: Vec<f64> = (0..20)
        .map(|_| {
            let s = Instant::now();
            let out = Command::new(&bin)
                .arg(small)
                .output()
                .expect("spawn bankcheck");
            std::hint::black_box(out.status);
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    let min = times.iter().copied().fold(f64::INFINITY, f64::min);
    let m = median(times);
    println!(
        "- `{} small.cu`, wall time, median of 20: {m:.2} ms (min {min:.2} ms)",
        bin.display()
    );
    Some(m)
}

/// `target/release/bankcheck` (or `.exe`), next to `target/release/deps/` where the bench runs.
fn release_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let release = exe.parent()?.parent()?;
    ["bankcheck", "bankcheck.exe"]
        .iter()
        .map(|n| release.join(n))
        .find(|p| p.is_file())
}

/// The one small file of the start-up measurement.
const SMALL_KERNEL: &str = "#define TILE 32
__global__ void transpose(float* out, const float* in, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    for (int j = 0; j < TILE; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
void launch(float* o, const float* i, int n) { transpose<<<dim3(n / TILE, n / TILE), dim3(32, 8)>>>(o, i, n); }
";
