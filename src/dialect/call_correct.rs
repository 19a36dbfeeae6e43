//! Why a string edit of an agent's tool failed or matched only loosely, and
//! the corrected edit in that tool's own input schema: for the dialects
//! whose edits are old/new text pairs (OpenCode's and Qwen's `edit`,
//! Gemini's `replace`, pi's `edit`).
//!
//! Each pair is diagnosed as srview diagnoses an exact-string edit
//! ([`crate::dialect::edit`]: closest region, differing lines, the file's
//! own text of the region as the corrected old text, withheld where srview
//! cannot stand behind it). The corrected input is offered only when the
//! agent's own matcher, run on it, places every corrected edit with its
//! exact stage and succeeds: never a correction the agent would itself
//! place loosely or refuse.

use serde_json::Value;

use super::call::CallOutcome;
use super::edit::{self, Edit};
use super::registry::{DialectRow, StringFields, run_on_file};

/// The old and new text of each edit of `input`, in order (`None` when the
/// input has no such texts).
pub fn pairs(fields: StringFields, input: &Value) -> Option<Vec<(String, String)>> {
    let pair = |edit: &Value| {
        Some((
            edit.get(fields.old)?.as_str()?.to_string(),
            edit.get(fields.new)?.as_str()?.to_string(),
        ))
    };
    match fields.list.and_then(|key| input.get(key)) {
        Some(Value::Array(edits)) => edits.iter().map(pair).collect(),
        Some(Value::String(text)) => match serde_json::from_str::<Value>(text).ok()? {
            Value::Array(edits) => edits.iter().map(pair).collect(),
            _ => None,
        },
        // A legacy single edit at the top level (pi's `oldText`/`newText`).
        _ => pair(input).map(|p| vec![p]),
    }
}

/// `input` with edit `index`'s old and new texts replaced.
pub fn with_pair(fields: StringFields, input: &Value, index: usize, old: &str, new: &str) -> Value {
    let mut input = input.clone();
    let set = |edit: &mut Value| {
        if let Some(object) = edit.as_object_mut() {
            object.insert(fields.old.to_string(), old.into());
            object.insert(fields.new.to_string(), new.into());
        }
    };
    let list = fields.list.and_then(|key| input.get_mut(key));
    match list {
        Some(Value::Array(edits)) => {
            if let Some(edit) = edits.get_mut(index) {
                set(edit);
            }
        }
        Some(slot @ Value::String(_)) => {
            // Kept a JSON string, as the model sent it.
            let text = slot.as_str().unwrap_or_default();
            if let Ok(Value::Array(mut edits)) = serde_json::from_str::<Value>(text) {
                if let Some(edit) = edits.get_mut(index) {
                    set(edit);
                }
                *slot = Value::String(Value::Array(edits).to_string());
            }
        }
        _ => set(&mut input),
    }
    input
}

/// Where an agent's loose stage matched part of a line (or lines): text of
/// the file's first or last line, beside what it replaced, that the model
/// did not send. Byte offsets into the file's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PartOfLine {
    /// The first matched line's first byte.
    line_start: usize,
    /// The matched text's first byte and the byte after it.
    start: usize,
    end: usize,
    /// The byte after the last matched line's text (its line break not
    /// included).
    line_end: usize,
    /// 1-based first and last line.
    lines: (usize, usize),
}

impl PartOfLine {
    /// Where `m` (placed by a loose stage) stands in `content`, when the
    /// line text before or after it holds more than white space; `None`
    /// when it covers whole lines, or cannot be found where it was placed.
    fn of(content: &str, m: &super::call::EditMatch) -> Option<Self> {
        let (found, (first, last)) = (m.found.as_deref()?, m.lines?);
        if found.is_empty() || m.searched.is_some() {
            return None;
        }
        let line_start = if first <= 1 {
            0
        } else {
            memchr::memchr_iter(b'\n', content.as_bytes()).nth(first - 2)? + 1
        };
        let next_line = content[line_start..]
            .find('\n')
            .map_or(content.len(), |i| line_start + i + 1);
        let start = line_start + content.get(line_start..)?.find(found)?;
        if start >= next_line {
            return None;
        }
        let end = start + found.len();
        let line_end = if found.ends_with('\n') {
            end - 1
        } else {
            content[end..].find('\n').map_or(content.len(), |i| end + i)
        };
        let line_end = if content[..line_end].ends_with('\r') && line_end > end {
            line_end - 1
        } else {
            line_end
        };
        let head = &content[line_start..start];
        let tail = content.get(end..line_end.max(end))?;
        if head.trim().is_empty() && tail.trim().is_empty() {
            return None;
        }
        let lines = (first, last.max(first));
        Some(PartOfLine {
            line_start,
            start,
            end,
            line_end: line_end.max(end),
            lines,
        })
    }

