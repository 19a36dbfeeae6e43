//! A patch back to text, and a patch whose loosely matched lines are
//! rewritten as the file has them, so that every hunk matches at level
//! `exact` (what `srview fix` offers for a loose apply_patch).

use super::model::{Chunk, LineKind, Patch, Section};
use super::outcome::{LooseLine, PatchOutcome};

/// The patch text of `patch`: `parse(render(p))` gives `p` back (line
/// numbers aside), every chunk with an `@@` line, every context line with
/// its space.
pub fn render(patch: &Patch) -> String {
    let mut text = String::from("*** Begin Patch\n");
    for section in &patch.sections {
        match section {
            Section::Add { path, content, .. } => {
                text.push_str(&format!("*** Add File: {path}\n"));
                for line in content.split_terminator('\n') {
                    push_line(&mut text, '+', line);
                }
            }
            Section::Delete { path, .. } => text.push_str(&format!("*** Delete File: {path}\n")),
            Section::Update {
                path,
                move_to,
                chunks,
                ..
            } => {
                text.push_str(&format!("*** Update File: {path}\n"));
                if let Some(destination) = move_to {
                    text.push_str(&format!("*** Move to: {destination}\n"));
                }
                for chunk in chunks {
                    render_chunk(&mut text, chunk);
                }
            }
        }
    }
    text.push_str("*** End Patch\n");
    text
}

fn render_chunk(text: &mut String, chunk: &Chunk) {
    match &chunk.context {
        Some(context) => text.push_str(&format!("@@ {context}\n")),
        None => text.push_str("@@\n"),
    }
    for line in &chunk.lines {
        push_line(text, line.kind.prefix(), &line.text);
    }
    if chunk.is_eof {
        text.push_str("*** End of File\n");
    }
}

/// One patch line. The parser drops a `\r` before the line break and one
/// more trailing `\r`: a text ending in `\r` needs two more to survive.
fn push_line(text: &mut String, prefix: char, line: &str) {
    text.push(prefix);
    text.push_str(line);
    if line.ends_with('\r') {
        text.push_str("\r\r");
    }
    text.push('\n');
}

/// `patch` with the context and removed lines (and `@@` lines) that
/// matched loosely in `outcome` replaced by the file's own text, so that
/// they match at level `exact`, at the same places, with the same result.
/// Hunks that did not match are left as they are. An `@@` line whose file
/// line ends in white space cannot be written exactly (the parser trims
/// it) and is left as it is.
pub fn tighten(patch: &Patch, outcome: &PatchOutcome) -> Patch {
    let mut tightened = patch.clone();
    for (section, report) in tightened.sections.iter_mut().zip(&outcome.sections) {
        let Section::Update { chunks, .. } = section else {
            continue;
        };
        for (chunk, hunk) in chunks.iter_mut().zip(&report.hunks) {
            if let (Some(context), Some(header)) = (&mut chunk.context, &hunk.header)
                && let Some(loose) = &header.differing
                && loose.file.trim_end() == loose.file
            {
                *context = loose.file.clone();
            }
            let Some(matched) = hunk.matched else {
                continue;
            };
            let mut old_lines: Vec<&mut String> = chunk
                .lines
                .iter_mut()
                .filter(|l| l.kind != LineKind::Added)
                .map(|l| &mut l.text)
                .collect();
            for loose in &hunk.differing {
                if let Some(text) = loose
                    .line
                    .checked_sub(matched.start_line)
                    .and_then(|i| old_lines.get_mut(i))
                {
                    **text = loose.file.clone();
                }
            }
        }
    }
    tightened
}

/// The added lines of `chunk` that rewrite a removed line the file has in
/// another form (`file_of(i)`: the file's text of the chunk's `i`-th old
/// line, where it differs from it) keep the file's form where the model
/// kept the text ([`crate::diagnose::carry_form`]: the file's en dash for
/// the model's hyphen, a TSV row's tabs). An added line whose change meets
/// that form stays as the model wrote it; `false` when one did.
pub(super) fn carry_forms<'f>(
    chunk: &mut Chunk,
    file_of: impl Fn(usize) -> Option<&'f str>,
) -> bool {
    use crate::diagnose;
    let old: Vec<String> = chunk.old_lines().into_iter().map(str::to_string).collect();
    let new: Vec<String> = chunk.new_lines().into_iter().map(str::to_string).collect();
    let ops = crate::textdiff::ops(&old, &new, None);
    let rewrites = diagnose::rewritten_from(&ops, |i, k| diagnose::line_likeness(&old[i], &new[k]));
    let bare = |l: &str| l.trim_end_matches('\r').to_string();
    let mut all_carried = true;
    let added = chunk.new_side_mut();
    for (line, rewrite) in added.zip(rewrites) {
        let Some((i, file)) = rewrite
            .filter(|_| line.kind == LineKind::Added)
            .and_then(|i| Some((i, file_of(i)?)))
        else {
            continue;
        };
        let (o, r) = (bare(&old[i]), bare(file));
        if o == r || diagnose::differs_in_content(&o, &r) {
            continue;
        }
        match diagnose::carry_form(&o, &r, &bare(&line.text)) {
            Ok(carried) => {
                let cr = if line.text.ends_with('\r') { "\r" } else { "" };
                line.text = carried + cr;
            }
            Err(_) => all_carried = false,
        }
    }
    all_carried
}

/// [`carry_forms`] for a hunk matched loosely from file line `start`:
/// the file's text of each loosely matched old line (`differing`).
pub(super) fn carry_loose_forms(chunk: &mut Chunk, start: usize, differing: &[LooseLine]) {
    carry_forms(chunk, |i| {
        differing
            .iter()
            .find(|loose| loose.line.checked_sub(start) == Some(i))
            .map(|loose| loose.file.as_str())
    });
}
