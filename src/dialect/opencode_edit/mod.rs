//! OpenCode 1.18.33's `edit` tool (`{filePath, oldString, newString,
//! replaceAll}`), ported from its shipped code (edit.ts, MIT): the tool's
//! `execute()` (paths, empty `oldString`, BOM, line endings) and
//! `replace()` with its nine replacers and the disproportion guard.

pub mod js;
mod levenshtein;
pub mod replacers;
pub mod schema;

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::ControlFlow;

use serde_json::Value;

use super::call::{
    CallMatcher, CallOutcome, EditMatch, Entry, FileWrite, StringEdit, ToolCall, fs_path,
};
use crate::dialect::apply_patch::SharedText;
use js::{join_bom, replace_all, split_bom, trim, utf16_len};
use replacers::{FileLines, Stage};

/// OpenCode's `edit` tool.
pub struct OpencodeEdit;

/// The texts the model reads.
pub mod texts {
    /// An empty `filePath`.
    pub const FILE_PATH_REQUIRED: &str = "filePath is required";
    /// `oldString` equal to `newString` (as given, or once both take the
    /// file's line ending).
    pub const IDENTICAL: &str = "No changes to apply: oldString and newString are identical.";
    /// An empty `oldString` where something exists.
    pub const EMPTY_OLD_STRING: &str = "oldString cannot be empty when editing an existing file. Provide the exact text to replace, or use write for an intentional full-file replacement.";
    /// No replacer found anything.
    pub const NOT_FOUND: &str = "Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.";
    /// Spans found, none of them once.
    pub const MULTIPLE: &str = "Found multiple matches for oldString. Provide more surrounding context to make the match unique.";
    /// The disproportion guard's refusal.
    pub const DISPROPORTIONATE: &str = "Refusing replacement because the matched span is much larger than oldString. Re-read the file and provide the full exact oldString for the intended replacement.";
    /// Success.
    pub const APPLIED: &str = "Edit applied successfully.";
    /// The stage name of a new file written from an empty `oldString`.
    pub const CREATE_FILE: &str = "CreateFile";

    /// `File <path> not found`.
    pub fn file_not_found(path: &str) -> String {
        format!("File {path} not found")
    }

    /// `Path is a directory, not a file: <path>`.
    pub fn is_directory(path: &str) -> String {
        format!("Path is a directory, not a file: {path}")
    }
}

/// The input checked against the tool's schema, in its order (`filePath`,
/// `oldString`, `newString` strings, `replaceAll` an optional boolean;
/// other keys ignored): the first issue, as [`schema`] words it.
fn parse_input(input: &Value) -> Result<StringEdit<'_>, String> {
    let Some(object) = input.as_object() else {
        return Err(schema::wrong_type("object", input, None));
    };
    let string = |key: &str| match object.get(key) {
        Some(Value::String(s)) => Ok(s.as_str()),
        Some(other) => Err(schema::wrong_type("string", other, Some(key))),
        None => Err(schema::missing_key(key)),
    };
    let file_path = string("filePath")?;
    let old_string = string("oldString")?;
    let new_string = string("newString")?;
    let replace_all = match object.get("replaceAll") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(schema::wrong_type(
                "boolean | undefined",
                other,
                Some("replaceAll"),
            ));
        }
    };
    Ok(StringEdit {
        file_path,
        old_string,
        new_string,
        replace_all,
    })
}

/// Node's `path.posix.join(root, path)` for a relative `path`: joined and
/// normalized (`.`, `..`, repeated `/`), a trailing `/` kept.
fn join_path(root: &str, path: &str) -> String {
    let joined = format!("{root}/{path}");
    let normalized = super::call::normalize(&joined);
    if joined.ends_with('/') && normalized != "/" {
        format!("{normalized}/")
    } else {
        normalized
    }
}

impl CallMatcher for OpencodeEdit {
    fn anchor_places(&self, content: &str, find: &str) -> Vec<(usize, usize)> {
        replacers::anchored_places(content, find)
    }

