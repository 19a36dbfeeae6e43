//! Gemini CLI 0.61.0's `replace` tool (`EditTool`, packages/core/src/tools/
//! edit.ts, Apache-2.0), ported exactly with the LLM fixer off (the
//! default, `tools.disableLLMCorrection`): input `{file_path, instruction,
//! old_string, new_string, allow_multiple}`.
//!
//! Order, as the agent runs it: the JSON-schema check (ajv's first error,
//! `params must have required property 'instruction'`), an empty
//! `file_path`, the omission-placeholder check on `new_string`, then the
//! file: read, CRLF made LF (any `\r\n` makes the file CRLF), create /
//! not found / already exists, the strategies of [`stages`] (`exact`,
//! `flexible`, `regex`, `fuzzy`), the count and no-change checks, and the
//! write with CRLF restored on every line. The success text carries
//! `getDiffContextSnippet`'s excerpt of the written file ([`snippet`]).
//!
//! Paths resolve as the agent's do for files that exist or not: absolute
//! ones as given (NUL removed, `decodeURIComponent`, `.`/`..` folded),
//! relative ones against the project root, with `@` prefixes stripped as
//! `resolveDefensiveToolPath` does. Not reproduced: `correctPath`'s search of
//! the workspace by base name for a relative path that does not exist (a
//! `PatchFs` cannot list folders; the corpora's oracle has no workspace
//! folders either), symlinks, and the workspace-boundary check.

mod js;
mod levenshtein;
mod placeholder;
mod snippet;
mod stages;

use serde_json::Value;

use super::call::{CallMatcher, CallOutcome, EditMatch, Entry, FileWrite, ToolCall, fs_path};

/// Gemini CLI 0.61.0's `replace` matcher.
pub struct GeminiReplace;

/// `validateToolParamValues`'s text for `new_string` placeholders.
const PLACEHOLDER_ERROR: &str = "`new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide exact literal replacement text.";

impl CallMatcher for GeminiReplace {
    fn run(&self, call: &ToolCall) -> CallOutcome {
        let params = match validate(call.input) {
            Ok(params) => params,
            Err(error) => return failure(error, "precheck", None),
        };
        let resolved = resolve_path(params.file_path, call);
        edit(&params, &resolved, call)
    }
}

/// The validated input.
struct Params<'a> {
    file_path: &'a str,
    old_string: &'a str,
    new_string: &'a str,
    allow_multiple: bool,
}

/// `build()`: the schema (`default-legacy.js`'s `replace`, checked by ajv,
/// which reports its first error), then `validateToolParamValues`.
fn validate(input: &Value) -> Result<Params<'_>, String> {
    let Some(object) = input.as_object() else {
        return Err(if input.is_array() {
            "params must be object".to_string()
        } else {
            "Value of params must be an object".to_string()
        });
    };
    const STRINGS: [&str; 4] = ["file_path", "instruction", "old_string", "new_string"];
    if let Some(missing) = STRINGS.iter().find(|k| !object.contains_key(**k)) {
        return Err(format!("params must have required property '{missing}'"));
    }
    let text = |key: &str| object.get(key).and_then(Value::as_str);
    if let Some(wrong) = STRINGS.iter().find(|k| text(k).is_none()) {
        return Err(format!("params/{wrong} must be string"));
    }
    let allow_multiple = match object.get("allow_multiple") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("params/allow_multiple must be boolean".to_string()),
    };
    let params = Params {
        file_path: text("file_path").unwrap_or_default(),
        old_string: text("old_string").unwrap_or_default(),
        new_string: text("new_string").unwrap_or_default(),
        allow_multiple,
    };
    if params.file_path.is_empty() {
        return Err("The 'file_path' parameter must be non-empty.".to_string());
    }
    let added = placeholder::detect(params.new_string);
    if !added.is_empty() {
        let existing = placeholder::detect(params.old_string);
        if added.iter().any(|p| !existing.contains(p)) {
            return Err(PLACEHOLDER_ERROR.to_string());
        }
    }
    Ok(params)
}

/// Whether something is at `path` for `fs.existsSync`.
fn exists(call: &ToolCall, path: &str) -> bool {
    !matches!(
        call.fs.read(&fs_path(call.cwd, path)),
        Entry::Missing | Entry::BelowFile
    )
}

/// `resolveDefensiveToolPath(file_path, root)`: an `@`-prefixed path that
/// does not exist loses its `@` (and leading slashes), unless a file or
/// folder named with the `@` exists for its first segment.
fn defensive_path(file_path: &str, call: &ToolCall) -> String {
    let clean = file_path.replace('\0', "");
    if exists(call, &js::resolve_path(call.cwd, &clean)) {
        return clean;
    }
    let Some(stripped) = clean.strip_prefix('@').filter(|s| !s.is_empty()) else {
        return clean;
    };
    let without_slashes = stripped.trim_start_matches(['/', '\\']);
    if stripped.starts_with(['/', '\\']) {
        return if without_slashes.is_empty() {
            clean.clone()
        } else {
            without_slashes.to_string()
        };
    }
    let first = without_slashes
        .split(['/', '\\'])
        .next()
        .unwrap_or_default();
    if first.is_empty() {
        return clean;
    }
    if exists(call, &js::resolve_path(call.cwd, &format!("@{first}"))) {
        clean
    } else {
        without_slashes.to_string()
    }
}

/// `resolveToRealPath` without symlinks: `decodeURIComponent` when it
/// succeeds, then `path.resolve`.
fn real_path(path: &str) -> String {
    let decoded = js::decode_uri_component(path).unwrap_or_else(|| path.to_string());
    js::resolve_path("/", &decoded)
}

