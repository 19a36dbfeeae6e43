//! An apply_patch (complete or streaming) in the multi-file previewer's
//! terms: each file it edits becomes a `replace_in_file` call whose
//! SEARCH/REPLACE blocks say exactly what the reference did to it.
//!
//! Each hunk the reference matched becomes one block whose SEARCH is the
//! file's own text of the matched lines (so the engine finds it exactly
//! where the reference did: when that text occurs earlier, the block starts
//! earlier, at the previous hunk's end) and whose REPLACE is what the
//! reference put there (context lines as the file has them). A hunk not
//! found keeps the patch's lines, and its file is failed with the
//! reference's error whatever the engine makes of them. How loosely each
//! hunk matched is not lost: [`PatchPreview::loose`] lists the warnings the
//! previewer shows on the file's tab.

use super::transcript::{CallKind, ToolCall};
use crate::dialect::apply_patch::fs::normalize;
use crate::dialect::apply_patch::{
    Chunk, HunkReport, HunkState, LineKind, PatchFs, PatchOutcome, Section, apply_partial,
    parse_partial,
};

/// A patch so far, as previewer input.
#[derive(Debug, Clone)]
pub struct PatchPreview {
    /// One call per file section the previewer can show (Add, Update).
    pub calls: Vec<ToolCall>,
    /// Sections the previewer does not write (Delete, Move): their path
    /// and why.
    pub refused: Vec<(String, String)>,
    /// Per file (as the patch names it), the reference's error when its
    /// section failed.
    pub failed: Vec<(String, String)>,
    /// Per file, one warning per loosely matched hunk.
    pub loose: Vec<(String, String)>,
    /// Per file, the level each of its blocks needed where it matched only
    /// loosely (see [`FileBlocks::levels`]).
    pub levels: Vec<(String, Vec<Option<String>>)>,
    /// The reference's outcome over the text so far.
    pub outcome: PatchOutcome,
    /// The reference refuses the whole text as it stands (a patch not yet
    /// ended is refused too): its error text. Accepting writes nothing.
    pub refusal: Option<String>,
    /// What `apply --transcript --write` holds back in the whole text's
    /// result (see [`patch_doubts`](crate::dialect::apply_patch::patch_doubts)):
    /// accepting asks first.
    pub doubts: Vec<String>,
    /// The agent whose own matcher ran (its title), `None` for a Codex
    /// patch: the tabs name who fails and who stays silent.
    pub agent: Option<&'static str>,
    /// Per file, each block's first and last line in the agent's input
    /// where they are known (an Aider reply's blocks); absent: none given.
    pub input_lines: Vec<(String, Vec<[usize; 2]>)>,
}

impl PatchPreview {
    /// The preview of `outcome` before anything is added: no calls, no
    /// refusal, no doubts, a Codex patch.
    fn empty(outcome: PatchOutcome) -> Self {
        PatchPreview {
            calls: Vec::new(),
            refused: Vec::new(),
            failed: Vec::new(),
            loose: Vec::new(),
            levels: Vec::new(),
            outcome,
            refusal: None,
            doubts: Vec::new(),
            agent: None,
            input_lines: Vec::new(),
        }
    }

    /// Each refusal of a deletion or a move, and each file its blocks
    /// cannot give, ending in the command that does it: `command(write,
    /// json)` is `srview apply --transcript` of the whole patch with
    /// `--write` or `--json`, runnable as printed (session 51: `PATCH` and
    /// `DIR` were printed).
    pub fn say_commands(&mut self, command: impl Fn(bool, bool) -> String) {
        for (_, why) in self.refused.iter_mut().chain(self.failed.iter_mut()) {
            if why == DELETE_REFUSAL {
                *why = format!(
                    "{DELETE_REFUSAL}; {} applies the whole patch",
                    command(true, false)
                );
            } else if why == NOT_AS_BLOCKS {
                *why = format!("{NOT_AS_BLOCKS}; {} shows it", command(false, true));
            }
        }
    }
}

