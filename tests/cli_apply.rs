//! `srview apply` as a user runs it: the built binary, real files, stdin,
//! exit codes and the `--json` answer compared with the reference corpus.

mod support;

use support::text::assert_contains;

use support::corpus;
use support::files::{self, p};
use support::runner::{self, code, stderr, stdout, stdout_json};

use std::path::Path;
use std::process::Output;

use corpus::Case;
use serde_json::Value;

/// Runs `srview apply ARGS` with `stdin` piped in.
fn srview(args: &[&str], stdin: &[u8]) -> Output {
    runner::srview(["apply"]).args(args).stdin(stdin).output()
}

const ONE_BLOCK: &str = "------- SEARCH\nb\n=======\nB1\nB2\n+++++++ REPLACE\n";
const FAILING: &str = "------- SEARCH\nb\n=======\nB1\nB2\n+++++++ REPLACE\n\
                       ------- SEARCH\nzz\n=======\nq\n+++++++ REPLACE\n";

/// `srview apply --json f.txt` on [`abc_file`] with `diff` on stdin: it
/// exits with `want_code`, prints one JSON object on one line, and keeps
/// stderr quiet.
fn json_on_abc(diff: &str, want_code: i32) -> Value {
    let (_dir, file) = abc_file();
    let out = srview(&["--json", p(&file)], diff.as_bytes());
    assert_eq!(code(&out), want_code, "{}", stderr(&out));
    assert_eq!(
        out.stdout.iter().filter(|&&b| b == b'\n').count(),
        1,
        "one line"
    );
    assert!(
        out.stderr.is_empty(),
        "--json keeps stderr quiet: {}",
        stderr(&out)
    );
    stdout_json(&out)
}

/// `srview apply f.txt` with f.txt holding `content` and `diff` on stdin.
fn apply_on(content: &[u8], diff: &[u8]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let file = files::write(dir.path(), "f.txt", content);
    srview(&[p(&file)], diff)
}

// ---------------------------------------------------------------- corpus

/// `f.txt` holding `a b c`, one a line, in a new folder.
fn abc_file() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = files::write(dir.path(), "f.txt", b"a\nb\nc\n");
    (dir, file)
}

fn corpus() -> Vec<Case> {
    corpus::main_corpus()
}

/// Runs one corpus case through the binary; describes the first difference.
fn check_case(dir: &Path, n: usize, case: &Case) -> Result<(), String> {
    let file = files::write(dir, &format!("case-{n}.txt"), case.original.as_bytes());
    let mut args = vec!["--json", "--engine", case.version.name()];
    if !case.is_final {
        args.push("--partial");
    }
    args.push(p(&file));
    let out = srview(&args, case.diff.as_bytes());
    let _ = std::fs::remove_file(&file);
    let got = stdout_json(&out);
    let want_ok = case.expect["ok"].as_bool().expect("ok");
    let want_code = if want_ok { 0 } else { 1 };
    if code(&out) != want_code {
        return Err(format!(
            "exit {} != {want_code}; stderr {:?}",
            code(&out),
            stderr(&out)
        ));
    }
    if got["ok"] != Value::Bool(want_ok) {
        return Err(format!("ok {} != {want_ok}", got["ok"]));
    }
    if want_ok {
        if got["newContent"] != case.expect["newContent"] {
            return Err(format!(
                "newContent {} != {}",
                got["newContent"], case.expect["newContent"]
            ));
        }
        if got["matchIndices"] != case.expect["matchIndices"] {
            return Err(format!(
                "matchIndices {} != {}",
                got["matchIndices"], case.expect["matchIndices"]
            ));
        }
        if !got["error"].is_null() {
            return Err(format!("error {} on success", got["error"]));
        }
    } else {
        if got["error"] != case.expect["error"] {
            return Err(format!(
                "error {} != {}",
                got["error"], case.expect["error"]
            ));
        }
        if !got["newContent"].is_null() {
            return Err("newContent present on failure".into());
        }
    }
    if !got["blocks"].is_array() {
        return Err("blocks missing".into());
    }
    Ok(())
}

