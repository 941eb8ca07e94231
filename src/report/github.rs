//! `--format github`: GitHub Actions workflow commands that become annotations on the
//! pull request, worst first, plus a markdown step summary of every finding.

use super::{factor_text, text::summary, LineIndex, LineIndexes, Run};
use crate::diag::{Diagnostic, Severity};
use crate::FileReport;
use std::fmt::Write as _;

/// GitHub shows at most this many annotations of each level from one step.
pub const ANNOTATIONS_SHOWN_PER_LEVEL: usize = 10;

/// One `::level file=..,line=..::message` line per finding, most harmful first.
pub fn render(run: &Run<'_>) -> String {
    let mut out = String::new();
    let mut indexes = LineIndexes::default();
    for (file, d) in by_harm(run) {
        let index = indexes.of(file);
        let at = index.position(d.span);
        let level = level_name(d.severity);
        let mut properties = format!(
            "file={},line={},endLine={}",
            property(&file.path),
            at.line,
            at.end_line
        );
        if at.line == at.end_line {
            let _ = write!(properties, ",col={},endColumn={}", at.column, at.end_column);
        }
        let _ = write!(
            properties,
            ",title={}",
            property(&format!("bankcheck {}", d.rule))
        );
        let mut message = d.message.clone();
        // An annotation shows one place: the other accesses of the problem are listed.
        let also = also_at(index, d);
        if !also.is_empty() {
            // A finding of a whole array points at its declaration: every access is listed.
            let lead = if d.access.is_some() {
                "also at"
            } else {
                "conflicting accesses at"
            };
            let _ = write!(message, "\n{lead} {also}");
        }
        if let Some(help) = &d.help {
            let _ = write!(message, "\nhelp: {help}");
        }
        let _ = writeln!(out, "::{level} {properties}::{}", data(&message));
    }
    out
}

/// The findings in the order GitHub should show them: errors first, then within a level
/// the most excess wavefronts, then the largest conflict factor, so that the worst
/// problems are among the annotations GitHub shows. `run` is already in path/line/rule
/// order and the sort is stable.
fn by_harm<'a>(run: &'a Run<'a>) -> Vec<(&'a FileReport, &'a Diagnostic)> {
    let mut findings: Vec<(&FileReport, &Diagnostic)> = run.diagnostics().collect();
    findings.sort_by(|(_, a), (_, b)| {
        let harm = |d: &Diagnostic| {
            let facts = d.worst_access();
            (
                facts.and_then(crate::diag::AccessFacts::excess_wavefronts),
                facts
                    .and_then(|f| f.conflict_factor)
                    .unwrap_or(f64::NEG_INFINITY),
            )
        };
        let (excess_a, factor_a) = harm(a);
        let (excess_b, factor_b) = harm(b);
        b.severity
            .cmp(&a.severity)
            .then(excess_b.cmp(&excess_a))
            .then(factor_b.total_cmp(&factor_a))
    });
    findings
}