/// A whole tool input for `row`'s agent matcher over a folder (an Aider
/// reply, whose blocks may edit several files), as the transcript
/// previewer shows a patch: one call per file the agent writes, its blocks
/// the text the agent replaced and what it wrote (a loose stage named per
/// block), checked to give the agent's result, else one whole-file block.
/// What accepting writes is the agent's own result; a failing call is
/// refused whole (Aider writes the blocks that matched: `srview apply
/// --transcript --write --force` does that).
pub fn agent_folder_preview(
    row: &crate::dialect::registry::DialectRow,
    text: &str,
    fs: &dyn PatchFs,
    cwd: &str,
) -> PatchPreview {
    let mut preview = PatchPreview {
        agent: Some(row.title),
        ..PatchPreview::empty(crate::dialect::apply_patch::apply_text("", fs, cwd))
    };
    let (Some(matcher), Some(input)) = (row.matcher(), row.input_of(text)) else {
        preview.refusal = Some(format!("{} does not read this input", row.title));
        return preview;
    };
    let outcome = matcher.run(&crate::dialect::call::ToolCall {
        input: &input,
        cwd,
        fs,
    });
    if outcome.hangs {
        preview.refusal = Some(format!("{} never returns on this input", row.title));
        return preview;
    }
    if !outcome.ok {
        preview.refusal = Some(
            outcome
                .error
                .clone()
                .unwrap_or_else(|| format!("{} fails", row.title)),
        );
    }
    // The files of the edits the agent could not place (Aider names each
    // failing block's file), and each such block as the reply wrote it.
    let failing_paths_all: Vec<String> = outcome
        .edits
        .iter()
        .filter(|e| e.found.is_none() && e.stage == "failed")
        .filter_map(|e| e.path.clone())
        .fold(Vec::new(), |mut paths, path| {
            if !paths.contains(&path) {
                paths.push(path);
            }
            paths
        });
    let failing_paths = failing_paths_all.clone();
    let reply_blocks = match row.text_field {
        Some("reply") => input
            .get("reply")
            .and_then(serde_json::Value::as_str)
            .map(crate::source::aider::parse)
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    // Aider's edits are its blocks, in order: each block's reply lines.
    let reply_lines: Vec<[usize; 2]> = match row.text_field {
        Some("reply") if reply_blocks.len() == outcome.edits.len() => input
            .get("reply")
            .and_then(serde_json::Value::as_str)
            .map(crate::source::aider::block_lines)
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    let lines_of = |indices: &[usize]| -> Vec<[usize; 2]> {
        let lines: Vec<[usize; 2]> = indices
            .iter()
            .filter_map(|&i| reply_lines.get(i).copied())
            .collect();
        if lines.len() == indices.len() {
            lines
        } else {
            Vec::new()
        }
    };
    // The failing blocks of `path`: their indices and their text.
    let failed_blocks = |path: &str| -> Vec<(usize, String)> {
        if reply_blocks.len() != outcome.edits.len() {
            return Vec::new();
        }
        outcome
            .edits
            .iter()
            .zip(&reply_blocks)
            .enumerate()
            .filter(|(_, (e, _))| {
                e.found.is_none() && e.stage == "failed" && e.path.as_deref() == Some(path)
            })
            .map(|(i, (_, block))| (i, block.body.clone()))
            .collect()
    };
    for write in &outcome.writes {
        let Some(after) = &write.content else {
            preview
                .refused
                .push((write.path.clone(), DELETE_REFUSAL.to_string()));
            continue;
        };
        let original = match fs.read(&normalize(&write.path)) {
            crate::dialect::apply_patch::Entry::File(text) => text,
            _ => String::new(),
        };
        let (placed_at, mut body) = placed_blocks(
            outcome
                .edits
                .iter()
                .enumerate()
                .filter(|(_, e)| e.path.as_deref() == Some(write.path.as_str())),
        );
        let placed: Vec<&crate::dialect::call::EditMatch> =
            placed_at.iter().map(|(_, e)| *e).collect();
        let mut indices: Vec<usize> = placed_at.iter().map(|(i, _)| *i).collect();
        let ours = || {
            outcome
                .edits
                .iter()
                .filter(|e| e.path.as_deref() == Some(write.path.as_str()))
        };
        let loose: Vec<String> = ours()
            .filter(|e| e.loose)
            .map(|e| e.stage.clone())
            .collect();
        for stage in &loose {
            preview.loose.push((
                write.path.clone(),
                format!(
                    "placed by {}'s loose stage {stage}: the text replaced is not the text \
                     the model wrote",
                    row.title
                ),
            ));
        }
        let levels = if !placed.is_empty() && gives(&body, &original, after) {
            placed
                .iter()
                .map(|e| e.loose.then(|| e.stage.clone()))
                .collect()
        } else {
            body = whole_file_block(&original, after, false);
            // One block of srview's: no reply line is its.
            indices = vec![usize::MAX];
            vec![(!loose.is_empty()).then(|| loose.join("+"))]
        };
        let mut levels = levels;
        // Its failing blocks after the placed ones: the engine shows each
        // failing, with srview's diagnosis.
        for (i, failing) in failed_blocks(&write.path) {
            body.push_str(&failing);
            levels.push(None);
            indices.push(i);
        }
        preview.levels.push((write.path.clone(), levels));
        preview
            .input_lines
            .push((write.path.clone(), lines_of(&indices)));
        preview.calls.push(ToolCall {
            kind: CallKind::ReplaceInFile,
            path: write.path.clone(),
            path_complete: true,
            body,
            partial: false,
        });
    }
    // A file whose every block fails is not written, yet has a tab: its
    // blocks shown failing, the agent's error said.
    for path in failing_paths {
        if preview.calls.iter().any(|c| c.path == path) {
            continue;
        }
        let failing = failed_blocks(&path);
        let indices: Vec<usize> = failing.iter().map(|(i, _)| *i).collect();
        let body: String = failing.into_iter().map(|(_, body)| body).collect();
        preview.input_lines.push((path.clone(), lines_of(&indices)));
        preview.calls.push(ToolCall {
            kind: CallKind::ReplaceInFile,
            path: path.clone(),
            path_complete: true,
            body,
            partial: false,
        });
    }
    if let Some(error) = &preview.refusal {
        for call in &preview.calls {
            if failing_paths_all.contains(&call.path) {
                preview.failed.push((call.path.clone(), error.clone()));
            }
        }
    }
    preview.doubts = preview
        .loose
        .iter()
        .map(|(p, w)| format!("{p}: {w}"))
        .collect();
    preview
}

/// What the previewer does not do for a section; the screen that knows
/// the patch's path and folder says where to do it ([`PatchPreview::say_commands`]).
pub const DELETE_REFUSAL: &str =
    "the patch deletes or moves this file: the previewer writes no deletion";

/// A file whose edit the previewer's blocks cannot give; where to see it
/// is said as for [`DELETE_REFUSAL`].
pub const NOT_AS_BLOCKS: &str =
    "the previewer cannot show this file's edit as blocks that give the reference's result";

/// Reads `text` (a prefix when `ended` is false) over `fs` as the reference
/// would in `cwd`.
pub fn preview(text: &str, fs: &dyn PatchFs, cwd: &str, ended: bool) -> PatchPreview {
    let mut partial = parse_partial(text);
    if ended {
        partial.last_unfinished = false;
    }
    let outcome = apply_partial(&partial, fs, cwd);
    // What accepting would write is the reference's run of the whole text.
    let whole = crate::dialect::apply_patch::apply_text(text, fs, cwd);
    let refusal = (whole.exit_code != 0).then(|| whole.stderr.trim_end().to_string());
    // What `apply --transcript --write` holds back (a tester's find, round
    // 49 T-05: `A` wrote a hunk matched at level unicode at once): each
    // loose hunk, the trust checks, what a loose result does.
    let doubts = match crate::dialect::apply_patch::parse(text) {
        Ok(patch) if whole.exit_code == 0 => {
            use crate::dialect::apply_patch::{loose_layout_doubts, patch_doubts};
            let checks = patch_doubts(&patch, &whole, fs, cwd)
                .into_iter()
                .chain(loose_layout_doubts(&patch, &whole, fs, cwd));
            super::patch::loose_holds(&whole)
                .into_iter()
                .chain(checks.map(|d| d.message))
                .collect()
        }
        _ => Vec::new(),
    };
    let mut preview = PatchPreview {
        refusal,
        doubts,
        ..PatchPreview::empty(outcome.clone())
    };
    let last = partial.sections.len().saturating_sub(1);
    for (i, (section, report)) in partial.sections.iter().zip(&outcome.sections).enumerate() {
        let streaming = partial.last_unfinished && i == last;
        if let Some(error) = &report.error {
            preview
                .failed
                .push((section.path().to_string(), error.clone()));
        }
        match section {
            Section::Delete { path, .. }
            | Section::Update {
                path,
                move_to: Some(_),
                ..
            } => preview
                .refused
                .push((path.clone(), DELETE_REFUSAL.to_string())),
            Section::Add { path, content, .. } => {
                let original = match fs.read(&normalize(path)) {
                    crate::dialect::apply_patch::Entry::File(text) => text,
                    _ => String::new(),
                };
                preview.calls.push(ToolCall {
                    kind: CallKind::ReplaceInFile,
                    path: path.clone(),
                    path_complete: true,
                    body: whole_file_block(&original, content, streaming),
                    partial: streaming,
                });
            }
            Section::Update { path, chunks, .. } => {
                let original = match fs.read(&normalize(path)) {
                    crate::dialect::apply_patch::Entry::File(text) => text,
                    _ => String::new(),
                };
                let (body, _) = update_blocks(&original, chunks, &report.hunks, streaming);
                preview
                    .levels
                    .push((path.clone(), block_levels(chunks, &report.hunks)));
                preview.calls.push(ToolCall {
                    kind: CallKind::ReplaceInFile,
                    path: path.clone(),
                    path_complete: true,
                    body,
                    partial: streaming,
                });
            }
        }
    }
    // Once the text has ended, the reference's verdict on the whole of it:
    // a patch it refuses (cut before `*** End Patch`) fails every file,
    // whatever its hunks would do.
    if ended
        && outcome.exit_code == 0
        && let Some(why) = preview.refusal.clone()
    {
        for call in &preview.calls {
            if !preview.failed.iter().any(|(p, _)| *p == call.path) {
                preview.failed.push((call.path.clone(), why.clone()));
            }
        }
    }
    if ended && outcome.exit_code == 0 {
        for call in &mut preview.calls {
            let before = call.body.len();
            verify(call, fs, &outcome, &mut preview.failed);
            if call.body.len() != before {
                // Replaced by one whole-file block: no block is a hunk.
                preview.levels.retain(|(p, _)| *p != call.path);
            }
        }
    }
    for (section, hunk) in outcome.loose_hunks() {
        preview.loose.push((
            section.path.clone(),
            crate::source::patch::loose_warning(section, hunk)
                .trim_start_matches("srview: warning: ")
                .to_string(),
        ));
    }
    preview
}

/// What the previewer shows for `call` is checked against the reference's
/// result: when the blocks do not give it, one block replacing the whole
/// file does; when even that does not, the file is failed with a sentence
/// saying so (never shown as something the reference did not do).
fn verify(
    call: &mut ToolCall,
    fs: &dyn PatchFs,
    outcome: &PatchOutcome,
    failed: &mut Vec<(String, String)>,
) {
    let key = normalize(&call.path);
    let Some(Some(want)) = outcome.files.get(&key) else {
        return;
    };
    let original = match fs.read(&key) {
        crate::dialect::apply_patch::Entry::File(text) => text,
        _ => String::new(),
    };
    let gives = |body: &str| {
        let options = crate::engine::Options {
            version: crate::engine::Version::V1,
            is_final: true,
        };
        crate::engine::apply(body, &original, options)
            .result
            .is_ok_and(|a| a.new_content == *want)
    };
    if gives(&call.body) {
        return;
    }
    let whole = whole_file_block(&original, want, false);
    if gives(&whole) {
        call.body = whole;
    } else {
        failed.push((call.path.clone(), NOT_AS_BLOCKS.to_string()));
    }
}

const SEARCH: &str = "------- SEARCH\n";
const SEPARATOR: &str = "=======\n";
const REPLACE_END: &str = "+++++++ REPLACE\n";

/// Per block [`update_blocks`] makes (one per hunk with lines), the level
/// its hunk needed where that was not `exact`.
fn block_levels(chunks: &[Chunk], hunks: &[HunkReport]) -> Vec<Option<String>> {
    chunks
        .iter()
        .zip(hunks)
        .filter(|(c, _)| !c.lines.is_empty())
        .map(|(_, h)| {
            h.level
                .filter(|l| *l != crate::dialect::apply_patch::MatchLevel::Exact)
                .map(|l| l.name().to_string())
        })
        .collect()
}

/// The block that makes `original` into `content` (an Add section).
fn whole_file_block(original: &str, content: &str, streaming: bool) -> String {
    let mut body = String::from(SEARCH);
    body.push_str(original);
    if !original.is_empty() && !original.ends_with('\n') {
        body.push('\n');
    }
    body.push_str(SEPARATOR);
    body.push_str(content);
    if !streaming {
        // A content without a final newline would run into the block's
        // end marker (`y = 3+++++++ REPLACE`: the block unreadable).
        if !content.is_empty() && !content.ends_with('\n') {
            body.push('\n');
        }
        body.push_str(REPLACE_END);
    }
    body
}

/// The file's lines without their terminators.
fn file_lines(original: &str) -> Vec<&str> {
    original
        .split_inclusive('\n')
        .map(|l| l.trim_end_matches('\n').trim_end_matches('\r'))
        .collect()
}

/// The first line at or after `from` where `needle` starts in `lines`.
fn first_at(lines: &[&str], needle: &[&str], from: usize) -> Option<usize> {
    if needle.is_empty() {
        return Some(from);
    }
    (from..=lines.len().saturating_sub(needle.len()))
        .find(|&i| lines[i..i + needle.len()] == *needle)
}

fn push_lines(body: &mut String, lines: &[&str]) {
    for line in lines {
        body.push_str(line);
        body.push('\n');
    }
}

/// The blocks of an Update section: one per hunk; with, per block, how
/// many unchanged lines of the file it starts with only so that the engine
/// takes the hunk's place (see [`FileBlocks::leads`]).
fn update_blocks(
    original: &str,
    chunks: &[Chunk],
    hunks: &[HunkReport],
    streaming: bool,
) -> (String, Vec<usize>) {
    let lines = file_lines(original);
    let mut body = String::new();
    let mut leads = Vec::new();
    // 0-based line after the previous block.
    let mut after = 0;
    for (n, (chunk, hunk)) in chunks.iter().zip(hunks).enumerate() {
        // A hunk whose lines have not arrived says nothing yet (a complete
        // patch never has one: the parser rejects it).
        if chunk.lines.is_empty() {
            continue;
        }
        let last = n + 1 == chunks.len();
        let still_coming = streaming && last;
        let old: Vec<&str> = chunk.old_lines();
        let found = match (hunk.state, hunk.matched) {
            (HunkState::Applied | HunkState::Streaming, Some(m)) if m.end_line >= m.start_line => {
                Some((m.start_line - 1, m.end_line))
            }
            // A pure addition goes at the end of the file: after its last line.
            (HunkState::Applied | HunkState::Streaming, None) if old.is_empty() => {
                Some((lines.len().saturating_sub(1), lines.len()))
            }
            _ => None,
        };
        body.push_str(SEARCH);
        let Some((start, end)) = found else {
            // Not found (yet): the patch's own lines.
            leads.push(0);
            push_lines(&mut body, &old);
            if still_coming {
                return (body, leads);
            }
            body.push_str(SEPARATOR);
            push_lines(&mut body, &chunk.new_lines());
            body.push_str(REPLACE_END);
            continue;
        };
        let matched = &lines[start.min(lines.len())..end.min(lines.len())];
        // Earlier occurrences would take the engine elsewhere: start at the
        // previous block's end instead.
        let from = if first_at(&lines, matched, after).is_some_and(|at| at < start) {
            after.min(start)
        } else {
            start
        };
        let lead = &lines[from..start.min(lines.len())];
        leads.push(lead.len());
        push_lines(&mut body, lead);
        push_lines(&mut body, matched);
        body.push_str(SEPARATOR);
        push_lines(&mut body, lead);
        let mut file_line = start;
        let mut kept: Vec<&str> = Vec::new();
        for line in &chunk.lines {
            match line.kind {
                LineKind::Context => {
                    if let Some(text) = lines.get(file_line).filter(|_| file_line < end) {
                        kept.push(text);
                    } else if !hunk.dropped_trailing_blank {
                        kept.push(&line.text);
                    }
                    file_line += 1;
                }
                LineKind::Removed => file_line += 1,
                LineKind::Added => kept.push(&line.text),
            }
        }
        if old.is_empty() {
            // A pure addition: the file's last line, then the new ones.
            kept.splice(0..0, matched.iter().copied());
        }
        push_lines(&mut body, &kept);
        if still_coming {
            return (body, leads);
        }
        body.push_str(REPLACE_END);
        after = end;
    }
    (body, leads)
}

/// One file's diff in another dialect, as SEARCH/REPLACE blocks for the
/// single-file previewer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileBlocks {
    /// The blocks: the engine's run of them gives the reference's result.
    pub body: String,
    /// What the previewer must say: loose matches (with the lines that
    /// differ), or why nothing may be accepted.
    pub note: Option<String>,
    /// The reference refuses the edit (or its result cannot be shown as
    /// blocks): accepting must write nothing.
    pub refused: bool,
    /// Per block of `body`, in order, the level its hunk needed where it
    /// matched only loosely (`trailing-space`, `trimmed`, `unicode`): the
    /// block is placed on the file's own lines, so the engine finds it
    /// exactly, and the previewer shows this level instead.
    pub levels: Vec<Option<String>>,
    /// Per block of `body`, in order, the first and last patch lines of
    /// its apply_patch hunk (empty for other dialects): where the block
    /// list says it comes from, in the patch the user sees.
    pub hunk_lines: Vec<[usize; 2]>,
    /// What the block list's line numbers count.
    pub numbers: BlockNumbers,
    /// Per block of `body`, in order, how many of its first lines are the
    /// file's own unchanged lines put before the hunk's only so that the
    /// engine finds the right one of lines the file has more than once
    /// (a Codex hunk placed by its `@@` line or `*** End of File`): not
    /// the hunk's, so not the block's range shown (empty: none).
    pub leads: Vec<usize>,
}

impl FileBlocks {
    /// Blocks that run as they are: no note, no levels, numbered as a diff.
    fn plain(body: String) -> Self {
        FileBlocks {
            body,
            note: None,
            levels: Vec::new(),
            hunk_lines: Vec::new(),
            numbers: BlockNumbers::Diff,
            refused: false,
            leads: Vec::new(),
        }
    }

    /// `body` with what the previewer must say; `refused`: nothing may be
    /// accepted.
    fn noted(body: String, note: impl Into<String>, refused: bool) -> Self {
        FileBlocks {
            note: Some(note.into()),
            refused,
            ..FileBlocks::plain(body)
        }
    }

    /// No blocks: nothing may be accepted, for the reason `note` says.
    fn refused(note: impl Into<String>) -> Self {
        FileBlocks::noted(String::new(), note, true)
    }
}

/// What the line numbers the previewer gives each block count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BlockNumbers {
    /// The input's own lines: the body's (the input is the diff), or a
    /// patch's when [`FileBlocks::hunk_lines`] holds its hunks' lines.
    #[default]
    Diff,
    /// [`FileBlocks::hunk_lines`] holds each block's lines in an Aider
    /// reply.
    Reply,
    /// No line of the input is meaningful (a JSON tool input, a body
    /// srview made): none is given.
    Unnumbered,
    /// An edit's JSON read as srview's own dialect: no line of the input
    /// is meaningful either (the body is srview's rendering of one line of
    /// JSON), and its old text is found under this key (`old_string`;
    /// `None`: the tool has none, a `Write`), the word said for it (tester
    /// finding 50/T-12: "SEARCH found exactly; diff lines 1-8" for a
    /// one-line Edit).
    EditField(Option<&'static str>),
}

/// `text` (an apply_patch or an edit's JSON; a prefix unless `ended`) for
/// the file `target`, as blocks.
pub fn file_blocks(
    text: &str,
    dialect: crate::dialect::Dialect,
    target: &crate::dialect::one_file::Target,
    ended: bool,
) -> Result<FileBlocks, crate::dialect::one_file::OneFileError> {
    use crate::dialect::Dialect;
    match dialect {
        Dialect::ApplyPatch => patch_blocks(text, target, ended),
        Dialect::EditJson | Dialect::SearchReplace => edit_blocks(text, target, ended),
    }
}

/// The blocks of one agent edit (see [`crate::source::agent::EditInput`])
/// over `target`: what the agent previewer shows. `ended`: no more of the
/// edit's input will come.
pub fn input_blocks(
    input: &crate::source::agent::EditInput,
    target: &crate::dialect::one_file::Target,
    ended: bool,
) -> Result<FileBlocks, crate::dialect::one_file::OneFileError> {
    use crate::source::agent::EditInput;
    let original = target.content.unwrap_or_default();
    let plain = FileBlocks::plain;
    Ok(match input {
        EditInput::SearchReplace(diff) => plain(diff.clone()),
        EditInput::ApplyPatch(patch) => patch_blocks(patch, target, ended)?,
        EditInput::Exact(edit) => parsed_edit_blocks(
            &crate::dialect::edit::PartialEdit::of(edit),
            Some(edit),
            target,
        ),
        EditInput::Partial(partial) => parsed_edit_blocks(partial, None, target),
        EditInput::Whole(content) => plain(whole_file_block(original, content, !ended)),
        EditInput::UnifiedDiff(diff) => match crate::dialect::udiff::to_search_replace(diff) {
            Some(blocks) => plain(blocks),
            None => FileBlocks::refused("the unified diff has no hunk"),
        },
        EditInput::Call(call) => call_blocks(call, target),
        EditInput::NotRecorded => {
            FileBlocks::refused("the agent's output names the file only, not the edit")
        }
    })
}

fn patch_blocks(
    text: &str,
    target: &crate::dialect::one_file::Target,
    ended: bool,
) -> Result<FileBlocks, crate::dialect::one_file::OneFileError> {
    let mut partial = parse_partial(text);
    if ended {
        partial.last_unfinished = false;
    }
    let picked = crate::dialect::one_file::pick_section(
        &partial.sections,
        target.name,
        !partial.ended && !ended,
    )?;
    if picked.is_none()
        && let [only] = &partial.sections[..]
    {
        // A patch still arriving whose one section names another file: the
        // file's own may follow.
        return Ok(FileBlocks::noted(
            String::new(),
            format!(
                "the patch edits {} so far: waiting for a section that names {} (or the \
                 patch's end)",
                only.path(),
                target.name
            ),
            false,
        ));
    }
    let last = partial.sections.len().saturating_sub(1);
    let streaming = partial.last_unfinished && picked.as_ref().is_some_and(|(i, _)| *i == last);
    partial.last_unfinished = streaming;
    partial.sections = picked.into_iter().map(|(_, s)| s).collect();
    let fs = crate::dialect::apply_patch::MemoryFs::new(
        target
            .content
            .map(|c| (target.name.to_string(), c.to_string())),
    );
    let outcome = apply_partial(&partial, &fs, target.cwd);
    let original = target.content.unwrap_or_default();
    let mut call = ToolCall {
        kind: CallKind::ReplaceInFile,
        path: target.name.to_string(),
        path_complete: true,
        body: String::new(),
        partial: streaming,
    };
    let mut levels = Vec::new();
    let mut hunk_lines = Vec::new();
    let mut leads = Vec::new();
    if let (Some(section), Some(report)) = (partial.sections.first(), outcome.sections.first()) {
        call.body = match section {
            Section::Add { content, .. } => whole_file_block(original, content, streaming),
            Section::Delete { .. } => String::new(),
            Section::Update { chunks, .. } => {
                levels = block_levels(chunks, &report.hunks);
                hunk_lines = chunks
                    .iter()
                    .zip(&report.hunks)
                    .filter(|(c, _)| !c.lines.is_empty())
                    .map(|(_, h)| h.patch_lines)
                    .collect();
                let (body, lead) = update_blocks(original, chunks, &report.hunks, streaming);
                leads = lead;
                body
            }
        };
    }
    let mut failed = Vec::new();
    if ended && outcome.exit_code == 0 {
        let before = call.body.len();
        verify(&mut call, &fs, &outcome, &mut failed);
        if call.body.len() != before {
            levels.clear();
            hunk_lines.clear();
            leads.clear();
        }
    }
    // Once the text has ended, the reference's verdict on the whole of it
    // (a patch cut before `*** End Patch` is refused, whatever its hunks).
    let whole_refused = if ended {
        crate::dialect::one_file::reference_result(
            text,
            crate::dialect::Dialect::ApplyPatch,
            target,
        )
        .err()
        .map(|refusal| refusal.0)
    } else {
        None
    };
    let reference_error = outcome
        .sections
        .iter()
        .find_map(|s| s.error.clone())
        .or(whole_refused);
    let loose: Vec<String> = outcome
        .loose_hunks()
        .map(|(s, h)| {
            crate::source::patch::loose_warning(s, h)
                .trim_start_matches("srview: warning: ")
                .to_string()
        })
        .collect();
    let refusal = reference_error.or_else(|| failed.first().map(|(_, why)| why.clone()));
    let note = match (&refusal, loose.is_empty()) {
        (Some(why), _) => Some(format!("apply_patch fails: {why}")),
        (None, false) => Some(format!(
            "loose match (the reference is silent): {}",
            loose.join("; ")
        )),
        (None, true) => None,
    };
    Ok(FileBlocks {
        body: call.body,
        note,
        levels,
        hunk_lines,
        numbers: BlockNumbers::Diff,
        refused: refusal.is_some(),
        leads,
    })
}

fn edit_blocks(
    text: &str,
    target: &crate::dialect::one_file::Target,
    ended: bool,
) -> Result<FileBlocks, crate::dialect::one_file::OneFileError> {
    let Some(partial) = crate::dialect::one_file::parse_partial_edit(text)? else {
        return Ok(FileBlocks::plain(String::new()));
    };
    // A JSON object that has closed is the whole edit, whether or not more
    // text may come (a file being watched).
    let parsed = if ended || partial.is_complete() {
        Some(crate::dialect::one_file::parse_edit(text)?)
    } else {
        None
    };
    Ok(FileBlocks {
        numbers: BlockNumbers::EditField(partial.old_key()),
        ..parsed_edit_blocks(&partial, parsed.as_ref(), target)
    })
}

/// The blocks of an exact-string edit: `parsed` once its input is
/// complete (the preview is then final), else `partial`, its input so far.
fn parsed_edit_blocks(
    partial: &crate::dialect::edit::PartialEdit,
    parsed: Option<&crate::dialect::edit::Edit>,
    target: &crate::dialect::one_file::Target,
) -> FileBlocks {
    use crate::dialect::edit;
    let ended = parsed.is_some();
    let waiting = FileBlocks::plain(String::new());
    let shown = if let Some(parsed) = parsed {
        let out = edit::apply(parsed, target.content);
        edit::EditPreview {
            new_content: out.result.as_ref().ok().map(|d| d.new_content.clone()),
            error: out.result.err(),
            block: out.block,
        }
    } else {
        edit::preview(0, partial, target.content)
    };
    let original = target.content.unwrap_or_default();
    let old = partial.old.clone().unwrap_or_default();
    let new = partial.new.clone().unwrap_or_default();
    if let Some(error) = &shown.error {
        let mut body = String::from(SEARCH);
        push_text(&mut body, &old);
        body.push_str(SEPARATOR);
        push_text(&mut body, &new);
        body.push_str(REPLACE_END);
        return FileBlocks::noted(body, format!("the edit fails: {error}"), true);
    }
    let Some(content) = &shown.new_content else {
        // The old text so far as it arrived: a last line still arriving
        // is no whole line (a tester's find, round 47 T-07: `    return t`
        // closed by a newline read as a line the file does not have,
        // "different content — risky"), as a SEARCH/REPLACE stream cut
        // mid-line is read.
        let mut body = String::from(SEARCH);
        body.push_str(&shown.block.search_text);
        return FileBlocks { body, ..waiting };
    };
    let streaming = !ended;
    // Each line with its own ending: a CRLF file's blocks keep `\r\n`, so
    // that they give the edit's result (without them the engine's result
    // had LF lines, and the whole file was shown rewritten).
    let lines: Vec<&str> = original.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = content.split_inclusive('\n').collect();
    let mut body = String::from(SEARCH);
    match (shown.block.original, shown.block.replacement) {
        (Some(o), Some(r)) if o.end_line >= o.start_line && !lines.is_empty() => {
            lines[o.start_line - 1..o.end_line.min(lines.len())]
                .iter()
                .for_each(|line| push_line_text(&mut body, line));
            body.push_str(SEPARATOR);
            let end = r.end_line.min(new_lines.len());
            if r.start_line <= end {
                new_lines[r.start_line - 1..end]
                    .iter()
                    .for_each(|line| push_line_text(&mut body, line));
            }
        }
        _ => {
            body = whole_file_block(original, content, true);
        }
    }
    if !streaming {
        body.push_str(REPLACE_END);
    }
    let options = crate::engine::Options {
        version: crate::engine::Version::V1,
        is_final: true,
    };
    let closed = if streaming {
        format!("{body}{REPLACE_END}")
    } else {
        body.clone()
    };
    let gives = crate::engine::apply(&closed, original, options)
        .result
        .is_ok_and(|a| a.new_content == *content);
    if !gives {
        body = changed_lines_block(original, content, streaming)
            .unwrap_or_else(|| whole_file_block(original, content, streaming));
    }
    FileBlocks::plain(body)
}

/// The block of the lines `original` and `content` do not share at their
/// start and end (one shared line kept where nothing else would be left
/// to find), when the engine gives `content` from it: an edit whose text
/// is not whole lines (a new text without the old one's final newline
/// joins the next line on) shown as the lines it changes, not as the whole
/// file rewritten (a tester's find, round 44, T-15); `None` otherwise.
fn changed_lines_block(original: &str, content: &str, streaming: bool) -> Option<String> {
    let old: Vec<&str> = original.split_inclusive('\n').collect();
    let new: Vec<&str> = content.split_inclusive('\n').collect();
    let mut head = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let mut tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    if head + tail == old.len() {
        if head > 0 {
            head -= 1;
        } else {
            tail = tail.checked_sub(1)?;
        }
    }
    let mut body = String::from(SEARCH);
    old[head..old.len() - tail]
        .iter()
        .for_each(|line| push_line_text(&mut body, line));
    body.push_str(SEPARATOR);
    new[head..new.len() - tail]
        .iter()
        .for_each(|line| push_line_text(&mut body, line));
    let closed = format!("{body}{REPLACE_END}");
    gives(&closed, original, content).then_some(if streaming { body } else { closed })
}

/// `text` as block lines (a final newline added when missing).
fn push_text(body: &mut String, text: &str) {
    body.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        body.push('\n');
    }
}

