//! Aider 0.86.2's `udiff` edit format (`--edit-format udiff`), ported from
//! aider/coders/udiff_coder.py and the parts of search_replace.py it runs
//! (`flexible_search_and_replace` with `search_and_replace` only, over the
//! four `all_preprocs`: as written, blank lines stripped, relative
//! indentation, both), in the `Coder.apply_updates` of base_coder.py:
//! `get_edits` (`find_diffs`), `prepare_to_edit`, `apply_edits`.
//!
//! What Aider does with a hunk (`do_replace`): a hunk whose before-text is
//! blank is APPENDED to the file; otherwise `apply_hunk` replaces EVERY
//! occurrence of its before-text (`str.replace`), refusing only a
//! before-text under 10 non-space characters that occurs more than once;
//! failing that, it retries the hunk piece by piece with less and less
//! context (`apply_partial_hunk`). Each hunk that applies is written at
//! once; the failures are reported together (`UnifiedDiffNoMatch`) and the
//! hunks that applied stay written.
//!
//! `make_new_lines_explicit` diffs the hunk's before-text against the file
//! with diff-match-patch's line diff, ported in `dmp`.

use std::borrow::Cow;

use crate::dialect::call::{
    CallMatcher, CallOutcome, EditMatch, Searched, ToolCall, later_occurrences,
};

use super::allowed_to_edit;
use super::dmp::{common_prefix, common_suffix};
use super::pytext::{is_blank, len_chars, lstrip, splitlines, splitlines_keepends, strip};
use super::world::World;

/// Aider 0.86.2's `udiff` edit format.
pub struct AiderUdiff;

/// Stage names (after Aider's functions and preprocessings).
const DIRECT: &str = "search_and_replace";
const APPEND: &str = "append";
const NEW_FILE: &str = "new_file";
const FAILED: &str = "failed";
/// A hunk that changes nothing (`normalize_hunk` left nothing).
const EMPTY: &str = "no_change";
/// The same file and hunk again in the reply: Aider runs it once.
const DUPLICATE: &str = "duplicate";
/// A hunk Aider dropped (it could not create its file) or never reached.
const SKIPPED: &str = "skipped";

/// A Python exception that ends `apply_updates`.
#[derive(Debug, PartialEq, Eq)]
enum Exception {
    /// One of the types Aider lists in `ANY_GIT_ERROR` (IndexError,
    /// TypeError, OSError among them): it prints the text and returns; the
    /// model reads nothing.
    Swallowed,
    /// Any other (`except Exception`): "Exception while updating files:",
    /// and its text (`str(err)`) is reflected to the model.
    Reflected(&'static str),
}

/// `find_diffs` on a reply whose ```` ```diff ```` fence opens on its last
/// line: Python's UnboundLocalError.
const UNBOUND_LINE_NUM: Exception = Exception::Reflected(
    "cannot access local variable 'line_num' where it is not associated with a value",
);

/// A hunk: its lines, each with its end of line.
type Hunk = Vec<String>;

impl CallMatcher for AiderUdiff {
    fn replaces_every_place_unasked(&self) -> bool {
        true
    }

    fn appends_unplaced(&self, stage: &str) -> Option<(&'static str, &'static str)> {
        (stage == APPEND).then_some((
            "Aider appends this hunk at the end of the file",
            "the hunk has only added lines, so it names no place, whatever its @@ line says: \
             to put its lines elsewhere, send the hunk with the lines they go after as \
             context",
        ))
    }

    /// `find_diffs` reads hunks only inside a ```` ```diff ```` fence: a
    /// unified diff without one (a model's common slip) holds no hunk.
    fn nothing_found(&self, input: &serde_json::Value, source: &str) -> String {
        let reply = input
            .get("reply")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default();
        let fenced = reply.lines().any(|line| line.starts_with("```diff"));
        let hunk_like = reply.lines().any(|line| line.starts_with("@@"))
            || reply
                .lines()
                .zip(reply.lines().skip(1))
                .any(|(a, b)| a.starts_with("--- ") && b.starts_with("+++ "));
        if hunk_like && !fenced {
            format!(
                "no ```diff fence found in {source}: Aider 0.86.2 reads udiff hunks only \
                 inside a ```diff fence, and finds no hunk in a unified diff without one"
            )
        } else {
            format!("no ```diff hunk found in {source}")
        }
    }

