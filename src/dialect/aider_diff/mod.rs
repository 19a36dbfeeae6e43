//! Aider 0.86.2's `diff` edit format (SEARCH/REPLACE blocks in the reply),
//! ported exactly from aider/coders/editblock_coder.py and the parts of
//! aider/coders/base_coder.py it runs in (`apply_updates`, `get_edits`,
//! `apply_edits_dry_run`, `prepare_to_edit`, `allowed_to_edit`): what
//! Aider writes, the text it reflects to the model, and how each block
//! matched.
//!
//! Input: `{"reply": TEXT}`, the model's whole reply, and optionally
//! `"chat_files": [PATH, ...]`, the files added to the chat (relative to
//! the project root or absolute). The chat's files steer where a block
//! lands: a path line naming a chat file by its base name, or misspelled
//! (difflib ratio at least 0.8), resolves to it, and a SEARCH that fails
//! on its own file is retried on every chat file. Without `chat_files` the
//! chat starts empty (Aider then adds each file a block names, as
//! `--yes-always` does).
//!
//! Aider runs the edits twice: a dry run (nothing written; a SEARCH that
//! fails on its named file but matches a chat file is re-pathed to it),
//! then, after creating the missing files the blocks name, the real pass,
//! which writes each block that matched as it goes; blocks that fail are
//! then reported together, and the ones that matched stay written.

mod difflib;
mod dmp;
mod endings;
mod parse;
mod pytext;
mod replace;
mod udiff;
mod world;
mod wrapping;

pub use udiff::{AiderUdiff, is_udiff_reply, reply_hunks, reply_of};

use std::collections::BTreeSet;

use crate::dialect::call::{CallMatcher, CallOutcome, EditMatch, Searched, ToolCall};

use parse::{Block, choose_fence, find_blocks, path_name};
use pytext::is_blank;
pub use replace::DotsFault;
use replace::{dots_fault, find_similar_lines, replace_most_similar_chunk, strip_quoted_wrapping};
use world::{Raised, World};

/// Aider 0.86.2's `diff` edit format.
pub struct AiderDiff;

/// Stage names (the corpus's, after Aider's functions).
const APPEND: &str = "empty_search_append";
const NEW_FILE: &str = "empty_search_new_file";
const FAILED: &str = "failed";
/// A block Aider dropped before applying it (it could not create its file)
/// or never reached (an exception stopped the pass).
const SKIPPED: &str = "skipped";

impl CallMatcher for AiderDiff {
    fn takes_first_of_several(&self) -> bool {
        true
    }

    fn appends_unplaced(&self, stage: &str) -> Option<(&'static str, &'static str)> {
        (stage == APPEND).then_some((
            "Aider appends this block at the end of the file",
            "its SEARCH is empty, so the block names no place: to put its lines elsewhere, \
             send the lines they go after as the SEARCH, and in the REPLACE those lines \
             followed by the new ones",
        ))
    }

    fn nothing_found(&self, _input: &serde_json::Value, source: &str) -> String {
        format!("no SEARCH/REPLACE block found in {source}")
    }

    fn stage_note(&self, stage: &str) -> Option<&'static str> {
        (stage == "dotdotdots").then_some(
            "Aider replaces each piece between `...` lines wherever it stands once in the file, \
             in any order and any function: srview calls it exact only when every piece is \
             whole lines standing once, each below the one before it and inside the block \
             that one opens, as the `...` between them says; send the lines between the pieces instead of `...` to say where",
        )
    }

    fn run(&self, call: &ToolCall) -> CallOutcome {
        let (reply, mut world) = match open_call(call, "aider-diff") {
            Ok(opened) => opened,
            Err(refused) => return *refused,
        };
        // Building the prompt (`choose_fence` over
        // `get_abs_fnames_content`) drops the chat files Aider cannot read
        // ("Dropping {path} from the chat.") and picks the fence.
        let contents: Vec<String> = world
            .chat
            .clone()
            .iter()
            .filter_map(|full| {
                let content = world.read_text(full);
                if content.is_none() {
                    world.chat.retain(|f| f != full);
                }
                content
            })
            .collect();
        world.fence = choose_fence(contents.iter().map(String::as_str));
        let valid_fnames: Vec<String> = world
            .chat
            .iter()
            .map(|full| world.rel_path(full))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let blocks = match find_blocks(reply, world.fence, &valid_fnames) {
            Ok(blocks) => blocks,
            Err(text) => {
                return CallOutcome {
                    error: Some(text),
                    stage: Some("parse_error".to_string()),
                    ..CallOutcome::default()
                };
            }
        };
        apply_updates(&mut world, &blocks)
    }
}

/// Each block of `reply` for the file holding `content` (`ours` tells its
/// path) that Aider's `...` rules refuse, by the block's index in the
/// reply, with why ([`DotsFault`]). The blocks are run one after another
/// over `content`, as Aider's real pass runs them, so a block is judged on
/// the file the blocks before it leave.
pub fn dots_faults(
    reply: &str,
    content: &str,
    ours: impl Fn(&str) -> bool,
) -> Vec<(usize, DotsFault)> {
    let fence = choose_fence([content]);
    let Ok(blocks) = find_blocks(reply, fence, &[]) else {
        return Vec::new();
    };
    let mut whole = content.to_string();
    let mut faults = Vec::new();
    for (index, block) in blocks.iter().enumerate() {
        if !ours(&block.path) || is_blank(&block.original) {
            continue;
        }
        match replace_most_similar_chunk(&whole, &block.original, &block.updated) {
            Some(replaced) => whole = replaced.text,
            None => faults.extend(
                dots_fault(&whole, &block.original, &block.updated).map(|fault| (index, fault)),
            ),
        }
    }
    faults
}

