//! `srview apply FILE - --stream`: updates while stdin is still open, one
//! JSON line each, every one equal to a from-scratch apply of its prefix.

use std::io::{BufRead, BufReader, Write};
use std::process::Child;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::Value;

mod support;

use srview::engine::{Options, Version, apply};
use support::runner::srview;

const ORIGINAL: &str = "fn a() {}\nfn b() {\n    1\n}\nfn c() {}\n";
const DIFF: &str = "------- SEARCH\nfn b() {\n    1\n}\n=======\nfn b() {\n    2 // ü😀\n}\n+++++++ REPLACE\n------- SEARCH\nfn c() {}\n=======\n+++++++ REPLACE\n";

fn spawn(file: &std::path::Path, extra: &[&str]) -> (Child, Receiver<String>) {
    let mut child = srview(["apply"])
        .arg(file)
        .args(["-", "--stream"])
        .args(extra)
        .spawn_piped();
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    (child, rx)
}

/// `spawn` with all of `input` written and stdin closed.
fn stream_whole(file: &std::path::Path, input: &[u8]) -> (Child, Receiver<String>) {
    let (mut child, rx) = spawn(file, &[]);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input).expect("write");
    drop(stdin);
    (child, rx)
}

/// The last line the program printed, once it has ended.
fn last_line(rx: &Receiver<String>) -> Value {
    serde_json::from_str(&rx.iter().last().expect("line")).expect("JSON")
}

/// `spawn` with `--stream-interval MS`, the first 20 bytes of DIFF written
/// and flushed, stdin left open.
fn first_20_bytes_sent(
    file: &std::path::Path,
    ms: &str,
) -> (Child, Receiver<String>, std::process::ChildStdin) {
    let (mut child, rx) = spawn(file, &["--stream-interval", ms]);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(&DIFF.as_bytes()[..20]).expect("write");
    stdin.flush().expect("flush");
    (child, rx, stdin)
}

fn original_file() -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(ORIGINAL.as_bytes()).expect("write original");
    f
}

fn next_line(rx: &Receiver<String>) -> Value {
    let line = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("an update line while stdin is still open");
    serde_json::from_str(&line).expect("JSON line")
}

/// The line must be what the engine gives for the first `bytes` bytes.
fn assert_line_matches_engine(line: &Value, is_final: bool) {
    let bytes = line["bytes"].as_u64().expect("bytes") as usize;
    let out = apply(
        &DIFF[..bytes],
        ORIGINAL,
        Options {
            version: Version::V1,
            is_final,
        },
    );
    let applied = out.result.expect("applies");
    assert_eq!(line["ok"], true);
    assert_eq!(
        line["newContent"].as_str(),
        Some(applied.new_content.as_str())
    );
    assert_eq!(
        line["newContentLength"].as_u64(),
        Some(applied.new_content.len() as u64)
    );
    let blocks = serde_json::to_value(&out.blocks).expect("blocks JSON");
    assert_eq!(line["blocks"], blocks, "blocks at {bytes} bytes");
    assert_eq!(line["final"], is_final);
}

#[test]
fn updates_arrive_before_end_of_input_and_match_the_engine() {
    let file = original_file();
    let (mut child, rx) = spawn(file.path(), &["--stream-content"]);
    let mut stdin = child.stdin.take().expect("stdin");
    // Cut inside the two-byte `ü` and the four-byte emoji too.
    let cuts = [10, 30, 47, 59, 62, 75, 90, DIFF.len()];
    let bytes = DIFF.as_bytes();
    let mut at = 0;
    let mut seqs = Vec::new();
    for cut in cuts {
        stdin.write_all(&bytes[at..cut]).expect("write piece");
        stdin.flush().expect("flush");
        at = cut;
        // The session answers each piece while stdin stays open, except a
        // piece ending inside a character, which waits for the rest.
        // A piece ending inside a character may still be answered for the
        // complete characters before the cut (if srview reads it alone), so
        // lines short of the cut may come first; each must be right too.
        if DIFF.is_char_boundary(cut) {
            loop {
                let line = next_line(&rx);
                assert_line_matches_engine(&line, false);
                seqs.push(line["seq"].as_u64().expect("seq"));
                let bytes = line["bytes"].as_u64().expect("bytes");
                assert!(bytes <= cut as u64, "no update beyond what was written");
                if bytes == cut as u64 {
                    break;
                }
            }
        }
    }
    drop(stdin);
    let last = next_line(&rx);
    assert_line_matches_engine(&last, true);
    assert_eq!(
        last["newContent"].as_str(),
        Some("fn a() {}\nfn b() {\n    2 // ü😀\n}\n")
    );
    assert!(
        seqs.windows(2).all(|w| w[1] == w[0] + 1),
        "seq counts up: {seqs:?}"
    );
    assert_eq!(child.wait().expect("exit").code(), Some(0));
}

