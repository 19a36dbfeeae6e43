//! OpenCode's `apply_patch`: the tool's own test cases
//! (packages/opencode/test/tool/apply_patch.test.ts), each seek pass and
//! each error text. Every expectation here was checked against the shipped
//! 1.18.33 code.

use std::collections::BTreeMap;

use serde_json::json;

use super::{OpencodeApplyPatch, texts};
use crate::cases::assert_cases;
use crate::dialect::apply_patch::fs::MemoryFs;
use crate::dialect::call::{CallOutcome, ToolCall, run_in_memory};

const ROOT: &str = "/home/user/project";

/// The tool on `patch` over the files `present` (path, content): its
/// outcome and the files afterwards.
fn apply(present: &[(&str, &str)], patch: &str) -> (CallOutcome, BTreeMap<String, String>) {
    let outcome = run_in_memory(
        &OpencodeApplyPatch,
        ROOT,
        present,
        &json!({ "patchText": patch }),
    );
    let mut after = files(present);
    for write in &outcome.writes {
        match &write.content {
            Some(content) => after.insert(write.path.clone(), content.clone()),
            None => after.remove(&write.path),
        };
    }
    (outcome, after)
}

/// The tool on a patch updating `a.txt`, holding `content`, by `hunks`
/// (each line ended): its outcome and `a.txt` afterwards.
fn updated(content: &str, hunks: &str) -> (CallOutcome, String) {
    let patch = format!("*** Begin Patch\n*** Update File: a.txt\n{hunks}*** End Patch");
    let (outcome, mut after) = apply(&[("a.txt", content)], &patch);
    let text = after.remove("a.txt").unwrap_or_default();
    (outcome, text)
}

fn files(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(p, c)| (p.to_string(), c.to_string()))
        .collect()
}

fn succeeds(outcome: &CallOutcome, message_lines: &[&str], stage: &str) {
    assert!(outcome.ok, "{outcome:?}");
    let mut want = vec![texts::SUCCESS_HEADER];
    want.extend_from_slice(message_lines);
    assert_eq!(outcome.message.as_deref(), Some(want.join("\n").as_str()));
    assert_eq!(outcome.stage.as_deref(), Some(stage));
}

fn fails(outcome: &CallOutcome, error: &str) {
    assert!(!outcome.ok);
    assert_eq!(outcome.error.as_deref(), Some(error));
    assert!(outcome.writes.is_empty(), "nothing written on failure");
}

#[test]
fn applies_add_update_delete_in_one_patch() {
    let (outcome, after) = apply(
        &[
            ("modify.txt", "line1\nline2\n"),
            ("delete.txt", "obsolete\n"),
        ],
        "*** Begin Patch\n*** Add File: nested/new.txt\n+created\n*** Delete File: delete.txt\n*** Update File: modify.txt\n@@\n-line2\n+changed\n*** End Patch",
    );
    succeeds(
        &outcome,
        &["A nested/new.txt", "D delete.txt", "M modify.txt"],
        "exact",
    );
    assert_eq!(
        after,
        files(&[
            ("modify.txt", "line1\nchanged\n"),
            ("nested/new.txt", "created\n")
        ])
    );
}

#[test]
fn hunks_inserts_and_final_newlines() {
    let (outcome, after) = updated(
        "line1\nline2\nline3\nline4\n",
        "@@\n-line2\n+changed2\n@@\n-line4\n+changed4\n",
    );
    succeeds(&outcome, &["M a.txt"], "exact");
    assert_eq!(after, "line1\nchanged2\nline3\nchanged4\n");
    // ((the file, the hunks), the file afterwards)
    assert_cases(
        |(content, hunks)| updated(content, hunks).1,
        &[
            // An insertion only.
            (
                ("alpha\nomega\n", "@@\n alpha\n+beta\n omega\n"),
                "alpha\nbeta\nomega\n",
            ),
            // A file without a final newline gets one.
            (
                (
                    "no newline at end",
                    "@@\n-no newline at end\n+first line\n+second line\n",
                ),
                "first line\nsecond line\n",
            ),
            (
                ("alpha\nlast\n", "@@\n-last\n+end\n*** End of File\n"),
                "alpha\nend\n",
            ),
        ],
    );
}

