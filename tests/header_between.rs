//! A kernel header reached from the file that instantiates it only through a header the
//! run does not check (it declares no shared memory), through the built binary:
//! flash-attention's `flash_fwd_hdim128_fp16_sm80.cu` includes
//! `flash_fwd_launch_template.h`, which includes `flash_fwd_kernel.h` and defines the
//! kernels that call its helpers. The fixture `tests/fixtures/cuda/realworld/flash_between/`
//! is that split in small; run on its folder as users run bankcheck, or on the kernel
//! header alone, its helper's accesses are lowered through the launch header with the
//! traits the `.cu` file's specialisation binds.

#[path = "support/report_accesses.rs"]
mod report_accesses;

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn run(dir: &Path, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_bankcheck"))
        .args(["--format", "json"])
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the bankcheck binary runs");
    serde_json::from_slice(&out.stdout).expect("a JSON report")
}

/// `(line, status, factor)` of the accesses reported in `fb_kernel.h`.
fn kernel_header_verdicts(v: &Value) -> Vec<(u64, String, Option<f64>)> {
    let mut out: Vec<_> = report_accesses::accesses_in(v, "fb_kernel.h")
        .map(|a| {
            (
                a["line"].as_u64().unwrap_or(0),
                a["status"].as_str().unwrap_or("").to_string(),
                a["conflict_factor"].as_f64(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    out
}

#[test]
fn a_header_between_the_instantiation_and_the_kernel_header_is_followed() {
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cuda/realworld/flash_between");
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.path().join(".git")).unwrap();
    for entry in std::fs::read_dir(&fixture).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, root.path().join(path.file_name().unwrap())).unwrap();
    }
    // The launch header declares no shared memory: a walk does not check it.
    let shown = Command::new(env!("CARGO_BIN_EXE_bankcheck"))
        .args(["--show-files", "."])
        .current_dir(root.path())
        .output()
        .expect("the bankcheck binary runs");
    let shown = String::from_utf8_lossy(&shown.stdout).into_owned();
    assert!(
        shown.contains("fb_kernel.h") && !shown.contains("fb_launch.h"),
        "{shown}"
    );
    let conflict = |line| (line, "conflict".to_string(), Some(4.0));
    let expected = vec![conflict(47), conflict(48), conflict(49)];
    assert_eq!(kernel_header_verdicts(&run(root.path(), &["."])), expected);
    assert_eq!(
        kernel_header_verdicts(&run(root.path(), &["fb_kernel.h"])),
        expected
    );
}
