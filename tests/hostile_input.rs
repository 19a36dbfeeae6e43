//! Hostile input through `srview apply`: each case ends with the right exit
//! status, a clear message or the exact expected bytes, and a peak resident
//! set bounded by a small multiple of the input (measured with
//! `/usr/bin/time -f %M` when installed, else by polling `VmHWM`).
//! The figures printed here (`cargo test --test hostile_input -- --nocapture`)
//! are the ones in docs/guarantees.md.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

mod support;

use support::text::assert_contains;

use support::diff::block;
use support::files::{mkfifo, p, write};
use support::runner::srview;
const MB: u64 = 1024 * 1024;

struct Run {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
    /// Peak resident set, KiB.
    peak_kb: u64,
    elapsed: Duration,
}

/// Runs `srview apply ARGS` with stdin from `stdin_file` (or empty) and
/// stdout into `stdout_file` (or captured), measuring peak memory.
fn run(args: &[&str], stdin_file: Option<&Path>, stdout_file: Option<&Path>) -> Run {
    let dir = tempfile::tempdir().expect("tempdir");
    let rss_file = dir.path().join("rss");
    let time = Path::new("/usr/bin/time");
    let spec = srview(["apply"]).args(args).env_remove("SRVIEW_FAULT");
    let mut cmd = if time.exists() {
        spec.wrapped(
            time,
            &[
                "-f".as_ref(),
                "%M".as_ref(),
                "-o".as_ref(),
                rss_file.as_os_str(),
            ],
        )
    } else {
        spec.command()
    };
    cmd.stdin(match stdin_file {
        Some(p) => Stdio::from(std::fs::File::open(p).expect("stdin file")),
        None => Stdio::null(),
    });
    cmd.stdout(match stdout_file {
        Some(p) => Stdio::from(std::fs::File::create(p).expect("stdout file")),
        None => Stdio::piped(),
    });
    cmd.stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().expect("spawn");
    let pid = child.id();
    // Drain pipes on threads so a big output never blocks the child.
    let out_pipe = child.stdout.take();
    let err_pipe = child.stderr.take();
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = out_pipe {
            std::io::Read::read_to_end(&mut p, &mut buf).expect("read stdout");
        }
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = err_pipe {
            std::io::Read::read_to_end(&mut p, &mut buf).expect("read stderr");
        }
        buf
    });
    let mut polled = 0u64;
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        if !time.exists() {
            polled = polled.max(vm_hwm_kb(pid).unwrap_or(0));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let elapsed = start.elapsed();
    let stdout = out_reader.join().expect("stdout thread");
    let stderr = String::from_utf8_lossy(&err_reader.join().expect("stderr thread")).into_owned();
    let peak_kb = if time.exists() {
        let text = std::fs::read_to_string(&rss_file).expect("time output");
        // `time` may prefix a "Command exited with non-zero status N" line.
        text.lines()
            .last()
            .and_then(|l| l.trim().parse().ok())
            .expect("peak RSS figure")
    } else {
        polled
    };
    Run {
        code: status.code().expect("exit code"),
        stdout,
        stderr,
        peak_kb,
        elapsed,
    }
}

fn vm_hwm_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Peak memory at most `times` the input plus a fixed allowance (the
/// debug binary alone is under 10 MiB).
fn assert_bounded(what: &str, r: &Run, input_bytes: u64, times: u64) {
    let bound_kb = (times * input_bytes + 48 * MB) / 1024;
    eprintln!(
        "{what}: exit {}, {:.2} s, peak RSS {} MiB (input {} MiB, bound {} MiB)",
        r.code,
        r.elapsed.as_secs_f64(),
        r.peak_kb / 1024,
        input_bytes / MB,
        bound_kb / 1024
    );
    assert!(
        r.peak_kb <= bound_kb,
        "{what}: peak RSS {} KiB over the bound {bound_kb} KiB",
        r.peak_kb
    );
}

// ---------------------------------------------------------------- encodings

#[test]
fn invalid_utf8_deep_in_a_big_file_names_its_offset() {
    let dir = tempfile::tempdir().unwrap();
    let mut content = "ok line\n".repeat(1_000_000).into_bytes(); // 8 MB
    content[5_000_003] = 0xC0; // an overlong-encoding lead byte: never valid
    let file = write(dir.path(), "f.txt", &content);
    let diff = write(dir.path(), "d", block("ok line", "x").as_bytes());
    let r = run(&["--write", p(&file), p(&diff)], None, None);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        format!(
            "srview: {} is not valid UTF-8 (first bad byte at offset 5000003)\n",
            file.display()
        )
    );
    assert!(r.stdout.is_empty());
    assert_eq!(std::fs::read(&file).unwrap(), content, "FILE untouched");
    assert_bounded(
        "8 MB file, bad byte at 5,000,003",
        &r,
        content.len() as u64,
        2,
    );
}

