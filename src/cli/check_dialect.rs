//! `srview check` and `srview fix` when DIFF is an apply_patch or an edit's
//! JSON. `check` explains each block (an edit) or hunk: where it matched
//! and how loosely, or the agent's error with its diagnosis. `fix` prints
//! the diff corrected: a patch whose loose lines read as the file has them
//! (every hunk then matches at level `exact`), an edit whose text to find is
//! the file's own.

use super::load::OtherDialect;
use std::io::Write;
use std::path::Path;

use super::apply_dialect::{place, refuse_another_file, run_edit, run_patch};
use super::{CheckArgs, CmdResult, FixArgs};
use crate::dialect::Dialect;
use crate::dialect::apply_patch::{HunkReport, HunkState, PatchDoubt, PatchOutcome, render};
use crate::dialect::edit::{Edit, EditOutcome};
use crate::dialect::one_file;
use crate::error::Error;
use crate::gate::exact_correct::{self, ExactCorrection};

/// One line per hunk: where it matched and at what level, or why not.
fn hunk_lines(file: &str, outcome: &PatchOutcome) -> String {
    let mut s = String::new();
    for section in &outcome.sections {
        for hunk in &section.hunks {
            s.push_str(&hunk_line(file, hunk));
        }
    }
    // The reference's error, unless a failed hunk's line said it already.
    let said = outcome
        .sections
        .iter()
        .flat_map(|section| &section.hunks)
        .filter_map(|h| h.error.as_deref())
        .any(|e| e.trim_end() == outcome.stderr.trim_end());
    if outcome.exit_code != 0 && !said {
        s.push_str(&format!("reference: {}", outcome.stderr));
    }
    s
}

fn hunk_line(file: &str, hunk: &HunkReport) -> String {
    let [first, last] = hunk.patch_lines;
    let head = format!(
        "{file}: hunk #{} (patch lines {first}-{last})",
        hunk.index + 1
    );
    match hunk.state {
        HunkState::Applied => {
            let level = hunk.level.map_or("exact (a pure addition)", |l| l.name());
            let at = hunk
                .matched
                .map(|m| format!(" at lines {}-{}", m.start_line, m.end_line))
                .unwrap_or_default();
            let mut s = format!("{head}: applies{at}, level {level}\n");
            for d in hunk
                .header
                .iter()
                .filter_map(|h| h.differing.as_ref())
                .chain(&hunk.differing)
            {
                s.push_str(&format!(
                    "    line {}: file {:?}\n             patch {:?}\n",
                    d.line, d.file, d.patch
                ));
            }
            s
        }
        HunkState::Failed => format!(
            "{head}: fails: {}\n",
            hunk.error.as_deref().unwrap_or("does not apply")
        ),
        HunkState::NotRun | HunkState::Streaming => format!("{head}: not run\n"),
    }
}

/// `decision`: the gate's on an exact-string edit
/// ([`crate::dialect::corrected::exact_string_correction`]), which the
/// diagnosis's message is said beside.
fn edit_lines(file: &str, outcome: &EditOutcome, decision: Option<&ExactCorrection>) -> String {
    match (&outcome.result, &outcome.diagnosis) {
        (Ok(done), _) => format!(
            "{file}: block #1 ({}): applies, stage exact, {}\n",
            outcome.tool.name(),
            crate::words::count(done.occurrences, "occurrence")
        ),
        (Err(e), diagnosis) => {
            let mut s = format!("{file}: block #1 ({}): fails: {e}\n", outcome.tool.name());
            if let Some(d) = diagnosis {
                let message = match decision {
                    Some(decision) => exact_correct::said_with(&d.message, decision),
                    None => d.message.clone(),
                };
                s.push_str(&format!("    {message}\n"));
                for line in &d.line_diff {
                    s.push_str(&format!("    {} {}\n", line.tag.name(), line.text));
                }
            }
            s
        }
    }
}