/// Every case of the corpus through the debug binary: ~1,500 processes,
/// run on two threads (measured: 1.7 s in debug on 2 cores, so all of them).
#[test]
fn corpus_through_the_binary() {
    let cases = corpus();
    assert_eq!(cases.len(), 1500, "corpus size");
    let dir = tempfile::tempdir().expect("tempdir");
    let threads = 2;
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let cases = &cases;
                let dir = dir.path();
                s.spawn(move || {
                    let mut failures = Vec::new();
                    for (n, case) in cases.iter().enumerate().skip(t).step_by(threads) {
                        if let Err(why) = check_case(dir, n, case) {
                            failures.push(format!("{}: {why}", case.id));
                        }
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    });
    corpus::assert_none_failed(
        &failures,
        cases.len(),
        20,
        "corpus cases differ through the binary",
    );
}

// ---------------------------------------------------------------- output modes

#[test]
fn default_output_is_the_new_content_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    // A BOM, CRLF lines, no final newline and non-ASCII text survive as bytes.
    let original = "\u{feff}a\r\nb\nc\u{e9}\u{1f600}";
    let file = files::write(dir.path(), "f.txt", original.as_bytes());
    let out = srview(&[p(&file)], ONE_BLOCK.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        out.stdout,
        "\u{feff}a\r\nB1\nB2\nc\u{e9}\u{1f600}".as_bytes()
    );
    assert!(out.stderr.is_empty());
    assert_eq!(
        std::fs::read(&file).unwrap(),
        original.as_bytes(),
        "FILE untouched"
    );
}

#[test]
fn failing_diff_prints_nothing_on_stdout_and_explains_on_stderr() {
    let (_dir, file) = abc_file();
    let out = srview(&[p(&file)], FAILING.as_bytes());
    assert_eq!(code(&out), 1);
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(
        err.starts_with("srview: block #2 does not apply (diff line 9):"),
        "{err}"
    );
    assert!(
        err.contains("zz\n...does not match anything in the file."),
        "{err}"
    );
}

#[test]
fn diff_can_come_from_a_path_or_dash() {
    let (dir, file) = abc_file();
    let diff = files::write(dir.path(), "d.diff", ONE_BLOCK.as_bytes());
    let out = srview(&[p(&file), p(&diff)], b"ignored");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(out.stdout, b"a\nB1\nB2\nc\n");
    let out = srview(&[p(&file), "-"], ONE_BLOCK.as_bytes());
    assert_eq!(out.stdout, b"a\nB1\nB2\nc\n");
}

#[test]
fn json_shape_on_success() {
    let got = json_on_abc(ONE_BLOCK, 0);
    let want: Value = serde_json::json!({
        "ok": true,
        "newContent": "a\nB1\nB2\nc\n",
        "matchIndices": [2],
        "error": null,
        "blocks": [{
            "index": 0,
            "diffLines": [1, 6],
            "state": "applied",
            "stage": "exact",
            "outOfOrder": false,
            "original": {"start": 2, "end": 4, "startLine": 2, "endLine": 2},
            "replacement": {"startLine": 2, "endLine": 3},
            "error": null
        }]
    });
    assert_eq!(got, want);
}