/// Markdown for `$GITHUB_STEP_SUMMARY`: the summary line, how many findings GitHub will
/// not show as annotations, and a table per file.
pub fn step_summary(run: &Run<'_>) -> String {
    let mut out = format!("## bankcheck\n\n{}\n", summary(&run.totals()));
    let mut hidden = Vec::new();
    for level in [Severity::Error, Severity::Warning, Severity::Info] {
        let count = run
            .diagnostics()
            .filter(|(_, d)| d.severity == level)
            .count();
        if count > ANNOTATIONS_SHOWN_PER_LEVEL {
            let more = count - ANNOTATIONS_SHOWN_PER_LEVEL;
            let plural = if more == 1 { "" } else { "s" };
            hidden.push(format!("{more} {}{plural}", level_name(level)));
        }
    }
    if !hidden.is_empty() {
        let _ = write!(
            out,
            "\nGitHub shows {ANNOTATIONS_SHOWN_PER_LEVEL} annotations of each level per step, the most harmful first; not shown as annotations, only in the tables below: {}.\n",
            hidden.join(" and ")
        );
    }
    for file in run.files.iter().filter(|f| !f.diagnostics.is_empty()) {
        let index = LineIndex::new(&file.text);
        let _ = write!(out, "\n### `{}`\n\n", file.path.replace('`', "'"));
        out.push_str(
            "| Line | Severity | Rule | Conflict factor | Excess wavefronts | Message |\n",
        );
        out.push_str("|---:|---|---|---:|---:|---|\n");
        for d in &file.diagnostics {
            let (line, _) = index.line_col(d.span.start);
            let facts = d.worst_access();
            let factor = facts
                .and_then(|a| a.conflict_factor)
                .map_or_else(|| "-".to_string(), factor_text);
            let excess = facts
                .and_then(crate::diag::AccessFacts::excess_wavefronts)
                .map_or_else(|| "-".to_string(), |e| e.to_string());
            let message = d.message.replace('|', "\\|").replace(['\r', '\n'], " ");
            let _ = writeln!(
                out,
                "| {line} | {} | `{}` | {factor} | {excess} | {message} |",
                d.severity, d.rule
            );
        }
    }
    bank_maps(run, &mut out);
    for (path, reason) in run.failures {
        let _ = writeln!(
            out,
            "\n- could not check `{path}`: {}",
            reason.replace(['\r', '\n'], " ")
        );
    }
    out
}

/// Bank maps drawn in the step summary, the most harmful findings first.
pub const BANK_MAPS_SHOWN: usize = 5;

/// The step summary's bank maps: the most harmful conflicts' worst wavefronts before and
/// after their fix, as text pictures, and how many were not shown.
fn bank_maps(run: &Run<'_>, out: &mut String) {
    let with_maps: Vec<(&FileReport, &Diagnostic)> = by_harm(run)
        .into_iter()
        .filter(|(_, d)| d.bank_maps().is_some())
        .collect();
    if with_maps.is_empty() {
        return;
    }
    out.push_str("\n### Bank maps\n\nThe worst wavefront of each conflict: a column per bank, the distinct words it serves, before and after the suggested fix.\n");
    for (file, d) in with_maps.iter().take(BANK_MAPS_SHOWN) {
        let Some(maps) = d.bank_maps() else { continue };
        let index = LineIndex::new(&file.text);
        let (line, _) = index.line_col(d.span.start);
        let _ = write!(
            out,
            "\n`{}:{line}` `{}`: {}\n\n```text\n",
            file.path.replace('`', "'"),
            d.rule,
            d.message.replace(['\r', '\n'], " ")
        );
        let access = super::banks::pictured_access(d, &index);
        for l in super::banks::picture(maps, access.as_deref(), "", false) {
            // A fence inside the picture (from the source's text) would end the block.
            let _ = writeln!(out, "{}", l.replace("```", "'''"));
        }
        out.push_str("```\n");
    }
    if with_maps.len() > BANK_MAPS_SHOWN {
        let more = with_maps.len() - BANK_MAPS_SHOWN;
        let _ = write!(
            out,
            "\n{more} more bank map{} not shown here; the HTML report (`--format html`, the action's `html-file`) has every one.\n",
            if more == 1 { "" } else { "s" }
        );
    }
}