    fn run(&self, call: &ToolCall) -> CallOutcome {
        let input = match parse_input(call.input) {
            Ok(input) => input,
            Err(issue) => return failure(schema::invalid_arguments("edit", &issue), None),
        };
        if input.file_path.is_empty() {
            return failure(texts::FILE_PATH_REQUIRED.into(), None);
        }
        if input.old_string == input.new_string {
            return failure(texts::IDENTICAL.into(), None);
        }
        let path = if input.file_path.starts_with('/') {
            input.file_path.to_string()
        } else {
            join_path(call.cwd, input.file_path)
        };
        let at = fs_path(call.cwd, &path);
        // Read, not written to: shared with the file system, not copied.
        let entry = call.fs.read_shared(&at);
        if input.old_string.is_empty() {
            // Only what is at the path matters: its content is not read.
            let entry = entry.err().unwrap_or(Entry::File(String::new()));
            return create_file(&path, at, entry, input.new_string);
        }
        let before = match entry {
            // A trailing `/` after a file's name fails `stat` (ENOTDIR).
            Ok(_) | Err(Entry::File(_)) if path.ends_with('/') => {
                return failure(texts::file_not_found(&path), None);
            }
            Ok(text) => text,
            Err(Entry::File(text)) => SharedText::new(text),
            Err(Entry::Missing | Entry::BelowFile) => {
                return failure(texts::file_not_found(&path), None);
            }
            Err(Entry::Directory) => return failure(texts::is_directory(&path), None),
            // OpenCode decodes any bytes (invalid UTF-8 as U+FFFD); srview
            // has no text for them and says why it stops.
            Err(Entry::Unreadable(reason)) => {
                return failure(format!("{path}: {reason}"), None);
            }
        };
        edit_text(&before, &input, at)
    }
}

/// An empty `oldString`: the file is created with `newString` (a BOM in
/// it kept), unless anything exists at the path.
fn create_file(path: &str, at: String, entry: Entry, new_string: &str) -> CallOutcome {
    match entry {
        Entry::File(_) | Entry::Directory | Entry::Unreadable(_) => {
            failure(texts::EMPTY_OLD_STRING.into(), None)
        }
        // Writing below a file fails (ENOTDIR): Effect's platform error,
        // as its shipped error classes word it (not seen in a run).
        Entry::BelowFile => failure(format!("BadResource: FileSystem.writeFile ({path})"), None),
        Entry::Missing => {
            let (bom, text) = split_bom(new_string);
            CallOutcome::created(
                at,
                join_bom(text, bom),
                new_string,
                texts::CREATE_FILE,
                texts::APPLIED.into(),
            )
        }
    }
}

/// `execute()` on an existing file's text: BOM split off, the edit's line
/// endings made the file's, `replace()`, the BOM put back.
fn edit_text(before: &str, input: &StringEdit, at: String) -> CallOutcome {
    let (had_bom, content) = split_bom(before);
    let ending = if content.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let old = convert_endings(input.old_string, ending);
    let new = convert_endings(input.new_string, ending);
    match replace(content, &old, &new, input.replace_all) {
        Ok(replaced) => {
            let (result_bom, _) = split_bom(&replaced.content);
            // Without a BOM the result is written as it is: moved, not
            // copied.
            let written = if had_bom || result_bom {
                join_bom(split_bom(&replaced.content).1, true)
            } else {
                replaced.content
            };
            let first_line = crate::dialect::quick::count_newlines(&content[..replaced.at]) + 1;
            // A span ending in a line break ends on the line it breaks.
            let body = replaced.span.strip_suffix('\n').unwrap_or(&replaced.span);
            let lines = (!replaced.span.is_empty())
                .then(|| (first_line, first_line + body.matches('\n').count()));
            // What replaceAll wrote at the first place: JS's replaceAll
            // expands `$&`, `$$`, ... in the new text.
            let written_there = if input.replace_all {
                js::expanded_at(content, &replaced.span, &new, replaced.at)
            } else {
                new
            };
            let also_replaced = if input.replace_all {
                crate::dialect::call::later_occurrences(content, &replaced.span)
            } else {
                Vec::new()
            };
            CallOutcome {
                ok: true,
                message: Some(texts::APPLIED.into()),
                stage: Some(replaced.stage.name().into()),
                writes: vec![FileWrite {
                    path: at,
                    content: Some(written),
                }],
                edits: vec![EditMatch {
                    path: None,
                    named: None,
                    searched: None,
                    also_replaced: also_replaced.clone(),
                    stage: replaced.stage.name().into(),
                    loose: replaced.stage != Stage::Simple,
                    lines,
                    found: Some(replaced.span),
                    written: Some(written_there),
                }],
                also_replaced,
                ..CallOutcome::default()
            }
        }
        Err(refusal) => {
            let stage = refusal.stage.map(Stage::name);
            failure(refusal.text.into(), stage)
        }
    }
}