#[test]
fn waiting_input_is_coalesced_and_content_is_optional() {
    let file = original_file();
    let (mut child, rx) = spawn(file.path(), &[]);
    let mut stdin = child.stdin.take().expect("stdin");
    let pieces: Vec<&[u8]> = DIFF.as_bytes().chunks(1).collect();
    for piece in &pieces {
        stdin.write_all(piece).expect("write");
    }
    drop(stdin);
    let status = child.wait().expect("exit");
    let lines: Vec<Value> = rx
        .iter()
        .map(|l| serde_json::from_str(&l).expect("JSON line"))
        .collect();
    assert_eq!(status.code(), Some(0));
    // Written far faster than one update per byte can be produced.
    assert!(lines.len() < pieces.len() / 2, "{} updates", lines.len());
    let last = lines.last().expect("a final line");
    assert_eq!(last["final"], true);
    assert_eq!(last["bytes"].as_u64(), Some(DIFF.len() as u64));
    assert!(last.get("newContent").is_none());
    assert_eq!(last["newContentLength"].as_u64(), Some(37));
    assert_eq!(last["blocks"][1]["state"], "applied");
}

#[test]
fn final_error_exits_1_and_bad_utf8_exits_2() {
    let file = original_file();
    let (mut child, rx) = stream_whole(
        file.path(),
        b"------- SEARCH\nnot there\n=======\nx\n+++++++ REPLACE\n",
    );
    assert_eq!(child.wait().expect("exit").code(), Some(1));
    let last = last_line(&rx);
    assert_eq!(last["ok"], false);
    assert!(
        last["error"]
            .as_str()
            .unwrap_or("")
            .contains("does not match")
    );

    let (mut child, rx) = stream_whole(file.path(), b"------- SEARCH\n\xff\xfe\n");
    assert_eq!(child.wait().expect("exit").code(), Some(2));
    // A consumer still gets a last line, saying why the stream ended.
    let last = last_line(&rx);
    assert_eq!(last["final"], true);
    assert_eq!(last["ok"], false);
    assert!(
        last["error"]
            .as_str()
            .unwrap_or("")
            .contains("not valid UTF-8"),
        "{last}"
    );
}

/// Prose without any block: the reference's answer, and a warning.
#[test]
fn a_stream_without_blocks_warns() {
    let file = original_file();
    let (child, rx) = stream_whole(file.path(), b"I will now edit the file.\n");
    let out = child.wait_with_output().expect("exit");
    assert_eq!(out.status.code(), Some(0));
    let last = last_line(&rx);
    assert_eq!(last["final"], true);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no SEARCH/REPLACE block found"), "{err}");
}

/// An edit JSON or a patch naming another file, streamed with `--write`:
/// its write is held back (exit 1, FILE left as it is, the reason in the
/// final line), as `apply FILE` refuses it (tester finding 36/06).
#[test]
fn a_streamed_edit_naming_another_file_is_held_back() {
    let file = original_file();
    let name = file.path().file_name().expect("name").to_string_lossy();
    let inputs = [
        r#"{"file_path": "/p/other.rs", "old_string": "fn c() {}", "new_string": "fn d() {}"}"#,
        "*** Begin Patch\n*** Update File: other.rs\n@@\n-fn c() {}\n+fn d() {}\n*** End Patch\n",
    ];
    for input in inputs {
        let (mut child, rx) = spawn(file.path(), &["--write"]);
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input.as_bytes()).expect("write");
        drop(stdin);
        let out = child.wait_with_output().expect("exit");
        assert_eq!(out.status.code(), Some(1), "{input}");
        let last = last_line(&rx);
        let other = if input.starts_with('{') {
            "/p/other.rs"
        } else {
            "other.rs"
        };
        assert_eq!(
            last["write"],
            serde_json::json!({
                "reasons": [format!(
                    "the input edits {other}, not {}: its edit was meant for another file",
                    file.path().display()
                )],
                "state": "held-back",
            }),
            "{input} ({name})"
        );
        assert_eq!(
            std::fs::read_to_string(file.path()).expect("read"),
            ORIGINAL
        );
    }
}

/// Input that keeps coming: updates flow while it does, and memory stays
/// proportional to what was received.
#[test]
fn a_stream_that_never_ends_keeps_answering() {
    let file = original_file();
    let (mut child, rx) = spawn(file.path(), &[]);
    let mut stdin = child.stdin.take().expect("stdin");
    let pid = child.id();
    let writer = std::thread::spawn(move || {
        let chunk = "text between blocks that never stops arriving\n".repeat(64);
        let mut sent = 0usize;
        while sent < 8 << 20 {
            if stdin.write_all(chunk.as_bytes()).is_err() {
                break;
            }
            sent += chunk.len();
            std::thread::sleep(Duration::from_millis(1));
        }
        sent
    });
    let mut seen = 0;
    while seen < 50 {
        let line = next_line(&rx);
        assert_eq!(line["final"], false, "still streaming");
        seen += 1;
    }
    let hwm_kib: u64 = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0);
    let sent = writer.join().expect("writer");
    assert!(
        hwm_kib < 64 * 1024 + 6 * (sent as u64 / 1024),
        "peak {hwm_kib} KiB after {sent} bytes"
    );
    let _ = child.kill();
    let _ = child.wait();
}

