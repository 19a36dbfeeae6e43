//! Watcher, stream, signal and panic edge cases, end to end in a pty.

mod support;

use support::diff::block;
use support::pty;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use pty::{Session, assert_mouse_released};

const ORIGINAL: &str = "alpha\nbeta\ngamma\ndelta\n";

fn setup() -> tempfile::TempDir {
    support::files::folder(&[("f.txt", ORIGINAL)])
}

fn start(dir: &Path, extra: &[&str]) -> Session {
    let mut args = vec!["f.txt", "d.diff"];
    args.extend_from_slice(extra);
    Session::srview(dir, &args)
}

/// `srview f.txt d.diff` in a [`setup`] folder, with `diff` written to
/// d.diff first; the folder, d.diff's path and the session.
fn started(diff: impl AsRef<[u8]>) -> (tempfile::TempDir, PathBuf, Session) {
    let dir = setup();
    let path = dir.path().join("d.diff");
    std::fs::write(&path, diff).expect("write diff");
    let s = start(dir.path(), &[]);
    (dir, path, s)
}

fn untouched(dir: &Path) {
    assert_eq!(
        std::fs::read_to_string(dir.join("f.txt")).expect("read"),
        ORIGINAL
    );
}

/// `script` run by `sh` in a new [`setup`] folder (d.diff holding `diff`
/// first, where one is given), `{srview}` standing for the binary under
/// test: the folder and the session.
fn scripted(diff: Option<&str>, script: &str) -> (tempfile::TempDir, Session) {
    let dir = setup();
    if let Some(diff) = diff {
        std::fs::write(dir.path().join("d.diff"), diff).expect("write diff");
    }
    let script = script.replace("{srview}", &format!("'{}'", support::runner::BIN));
    let s = Session::spawn(dir.path(), "sh", &["-c", &script]);
    (dir, s)
}
#[test]
fn diff_deleted_and_recreated() {
    let (dir, diff, mut s) = started(block("beta", "BETA"));
    s.wait_for("first block", |c| {
        c.contains("1 applied") && c.contains("BETA")
    });
    std::fs::remove_file(&diff).expect("delete");
    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(
        &diff,
        format!("{}{}", block("beta", "BETA"), block("delta", "DELTA")),
    )
    .expect("recreate");
    s.wait_for("both blocks after recreate", |c| {
        c.contains("2 applied") && c.contains("DELTA")
    });
    s.quit();
    untouched(dir.path());
}

#[test]
fn diff_truncated_to_zero_then_rewritten() {
    let (_dir, diff, mut s) = started(block("beta", "BETA"));
    s.wait_for("block", |c| c.contains("1 applied"));
    std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&diff)
        .expect("truncate");
    s.wait_for("empty diff shows waiting", |c| {
        c.contains("waiting for the diff") && c.contains("0 applied")
    });
    std::fs::write(&diff, block("gamma", "GAMMA")).expect("rewrite");
    s.wait_for("new block", |c| {
        c.contains("GAMMA") && c.contains("1 applied")
    });
    s.quit();
}

#[test]
fn diff_replaced_by_rename() {
    let (dir, diff, mut s) = started(block("beta", "BETA"));
    s.wait_for("block", |c| c.contains("BETA"));
    let tmp = dir.path().join("d.diff.tmp");
    std::fs::write(&tmp, block("alpha", "ALPHA")).expect("write tmp");
    std::fs::rename(&tmp, &diff).expect("rename");
    s.wait_for("renamed content", |c| {
        c.contains("ALPHA") && !c.contains("BETA")
    });
    s.press(b"a");
    assert_eq!(s.exit_code(), 0);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).expect("read"),
        "ALPHA\nbeta\ngamma\ndelta\n"
    );
}

fn one_byte_at_a_time(poll: bool) {
    let dir = setup();
    let diff = dir.path().join("d.diff");
    std::fs::write(&diff, "").expect("create");
    let extra: &[&str] = if poll { &["--poll"] } else { &[] };
    let mut s = start(dir.path(), extra);
    s.wait_for("waiting", |c| c.contains("waiting"));
    let text = format!("{}{}", block("beta", "BETA"), block("delta", "DELTA"));
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&diff)
        .expect("open");
    for b in text.as_bytes() {
        f.write_all(&[*b]).expect("append");
        f.flush().expect("flush");
        std::thread::sleep(Duration::from_millis(2));
    }
    s.wait_for("the last byte is never dropped", |c| {
        c.contains("2 applied") && c.contains(&format!("{} B", text.len()))
    });
    s.press(b"a");
    assert_eq!(s.exit_code(), 0);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).expect("read"),
        "alpha\nBETA\ngamma\nDELTA\n"
    );
}

#[test]
fn appended_one_byte_at_a_time() {
    one_byte_at_a_time(false);
}

#[test]
fn poll_fallback_without_file_events() {
    one_byte_at_a_time(true);
}

#[test]
fn stdin_closed_early_switches_to_final_mode() {
    // The stream stops inside the REPLACE section: final mode applies it as
    // if closed (as the reference does), the SEARCH of a second block is dropped.
    let (dir, mut s) = scripted(
        None,
        "printf '------- SEARCH\\nbeta\\n=======\\nBETA\\n------- SEARCH\\ndel' | {srview} f.txt",
    );
    s.wait_for("ended", |c| c.contains("ended"));
    s.quit();
    untouched(dir.path());
}

