//! Cline CLI 3.x's own `apply_patch` tool, ported exactly from the code the
//! CLI 3.0.65 runs (its bundled SDK `@cline/core` 0.0.86:
//! `createApplyPatchExecutor` and the tool wrapper; upstream
//! `sdk/packages/core/src/extensions/tools/executors/apply-patch.ts` and
//! `apply-patch-parser.ts`, Apache-2.0).
//!
//! It takes Codex's patch format but is Cline's own lenient variant:
//! - the input is `{"input": PATCH}` or a bare string; other shapes fail
//!   with zod's text before the tool runs (`input.rs`);
//! - `*** Begin Patch` / `*** End Patch` may be missing, a `%%bash
//!   apply_patch <<"EOF"` wrapper is stripped (`input::patch_lines`);
//! - an added file is written without a final newline, unless its last
//!   line is a bare `+`;
//! - each section is placed by `seek::find_context`, whose last pass
//!   takes the FIRST window at least 0.66 similar ("fuzz factor 1000"):
//!   about half of such sections land elsewhere than their author meant,
//!   with a success message; their [`EditMatch`](crate::dialect::call::EditMatch) is loose, stage
//!   `similarity`;
//! - on some patches (a section starting with an empty line while the file
//!   cursor is 0) the shipped parser never returns: the outcome then says
//!   [`CallOutcome::hangs`], at once.
//!
//! Matching is all-or-nothing, writing is not: when a write fails, the
//! files written before it stay written ([`CallOutcome::writes`]).

mod disk;
mod input;
mod js;
mod parser;
mod seek;
mod stages;

use crate::dialect::call::{CallMatcher, CallOutcome, PatchFs, ToolCall};

use parser::{Action, Chunk, ParseStop, Parsed, Warning};

/// Cline 3.0.65's `apply_patch` tool.
pub struct ClineApplyPatch;

/// A run with the tool result as the model reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClineRun {
    /// What Cline does: its verdict, texts, writes and each section's stage.
    pub outcome: CallOutcome,
    /// `JSON.stringify` of the tool's result object
    /// (`{"query":"apply_patch","result":...,"success":true}`, or with
    /// `"result":"","error":...,"success":false`): the tool_result content.
    /// `None` when the input's validation threw before the tool ran (the
    /// agent runtime words that error) or when Cline would hang.
    pub model_text: Option<String>,
}

const FAILED: &str = "apply_patch failed: ";
const SUCCESS: &str = "Successfully applied patch to the following files:";

impl CallMatcher for ClineApplyPatch {
    fn takes_first_of_several(&self) -> bool {
        true
    }

    fn run(&self, call: &ToolCall) -> CallOutcome {
        self.run_with_text(call).outcome
    }

    fn run_for_model(&self, call: &ToolCall) -> (CallOutcome, Option<String>) {
        let run = self.run_with_text(call);
        (run.outcome, run.model_text)
    }

    fn stage_note(&self, stage: &str) -> Option<&'static str> {
        stage.ends_with("similarity").then_some(
            "Cline's similarity stage takes the FIRST window at least 0.66 similar, not the \
             best one: in Cline's own corpus about half of these hunks land elsewhere than \
             meant, and Cline reports them as success (\"fuzz factor 1000\")",
        )
    }
}

/// Why the executor stopped: Cline's error text (UTF-16: a cut context may
/// end in half a surrogate pair), or a hang.
enum Stop {
    Error(Vec<u16>),
    Hang,
}

impl From<String> for Stop {
    fn from(text: String) -> Self {
        Stop::Error(text.encode_utf16().collect())
    }
}

impl From<&str> for Stop {
    fn from(text: &str) -> Self {
        Stop::Error(text.encode_utf16().collect())
    }
}

impl From<ParseStop> for Stop {
    fn from(stop: ParseStop) -> Self {
        match stop {
            ParseStop::Error(text) => text.into(),
            ParseStop::Hang => Stop::Hang,
        }
    }
}