/// An edit its agent's own matcher runs, as exact blocks: each matched
/// edit's SEARCH is the file text the matcher replaced, its REPLACE the text
/// written there, so the engine's run of them gives the agent's result
/// (checked: otherwise one block of the whole file, old against new). A
/// loose stage's name is the block's level; a failure is the note.
/// The blocks of a tool input for `row`'s agent matcher as far as it has
/// arrived (`text`: the input's JSON, or for a patch tool or Aider the text
/// itself), over `target`: what the single-file previewer shows for
/// `--dialect` of an agent. A whole input is placed by the agent's own
/// matcher ([`call_blocks`]); one still arriving is previewed as srview
/// reads a prefix, and said to be so: an exact-string edit for the edit
/// arriving, Codex's rules for a patch, Cline's for Aider's blocks. The
/// agent's loose stages run only on a whole input. `ended`: no more will
/// come.
pub fn call_prefix_blocks(
    row: &crate::dialect::registry::DialectRow,
    text: &str,
    target: &crate::dialect::one_file::Target,
    ended: bool,
) -> FileBlocks {
    use crate::dialect::edit::partial_json::parse_value_prefix;
    use crate::dialect::edit::{Arrival, Field, PartialEdit, Tool};
    let note = |body: String, note: String, refused: bool| FileBlocks::noted(body, note, refused);
    let complete = ended
        || match row.text_field {
            Some("reply") => false,
            field => {
                serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v.is_object())
                    || (field.is_some()
                        && !text.trim_start().starts_with('{')
                        && parse_partial(text).ended)
            }
        };
    if complete {
        return match row.input_of(text) {
            Some(input) => call_blocks(
                &crate::source::agent::CallInput {
                    dialect: row.value,
                    // Aimed at FILE: the caller refuses an input naming
                    // another file (an edit saved from a session names the
                    // agent's machine's path).
                    input: row.aim(&input, target.cwd, target.name),
                    path: target.name.to_string(),
                },
                target,
            ),
            None => note(
                String::new(),
                format!(
                    "the input is not a whole JSON object: {} refuses it",
                    row.title
                ),
                true,
            ),
        };
    }
    const ARRIVING: &str = "while the input arrives, srview previews it";
    const WHOLE: &str = "the agent's own matcher places it once it is whole";
    match row.text_field {
        Some("reply") => {
            let ours = |call: &ToolCall| call.path == target.name || call.path.is_empty();
            let calls = crate::source::aider::parse(text);
            let hunk_lines = crate::source::aider::block_lines(text)
                .into_iter()
                .zip(&calls)
                .filter(|(_, call)| ours(call))
                .map(|(lines, _)| lines)
                .collect();
            let body = calls
                .into_iter()
                .filter(ours)
                .map(|call| call.body)
                .collect::<String>();
            FileBlocks {
                hunk_lines,
                numbers: BlockNumbers::Reply,
                ..note(
                    body,
                    format!("{ARRIVING} with Cline's matcher; {WHOLE}"),
                    false,
                )
            }
        }
        Some(field) => {
            let so_far = match parse_value_prefix(text) {
                Ok((value, _)) => value
                    .get(field)
                    .and_then(serde_json::Value::as_str)
                    .map(str::to_string)
                    .unwrap_or_default(),
                // Not JSON: the patch text itself.
                Err(_) => text.to_string(),
            };
            match patch_blocks(&so_far, target, false) {
                Ok(mut blocks) => {
                    let said = format!("{ARRIVING} with Codex's rules; {WHOLE}");
                    blocks.note = Some(match blocks.note {
                        Some(n) => format!("{said}; {n}"),
                        None => said,
                    });
                    blocks
                }
                Err(e) => note(String::new(), e.to_string(), true),
            }
        }
        None => {
            let Some(fields) = row.strings else {
                return note(String::new(), format!("{ARRIVING}: {WHOLE}"), false);
            };
            let value = match parse_value_prefix(text) {
                Ok((value, _)) => value,
                Err(e) => return note(String::new(), e.to_string(), true),
            };
            // The edits so far; the last one may still be arriving.
            let edits: Vec<&serde_json::Value> = match fields.list.and_then(|key| value.get(key)) {
                Some(serde_json::Value::Array(list)) => list.iter().collect(),
                _ => vec![&value],
            };
            let Some(last) = edits.last() else {
                return note(String::new(), format!("{ARRIVING}: no edit yet"), false);
            };
            let string = |key: &str| last.get(key).and_then(|v| v.as_str()).map(str::to_string);
            let partial = PartialEdit {
                tool: Tool::Edit,
                path: Some(target.name.to_string()),
                old: string(fields.old),
                new: string(fields.new),
                setting: None,
                arrival: if string(fields.new).is_some() {
                    Arrival::In(Field::New)
                } else {
                    Arrival::In(Field::Old)
                },
            };
            let mut blocks = parsed_edit_blocks(&partial, None, target);
            if blocks.refused {
                // srview's exact-string reading is not the agent's verdict:
                // its loose stages run on the whole input.
                blocks.refused = false;
                blocks.note = Some(
                    "its old text is not found exactly as it stands so far (the agent's loose \
                     stages may still place it)"
                        .into(),
                );
            }
            let which = if edits.len() > 1 {
                format!(
                    "edit {} of the input (the earlier ones have arrived): ",
                    edits.len()
                )
            } else {
                String::new()
            };
            let said = format!("{which}{ARRIVING} as an exact-string edit; {WHOLE}");
            blocks.note = Some(match blocks.note {
                Some(n) => format!("{said}; {n}"),
                None => said,
            });
            // The body is srview's: its lines are not the JSON input's.
            blocks.numbers = BlockNumbers::Unnumbered;
            blocks
        }
    }
}