fn signal_restores_terminal(sig: &str, code: u32) {
    let (dir, _, mut s) = started(block("beta", "BETA"));
    s.wait_for("block", |c| c.contains("1 applied"));
    let status = std::process::Command::new("kill")
        .args([sig, &s.pid().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    assert_eq!(s.exit_code(), code, "exit status after {sig}");
    std::thread::sleep(Duration::from_millis(100));
    let raw = s.raw_text();
    let entered = raw
        .find("\u{1b}[?1049h")
        .expect("entered the alternate screen");
    assert!(pty::left_alternate_screen_at(&raw) > entered);
    assert_mouse_released(&raw);
    untouched(dir.path());
}

#[test]
fn sigterm_restores_terminal_and_writes_nothing() {
    signal_restores_terminal("-TERM", 143);
}

#[test]
fn sighup_restores_terminal_and_writes_nothing() {
    signal_restores_terminal("-HUP", 129);
}

#[test]
fn sigint_restores_terminal_and_writes_nothing() {
    signal_restores_terminal("-INT", 130);
}

#[test]
fn panic_restores_terminal_and_prints_a_report() {
    let (dir, mut s) = scripted(
        Some(&block("beta", "BETA")),
        "SRVIEW_TEST_PANIC=1 {srview} f.txt d.diff",
    );
    let code = s.exit_code();
    assert_ne!(code, 0);
    std::thread::sleep(Duration::from_millis(100));
    let raw = s.raw_text();
    let left = raw
        .find("\u{1b}[?1049l")
        .expect("left the alternate screen");
    let report = raw
        .find("panic requested by SRVIEW_TEST_PANIC")
        .expect("panic report printed");
    assert!(
        report > left,
        "the report comes after the terminal is restored"
    );
    assert_mouse_released(&raw);
    untouched(dir.path());
}

#[test]
fn resize_storm_and_tiny_terminal() {
    let (_dir, _, mut s) = started(block("beta", "BETA"));
    s.wait_for("block", |c| c.contains("1 applied"));
    for i in 0..200u16 {
        s.resize(1 + i % 50, 1 + (i * 7) % 300);
    }
    s.resize(1, 1);
    std::thread::sleep(Duration::from_millis(200));
    s.resize(40, 120);
    s.wait_for("redrawn at full size", |c| {
        c.contains("1 applied") && c.contains("BETA")
    });
    s.quit();
}

#[test]
fn print_sends_accepted_content_to_stdout_not_file() {
    let (dir, mut s) = scripted(
        Some(&block("beta", "BETA")),
        "{srview} f.txt d.diff --print > out.txt",
    );
    s.wait_for("drawn on the terminal while stdout is a file", |c| {
        c.contains("1 applied")
    });
    s.press(b"a");
    assert_eq!(s.exit_code(), 0);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.txt")).expect("read"),
        "alpha\nBETA\ngamma\ndelta\n"
    );
    untouched(dir.path());
}

#[test]
fn a_diff_that_never_ends_keeps_the_app_responsive() {
    let (dir, mut s) = scripted(
        None,
        "(printf '%s\\n' '------- SEARCH' beta '======='; while true; do printf 'still streaming\\n'; sleep 0.002; done) | {srview} f.txt",
    );
    s.wait_for("streaming", |c| {
        c.contains("streaming") && c.contains("still streaming")
    });
    let bytes = |c: &str| -> Option<usize> {
        let at = c.find(" B ")?;
        c[..at].rsplit(' ').next()?.parse().ok()
    };
    let first = bytes(&s.contents()).expect("byte count in the status bar");
    s.wait_for("more bytes keep arriving", |c| {
        bytes(c).is_some_and(|b| b > first + 2000)
    });
    // `q` quits while the stream is still going.
    s.quit();
    untouched(dir.path());
}

/// A source that writes faster than srview re-applies (a flood of SEARCH
/// markers, each a new block) waits for it: a key is never queued behind
/// the flood, so `q` quits at once instead of after it; past the block cap
/// the previewer stops reading and says so.
#[test]
fn a_flood_of_blocks_still_quits_on_q() {
    let (dir, mut s) = scripted(None, "yes -- '------- SEARCH' | {srview} f.txt");
    s.wait_for("the cap reached", |c| {
        c.contains("blocks, more than a previewer follows")
    });
    // `q` quits while the flood goes on.
    s.quit();
    untouched(dir.path());
}

/// Invalid UTF-8 or a NUL byte in the watched DIFF is an error state in
/// the blocks pane and status bar (not "waiting"); a later valid write
/// recovers.
#[test]
fn unreadable_diff_shows_an_error_state_then_recovers() {
    let (dir, diff, mut s) = started(b"------- SEA\xffRCH\n");
    s.wait_for("the error state", |c| {
        c.contains("DIFF unreadable: not valid UTF-8 (first bad byte at offset 11)")
    });
    assert!(
        !s.contents().contains("waiting for the diff"),
        "{}",
        s.contents()
    );
    std::fs::write(&diff, block("beta", "BETA")).expect("valid write");
    s.wait_for("recovered", |c| {
        c.contains("1 applied") && c.contains("BETA") && !c.contains("unreadable")
    });
    // Replaced whole (written aside, then renamed over it): a write in
    // place may be seen truncated, an empty diff, which would then be the
    // last readable one.
    let aside = diff.with_extension("new");
    std::fs::write(&aside, b"\x00\x01binary").expect("binary write");
    std::fs::rename(&aside, &diff).expect("replaced");
    s.wait_for("binary is an error too", |c| {
        c.contains("DIFF unreadable: binary (NUL byte at offset 0)")
            && c.contains("showing the last readable diff")
    });
    s.quit();
    untouched(dir.path());
}