    fn run(&self, call: &ToolCall) -> CallOutcome {
        let (reply, mut world) = match super::open_call(call, "aider-udiff") {
            Ok(opened) => opened,
            Err(refused) => return *refused,
        };
        let raw = match find_diffs(reply) {
            Ok(raw) => raw,
            Err(exception) => return raised(&mut world, exception, Vec::new()),
        };
        // get_edits: a hunk without a file is the last named file's.
        let mut last_path: Option<String> = None;
        let edits: Vec<(Option<String>, Hunk)> = raw
            .into_iter()
            .map(|(path, hunk)| {
                if path.is_some() {
                    last_path.clone_from(&path);
                    (path, hunk)
                } else {
                    (last_path.clone(), hunk)
                }
            })
            .collect();
        // prepare_to_edit: each distinct path once through allowed_to_edit.
        let mut seen: Vec<(String, bool)> = Vec::new();
        let mut kept: Vec<usize> = Vec::new();
        for (index, (path, _)) in edits.iter().enumerate() {
            let Some(path) = path else {
                kept.push(index);
                continue;
            };
            let allowed = match seen.iter().find(|(p, _)| p == path) {
                Some(&(_, allowed)) => allowed,
                None => {
                    let allowed = allowed_to_edit(&mut world, path);
                    seen.push((path.clone(), allowed));
                    allowed
                }
            };
            if allowed {
                kept.push(index);
            }
        }
        let mut matches = vec![
            EditMatch {
                stage: SKIPPED.to_string(),
                ..EditMatch::default()
            };
            edits.len()
        ];
        let edited: std::collections::BTreeSet<&str> =
            kept.iter().filter_map(|&i| edits[i].0.as_deref()).collect();
        let mut also_replaced = Vec::new();
        match apply_edits(&mut world, &edits, &kept, &mut matches, &mut also_replaced) {
            Err(exception) => raised(&mut world, exception, matches),
            Ok(Some(errors)) => CallOutcome {
                ok: false,
                error: Some(errors),
                stage: Some(stage_of(&matches)),
                writes: std::mem::take(&mut world.written),
                edits: matches,
                also_replaced,
                ..CallOutcome::default()
            },
            Ok(None) => CallOutcome {
                ok: true,
                // Aider writes every line with `\n`: a CRLF file's other
                // lines too.
                rewritten_outside: super::endings::endings_rewritten(
                    &world,
                    &world.written,
                    &matches,
                ),
                message: (!edited.is_empty()).then(|| {
                    edited
                        .iter()
                        .map(|path| format!("Applied edit to {path}"))
                        .collect::<Vec<_>>()
                        .join("\n")
                }),
                stage: Some(stage_of(&matches)),
                writes: std::mem::take(&mut world.written),
                edits: matches,
                also_replaced,
                dropped: unclosed_fence(reply).into_iter().collect(),
                ..CallOutcome::default()
            },
        }
    }
}

/// A reply whose last ```` ```diff ```` fence is never closed (the reply
/// cut off: a length limit, an interrupted stream): Aider's
/// `process_fenced_block` takes the lines up to the one before the last,
/// as if the last were the fence, so the hunk loses its last line (a
/// tester's find: a function written without its `return`, called exact).
/// The sentence saying so and what to send, when that line holds text.
fn unclosed_fence(reply: &str) -> Option<String> {
    let content = newline_ended(reply);
    let lines = splitlines_keepends(&content);
    let mut at = 0;
    let mut opened = None;
    while at < lines.len() {
        if lines[at].starts_with("```diff") {
            match (at + 1..lines.len()).find(|&i| lines[i].starts_with("```")) {
                Some(close) => at = close + 1,
                None => {
                    opened = Some(at);
                    break;
                }
            }
        } else {
            at += 1;
        }
    }
    let opened = opened?;
    let last = lines
        .len()
        .checked_sub(1)
        .filter(|&last| last > opened + 1)?;
    let lost = lines[last].trim_end_matches(['\r', '\n']);
    if lost.trim().is_empty() {
        return None;
    }
    Some(format!(
        "the ```diff fence opened at reply line {} is not closed (is the reply cut off?): \
         Aider drops the last line of the reply, `{lost}`, as if it were the closing fence, \
         so what it writes lacks that line: send the whole hunk again, closed by a ``` line",
        opened + 1
    ))
}

/// `text` reads as an Aider udiff reply and as nothing else srview reads:
/// not JSON, no SEARCH/REPLACE marker line, and Aider's own parser finds
/// in it a ```` ```diff ```` fence whose `--- `/`+++ ` lines name a file
/// and a hunk that changes something. A git diff or a bare unified diff
/// (no fence) is not one: Aider's parser finds nothing in it.
pub fn is_udiff_reply(text: &str) -> bool {
    if text.trim_start().starts_with('{') {
        return false;
    }
    let marker = |line: &str| {
        let line = line.trim_end();
        line.ends_with(" SEARCH") && (line.starts_with("<<<<<<<") || line.starts_with("-------"))
    };
    if text.lines().any(marker) {
        return false;
    }
    find_diffs(text).is_ok_and(|edits| {
        edits
            .iter()
            .any(|(path, hunk)| path.is_some() && !normalize_hunk(hunk).is_empty())
    })
}

/// The reply's hunks as Aider reads them (`find_diffs`): each hunk's file
/// (`None` before any `+++ ` line) and its before- and after-text. `None`
/// when Aider's parser fails on the reply.
pub fn reply_hunks(reply: &str) -> Option<Vec<(Option<String>, String, String)>> {
    let edits = find_diffs(reply).ok()?;
    Some(
        edits
            .iter()
            .map(|(path, hunk)| {
                let (before, after) = hunk_to_before_after(hunk);
                (path.clone(), before, after)
            })
            .collect(),
    )
}

/// A udiff reply replacing, in `path`, each `(before, after)` pair's
/// before-text by its after-text: one ```` ```diff ```` fence, `--- `/`+++ `
/// lines, and one hunk per pair (its lines from a line diff of the two),
/// under Aider's `@@ ... @@`. Each text ends its lines with `\n`.
pub fn reply_of(path: &str, pairs: &[(String, String)]) -> String {
    let mut out = format!("```diff\n--- {path}\n+++ {path}\n");
    for (before, after) in pairs {
        out.push_str("@@ ... @@\n");
        let diff = similar::TextDiff::from_lines(before.as_str(), after.as_str());
        for change in diff.iter_all_changes() {
            let sign = match change.tag() {
                similar::ChangeTag::Equal => ' ',
                similar::ChangeTag::Delete => '-',
                similar::ChangeTag::Insert => '+',
            };
            out.push(sign);
            out.push_str(change.value());
            if !change.value().ends_with('\n') {
                out.push('\n');
            }
        }
    }
    out.push_str("```\n");
    out
}

/// The call's stage: its hunks' stages, each once, in order.
fn stage_of(matches: &[EditMatch]) -> String {
    let mut stages: Vec<&str> = Vec::new();
    for edit in matches {
        if !stages.contains(&edit.stage.as_str()) {
            stages.push(&edit.stage);
        }
    }
    if stages.is_empty() {
        "no_hunks".to_string()
    } else {
        stages.join("+")
    }
}

/// An exception ended `apply_updates`; what Aider wrote before it stays
/// written, and it prints no "Applied edit".
fn raised(world: &mut World, exception: Exception, edits: Vec<EditMatch>) -> CallOutcome {
    let error = match exception {
        Exception::Swallowed => None,
        Exception::Reflected(text) => Some(text.to_string()),
    };
    CallOutcome {
        ok: error.is_none(),
        error,
        stage: Some("exception".to_string()),
        writes: std::mem::take(&mut world.written),
        edits,
        ..CallOutcome::default()
    }
}

const NO_MATCH_ERROR: &str = "UnifiedDiffNoMatch: hunk failed to apply!

{path} does not contain lines that match the diff you provided!
Try again.
DO NOT skip blank lines, comments, docstrings, etc!
The diff needs to apply cleanly to the lines in {path}!

{path} does not contain these {num_lines} exact lines in a row:
```
{original}```
";

const OTHER_HUNKS_APPLIED: &str =
    "Note: some hunks did apply successfully. See the updated source code shown above.\n\n";

/// `UnifiedDiffCoder.apply_edits` over the kept edits: `Ok(Some(text))` is
/// the ValueError it raises (the hunks that failed), `Ok(None)` success.
fn apply_edits(
    world: &mut World,
    edits: &[(Option<String>, Hunk)],
    kept: &[usize],
    matches: &mut [EditMatch],
    also_replaced: &mut Vec<(usize, usize)>,
) -> Result<Option<String>, Exception> {
    let mut seen: Vec<String> = Vec::new();
    let mut uniq: Vec<(usize, &str, Hunk)> = Vec::new();
    for &index in kept {
        let (path, hunk) = &edits[index];
        let hunk = normalize_hunk(hunk);
        if hunk.is_empty() {
            matches[index].stage = EMPTY.to_string();
            continue;
        }
        let Some(path) = path else {
            return Err(Exception::Swallowed);
        };
        let this = format!("{path}\n{}", hunk.concat());
        if seen.contains(&this) {
            matches[index].stage = DUPLICATE.to_string();
            continue;
        }
        seen.push(this);
        uniq.push((index, path, hunk));
    }
    let mut errors: Vec<String> = Vec::new();
    let mut filled: Vec<String> = Vec::new();
    for (index, path, hunk) in &uniq {
        let full = world.full_path(path);
        let content = world.read_text(&full);
        let (original, _) = hunk_to_before_after(hunk);
        let replaced = do_replace(world, &full, content.clone(), hunk)?;
        let Some((text, stage)) = replaced.filter(|(text, _)| !text.is_empty()) else {
            errors.push(
                NO_MATCH_ERROR
                    .replace("{path}", path)
                    .replace("{num_lines}", &splitlines(&original).len().to_string())
                    .replace("{original}", &original),
            );
            matches[*index] = EditMatch {
                stage: FAILED.to_string(),
                path: Some(world.write_key(&full)),
                ..EditMatch::default()
            };
            continue;
        };
        let first_fill = !filled.contains(&full);
        filled.push(full.clone());
        let before = content.unwrap_or_default();
        let stage = if stage == APPEND && first_fill && !world.existed_before(&full) {
            NEW_FILE
        } else {
            stage
        };
        let mut edit = placed(&before, &text, stage, hunk);
        edit.path = Some(world.write_key(&full));
        if stage == DIRECT {
            let (search, _) = hunk_to_before_after(hunk);
            edit.also_replaced = later_occurrences(&before, &search);
        } else if let Some(places) = strategy_places(&before, hunk, stage) {
            // A flexible strategy replaces every place its preprocessed
            // text stands too (a tester's find, 43a-11: two places
            // reported as one span): each said.
            at_each_place(&mut edit, &before, &text, &places);
        }
        also_replaced.extend(edit.also_replaced.iter().copied());
        // Aider applies the hunks one after another: each searched the
        // file as the earlier ones left it.
        edit.searched = Some(Box::new(Searched {
            content: Some(before),
            ..Searched::default()
        }));
        matches[*index] = edit;
        world.write_text(&full, &text);
    }
    if errors.is_empty() {
        return Ok(None);
    }
    let mut errors = errors.join("\n\n");
    // Aider compares the joined text's length (not the number of failed
    // hunks) with the number of hunks.
    if len_chars(&errors) < uniq.len() {
        errors.push_str(OTHER_HUNKS_APPLIED);
    }
    Ok(Some(errors))
}

/// Where a hunk that applied changed `before` into `after`: for the direct
/// replacement, its before-text's first place (the others are the call's
/// `also_replaced`); for the other stages, the one span of lines from the
/// first to the last that differ.
fn placed(before: &str, after: &str, stage: &'static str, hunk: &Hunk) -> EditMatch {
    let loose = !matches!(stage, DIRECT | APPEND | NEW_FILE);
    if stage == DIRECT {
        let (search, replace) = hunk_to_before_after(hunk);
        if let Some(at) = before.find(&search) {
            let first = before[..at].matches('\n').count() + 1;
            let last = first + search.trim_end_matches('\n').matches('\n').count();
            return EditMatch {
                stage: stage.to_string(),
                loose,
                lines: Some((first, last)),
                found: Some(search),
                written: Some(replace),
                path: None,
                named: None,
                searched: None,
                also_replaced: Vec::new(),
            };
        }
    }
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    let prefix = common_prefix(&old, &new);
    let suffix = common_suffix(&old[prefix..], &new[prefix..]);
    let old_span = &old[prefix..old.len() - suffix];
    let new_span = &new[prefix..new.len() - suffix];
    EditMatch {
        stage: stage.to_string(),
        loose,
        lines: (!old_span.is_empty()).then(|| (prefix + 1, prefix + old_span.len())),
        found: Some(old_span.concat()),
        written: Some(new_span.concat()),
        path: None,
        named: None,
        searched: None,
        also_replaced: Vec::new(),
    }
}

/// The line ranges (1-based, of `content`) where the preprocessed strategy
/// `stage` of [`directly_apply_hunk`] found the hunk's before-text, in
/// order: `str.replace` changes each. `None` for a stage that is not one
/// of those strategies (the partial hunks) or a single place.
fn strategy_places(content: &str, hunk: &Hunk, stage: &str) -> Option<Vec<(usize, usize)>> {
    let (strip_blank, relative) = match stage {
        "search_and_replace_strip_blank_lines" => (true, false),
        "search_and_replace_relative_indent" => (false, true),
        "search_and_replace_strip_blank_lines_relative_indent" => (true, true),
        _ => return None,
    };
    let (before, after) = hunk_to_before_after(hunk);
    let mut texts: [String; 3] = [before, after, content.to_string()];
    // The file's blank lines stripped from its top shift its lines.
    let mut shift = 0;
    if strip_blank {
        shift = content.len() - content.trim_start_matches('\n').len();
        texts = texts.map(|t| format!("{}\n", t.trim_matches('\n')));
    }
    if relative {
        let marker = choose_marker(&texts);
        texts = texts.map(|t| make_relative(&t, marker));
    }
    let [search, _, original] = &texts;
    // Each line of the text is two lines of its relative form.
    let per_line = if relative { 2 } else { 1 };
    let line_at = |at: usize| original[..at].matches('\n').count() / per_line + shift + 1;
    let places: Vec<(usize, usize)> = (original.match_indices(search.as_str()))
        .filter(|(_, found)| !found.is_empty())
        .map(|(at, found)| (line_at(at), line_at(at + found.len() - 1)))
        .collect();
    (places.len() > 1).then_some(places)
}

/// `edit` placed at the first of `places` (lines of `before`) with the
/// others its `also_replaced`, its found and written texts those of the
/// first place; left as it is when `after` does not hold the same change
/// at each place (then srview cannot tell one place's written lines).
fn at_each_place(edit: &mut EditMatch, before: &str, after: &str, places: &[(usize, usize)]) {
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    let grown = new.len() as isize - old.len() as isize;
    let count = places.len() as isize;
    let (first, last) = places[0];
    let written_len = (last + 1 - first) as isize + grown / count;
    if grown % count != 0
        || written_len < 0
        || last > old.len()
        || first - 1 + written_len as usize > new.len()
    {
        return;
    }
    edit.lines = Some((first, last));
    edit.found = Some(old[first - 1..last].concat());
    edit.written = Some(new[first - 1..first - 1 + written_len as usize].concat());
    edit.also_replaced = places[1..].to_vec();
}

/// `do_replace(fname, content, hunk)`: the new content and the stage that
/// made it; `None` when the hunk does not apply.
fn do_replace(
    world: &mut World,
    full: &str,
    content: Option<String>,
    hunk: &Hunk,
) -> Result<Option<(String, &'static str)>, Exception> {
    let (before, after) = hunk_to_before_after(hunk);
    let mut content = content;
    if !world.exists(full) && is_blank(&before) {
        if world.touch(full).is_err() {
            // Path.touch's FileNotFoundError (an OSError).
            return Err(Exception::Swallowed);
        }
        content = Some(String::new());
    }
    let Some(content) = content else {
        return Ok(None);
    };
    if is_blank(&before) {
        return Ok(Some((format!("{content}{after}"), APPEND)));
    }
    apply_hunk(&content, hunk)
}

/// `apply_hunk(content, hunk)`: the hunk as it is, else piece by piece.
fn apply_hunk(content: &str, hunk: &Hunk) -> Result<Option<(String, &'static str)>, Exception> {
    if let Some((text, stage)) = directly_apply_hunk(content, hunk)? {
        return Ok(Some((text, stage)));
    }
    let explicit = make_new_lines_explicit(content, hunk)?;
    let (hunk, stage) = match explicit {
        Some(new_hunk) => (new_hunk, "new_lines_explicit+partial_hunks"),
        None => (hunk.clone(), "partial_hunks"),
    };
    // Just space vs not-space: runs of context and of changes.
    let is_change = |line: &String| matches!(line.chars().next(), Some('-' | '+'));
    let mut sections: Vec<Vec<String>> = Vec::new();
    let mut section: Vec<String> = Vec::new();
    let mut current_is_change = false;
    for line in &hunk {
        if is_change(line) != current_is_change {
            sections.push(std::mem::take(&mut section));
            current_is_change = !current_is_change;
        }
        section.push(line.clone());
    }
    sections.push(section);
    if current_is_change {
        sections.push(Vec::new());
    }
    let mut content = content.to_string();
    for i in (2..sections.len()).step_by(2) {
        match apply_partial_hunk(&content, &sections[i - 2], &sections[i - 1], &sections[i])? {
            Some(res) => content = res,
            None => return Ok(None),
        }
    }
    Ok(Some((content, stage)))
}

/// `apply_partial_hunk`: the changes with as much of their context as
/// applies, dropping context lines one at a time (preceding ones first).
fn apply_partial_hunk(
    content: &str,
    preceding: &[String],
    changes: &[String],
    following: &[String],
) -> Result<Option<String>, Exception> {
    let use_all = preceding.len() + following.len();
    for drop in 0..=use_all {
        let used = use_all - drop;
        for use_prec in (0..=preceding.len()).rev() {
            if use_prec > used {
                continue;
            }
            let use_foll = used - use_prec;
            if use_foll > following.len() {
                continue;
            }
            let mut piece: Hunk = preceding[preceding.len() - use_prec..].to_vec();
            piece.extend_from_slice(changes);
            piece.extend_from_slice(&following[..use_foll]);
            if let Some((res, _)) = directly_apply_hunk(content, &piece)? {
                return Ok(Some(res));
            }
        }
    }
    Ok(None)
}

/// `make_new_lines_explicit(content, hunk)`: the hunk rebuilt with only the
/// before-lines the file has (`None`: Aider keeps the hunk as it is).
fn make_new_lines_explicit(content: &str, hunk: &Hunk) -> Result<Option<Hunk>, Exception> {
    let (before, after) = hunk_to_before_after(hunk);
    let back_diff = back_diff(&before, content);
    let Some((new_before, _)) = directly_apply_hunk(&before, &back_diff)? else {
        return Ok(None);
    };
    if len_chars(strip(&new_before)) < 10 {
        return Ok(None);
    }
    let before_count = splitlines_keepends(&before).len();
    let new_before: Vec<String> = owned_lines(&new_before);
    if (new_before.len() as f64) < before_count as f64 * 0.66 {
        return Ok(None);
    }
    let after = owned_lines(&after);
    Ok(Some(full_unified_diff(&new_before, &after)))
}

/// `diff_lines(before, content)` without its `+` lines: each line of
/// `before` as context where diff-match-patch's line diff keeps it, else as
/// removed.
fn back_diff(before: &str, content: &str) -> Hunk {
    super::dmp::diff_lines(before, content)
        .into_iter()
        .filter(|line| !line.starts_with('+'))
        .collect()
}

fn owned_lines(text: &str) -> Vec<String> {
    splitlines_keepends(text)
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// `list(difflib.unified_diff(a, b, n=max(len(a), len(b))))[3:]`: every
/// line of the one group, prefixed; empty when `a == b`.
fn full_unified_diff(a: &[String], b: &[String]) -> Hunk {
    let opcodes = super::difflib::SequenceMatcher::new(a, b).opcodes();
    if opcodes
        .iter()
        .all(|op| op.tag == super::difflib::Tag::Equal)
    {
        return Vec::new();
    }
    let mut out = Vec::new();
    for op in opcodes {
        use super::difflib::Tag;
        match op.tag {
            Tag::Equal => out.extend(a[op.i1..op.i2].iter().map(|l| format!(" {l}"))),
            Tag::Delete | Tag::Replace | Tag::Insert => {
                out.extend(a[op.i1..op.i2].iter().map(|l| format!("-{l}")));
                out.extend(b[op.j1..op.j2].iter().map(|l| format!("+{l}")));
            }
        }
    }
    out
}

/// `cleanup_pure_whitespace_lines`: a blank line becomes
/// `line[-(len(line) - len(line.rstrip("\r\n")))]` (its last break
/// character, or its first character when it has none).
fn cleanup_pure_whitespace_lines(lines: Vec<String>) -> Vec<String> {
    lines
        .into_iter()
        .map(|line| {
            if !is_blank(&line) {
                return line;
            }
            let chars: Vec<char> = line.chars().collect();
            let kept = line.trim_end_matches(['\r', '\n']).chars().count();
            let index = chars.len() - kept;
            // Python's `line[-0]` is `line[0]`.
            let at = if index == 0 { 0 } else { chars.len() - index };
            chars.get(at).map(char::to_string).unwrap_or_default()
        })
        .collect()
}

/// `normalize_hunk(hunk)`: the hunk rebuilt from its before and after
/// lines (blank lines reduced to their end of line).
fn normalize_hunk(hunk: &Hunk) -> Hunk {
    let (before, after) = hunk_to_before_after_lines(hunk);
    let before = cleanup_pure_whitespace_lines(before);
    let after = cleanup_pure_whitespace_lines(after);
    full_unified_diff(&before, &after)
}

/// `directly_apply_hunk(content, hunk)`: every occurrence of the
/// before-text replaced (refused when it is under 10 non-space characters
/// and occurs more than once), trying the four preprocessings.
fn directly_apply_hunk(
    content: &str,
    hunk: &Hunk,
) -> Result<Option<(String, &'static str)>, Exception> {
    let (before, after) = hunk_to_before_after(hunk);
    if before.is_empty() {
        return Ok(None);
    }
    let (before_lines, _) = hunk_to_before_after_lines(hunk);
    let non_space: usize = before_lines.iter().map(|l| len_chars(strip(l))).sum();
    if non_space < 10 && content.matches(before.as_str()).nth(1).is_some() {
        return Ok(None);
    }
    const PREPROCS: [(bool, bool, &str); 4] = [
        (false, false, DIRECT),
        (true, false, "search_and_replace_strip_blank_lines"),
        (false, true, "search_and_replace_relative_indent"),
        (
            true,
            true,
            "search_and_replace_strip_blank_lines_relative_indent",
        ),
    ];
    for (strip_blank, relative, stage) in PREPROCS {
        if let Some(res) = try_strategy([&before, &after, content], strip_blank, relative)?
            && !res.is_empty()
        {
            return Ok(Some((res, stage)));
        }
    }
    Ok(None)
}

/// `try_strategy(texts, search_and_replace, preproc)`.
fn try_strategy(
    texts: [&str; 3],
    strip_blank: bool,
    relative: bool,
) -> Result<Option<String>, Exception> {
    let mut texts: [String; 3] = texts.map(str::to_string);
    if strip_blank {
        texts = texts.map(|t| format!("{}\n", t.trim_matches('\n')));
    }
    let marker = relative.then(|| choose_marker(&texts));
    if let Some(marker) = marker {
        texts = texts.map(|t| make_relative(&t, marker));
    }
    let [search, replace, original] = &texts;
    // search_and_replace: every occurrence, or None for none.
    if !original.contains(search.as_str()) {
        return Ok(None);
    }
    let res = original.replace(search.as_str(), replace);
    match marker {
        // `if res and preproc_relative_indent`: ValueError → None.
        Some(marker) if !res.is_empty() => make_absolute(&res, marker),
        _ => Ok(Some(res)),
    }
}

/// `RelativeIndenter(texts).marker`: `←`, else the highest code point in
/// none of the texts.
fn choose_marker(texts: &[String; 3]) -> char {
    let present = |c: char| texts.iter().any(|t| t.contains(c));
    if !present('←') {
        return '←';
    }
    (0x10001..=0x10FFFF)
        .rev()
        .filter_map(char::from_u32)
        .find(|&c| !present(c))
        .unwrap_or('←')
}

/// `RelativeIndenter.make_relative(text)`: each line as its indent change
/// (added white space, or the marker once per character removed), a
/// newline, then the line without its indent.
fn make_relative(text: &str, marker: char) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut prev_indent: Vec<char> = Vec::new();
    for line in splitlines_keepends(text) {
        let without_end = line.trim_end_matches(['\n', '\r']);
        let len_indent = len_chars(without_end) - len_chars(lstrip(without_end));
        let chars: Vec<char> = line.chars().collect();
        let indent = &chars[..len_indent];
        let change = len_indent as isize - prev_indent.len() as isize;
        if change > 0 {
            out.extend(&indent[indent.len() - change as usize..]);
        } else if change < 0 {
            out.extend(std::iter::repeat_n(marker, (-change) as usize));
        }
        out.push('\n');
        out.extend(&chars[len_indent..]);
        prev_indent = indent.to_vec();
    }
    out
}

/// `RelativeIndenter.make_absolute(text)`: `Ok(None)` for its ValueError
/// (a marker left over), an exception for an odd number of lines (Python's
/// IndexError, which Aider does not catch there).
fn make_absolute(text: &str, marker: char) -> Result<Option<String>, Exception> {
    let lines = splitlines_keepends(text);
    let mut out = String::with_capacity(text.len());
    let mut prev_indent: Vec<char> = Vec::new();
    for pair in lines.chunks(2) {
        let [dent, non_indent] = pair else {
            return Err(Exception::Swallowed);
        };
        let dent = dent.trim_end_matches(['\r', '\n']);
        let cur_indent: Vec<char> = if dent.starts_with(marker) {
            let outdent = dent.chars().count();
            prev_indent[..prev_indent.len().saturating_sub(outdent)].to_vec()
        } else {
            prev_indent.iter().copied().chain(dent.chars()).collect()
        };
        if !non_indent.trim_end_matches(['\r', '\n']).is_empty() {
            out.extend(&cur_indent);
        }
        out.push_str(non_indent);
        prev_indent = cur_indent;
    }
    if out.contains(marker) {
        return Ok(None);
    }
    Ok(Some(out))
}

/// `hunk_to_before_after(hunk, lines=True)`.
fn hunk_to_before_after_lines(hunk: &Hunk) -> (Vec<String>, Vec<String>) {
    let mut before = Vec::new();
    let mut after = Vec::new();
    for line in hunk {
        let mut chars = line.chars();
        let (op, rest) = if line.chars().nth(1).is_none() {
            (' ', line.as_str())
        } else {
            let op = chars.next().unwrap_or(' ');
            (op, chars.as_str())
        };
        match op {
            ' ' => {
                before.push(rest.to_string());
                after.push(rest.to_string());
            }
            '-' => before.push(rest.to_string()),
            '+' => after.push(rest.to_string()),
            _ => {}
        }
    }
    (before, after)
}

/// `hunk_to_before_after(hunk)`: the before and after texts.
fn hunk_to_before_after(hunk: &Hunk) -> (String, String) {
    let (before, after) = hunk_to_before_after_lines(hunk);
    (before.concat(), after.concat())
}

/// `content` as `find_diffs` reads it: with a `\n` added when it does not
/// end in one.
fn newline_ended(content: &str) -> Cow<'_, str> {
    if content.ends_with('\n') {
        Cow::Borrowed(content)
    } else {
        Cow::Owned(format!("{content}\n"))
    }
}