/// `EditToolInvocation`'s `resolvedPath` (absolute).
fn resolve_path(file_path: &str, call: &ToolCall) -> String {
    if file_path.starts_with('/') {
        return real_path(&file_path.replace('\0', ""));
    }
    let sanitized = defensive_path(file_path, call);
    let direct = js::resolve_path(call.cwd, &sanitized);
    real_path(&direct)
}

fn failure(error: String, stage: &str, file_stage: Option<&str>) -> CallOutcome {
    CallOutcome {
        ok: false,
        error: Some(error),
        stage: Some(stage.to_string()),
        edits: vec![EditMatch {
            stage: file_stage.unwrap_or(stage).to_string(),
            ..EditMatch::default()
        }],
        ..CallOutcome::default()
    }
}

/// `calculateEdit` + `execute`.
fn edit(params: &Params, resolved: &str, call: &ToolCall) -> CallOutcome {
    let original = match call.fs.read(&fs_path(call.cwd, resolved)) {
        Entry::File(content) => Some(content),
        Entry::Missing => None,
        Entry::Directory => {
            return failure(
                "EISDIR: illegal operation on a directory, read".to_string(),
                "precheck",
                None,
            );
        }
        Entry::BelowFile => {
            return failure(
                format!("ENOTDIR: not a directory, open '{resolved}'"),
                "precheck",
                None,
            );
        }
        Entry::Unreadable(error) => return failure(error, "precheck", None),
    };
    let Some(original) = original else {
        if params.old_string.is_empty() {
            return created(params.new_string, resolved, call);
        }
        return failure(format!("File not found: {resolved}"), "precheck", None);
    };
    let crlf = original.contains("\r\n");
    let content = original.replace("\r\n", "\n");
    if params.old_string.is_empty() {
        return failure(
            format!("File already exists, cannot create: {resolved}"),
            "precheck",
            None,
        );
    }
    let replacement = stages::calculate(
        &content,
        params.old_string,
        params.new_string,
        params.allow_multiple,
    );
    let Some(replacement) = replacement else {
        return failure(not_found(params.file_path), "none", None);
    };
    let stage = replacement.stage;
    if replacement.occurrences == 0 {
        return failure(not_found(params.file_path), stage, None);
    }
    if !params.allow_multiple && replacement.occurrences != 1 {
        return failure(
            format!(
                "Failed to edit, Expected 1 occurrence but found {} for old_string in file: {}. If you intended to replace multiple occurrences, set 'allow_multiple' to true.",
                replacement.occurrences, params.file_path
            ),
            stage,
            None,
        );
    }
    if params.old_string.replace("\r\n", "\n") == params.new_string.replace("\r\n", "\n") {
        return failure(
            format!(
                "No changes to apply. The old_string and new_string are identical in file: {}",
                params.file_path
            ),
            stage,
            None,
        );
    }
    let written = if crlf {
        to_crlf(&replacement.new_content)
    } else {
        replacement.new_content.clone()
    };
    let mut message = format!(
        "Successfully modified file: {resolved} ({} replacements). Here is the updated code:\n{}",
        replacement.occurrences,
        snippet::context_snippet(&content, &written, 5)
    );
    if stage == "fuzzy" && !replacement.fuzzy_ranges.is_empty() {
        let ranges: Vec<String> = replacement
            .fuzzy_ranges
            .iter()
            .map(|&(start, end)| {
                if start == end {
                    start.to_string()
                } else {
                    format!("{start}-{end}")
                }
            })
            .collect();
        let plural = if ranges.len() > 1 { "s" } else { "" };
        message.push_str(&format!(
            " Applied fuzzy match at line{plural} {}.",
            ranges.join(", ")
        ));
    }
    let edit = match &replacement.first {
        Some((offset, found, text)) => {
            let first_line = content[..*offset].matches('\n').count() + 1;
            let body = found.strip_suffix('\n').unwrap_or(found);
            let lines =
                (!found.is_empty()).then(|| (first_line, first_line + body.matches('\n').count()));
            EditMatch {
                stage: stage.to_string(),
                loose: stage != "exact",
                lines,
                found: Some(found.clone()),
                written: Some(text.clone()),
            }
        }
        None => EditMatch {
            stage: stage.to_string(),
            loose: stage != "exact",
            ..EditMatch::default()
        },
    };
    CallOutcome {
        ok: true,
        message: Some(message),
        stage: Some(stage.to_string()),
        writes: vec![FileWrite {
            path: fs_path(call.cwd, resolved),
            content: Some(written),
        }],
        edits: vec![edit],
        ..CallOutcome::default()
    }
}

/// A new file: `new_string` verbatim (`os.EOL` is `\n` on Linux).
fn created(new_string: &str, resolved: &str, call: &ToolCall) -> CallOutcome {
    CallOutcome {
        ok: true,
        message: Some(format!(
            "Created new file: {resolved} with provided content. Here is the updated code:\n{new_string}"
        )),
        stage: Some("create".to_string()),
        writes: vec![FileWrite {
            path: fs_path(call.cwd, resolved),
            content: Some(new_string.to_string()),
        }],
        edits: vec![EditMatch {
            stage: "create".to_string(),
            written: Some(new_string.to_string()),
            ..EditMatch::default()
        }],
        ..CallOutcome::default()
    }
}

fn not_found(file_path: &str) -> String {
    format!(
        "Could not find an exact match for 'old_string' in '{file_path}'. If previous edits modified the file or you are modifying lines outside your recent read window, please use ReadFile to inspect the target lines before retrying with an exact 'old_string'."
    )
}

/// `content.replace(/\r?\n/g, '\r\n')`.
fn to_crlf(content: &str) -> String {
    content.replace("\r\n", "\n").replace('\n', "\r\n")
}
