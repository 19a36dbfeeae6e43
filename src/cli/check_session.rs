//! `srview check --session PATH`: every failed edit of an agent session
//! (failed by the agent, or by srview's applier) explained against its
//! content before: SEARCH/REPLACE blocks by the diagnosis `check` gives,
//! Edit/editor inputs by `dialect::edit`'s, apply_patch hunks by
//! `diagnose_hunks`; and every edit that matched only loosely or where
//! srview and the agent disagree. Exit 1 when any edit failed.

use std::io::Write;
use std::path::Path;

use super::CmdResult;
use crate::diagnose;
use crate::dialect::edit;
use crate::dialect::udiff;
use crate::engine::{Options, Version};
use crate::error::Error;
use crate::sessions::recover::SessionRoot;
use crate::sessions::review::{Basis, Review, SessionReview};
use crate::sessions::verdict;
use crate::source::agent::{AgentKind, EditInput, FileContent};

pub fn run(path: &Path, cwd: Option<&Path>) -> CmdResult {
    let (reviewed, ws) = super::session::load_review(path, cwd)?;
    let text = explain_all(&reviewed, &ws);
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes()).map_err(Error::stdout)?;
    stdout.flush().map_err(Error::stdout)?;
    Ok(u8::from(reviewed.reviews.iter().any(Review::is_failed)))
}

/// The report: a summary line, then each failed edit, and each that
/// matched only loosely or where srview and the agent disagree.
pub fn explain_all(reviewed: &SessionReview, ws: &SessionRoot) -> String {
    let agent = reviewed.agent.display_name();
    let failed = reviewed.reviews.iter().filter(|r| r.is_failed()).count();
    let doubtful = |r: &&Review| r.is_loose() || r.disagreement.is_some();
    let loose = reviewed
        .reviews
        .iter()
        .filter(|r| !r.is_failed() && doubtful(r))
        .count();
    // Not judged (srview did not run it): said, never taken as fine.
    let unknown: Vec<&Review> = reviewed
        .reviews
        .iter()
        .filter(|r| !r.is_failed() && !doubtful(r) && r.applied().is_none())
        .collect();
    let mut out = format!(
        "{agent} {}: {} edit{}, {failed} failed{}{}\n",
        reviewed.version.as_deref().unwrap_or("(version not named)"),
        reviewed.reviews.len(),
        if reviewed.reviews.len() == 1 { "" } else { "s" },
        if loose > 0 {
            format!(", {loose} loose or in disagreement")
        } else {
            String::new()
        },
        if unknown.is_empty() {
            String::new()
        } else {
            format!(", {} not judged", unknown.len())
        }
    );
    for r in &unknown {
        out.push_str(&format!(
            "\nedit {} · {} · {}: not judged: {}\n",
            r.edit.seq,
            r.edit.file,
            r.edit.tool.name(),
            r.why().unwrap_or("srview did not run it")
        ));
    }
    for r in reviewed
        .reviews
        .iter()
        .filter(|r| r.is_failed() || doubtful(r) || !r.notices.is_empty())
    {
        out.push('\n');
        out.push_str(&explain(r, reviewed.agent, ws, &reviewed.cwd));
    }
    out
}

fn explain(r: &Review, kind: AgentKind, ws: &SessionRoot, cwd: &str) -> String {
    let agent = kind.display_name();
    let e = &r.edit;
    let mut s = format!(
        "edit {} · {} · {} · {agent}: {}\n",
        e.seq,
        e.file,
        e.tool.name(),
        e.agent_verdict.name()
    );
    if let Some(m) = &e.agent_message {
        s.push_str(&format!("  {agent} said:\n"));
        // The agent's words, up to a screenful (Cline quotes whole files).
        const SHOWN: usize = 12;
        for line in m.lines().take(SHOWN) {
            s.push_str(&format!("  | {line}\n"));
        }
        let more = m.lines().count().saturating_sub(SHOWN);
        if more > 0 {
            s.push_str(&format!("  | ... ({more} more lines)\n"));
        }
    }
    s.push_str(&super::session::review_notes(r, "  "));
    // The content to explain against: the content before, else the file
    // as it is now (said so).
    let (content, against) = match (&r.before, r.basis) {
        (Some(c), Some(b)) => (c.clone(), basis_words(b).to_string()),
        (Some(c), None) => (c.clone(), "the content before".to_string()),
        (None, _) => match ws.current(&e.file) {
            Some(FileContent::Text(t)) => (
                FileContent::Text(t),
                "the file as it is now (the content before is unknown; it may differ)".to_string(),
            ),
            _ => {
                s.push_str(&format!(
                    "  srview cannot explain it: {}\n",
                    r.why().unwrap_or("the content before is unknown")
                ));
                return s;
            }
        },
    };
    s.push_str(&format!("  srview, against {against}:\n"));
    // Run as the review ran it: the agent's own matcher where its table
    // row names one (Cline CLI's apply_patch), not Codex's rules.
    let body = match e.runs_as(kind).as_ref() {
        EditInput::SearchReplace(diff) => search_replace(diff, &content, &e.file),
        EditInput::UnifiedDiff(diff) => match udiff::to_search_replace(diff) {
            Some(blocks) => search_replace(&blocks, &content, &e.file),
            None => "the unified diff has no hunk\n".to_string(),
        },
        EditInput::Exact(edit) => {
            let out = edit::apply(edit, content.text());
            match (&out.result, &out.diagnosis) {
                (Ok(_), _) => "the edit applies\n".to_string(),
                // The correction in the edit's own form: the tool's JSON
                // with the file's own text to find.
                (Err(err), Some(d)) => match d
                    .suggestion
                    .as_ref()
                    .and_then(|e| serde_json::to_string(e).ok())
                {
                    Some(json) => format!(
                        "error: {err}\n{}\ncorrected edit (the tool's JSON):\n{json}\n",
                        d.message
                    ),
                    None => format!("error: {err}\n{}\n", d.message),
                },
                (Err(err), None) => format!("error: {err}\n"),
            }
        }
        EditInput::ApplyPatch(_) => apply_patch(r, &content, cwd),
        EditInput::Whole(_) => "a whole new content: nothing to match\n".to_string(),
        EditInput::Call(call) => agent_call(call, &content, cwd),
        EditInput::NotRecorded | EditInput::Partial(_) => format!(
            "{}\n",
            verdict::not_runnable(&e.input).unwrap_or("the edit is not recorded")
        ),
    };
    for line in body.lines() {
        s.push_str(&format!("    {line}\n"));
    }
    s
}