/// `reply` with the REPLACE of each block of `faults` ([`dots_faults`]) written
/// with its SEARCH's `...` lines, when that mends every such block (and each
/// REPLACE stands once in the reply): `None` otherwise. The caller runs
/// Aider's matcher on it before offering it.
pub fn mend_dots(reply: &str, content: &str, faults: &[(usize, DotsFault)]) -> Option<String> {
    let blocks = find_blocks(reply, choose_fence([content]), &[]).ok()?;
    let mut mended = reply.to_string();
    for (index, fault) in faults {
        let sent = blocks.get(*index)?.updated.as_str();
        let written = fault.replace.as_deref()?;
        if sent.is_empty() || mended.matches(sent).count() != 1 {
            return None;
        }
        mended = mended.replacen(sent, written, 1);
    }
    (!faults.is_empty()).then_some(mended)
}

/// The REPLACE text of each block of `reply`, as the model sent it, in
/// reply order (the order of [`CallOutcome::edits`]), the fence chosen as
/// for a chat holding `content`: what a loose stage's re-indented text is
/// compared with. Empty when the reply does not parse.
pub fn replace_texts(reply: &str, content: &str) -> Vec<String> {
    find_blocks(reply, choose_fence([content]), &[])
        .map(|blocks| blocks.into_iter().map(|block| block.updated).collect())
        .unwrap_or_default()
}

/// The call's reply and Aider's world with the chat's files added; the
/// refusal of an input without the expected shape, named by `dialect`.
fn open_call<'a>(
    call: &ToolCall<'a>,
    dialect: &str,
) -> Result<(&'a str, World<'a>), Box<CallOutcome>> {
    let Some((reply, chat_files)) = read_input(call.input) else {
        return Err(Box::new(CallOutcome {
            error: Some(format!(
                "{dialect}: the input must be {{\"reply\": TEXT}} with an optional \"chat_files\": [PATH, ...]"
            )),
            ..CallOutcome::default()
        }));
    };
    let mut world = World::new(call.cwd, call.fs);
    for file in &chat_files {
        let full = world.full_path(file);
        world.add_to_chat(&full);
    }
    Ok((reply, world))
}

/// The reply and the chat's files, when the input has the expected shape.
fn read_input(input: &serde_json::Value) -> Option<(&str, Vec<String>)> {
    let reply = input.get("reply")?.as_str()?;
    let chat_files = match input.get("chat_files") {
        None | Some(serde_json::Value::Null) => Vec::new(),
        Some(files) => files
            .as_array()?
            .iter()
            .map(|f| f.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()?,
    };
    Some((reply, chat_files))
}

/// One block through `do_replace` and its retries.
struct Applied {
    /// The full path written.
    full: String,
    text: String,
    stage: &'static str,
    /// Lines (1-based, of the text searched), the text found there and the
    /// text written in its place.
    lines: Option<(usize, usize)>,
    found: String,
    written: String,
    /// The text searched: the file as the earlier blocks left it.
    searched: String,
    /// A `dotdotdots` replacement whose pieces each stood once, on whole
    /// lines, none overlapping ([`replace::Replaced::pieces_exact`]): not loose.
    pieces_exact: bool,
    /// What `strip_quoted_wrapping` cut that changes what the block does
    /// ([`wrapping::cut_sentences`]).
    cut: Vec<String>,
}

/// `Coder.apply_updates`: dry run, `prepare_to_edit`, real run, report.
fn apply_updates(world: &mut World, blocks: &[Block]) -> CallOutcome {
    let mut dry_results = Vec::new();
    let mut updated = Vec::new();
    if apply_edits(world, blocks, true, &mut dry_results, &mut updated).is_err() {
        let nothing = Applying {
            count: blocks.len(),
            kept: &[],
            applied: &[],
            named: &[],
        };
        return finish(world, &nothing, Vec::new(), Ending::Raised);
    }
    // The path each block named, where the dry run moved it to a chat file
    // its SEARCH matched in.
    let named: Vec<Option<String>> = blocks
        .iter()
        .zip(&updated)
        .map(|(block, moved)| {
            (world.full_path(&block.path) != world.full_path(&moved.path))
                .then(|| block.path.clone())
        })
        .collect();
    // prepare_to_edit: each distinct path once through allowed_to_edit.
    let mut seen: Vec<(String, bool)> = Vec::new();
    let mut kept: Vec<usize> = Vec::new();
    for (index, block) in updated.iter().enumerate() {
        let allowed = match seen.iter().find(|(path, _)| *path == block.path) {
            Some(&(_, allowed)) => allowed,
            None => {
                let allowed = allowed_to_edit(world, &block.path);
                seen.push((block.path.clone(), allowed));
                allowed
            }
        };
        if allowed {
            kept.push(index);
        }
    }
    let edited: BTreeSet<String> = kept.iter().map(|&i| updated[i].path.clone()).collect();
    let to_apply: Vec<Block> = kept.iter().map(|&i| updated[i].clone()).collect();
    let mut results = Vec::new();
    let mut unused = Vec::new();
    let applying = Applying {
        count: blocks.len(),
        kept: &kept,
        applied: &to_apply,
        named: &named,
    };
    if apply_edits(world, &to_apply, false, &mut results, &mut unused).is_err() {
        return finish(world, &applying, results, Ending::Raised);
    }
    let ending = match failure_report(world, &to_apply, &results) {
        Err(Raised) => Ending::Raised,
        Ok(Some(report)) => Ending::Failed(report),
        Ok(None) => Ending::Applied(edited),
    };
    finish(world, &applying, results, ending)
}

/// The blocks of the real pass, for [`finish`].
struct Applying<'a> {
    /// How many blocks the reply holds.
    count: usize,
    /// The index in the reply of each block applied.
    kept: &'a [usize],
    /// The blocks applied, with the paths the dry run gave them.
    applied: &'a [Block],
    /// By index in the reply: the path the block named, where the dry run
    /// moved it to another file.
    named: &'a [Option<String>],
}

