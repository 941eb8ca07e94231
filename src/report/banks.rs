//! The bank maps of a finding (`Diagnostic::bank_maps`) as a compact text picture, for
//! the text output (`--show-banks`) and the step summary: one row of 32 cells (one per
//! bank, the number of distinct words it serves in the worst wavefront) before and after
//! the fix, then the banks that serve more than one word, with their words and lanes.

use super::LineIndex;
use crate::diag::{BankCell, BankMap, BankMaps, Diagnostic};
use std::fmt::Write as _;

/// Banks listed in words per map (the most loaded first).
const BANKS_LISTED: usize = 3;
/// Words listed per bank.
const WORDS_LISTED: usize = 6;

/// Which access of a finding its bank maps picture, in words (`the load at line 10`),
/// when the finding is not that access's own (a finding of a whole array, or one that
/// folds several accesses).
pub fn pictured_access(d: &Diagnostic, index: &LineIndex<'_>) -> Option<String> {
    let owner = d.bank_maps_finding()?;
    if std::ptr::eq(owner, d) && d.related.is_empty() {
        return None;
    }
    let kind = owner.access.as_ref()?.kind.as_str();
    let (line, _) = index.line_col(owner.span.start);
    Some(format!("the {kind} at line {line}"))
}

/// The picture, lines without a trailing line break, each starting with `indent`; ANSI
/// colours (an overloaded bank red, a bank of one word green) when `color`; `access`
/// names the access pictured ([`pictured_access`]).
pub fn picture(maps: &BankMaps, access: Option<&str>, indent: &str, color: bool) -> Vec<String> {
    let bank_count = maps.before.bank_count.max(1);
    let last = maps.before.first_lane + maps.before.lanes.saturating_sub(1);
    // An atomic's lanes on one word are served one at a time: its cells count lanes.
    let counted = if maps.atomic {
        "the wavefronts it costs (an atomic serves each lane on a word alone)"
    } else {
        "the distinct words it serves"
    };
    let of = access.map(|a| format!(" of {a}")).unwrap_or_default();
    let mut lines = vec![format!(
        "{indent}bank map of the worst wavefront{of}: {}, lanes {}-{last}; a column per bank, {counted} (1-9, then A=10 ... W=32; . none)",
        maps.at, maps.before.first_lane
    )];
    let mut ruler = String::new();
    for b in (0..bank_count).step_by(8) {
        let _ = write!(ruler, "{b:<8}");
    }
    lines.push(format!("{indent}    bank  {}", ruler.trim_end()));
    lines.push(format!(
        "{indent}  before  {}  {}",
        row(&maps.before, maps.atomic, color),
        wavefronts(&maps.before)
    ));
    match &maps.after {
        Some(after) => lines.push(format!(
            "{indent}   after  {}  {} with the {}",
            row(after, maps.atomic, color),
            wavefronts(after),
            maps.fix
        )),
        None => lines.push(format!("{indent}   after  none: {}", maps.fix)),
    }
    for (when, map) in [
        ("before", Some(&maps.before)),
        ("after", maps.after.as_ref()),
    ] {
        let Some(map) = map else { continue };
        for cell in loaded(map, maps.atomic) {
            lines.push(format!(
                "{indent}  {when}, bank {}: {}",
                cell.bank,
                words(cell)
            ));
        }
    }
    lines
}

/// The banks that serve more than one word (cost more than one wavefront), most first,
/// at most [`BANKS_LISTED`].
pub fn loaded(map: &BankMap, atomic: bool) -> Vec<&BankCell> {
    let mut cells: Vec<&BankCell> = map.banks.iter().filter(|c| c.cost(atomic) > 1).collect();
    cells.sort_by(|a, b| {
        b.cost(atomic)
            .cmp(&a.cost(atomic))
            .then(a.bank.cmp(&b.bank))
    });
    cells.truncate(BANKS_LISTED);
    cells
}

/// `words 0 (lane 0), 32 (lane 1), ... and 26 more`.
pub fn words(cell: &BankCell) -> String {
    let mut parts: Vec<String> = cell
        .words
        .iter()
        .take(WORDS_LISTED)
        .map(|(word, lanes)| format!("{word} ({})", lane_list(lanes)))
        .collect();
    let more = cell.words.len().saturating_sub(WORDS_LISTED);
    if more > 0 {
        parts.push(format!("... {more} more"));
    }
    let noun = if cell.words.len() == 1 {
        "word"
    } else {
        "words"
    };
    format!("{} {noun}: {}", cell.words.len(), parts.join(", "))
}

/// `lane 3`, `lanes 0-3`, `lanes 0, 16`: runs of consecutive lanes as ranges.
pub fn lane_list(lanes: &[u32]) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &l in lanes {
        match runs.last_mut() {
            Some((_, hi)) if *hi + 1 == l => *hi = l,
            Some((_, hi)) if *hi == l => {}
            _ => runs.push((l, l)),
        }
    }
    let text: Vec<String> = runs
        .iter()
        .map(|&(lo, hi)| {
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}-{hi}")
            }
        })
        .collect();
    let noun = if lanes.len() == 1 { "lane" } else { "lanes" };
    format!("{noun} {}", text.join(", "))
}

/// The cell of one bank: `.` untouched, `1`-`9`, `A`=10 ... `Z`=35, `#` for more.
pub fn symbol(cost: u64) -> char {
    match cost {
        0 => '.',
        1..=9 => char::from(b'0' + cost as u8),
        10..=35 => char::from(b'A' + (cost - 10) as u8),
        _ => '#',
    }
}

/// The row of cells of a map.
fn row(map: &BankMap, atomic: bool, color: bool) -> String {
    let mut costs = vec![0u64; map.bank_count.max(1) as usize];
    for cell in &map.banks {
        if let Some(c) = costs.get_mut(cell.bank as usize) {
            *c = cell.cost(atomic);
        }
    }
    let mut out = String::new();
    for cost in costs {
        let s = symbol(cost);
        match (color, cost) {
            (true, 2..) => {
                let _ = write!(out, "\u{1b}[1;31m{s}\u{1b}[0m");
            }
            (true, 1) => {
                let _ = write!(out, "\u{1b}[32m{s}\u{1b}[0m");
            }
            _ => out.push(s),
        }
    }
    out
}

/// `32 wavefronts`, with the warp's when it has several phases.
pub fn wavefronts(map: &BankMap) -> String {
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    let mut text = format!("{} wavefront{}", map.wavefronts, plural(map.wavefronts));
    if map.warp_ideal > 1 {
        let _ = write!(
            text,
            " (the warp: {} in {} phases)",
            map.warp_wavefronts, map.warp_ideal
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_and_lane_runs() {
        assert_eq!(symbol(0), '.');
        assert_eq!(symbol(9), '9');
        assert_eq!(symbol(10), 'A');
        assert_eq!(symbol(32), 'W');
        assert_eq!(symbol(36), '#');
        assert_eq!(lane_list(&[0, 1, 2, 3, 16]), "lanes 0-3, 16");
        assert_eq!(lane_list(&[5]), "lane 5");
    }
}
