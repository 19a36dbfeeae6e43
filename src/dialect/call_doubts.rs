//! What srview cannot stand behind in an agent matcher's result although
//! its edits matched exactly: srview's own trust checks of an exact-string
//! edit (its new text already there, so applied again it repeats what it
//! adds; a word cut in two; line endings rewritten), run on each edit an
//! exact stage placed. For an exact stage the text found and the text
//! written are the model's own, so the checks judge what the model asked
//! for. Loose placements are said elsewhere (every one is a doubt). An
//! edit the agent appends at the end of a file that held text, whatever
//! place the model meant (Aider's empty SEARCH, its udiff hunk of added
//! lines only), is a doubt too: its text already ends the file (sent
//! again after it applied), or else it names no place.

use super::call::{CallMatcher, CallOutcome, EditMatch};
use super::edit::{self, Edit};
use super::registry::DialectRow;

/// What the caller knows of the call beyond its outcome.
#[derive(Clone, Copy, Default)]
pub struct Judged<'a> {
    /// The model's old and new text of each edit, in order (string-edit
    /// dialects): an exact placement that writes other text is said.
    pub asked: Option<&'a [(String, String)]>,
    /// The matcher takes the first of several places without a word
    /// (Aider's blocks, OpenCode's and Cline's patch hunks): a placement
    /// whose text stands elsewhere too is said.
    pub first_wins: bool,
    /// The agent's title when it replaces every place an edit's text
    /// stands at although the model asked for one (Aider's udiff hunks):
    /// a call that changes several places is said.
    pub every_place: Option<&'static str>,
    /// The file the call edits, where the caller knows it: its kind tells
    /// the comment marks the stand-in check reads (`%` in LaTeX,
    /// [`crate::dialect::elided::Comments`]).
    pub file: Option<&'a str>,
    /// The call's matcher, where its stages may append an edit at the end
    /// of the file whatever place the model meant
    /// ([`CallMatcher::appends_unplaced`]): such an edit on a file that
    /// held text is said.
    pub appends: Option<&'a dyn CallMatcher>,
}

impl<'a> Judged<'a> {
    /// What is known of a call of `row`'s matcher whose edits' texts are
    /// `asked` (see [`asked`]).
    pub fn of(row: &DialectRow, asked: &'a Option<Vec<(String, String)>>) -> Self {
        Judged {
            asked: asked.as_deref(),
            first_wins: row.matcher().is_some_and(|m| m.takes_first_of_several()),
            every_place: row
                .matcher()
                .is_some_and(|m| m.replaces_every_place_unasked())
                .then_some(row.title),
            file: None,
            appends: row.matcher(),
        }
    }

    /// The same, for a call that edits `file`.
    pub fn on(self, file: &'a str) -> Self {
        Judged {
            file: Some(file),
            ..self
        }
    }
}

/// The model's old and new text of each edit of `input` (string-edit
/// dialects; `None` for the others).
pub fn asked(row: &DialectRow, input: &serde_json::Value) -> Option<Vec<(String, String)>> {
    row.strings
        .and_then(|fields| super::call_correct::pairs(fields, input))
}

/// The text as compared: line endings as LF, no byte order mark.
fn plain(text: &str) -> String {
    text.trim_start_matches('\u{feff}').replace("\r\n", "\n")
}

/// The first line where `written` and `asked` differ, quoted.
fn first_difference(written: &str, asked: &str) -> String {
    let (w, a) = (plain(written), plain(asked));
    let mut lines = w.split('\n').zip(a.split('\n'));
    match lines.position(|(x, y)| x != y) {
        Some(n) => format!(
            "line {} of it is {:?}, the model wrote {:?}",
            n + 1,
            w.split('\n').nth(n).unwrap_or_default(),
            a.split('\n').nth(n).unwrap_or_default()
        ),
        None => "its length differs".into(),
    }
}

/// One sentence per doubt, naming its edit (`edit 2: ...`), after one per
/// hunk whose lines the agent's parser drops ([`CallOutcome::dropped`]).
/// `before(edit)`
/// gives the text of the file the edit matched in, as the matcher read it
/// (`None`: unknown, the edit is not judged).
pub fn exact_doubts(
    outcome: &CallOutcome,
    before: &dyn Fn(&EditMatch) -> Option<String>,
    judged: Judged<'_>,
) -> Vec<String> {
    exact_doubt_kinds(outcome, before, judged)
        .into_iter()
        .map(|(_, sentence)| sentence)
        .collect()
}