/// How `apply_updates` ended after parsing.
enum Ending {
    /// All blocks applied: the paths edited.
    Applied(BTreeSet<String>),
    /// Some blocks failed: the text reflected to the model.
    Failed(String),
    /// An exception Aider swallows (it prints it; the model reads nothing).
    Raised,
}

/// The outcome: writes so far, each block's match, the call's stage.
fn finish(
    world: &mut World,
    applying: &Applying,
    results: Vec<Option<Applied>>,
    ending: Ending,
) -> CallOutcome {
    let Applying {
        count,
        kept,
        applied,
        named,
    } = *applying;
    let mut edits = vec![
        EditMatch {
            stage: SKIPPED.to_string(),
            ..EditMatch::default()
        };
        count
    ];
    let mut stages: Vec<String> = Vec::new();
    let mut filled: BTreeSet<String> = BTreeSet::new();
    // Lines `strip_quoted_wrapping` cut, by block, in reply order.
    let mut cut: Vec<(usize, Vec<String>)> = Vec::new();
    for (at, result) in results.into_iter().enumerate() {
        let edit = match result {
            // A failed block names its file (what Aider reports it
            // against), so a previewer can show it failing there.
            None => EditMatch {
                stage: FAILED.to_string(),
                path: applied
                    .get(at)
                    .map(|block| world.write_key(&world.full_path(&block.path))),
                ..EditMatch::default()
            },
            Some(applied) => {
                if let Some(&index) = kept.get(at)
                    && !applied.cut.is_empty()
                {
                    cut.push((index, applied.cut.clone()));
                }
                let first_fill = filled.insert(applied.full.clone());
                // The first empty SEARCH that fills a file the call created
                // is `empty_search_new_file` (the corpus's name).
                let stage = if applied.stage == APPEND
                    && first_fill
                    && !world.existed_before(&applied.full)
                {
                    NEW_FILE
                } else {
                    applied.stage
                };
                EditMatch {
                    stage: stage.to_string(),
                    loose: !(matches!(stage, "perfect" | APPEND | NEW_FILE)
                        || applied.pieces_exact),
                    lines: applied.lines,
                    found: Some(applied.found),
                    written: Some(applied.written),
                    path: Some(world.write_key(&applied.full)),
                    named: kept
                        .get(at)
                        .and_then(|&index| named.get(index))
                        .cloned()
                        .flatten(),
                    // Aider applies the blocks one after another: each
                    // searched the file as the earlier ones left it.
                    searched: Some(Box::new(Searched {
                        content: Some(applied.searched),
                        ..Searched::default()
                    })),
                    also_replaced: Vec::new(),
                }
            }
        };
        if !stages.contains(&edit.stage) {
            stages.push(edit.stage.clone());
        }
        if let Some(&index) = kept.get(at) {
            edits[index] = edit;
        }
    }
    let stage = if stages.is_empty() {
        "no_blocks".to_string()
    } else {
        stages.join("+")
    };
    let (ok, error, message) = match ending {
        Ending::Applied(edited) => {
            let message = (!edited.is_empty()).then(|| {
                edited
                    .iter()
                    .map(|path| format!("Applied edit to {path}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            });
            (true, None, message)
        }
        Ending::Failed(report) => (false, Some(report), None),
        Ending::Raised => (true, None, None),
    };
    cut.sort_by_key(|(index, _)| *index);
    let dropped: Vec<String> = cut
        .into_iter()
        .flat_map(|(index, said)| {
            said.into_iter()
                .map(move |sentence| format!("edit {}: {sentence}", index + 1))
        })
        .collect();
    // Aider writes every line with `\n`: a CRLF file's other lines too.
    let rewritten_outside = if ok {
        endings::endings_rewritten(world, &world.written, &edits)
    } else {
        Vec::new()
    };
    CallOutcome {
        ok,
        error,
        message,
        stage: Some(stage),
        writes: std::mem::take(&mut world.written),
        edits,
        hangs: false,
        rewritten_outside,
        also_replaced: Vec::new(),
        dropped: if ok { dropped } else { Vec::new() },
        patch_doubts: None,
    }
}

/// `allowed_to_edit(path)` under `--yes-always`: a chat file is allowed; a
/// missing one is created (folders too) and added to the chat, unless a
/// folder on its way is a file ("Unable to create"); any other existing
/// path is added to the chat.
fn allowed_to_edit(world: &mut World, path: &str) -> bool {
    let full = world.full_path(path);
    if world.chat.contains(&full) {
        return true;
    }
    if !world.exists(&full) && !world.touch_file(&full) {
        return false;
    }
    world.add_to_chat(&full);
    true
}

/// `EditBlockCoder.apply_edits(edits, dry_run)`: each block on its own
/// file, then (SEARCH not blank) on each chat file until one takes it;
/// the real pass writes each result at once. Pushes each block's result
/// and its (possibly re-pathed) block.
fn apply_edits(
    world: &mut World,
    blocks: &[Block],
    dry_run: bool,
    results: &mut Vec<Option<Applied>>,
    updated: &mut Vec<Block>,
) -> Result<(), Raised> {
    for block in blocks {
        let mut path = block.path.clone();
        let full = world.full_path(&path);
        let mut result = None;
        // An exception in a retry leaves the block failed (as the corpus's
        // oracle, which lists the calls that returned, counts it).
        let mut tried = false;
        let mut attempt = |world: &mut World, full: &str, tried: &mut bool| {
            let content = world.read_text(full);
            let outcome = do_replace(world, full, content, block);
            if outcome.is_err() && *tried {
                results.push(None);
            }
            *tried = true;
            outcome
        };
        if world.exists(&full) {
            result = attempt(world, &full, &mut tried)?;
        }
        if result.is_none() && !is_blank(&block.original) {
            for chat_file in world.chat.clone() {
                result = attempt(world, &chat_file, &mut tried)?;
                if result.is_some() {
                    path = world.rel_path(&chat_file);
                    break;
                }
            }
        }
        updated.push(Block {
            path,
            ..block.clone()
        });
        if let Some(applied) = result.as_ref().filter(|_| !dry_run) {
            world.write_text(&applied.full, &applied.text);
        }
        results.push(result);
    }
    Ok(())
}

/// `do_replace(full, content, original, updated, fence)`: `None` for no
/// (or an empty) result.
fn do_replace(
    world: &mut World,
    full: &str,
    content: Option<String>,
    block: &Block,
) -> Result<Option<Applied>, Raised> {
    let name = path_name(full);
    let before = strip_quoted_wrapping(&block.original, name, world.fence).ok_or(Raised)?;
    let after = strip_quoted_wrapping(&block.updated, name, world.fence).ok_or(Raised)?;
    let mut content = content;
    if !world.exists(full) && is_blank(&before) {
        world.touch(full)?;
        content = Some(String::new());
    }
    let Some(content) = content else {
        return Ok(None);
    };
    let applied = if is_blank(&before) {
        Applied {
            full: full.to_string(),
            text: format!("{content}{after}"),
            stage: APPEND,
            lines: None,
            found: String::new(),
            cut: wrapping::cut_sentences(
                &content,
                &block.original,
                &block.updated,
                &format!("{content}{after}"),
                name,
                world.fence,
            ),
            written: after,
            searched: content,
            pieces_exact: false,
        }
    } else {
        let Some(replaced) = replace_most_similar_chunk(&content, &before, &after) else {
            return Ok(None);
        };
        let (start, end) = replaced.span;
        // The searched text is `content` with a final "\n" added if missing.
        let line_at = |offset: usize| {
            1 + content.as_bytes()[..offset.min(content.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
        };
        let lines = (end > start).then(|| (line_at(start), line_at(end - 1)));
        let cut = wrapping::cut_sentences(
            &content,
            &block.original,
            &block.updated,
            &replaced.text,
            name,
            world.fence,
        );
        Applied {
            cut,
            full: full.to_string(),
            found: content[start.min(content.len())..end.min(content.len())].to_string(),
            text: replaced.text,
            stage: replaced.stage,
            lines,
            written: replaced.written,
            searched: content,
            pieces_exact: replaced.pieces_exact,
        }
    };
    Ok((!applied.text.is_empty()).then_some(applied))
}

/// The real pass's failure report (`apply_edits`' ValueError text), or
/// `None` when every block applied.
fn failure_report(
    world: &World,
    blocks: &[Block],
    results: &[Option<Applied>],
) -> Result<Option<String>, Raised> {
    let failed: Vec<&Block> = blocks
        .iter()
        .zip(results)
        .filter(|(_, r)| r.is_none())
        .map(|(b, _)| b)
        .collect();
    if failed.is_empty() {
        return Ok(None);
    }
    let passed = results.len() - failed.len();
    let plural = |n: usize| if n == 1 { "block" } else { "blocks" };
    let blocks_word = plural(failed.len());
    let mut res = format!(
        "# {} SEARCH/REPLACE {blocks_word} failed to match!\n",
        failed.len()
    );
    for block in failed {
        let Block {
            path,
            original,
            updated,
        } = block;
        // `content.splitlines()` on None: AttributeError.
        let content = world.read_text(&world.full_path(path)).ok_or(Raised)?;
        res.push_str(&format!(
            "\n## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in {path}\n<<<<<<< SEARCH\n{original}=======\n{updated}>>>>>>> REPLACE\n\n"
        ));
        let did_you_mean = find_similar_lines(original, &content).ok_or(Raised)?;
        if !did_you_mean.is_empty() {
            res.push_str(&format!(
                "Did you mean to match some of these actual lines from {path}?\n\n{}\n{did_you_mean}\n{}\n\n",
                world.fence.open, world.fence.close
            ));
        }
        if !updated.is_empty() && content.contains(updated.as_str()) {
            res.push_str(&format!(
                "Are you sure you need this SEARCH/REPLACE block?\nThe REPLACE lines are already in {path}!\n\n"
            ));
        }
    }
    res.push_str(
        "The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc\n",
    );
    if passed > 0 {
        res.push_str(&format!(
            "\n# The other {passed} SEARCH/REPLACE {} were applied successfully.\nDon't re-send them.\nJust reply with fixed versions of the {blocks_word} above that failed to match.\n",
            plural(passed)
        ));
    }
    Ok(Some(res))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::apply_patch::fs::MemoryFs;
    use serde_json::json;

    const CWD: &str = "/home/user/project";

    /// Runs `reply` with `files` on disk and `chat` in the chat.
    fn run(reply: &str, files: &[(&str, &str)], chat: &[&str]) -> CallOutcome {
        let fs = MemoryFs::new(files.iter().map(|(p, c)| (p.to_string(), c.to_string())));
        let input = json!({"reply": reply, "chat_files": chat});
        AiderDiff.run(&ToolCall {
            input: &input,
            cwd: CWD,
            fs: &fs,
        })
    }

    /// One block on `a.py`, holding `file`, the only chat file.
    fn run_on_a(file: &str, search: &str, replace: &str) -> CallOutcome {
        run(
            &reply(&[("a.py", search, replace)]),
            &[("a.py", file)],
            &["a.py"],
        )
    }

    /// A reply with one block per `(path, search, replace)`.
    fn reply(blocks: &[(&str, &str, &str)]) -> String {
        blocks
            .iter()
            .map(|(path, search, replace)| {
                format!("{path}\n```python\n<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n```\n")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn written(outcome: &CallOutcome, path: &str) -> Option<String> {
        outcome
            .writes
            .iter()
            .find(|w| w.path == path)
            .and_then(|w| w.content.clone())
    }

    fn stages(outcome: &CallOutcome) -> Vec<&str> {
        outcome.edits.iter().map(|e| e.stage.as_str()).collect()
    }

    /// A block naming another file whose SEARCH fails there (the file is
    /// missing, or lacks the text) is moved by the dry run to the chat file
    /// its SEARCH matches in, as Aider does; the edit keeps the path the
    /// block named. A block on its own file names none.
    #[test]
    fn a_block_moved_to_a_chat_file_keeps_the_path_it_named() {
        let file = "x = 1\n";
        for files in [
            &[("a.py", file)][..],
            &[("a.py", file), ("other.py", "y\n")],
        ] {
            let outcome = run(
                &reply(&[("other.py", "x = 1\n", "x = 2\n")]),
                files,
                &["a.py"],
            );
            assert!(outcome.ok, "{outcome:?}");
            assert_eq!(written(&outcome, "a.py").as_deref(), Some("x = 2\n"));
            assert_eq!(outcome.message.as_deref(), Some("Applied edit to a.py"));
            let edit = &outcome.edits[0];
            assert_eq!(
                (edit.path.as_deref(), edit.named.as_deref()),
                (Some("a.py"), Some("other.py"))
            );
        }
        let outcome = run(
            &reply(&[("a.py", "x = 1\n", "x = 2\n")]),
            &[("a.py", file)],
            &["a.py"],
        );
        assert_eq!(outcome.edits[0].named, None);
    }

    #[test]
    fn perfect_replaces_the_first_occurrence_only() {
        // Aider's test_replace_multiple_matches.
        let file = "line1\nline2\nline1\nline3\n";
        let outcome = run_on_a(file, "line1\n", "new_line\n");
        assert!(outcome.ok);
        assert_eq!(
            written(&outcome, "a.py").as_deref(),
            Some("new_line\nline2\nline1\nline3\n")
        );
        assert_eq!(outcome.message.as_deref(), Some("Applied edit to a.py"));
        assert_eq!(outcome.stage.as_deref(), Some("perfect"));
        let edit = &outcome.edits[0];
        assert!(!edit.loose);
        assert_eq!(edit.lines, Some((1, 1)));
        assert_eq!(edit.found.as_deref(), Some("line1\n"));
    }

    #[test]
    fn missing_leading_whitespace_reindents_replace() {
        // Aider's test_replace_part_with_missing_leading_whitespace,
        // ..._varied_leading_whitespace and ..._just_some_missing_....
        let cases = [
            (
                "    line1\n    line2\n    line3\n",
                "line1\nline2\n",
                "new_line1\nnew_line2\n",
                "    new_line1\n    new_line2\n    line3\n",
            ),
            (
                "\n    line1\n    line2\n        line3\n    line4\n",
                "line2\n    line3\n",
                "new_line2\n    new_line3\n",
                "\n    line1\n    new_line2\n        new_line3\n    line4\n",
            ),
            (
                "    line1\n    line2\n    line3\n",
                " line1\n line2\n",
                " new_line1\n     new_line2\n",
                "    new_line1\n        new_line2\n    line3\n",
            ),
        ];
        for (file, search, replace, want) in cases {
            let outcome = run_on_a(file, search, replace);
            assert_eq!(
                written(&outcome, "a.py").as_deref(),
                Some(want),
                "{search:?}"
            );
            assert_eq!(stages(&outcome), ["missing_leading_whitespace"]);
            assert!(outcome.edits[0].loose);
        }
        let outcome = run_on_a("a\n    line1\n", "line1\n", "x\n");
        let edit = &outcome.edits[0];
        assert_eq!(edit.lines, Some((2, 2)));
        assert_eq!(edit.found.as_deref(), Some("    line1\n"));
        assert_eq!(edit.written.as_deref(), Some("    x\n"));
    }

    #[test]
    fn a_blank_first_search_line_is_dropped_on_a_second_pass() {
        // Aider's test_replace_part_with_missing_leading_whitespace_including_blank_line.
        let outcome = run_on_a(
            "    line1\n    line2\n    line3\n",
            "\n  line1\n  line2\n",
            "  new_line1\n  new_line2\n",
        );
        assert_eq!(
            written(&outcome, "a.py").as_deref(),
            Some("    new_line1\n    new_line2\n    line3\n")
        );
        assert_eq!(
            outcome.stage.as_deref(),
            Some("missing_leading_whitespace_skip_blank_line")
        );
        let outcome = run_on_a("a\nb\nc\n", "\nb\nc\n", "B\nC\n");
        assert_eq!(written(&outcome, "a.py").as_deref(), Some("a\nB\nC\n"));
        assert_eq!(outcome.stage.as_deref(), Some("perfect_skip_blank_line"));
    }

    #[test]
    fn dotdotdots_pieces_must_each_occur_once() {
        let file = "def f():\n    a = 1\n    b = 2\n    c = 3\n";
        let outcome = run_on_a(
            file,
            "    a = 1\n...\n    c = 3\n",
            "    a = 10\n...\n    c = 30\n",
        );
        assert_eq!(
            written(&outcome, "a.py").as_deref(),
            Some("def f():\n    a = 10\n    b = 2\n    c = 30\n")
        );
        assert_eq!(outcome.stage.as_deref(), Some("dotdotdots"));
        assert_eq!(outcome.edits[0].lines, Some((2, 4)));
        // Each piece whole lines, once, none overlapping: the model's own text,
        // replaced where it stands (a tester's find: called loose).
        assert!(!outcome.edits[0].loose);
        // A piece inside a line (`= 3` of `c = 3`): loose. Pieces in
        // reverse order, each whole lines standing once: each replaced
        // where it stands, but not where the `...` between them says the
        // second one is: loose (tester 43a-16; 42c-07 had asked for exact).
        let inside = run_on_a(file, "    a = 1\n...\n= 3\n", "    a = 10\n...\n= 30\n");
        assert_eq!(inside.stage.as_deref(), Some("dotdotdots"));
        assert!(inside.edits[0].loose);
        let swapped = run_on_a(
            file,
            "    c = 3\n...\n    a = 1\n",
            "    c = 30\n...\n    a = 10\n",
        );
        assert_eq!(swapped.stage.as_deref(), Some("dotdotdots"));
        assert!(swapped.edits[0].loose);
        assert_eq!(
            written(&swapped, "a.py").as_deref(),
            Some("def f():\n    a = 10\n    b = 2\n    c = 30\n")
        );
        // Unpaired `...` fails (Aider's ValueError is swallowed).
        let outcome = run_on_a(
            file,
            "    a = 1\n...\n    c = 3\n",
            "    a = 10\n    c = 30\n",
        );
        assert_eq!(outcome.stage.as_deref(), Some("failed"));
    }

    /// A tester's find (43a-16): pieces standing once, whole lines, in
    /// order, but the second inside another function than the one the
    /// first opens (`def a():` ... `    return 1` of `def c():` below):
    /// loose. Deeper inside the block the first opens, past a nested
    /// block's opening line: exact.
    #[test]
    fn dotdotdots_piece_in_another_block_is_loose() {
        let file = "def a():\n    x = 5\n    return 2\n\n\ndef c():\n    return 1\n";
        let crossed = run_on_a(
            file,
            "def a():\n...\n    return 1\n",
            "def a():\n...\n    return 10\n",
        );
        assert_eq!(crossed.stage.as_deref(), Some("dotdotdots"));
        assert!(crossed.edits[0].loose);
        let nested =
            "def a():\n    if x:\n        y = 1\n    return 2\n\n\ndef c():\n    return 1\n";
        let inside = run_on_a(
            nested,
            "def a():\n...\n        y = 1\n",
            "def a():\n...\n        y = 2\n",
        );
        assert_eq!(inside.stage.as_deref(), Some("dotdotdots"));
        assert!(!inside.edits[0].loose);
        assert_eq!(
            written(&inside, "a.py").as_deref(),
            Some("def a():\n    if x:\n        y = 2\n    return 2\n\n\ndef c():\n    return 1\n")
        );
        // The next top-level function after a gap of top-level lines: exact.
        let top = run_on_a(
            file,
            "def a():\n...\ndef c():\n",
            "def a(k):\n...\ndef c(k):\n",
        );
        assert!(!top.edits[0].loose);
    }

    #[test]
    fn empty_search_creates_or_appends() {
        // Aider's test_create_new_file_with_other_file_in_chat.
        let outcome = run(
            "Do this:\n\nnewfile.txt\n<<<<<<< SEARCH\n=======\ncreating a new file\n>>>>>>> REPLACE\n\n",
            &[("file.txt", "one\ntwo\nthree\n")],
            &["file.txt"],
        );
        assert!(outcome.ok);
        assert_eq!(
            written(&outcome, "newfile.txt").as_deref(),
            Some("creating a new file\n")
        );
        assert_eq!(written(&outcome, "file.txt"), None);
        assert_eq!(outcome.stage.as_deref(), Some("empty_search_new_file"));
        assert_eq!(
            outcome.message.as_deref(),
            Some("Applied edit to newfile.txt")
        );
        let outcome = run(
            &reply(&[("a.txt", "", "more\n")]),
            &[("a.txt", "one")],
            &["a.txt"],
        );
        assert_eq!(written(&outcome, "a.txt").as_deref(), Some("onemore\n"));
        assert_eq!(outcome.stage.as_deref(), Some("empty_search_append"));
    }

    #[test]
    fn files_are_written_with_lf_and_a_final_newline() {
        let outcome = run_on_a("a\r\nb\r\nc", "b\n", "B\n");
        assert_eq!(written(&outcome, "a.py").as_deref(), Some("a\nB\nc\n"));
    }

    #[test]
    fn a_path_resolves_to_a_chat_file_by_base_name_or_spelling() {
        let file = "x = 1\n";
        for path in [
            "a.py",
            "src/a.py",
            "`src/a.py`",
            "src/b.py:",
            "lib/other_a.py",
        ] {
            let outcome = run(
                &reply(&[(path, "x = 1\n", "x = 2\n")]),
                &[("src/a.py", file)],
                &["src/a.py"],
            );
            assert_eq!(
                written(&outcome, "src/a.py").as_deref(),
                Some("x = 2\n"),
                "{path}"
            );
            assert_eq!(
                outcome.message.as_deref(),
                Some("Applied edit to src/a.py"),
                "{path}"
            );
        }
    }

    #[test]
    fn find_filename_follows_aider_s_own_tests() {
        // Aider's test_find_filename.
        let fence = parse::ALL_FENCES[0];
        let valid: Vec<String> = [
            "file1.py",
            "file2.py",
            "dir/file3.py",
            r"\windows\__init__.py",
        ]
        .map(String::from)
        .to_vec();
        let cases: [(&[&str], &str); 7] = [
            (&["file1.py", "```"], "file1.py"),
            (&["```python", "file3.py", "```"], "dir/file3.py"),
            (&["```", "invalid_file.py", "```"], "invalid_file.py"),
            (
                &["```python", "file1.py", "```", "```", "file2.py", "```"],
                "file2.py",
            ),
            (&["# file1.py", "```"], "file1.py"),
            (&["file1_py", "```"], "file1.py"),
            (&[r"\windows__init__.py", "```"], r"\windows\__init__.py"),
        ];
        for (lines, want) in cases {
            let last3 = &lines[lines.len().saturating_sub(3)..];
            assert_eq!(
                parse::find_filename(last3, fence, &valid).as_deref(),
                Some(want),
                "{lines:?}"
            );
        }
    }

    #[test]
    fn strip_quoted_wrapping_is_the_shipped_one() {
        let fence = parse::ALL_FENCES[0];
        let wrapped =
            "filename.ext\n```\nWe just want this content\nNot the filename and triple quotes\n```";
        assert_eq!(
            replace::strip_quoted_wrapping(wrapped, "filename.ext", fence).as_deref(),
            Some("We just want this content\nNot the filename and triple quotes\n")
        );
        // Aider's own tests expect these two unchanged, but 0.86.2's code
        // drops any first line ending with the name, and raises IndexError
        // when that was the only line.
        assert_eq!(
            replace::strip_quoted_wrapping(
                "Line that ends with filename.ext\nA second line",
                "filename.ext",
                fence
            )
            .as_deref(),
            Some("A second line\n")
        );
        assert_eq!(
            replace::strip_quoted_wrapping("filename.ext\n", "filename.ext", fence),
            None
        );
    }

    #[test]
    fn a_search_that_is_only_the_file_name_raises_and_nothing_is_reflected() {
        let outcome = run_on_a("a\n", "a.py\n", "x\n");
        assert!(outcome.ok);
        assert_eq!(outcome.error, None);
        assert_eq!(outcome.message, None);
        assert!(outcome.writes.is_empty());
    }

    #[test]
    fn an_empty_block_on_an_empty_file_raises_in_the_report() {
        // Nothing to append fails the block; find_similar_lines then meets
        // an empty SEARCH and raises IndexError: nothing is reflected.
        let outcome = run(&reply(&[("a.txt", "", "")]), &[("a.txt", "")], &["a.txt"]);
        assert!(outcome.ok);
        assert_eq!((&outcome.error, &outcome.message), (&None, &None));
        assert_eq!(stages(&outcome), ["failed"]);
    }

    #[test]
    fn a_failed_block_is_reported_with_the_closest_lines() {
        let file = "def f():\n    a = 1\n    b = 2\n    return a + b\n";
        let outcome = run_on_a(
            file,
            "def f():\n    a = 1\n    b = 3\n    return a + b\n",
            "def f():\n    return 3\n",
        );
        assert!(!outcome.ok);
        assert_eq!(outcome.stage.as_deref(), Some("failed"));
        assert!(outcome.writes.is_empty());
        assert_eq!(
            outcome.error.as_deref(),
            Some(
                "# 1 SEARCH/REPLACE block failed to match!\n\
                 \n\
                 ## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in a.py\n\
                 <<<<<<< SEARCH\n\
                 def f():\n    a = 1\n    b = 3\n    return a + b\n\
                 =======\n\
                 def f():\n    return 3\n\
                 >>>>>>> REPLACE\n\
                 \n\
                 Did you mean to match some of these actual lines from a.py?\n\
                 \n\
                 ```\n\
                 def f():\n    a = 1\n    b = 2\n    return a + b\n\
                 ```\n\
                 \n\
                 The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc\n"
            )
        );
    }

    #[test]
    fn partial_application_is_written_and_reported() {
        let file = "one\ntwo\nthree\n";
        let outcome = run(
            &reply(&[
                ("a.txt", "one\n", "ONE\n"),
                ("a.txt", "four\n", "two\n"),
                ("a.txt", "five\n", "six\n"),
            ]),
            &[("a.txt", file)],
            &["a.txt"],
        );
        assert!(!outcome.ok);
        assert_eq!(outcome.stage.as_deref(), Some("perfect+failed"));
        assert_eq!(
            written(&outcome, "a.txt").as_deref(),
            Some("ONE\ntwo\nthree\n")
        );
        let error = outcome.error.unwrap_or_default();
        assert!(error.starts_with("# 2 SEARCH/REPLACE blocks failed to match!\n"));
        assert!(error.contains(
            "Are you sure you need this SEARCH/REPLACE block?\nThe REPLACE lines are already in a.txt!\n\n"
        ));
        assert!(error.ends_with(
            "\n# The other 1 SEARCH/REPLACE block were applied successfully.\n\
             Don't re-send them.\n\
             Just reply with fixed versions of the blocks above that failed to match.\n"
        ));
    }

    #[test]
    fn an_edit_that_empties_the_file_fails() {
        let outcome = run(
            &reply(&[("a.txt", "one\n", "")]),
            &[("a.txt", "one\n")],
            &["a.txt"],
        );
        assert!(!outcome.ok);
        assert_eq!(outcome.stage.as_deref(), Some("failed"));
    }

    #[test]
    fn parse_errors_quote_the_reply_up_to_the_failing_line() {
        let cases = [
            (
                // A line before the fence would name the file ("Here:" would
                // be the path `Here`): a blank one names none.
                "Here\n\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n",
                "Here\n\n```\n<<<<<<< SEARCH\n\n^^^ Bad/missing filename. The filename must be alone on the line before the opening fence ```",
            ),
            (
                "a.py\n<<<<<<< SEARCH\na\n",
                "a.py\n<<<<<<< SEARCH\na\n\n^^^ Expected `=======`",
            ),
            (
                "a.py\n<<<<<<< SEARCH\na\n=======\nb\n",
                "a.py\n<<<<<<< SEARCH\na\n=======\nb\n\n^^^ Expected `>>>>>>> REPLACE` or `=======`",
            ),
        ];
        for (text, want) in cases {
            let outcome = run(text, &[("a.py", "a\n")], &["a.py"]);
            assert!(!outcome.ok);
            assert_eq!(outcome.error.as_deref(), Some(want));
            assert_eq!(outcome.stage.as_deref(), Some("parse_error"));
        }
    }

    #[test]
    fn a_chat_file_with_backtick_lines_changes_the_fence() {
        let outcome = run(
            "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n",
            &[("README.md", "```\ncode\n```\n")],
            &["README.md"],
        );
        assert_eq!(
            outcome.error.as_deref(),
            Some(
                "<<<<<<< SEARCH\n\n^^^ Bad/missing filename. The filename must be alone on the line before the opening fence ````"
            )
        );
    }

    #[test]
    fn shell_blocks_are_not_edits() {
        let outcome = run("```bash\necho hi\n```\n", &[("a.py", "a\n")], &["a.py"]);
        assert!(outcome.ok);
        assert_eq!(outcome.stage.as_deref(), Some("no_blocks"));
        assert_eq!(outcome.message, None);
    }

    #[test]
    fn a_bad_input_shape_is_an_error() {
        let fs = MemoryFs::default();
        let input = json!({"reply": 3});
        let outcome = AiderDiff.run(&ToolCall {
            input: &input,
            cwd: CWD,
            fs: &fs,
        });
        assert!(!outcome.ok);
        assert!(outcome.error.is_some_and(|e| e.contains("\"reply\"")));
    }

    /// A CRLF file comes back LF: the lines no block replaced are named,
    /// in the file's numbering before the call also after an earlier block
    /// made a line two; an LF file's edit names none.
    #[test]
    fn lines_whose_crlf_ending_aider_drops_are_named() {
        let crlf = "a = 1\r\nb = 2\r\nc = 3\r\nd = 4\r\n";
        let outcome = run_on_a(crlf, "b = 2\n", "b = 20\n");
        assert_eq!(
            written(&outcome, "a.py").as_deref(),
            Some("a = 1\nb = 20\nc = 3\nd = 4\n")
        );
        assert_eq!(outcome.rewritten_outside, [(1, 1), (3, 4)]);
        let two = run(
            &reply(&[
                ("a.py", "a = 1\n", "a = 1\nx = 0\n"),
                ("a.py", "c = 3\n", "c = 30\n"),
            ]),
            &[("a.py", crlf)],
            &["a.py"],
        );
        assert_eq!(two.rewritten_outside, [(2, 2), (4, 4)]);
        let lf = run_on_a("a = 1\nb = 2\n", "b = 2\n", "b = 20\n");
        assert!(lf.rewritten_outside.is_empty() && lf.dropped.is_empty());
    }

    /// A SEARCH line of the file cut for ending with its name is said; the
    /// block's own file name and fence repeated inside it are not.
    #[test]
    fn a_cut_that_changes_the_result_is_dropped() {
        let file = "x = 1\n# see a.py\ny = 2\n";
        let outcome = run_on_a(file, "# see a.py\ny = 2\n", "y = 3\n");
        assert_eq!(
            written(&outcome, "a.py").as_deref(),
            Some("x = 1\n# see a.py\ny = 3\n")
        );
        assert_eq!(outcome.dropped.len(), 1, "{:?}", outcome.dropped);
        assert!(outcome.dropped[0].starts_with("edit 1: Aider cuts SEARCH line 1, `# see a.py`"));
        let wrapped = run_on_a(file, "a.py\ny = 2\n", "a.py\ny = 3\n");
        assert_eq!(
            written(&wrapped, "a.py").as_deref(),
            Some("x = 1\n# see a.py\ny = 3\n")
        );
        assert!(wrapped.dropped.is_empty(), "{:?}", wrapped.dropped);
    }
}
