//! The same answer whatever files are named, through the built binary: a kernel whose
//! launch is in another file of the repository is checked with that launch's block shape
//! whether bankcheck is given the repository, the kernels' folder, the one file (as the
//! pre-commit hook gives the staged files) or is run from inside the folder.

#[path = "support/report_accesses.rs"]
mod report_accesses;

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn run(dir: &Path, args: &[&str]) -> Value {
    run_with_input(dir, args, b"")
}

fn run_with_input(dir: &Path, args: &[&str], input: &[u8]) -> Value {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_bankcheck"))
        .args(["--format", "json"])
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the bankcheck binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input)
        .expect("stdin accepts the input");
    let out = child.wait_with_output().expect("bankcheck finishes");
    serde_json::from_slice(&out.stdout).expect("a JSON report")
}

/// `(line, kind, status, wavefronts, assumed)` of the kernel's accesses.
fn verdicts(v: &Value) -> Vec<(u64, String, String, Option<u64>, bool)> {
    let mut out: Vec<_> = report_accesses::accesses_in(v, "transpose.cu")
        .map(|a| {
            (
                a["line"].as_u64().unwrap_or(0),
                a["kind"].as_str().unwrap_or("").to_string(),
                a["status"].as_str().unwrap_or("").to_string(),
                a["wavefronts"].as_u64(),
                a["assumptions"].to_string().contains("assumed"),
            )
        })
        .collect();
    out.sort();
    out
}

fn workspace(marker: &str) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let p = root.path();
    std::fs::create_dir_all(p.join("kernels")).unwrap();
    std::fs::create_dir_all(p.join("host")).unwrap();
    if marker == ".git" {
        std::fs::create_dir_all(p.join(".git")).unwrap();
    } else {
        std::fs::write(p.join(marker), "").unwrap();
    }
    std::fs::write(
        p.join("kernels/tile.cuh"),
        "#pragma once\n#define TILE 16\n",
    )
    .unwrap();
    std::fs::write(
        p.join("kernels/transpose.cu"),
        "#include \"tile.cuh\"\n\
         __global__ void transpose(float *out, const float *in, int n)\n\
         {\n\
         \x20   __shared__ float tile[TILE][TILE];\n\
         \x20   int x = threadIdx.x, y = threadIdx.y;\n\
         \x20   tile[y][x] = in[y * n + x];\n\
         \x20   __syncthreads();\n\
         \x20   out[y * n + x] = tile[x][y];\n\
         }\n",
    )
    .unwrap();
    std::fs::write(
        p.join("host/main.cu"),
        "__global__ void transpose(float *out, const float *in, int n);\n\
         void run(float *o, const float *i, int n) {\n\
         \x20   dim3 block(16, 16);\n\
         \x20   transpose<<<1, block>>>(o, i, n);\n\
         }\n",
    )
    .unwrap();
    root
}

#[test]
fn one_file_a_folder_and_the_repository_agree() {
    for marker in [".git", "lint.toml"] {
        let root = workspace(marker);
        let p = root.path();
        let whole = verdicts(&run(p, &["."]));
        // The 16x16 block of host/main.cu: the transposed load is 8-way, nothing assumed.
        assert!(
            whole.contains(&(8, "load".into(), "conflict".into(), Some(8), false)),
            "{marker}: {whole:?}"
        );
        assert_eq!(verdicts(&run(p, &["kernels"])), whole, "{marker}: kernels/");
        assert_eq!(
            verdicts(&run(p, &["kernels/transpose.cu"])),
            whole,
            "{marker}: one file"
        );
        assert_eq!(
            verdicts(&run(&p.join("kernels"), &["transpose.cu"])),
            whole,
            "{marker}: from inside the folder"
        );
        // An editor's buffer on standard input, named by --stdin-filename.
        let buffer = std::fs::read(p.join("kernels/transpose.cu")).unwrap();
        assert_eq!(
            verdicts(&run_with_input(
                p,
                &["--stdin-filename", "kernels/transpose.cu", "-"],
                &buffer
            )),
            whole,
            "{marker}: standard input"
        );
    }
}

/// An include spelled with other letter case than the folder (code written on a
/// case-insensitive file system) is still read, and the user is told, in the JSON
/// report's `notes` and on standard error; an include with the right case is not noted.
#[test]
fn an_include_found_only_with_letter_case_ignored_is_read_and_noted() {
    let dir = tempfile::tempdir().expect("scratch directory");
    std::fs::create_dir_all(dir.path().join("Tile sizes")).unwrap();
    std::fs::write(
        dir.path().join("Tile sizes/width.hlsli"),
        "#define WIDTH 32\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("Tile sizes/height.hlsli"),
        "#define ROWS 2\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("blur.hlsl"),
        "#include \"Tile Sizes/width.hlsli\"\n#include \"Tile sizes/height.hlsli\"\n\
         groupshared float row[WIDTH * ROWS];\n[numthreads(WIDTH, 1, 1)]\n\
         void main(uint gi : SV_GroupIndex) { row[gi * ROWS] = 0; }\n",
    )
    .unwrap();
    let v = run(dir.path(), &["."]);
    // The constants came through the include: the stride is known.
    let access = &v["accesses"][0];
    assert_eq!(access["status"], "conflict", "{v}");
    assert_eq!(access["conflict_factor"], 2.0, "{v}");
    let notes = v["notes"].as_array().expect("notes");
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0]["file"], "blur.hlsl");
    let message = notes[0]["message"].as_str().unwrap();
    assert!(
        message.contains("`#include \"Tile Sizes/width.hlsli\"`")
            && message.contains("`Tile sizes/width.hlsli`")
            && message.contains("letter case"),
        "{message}"
    );
    let text = Command::new(env!("CARGO_BIN_EXE_bankcheck"))
        .args(["--color", "never", "."])
        .current_dir(dir.path())
        .output()
        .expect("the bankcheck binary runs");
    let stderr = String::from_utf8_lossy(&text.stderr);
    assert!(
        stderr.contains("note: blur.hlsl: `#include \"Tile Sizes/width.hlsli\"`"),
        "{stderr}"
    );
}