/// What an [`exact_doubts`] sentence is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallDoubtKind {
    /// The text written is not the model's new text.
    Rewritten,
    /// The text it replaced stands elsewhere too, and the matcher takes
    /// the first place (or, for a matcher that replaces every place
    /// unasked, all of them).
    FirstOfSeveral,
    /// The agent appends it at the end of a file that held text: it names
    /// no place ([`CallMatcher::appends_unplaced`]).
    AddedAtEnd,
    /// One of an exact-string edit's trust checks.
    Edit(edit::EditDoubtKind),
    /// The agent's parser drops lines the model sent
    /// ([`CallOutcome::dropped`]): what it writes lacks them.
    Dropped,
}

/// [`exact_doubts`], each with its kind.
pub fn exact_doubt_kinds(
    outcome: &CallOutcome,
    before: &dyn Fn(&EditMatch) -> Option<String>,
    judged: Judged<'_>,
) -> Vec<(CallDoubtKind, String)> {
    if !outcome.ok {
        return Vec::new();
    }
    let mut out: Vec<(CallDoubtKind, String)> = (outcome.dropped.iter())
        .map(|sentence| (CallDoubtKind::Dropped, sentence.clone()))
        .collect();
    if let Some(title) = judged.every_place
        && let Some(changes) = every_place_changes(title, outcome)
    {
        out.push((
            CallDoubtKind::FirstOfSeveral,
            format!(
                "{changes}: the hunk's text stands at several places and the model may have \
                 meant one: add a line of context to the hunk so that its text stands at one place"
            ),
        ));
    }
    for (i, matched) in outcome.edits.iter().enumerate() {
        let (false, Some(found), Some(written)) = (matched.loose, &matched.found, &matched.written)
        else {
            continue;
        };
        if let Some((_, new)) = judged.asked.and_then(|asked| asked.get(i))
            && plain(written) != plain(new)
        {
            out.push((
                CallDoubtKind::Rewritten,
                format!(
                    "edit {}: the text written is not the model's new text (the agent rewrote \
                     it: {})",
                    i + 1,
                    first_difference(written, new)
                ),
            ));
        }
        if let Some(unplaced) = judged
            .appends
            .and_then(|m| m.appends_unplaced(&matched.stage))
            && let Some((kind, doubt)) =
                before(matched).and_then(|content| appended_doubt(unplaced, &content, written))
        {
            out.push((kind, format!("edit {}: {doubt}", i + 1)));
            continue;
        }
        if found.is_empty() {
            continue;
        }
        let Some(content) = before(matched) else {
            continue;
        };
        if judged.first_wins {
            let places: Vec<usize> = content
                .match_indices(found.as_str())
                .map(|(at, _)| content[..at].matches('\n').count() + 1)
                .collect();
            if places.len() > 1 {
                let others: Vec<String> = places[1..].iter().map(ToString::to_string).collect();
                out.push((
                    CallDoubtKind::FirstOfSeveral,
                    format!(
                        "edit {}: the text it replaced also stands at line {}: the agent takes \
                         the first place, which may not be the one meant",
                        i + 1,
                        others.join(", ")
                    ),
                ));
            }
        }
        // The file named for its comment marks; not a file whose layout
        // srview reads: its callers read the call's whole result for that.
        let file = matched.path.as_deref().or(judged.file);
        let as_claude = Edit::ClaudeEdit {
            file_path: file
                .filter(|f| !crate::diagnose::layout::layout_read(f, &content))
                .unwrap_or_default()
                .to_string(),
            old_string: found.clone(),
            new_string: written.clone(),
            replace_all: false,
        };
        let applied = edit::apply(&as_claude, Some(&content));
        // The faults of the file as a whole (a brace language's brackets,
        // read with the name kept) are the whole result's, judged by the
        // callers: one edit of several alone may unbalance what the next
        // balances.
        out.extend(
            edit::edit_doubt_kinds(&applied, &content)
                .into_iter()
                .filter(|(kind, _)| !kind.of_layout())
                .map(|(kind, doubt)| {
                    (
                        CallDoubtKind::Edit(kind),
                        format!("edit {}: {doubt}", i + 1),
                    )
                }),
        );
    }
    out
}