#[test]
fn moves_and_overwrites() {
    let (outcome, after) = apply(
        &[
            ("old/name.txt", "from\n"),
            ("renamed/dir/name.txt", "existing\n"),
        ],
        "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-from\n+new\n*** End Patch",
    );
    succeeds(&outcome, &["M renamed/dir/name.txt"], "exact");
    assert_eq!(after, files(&[("renamed/dir/name.txt", "new\n")]));
    let (outcome, after) = apply(
        &[("duplicate.txt", "old content\n")],
        "*** Begin Patch\n*** Add File: duplicate.txt\n+new content\n*** End Patch",
    );
    succeeds(&outcome, &["A duplicate.txt"], "none");
    assert_eq!(after["duplicate.txt"], "new content\n");
}

#[test]
fn change_context_disambiguates() {
    let (_, after) = apply(
        &[("multi_ctx.txt", "fn a\nx=10\ny=2\nfn b\nx=10\ny=20\n")],
        "*** Begin Patch\n*** Update File: multi_ctx.txt\n@@ fn b\n-x=10\n+x=11\n*** End Patch",
    );
    assert_eq!(
        after["multi_ctx.txt"],
        "fn a\nx=10\ny=2\nfn b\nx=11\ny=20\n"
    );
}

#[test]
fn heredoc_wrapped_patches() {
    for (patch, path) in [
        (
            "cat <<'EOF'\n*** Begin Patch\n*** Add File: heredoc_test.txt\n+heredoc content\n*** End Patch\nEOF",
            "heredoc_test.txt",
        ),
        (
            "<<EOF\n*** Begin Patch\n*** Add File: heredoc_no_cat.txt\n+no cat prefix\n*** End Patch\nEOF",
            "heredoc_no_cat.txt",
        ),
    ] {
        let (outcome, after) = apply(&[], patch);
        assert!(outcome.ok);
        assert!(after.contains_key(path));
    }
}

#[test]
fn each_seek_pass() {
    // (the file's content, the patch's old and new line, the pass, the
    // file afterwards where checked)
    for (content, hunk, pass, want) in [
        // The new lines are joined with "\n" even in a CRLF file.
        ("x\r\ny\r\n", "@@\n-x\n+z\n", "trimEnd", Some("z\ny\r\n")),
        (
            "say \u{201c}hi\u{201d} \u{2013} now\u{2026}\n",
            "@@\n-say \"hi\" - now...\n+said\n",
            "normalized",
            Some("said\n"),
        ),
        ("  x\n", "@@\n-x\n+y\n", "trim", None),
        ("\u{feff}x\n", "@@\n-x\n+z\n", "exact", Some("\u{feff}z\n")),
    ] {
        let (outcome, after) = updated(content, hunk);
        succeeds(&outcome, &["M a.txt"], pass);
        assert_eq!(outcome.edits[0].loose, pass != "exact", "{pass}");
        if let Some(want) = want {
            assert_eq!(after, want, "{pass}");
        }
    }
}

#[test]
fn lines_it_does_not_know_are_skipped() {
    // Without `@@` the chunk is never read: the update "succeeds" unchanged.
    let (outcome, after) = updated("x\n", "-x\n+y\n");
    succeeds(&outcome, &["M a.txt"], "none");
    assert_eq!(after, "x\n");
    // The empty line is dropped, not blank context: `b` and `d` must be
    // adjacent, and are not.
    let (outcome, _) = apply(
        &[("two_chunks.txt", "a\nb\nc\nd\n")],
        "*** Begin Patch\n*** Update File: two_chunks.txt\n@@\n-b\n+B\n\n-d\n+D\n*** End Patch",
    );
    fails(
        &outcome,
        "apply_patch verification failed: Error: Failed to find expected lines in /home/user/project/two_chunks.txt:\nb\nd",
    );
}

