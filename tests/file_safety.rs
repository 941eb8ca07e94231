//! Run integrity and file safety, through the built binary: a path that cannot be
//! walked or read costs only itself, named paths that are not regular files (or are too
//! large) are skipped without blocking, standard input is not mixed with paths, `--fix`
//! respects the user's files (mode, links, owner, edits made meanwhile, write errors),
//! `--output` never overwrites an input, CR-only files have real lines, and closed
//! standard streams neither hide the exit status nor panic.
//!
//! Permissions mean nothing to root, and CI runs as root: the permission tests run the
//! binary as `nobody` through `setpriv` (util-linux), and say so on standard error when
//! they cannot drop privileges and are skipped.
#![cfg(unix)]

use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_bankcheck");
const NOBODY: u32 = 65534;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/cli")
            .join(name),
    )
    .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A scratch directory with `src/conflict.cu` (a 32-way conflict with a safe padding
/// fix) and `src/clean.cu`, readable by anyone.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/conflict.cu"), fixture("conflict.cu")).unwrap();
    std::fs::write(dir.path().join("src/clean.cu"), fixture("clean.cu")).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

fn command(dir: &Path, program: &str, args: &[&str]) -> Command {
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_WORKSPACE")
        .env_remove("NO_COLOR");
    command
}

/// Waits for `child` at most a minute: a run that blocks fails the test instead of
/// hanging it.
fn finish(mut child: Child) -> Output {
    let deadline = Instant::now() + Duration::from_mins(1);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!(
                "bankcheck did not finish in a minute: {}",
                text(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn run(dir: &Path, args: &[&str]) -> Output {
    finish(command(dir, BIN, args).spawn().expect("the binary runs"))
}

fn run_with_stdin(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut command = command(dir, BIN, args);
    command.stdin(Stdio::piped());
    let mut child = command.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    // The run may refuse before reading: a closed pipe is not the test's failure.
    let _ = input.write_all(stdin);
    drop(input);
    finish(child)
}

/// Whether this process is root (a file it creates belongs to uid 0).
fn is_root() -> bool {
    tempfile::tempfile().unwrap().metadata().unwrap().uid() == 0
}

/// Runs the binary as an unprivileged user: as `nobody` through `setpriv` when root,
/// directly otherwise. None (with a note on stderr) when privileges cannot be dropped.
fn run_unprivileged(dir: &Path, args: &[&str]) -> Option<Output> {
    if !is_root() {
        return Some(run(dir, args));
    }
    let drop_to = [
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        "--inh-caps=-all",
    ];
    let probe = Command::new("setpriv")
        .args(drop_to)
        .arg("true")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!(
            "SKIPPED: running as root and `setpriv --reuid=65534` is unavailable; permission checks need an unprivileged user"
        );
        return None;
    }
    let mut full: Vec<&str> = drop_to.to_vec();
    full.push(BIN);
    full.extend_from_slice(args);
    Some(finish(command(dir, "setpriv", &full).spawn().unwrap()))
}

/// Gives `path` (and, for directories, everything under it) to `nobody` when root.
fn give_to_nobody(path: &Path) {
    if !is_root() {
        return;
    }
    std::os::unix::fs::chown(path, Some(NOBODY), Some(NOBODY)).unwrap();
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            give_to_nobody(&entry.unwrap().path());
        }
    }
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The files of compact output's finding lines, sorted and unique.
fn reported_files(out: &Output) -> Vec<String> {
    let mut files: Vec<String> = text(&out.stdout)
        .lines()
        .filter_map(|l| l.split(':').next())
        .map(str::to_string)
        .collect();
    files.sort();
    files.dedup();
    files
}

// One bad input must not cost the others.

#[test]
fn an_unreadable_subdirectory_is_reported_and_the_rest_checked() {
    let dir = scratch();
    let locked = dir.path().join("src/locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::write(locked.join("hidden.cu"), fixture("conflict.cu")).unwrap();
    give_to_nobody(dir.path());
    chmod(&locked, 0o000);
    for args in [
        &["--format", "compact", "."][..],
        &["--format", "compact", "src/**/*.cu"][..],
    ] {
        let Some(out) = run_unprivileged(dir.path(), args) else {
            return;
        };
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error: src/locked: cannot read this directory: Permission denied"),
            "{args:?}: {stderr}"
        );
        assert_eq!(reported_files(&out), vec!["src/conflict.cu"], "{args:?}");
    }
    chmod(&locked, 0o755);
}

#[test]
fn fifos_devices_and_sockets_are_skipped_without_blocking() {
    let dir = scratch();
    let status = Command::new("mkfifo")
        .arg(dir.path().join("fifo.cu"))
        .status()
        .unwrap();
    assert!(status.success(), "mkfifo works");
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.cu")).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(dir.path().join("socket.cu")).unwrap();
    let out = run(
        dir.path(),
        &[
            "--format",
            "compact",
            "fifo.cu",
            "zero.cu",
            "socket.cu",
            "src/conflict.cu",
        ],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    for expected in [
        "error: fifo.cu: not a regular file (a FIFO); skipped",
        "error: zero.cu: not a regular file (a character device); skipped",
        "error: socket.cu: not a regular file (a socket); skipped",
    ] {
        assert!(stderr.contains(expected), "{expected}: {stderr}");
    }
    assert_eq!(reported_files(&out), vec!["src/conflict.cu"]);

    let out = run(dir.path(), &["--config", "fifo.cu", "src/conflict.cu"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("fifo.cu: cannot read configuration: not a regular file (a FIFO)"),
        "{stderr}"
    );
}

#[test]
fn files_over_the_size_limit_are_skipped_and_the_limit_can_be_raised() {
    let dir = scratch();
    let mut big = fixture("conflict.cu");
    big.extend_from_slice(format!("// {}\n", "x".repeat(2000)).as_bytes());
    std::fs::write(dir.path().join("big.cu"), &big).unwrap();

    let out = run(
        dir.path(),
        &[
            "--format",
            "compact",
            "--max-file-size",
            "1K",
            "big.cu",
            "src/clean.cu",
        ],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "error: big.cu: {} bytes, over the limit of 1 KiB (raise it with --max-file-size); skipped",
            big.len()
        )),
        "{stderr}"
    );
    let out = run(
        dir.path(),
        &["--format", "compact", "--max-file-size", "1M", "big.cu"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(reported_files(&out), vec!["big.cu"]);

    // Standard input is bounded too (it may be /dev/zero).
    let out = run_with_stdin(
        dir.path(),
        &["--max-file-size", "1K", "--stdin-filename", "k.cu"],
        &big,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("standard input is over the limit of 1 KiB"),
        "{}",
        text(&out.stderr)
    );
    let out = run(dir.path(), &["--max-file-size", "0", "src/clean.cu"]);
    assert_eq!(out.status.code(), Some(2), "a zero limit is a usage error");
}

#[test]
fn standard_input_with_other_paths_is_a_usage_error() {
    let dir = scratch();
    for args in [
        &["src/conflict.cu", "-"][..],
        &["--stdin-filename", "x.cu", "src/conflict.cu"][..],
    ] {
        let out = run_with_stdin(dir.path(), args, &fixture("clean.cu"));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot be checked together with other paths"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "nothing checked: {args:?}");
    }
    let out = run_with_stdin(
        dir.path(),
        &["--format", "compact", "--stdin-filename", "x.cu", "-"],
        &fixture("conflict.cu"),
    );
    assert_eq!(out.status.code(), Some(1), "`-` with its name is fine");
    assert_eq!(reported_files(&out), vec!["x.cu"]);
}

// `--fix` respects the user's files.

#[test]
fn fix_refuses_read_only_files() {
    let dir = scratch();
    let path = dir.path().join("src/conflict.cu");
    let original = std::fs::read(&path).unwrap();
    chmod(&path, 0o444);
    // Even root, whom the mode does not stop, leaves a read-only file alone.
    let out = run(dir.path(), &["--fix", "src/conflict.cu", "src/clean.cu"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: src/conflict.cu: the file is read-only"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), original);

    // An unprivileged user in a directory it may write (where a rename would succeed)
    // but on a file it may not.
    chmod(&path, 0o644);
    let other = dir.path().join("src/other.cu");
    std::fs::write(&other, &original).unwrap();
    give_to_nobody(&dir.path().join("src"));
    if is_root() {
        std::os::unix::fs::chown(&other, Some(0), Some(0)).unwrap();
    } else {
        chmod(&other, 0o444);
    }
    let Some(out) = run_unprivileged(dir.path(), &["--fix", "src/other.cu"]) else {
        return;
    };
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: src/other.cu: the file is"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&other).unwrap(), original);
}

#[test]
fn fix_writes_through_links_and_keeps_owner_mode_and_inode() {
    let dir = scratch();
    let root = dir.path();
    let original = String::from_utf8(fixture("conflict.cu")).unwrap();
    let fixed = original.replace("tile[32][32]", "tile[32][33]");
    std::fs::create_dir(root.join("real")).unwrap();
    for name in ["real/target.cu", "real/linked.cu", "real/owned.cu"] {
        std::fs::write(root.join(name), &original).unwrap();
    }
    std::os::unix::fs::symlink("real/target.cu", root.join("symlink.cu")).unwrap();
    std::fs::hard_link(root.join("real/linked.cu"), root.join("hardlink.cu")).unwrap();
    chmod(&root.join("real/owned.cu"), 0o640);
    let owner_before = std::fs::metadata(root.join("real/owned.cu")).unwrap();
    if is_root() {
        std::os::unix::fs::chown(root.join("real/owned.cu"), Some(NOBODY), Some(NOBODY)).unwrap();
    }
    let inode = std::fs::metadata(root.join("real/linked.cu"))
        .unwrap()
        .ino();

    let out = run(
        root,
        &["--fix", "symlink.cu", "hardlink.cu", "real/owned.cu"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let link = std::fs::symlink_metadata(root.join("symlink.cu")).unwrap();
    assert!(link.file_type().is_symlink(), "the symbolic link is kept");
    assert_eq!(
        std::fs::read_to_string(root.join("real/target.cu")).unwrap(),
        fixed
    );
    let linked = std::fs::metadata(root.join("real/linked.cu")).unwrap();
    assert_eq!(
        (linked.ino(), linked.nlink()),
        (inode, 2),
        "the hard link is kept"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("real/linked.cu")).unwrap(),
        fixed
    );
    let owned = std::fs::metadata(root.join("real/owned.cu")).unwrap();
    assert_eq!(
        std::fs::read_to_string(root.join("real/owned.cu")).unwrap(),
        fixed
    );
    assert_eq!(owned.mode() & 0o777, 0o640, "the mode is kept");
    let expected_owner = if is_root() {
        (NOBODY, NOBODY)
    } else {
        (owner_before.uid(), owner_before.gid())
    };
    assert_eq!(
        (owned.uid(), owned.gid()),
        expected_owner,
        "owner and group kept"
    );

    let mut names: Vec<String> = std::fs::read_dir(root.join("real"))
        .unwrap()
        .chain(std::fs::read_dir(root).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "hardlink.cu",
            "linked.cu",
            "owned.cu",
            "real",
            "src",
            "symlink.cu",
            "target.cu"
        ],
        "no temporary files anywhere"
    );
}

#[test]
fn fix_works_in_a_read_only_directory_as_an_unprivileged_user() {
    let dir = scratch();
    let src = dir.path().join("src");
    give_to_nobody(&src);
    chmod(&src, 0o555);
    let Some(out) = run_unprivileged(dir.path(), &["--fix", "src/conflict.cu"]) else {
        chmod(&src, 0o755);
        return;
    };
    chmod(&src, 0o755);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(src.join("conflict.cu"))
        .unwrap()
        .contains("tile[32][33]"));
}

#[test]
fn fix_skips_a_file_changed_since_it_was_read() {
    // The same file named twice, through a hard link: whichever order the names are
    // read and written in, the fix lands once and the file stays whole. A name read
    // before the other name's fix was written finds the file no longer as it was read
    // and is skipped with a warning; a name read after it finds nothing left to fix.
    let dir = scratch();
    std::fs::hard_link(
        dir.path().join("src/conflict.cu"),
        dir.path().join("alias.cu"),
    )
    .unwrap();
    for threads in ["1", "2"] {
        std::fs::write(dir.path().join("alias.cu"), fixture("conflict.cu")).unwrap();
        let out = run(
            dir.path(),
            &["--fix", "--threads", threads, "src/conflict.cu", "alias.cu"],
        );
        let stderr = text(&out.stderr);
        let warnings: Vec<&str> = stderr
            .lines()
            .filter(|l| l.contains("since it was read; fixes not written"))
            .collect();
        assert!(warnings.len() <= 1, "{stderr}");
        assert!(
            warnings.iter().all(|w| w.starts_with("warning: ")),
            "{stderr}"
        );
        let fixed = std::fs::read_to_string(dir.path().join("alias.cu")).unwrap();
        assert_eq!(fixed.matches("tile[32][33]").count(), 1, "{fixed}");
        let expected = i32::from(!warnings.is_empty());
        assert_eq!(
            out.status.code(),
            Some(expected),
            "a skipped name still reports its finding: {stderr}"
        );
    }

    // A file another program holds locked is left alone, after a short wait.
    let path = dir.path().join("src/locked.cu");
    std::fs::write(&path, fixture("conflict.cu")).unwrap();
    let holder = std::fs::File::open(&path).unwrap();
    holder.lock().unwrap();
    let out = run(dir.path(), &["--fix", "src/locked.cu"]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("warning: src/locked.cu: the file stayed locked by another program"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), fixture("conflict.cu"));
    holder.unlock().unwrap();
}

#[test]
fn fix_write_failures_are_errors_and_leave_the_file_whole() {
    // A file-size limit of 512 bytes (with SIGXFSZ ignored) makes growing a file of
    // exactly 512 bytes fail as a full disk would; padding `[TILE]` to `[TILE + 1]` grows it.
    let dir = scratch();
    let kernel = String::from_utf8(fixture("conflict.cu"))
        .unwrap()
        .replace("tile[32][32]", "tile[TILE][TILE]");
    let mut original = format!("#define TILE 32\n{kernel}").into_bytes();
    let pad = 512 - original.len() - 4;
    original.extend_from_slice(format!("// {}\n", "x".repeat(pad)).as_bytes());
    assert_eq!(original.len(), 512);
    std::fs::write(dir.path().join("big.cu"), &original).unwrap();
    let script = r#"ulimit -f 1 && trap '' XFSZ && exec "$0" "$@""#;
    let out = finish(
        command(dir.path(), "sh", &["-c", script, BIN, "--fix", "big.cu"])
            .spawn()
            .unwrap(),
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: big.cu: cannot write fixes: File too large"),
        "{stderr}"
    );
    assert!(!stderr.contains("partly written"), "{stderr}");
    assert_eq!(std::fs::read(dir.path().join("big.cu")).unwrap(), original);
}

#[test]
fn output_over_a_checked_file_is_refused() {
    let dir = scratch();
    let path = dir.path().join("src/conflict.cu");
    let original = std::fs::read(&path).unwrap();
    std::fs::hard_link(&path, dir.path().join("alias.cu")).unwrap();
    for args in [
        &["-o", "src/conflict.cu", "src/conflict.cu"][..],
        &["-o", "alias.cu", "src"][..],
        &["-o", "./src/conflict.cu", "src/**/*.cu"][..],
    ] {
        let out = run(dir.path(), args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("a file being checked; the report would overwrite it"),
            "{args:?}: {stderr}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), original, "{args:?}");
    }
    let out = run_with_stdin(
        dir.path(),
        &["--stdin-filename", "src/conflict.cu", "-o", "alias.cu"],
        &original,
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&path).unwrap(), original);
}

#[test]
fn cr_only_files_have_lines_positions_and_diff_hunks() {
    let dir = scratch();
    let lf = String::from_utf8(fixture("conflict.cu")).unwrap();
    let cr = lf.replace('\n', "\r");
    std::fs::write(dir.path().join("cr.cu"), &cr).unwrap();
    std::fs::write(dir.path().join("lf.cu"), &lf).unwrap();

    let positions = |name: &str| -> Vec<String> {
        let out = run(dir.path(), &["--format", "compact", name]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out.stdout));
        text(&out.stdout)
            .lines()
            .map(|l| l.strip_prefix(name).unwrap_or(l).to_string())
            .collect()
    };
    let cr_positions = positions("cr.cu");
    assert!(
        cr_positions.iter().any(|p| p.starts_with(":7:24:")),
        "{cr_positions:?}"
    );
    assert_eq!(
        cr_positions,
        positions("lf.cu"),
        "the same lines and columns"
    );

    // A suppression on the first line reaches the second, not the whole file.
    let suppressed = format!("// bankcheck: ignore[bank-conflict]\r{cr}");
    std::fs::write(dir.path().join("suppressed.cu"), suppressed).unwrap();
    let out = run(dir.path(), &["--format", "compact", "suppressed.cu"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("suppressed.cu:8:24: warning[bank-conflict]"),
        "{stdout}"
    );
    assert!(stdout.contains("[unused-suppression]"), "{stdout}");

    let out = run(dir.path(), &["--format", "compact", "--diff", "cr.cu"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "-    __shared__ float tile[32][32];\r\n+    __shared__ float tile[32][33];\r\n"
        ),
        "{stdout:?}"
    );
    assert!(
        stdout.contains("@@ -1,"),
        "a hunk with line numbers: {stdout:?}"
    );

    let out = run(dir.path(), &["--fix", "cr.cu"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let fixed = std::fs::read_to_string(dir.path().join("cr.cu")).unwrap();
    assert_eq!(fixed, cr.replace("tile[32][32]", "tile[32][33]"));
}

// Exit codes and streams.

/// A pipe whose reading end is already closed: every write to it fails with EPIPE.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Stdio::from(writer)
}

#[test]
fn closed_standard_output_keeps_the_earned_exit_status() {
    let dir = scratch();
    for (args, status) in [
        (&["src/conflict.cu"][..], 1),
        (&["--format", "json", "src/conflict.cu"][..], 1),
        (&["missing.cu", "src/clean.cu"][..], 2),
        (&["--diff", "src/conflict.cu"][..], 1),
        (&["src/clean.cu"][..], 0),
    ] {
        let mut command = command(dir.path(), BIN, args);
        command.stdout(closed_pipe());
        let out = finish(command.spawn().unwrap());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(status), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("Broken pipe"),
            "quietly: {args:?}: {stderr}"
        );
    }
    // A standard output that refuses the bytes (a full disk) is an error, not a success.
    let mut full = command(dir.path(), BIN, &["src/clean.cu"]);
    full.stdout(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap(),
    );
    let out = finish(full.spawn().unwrap());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot write the report"),
        "{}",
        text(&out.stderr)
    );
    // As with `| head -1`: the reader takes one line and leaves.
    let mut child = command(dir.path(), BIN, &["src/conflict.cu"])
        .spawn()
        .unwrap();
    let mut first = [0u8; 1];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    assert_eq!(finish(child).status.code(), Some(1));
}

#[test]
fn closed_standard_error_never_panics() {
    let dir = scratch();
    for (args, status) in [
        (&["missing.cu"][..], 2),
        (&["--select", "no-such-rule", "src/clean.cu"][..], 2),
        (&["--stats", "src/conflict.cu"][..], 1),
        (&["explain", "no-such-rule"][..], 2),
    ] {
        let mut command = command(dir.path(), BIN, args);
        command.stderr(closed_pipe());
        let out = finish(command.spawn().unwrap());
        assert_eq!(out.status.code(), Some(status), "{args:?}");
        // Both closed: still the status, still no panic (101).
        let mut command = self::command(dir.path(), BIN, args);
        command.stdout(closed_pipe()).stderr(closed_pipe());
        let out = finish(command.spawn().unwrap());
        assert_eq!(out.status.code(), Some(status), "{args:?}, both closed");
    }
}

/// Every path that writes to standard error goes through the non-panicking `errln!`.
#[test]
fn no_eprintln_in_the_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stack: Vec<PathBuf> = vec![root.join("src")];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let source = std::fs::read_to_string(&path).unwrap();
            let code: String = source
                .split("#[cfg(test)]")
                .next()
                .unwrap_or("")
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect();
            assert!(
                !code.contains("eprintln!") && !code.contains("eprint!("),
                "{} writes to stderr with a macro that panics when stderr is closed",
                path.display()
            );
        }
    }
}
