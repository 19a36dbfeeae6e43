//! Qwen Code 0.24.4's `edit` tool (`EditTool`, packages/core/src/tools/
//! edit.ts with utils/editHelper.ts, Apache-2.0, from the published bundle),
//! ported exactly with the read-before-edit check off: input `{file_path,
//! old_string, new_string, replace_all}`.
//!
//! Order, as the agent runs it: the JSON-schema check (ajv's first error,
//! after Qwen's coercions: `"true"`/`"false"` strings become booleans,
//! numbers and booleans given for strings become strings), `file_path`
//! trimmed and shell-unescaped (`\ ` → ` `) then required non-empty and absolute,
//! then the file: read (a UTF-8 BOM is taken off and put back on write;
//! CRLF made LF, and every line written back CRLF if the file had any
//! `\r\n`), `normalizeEditStrings` ([`helper`]: literal,
//! `normalizeBasicCharacters`, line passes, `+removedTrailingFinalEmptyLine`),
//! the deletion newline rule, the counts and checks, the write.
//!
//! Not reproduced: the team-memory secret scan (only for the team memory
//! folder), non-UTF-8 encodings, and the real file system's errors beyond
//! a directory or a path below a file.

mod helper;

use serde_json::Value;

use super::ajv;
use super::call::{CallMatcher, CallOutcome, EditMatch, Entry, FileWrite, ToolCall, fs_path};
use crate::dialect::apply_patch::SharedText;

/// Qwen Code 0.24.4's `edit` matcher.
pub struct QwenEdit;

impl CallMatcher for QwenEdit {
    fn run(&self, call: &ToolCall) -> CallOutcome {
        match validate(call.input) {
            Ok(params) => edit(&params, call),
            Err(error) => failure(error, "precheck"),
        }
    }
}

struct Params {
    file_path: String,
    old_string: String,
    new_string: String,
    replace_all: bool,
}

/// JS `String(number)`.
fn js_number(number: &serde_json::Number) -> String {
    if number.is_i64() || number.is_u64() {
        return number.to_string();
    }
    crate::engine::js::number_to_string(number.as_f64().unwrap_or(0.0))
}

/// `SchemaValidator.validate`'s coercions for this schema: `fixBooleanValues`
/// (`replace_all` given as a `"true"`/`"false"` string of any case) and
/// `fixStringValues` (a number or boolean given for a string property).
fn coerce(object: &serde_json::Map<String, Value>) -> serde_json::Map<String, Value> {
    let mut object = object.clone();
    for (key, value) in object.iter_mut() {
        match (key.as_str(), &*value) {
            ("replace_all", Value::String(s)) => {
                let lower = s.to_lowercase();
                if lower == "true" || lower == "false" {
                    *value = Value::Bool(lower == "true");
                }
            }
            ("file_path" | "old_string" | "new_string", Value::Number(n)) => {
                *value = Value::String(js_number(n));
            }
            ("file_path" | "old_string" | "new_string", Value::Bool(b)) => {
                *value = Value::String(b.to_string());
            }
            _ => {}
        }
    }
    object
}

/// The `file_path` as `edit` reads it (trimmed of JavaScript's white
/// space, then [`unescape_path`]), for the gate, which judges that file.
pub fn read_file_path(file_path: &str) -> String {
    unescape_path(file_path.trim_matches(crate::engine::js::is_js_whitespace))
}

/// `unescapePath` on POSIX (`unescapeShellSpecials`): a `\` before one of
/// the shell's special characters `` \t()[]{};|*?$`'"#&<>!~,`` goes.
fn unescape_path(path: &str) -> String {
    const SPECIAL: &str = " \t()[]{};|*?$`'\"#&<>!~,";
    let mut out = String::with_capacity(path.len());
    let mut chars = path.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&next) = chars.peek().filter(|n| SPECIAL.contains(**n))
        {
            out.push(next);
            chars.next();
            continue;
        }
        out.push(c);
    }
    out
}