#[test]
fn binary_file_is_refused_with_the_nul_offset() {
    let dir = tempfile::tempdir().unwrap();
    // A small PNG-like header: valid UTF-8 up to the NUL.
    let file = write(dir.path(), "img.png", b"\x7fPNG\r\n\x1a\n\0\0\0\rIHDR");
    let diff = write(dir.path(), "d", block("PNG", "JPG").as_bytes());
    let r = run(&[p(&file), p(&diff)], None, None);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        format!(
            "srview: {} looks binary (NUL byte at offset 8); refusing to treat it as text\n",
            file.display()
        )
    );
}

/// An endless binary DIFF (`/dev/zero`) is refused at once, in bounded
/// memory, as a path and as stdin.
#[cfg(unix)]
#[test]
fn endless_binary_diff_stops_at_the_first_nul() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "f.txt", b"a\n");
    let r = run(&[p(&file), "/dev/zero"], None, None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_contains(&r.stderr, "/dev/zero looks binary (NUL byte at offset 0)");
    assert_bounded("/dev/zero as DIFF", &r, 0, 1);
    let r = run(&[p(&file)], Some(Path::new("/dev/zero")), None);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("stdin looks binary (NUL byte at offset 0)")
    );
    assert_bounded("/dev/zero on stdin", &r, 0, 1);
}

/// DIFF may come from a pipe or FIFO, as with `srview apply F <(gen)`.
#[cfg(unix)]
#[test]
fn diff_from_a_fifo_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "f.txt", b"a\nb\n");
    let fifo = dir.path().join("d.fifo");
    mkfifo(&fifo);
    let diff = block("b", "B");
    let fifo2 = fifo.clone();
    let writer = std::thread::spawn(move || {
        let mut w = std::fs::OpenOptions::new().write(true).open(fifo2).unwrap();
        w.write_all(diff.as_bytes()).unwrap();
    });
    let r = run(&[p(&file), p(&fifo)], None, None);
    writer.join().unwrap();
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, b"a\nB\n");
}

#[test]
fn utf8_bom_is_kept_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let original = "\u{feff}first\nsecond\n";
    let file = write(dir.path(), "f.txt", original.as_bytes());
    // Editing the first line: the match starts after the BOM.
    let diff = write(dir.path(), "d", block("first", "FIRST").as_bytes());
    let r = run(&[p(&file), p(&diff)], None, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "\u{feff}FIRST\nsecond\n".as_bytes());
    // Written back: the BOM is still the first three bytes.
    let r = run(&["--write", p(&file), p(&diff)], None, None);
    assert_eq!(r.code, 0);
    assert_eq!(
        std::fs::read(&file).unwrap(),
        b"\xef\xbb\xbfFIRST\nsecond\n"
    );
    // A search of whole lines without the BOM matches exactly just after
    // it; the BOM stays, and the index counts it (one UTF-16 unit).
    let file = write(dir.path(), "g.txt", original.as_bytes());
    let diff = write(dir.path(), "d2", block("first\nsecond", "1\n2").as_bytes());
    let r = run(&["--json", p(&file), p(&diff)], None, None);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["newContent"], "\u{feff}1\n2\n");
    assert_eq!(v["blocks"][0]["stage"], "exact");
    assert_eq!(v["matchIndices"], serde_json::json!([1]), "UTF-16 units");
}

#[test]
fn crlf_everywhere_behaves_like_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    let original = b"alpha\r\nbeta\r\ngamma\r\n";
    let file = write(dir.path(), "f.txt", original);
    // A CRLF diff: its marker lines end in \r, so they are not markers and
    // nothing applies; the file comes back unchanged (as in v4.0.10).
    let crlf = block("beta", "BETA").replace('\n', "\r\n");
    let diff = write(dir.path(), "d", crlf.as_bytes());
    for engine in ["v1", "v2"] {
        let r = run(
            &["--json", "--engine", engine, p(&file), p(&diff)],
            None,
            None,
        );
        assert_eq!(r.code, 0, "{engine}: {}", r.stderr);
        let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
        assert_eq!(v["newContent"], "alpha\r\nbeta\r\ngamma\r\n", "{engine}");
        assert_eq!(v["blocks"], serde_json::json!([]), "{engine}");
    }
    // An LF diff on a CRLF file: exact fails on the \r, line-trimmed matches
    // (trim() strips \r) and the replacement's LF lines go in as they are.
    let diff = write(dir.path(), "d2", block("beta", "BETA").as_bytes());
    let r = run(&["--json", p(&file), p(&diff)], None, None);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["newContent"], "alpha\r\nBETA\ngamma\r\n");
    assert_eq!(v["blocks"][0]["stage"], "line-trimmed");
    assert_eq!(v["blocks"][0]["original"]["end"], 13);
    // Default output is those bytes exactly.
    let r = run(&[p(&file), p(&diff)], None, None);
    assert_eq!(r.stdout, b"alpha\r\nBETA\ngamma\r\n");
}