    fn lines_said(&self) -> String {
        crate::words::line_range("line", self.lines.0, self.lines.1)
    }

    /// The file's text beside the match the model did not send, quoted.
    fn unseen_said(&self, content: &str) -> String {
        let head = content[self.line_start..self.start].trim_start();
        let tail = content[self.end..self.line_end].trim_end();
        match (head.is_empty(), tail.is_empty()) {
            (false, false) => format!("`{head}` before it and `{tail}` after it"),
            (false, true) => format!("`{head}` before it"),
            _ => format!("`{tail}` after it"),
        }
    }

    /// The corrected old and new texts: the file's whole lines, and the
    /// agent's own written text with the lines' unseen rest around it,
    /// which is the agent's own result; `Err` why not, where the match
    /// starts or ends inside a word (the model's text is part of a word it
    /// does not show: `retries = 1` of `retries = 10`), or the agent wrote
    /// nothing to tell. `{old}` in the reason stands for the old text's
    /// field name.
    fn keeping_the_rest(
        &self,
        content: &str,
        old: &str,
        new: &str,
        written: Option<&str>,
    ) -> Result<(String, String), String> {
        let line_of = |at: usize| crate::dialect::quick::count_newlines(&content[..at]) + 1;
        for (at, which) in [(self.start, "starts"), (self.end, "ends")] {
            if let Some(word) = edit::word_cut_at(content, at) {
                let line = line_of(at);
                let whole = content[..at].rfind('\n').map_or(0, |i| i + 1);
                let whole = content[whole..]
                    .split('\n')
                    .next()
                    .unwrap_or("")
                    .trim_end_matches('\r');
                return Err(format!(
                    "the text the agent matched {which} inside `{word}` of file line {line} (`{}`): the {{old}} is part of a word it does not show, and what the line should become cannot be told; send the edit with the file's whole line as it stands",
                    whole.trim()
                ));
            }
        }
        let Some(written) = written else {
            return Err("what the agent writes in its place cannot be told".into());
        };
        // Only the line's indentation before the match, which the model's
        // old text sent (a matcher that trims lines leaves it out of its
        // match, and writes the new text, indented as sent, after it): the
        // model's own new text from the line's start.
        let head = &content[self.line_start..self.start];
        let tail = &content[self.end..self.line_end];
        // The new text already writes what the line keeps unseen (a
        // tester's find, 43b-10: `result = fetch(rows)` -> `result =
        // fetch_all(rows)[0]` over `result = fetch(rows)[0]`: kept, the
        // line would read `[0][0]`): what the model meant the line to read
        // cannot be told.
        if let Some(again) = writes_again(new, head, tail) {
            let line = line_of(self.start);
            let whole = content[self.line_start..self.line_end].trim_end_matches('\r');
            return Err(format!(
                "the {{old}} is part of file line {line} (`{}`), and the new text already holds `{again}`, which the line keeps beside the part matched: kept, it would stand twice; send the edit with the file's whole line as it stands",
                whole.trim()
            ));
        }
        let (head, written) = if head.trim().is_empty() && old.starts_with(char::is_whitespace) {
            ("", new)
        } else {
            (head, written)
        };
        Ok((
            content[self.line_start..self.line_end].to_string(),
            format!("{head}{written}{}", &content[self.end..self.line_end]),
        ))
    }
}

