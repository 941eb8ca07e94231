//! Lowering: symbolic interpretation of every function into access sites.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let settings = bankcheck::config::Settings::default();
    for path in ["f.cu", "f.hlsl"] {
        let Some(file) = bankcheck::source::load(path, data) else {
            continue;
        };
        let Some(tree) = bankcheck::source::parse(&file) else {
            continue;
        };
        let syntax = bankcheck::extract::extract(&file, &tree);
        let _ = bankcheck::lower::lower_file(&syntax, &file.text, &settings);
    }
});