// ---------------------------------------------------------------- sizes

/// 200 MB: 2,000,000 lines of 100 bytes, one edited in the middle. The
/// new content goes to a file; memory stays under 3x the input.
#[test]
fn file_of_200_mb() {
    let dir = tempfile::tempdir().unwrap();
    let line = |i: usize| format!("{i:09} {}\n", "x".repeat(89)); // 100 bytes
    let n = 2_000_000;
    let mut content = Vec::with_capacity(n * 100);
    for i in 0..n {
        content.extend_from_slice(line(i).as_bytes());
    }
    let file = write(dir.path(), "big.txt", &content);
    let target = line(1_234_567);
    let diff = write(
        dir.path(),
        "d",
        block(target.trim_end(), "EDITED").as_bytes(),
    );
    let out = dir.path().join("out.txt");
    let r = run(&[p(&file), p(&diff)], None, Some(&out));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let at = 1_234_567 * 100;
    let mut want = content;
    want.splice(at..at + 100, b"EDITED\n".iter().copied());
    let got = std::fs::read(&out).unwrap();
    assert_eq!(got.len(), want.len());
    assert!(got == want, "output differs from the expected 200 MB");
    assert_bounded("200 MB file, one edit", &r, 200_000_000, 3);
}

#[test]
fn single_line_of_1_mb() {
    let dir = tempfile::tempdir().unwrap();
    let line = format!("{}NEEDLE{}", "a".repeat(500_000), "b".repeat(500_000));
    let file = write(dir.path(), "f.txt", format!("{line}\n").as_bytes());
    // The end of the line: an exact match ("bbbb\n") inside the 1 MB line.
    let diff = write(dir.path(), "d", block("bbbb", "END").as_bytes());
    let r = run(&[p(&file), p(&diff)], None, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout == format!("{}END\n", &line[..line.len() - 4]).as_bytes());
    assert_bounded("1 MB single line, exact", &r, MB, 8);
    // A fragment in the middle is no line's end and no whole line: exit 1.
    let diff = write(dir.path(), "d2", block("aaaaNEEDLEbbbb", "x").as_bytes());
    let r = run(&[p(&file), p(&diff)], None, None);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("aaaaNEEDLEbbbb\n...does not match anything in the file.")
    );
    assert!(r.stdout.is_empty());
    // The whole line as SEARCH (a 1 MB diff line), on a file without a
    // final newline: line-trimmed, and the replacement gains a "\n" (a
    // known v4.0.10 defect, reproduced).
    let file = write(dir.path(), "g.txt", line.as_bytes());
    let diff = write(dir.path(), "d3", block(&line, "short").as_bytes());
    let r = run(&["--json", p(&file), p(&diff)], None, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["newContent"], "short\n");
    assert_eq!(v["blocks"][0]["stage"], "line-trimmed");
    assert_bounded("1 MB single line, 1 MB SEARCH line", &r, 2 * MB, 8);
}

fn rows(n: usize) -> String {
    (0..n).map(|i| format!("row {i:06} value\n")).collect()
}

/// `n` rows in FILE and a diff of `n` blocks, each upper-casing its own row,
/// in order.
struct Edits {
    file: PathBuf,
    diff_path: PathBuf,
    /// The content the diff gives.
    want: String,
    /// FILE's and DIFF's bytes together.
    input: u64,
}

fn in_order_edits(dir: &Path, n: usize) -> Edits {
    let original = rows(n);
    let file = write(dir, "f.txt", original.as_bytes());
    let diff: String = (0..n)
        .map(|i| block(&format!("row {i:06} value"), &format!("ROW {i:06}")))
        .collect();
    let diff_path = write(dir, "d", diff.as_bytes());
    let want: String = (0..n).map(|i| format!("ROW {i:06}\n")).collect();
    let input = (original.len() + diff.len()) as u64;
    Edits {
        file,
        diff_path,
        want,
        input,
    }
}