/// `build()`: the schema, then `validateToolParamValues`.
fn validate(input: &Value) -> Result<Params, String> {
    let object = coerce(ajv::object(input)?);
    const STRINGS: [&str; 3] = ["file_path", "old_string", "new_string"];
    let replace_all = ajv::strings_and_flag(&object, &STRINGS, "replace_all")?;
    let text = |key: &str| object.get(key).and_then(Value::as_str).map(str::to_string);
    let file_path = unescape_path(
        text("file_path")
            .unwrap_or_default()
            .trim_matches(crate::engine::js::is_js_whitespace),
    );
    if file_path.is_empty() {
        return Err("The 'file_path' parameter must be non-empty.".to_string());
    }
    if !file_path.starts_with('/') {
        return Err(format!("File path must be absolute: {file_path}"));
    }
    Ok(Params {
        file_path,
        old_string: text("old_string").unwrap_or_default(),
        new_string: text("new_string").unwrap_or_default(),
        replace_all,
    })
}

fn failure(error: String, stage: &str) -> CallOutcome {
    CallOutcome::failed_at(error, stage)
}

/// The path is used as given, so the system resolves each `..` physically:
/// what precedes it must be an existing folder (else the file is missing);
/// the project root and its parents are taken to exist.
fn dot_dot_resolves(path: &str, call: &ToolCall) -> bool {
    let mut prefix = String::new();
    for segment in path.split('/').filter(|s| !s.is_empty()) {
        let folder = if prefix.is_empty() {
            "/"
        } else {
            prefix.as_str()
        };
        let is_folder = call.cwd == folder
            || call
                .cwd
                .starts_with(&format!("{}/", folder.trim_end_matches('/')))
            || call.fs.read(&fs_path(call.cwd, folder)) == Entry::Directory;
        if segment == ".." && !is_folder {
            return false;
        }
        prefix.push('/');
        prefix.push_str(segment);
    }
    true
}