pub fn check(args: &CheckArgs, input: OtherDialect) -> CmdResult {
    let (content, diff, dialect) = (input.content, input.diff.as_str(), input.dialect);
    let file = &args.file;
    let name = file.display().to_string();
    let (text, ok) = match dialect {
        Dialect::ApplyPatch => {
            // Several sections for FILE (the one-file commands take one):
            // judged joined into one, as `fix` prints it and the gate
            // offers it, with what the sections as sent do (session 49's
            // split-sections; it exited 2, pointing to `apply --transcript`).
            let joined = split_sections(file, content.as_deref(), diff)?;
            let (diff, split) = match &joined {
                Some(Ok((text, split))) => (text.as_str(), split.as_slice()),
                Some(Err(why)) => {
                    return check_in_turn(args, content.as_deref(), diff, why);
                }
                None => (diff, &[][..]),
            };
            let outcome = run_patch(file, content.as_deref(), diff, &args.rerun())?;
            // As `apply --write`: a loose hunk or a doubt holds back.
            let ok = outcome.exit_code == 0 && outcome.loose_hunks().next().is_none();
            let place = place(file)?;
            let target = place.target(content.as_deref());
            let refused = |e| super::apply_dialect::refused(&e, &place, &args.rerun());
            let diagnoses = one_file::diagnose_for(diff, &target).map_err(refused)?;
            let mut doubts = one_file::doubts_for(diff, &target).map_err(refused)?;
            doubts.extend(split.iter().cloned());
            let ok = ok && doubts.is_empty();
            let text = if args.json {
                json(&crate::report::PatchCheckReport::new(
                    &outcome, &diagnoses, &doubts,
                ))?
            } else {
                let mut s = String::new();
                if joined.is_some() {
                    s.push_str(&format!(
                        "{name}: note: the patch has several sections for {name}: checked \
                         joined into one section, its hunks in patch order (hunks and patch lines \
                         below are that patch's, as `srview fix` prints it)\n"
                    ));
                }
                s.push_str(&hunk_lines(&name, &outcome));
                for doubt in &doubts {
                    s.push_str(&format!("{name}: warning: {}\n", doubt.message));
                }
                for d in diagnoses.iter().filter(|d| d.state == HunkState::Failed) {
                    s.push_str(&format!("hunk #{}: {}\n", d.index + 1, d.message));
                    for line in &d.line_diff {
                        s.push_str(&format!("    {} {}\n", line.tag.name(), line.text));
                    }
                    if args.suggest
                        && let Some(chunk) = &d.suggestion
                    {
                        s.push_str(&format!(
                            "suggested hunk #{}:\n{}",
                            d.index + 1,
                            render_chunk(chunk)
                        ));
                    }
                }
                s
            };
            (text, ok)
        }
        Dialect::EditJson | Dialect::SearchReplace => {
            let outcome = run_edit(file, content.as_deref(), diff, &args.rerun())?;
            let decision = one_file::parse_edit(diff)
                .and_then(|edit| {
                    crate::dialect::corrected::exact_string_correction(
                        &edit,
                        &outcome,
                        content.as_deref(),
                    )
                })
                .map_err(|e| Error::usage(e.to_string()))?;
            // An edit in doubt applies, but not as it reads.
            let doubts =
                super::apply_dialect::doubts_said(&outcome, content.as_deref().unwrap_or(""));
            let ok = outcome.result.is_ok() && doubts.is_empty();
            let text = if args.json {
                let report = crate::report::EditCheckReport::new(outcome.report(), &doubts);
                // As the text says: an edit that failed, or is in doubt.
                let message = outcome.diagnosis.as_ref().map(|d| d.message.as_str());
                let withheld = decision
                    .as_ref()
                    .and_then(|d| exact_correct::reason_said(message, d));
                let report = match &decision {
                    Some(d) if !ok => report.with_correction(d.input.as_ref(), withheld.as_deref()),
                    _ => report,
                };
                json(&report)?
            } else {
                let mut s = edit_lines(&name, &outcome, decision.as_ref());
                for why in &doubts {
                    s.push_str(&format!("    ! {why}\n"));
                }
                if args.suggest
                    && let Some(edit) = suggested_edit(&outcome, decision.as_ref())?
                {
                    s.push_str(&format!("suggested edit:\n{}\n", edit_json(&edit)?));
                }
                s
            };
            (text, ok)
        }
    };
    print_out(&text)?;
    Ok(if ok { 0 } else { 1 })
}

