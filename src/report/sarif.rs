//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning. Rules carry their pages as
//! help; results carry repository-relative locations, fingerprints that survive
//! unrelated edits, and the conflict numbers in `properties`.

use super::{factor_json, LineIndex, Run};
use crate::diag::Severity;
use crate::rules::{metas, RuleMeta};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

/// Renders the run; `base` is the directory that URIs are made relative to.
pub fn render(run: &Run<'_>, base: Option<&Path>) -> String {
    let mut out = Vec::new();
    // Writing into a vector cannot fail, and only valid UTF-8 is written.
    let _ = write(run, base, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes what [`render`] returns into `out`, the results one at a time.
pub fn write(
    run: &Run<'_>,
    base: Option<&Path>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let rules: Vec<Value> = metas().map(rule).collect();
    // Occurrences count per file (the key holds the file's URI), so results are made
    // one file at a time and written as they are made.
    let results = run.files.iter().flat_map(|file| {
        let mut results = Vec::with_capacity(file.diagnostics.len());
        let mut seen: HashMap<(&str, String), usize> = HashMap::new();
        let index = LineIndex::new(&file.text);
        let uri = relative_uri(&file.path, base);
        for d in &file.diagnostics {
            let at = index.position(d.span);
            let line_text = index.line_text(at.line).trim().to_string();
            let occurrence = seen.entry((d.rule, line_text.clone())).or_insert(0);
            *occurrence += 1;
            let fingerprint = format!("{:016x}:{occurrence}", fnv1a(&[d.rule, &uri, &line_text]));
            let mut result = json!({
                "ruleId": d.rule,
                "level": level(d.severity),
                "message": {"text": message_text(&d.message, d.help.as_deref())},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                        "region": {
                            "startLine": at.line,
                            "startColumn": at.column,
                            "endLine": at.end_line,
                            "endColumn": at.end_column,
                        }
                    }
                }],
                "partialFingerprints": {"bankcheckLineHash/v1": fingerprint},
            });
            if let Some(i) = metas().position(|r| r.id == d.rule) {
                result["ruleIndex"] = json!(i);
            }
            // Secondary locations: each conflicting access of the problem, the
            // declaration, the access inside a helper.
            let mut related: Vec<Value> = d
                .labels
                .iter()
                .enumerate()
                .map(|(id, l)| {
                    let p = index.position(l.span);
                    json!({
                        "id": id,
                        "message": {"text": l.message},
                        "physicalLocation": {
                            "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                            "region": {
                                "startLine": p.line,
                                "startColumn": p.column,
                                "endLine": p.end_line,
                                "endColumn": p.end_column,
                            }
                        }
                    })
                })
                .collect();
            // The access in a helper of another file, reported at this file's call.
            if let Some(h) = d.access.as_ref().and_then(|a| a.helper_elsewhere.as_ref()) {
                related.push(json!({
                    "id": related.len(),
                    "message": {"text": "the access, in the helper"},
                    "physicalLocation": {
                        "artifactLocation": {"uri": relative_uri(&h.path, base), "uriBaseId": "%SRCROOT%"},
                        "region": {
                            "startLine": h.line,
                            "startColumn": h.column,
                            "endLine": h.end_line,
                            "endColumn": h.end_column,
                        }
                    }
                }));
            }
            if !related.is_empty() {
                result["relatedLocations"] = json!(related);
            }
            if let Some(a) = d.access.as_deref().or_else(|| d.worst_access()) {
                result["properties"] = json!({
                    "array": a.array,
                    "kind": a.kind,
                    "conflict_factor": factor_json(a.conflict_factor),
                    "wavefronts": a.wavefronts,
                    "ideal_wavefronts": a.ideal_wavefronts,
                    "excess_wavefronts": a.excess_wavefronts(),
                });
            }
            results.push(result);
        }
        results
    });
    let notifications: Vec<Value> = run
        .failures
        .iter()
        .map(|(path, reason)| {
            json!({
                "level": "error",
                "message": {"text": format!("could not check {path}: {reason}")},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": relative_uri(path, base), "uriBaseId": "%SRCROOT%"}}}],
            })
        })
        .chain(run.notes.iter().map(|(path, note)| {
            json!({
                "level": "note",
                "message": {"text": format!("{path}: {note}")},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": relative_uri(path, base), "uriBaseId": "%SRCROOT%"}}}],
            })
        }))
        .collect();
    let sarif = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "bankcheck",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": run.failures.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "columnKind": "unicodeCodePoints",
            "results": RESULTS,
        }]
    });
    // The document without its results, which are written into it one at a time.
    let skeleton = serde_json::to_string_pretty(&sarif).unwrap_or_default();
    let marker = format!("{}", json!(RESULTS));
    match skeleton.split_once(&marker) {
        Some((before, after)) => {
            let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
            let indent = line.chars().take_while(|c| *c == ' ').count();
            out.write_all(before.as_bytes())?;
            super::write_array(out, indent, results)?;
            out.write_all(after.as_bytes())?;
        }
        None => out.write_all(skeleton.as_bytes())?,
    }
    out.write_all(b"\n")
}

/// Stands for the results in the document's skeleton; no result is this string.
const RESULTS: &str = "\u{1}bankcheck results\u{1}";