impl ClineApplyPatch {
    /// The outcome and the tool result text the model reads.
    pub fn run_with_text(&self, call: &ToolCall) -> ClineRun {
        let text = match input::patch_text(call.input) {
            Ok(text) => text,
            Err(thrown) => {
                return ClineRun {
                    outcome: CallOutcome {
                        error: Some(thrown.to_string()),
                        stage: Some(stages::failure_stage(thrown)),
                        ..CallOutcome::default()
                    },
                    model_text: None,
                };
            }
        };
        let mut parsed = Parsed::default();
        let mut disk = disk::Disk::new(call.fs);
        let result = execute(text, call.cwd, call.fs, &mut disk, &mut parsed);
        let edits = parsed.sections.iter().map(|s| s.edit.clone()).collect();
        let writes = disk.writes();
        match result {
            Ok(listed) => {
                let mut outcome = CallOutcome {
                    ok: true,
                    stage: Some(stages::call_stage(&parsed.sections, parsed.header_trims)),
                    writes,
                    edits,
                    ..CallOutcome::default()
                };
                let mut lines = vec![SUCCESS.to_string()];
                lines.extend(listed);
                if parsed.fuzz > 0 {
                    lines.push(format!(
                        "Note: Patch applied with fuzz factor {}",
                        parsed.fuzz
                    ));
                }
                let message = lines.join("\n");
                let units: Vec<u16> = message.encode_utf16().collect();
                outcome.message = Some(message);
                outcome.patch_doubts = Some(crate::dialect::patch_family::doubts(
                    &crate::dialect::patch_family::CLINE,
                    text,
                    call,
                    &outcome,
                ));
                ClineRun {
                    model_text: Some(format!(
                        "{{\"query\":\"apply_patch\",\"result\":{},\"success\":true}}",
                        js::json_string(&units)
                    )),
                    outcome,
                }
            }
            Err(Stop::Hang) => ClineRun {
                outcome: CallOutcome {
                    stage: Some("hang".into()),
                    edits,
                    hangs: true,
                    ..CallOutcome::default()
                },
                model_text: None,
            },
            Err(Stop::Error(message)) => {
                let mut units: Vec<u16> = FAILED.encode_utf16().collect();
                units.extend(message);
                let error = String::from_utf16_lossy(&units);
                ClineRun {
                    model_text: Some(format!(
                        "{{\"query\":\"apply_patch\",\"result\":\"\",\"error\":{},\"success\":false}}",
                        js::json_string(&units)
                    )),
                    outcome: CallOutcome {
                        stage: Some(stages::failure_stage(&error)),
                        error: Some(error),
                        writes,
                        edits,
                        ..CallOutcome::default()
                    },
                }
            }
        }
    }
}

/// Cline's executor: normalize, load, parse (matching every section), fail
/// on any unmatched section, compute every new content, then write in
/// `Object.entries` order. Returns the lines of the success message.
fn execute(
    text: &str,
    cwd: &str,
    fs: &dyn PatchFs,
    disk: &mut disk::Disk,
    parsed: &mut Parsed,
) -> Result<Vec<String>, Stop> {
    let lines = input::patch_lines(text)?;
    let (loaded, eols) = disk::load(&lines, cwd, fs)?;
    parser::parse(&lines, &loaded, parsed)?;
    if !parsed.warnings.is_empty() {
        return Err(Stop::Error(warnings_text(&parsed.warnings)));
    }
    // `patchToChanges`: every new content before any write.
    let mut changes: Vec<(String, Action, String)> = Vec::new();
    for (path, action) in js::entries_order(parsed.actions.clone()) {
        let content = match &action {
            Action::Update { chunks, .. } => {
                let old = loaded.contents.get(&path).map_or("", String::as_str);
                let new = apply_chunks(old, chunks, &path)?;
                let eol = eols.get(&path).copied().unwrap_or("\n");
                split_lines_js(&new).join(eol)
            }
            Action::Add { new_file } => new_file.clone(),
            Action::Delete => String::new(),
        };
        changes.push((path, action, content));
    }
    // `applyChanges`: sequential, not atomic.
    let mut listed = Vec::new();
    for (path, action, content) in changes {
        let target = disk::resolve(cwd, &path)?;
        match action {
            Action::Delete => {
                disk.remove(&target)?;
                listed.push(format!("{path}: [deleted]"));
            }
            Action::Add { .. } => {
                disk.make_parent(cwd, &target)?;
                disk.write(&target, &content)?;
                listed.push(path);
            }
            Action::Update { move_path, .. } if !move_path.is_empty() => {
                let destination = disk::resolve(cwd, &move_path)?;
                disk.make_parent(cwd, &destination)?;
                disk.write(&destination, &content)?;
                disk.remove(&target)?;
                listed.push(format!("{path} -> {move_path}"));
            }
            Action::Update { .. } => {
                disk.write(&target, &content)?;
                listed.push(path);
            }
        }
    }
    Ok(listed)
}