/// Coalescing: however fast the pieces come, lines are at least
/// `--stream-interval` apart, each one right for the bytes it covers, and
/// the last piece is always answered by the final line.
#[test]
fn coalesced_lines_are_an_interval_apart_and_the_final_line_is_never_dropped() {
    let file = original_file();
    let started = std::time::Instant::now();
    let (mut child, rx) = spawn(
        file.path(),
        &["--stream-content", "--stream-interval", "40"],
    );
    let mut stdin = child.stdin.take().expect("stdin");
    for piece in DIFF.as_bytes().chunks(2) {
        stdin.write_all(piece).expect("write");
        std::thread::sleep(Duration::from_millis(2));
    }
    drop(stdin);
    let mut lines = Vec::new();
    loop {
        let line = next_line(&rx);
        let is_final = line["final"] == true;
        lines.push(line);
        if is_final {
            break;
        }
    }
    let elapsed = started.elapsed();
    assert_eq!(child.wait().expect("exit").code(), Some(0));
    let (last, updates) = lines.split_last().expect("lines");
    assert_line_matches_engine(last, true);
    assert_eq!(last["bytes"].as_u64(), Some(DIFF.len() as u64));
    for line in updates {
        assert_line_matches_engine(line, false);
    }
    // Every update was written within `elapsed`, 40 ms after the one before.
    let most = elapsed.as_millis() as usize / 40 + 1;
    assert!(
        updates.len() <= most,
        "{} updates in {elapsed:?}, at most {most} allowed",
        updates.len()
    );
    // The pieces took ~200 ms to write: answered while they came.
    assert!(!updates.is_empty(), "no update before the final line");
    let seqs: Vec<u64> = lines.iter().filter_map(|l| l["seq"].as_u64()).collect();
    assert_eq!(seqs, (1..=lines.len() as u64).collect::<Vec<_>>());
}

/// Text that arrives just after a line is answered once the interval has
/// passed, without waiting for more input.
#[test]
fn a_pending_update_is_answered_without_more_input() {
    let file = original_file();
    let (mut child, rx, mut stdin) = first_20_bytes_sent(file.path(), "300");
    let rest = &DIFF[20..];
    let line = next_line(&rx);
    assert_eq!(line["bytes"].as_u64(), Some(20), "the first piece at once");
    let (second, third) = rest.split_at(30);
    stdin.write_all(second.as_bytes()).expect("write");
    stdin.flush().expect("flush");
    // stdin stays open and quiet: the update still comes.
    let line = next_line(&rx);
    assert_eq!(line["bytes"].as_u64(), Some(50));
    assert_eq!(line["final"], false);
    stdin.write_all(third.as_bytes()).expect("write");
    drop(stdin);
    let last = next_line(&rx);
    assert_eq!(last["final"], true);
    assert_eq!(last["seq"], 3);
    assert_eq!(child.wait().expect("exit").code(), Some(0));
}

/// The end of input is answered at once, not when the interval ends: with
/// a one-minute interval the final line still comes within `next_line`'s
/// wait, covering every byte.
#[test]
fn the_end_of_input_is_answered_at_once() {
    let file = original_file();
    let (mut child, rx, mut stdin) = first_20_bytes_sent(file.path(), "60000");
    let rest = &DIFF[20..];
    assert_eq!(next_line(&rx)["bytes"].as_u64(), Some(20));
    stdin.write_all(rest.as_bytes()).expect("write");
    drop(stdin);
    let last = next_line(&rx);
    assert_eq!(last["final"], true);
    assert_eq!(
        last["seq"], 2,
        "the rest was not answered by a line of its own"
    );
    assert_eq!(last["bytes"].as_u64(), Some(DIFF.len() as u64));
    assert_eq!(last["newContentLength"].as_u64(), Some(37));
    assert_eq!(child.wait().expect("exit").code(), Some(0));
}

/// Session 51: a streamed diff without a block was warned about as "the
/// reference returns FILE unchanged"; the warning names the file.
#[test]
fn a_stream_without_a_block_names_the_file_it_leaves_unchanged() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = support::files::write(dir.path(), "kept.rs", ORIGINAL.as_bytes());
    let out = srview(["apply", "kept.rs", "-", "--stream"])
        .cwd(dir.path())
        .stdin(b"nothing\n")
        .output();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "srview: warning: no SEARCH/REPLACE block found in stdin: the reference returns kept.rs \
         unchanged\n"
    );
    assert_eq!(std::fs::read_to_string(file).expect("read"), ORIGINAL);
}
