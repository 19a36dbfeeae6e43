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

use super::apply_patch::PatchDoubtKind;
use super::call::{CallMatcher, CallOutcome, EditMatch, Header};
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
    // A patch tool's checks, judged once where the call ran
    // ([`super::patch_family`]): where they say a hunk sent again, one that
    // repeats the lines around it, stands in for lines or hides
    // characters, an edit's own check of the same is not said twice (it
    // is where Codex's parser could not read the patch to judge it).
    // A move onto the file itself is said by the callers that know the
    // writes (the agent writes the file, then deletes it).
    let patch = outcome.patch_doubts.as_deref();
    out.extend(
        patch
            .unwrap_or_default()
            .iter()
            .filter(|d| d.kind != PatchDoubtKind::MovesOntoItself)
            .map(|d| (of_patch(d.kind), d.message.clone())),
    );
    let by_patch = |kind: edit::EditDoubtKind| {
        (patch.unwrap_or_default().iter()).any(|d| of_patch(d.kind) == CallDoubtKind::Edit(kind))
    };
    if let Some(title) = judged.every_place {
        for (i, changes) in every_place_changes(title, outcome) {
            // Each place said and counted (a tester's find, 43a-11: a
            // flexible strategy's two places were said as one span).
            let count = outcome.edits[i].also_replaced.len() + 1;
            out.push((
                CallDoubtKind::FirstOfSeveral,
                format!(
                    "edit {}: {changes}: the hunk changed {count} places, each where its text \
                     stands, and the model may have meant one: add a line of context to the \
                     hunk so that its text stands at one place",
                    i + 1
                ),
            ));
        }
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
        if judged.first_wins
            && let Some(doubt) = first_of_several(outcome, i, &content)
        {
            out.push((
                CallDoubtKind::FirstOfSeveral,
                format!("edit {}: {doubt}", i + 1),
            ));
        }
        // The file named for its comment marks; not a file whose layout
        // srview reads: its callers read the call's whole result for that.
        let file = matched.path.as_deref().or(judged.file);
        let layout_read = file.filter(|f| crate::diagnose::layout::layout_read(f, &content));
        // The name kept for every file (a tester's find, round 46 T-08: a
        // Python line given a `\` joining the next was said for Claude Code
        // only); the layout faults it brings are the callers' (filtered
        // below by `of_layout`).
        let as_claude = Edit::ClaudeEdit {
            file_path: file.unwrap_or_default().to_string(),
            old_string: found.clone(),
            new_string: written.clone(),
            // An agent's replace-all (Gemini CLI's `allow_multiple`,
            // OpenCode's `replaceAll`) judged at every place it changed.
            replace_all: !matched.also_replaced.is_empty(),
        };
        let applied = edit::apply(&as_claude, Some(&content));
        // The faults of the file as a whole (a brace language's brackets,
        // read with the name kept) are the whole result's, judged by the
        // callers: one edit of several alone may unbalance what the next
        // balances.
        // Replayed as Claude Code's edit, an empty new text takes the
        // newline after its old text; the agent replaced `found` alone,
        // and where that is the model's old text and the newline after
        // it (Qwen Code's rule), the join is said of the model's text:
        // the replay's is said only of an old text the model sent whole,
        // its newline included (the replay then takes no other).
        let asked_old = judged.asked.and_then(|asked| asked.get(i));
        let replayed_join = |kind: &edit::EditDoubtKind| {
            *kind == edit::EditDoubtKind::JoinsLines
                && written.is_empty()
                && (!found.ends_with('\n') || asked_old.is_none_or(|(old, _)| old != found))
        };
        let joined = asked_old
            .filter(|(old, _)| written.is_empty() && found.strip_suffix('\n') == Some(old))
            .zip(applied.block.original)
            .and_then(|((old, _), span)| {
                edit::joined_lines(&applied.path, &content, span.start, span.end, old, written)
            });
        out.extend(joined.map(|doubt| {
            (
                CallDoubtKind::Edit(edit::EditDoubtKind::JoinsLines),
                format!("edit {}: {doubt}", i + 1),
            )
        }));
        // Line endings as Claude Code writes them are not the agent's:
        // judged below on what the agent writes.
        let replayed_endings = |kind: &edit::EditDoubtKind| {
            matches!(
                kind,
                edit::EditDoubtKind::LineEndings | edit::EditDoubtKind::MixesEndings
            )
        };
        // A stand-in is read in the file's own kind, its name kept (a
        // Python `...` beside other statements stands in for lines: a
        // helper's find, round 44, Aider's REPLACE written as code).
        let named_stand_in = layout_read.map(|f| edit::stands_in(f, &applied, &content));
        let mut doubts = edit::edit_doubt_kinds(&applied, &content);
        if let Some(named) = named_stand_in {
            let elides = edit::EditDoubtKind::ElidesLines;
            match (doubts.iter().position(|(kind, _)| *kind == elides), named) {
                (Some(at), Some(sentence)) => doubts[at].1 = sentence,
                (Some(at), None) => {
                    doubts.remove(at);
                }
                (None, named) => doubts.extend(named.map(|sentence| (elides, sentence))),
            }
        }
        out.extend(
            doubts
                .into_iter()
                .filter(|(kind, _)| {
                    !kind.of_layout()
                        && !by_patch(*kind)
                        && !replayed_join(kind)
                        && !replayed_endings(kind)
                })
                .map(|(kind, doubt)| {
                    (
                        CallDoubtKind::Edit(kind),
                        format!("edit {}: {doubt}", i + 1),
                    )
                }),
        );
    }
    out.extend(endings_written(outcome, before));
    out
}

