//! One tool call judged: which matcher runs it, and what it finds (before
//! the policy decides). Old/new string edits here; Codex's patches in
//! [`super::patch`].

use serde_json::Value;

use super::quotes::{borrowed, drops_curly_quotes, own_curly_quotes, quotes_of};
use super::wording::{LINE_DIFF_LEGEND, Terms, in_terms, line_diff_text};
use super::{Call, Case, Finding, GateAgent, NextStep};
use crate::diagnose::DiffLine;
use crate::dialect::apply_patch::{Entry, PatchFs, SharedText};
use crate::dialect::call::{CallOutcome, fs_path};
use crate::dialect::call_correct::{self, Correction};
use crate::dialect::edit::{self, Edit, EditError};
use crate::dialect::registry::{self, DialectRow};

/// How the gate runs one tool of one agent.
pub(super) enum ToolKind {
    /// An exact-string edit with srview's own semantics (Claude Code's
    /// `Edit`, Cline's `editor`), read as this tool.
    ExactString(&'static str),
    /// A whole-file write; the path and content keys.
    Write(&'static str, &'static str),
    /// Codex's `apply_patch`: the patch in `command`.
    CodexPatch,
    /// An agent matcher of the registry (its `--dialect` value); the key
    /// of the file it edits is its row's (`DialectRow::path_key`).
    Matcher(&'static str),
}

pub(super) fn kind(agent: GateAgent, tool: &str) -> Option<ToolKind> {
    Some(match (agent, tool) {
        (GateAgent::ClaudeCode, "Edit") => ToolKind::ExactString("Edit"),
        (GateAgent::ClaudeCode, "Write") => ToolKind::Write("file_path", "content"),
        (GateAgent::Codex, "apply_patch") => ToolKind::CodexPatch,
        (GateAgent::GeminiCli, "replace") => ToolKind::Matcher("gemini-replace"),
        (GateAgent::GeminiCli, "write_file") => ToolKind::Write("file_path", "content"),
        (GateAgent::QwenCode, "edit") => ToolKind::Matcher("qwen-edit"),
        (GateAgent::QwenCode, "write_file") => ToolKind::Write("file_path", "content"),
        (GateAgent::ClineCli, "editor") => ToolKind::ExactString("editor"),
        (GateAgent::ClineCli, "apply_patch") => ToolKind::Matcher("cline-apply-patch"),
        (GateAgent::Opencode, "edit") => ToolKind::Matcher("opencode-edit"),
        (GateAgent::Opencode, "write") => ToolKind::Write("filePath", "content"),
        (GateAgent::Opencode, "apply_patch") => ToolKind::Matcher("opencode-apply-patch"),
        (GateAgent::Pi, "edit") => ToolKind::Matcher("pi-edit"),
        (GateAgent::Pi, "write") => ToolKind::Write("path", "content"),
        _ => return None,
    })
}

/// What srview finds in `call`'s edit over `fs`.
pub(super) fn finding(agent: GateAgent, call: &Call, fs: &dyn PatchFs) -> Finding {
    let mut found = edit_finding(agent, call, fs);
    // An edit of the gate's own files passes no further unasked (a
    // tester's find: a Write of `{}` over .claude/settings.json, which
    // turns the gate off, had no opinion), nor is it repaired.
    if matches!(found.case, Case::Exact | Case::Doubt | Case::Loose)
        && let Some(touched) =
            (found.file.as_deref()).and_then(|file| super::own_files::touched(call, file, fs))
    {
        super::own_files::mark(&mut found, touched);
        found.next_step = NextStep::LeaveTheGate;
    }
    found
}

/// [`finding`] before the check of the gate's own files.
fn edit_finding(agent: GateAgent, call: &Call, fs: &dyn PatchFs) -> Finding {
    // An older Claude Code's MultiEdit, sent by a hook matcher written by
    // hand (`gate install` matches Edit|Write): not judged, so not let
    // through unjudged either (a tester's find: no opinion).
    if agent == GateAgent::ClaudeCode && call.tool == "MultiEdit" {
        let file = text(&call.input, "file_path").ok().map(str::to_string);
        return Finding::unreadable(
            file,
            "srview's gate does not judge MultiEdit (Claude Code 2.1.328, whose tools srview \
             follows, has none)"
                .to_string(),
            NextStep::EachWithEdit,
        );
    }
    match kind(agent, &call.tool) {
        None => Finding {
            case: Case::NotAnEdit,
            file: None,
            stage: None,
            explanation: String::new(),
            corrected: None,
            withheld: None,
            missing: None,
            next_step: NextStep::OwnText,
            note: None,
        },
        Some(ToolKind::ExactString(tool)) => exact_string(tool, call, fs),
        Some(ToolKind::Write(path_key, content_key)) => write(
            path_key,
            content_key,
            call,
            fs,
            agent == GateAgent::ClaudeCode,
        ),
        Some(ToolKind::CodexPatch) => super::patch::codex(call, fs),
        Some(ToolKind::Matcher(dialect)) => match registry::find(dialect) {
            Some(row) => matcher(row, row.path_key, call, fs),
            None => Finding::unreadable(
                None,
                format!("srview has no matcher {dialect}"),
                NextStep::CheckPath,
            ),
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

/// The file at `path` (as the input names it): its content (shared with
/// `fs`, not copied), `None` when it does not exist, or why it cannot be
/// read and what the model can do.
pub(super) fn read(
    fs: &dyn PatchFs,
    cwd: &str,
    path: &str,
) -> Result<Option<SharedText>, (String, NextStep)> {
    let check = |why: String| Err((why, NextStep::CheckPath));
    let entry = match fs.read_shared(&fs_path(cwd, path)) {
        Ok(content) => return Ok(Some(content)),
        Err(entry) => entry,
    };
    match entry {
        Entry::File(content) => Ok(Some(SharedText::new(content))),
        Entry::Missing => Ok(None),
        Entry::Directory => check(format!("{path} is a directory")),
        Entry::BelowFile => check(format!("a parent of {path} is a file")),
        // Rust's words for a file that is not UTF-8 are no help to the
        // model (a tester's find): said plainly.
        Entry::Unreadable(why) if why.contains("valid UTF-8") => {
            Err((not_utf8(path), NextStep::TellTheUser))
        }
        Entry::Unreadable(why) => check(format!("{path} cannot be read as text: {why}")),
    }
}

/// Why a file that is not UTF-8 cannot be judged ([`read`]).
fn not_utf8(path: &str) -> String {
    format!(
        "{path} is not UTF-8 text (its encoding is another, or it is binary), which srview \
         reads only"
    )
}

/// [`doubts`], each with what the model can do about it.
fn doubt_steps(outcome: &edit::EditOutcome, content: &str) -> Vec<(NextStep, String)> {
    doubt_steps_but_layout(outcome, content, false)
}

/// [`doubt_steps`]; `no_layout`: without the faults of the file as a
/// whole ([`edit::EditDoubtKind::of_layout`]), for one edit of a call
/// whose whole result is judged for them.
fn doubt_steps_but_layout(
    outcome: &edit::EditOutcome,
    content: &str,
    no_layout: bool,
) -> Vec<(NextStep, String)> {
    use edit::EditDoubtKind as Kind;
    edit::edit_doubt_kinds(outcome, content)
        .into_iter()
        .filter(|(kind, _)| !(no_layout && kind.of_layout()))
        .map(|(kind, message)| {
            let step = match kind {
                Kind::AlreadyApplied => NextStep::AlreadyThere,
                // Their sentences end with what to send.
                Kind::ElidesLines
                | Kind::WritesTwice
                | Kind::RepeatsNeighbours
                | Kind::Layout(_)
                | Kind::MixesEndings
                | Kind::LineEndings
                | Kind::RenamesOthers
                | Kind::HiddenText
                | Kind::JoinsLines
                | Kind::WhitespaceStripped => NextStep::Said,
                Kind::CutsWord | Kind::InComment => NextStep::WholeLines,
            };
            (step, message)
        })
        .collect()
}

/// Claude Code's `Edit`, Cline's `editor`.
fn exact_string(tool: &str, call: &Call, fs: &dyn PatchFs) -> Finding {
    let parsed = Edit::from_tool_input(tool, &call.input.to_string());
    let edit = match parsed {
        Ok(edit) => edit,
        Err(e) => {
            return Finding::unreadable(
                None,
                format!("the tool input cannot be read: {e}"),
                NextStep::EveryField,
            );
        }
    };
    let file = edit.path().to_string();
    let content = match read(fs, &call.cwd, &file) {
        Ok(content) => content,
        Err((why, step)) => return Finding::unreadable(Some(file), why, step),
    };
    let outcome = edit::apply(&edit, content.as_deref());
    let error = match &outcome.result {
        Ok(_) => {
            // Cline's editor creates a missing file from new_text alone
            // (stage `empty`): with an old_text to replace, the path is
            // likely misspelt (a new user's find: the edit passed as exact,
            // a stray file was created and the model believed it edited
            // the real one).
            if let (
                None,
                Edit::ClineEditor {
                    old_text: Some(old),
                    insert_line: None,
                    ..
                },
            ) = (&content, &edit)
                && !old.is_empty()
            {
                return Finding {
                    case: Case::Doubt,
                    file: Some(file.clone()),
                    stage: Some("empty".to_string()),
                    explanation: format!(
                        "{file} does not exist, so Cline would create it holding only \
                         new_text, though old_text names text to replace in it: check the path."
                    ),
                    corrected: None,
                    withheld: None,
                    missing: None,
                    next_step: NextStep::Said,
                    note: None,
                };
            }
            let doubts = doubt_steps(&outcome, content.as_deref().unwrap_or(""));
            // Said only with a doubt: not counted for an exact edit.
            let place = (!doubts.is_empty())
                .then_some(outcome.block.original)
                .flatten()
                .map(|span| place_of(content.as_deref().unwrap_or(""), span.start, span.end));
            let mut found = exact_or_doubt(file, "exact", place, doubts);
            if found.case == Case::Doubt
                && let Some(content) = content.as_deref()
            {
                found.corrected = super::exact_correct::exact_correction(
                    &edit,
                    &outcome,
                    Some(content),
                    &call.input,
                )
                .input;
            }
            return found;
        }
        Err(error) => error,
    };
    let diagnosis = outcome.diagnosis.as_ref();
    let super::exact_correct::ExactCorrection {
        input: corrected,
        withheld,
        answers_diagnosis,
    } = super::exact_correct::exact_correction(&edit, &outcome, content.as_deref(), &call.input);
    let missing = matches!(error, EditError::ClaudeFileMissing)
        .then(|| super::answer::Missing::to_edit(file.clone()));
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
        // The correction's decision answers the diagnosis's own "no
        // corrected edit": its sentence saying so is left out.
        let message = super::exact_correct::diagnosis_said(&d.message, answers_diagnosis);
        // A diagnosis that opens with the agent's own error (said just
        // above) goes on from after it, not saying it twice.
        let error_text = error.to_string();
        let message = match message.strip_prefix(error_text.trim_end()) {
            Some(rest) if !quotes => rest.trim_start(),
            _ => message,
        };
        let terms = match tool {
            "editor" => Terms::fields("old_text", "new_text"),
            _ => Terms::fields("old_string", "new_string"),
        };
        push_diagnosis(&mut explanation, message, &d.line_diff, terms);
    }
    let case = if quotes { Case::Loose } else { Case::Failing };
    let unchanged = matches!(error, EditError::ClaudeNoChange);
    Finding {
        case,
        file: Some(file),
        stage: Some(if quotes { "quote-normalised" } else { "failed" }.to_string()),
        next_step: NextStep::after_refusal(&explanation, case, unchanged),
        explanation,
        corrected,
        withheld,
        missing,
        note: None,
    }
}

/// Adds a diagnosis's sentence (in `terms`, see [`in_terms`]) and line diff
/// to an explanation.
fn push_diagnosis(explanation: &mut String, message: &str, lines: &[DiffLine], terms: Terms) {
    if !message.is_empty() {
        explanation.push('\n');
        explanation.push_str(in_terms(message, &terms).trim_end());
    }
    if !lines.is_empty() {
        explanation.push_str(&format!("\nThe lines {LINE_DIFF_LEGEND}:\n"));
        explanation.push_str(line_diff_text(lines).trim_end());
    }
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
    doubts: Vec<(NextStep, String)>,
) -> Finding {
    // An exact edit is denied only when the policy holds it back.
    let next_step = NextStep::first(doubts.iter().map(|(step, _)| *step), NextStep::OnlyTheUser);
    let doubts: Vec<String> = doubts.into_iter().map(|(_, message)| message).collect();
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
        missing: None,
        next_step,
        note: None,
    }
}

/// A write whose content adds bidirectional controls or zero-width
/// characters the file (`old`: nothing, for a new file) did not hold
/// ([`crate::diagnose::hidden`]); its sentence ends with what to send.
fn hidden_write(old: &str, new: &str) -> Option<(NextStep, String)> {
    let added = crate::diagnose::hidden::hidden_added(old, [new])?;
    Some((NextStep::Said, added.describe("its content")))
}

/// A whole-file write: nothing to match; in doubt only when the file
/// already holds exactly that content, when the content stands in for
/// lines it leaves out, when it breaks the layout of an existing file
/// (Python's indentation, a Makefile's recipe tabs) that read clean
/// before, or when it adds bidirectional controls or zero-width
/// characters.
/// `claude`: Claude Code's `Write`, whose content's line endings are
/// judged as `check` judges them ([`edit::write_endings_doubt`]: Claude
/// Code writes the content as sent).
fn write(
    path_key: &str,
    content_key: &str,
    call: &Call,
    fs: &dyn PatchFs,
    claude: bool,
) -> Finding {
    let (file, new) = match (text(&call.input, path_key), text(&call.input, content_key)) {
        (Ok(file), Ok(new)) => (file.to_string(), new),
        (Err(why), _) | (_, Err(why)) => {
            return Finding::unreadable(None, why, NextStep::CheckPath);
        }
    };
    let read = read(fs, &call.cwd, &file);
    // The write check `check` and `apply --write` run too
    // ([`edit::write_doubt`]); a stand-in's sentence ends with what to
    // send. The layout check reads only the part around what the write changes
    // (a write of a 10,000-line file that changes a few lines costs what
    // an edit of them does); a new file's, against no file (brackets, a
    // key or a name twice, JSON that does not read).
    let layout = |old: &str| -> Vec<(NextStep, String)> {
        crate::diagnose::layout::layout_break(&file, old, new)
            .map(|b| {
                (
                    NextStep::Said,
                    format!("its content leaves {file} {}: {}", b.leaves(), b.why),
                )
            })
            .into_iter()
            .chain(hidden_write(old, new))
            .collect()
    };
    let content = match read {
        Ok(content) => content,
        // A whole write over a file that is not UTF-8 needs nothing of it
        // to be placed (a tester's find: it was always denied as "cannot
        // be judged", though the model re-encodes the file): its content
        // judged as a new file's, and the checks that read the old text
        // said not run.
        Err((why, _)) if why == not_utf8(&file) => {
            let said = (
                NextStep::Said,
                format!(
                    "{file} is not UTF-8 text now (its encoding is another, or it is binary), \
                     and this write replaces it with UTF-8 text: srview judged the content as a \
                     new file's, but could not check it against the old text (whether it stands \
                     in for lines it leaves out, or changes nothing)"
                ),
            );
            let doubts: Vec<(NextStep, String)> = std::iter::once(said).chain(layout("")).collect();
            let mut found = exact_or_doubt(file.clone(), "write", None, doubts.clone());
            let doubts: Vec<&str> = doubts.iter().map(|(_, why)| why.as_str()).collect();
            found.explanation = format!(
                "the whole write of {file} is in doubt: {}.",
                doubts.join("; ")
            );
            return found;
        }
        Err((why, step)) => return Finding::unreadable(Some(file), why, step),
    };
    let doubts = match content.as_deref() {
        Some(old) => {
            let endings = claude
                .then(|| edit::write_endings_doubt(&file, old, new))
                .flatten()
                .map(|(_, why)| (NextStep::Said, why));
            let mut doubts: Vec<(NextStep, String)> = endings.into_iter().collect();
            match edit::write_doubt(&file, old, new) {
                Some((edit::EditDoubtKind::AlreadyApplied, why)) => {
                    doubts.push((NextStep::AlreadyThere, why));
                }
                Some((_, why)) => doubts.push((NextStep::Said, why)),
                None if doubts.is_empty() => doubts.extend(layout(old)),
                None => {}
            }
            doubts
        }
        None => layout(""),
    };
    exact_or_doubt(file, "write", None, doubts)
}

/// An agent matcher of the registry (Gemini CLI's `replace`, Qwen Code's
/// `edit`, Cline's `apply_patch`), with srview's exact-string diagnosis of
/// each failed or loose edit and the corrected input its matcher places
/// exactly ([`call_correct::correct`]).
fn matcher(row: &DialectRow, path_key: Option<&str>, call: &Call, fs: &dyn PatchFs) -> Finding {
    let Some(agent_matcher) = row.matcher() else {
        return Finding::unreadable(
            None,
            format!("{} runs no agent matcher", row.value),
            NextStep::CheckPath,
        );
    };
    // An input without its path is the agent's own validation error: its
    // matcher gives it.
    let file = path_key
        .and_then(|key| text(&call.input, key).ok())
        .map(str::to_string);
    let content = match &file {
        Some(file) => match read(fs, &call.cwd, file) {
            Ok(content) => content,
            Err((why, step)) => return Finding::unreadable(Some(file.clone()), why, step),
        },
        None => None,
    };
    let outcome = agent_matcher.run(&crate::dialect::call::ToolCall {
        input: &call.input,
        cwd: &call.cwd,
        fs,
    });
    let stage = outcome.stage.clone();
    // What the finding names: the edited file, or the files a patch names.
    let named = file.clone().or_else(|| {
        patch_key(row)
            .and_then(|key| call.input.get(key)?.as_str())
            .and_then(|text| {
                super::patch::files_of_text(text).or_else(|| {
                    // A patch Codex's parser refuses and OpenCode's reads.
                    (row.value == "opencode-apply-patch")
                        .then(|| super::dropped::files_of_text(text))
                        .flatten()
                })
            })
    });
    if outcome.hangs {
        return Finding {
            case: Case::Failing,
            file: named,
            stage,
            explanation: format!(
                "{}'s own code never returns on this input: the agent would hang here.",
                row.title
            ),
            corrected: None,
            withheld: None,
            missing: None,
            next_step: NextStep::OwnText,
            note: None,
        };
    }
    let loose: Vec<(usize, &crate::dialect::call::EditMatch)> = outcome.loose_edits().collect();
    if outcome.ok && loose.is_empty() && outcome.rewritten_outside.is_empty() {
        // A patch over a folder: its files and srview's patch doubts (a
        // tester's find: OpenCode's and Cline's patches passed the checks
        // Codex's get, and were recorded as of "the files").
        // Judged where the matcher ran ([`crate::dialect::patch_family`]),
        // as `check` and `apply --write` judge it.
        let patched = patch_key(row)
            .and_then(|key| call.input.get(key)?.as_str())
            .map(|text| super::patch::doubts_of_outcome(row.value, text, &outcome, fs, &call.cwd));
        let (file, mut doubts, note) = match patched {
            Some((files, doubts, note)) => (files.or(named), doubts, note),
            None => (
                named,
                exact_doubts(row, &call.input, file.as_deref(), content.as_deref()),
                None,
            ),
        };
        // A hunk placed at the first of several places where the agent's
        // own matcher searched (Cline's `apply_patch` ignoring an `@@`
        // line it does not find and taking the first copy from the top: a
        // tester's find, `check` said so and the gate allowed it). Codex's
        // patch checks above judge Codex's search, not the agent's; the
        // doubts come from the one function `check` reads them from
        // ([`crate::dialect::call_doubts::exact_doubt_kinds`]).
        if patch_key(row).is_some() && row.matcher().is_some_and(|m| m.takes_first_of_several()) {
            let before = |edit: &crate::dialect::call::EditMatch| {
                // The file the edit names, else the call's one file.
                let path = match (&edit.path, &outcome.writes[..]) {
                    (Some(path), _) => path.as_str(),
                    (None, [only]) => only.path.as_str(),
                    _ => return None,
                };
                read(fs, &call.cwd, path).ok()?.map(|text| text.to_string())
            };
            let judged = crate::dialect::call_doubts::Judged {
                first_wins: true,
                ..Default::default()
            };
            // With each hunk's own checks that the patch's (said above)
            // leave to it, as `check` says them.
            use crate::dialect::call_doubts::CallDoubtKind as K;
            use crate::dialect::edit::EditDoubtKind as E;
            let first: Vec<(NextStep, String)> =
                crate::dialect::call_doubts::exact_doubt_kinds(&outcome, &before, judged)
                    .into_iter()
                    .filter(|(_, m)| !doubts.iter().any(|(_, said)| said == m))
                    .filter_map(|(kind, m)| match kind {
                        K::FirstOfSeveral => Some((NextStep::WholeLines, m)),
                        K::Edit(E::AlreadyApplied) => Some((NextStep::AlreadyThere, m)),
                        K::Edit(E::RepeatsNeighbours | E::ElidesLines | E::HiddenText) => {
                            Some((NextStep::Said, m))
                        }
                        _ => None,
                    })
                    .collect();
            doubts.extend(first);
        }
        // Line endings as the agent writes them (OpenCode keeps each
        // line's, Gemini CLI and Qwen Code end every line with CRLF in a
        // file holding one; others write the model's as they are): judged
        // on what it writes, not on a replay as Claude Code's edit (a
        // tester's find: OpenCode was denied for an ending it keeps).
        let written = outcome.writes.first().and_then(|w| w.content.as_deref());
        if let (Some(before), Some(written)) = (content.as_deref(), written) {
            doubts.extend(
                crate::diagnose::doubt::endings_doubt(before, written)
                    .map(|(_, m)| (NextStep::Said, m)),
            );
        }
        // Lines of the patch the agent's parser drops (OpenCode's
        // `apply_patch`): each sentence ends with what to send.
        doubts.extend(outcome.dropped.iter().map(|m| (NextStep::Said, m.clone())));
        // Its sentence ends with what to send.
        doubts.extend(
            super::dollars::expanded(row, &call.input, &outcome)
                .into_iter()
                .map(|m| (NextStep::Said, m)),
        );
        // Said once: another doubt already stops the edit.
        if doubts.is_empty() {
            doubts.extend(
                indent_doubt(file.as_deref(), content.as_deref(), &outcome)
                    .map(|m| (NextStep::Said, m)),
            );
        }
        let place = outcome
            .edits
            .iter()
            .filter_map(|m| m.lines)
            .map(|(a, b)| crate::words::line_range("line", a, b))
            .collect::<Vec<_>>()
            .join(", ");
        let place = (!place.is_empty()).then_some(place);
        let mut found = exact_or_doubt(
            file.unwrap_or_else(|| "the files".to_string()),
            stage.as_deref().unwrap_or("exact"),
            place,
            doubts,
        );
        found.note = note;
        if let Some(key) = patch_key(row).filter(|_| found.case == Case::Doubt) {
            let patch = super::moved::PatchCall { row, key, call, fs };
            (found.corrected, found.withheld) = super::moved::own(&patch);
            if (found.corrected.is_none() && found.withheld.is_none())
                && !outcome.dropped.is_empty()
            {
                (found.corrected, found.withheld) = super::dropped::own(&patch);
            }
            let split = |d: &crate::dialect::apply_patch::PatchDoubt| {
                d.kind == crate::dialect::apply_patch::PatchDoubtKind::SplitSections
            };
            if (found.corrected.is_none() && found.withheld.is_none())
                && outcome.patch_doubts.iter().flatten().any(split)
            {
                (found.corrected, found.withheld) = super::moved::own_joined(&patch);
            }
        }
        return found;
    }
    let mut explanation = if outcome.ok {
        let mut s = String::new();
        let pairs = row
            .strings
            .and_then(|fields| call_correct::pairs(fields, &call.input))
            .unwrap_or_default();
        for (i, m) in &loose {
            let at = m
                .lines
                .map(|(a, b)| format!(" at {}", crate::words::line_range("line", a, b)))
                .unwrap_or_default();
            // Each sentence on a line of its own after the quoted lines (a
            // new user's find: "| label = “LOW” ifpi 0.73.1's edit tool ...").
            if !s.is_empty() && !s.ends_with('\n') {
                s.push('\n');
            }
            // Every place an edit replacing all it finds changes, not only
            // its first (a tester's find: one place told of 42).
            let also = &m.also_replaced;
            let others = match also.len() {
                0 => String::new(),
                n => format!(
                    ", and at {} ({}{})",
                    crate::words::count(n, "other place"),
                    also.iter()
                        .take(5)
                        .map(|&(a, b)| crate::words::line_range("line", a, b))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if n > 5 { ", ..." } else { "" }
                ),
            };
            s.push_str(&format!(
                "{} would place edit {}{at}{others} only by its loose stage `{}`: the text it \
                 replaces is not the text the model wrote.",
                row.title,
                i + 1,
                m.stage
            ));
            if let (Some(found), Some(written)) = (&m.found, &m.written) {
                let first = if also.is_empty() {
                    ""
                } else {
                    " at its first place (each other place holds its own text)"
                };
                s.push_str(&format!(
                    "\nIt would replace{first} (every line, blank ones included):\n{}\nwith:\n{}",
                    quoted_lines(found),
                    quoted_lines(written)
                ));
                let meant = pairs.get(*i).map_or(0, |(old, new)| {
                    blank_lines(old) as isize - blank_lines(new) as isize
                });
                let deleted = blank_lines(found) as isize - blank_lines(written) as isize;
                if deleted > meant {
                    s.push_str(&format!(
                        "\nIt would delete {} the model's edit does not delete.",
                        crate::words::count((deleted - meant) as usize, "blank line")
                    ));
                }
            }
        }
        // Lines of the patch the agent's parser drops besides.
        for dropped in &outcome.dropped {
            if !s.is_empty() && !s.ends_with('\n') {
                s.push('\n');
            }
            s.push_str(&format!("{dropped}."));
        }
        if !outcome.rewritten_outside.is_empty() {
            if !s.is_empty() && !s.ends_with('\n') {
                s.push('\n');
            }
            let ranges: Vec<String> = outcome
                .rewritten_outside
                .iter()
                .map(|&(a, b)| crate::words::line_range("line", a, b))
                .collect();
            let count: usize = outcome
                .rewritten_outside
                .iter()
                .map(|&(a, b)| b + 1 - a.min(b + 1))
                .sum();
            s.push_str(&format!(
                "{} also rewrites {} no edit covers ({})",
                row.title,
                crate::words::count(count, "line"),
                ranges.join(", ")
            ));
            // Line endings the whole file is written with (pi): no edit
            // text avoids it, and the model is told so (a tester's find:
            // it read only "also rewrites lines no edit covers").
            let written = outcome.writes.first().and_then(|w| w.content.as_deref());
            let mixed = |text: &str| {
                let crlf = text.matches("\r\n").count();
                (crlf, crate::dialect::quick::count_newlines(text) - crlf)
            };
            match (content.as_deref().map(mixed), written.map(mixed)) {
                (Some((crlf, lf)), Some((new_crlf, new_lf)))
                    if crlf > 0 && lf > 0 && (new_crlf == 0 || new_lf == 0) =>
                {
                    let kind = if new_crlf == 0 { "LF" } else { "CRLF" };
                    s.push_str(&format!(
                        ": the file mixes CRLF and LF line endings, and it writes every line \
                         with {kind}, whatever the edit's text: tell the user, who can unify \
                         the file's line endings first."
                    ));
                }
                _ => s.push('.'),
            }
        }
        s
    } else {
        let error = outcome
            .error
            .as_deref()
            .unwrap_or("its matcher gives no text")
            .trim_end();
        let mut s = format!("{} would refuse this {}: {error}", row.title, call.tool);
        // Places a loose stage found, read by the agent as copies (Gemini
        // CLI's "found 42 ... set 'allow_multiple'"): said as what they are
        // (a tester's find: beside srview's "does not occur", the two
        // contradicted each other, and allow_multiple would rewrite them
        // all).
        let stage = outcome.edits.first().map(|e| e.stage.as_str());
        let found = error
            .split_once("but found ")
            .and_then(|(_, rest)| rest.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok());
        if let (Some(stage), Some(n)) = (stage, found)
            && !matches!(stage, "exact" | "none" | "failed" | "precheck")
        {
            s.push_str(&format!(
                "\nThose {n} places are what its loose stage `{stage}` found: text that looks \
                 like old_string, not copies of it. Do not set allow_multiple: it would \
                 rewrite every one of them."
            ));
        }
        s
    };
    // An empty old text over a file that exists, which the agent refuses
    // (its own error says so): no diagnosis of it as an exact-string edit
    // (a tester's find: Claude Code's "Cannot create new file" under pi's
    // error); the next step says what to send.
    let creates_over_existing = !outcome.ok
        && content.is_some()
        && row
            .strings
            .and_then(|fields| call_correct::pairs(fields, &call.input))
            .is_some_and(|pairs| !pairs.is_empty() && pairs.iter().all(|(old, _)| old.is_empty()));
    // A replace-all edit placed loosely at several places: every place is
    // meant (tester 51, T-10), each re-indented as the file has it there.
    let every_place = match (&file, content.as_deref()) {
        (Some(path), Some(content)) => {
            super::replace_all::every_place(row, &call.input, (path, &call.cwd), content, &outcome)
        }
        _ => None,
    };
    let (corrected, withheld) = match (&file, content.as_deref(), &every_place) {
        _ if creates_over_existing => (None, None),
        (Some(path), Some(content), Some(every)) => {
            explanation.push_str(&every.said);
            let doubted = (every.corrected.iter().chain(&every.per_indentation))
                .find_map(|edit| correction_doubt(row, edit, path, content));
            match (&every.corrected, doubted) {
                (_, Some(why)) => (None, Some(why)),
                (Some(edit), None) => (Some(edit.clone()), None),
                // The explanation ends with the edits to send, one per
                // indentation: no reason to withhold beside them.
                (None, None) => (None, None),
            }
        }
        (Some(path), Some(content), None) => {
            match settled_correction(row, &call.input, (path, &call.cwd), content, &outcome) {
                Some(settled) => {
                    for explained in &settled.edits {
                        let terms = row
                            .strings
                            .map_or(Terms::fields("old text", "new text"), |f| {
                                Terms::fields(f.old, f.new)
                            });
                        push_diagnosis(
                            &mut explanation,
                            &explained.message,
                            &explained.line_diff,
                            terms,
                        );
                    }
                    (settled.input, settled.withheld)
                }
                None => (None, None),
            }
        }
        (None, ..) => match patch_key(row) {
            Some(key) => corrected_patch(row, key, call, fs, &mut explanation),
            None => (None, None),
        },
        _ => (None, None),
    };
    // A file to edit that does not exist (`content` is `None` only then),
    // when that is what the agent refuses (not its input's shape).
    let not_found = outcome.error.as_deref().is_some_and(|e| {
        let e = e.to_lowercase();
        ["not found", "enoent", "does not exist", "no such file"]
            .iter()
            .any(|words| e.contains(words))
    });
    let missing = file
        .clone()
        .filter(|_| !outcome.ok && content.is_none() && not_found)
        .map(super::answer::Missing::to_edit);
    let case = if outcome.ok {
        Case::Loose
    } else {
        Case::Failing
    };
    let pairs = row
        .strings
        .and_then(|fields| call_correct::pairs(fields, &call.input));
    // Every old text sent as its new text: the edit changes nothing.
    let unchanged = pairs
        .as_ref()
        .is_some_and(|pairs| !pairs.is_empty() && pairs.iter().all(|(old, new)| old == new));
    let mut next_step = NextStep::after_refusal(&explanation, case, unchanged);
    // The edits to send, one per indentation, end the explanation.
    if every_place
        .as_ref()
        .is_some_and(|every| !every.per_indentation.is_empty())
    {
        next_step = NextStep::Said;
    }
    // An empty old text (a file to create) for a file that exists: the
    // agent's write tool (a tester's find: "send an edit whose old text is
    // the file's own" for an empty file, which has none).
    let creates = pairs
        .as_ref()
        .is_some_and(|pairs| !pairs.is_empty() && pairs.iter().all(|(old, _)| old.is_empty()));
    if case == Case::Failing
        && creates
        && content.is_some()
        && let Some(write) = write_tool(row)
    {
        next_step = NextStep::WriteWhole(write);
    }
    // A patch placed only loosely over a file with CRLF line endings, which
    // the patch tool compares with their `\r` (a tester's find: OpenCode's
    // `apply_patch` on a CRLF file, "read the file again", which reads the
    // same).
    if case == Case::Loose
        && let Some(crlf) = patch_key(row).and_then(|_| crlf_file(named.as_deref(), call, fs))
    {
        explanation.push_str(&format!(
            "\n{crlf} ends its lines with CRLF (\\r\\n), and {} compares lines with their \\r: no \
             patch line the model writes matches them exactly, and the lines it adds would be \
             written with LF among the file's CRLF lines.",
            row.title
        ));
        next_step = NextStep::LineEndings;
    }
    Finding {
        case,
        file: named,
        stage,
        next_step,
        explanation,
        corrected,
        withheld,
        missing,
        note: None,
    }
}

/// The corrected input of a string-edit call (Gemini CLI's `replace`, Qwen
/// Code's, OpenCode's and pi's `edit`) srview stands behind: one decision
/// for the gate, `srview check --dialect` and `srview fix --dialect`, so
/// the three offer the same correction or give the same reason for none
/// (testers' 43b-04 and 43a-08: `check` and `fix` refused a misindented
/// edit the gate re-indented). The diagnosis' correction
/// ([`call_correct::correct`]), else the re-indented edits
/// ([`super::reindent`]); either withheld where a quote would change or a
/// trust check doubts it, as an exact edit's.
///
/// The failed or loose edits of `input` explained and the correction
/// srview stands behind: `row`'s matcher ran over `content` at `path`
/// (`cwd` the agent's root) with `outcome`. In the [`Correction`]
/// returned, `input` is the corrected input offered, `withheld` why none
/// is (never both `None` when an edit is explained), and an edit's message
/// leaves out its diagnosis' "No corrected edit" sentence where the
/// re-indentation answers it. `None` as [`call_correct::correct`]'s.
pub fn settled_correction(
    row: &DialectRow,
    input: &Value,
    (path, cwd): (&str, &str),
    content: &str,
    outcome: &CallOutcome,
) -> Option<Correction> {
    let correction = call_correct::correct(row, input, content, (path, cwd), outcome)?;
    // Computed once: it runs the agent's matcher again.
    let (reindented, reindent_why, superseded) = match correction.input {
        Some(_) => (None, None, Vec::new()),
        None => {
            let (fixed, superseded) =
                reindented_input(row, (input, cwd), path, content, &correction);
            match fixed {
                Ok(fixed) => (Some(fixed), None, superseded),
                Err(why) => (None, why, superseded),
            }
        }
    };
    let Correction {
        mut edits,
        input: diagnosed,
        withheld: diagnosis_withheld,
    } = correction;
    for explained in &mut edits {
        // The exact-string diagnosis withholds a correction the
        // re-indentation gives (or says why not): its sentence saying so
        // is left out.
        if superseded.contains(&explained.index)
            && let Some((said, _)) = explained.message.split_once(" No corrected edit:")
        {
            explained.message = said.to_string();
        }
    }
    let candidate = diagnosed.or(reindented);
    let own_pairs = |input: &Value| {
        row.strings
            .and_then(|fields| call_correct::pairs(fields, input))
            .unwrap_or_default()
    };
    let delta = |input: &Value| {
        let pairs = own_pairs(input);
        quotes_of(pairs.iter().map(|(o, n)| (o.as_str(), n.as_str())))
    };
    let dropped = candidate.as_ref().and_then(|fixed| {
        let (sent, fixed_pairs) = (own_pairs(input), own_pairs(fixed));
        own_curly_quotes(&borrowed(&sent), &borrowed(&fixed_pairs))
            .or_else(|| drops_curly_quotes(delta(input), delta(fixed)))
    });
    let doubted = candidate
        .as_ref()
        .filter(|_| dropped.is_none())
        .and_then(|fixed| correction_doubt(row, fixed, path, content));
    let corrected = candidate.filter(|_| dropped.is_none() && doubted.is_none());
    let withheld = match (
        &corrected,
        dropped.or(doubted).or(reindent_why).or(diagnosis_withheld),
    ) {
        (Some(_), _) => None,
        (None, Some(why)) => Some(why),
        (None, None) => Some("the corrected edit is in doubt (srview's trust checks)".into()),
    };
    Some(Correction {
        edits,
        input: corrected,
        withheld,
    })
}

/// The input of a call (Gemini's `replace`, Qwen's and OpenCode's `edit`,
/// pi's `edit` with one entry or several) with the old and new texts of
/// each edit srview's diagnosis could not place (`correction`)
/// re-indented as the file is ([`super::reindent`]), each as it would be
/// alone; an edit of several the agent places exactly is left as sent,
/// and one the re-indentation leaves but the diagnosis corrects (a
/// misspelt line) is sent as the diagnosis corrects it. Offered when the
/// agent's own matcher then places every edit exactly (pi: each against
/// the file as it was, none overlapping); `Err` as
/// [`super::reindent::reindented`]'s, its reason naming the edit of
/// several it is about, the edits nothing corrects, or that the matcher
/// does not place the re-indented edits together (a tester's find: one
/// misindented edit of pi's several was refused with the diagnosis'
/// "would land misindented", which the same edit alone got re-indented).
/// With it, the indices of the edits whose diagnosis' "no corrected edit"
/// sentence this answers (re-indented, or told why not).
fn reindented_input(
    row: &DialectRow,
    (input, cwd): (&Value, &str),
    path: &str,
    content: &str,
    correction: &call_correct::Correction,
) -> (Result<Value, Option<String>>, Vec<usize>) {
    let Some((fields, pairs)) = row
        .strings
        .and_then(|fields| Some((fields, call_correct::pairs(fields, input)?)))
    else {
        return (Err(None), Vec::new());
    };
    // The edits whose diagnosis' "no corrected edit" the re-indentation
    // answers: re-indented, or told why not. One alone: answered whatever
    // the re-indentation gives.
    let several = pairs.len() > 1;
    let mut superseded = Vec::new();
    let mut input = input.clone();
    // Why not, said of the first edit of several re-indenting tells; the
    // edits of several neither re-indenting nor the diagnosis corrects.
    let mut why_not: Option<String> = None;
    let mut uncorrected: Vec<String> = Vec::new();
    for (index, (old, new)) in pairs.iter().enumerate() {
        let Some(explained) = correction.edits.iter().find(|e| e.index == index) else {
            // Placed exactly as sent.
            continue;
        };
        let fixed = match super::reindent::reindented(path, old, new, content) {
            Ok(fixed) => {
                superseded.push(index);
                fixed
            }
            Err(why) if !several => {
                let told = why.is_some().then_some(index).into_iter().collect();
                return (Err(why), told);
            }
            Err(Some(why)) => {
                superseded.push(index);
                why_not.get_or_insert(format!(
                    "for edit {} of the {}, {why}",
                    index + 1,
                    pairs.len()
                ));
                continue;
            }
            // One of several that the diagnosis corrects as it is.
            Err(None) => match (&explained.corrected_old, &explained.corrected_new) {
                (Some(old), Some(new)) => (old.clone(), new.clone()),
                _ => {
                    uncorrected.push(format!("{}", index + 1));
                    continue;
                }
            },
        };
        input = call_correct::with_pair(fields, &input, index, &fixed.0, &fixed.1);
    }
    if !uncorrected.is_empty() {
        why_not = Some(format!(
            "srview cannot stand behind a correction of {} {} of the {}",
            if uncorrected.len() == 1 {
                "edit"
            } else {
                "edits"
            },
            uncorrected.join(", "),
            pairs.len()
        ));
    }
    if let Some(why) = why_not {
        return (Err(Some(why)), superseded);
    }
    let Some(check) = registry::run_on_file(row.value, &input, path, Some(content), cwd) else {
        return (Err(None), superseded);
    };
    let exact = check.outcome.ok
        && !check.outcome.edits.is_empty()
        && check
            .outcome
            .edits
            .iter()
            .all(|m| m.found.is_some() && !m.loose);
    let result = match (exact, several) {
        (true, _) => Ok(input),
        (false, false) => return (Err(None), Vec::new()),
        (false, true) => Err(Some(format!(
            "each edit re-indented as it would be alone, {} would not place them together \
             exactly ({})",
            row.title,
            not_exact(&check.outcome)
        ))),
    };
    (result, superseded)
}

/// Why srview cannot stand behind a corrected (or repaired) input of an
/// old/new-string matcher (Gemini CLI's `replace`, Qwen Code's, OpenCode's
/// and pi's `edit`): the trust checks of [`exact_doubts_at`] run on it as on
/// the file at `path`, so the checks that depend on the file's kind (Python
/// left misindented, [`crate::diagnose::doubt_indent`]) run too, as they do
/// for a Claude Code or Cline correction (the gate's `stand_behind`) and a Codex
/// patch's. A fresh tester's find: a re-indented repair wrote a new line at
/// a column no enclosing block has, and Gemini CLI ran it.
fn correction_doubt(row: &DialectRow, input: &Value, path: &str, content: &str) -> Option<String> {
    let doubts: Vec<String> = exact_doubts_at(row, input, path, Some(content), false)
        .into_iter()
        .map(|(_, why)| why)
        .collect();
    (!doubts.is_empty()).then(|| format!("the corrected edit is in doubt: {}", doubts.join("; ")))
}

/// The agent's tool that writes a whole file, with its fields, for a
/// matcher of old/new texts.
fn write_tool(row: &DialectRow) -> Option<&'static str> {
    Some(match row.value {
        "gemini-replace" | "qwen-edit" => "write_file tool (file_path, content)",
        "opencode-edit" => "write tool (filePath, content)",
        "pi-edit" => "write tool (path, content)",
        _ => return None,
    })
}

/// The first of `files` (as a patch names them, joined by `, `) whose
/// lines end with CRLF, as it is named.
fn crlf_file(files: Option<&str>, call: &Call, fs: &dyn PatchFs) -> Option<String> {
    files?
        .split(", ")
        .find_map(|file| match read(fs, &call.cwd, file) {
            Ok(Some(content)) if content.contains("\r\n") => Some(file.to_string()),
            _ => None,
        })
}

/// A Python file an agent matcher's exact edit leaves misindented
/// ([`crate::diagnose::doubt_indent`]), or any fault
/// [`crate::diagnose::layout::layout_break`] reads (a brace language's
/// brackets unbalanced, a function defined twice) in the agent's whole
/// result: `file` as the input names it, `content` before the edit.
fn indent_doubt(
    file: Option<&str>,
    content: Option<&str>,
    outcome: &crate::dialect::call::CallOutcome,
) -> Option<String> {
    let (file, content) = (file?, content?);
    let written = outcome.writes.first()?.content.as_deref()?;
    crate::diagnose::layout::layout_break(file, content, written).map(|b| b.why)
}

/// The key of a patch dialect's patch text in its input (OpenCode's and
/// Cline's `apply_patch`: the same `*** Begin Patch` envelope as Codex's).
fn patch_key(row: &DialectRow) -> Option<&'static str> {
    match row.value {
        "opencode-apply-patch" => Some("patchText"),
        "cline-apply-patch" => Some("input"),
        _ => None,
    }
}

/// A patch of OpenCode's or Cline's `apply_patch` that failed or matched a
/// hunk loosely, corrected as srview corrects a Codex patch (the patch read
/// and applied by srview's port of Codex's applier: loose lines as the file
/// has them, added lines re-indented, failed hunks moved onto their
/// region), and offered only when the agent's OWN matcher places every
/// hunk of the correction exactly and succeeds, and srview's patch doubts
/// find nothing. Where it says why a hunk failed, the explanation gets the
/// closest region. (corrected input, why none).
fn corrected_patch(
    row: &DialectRow,
    key: &str,
    call: &Call,
    fs: &dyn PatchFs,
    explanation: &mut String,
) -> (Option<Value>, Option<String>) {
    use crate::dialect::apply_patch::{self, HunkState};
    let Some(text) = call.input.get(key).and_then(Value::as_str) else {
        return (None, None);
    };
    let Ok(patch) = apply_patch::parse(text) else {
        return (
            None,
            Some("srview cannot read this patch as Codex's apply_patch to correct it".into()),
        );
    };
    // Two sections for one file (Cline refuses them, `Duplicate update
    // for file`; OpenCode loses the earlier one's change): corrected as
    // one section per file (tester 48 T-06).
    let patch = apply_patch::sections::joined(&patch).map_or(patch, |joined| joined.patch);
    let cwd = call.cwd.as_str();
    let outcome = apply_patch::apply(&patch, fs, cwd);
    for d in apply_patch::diagnose_hunks(&patch, &outcome, fs, cwd) {
        if d.state != HunkState::Failed || d.message.is_empty() {
            continue;
        }
        explanation.push('\n');
        explanation.push_str(in_terms(&d.message, &Terms::patch()).trim_end());
        if !d.line_diff.is_empty() {
            explanation.push_str(&format!("\nThe lines {LINE_DIFF_LEGEND}:\n"));
            explanation.push_str(line_diff_text(&d.line_diff).trim_end());
        }
    }
    let mut fixed = if outcome.exit_code == 0 {
        let (tight, withheld) = apply_patch::tighten_reindented(&patch, &outcome);
        if let Some((_, why)) = withheld.first() {
            return (None, Some(format!("a hunk is left as written: {why}")));
        }
        tight
    } else {
        let fixed = apply_patch::fix_patch(&patch, fs, cwd);
        if !fixed.complete {
            return (None, Some(super::patch::unplaced(&fixed.notes)));
        }
        fixed.patch
    };
    if let Some(why) = super::patch::reindent_doubt(&patch, &fixed) {
        return (None, Some(why));
    }
    // A Markdown hard break the corrected lines would lose or add.
    if let Err(why) = apply_patch::carry_ends(&patch, &mut fixed) {
        return (None, Some(why));
    }
    let check = apply_patch::apply(&fixed, fs, cwd);
    let doubts = apply_patch::patch_doubts(&fixed, &check, fs, cwd);
    if !doubts.is_empty() {
        let all: Vec<String> = doubts.into_iter().map(|d| d.message).collect();
        return (
            None,
            Some(format!(
                "the corrected patch is in doubt: {}",
                all.join("; ")
            )),
        );
    }
    let mut input = call.input.clone();
    if let Some(object) = input.as_object_mut() {
        object.insert(key.to_string(), apply_patch::render(&fixed).into());
    }
    let Some(own) = row.matcher() else {
        return (None, None);
    };
    let ran = own.run(&crate::dialect::call::ToolCall {
        input: &input,
        cwd,
        fs,
    });
    if ran.exact_as_sent() {
        (Some(input), None)
    } else {
        (
            None,
            Some(format!(
                "{} would not apply the corrected patch exactly ({})",
                row.title,
                not_exact(&ran)
            )),
        )
    }
}

/// Why an agent's matcher does not place srview's corrected input exactly
/// (`ran`: what it did with it), in a clause: its error; else each edit it
/// places only by a loose stage, by the stage's own name and the lines (a
/// tester's find: it said "a loose stage", naming neither); else that it
/// places none.
fn not_exact(ran: &crate::dialect::call::CallOutcome) -> String {
    if let Some(error) = ran.error.as_deref().filter(|_| !ran.ok) {
        return error.trim_end().to_string();
    }
    let loose: Vec<String> = ran
        .loose_edits()
        .map(|(i, m)| {
            let at = m
                .lines
                .map(|(a, b)| format!(" at {}", crate::words::line_range("line", a, b)))
                .unwrap_or_default();
            format!(
                "its edit {}{at} only by its loose stage `{}`",
                i + 1,
                m.stage
            )
        })
        .collect();
    match (ran.ok, loose.is_empty()) {
        (_, false) => loose.join("; "),
        (true, true) => "it places no edit of it".to_string(),
        (false, true) => "it refuses it".to_string(),
    }
}

/// The trust checks of each old/new pair of an input a matcher places
/// exactly, run one after the other as srview's exact-string edits.
fn exact_doubts(
    row: &DialectRow,
    input: &Value,
    file: Option<&str>,
    content: Option<&str>,
) -> Vec<(NextStep, String)> {
    // The file is named, whatever its kind: its kind tells its comments
    // (a stand-in `% ... rest unchanged ...` in LaTeX), the `\` that joins
    // a Python line (a tester's find, round 46 T-08: said for Claude Code
    // only), its words. Its layout (Python's indentation, a brace
    // language's brackets and definitions) is judged on the agent's whole
    // written result only ([`indent_doubt`]; `no_layout`): one edit of
    // several may unbalance what the next balances.
    exact_doubts_at(row, input, file.unwrap_or(""), content, true)
}

/// [`exact_doubts`], each pair's edit naming `path` (its kind decides the
/// checks that read it as code; `""`: none of them).
fn exact_doubts_at(
    row: &DialectRow,
    input: &Value,
    path: &str,
    content: Option<&str>,
    no_layout: bool,
) -> Vec<(NextStep, String)> {
    // The file itself for the first pair (not a copy of it), then each
    // pair's result.
    let (Some(fields), Some(mut current)) = (row.strings, content.map(std::borrow::Cow::Borrowed))
    else {
        return Vec::new();
    };
    let Some(pairs) = call_correct::pairs(fields, input) else {
        return Vec::new();
    };
    // A one-edit input that replaces every place (a tester's find: the
    // doubts were run on the first place only, and a replace-all that
    // doubled a line or renamed inside words passed).
    let replace_all = fields.list.is_none()
        && fields
            .replace_all
            .is_some_and(|key| input.get(key) == Some(&Value::Bool(true)));
    let mut out = Vec::new();
    for (old, new) in pairs {
        let replayed_rule = new.is_empty() && !old.ends_with('\n');
        let edit = Edit::ClaudeEdit {
            file_path: path.to_string(),
            old_string: old,
            new_string: new,
            replace_all,
        };
        let outcome = edit::apply(&edit, Some(&current));
        // Replayed as Claude Code's edit: line endings as Claude Code writes
        // them, which the agent may not ([`matcher`] judges its own write,
        // both the lines it mixes in and those outside the edit it
        // rewrites).
        let endings = outcome
            .result
            .as_ref()
            .ok()
            .and_then(|done| edit::endings_doubt(&current, &done.new_content))
            .map(|(_, m)| m);
        // And an empty new text takes the newline after its old text,
        // which only some agents do ([`edit::deletes_newline_after`]).
        let joined = (replayed_rule && !edit::deletes_newline_after(row.value))
            .then(|| edit::joins_lines(&outcome, &current))
            .flatten();
        out.extend(
            doubt_steps_but_layout(&outcome, &current, no_layout)
                .into_iter()
                .filter(|(_, m)| Some(m) != endings.as_ref() && Some(m) != joined.as_ref()),
        );
        match outcome.result {
            Ok(done) => current = std::borrow::Cow::Owned(done.new_content),
            Err(_) => break,
        }
    }
    out
}

/// `text`'s lines as a quoted block, every one shown, blank lines included
/// (`    | ` before each; only the newline ending the last line is not a
/// line of its own); `    (nothing)` for an empty text.
fn quoted_lines(text: &str) -> String {
    if text.is_empty() {
        return "    (nothing)".to_string();
    }
    text.split_terminator('\n')
        .map(|l| format!("    | {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// How many lines of `text` are blank (white space only).
fn blank_lines(text: &str) -> usize {
    text.split_terminator('\n')
        .filter(|l| l.trim().is_empty())
        .count()
}