fn call_blocks(
    call: &crate::source::agent::CallInput,
    target: &crate::dialect::one_file::Target,
) -> FileBlocks {
    let original = target.content.unwrap_or_default();
    // The blocks are srview's own: an Aider block is numbered by its reply
    // lines, a JSON tool input by none.
    let reply_lines: Option<Vec<[usize; 2]>> = call
        .input
        .get("reply")
        .and_then(serde_json::Value::as_str)
        .filter(|_| {
            crate::dialect::registry::find(call.dialect)
                .is_some_and(|row| row.text_field == Some("reply"))
        })
        .map(crate::source::aider::block_lines);
    let numbers = if reply_lines.is_some() {
        BlockNumbers::Reply
    } else {
        BlockNumbers::Unnumbered
    };
    let refused = |note: String| FileBlocks {
        numbers,
        ..FileBlocks::refused(note)
    };
    let Some(run) = crate::dialect::registry::run_on_file(
        call.dialect,
        &call.input,
        &call.path,
        target.content,
        target.cwd,
    ) else {
        return refused(format!("srview has no matcher for {}", call.dialect));
    };
    let outcome = &run.outcome;
    if outcome.hangs {
        return refused("the agent's own code never returns on this input".into());
    }
    if !outcome.ok {
        return refused(
            outcome
                .error
                .clone()
                .unwrap_or_else(|| "the agent fails".into()),
        );
    }
    let after = match run.written() {
        Some(Some(after)) => after,
        Some(None) => return refused("the agent deletes the file".into()),
        None => original,
    };
    let (placed_at, body) = placed_blocks(outcome.edits.iter().enumerate());
    let placed: Vec<&crate::dialect::call::EditMatch> = placed_at.iter().map(|(_, e)| *e).collect();
    // Each block's reply lines (Aider: one edit per block, in order).
    let block_hunks: Vec<[usize; 2]> = match &reply_lines {
        Some(lines) if lines.len() == outcome.edits.len() => placed_at
            .iter()
            .filter_map(|(i, _)| lines.get(*i).copied())
            .collect(),
        _ => Vec::new(),
    };
    let loose: Vec<String> = outcome
        .edits
        .iter()
        .filter(|e| e.loose)
        .map(|e| e.stage.clone())
        .collect();
    // The lines an anchored stage replaced unasked, named (a tester's
    // find: only the session view's verdict line named them, cut at the
    // terminal's edge).
    let loose_note = (!loose.is_empty()).then(|| {
        format!(
            "placed by a loose stage ({}): the text replaced is not the text the model wrote{}",
            loose.join(", "),
            crate::dialect::call::unasked_words(&crate::dialect::call::unasked_lines(
                &call.input,
                &outcome.edits
            ))
        )
    });
    // A replace-all changes more places than its first: each said.
    let also_note = (!outcome.also_replaced.is_empty()).then(|| {
        let ranges: Vec<String> = outcome
            .also_replaced
            .iter()
            .map(|&(first, last)| crate::words::line_range("line", first, last))
            .collect();
        format!(
            "it replaces every occurrence: {} also changed",
            ranges.join(", ")
        )
    });
    let note = match (loose_note, also_note) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    };
    let every_placed = placed.len() == outcome.edits.len();
    // The matcher's texts as found and written may not give its result
    // as blocks (a CRLF file the agent read as LF, Gemini CLI's regex
    // stage ending its match mid-line): then the file's own lines at the
    // places it reports, checked likewise.
    let body = if every_placed && !gives(&body, original, after) {
        line_blocks(&placed, original, after).unwrap_or(body)
    } else {
        body
    };
    let exact = every_placed && gives(&body, original, after);
    if !exact {
        return FileBlocks {
            body: whole_file_block(original, after, false),
            note,
            levels: vec![(!loose.is_empty()).then(|| loose.join("+"))],
            hunk_lines: Vec::new(),
            numbers,
            refused: false,
            leads: Vec::new(),
        };
    }
    FileBlocks {
        body,
        note,
        levels: placed
            .iter()
            .map(|e| e.loose.then(|| e.stage.clone()))
            .collect(),
        hunk_lines: block_hunks,
        numbers,
        refused: false,
        leads: Vec::new(),
    }
}