/// Text of the line the new text writes again at its edge: the start of
/// the line's unseen `tail` at the new text's end, or the end of its unseen
/// `head` at the new text's start (at least two characters that are not
/// white space, so a lone `=` or `(` is no evidence).
fn writes_again<'a>(new: &str, head: &'a str, tail: &'a str) -> Option<&'a str> {
    let enough = |s: &str| s.chars().filter(|c| !c.is_whitespace()).count() >= 2;
    let (new_end, new_start) = (new.trim_end(), new.trim_start());
    let tail = tail.trim();
    let after = tail
        .char_indices()
        .rev()
        .map(|(i, c)| &tail[..i + c.len_utf8()])
        .find(|prefix| enough(prefix) && new_end.ends_with(prefix));
    let head = head.trim();
    let before = head
        .char_indices()
        .map(|(i, _)| &head[i..])
        .find(|suffix| enough(suffix) && new_start.starts_with(suffix));
    after.or(before)
}

/// The places (said: `line 6 and line 11`) an edit's old text `old`
/// could mean, when there are several: the one its correction
/// (`corrected_old`, the file's own text) stands at, the one the agent's
/// loose stage placed it at (`placed`), and every run of whole file lines
/// the old text's lines fit but for trailing white space and typographic
/// forms (quotes, dashes, special spaces), its indentation kept
/// ([`super::apply_patch::seek::loose_places`]). `None` when they are
/// one place.
fn several_places(
    content: &str,
    old: &str,
    corrected_old: &str,
    placed: Option<((usize, usize), &str)>,
) -> Option<String> {
    use super::apply_patch::seek::{MatchLevel, loose_places};
    let line_of = |at: usize| crate::dialect::quick::count_newlines(&content[..at]) + 1;
    let mut places: Vec<(usize, usize)> = Vec::new();
    if let Some(at) = content
        .find(corrected_old)
        .filter(|_| !corrected_old.is_empty())
    {
        let body = corrected_old.strip_suffix('\n').unwrap_or(corrected_old);
        places.push((line_of(at), line_of(at + body.len())));
    }
    if let Some(((a, b), _)) = placed {
        places.push((a, b.max(a)));
    }
    let old_lines: Vec<&str> = old.lines().map(|l| l.trim_end_matches('\r')).collect();
    if !old_lines.is_empty() && old_lines.iter().any(|l| !l.trim().is_empty()) {
        let file: Vec<&str> = content.lines().map(|l| l.trim_end_matches('\r')).collect();
        for at in loose_places(&file, &old_lines, 0, false, MatchLevel::TrailingSpace) {
            places.push((at + 1, at + old_lines.len()));
        }
    }
    // Overlapping ranges are one place.
    places.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (a, b) in places {
        match merged.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    if merged.len() < 2 {
        return None;
    }
    Some(crate::words::line_ranges(&merged))
}

/// Where the old text's first and last lines stand as `row`'s
/// block-anchor stage reads them ([`CallMatcher::anchor_places`]), said
/// when that is not the closest region alone (`closest`, found by
/// similarity): at several places, or at one other than the closest (a
/// tester's find, 43a-09: OpenCode's, in the other class). `None` for an
/// agent without such a stage.
///
/// [`CallMatcher::anchor_places`]: super::call::CallMatcher::anchor_places
fn anchor_doubt(
    row: &DialectRow,
    content: &str,
    old: &str,
    closest: Option<(usize, usize)>,
) -> Option<String> {
    let anchors = row.matcher()?.anchor_places(content, old);
    match anchors[..] {
        [] => None,
        [one] if closest.is_none_or(|c| c == one) => None,
        [(a, b)] => Some(format!(
            "Its first and last lines stand at {}, where {} looks with its block-anchor stage, \
             not at the closest region: which one is meant cannot be told.",
            crate::words::line_range("line", a, b),
            row.title
        )),
        _ => Some(format!(
            "Its first and last lines stand at {}, the places {} weighs with its block-anchor \
             stage: which one is meant cannot be told from them.",
            crate::words::line_ranges(&anchors),
            row.title
        )),
    }
}

/// The diagnosis of one edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditExplained {
    /// The edit's index in the input.
    pub index: usize,
    /// Why it failed or matched loosely, and where it was meant to go.
    pub message: String,
    /// The file's own text of the region, when srview stands behind it.
    pub corrected_old: Option<String>,
    /// The new text that goes with `corrected_old`.
    pub corrected_new: Option<String>,
    /// The edit's old text against the closest region, line by line (empty
    /// when no region was found).
    pub line_diff: Vec<crate::diagnose::DiffLine>,
}

