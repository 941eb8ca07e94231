//! Every input accounted for, through the built binary: files in UTF-16 (LE and BE,
//! with a byte-order mark), UTF-8 with a BOM, Latin-1 and invalid UTF-8 are checked
//! with positions in characters of the decoded text; binary files with a source
//! extension are named as "not source text" in stderr and the JSON `errors` while the
//! rest of the run is reported in full; an empty file is checked and has nothing to
//! report; `--fix` writes a file back in its own encoding.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_bankcheck");

/// Two conflicting column reads: one on line 1 after a non-ASCII comment (so a BOM or
/// a multi-byte character counted as more than one column would show), one on line 7.
/// Only Latin-1 characters, so that every encoding under test can hold it.
const KERNELS: &str = "/* caf\u{e9} */ __global__ void __launch_bounds__(32) first(float* out) { __shared__ float a[32][32]; out[threadIdx.x] = a[threadIdx.x][0]; }\n\
\n\
__global__ void __launch_bounds__(32) second(float* out)\n\
{\n\
    __shared__ float tile[32][32];\n\
    tile[0][threadIdx.x] = 1.0f;\n\
    /* \u{e9}\u{e8} */ out[threadIdx.x] = tile[threadIdx.x][0];\n\
}\n";

/// The two conflicting loads of `text`: (line, column, end column), columns counted
/// in characters as an editor shows them.
fn expected_positions(text: &str) -> Vec<(u64, u64, u64)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for access in ["a[threadIdx.x][0]", "tile[threadIdx.x][0]"] {
            if let Some(at) = line.find(access) {
                let column = line[..at].chars().count() as u64 + 1;
                let width = access.chars().count() as u64;
                found.push((i as u64 + 1, column, column + width));
            }
        }
    }
    found
}

fn utf16(text: &str, little: bool) -> Vec<u8> {
    let bom: [u8; 2] = if little { [0xFF, 0xFE] } else { [0xFE, 0xFF] };
    let mut out = bom.to_vec();
    for unit in text.encode_utf16() {
        out.extend(if little {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        });
    }
    out
}

fn latin1(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| u8::try_from(u32::from(c)).expect("a Latin-1 character"))
        .collect()
}

fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_WORKSPACE")
        .spawn()
        .expect("the bankcheck binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin).expect("stdin accepts the input");
    drop(input);
    child.wait_with_output().expect("bankcheck finishes")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "JSON on stdout ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// (line, column, end column) of each `bank-conflict` reported in `file`, those folded
/// into another finding of the same problem (its `related`) included.
fn positions(report: &Value, file: &str) -> Vec<(u64, u64, u64)> {
    let mut found: Vec<(u64, u64, u64)> = report["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["file"] == file)
        .flat_map(|d| std::iter::once(d).chain(d["related"].as_array().into_iter().flatten()))
        .filter(|d| d["rule"] == "bank-conflict")
        .map(|d| {
            let n = |k: &str| d[k].as_u64().unwrap_or(0);
            (n("line"), n("column"), n("end_column"))
        })
        .collect();
    found.sort_unstable();
    found
}

/// `(file, message)` of a JSON `errors` or `notes` list, sorted.
fn entries(report: &Value, key: &str) -> Vec<(String, String)> {
    let mut list: Vec<(String, String)> = report[key]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            (
                e["file"].as_str().unwrap_or("").to_string(),
                e["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    list.sort();
    list
}

#[test]
fn every_encoding_is_checked_with_positions_in_characters() {
    let dir = tempfile::tempdir().unwrap();
    let mut bom8 = b"\xEF\xBB\xBF".to_vec();
    bom8.extend_from_slice(KERNELS.as_bytes());
    // Valid UTF-8 except one stray byte on an added line 2: read as Latin-1, one
    // character per byte.
    let invalid = KERNELS
        .replacen("\n\n", "\n// \u{80}\n\n", 1)
        .into_bytes()
        .into_iter()
        .map(|b| if b == 0xC2 { b'x' } else { b })
        .collect::<Vec<u8>>();
    let files: [(&str, Vec<u8>); 6] = [
        ("utf8.cu", KERNELS.as_bytes().to_vec()),
        ("utf8-bom.cu", bom8),
        ("utf16le.cu", utf16(KERNELS, true)),
        ("utf16be.cu", utf16(KERNELS, false)),
        ("latin1.cu", latin1(KERNELS)),
        ("invalid-utf8.cu", invalid.clone()),
    ];
    for (name, bytes) in &files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let out = run(dir.path(), &["--format", "json", "."], b"");
    let report = json(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "findings, no error: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(report["files_checked"], 6);
    assert_eq!(entries(&report, "errors"), Vec::new());
    let expected = expected_positions(KERNELS);
    assert_eq!(expected.len(), 2);
    assert_eq!(expected[0].0, 1, "one load on line 1");
    for name in [
        "utf8.cu",
        "utf8-bom.cu",
        "utf16le.cu",
        "utf16be.cu",
        "latin1.cu",
    ] {
        assert_eq!(positions(&report, name), expected, "{name}");
    }
    // Read as Latin-1, the invalid file's characters are its bytes.
    let as_latin1: String = invalid.iter().map(|&b| char::from(b)).collect();
    let invalid_expected = expected_positions(&as_latin1);
    assert_eq!(
        invalid_expected[1].0, 8,
        "the stray line moved the second load"
    );
    assert_eq!(positions(&report, "invalid-utf8.cu"), invalid_expected);

    // The guessed encodings are named as notes, in JSON and on stderr; the sure ones not.
    let notes = entries(&report, "notes");
    let noted: Vec<&str> = notes.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(noted, ["invalid-utf8.cu", "latin1.cu"]);
    assert!(notes[0].1.contains("Latin-1") && notes[0].1.contains("line 2"));
    assert!(notes[1].1.contains("Latin-1") && notes[1].1.contains("line 1"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("note: latin1.cu: ") && stderr.contains("note: invalid-utf8.cu: "),
        "{stderr}"
    );

    // The text output shows the line as decoded.
    let out = run(dir.path(), &["--color", "never", "utf16be.cu"], b"");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("/* \u{e9}\u{e8} */ out[threadIdx.x]"),
        "{stdout}"
    );
}

#[test]
fn standard_input_is_decoded_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &["--format", "json", "--stdin-filename", "k.cu"],
        &utf16(KERNELS, true),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(positions(&json(&out), "k.cu"), expected_positions(KERNELS));
    let out = run(
        dir.path(),
        &["--format", "json", "--stdin-filename", "k.cu"],
        &[0u8; 100],
    );
    assert_eq!(out.status.code(), Some(2));
    let errors = entries(&json(&out), "errors");
    assert_eq!(errors.len(), 1);
    assert!(errors[0].1.starts_with("not source text"), "{errors:?}");
}

#[test]
fn binary_files_are_named_and_the_rest_reported_in_full() {
    let dir = tempfile::tempdir().unwrap();
    let put = |name: &str, bytes: &[u8]| std::fs::write(dir.path().join(name), bytes).unwrap();
    put("a-good.cu", KERNELS.as_bytes());
    put("z-good.cu", KERNELS.as_bytes());
    // An object file renamed: an ELF header and its zero padding.
    let mut elf = b"\x7fELF\x02\x01\x01".to_vec();
    elf.extend([0u8; 57]);
    elf.extend(b"\x01\x00\x3e\x00.text.data.bss__global__");
    put("object.cu", &elf);
    put("zeros.cuh", &[0u8; 4096]);
    // Control characters without a NUL: no encoding makes this text.
    let noise: Vec<u8> = (1..=2000u32).map(|i| (i * 7 % 31 + 1) as u8).collect();
    put("noise.hlsl", &noise);
    put("empty.cu", b"");

    let out = run(dir.path(), &["--format", "json", "."], b"");
    let report = json(&out);
    assert_eq!(out.status.code(), Some(2), "an unreadable file is exit 2");
    let errors = entries(&report, "errors");
    let named: Vec<&str> = errors.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(named, ["noise.hlsl", "object.cu", "zeros.cuh"]);
    for (file, message) in &errors {
        assert!(message.starts_with("not source text"), "{file}: {message}");
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    for file in named {
        assert!(
            stderr.contains(&format!("error: {file}: not source text")),
            "{stderr}"
        );
    }
    // The empty file is checked (nothing in it), neither an error nor dropped.
    assert!(!stderr.contains("empty.cu"), "{stderr}");
    assert_eq!(
        report["files_checked"], 3,
        "two good files and the empty one"
    );

    // The good files are reported exactly as when checked alone.
    let alone = json(&run(
        dir.path(),
        &["--format", "json", "a-good.cu", "z-good.cu"],
        b"",
    ));
    assert_eq!(report["diagnostics"], alone["diagnostics"]);
    assert_eq!(report["accesses"], alone["accesses"]);
    for file in ["a-good.cu", "z-good.cu"] {
        assert_eq!(positions(&report, file), expected_positions(KERNELS));
    }

    // Named one by one, an empty file is a clean run.
    let out = run(dir.path(), &["--format", "json", "empty.cu"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["files_checked"], 1);
}

#[test]
fn fix_writes_each_file_back_in_its_own_encoding() {
    let dir = tempfile::tempdir().unwrap();
    let fixed_text = KERNELS
        .replace("a[32][32]", "a[32][33]")
        .replace("tile[32][32]", "tile[32][33]");
    let mut bom8 = b"\xEF\xBB\xBF".to_vec();
    bom8.extend_from_slice(KERNELS.as_bytes());
    let mut bom8_fixed = b"\xEF\xBB\xBF".to_vec();
    bom8_fixed.extend_from_slice(fixed_text.as_bytes());
    let cases = [
        ("le.cu", utf16(KERNELS, true), utf16(&fixed_text, true)),
        ("be.cu", utf16(KERNELS, false), utf16(&fixed_text, false)),
        ("bom.cu", bom8, bom8_fixed),
        ("latin1.cu", latin1(KERNELS), latin1(&fixed_text)),
    ];
    for (name, before, _) in &cases {
        std::fs::write(dir.path().join(name), before).unwrap();
    }
    let names: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let mut args = vec!["--fix", "--format", "compact"];
    args.extend(&names);
    let out = run(dir.path(), &args, b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "padded, every tile is conflict-free: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    for (name, _, after) in &cases {
        assert_eq!(
            &std::fs::read(dir.path().join(name)).unwrap(),
            after,
            "{name} keeps its encoding"
        );
    }
}