#[test]
fn every_error_text() {
    fails(&apply(&[], "").0, texts::PATCH_TEXT_REQUIRED);
    fails(
        &apply(&[], "invalid patch").0,
        "apply_patch verification failed: Error: Invalid patch format: missing Begin/End markers",
    );
    fails(
        &apply(&[], "*** Begin Patch\n*** End Patch").0,
        texts::EMPTY_PATCH,
    );
    fails(
        &apply(
            &[],
            "*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch",
        )
        .0,
        texts::NO_HUNKS,
    );
    fails(
        &apply(
            &[],
            "*** Begin Patch\n*** Update File: missing.txt\n@@\n-nope\n+better\n*** End Patch",
        )
        .0,
        "apply_patch verification failed: Failed to read file to update: /home/user/project/missing.txt",
    );
    fails(
        &apply(
            &[("dir/a.txt", "x\n")],
            "*** Begin Patch\n*** Update File: dir\n@@\n-x\n+z\n*** End Patch",
        )
        .0,
        "apply_patch verification failed: Failed to read file to update: /home/user/project/dir",
    );
    fails(
        &apply(
            &[("modify.txt", "line1\nline2\n")],
            "*** Begin Patch\n*** Update File: modify.txt\n@@\n-missing\n+changed\n*** End Patch",
        )
        .0,
        "apply_patch verification failed: Error: Failed to find expected lines in /home/user/project/modify.txt:\nmissing",
    );
    fails(
        &apply(
            &[("a.txt", "x\n")],
            "*** Begin Patch\n*** Update File: a.txt\n@@ nowhere\n-x\n+y\n*** End Patch",
        )
        .0,
        "apply_patch verification failed: Error: Failed to find context 'nowhere' in /home/user/project/a.txt",
    );
    // Verified before anything is written: the added file is not created.
    fails(
        &apply(
            &[],
            "*** Begin Patch\n*** Add File: created.txt\n+hello\n*** Update File: missing.txt\n@@\n-old\n+new\n*** End Patch",
        )
        .0,
        "apply_patch verification failed: Failed to read file to update: /home/user/project/missing.txt",
    );
}

#[test]
fn the_success_text_names_paths_relative_to_the_worktree() {
    let fs = MemoryFs::new([("inventory.py".to_string(), "a\n".to_string())]);
    let input = json!({"patchText": "*** Begin Patch\n*** Update File: inventory.py\n@@\n-a\n+b\n*** End Patch"});
    let call = ToolCall {
        input: &input,
        cwd: ROOT,
        fs: &fs,
    };
    let outcome = OpencodeApplyPatch.run_in(&call, "/");
    assert_eq!(
        outcome.message.as_deref(),
        Some("Success. Updated the following files:\nM home/user/project/inventory.py")
    );
}

/// A line the parser skips between lines it reads: the result stays
/// OpenCode's (the empty line gone), the outcome says which patch line it
/// drops, and the call doubts (what `check`, the live preview and session
/// verdicts read) carry it; a blank line between sections is no doubt,
/// nor is anything said of a call OpenCode refuses.
#[test]
fn lines_skipped_inside_a_chunk_are_dropped_and_said() {
    use crate::dialect::call_doubts::{CallDoubtKind, Judged, exact_doubt_kinds};
    let (outcome, after) = updated("a\nb\n", "@@\n a\n+x\n\n+y\n b\n\n");
    assert_eq!(after, "a\nx\ny\nb\n");
    assert_eq!(
        outcome.dropped,
        [
            "OpenCode drops patch line 6 (an empty line without a prefix) in hunk #1 of a.txt: \
          its parser skips, without a word, a line that starts with none of ` `, `-`, `+`, so \
          it writes 4 lines where the patch has 5: send every line of a hunk with its prefix: \
          ` ` (a space) for a line kept, `-` for one removed, `+` for one added (an empty added \
          line as `+` alone)"
        ]
    );
    let kinds: Vec<CallDoubtKind> = exact_doubt_kinds(&outcome, &|_| None, Judged::default())
        .into_iter()
        .map(|(kind, _)| kind)
        .collect();
    assert_eq!(kinds, [CallDoubtKind::Dropped]);
    let (outcome, _) = updated("a\nb\n", "@@\n a\n+x\n b\n\n");
    assert!(outcome.ok && outcome.dropped.is_empty(), "{outcome:?}");
    let (outcome, _) = updated("a\nb\n", "@@\n q\n+x\n\n+y\n");
    assert!(!outcome.ok && outcome.dropped.is_empty(), "{outcome:?}");
}
