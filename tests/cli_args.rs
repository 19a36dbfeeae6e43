//! Command-line mistakes a new user makes: each is one clear line on
//! stderr and exit 2, before the previewer takes the terminal.

mod support;

use std::process::Output;

use support::pty;
use support::runner::{BIN, stderr};

fn srview(args: &[&str]) -> Output {
    support::runner::srview(args).output()
}

fn assert_one_line_exit_2(out: &Output, want: &str) {
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    assert_eq!(stderr(out), format!("{want}\n"));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_directory_as_diff_is_refused_at_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("f.txt");
    std::fs::write(&file, "a\n").expect("write");
    let (f, d) = (
        file.to_str().expect("UTF-8"),
        dir.path().to_str().expect("UTF-8"),
    );
    assert_one_line_exit_2(
        &srview(&[f, d]),
        &format!("srview: DIFF {d} is a directory, not a diff file"),
    );
    for command in ["apply", "check", "fix"] {
        assert_one_line_exit_2(
            &srview(&[command, f, d]),
            &format!("srview: {d} is a directory"),
        );
    }
    assert_one_line_exit_2(
        &srview(&["--transcript", d]),
        &format!("srview: {d} is a folder, not a transcript file"),
    );
}

#[test]
fn an_extra_argument_is_named_as_one() {
    let out = srview(&["f.txt", "d.diff", "extra"]);
    assert_one_line_exit_2(
        &out,
        "srview: unexpected argument 'extra': srview FILE [DIFF]   (see srview --help)",
    );
}

/// `srview FILE -` typed at a prompt: `-` means stdin, and stdin is the
/// terminal, so there is no diff to read; the message says exactly that.
#[test]
fn dash_with_stdin_a_terminal_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("f.txt"), "a\n").expect("write");
    let mut s = pty::Session::spawn(dir.path(), BIN, &["f.txt", "-"]);
    assert_eq!(s.exit_code(), 2);
    s.wait_for("the message", |screen| {
        screen.contains("DIFF is '-' (stdin) but stdin is a terminal")
    });
    assert!(!s.contents().contains("no DIFF given"), "{}", s.contents());
}

/// `... | srview` without FILE: the agent's output on stdin is read by
/// `srview -`, which the usage line names.
#[test]
fn no_file_with_stdin_piped_names_srview_dash() {
    assert_one_line_exit_2(
        &srview(&[]),
        "srview: usage: srview FILE [DIFF]; an agent's output piped in is read by `srview -`   (see srview --help)",
    );
}

/// `srview` alone at a prompt: the plain usage line.
#[test]
fn no_file_at_a_prompt_is_the_usage_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = pty::Session::spawn(dir.path(), BIN, &[]);
    assert_eq!(s.exit_code(), 2);
    s.wait_for("the usage line", |screen| {
        screen.contains("srview: usage: srview FILE [DIFF]   (see srview --help)")
    });
}