/// What is in doubt about an edit the agent appended at the end of
/// `content` (the file before the call), `written` its text, `lead` and
/// `why` the agent's words ([`CallMatcher::appends_unplaced`]): its text
/// already ends the file, as the same check says of a hunk the reference
/// appends ([`crate::dialect::apply_patch::doubt::already_ends`]: sent
/// again after it applied, applied again it repeats), or else it names no
/// place, and lands after the file's last line whatever the model meant
/// (an `import` put after `main()`). Nothing for a file without text: an
/// empty SEARCH filling it is Aider's way to create a file.
fn appended_doubt(
    (lead, why): (&str, &str),
    content: &str,
    written: &str,
) -> Option<(CallDoubtKind, String)> {
    if content.trim().is_empty() {
        return None;
    }
    let lines: Vec<&str> = content.lines().collect();
    let added: Vec<&str> = written.lines().collect();
    if let Some((a, b)) = crate::dialect::apply_patch::doubt::already_ends(&lines, &added) {
        return Some((
            CallDoubtKind::Edit(edit::EditDoubtKind::AlreadyApplied),
            format!(
                "its new text is already there ({}, where the file ends and the agent appends \
                 it): this looks applied already, and applied again it repeats what it adds",
                crate::words::line_range("line", a, b)
            ),
        ));
    }
    let last = lines.len();
    let at = if content.ends_with('\n') {
        format!("after line {last}")
    } else {
        format!("joined to line {last}, which has no final newline")
    };
    Some((CallDoubtKind::AddedAtEnd, format!("{lead} ({at}): {why}")))
}

/// `{title} replaces every occurrence: it changes lines A-B and also
/// lines C-D`: what a call replacing every place of an edit's text changed
/// beyond its first place; `None` when it changed one place or failed.
pub fn every_place_changes(title: &str, outcome: &CallOutcome) -> Option<String> {
    if outcome.also_replaced.is_empty() || !outcome.ok {
        return None;
    }
    let ranges: Vec<String> = outcome
        .also_replaced
        .iter()
        .map(|&range| lines_text(range))
        .collect();
    let first = outcome
        .edits
        .first()
        .and_then(|e| e.lines)
        .map(|range| format!("{} and ", lines_text(range)))
        .unwrap_or_default();
    Some(format!(
        "{title} replaces every occurrence: it changes {first}also {}",
        ranges.join(", ")
    ))
}

