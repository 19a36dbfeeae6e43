//! Following a generated 10,000-edit Claude Code session (about 100 MB,
//! `tests/support/big_session.rs`), then one more edit arriving.
//!
//! 1. The release binary following the file in a pseudo-terminal
//!    (`srview --follow`, 120x40; the previewer is private to the crate,
//!    behind its fence): the time from an edit appended to the file to the
//!    frame showing it ("edit N/N": read, reviewed and drawn), for each of
//!    several edits appended one at a time. Target: at most 50 ms.
//! 2. The release binary following the file in a pseudo-terminal
//!    (`srview --follow`), nothing arriving: its CPU time (utime + stime
//!    from `/proc/PID/stat`) over 5 s once loaded. Target: flat (at most
//!    50 ms, 1% of one core).
//!
//! Run: `cargo bench --bench follow`.

#[path = "../tests/support/big_session.rs"]
mod big_session;
#[path = "../tests/support/pty.rs"]
mod pty;

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

const SIZE: u64 = 100 * 1024 * 1024;
const EDITS: usize = 10_000;
/// Edits appended one at a time.
const APPENDED: usize = 30;
const TARGET: Duration = Duration::from_millis(50);
/// CPU time the idle follower may use over [`IDLE_FOR`].
const IDLE_CPU: Duration = Duration::from_millis(50);
const IDLE_FOR: Duration = Duration::from_secs(5);

const CWD: &str = "/home/user/big-project";
const SESSION_ID: &str = "5ca1ab1e-0000-4000-8000-000000000001";

/// Edit `n` of the session (from 1) as Claude Code writes it: its tool call,
/// then its result (with `originalFile`, the content before).
fn one_edit(n: usize) -> String {
    let id = format!("toolu_more_{n:05}");
    let file = format!("{CWD}/src/module_{:02}.rs", n % 40);
    let original: String = (0..160)
        .map(|i| format!("    let w{n}_{i} = compute({i}, \"{n:016x}\");\n"))
        .collect();
    let old = format!("    let w{n}_80 = compute(80, \"{n:016x}\");");
    let new = format!("    let w{n}_80 = compute(81, \"{n:016x}\");");
    let common = |uuid: String, kind: &str| {
        json!({"parentUuid": null, "isSidechain": false, "type": kind, "uuid": uuid,
            "timestamp": "2026-11-30T18:00:00.000Z", "userType": "external",
            "entrypoint": "sdk-cli", "cwd": CWD, "sessionId": SESSION_ID,
            "version": "2.1.328", "gitBranch": "main"})
    };
    let mut call = common(format!("a-more-{n}"), "assistant");
    call["message"] = json!({"id": format!("msg_more_{n}"), "type": "message",
        "role": "assistant", "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "tool_use", "id": id, "name": "Edit",
            "input": {"replace_all": false, "file_path": file, "old_string": old,
                "new_string": new}}],
        "stop_reason": "tool_use", "usage": {"input_tokens": 1200, "output_tokens": 100}});
    let mut result = common(format!("r-more-{n}"), "user");
    result["message"] = json!({"role": "user", "content": [{"tool_use_id": id,
        "type": "tool_result", "content": format!("The file {file} has been updated successfully.")}]});
    result["toolUseResult"] = json!({"filePath": file, "oldString": old, "newString": new,
        "originalFile": original, "structuredPatch": [], "userModified": false,
        "replaceAll": false});
    result["sourceToolAssistantUUID"] = json!(format!("a-more-{n}"));
    format!("{call}\n{result}\n")
}

/// Takes the worker's answers until edit `seq` is the last listed, with
/// the agent's verdict and srview's (`applies (exact)` for an appended
/// one), then draws the frame.
fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn met(ok: bool) -> &'static str {
    if ok { "met" } else { "MISSED" }
}

