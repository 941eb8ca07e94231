//! Defence in depth for a file that kills its worker: a stack overflow or a fatal
//! signal cannot be caught like a panic, and would lose the report of every file.
//!
//! The common case costs nothing: no supervisor process runs. At start the run installs
//! a handler for the fatal signals (SIGSEGV, which a stack overflow raises on the guard
//! page, SIGBUS, SIGILL, SIGFPE, SIGABRT) and prepares, while allocating is still safe,
//! everything a restart needs; each worker notes which file it is checking in a
//! thread-local. If a worker dies, the handler (on the alternate signal stack, using
//! only async-signal-safe calls) re-executes the binary with the same arguments and
//! `BANKCHECK_CRASHED` naming the file, appended to the files that crashed before. The
//! new run does not check those files: each gets an `internal-error` finding and the run
//! ends with status 2, every other file reported in full. A run restarts at most
//! [`MAX_RESTARTS`] times; standard input cannot be read twice, so a crash on it prints
//! the error and exits 2.

use std::cell::Cell;
use std::ffi::{CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::sync::OnceLock;

/// The files of the run that crashed a worker before this restart (display paths).
pub const CRASHED_VAR: &str = "BANKCHECK_CRASHED";
/// How many times this run has been restarted.
const RESTARTS_VAR: &str = "BANKCHECK_RESTARTS";
/// Restarts allowed in one run (each one skips one more file).
pub const MAX_RESTARTS: u32 = 16;
/// Room for the list of crashed files passed to the restart.
const BUF_BYTES: usize = 1 << 16;

/// What the handler needs, built before any worker starts.
struct Restart {
    exe: CString,
    /// Kept alive for `argv_ptrs`.
    _argv: Vec<CString>,
    argv_ptrs: Vec<*const libc::c_char>,
    /// The environment without our variables, then two slots for them, then NULL.
    env: Vec<CString>,
    env_ptrs: std::cell::UnsafeCell<Vec<*const libc::c_char>>,
    /// `BANKCHECK_RESTARTS=n+1`.
    restarts: CString,
    /// `BANKCHECK_CRASHED=` and the files that crashed before, newline-separated.
    crashed_prefix: Vec<u8>,
    /// Whether a restart can redo the run (not when the input was standard input).
    restartable: bool,
}

// The pointers point into the CStrings the struct owns; it is built once and never
// changed except by the handler, which runs once per process (it never returns).
unsafe impl Sync for Restart {}
unsafe impl Send for Restart {}

static RESTART: OnceLock<Restart> = OnceLock::new();
/// Written by the handler only.
static mut BUF: [u8; BUF_BYTES] = [0; BUF_BYTES];

thread_local! {
    /// The display path of the file this thread is checking (pointer and length), or null.
    static CURRENT: Cell<(*const u8, usize)> = const { Cell::new((std::ptr::null(), 0)) };
}

/// The files an earlier run of this command crashed on.
pub fn crashed_before() -> Vec<String> {
    std::env::var(CRASHED_VAR)
        .map(|v| {
            v.split('\n')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Installs the handler for this run. `can_restart` is false when the input is standard
/// input (it cannot be read again).
pub fn install(can_restart: bool) {
    let restarts: u32 = std::env::var(RESTARTS_VAR)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| CString::new(p.as_os_str().as_bytes()).ok())
        .unwrap_or_else(|| CString::new("/proc/self/exe").expect("no NUL"));
    let argv: Vec<CString> = std::env::args_os()
        .filter_map(|a| CString::new(a.as_bytes()).ok())
        .collect();
    let mut argv_ptrs: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
    argv_ptrs.push(std::ptr::null());
    let env: Vec<CString> = std::env::vars_os()
        .filter(|(k, _)| k != OsStr::new(CRASHED_VAR) && k != OsStr::new(RESTARTS_VAR))
        .filter_map(|(k, v)| {
            let mut kv = k.as_bytes().to_vec();
            kv.push(b'=');
            kv.extend_from_slice(v.as_bytes());
            CString::new(kv).ok()
        })
        .collect();
    let mut env_ptrs: Vec<*const libc::c_char> = env.iter().map(|e| e.as_ptr()).collect();
    env_ptrs.extend([std::ptr::null(); 3]);
    let can_restart = can_restart && restarts < MAX_RESTARTS;
    let restarts = CString::new(format!("{RESTARTS_VAR}={}", restarts + 1)).expect("no NUL");
    let mut crashed_prefix = format!("{CRASHED_VAR}=").into_bytes();
    for f in crashed_before() {
        crashed_prefix.extend_from_slice(f.as_bytes());
        crashed_prefix.push(b'\n');
    }
    let restart = Restart {
        exe,
        _argv: argv,
        argv_ptrs,
        env,
        env_ptrs: std::cell::UnsafeCell::new(env_ptrs),
        restarts,
        crashed_prefix,
        restartable: can_restart,
    };
    if RESTART.set(restart).is_err() {
        return;
    }
    for signal in [
        libc::SIGSEGV,
        libc::SIGBUS,
        libc::SIGILL,
        libc::SIGFPE,
        libc::SIGABRT,
    ] {
        // SAFETY: a plain sigaction with a handler that only makes async-signal-safe calls.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_NODEFER;
            libc::sigemptyset(&raw mut action.sa_mask);
            libc::sigaction(signal, &raw const action, std::ptr::null_mut());
        }
    }
}

/// Fault injection for the tests of this module: the file named by this variable
/// overflows its worker's stack instead of being checked.
const CRASH_TEST_VAR: &str = "BANKCHECK_TEST_CRASH";

/// Runs `f` while this thread checks the file `display` (the handler blames it if the
/// thread dies).
pub fn checking<T>(display: &str, f: impl FnOnce() -> T) -> T {
    static CRASH_TEST: OnceLock<Option<String>> = OnceLock::new();
    CURRENT.with(|c| c.set((display.as_ptr(), display.len())));
    if CRASH_TEST
        .get_or_init(|| std::env::var(CRASH_TEST_VAR).ok())
        .as_deref()
        == Some(display)
    {
        overflow(0);
    }
    let out = f();
    CURRENT.with(|c| c.set((std::ptr::null(), 0)));
    out
}

/// Writes `bytes` to standard error, ignoring failures (async-signal-safe).
fn write_stderr(bytes: &[u8]) {
    // SAFETY: write(2) on a valid buffer.
    unsafe {
        libc::write(2, bytes.as_ptr().cast(), bytes.len());
    }
}

/// The fatal-signal handler: restart without the file this thread was checking, or, when
/// that cannot be done, report and exit 2. Returns only by re-raising the signal when no
/// file is being checked (a crash outside any file is not one file's fault).
extern "C" fn handler(signal: libc::c_int, _: *mut libc::siginfo_t, _: *mut libc::c_void) {
    let (ptr, len) = CURRENT.with(Cell::get);
    let Some(restart) = RESTART.get() else {
        reraise(signal);
        return;
    };
    if ptr.is_null() {
        reraise(signal);
        return;
    }
    // SAFETY: the pointer and length are those of a `&str` that outlives the check.
    let path = unsafe { std::slice::from_raw_parts(ptr, len) };
    if !restart.restartable {
        write_stderr(b"error: ");
        write_stderr(path);
        write_stderr(b": bankcheck crashed while checking this file (fatal signal)\n");
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(2) };
    }
    // SAFETY: the handler runs once (it never returns to a worker), so it is the only
    // writer of BUF and of the environment slots.
    unsafe {
        let buf = (&raw mut BUF).cast::<u8>();
        let prefix = &restart.crashed_prefix;
        if prefix.len() + path.len() + 2 > BUF_BYTES || path.contains(&b'\n') {
            write_stderr(b"error: ");
            write_stderr(path);
            write_stderr(b": bankcheck crashed while checking this file (fatal signal)\n");
            libc::_exit(2);
        }
        std::ptr::copy_nonoverlapping(prefix.as_ptr(), buf, prefix.len());
        std::ptr::copy_nonoverlapping(path.as_ptr(), buf.add(prefix.len()), path.len());
        *buf.add(prefix.len() + path.len()) = 0;
        let env = &mut *restart.env_ptrs.get();
        let n = restart.env.len();
        env[n] = buf.cast_const().cast();
        env[n + 1] = restart.restarts.as_ptr();
        env[n + 2] = std::ptr::null();
        // The handled signal must not stay blocked in the new image.
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &raw const none, std::ptr::null_mut());
        libc::execve(
            restart.exe.as_ptr(),
            restart.argv_ptrs.as_ptr(),
            env.as_ptr(),
        );
        // execve failed: report what we can.
        write_stderr(b"error: ");
        write_stderr(path);
        write_stderr(b": bankcheck crashed while checking this file (fatal signal)\n");
        libc::_exit(2);
    }
}

/// Restores the default action and raises `signal` again: the process dies as it would
/// have without the handler.
fn reraise(signal: libc::c_int) {
    // SAFETY: signal(2) and raise(3) are async-signal-safe.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// Recurses until the stack overflows (see [`CRASH_TEST_VAR`]).
#[allow(unconditional_recursion)]
fn overflow(depth: u64) -> u64 {
    let frame = std::hint::black_box([depth; 64]);
    overflow(frame[1] + 1) + frame[0]
}
