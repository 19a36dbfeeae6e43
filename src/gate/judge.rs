//! One tool call judged: which matcher runs it, and what it finds (before
//! the policy decides). Old/new string edits here; Codex's patches in
//! [`super::patch`].

use serde_json::Value;

use super::{Call, Case, Finding, GateAgent};
use crate::diagnose::{DiffLine, Side};
use crate::dialect::apply_patch::{Entry, PatchFs};
use crate::dialect::call::fs_path;
use crate::dialect::call_correct;
use crate::dialect::edit::{self, Edit, EditError};
use crate::dialect::registry::{self, DialectRow};

/// How the gate runs one tool of one agent.
enum ToolKind {
    /// An exact-string edit with srview's own semantics (Claude Code's
    /// `Edit`, Cline's `editor`), read as this tool.
    ExactString(&'static str),
    /// A whole-file write; the path and content keys.
    Write(&'static str, &'static str),
    /// Codex's `apply_patch`: the patch in `command`.
    CodexPatch,
    /// An agent matcher of the registry (its `--dialect` value); the key
    /// of the file it edits (`None` for a patch over a folder).
    Matcher(&'static str, Option<&'static str>),
}

fn kind(agent: GateAgent, tool: &str) -> Option<ToolKind> {
    Some(match (agent, tool) {
        (GateAgent::ClaudeCode, "Edit") => ToolKind::ExactString("Edit"),
        (GateAgent::ClaudeCode, "Write") => ToolKind::Write("file_path", "content"),
        (GateAgent::Codex, "apply_patch") => ToolKind::CodexPatch,
        (GateAgent::GeminiCli, "replace") => ToolKind::Matcher("gemini-replace", Some("file_path")),
        (GateAgent::GeminiCli, "write_file") => ToolKind::Write("file_path", "content"),
        (GateAgent::QwenCode, "edit") => ToolKind::Matcher("qwen-edit", Some("file_path")),
        (GateAgent::QwenCode, "write_file") => ToolKind::Write("file_path", "content"),
        (GateAgent::ClineCli, "editor") => ToolKind::ExactString("editor"),
        (GateAgent::ClineCli, "apply_patch") => ToolKind::Matcher("cline-apply-patch", None),
        (GateAgent::Opencode, "edit") => ToolKind::Matcher("opencode-edit", Some("filePath")),
        (GateAgent::Opencode, "write") => ToolKind::Write("filePath", "content"),
        (GateAgent::Opencode, "apply_patch") => ToolKind::Matcher("opencode-apply-patch", None),
        (GateAgent::Pi, "edit") => ToolKind::Matcher("pi-edit", Some("path")),
        (GateAgent::Pi, "write") => ToolKind::Write("path", "content"),
        _ => return None,
    })
}

/// What srview finds in `call`'s edit over `fs`.
pub(super) fn finding(agent: GateAgent, call: &Call, fs: &dyn PatchFs) -> Finding {
    match kind(agent, &call.tool) {
        None => Finding {
            case: Case::NotAnEdit,
            file: None,
            stage: None,
            explanation: String::new(),
            corrected: None,
            withheld: None,
        },
        Some(ToolKind::ExactString(tool)) => exact_string(tool, call, fs),
        Some(ToolKind::Write(path_key, content_key)) => write(path_key, content_key, call, fs),
        Some(ToolKind::CodexPatch) => super::patch::codex(call, fs),
        Some(ToolKind::Matcher(dialect, path_key)) => match registry::find(dialect) {
            Some(row) => matcher(row, path_key, call, fs),
            None => Finding::unreadable(None, format!("srview has no matcher {dialect}")),
        },
    }
}

/// The text at `key` of the input.
fn text<'a>(input: &'a Value, key: &str) -> Result<&'a str, String> {
    input
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("the tool input has no {key:?} text"))
}

