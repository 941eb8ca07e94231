//! `--write-baseline FILE` and `--baseline FILE`: adopting bankcheck on a repository
//! with findings already in it. A baseline records each finding by rule, file, array,
//! function and a fingerprint of the flagged code (a hash of its text with the
//! whitespace removed), plus its occurrence among findings that agree on all of those;
//! no line number takes part, so moving code (lines inserted above, reindenting) keeps
//! the match, while a new finding, or a second copy of an old one, is reported.

use super::read::{self, absolute};
use bankcheck::diag::Diagnostic;
use bankcheck::report::LineIndex;
use bankcheck::FileReport;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

/// The format this build writes and reads; another is refused with a clear error.
pub const VERSION: u32 = 1;

/// The file as written: a version, then the entries sorted by path, line and rule.
#[derive(Debug, Serialize, Deserialize)]
struct BaselineFile {
    version: u32,
    tool: String,
    entries: Vec<Entry>,
}

/// One recorded finding. `line` and `message` are for readers of the file only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub rule: String,
    /// Relative to the baseline file's directory, `/`-separated.
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub array: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// 64-bit FNV-1a of the flagged code's text without whitespace, in hex.
    pub fingerprint: String,
    /// 1 for the first finding with these rule, path, array, function and fingerprint
    /// in the file, 2 for the next, ...
    pub occurrence: usize,
    #[serde(default)]
    pub line: usize,
    #[serde(default)]
    pub message: String,
}

/// What identifies a finding: everything in an entry but the line and message, the rule
/// by its current id (so an old id kept as an alias still matches).
type Key = (
    String,
    String,
    Option<String>,
    Option<String>,
    String,
    usize,
);

fn key(entry: &Entry) -> Key {
    (
        canonical_rule(&entry.rule),
        entry.path.clone(),
        entry.array.clone(),
        entry.function.clone(),
        entry.fingerprint.clone(),
        entry.occurrence,
    )
}

/// The id the rule catalog knows `id` by: itself, or the rule that an old id (an alias
/// configuration still accepts) now stands for.
fn canonical_rule(id: &str) -> String {
    if let Some(meta) = bankcheck::rules::rule(id) {
        return meta.id.to_string();
    }
    match bankcheck::config::resolve::rule_selector(id, super::rule_catalog()) {
        Ok(ids) if ids.len() == 1 => ids[0].to_string(),
        _ => id.to_string(),
    }
}

/// A loaded baseline.
pub struct Baseline {
    /// The directory its paths are relative to.
    dir: PathBuf,
    keys: HashSet<Key>,
    /// Entries per path, to count those that no longer match anything.
    per_path: HashMap<String, usize>,
}

/// What the baseline did to one file's report.
#[derive(Debug, Default, Clone, Copy)]
pub struct Filtered {
    /// Findings found in the baseline, and so not reported.
    pub matched: usize,
    /// Baseline entries of this file that matched no finding (fixed, or changed).
    pub stale: usize,
}

impl Baseline {
    /// Reads and checks a baseline file; the error names the file and what is wrong.
    pub fn load(file: &Path) -> Result<Baseline, String> {
        let shown = file.display();
        let bytes = read::read_source(file, read::DEFAULT_MAX_FILE_SIZE)
            .map_err(|e| format!("{shown}: cannot read the baseline: {e}"))?
            .bytes;
        let not_ours = |why: String| {
            format!("{shown}: not a bankcheck baseline ({why}); write one with --write-baseline")
        };
        let value: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|e| not_ours(e.to_string()))?;
        let version = value
            .get("version")
            .ok_or_else(|| not_ours("no `version` field".to_string()))?;
        if version.as_u64() != Some(u64::from(VERSION)) {
            return Err(format!(
                "{shown}: baseline version {version} is not supported (this bankcheck reads version {VERSION}); write it again with --write-baseline"
            ));
        }
        let parsed: BaselineFile =
            serde_json::from_value(value).map_err(|e| not_ours(e.to_string()))?;
        let mut per_path: HashMap<String, usize> = HashMap::new();
        for entry in &parsed.entries {
            *per_path.entry(entry.path.clone()).or_default() += 1;
        }
        Ok(Baseline {
            dir: directory_of(file),
            keys: parsed.entries.iter().map(key).collect(),
            per_path,
        })
    }

    /// Removes from `report` the findings the baseline holds.
    pub fn filter(&self, report: &mut FileReport) -> Filtered {
        let found = entries(report, &self.dir);
        let path = relative_path(&self.dir, Path::new(&report.path));
        let matched: HashSet<usize> = found
            .iter()
            .filter(|(_, entry)| self.keys.contains(&key(entry)))
            .map(|(i, _)| *i)
            .collect();
        let mut index = 0;
        report.diagnostics.retain(|_| {
            index += 1;
            !matched.contains(&(index - 1))
        });
        let recorded = self.per_path.get(&path).copied().unwrap_or(0);
        Filtered {
            matched: matched.len(),
            stale: recorded.saturating_sub(matched.len()),
        }
    }
}

