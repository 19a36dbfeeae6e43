//! One edit input as it arrives (a diff streamed into `apply --stream`, the
//! previewer's DIFF, a tool input): its dialect decided once (forced by
//! `--dialect`, else detected from the text), then fed piece by piece, and
//! asked for its state: the blocks so far, whether it stops before its end,
//! each string edit's place so far, the reference's result of the whole.
//!
//! SEARCH/REPLACE is read by the engine's own incremental session, which
//! each caller keeps (`apply --stream` a [`Session`](crate::engine::session::Session),
//! the previewer its `App`); [`LiveInput`] says when the text is that, and
//! keeps the text of every other dialect.

use crate::dialect::one_file::{OneFileError, Target};
use crate::dialect::registry::DialectRow;
use crate::dialect::{Detector, Dialect};
use crate::source::patch_preview::FileBlocks;

/// How a live input is read, once decided.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reading {
    /// SEARCH/REPLACE blocks: the caller's engine session reads them.
    SearchReplace,
    /// One of srview's other dialects (an apply_patch, an edit's JSON),
    /// read by its prefix parser.
    Builtin(Dialect),
    /// A tool input for an agent's own matcher (`--dialect pi-edit`, ...).
    Agent(&'static DialectRow),
}

/// An input as it arrives; see the module's text.
#[derive(Debug, Clone)]
pub struct LiveInput {
    /// Decided: forced, or shown by the text (the first marker decides).
    reading: Option<Reading>,
    detector: Detector,
    /// Everything received, while it may be another dialect than
    /// SEARCH/REPLACE (dropped once it is SEARCH/REPLACE).
    text: String,
    /// The agent's tool the input's keys showed, not yet said.
    keyed: Option<&'static DialectRow>,
}

impl LiveInput {
    /// An input read as `dialect` or by `agent`'s matcher when either is
    /// given (`--dialect`), else as its text shows.
    pub fn new(dialect: Option<Dialect>, agent: Option<&'static DialectRow>) -> LiveInput {
        let reading = match (agent, dialect) {
            (Some(row), _) => Some(Reading::Agent(row)),
            (None, Some(Dialect::SearchReplace)) => Some(Reading::SearchReplace),
            (None, Some(dialect)) => Some(Reading::Builtin(dialect)),
            (None, None) => None,
        };
        LiveInput {
            reading,
            detector: Detector::default(),
            text: String::new(),
            keyed: None,
        }
    }

    /// Takes the next piece; the reading once decided (`None`: nothing
    /// decides yet, and the text is read as SEARCH/REPLACE meanwhile).
    pub fn push(&mut self, piece: &str) -> Option<Reading> {
        if self.reading != Some(Reading::SearchReplace) {
            self.text.push_str(piece);
        }
        self.decide()
    }

    /// The whole input was rewritten (a watched file saved anew): `whole`
    /// is read again, in the reading already decided.
    pub fn replace(&mut self, whole: &str) -> Option<Reading> {
        if self.reading != Some(Reading::SearchReplace) {
            self.text.clear();
            self.text.push_str(whole);
            self.detector = Detector::default();
        }
        self.decide()
    }

    fn decide(&mut self) -> Option<Reading> {
        if self.reading.is_none() {
            self.reading = match self.detector.detect(&self.text) {
                Some(Dialect::SearchReplace) => Some(Reading::SearchReplace),
                Some(dialect) => Some(Reading::Builtin(dialect)),
                None => None,
            };
            if self.reading == Some(Reading::SearchReplace) {
                self.text = String::new();
            }
        }
        // A whole JSON object whose keys only one agent's tool has is read
        // by that agent's matcher from then on, as `check` reads it (a
        // tester's find: the previewer read a saved Gemini CLI edit with
        // Claude Code's matcher, and OpenCode's and pi's not at all, unless
        // their input had ended). Asked only of a text that may be whole.
        if matches!(
            self.reading,
            None | Some(Reading::Builtin(Dialect::EditJson))
        ) && self.text.trim_end().ends_with('}')
            && let Some(row) = crate::dialect::registry::detect_call(&self.text)
        {
            self.reading = Some(Reading::Agent(row));
            self.keyed = Some(row);
        }
        self.reading
    }

