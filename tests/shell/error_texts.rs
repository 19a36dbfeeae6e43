//! Every error type's `Display` text, word for word, and the errors each one
//! hands on as its source: the texts are what srview prints (and what the
//! JSON outputs carry), so a change of wording must show here.

use std::error::Error as _;
use std::path::PathBuf;

use srview::apply_patch::{HunkProblem, ParseError as PatchParseError, PatchError, Unindentable};
use srview::dialect::chosen::ChoiceError;
use srview::dialect::one_file::OneFileError;
use srview::dialect::udiff::UdiffError;
use srview::edit::partial_json::PartialJsonError;
use srview::edit::{EditError, ParseError as EditParseError, Tool};
use srview::error::{Error, Refusal};
use srview::output::{NotAsLoaded, WriteError as FileWriteError};
use srview::sessions::load::LoadError;
use srview::source::agent::session::SessionError;
use srview::source::agent::{AgentError, AgentKind};
use srview::source::transcript::{PathError, WriteError as TranscriptWriteError};
use srview::tui::view::syntax_pack::PackError;

fn io(text: &str) -> std::io::Error {
    std::io::Error::other(text.to_string())
}

/// Each error's text, and whether it has a source.
fn check(cases: &[(&dyn std::error::Error, &str, bool)]) {
    for (i, (error, text, has_source)) in cases.iter().enumerate() {
        assert_eq!(error.to_string(), *text, "case {i}");
        assert_eq!(error.source().is_some(), *has_source, "case {i}: {text}");
    }
}

#[test]
fn command_and_write_errors() {
    let path = PathBuf::from("dir/a.rs");
    check(&[
        (&Error::Usage("u".into()), "u", false),
        (&Error::NoApply("n".into()), "n", false),
        (&Error::Refused("r".into()), "r", false),
        (&Error::Write("w".into()), "w", false),
        (
            &Refusal::of("String to replace not found in file."),
            "String to replace not found in file.",
            false,
        ),
        (
            &Error::read("a.rs", io("boom")),
            "cannot read a.rs: boom",
            true,
        ),
        (
            &FileWriteError {
                path: path.clone(),
                message: "disk full".into(),
            },
            "dir/a.rs was not written: disk full",
            false,
        ),
        (
            &NotAsLoaded::Unreadable(io("gone")),
            "cannot re-read it: gone",
            true,
        ),
        (
            &NotAsLoaded::Deleted,
            "it was deleted since it was loaded",
            false,
        ),
        (
            &NotAsLoaded::Changed,
            "it changed on disk since it was loaded",
            false,
        ),
        (&PathError("p is refused".into()), "p is refused", false),
        (
            &TranscriptWriteError {
                message: "a.rs changed".into(),
                changed_on_disk: true,
            },
            "a.rs changed",
            false,
        ),
        (
            &srview::input::missing_file("missing.py"),
            "missing.py does not exist (to create it, add --new-file: the edit then starts from \
             an empty file)",
            false,
        ),
        (
            &PackError("wrong magic".into()),
            "syntax pack: wrong magic",
            false,
        ),
    ]);
}

#[test]
fn session_errors() {
    let path = PathBuf::from("s/x.jsonl");
    check(&[
        (
            &SessionError::Io {
                path: path.clone(),
                source: io("denied"),
            },
            "cannot read s/x.jsonl: denied",
            true,
        ),
        (
            &SessionError::Unrecognised { path: path.clone() },
            "s/x.jsonl is not a session of Claude Code, Codex, Cline, Aider, Qwen Code, pi, OpenCode or Gemini CLI that srview knows",
            false,
        ),
        (
            &SessionError::NoSessionIn {
                path: PathBuf::from("h/.gemini"),
            },
            "h/.gemini is a folder that holds no session file srview knows: `srview sessions` \
             lists the saved sessions of every agent srview reads (`srview sessions FOLDER` \
             searches FOLDER as the home folder)",
            false,
        ),
        (
            &SessionError::Unreadable {
                path: path.clone(),
                why: "torn line".into(),
            },
            "no edit could be read from s/x.jsonl: torn line",
            false,
        ),
        // Transparent: the session error's own source (none here), not
        // the session error a second time.
        (
            &LoadError::Session(SessionError::Unreadable {
                path,
                why: "torn line".into(),
            }),
            "no edit could be read from s/x.jsonl: torn line",
            false,
        ),
        (
            &LoadError::Stdin(io("closed")),
            "cannot read stdin: closed",
            true,
        ),
        (
            &LoadError::UnknownStream,
            "stdin is not the output of Claude Code, Codex, Cline, Aider, Qwen Code, pi, OpenCode or Gemini CLI that srview knows",
            false,
        ),
        (
            &UdiffError::NoRanges {
                line: "@@ x @@".into(),
            },
            "hunk header without line ranges: @@ x @@",
            false,
        ),
        (
            &UdiffError::Mismatch { hunk: 0, line: 7 },
            "hunk 1 does not fit the current file at line 7 (the file changed after the edit)",
            false,
        ),
        (
            &AgentError::MissingField {
                agent: AgentKind::ClaudeCode,
                version: Some("2.1.0".into()),
                line: 3,
                what: "Edit tool input".into(),
                field: "old_string".into(),
            },
            "Claude Code 2.1.0: the Edit tool input at line 3 has no `old_string`; this edit \
             cannot be previewed (the agent's output format may have changed)",
            false,
        ),
        (
            &AgentError::Malformed {
                agent: AgentKind::Codex,
                version: None,
                line: 9,
                reason: "EOF".into(),
            },
            "Codex (version not named yet): line 9 skipped: EOF",
            false,
        ),
    ]);
}

