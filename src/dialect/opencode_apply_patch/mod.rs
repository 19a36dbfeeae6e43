//! OpenCode 1.18.33's own `apply_patch` tool (`{patchText}`, offered to
//! `gpt-*` models instead of `edit`), ported from its shipped code
//! (apply_patch.ts, MIT): its lenient parser, its four-pass
//! `seekSequence`, and the tool around them: every section verified
//! against the files as they are before anything is written, then the
//! writes in patch order.

pub mod parse;
pub mod seek;

use serde_json::Value;

use super::call::{
    CallMatcher, CallOutcome, EditMatch, Entry, FileWrite, Header, Searched, ToolCall,
    display_path, fs_path, normalize, relative_path,
};
use super::opencode_edit::js::{join_bom, split_bom, trim};
use super::opencode_edit::schema;
use parse::{Hunk, Parsed, parse_patch};
use seek::{Pass, SeekTrace, derive};

/// OpenCode's `apply_patch` tool, its worktree (where the success text's
/// paths are relative to) being the project root `cwd`.
pub struct OpencodeApplyPatch;

/// The texts the model reads.
pub mod texts {
    /// An empty `patchText`.
    pub const PATCH_TEXT_REQUIRED: &str = "patchText is required";
    /// Only the Begin and End lines.
    pub const EMPTY_PATCH: &str = "patch rejected: empty patch";
    /// No file section the parser knows.
    pub const NO_HUNKS: &str = "apply_patch verification failed: no hunks found";
    /// The success text's first line; one `A`/`M`/`D` line per section follows.
    pub const SUCCESS_HEADER: &str = "Success. Updated the following files:";

    /// A verification failure.
    pub fn verification_failed(reason: &str) -> String {
        format!("apply_patch verification failed: {reason}")
    }

    /// An update of something that is no file.
    pub fn cannot_read_update(path: &str) -> String {
        verification_failed(&format!("Failed to read file to update: {path}"))
    }

    /// A file system error's message as Effect's platform layer words it
    /// (`<reason>: FileSystem.<method> (<path>)`, the reason from the
    /// errno: ENOENT `NotFound`, EISDIR and ENOTDIR `BadResource`). Read
    /// from the shipped code's error classes, not seen in a run.
    pub fn fs_error(reason: &str, method: &str, path: &str) -> String {
        format!("{reason}: FileSystem.{method} ({path})")
    }
}

impl CallMatcher for OpencodeApplyPatch {
    fn takes_first_of_several(&self) -> bool {
        true
    }

    fn run(&self, call: &ToolCall) -> CallOutcome {
        self.run_in(call, call.cwd)
    }
}

/// A verified operation, ready to write.
enum Change {
    Add {
        path: String,
        text: String,
        bom: bool,
    },
    Update {
        path: String,
        text: String,
        bom: bool,
        move_to: Option<String>,
    },
    Delete {
        path: String,
    },
}