/// The patch `diff` with its several sections for FILE joined into one
/// ([`joined_for_file`](crate::dialect::apply_patch::sections::joined_for_file)),
/// with the doubts of the sections as sent (a later section's hunk that
/// lands elsewhere than it would in one section,
/// [`split_doubts`](crate::dialect::apply_patch::sections::split_doubts)):
/// `None` when FILE has one section; `Err` says why they are not joined.
#[allow(clippy::type_complexity)]
fn split_sections(
    file: &Path,
    content: Option<&str>,
    diff: &str,
) -> Result<Option<Result<(String, Vec<PatchDoubt>), String>>, Error> {
    use crate::dialect::apply_patch::{self, MemoryFs, fs::normalize, sections};
    let place = place(file)?;
    let content = content.unwrap_or_default();
    let Some(joined) = sections::joined_for_file(diff, &place.name, content, &place.cwd) else {
        return Ok(None);
    };
    let joined = match joined {
        Ok(joined) => joined,
        Err(why) => return Ok(Some(Err(why))),
    };
    let Ok(patch) = apply_patch::parse(diff) else {
        return Ok(Some(Ok((joined, Vec::new()))));
    };
    let names_file = |key: &str| key == place.name || key.ends_with(&format!("/{}", place.name));
    let Some(key) = sections::repeated_updates(&patch)
        .iter()
        .map(|&(i, _)| normalize(patch.sections[i].path()))
        .find(|key| names_file(key))
    else {
        return Ok(Some(Ok((joined, Vec::new()))));
    };
    let fs = MemoryFs::new([(key.clone(), content.to_string())]);
    let outcome = apply_patch::apply(&patch, &fs, &place.cwd);
    let split = sections::split_doubts(&patch, &outcome, &fs, &place.cwd)
        .into_iter()
        .filter(|d| normalize(&d.file) == key)
        .collect();
    Ok(Some(Ok((joined, split))))
}

/// `check FILE PATCH` of a patch whose several sections for FILE cannot
/// be joined into one (`why`: a later one reaches above an earlier one's
/// hunks, or edits what it writes): FILE's sections checked one after the
/// other, as Codex applies them (the gate judges them so too), each hunk's
/// line, srview's patch doubts, and the failed hunks' diagnoses; exit 0
/// when they apply, every hunk exact, nothing in doubt.
fn check_in_turn(args: &CheckArgs, content: Option<&str>, diff: &str, why: &str) -> CmdResult {
    use crate::dialect::apply_patch::{
        self, MemoryFs, Patch, diagnose_hunks, fs::normalize, patch_doubts,
    };
    let file = &args.file;
    let name = file.display().to_string();
    let place = place(file)?;
    let parsed = apply_patch::parse(diff).map_err(|e| Error::usage(e.to_string()))?;
    let names_file = |path: &str| {
        let key = normalize(path);
        key == place.name || key.ends_with(&format!("/{}", place.name))
    };
    let sections: Vec<_> = parsed
        .sections
        .into_iter()
        .filter(|section| names_file(section.path()))
        .collect();
    let Some(key) = sections.first().map(|section| normalize(section.path())) else {
        return Err(Error::usage(format!("the patch has no section for {name}")));
    };
    let patch = Patch { sections };
    let fs = MemoryFs::new([(key, content.unwrap_or_default().to_string())]);
    let outcome = apply_patch::apply(&patch, &fs, &place.cwd);
    let doubts = if outcome.exit_code == 0 {
        patch_doubts(&patch, &outcome, &fs, &place.cwd)
    } else {
        Vec::new()
    };
    let diagnoses = diagnose_hunks(&patch, &outcome, &fs, &place.cwd);
    let ok = outcome.exit_code == 0 && outcome.loose_hunks().next().is_none() && doubts.is_empty();
    let text = if args.json {
        json(&crate::report::PatchCheckReport::new(
            &outcome, &diagnoses, &doubts,
        ))?
    } else {
        let why = why.split("; the sections as sent").next().unwrap_or(why);
        let mut s = format!(
            "{name}: note: the patch has several sections for {name}, checked one after the \
             other as Codex applies them ({why})\n"
        );
        s.push_str(&hunk_lines(&name, &outcome));
        for doubt in &doubts {
            s.push_str(&format!("{name}: warning: {}\n", doubt.message));
        }
        for d in diagnoses.iter().filter(|d| d.state == HunkState::Failed) {
            s.push_str(&format!("hunk #{}: {}\n", d.index + 1, d.message));
        }
        s
    };
    print_out(&text)?;
    Ok(if ok { 0 } else { 1 })
}

/// A chunk as patch text (its `@@` line and its lines).
fn render_chunk(chunk: &crate::dialect::apply_patch::Chunk) -> String {
    let one = crate::dialect::apply_patch::Patch {
        sections: vec![crate::dialect::apply_patch::Section::Update {
            path: String::new(),
            move_to: None,
            chunks: vec![chunk.clone()],
            header_line: 0,
        }],
    };
    render(&one)
        .lines()
        .skip(2)
        .filter(|l| *l != "*** End Patch")
        .map(|l| format!("{l}\n"))
        .collect()
}

fn json(value: &impl serde::Serialize) -> Result<String, Error> {
    let mut s = serde_json::to_string(value).map_err(|e| Error::stdout(e.into()))?;
    s.push('\n');
    Ok(s)
}