#[test]
fn json_shape_on_failure() {
    let got = json_on_abc(FAILING, 1);
    let msg = "The SEARCH block:\nzz\n...does not match anything in the file.";
    assert_eq!(got["ok"], false);
    assert_eq!(got["newContent"], Value::Null);
    assert_eq!(got["matchIndices"], serde_json::json!([]));
    assert_eq!(got["error"], msg);
    let blocks = got["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0]["state"], "applied");
    assert_eq!(
        blocks[0]["replacement"],
        Value::Null,
        "no new content, no lines"
    );
    assert_eq!(
        blocks[1],
        serde_json::json!({
            "index": 1, "diffLines": [7, 9], "state": "failed", "stage": null,
            "outOfOrder": false, "original": null, "replacement": null, "error": msg
        })
    );
}

#[test]
fn json_reports_streaming_states_and_out_of_order_blocks() {
    let (_dir, file) = abc_file();
    // Partial: the second block is still receiving its replacement.
    let diff = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n------- SEARCH\nc\n=======\nC";
    let out = srview(&["--json", "--partial", p(&file)], diff.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got = stdout_json(&out);
    assert_eq!(got["blocks"][0]["state"], "applied");
    assert_eq!(got["blocks"][1]["state"], "replace-streaming");
    assert_eq!(got["blocks"][1]["stage"], "exact");
    // Final, v1: a block before the previous one is out of order (whole-file).
    let diff = "------- SEARCH\nc\n=======\nC\n+++++++ REPLACE\n\
                ------- SEARCH\na\n=======\nA\n+++++++ REPLACE\n";
    let out = srview(&["--json", p(&file)], diff.as_bytes());
    let got = stdout_json(&out);
    assert_eq!(got["newContent"], "A\nb\nC\n");
    assert_eq!(got["matchIndices"], serde_json::json!([0, 4]));
    assert_eq!(got["blocks"][1]["outOfOrder"], true);
    assert_eq!(got["blocks"][1]["stage"], "whole-file");
}

// ---------------------------------------------------------------- --write

#[cfg(unix)]
#[test]
fn write_replaces_file_and_keeps_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = files::write(dir.path(), "f.sh", b"a\nb\nc\n");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o754)).unwrap();
    let out = srview(&["--write", p(&file)], ONE_BLOCK.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "--write prints nothing");
    assert_eq!(std::fs::read(&file).unwrap(), b"a\nB1\nB2\nc\n");
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o754);
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary file left behind");
}

/// With `--write`, the JSON says what was written (`ok` is the reference's
/// answer: the diff applies); without it there is no `write` key.
#[test]
fn write_with_json_prints_the_report_and_writes() {
    let (_dir, file) = abc_file();
    // Exit status, `ok` and `write` of `apply --write --json FILE` on `diff`.
    let run = |file: &Path, diff: &str| {
        let out = srview(&["--write", "--json", p(file)], diff.as_bytes());
        let report = stdout_json(&out);
        (code(&out), report["ok"].clone(), report["write"].clone())
    };
    let state = |s: &str| serde_json::json!({"reasons": [], "state": s});
    let (yes, no) = (Value::Bool(true), Value::Bool(false));
    assert_eq!(run(&file, ONE_BLOCK), (0, yes.clone(), state("written")));
    assert_eq!(std::fs::read(&file).unwrap(), b"a\nB1\nB2\nc\n");
    // The file now holds the result: not written again.
    let undo = "------- SEARCH\nB1\n=======\nB1\n+++++++ REPLACE\n";
    assert_eq!(run(&file, undo), (0, yes, state("unchanged")));
    // A diff that does not apply writes nothing.
    assert_eq!(run(&file, FAILING), (1, no, state("not-applied")));
    // A write that fails is said in the JSON too, and ends with exit 2.
    use std::os::unix::fs::PermissionsExt;
    let (_dir3, locked) = abc_file();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = srview(&["--write", "--json", p(&locked)], ONE_BLOCK.as_bytes());
    assert_eq!(code(&out), 2);
    let why = format!("{} was not written: it is read-only", p(&locked));
    assert_eq!(
        stdout_json(&out)["write"],
        serde_json::json!({"reasons": [why], "state": "failed"})
    );
    assert_eq!(stderr(&out), format!("srview: {why}\n"));
    assert_eq!(std::fs::read(&locked).unwrap(), b"a\nb\nc\n");
    // Without --write: no `write` key.
    let out = srview(&["--json", p(&locked)], ONE_BLOCK.as_bytes());
    assert_eq!(stdout_json(&out).get("write"), None);
}

