//! Configuration errors: a message pointing at a file, line and key, with a
//! "did you mean" when a close name exists. Rendered as text by their `Display`.

use std::fmt;

/// A problem in a `lint.toml` or in a command-line setting.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ConfigError {
    /// The file as named (or `command line`).
    pub file: String,
    /// 1-based line and column of the offending key or value, when known.
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// The key the problem is about, when known.
    pub key: Option<String>,
    pub message: String,
    pub help: Option<String>,
    /// The source line, for the excerpt under the message.
    pub excerpt: Option<(String, usize, usize)>,
}

impl ConfigError {
    /// An error about the command line, where there is no file to point into.
    pub fn command_line(message: impl Into<String>, help: Option<String>) -> Self {
        ConfigError {
            file: "command line".to_string(),
            line: None,
            column: None,
            key: None,
            message: message.into(),
            help,
            excerpt: None,
        }
    }

    /// An error at byte range `span` of `text`, the contents of `file`.
    pub fn at(
        file: &str,
        text: &str,
        span: std::ops::Range<usize>,
        key: Option<String>,
        message: impl Into<String>,
        help: Option<String>,
    ) -> Self {
        let start = span.start.min(text.len());
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line = text[..start].matches('\n').count() + 1;
        let column = text[line_start..start].chars().count() + 1;
        let width = text[start..span.end.clamp(start, line_end)]
            .chars()
            .count()
            .max(1);
        let source_line = text[line_start..line_end]
            .trim_end_matches('\r')
            .to_string();
        ConfigError {
            file: file.to_string(),
            line: Some(line),
            column: Some(column),
            key,
            message: message.into(),
            help,
            excerpt: Some((source_line, column, width)),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, ":{line}:{column}")?;
        }
        write!(f, ": {}", self.message)?;
        if let (Some((text, column, width)), Some(line)) = (&self.excerpt, self.line) {
            let gutter = " ".repeat(line.to_string().len());
            write!(
                f,
                "\n{gutter} |\n{line} | {text}\n{gutter} | {}{}",
                " ".repeat(column - 1),
                "^".repeat(*width)
            )?;
        }
        if let Some(help) = &self.help {
            write!(f, "\n  = help: {help}")?;
        }
        Ok(())
    }
}

/// The candidate closest to `name` by edit distance, when it is close enough to be a typo.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}

/// Levenshtein distance over chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != *cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(
            did_you_mean("bank-cout", ["bank-count", "bank-width"]),
            Some("bank-count")
        );
        assert_eq!(did_you_mean("zzzzzz", ["bank-count", "bank-width"]), None);
    }

    #[test]
    fn points_at_line_and_column() {
        let text = "preset = \"nvidia\"\nbank-cout = 16\n";
        let err = ConfigError::at(
            "lint.toml",
            text,
            18..27,
            Some("bank-cout".into()),
            "unknown key `bank-cout`",
            None,
        );
        assert_eq!((err.line, err.column), (Some(2), Some(1)));
        let shown = err.to_string();
        assert!(
            shown.starts_with("lint.toml:2:1: unknown key `bank-cout`"),
            "{shown}"
        );
        assert!(
            shown.contains("2 | bank-cout = 16\n  | ^^^^^^^^^"),
            "{shown}"
        );
    }
}