fn basis_words(b: Basis) -> &'static str {
    match b {
        Basis::Recorded => "the content before as the agent recorded it",
        Basis::Derived => "the content before derived from the agent's record",
        Basis::Chained => "the content an earlier edit of the session left",
        Basis::ReverseDiff => "the content before (the agent's diffs undone on the current file)",
        Basis::GitCheckpoint => "the content before from the session's git checkpoint",
        Basis::GitHistory => "the content before from the agent's git commits",
        Basis::OnDisk => "the file as it is now (no later edit of the session wrote it)",
        Basis::CurrentFile => "the file as it is now (the content before is unknown)",
        Basis::NotNeeded => "no content (the edit does not depend on it)",
        Basis::LiveFile => "the file on disk before the agent wrote it",
    }
}

fn search_replace(diff: &str, content: &FileContent, file: &str) -> String {
    let original = content.text().unwrap_or("");
    let options = Options {
        version: Version::V1,
        is_final: true,
    };
    // One index of the original serves the engine and the diagnosis.
    let index = crate::engine::matcher::LineIndex::new(original);
    let outcome = crate::engine::apply_indexed(diff, &index, options);
    let blocks = diagnose::diagnose_indexed(diff, &index, options, &outcome);
    super::check::render(
        file,
        &blocks,
        super::check::verdict(&outcome, &blocks, &[]),
        &[],
        false,
    )
}

/// apply_patch: the applier's error, then each failed or loose hunk's
/// diagnosis (`diagnose_hunks`: reason, closest region, the hunk's old
/// lines against it, a corrected hunk when one can be stood behind).
fn apply_patch(r: &Review, content: &FileContent, cwd: &str) -> String {
    use crate::dialect::apply_patch::{self, MemoryFs, diagnose_hunks, parse};
    let EditInput::ApplyPatch(text) = &r.edit.input else {
        return String::new();
    };
    let patch = match parse(text) {
        Ok(p) => p,
        Err(e) => return format!("error: {e}\n"),
    };
    let path = crate::source::agent::split_patch(text)
        .into_iter()
        .next()
        .map(|s| s.path)
        .unwrap_or_default();
    let fs = MemoryFs::new(match content {
        FileContent::Text(t) => vec![(path, t.clone())],
        FileContent::Absent => Vec::new(),
    });
    let outcome = apply_patch::apply(&patch, &fs, cwd);
    let mut s = match &outcome.error {
        Some(err) => format!("error: {err}\n"),
        None => "the patch applies\n".to_string(),
    };
    for d in diagnose_hunks(&patch, &outcome, &fs, cwd) {
        s.push_str(&format!(
            "hunk {} (patch lines {}-{}): {}\n",
            d.index + 1,
            d.patch_lines[0],
            d.patch_lines[1],
            d.message
        ));
        for l in &d.line_diff {
            s.push_str(&format!("  | {} {}\n", l.tag.sign(), l.text));
        }
        if !d.line_diff.is_empty() {
            s.push_str("  = - the hunk's old lines, + file\n");
        }
        match (&d.suggestion, &d.withheld) {
            (Some(chunk), _) => {
                s.push_str("  corrected hunk:\n");
                match &chunk.context {
                    Some(c) => s.push_str(&format!("  @@ {c}\n")),
                    None => s.push_str("  @@\n"),
                }
                for line in &chunk.lines {
                    s.push_str(&format!("  {}{}\n", line.kind.prefix(), line.text));
                }
            }
            (None, Some(why)) => s.push_str(&format!("  no corrected hunk: {why}\n")),
            (None, None) => {}
        }
    }
    s
}

/// An edit its agent's own matcher runs: the agent's error (as the model
/// read it), and the stage of each edit, the loose ones said as such.
fn agent_call(call: &crate::source::agent::CallInput, content: &FileContent, cwd: &str) -> String {
    let Some(applied) = verdict::run(&EditInput::Call(call.clone()), content, cwd, None) else {
        return "the edit cannot be run\n".to_string();
    };
    let mut s = match applied.error() {
        Some(err) => format!("error: {err}\n"),
        None => "the edit applies\n".to_string(),
    };
    for (i, block) in applied.blocks.iter().enumerate() {
        if let verdict::VerdictBlock::Call(edit) = block {
            let place = edit
                .lines
                .map(|(first, last)| format!(" at lines {first}-{last}"))
                .unwrap_or_default();
            let how = if edit.loose {
                ": a loose stage, the text it replaced is not the text the model wrote"
            } else {
                ""
            };
            s.push_str(&format!("edit {}: {}{place}{how}\n", i + 1, edit.stage));
        }
    }
    s
}