/// What `--write` refuses, the file left as it was: a partial result (the
/// reference's streaming prefix, not a file) and a read-only file.
#[test]
fn write_refuses_a_partial_result_and_a_read_only_file() {
    use std::os::unix::fs::PermissionsExt;
    let (_dir, file) = abc_file();
    for args in [
        &["--partial", "--write"][..],
        &["--stream", "--partial", "--write"],
    ] {
        let out = srview(&[args, &[p(&file), "-"]].concat(), ONE_BLOCK.as_bytes());
        assert_eq!(code(&out), 2, "{args:?}");
        assert_contains(
            &stderr(&out),
            "the argument '--partial' cannot be used with '--write'",
        );
    }
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = srview(&["--write", p(&file)], ONE_BLOCK.as_bytes());
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        format!("srview: {} was not written: it is read-only\n", p(&file))
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"a\nb\nc\n");
    // A stream is told before it is read: no line is printed.
    let out = srview(
        &["--stream", "--write", p(&file), "-"],
        ONE_BLOCK.as_bytes(),
    );
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        format!(
            "srview: {} will not be written: it is read-only\n",
            p(&file)
        )
    );
    assert!(out.stdout.is_empty());
}

/// A result srview cannot stand behind is not written without `--force`
/// (exit 1, each reason on stderr): a diff cut off before its last block's
/// end marker (the reference applies what arrived: lines lost), and a
/// block-anchor match whose SEARCH text is closer to another region.
#[test]
fn write_holds_back_a_result_in_doubt_unless_forced() {
    let cut = "------- SEARCH\nb\n=======\nB\n";
    let misplaced = "------- SEARCH\n    start()\n    gamma = 30\n    delta = 40\n    finish()\n\
                     =======\n    start()\n    gamma = 300\n    finish()\n+++++++ REPLACE\n";
    let two = "def one():\n    start()\n    alpha = 1\n    beta = 2\n    finish()\n\n\
               def two():\n    start()\n    gamma = 3\n    delta = 4\n    finish()\n";
    let cases = [
        (
            "a\nb\nc\n",
            cut,
            "block #1 has no +++++++ REPLACE end marker (is the diff cut off?): what would \
             be written stops where the diff does",
        ),
        (
            two,
            misplaced,
            "block #1 matched by its first and last lines only at lines 2-5; its SEARCH text \
             is closest to lines 8-11",
        ),
        (
            "a\nb\nc\n",
            "------- SEARCH\nb\n=======\nB\n------- SEARCH\nc\n=======\nC\n+++++++ REPLACE\n",
            "block #1 never took effect (the block structure is malformed): the reference \
             dropped it, and its edit would be lost",
        ),
        (
            "if x:\n    y = 1\nif z:\n    y = 1\n",
            "------- SEARCH\ny = 1\n=======\ny = 2\n+++++++ REPLACE\n",
            "block #1 matched at line 2, and its SEARCH text occurs again at line 4: the \
             reference took the first, which may not be the one meant",
        ),
    ];
    for (content, diff, why) in cases {
        for stream in [&[][..], &["--stream"]] {
            let dir = tempfile::tempdir().unwrap();
            let file = files::write(dir.path(), "f.py", content.as_bytes());
            let args = [stream, &["--write", p(&file), "-"]].concat();
            let out = srview(&args, diff.as_bytes());
            assert_eq!(code(&out), 1, "{args:?}: {}", stderr(&out));
            assert_contains(
                &stderr(&out),
                &format!(
                    "srview: {} was not written: {why} (--force writes it)\n",
                    p(&file)
                ),
            );
            assert_eq!(std::fs::read_to_string(&file).unwrap(), content);
            // The JSON (the stream's last line) says it was held back, and
            // why, beside the reference's `ok`.
            let with_json = [&args[..], &["--json"]].concat();
            let out = srview(&with_json, diff.as_bytes());
            assert_eq!(code(&out), 1, "{with_json:?}: {}", stderr(&out));
            let last = String::from_utf8_lossy(&out.stdout)
                .lines()
                .last()
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .unwrap();
            assert_eq!(last["ok"], true, "{with_json:?}");
            assert_eq!(last["write"]["state"], "held-back", "{with_json:?}");
            assert_eq!(last["write"]["reasons"][0], why, "{with_json:?}");
            assert_eq!(std::fs::read_to_string(&file).unwrap(), content);
            let forced = [&args[..], &["--force"]].concat();
            let out = srview(&forced, diff.as_bytes());
            assert_eq!(code(&out), 0, "{forced:?}: {}", stderr(&out));
            // A forced write still says what it overrode.
            assert_contains(&stderr(&out), &format!("srview: warning: {why}\n"));
            assert_ne!(std::fs::read_to_string(&file).unwrap(), content);
        }
    }
}