/// `calculateEdit` + `execute`.
fn edit(params: &Params, call: &ToolCall) -> CallOutcome {
    let path = &params.file_path;
    let target = fs_path(call.cwd, path);
    // Read, not written to: shared with the file system, not copied.
    let entry = if dot_dot_resolves(path, call) {
        call.fs.read_shared(&target)
    } else {
        Err(Entry::Missing)
    };
    let original = match entry {
        Ok(text) => Some(text),
        Err(Entry::File(text)) => Some(SharedText::new(text)),
        Err(Entry::Missing | Entry::BelowFile) => None,
        Err(Entry::Directory) => {
            return failure(
                "EISDIR: illegal operation on a directory, read".to_string(),
                "precheck",
            );
        }
        Err(Entry::Unreadable(error)) => return failure(error, "precheck"),
    };
    let (bom, crlf, content) = match &original {
        Some(text) => {
            let (bom, text) = match text.strip_prefix('\u{feff}') {
                Some(rest) => (true, rest),
                None => (false, &**text),
            };
            let crlf = crate::dialect::quick::contains(text, "\r\n");
            // Without a `\r\n` the file is its own LF form.
            let lf: std::borrow::Cow<str> = if crlf {
                std::borrow::Cow::Owned(text.replace("\r\n", "\n"))
            } else {
                std::borrow::Cow::Borrowed(text)
            };
            (bom, crlf, Some(lf))
        }
        None => (false, false, None),
    };
    let Some(content) = content else {
        if params.old_string.is_empty() {
            return created(params, call);
        }
        return failure(format!("File not found: {path}"), "precheck");
    };
    if params.old_string.is_empty() {
        return failure(
            format!("File already exists, cannot create: {path}"),
            "precheck",
        );
    }
    let matched = helper::find_matched_slice(&content, &params.old_string);
    let (old, new) = match &matched {
        Some(m) if m.removed_trailing_final_empty_line => (
            m.slice.clone(),
            helper::remove_trailing_newline(&params.new_string).to_string(),
        ),
        Some(m) => (m.slice.clone(), params.new_string.clone()),
        None => (params.old_string.clone(), params.new_string.clone()),
    };
    let stage = match &matched {
        Some(m) if m.removed_trailing_final_empty_line => {
            format!("{}+removedTrailingFinalEmptyLine", m.pass.name())
        }
        Some(m) => m.pass.name().to_string(),
        None => "none".to_string(),
    };
    let old = helper::augment_for_deletion(&content, &old, &new);
    let occurrences = helper::count_occurrences(&content, &old);
    if occurrences == 0 {
        return failure(
            format!(
                "Failed to edit, 0 occurrences found for old_string in {path}. No edits made. The exact text in old_string was not found. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify."
            ),
            &stage,
        );
    }
    if !params.replace_all && occurrences > 1 {
        return failure(
            format!(
                "Failed to edit. Found {occurrences} occurrences for old_string in {path} but replace_all was not enabled."
            ),
            &stage,
        );
    }
    if old == new {
        return failure(
            format!(
                "No changes to apply. The old_string and new_string are identical in file: {path}"
            ),
            &stage,
        );
    }
    let new_content = crate::dialect::quick::replace(&content, &old, &new);
    if new_content == content {
        return failure(
            format!(
                "No changes to apply. The new content is identical to the current content in file: {path}"
            ),
            &stage,
        );
    }
    // The snippet splits the whole file before and after: built only when
    // the text is read (not in the gate, `quick::without_success_texts`).
    let snippet = crate::dialect::quick::success_texts_wanted()
        .then(|| helper::extract_edit_snippet(Some(&content), &new_content))
        .flatten();
    // Without a `\r\n` the new content is written as it is: moved, not
    // copied.
    let mut written = if crlf {
        new_content.replace("\r\n", "\n").replace('\n', "\r\n")
    } else {
        new_content
    };
    if bom {
        let body = written.strip_prefix('\u{feff}').unwrap_or(&written);
        written = format!("\u{feff}{body}");
    }
    let mut message = format!("The file: {path} has been updated.");
    if let Some(snippet) = snippet {
        message.push_str(&format!(
            " Showing lines {}-{} of {} from the edited file:\n\n---\n\n{}",
            snippet.start_line, snippet.end_line, snippet.total_lines, snippet.content
        ));
    }
    let offset = matched.as_ref().map_or_else(
        || crate::dialect::quick::find(&content, &old).unwrap_or(0),
        |m| m.offset,
    );
    let first_line = crate::dialect::quick::count_newlines(&content[..offset]) + 1;
    let body = old.strip_suffix('\n').unwrap_or(&old);
    let also_replaced = if params.replace_all {
        crate::dialect::call::later_occurrences(&content, &old)
    } else {
        Vec::new()
    };
    let edit = EditMatch {
        path: None,
        named: None,
        searched: None,
        also_replaced: also_replaced.clone(),
        stage: stage.clone(),
        loose: stage != "literal",
        lines: Some((first_line, first_line + body.matches('\n').count())),
        found: Some(old.clone()),
        written: Some(new),
    };
    CallOutcome {
        also_replaced,
        ok: true,
        message: Some(message),
        stage: Some(stage),
        writes: vec![FileWrite {
            path: target,
            content: Some(written),
        }],
        edits: vec![edit],
        ..CallOutcome::default()
    }
}