fn rule(meta: &RuleMeta) -> Value {
    let mut rule = json!({
        "id": meta.id,
        "name": pascal_case(meta.id),
        "shortDescription": {"text": sentence(meta.summary)},
        "fullDescription": {"text": full_description(meta)},
        "help": {"text": meta.page, "markdown": meta.page},
        "helpUri": format!("{}/blob/main/rules/{}.md", env!("CARGO_PKG_REPOSITORY"), meta.id),
        "defaultConfiguration": {"level": level(meta.default_severity), "enabled": meta.default_enabled},
        "properties": {"tags": [meta.group, "performance"], "group": meta.group},
    });
    // Retired ids, so that code scanning can match the alerts they raised.
    if !meta.retired.is_empty() {
        rule["deprecatedIds"] = json!(meta.retired);
    }
    rule
}

/// The summary and the page's *What it flags* section, as plain sentences.
fn full_description(meta: &RuleMeta) -> String {
    let flags = meta
        .page
        .split("## What it flags")
        .nth(1)
        .map(|rest| {
            rest.split("\n## ")
                .next()
                .unwrap_or_default()
                .trim()
                .replace('\n', " ")
        })
        .unwrap_or_default();
    if flags.is_empty() {
        sentence(meta.summary)
    } else {
        format!("{} {}", sentence(meta.summary), flags)
    }
}

/// Capitalised, ending in a period, as SARIF's style rules ask of descriptions.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>())
        .unwrap_or_default();
    out.push_str(chars.as_str());
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}

fn message_text(message: &str, help: Option<&str>) -> String {
    let mut text = sentence(message);
    if let Some(help) = help {
        text.push(' ');
        text.push_str(&sentence(help));
    }
    text
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn pascal_case(id: &str) -> String {
    id.split('-')
        .map(|w| sentence(w).trim_end_matches('.').to_string())
        .collect()
}

/// The path relative to `base` with forward slashes and no `./`, as code scanning expects.
pub(crate) fn relative_uri(path: &str, base: Option<&Path>) -> String {
    let p = Path::new(path);
    let relative = match base {
        Some(base) if p.is_absolute() => p.strip_prefix(base).unwrap_or(p),
        _ => p,
    };
    let text = relative.to_string_lossy().replace('\\', "/");
    let mut text = text.as_str();
    while let Some(rest) = text.strip_prefix("./") {
        text = rest;
    }
    text.split('/')
        .map(percent_encode)
        .collect::<Vec<_>>()
        .join("/")
}

/// Percent-encodes what may not stand in a URI path segment.
fn percent_encode(segment: &str) -> String {
    let mut out = String::new();
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&byte) {
            out.push(byte as char);
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// 64-bit FNV-1a over the parts, separated, so fingerprints are stable across runs and builds.
fn fnv1a(parts: &[&str]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain(std::iter::once(0)) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample;

    #[test]
    fn results_have_rule_level_location_fingerprint_and_numbers() {
        let files = sample();
        let out = render(
            &Run {
                files: &files,
                failures: &[],
                notes: &[],
            },
            None,
        );
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["version"], "2.1.0");
        let run = &v["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "bankcheck");
        assert_eq!(
            run["tool"]["driver"]["rules"].as_array().map(Vec::len),
            Some(crate::rules::RULES.len())
        );
        let r = &run["results"][0];
        assert_eq!(
            (r["ruleId"].as_str(), r["level"].as_str()),
            (Some("bank-conflict"), Some("warning"))
        );
        let loc = &r["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "src/a.cu");
        assert_eq!(
            (
                loc["region"]["startLine"].clone(),
                loc["region"]["startColumn"].clone()
            ),
            (json!(3), json!(3))
        );
        assert_eq!(
            (
                r["properties"]["conflict_factor"].clone(),
                r["properties"]["excess_wavefronts"].clone()
            ),
            (json!(32), json!(31))
        );
        assert_eq!(run["results"][1]["level"], "note");
        let again = render(
            &Run {
                files: &files,
                failures: &[],
                notes: &[],
            },
            None,
        );
        assert_eq!(out, again);
    }

    #[test]
    fn fingerprints_ignore_line_moves_but_not_content() {
        let mut files = sample();
        let before = render(
            &Run {
                files: &files,
                failures: &[],
                notes: &[],
            },
            None,
        );
        files[0].text.insert_str(0, "\n\n");
        for d in &mut files[0].diagnostics {
            d.span.start += 2;
            d.span.end += 2;
        }
        let after = render(
            &Run {
                files: &files,
                failures: &[],
                notes: &[],
            },
            None,
        );
        let fp = |s: &str| {
            serde_json::from_str::<Value>(s).unwrap()["runs"][0]["results"][0]
                ["partialFingerprints"]
                .clone()
        };
        assert_eq!(fp(&before), fp(&after));
        let v: Value = serde_json::from_str(&after).unwrap();
        assert_eq!(
            v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"],
            5
        );
    }

    #[test]
    fn uris_are_relative_and_encoded() {
        assert_eq!(relative_uri("./src/a b.cu", None), "src/a%20b.cu");
        assert_eq!(
            relative_uri("/repo/k/x.cu", Some(Path::new("/repo"))),
            "k/x.cu"
        );
    }
}