/// `line N` / `lines A-B`.
pub fn lines_text((first, last): (usize, usize)) -> String {
    if first == last {
        format!("line {first}")
    } else {
        format!("lines {first}-{last}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::call::run_in_memory;
    use crate::dialect::registry::find;

    /// OpenCode's edit adding a docstring below `def f():`, on `file`.
    fn add_docstring(file: &str) -> CallOutcome {
        let input = serde_json::json!({
            "filePath": "/p/a.py",
            "oldString": "def f():\n",
            "newString": "def f():\n    \"\"\"Doc.\"\"\"\n",
        });
        let matcher = find("opencode-edit")
            .and_then(|r| r.matcher())
            .expect("row");
        run_in_memory(matcher, "/p", &[("a.py", file)], &input)
    }

    /// An OpenCode edit sent again after it applied: its old text still
    /// matches exactly once, and OpenCode would add the docstring twice.
    #[test]
    fn an_exact_edit_sent_again_is_said_to_be_applied_already() {
        let file = "def f():\n    \"\"\"Doc.\"\"\"\n    return 1\n";
        let outcome = add_docstring(file);
        assert!(outcome.ok && !outcome.edits[0].loose, "{outcome:?}");
        let doubts = exact_doubts(&outcome, &|_| Some(file.to_string()), Judged::default());
        assert_eq!(doubts.len(), 1, "{doubts:?}");
        assert!(
            doubts[0].starts_with("edit 1: its new text is already there (lines 1-2)"),
            "{doubts:?}"
        );
    }

    /// An Aider udiff hunk whose text stands at two places: Aider changes
    /// both, unasked, and that is a doubt naming both places and saying to
    /// add context; a replace-all the model asked for (OpenCode's
    /// `replaceAll`) is no doubt here.
    #[test]
    fn a_udiff_hunk_changing_several_places_is_in_doubt() {
        let file =
            "def a():\n    x = load()\n    return x\n\ndef b():\n    x = load()\n    return x\n";
        let reply = "```diff\n--- a.py\n+++ a.py\n@@ @@\n-    x = load()\n+    x = load(1)\n     return x\n```\n";
        let row = find("aider-udiff").expect("row");
        let input = serde_json::json!({"reply": reply, "chat_files": ["a.py"]});
        let matcher = row.matcher().expect("matcher");
        let outcome = run_in_memory(matcher, "/p", &[("a.py", file)], &input);
        assert_eq!(outcome.also_replaced, vec![(6, 7)], "{outcome:?}");
        let kinds = exact_doubt_kinds(
            &outcome,
            &|_| Some(file.to_string()),
            Judged::of(row, &None),
        );
        assert_eq!(
            kinds,
            vec![(
                CallDoubtKind::FirstOfSeveral,
                "Aider 0.86.2's udiff edit format replaces every occurrence: it changes lines \
                 2-3 and also lines 6-7: the hunk's text stands at several places and the model \
                 may have meant one: add a line of context to the hunk so that its text stands \
                 at one place"
                    .to_string()
            )]
        );
        let opencode = find("opencode-edit").expect("row");
        let asked = None;
        assert!(
            exact_doubt_kinds(
                &outcome,
                &|_| Some(file.to_string()),
                Judged::of(opencode, &asked)
            )
            .is_empty()
        );
    }

    /// Aider's empty SEARCH block on `file` (a.py, in the chat), and the
    /// doubts of its outcome.
    fn append_doubts(file: &str, replace: &str) -> Vec<(CallDoubtKind, String)> {
        let row = find("aider-diff").expect("row");
        let reply =
            format!("a.py\n```python\n<<<<<<< SEARCH\n=======\n{replace}>>>>>>> REPLACE\n```\n");
        let input = serde_json::json!({"reply": reply, "chat_files": ["a.py"]});
        let matcher = row.matcher().expect("matcher");
        let outcome = run_in_memory(matcher, "/p", &[("a.py", file)], &input);
        assert_eq!(
            outcome.stage.as_deref(),
            Some("empty_search_append"),
            "{outcome:?}"
        );
        exact_doubt_kinds(
            &outcome,
            &|_| Some(file.to_string()),
            Judged::of(row, &None),
        )
    }

    /// An empty SEARCH appends after the file's last line (joined to it
    /// when it has no final newline), and names no place: a doubt; on a
    /// file of blank lines only it creates the file's text: none. Its text
    /// already ending the file is applied already, unless it is punctuation
    /// alone (a `}` may well be meant twice).
    #[test]
    fn an_aider_append_is_in_doubt_on_a_file_with_text() {
        let why = "its SEARCH is empty, so the block names no place: to put its lines \
                   elsewhere, send the lines they go after as the SEARCH, and in the REPLACE \
                   those lines followed by the new ones";
        assert_eq!(
            append_doubts("a = 1\nb = 2\n", "c = 3\n"),
            vec![(
                CallDoubtKind::AddedAtEnd,
                format!(
                    "edit 1: Aider appends this block at the end of the file (after line 2): {why}"
                )
            )]
        );
        assert_eq!(
            append_doubts("a = 1\nb = 2", "c = 3\n"),
            vec![(
                CallDoubtKind::AddedAtEnd,
                format!(
                    "edit 1: Aider appends this block at the end of the file (joined to line 2, \
                     which has no final newline): {why}"
                )
            )]
        );
        assert_eq!(append_doubts("\n\n", "c = 3\n"), Vec::new());
        let again = append_doubts("a = 1\nc = 3\n\n", "\nc = 3\n");
        assert_eq!(
            again,
            vec![(
                CallDoubtKind::Edit(edit::EditDoubtKind::AlreadyApplied),
                "edit 1: its new text is already there (line 2, where the file ends and the \
                 agent appends it): this looks applied already, and applied again it repeats \
                 what it adds"
                    .to_string()
            )]
        );
        let brace = append_doubts("fn f() {\n}\n", "}\n");
        assert_eq!(brace.len(), 1, "{brace:?}");
        assert_eq!(brace[0].0, CallDoubtKind::AddedAtEnd);
    }

    /// The same edit on the file before it applied: nothing to doubt.
    #[test]
    fn a_first_exact_edit_has_no_doubt() {
        let file = "def f():\n    return 1\n";
        let outcome = add_docstring(file);
        assert!(outcome.ok);
        assert_eq!(
            exact_doubts(&outcome, &|_| Some(file.to_string()), Judged::default()),
            Vec::<String>::new()
        );
    }
}