    /// The agent's tool the input's keys showed, once (to be said): see
    /// [`LiveInput::decide`].
    pub fn take_keyed(&mut self) -> Option<&'static DialectRow> {
        self.keyed.take()
    }

    /// The reading, once decided.
    pub fn reading(&self) -> Option<Reading> {
        self.reading
    }

    /// The reading when it is not SEARCH/REPLACE.
    pub fn other(&self) -> Option<Reading> {
        self.reading.filter(|r| *r != Reading::SearchReplace)
    }

    /// The text received, while it may be another dialect's (empty once it
    /// is SEARCH/REPLACE).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The blocks of another dialect's text so far over `target`: the
    /// file's own text where the reference matched, its result, its
    /// refusal. `ended`: no more text comes (a cut patch is refused).
    /// `None` for SEARCH/REPLACE or an input not decided yet.
    pub fn blocks(&self, target: &Target, ended: bool) -> Option<Result<FileBlocks, OneFileError>> {
        Some(match self.other()? {
            Reading::Builtin(dialect) => {
                crate::source::patch_preview::file_blocks(&self.text, dialect, target, ended)
            }
            Reading::Agent(row) => Ok(crate::source::patch_preview::call_prefix_blocks(
                row, &self.text, target, ended,
            )),
            Reading::SearchReplace => return None,
        })
    }

    /// Whether the text so far is refused only because it stops before its
    /// end: a patch before `*** End Patch`, an edit's JSON before its last
    /// brace (not one already malformed).
    pub fn stops_before_its_end(&self) -> bool {
        let raw = &self.text;
        match self.reading {
            Some(Reading::Builtin(Dialect::EditJson)) => crate::dialect::one_file::edit_is_cut(raw),
            Some(Reading::Builtin(Dialect::ApplyPatch)) => {
                let patch = crate::dialect::apply_patch::parse_partial(raw);
                !patch.ended && patch.error.is_none()
            }
            Some(Reading::SearchReplace | Reading::Builtin(Dialect::SearchReplace)) | None => false,
            // Aider's reply has no end of its own.
            Some(Reading::Agent(row)) if row.text_field == Some("reply") => false,
            Some(Reading::Agent(row)) => {
                match crate::dialect::edit::partial_json::parse_value_prefix(raw) {
                    Ok((_, complete)) => !complete,
                    // A patch tool's bare text.
                    Err(_) if row.text_field.is_some() => {
                        let patch = crate::dialect::apply_patch::parse_partial(raw);
                        !patch.ended && patch.error.is_none()
                    }
                    Err(_) => false,
                }
            }
        }
    }

    /// Where each edit of an agent's string-edit input, as far as it has
    /// arrived, stands in `content` (empty for any other reading).
    pub fn arriving_edits(&self, content: Option<&str>) -> Vec<ArrivingEdit> {
        match self.reading {
            Some(Reading::Agent(row)) => arriving_edits(row, &self.text, content),
            _ => Vec::new(),
        }
    }

    /// The reference's result of `text` (the whole input, or the text made
    /// of the blocks kept) over `target`: the file as it is left (`None`:
    /// deleted) and what srview cannot stand behind in it (what `apply
    /// --write` holds back), or the reference's refusal in one line.
    /// `None` for SEARCH/REPLACE or an input not decided yet.
    pub fn result_of(&self, text: &str, target: &Target) -> Option<ReferenceResult> {
        Some(match self.other()? {
            Reading::Builtin(dialect) => {
                crate::dialect::one_file::reference_result(text, dialect, target)
                    .map(|content| {
                        let doubts = dialect_doubts(text, dialect, target);
                        (Some(content), doubts)
                    })
                    .map_err(|why| crate::engine::error_headline(why.as_str()).to_string())
            }
            Reading::Agent(row) => agent_result(row, text, target),
            Reading::SearchReplace => return None,
        })
    }

    /// [`LiveInput::result_of`] the whole input.
    pub fn result(&self, target: &Target) -> Option<ReferenceResult> {
        self.result_of(&self.text, target)
    }
}