/// What each file the agent writes does to its line endings, judged on
/// the agent's own write (each agent ends lines its own way: a tester's
/// find, OpenCode, which keeps each line's ending, was doubted as Claude
/// Code's edit rewrites them; Gemini CLI's all-CRLF result was said to be
/// all-LF) ([`edit::endings_doubt`]). Not where the agent's rewrite of
/// lines no edit covers is said already ([`CallOutcome::rewritten_outside`],
/// pi's).
fn endings_written(
    outcome: &CallOutcome,
    before: &dyn Fn(&EditMatch) -> Option<String>,
) -> Vec<(CallDoubtKind, String)> {
    if !outcome.rewritten_outside.is_empty() {
        return Vec::new();
    }
    let one = outcome.writes.len() == 1;
    outcome
        .writes
        .iter()
        .filter_map(|write| {
            let written = write.content.as_deref()?;
            let matched = outcome.edits.iter().find(|e| match &e.path {
                Some(path) => *path == write.path,
                None => one,
            })?;
            let content = before(matched)?;
            let (kind, doubt) = edit::endings_doubt(&content, written)?;
            let doubt = if one {
                doubt
            } else {
                format!("{}: {doubt}", write.path)
            };
            Some((CallDoubtKind::Edit(kind), doubt))
        })
        .collect()
}

/// A patch tool's doubt ([`CallOutcome::patch_doubts`]) among a call's:
/// a file replaced whole, or moved onto itself, is a text the agent
/// writes other than the edit the model meant.
fn of_patch(kind: PatchDoubtKind) -> CallDoubtKind {
    use PatchDoubtKind as K;
    use edit::EditDoubtKind as E;
    match kind {
        // A hunk placed elsewhere than its `@@` line names.
        K::Repeated | K::HeaderIgnored => CallDoubtKind::FirstOfSeveral,
        K::AddedAtEnd => CallDoubtKind::AddedAtEnd,
        K::ReplacesFile
        | K::MovesOntoItself
        | K::IndentShift
        | K::SplitSections
        | K::DeletesUpdated => CallDoubtKind::Rewritten,
        K::RepeatsNeighbours => CallDoubtKind::Edit(E::RepeatsNeighbours),
        K::Layout(kind) => CallDoubtKind::Edit(E::Layout(kind)),
        K::AlreadyApplied => CallDoubtKind::Edit(E::AlreadyApplied),
        K::ElidesLines => CallDoubtKind::Edit(E::ElidesLines),
        K::HiddenText => CallDoubtKind::Edit(E::HiddenText),
        K::JoinsLines => CallDoubtKind::Edit(E::JoinsLines),
    }
}