#[test]
fn write_writes_nothing_when_the_diff_fails() {
    let (dir, file) = abc_file();
    let before = std::fs::metadata(&file).unwrap().modified().unwrap();
    let out = srview(&["--write", p(&file)], FAILING.as_bytes());
    assert_eq!(code(&out), 1);
    assert_eq!(std::fs::read(&file).unwrap(), b"a\nb\nc\n");
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        before
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn missing_file_is_exit_2_unless_new_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("new.txt");
    let diff = "------- SEARCH\n=======\nhello\n+++++++ REPLACE\n";
    let out = srview(&[p(&file)], diff.as_bytes());
    assert_eq!(code(&out), 2);
    // The message names the flag that would have made it work.
    assert_eq!(
        stderr(&out),
        format!(
            "srview: {} does not exist (to create it, add --new-file: the edit then starts \
             from an empty file)\n",
            file.display()
        )
    );
    assert!(!file.exists());

    let out = srview(&["--new-file", p(&file)], diff.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(out.stdout, b"hello\n");
    assert!(!file.exists(), "printing does not create FILE");

    let out = srview(&["--new-file", "--write", p(&file)], diff.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(std::fs::read(&file).unwrap(), b"hello\n");
}

#[test]
fn new_file_on_an_existing_file_uses_its_content() {
    let (_dir, file) = abc_file();
    let out = srview(&["--new-file", p(&file)], ONE_BLOCK.as_bytes());
    assert_eq!(code(&out), 0);
    assert_eq!(out.stdout, b"a\nB1\nB2\nc\n");
}

// ---------------------------------------------------------------- bad input

fn assert_one_line_exit_2(out: &Output, needle: &str) {
    assert_eq!(code(out), 2, "stderr: {}", stderr(out));
    let err = stderr(out);
    assert!(err.starts_with("srview: "), "{err}");
    assert_eq!(
        err.trim_end_matches('\n').lines().count(),
        1,
        "one line: {err:?}"
    );
    assert!(err.contains(needle), "{err:?} lacks {needle:?}");
    assert!(out.stdout.is_empty(), "nothing on stdout");
}

#[test]
fn non_utf8_file_names_the_first_bad_byte() {
    let dir = tempfile::tempdir().unwrap();
    let file = files::write(dir.path(), "f.txt", b"a\nb\n\xc3\x28 c\n");
    let out = srview(&["--write", p(&file)], ONE_BLOCK.as_bytes());
    assert_one_line_exit_2(&out, "not valid UTF-8 (first bad byte at offset 4)");
    assert!(stderr(&out).contains("f.txt"));
    assert_eq!(std::fs::read(&file).unwrap(), b"a\nb\n\xc3\x28 c\n");
}

#[test]
fn non_utf8_diff_names_the_first_bad_byte() {
    let (dir, file) = abc_file();
    let mut diff = ONE_BLOCK.as_bytes().to_vec();
    diff.insert(17, 0xff); // inside "B1"
    let out = srview(&[p(&file)], &diff);
    assert_one_line_exit_2(
        &out,
        "stdin is not valid UTF-8 (first bad byte at offset 17)",
    );
    let path = files::write(dir.path(), "d.diff", &diff);
    let out = srview(&[p(&file), p(&path)], b"");
    assert_one_line_exit_2(
        &out,
        "d.diff is not valid UTF-8 (first bad byte at offset 17)",
    );
}

#[test]
fn truncated_utf8_at_the_end_is_refused() {
    let out = apply_on(b"ab\xe2\x82", ONE_BLOCK.as_bytes());
    assert_one_line_exit_2(&out, "first bad byte at offset 2");
}

#[test]
fn binary_file_or_diff_is_exit_2() {
    let out = apply_on(b"a\nb\0c\n", ONE_BLOCK.as_bytes());
    assert_one_line_exit_2(&out, "looks binary (NUL byte at offset 3)");
    let out = apply_on(b"a\nb\nc\n", b"------- SEARCH\n\0");
    assert_one_line_exit_2(&out, "stdin looks binary (NUL byte at offset 15)");
}

#[test]
fn directory_or_device_as_file_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = srview(&[p(dir.path())], ONE_BLOCK.as_bytes());
    assert_one_line_exit_2(&out, "is a directory");
    // A pipe of the test's own, never the system's /dev/null (see
    // write_faults.rs).
    #[cfg(unix)]
    {
        let pipe = dir.path().join("pipe");
        files::mkfifo(&pipe);
        let out = srview(&["--write", p(&pipe)], ONE_BLOCK.as_bytes());
        assert_one_line_exit_2(&out, &format!("{} is not a regular file", p(&pipe)));
    }
}

#[test]
fn usage_errors_are_exit_2() {
    let out = srview(&[], b"");
    assert_eq!(code(&out), 2);
    assert_contains(&stderr(&out), "apply needs FILE");
    let out = srview(&["--engine", "v3", "x"], b"");
    assert_eq!(code(&out), 2);
}

// ---------------------------------------------------------------- no block

/// A diff with no block keeps the reference's answer (the file unchanged,
/// exit 0) but says so: an empty or prose-only diff must not pass for an
/// edit that applied. `--write` then leaves FILE alone, time stamp included.
#[test]
fn a_diff_without_blocks_warns_and_writes_nothing() {
    let (dir, file) = abc_file();
    for diff in [&b""[..], b"Sure, here is the change.\n"] {
        let out = srview(&[p(&file)], diff);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert_eq!(out.stdout, b"a\nb\nc\n");
        assert_eq!(
            stderr(&out),
            format!(
                "srview: warning: no SEARCH/REPLACE block found in stdin: the output is {} unchanged\n",
                p(&file)
            )
        );
    }
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let d = files::write(dir.path(), "d.diff", b"no blocks here\n");
    let out = srview(&["--write", p(&file), p(&d)], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "srview: warning: no SEARCH/REPLACE block found in {}: {} left as it was\n",
            p(&d),
            p(&file)
        )
    );
    let meta = std::fs::metadata(&file).unwrap();
    assert_eq!(meta.modified().unwrap(), old, "FILE was rewritten");
    // The reference's error stands where it has one (v2 and prose), warned too.
    let out = srview(&["--engine", "v2", p(&file)], b"prose\n=======\n");
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).starts_with("srview: warning: no SEARCH/REPLACE block found in stdin"),
        "{}",
        stderr(&out)
    );
    // A CRLF diff has no marker the reference reads: the warning says why.
    let out = srview(
        &[p(&file)],
        b"------- SEARCH\r\nb\r\n=======\r\nB\r\n+++++++ REPLACE\r\n",
    );
    assert_eq!(code(&out), 0);
    let err = stderr(&out);
    assert!(err.contains("CRLF line endings"), "{err}");
    // A diff cut before anything tells its dialect: the warning says what
    // it may have begun.
    for (diff, what) in [(&b"*** B"[..], "an apply_patch"), (b"{", "an edit's JSON")] {
        let out = srview(&[p(&file)], diff);
        assert_eq!(code(&out), 0);
        assert_eq!(
            stderr(&out),
            format!(
                "srview: warning: no SEARCH/REPLACE block found in stdin: the output is {} \
                 unchanged (the diff may be the beginning of {what}, cut off)\n",
                p(&file)
            )
        );
    }
}

