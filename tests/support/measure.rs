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

impl Measured {
    /// The words of stdout's line `n` (counted from 0); it must be there.
    pub fn row_words(&self, n: usize) -> Vec<&str> {
        self.stdout
            .lines()
            .nth(n)
            .expect("a row")
            .split_whitespace()
            .collect()
    }
}

/// Runs `bin ARGS` in `cwd` (stdin empty, stderr inherited) to its end;
/// it must exit with status 0.
pub fn run_measured(bin: &Path, args: &[&str], cwd: &Path) -> Measured {
    let mut stdout = Vec::new();
    let mut run = run_measured_with(bin, args, cwd, |piece| stdout.extend_from_slice(piece));
    run.stdout = String::from_utf8(stdout).expect("UTF-8 stdout");
    run
}

/// [`run_measured`], its stdout handed to `piece` as it is read and not
/// kept (`stdout` is empty): a measuring process holding a big output
/// would count in the next child's peak RSS (its copy of this process
/// before exec).
pub fn run_measured_with(
    bin: &Path,
    args: &[&str],
    cwd: &Path,
    piece: impl FnMut(&[u8]),
) -> Measured {
    run_command_measured(
        Command::new(bin)
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::null()),
        piece,
    )
}

/// Runs `command` (its arguments, folder and stdin set; stderr inherited)
/// to its end, its stdout handed to `piece` as it is read; it must exit
/// with status 0. `stdout` is empty.
pub fn run_command_measured(command: &mut Command, mut piece: impl FnMut(&[u8])) -> Measured {
    let start = Instant::now();
    // Waited for by `wait4` below, which also gives its peak RSS.
    #[allow(clippy::zombie_processes)]
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn the binary");
    let pid = child.id() as libc::pid_t;
    // Read stdout before waiting: the child must not block on a full pipe.
    if let Some(mut out) = child.stdout {
        use std::io::Read;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            match out.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => piece(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => panic!("read stdout: {e}"),
            }
        }
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
        "{command:?} failed: {status}"
    );
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    Measured {
        stdout: String::new(),
        wall,
        cpu: tv(usage.ru_utime) + tv(usage.ru_stime),
        peak_kib: usage.ru_maxrss as u64,
    }
}
