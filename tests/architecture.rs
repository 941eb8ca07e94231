//! The module dependency table of docs/architecture.md, enforced: every `crate::X` path
//! in a module must name a module that module may depend on.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Allowed dependencies; `lib` items (`crate::Language`, `crate::FileReport`,
/// `crate::check_source`) are open to all. Leaves depend on nothing.
const ALLOWED: &[(&str, &[&str])] = &[
    ("f2", &[]),
    ("bank", &[]),
    ("diag", &[]),
    ("source", &["diag"]),
    ("extract", &["source", "diag"]),
    ("config", &["bank", "diag"]),
    ("model", &["bank", "diag"]),
    ("lower", &["model", "extract", "source", "config", "diag"]),
    ("analyse", &["model", "lower", "bank", "f2", "diag"]),
    ("swizzle", &["model", "lower", "bank", "f2", "diag"]),
    ("fix", &["diag"]),
    (
        "rules",
        &[
            "analyse", "model", "lower", "swizzle", "config", "bank", "diag",
        ],
    ),
    ("report", &["rules", "config", "diag"]),
    (
        "project",
        &["source", "extract", "model", "lower", "config"],
    ),
    (
        "pipeline",
        &[
            "source", "extract", "model", "lower", "analyse", "swizzle", "rules", "project",
            "config", "bank", "diag",
        ],
    ),
    (
        "driver",
        &["pipeline", "project", "rules", "config", "diag"],
    ),
];

const MODULES: &[&str] = &[
    "f2", "bank", "diag", "source", "extract", "config", "model", "lower", "analyse", "swizzle",
    "fix", "rules", "report", "project", "pipeline", "driver", "cli",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn modules_depend_only_on_what_the_table_allows() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let allowed: BTreeMap<&str, BTreeSet<&str>> = ALLOWED
        .iter()
        .map(|(m, d)| (*m, d.iter().copied().collect()))
        .collect();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut violations = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&src).expect("under src");
        let module = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .unwrap_or("")
            .trim_end_matches(".rs")
            .to_string();
        let Some(ok) = allowed.get(module.as_str()) else {
            continue;
        };
        let text = std::fs::read_to_string(&f).expect("readable source");
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for (at, _) in code.match_indices("crate::") {
                let rest = &code[at + 7..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if MODULES.contains(&name.as_str()) && name != module && !ok.contains(name.as_str())
                {
                    violations.push(format!(
                        "{}:{}: `{module}` uses `{name}`",
                        rel.display(),
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "forbidden module dependencies:\n{}",
        violations.join("\n")
    );
}

#[test]
fn every_source_file_starts_with_a_module_doc_comment() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let missing: Vec<String> = files
        .iter()
        .filter(|f| {
            !std::fs::read_to_string(f)
                .unwrap_or_default()
                .trim_start()
                .starts_with("//!")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        missing.is_empty(),
        "files without a `//!` paragraph: {missing:?}"
    );
}