#[test]
fn a_directory_as_diff_is_exit_2() {
    let (dir, file) = abc_file();
    let out = srview(&[p(&file), p(dir.path())], b"");
    assert_one_line_exit_2(&out, "is a directory");
}

/// A CRLF file given LF lines: `--write` holds the mixed result back.
#[test]
fn write_holds_back_mixed_line_endings_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let file = files::write(dir.path(), "crlf.txt", b"a\r\nb\r\nc\r\n");
    let out = srview(&["--write", p(&file), "-"], ONE_BLOCK.as_bytes());
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_contains(
        &stderr(&out),
        "was not written: the result mixes line endings: the file's lines end in CRLF",
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"a\r\nb\r\nc\r\n");
    let out = srview(&["--write", "--force", p(&file), "-"], ONE_BLOCK.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(std::fs::read(&file).unwrap(), b"a\r\nB1\nB2\nc\r\n");
}

/// Flags that mean nothing together are refused (clap's usage error), not
/// silently ignored; `-` is stdin for the diff, never FILE.
#[test]
fn meaningless_flag_combinations_and_a_dash_file_are_refused() {
    let (_dir, file) = abc_file();
    for (args, said) in [
        (
            &["--stream-content"][..],
            "required arguments were not provided",
        ),
        (
            &["--stream-interval", "5"],
            "required arguments were not provided",
        ),
        (&["--force"], "required arguments were not provided"),
    ] {
        let out = srview(&[args, &[p(&file), "-"]].concat(), ONE_BLOCK.as_bytes());
        assert_eq!(code(&out), 2, "{args:?}");
        assert_contains(&stderr(&out), said);
    }
    assert_one_line_exit_2(
        &srview(&["-", p(&file)], ONE_BLOCK.as_bytes()),
        "FILE cannot be `-` (stdin is for the diff): name the file the diff edits",
    );
}