/// Every failed or loose edit explained, and the corrected input.
#[derive(Debug, Clone, PartialEq)]
pub struct Correction {
    /// One per failed or loose edit.
    pub edits: Vec<EditExplained>,
    /// The input with every correctable edit corrected, checked with the
    /// agent's own matcher; `None` when there is nothing to correct or the
    /// check failed (said in `withheld`).
    pub input: Option<Value>,
    /// Why no corrected input is offered although edits were explained.
    pub withheld: Option<String>,
}

/// Explains the failed or loose edits of `input`, which `row`'s matcher
/// ran over `content` at `path` (`cwd` the agent's root) with `outcome`,
/// and corrects them. `None` when the dialect's edits are not old/new text
/// pairs, or none failed or matched loosely.
pub fn correct(
    row: &DialectRow,
    input: &Value,
    content: &str,
    (path, cwd): (&str, &str),
    outcome: &CallOutcome,
) -> Option<Correction> {
    let fields = row.strings?;
    let texts = pairs(fields, input)?;
    let mut edits = Vec::new();
    let mut corrected = input.clone();
    let mut changed = Vec::new();
    for (index, (old, new)) in texts.iter().enumerate() {
        let matched = outcome.edits.get(index);
        let exact = matched.is_some_and(|m| m.found.is_some() && !m.loose);
        // A call that failed as a whole (ambiguous, refused) reports no
        // place for any edit: each is explained.
        if exact && outcome.ok {
            continue;
        }
        let claude = Edit::ClaudeEdit {
            file_path: path.to_string(),
            old_string: old.clone(),
            new_string: new.clone(),
            replace_all: false,
        };
        let explained = edit::apply(&claude, Some(content));
        let closest = (explained.diagnosis.as_ref())
            .and_then(|d| d.closest.as_ref())
            .map(|c| (c.start_line, c.end_line));
        let (message, suggestion, line_diff) = match (&explained.result, explained.diagnosis) {
            (Ok(_), _) => continue,
            (Err(error), None) => (error.to_string(), None, Vec::new()),
            (Err(_), Some(d)) => (d.message, d.suggestion, d.line_diff),
        };
        // srview's exact-string diagnosis names Claude Code's fields, and
        // its block's parts SEARCH and REPLACE: the agent's fields here
        // (only where a phrase names them, not in quoted file text).
        let message = message
            .replace("old_string", fields.old)
            .replace("new_string", fields.new)
            .replace("SEARCH line", &format!("{} line", fields.old))
            .replace("SEARCH text", &format!("{} text", fields.old))
            .replace("SEARCH section", &format!("{} text", fields.old))
            .replace("REPLACE line", &format!("{} line", fields.new))
            .replace("REPLACE text", &format!("{} text", fields.new));
        // Its replace-all flag too: Gemini CLI's is `allow_multiple` (a
        // helper's find, round 44: told to set replace_all, which Gemini
        // CLI does not read); a tool without one has no such advice.
        const SET_ALL: &str = ", or set replace_all to change every one.";
        let message = match fields.replace_all {
            Some(key) => message.replace(
                SET_ALL,
                &format!(", or set {key} to true to change every one."),
            ),
            None => message.replace(SET_ALL, "."),
        };
        let message = crate::words::own_words(row.title, &message);
        // The agent's loose stage matched part of a line: the correction
        // keeps the line's rest the model did not send, as the agent's own
        // result does, or is withheld (never a correction that writes text
        // of the file away unseen).
        let part = matched
            .filter(|m| m.loose)
            .and_then(|m| PartOfLine::of(content, m));
        let (message, suggestion) = match part {
            None => (message, suggestion),
            Some(part) => {
                let said = message
                    .split_once(" No corrected edit:")
                    .map_or(message.as_str(), |(said, _)| said)
                    .to_string();
                match part.keeping_the_rest(
                    content,
                    old,
                    new,
                    matched.and_then(|m| m.written.as_deref()),
                ) {
                    Ok((old_string, new_string)) => (
                        format!(
                            "{said} {} keeps the rest of file {} the {} did not show ({}): the corrected edit sends it as the file has it.",
                            row.title,
                            part.lines_said(),
                            fields.old,
                            part.unseen_said(content)
                        ),
                        Some(Edit::ClaudeEdit {
                            file_path: path.to_string(),
                            old_string,
                            new_string,
                            replace_all: false,
                        }),
                    ),
                    Err(why) => (
                        format!(
                            "{said} No corrected edit: {}.",
                            why.replace("{old}", fields.old)
                        ),
                        None,
                    ),
                }
            }
        };
        // The old text fits other places as loosely as the corrected one
        // (the agent's loose stage placed it elsewhere, or it fits another
        // place by another normalisation): which is meant cannot be told.
        let placed = matched
            .filter(|m| m.loose)
            .and_then(|m| m.lines.map(|l| (l, m.stage.as_str())));
        let (message, suggestion) = match anchor_doubt(row, content, old, closest) {
            Some(doubt) => {
                let said = message
                    .split_once(" No corrected edit:")
                    .map_or(message.as_str(), |(said, _)| said);
                (
                    format!(
                        "{said} {doubt} No corrected edit: send the {} with context that occurs \
                         only at the intended place.",
                        fields.old
                    ),
                    None,
                )
            }
            None => (message, suggestion),
        };
        let (message, suggestion) = match &suggestion {
            Some(Edit::ClaudeEdit { old_string, .. }) => {
                match several_places(content, old, old_string, placed) {
                    Some(places) => {
                        let said = message
                            .split_once(" No corrected edit:")
                            .map_or(message.as_str(), |(said, _)| said);
                        let by_agent = placed.map_or(String::new(), |((a, b), stage)| {
                            format!(
                                " ({} places it at {} by its loose stage `{stage}`)",
                                row.title,
                                crate::words::line_range("line", a, b.max(a))
                            )
                        });
                        (
                            format!(
                                "{said} No corrected edit: the {} fits {places} about as loosely{by_agent}: which place is meant cannot be told; send the edit with context that occurs only at the intended place.",
                                fields.old
                            ),
                            None,
                        )
                    }
                    None => (message, suggestion),
                }
            }
            _ => (message, suggestion),
        };
        let (corrected_old, corrected_new) = match suggestion {
            Some(Edit::ClaudeEdit {
                old_string,
                new_string,
                ..
            }) => {
                corrected = with_pair(fields, &corrected, index, &old_string, &new_string);
                changed.push(index);
                (Some(old_string), Some(new_string))
            }
            _ => (None, None),
        };
        edits.push(EditExplained {
            index,
            message,
            corrected_old,
            corrected_new,
            line_diff,
        });
    }
    if edits.is_empty() {
        return None;
    }
    let uncorrected = edits.iter().filter(|e| e.corrected_old.is_none()).count();
    let (input, withheld) = if uncorrected > 0 {
        // Said of the edits by name (a fresh tester's find: "of 1 of them"
        // after a sentence naming no edits).
        let which = match texts.len() {
            1 => "this edit".to_string(),
            all => format!("{uncorrected} of the {all} edits"),
        };
        (
            None,
            Some(format!(
                "no corrected edit: srview cannot stand behind a correction of {which}"
            )),
        )
    } else {
        match run_on_file(row.value, &corrected, path, Some(content), cwd) {
            Some(check)
                if check.outcome.ok
                    && changed.iter().all(|&i| {
                        check
                            .outcome
                            .edits
                            .get(i)
                            .is_some_and(|m| m.found.is_some() && !m.loose)
                    }) =>
            {
                (Some(corrected), None)
            }
            Some(check) => (
                None,
                Some(format!(
                    "no corrected edit: {} would not place the correction exactly ({})",
                    row.title,
                    check.outcome.error.as_deref().unwrap_or("a loose stage")
                )),
            ),
            None => (None, None),
        }
    };
    Some(Correction {
        edits,
        input,
        withheld,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PI: StringFields = StringFields {
        list: Some("edits"),
        old: "oldText",
        new: "newText",
        replace_all: None,
    };

    #[test]
    fn pairs_come_from_a_list_a_json_string_or_the_top_level() {
        let listed = serde_json::json!({"path": "a", "edits": [{"oldText": "x", "newText": "y"}]});
        assert_eq!(pairs(PI, &listed), Some(vec![("x".into(), "y".into())]));
        let string =
            serde_json::json!({"path": "a", "edits": "[{\"oldText\":\"x\",\"newText\":\"y\"}]"});
        assert_eq!(pairs(PI, &string), Some(vec![("x".into(), "y".into())]));
        let legacy = serde_json::json!({"path": "a", "oldText": "x", "newText": "y"});
        assert_eq!(pairs(PI, &legacy), Some(vec![("x".into(), "y".into())]));
        let set = with_pair(PI, &string, 0, "p", "q");
        assert_eq!(pairs(PI, &set), Some(vec![("p".into(), "q".into())]));
        assert!(set["edits"].is_string(), "kept a JSON string");
    }

    fn matched(found: &str, lines: (usize, usize)) -> super::super::call::EditMatch {
        super::super::call::EditMatch {
            stage: "regex".into(),
            loose: true,
            lines: Some(lines),
            found: Some(found.into()),
            written: Some("    row = fetch(rows, limit=1)".into()),
            ..Default::default()
        }
    }

    /// A loose match of a line's start: the corrected edit is the whole
    /// line and the agent's written text with the line's rest; a match of
    /// whole lines is no part of a line; one ending inside a word gets no
    /// correction.
    #[test]
    fn a_match_of_part_of_a_line_keeps_its_rest_or_says_the_word() {
        let content = "def f(rows):\n    row = fetch(rows)[0]\n    retries = 10\n";
        let part = PartOfLine::of(content, &matched("    row = fetch(rows)", (2, 2)))
            .expect("part of line 2");
        assert_eq!(part.unseen_said(content), "`[0]` after it");
        assert_eq!(
            part.keeping_the_rest(
                content,
                "    row  = fetch(rows)",
                "    row = fetch(rows, limit=1)",
                Some("    row = fetch(rows, limit=1)"),
            ),
            Ok((
                "    row = fetch(rows)[0]".to_string(),
                "    row = fetch(rows, limit=1)[0]".to_string()
            ))
        );
        // A matcher leaving the indentation out of its match: the model's
        // new text from the line's start, not after the indentation.
        let trimmed =
            PartOfLine::of(content, &matched("row = fetch(rows)", (2, 2))).expect("part of line 2");
        assert_eq!(
            trimmed
                .keeping_the_rest(
                    content,
                    "    row  = fetch(rows)",
                    "    row = fetch(rows, limit=2)",
                    Some("    row = fetch(rows, limit=2)"),
                )
                .map(|(_, new)| new),
            Ok("    row = fetch(rows, limit=2)[0]".to_string())
        );
        assert_eq!(
            PartOfLine::of(content, &matched("    row = fetch(rows)[0]\n", (2, 2))),
            None
        );
        let cut = PartOfLine::of(content, &matched("    retries = 1", (3, 3))).expect("part");
        assert_eq!(
            cut.keeping_the_rest(content, "    retries  = 1", "    retries = 2", Some("x")),
            Err(
                "the text the agent matched ends inside `10` of file line 3 (`retries = 10`): the \
                 {old} is part of a word it does not show, and what the line should become cannot \
                 be told; send the edit with the file's whole line as it stands"
                    .to_string()
            )
        );
    }

    /// Several places: the correction's, the agent's loose one, and lines
    /// equal but for trailing spaces or quote style; one place is none.
    #[test]
    fn several_places_are_named_one_is_none() {
        let content = "a\nsay \u{201c}hi\u{201d}\nb\nsay \"hi\"  \nc\n";
        assert_eq!(
            several_places(content, "say \"hi\"\n", "say \"hi\"  \n", None),
            Some("line 2 and line 4".to_string())
        );
        assert_eq!(
            several_places(content, "b\nsay \"hi\"\n", "b\nsay \"hi\"  \n", None),
            None
        );
        assert_eq!(
            several_places(content, "c \n", "c\n", Some(((1, 1), "x"))),
            Some("line 1 and line 5".to_string())
        );
    }
}