#[test]
fn edit_errors() {
    let json = serde_json::from_str::<u8>("x").unwrap_err();
    let json_text = json.to_string();
    let partial = PartialJsonError {
        offset: 4,
        what: "expected ':'",
    };
    check(&[
        (
            &EditParseError::UnknownTool("Bash".into()),
            "unknown edit tool \"Bash\" (expected Edit, Write or editor)",
            false,
        ),
        (
            &EditParseError::Json {
                tool: Tool::Editor,
                source: json,
            },
            &format!("invalid editor tool input: {json_text}"),
            true,
        ),
        (
            &EditParseError::Partial {
                tool: Tool::Write,
                source: partial.clone(),
            },
            "invalid Write tool input: invalid JSON at byte 4: expected ':'",
            true,
        ),
        (&partial, "invalid JSON at byte 4: expected ':'", false),
        (
            &EditError::ClaudeNotFound {
                old_string: "a".into(),
            },
            "String to replace not found in file.\nString: a",
            false,
        ),
        (
            &EditError::ClaudeAmbiguous {
                count: 2,
                old_string: "a".into(),
            },
            "Found 2 matches of the string to replace, but replace_all is false. To replace all \
             occurrences, set replace_all to true. To replace only one occurrence, please \
             provide more context to uniquely identify the instance.\nString: a",
            false,
        ),
        (
            &EditError::ClaudeQuoteNormalised {
                curly_in_file: true,
            },
            "old_string occurs in the file only with curly quotes where it has straight ones: \
             Claude Code matches it through its quote normalisation and adapts new_string's \
             quotes, which srview does not reproduce",
            false,
        ),
        (
            &EditError::ClineInsertLine { line: 0, max: 4 },
            "Invalid insert_line: 0. insert_line must be a positive one-based boundary line in \
             the range 1-4. Use 4 to append at EOF.",
            false,
        ),
    ]);
}