/// A new file: `new_string` as given (no BOM, no line-ending change on
/// Linux).
fn created(params: &Params, call: &ToolCall) -> CallOutcome {
    let content = &params.new_string;
    let total = content.split('\n').count();
    CallOutcome::created(
        fs_path(call.cwd, &params.file_path),
        content.clone(),
        content,
        "create",
        format!(
            "Created new file: {} with provided content. Showing lines 1-{total} of {total} from the edited file:\n\n---\n\n{content}",
            params.file_path
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;
    use crate::dialect::call::run_in_memory;
    use serde_json::json;

    const PATH: &str = "/home/user/project/a.ts";

    fn run(file: Option<&str>, input: Value) -> CallOutcome {
        let files = file.map(|f| ("a.ts", f));
        run_in_memory(&QwenEdit, "/home/user/project", files.as_slice(), &input)
    }

    fn input(old: &str, new: &str) -> Value {
        json!({"file_path": PATH, "old_string": old, "new_string": new})
    }

    #[test]
    fn schema_errors_after_qwens_coercions() {
        let missing = json!({"file_path": PATH, "new_string": "b"});
        assert_eq!(
            run(None, missing).error.as_deref(),
            Some("params must have required property 'old_string'")
        );
        let text_flag =
            json!({"file_path": PATH, "old_string": "a", "new_string": "b", "replace_all": "TRUE"});
        assert!(run(Some("a a\n"), text_flag).ok);
        let number_flag =
            json!({"file_path": PATH, "old_string": "a", "new_string": "b", "replace_all": 1});
        assert_eq!(
            run(Some("a\n"), number_flag).error.as_deref(),
            Some("params/replace_all must be boolean")
        );
        let number = json!({"file_path": PATH, "old_string": 1e-7, "new_string": true});
        assert_eq!(
            run(Some("1e-7\n"), number).writes[0].content.as_deref(),
            Some("true\n")
        );
        let list = json!({"file_path": PATH, "old_string": [], "new_string": "b"});
        assert_eq!(
            run(None, list).error.as_deref(),
            Some("params/old_string must be string")
        );
    }

    #[test]
    fn the_path_is_trimmed_unescaped_and_must_be_absolute() {
        // ((file, file_path), the error)
        assert_cases(
            |(file, path)| {
                let input = json!({"file_path": path, "old_string": "a", "new_string": "b"});
                run(file, input).error.unwrap_or_default()
            },
            &[
                ((None, "a.ts"), "File path must be absolute: a.ts"),
                ((None, "  "), "The 'file_path' parameter must be non-empty."),
                (
                    (Some("a\n"), " /home/user/project/a\\.ts "),
                    "File not found: /home/user/project/a\\.ts",
                ),
            ],
        );
        assert_eq!(unescape_path("a\\ b\\(c\\x"), "a b(c\\x");
    }

    #[test]
    fn each_error_text() {
        let identical = format!(
            "No changes to apply. The old_string and new_string are identical in file: {PATH}"
        );
        // ((file, old_string, new_string), the error)
        assert_cases(
            |(file, old, new)| run(file, input(old, new)).error.unwrap_or_default(),
            &[
                ((None, "a", "b"), format!("File not found: {PATH}")),
                (
                    (Some(""), "", "b"),
                    format!("File already exists, cannot create: {PATH}"),
                ),
                (
                    (Some("a\n"), "zzz", "b"),
                    format!(
                        "Failed to edit, 0 occurrences found for old_string in {PATH}. No edits made. The exact text in old_string was not found. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify."
                    ),
                ),
                (
                    (Some("a a\n"), "a", "b"),
                    format!(
                        "Failed to edit. Found 2 occurrences for old_string in {PATH} but replace_all was not enabled."
                    ),
                ),
                ((Some("a\n"), "a", "a"), identical.clone()),
                // The file's own text found for the model's is what counts:
                // here it is the new text already.
                ((Some("\u{2019}\n"), "'", "\u{2019}"), identical),
            ],
        );
    }

    #[test]
    fn stages_and_texts_of_a_successful_edit() {
        let curly = run(
            Some("say \u{201c}hi\u{201d}\n"),
            input("say \"hi\"", "say \"bye\""),
        );
        assert_eq!(curly.stage.as_deref(), Some("normalizeBasicCharacters"));
        assert_eq!(curly.writes[0].content.as_deref(), Some("say \"bye\"\n"));
        assert_eq!(
            curly.message.as_deref(),
            Some(format!("The file: {PATH} has been updated. Showing lines 1-2 of 2 from the edited file:\n\n---\n\nsay \"bye\"\n").as_str())
        );
        let trailing = run(Some("a  \nb\nc\n"), input("a\nb\n", "x\n"));
        assert_eq!(
            trailing.stage.as_deref(),
            Some("line_pass_trimEnd+removedTrailingFinalEmptyLine")
        );
        assert_eq!(trailing.writes[0].content.as_deref(), Some("x\nc\n"));
        let bom_crlf = run(Some("\u{feff}a\r\nb\r\n"), input("a", "c"));
        assert_eq!(
            bom_crlf.writes[0].content.as_deref(),
            Some("\u{feff}c\r\nb\r\n")
        );
        let created = run(None, input("", "x\ny"));
        assert_eq!(
            created.message.as_deref(),
            Some(format!("Created new file: {PATH} with provided content. Showing lines 1-2 of 2 from the edited file:\n\n---\n\nx\ny").as_str())
        );
        let deleted = run(Some("a\nb\n"), input("a", ""));
        assert_eq!(deleted.writes[0].content.as_deref(), Some("b\n"));
    }
}
