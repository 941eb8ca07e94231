//! `--format html`: one self-contained page (inline CSS and script, a content security
//! policy that forbids any network access) with a sortable table of every finding and,
//! per conflict, its bank maps: a grid of the worst wavefront's lanes by bank, before and
//! after the suggested fix.

use super::banks::{lane_list, loaded, symbol, wavefronts, words};
use super::{factor_text, text::summary, LineIndex, LineIndexes, Run};
use crate::diag::{BankMap, BankMaps, Diagnostic};
use std::fmt::Write as _;

/// Bank maps drawn in one page; the table lists every finding.
pub const MAPS_SHOWN: usize = 200;

const STYLE: &str = r#"
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#1b1f24;background:#fff}
h1{font-size:1.4em;margin:0 0 .3em}h2{font-size:1.15em;margin:1.6em 0 .5em}
h3{font-size:1em;margin:0 0 .3em;font-family:ui-monospace,monospace}
code,.mono{font-family:ui-monospace,monospace;font-size:.92em}
table.findings{border-collapse:collapse;width:100%}
table.findings th,table.findings td{border-bottom:1px solid #d0d7de;padding:.3em .5em;text-align:left;vertical-align:top}
table.findings th{cursor:pointer;background:#f6f8fa;user-select:none;white-space:nowrap}
table.findings th[aria-sort=ascending]::after{content:" \25B2"}
table.findings th[aria-sort=descending]::after{content:" \25BC"}
td.num{text-align:right;font-variant-numeric:tabular-nums}
table.findings td:nth-child(4){white-space:nowrap}table.findings td:last-child{min-width:28em}
.sev-error{color:#cf222e;font-weight:600}.sev-warning{color:#9a6700;font-weight:600}.sev-info{color:#0969da}
section.finding{border:1px solid #d0d7de;border-radius:6px;padding:.8em 1em;margin:1em 0}
.maps{display:flex;flex-wrap:wrap;gap:2em;margin-top:.6em}
.map{margin:0;max-width:460px}
.map figcaption{font-weight:600;margin-bottom:.3em;min-height:2.8em}
table.grid{border-collapse:collapse}
table.grid td,table.grid th{width:13px;height:13px;padding:0;font-size:9px;text-align:center;border:1px solid #eaeef2}
table.grid th{font-weight:normal;color:#57606a}
table.grid th.lane{width:auto;padding-right:4px;text-align:right}
table.grid td.hit{background:#2da44e}table.grid td.hit.clash{background:#cf222e}
table.grid tr.load td{height:16px;font-weight:600}
table.grid tr.load td.clash{color:#cf222e}
.note{color:#57606a}
ul.words{margin:.3em 0;padding-left:1.2em;font-size:.85em}
"#;

const SCRIPT: &str = r"
function sortBy(th){
  var table=th.closest('table'),body=table.tBodies[0],col=th.cellIndex;
  var dir=th.getAttribute('aria-sort')==='descending'?'ascending':'descending';
  if(th.dataset.type==='text'&&!th.getAttribute('aria-sort'))dir='ascending';
  for(var h of table.tHead.rows[0].cells)h.removeAttribute('aria-sort');
  th.setAttribute('aria-sort',dir);
  var rows=Array.from(body.rows),num=th.dataset.type==='num';
  rows.sort(function(a,b){
    var x=a.cells[col].dataset.key,y=b.cells[col].dataset.key,c;
    if(num){c=(parseFloat(x)||-1)-(parseFloat(y)||-1);}else{c=x.localeCompare(y);}
    if(c!==0)return dir==='ascending'?c:-c;
    return parseInt(a.dataset.order)-parseInt(b.dataset.order);
  });
  for(var r of rows)body.appendChild(r);
}
for(var th of document.querySelectorAll('table.findings th'))th.addEventListener('click',function(e){sortBy(e.currentTarget);});
";

/// The whole page.
pub fn render(run: &Run<'_>) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<title>bankcheck report</title>\n<style>");
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n<h1>bankcheck report</h1>\n");
    let _ = writeln!(
        out,
        "<p id=\"summary\">{} <span class=\"note\">(bankcheck {})</span></p>",
        esc(&summary(&run.totals())),
        env!("CARGO_PKG_VERSION")
    );
    let findings: Vec<(&crate::FileReport, &Diagnostic)> = run.diagnostics().collect();
    if !findings.is_empty() {
        table(&mut out, &findings);
    }
    let with_maps: Vec<(usize, &crate::FileReport, &Diagnostic)> = findings
        .iter()
        .enumerate()
        .filter(|(_, (_, d))| d.bank_maps().is_some())
        .map(|(i, (f, d))| (i, *f, *d))
        .collect();
    if !with_maps.is_empty() {
        out.push_str("<h2>Bank maps</h2>\n<p class=\"note\">The worst wavefront of each conflict: one row per lane, one column per bank; a cell is filled where the lane reaches the bank (hover for the word), red where the bank costs more than one wavefront. The last row counts the wavefronts each bank costs: the distinct words it serves (an atomic serves each lane on a word alone). \"After\" places the same lanes with the suggested fix, as bankcheck verified it.</p>\n");
    }
    let mut indexes = LineIndexes::default();
    for &(i, file, d) in with_maps.iter().take(MAPS_SHOWN) {
        finding(&mut out, i, indexes.of(file), file, d);
    }
    if with_maps.len() > MAPS_SHOWN {
        let _ = writeln!(
            out,
            "<p class=\"note\">{} more bank maps not shown.</p>",
            with_maps.len() - MAPS_SHOWN
        );
    }
    for (path, reason) in run.failures {
        let _ = writeln!(
            out,
            "<p class=\"sev-error\">could not check <code>{}</code>: {}</p>",
            esc(path),
            esc(reason)
        );
    }
    out.push_str("<script>");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

/// The sortable table of every finding.
fn table(out: &mut String, findings: &[(&crate::FileReport, &Diagnostic)]) {
    out.push_str("<h2>Findings</h2>\n<table class=\"findings\" id=\"findings\">\n<thead><tr>");
    for (key, label, kind) in [
        ("file", "File", "text"),
        ("line", "Line", "num"),
        ("severity", "Severity", "num"),
        ("rule", "Rule", "text"),
        ("factor", "Factor", "num"),
        ("excess", "Excess wavefronts", "num"),
        ("message", "Message", "text"),
    ] {
        let _ = write!(
            out,
            "<th data-key=\"{key}\" data-type=\"{kind}\" title=\"sort by {}\">{label}</th>",
            label.to_lowercase()
        );
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    let mut indexes = LineIndexes::default();
    for (i, (file, d)) in findings.iter().enumerate() {
        let index = indexes.of(file);
        let (line, _) = index.line_col(d.span.start);
        let facts = d.worst_access();
        let factor = facts.and_then(|a| a.conflict_factor);
        let excess = facts.and_then(crate::diag::AccessFacts::excess_wavefronts);
        let severity_rank = match d.severity {
            crate::diag::Severity::Error => 3,
            crate::diag::Severity::Warning => 2,
            crate::diag::Severity::Info => 1,
        };
        let message = if d.bank_maps().is_some() {
            format!("<a href=\"#f{i}\">{}</a>", esc(&d.message))
        } else {
            esc(&d.message)
        };
        let _ = writeln!(
            out,
            "<tr data-order=\"{i}\"><td data-key=\"{path}\"><code>{shown_path}</code></td><td class=\"num\" data-key=\"{line}\">{line}</td><td data-key=\"{severity_rank}\" class=\"sev-{sev}\">{sev}</td><td data-key=\"{rule}\"><code>{rule}</code></td><td class=\"num\" data-key=\"{fk}\">{ft}</td><td class=\"num\" data-key=\"{ek}\">{et}</td><td data-key=\"{mk}\">{message}</td></tr>",
            path = esc(&file.path),
            // A long path breaks after its slashes, not inside a name.
            shown_path = esc(&file.path).replace('/', "/<wbr>"),
            sev = d.severity,
            rule = d.rule,
            fk = factor.map_or_else(String::new, |f| f.to_string()),
            ft = factor.map_or_else(|| "-".to_string(), factor_text),
            ek = excess.map_or_else(String::new, |e| e.to_string()),
            et = excess.map_or_else(|| "-".to_string(), |e| e.to_string()),
            mk = esc(&d.message),
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

/// One conflict's section: where, what, and its maps.
fn finding(
    out: &mut String,
    i: usize,
    index: &LineIndex<'_>,
    file: &crate::FileReport,
    d: &Diagnostic,
) {
    let Some(maps) = d.bank_maps() else { return };
    let (line, _) = index.line_col(d.span.start);
    let _ = writeln!(
        out,
        "<section class=\"finding\" id=\"f{i}\">\n<h3>{}:{line} {}</h3>\n<p>{}</p>",
        esc(&file.path),
        d.rule,
        esc(&d.message)
    );
    let of = super::banks::pictured_access(d, index)
        .map(|a| format!(" of {a}"))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "<p class=\"note\">Worst wavefront{}: {}, lanes {}-{}.</p>",
        esc(&of),
        esc(&maps.at),
        maps.before.first_lane,
        maps.before.first_lane + maps.before.lanes.saturating_sub(1)
    );
    out.push_str("<div class=\"maps\">\n");
    grid(out, "before", &maps.before, maps);
    match &maps.after {
        Some(after) => grid(out, "after", after, maps),
        None => {
            let _ = writeln!(
                out,
                "<p class=\"note after-none\">No \"after\": {}.</p>",
                esc(&maps.fix)
            );
        }
    }
    out.push_str("</div>\n");
    if let Some(help) = &d.help {
        let _ = writeln!(out, "<p class=\"note\">help: {}</p>", esc(help));
    }
    out.push_str("</section>\n");
}

/// One map as a grid of lanes by banks, with the words each bank serves below it.
fn grid(out: &mut String, when: &str, map: &BankMap, maps: &BankMaps) {
    let banks = map.bank_count.max(1);
    let mut caption = format!("{when}: {}", wavefronts(map));
    if when == "after" {
        let _ = write!(caption, " with the {}", maps.fix);
    }
    let _ = writeln!(
        out,
        "<figure class=\"map {when}\" data-wavefronts=\"{}\"><figcaption>{}</figcaption>",
        map.wavefronts,
        esc(&caption)
    );
    out.push_str("<table class=\"grid\"><thead><tr><th class=\"lane\">lane \\ bank</th>");
    for b in 0..banks {
        let _ = write!(
            out,
            "<th>{}</th>",
            if b % 4 == 0 {
                b.to_string()
            } else {
                String::new()
            }
        );
    }
    out.push_str("</tr></thead><tbody>\n");
    // Per lane, the (bank, word) cells it reaches.
    let costs: Vec<u64> = (0..banks)
        .map(|b| {
            map.banks
                .iter()
                .find(|c| c.bank == b)
                .map_or(0, |c| c.cost(maps.atomic))
        })
        .collect();
    for lane in map.first_lane..map.first_lane + map.lanes {
        let _ = write!(out, "<tr><th class=\"lane\">{lane}</th>");
        for b in 0..banks {
            let word = map
                .banks
                .iter()
                .find(|c| c.bank == b)
                .and_then(|c| c.words.iter().find(|(_, ls)| ls.contains(&lane)));
            match word {
                Some((w, _)) => {
                    let clash = if costs[b as usize] > 1 { " clash" } else { "" };
                    let _ = write!(
                        out,
                        "<td class=\"hit{clash}\" title=\"lane {lane}: bank {b}, word {w}\"></td>"
                    );
                }
                None => out.push_str("<td></td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("<tr class=\"load\"><th class=\"lane\">wavefronts</th>");
    for (b, &cost) in costs.iter().enumerate() {
        let clash = if cost > 1 { " class=\"clash\"" } else { "" };
        let title = map.banks.iter().find(|c| c.bank as usize == b).map_or_else(
            || format!("bank {b}: not used"),
            |c| format!("bank {b}: {}", words(c)),
        );
        let _ = write!(
            out,
            "<td{clash} title=\"{}\">{}</td>",
            esc(&title),
            if cost == 0 {
                String::new()
            } else {
                symbol(cost).to_string()
            }
        );
    }
    out.push_str("</tr></tbody></table>\n");
    let heavy = loaded(map, maps.atomic);
    if !heavy.is_empty() {
        out.push_str("<ul class=\"words\">");
        for cell in heavy {
            let all: Vec<String> = cell
                .words
                .iter()
                .map(|(w, lanes)| format!("{w} ({})", lane_list(lanes)))
                .collect();
            let _ = write!(
                out,
                "<li>bank {}: {} words: {}</li>",
                cell.bank,
                cell.words.len(),
                esc(&all.join(", "))
            );
        }
        out.push_str("</ul>");
    }
    out.push_str("</figure>\n");
}

/// Text for HTML content and attribute values.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample;

    #[test]
    fn one_page_that_escapes_and_fetches_nothing() {
        let files = sample();
        let page = render(&Run {
            files: &files,
            failures: &[("x<y>.cu".into(), "gone".into())],
            notes: &[],
        });
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("default-src 'none'"));
        assert!(!page.contains("http://") && !page.contains("https://"));
        assert!(page.contains("&quot;quoted&quot;"), "{page}");
        assert!(page.contains("x&lt;y&gt;.cu"));
        assert_eq!(page.matches("<tr data-order=").count(), 2);
    }
}