#[test]
fn patch_errors() {
    let hunk = |problem| PatchParseError::Hunk { line: 3, problem };
    check(&[
        (
            &PatchParseError::FirstLine,
            "Invalid patch: The first line of the patch must be '*** Begin Patch'",
            false,
        ),
        (
            &PatchParseError::LastLine,
            "Invalid patch: The last line of the patch must be '*** End Patch'",
            false,
        ),
        (
            &hunk(HunkProblem::NotAHeader("x".into())),
            "Invalid patch hunk on line 3: 'x' is not a valid hunk header. Valid hunk headers: \
             '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
            false,
        ),
        (
            &hunk(HunkProblem::EmptyUpdate("a.rs".into())),
            "Invalid patch hunk on line 3: Update file hunk for path 'a.rs' is empty",
            false,
        ),
        (
            &hunk(HunkProblem::MissingContextMarker("y".into())),
            "Invalid patch hunk on line 3: Expected update hunk to start with a @@ context \
             marker, got: 'y'",
            false,
        ),
        (
            &hunk(HunkProblem::UnexpectedLine("z".into())),
            "Invalid patch hunk on line 3: Unexpected line found in update hunk: 'z'. Every \
             line should start with ' ' (context line), '+' (added line), or '-' (removed line)",
            false,
        ),
        (
            &hunk(HunkProblem::EmptyChunk),
            "Invalid patch hunk on line 3: Update hunk does not contain any lines",
            false,
        ),
        (
            &PatchError::from(PatchParseError::FirstLine),
            "Invalid patch: The first line of the patch must be '*** Begin Patch'",
            false,
        ),
        (
            &PatchError::NoFilesModified,
            "No files were modified.",
            false,
        ),
        (
            &PatchError::UpdateUnreadable {
                path: "/a".into(),
                reason: "bad UTF-8".into(),
            },
            "Failed to read file to update /a: bad UTF-8",
            false,
        ),
        (
            &PatchError::ContextNotFound {
                context: "fn f".into(),
                path: "/a".into(),
            },
            "Failed to find context 'fn f' in /a",
            false,
        ),
        (
            &PatchError::LinesNotFound {
                path: "/a".into(),
                lines: "x\ny".into(),
            },
            "Failed to find expected lines in /a:\nx\ny",
            false,
        ),
        (
            &Unindentable::Inconsistent { width: 4 },
            "the hunk's lines indented by 4 are indented differently in the file, so its added \
             lines' indentation cannot be told",
            false,
        ),
        (
            &Unindentable::Unclear,
            "the file is indented unlike the hunk, and whether its added lines follow the \
             hunk's indentation or already the file's cannot be told",
            false,
        ),
        (
            &OneFileError::WhichSection {
                file: "c.rs".into(),
                paths: vec!["a.rs".into(), "b.rs".into()],
            },
            "the patch edits a.rs, b.rs and none of its sections alone names c.rs: use \
             `srview apply --transcript` of the whole patch, in the folder its paths are \
             relative to for a patch of several files",
            false,
        ),
        (
            &OneFileError::SeveralSections {
                file: "a.py".into(),
                count: 2,
                path: "src/a.py".into(),
            },
            "the patch has 2 sections for a.py, applied one after the other; a command on one \
             file takes one section per file: use `srview apply --transcript` of the whole \
             patch, in the folder its paths are relative to",
            false,
        ),
        (
            &OneFileError::Deletes("a.rs".into()),
            "the patch deletes a.rs: use `srview apply --transcript` of the whole patch, in the \
             folder its paths are relative to",
            false,
        ),
        (
            &OneFileError::UnknownEdit,
            "the JSON is no edit: expected Claude Code's Edit {file_path, old_string, \
             new_string} or Write {file_path, content}, or Cline's editor {path, old_text, \
             new_text}",
            false,
        ),
        (&OneFileError::BadEdit("why".into()), "why", false),
        (
            &ChoiceError::NoSuch {
                number: 4,
                noun: "hunk",
                count: "3 hunks".into(),
            },
            "there is no hunk #4: the diff has 3 hunks (numbered from 1)",
            false,
        ),
        (
            &ChoiceError::NoneLeft { noun: "block" },
            "every block is left out: nothing to apply",
            false,
        ),
        (
            &ChoiceError::OddMarkers { block: 2, line: 9 },
            "block #2 has a line that looks like a marker but is not one to the reference \
             (diff line 9): which lines each block holds is not sure, so blocks cannot be \
             chosen (srview check shows the markers)",
            false,
        ),
        (
            &ChoiceError::Unparsed("bad".into()),
            "the patch does not parse, so its hunks cannot be chosen: bad",
            false,
        ),
        (&ChoiceError::NoSection("which".into()), "which", false),
    ]);
    // The file errors of a section: each names its path.
    let path = || "/a".to_string();
    let file_errors = [
        (
            PatchError::WriteFailed { path: path() },
            "Failed to write file /a",
        ),
        (
            PatchError::DeleteFailed { path: path() },
            "Failed to delete file /a",
        ),
        (
            PatchError::UpdateMissing { path: path() },
            "Failed to read file to update /a: No such file or directory (os error 2)",
        ),
        (
            PatchError::UpdateNotAFile { path: path() },
            "Failed to read file to update /a: path `/a` is not a file",
        ),
        (
            PatchError::UpdateBelowFile { path: path() },
            "Failed to read file to update /a: Not a directory (os error 20)",
        ),
    ];
    for (error, text) in file_errors {
        assert_eq!(error.to_string(), text);
        assert!(error.source().is_none(), "{text}");
    }
}
