//! `--format text` (the default): rustc-style snippets via codespan-reporting with the
//! access underlined, the declaration as a secondary label, notes and help, then one
//! summary line. Colour is decided by the caller.

use super::{factor_text, Run, Totals};
use crate::diag::{Applicability, Diagnostic, Severity};
use codespan_reporting::diagnostic::{Diagnostic as Shown, Label, Severity as ShownSeverity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};

/// Renders every finding followed by the summary line; ANSI colours when `color`; the
/// bank maps of each conflict when `show_banks`.
pub fn render(run: &Run<'_>, color: bool, show_banks: bool) -> Vec<u8> {
    let mut rendered = render_findings(run, color, show_banks);
    rendered.extend_from_slice(summary(&run.totals()).as_bytes());
    rendered.push(b'\n');
    rendered
}

/// Renders every finding, without the summary line (`--quiet`).
pub fn render_findings(run: &Run<'_>, color: bool, show_banks: bool) -> Vec<u8> {
    let config = term::Config::default();
    let mut out = Vec::new();
    for file in run.files {
        let text = crate::diag::lone_cr_as_lf(&file.text);
        let source = SimpleFile::new(file.path.as_str(), text.as_ref());
        let mut index = None;
        for d in &file.diagnostics {
            let mut shown = shown(d, file.text.len());
            if let Some(maps) = d.bank_maps().filter(|_| show_banks) {
                // A note of the finding, so that it is indented as the others are.
                let index = index.get_or_insert_with(|| super::LineIndex::new(&file.text));
                let access = super::banks::pictured_access(d, index);
                let lines = super::banks::picture(maps, access.as_deref(), "", color);
                shown.notes.push(lines.join("\n  "));
            }
            // Emitting into memory fails only on a span outside the text, which the engine
            // never produces; fall back to one plain line rather than drop the finding.
            let emitted = if color {
                let mut w = termcolor::Ansi::new(Vec::new());
                term::emit(&mut w, &config, &source, &shown).map(|()| w.into_inner())
            } else {
                let mut w = termcolor::NoColor::new(Vec::new());
                term::emit(&mut w, &config, &source, &shown).map(|()| w.into_inner())
            };
            match emitted {
                Ok(mut bytes) => {
                    if d.severity == Severity::Info {
                        info_not_note(&mut bytes);
                    }
                    out.extend_from_slice(&bytes);
                }
                Err(_) => {
                    out.extend_from_slice(
                        format!("{}: {}[{}] {}\n", file.path, d.severity, d.rule, d.message)
                            .as_bytes(),
                    );
                }
            }
        }
    }
    out
}

/// The renderer names bankcheck's `info` severity `note` (its nearest level): the
/// header says `info`, as the summary line and every other format do.
fn info_not_note(bytes: &mut [u8]) {
    if let Some(at) = bytes.windows(5).position(|w| w == b"note[") {
        bytes[at..at + 4].copy_from_slice(b"info");
    }
}

