//! Transcripts applied: streamed through parse + apply_calls, then written
//! by `srview apply --transcript --write` all or nothing.

use std::path::{Path, PathBuf};

mod support;

use support::files::read;

use srview::source::transcript::{
    ApplyOptions, CallKind, FileState, PathRules, ToolCall, apply_calls, parse,
};

fn demo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo")
}

/// A fresh copy of the demo project, so the originals stay pristine.
fn copy_demo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in [
        "inventory.py",
        "settings.toml",
        "transcript.md",
        "edit.diff",
    ] {
        std::fs::copy(demo_dir().join(name), dir.path().join(name)).expect("copy asset");
    }
    dir
}

/// The demo transcript with its failing block fixed: every edit applies.
fn good_transcript() -> String {
    let text = read(&demo_dir(), "transcript.md");
    assert!(text.contains(r#"channels = ["email", "pager"]"#));
    text.replace(
        r#"channels = ["email", "pager"]"#,
        r#"channels = ["email"]"#,
    )
}

fn srview(args: &[&str]) -> std::process::Output {
    support::runner::srview(args).output()
}

/// `srview apply --transcript DIR/NAME --cwd DIR ARGS`, with `text` written
/// to DIR/NAME first when given.
fn apply_in(dir: &Path, name: &str, text: Option<&str>, args: &[&str]) -> std::process::Output {
    let msg = dir.join(name);
    if let Some(text) = text {
        std::fs::write(&msg, text).expect("write transcript");
    }
    let (msg, cwd) = (support::files::p(&msg), support::files::p(dir));
    srview(&[&["apply", "--transcript", msg, "--cwd", cwd], args].concat())
}

/// The demo's `name` in `dir` is as the demo has it: nothing was written.
fn assert_untouched(dir: &Path, name: &str) {
    assert_eq!(read(dir, name), read(&demo_dir(), name), "{name}");
}

#[test]
fn streaming_every_prefix_never_panics_and_ends_applied() {
    let dir = copy_demo();
    let text = good_transcript();
    let ws = PathRules::new(dir.path(), false);
    let options = ApplyOptions::default();
    let ends: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let mut saw_streaming = false;
    for &end in &ends {
        let files = apply_calls(&parse(&text[..end]), |p| ws.load(p), options);
        assert!(files.len() <= 2);
        saw_streaming |= files.iter().any(|f| f.state == FileState::Streaming);
        // Only the last call can be open, so at most one file streams.
        assert!(
            files
                .iter()
                .filter(|f| f.state == FileState::Streaming)
                .count()
                <= 1
        );
    }
    assert!(saw_streaming);
    let files = apply_calls(&parse(&text), |p| ws.load(p), options);
    let states: Vec<(&str, FileState, usize)> = files
        .iter()
        .map(|f| (f.path.as_str(), f.state, f.calls.len()))
        .collect();
    assert_eq!(
        states,
        [
            ("inventory.py", FileState::Applied, 2),
            ("settings.toml", FileState::Applied, 1)
        ]
    );
    // The second inventory.py call only matches the first call's result.
    assert!(
        files[0]
            .content()
            .contains("def stock_value(self) -> float:")
    );
    assert!(files[0].content().contains("    price: float = 0.0\n"));
    assert!(files[1].content().contains("cooldown_hours = 6\n"));
    assert!(
        files[1]
            .content()
            .contains(r#"channels = ["email", "sms"]"#)
    );
}

#[test]
fn chunked_stream_shows_growing_partial_content() {
    let dir = copy_demo();
    let text = good_transcript();
    let ws = PathRules::new(dir.path(), false);
    let mut contents = Vec::new();
    for end in (0..text.len()).step_by(37).chain([text.len()]) {
        let Some(end) = (end..=text.len()).find(|&e| text.is_char_boundary(e)) else {
            continue;
        };
        let files = apply_calls(&parse(&text[..end]), |p| ws.load(p), Default::default());
        if let Some(f) = files.first() {
            contents.push(f.content().to_string());
        }
    }
    assert!(contents.windows(2).any(|w| w[0] != w[1]), "content changes");
    assert!(contents.iter().all(|c| !c.contains("</diff")));
}

#[test]
fn apply_write_writes_every_file() {
    let dir = copy_demo();
    let out = apply_in(
        dir.path(),
        "good.md",
        Some(&good_transcript()),
        &["--write"],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let expected = apply_calls(
        &parse(&good_transcript()),
        |p| PathRules::new(demo_dir(), false).load(p),
        Default::default(),
    );
    assert_eq!(read(dir.path(), "inventory.py"), expected[0].content());
    assert_eq!(read(dir.path(), "settings.toml"), expected[1].content());
    assert_ne!(expected[0].content(), read(&demo_dir(), "inventory.py"));
    // The loose block is said, as for one diff: on stderr and in the summary.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("ok      inventory.py (2 calls, 4 blocks, 1 loose)\n"),
        "{stdout}"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "srview: warning: inventory.py, the transcript's tool call 1: block #2 matched only \
         with white space ignored (line-trimmed) (lines 28-31)\n"
    );
}

#[test]
fn one_failing_file_means_nothing_is_written() {
    let dir = copy_demo();
    let out = apply_in(dir.path(), "transcript.md", None, &["--write", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(report["ok"], false);
    assert_eq!(report["files"][0]["ok"], true);
    assert_eq!(report["files"][1]["ok"], false);
    let error = report["files"][1]["error"].as_str().unwrap_or_default();
    assert!(error.contains("does not match anything"), "{error}");
    assert_eq!(report["files"][1]["blocks"][1]["state"], "failed");
    assert_eq!(report["files"][0]["blocks"][1]["stage"], "line-trimmed");
    for name in ["inventory.py", "settings.toml"] {
        assert_untouched(dir.path(), name);
    }
}

#[test]
fn write_to_file_creates_new_files_in_new_folders() {
    let dir = tempfile::tempdir().expect("temp dir");
    let call =
        "<write_to_file><path>pkg/new.txt</path><content>\nhello\n</content></write_to_file>";
    let out = apply_in(dir.path(), "m.md", Some(call), &["--write"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(read(dir.path(), "pkg/new.txt"), "hello");
}

#[test]
fn unclosed_call_in_a_saved_transcript_does_not_apply() {
    let dir = copy_demo();
    let text = good_transcript();
    let cut = text.rfind("</diff>").expect("has a diff");
    let out = apply_in(dir.path(), "cut.md", Some(&text[..cut]), &["--write"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_untouched(dir.path(), "inventory.py");
}

#[test]
fn text_without_edits_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let msg = dir.path().join("m.md");
    std::fs::write(&msg, "just prose").expect("write");
    let out = srview(&["apply", "--transcript", &msg.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn calls_with_unknown_paths_are_skipped_and_partial_errors_swallowed() {
    let calls = [
        ToolCall {
            kind: CallKind::ReplaceInFile,
            path: "a".into(),
            path_complete: false,
            body: String::new(),
            partial: true,
        },
        ToolCall {
            kind: CallKind::ReplaceInFile,
            path: "b".into(),
            path_complete: true,
            body: "------- SEARCH\nnope\n=======\n".into(),
            partial: true,
        },
    ];
    let files = apply_calls(
        &calls,
        |_| Ok::<_, String>(Some("x\n".into())),
        Default::default(),
    );
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].state, FileState::Streaming);
    assert_eq!(files[0].error, None);
    assert_eq!(files[0].content(), "x\n");
}

#[test]
fn a_file_changed_on_disk_stops_every_write() {
    let dir = copy_demo();
    let ws = PathRules::new(dir.path(), false);
    let files = apply_calls(
        &parse(&good_transcript()),
        |p| ws.load(p),
        Default::default(),
    );
    assert!(files.iter().all(|f| f.ok()));
    // Someone edits settings.toml after it was loaded.
    std::fs::write(dir.path().join("settings.toml"), "edited by hand\n").expect("write");
    let all: Vec<_> = files.iter().collect();
    let err = srview::source::transcript::write_files(&ws, &all).expect_err("refused");
    assert!(err.message.contains("changed on disk"), "{err}");
    assert!(err.changed_on_disk);
    assert_untouched(dir.path(), "inventory.py");
    assert_eq!(read(dir.path(), "settings.toml"), "edited by hand\n");
    // Writing just the untouched file works, and says what it wrote.
    let written = srview::source::transcript::write_files(&ws, &all[..1]).expect("written");
    assert_eq!(written, ["inventory.py"]);
    assert_eq!(read(dir.path(), "inventory.py"), files[0].content());
}

/// The summary counts calls and blocks in words: no `call(s)`.
#[test]
fn summary_counts_in_words() {
    let dir = copy_demo();
    let out = apply_in(dir.path(), "good.md", Some(&good_transcript()), &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("(s)"), "{stdout}");
    let summaries: Vec<&str> = stdout.lines().filter(|l| l.starts_with("ok ")).collect();
    assert!(!summaries.is_empty(), "{stdout}");
    for line in summaries {
        for (n, noun) in [("1", "call"), ("1", "block")] {
            assert!(
                !line.contains(&format!(" {n} {noun}s")),
                "singular after one: {line}"
            );
        }
        assert!(line.contains(" call") && line.contains(" block"), "{line}");
    }
}

/// A saved transcript cut off inside a tool call's `<path>` names no file:
/// the call never ran, so the transcript does not pass.
#[test]
fn a_transcript_cut_inside_a_path_does_not_pass() {
    let dir = copy_demo();
    let text = good_transcript();
    let cut = &text[..text.find("<path>inventory.py").expect("a path") + "<path>inven".len()];
    let out = apply_in(dir.path(), "cut.md", Some(cut), &["--write"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ends inside a tool call's path"), "{err}");
    assert_untouched(dir.path(), "inventory.py");
}

/// A replace_in_file call on a file that is not there (a wrong --cwd) says
/// so, instead of only that its SEARCH text is missing.
#[test]
fn a_missing_file_is_named_as_missing() {
    let empty = tempfile::tempdir().expect("temp dir");
    let dir = copy_demo();
    let msg = dir.path().join("transcript.md");
    let out = srview(&[
        "apply",
        "--transcript",
        msg.to_str().expect("UTF-8"),
        "--cwd",
        empty.path().to_str().expect("UTF-8"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("inventory.py does not exist (is --cwd the project's folder?)"),
        "{text}"
    );
}

/// `--write` holds back a transcript whose edit srview cannot stand behind
/// (here a block-anchor match whose SEARCH text is closer to another
/// function), as `apply --write` does for one diff: nothing written, exit 1,
/// the file, the call and why on stderr; `--force` writes.
#[test]
fn write_holds_back_a_doubtful_place_unless_forced() {
    // Two functions that start and end alike.
    let two = "def one():\n    start()\n    alpha = 1\n    beta = 2\n    finish()\n\n\
               def two():\n    start()\n    gamma = 3\n    delta = 4\n    finish()\n";
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("two.py"), two).expect("write");
    let text = support::diff::replace_in_file(
        "two.py",
        "    start()\n    gamma = 30\n    delta = 40\n    finish()",
        "    start()\n    gamma = 300\n    finish()",
    );
    let out = apply_in(dir.path(), "t.md", Some(&text), &["--write"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "srview: nothing written: two.py, the transcript's tool call 1: block #1 matched by \
             its first and last lines only at lines 2-5; its SEARCH text is closest to lines \
             8-11 (--force writes it)\n"
        ),
        "{err}"
    );
    assert_eq!(read(dir.path(), "two.py"), two);
    // The JSON says it was held back, and why.
    let out = apply_in(dir.path(), "t.md", None, &["--write", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["ok"], true);
    assert_eq!(report["write"]["state"], "held-back");
    assert_eq!(
        report["write"]["reasons"][0],
        "two.py, the transcript's tool call 1: block #1 matched by its first and last lines \
         only at lines 2-5; its SEARCH text is closest to lines 8-11"
    );
    assert_eq!(read(dir.path(), "two.py"), two);
    let out = apply_in(dir.path(), "t.md", None, &["--write", "--force", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["write"]["state"], "written");
    assert_ne!(read(dir.path(), "two.py"), two);
    std::fs::write(dir.path().join("two.py"), two).expect("write");
    let out = apply_in(dir.path(), "t.md", None, &["--write", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_ne!(read(dir.path(), "two.py"), two);
}