/// The file at `path` (as the input names it): its content, `None` when
/// it does not exist, or why it cannot be read.
pub(super) fn read(fs: &dyn PatchFs, cwd: &str, path: &str) -> Result<Option<String>, String> {
    match fs.read(&fs_path(cwd, path)) {
        Entry::File(content) => Ok(Some(content)),
        Entry::Missing => Ok(None),
        Entry::Directory => Err(format!("{path} is a directory")),
        Entry::BelowFile => Err(format!("a parent of {path} is a file")),
        Entry::Unreadable(why) => Err(format!("{path} cannot be read as text: {why}")),
    }
}

/// A diagnosis's line diff, for the model: the sent text's lines (`-`)
/// against the file's (`+`, with their line numbers).
pub(super) fn line_diff_text(lines: &[DiffLine]) -> String {
    let mut out = String::new();
    for line in lines {
        let number = line.file_line.map(|n| n.to_string()).unwrap_or_default();
        let (mark, number) = match line.tag {
            Side::Equal => (' ', number),
            Side::Delete => ('-', "sent".to_string()),
            Side::Insert => ('+', number),
        };
        out.push_str(&format!("  {mark} {number:>5} | {}\n", line.text));
    }
    out
}

/// The legend of [`line_diff_text`].
pub(super) const LINE_DIFF_LEGEND: &str =
    "(- a line as sent, + the file's line at that number, blank: the same in both)";

/// What srview's trust checks doubt in an exact edit's result.
fn doubts(outcome: &edit::EditOutcome, content: Option<&str>) -> Vec<String> {
    edit::edit_doubts(outcome, content.unwrap_or(""))
}

/// Claude Code's `Edit`, Cline's `editor`.
fn exact_string(tool: &str, call: &Call, fs: &dyn PatchFs) -> Finding {
    let parsed = Edit::from_tool_input(tool, &call.input.to_string());
    let edit = match parsed {
        Ok(edit) => edit,
        Err(e) => return Finding::unreadable(None, format!("the tool input cannot be read: {e}")),
    };
    let file = edit.path().to_string();
    let content = match read(fs, &call.cwd, &file) {
        Ok(content) => content,
        Err(why) => return Finding::unreadable(Some(file), why),
    };
    let outcome = edit::apply(&edit, content.as_deref());
    let place = outcome
        .block
        .original
        .map(|span| place_of(content.as_deref().unwrap_or(""), span.start, span.end));
    let error = match &outcome.result {
        Ok(_) => {
            let doubts = doubts(&outcome, content.as_deref());
            return exact_or_doubt(file, "exact", place, doubts);
        }
        Err(error) => error,
    };
    let diagnosis = outcome.diagnosis.as_ref();
    let suggestion = diagnosis.and_then(|d| d.suggestion.as_ref());
    let suggestion = match (error, suggestion) {
        // The model wrote curly quotes where the file has straight ones:
        // its new text means the file's straight quotes too (Claude Code
        // would write the curly ones as sent).
        (
            EditError::ClaudeQuoteNormalised {
                curly_in_file: false,
            },
            Some(Edit::ClaudeEdit {
                file_path,
                old_string,
                new_string,
                replace_all,
            }),
        ) => Some(Edit::ClaudeEdit {
            file_path: file_path.clone(),
            old_string: old_string.clone(),
            new_string: straight_quotes(new_string),
            replace_all: *replace_all,
        }),
        // The file's curly quotes: which one each straight quote of the new
        // text stands for cannot be told.
        (
            EditError::ClaudeQuoteNormalised {
                curly_in_file: true,
            },
            _,
        ) => None,
        (_, suggestion) => suggestion.cloned(),
    };
    let (corrected, withheld) = match &suggestion {
        Some(suggested) => stand_behind(suggested, content.as_deref(), &call.input),
        None => (None, Some("srview cannot tell the text meant".to_string())),
    };
    let mut explanation = String::new();
    let quotes = matches!(error, EditError::ClaudeQuoteNormalised { .. });
    if quotes {
        explanation.push_str(
            "Claude Code places this edit only by normalising its quotes: the text it replaces \
             is not the text the model wrote.",
        );
    } else {
        explanation.push_str(&format!(
            "this {tool} fails: {}",
            error.to_string().trim_end()
        ));
    }
    if let Some(d) = diagnosis {
        push_diagnosis(&mut explanation, &d.message, &d.line_diff);
    }
    Finding {
        case: if quotes { Case::Loose } else { Case::Failing },
        file: Some(file),
        stage: Some(if quotes { "quote-normalised" } else { "failed" }.to_string()),
        explanation,
        corrected,
        withheld,
    }
}