/// The summary line: `Found 3 problems (2 warnings, 1 info) in 2 of 5 files; 40 accesses checked, 2 undecided`.
pub fn summary(t: &Totals) -> String {
    let files = if t.files == 1 {
        "1 file".to_string()
    } else {
        format!("{} files", t.files)
    };
    let mut tail = format!("{} accesses checked, {} undecided", t.accesses, t.undecided);
    if t.unfound_arrays > 0 {
        let arrays = if t.unfound_arrays == 1 {
            "1 shared array".to_string()
        } else {
            format!("{} shared arrays", t.unfound_arrays)
        };
        tail.push_str("; ");
        tail.push_str(&arrays);
        tail.push_str(" with no access found");
        if t.unfound_explained < t.unfound_arrays {
            tail.push_str(" (`--extend-select undecided-access` says why)");
        }
    }
    if t.findings() == 0 {
        return format!("No problems found in {files}; {tail}");
    }
    let mut parts = Vec::new();
    if t.errors > 0 {
        parts.push(plural(t.errors, "error"));
    }
    if t.warnings > 0 {
        parts.push(plural(t.warnings, "warning"));
    }
    if t.infos > 0 {
        parts.push(format!("{} info", t.infos));
    }
    format!(
        "Found {} ({}) in {} of {files}; {tail}",
        plural(t.findings(), "problem"),
        parts.join(", "),
        t.files_with_findings
    )
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn shown(d: &Diagnostic, len: usize) -> Shown<()> {
    let severity = match d.severity {
        Severity::Error => ShownSeverity::Error,
        Severity::Warning => ShownSeverity::Warning,
        Severity::Info => ShownSeverity::Note,
    };
    let clamp = |s: crate::diag::Span| s.start.min(len)..s.end.min(len);
    // The load and the store of one expression (`s[i] += x`) are one finding.
    let mut kinds: Vec<crate::diag::AccessKind> = d
        .with_related()
        .filter(|r| r.span == d.span)
        .filter_map(|r| r.access.as_deref().map(|a| a.kind))
        .collect();
    kinds.sort();
    kinds.dedup();
    let kinds: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
    let primary = match &d.access {
        Some(a) => match (a.conflict_factor, a.wavefronts, a.ideal_wavefronts) {
            (Some(factor), Some(wavefronts), Some(ideal)) => format!(
                "{} of `{}`: factor {}, {wavefronts} wavefronts where {ideal} would do",
                kinds.join(" and "),
                a.array,
                factor_text(factor)
            ),
            _ => format!("{} of `{}`", kinds.join(" and "), a.array),
        },
        None => String::new(),
    };
    let mut labels = vec![Label::primary((), clamp(d.span)).with_message(primary)];
    labels.extend(
        d.labels
            .iter()
            .map(|l| Label::secondary((), clamp(l.span)).with_message(l.message.clone())),
    );
    let mut notes: Vec<String> = Vec::new();
    // Each note once: a rule that states the assumptions among its notes has them
    // printed once, and an assumption that says "assumed" itself is not prefixed again.
    let mut add = |note: String| {
        if !notes.contains(&note) {
            notes.push(note);
        }
    };
    for n in &d.notes {
        add(n.clone());
    }
    if let Some(a) = &d.access {
        for s in &a.assumptions {
            if d.notes.contains(s) {
                continue;
            }
            if s.contains("assumed") {
                add(s.clone());
            } else {
                add(format!("assumed: {s}"));
            }
        }
        if let Some(n) = a.depends_note() {
            add(n);
        }
    }
    if let Some(help) = &d.help {
        notes.push(format!("help: {help}"));
    }
    if let Some(s) = &d.suggestion {
        let how = match s.applicability {
            Applicability::Safe => "safe, `--fix` applies it",
            Applicability::Unsafe => "review it: it changes sizes or strides",
            Applicability::DisplayOnly => "shown only",
        };
        // The help usually says the same in words; then only the code is added.
        if d.help.as_deref() == Some(&*s.message) {
            notes.push(format!("{} ({how}):\n  {}", s.kind, s.replacement));
        } else {
            notes.push(format!(
                "{} ({how}): {}\n  {}",
                s.kind, s.message, s.replacement
            ));
        }
    }
    Shown::new(severity)
        .with_code(d.rule)
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample;

    #[test]
    fn underlines_the_access_and_ends_with_the_summary() {
        let files = sample();
        let out = String::from_utf8(render(
            &Run {
                files: &files,
                failures: &[],
                notes: &[],
            },
            false,
            false,
        ))
        .unwrap();
        assert!(
            out.starts_with("warning[bank-conflict]: 32-way bank conflict on store to `tile`"),
            "{out}"
        );
        assert!(out.contains("src/a.cu:3:3"), "{out}");
        assert!(
            out.contains(
                "^^^^^^^^^^^^^^^^^^^^ store of `tile`: factor 32, 32 wavefronts where 1 would do"
            ),
            "{out}"
        );
        assert!(out.contains("declared here"), "{out}");
        assert!(out.contains("= help: pad the row to 33 floats"), "{out}");
        assert!(!out.contains('\u{1b}'), "no colour when not asked");
        assert!(out.ends_with("Found 2 problems (1 warning, 1 info) in 1 of 2 files; 3 accesses checked, 1 undecided\n"), "{out}");
        let coloured = render(
            &Run {
                files: &files,
                failures: &[],
                notes: &[],
            },
            true,
            false,
        );
        assert!(coloured.contains(&0x1b));
    }

    #[test]
    fn arrays_with_no_access_found_are_counted_in_the_summary() {
        let t = Totals {
            files: 1,
            unfound_arrays: 2,
            ..Totals::default()
        };
        assert_eq!(
            summary(&t),
            "No problems found in 1 file; 0 accesses checked, 0 undecided; 2 shared arrays with no access found (`--extend-select undecided-access` says why)"
        );
        // With the rule on, its diagnostics say why: no hint.
        let explained = Totals {
            infos: 2,
            files_with_findings: 1,
            unfound_explained: 2,
            ..t
        };
        assert!(
            summary(&explained).ends_with("0 undecided; 2 shared arrays with no access found"),
            "{}",
            summary(&explained)
        );
    }

    #[test]
    fn summary_without_findings() {
        let t = Totals {
            files: 1,
            accesses: 4,
            ..Totals::default()
        };
        assert_eq!(
            summary(&t),
            "No problems found in 1 file; 4 accesses checked, 0 undecided"
        );
    }
}