/// Three blocks over f.txt (`a b c d`): #1 and #2 apply, #3 fails.
const THREE_BLOCKS: &str = "------- SEARCH\na\n=======\nA\n+++++++ REPLACE\n\
                            ------- SEARCH\nc\n=======\nC\n+++++++ REPLACE\n\
                            ------- SEARCH\nzz\n=======\nZ\n+++++++ REPLACE\n";

/// `--only` and `--skip` apply the diff made of the chosen blocks (issue
/// 27, item 4): the failing block left out, the rest applies, in the
/// output, `--json` and `--write` alike, and stderr says what was left out.
#[test]
fn only_and_skip_apply_the_chosen_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let file = files::write(dir.path(), "f.txt", b"a\nb\nc\nd\n");
    let whole = srview(&[p(&file), "-"], THREE_BLOCKS.as_bytes());
    assert_eq!(code(&whole), 1, "the whole diff fails at block #3");
    for choice in [["--only", "1,2"], ["--skip", "3"]] {
        let out = srview(
            &[&choice[..], &[p(&file), "-"]].concat(),
            THREE_BLOCKS.as_bytes(),
        );
        assert_eq!(code(&out), 0, "{choice:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), "A\nb\nC\nd\n");
        assert_eq!(
            stderr(&out),
            "srview: note: applying blocks #1, #2 of 3 only, block #3 left out\n"
        );
    }
    // Leaving out the first block renumbers the rest, as said.
    let out = srview(
        &["--skip", "1", "--json", p(&file), "-"],
        THREE_BLOCKS.as_bytes(),
    );
    assert_eq!(code(&out), 1);
    assert_eq!(
        stderr(&out),
        "srview: note: applying blocks #2, #3 of 3 only, block #1 left out (below, the chosen \
         blocks are numbered from 1)\n"
    );
    assert_eq!(
        stdout_json(&out)["blocks"].as_array().map(Vec::len),
        Some(2)
    );
    let out = srview(
        &["--only", "2", "--write", p(&file), "-"],
        THREE_BLOCKS.as_bytes(),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "a\nb\nC\nd\n");
}

