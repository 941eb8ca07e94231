//! The front end: decoding, language detection, blanking and the tree-sitter parse.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for path in ["f.cu", "f.hlsl", "f.h"] {
        if let Some(file) = bankcheck::source::load(path, data) {
            let _ = bankcheck::source::parse(&file);
        }
    }
});
