//! `--format compact`: one line per finding, `file:line:col: severity[rule] message`,
//! for editors' error parsers and grep.

use super::{LineIndex, Run};
use std::fmt::Write as _;

pub fn render(run: &Run<'_>) -> String {
    let mut out = String::new();
    for file in run.files {
        let index = LineIndex::new(&file.text);
        for d in &file.diagnostics {
            let (line, column) = index.line_col(d.span.start);
            let message = d.message.replace(['\r', '\n'], " ");
            let _ = writeln!(
                out,
                "{}:{line}:{column}: {}[{}] {message}",
                file.path, d.severity, d.rule
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample;

    #[test]
    fn one_line_per_finding() {
        let files = sample();
        let out = render(&Run {
            files: &files,
            failures: &[],
            notes: &[],
        });
        assert_eq!(
            out,
            "src/a.cu:3:3: warning[bank-conflict] 32-way bank conflict on store to `tile`: 50%, \"quoted\", a:b second line\n\
             src/a.cu:4:12: info[possible-conflict] possible 2-way conflict\n"
        );
    }
}