/// A patch's hunks are chosen in patch order, an edit's JSON is one block.
#[test]
fn only_and_skip_choose_a_patchs_hunks() {
    let dir = tempfile::tempdir().unwrap();
    let file = files::write(dir.path(), "f.txt", b"a\nb\nc\nd\n");
    let patch =
        "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+B\n@@\n c\n-d\n+D\n*** End Patch\n";
    let out = srview(&["--skip", "1", p(&file), "-"], patch.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "a\nb\nc\nD\n");
    let out = srview(&["--only", "1", "--json", p(&file), "-"], patch.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout_json(&out)["newContent"], "a\nB\nc\nd\n");
    let edit = r#"{"file_path": "f.txt", "old_string": "a", "new_string": "X"}"#;
    let out = srview(&["--only", "1", p(&file), "-"], edit.as_bytes());
    assert_eq!(stdout(&out), "X\nb\nc\nd\n");
}

/// A number that names no block, a choice that leaves nothing, and
/// `--only` with `--skip` are usage errors: one clear line, exit 2, no output.
#[test]
fn only_and_skip_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = files::write(dir.path(), "f.txt", b"a\nb\nc\nd\n");
    let patch = "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+B\n*** End Patch\n";
    for (args, diff, said) in [
        (
            &["--only", "4"][..],
            THREE_BLOCKS,
            "srview: --only: there is no block #4: the diff has 3 blocks (numbered from 1)",
        ),
        (
            &["--skip", "0"],
            THREE_BLOCKS,
            "srview: --skip: there is no block #0: the diff has 3 blocks (numbered from 1)",
        ),
        (
            &["--skip", "1,2,3"],
            THREE_BLOCKS,
            "srview: --skip: every block is left out: nothing to apply",
        ),
        (
            &["--only", "2"],
            patch,
            "srview: --only: there is no hunk #2: the diff has 1 hunk (numbered from 1)",
        ),
    ] {
        let out = srview(&[args, &[p(&file), "-"]].concat(), diff.as_bytes());
        assert_eq!(code(&out), 2, "{args:?}");
        assert_eq!(stderr(&out), format!("{said}\n"));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = srview(
        &["--only", "1", "--skip", "2", p(&file), "-"],
        THREE_BLOCKS.as_bytes(),
    );
    assert_eq!(code(&out), 2);
    assert_contains(
        &stderr(&out),
        "the argument '--only <N,..>' cannot be used with '--skip <N,..>'",
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "a\nb\nc\nd\n");
}

/// `srview apply f.txt d.diff | head -1` and the other printing commands,
/// once the reader has gone: exit 0 and nothing on stderr (no "Broken
/// pipe", no panic), as ripgrep does; a closed pipe is not a failure of the
/// edit. The failing diff too: what the reader wanted was printed.
#[test]
fn printing_into_a_closed_pipe_exits_0_quietly() {
    let (dir, file) = abc_file();
    let diff = files::write(dir.path(), "d.diff", ONE_BLOCK.as_bytes());
    let failing = files::write(dir.path(), "bad.diff", FAILING.as_bytes());
    let (file, diff, failing) = (p(&file), p(&diff), p(&failing));
    for args in [
        vec!["apply", &file, &diff],
        vec!["apply", "--json", &file, &diff],
        vec!["check", &file, &diff],
        vec!["check", "--json", &file, &failing],
        vec!["check", &file, &failing],
        vec!["fix", &file, &failing],
    ] {
        let out = runner::srview(&args).output_to_closed_pipe();
        assert_eq!((code(&out), stderr(&out)), (0, String::new()), "{args:?}");
    }
}