/// The directory of `file`, absolute and without `.`/`..`: what baseline paths are
/// relative to.
pub fn directory_of(file: &Path) -> PathBuf {
    normalise(&absolute(file))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// What findings that count as occurrences of one another share: rule, array, function
/// and fingerprint (the path is the file's).
type Same<'a> = (&'a str, Option<&'a str>, Option<String>, u64);

/// The baseline entries of a report's findings (a bankcheck failure, `internal-error`,
/// is never one), each with the index of its diagnostic; paths relative to `dir`.
pub fn entries(report: &FileReport, dir: &Path) -> Vec<(usize, Entry)> {
    let path = relative_path(dir, Path::new(&report.path));
    let index = LineIndex::new(&report.text);
    let mut seen: HashMap<Same<'_>, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, d) in report.diagnostics.iter().enumerate() {
        if super::check::is_internal_error(d) {
            continue;
        }
        // An array's own finding (`layout-conflict`) names it through its accesses.
        let array = d
            .access
            .as_deref()
            .or_else(|| d.worst_access())
            .map(|a| a.array.as_str());
        let function = d
            .access
            .as_ref()
            .and_then(|a| a.function.as_deref())
            .map(without_lines);
        let hash = fingerprint(&report.text, &index, d);
        let occurrence = seen
            .entry((d.rule, array, function.clone(), hash))
            .or_insert(0);
        *occurrence += 1;
        out.push((
            i,
            Entry {
                rule: canonical_rule(d.rule),
                path: path.clone(),
                array: array.map(str::to_string),
                function,
                fingerprint: format!("{hash:016x}"),
                occurrence: *occurrence,
                line: index.position(d.span).line,
                message: d.message.clone(),
            },
        ));
    }
    out
}

/// A function as reports name it, without the line numbers of its call chain
/// (`h (called from `k` on line 5)` becomes `h (called from `k`)`): they move with
/// the code.
fn without_lines(function: &str) -> String {
    static LINE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let line = LINE.get_or_init(|| regex::Regex::new(r" on line [0-9]+").expect("a valid pattern"));
    line.replace_all(function, "").into_owned()
}

/// The hash of the flagged code without whitespace: the diagnostic's span, or its line
/// when the span holds no code (an empty span).
fn fingerprint(text: &str, index: &LineIndex<'_>, d: &Diagnostic) -> u64 {
    let squeeze = |s: &str| -> String { s.chars().filter(|c| !c.is_whitespace()).collect() };
    let code_of = |d: &Diagnostic| {
        text.get(d.span.start..d.span.end)
            .map(squeeze)
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| squeeze(index.line_text(index.position(d.span).line)))
    };
    // A finding that folds others in (every conflicting access of an array) is the same
    // problem only with the same accesses: a new conflicting access makes it new.
    let mut folded: Vec<String> = d
        .related
        .iter()
        .map(|r| format!("{}:{}", r.rule, code_of(r)))
        .collect();
    folded.sort();
    let mut code = code_of(d);
    for f in folded {
        code.push('\n');
        code.push_str(&f);
    }
    fnv1a(code.as_bytes())
}

/// 64-bit FNV-1a: stable across runs, builds and platforms.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Writes `entries` as a baseline file; the error names the file.
pub fn write(file: &Path, mut entries: Vec<Entry>) -> Result<(), String> {
    entries.sort_by(|a, b| {
        (&a.path, a.line, &a.rule, a.occurrence).cmp(&(&b.path, b.line, &b.rule, b.occurrence))
    });
    let baseline = BaselineFile {
        version: VERSION,
        tool: "bankcheck".to_string(),
        entries,
    };
    let mut text = serde_json::to_string_pretty(&baseline).map_err(|e| e.to_string())?;
    text.push('\n');
    std::fs::write(file, text)
        .map_err(|e| format!("cannot write the baseline {}: {e}", file.display()))
}

/// `path` without `.` components and with `..` applied to the components before it.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// `file` (relative to the working directory, or absolute) relative to `dir`
/// (absolute), `/`-separated, with `..` to climb out of `dir`.
pub fn relative_path(dir: &Path, file: &Path) -> String {
    let file = normalise(&absolute(file));
    let dir: Vec<Component> = dir.components().collect();
    let parts: Vec<Component> = file.components().collect();
    let common = dir.iter().zip(&parts).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return file.to_string_lossy().replace('\\', "/");
    }
    let mut out: Vec<String> = vec!["..".to_string(); dir.len() - common];
    out.extend(
        parts[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    out.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_to_the_baseline_directory() {
        assert_eq!(
            relative_path(Path::new("/p"), Path::new("/p/src/./a.cu")),
            "src/a.cu"
        );
        assert_eq!(
            relative_path(Path::new("/p/base"), Path::new("/p/x/../src/a.cu")),
            "../src/a.cu"
        );
        assert_eq!(directory_of(Path::new("/p/q/../b.json")), Path::new("/p"));
    }

    #[test]
    fn call_chains_lose_their_line_numbers() {
        assert_eq!(
            without_lines("h (called from `g (called from `k` on line 5)` on line 10)"),
            "h (called from `g (called from `k`)`)"
        );
        assert_eq!(without_lines("kernel"), "kernel");
    }

    #[test]
    fn fingerprints_ignore_whitespace_only() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        let d = |start, end| {
            Diagnostic::new(
                "bank-conflict",
                bankcheck::diag::Severity::Warning,
                bankcheck::diag::Span { start, end },
                String::new(),
            )
        };
        let a = "x = t[i * 32];\n";
        let b = "\n\n   x =  t[i *\n 32];\n";
        let c = "x = t[i * 33];\n";
        let (ia, ib, ic) = (LineIndex::new(a), LineIndex::new(b), LineIndex::new(c));
        let fa = fingerprint(a, &ia, &d(4, 13));
        assert_eq!(fa, fingerprint(b, &ib, &d(10, 20)));
        assert_ne!(fa, fingerprint(c, &ic, &d(4, 13)));
        // An empty span stands for its line.
        assert_eq!(fingerprint(a, &ia, &d(0, 0)), fnv1a(b"x=t[i*32];"));
    }
}
