//! Extraction: the tree-sitter tree turned into bankcheck's own syntax.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for path in ["f.cu", "f.hlsl"] {
        let Some(file) = bankcheck::source::load(path, data) else {
            continue;
        };
        let Some(tree) = bankcheck::source::parse(&file) else {
            continue;
        };
        let _ = bankcheck::extract::extract(&file, &tree);
        let _ = bankcheck::extract::extract_relevant(&file, &tree);
    }
});