/// What is in doubt about edit `i` of `outcome`, placed exactly by an agent
/// that takes the first of several places its text stands at, `before`
/// the file before the call: the places besides the one taken where it
/// stands in the text the agent searched ([`EditMatch::searched`]: the
/// file as the call's earlier edits left it, searched from a line, after
/// an `@@` line), by the rule every such agent shares
/// ([`crate::dialect::apply_patch::doubt::other_places`]); `None` when
/// there is none. Said: where it landed and where else it stands, with
/// whose line numbers these are and which lines an earlier edit added, or
/// that the `@@` line was not found and the agent searched without it.
fn first_of_several(outcome: &CallOutcome, i: usize, before: &str) -> Option<String> {
    use crate::dialect::apply_patch::doubt::other_places;
    use crate::dialect::apply_patch::seek::{MatchLevel, occurrences};
    let matched = outcome.edits.get(i)?;
    let searched = matched.searched.as_deref();
    let content = searched
        .and_then(|s| s.content.as_deref())
        .unwrap_or(before);
    let found = matched.found.as_deref()?;
    let wanted = crate::textdiff::text_lines(found);
    let lines = crate::textdiff::text_lines(content);
    let taken = matched.lines?.0.checked_sub(1)?;
    let from = searched.map_or(0, |s| s.from);
    if searched.is_some_and(|s| s.at_end) && taken + wanted.len() == lines.len() {
        // Marked to stand at the end of the file, and it does.
        return None;
    }
    let places = occurrences(&lines, &wanted, 0, false, MatchLevel::Exact);
    let header = searched.and_then(|s| s.header.as_ref());
    let again = header.and_then(|h| {
        let line = h.line?;
        Some(occurrences(
            &lines,
            &[h.text.as_str()],
            line,
            false,
            MatchLevel::Unicode,
        ))
    });
    let others: Vec<(usize, usize)> = other_places(&places, taken, from, again.as_deref())
        .into_iter()
        .map(|at| (at + 1, at + wanted.len()))
        .collect();
    if others.is_empty() {
        return None;
    }
    let taken = (taken + 1, taken + wanted.len());
    let first_place = "the agent takes the first place, which may not be the one meant";
    if let Some(Header { text, line: None }) = header {
        let (missing, way) = if from == 0 {
            (String::new(), "from the top".to_string())
        } else {
            (
                format!(" after line {from}"),
                format!("from line {}", from + 1),
            )
        };
        return Some(format!(
            "its @@ line '{text}' is not in the file{missing}, so the agent searched {way} \
             without it and took {}; the same text stands at {}: {first_place}",
            lines_text(taken),
            ranges_text(&others)
        ));
    }
    let Some(left) = left_by(outcome, i) else {
        return Some(format!(
            "the text it replaced also stands at {}: {first_place}",
            ranges_text(&others)
        ));
    };
    let chain = earlier_texts(outcome, i);
    let noted = |range: (usize, usize)| {
        let origin = match origin(&chain, content, range) {
            Origin::Added(number, true) => format!(" (text edit {number} added)"),
            Origin::Added(number, false) => format!(" (partly text edit {number} added)"),
            Origin::Before(old) => format!(" ({} of the file before the call)", lines_text(old)),
            Origin::Unknown => String::new(),
        };
        format!("{}{origin}", lines_text(range))
    };
    let others: Vec<String> = others.into_iter().map(noted).collect();
    Some(format!(
        "in the file as {left} left it, the text it replaced stands at {} and also at {}: \
         {first_place}",
        noted(taken),
        join_and(&others)
    ))
}

/// `edit 1` / `edits 1 and 2`: the earlier edits of `outcome` that changed
/// the file edit `i` was searched in, where the agent applies them one
/// after another ([`Searched::content`](super::call::Searched::content)); `None` when none did, and the
/// edit's lines are the file's before the call.
pub fn left_by(outcome: &CallOutcome, i: usize) -> Option<String> {
    let matched = outcome.edits.get(i)?;
    let content = matched.searched.as_ref()?.content.as_deref()?;
    let chain = earlier_texts(outcome, i);
    let (_, first) = chain.first()?;
    if *first == content {
        return None;
    }
    let numbers: Vec<String> = chain
        .iter()
        .enumerate()
        .filter(|&(k, (_, met))| {
            let after = chain.get(k + 1).map_or(content, |(_, next)| next);
            *met != after
        })
        .map(|(_, (number, _))| number.to_string())
        .collect();
    match &numbers[..] {
        [] => None,
        [one] => Some(format!("edit {one}")),
        more => Some(format!("edits {}", join_and(more))),
    }
}

/// The earlier edits of `outcome` on the file edit `i` edits, each with
/// its number (from 1) and the text it was searched in, in order
/// ([`Searched::content`](super::call::Searched::content)).
fn earlier_texts(outcome: &CallOutcome, i: usize) -> Vec<(usize, &str)> {
    let Some(path) = outcome.edits.get(i).map(|e| &e.path) else {
        return Vec::new();
    };
    outcome.edits[..i]
        .iter()
        .enumerate()
        .filter(|(_, e)| &e.path == path && e.found.is_some())
        .filter_map(|(j, e)| {
            let met = e.searched.as_ref()?.content.as_deref()?;
            Some((j + 1, met))
        })
        .collect()
}