/// `text.split(/\r\n|\n/)`: a `\r` goes only with the `\n` after it (a
/// lone CR at the very end stays).
fn split_lines_js(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    let last = lines.len() - 1;
    for line in &mut lines[..last] {
        *line = line.strip_suffix('\r').unwrap_or(line);
    }
    lines
}

/// Cline's `applyChunks`: each block replaces `del_lines.len()` file lines
/// at its index by its added lines, the file's own lines deleted whatever
/// the `-` lines said.
fn apply_chunks(content: &str, chunks: &[Chunk], path: &str) -> Result<String, String> {
    if chunks.is_empty() {
        return Ok(content.to_string());
    }
    let lines: Vec<&str> = content.split('\n').collect();
    let len = lines.len() as i64;
    let mut out: Vec<&str> = Vec::new();
    let mut at: i64 = 0;
    for chunk in chunks {
        if chunk.orig_index > len {
            return Err(format!(
                "{path}: chunk.origIndex {} > lines.length {len}",
                chunk.orig_index
            ));
        }
        if at > chunk.orig_index {
            return Err(format!(
                "{path}: currentIndex {at} > chunk.origIndex {}",
                chunk.orig_index
            ));
        }
        let (from, to) = js::slice_range(lines.len(), at, chunk.orig_index);
        out.extend(&lines[from..to]);
        out.extend(chunk.ins_lines.iter().map(String::as_str));
        at = chunk.orig_index + chunk.del_lines.len() as i64;
    }
    let (from, to) = js::slice_range(lines.len(), at, len);
    out.extend(&lines[from..to]);
    Ok(out.join("\n"))
}