/// The process's CPU time (user + system), from `/proc/PID/stat`.
fn cpu_of(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc/PID/stat");
    // After the command's `(name)`: state is field 3, utime 14, stime 15.
    let rest = &stat[stat.rfind(')').expect("a stat line") + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 =
        fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
    // SAFETY: sysconf only reads a configuration value.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_micros(ticks * 1_000_000 / per_second)
}

/// Polls the screen every millisecond until `pred` holds (at most
/// `limit`); the time it took, `None` past the limit.
fn until_shown(
    session: &pty::Session,
    limit: Duration,
    pred: impl Fn(&str) -> bool,
) -> Option<Duration> {
    let t = Instant::now();
    while t.elapsed() < limit {
        if pred(&session.contents()) {
            return Some(t.elapsed());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    None
}

fn through_binary(dir: &Path, path: &Path) {
    let mut session = pty::Session::srview(dir, &["--follow", &path.to_string_lossy()]);
    // Following, the newest edit is shown: "edit N/N" once edit N is read,
    // reviewed and drawn.
    let shown = |seq: usize| move |screen: &str| screen.contains(&format!("edit {seq}/{seq} "));
    let loaded = until_shown(&session, Duration::from_secs(120), shown(EDITS));
    let mut times = Vec::new();
    if loaded.is_some() {
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .expect("append to the session");
        for k in 1..=APPENDED {
            let seq = EDITS + k;
            let more = one_edit(seq);
            let t = Instant::now();
            file.write_all(more.as_bytes()).expect("append an edit");
            if until_shown(&session, Duration::from_secs(10), shown(seq)).is_none() {
                break;
            }
            times.push(t.elapsed());
        }
    }
    session.press(b"q");
    let _ = session.child.kill();
    match (loaded, times.is_empty()) {
        (Some(loaded), false) => {
            let worst = times.iter().max().copied().unwrap_or_default();
            let n = times.len();
            let med = median(times);
            println!(
                "| new edit reviewed and drawn (release binary `srview --follow` in a 120x40 pty: from the append to the frame showing it; {n} edits appended) | {:.1} ms median, {:.1} ms max | <= {} ms (median): {} |",
                ms(med),
                ms(worst),
                TARGET.as_millis(),
                met(med <= TARGET)
            );
            println!(
                "| the followed session read, reviewed and its newest edit drawn, from launch | {:.2} s | (no target) |",
                loaded.as_secs_f64()
            );
        }
        (Some(_), true) => {
            println!("| new edit reviewed and drawn | not shown within 10 s | <= 50 ms: NOT met |")
        }
        (None, _) => println!("| the followed session loaded | not within 120 s | (no target) |"),
    }
}

fn idle_cpu(dir: &Path, path: &Path) {
    let session = pty::Session::srview(dir, &["--follow", &path.to_string_lossy()]);
    let pid = session.pid();
    // Loaded: the CPU time stops growing for a second (or a minute
    // passed: what it then uses is what is measured).
    let started = Instant::now();
    let mut last = cpu_of(pid);
    while started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_secs(1));
        let now = cpu_of(pid);
        if now - last < Duration::from_millis(20) {
            break;
        }
        last = now;
    }
    let load = started.elapsed();
    let before = cpu_of(pid);
    std::thread::sleep(IDLE_FOR);
    let used = cpu_of(pid) - before;
    let mut session = session;
    session.press(b"q");
    let _ = session.child.kill();
    println!(
        "| CPU time of `srview --follow` (release, pty) over {} s with nothing arriving | {:.0} ms | flat (<= {} ms): {} |",
        IDLE_FOR.as_secs(),
        ms(used),
        IDLE_CPU.as_millis(),
        met(used <= IDLE_CPU)
    );
    println!(
        "| `srview --follow` settled (CPU quiet for 1 s) after | {:.1} s | (no target) |",
        load.as_secs_f64()
    );
}

/// By hand, to profile the binary (`perf record -p PID`): with
/// `SRVIEW_FOLLOW_KEEP=DIR` the session is generated under DIR and its path
/// printed; with `SRVIEW_FOLLOW_APPEND=FILE` the appended edits are
/// appended to FILE, one every 300 ms. Returns whether it ran.
fn by_hand() -> bool {
    if let Some(dir) = std::env::var_os("SRVIEW_FOLLOW_KEEP") {
        let generated = big_session::claude_session(Path::new(&dir), SIZE, EDITS);
        println!("{}", generated.path.display());
        return true;
    }
    if let Some(path) = std::env::var_os("SRVIEW_FOLLOW_APPEND") {
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .expect("append to the session");
        for k in 1..=APPENDED {
            file.write_all(one_edit(EDITS + k).as_bytes())
                .expect("append an edit");
            std::thread::sleep(Duration::from_millis(300));
        }
        return true;
    }
    false
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is taken.
    if by_hand() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let home = dir.path().join("home");
    let generated = big_session::claude_session(&home, SIZE, EDITS);
    println!(
        "following {} ({} MiB, {} edits)",
        generated.path.display(),
        generated.bytes >> 20,
        generated.edits
    );
    println!("| what | measured | target |");
    println!("|---|---|---|");
    through_binary(dir.path(), &generated.path);
    idle_cpu(dir.path(), &generated.path);
}
