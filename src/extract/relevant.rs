//! Which functions of a file can reach shared memory: a text test over each function's
//! and macro's source, cheap enough to run before any body is converted.

use super::FileSyntax;
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

/// Which functions of `syn` can reach shared memory, by a conservative text test: a
/// function or macro is a seed when its text mentions shared memory (any spelling of
/// `shared`), a file-scope shared array or a launch (`<<<`), or when the function is a
/// kernel; every function and macro connected to a seed by a mention of its name (as
/// caller or callee, in either direction, through macros too) is kept. The others can
/// neither declare nor reach a shared array, nor pass one on, nor compute a value a kept
/// function reads; lowering them gives no site.
///
/// Returns, per function, whether it is kept, and whether lowering it on its own can
/// reach shared memory: it mentions shared memory or a file-scope shared array, or a
/// macro or a function other than a kernel that does (transitively; kernels are launched,
/// never inlined). The others are kept for the launches' block shapes or as callees'
/// context, and lowering them on their own finds no site.
pub(super) fn relevant_functions(syn: &FileSyntax, src: &str) -> (Vec<bool>, Vec<bool>) {
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    // Hashed with foldhash: every identifier of every function is looked up here.
    let mut shared_names: HashSet<&str> = HashSet::with_capacity(syn.global_shared.len());
    shared_names.extend(syn.global_shared.iter().map(|d| d.name.as_str()));
    // Symbols: the functions (by index), then the macros.
    let mut texts: Vec<&str> = syn
        .functions
        .iter()
        .map(|f| src.get(f.span.start..f.span.end).unwrap_or(""))
        .collect();
    let mut by_name: HashMap<&str, Vec<usize>> =
        HashMap::with_capacity(syn.functions.len() + syn.macros.len() + syn.fn_macros.len());
    for (i, f) in syn.functions.iter().enumerate() {
        by_name.entry(f.name.as_str()).or_default().push(i);
        // A member function is also reached by naming its type (`Column col; col(s, r)`
        // calls `operator()`).
        if let Some(owner) = &f.owner {
            let bare = owner.split('<').next().unwrap_or(owner);
            by_name.entry(bare).or_default().push(i);
        }
    }
    for (name, body) in syn
        .macros
        .iter()
        .chain(syn.fn_macros.iter().map(|(n, m)| (n, &m.body)))
    {
        by_name.entry(name.as_str()).or_default().push(texts.len());
        texts.push(body.text.as_str());
    }
    let n = texts.len();
    let mut parent: Vec<usize> = (0..n).collect();
    let mut seed = vec![false; n];
    let mut shared_seed = vec![false; n];
    // users[o]: the symbols that mention `o`, when `o` is a macro or a function other than
    // a kernel (kernels are launched, never inlined into their caller).
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (s, text) in texts.iter().enumerate() {
        let function = syn.functions.get(s);
        seed[s] =
            function.is_some_and(|f| f.is_kernel || f.numthreads.is_some()) || text.contains("<<<");
        for word in words(text) {
            // `shared` is made of word characters: any occurrence lies inside a word.
            if word.len() >= 6
                && word
                    .as_bytes()
                    .windows(6)
                    .any(|w| w.eq_ignore_ascii_case(b"shared"))
            {
                shared_seed[s] = true;
            }
            if !word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                continue;
            }
            if shared_names.contains(word) {
                shared_seed[s] = true;
            }
            if let Some(others) = by_name.get(word) {
                for &o in others {
                    let (a, b) = (find(&mut parent, s), find(&mut parent, o));
                    if a != b {
                        parent[a] = b;
                    }
                    if o != s && !syn.functions.get(o).is_some_and(|f| f.is_kernel) {
                        users[o].push(s);
                    }
                }
            }
        }
    }
    let mut hot = vec![false; n];
    for s in 0..n {
        let r = find(&mut parent, s);
        hot[r] |= seed[s] || shared_seed[s];
    }
    // A symbol reaches shared memory when it mentions it, or mentions a symbol that does.
    let mut reaches = shared_seed.clone();
    let mut stack: Vec<usize> = (0..n).filter(|&s| shared_seed[s]).collect();
    while let Some(o) = stack.pop() {
        for &s in &users[o] {
            if !reaches[s] {
                reaches[s] = true;
                stack.push(s);
            }
        }
    }
    (0..syn.functions.len())
        .map(|i| {
            let r = find(&mut parent, i);
            (hot[r], reaches[i])
        })
        .unzip()
}

/// The maximal runs of word characters (ASCII letters, digits, `_`) of `text`, found
/// over bytes: every other byte, including each byte of a non-ASCII character, separates.
fn words(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() && !is_word(bytes[at]) {
            at += 1;
        }
        if at == bytes.len() {
            return None;
        }
        let start = at;
        while at < bytes.len() && is_word(bytes[at]) {
            at += 1;
        }
        // Both ends are at ASCII bytes, so they are character boundaries.
        text.get(start..at)
    })
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn words_are_runs_of_word_characters() {
        let found: Vec<&str> = words("a_1+2x (é9b) __s").collect();
        assert_eq!(found, ["a_1", "2x", "9b", "__s"]);
    }
}
