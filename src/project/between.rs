//! The includes of headers the run does not scan.
//!
//! A run scans the files it checks and the rest of its workspace that a run would
//! check: headers that declare shared memory. A header between them that declares none
//! (flash-attention's `flash_fwd_launch_template.h`, which the generated `.cu` files
//! include and which includes `flash_fwd_kernel.h` and defines the kernels that call
//! its helpers) is never scanned, so the include graph has no edge from it and the
//! kernel header looks included by nothing. Its quoted includes are read here, as deep
//! as definitions are merged, so that the graph links a checked header to the files
//! that compile it.

use std::collections::HashSet;
use std::path::PathBuf;

/// Most headers read this way in one run: each costs a read and a text scan.
const MAX_BETWEEN: usize = 4096;

/// The quoted includes (includer, included name) of the headers reached from `edges`
/// that are not `scanned`, level by level down to `depth` levels: `candidates` gives
/// where an include may be, `read_includes` a header's quoted includes (`None`: no such
/// file). A header is read once, at the first candidate that exists.
pub(super) fn edges_of_unscanned(
    edges: &[(PathBuf, String)],
    depth: u32,
    scanned: &dyn Fn(&PathBuf) -> bool,
    candidates: &dyn Fn(&PathBuf, &str) -> Vec<PathBuf>,
    read_includes: &dyn Fn(&PathBuf) -> Option<Vec<String>>,
) -> Vec<(PathBuf, String)> {
    let mut out: Vec<(PathBuf, String)> = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut level: Vec<(PathBuf, String)> = edges.to_vec();
    for _ in 0..depth {
        let mut next = Vec::new();
        for (includer, inc) in &level {
            let cands = candidates(includer, inc);
            // An include that a scanned file satisfies needs nothing more.
            if cands.iter().any(scanned) {
                continue;
            }
            for cand in cands {
                if seen.len() >= MAX_BETWEEN {
                    return out;
                }
                if !seen.insert(cand.clone()) {
                    break;
                }
                if let Some(includes) = read_includes(&cand) {
                    for i in includes {
                        next.push((cand.clone(), i));
                    }
                    break;
                }
            }
        }
        if next.is_empty() {
            break;
        }
        out.extend(next.iter().cloned());
        level = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_an_unscanned_header_to_a_scanned_one() {
        // a.cu (scanned) includes mid.h (not scanned), which includes k.h (scanned).
        let edges = vec![(PathBuf::from("a.cu"), "mid.h".to_string())];
        let scanned = |p: &PathBuf| p == &PathBuf::from("a.cu") || p == &PathBuf::from("k.h");
        let candidates = |_: &PathBuf, inc: &str| vec![PathBuf::from(inc)];
        let read = |p: &PathBuf| match p.to_str() {
            Some("mid.h") => Some(vec!["k.h".to_string(), "other.h".to_string()]),
            Some("other.h") => Some(vec!["mid.h".to_string()]),
            _ => None,
        };
        let got = edges_of_unscanned(&edges, 4, &scanned, &candidates, &read);
        assert_eq!(
            got,
            vec![
                (PathBuf::from("mid.h"), "k.h".to_string()),
                (PathBuf::from("mid.h"), "other.h".to_string()),
                (PathBuf::from("other.h"), "mid.h".to_string()),
            ]
        );
        // Nothing beyond the depth asked.
        let got = edges_of_unscanned(&edges, 1, &scanned, &candidates, &read);
        assert_eq!(got.len(), 2);
    }
}
