//! The architecture of docs/architecture.md, enforced on the source:
//! - the module table of its "Module dependencies" section is read from the page itself,
//!   and every `crate::X` path in module `M` must name a module the table lets `M` use;
//! - no import circle between files: the `use` paths between source files (through
//!   `crate::`, `super::` and `self::`) form no cycle;
//! - every source file starts with a module doc comment.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The table of docs/architecture.md: rows `| `module` | `a`, `b` |` under the heading
/// "## Module dependencies", module to the modules it may use.
fn table() -> BTreeMap<String, BTreeSet<String>> {
    let page = std::fs::read_to_string(root().join("docs/architecture.md")).expect("the page");
    let section = page
        .split("\n## Module dependencies")
        .nth(1)
        .expect("a Module dependencies section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let ticked = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let mut table = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').collect();
        if cells.len() < 4 {
            continue;
        }
        let Some(module) = ticked(cells[1]).into_iter().next() else {
            continue;
        };
        table.insert(module, ticked(cells[2]).into_iter().collect());
    }
    assert!(
        table.len() > 10,
        "the table has a row per module: {table:?}"
    );
    table
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
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

/// A file's code without comments and without its unit tests (`#[cfg(test)] mod tests`,
/// which may use anything of its module).
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("readable source");
    let text = text
        .split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or(&text);
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module path of a file under src/ (`lower/interp.rs` -> `["lower", "interp"]`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.last_mut() {
        *last = last.trim_end_matches(".rs").to_string();
    }
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
        parts.pop();
    }
    parts
}

#[test]
fn modules_depend_only_on_what_the_table_allows() {
    let src = root().join("src");
    let allowed = table();
    let modules: BTreeSet<&str> = allowed.keys().map(String::as_str).collect();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut violations = Vec::new();
    for f in &files {
        let module = module_of(&src, f).into_iter().next().unwrap_or_default();
        let Some(ok) = allowed.get(&module) else {
            assert!(
                matches!(module.as_str(), "" | "main"),
                "`{module}` has no row in the table of docs/architecture.md"
            );
            continue;
        };
        for (i, line) in code_of(f).lines().enumerate() {
            for (at, _) in line.match_indices("crate::") {
                let name: String = line[at + 7..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if modules.contains(name.as_str()) && name != module && !ok.contains(&name) {
                    violations.push(format!(
                        "{}:{}: `{module}` uses `{name}`",
                        f.strip_prefix(&src).unwrap_or(f).display(),
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "module dependencies the table of docs/architecture.md does not allow:\n{}",
        violations.join("\n")
    );
}

/// The files each file imports from, by the paths its code names.
fn file_graph(src: &Path, files: &[PathBuf]) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let by_module: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| (module_of(src, f), f.clone()))
        .collect();
    // The file of the longest prefix of `path` that names a module (not the crate root:
    // its items are open to all).
    let resolve = |path: &[String]| -> Option<&PathBuf> {
        (1..=path.len())
            .rev()
            .find_map(|n| by_module.get(&path[..n]))
    };
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut graph = BTreeMap::new();
    for f in files {
        // The module `self::` and `super::` count from.
        let here = module_of(src, f);
        let code = code_of(f);
        let mut targets = BTreeSet::new();
        let mut add = |base: Vec<String>, rest: &str| {
            let mut path = base;
            path.extend(
                rest.split("::")
                    .map(|s| s.trim().to_string())
                    .take_while(|s| !s.is_empty() && s.chars().all(word)),
            );
            if let Some(t) = resolve(&path) {
                if t != f {
                    targets.insert(t.clone());
                }
            }
        };
        for start in ["crate::", "super::", "self::"] {
            for (at, _) in code.match_indices(start) {
                if at > 0 && code[..at].ends_with(|c: char| word(c) || c == ':') {
                    continue;
                }
                let mut base = match start {
                    "crate::" => Vec::new(),
                    "super::" => here[..here.len().saturating_sub(1)].to_vec(),
                    _ => here.clone(),
                };
                let mut rest = &code[at + start.len()..];
                while let Some(r) = rest.strip_prefix("super::") {
                    base.pop();
                    rest = r;
                }
                let path_end = rest
                    .find(|c: char| !(word(c) || c == ':'))
                    .unwrap_or(rest.len());
                let (path, after) = rest.split_at(path_end);
                // `use crate::a::{b, c::d}`: each item of the group.
                if path.ends_with("::") && after.starts_with('{') {
                    let group = after[1..].split('}').next().unwrap_or("");
                    for item in group.split(',') {
                        let item = item.split(" as ").next().unwrap_or("").trim();
                        add(base.clone(), &format!("{path}{item}"));
                    }
                } else {
                    add(base, path);
                }
            }
        }
        graph.insert(f.clone(), targets);
    }
    graph
}

/// The strongly connected components of more than one file (Tarjan's algorithm).
fn cycles(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on_stack: BTreeSet<&'a PathBuf>,
        out: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a PathBuf) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        let graph = s.graph;
        for w in graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn no_import_circle_between_files() {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let found = cycles(&file_graph(&src, &files));
    let shown: Vec<String> = found
        .iter()
        .map(|c| {
            c.iter()
                .map(|f| f.strip_prefix(&src).unwrap_or(f).display().to_string())
                .collect::<Vec<_>>()
                .join(" <-> ")
        })
        .collect();
    assert!(
        found.is_empty(),
        "files that import each other:\n{}",
        shown.join("\n")
    );
}

/// The cycle finder finds a circle of three files and nothing in a chain.
#[test]
fn the_cycle_finder_finds_cycles() {
    let p = |s: &str| PathBuf::from(s);
    let graph: BTreeMap<PathBuf, BTreeSet<PathBuf>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a", "d"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(f, t)| (p(f), t.into_iter().map(p).collect()))
    .collect();
    assert_eq!(cycles(&graph), vec![vec![p("a"), p("b"), p("c")]]);
    let chain: BTreeMap<PathBuf, BTreeSet<PathBuf>> = [("a", vec!["b"]), ("b", vec![])]
        .into_iter()
        .map(|(f, t)| (p(f), t.into_iter().map(p).collect()))
        .collect();
    assert!(cycles(&chain).is_empty());
}

#[test]
fn every_source_file_starts_with_a_module_doc_comment() {
    let src = root().join("src");
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