/// `Me(Io(text), ending)`: CRLF made LF, then every LF made `ending`.
fn convert_endings(text: &str, ending: &str) -> String {
    let lf = text.replace("\r\n", "\n");
    if ending == "\n" {
        lf
    } else {
        lf.replace('\n', ending)
    }
}

fn failure(error: String, stage: Option<&str>) -> CallOutcome {
    let edit = EditMatch {
        stage: stage.unwrap_or("none").to_string(),
        ..EditMatch::default()
    };
    CallOutcome::failed(error, stage.map(str::to_string), vec![edit])
}

/// What `replace()` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replaced {
    /// The text after the replacement.
    pub content: String,
    /// The replacer whose span was replaced.
    pub stage: Stage,
    /// That span, as found in the file.
    pub span: String,
    /// Its first occurrence's byte offset in the file.
    pub at: usize,
}

/// Why `replace()` refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The model's text.
    pub text: &'static str,
    /// The replacer whose span the disproportion guard refused.
    pub stage: Option<Stage>,
}

/// Whether `str::rfind` finds `span` in `content` elsewhere than at
/// `first`, its first place: exactly when one starts after it (searched
/// forward: `memmem`'s reverse search has no SIMD prefilter, and was the
/// most of an exact edit's matching).
fn occurs_after(content: &str, span: &str, first: usize) -> bool {
    if span.is_empty() {
        return content.len() != first;
    }
    memchr::memmem::find(&content.as_bytes()[first + 1..], span.as_bytes()).is_some()
}

/// OpenCode's `replace(content, oldString, newString, replaceAll)`: each
/// replacer in order, each span it yields: skipped unless in the file;
/// refused if disproportionate; with `replaceAll` replaced everywhere;
/// else replaced if it occurs once, or the next span tried.
pub fn replace(content: &str, old: &str, new: &str, all: bool) -> Result<Replaced, Refusal> {
    let refuse = |text| Err(Refusal { text, stage: None });
    if old == new {
        return refuse(texts::IDENTICAL);
    }
    if old.is_empty() {
        return refuse(texts::EMPTY_OLD_STRING);
    }
    let file = FileLines::new(content);
    let mut found_any = false;
    // Spans already looked up: each was absent or occurs more than once
    // (else `replace()` would have returned), so looking again changes
    // nothing.
    let mut tried: HashSet<String> = HashSet::new();
    let mut result: Option<Result<Replaced, Refusal>> = None;
    for stage in Stage::ALL {
        let mut sink = |span: Cow<str>| {
            if tried.contains(span.as_ref()) {
                return ControlFlow::Continue(());
            }
            // `memmem`: `str::find`'s place, found by SIMD search (the file
            // is searched once per span tried).
            let Some(first) = memchr::memmem::find(content.as_bytes(), span.as_bytes()) else {
                tried.insert(span.into_owned());
                return ControlFlow::Continue(());
            };
            found_any = true;
            if is_disproportionate(&span, old) {
                result = Some(Err(Refusal {
                    text: texts::DISPROPORTIONATE,
                    stage: Some(stage),
                }));
                return ControlFlow::Break(());
            }
            let replaced = if all {
                replace_all(content, &span, new)
            } else if occurs_after(content, &span, first) {
                tried.insert(span.into_owned());
                return ControlFlow::Continue(());
            } else {
                let after = first + span.len();
                [&content[..first], new, &content[after..]].concat()
            };
            result = Some(Ok(Replaced {
                content: replaced,
                stage,
                span: span.into_owned(),
                at: first,
            }));
            ControlFlow::Break(())
        };
        if stage.run(&file, old, &mut sink).is_break() {
            break;
        }
    }
    match result {
        Some(outcome) => outcome,
        None if found_any => refuse(texts::MULTIPLE),
        None => refuse(texts::NOT_FOUND),
    }
}

/// OpenCode's `isDisproportionateMatch`: the span has at least
/// `max(lines + 3, 2 * lines)` lines, or (for a multi-line `oldString`) its
/// trimmed length exceeds `max(old + 500, 4 * old)` (trimmed, UTF-16).
fn is_disproportionate(span: &str, old: &str) -> bool {
    let old_lines = old.split('\n').count();
    if span.split('\n').count() >= (old_lines + 3).max(old_lines * 2) {
        return true;
    }
    if old_lines == 1 {
        return false;
    }
    let old_len = utf16_len(trim(old));
    utf16_len(trim(span)) > (old_len + 500).max(old_len * 4)
}

#[cfg(test)]
mod tests;