impl OpencodeApplyPatch {
    /// The tool with OpenCode's worktree at `worktree` (absolute): the
    /// success text names files relative to it (`/` outside a git
    /// repository, so `M home/user/project/a.py`).
    pub fn run_in(&self, call: &ToolCall, worktree: &str) -> CallOutcome {
        let issue = match call.input.as_object().map(|o| o.get("patchText")) {
            Some(Some(Value::String(text))) => Ok(text.as_str()),
            Some(Some(other)) => Err(schema::wrong_type("string", other, Some("patchText"))),
            Some(None) => Err(schema::missing_key("patchText")),
            None => Err(schema::wrong_type("object", call.input, None)),
        };
        let patch_text = match issue {
            Ok(text) => text,
            Err(issue) => {
                let error = schema::invalid_arguments("apply_patch", &issue);
                return failure(error, None, Vec::new());
            }
        };
        if patch_text.is_empty() {
            return failure(texts::PATCH_TEXT_REQUIRED.into(), None, Vec::new());
        }
        let parsed = match parse_patch(patch_text) {
            Ok(parsed) => parsed,
            Err(error) => {
                return failure(
                    texts::verification_failed(&format!("Error: {error}")),
                    None,
                    Vec::new(),
                );
            }
        };
        let hunks = &parsed.hunks;
        if hunks.is_empty() {
            let unified = patch_text.replace("\r\n", "\n").replace('\r', "\n");
            let text = if trim(&unified) == "*** Begin Patch\n*** End Patch" {
                texts::EMPTY_PATCH
            } else {
                texts::NO_HUNKS
            };
            return failure(text.into(), None, Vec::new());
        }
        let resolve = |path: &str| display_path(call.cwd, &normalize(path));
        let mut trace = SeekTrace::new();
        let mut changes = Vec::new();
        let mut edits = Vec::new();
        for hunk in hunks {
            let path = resolve(hunk.path());
            match hunk {
                Hunk::Add { contents, .. } => {
                    let contents = if contents.is_empty() || contents.ends_with('\n') {
                        contents.clone()
                    } else {
                        format!("{contents}\n")
                    };
                    let (bom, text) = split_bom(&contents);
                    edits.push(EditMatch {
                        stage: "none".into(),
                        written: Some(contents.clone()),
                        ..EditMatch::default()
                    });
                    changes.push(Change::Add {
                        path,
                        text: text.to_string(),
                        bom,
                    });
                }
                Hunk::Update {
                    move_path, chunks, ..
                } => {
                    let before = match call.fs.read(&fs_path(call.cwd, &path)) {
                        Entry::File(text) => text,
                        Entry::Missing | Entry::BelowFile | Entry::Directory => {
                            let error = texts::cannot_read_update(&path);
                            return failure(error, stage_of(&trace), edits);
                        }
                        // OpenCode decodes any bytes; srview has no text.
                        Entry::Unreadable(reason) => {
                            let error = texts::verification_failed(&format!("{path}: {reason}"));
                            return failure(error, stage_of(&trace), edits);
                        }
                    };
                    let (bom, text) = split_bom(&before);
                    let derived = match derive(&path, chunks, &join_bom(text, bom), &mut trace) {
                        Ok(derived) => derived,
                        Err(error) => {
                            edits.push(EditMatch {
                                stage: "failed".into(),
                                ..EditMatch::default()
                            });
                            let error = texts::verification_failed(&format!("Error: {error}"));
                            return failure(error, stage_of(&trace), edits);
                        }
                    };
                    let old_lines: Vec<&str> = split_bom(text).1.split('\n').collect();
                    for placed in &derived.placed {
                        let found = old_lines
                            .get(placed.at..placed.at + placed.replaced)
                            .map(|l| l.join("\n"));
                        edits.push(EditMatch {
                            path: None,
                            named: None,
                            stage: placed.pass.map_or("none", Pass::name).into(),
                            loose: placed.pass.is_some_and(|p| p != Pass::Exact),
                            lines: (placed.replaced > 0)
                                .then(|| (placed.at + 1, placed.at + placed.replaced)),
                            found,
                            written: Some(placed.new_lines.join("\n")),
                            searched: Some(Box::new(Searched {
                                content: None,
                                from: placed.from,
                                header: placed.header.as_ref().map(|(text, line)| Header {
                                    text: text.clone(),
                                    line: Some(*line),
                                }),
                                at_end: placed.at_end,
                                file: None,
                                sought: None,
                            })),
                            also_replaced: Vec::new(),
                        });
                    }
                    changes.push(Change::Update {
                        path,
                        text: derived.content.clone(),
                        bom: derived.bom,
                        move_to: move_path.as_deref().map(resolve),
                    });
                }
                Hunk::Delete { .. } => {
                    let reason = match call.fs.read(&fs_path(call.cwd, &path)) {
                        Entry::File(_) | Entry::Unreadable(_) => None,
                        Entry::Missing => Some("NotFound"),
                        Entry::Directory | Entry::BelowFile => Some("BadResource"),
                    };
                    if let Some(reason) = reason {
                        let error = texts::fs_error(reason, "readFile", &path);
                        return failure(
                            texts::verification_failed(&error),
                            stage_of(&trace),
                            edits,
                        );
                    }
                    edits.push(EditMatch {
                        stage: "none".into(),
                        ..EditMatch::default()
                    });
                    changes.push(Change::Delete { path });
                }
            }
        }
        let mut outcome = write_all(call, worktree, &changes, stage_of(&trace), edits);
        if outcome.ok {
            outcome.dropped = dropped_lines(&parsed);
            outcome.patch_doubts = Some(crate::dialect::patch_family::doubts(
                &crate::dialect::patch_family::OPENCODE,
                patch_text,
                call,
                &outcome,
            ));
        }
        outcome
    }
}

/// One sentence per chunk (or added file) of `parsed` in which OpenCode's
/// parser skipped lines between lines it reads ([`Parsed::skipped`]): the
/// patch lines it drops, and what the file gets instead; the file named as
/// the patch names it.
pub fn dropped_lines(parsed: &Parsed) -> Vec<String> {
    let mut out: Vec<String> = parsed
        .headless
        .iter()
        .filter_map(|h| Some((h, parsed.hunks.get(h.hunk)?.path())))
        .map(|(h, path)| {
            let change = [(h.removed, "removed"), (h.added, "added")]
                .iter()
                .filter(|(n, _)| *n > 0)
                .map(|&(n, what)| format!("{} {what}", crate::words::count(n, "line")))
                .collect::<Vec<_>>()
                .join(", ");
            format!(
                "OpenCode ignores {} of the update of {path} ({change}): no `@@` line stands \
                 above them, and its parser reads a hunk only from an `@@` line, so it writes \
                 none of their change and still answers Success: start the hunk with a line \
                 `@@`",
                crate::words::line_range("patch line", h.lines.0, h.lines.1),
            )
        })
        .collect();
    let mut rest = &parsed.skipped[..];
    while let Some(first) = rest.first() {
        let same = rest
            .iter()
            .take_while(|s| (s.hunk, s.chunk) == (first.hunk, first.chunk))
            .count();
        let (group, after) = rest.split_at(same);
        rest = after;
        let Some(hunk) = parsed.hunks.get(first.hunk) else {
            continue;
        };
        let path = hunk.path();
        let described: Vec<String> = group
            .iter()
            .map(|s| {
                let what = if s.text.trim_end_matches('\r').is_empty() {
                    "an empty line without a prefix".to_string()
                } else {
                    format!(
                        "`{}`, a line without a prefix",
                        s.text.trim_end_matches('\r')
                    )
                };
                format!("{} ({what})", s.line)
            })
            .collect();
        let lines = match &described[..] {
            [one] => format!("patch line {one}"),
            [init @ .., last] => format!("patch lines {} and {last}", init.join(", ")),
            [] => continue,
        };
        let (written, place, rule) = match hunk {
            Hunk::Add { contents, .. } => (
                contents.split('\n').count(),
                format!("of the new file {path}"),
                "send every line of an added file with `+` (an empty line as `+` alone)",
            ),
            Hunk::Update { chunks, .. } => (
                chunks.get(first.chunk).map_or(0, |c| c.new_lines.len()),
                format!("in hunk #{} of {path}", first.chunk + 1),
                "send every line of a hunk with its prefix: ` ` (a space) for a line kept, \
                 `-` for one removed, `+` for one added (an empty added line as `+` alone)",
            ),
            Hunk::Delete { .. } => continue,
        };
        out.push(format!(
            "OpenCode drops {lines} {place}: its parser skips, without a word, a line that \
             starts with none of ` `, `-`, `+`, so it writes {} where the patch has {}: {rule}",
            crate::words::count(written, "line"),
            written + group.len()
        ));
    }
    out
}