/// `in_order_edits` applied with `args` before FILE and DIFF: exit 0 and
/// the content the diff gives.
fn apply_in_order(dir: &Path, n: usize, args: &[&str]) -> (Edits, Run) {
    let edits = in_order_edits(dir, n);
    let mut all = args.to_vec();
    all.extend([p(&edits.file), p(&edits.diff_path)]);
    let r = run(&all, None, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout == edits.want.as_bytes(), "{n} edits applied");
    (edits, r)
}

/// 100,000 blocks, each editing its own line, in order (v2: linear).
#[test]
fn diff_of_100000_blocks_v2() {
    let dir = tempfile::tempdir().unwrap();
    let n = 100_000;
    let (edits, r) = apply_in_order(dir.path(), n, &["--engine", "v2"]);
    let (file, diff_path) = (p(&edits.file), p(&edits.diff_path));
    assert_bounded("100,000 blocks, v2", &r, edits.input, 6);
    let r = run(&["--json", "--engine", "v2", file, diff_path], None, None);
    assert_eq!(r.code, 0);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let blocks = v["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), n);
    assert!(blocks.iter().all(|b| b["state"] == "applied"));
    assert_eq!(blocks[n - 1]["original"]["startLine"], n);
    assert_bounded("100,000 blocks, v2, --json", &r, edits.input, 10);
}

/// 100,000 blocks through v1: one edit at the end, then 99,999 blocks
/// that match earlier lines (out of order, found by the whole-file stage).
/// (100,000 in-order edits through v1 are quadratic today: see
/// docs/guarantees.md; 2,000 of them are checked below.)
#[test]
fn diff_of_100000_blocks_v1() {
    let dir = tempfile::tempdir().unwrap();
    let n = 100_000;
    let original = rows(1000);
    let file = write(dir.path(), "f.txt", original.as_bytes());
    let mut diff = block("row 000999 value", "LAST");
    for i in 1..n {
        diff.push_str(&block(&format!("row {:06} value", i % 10), "x"));
    }
    let diff_path = write(dir.path(), "d", diff.as_bytes());
    let r = run(&["--json", p(&file), p(&diff_path)], None, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let blocks = v["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), n);
    assert!(blocks[1..].iter().all(|b| b["outOfOrder"] == true));
    assert_eq!(v["matchIndices"].as_array().unwrap().len(), n);
    let content = v["newContent"].as_str().unwrap();
    assert!(
        content.ends_with("row 000998 value\nLAST\n"),
        "{}",
        &content[content.len() - 40..]
    );
    assert_bounded(
        "100,000 blocks, v1 (out of order)",
        &r,
        (original.len() + diff.len()) as u64,
        10,
    );
}

#[test]
fn diff_of_100000_in_order_blocks_v1() {
    let dir = tempfile::tempdir().unwrap();
    let (edits, r) = apply_in_order(dir.path(), 100_000, &[]);
    assert_bounded("100,000 in-order blocks, v1", &r, edits.input, 10);
}

/// Marker lines of 10,000 dashes (and equals and pluses) are markers; a
/// 1 MB line of `<` is not, and does not slow anything down.
#[test]
fn marker_lines_of_10000_characters() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "f.txt", b"a\nb\nc\n");
    let long = format!(
        "{} SEARCH\nb\n{}\nB\n{} REPLACE\n",
        "-".repeat(10_000),
        "=".repeat(10_000),
        "+".repeat(10_000)
    );
    let diff = write(dir.path(), "d", long.as_bytes());
    for engine in ["v1", "v2"] {
        let r = run(&["--engine", engine, p(&file), p(&diff)], None, None);
        assert_eq!(r.code, 0, "{engine}: {}", r.stderr);
        assert_eq!(r.stdout, b"a\nB\nc\n", "{engine}");
        assert_bounded("10,000-dash markers", &r, long.len() as u64, 4);
    }
    // Not markers: 10,000 dashes without " SEARCH", and a 1 MB run of '<'
    // as the diff's last line (dropped as a possible half marker).
    let junk = format!("{}\n{}", "-".repeat(10_000), "<".repeat(1 << 20));
    let diff = write(dir.path(), "d2", junk.as_bytes());
    let r = run(&["--json", p(&file), p(&diff)], None, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["newContent"], "a\nb\nc\n");
    assert_eq!(v["blocks"], serde_json::json!([]));
    assert_bounded("1 MB '<' line", &r, junk.len() as u64, 4);
}