/// The file as the reference leaves it (`None`: deleted) and srview's
/// doubts about it, one sentence each; or the reference's refusal.
pub type ReferenceResult = Result<(Option<String>, Vec<String>), String>;

/// Where an edit's old text, as far as it has arrived, stands in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrivingEdit {
    /// 1-based, in the input's order.
    pub index: usize,
    /// `waiting` (no old text yet), `exact` (found once, exactly),
    /// `several` (found more than once so far), `not-exact`.
    pub found: &'static str,
    /// The lines of the one exact place (`exact` only).
    pub lines: Option<[usize; 2]>,
    /// Its old text is still arriving.
    pub arriving: bool,
}

/// Where each edit of an agent's string-edit input, as far as it has
/// arrived, stands in `content`.
fn arriving_edits(row: &DialectRow, text: &str, content: Option<&str>) -> Vec<ArrivingEdit> {
    let (Some(fields), Ok((value, _))) = (
        row.strings,
        crate::dialect::edit::partial_json::parse_value_prefix(text),
    ) else {
        return Vec::new();
    };
    let edits: Vec<&serde_json::Value> = match fields.list.and_then(|key| value.get(key)) {
        Some(serde_json::Value::Array(list)) => list.iter().collect(),
        _ => vec![&value],
    };
    let content = content.unwrap_or_default();
    let count = edits.len();
    edits
        .into_iter()
        .enumerate()
        .map(|(i, edit)| {
            let old = edit.get(fields.old).and_then(serde_json::Value::as_str);
            // The old text is complete once the next field or edit began.
            let arriving = i + 1 == count && edit.get(fields.new).is_none();
            let (found, lines) = match old {
                None | Some("") => ("waiting", None),
                Some(old) => {
                    let mut places = content.match_indices(old).map(|(at, _)| at);
                    match (places.next(), places.next()) {
                        (None, _) => ("not-exact", None),
                        (Some(_), Some(_)) => ("several", None),
                        (Some(at), None) => {
                            let first = content[..at].matches('\n').count() + 1;
                            let last = first + old.trim_end_matches('\n').matches('\n').count();
                            ("exact", Some([first, last]))
                        }
                    }
                }
            };
            ArrivingEdit {
                index: i + 1,
                found,
                lines,
                arriving,
            }
        })
        .collect()
}

/// What srview cannot stand behind in another dialect's result (what
/// `apply --write` holds back): one sentence each.
fn dialect_doubts(text: &str, dialect: Dialect, target: &Target) -> Vec<String> {
    match dialect {
        // What `apply --write` holds back (a tester's find, round 49 T-05:
        // `a` wrote a hunk matched at level unicode at once): each loose
        // hunk, then the trust checks, then what a loose result does.
        Dialect::ApplyPatch => {
            let Ok(Some((outcome, doubts))) =
                crate::dialect::one_file::doubts_with_loose_for(text, target)
            else {
                return Vec::new();
            };
            crate::source::patch::loose_holds(&outcome)
                .into_iter()
                .chain(doubts.into_iter().map(|d| d.message))
                .collect()
        }
        Dialect::EditJson | Dialect::SearchReplace => {
            match crate::dialect::one_file::parse_edit(text) {
                Ok(edit) => {
                    let outcome = crate::dialect::edit::apply(&edit, target.content);
                    crate::dialect::edit::edit_doubts(&outcome, target.content.unwrap_or(""))
                }
                Err(_) => Vec::new(),
            }
        }
    }
}