/// `text` with curly quotes written straight.
fn straight_quotes(text: &str) -> String {
    text.replace(['\u{2018}', '\u{2019}'], "'")
        .replace(['\u{201C}', '\u{201D}'], "\"")
}

/// Adds a diagnosis's sentence and line diff to an explanation.
fn push_diagnosis(explanation: &mut String, message: &str, lines: &[DiffLine]) {
    if !message.is_empty() {
        explanation.push('\n');
        explanation.push_str(message.trim_end());
    }
    if !lines.is_empty() {
        explanation.push_str(&format!("\nThe lines {LINE_DIFF_LEGEND}:\n"));
        explanation.push_str(line_diff_text(lines).trim_end());
    }
}

/// The tool input with a suggested edit's texts, when srview stands behind
/// it: it applies exactly, and no trust check fails. Else why not.
fn stand_behind(
    suggested: &Edit,
    content: Option<&str>,
    input: &Value,
) -> (Option<Value>, Option<String>) {
    let outcome = edit::apply(suggested, content);
    if let Err(e) = &outcome.result {
        return (None, Some(format!("the corrected edit fails too: {e}")));
    }
    let doubts = doubts(&outcome, content);
    if !doubts.is_empty() {
        return (
            None,
            Some(format!(
                "the corrected edit is in doubt: {}",
                doubts.join("; ")
            )),
        );
    }
    let mut corrected = input.clone();
    let (old_key, new_key, old, new) = match suggested {
        Edit::ClaudeEdit {
            old_string,
            new_string,
            ..
        } => (
            "old_string",
            "new_string",
            Some(old_string),
            Some(new_string),
        ),
        Edit::ClineEditor {
            old_text, new_text, ..
        } => ("old_text", "new_text", old_text.as_ref(), new_text.as_ref()),
        Edit::ClaudeWrite { .. } => return (None, Some("a write has nothing to correct".into())),
    };
    if let Some(object) = corrected.as_object_mut() {
        if let Some(old) = old {
            object.insert(old_key.to_string(), old.clone().into());
        }
        if let Some(new) = new {
            object.insert(new_key.to_string(), new.clone().into());
        }
    }
    (Some(corrected), None)
}

