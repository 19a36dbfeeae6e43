//! An apply_patch text as a transcript: applied over the working folder as
//! Codex 0.169.0 applies it (its summary, its error texts with absolute
//! paths), with the transcripts' path rules, and written all or nothing.
//!
//! Where the reference fails after earlier sections already changed files,
//! it leaves them changed; srview writes nothing at all then.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::dialect::apply_patch::fs::{RecordingFs, normalize};
use crate::dialect::apply_patch::{
    DirFs, Entry, HunkReport, MatchLevel, PatchFs, PatchOutcome, SectionReport, apply, parse,
};
use crate::output;
use crate::source::transcript::{PathError, PathRules, WriteError};

/// A patch applied over a folder, not yet written.
#[derive(Debug, Clone)]
pub struct PatchRun {
    /// The absolute folder the reference would have run in.
    pub cwd: PathBuf,
    /// The reference's result over that folder.
    pub outcome: PatchOutcome,
    /// What each path read held when the patch was applied.
    seen: BTreeMap<String, Entry>,
}

/// Applies `text` over the workspace's folder. Every path a section names
/// (its `Move to:` included) must pass the workspace's rules first; a patch
/// the reference cannot parse fails as the reference fails.
pub fn run(text: &str, workspace: &PathRules) -> Result<PatchRun, PathError> {
    let cwd = workspace.cwd.canonicalize().map_err(|e| {
        PathError(format!(
            "cannot resolve the working folder {}: {e}",
            workspace.cwd.display()
        ))
    })?;
    let cwd_text = cwd.to_string_lossy().into_owned();
    let fs = RecordingFs::new(cwd.clone());
    let outcome = match parse(text) {
        Ok(patch) => {
            for section in &patch.sections {
                workspace.resolve(section.path())?;
                if let crate::dialect::apply_patch::Section::Update {
                    move_to: Some(to), ..
                } = section
                {
                    workspace.resolve(to)?;
                }
            }
            apply(&patch, &fs, &cwd_text)
        }
        Err(_) => crate::dialect::apply_patch::apply_text(text, &fs, &cwd_text),
    };
    Ok(PatchRun {
        cwd,
        outcome,
        seen: fs.into_seen(),
    })
}

/// What srview cannot stand behind in writing a run the reference applies:
/// a `*** Move to:` that names the file itself (the reference writes the
/// file, then deletes it: its content is lost). One reason each; a move onto
/// another file that exists is one of [`doubts`].
pub fn write_doubts(run: &PatchRun, workspace: &PathRules) -> Vec<String> {
    let mut doubts = Vec::new();
    for section in &run.outcome.sections {
        let Some(to) = &section.move_to else {
            continue;
        };
        let (from, to_path) = (workspace.resolve(&section.path), workspace.resolve(to));
        let same = match (&from, &to_path) {
            (Ok(a), Ok(b)) => a == b || normalize(&section.path) == normalize(to),
            _ => normalize(&section.path) == normalize(to),
        };
        if same {
            doubts.push(format!(
                "{} is moved onto itself: the reference writes it, then deletes it (the file \
                 is lost)",
                section.path
            ));
        }
    }
    doubts
}

/// Why srview cannot stand behind writing `run`, the result of `text`
/// (see [`patch_doubts`](crate::dialect::apply_patch::patch_doubts)): one
/// sentence each; empty for a patch that does not parse.
pub fn doubts(text: &str, run: &PatchRun) -> Vec<String> {
    let Ok(patch) = parse(text) else {
        return Vec::new();
    };
    let fs = DirFs {
        root: run.cwd.clone(),
    };
    let cwd = run.cwd.to_string_lossy();
    use crate::dialect::apply_patch::{loose_layout_doubts, patch_doubts};
    // What a loose hunk's result does to its file: said with `--force` too.
    patch_doubts(&patch, &run.outcome, &fs, &cwd)
        .into_iter()
        .chain(loose_layout_doubts(&patch, &run.outcome, &fs, &cwd))
        // Said by [`write_doubts`], with the workspace's path rules.
        .filter(|d| d.kind != crate::dialect::apply_patch::PatchDoubtKind::MovesOntoItself)
        .map(|d| d.message)
        .collect()
}

/// One warning line per hunk that matched loosely (its context header or
/// its lines): the reference says nothing, srview always does.
pub fn loose_warnings(outcome: &PatchOutcome) -> Vec<String> {
    outcome
        .loose_hunks()
        .map(|(section, hunk)| loose_warning(section, hunk))
        .collect()
}

/// Why writing a patch with loose hunks asks first: one sentence per hunk
/// that matched only loosely (its lines, or an `@@` line standing at more
/// than one place), for `apply --write` to hold back and `check` to exit 1
/// on, as for every agent's loose stage (a tester's find, 43a-18: a Codex
/// hunk matched at level `unicode` rewrote the file's curly quotes and was
/// written with a warning only, while the same patch read as OpenCode's was
/// held back).
pub fn loose_holds(outcome: &PatchOutcome) -> Vec<String> {
    outcome
        .loose_hunks()
        .map(|(section, hunk)| {
            let level = hunk
                .level
                .filter(|l| l.is_loose())
                .or(hunk.header.as_ref().map(|h| h.level))
                .unwrap_or(MatchLevel::Exact);
            // Which lines, here: the reason is read alone (`--json`'s
            // `write.reasons`, the previewer's question), not beside the
            // warning (it said "(the warning says which)").
            format!(
                "hunk {} of {} matched the file only at level {}: Codex would replace lines \
                 of the file that are not the patch's ({})",
                hunk.index + 1,
                section.path,
                level.name(),
                differing_lines(hunk)
            )
        })
        .collect()
}