/// Where lines of the text an edit was searched in come from.
#[derive(Debug, PartialEq, Eq)]
enum Origin {
    /// Earlier edit N added them (all of them, or some).
    Added(usize, bool),
    /// They are these lines of the file before the call.
    Before((usize, usize)),
    /// Neither can be told.
    Unknown,
}

/// Where lines `range` (1-based) of `now` come from, `chain` the texts the
/// earlier edits were searched in ([`earlier_texts`]), the first being the
/// file before the call: followed back edit by edit, through the lines
/// each one left as they were.
fn origin(chain: &[(usize, &str)], now: &str, range: (usize, usize)) -> Origin {
    let mut range = range;
    let mut after = now;
    for &(number, met) in chain.iter().rev() {
        let diff = similar::TextDiff::from_lines(met, after);
        let mut kept: Vec<Option<usize>> = vec![None; crate::textdiff::text_lines(after).len() + 1];
        for op in diff.ops() {
            let (tag, old, new) = op.as_tag_tuple();
            if tag == similar::DiffTag::Equal {
                for (o, n) in old.zip(new) {
                    if let Some(slot) = kept.get_mut(n) {
                        *slot = Some(o);
                    }
                }
            }
        }
        let mapped: Vec<Option<usize>> = (range.0 - 1..range.1)
            .map(|n| kept.get(n).copied().flatten())
            .collect();
        match (mapped.first(), mapped.last()) {
            (Some(Some(a)), Some(Some(b)))
                if mapped.iter().all(Option::is_some) && b - a + 1 == mapped.len() =>
            {
                range = (a + 1, b + 1);
                after = met;
            }
            _ if mapped.iter().all(Option::is_none) => return Origin::Added(number, true),
            _ if mapped.iter().any(Option::is_none) => return Origin::Added(number, false),
            _ => return Origin::Unknown,
        }
    }
    if chain.is_empty() {
        Origin::Unknown
    } else {
        Origin::Before(range)
    }
}

/// `A`, `A and B`, `A, B and C`.
fn join_and<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", init.join(", "), last.as_ref())
        }
    }
}