/// The corrected edit `check --suggest` prints: the gate's for an
/// exact-string edit (`decision`), else the diagnosis's.
fn suggested_edit(
    outcome: &EditOutcome,
    decision: Option<&ExactCorrection>,
) -> Result<Option<Edit>, Error> {
    let Some(decision) = decision else {
        let diagnosed = outcome.diagnosis.as_ref();
        return Ok(diagnosed.and_then(|d| d.suggestion.clone()));
    };
    decision
        .input
        .as_ref()
        .map(|input| one_file::parse_edit(&input.to_string()))
        .transpose()
        .map_err(|e| Error::usage(e.to_string()))
}

/// An edit as its tool's JSON input (with its `tool` named).
fn edit_json(edit: &Edit) -> Result<String, Error> {
    serde_json::to_string(edit).map_err(|e| Error::stdout(e.into()))
}

pub fn fix(args: &FixArgs, input: OtherDialect) -> CmdResult {
    let (content, diff, dialect) = (input.content, input.diff.as_str(), input.dialect);
    let file: &Path = &args.file;
    // As `apply` and `check`: an edit meant for another file is no fix of FILE.
    refuse_another_file(file, diff, dialect, &args.rerun())?;
    let place = place(file)?;
    let target = place.target(content.as_deref());
    // Several sections for FILE (the one-file commands take one): joined
    // into one where that gives what was meant, then corrected as one.
    let joined = match dialect {
        Dialect::ApplyPatch => crate::dialect::apply_patch::sections::joined_for_file(
            diff,
            &place.name,
            content.as_deref().unwrap_or_default(),
            &place.cwd,
        ),
        _ => None,
    };
    let diff = match &joined {
        Some(Ok(text)) => {
            eprintln!(
                "srview: the patch's sections for {} are joined into one section",
                file.display()
            );
            text.as_str()
        }
        Some(Err(why)) => {
            let root = one_file::folder_of_patch(diff, &place.cwd);
            eprintln!(
                "srview: no corrected patch: {why}; the sections as sent are applied one after \
                 the other by {}",
                args.rerun().whole_patch(root.as_deref(), false, false)
            );
            return Ok(1);
        }
        None => diff,
    };
    let corrected =
        crate::dialect::corrected::correct(diff, dialect, &target, &file.display().to_string())
            .map_err(|e| super::apply_dialect::refused(&e, &place, &args.rerun()))?;
    let (fixed, note) = (corrected.text, corrected.note);
    let code = if corrected.complete { 0 } else { 1 };
    let printed = fixed.is_some();
    if let Some(text) = fixed {
        print_out(&text)?;
    }
    if let Some(note) = note {
        eprintln!("srview: {note}");
    }
    if printed && !corrected.others.is_empty() {
        eprintln!("srview: {}", others_command(args, &corrected.others));
    }
    Ok(code)
}

/// The command line that corrects the other files' sections too (`others`:
/// absolute paths, each corrected by `srview fix` of it), runnable as
/// printed: each `fix` corrects its own file's section of the patch it
/// reads, so the patch goes through one `fix` per file (a tester's find,
/// round 49 T-18: "`srview fix b.py` on the patch printed" named no patch).
fn others_command(args: &FixArgs, others: &[String]) -> String {
    let here = std::env::current_dir()
        .ok()
        .and_then(|dir| dir.canonicalize().ok());
    let shown = |file: &str| -> String {
        let path = Path::new(file);
        let relative = here
            .as_deref()
            .and_then(|here| path.strip_prefix(here).ok())
            .filter(|rest| !rest.as_os_str().is_empty());
        crate::gate::install::shell_quote(&relative.unwrap_or(path).display().to_string())
    };
    let rest: Vec<String> = others
        .iter()
        .map(|file| format!("srview fix {} -", shown(file)))
        .collect();
    match args.diff.as_deref().filter(|d| *d != Path::new("-")) {
        Some(diff) => format!(
            "to correct every file's section: `srview fix {} {} | {}`",
            crate::gate::install::shell_quote(&args.file.display().to_string()),
            crate::gate::install::shell_quote(&diff.display().to_string()),
            rest.join(" | ")
        ),
        None => format!(
            "to correct every file's section, pipe the patch printed into `{}`",
            rest.join(" | ")
        ),
    }
}
/// `text` written to stdout and flushed (a closed stdout is the caller's
/// quiet end, [`Error::stdout`]).
fn print_out(text: &str) -> Result<(), Error> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(Error::stdout)
}