/// "lines 12-13" of `content` for the byte range `start..end`.
fn place_of(content: &str, start: usize, end: usize) -> String {
    let line = |at: usize| {
        content.as_bytes()[..at.min(content.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    };
    let last = if end > start {
        line(end - 1)
    } else {
        line(start)
    };
    crate::words::line_range("line", line(start), last)
}

/// An exact edit: with its doubts, or without.
fn exact_or_doubt(
    file: String,
    stage: &str,
    place: Option<String>,
    doubts: Vec<String>,
) -> Finding {
    let (case, explanation) = if doubts.is_empty() {
        (Case::Exact, String::new())
    } else {
        let at = place.map(|p| format!(" ({p})")).unwrap_or_default();
        (
            Case::Doubt,
            format!(
                "the edit of {file} matches exactly{at}, but srview cannot stand behind its \
                 result: {}.",
                doubts.join("; ")
            ),
        )
    };
    Finding {
        case,
        file: Some(file),
        stage: Some(stage.to_string()),
        explanation,
        corrected: None,
        withheld: None,
    }
}

/// A whole-file write: nothing to match; in doubt only when the file
/// already holds exactly that content.
fn write(path_key: &str, content_key: &str, call: &Call, fs: &dyn PatchFs) -> Finding {
    let (file, new) = match (text(&call.input, path_key), text(&call.input, content_key)) {
        (Ok(file), Ok(new)) => (file.to_string(), new),
        (Err(why), _) | (_, Err(why)) => return Finding::unreadable(None, why),
    };
    let content = match read(fs, &call.cwd, &file) {
        Ok(content) => content,
        Err(why) => return Finding::unreadable(Some(file), why),
    };
    let doubts = match content.as_deref() {
        Some(old) if old == new && !new.is_empty() => vec![format!(
            "{file} already holds exactly this content ({}): the write changes nothing, so \
             it looks applied already",
            crate::words::count(new.lines().count(), "line")
        )],
        _ => Vec::new(),
    };
    exact_or_doubt(file, "write", None, doubts)
}

/// An agent matcher of the registry (Gemini CLI's `replace`, Qwen Code's
/// `edit`, Cline's `apply_patch`), with srview's exact-string diagnosis of
/// each failed or loose edit and the corrected input its matcher places
/// exactly ([`call_correct::correct`]).
fn matcher(row: &DialectRow, path_key: Option<&str>, call: &Call, fs: &dyn PatchFs) -> Finding {
    let Some(agent_matcher) = row.matcher() else {
        return Finding::unreadable(None, format!("{} runs no agent matcher", row.value));
    };
    let file = match path_key.map(|key| text(&call.input, key)) {
        Some(Ok(file)) => Some(file.to_string()),
        Some(Err(why)) => return Finding::unreadable(None, why),
        None => None,
    };
    let content = match &file {
        Some(file) => match read(fs, &call.cwd, file) {
            Ok(content) => content,
            Err(why) => return Finding::unreadable(Some(file.clone()), why),
        },
        None => None,
    };
    let outcome = agent_matcher.run(&crate::dialect::call::ToolCall {
        input: &call.input,
        cwd: &call.cwd,
        fs,
    });
    let stage = outcome.stage.clone();
    if outcome.hangs {
        return Finding {
            case: Case::Failing,
            file,
            stage,
            explanation: format!(
                "{}'s own code never returns on this input: the agent would hang here.",
                row.title
            ),
            corrected: None,
            withheld: None,
        };
    }
    let loose: Vec<(usize, &crate::dialect::call::EditMatch)> = outcome
        .edits
        .iter()
        .enumerate()
        .filter(|(_, m)| m.loose)
        .collect();
    if outcome.ok && loose.is_empty() && outcome.rewritten_outside.is_empty() {
        let doubts = exact_doubts(row, &call.input, content.as_deref());
        let place = outcome
            .edits
            .iter()
            .filter_map(|m| m.lines)
            .map(|(a, b)| crate::words::line_range("line", a, b))
            .collect::<Vec<_>>()
            .join(", ");
        let place = (!place.is_empty()).then_some(place);
        return exact_or_doubt(
            file.unwrap_or_else(|| "the files".to_string()),
            stage.as_deref().unwrap_or("exact"),
            place,
            doubts,
        );
    }
    let mut explanation = if outcome.ok {
        let mut s = String::new();
        for (i, m) in &loose {
            let at = m
                .lines
                .map(|(a, b)| format!(" at {}", crate::words::line_range("line", a, b)))
                .unwrap_or_default();
            s.push_str(&format!(
                "{} would place edit {}{at} only by its loose stage `{}`: the text it replaces \
                 is not the text the model wrote.",
                row.title,
                i + 1,
                m.stage
            ));
            if let (Some(found), Some(written)) = (&m.found, &m.written) {
                s.push_str(&format!(
                    "\nIt would replace:\n{}\nwith:\n{}",
                    indent(found),
                    indent(written)
                ));
            }
        }
        if !outcome.rewritten_outside.is_empty() {
            s.push_str(&format!(
                "{} also rewrites lines no edit covers.",
                row.title
            ));
        }
        s
    } else {
        format!(
            "{} would refuse this {}: {}",
            row.title,
            call.tool,
            outcome
                .error
                .as_deref()
                .unwrap_or("its matcher gives no text")
                .trim_end()
        )
    };
    let (corrected, withheld) = match (&file, content.as_deref()) {
        (Some(path), Some(content)) => {
            match call_correct::correct(row, &call.input, content, (path, &call.cwd), &outcome) {
                Some(correction) => {
                    // Computed once: it runs the agent's matcher again.
                    let reindented = correction
                        .input
                        .is_none()
                        .then(|| reindented_input(row, call, path, content))
                        .flatten();
                    for explained in &correction.edits {
                        // The exact-string diagnosis withholds a correction
                        // the re-indentation gives: its sentence saying so
                        // is left out.
                        let message = match explained.message.split_once(" No corrected edit:") {
                            Some((said, _)) if reindented.is_some() => said,
                            _ => explained.message.as_str(),
                        };
                        push_diagnosis(&mut explanation, message, &explained.line_diff);
                    }
                    let corrected = correction
                        .input
                        .or(reindented)
                        .filter(|input| exact_doubts(row, input, Some(content)).is_empty());
                    let withheld = match (&corrected, correction.withheld) {
                        (Some(_), _) => None,
                        (None, Some(why)) => Some(why),
                        (None, None) => {
                            Some("the corrected edit is in doubt (srview's trust checks)".into())
                        }
                    };
                    (corrected, withheld)
                }
                None => (None, None),
            }
        }
        _ => (None, None),
    };
    Finding {
        case: if outcome.ok {
            Case::Loose
        } else {
            Case::Failing
        },
        file,
        stage,
        explanation,
        corrected,
        withheld,
    }
}

/// The input of a one-edit call (Gemini's `replace`, Qwen's and OpenCode's
/// `edit`, pi's `edit` with one entry) with
/// its old and new texts re-indented as the file is
/// ([`super::reindent`]), when the agent's own matcher then places it
/// exactly.
fn reindented_input(row: &DialectRow, call: &Call, path: &str, content: &str) -> Option<Value> {
    let fields = row.strings?;
    let mut input = call.input.clone();
    // The one edit: the input itself, or the only entry of its list (pi's
    // `edits` as an array).
    let edit = match fields.list {
        None => &mut input,
        Some(key) => match input.get_mut(key)? {
            Value::Array(edits) if edits.len() == 1 => &mut edits[0],
            _ => return None,
        },
    };
    let (old, new) = (text(edit, fields.old).ok()?, text(edit, fields.new).ok()?);
    let (old, new) = super::reindent::reindented(old, new, content)?;
    let object = edit.as_object_mut()?;
    object.insert(fields.old.to_string(), old.into());
    object.insert(fields.new.to_string(), new.into());
    let check = registry::run_on_file(row.value, &input, path, Some(content), &call.cwd)?;
    let exact = check.outcome.ok
        && !check.outcome.edits.is_empty()
        && check
            .outcome
            .edits
            .iter()
            .all(|m| m.found.is_some() && !m.loose);
    exact.then_some(input)
}

/// The trust checks of each old/new pair of an input a matcher places
/// exactly, run one after the other as srview's exact-string edits.
fn exact_doubts(row: &DialectRow, input: &Value, content: Option<&str>) -> Vec<String> {
    let (Some(fields), Some(mut current)) = (row.strings, content.map(str::to_string)) else {
        return Vec::new();
    };
    let Some(pairs) = call_correct::pairs(fields, input) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (old, new) in pairs {
        let edit = Edit::ClaudeEdit {
            file_path: String::new(),
            old_string: old,
            new_string: new,
            replace_all: false,
        };
        let outcome = edit::apply(&edit, Some(&current));
        out.extend(edit::edit_doubts(&outcome, &current));
        match outcome.result {
            Ok(done) => current = done.new_content,
            Err(_) => break,
        }
    }
    out
}

/// `text`'s lines, each indented by four spaces (a quoted block).
pub(super) fn indent(text: &str) -> String {
    text.trim_end_matches('\n')
        .split('\n')
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