/// The writes in patch order, over the files as each earlier write left
/// them, and the success text; a write that fails stops there (the
/// earlier ones stay written).
fn write_all(
    call: &ToolCall,
    worktree: &str,
    changes: &[Change],
    stage: Option<String>,
    edits: Vec<EditMatch>,
) -> CallOutcome {
    let mut files = Overlay {
        call,
        writes: Vec::new(),
    };
    let mut summary = vec![texts::SUCCESS_HEADER.to_string()];
    for change in changes {
        let (letter, shown) = match change {
            Change::Add { path, .. } => ('A', path),
            Change::Update { path, move_to, .. } => ('M', move_to.as_ref().unwrap_or(path)),
            Change::Delete { path } => ('D', path),
        };
        summary.push(format!("{letter} {}", relative_path(worktree, shown)));
        let step = match change {
            Change::Add { path, text, bom }
            | Change::Update {
                path,
                text,
                bom,
                move_to: None,
            } => files.write(path, join_bom(text, *bom)),
            Change::Update {
                path,
                text,
                bom,
                move_to: Some(target),
            } => files
                .write(target, join_bom(text, *bom))
                .and_then(|()| files.remove(path)),
            Change::Delete { path } => files.remove(path),
        };
        if let Err(error) = step {
            let writes = files.writes;
            return CallOutcome {
                writes,
                ..failure(error, stage, edits)
            };
        }
    }
    CallOutcome {
        ok: true,
        message: Some(summary.join("\n")),
        stage: Some(stage.unwrap_or_else(|| "none".into())),
        writes: files.writes,
        edits,
        ..CallOutcome::default()
    }
}

/// The files as the writes so far leave them.
struct Overlay<'c, 'a> {
    call: &'c ToolCall<'a>,
    writes: Vec<FileWrite>,
}

impl Overlay<'_, '_> {
    fn entry(&self, at: &str) -> Entry {
        let written = self.writes.iter().find(|w| w.path == at);
        match written {
            Some(FileWrite {
                content: Some(text),
                ..
            }) => Entry::File(text.clone()),
            Some(FileWrite { content: None, .. }) => Entry::Missing,
            None => self.call.fs.read(at),
        }
    }

    fn record(&mut self, at: String, content: Option<String>) {
        match self.writes.iter_mut().find(|w| w.path == at) {
            Some(existing) => existing.content = content,
            None => self.writes.push(FileWrite { path: at, content }),
        }
    }

    /// `writeWithDirs`: missing folders are made; a directory or a file
    /// on the way is a `BadResource`.
    fn write(&mut self, path: &str, content: String) -> Result<(), String> {
        let at = fs_path(self.call.cwd, path);
        match self.entry(&at) {
            Entry::Directory | Entry::BelowFile => {
                Err(texts::fs_error("BadResource", "writeFile", path))
            }
            _ => {
                self.record(at, Some(content));
                Ok(())
            }
        }
    }

    fn remove(&mut self, path: &str) -> Result<(), String> {
        let at = fs_path(self.call.cwd, path);
        match self.entry(&at) {
            Entry::Missing | Entry::BelowFile => Err(texts::fs_error("NotFound", "remove", path)),
            _ => {
                self.record(at, None);
                Ok(())
            }
        }
    }
}

/// The loosest pass that found anything so far.
fn stage_of(trace: &SeekTrace) -> Option<String> {
    trace.iter().flatten().max().map(|p| p.name().to_string())
}

fn failure(error: String, stage: Option<String>, edits: Vec<EditMatch>) -> CallOutcome {
    CallOutcome::failed(error, stage, edits)
}

#[cfg(test)]
mod tests;