/// The agent's own result of the whole input `raw` over the target file:
/// the file as the agent leaves it (`None`: deleted), and what srview
/// cannot stand behind in it (a loose stage); or the agent's refusal.
fn agent_result(row: &DialectRow, raw: &str, target: &Target) -> ReferenceResult {
    let input = row.input_of(raw).ok_or_else(|| {
        format!(
            "the input is not a whole JSON object: {} refuses it",
            row.title
        )
    })?;
    let input = row.aim(&input, target.cwd, target.name);
    let run = crate::dialect::registry::run_on_file(
        row.value,
        &input,
        target.name,
        target.content,
        target.cwd,
    )
    .ok_or_else(|| format!("srview has no matcher for {}", row.value))?;
    let outcome = &run.outcome;
    if outcome.hangs {
        return Err(format!("{} never returns on this input", row.title));
    }
    if !outcome.ok {
        return Err(outcome
            .error
            .clone()
            .unwrap_or_else(|| format!("{} fails", row.title)));
    }
    let content = match run.written() {
        Some(written) => written.map(str::to_string),
        None => target.content.map(str::to_string),
    };
    let mut doubts: Vec<String> = outcome
        .edits
        .iter()
        .enumerate()
        .filter(|(_, e)| e.loose)
        .map(|(i, e)| {
            format!(
                "edit {} is placed by {}'s loose stage {}, not as the model wrote it",
                i + 1,
                row.title,
                e.stage
            )
        })
        .collect();
    let loose = doubts.len();
    let asked = crate::dialect::call_doubts::asked(row, &input);
    doubts.extend(crate::dialect::call_doubts::exact_doubts(
        outcome,
        &|edit| {
            edit.path
                .as_deref()
                .is_none_or(|p| p.rsplit('/').next() == Some(target.name))
                .then(|| target.content.unwrap_or_default().to_string())
        },
        crate::dialect::call_doubts::Judged::of(row, &asked).on(target.name),
    ));
    if !outcome.rewritten_outside.is_empty() {
        doubts.push(format!(
            "the agent rewrites lines outside the edit ({} lines)",
            outcome
                .rewritten_outside
                .iter()
                .map(|(a, b)| b + 1 - a)
                .sum::<usize>()
        ));
    }
    // The call's whole result: Python misindented, a brace language's
    // brackets unbalanced, a name defined twice (each edit alone is not
    // judged for these: one of several may unbalance what the next
    // balances); after a loose placement too, whose result the agent
    // writes all the same (a tester's find: a line-trimmed edit left
    // Python refusing the file, and only `loose` was said).
    if doubts.len() == loose
        && let (Some(before), Some(after)) = (target.content, content.as_deref())
        && let Some(fault) = crate::diagnose::layout::layout_break(target.name, before, after)
    {
        doubts.push(format!(
            "the call leaves {} {}: {}",
            target.name,
            fault.leaves(),
            fault.why
        ));
    }
    Ok((content, doubts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pushed(input: &mut LiveInput, text: &str, step: usize) -> Vec<Option<Reading>> {
        let mut seen = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let mut end = (at + step).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            seen.push(input.push(&text[at..end]));
            at = end;
        }
        seen
    }

    #[test]
    fn the_dialect_is_decided_once_and_stays() {
        let patch = "notes\n*** Begin Patch\n*** Update File: a.rs\n@@\n-a\n+b\n*** End Patch\n";
        let mut input = LiveInput::new(None, None);
        let seen = pushed(&mut input, patch, 4);
        assert_eq!(seen.first(), Some(&None));
        assert_eq!(
            seen.last(),
            Some(&Some(Reading::Builtin(Dialect::ApplyPatch)))
        );
        // Once decided, nothing decided before is taken back.
        let first = seen.iter().position(Option::is_some).unwrap_or(seen.len());
        assert!(seen[first..].iter().all(|r| r == seen.last().unwrap()));
        assert_eq!(input.text(), patch);
        // A SEARCH marker later in the text changes nothing.
        input.push("------- SEARCH\n");
        assert_eq!(input.other(), Some(Reading::Builtin(Dialect::ApplyPatch)));
    }

    #[test]
    fn search_replace_leaves_its_text_to_the_engine() {
        let mut input = LiveInput::new(None, None);
        assert_eq!(input.push("intro\n"), None);
        assert_eq!(input.text(), "intro\n");
        assert_eq!(
            input.push("------- SEARCH\na\n"),
            Some(Reading::SearchReplace)
        );
        assert_eq!(input.text(), "");
        input.push("=======\nb\n+++++++ REPLACE\n");
        assert_eq!(input.text(), "");
        assert_eq!(input.other(), None);
        assert!(input.blocks(&target(Some("a\n")), true).is_none());
        assert!(input.result(&target(Some("a\n"))).is_none());
    }

    #[test]
    fn a_forced_dialect_is_not_detected() {
        let mut input = LiveInput::new(Some(Dialect::ApplyPatch), None);
        assert_eq!(
            input.push("------- SEARCH\n"),
            Some(Reading::Builtin(Dialect::ApplyPatch))
        );
        let row = crate::dialect::registry::find("pi-edit");
        let mut input = LiveInput::new(Some(Dialect::EditJson), row);
        assert_eq!(input.push("{"), row.map(Reading::Agent));
    }

    #[test]
    fn a_rewritten_input_is_read_again_in_its_reading() {
        let mut input = LiveInput::new(None, None);
        input.push("*** Begin Patch\n*** Update File: a\n");
        input.replace("*** Begin Patch\n*** Add File: b\n");
        assert_eq!(input.text(), "*** Begin Patch\n*** Add File: b\n");
        assert_eq!(input.other(), Some(Reading::Builtin(Dialect::ApplyPatch)));
    }

    fn target(content: Option<&str>) -> Target<'_> {
        Target {
            cwd: "/w",
            name: "a.txt",
            content,
        }
    }

    #[test]
    fn a_whole_edit_with_one_agents_keys_is_read_by_its_matcher() {
        let text = r#"{"file_path": "/w/a.txt", "instruction": "x", "old_string": "a", "new_string": "b"}"#;
        let mut input = LiveInput::new(None, None);
        // While it arrives, Claude Code's edit JSON (the same first keys).
        pushed(&mut input, &text[..text.len() - 1], 5);
        assert_eq!(input.other(), Some(Reading::Builtin(Dialect::EditJson)));
        assert_eq!(input.take_keyed(), None);
        // Whole: Gemini CLI's `replace`, said once.
        input.push("}");
        let row = input.take_keyed();
        assert_eq!(row.map(|r| r.value), Some("gemini-replace"));
        assert_eq!(input.other(), row.map(Reading::Agent));
        assert_eq!(input.take_keyed(), None);
        // Keys no builtin dialect reads (OpenCode's, pi's): theirs once whole.
        for (text, value) in [
            (
                r#"{"filePath": "a.txt", "oldString": "a", "newString": "b"}"#,
                "opencode-edit",
            ),
            (
                r#"{"path": "a.txt", "edits": [{"oldText": "a", "newText": "b"}]}"#,
                "pi-edit",
            ),
        ] {
            let mut input = LiveInput::new(None, None);
            pushed(&mut input, text, 7);
            assert_eq!(input.take_keyed().map(|r| r.value), Some(value));
        }
        // Claude Code's own keys stay srview's edit JSON.
        let mut input = LiveInput::new(None, None);
        input.push(r#"{"file_path": "a.txt", "old_string": "a", "new_string": "b"}"#);
        assert_eq!(input.take_keyed(), None);
        assert_eq!(input.other(), Some(Reading::Builtin(Dialect::EditJson)));
    }

    #[test]
    fn a_cut_input_stops_before_its_end_and_a_whole_one_does_not() {
        let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n";
        let mut input = LiveInput::new(None, None);
        input.push(patch);
        assert!(input.stops_before_its_end());
        input.push("*** End Patch\n");
        assert!(!input.stops_before_its_end());
        let row = crate::dialect::registry::find("pi-edit");
        let mut input = LiveInput::new(None, row);
        input.push(r#"{"path": "a.txt", "edits": [{"oldText": "a""#);
        assert!(input.stops_before_its_end());
        input.push(r#", "newText": "b"}]}"#);
        assert!(!input.stops_before_its_end());
    }

    /// The blocks so far: the file's own lines where the reference matched,
    /// a cut patch refused only once no more text comes.
    #[test]
    fn the_blocks_so_far_are_the_references_reading() {
        let mut input = LiveInput::new(None, None);
        input.push("*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n");
        let file = target(Some("one\ntwo\n"));
        let Some(Ok(live)) = input.blocks(&file, false) else {
            panic!("a patch's blocks");
        };
        assert!(!live.refused, "{:?}", live.note);
        assert!(live.body.contains("two\n"), "{}", live.body);
        assert!(live.body.contains("2\n"), "{}", live.body);
        let Some(Ok(ended)) = input.blocks(&file, true) else {
            panic!("a patch's blocks");
        };
        assert!(ended.refused, "a patch without its end is refused");
        input.push("*** End Patch\n");
        let Some(Ok(whole)) = input.blocks(&file, true) else {
            panic!("a patch's blocks");
        };
        assert!(!whole.refused, "{:?}", whole.note);
    }

    #[test]
    fn each_arriving_edit_is_placed_as_far_as_it_has_come() {
        let row = crate::dialect::registry::find("pi-edit");
        let mut input = LiveInput::new(None, row);
        input.push(
            r#"{"path": "a.txt", "edits": [{"oldText": "two\n", "newText": "2"}, {"oldText": "o"#,
        );
        let content = "one\ntwo\nthree\n";
        assert_eq!(
            input.arriving_edits(Some(content)),
            vec![
                ArrivingEdit {
                    index: 1,
                    found: "exact",
                    lines: Some([2, 2]),
                    arriving: false,
                },
                ArrivingEdit {
                    index: 2,
                    found: "several",
                    lines: None,
                    arriving: true,
                },
            ]
        );
        input.push(r#"ne\nt"#);
        assert_eq!(input.arriving_edits(Some(content))[1].found, "exact");
        input.push(r#"x"#);
        assert_eq!(input.arriving_edits(Some(content))[1].found, "not-exact");
        // srview's own dialects list none.
        let mut input = LiveInput::new(None, None);
        input.push(r#"{"file_path": "a.txt", "old_string": "two"#);
        assert!(input.arriving_edits(Some(content)).is_empty());
    }

    #[test]
    fn the_references_result_is_the_content_and_its_doubts_or_the_refusal() {
        let mut input = LiveInput::new(None, None);
        input.push("*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n*** End Patch\n");
        let file = "one\ntwo\n";
        assert_eq!(
            input.result(&target(Some(file))),
            Some(Ok((Some("one\n2\n".to_string()), Vec::new())))
        );
        let Some(Err(why)) = input.result(&target(Some("one\n"))) else {
            panic!("a hunk that does not match is refused");
        };
        assert!(why.contains("Failed to find expected lines"), "{why}");
        let row = crate::dialect::registry::find("pi-edit");
        let mut input = LiveInput::new(None, row);
        input.push(r#"{"path": "a.txt", "edits": [{"oldText": "two"#);
        assert_eq!(
            input.result(&target(Some(file))),
            Some(Err(
                "the input is not a whole JSON object: pi 0.73.1's edit tool refuses it".into()
            ))
        );
    }
}