/// The other accesses of a finding's problem (`Diagnostic::related`), by line: `line 7
/// (store, 2-way), line 9 (load, 2-way)`; empty when it has none.
fn also_at(index: &LineIndex<'_>, d: &Diagnostic) -> String {
    let (line, _) = index.line_col(d.span.start);
    let mut places: Vec<(usize, String)> = Vec::new();
    for r in &d.related {
        let (at, _) = index.line_col(r.span.start);
        let Some(a) = r.access.as_deref() else {
            continue;
        };
        let what = match a.conflict_factor {
            Some(f) => format!("{}, {}-way", a.kind.as_str(), factor_text(f)),
            None => a.kind.as_str().to_string(),
        };
        if at == line && r.span == d.span {
            continue;
        }
        if !places.iter().any(|(l, w)| *l == at && *w == what) {
            places.push((at, what));
        }
    }
    places
        .iter()
        .map(|(l, w)| format!("line {l} ({w})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The workflow command of a severity, which is also what GitHub calls the level.
fn level_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// Escapes a command's message.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command property value, where `:` and `,` are syntax too.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample;

    #[test]
    fn escapes_and_orders_worst_first() {
        let mut files = sample();
        files.swap(0, 1);
        files[0].path = "src/b, c.cu".into();
        files[0].text = "x\n".into();
        files[0].diagnostics = vec![Diagnostic::new(
            "parse-error",
            Severity::Error,
            crate::diag::Span::new(0, 1),
            "bad".into(),
        )];
        let out = render(&Run {
            files: &files,
            failures: &[],
            notes: &[],
        });
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "::error file=src/b%2C c.cu,line=1,endLine=1,col=1,endColumn=2,title=bankcheck parse-error::bad");
        assert_eq!(
            lines[1],
            "::warning file=src/a.cu,line=3,endLine=3,col=3,endColumn=23,title=bankcheck bank-conflict::\
             32-way bank conflict on store to `tile`: 50%25, \"quoted\", a:b%0Asecond line%0Ahelp: pad the row to 33 floats"
        );
        assert!(
            lines[2].starts_with("::notice file=src/a.cu,line=4,"),
            "{}",
            lines[2]
        );
        assert_eq!(property("a:b,c%"), "a%3Ab%2Cc%25");
    }

    #[test]
    fn most_harmful_first_and_the_summary_counts_what_github_hides() {
        let mut files = sample();
        let template = files[0].diagnostics[0].clone();
        files[0].diagnostics = (1..=12u64)
            .map(|excess| {
                let mut d = template.clone();
                d.message = format!("excess {excess}");
                let facts = d.access.as_mut().expect("sample has facts");
                facts.wavefronts = Some(excess + 1);
                facts.conflict_factor = Some((excess + 1) as f64);
                d
            })
            .collect();
        let run = Run {
            files: &files,
            failures: &[],
            notes: &[],
        };
        let out = render(&run);
        let order: Vec<&str> = out
            .lines()
            .filter_map(|l| l.split("::").nth(2))
            .map(|m| m.split("%0A").next().unwrap_or(m))
            .collect();
        assert_eq!(order[0], "excess 12", "{out}");
        assert_eq!(order[11], "excess 1", "{out}");
        let summary = step_summary(&run);
        assert!(
            summary.contains("only in the tables below: 2 warnings."),
            "{summary}"
        );
    }

    #[test]
    fn multi_line_spans_have_no_columns() {
        let mut files = sample();
        let d = &mut files[0].diagnostics[0];
        d.span.end = d.span.start + 40;
        let out = render(&Run {
            files: &files,
            failures: &[],
            notes: &[],
        });
        let warning = out.lines().find(|l| l.starts_with("::warning")).unwrap();
        assert!(
            warning.starts_with("::warning file=src/a.cu,line=3,endLine=4,title="),
            "{warning}"
        );
    }

    #[test]
    fn step_summary_groups_by_file_with_factors() {
        let files = sample();
        let out = step_summary(&Run {
            files: &files,
            failures: &[("gone.cu".into(), "not found".into())],
            notes: &[],
        });
        assert!(out.starts_with("## bankcheck\n\nFound 2 problems"), "{out}");
        assert!(out.contains("### `src/a.cu`"), "{out}");
        assert!(
            out.contains("| 3 | warning | `bank-conflict` | 32 | 31 | 32-way bank conflict"),
            "{out}"
        );
        assert!(
            !out.contains("src/b, c.cu"),
            "files without findings are left out"
        );
        assert!(out.contains("could not check `gone.cu`: not found"));
    }
}