/// The edits a matcher placed (text found and written, lines known), with
/// their index in the call, in file order, and the exact blocks that say
/// them: each the text found, then the text written.
fn placed_blocks<'a>(
    edits: impl Iterator<Item = (usize, &'a crate::dialect::call::EditMatch)>,
) -> (Vec<(usize, &'a crate::dialect::call::EditMatch)>, String) {
    let mut placed: Vec<(usize, &crate::dialect::call::EditMatch)> = edits
        .filter(|(_, e)| e.found.is_some() && e.written.is_some() && e.lines.is_some())
        .collect();
    placed.sort_by_key(|(_, e)| e.lines);
    let mut body = String::new();
    for (_, edit) in &placed {
        body.push_str(SEARCH);
        push_line_text(&mut body, edit.found.as_deref().unwrap_or_default());
        body.push_str(SEPARATOR);
        push_line_text(&mut body, edit.written.as_deref().unwrap_or_default());
        body.push_str(REPLACE_END);
    }
    (placed, body)
}

/// The blocks of `placed` (in file order) from the file's own lines: each
/// edit's SEARCH the lines of `original` it reports it replaced, its
/// REPLACE the lines of `after` in their place, line endings kept (a CRLF
/// file's `\r\n`). The lines each edit adds are told by its texts as found
/// and written, the last one's by the files' line counts. `None` when the
/// places overlap or fall outside the files (the caller checks the blocks
/// give `after`).
fn line_blocks(
    placed: &[&crate::dialect::call::EditMatch],
    original: &str,
    after: &str,
) -> Option<String> {
    let old: Vec<&str> = original.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    let count = |text: &Option<String>| {
        isize::try_from(crate::dialect::quick::count_newlines(
            text.as_deref().unwrap_or_default(),
        ))
        .ok()
    };
    let (mut shift, mut done) = (0isize, 0usize);
    let mut body = String::new();
    for (k, edit) in placed.iter().enumerate() {
        let (first, last) = edit.lines?;
        if first <= done || last < first || last > old.len() {
            return None;
        }
        let added = if k + 1 == placed.len() {
            isize::try_from(new.len()).ok()? - isize::try_from(old.len()).ok()? - shift
        } else {
            count(&edit.written)? - count(&edit.found)?
        };
        let from = usize::try_from(isize::try_from(first - 1).ok()? + shift).ok()?;
        let to = usize::try_from(isize::try_from(last).ok()? + shift + added).ok()?;
        if to < from || to > new.len() {
            return None;
        }
        body.push_str(SEARCH);
        old[first - 1..last]
            .iter()
            .for_each(|line| push_line_text(&mut body, line));
        body.push_str(SEPARATOR);
        new[from..to]
            .iter()
            .for_each(|line| push_line_text(&mut body, line));
        body.push_str(REPLACE_END);
        (shift, done) = (shift + added, last);
    }
    Some(body)
}

/// `text` as a block section's lines: ended by a newline.
fn push_line_text(body: &mut String, text: &str) {
    body.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        body.push('\n');
    }
}

