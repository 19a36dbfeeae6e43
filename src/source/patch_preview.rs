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
    /// The reference's outcome over the text so far.
    pub outcome: PatchOutcome,
}

/// What the previewer does not do for a section, and where to do it.
const DELETE_REFUSAL: &str = "the patch deletes or moves this file: the previewer writes no deletion; \
     `srview apply --transcript PATCH --cwd DIR --write` applies the whole patch";

/// Reads `text` (a prefix when `ended` is false) over `fs` as the reference
/// would in `cwd`.
pub fn preview(text: &str, fs: &dyn PatchFs, cwd: &str, ended: bool) -> PatchPreview {
    let mut partial = parse_partial(text);
    if ended {
        partial.last_unfinished = false;
    }
    let outcome = apply_partial(&partial, fs, cwd);
    let mut preview = PatchPreview {
        calls: Vec::new(),
        refused: Vec::new(),
        failed: Vec::new(),
        loose: Vec::new(),
        outcome: outcome.clone(),
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
                let body = update_blocks(&original, chunks, &report.hunks, streaming);
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
    if ended && outcome.exit_code == 0 {
        for call in &mut preview.calls {
            verify(call, fs, &outcome, &mut preview.failed);
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
        failed.push((
            call.path.clone(),
            "the previewer cannot show this file's edit as blocks that give the reference's \
             result; `srview apply --transcript PATCH --json` shows it"
                .to_string(),
        ));
    }
}

const SEARCH: &str = "------- SEARCH\n";
const SEPARATOR: &str = "=======\n";
const REPLACE_END: &str = "+++++++ REPLACE\n";

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

/// The blocks of an Update section: one per hunk.
fn update_blocks(
    original: &str,
    chunks: &[Chunk],
    hunks: &[HunkReport],
    streaming: bool,
) -> String {
    let lines = file_lines(original);
    let mut body = String::new();
    // 0-based line after the previous block.
    let mut after = 0;
    for (n, (chunk, hunk)) in chunks.iter().zip(hunks).enumerate() {
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
            push_lines(&mut body, &old);
            if still_coming {
                return body;
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
            return body;
        }
        body.push_str(REPLACE_END);
        after = end;
    }
    body
}
