//! A whole process run to its end and measured: its stdout, wall time, CPU
//! time and peak RSS (`ru_maxrss` from `wait4`: the kernel's `VmHWM` at
//! exit). Shared with `benches/sessions.rs` (`#[path]`), so it names no
//! sibling module.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one run cost.
pub struct Measured {
    pub stdout: String,
    pub wall: Duration,
    /// User + system CPU time.
    pub cpu: Duration,
    pub peak_kib: u64,
}

/// Runs `bin ARGS` in `cwd` (stdin empty, stderr inherited) to its end;
/// it must exit with status 0.
pub fn run_measured(bin: &Path, args: &[&str], cwd: &Path) -> Measured {
    let start = Instant::now();
    // Waited for by `wait4` below, which also gives its peak RSS.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(bin)
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn the binary");
    let pid = child.id() as libc::pid_t;
    // Read stdout before waiting: the child must not block on a full pipe.
    let mut stdout = String::new();
    if let Some(mut out) = child.stdout {
        use std::io::Read;
        out.read_to_string(&mut stdout).expect("read stdout");
    }
    let mut status = 0;
    // SAFETY: `rusage` is plain data; wait4 only writes it and `status`.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet waited for.
    let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = start.elapsed();
    assert_eq!(rc, pid, "wait4");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{} {args:?} failed: {status}",
        bin.display()
    );
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    Measured {
        stdout,
        wall,
        cpu: tv(usage.ru_utime) + tv(usage.ru_stime),
        peak_kib: usage.ru_maxrss as u64,
    }
}