/// `find_diffs(content)`: each fenced ```` ```diff ```` block's hunks, with
/// the file its `--- `/`+++ ` lines name (`None` when they name none).
fn find_diffs(content: &str) -> Result<Vec<(Option<String>, Hunk)>, Exception> {
    let content = newline_ended(content);
    let lines = splitlines_keepends(&content);
    let mut line_num = 0;
    let mut edits = Vec::new();
    while line_num < lines.len() {
        while line_num < lines.len() {
            if lines[line_num].starts_with("```diff") {
                let (next, these) = process_fenced_block(&lines, line_num + 1)?;
                line_num = next;
                edits.extend(these);
                break;
            }
            line_num += 1;
        }
    }
    Ok(edits)
}

/// `process_fenced_block(lines, start_line_num)`: the line after the fence
/// and the block's hunks. Python's quirks kept: a block never closed loses
/// its last line, and one opened on the last line raises.
#[allow(clippy::type_complexity)]
fn process_fenced_block(
    lines: &[&str],
    start: usize,
) -> Result<(usize, Vec<(Option<String>, Hunk)>), Exception> {
    if start >= lines.len() {
        return Err(UNBOUND_LINE_NUM);
    }
    let line_num = (start..lines.len())
        .find(|&i| lines[i].starts_with("```"))
        .unwrap_or(lines.len() - 1);
    let mut block: Vec<String> = lines[start..line_num]
        .iter()
        .map(|l| l.to_string())
        .collect();
    block.push("@@ @@".to_string());
    let mut fname: Option<String> = None;
    if block[0].starts_with("--- ") && block.get(1).is_some_and(|l| l.starts_with("+++ ")) {
        let a_fname = strip(&block[0][4..]).to_string();
        let b_fname = strip(&block[1][4..]).to_string();
        fname = Some(
            if (a_fname.starts_with("a/") || a_fname == "/dev/null") && b_fname.starts_with("b/") {
                b_fname[2..].to_string()
            } else {
                b_fname
            },
        );
        block.drain(..2);
    }
    let mut edits = Vec::new();
    let mut keeper = false;
    let mut hunk: Hunk = Vec::new();
    for line in block {
        hunk.push(line.clone());
        if line.chars().nth(1).is_none() {
            continue;
        }
        if let Some(named) = line.strip_prefix("+++ ") {
            let Some(previous) = hunk.len().checked_sub(2).map(|at| &hunk[at]) else {
                return Err(Exception::Swallowed);
            };
            if previous.starts_with("--- ") {
                let Some(third) = hunk.len().checked_sub(3).map(|at| &hunk[at]) else {
                    return Err(Exception::Swallowed);
                };
                let cut = if third == "\n" { 3 } else { 2 };
                hunk.truncate(hunk.len() - cut);
                edits.push((fname.take(), std::mem::take(&mut hunk)));
                keeper = false;
                fname = Some(strip(named).to_string());
                continue;
            }
        }
        match line.chars().next() {
            Some('-' | '+') => keeper = true,
            Some('@') if !keeper => hunk.clear(),
            Some('@') => {
                hunk.pop();
                edits.push((fname.clone(), std::mem::take(&mut hunk)));
                keeper = false;
            }
            _ => {}
        }
    }
    Ok((line_num + 1, edits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunk(lines: &[&str]) -> Hunk {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn relative_indent_round_trips() {
        let text = "        Foo\n            Bar\n            Baz\n        Fob\n";
        let relative = make_relative(text, '←');
        assert_eq!(relative, "        \nFoo\n    \nBar\n\nBaz\n←←←←\nFob\n");
        assert_eq!(
            make_absolute(&relative, '←').unwrap(),
            Some(text.to_string())
        );
    }

    #[test]
    fn blank_lines_keep_their_last_break_character() {
        let lines = vec![
            "  \n".to_string(),
            " \r\n".to_string(),
            "  ".to_string(),
            "x\n".to_string(),
        ];
        assert_eq!(
            cleanup_pure_whitespace_lines(lines),
            hunk(&["\n", "\r", " ", "x\n"])
        );
    }

    #[test]
    fn a_fenced_block_is_cut_into_hunks_as_aider_cuts_it() {
        let reply = "```diff\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n@@ @@\n c\n+d\n--- y.py\n+++ y.py\n@@ @@\n-e\n```\n";
        let got = find_diffs(reply).unwrap();
        assert_eq!(
            got,
            vec![
                (Some("x.py".to_string()), hunk(&["-a\n", "+b\n"])),
                (Some("x.py".to_string()), hunk(&[" c\n", "+d\n"])),
                (Some("y.py".to_string()), hunk(&["-e\n"])),
            ]
        );
    }

    /// A reply cut before its closing fence (round 40a's find 06): Aider
    /// drops its last line, and says it applied the hunk; the call is
    /// unchanged, and its dropped line is said. A closed fence, or a cut
    /// reply whose last line is blank, loses nothing.
    #[test]
    fn a_reply_cut_before_its_closing_fence_says_its_lost_line() {
        let file = "def f(x):\n    a = load(x)\n    b = clean(a)\n    return save(b)\n";
        let hunk = "```diff\n--- f.py\n+++ f.py\n@@ ... @@\n def f(x):\n     a = load(x)\n-    b = clean(a)\n-    return save(b)\n+    b = clean(a, strict=True)\n+    return save(b)\n";
        let input = serde_json::json!({"reply": hunk, "chat_files": ["f.py"]});
        let outcome =
            crate::dialect::call::run_in_memory(&AiderUdiff, "/p", &[("f.py", file)], &input);
        assert!(outcome.ok, "{outcome:?}");
        assert_eq!(
            outcome.writes[0].content.as_deref(),
            Some("def f(x):\n    a = load(x)\n    b = clean(a, strict=True)\n")
        );
        assert_eq!(
            outcome.dropped,
            vec![
                "the ```diff fence opened at reply line 1 is not closed (is the reply cut off?): \
                 Aider drops the last line of the reply, `+    return save(b)`, as if it were \
                 the closing fence, so what it writes lacks that line: send the whole hunk \
                 again, closed by a ``` line"
                    .to_string()
            ]
        );
        assert_eq!(unclosed_fence(&format!("{hunk}```\n")), None);
        assert_eq!(unclosed_fence(&format!("{hunk}\n")), None);
        assert_eq!(
            unclosed_fence("```diff\n```\ntext\n```diff\n-a\n+b\n").map(|s| s.contains("line 4")),
            Some(true)
        );
    }

    #[test]
    fn a_fence_opened_on_the_last_line_raises() {
        assert_eq!(find_diffs("text\n```diff\n").unwrap_err(), UNBOUND_LINE_NUM);
    }

    #[test]
    fn a_short_repeated_before_text_is_refused_a_long_one_replaced_everywhere() {
        let short = hunk(&["-x = 1\n", "+x = 2\n"]);
        assert_eq!(directly_apply_hunk("x = 1\nx = 1\n", &short).unwrap(), None);
        let long = hunk(&["-value = compute()\n", "+value = compute(1)\n"]);
        assert_eq!(
            directly_apply_hunk("value = compute()\nvalue = compute()\n", &long).unwrap(),
            Some((
                "value = compute(1)\nvalue = compute(1)\n".to_string(),
                DIRECT
            ))
        );
    }
}