/// `line N`, `lines A-B and line C`: line ranges in a sentence.
fn ranges_text(ranges: &[(usize, usize)]) -> String {
    let texts: Vec<String> = ranges.iter().map(|&r| lines_text(r)).collect();
    join_and(&texts)
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
/// lines C-D`: what each edit of a call replacing every place of its text
/// changed beyond its own first place ([`EditMatch::also_replaced`]), with
/// the edit's index (from 0); the lines those of the file as the call's
/// earlier edits left it where they changed it ([`left_by`]). None for an
/// edit that changed one place, nothing for a call that failed.
pub fn every_place_changes(title: &str, outcome: &CallOutcome) -> Vec<(usize, String)> {
    if !outcome.ok {
        return Vec::new();
    }
    (outcome.edits.iter().enumerate())
        .filter(|(_, edit)| !edit.also_replaced.is_empty())
        .map(|(i, edit)| {
            // Up to a dozen places named, the rest counted (a `}` replaced
            // in 20,000 places was a sentence of 20,000 numbers).
            let listed = PLACES_NAMED.saturating_sub(1);
            let mut ranges: Vec<String> = edit
                .also_replaced
                .iter()
                .take(listed)
                .map(|&range| lines_text(range))
                .collect();
            if edit.also_replaced.len() > listed {
                ranges.push(crate::words::count(
                    edit.also_replaced.len() - listed,
                    "more place",
                ));
            }
            let first = edit
                .lines
                .map(|range| format!("{} and ", lines_text(range)))
                .unwrap_or_default();
            let whose = left_by(outcome, i)
                .map(|left| format!(" of the file as {left} left it"))
                .unwrap_or_default();
            let sentence = format!(
                "{title} replaces every occurrence: it changes {first}also {}{whose}",
                ranges.join(", ")
            );
            (i, sentence)
        })
        .collect()
}

/// How many places of a replace-all edit a sentence names.
const PLACES_NAMED: usize = 12;

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

    /// `reply` run as the Aider format `id` (`aider-diff`, `aider-udiff`)
    /// with `path` in the chat, holding `file`.
    fn aider_run(id: &str, path: &str, file: &str, reply: &str) -> CallOutcome {
        let input = serde_json::json!({"reply": reply, "chat_files": [path]});
        let matcher = find(id).and_then(|r| r.matcher()).expect("row");
        run_in_memory(matcher, "/p", &[(path, file)], &input)
    }

    /// The exact doubts of `outcome` (a call of `row` asking nothing more),
    /// with their kinds, each edit judged against `file`.
    fn doubt_kinds(
        outcome: &CallOutcome,
        file: &str,
        row: &DialectRow,
    ) -> Vec<(CallDoubtKind, String)> {
        exact_doubt_kinds(outcome, &|_| Some(file.to_string()), Judged::of(row, &None))
    }

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

    /// A replace-all of a `}` standing in 15 places: the sentence names
    /// the first place and 11 more, and counts the other 3.
    #[test]
    fn a_replace_all_of_many_places_names_a_dozen_and_counts_the_rest() {
        let file = "fn a() {\n}\n".repeat(15);
        let input = serde_json::json!({
            "filePath": "/p/a.rs", "oldString": "}", "newString": "};", "replaceAll": true,
        });
        let matcher = find("opencode-edit")
            .and_then(|r| r.matcher())
            .expect("row");
        let outcome = run_in_memory(matcher, "/p", &[("a.rs", &file)], &input);
        assert_eq!(outcome.edits[0].also_replaced.len(), 14, "{outcome:?}");
        assert_eq!(
            every_place_changes("OpenCode's edit", &outcome),
            vec![(
                0,
                "OpenCode's edit replaces every occurrence: it changes line 2 and also line 4, \
                 line 6, line 8, line 10, line 12, line 14, line 16, line 18, line 20, line 22, \
                 line 24, 3 more places"
                    .to_string()
            )]
        );
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
        let outcome = aider_run("aider-udiff", "a.py", file, reply);
        assert_eq!(outcome.also_replaced, vec![(6, 7)], "{outcome:?}");
        assert_eq!(outcome.edits[0].also_replaced, vec![(6, 7)], "{outcome:?}");
        let row = find("aider-udiff").expect("row");
        assert_eq!(
            doubt_kinds(&outcome, file, row),
            vec![(
                CallDoubtKind::FirstOfSeveral,
                "edit 1: Aider 0.86.2's udiff edit format replaces every occurrence: it changes lines \
                 2-3 and also lines 6-7: the hunk changed 2 places, each where its text stands, \
                 and the model may have meant one: add a line of context to the hunk so that \
                 its text stands at one place"
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
        let outcome = aider_run("aider-diff", "a.py", file, &reply);
        assert_eq!(
            outcome.stage.as_deref(),
            Some("empty_search_append"),
            "{outcome:?}"
        );
        doubt_kinds(&outcome, file, row)
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

    /// The cart of round 38a's finding 02: `total` summing prices.
    const CART: &str = "function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n\nmodule.exports = { total };\n";

    /// An Aider reply whose first block adds a helper holding `total`'s
    /// loop, and whose second changes that loop's return: Aider applies the
    /// second on the file as the first left it and takes the first place,
    /// the helper. The doubt is judged there, names both places with whose
    /// line numbers they are, and says which one the first block added.
    #[test]
    fn an_aider_block_is_judged_on_the_file_as_earlier_blocks_left_it() {
        let row = find("aider-diff").expect("row");
        let reply = "cart.js\n```javascript\n<<<<<<< SEARCH\nfunction total(items) {\n=======\nfunction subtotal(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n\nfunction total(items) {\n>>>>>>> REPLACE\n```\n\ncart.js\n```javascript\n<<<<<<< SEARCH\n  for (const i of items) sum += i.price;\n  return sum;\n=======\n  for (const i of items) sum += i.price;\n  return sum * 1.2;\n>>>>>>> REPLACE\n```\n";
        let outcome = aider_run("aider-diff", "cart.js", CART, reply);
        assert!(outcome.ok, "{outcome:?}");
        assert_eq!(outcome.edits[1].lines, Some((3, 4)));
        assert_eq!(left_by(&outcome, 0), None);
        assert_eq!(left_by(&outcome, 1).as_deref(), Some("edit 1"));
        assert_eq!(
            doubt_kinds(&outcome, CART, row),
            vec![(
                CallDoubtKind::FirstOfSeveral,
                "edit 2: in the file as edit 1 left it, the text it replaced stands at lines 3-4 \
                 (text edit 1 added) and also at lines 9-10 (lines 3-4 of the file before the \
                 call): the agent takes the first place, which may not be the one meant"
                    .to_string()
            )]
        );
    }

    /// Lines followed back through the edits that made the text: kept
    /// lines to the file's, added ones to the edit that added them.
    #[test]
    fn lines_are_followed_back_to_the_edit_that_added_them() {
        let first = "a\nb\n";
        let second = "x\na\nb\n";
        let now = "x\na\ny\nb\n";
        let chain = [(1, first), (2, second)];
        assert_eq!(origin(&chain, now, (1, 1)), Origin::Added(1, true));
        assert_eq!(origin(&chain, now, (3, 3)), Origin::Added(2, true));
        assert_eq!(origin(&chain, now, (2, 2)), Origin::Before((1, 1)));
        assert_eq!(origin(&chain, now, (2, 3)), Origin::Added(2, false));
        assert_eq!(origin(&[], now, (1, 1)), Origin::Unknown);
        assert_eq!(join_and(&["1", "2", "3"]), "1, 2 and 3");
        assert_eq!(ranges_text(&[(3, 3), (7, 8)]), "line 3 and lines 7-8");
        assert_eq!(crate::textdiff::text_lines("a\r\nb\r\n"), ["a", "b"]);
        assert_eq!(crate::textdiff::text_lines("a\n\n"), ["a", ""]);
    }

    /// Two functions alike, the patch naming the second by its `@@` line:
    /// Cline 3.x and OpenCode move past it and take the second, which no
    /// other `@@` line of that text precedes: no doubt. An `@@` line not in
    /// the file, which Cline ignores: it takes the first, and the doubt
    /// names the place taken, the other, and the missing `@@` line.
    #[test]
    fn a_hunk_placed_by_its_header_is_no_first_place_doubt() {
        let file = "function parseA(s) {\n  const parts = s.split(\",\");\n  return parts.map(Number);\n}\n\nfunction parseB(s) {\n  const parts = s.split(\",\");\n  return parts.map(Number);\n}\n";
        let patch = |header: &str| {
            format!(
                "*** Begin Patch\n*** Update File: p.js\n@@ {header}\n   const parts = s.split(\",\");\n-  return parts.map(Number);\n+  return parts.map(Number).filter(Boolean);\n*** End Patch\n"
            )
        };
        let doubts = |dialect: &str, key: &str, header: &str| {
            let row = find(dialect).expect("row");
            let input = serde_json::json!({ key: patch(header) });
            let matcher = row.matcher().expect("matcher");
            let outcome = run_in_memory(matcher, "/p", &[("p.js", file)], &input);
            assert!(outcome.ok, "{dialect}: {outcome:?}");
            exact_doubts(
                &outcome,
                &|_| Some(file.to_string()),
                Judged::of(row, &None),
            )
        };
        assert_eq!(
            doubts("cline-apply-patch", "input", "function parseB(s) {"),
            Vec::<String>::new()
        );
        assert_eq!(
            doubts("opencode-apply-patch", "patchText", "function parseB(s) {"),
            Vec::<String>::new()
        );
        assert_eq!(
            doubts("cline-apply-patch", "input", "function parseB(str) {"),
            vec![
                "edit 1: its @@ line 'function parseB(str) {' is not in the file, so the agent \
                 searched from the top without it and took lines 2-3; the same text stands at \
                 lines 7-8: the agent takes the first place, which may not be the one meant"
                    .to_string()
            ]
        );
        // The same @@ line twice: the second one's lines are another place.
        let twice = format!(
            "{file}\nfunction parseB(s) {{\n  const parts = s.split(\",\");\n  return parts.map(Number);\n}}\n"
        );
        let row = find("cline-apply-patch").expect("row");
        let input = serde_json::json!({ "input": patch("function parseB(s) {") });
        let outcome = run_in_memory(
            row.matcher().expect("matcher"),
            "/p",
            &[("p.js", &twice)],
            &input,
        );
        assert_eq!(
            exact_doubts(&outcome, &|_| Some(twice.clone()), Judged::of(row, &None)),
            vec![
                "edit 1: the text it replaced also stands at lines 12-13: the agent takes the \
                 first place, which may not be the one meant"
                    .to_string()
            ]
        );
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
