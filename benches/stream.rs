//! `srview apply FILE - --stream` as a whole process, against one
//! `srview apply FILE DIFF` of the same diff: the release binary driven
//! through a pipe the way an agent streams, 64-byte writes with 1 ms pauses,
//! its stdout read by this process as an editor plugin would. CPU time is
//! user + system of the child, from `getrusage(RUSAGE_CHILDREN)`.
//!
//! Run: `cargo bench --bench stream`.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "common/generated.rs"]
mod generated;
use generated::file;

/// User + system CPU time of every child waited for so far.
fn children_cpu() -> Duration {
    // SAFETY: `getrusage` only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a `rusage`.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(rc, 0, "getrusage");
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

struct Run {
    cpu: Duration,
    wall: Duration,
    lines: usize,
    out_bytes: usize,
}

fn one_shot(bin: &Path, file: &Path, diff: &Path) -> Run {
    let before = children_cpu();
    let t = Instant::now();
    let out = Command::new(bin)
        .arg("apply")
        .arg(file)
        .arg(diff)
        .args(["--engine", "v2"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .output()
        .expect("run srview apply");
    let wall = t.elapsed();
    assert!(out.status.success(), "srview apply failed");
    Run {
        cpu: children_cpu() - before,
        wall,
        lines: 1,
        out_bytes: out.stdout.len(),
    }
}

fn streamed(bin: &Path, file: &Path, diff: &str, extra: &[&str]) -> Run {
    let before = children_cpu();
    let t = Instant::now();
    let mut child = Command::new(bin)
        .arg("apply")
        .arg(file)
        .arg("-")
        .args(["--stream", "--engine", "v2"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn srview apply --stream");
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        let _ = stdout.read_to_end(&mut all);
        all
    });
    let mut stdin = child.stdin.take().expect("stdin");
    for chunk in diff.as_bytes().chunks(64) {
        stdin.write_all(chunk).expect("write chunk");
        std::thread::sleep(Duration::from_millis(1));
    }
    drop(stdin);
    let status = child.wait().expect("wait");
    let wall = t.elapsed();
    let cpu = children_cpu() - before;
    assert!(status.success(), "srview apply --stream failed");
    let out = reader.join().expect("reader");
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.contains("\"final\":true")),
        "a final line"
    );
    Run {
        cpu,
        wall,
        lines: text.lines().count(),
        out_bytes: out.len(),
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let bin = Path::new(env!("CARGO_BIN_EXE_srview"));
    let dir = tempfile::tempdir().expect("tempdir");
    let lines = 20_000;
    let original = file(lines);
    // The last block re-indented: only the line-trimmed fallback finds it.
    let d = generated::diff(lines, 50, true);
    let file_path = dir.path().join("big.rs");
    let diff_path = dir.path().join("edit.diff");
    std::fs::write(&file_path, &original).expect("write file");
    std::fs::write(&diff_path, &d).expect("write diff");

    const RUNS: usize = 11;
    // `SRVIEW_BEFORE=path/to/srview`: also streams through another build
    // (e.g. the previous commit's), for a before/after in the same run.
    let before: Option<std::path::PathBuf> = std::env::var_os("SRVIEW_BEFORE").map(Into::into);
    let mut old = Vec::new();
    let (mut one, mut stream, mut every) = (Vec::new(), Vec::new(), Vec::new());
    // Interleaved, so a noisy moment hits all three alike.
    for _ in 0..RUNS {
        one.push(one_shot(bin, &file_path, &diff_path));
        stream.push(streamed(bin, &file_path, &d, &[]));
        every.push(streamed(bin, &file_path, &d, &["--stream-interval", "0"]));
        if let Some(b) = &before {
            old.push(streamed(b, &file_path, &d, &[]));
        }
    }
    let cpu = |runs: &[Run]| median(runs.iter().map(|r| r.cpu).collect());
    let wall = |runs: &[Run]| median(runs.iter().map(|r| r.wall).collect());
    let (c1, cs, ce) = (cpu(&one), cpu(&stream), cpu(&every));
    println!(
        "\n## `apply --stream` process CPU: {}-block diff ({} bytes, {} writes of 64 bytes, 1 ms apart) over a {lines}-line file ({:.2} MB), engine v2; median of {RUNS} interleaved runs\n",
        50,
        d.len(),
        d.len().div_ceil(64),
        original.len() as f64 / 1e6
    );
    println!(
        "| run | CPU user+sys (ms) | wall (ms) | lines out (first run) | bytes out (first run) | x one apply (CPU) | target |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let row = |name: &str, runs: &[Run], c: Duration, target: &str| {
        let r = &runs[0];
        println!(
            "| {name} | {:.2} | {:.1} | {} | {} | {:.2} | {target} |",
            ms(c),
            ms(wall(runs)),
            r.lines,
            r.out_bytes,
            ms(c) / ms(c1)
        );
    };
    row(
        "`srview apply FILE DIFF --engine v2` (stdout read)",
        &one,
        c1,
        "",
    );
    row(
        "`srview apply FILE - --stream --engine v2` (default interval)",
        &stream,
        cs,
        "**<= 3x**",
    );
    row(
        "same, `--stream-interval 0` (a line per read)",
        &every,
        ce,
        "",
    );
    if !old.is_empty() {
        row("`SRVIEW_BEFORE` build, `--stream`", &old, cpu(&old), "");
    }
    println!(
        "\nstream CPU ratio {:.2}x (target <= 3x): {}",
        ms(cs) / ms(c1),
        if ms(cs) <= 3.0 * ms(c1) {
            "met"
        } else {
            "NOT met"
        }
    );
}
