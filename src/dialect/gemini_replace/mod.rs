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

use super::ajv;
use super::call::{
    CallMatcher, CallOutcome, EditMatch, Entry, FileWrite, StringEdit, ToolCall, fs_path,
};
use crate::dialect::apply_patch::SharedText;

/// Gemini CLI 0.61.0's `replace` matcher.
pub struct GeminiReplace;

/// `validateToolParamValues`'s text for `new_string` placeholders.
const PLACEHOLDER_ERROR: &str = "`new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide exact literal replacement text.";

impl CallMatcher for GeminiReplace {
    fn run(&self, call: &ToolCall) -> CallOutcome {
        let params = match validate(call.input) {
            Ok(params) => params,
            Err(error) => return failure(error, "precheck"),
        };
        let resolved = resolve_path(params.file_path, call);
        edit(&params, &resolved, call)
    }
}

/// `build()`: the schema (`default-legacy.js`'s `replace`, checked by ajv,
/// which reports its first error), then `validateToolParamValues`.
fn validate(input: &Value) -> Result<StringEdit<'_>, String> {
    let object = ajv::object(input)?;
    const STRINGS: [&str; 4] = ["file_path", "instruction", "old_string", "new_string"];
    let allow_multiple = ajv::strings_and_flag(object, &STRINGS, "allow_multiple")?;
    let text = |key: &str| object.get(key).and_then(Value::as_str);
    let params = StringEdit {
        file_path: text("file_path").unwrap_or_default(),
        old_string: text("old_string").unwrap_or_default(),
        new_string: text("new_string").unwrap_or_default(),
        replace_all: allow_multiple,
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

/// The `file_path` as `replace` reads it, for the gate, which judges that
/// file: a relative one with its `@` prefix dropped where
/// [`defensive_path`] drops it, an absolute one as given; and where
/// `decodeURIComponent` (or a NUL taken out) makes it name another file
/// (`sp%20ace/app.py`, `settings%2Ejson`), the absolute path `replace`
/// reads ([`resolve_path`]).
pub fn defensive_file_path(file_path: &str, call: &ToolCall) -> String {
    let named = if file_path.starts_with('/') {
        file_path.to_string()
    } else {
        defensive_path(file_path, call)
    };
    let read = resolve_path(file_path, call);
    if read == js::resolve_path(call.cwd, &named) {
        named
    } else {
        read
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

fn failure(error: String, stage: &str) -> CallOutcome {
    CallOutcome::failed_at(error, stage)
}

/// `calculateEdit` + `execute`.
fn edit(params: &StringEdit, resolved: &str, call: &ToolCall) -> CallOutcome {
    // Read, not written to: shared with the file system, not copied.
    let original = match call.fs.read_shared(&fs_path(call.cwd, resolved)) {
        Ok(content) => Some(content),
        Err(Entry::File(content)) => Some(SharedText::new(content)),
        Err(Entry::Missing) => None,
        Err(Entry::Directory) => {
            return failure(
                "EISDIR: illegal operation on a directory, read".to_string(),
                "precheck",
            );
        }
        Err(Entry::BelowFile) => {
            return failure(
                format!("ENOTDIR: not a directory, open '{resolved}'"),
                "precheck",
            );
        }
        Err(Entry::Unreadable(error)) => return failure(error, "precheck"),
    };
    let Some(original) = original else {
        if params.old_string.is_empty() {
            return created(params.new_string, resolved, call);
        }
        return failure(format!("File not found: {resolved}"), "precheck");
    };
    let crlf = original.contains("\r\n");
    // Without a `\r\n` the file is its own LF form: not copied.
    let content: std::borrow::Cow<str> = if crlf {
        std::borrow::Cow::Owned(original.replace("\r\n", "\n"))
    } else {
        std::borrow::Cow::Borrowed(&original)
    };
    if params.old_string.is_empty() {
        return failure(
            format!("File already exists, cannot create: {resolved}"),
            "precheck",
        );
    }
    let replacement = stages::calculate(
        &content,
        params.old_string,
        params.new_string,
        params.replace_all,
    );
    let Some(replacement) = replacement else {
        return failure(not_found(params.file_path), "none");
    };
    let stage = replacement.stage;
    if replacement.occurrences == 0 {
        return failure(not_found(params.file_path), stage);
    }
    if !params.replace_all && replacement.occurrences != 1 {
        return failure(
            format!(
                "Failed to edit, Expected 1 occurrence but found {} for old_string in file: {}. If you intended to replace multiple occurrences, set 'allow_multiple' to true.",
                replacement.occurrences, params.file_path
            ),
            stage,
        );
    }
    if params.old_string.replace("\r\n", "\n") == params.new_string.replace("\r\n", "\n") {
        return failure(
            format!(
                "No changes to apply. The old_string and new_string are identical in file: {}",
                params.file_path
            ),
            stage,
        );
    }
    // Without a `\r\n` the new content is written as it is: moved into
    // the write at the end, not copied.
    let crlf_written = crlf.then(|| to_crlf(&replacement.new_content));
    // The snippet diffs the whole file before and after: built only when
    // the text is read (not in the gate, `quick::without_success_texts`).
    let snippet = if crate::dialect::quick::success_texts_wanted() {
        let written = crlf_written
            .as_deref()
            .unwrap_or(replacement.new_content.as_str());
        snippet::context_snippet(&content, written, 5)
    } else {
        String::new()
    };
    let mut message = format!(
        "Successfully modified file: {resolved} ({} replacements). Here is the updated code:\n{snippet}",
        replacement.occurrences,
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
    let mut edit = match &replacement.first {
        Some((offset, found, text)) => {
            let first_line = crate::dialect::quick::count_newlines(&content[..*offset]) + 1;
            let body = found.strip_suffix('\n').unwrap_or(found);
            let lines =
                (!found.is_empty()).then(|| (first_line, first_line + body.matches('\n').count()));
            EditMatch {
                path: None,
                named: None,
                searched: None,
                also_replaced: Vec::new(),
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
    // An exact stage replaces its text wherever it stands; a loose one may
    // replace different text at each place: the lines it changed then.
    let also_replaced = if !params.replace_all {
        Vec::new()
    } else if stage == "fuzzy" && replacement.fuzzy_ranges.len() > 1 {
        // The places the fuzzy stage replaced, each once (a line diff of
        // the two contents splits a place, or joins two).
        replacement
            .fuzzy_ranges
            .iter()
            .copied()
            .filter(|&range| Some(range) != edit.lines)
            .collect()
    } else if stage == "flexible" && replacement.flexible_ranges.len() > 1 {
        // Each window whole (a tester's find, T-10: a line diff named line
        // 9 of a window at lines 9-10 whose second line reads as before).
        replacement
            .flexible_ranges
            .iter()
            .copied()
            .filter(|&range| Some(range) != edit.lines)
            .collect()
    } else if let (false, Some(found)) = (edit.loose, &edit.found) {
        crate::dialect::call::later_occurrences(&content, found)
    } else {
        crate::dialect::call::changed_outside(
            &content,
            &replacement.new_content,
            &edit.lines.into_iter().collect::<Vec<_>>(),
        )
    };
    edit.also_replaced.clone_from(&also_replaced);
    let written = crlf_written.unwrap_or(replacement.new_content);
    CallOutcome {
        also_replaced,
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
    CallOutcome::created(
        fs_path(call.cwd, resolved),
        new_string.to_string(),
        new_string,
        "create",
        format!(
            "Created new file: {resolved} with provided content. Here is the updated code:\n{new_string}"
        ),
    )
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

#[cfg(test)]
mod tests {
    //! Cases from Gemini CLI's own `edit.test.ts` (`calculateReplacement`,
    //! `validateToolParams`, `execute`), and each error text.
    use super::*;
    use crate::cases::assert_cases;
    use crate::dialect::call::run_in_memory;
    use serde_json::json;

    /// `calculateReplacement(content, old, new)`: (new content,
    /// occurrences, stage), or `None` when nothing matched.
    fn replace(
        content: &str,
        old: &str,
        new: &str,
        multiple: bool,
    ) -> Option<(String, usize, &'static str)> {
        stages::calculate(content, old, new, multiple)
            .map(|r| (r.new_content, r.occurrences, r.stage))
    }

    fn run(file: Option<&str>, input: Value) -> CallOutcome {
        let files = file.map(|f| ("a.ts", f));
        run_in_memory(
            &GeminiReplace,
            "/home/user/project",
            files.as_slice(),
            &input,
        )
    }

    fn input(old: &str, new: &str) -> Value {
        json!({"file_path": "a.ts", "instruction": "i", "old_string": old, "new_string": new})
    }

    #[test]
    fn exact_then_flexible_then_nothing() {
        assert_eq!(
            replace("hello world", "world", "moon", false),
            Some(("hello moon".into(), 1, "exact"))
        );
        assert_eq!(
            replace(
                "  hello\n    world\n",
                "hello\nworld",
                "goodbye\nmoon",
                false
            ),
            Some(("  goodbye\n  moon\n".into(), 1, "flexible"))
        );
        assert_eq!(replace("hello world", "nomatch", "moon", false), None);
    }

    #[test]
    fn regex_forgives_whitespace_inside_lines() {
        let content = "  function  myFunc( a, b ) {\n    return a + b;\n  }";
        assert_eq!(
            replace(
                content,
                "function myFunc(a, b) {",
                "const yourFunc = (a, b) => {",
                false
            ),
            Some((
                "  const yourFunc = (a, b) => {\n    return a + b;\n  }".into(),
                1,
                "regex"
            ))
        );
        let content = "\n  function oldFunc() {\n    // some code\n  }";
        assert_eq!(
            replace(
                content,
                "function  oldFunc() {\n    // some code\n  }",
                "function newFunc() {\n  // new code\n}",
                false
            ),
            Some((
                "\n  function newFunc() {\n    // new code\n  }".into(),
                1,
                "regex"
            ))
        );
    }

    #[test]
    fn fuzzy_takes_a_close_block_and_every_close_block() {
        let content = "const myConfig = {\n  enableFeature: true,\n  retries: 3\n};";
        let old = "const myConfig = {\n  enableFeature: true\n  retries: 3\n};";
        let new = "const myConfig = {\n  enableFeature: false,\n  retries: 5\n};";
        assert_eq!(
            replace(content, old, new, false),
            Some((new.into(), 1, "fuzzy"))
        );
        let unrelated = "function somethingElse() {\n  return false;\n}";
        assert_eq!(replace(content, unrelated, new, false), None);
        let twice = "\nfunction doIt() {\n  console.log(\"hello\");\n}\n\nfunction doIt() {\n  console.log(\"hello\");\n}\n";
        let result = replace(
            twice,
            "function doIt() {\n  console.log('hello');\n}",
            "function doIt() {\n  console.log(\"bye\");\n}",
            false,
        );
        assert_eq!(result, Some((twice.replace("hello", "bye"), 2, "fuzzy")));
        let indented =
            "    const myConfig = {\n      enableFeature: true,\n      retries: 3\n    };";
        assert_eq!(
            replace(indented, old, new, false),
            Some((
                "    const myConfig = {\n      enableFeature: false,\n      retries: 5\n    };"
                    .into(),
                1,
                "fuzzy"
            ))
        );
    }

    #[test]
    fn fuzzy_is_skipped_past_its_work_limit() {
        let long = "a".repeat(2000);
        let content = vec![long.as_str(); 200].join("\n");
        assert_eq!(
            replace(&content, &format!("{long}c"), "replacement", false),
            None
        );
    }

    #[test]
    fn flexible_regressions_of_the_agents_suite() {
        // (content, old, new, the content afterwards)
        for (content, old, new, want) in [
            (
                "  line1\n  line2\n  line3\n",
                "line1\nline2",
                "line1-replaced\nline2-replaced",
                "  line1-replaced\n  line2-replaced\n  line3\n",
            ),
            (
                "    if (a) {\n        foo();\n    }\n",
                "if (a) {\n    foo();\n}",
                "if (a) {\n    bar();\n}",
                "    if (a) {\n        bar();\n    }\n",
            ),
            (
                "  // some comment\n\n  function oldFunc() {}",
                "\nfunction oldFunc() {}",
                "\n  function newFunc() {}",
                "  // some comment\n\n  function newFunc() {}",
            ),
        ] {
            assert_eq!(
                replace(content, old, new, false).map(|r| r.0).as_deref(),
                Some(want),
                "{old:?}"
            );
        }
        assert_eq!(
            replace(
                "  match1\n  match2\n  match1\n  match2\n",
                "match1\nmatch2",
                "replaced1\nreplaced2\nreplaced3",
                true
            ),
            Some((
                "  replaced1\n  replaced2\n  replaced3\n  replaced1\n  replaced2\n  replaced3\n"
                    .into(),
                2,
                "flexible"
            ))
        );
    }

    #[test]
    fn schema_and_value_errors() {
        for (input, error) in [
            (
                json!({"file_path": "a.ts", "old_string": "a", "new_string": "b"}),
                "params must have required property 'instruction'",
            ),
            (
                json!({"file_path": "a.ts", "instruction": "i", "old_string": "a", "new_string": "b", "allow_multiple": "true"}),
                "params/allow_multiple must be boolean",
            ),
            (
                json!({"file_path": "a.ts", "instruction": "i", "old_string": "a", "new_string": null}),
                "params/new_string must be string",
            ),
            (json!("x"), "Value of params must be an object"),
            (
                json!({"file_path": "", "instruction": "i", "old_string": "a", "new_string": "b"}),
                "The 'file_path' parameter must be non-empty.",
            ),
        ] {
            let outcome = run(None, input.clone());
            assert_eq!(outcome.error.as_deref(), Some(error), "{input}");
        }
    }

    #[test]
    fn placeholders_only_when_new_to_new_string() {
        let added = run(Some("x\n"), input("x", "(rest of methods ...)"));
        assert_eq!(added.error.as_deref(), Some(PLACEHOLDER_ERROR));
        let kept = run(
            Some("(rest of methods ...)\nx\n"),
            input("(rest of methods ...)\nx", "(rest of methods ...)\ny"),
        );
        assert!(kept.ok);
        let literal = run(
            Some("x\n"),
            input("x", "const s = '(rest of methods ...) here';"),
        );
        assert!(literal.ok);
    }

    #[test]
    fn file_level_errors_name_the_path_as_the_agent_does() {
        // ((file, old_string, new_string), the error)
        assert_cases(
            |(file, old, new)| run(file, input(old, new)).error.unwrap_or_default(),
            &[
                ((None, "a", "b"), "File not found: /home/user/project/a.ts"),
                (
                    (Some(""), "", "b"),
                    "File already exists, cannot create: /home/user/project/a.ts",
                ),
                ((Some("a\n"), "zzz", "b"), not_found("a.ts").as_str()),
                (
                    (Some("a a\n"), "a", "b"),
                    "Failed to edit, Expected 1 occurrence but found 2 for old_string in file: a.ts. If you intended to replace multiple occurrences, set 'allow_multiple' to true.",
                ),
                (
                    (Some("a\n"), "a", "a"),
                    "No changes to apply. The old_string and new_string are identical in file: a.ts",
                ),
            ],
        );
    }

    #[test]
    fn success_texts_and_line_endings() {
        let created = run(None, input("", "new\r\nfile"));
        assert_eq!(created.writes[0].content.as_deref(), Some("new\r\nfile"));
        assert_eq!(
            created.message.as_deref(),
            Some(
                "Created new file: /home/user/project/a.ts with provided content. Here is the updated code:\nnew\r\nfile"
            )
        );
        let crlf = run(Some("a\r\nb\r\n"), input("a", "c"));
        assert_eq!(crlf.writes[0].content.as_deref(), Some("c\r\nb\r\n"));
        assert_eq!(
            crlf.message.as_deref(),
            Some(
                "Successfully modified file: /home/user/project/a.ts (1 replacements). Here is the updated code:\nc\nb\n"
            )
        );
        let fuzzy = run(
            Some("let total = compute(a, b);\n"),
            input("let totl = compute(a, b);", "let total = compute(a, c);"),
        );
        assert_eq!(fuzzy.stage.as_deref(), Some("fuzzy"));
        assert!(
            fuzzy
                .message
                .as_deref()
                .is_some_and(|m| m.ends_with(" Applied fuzzy match at line 1."))
        );
        assert_eq!(fuzzy.edits[0].lines, Some((1, 1)));
        assert!(fuzzy.edits[0].loose);
    }
}