/// The lines of the file a loose hunk matched that differ from the
/// patch's (its `@@` line's first), the first said, the others counted:
/// `line 2 is "x" where the patch has "y", and 2 more lines`.
fn differing_lines(hunk: &HunkReport) -> String {
    let mut differing: Vec<String> = hunk
        .header
        .iter()
        .filter_map(|h| h.differing.as_ref())
        .chain(hunk.differing.iter())
        .map(|d| {
            format!(
                "line {} is {:?} where the patch has {:?}",
                d.line, d.file, d.patch
            )
        })
        .collect();
    if differing.is_empty() {
        return "its lines differ from the file's at that level".to_string();
    }
    let more = differing.len().saturating_sub(1);
    differing.truncate(1);
    if more > 0 {
        differing.push(format!("and {} more", crate::words::count(more, "line")));
    }
    differing.join(", ")
}

/// The warning for one loose hunk of `section`.
pub fn loose_warning(section: &SectionReport, hunk: &HunkReport) -> String {
    let level = hunk
        .level
        .into_iter()
        .chain(hunk.header.as_ref().map(|h| h.level))
        .max()
        .unwrap_or(MatchLevel::Exact);
    format!(
        "srview: warning: {} hunk {} (patch lines {}-{}) matched only at level {}: {}",
        section.path,
        hunk.index + 1,
        hunk.patch_lines[0],
        hunk.patch_lines[1],
        level.name(),
        differing_lines(hunk)
    )
}

/// Writes a successful run's files (deleting those it removes) and returns
/// the paths changed. Nothing is written when the patch failed, or when a
/// file it read no longer holds what it held; only a failure of the writes
/// themselves can leave some done, and the error says which.
pub fn write(workspace: &PathRules, run: &PatchRun) -> Result<Vec<String>, WriteError> {
    let targets = plan(workspace, run)?;
    let changes: Vec<output::Change> = targets
        .iter()
        .map(|(full, path, content)| output::Change {
            path: full.clone(),
            content: content.as_deref().map(str::as_bytes),
            expected: match run.seen.get(*path) {
                Some(Entry::File(old)) => Some(old.as_bytes()),
                Some(Entry::Missing) => Some(&[]),
                _ => None,
            },
        })
        .collect();
    let done = output::write_batch(&changes).map_err(|e| {
        let name = targets
            .iter()
            .find(|(full, _, _)| *full == e.path)
            .map_or_else(|| e.path.display().to_string(), |(_, p, _)| p.to_string());
        WriteError::from(format!("{name}: {}", e.message))
    })?;
    Ok(targets
        .iter()
        .filter(|(full, _, _)| done.contains(full))
        .map(|(_, path, _)| normalize(path))
        .collect())
}

/// Whether [`write`] would write: the patch applies, every file it read
/// still holds what it held, and none it changes is read-only. Asked before
/// anything else about a write (a doubt held back is not said over a write
/// that could not happen).
pub fn preflight(workspace: &PathRules, run: &PatchRun) -> Result<(), WriteError> {
    plan(workspace, run).map(drop)
}

/// The full paths of the files [`write`] would change (none where it would
/// write nothing).
pub fn targets(workspace: &PathRules, run: &PatchRun) -> Vec<PathBuf> {
    plan(workspace, run)
        .map(|planned| planned.into_iter().map(|(full, _, _)| full).collect())
        .unwrap_or_default()
}

/// One file [`write`] changes: its full path, its path as the patch names
/// it, its new content (`None`: deleted).
type Planned<'r> = (PathBuf, &'r str, &'r Option<String>);

/// The files [`write`] changes, once every check before writing passed.
fn plan<'r>(workspace: &PathRules, run: &'r PatchRun) -> Result<Vec<Planned<'r>>, WriteError> {
    if run.outcome.exit_code != 0 {
        return Err(format!(
            "nothing written: the patch does not apply ({})",
            run.outcome.stderr.trim_end()
        )
        .into());
    }
    let dir = DirFs {
        root: run.cwd.clone(),
    };
    let mut targets: Vec<(PathBuf, &str, &Option<String>)> = Vec::new();
    for (path, content) in &run.outcome.files {
        // A path the patch never read (an added file) is overwritten as
        // the reference overwrites it.
        let seen = run.seen.get(path);
        if let Some(seen) = seen
            && dir.read(path) != *seen
        {
            return Err(WriteError {
                message: format!("nothing written: {path} changed on disk since it was read"),
                changed_on_disk: true,
            });
        }
        let unchanged = match (seen, content) {
            (Some(Entry::File(old)), Some(new)) => old == new,
            (Some(Entry::Missing), None) => true,
            _ => false,
        };
        if !unchanged {
            targets.push((workspace.resolve(path)?, path.as_str(), content));
        }
    }
    // All or nothing: a file the writes may not replace or delete stops
    // the whole patch before any file is changed.
    for (full, path, _) in &targets {
        if let Err(e) = output::preflight(full) {
            return Err(format!("nothing written: {path}: {}", e.message).into());
        }
    }
    Ok(targets)
}