/// Whether the engine (v1, final) applies `body` to `original` exactly and
/// gives `after`.
fn gives(body: &str, original: &str, after: &str) -> bool {
    !body.is_empty() && exact_result(body, original).is_some_and(|content| content == after)
}

/// What the engine (v1, final) makes of `original` by `body`, when every
/// block of it applies exactly.
fn exact_result(body: &str, original: &str) -> Option<String> {
    let outcome = crate::engine::apply(
        body,
        original,
        crate::engine::Options {
            version: crate::engine::Version::V1,
            is_final: true,
        },
    );
    let exact = outcome
        .blocks
        .iter()
        .all(|b| b.stage == Some(crate::engine::Stage::Exact));
    if !exact {
        return None;
    }
    outcome.result.ok().map(|applied| applied.new_content)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;
    use crate::dialect::one_file::Target;

    /// The file `name` holding `content`, in the folder `/w`.
    fn target_in_w<'a>(name: &'a str, content: &'a str) -> Target<'a> {
        Target {
            cwd: "/w",
            name,
            content: Some(content),
        }
    }

    /// A whole-file write without a final newline: its block ends on a line
    /// of its own (it ran into the end marker: `y = 3+++++++ REPLACE`).
    #[test]
    fn a_whole_file_without_a_final_newline_keeps_its_block_readable() {
        let target = target_in_w("a.py", "x = 1\n");
        let input = crate::source::agent::EditInput::Whole("x = 1\ny = 3".to_string());
        let blocks = input_blocks(&input, &target, true).expect("blocks");
        assert_eq!(
            blocks.body,
            "------- SEARCH\nx = 1\n=======\nx = 1\ny = 3\n+++++++ REPLACE\n"
        );
        // Still arriving: no end marker yet, the text as it came.
        let blocks = input_blocks(&input, &target, false).expect("blocks");
        assert_eq!(blocks.body, "------- SEARCH\nx = 1\n=======\nx = 1\ny = 3");
    }

    /// A patch whose input ended before `*** End Patch` fails its files
    /// with the reference's refusal, though its hunks would apply.
    #[test]
    fn a_patch_ended_before_its_end_line_fails_every_file() {
        let fs = crate::dialect::apply_patch::MemoryFs::new([
            ("a.py".to_string(), "a\n".to_string()),
            ("b.py".to_string(), "b\n".to_string()),
        ]);
        let cut = "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+A\n*** Update File: b.py\n@@\n-b\n+B\n";
        let shown = preview(cut, &fs, "/w", true);
        let why = "Invalid patch: The last line of the patch must be '*** End Patch'";
        assert_eq!(
            shown.failed,
            [
                ("a.py".to_string(), why.to_string()),
                ("b.py".to_string(), why.to_string())
            ]
        );
        let whole = format!("{cut}*** End Patch\n");
        assert!(preview(&whole, &fs, "/w", true).failed.is_empty());
    }

    /// An Aider reply whose block for util.py fails: util.py still has a
    /// tab (its block as the reply wrote it, to be shown failing) and is
    /// failed with Aider's own error; the good file keeps its placed block.
    #[test]
    fn an_aider_block_that_fails_keeps_its_file_with_the_agents_error() {
        let fs = crate::dialect::apply_patch::MemoryFs::new([
            ("app.py".to_string(), "a = 1\n".to_string()),
            (
                "util.py".to_string(),
                "def f():\n    return 1\n".to_string(),
            ),
        ]);
        let row = crate::dialect::registry::find("aider-diff").expect("row");
        let good =
            "app.py\n```python\n<<<<<<< SEARCH\na = 1\n=======\na = 2\n>>>>>>> REPLACE\n```\n\n";
        let bad = "util.py\n```python\n<<<<<<< SEARCH\ndef g():\n    return 2\n=======\ndef g():\n    return 3\n>>>>>>> REPLACE\n```\n";
        let shown = agent_folder_preview(row, &format!("{good}{bad}"), &fs, "/w");
        let paths: Vec<&str> = shown.calls.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(paths, ["app.py", "util.py"]);
        assert!(
            shown.calls[1].body.contains("def g():\n    return 2\n"),
            "{}",
            shown.calls[1].body
        );
        let error = shown.refusal.clone().expect("Aider fails");
        assert!(error.contains("SearchReplaceNoExactMatch"), "{error}");
        assert_eq!(shown.failed, [("util.py".to_string(), error.clone())]);
        assert_eq!(shown.agent, Some(row.title));
        // The failing block alone: a tab still, not an empty preview.
        let alone = agent_folder_preview(row, bad, &fs, "/w");
        assert_eq!(alone.calls.len(), 1, "{:?}", alone.calls);
        assert_eq!(alone.failed.len(), 1);
    }

    /// An OpenCode replaceAll that changes two places: the previewer's
    /// note names the second, not only the first block.
    #[test]
    fn a_replace_all_call_names_its_other_places() {
        let row = crate::dialect::registry::find("opencode-edit").expect("row");
        let file = "x = 1\ny = 2\nx = 1\n";
        let target = target_in_w("a.py", file);
        let input = r#"{"filePath": "a.py", "oldString": "x = 1", "newString": "x = 3", "replaceAll": true}"#;
        let blocks = call_prefix_blocks(row, input, &target, true);
        assert_eq!(
            blocks.note.as_deref(),
            Some("it replaces every occurrence: line 3 also changed")
        );
        assert!(!blocks.refused);
    }

    /// An agent's blocks are numbered by the input's own lines: an Aider
    /// reply's block by its reply lines (in the single-file and the
    /// transcript previewer), a JSON tool input's by none.
    #[test]
    fn agent_blocks_are_numbered_by_the_inputs_lines_or_not_at_all() {
        let file = "a = 1\nb = 2\n";
        let target = target_in_w("a.py", file);
        let reply = "Here.\n\na.py\n```python\n<<<<<<< SEARCH\nb = 2\n=======\nb = 3\n>>>>>>> REPLACE\n```\n";
        let aider = crate::dialect::registry::find("aider-diff").expect("row");
        let blocks = call_prefix_blocks(aider, reply, &target, true);
        assert_eq!(blocks.numbers, BlockNumbers::Reply);
        assert_eq!(blocks.hunk_lines, vec![[5, 9]]);
        let fs =
            crate::dialect::apply_patch::MemoryFs::new([("a.py".to_string(), file.to_string())]);
        let folder = agent_folder_preview(aider, reply, &fs, "/w");
        assert_eq!(folder.input_lines, vec![("a.py".to_string(), vec![[5, 9]])]);
        let opencode = crate::dialect::registry::find("opencode-edit").expect("row");
        let input = r#"{"filePath": "a.py", "oldString": "b = 2", "newString": "b = 3"}"#;
        let blocks = call_prefix_blocks(opencode, input, &target, true);
        assert_eq!(blocks.numbers, BlockNumbers::Unnumbered);
        assert!(blocks.hunk_lines.is_empty());
    }

    /// A patch cut off after a hunk's `@@` line (its first line still
    /// arriving) shows no block: the hunk has said nothing yet.
    #[test]
    fn a_hunk_without_lines_yet_shows_no_block() {
        let target = target_in_w("calc.py", "a\nb\nc\n");
        let cut = "*** Begin Patch\n*** Update File: calc.py\n@@ def f():\n    b";
        let blocks = file_blocks(cut, Dialect::ApplyPatch, &target, false).expect("reads");
        assert!(!blocks.body.contains("SEARCH"), "{}", blocks.body);
        let more = "*** Begin Patch\n*** Update File: calc.py\n@@\n b\n-c\n+C\n";
        let blocks = file_blocks(more, Dialect::ApplyPatch, &target, false).expect("reads");
        assert!(blocks.body.contains("SEARCH"), "{}", blocks.body);
    }

    /// A tester's find (round 47, T-07): an edit's old text cut mid-line
    /// while it streams is shown as it arrived, its last line unfinished,
    /// so the diagnosis reads it as part of a longer line (a SEARCH/REPLACE
    /// stream cut mid-line reads so), not as a whole line the file lacks
    /// ("different content — risky: ... replaced unseen").
    #[test]
    fn an_old_text_cut_mid_line_is_shown_unfinished() {
        let file = "def total(items):\n    s = 0\n    return s\n";
        let target = target_in_w("calc.py", file);
        let cut =
            r#"{"file_path": "calc.py", "old_string": "def total(items):\n    s = 0\n    ret"#;
        let blocks = file_blocks(cut, Dialect::EditJson, &target, false).expect("reads");
        assert_eq!(
            blocks.body,
            format!("{SEARCH}def total(items):\n    s = 0\n    ret")
        );
        let options = crate::engine::Options {
            version: crate::engine::Version::V1,
            is_final: false,
        };
        let said = crate::diagnose::diagnose(&blocks.body, file, options);
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(said[0].reason, Some(crate::diagnose::Reason::PartialLine));
        assert!(!said[0].risky, "{:?}", said[0]);
    }

    /// `msgs.py` of a tester's find: a CRLF file (with `crlf`) of 37 lines.
    fn messages(crlf: bool) -> String {
        let mut lines = vec!["\"\"\"Price messages.\"\"\"".to_string(), String::new()];
        lines.push("MESSAGES = {".into());
        lines.extend((0..30).map(|i| format!("    \"k{i}\": \"message number {i}\",")));
        lines.extend(
            ["}", "", "def greet(name):", "    return f\"Hello, {name}\""].map(String::from),
        );
        let end = if crlf { "\r\n" } else { "\n" };
        lines.iter().map(|l| format!("{l}{end}")).collect()
    }

    /// What `body` gives over `original` by the engine, every block exact.
    fn applied(body: &str, original: &str) -> String {
        exact_result(body, original)
            .unwrap_or_else(|| panic!("not every block applies exactly: {body}"))
    }

    /// A tester's find: an edit of one line of a CRLF file was shown as a
    /// rewrite of all 37 lines (its blocks had LF lines, which do not give
    /// the CRLF result, so the whole file was shown). Its block is now the
    /// one line, with its `\r\n`, and still gives the edit's result byte
    /// for byte; the same for an agent's matcher (Gemini CLI, which reads
    /// the file as LF).
    #[test]
    fn an_edit_of_a_crlf_file_is_shown_at_its_line() {
        let name = "msgs.py";
        let old = "    \"k5\": \"message number 5\",\n";
        let new = "    \"k5\": \"message number five\",\n";
        for crlf in [false, true] {
            let file = messages(crlf);
            let target = target_in_w(name, &file);
            let end = if crlf { "\r\n" } else { "\n" };
            let expected = format!(
                "{SEARCH}    \"k5\": \"message number 5\",{end}{SEPARATOR}    \"k5\": \"message number five\",{end}{REPLACE_END}"
            );
            let after = file.replace("message number 5\"", "message number five\"");
            let claude =
                crate::source::agent::EditInput::Exact(crate::dialect::edit::Edit::ClaudeEdit {
                    file_path: format!("/w/{name}"),
                    old_string: old.into(),
                    new_string: new.into(),
                    replace_all: false,
                });
            let gemini = crate::source::agent::EditInput::Call(crate::source::agent::CallInput {
                dialect: "gemini-replace",
                input: serde_json::json!({"file_path": format!("/w/{name}"), "instruction": "", "old_string": old, "new_string": new}),
                path: format!("/w/{name}"),
            });
            for input in [claude, gemini] {
                let blocks = input_blocks(&input, &target, true).expect("blocks");
                assert_eq!(blocks.body, expected, "crlf {crlf}: {input:?}");
                assert_eq!(applied(&blocks.body, &file), after, "crlf {crlf}");
            }
        }
    }

    /// A tester's find (round 44, T-15): an edit whose new text lacks its
    /// old text's final newline (line 6 joined onto line 5) was shown as
    /// the whole file rewritten, every line marked. Its block is now the
    /// two lines it changes and the one written there, and gives the
    /// result byte for byte.
    #[test]
    fn an_edit_joining_a_line_is_shown_at_the_lines_it_changes() {
        let file: String = (1..=8).map(|n| format!("L{n} = {n}\n")).collect();
        let target = target_in_w("m.py", &file);
        let edit = crate::source::agent::EditInput::Exact(crate::dialect::edit::Edit::ClaudeEdit {
            file_path: "/w/m.py".into(),
            old_string: "L5 = 5\n".into(),
            new_string: "L5 = 50".into(),
            replace_all: false,
        });
        let blocks = input_blocks(&edit, &target, true).expect("blocks");
        assert_eq!(
            blocks.body,
            format!("{SEARCH}L5 = 5\nL6 = 6\n{SEPARATOR}L5 = 50L6 = 6\n{REPLACE_END}")
        );
        assert_eq!(
            applied(&blocks.body, &file),
            file.replacen("L5 = 5\n", "L5 = 50", 1)
        );
    }

    /// A tester's find: Gemini CLI's `regex` stage places an edit at lines
    /// 7-9 (its match ends mid-line, before the line's end), and the pane
    /// showed the whole file rewritten. Its block is now the lines it
    /// replaces and the lines written there, named by its stage, and gives
    /// Gemini CLI's result byte for byte: 7-9 -> 7-12, the five lines of
    /// the new text and the empty line Gemini CLI leaves after them (the
    /// new text's final newline written before the matched line's own).
    #[test]
    fn a_regex_stage_edit_is_shown_at_the_lines_it_replaces() {
        let file = "class Cart:\n    def __init__(self):\n        self.items = []\n\n    def total(self):\n        total = 0\n        for item in self.items:\n            if item.qty > 0:\n                total += item.qty * item.price\n        return total\n\n    def count(self):\n        return len(self.items)\n";
        let target = target_in_w("shop.py", file);
        let input = serde_json::json!({"file_path": "/w/shop.py", "instruction": "skip", "old_string": "  for item in self.items:\n    if item.qty > 0:\n      total += item.qty * item.price\n", "new_string": "  for item in self.items:\n    if item.qty > 0:\n      total += item.qty * item.price\n    else:\n      skipped += 1\n"});
        let run = crate::dialect::registry::run_on_file(
            "gemini-replace",
            &input,
            "/w/shop.py",
            Some(file),
            "/w",
        )
        .expect("a matcher");
        assert_eq!(run.outcome.stage.as_deref(), Some("regex"));
        let after = run.written().flatten().expect("written").to_string();
        let call = crate::source::agent::EditInput::Call(crate::source::agent::CallInput {
            dialect: "gemini-replace",
            input,
            path: "/w/shop.py".into(),
        });
        let blocks = input_blocks(&call, &target, true).expect("blocks");
        let (lines, written): (Vec<&str>, Vec<&str>) = (
            file.split_inclusive('\n').collect(),
            after.split_inclusive('\n').collect(),
        );
        assert_eq!(
            blocks.body,
            format!(
                "{SEARCH}{}{SEPARATOR}{}{REPLACE_END}",
                lines[6..9].concat(),
                written[6..12].concat()
            )
        );
        assert_eq!(written[11], "\n");
        assert_eq!(blocks.levels, vec![Some("regex".to_string())]);
        assert_eq!(applied(&blocks.body, file), after);
    }
}