/// Cline's `formatWarnings`: the count, then per section its path, hunk
/// number (change blocks before it in the file, plus one), best
/// similarity and context (cut at 200 UTF-16 units).
fn warnings_text(warnings: &[Warning]) -> Vec<u16> {
    let count = warnings.len();
    let plural = if count == 1 { "" } else { "s" };
    let mut text: Vec<u16> = format!(
        "Patch could not be applied because {count} hunk{plural} did not match the current file content."
    )
    .encode_utf16()
    .collect();
    for warning in warnings {
        let line = format!(
            "\n{}: hunk {}: Could not find matching context (similarity: {}). Chunk skipped.",
            warning.path,
            warning.chunk_index + 1,
            js::to_fixed_2(warning.similarity)
        );
        text.extend(line.encode_utf16());
        if !warning.context.is_empty() {
            text.extend("\nContext:\n".encode_utf16());
            if warning.context.len() > 200 {
                text.extend_from_slice(&warning.context[..200]);
                text.extend("...".encode_utf16());
            } else {
                text.extend_from_slice(&warning.context);
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::apply_patch::fs::MemoryFs;
    use crate::dialect::call::FileWrite;
    use serde_json::json;

    const CWD: &str = "/home/user/project";

    fn run(files: &[(&str, &str)], patch: &[&str]) -> ClineRun {
        run_input(files, &json!({ "input": patch.join("\n") }))
    }

    fn run_input(files: &[(&str, &str)], input: &serde_json::Value) -> ClineRun {
        let fs = MemoryFs::new(files.iter().map(|(p, c)| (p.to_string(), c.to_string())));
        let call = ToolCall {
            input,
            cwd: CWD,
            fs: &fs,
        };
        ClineApplyPatch.run_with_text(&call)
    }

    fn written(run: &ClineRun, path: &str) -> Option<String> {
        let write = run.outcome.writes.iter().find(|w| w.path == path);
        write.and_then(|w| w.content.clone())
    }

    fn error(run: &ClineRun) -> &str {
        run.outcome.error.as_deref().unwrap_or("")
    }

    // The cases of Cline's own apply-patch.test.ts.

    #[test]
    fn applies_a_patch_without_sentinels() {
        let page = "export default function Page() {\n\treturn (\n\t\t<div>\n\t\t\t<b/>\n\t\t</div>\n\t);\n}";
        let result = run(
            &[("page.tsx", page)],
            &[
                "*** Update File: page.tsx",
                "@@",
                " export default function Page() {",
                " \treturn (",
                " \t\t<div>",
                " \t\t\t<b/>",
                "+\t\t\t<i/>",
                " \t\t</div>",
                " \t);",
                " }",
            ],
        );
        assert!(written(&result, "page.tsx").is_some_and(|c| c.contains("<i/>")));
        assert_eq!(
            result.outcome.message.as_deref(),
            Some("Successfully applied patch to the following files:\npage.tsx")
        );
        assert_eq!(result.outcome.stage.as_deref(), Some("exact"));
    }

    /// A patch over files, and what it writes to one of them.
    struct Writes {
        case: &'static str,
        files: &'static [(&'static str, &'static str)],
        patch: &'static [&'static str],
        path: &'static str,
        want: &'static str,
    }

    #[test]
    fn patches_write_what_cline_writes() {
        let cases = [
            Writes {
                // An added file gets no final newline.
                case: "accepts the legacy shell wrapper",
                files: &[],
                patch: &[
                    "%%bash",
                    "apply_patch <<\"EOF\"",
                    "*** Begin Patch",
                    "*** Add File: note.txt",
                    "+hello",
                    "*** End Patch",
                    "EOF",
                ],
                path: "note.txt",
                want: "hello",
            },
            Writes {
                case: "keeps patch lines that begin with wrapper tokens",
                files: &[("note.txt", "alpha\nEOF literal\n``` fence\nomega")],
                patch: &[
                    "*** Update File: note.txt",
                    "@@",
                    " alpha",
                    " EOF literal",
                    " ``` fence",
                    "+tail",
                    " omega",
                ],
                path: "note.txt",
                want: "alpha\nEOF literal\n``` fence\ntail\nomega",
            },
            Writes {
                case: "accepts an end sentinel with trailing whitespace",
                files: &[],
                patch: &[
                    "*** Begin Patch",
                    "*** Add File: note.txt",
                    "+hello",
                    "*** End Patch ",
                ],
                path: "note.txt",
                want: "hello",
            },
            Writes {
                case: "updates an LF file without CRLF",
                files: &[("lf.txt", "one\ntwo\nthree")],
                patch: &[
                    "*** Update File: lf.txt",
                    "@@",
                    " one",
                    "-two",
                    "+TWO",
                    " three",
                ],
                path: "lf.txt",
                want: "one\nTWO\nthree",
            },
        ];
        for Writes {
            case,
            files,
            patch,
            path,
            want,
        } in cases
        {
            let result = run(files, patch);
            assert_eq!(written(&result, path).as_deref(), Some(want), "{case}");
        }
    }

    #[test]
    fn keeps_crlf_when_updating_or_moving_a_crlf_file() {
        let result = run(
            &[("note.txt", "alpha\r\nbeta\r\ngamma")],
            &[
                "*** Update File: note.txt",
                "@@",
                " alpha",
                "-beta",
                "+BETA",
                "+inserted",
                " gamma",
            ],
        );
        assert_eq!(
            written(&result, "note.txt").as_deref(),
            Some("alpha\r\nBETA\r\ninserted\r\ngamma")
        );
        let moved = run(
            &[("old.txt", "one\r\ntwo")],
            &[
                "*** Update File: old.txt",
                "*** Move to: new.txt",
                "@@",
                " one",
                "-two",
                "+TWO",
            ],
        );
        assert_eq!(
            moved.outcome.writes,
            [
                FileWrite {
                    path: "new.txt".into(),
                    content: Some("one\r\nTWO".into())
                },
                FileWrite {
                    path: "old.txt".into(),
                    content: None
                },
            ]
        );
        assert_eq!(
            moved.outcome.message.as_deref(),
            Some("Successfully applied patch to the following files:\nold.txt -> new.txt")
        );
    }

    /// All a patch did, as the table below compares it: its writes (path
    /// and content, `None` for a deletion), the stage of each edit and
    /// whether it matched loosely, the run's stage, and its texts.
    #[derive(Debug, PartialEq)]
    struct Did<'a> {
        writes: Vec<(&'a str, Option<&'a str>)>,
        edits: Vec<(&'a str, bool)>,
        stage: Option<&'a str>,
        message: Option<&'a str>,
        error: Option<&'a str>,
    }

    fn did(run: &ClineRun) -> Did<'_> {
        let outcome = &run.outcome;
        Did {
            writes: (outcome.writes.iter())
                .map(|w| (w.path.as_str(), w.content.as_deref()))
                .collect(),
            edits: (outcome.edits.iter())
                .map(|e| (e.stage.as_str(), e.loose))
                .collect(),
            stage: outcome.stage.as_deref(),
            message: outcome.message.as_deref(),
            error: outcome.error.as_deref(),
        }
    }

    /// A patch over files, and all it did.
    struct Does {
        case: &'static str,
        files: &'static [(&'static str, &'static str)],
        patch: &'static [&'static str],
        want: Did<'static>,
    }

    #[test]
    fn patches_do_what_cline_does() {
        let cases = [
            // Refusals and failures.
            Does {
                case: "refuses to add over an existing file",
                files: &[("note.txt", "important data")],
                patch: &[
                    "*** Begin Patch",
                    "*** Add File: note.txt",
                    "+overwritten",
                    "*** End Patch",
                ],
                want: Did {
                    writes: vec![],
                    edits: vec![],
                    stage: Some("fail:add_exists"),
                    message: None,
                    error: Some(
                        "apply_patch failed: Add File Error: File already exists: note.txt",
                    ),
                },
            },
            Does {
                case: "rejects incomplete sentinels",
                files: &[],
                patch: &["*** Begin Patch", "*** Add File: note.txt", "+hello"],
                want: Did {
                    writes: vec![],
                    edits: vec![],
                    stage: Some("fail:incomplete_sentinels"),
                    message: None,
                    error: Some(
                        "apply_patch failed: Invalid patch text - incomplete sentinels. Try \
                         breaking it into smaller patches.",
                    ),
                },
            },
            Does {
                case: "rejects a patch whose context is missing",
                files: &[("note.txt", "alpha\nbeta\ngamma")],
                patch: &[
                    "*** Update File: note.txt",
                    "@@",
                    " unrelated heading",
                    " missing middle",
                    "+replacement",
                    " absent footer",
                ],
                want: Did {
                    writes: vec![],
                    edits: vec![("not_found", false)],
                    stage: Some("fail:hunk_not_found"),
                    message: None,
                    error: Some(
                        "apply_patch failed: Patch could not be applied because 1 hunk did not \
                         match the current file content.\nnote.txt: hunk 1: Could not find \
                         matching context (similarity: 0.15). Chunk skipped.\nContext:\nunrelated \
                         heading\nmissing middle\nabsent footer",
                    ),
                },
            },
            Does {
                case: "hunk numbers count change blocks",
                files: &[("a", "1\n2\n3\n")],
                patch: &[
                    "*** Update File: a",
                    "@@",
                    "-1",
                    "+one",
                    " 2",
                    "-3",
                    "+three",
                    "@@",
                    "-zzzzzzzzzz",
                    "+q",
                ],
                want: Did {
                    writes: vec![],
                    edits: vec![("exact", false), ("not_found", false)],
                    stage: Some("fail:hunk_not_found"),
                    message: None,
                    error: Some(
                        "apply_patch failed: Patch could not be applied because 1 hunk did not \
                         match the current file content.\na: hunk 3: Could not find matching context (similarity: 0.00). Chunk \
                         skipped.\nContext:\nzzzzzzzzzz",
                    ),
                },
            },
            Does {
                // The end-of-file section is found before the first
                // section's block.
                case: "blocks out of order fail before any write",
                files: &[("a", "a\nb\nc\nd")],
                patch: &[
                    "*** Update File: a",
                    "@@",
                    "-c",
                    "+C",
                    "@@",
                    " b",
                    "-c",
                    "+CC",
                    " d",
                    "*** End of File",
                ],
                want: Did {
                    writes: vec![],
                    edits: vec![("exact", false), ("eof+exact", false)],
                    stage: Some("fail:chunk_order"),
                    message: None,
                    error: Some("apply_patch failed: a: currentIndex 3 > chunk.origIndex 2"),
                },
            },
            Does {
                case: "a failed write leaves earlier files written",
                files: &[("a", "x\n"), ("b", "y\n")],
                patch: &["*** Update File: a", "-x", "+X", "*** Add File: b/c", "+z"],
                want: Did {
                    writes: vec![("a", Some("X\n"))],
                    edits: vec![("exact", false)],
                    stage: Some("fail:fs"),
                    message: None,
                    error: Some(
                        "apply_patch failed: EEXIST: file already exists, mkdir \
                         '/home/user/project/b'",
                    ),
                },
            },
            // Each stage.
            Does {
                case: "canonical, trim_end and trim stages report their fuzz",
                files: &[("f.py", "a = \u{201C}x\u{201D}\n  b = 1  \n\tc = 2\n")],
                patch: &[
                    "*** Update File: f.py",
                    "@@",
                    " a = \"x\"",
                    "@@",
                    "-  b = 1",
                    "+  b = 10",
                    "@@",
                    "-c = 2",
                    "+c = 20",
                ],
                want: Did {
                    writes: vec![("f.py", Some("a = \u{201C}x\u{201D}\n  b = 10\nc = 20\n"))],
                    edits: vec![("canonical", true), ("trim_end", true), ("trim", true)],
                    stage: Some("trim"),
                    message: Some(
                        "Successfully applied patch to the following files:\nf.py\nNote: Patch \
                         applied with fuzz factor 101",
                    ),
                    error: None,
                },
            },
            Does {
                case: "an end-of-file section in a file with a final newline falls back",
                files: &[("f", "a\nb\n")],
                patch: &[
                    "*** Update File: f",
                    "@@",
                    " a",
                    "-b",
                    "+B",
                    "*** End of File",
                ],
                want: Did {
                    writes: vec![("f", Some("a\nB\n"))],
                    edits: vec![("eof_fallback+exact", false)],
                    stage: Some("eof_fallback+exact"),
                    message: Some(
                        "Successfully applied patch to the following files:\nf\nNote: Patch \
                         applied with fuzz factor 10000",
                    ),
                    error: None,
                },
            },
            Does {
                case: "a pure insertion goes to the cursor",
                files: &[("f", "a\nb\n")],
                patch: &["*** Update File: f", "+top"],
                want: Did {
                    writes: vec![("f", Some("top\na\nb\n"))],
                    edits: vec![("no_context", false)],
                    stage: Some("no_context"),
                    message: Some("Successfully applied patch to the following files:\nf"),
                    error: None,
                },
            },
        ];
        for Does {
            case,
            files,
            patch,
            want,
        } in cases
        {
            assert_eq!(did(&run(files, patch)), want, "{case}");
        }
    }

    #[test]
    fn similarity_takes_the_first_similar_window() {
        // The author meant `total = 2` (line 3); line 2 is the first window
        // at least 0.66 similar to the misremembered context.
        let file = "start\ntotal = 1\ntotal = 2\nend\n";
        let result = run(
            &[("f.py", file)],
            &["*** Update File: f.py", "-total = 3", "+total = 4"],
        );
        assert_eq!(
            written(&result, "f.py").as_deref(),
            Some("start\ntotal = 4\ntotal = 2\nend\n")
        );
        let edit = &result.outcome.edits[0];
        assert_eq!(
            (edit.stage.as_str(), edit.loose, edit.lines),
            ("similarity", true, Some((2, 2)))
        );
        assert_eq!(
            result.model_text.as_deref(),
            Some(
                "{\"query\":\"apply_patch\",\"result\":\"Successfully applied patch to the following \
                 files:\\nf.py\\nNote: Patch applied with fuzz factor 1000\",\"success\":true}"
            )
        );
    }

    // Each error text.

    #[test]
    fn validation_errors_are_zods() {
        let empty = run_input(&[], &json!({"input": ""}));
        assert_eq!(error(&empty), input::TOO_SMALL);
        assert_eq!(empty.model_text, None);
        let other = run_input(&[], &json!({"patch": "x"}));
        assert_eq!(error(&other), "✖ Invalid input");
        assert_eq!(other.outcome.stage.as_deref(), Some("fail:validation"));
        let bare = run_input(&[("a", "x\n")], &json!("*** Update File: a\n-x\n+y"));
        assert_eq!(written(&bare, "a").as_deref(), Some("y\n"));
    }

    #[test]
    fn parse_errors_have_cline_texts() {
        let files = [("a", "x\ny\n")];
        let cases: [(&[&str], &str); 7] = [
            (
                &["*** Update: a"],
                "Unknown line while parsing: *** Update: a",
            ),
            (&["*** Update File: a", "-x", "", " y"], "Invalid Line:\n"),
            (
                &["*** Update File: a", "-x", "*** Moved: b"],
                "Invalid line: *** Moved: b",
            ),
            (
                &["*** Add File: n", "text"],
                "Invalid Add File line (missing '+'): text",
            ),
            (
                &["*** Delete File: a", "*** Delete File: a"],
                "Duplicate delete for file: a",
            ),
            (&["*** Update File: gone", "-x"], "File not found: gone"),
            (
                &["*** Delete File: ../a"],
                "Path must stay within cwd: ../a",
            ),
        ];
        for (patch, text) in cases {
            let result = run(&files, patch);
            assert_eq!(
                error(&result),
                format!("apply_patch failed: {text}"),
                "{patch:?}"
            );
            assert!(result.outcome.writes.is_empty(), "{patch:?}");
        }
    }

    #[test]
    fn an_empty_line_at_the_top_of_a_file_hangs_cline() {
        let result = run(&[("a", "x\n")], &["*** Update File: a", "@@", "", " x"]);
        assert!(result.outcome.hangs);
        assert_eq!(result.outcome.stage.as_deref(), Some("hang"));
        assert!(
            !result.outcome.ok && result.outcome.error.is_none() && result.model_text.is_none()
        );
        assert!(result.outcome.writes.is_empty());
    }

    #[test]
    fn a_cut_context_may_end_in_half_a_surrogate_pair() {
        let long = format!("-{}\u{1F600}", "a".repeat(199));
        let result = run(&[("a", "x\n")], &["*** Update File: a", &long]);
        let model_text = result.model_text.clone().unwrap_or_default();
        assert!(model_text.ends_with(&format!(
            "{}\\ud83d...\",\"success\":false}}",
            "a".repeat(199)
        )));
        assert!(error(&result).ends_with(&format!("{}\u{FFFD}...", "a".repeat(199))));
    }
}
