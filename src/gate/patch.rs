//! Codex's `apply_patch` judged: the whole patch applied over the folder
//! as Codex 0.169.0 would, every hunk's level, srview's doubts, and the
//! corrected patch (loose lines as the file has them, added lines
//! re-indented, failed hunks moved onto their region) when it applies with
//! every hunk exact and nothing in doubt.

use super::wording::{LINE_DIFF_LEGEND, Terms, in_terms, line_diff_text};
use super::{Call, Case, Finding, NextStep};
use crate::dialect::apply_patch::{
    self, HunkState, MatchLevel, Patch, PatchFs, PatchOutcome, Section, parse, render,
    without_moves_onto_themselves,
};
use serde_json::Value;

/// The files a patch names, as it names them.
fn files(patch: &Patch) -> String {
    let mut named: Vec<&str> = Vec::new();
    // A path two sections name (a Delete then an Add) is one file.
    for path in patch.sections.iter().map(Section::path) {
        if !named.contains(&path) {
            named.push(path);
        }
    }
    named.join(", ")
}

/// How loose `level` is: 0 for exact, Codex's levels in the order it
/// tries them.
fn level_rank(level: MatchLevel) -> u8 {
    match level {
        MatchLevel::Exact => 0,
        MatchLevel::TrailingSpace => 1,
        MatchLevel::Trimmed => 2,
        MatchLevel::Unicode => 3,
    }
}

/// The loosest level any hunk (or `@@` line that makes it loose) of
/// `outcome` matched at.
fn loosest(outcome: &PatchOutcome) -> MatchLevel {
    outcome
        .sections
        .iter()
        .flat_map(|s| &s.hunks)
        .flat_map(|h| {
            h.level
                .into_iter()
                .chain(h.header.as_ref().filter(|m| m.is_loose()).map(|m| m.level))
        })
        .max_by_key(|l| level_rank(*l))
        .unwrap_or(MatchLevel::Exact)
}

/// Whether srview stands behind `patch` over `fs`: it applies, every hunk
/// exact, nothing in doubt. Else why not.
pub(super) fn stands(patch: &Patch, fs: &dyn PatchFs, cwd: &str) -> Result<(), String> {
    let outcome = apply_patch::apply(patch, fs, cwd);
    if outcome.exit_code != 0 {
        return Err(format!(
            "the corrected patch fails too: {}",
            outcome.stderr.trim_end()
        ));
    }
    // Each loose hunk by its file and level (it said "still matches
    // loosely", naming neither).
    let loose: Vec<String> = outcome
        .loose_hunks()
        .map(|(section, hunk)| {
            let level = hunk
                .level
                .into_iter()
                .chain(hunk.header.as_ref().map(|h| h.level))
                .max_by_key(|l| level_rank(*l))
                .unwrap_or(MatchLevel::Exact);
            format!(
                "hunk {} of {} only at level {}",
                hunk.index + 1,
                section.path,
                level.name()
            )
        })
        .collect();
    if !loose.is_empty() {
        return Err(format!(
            "the corrected patch still matches loosely: {}",
            loose.join(", ")
        ));
    }
    let doubts = apply_patch::patch_doubts(patch, &outcome, fs, cwd);
    if !doubts.is_empty() {
        let all: Vec<String> = doubts.into_iter().map(|d| d.message).collect();
        return Err(format!(
            "the corrected patch is in doubt: {}",
            all.join("; ")
        ));
    }
    Ok(())
}

/// A patch's removed and added lines' [`super::quotes::quotes`], summed (see
/// [`super::quotes::drops_curly_quotes`]).
fn patch_quotes(text: &str) -> ((isize, isize), (isize, isize)) {
    let side = |mark: u8| {
        text.lines()
            .filter(|line| line.as_bytes().first() == Some(&mark))
            .map(|line| super::quotes::quotes(&line[1..]))
            .fold((0, 0), |(a, b), (c, d)| (a + c, b + d))
    };
    (side(b'-'), side(b'+'))
}

/// Each hunk's old lines (context and removed) and new lines (context and
/// added), in patch order (hunks of updated files only: an added or
/// deleted file has none).
fn hunk_lines(patch: &Patch) -> impl Iterator<Item = (Vec<&str>, Vec<&str>)> {
    patch
        .sections
        .iter()
        .filter_map(|section| match section {
            Section::Update { chunks, .. } => Some(chunks),
            _ => None,
        })
        .flatten()
        .map(|chunk| (chunk.old_lines(), chunk.new_lines()))
}

/// [`hunk_lines`] as texts (see [`super::quotes::own_curly_quotes`]).
pub(super) fn hunk_texts(patch: &Patch) -> Vec<(String, String)> {
    hunk_lines(patch)
        .map(|(old, new)| (old.join("\n"), new.join("\n")))
        .collect()
}

/// Why srview withholds `fixed`, a correction of the model's `patch`, for
/// its quotes: it straightens curly quotes of the model's own, or the
/// file's ([`super::quotes::own_curly_quotes`],
/// [`super::quotes::drops_curly_quotes`]).
fn quote_doubt(patch: &Patch, fixed: &Patch) -> Option<String> {
    let (sent, made) = (hunk_texts(patch), hunk_texts(fixed));
    use super::quotes::borrowed;
    super::quotes::own_curly_quotes(&borrowed(&sent), &borrowed(&made)).or_else(|| {
        super::quotes::drops_curly_quotes(
            patch_quotes(&render(patch)),
            patch_quotes(&render(fixed)),
        )
    })
}

/// Why srview withholds `fixed`, a correction of the model's `patch`, for
/// the lines it re-indents: a hunk's new lines would mean something else
/// ([`super::reindent::meaning_changed`], hunk by hunk in order).
/// Each hunk is read in its file's language (by its name).
pub(super) fn reindent_doubt(patch: &Patch, fixed: &Patch) -> Option<String> {
    let sent: Vec<_> = hunk_lines(patch).collect();
    let made: Vec<_> = hunk_lines(fixed).collect();
    if sent.len() != made.len() {
        return None;
    }
    let syntaxes = patch.sections.iter().flat_map(|section| match section {
        Section::Update { chunks, path, .. } => {
            vec![crate::diagnose::StringSyntax::of(path, ""); chunks.len()]
        }
        _ => Vec::new(),
    });
    sent.iter()
        .zip(&made)
        .zip(syntaxes)
        .find_map(|(((sent_old, sent_new), (old, new)), syntax)| {
            super::reindent::meaning_changed(syntax, (sent_old, sent_new), old, new)
        })
}

/// Why srview withholds `fixed`, a correction of the model's `patch`: a
/// line a hunk changes differs from the file's (the corrected old line)
/// only in white space inside a string literal, which the correction would
/// write with the model's spacing (a no-break space: data, not spacing;
/// [`crate::diagnose::changed_line_spaced_otherwise`]), or only in white
/// space at all where the file's line lies inside a string running over
/// several lines (a `"""` template's line ending in spaces: a fresh
/// tester's find, Codex's repair wrote it without them where every other
/// agent's correction was withheld); or a line the hunk's old text sends
/// otherwise indented lies inside a string over lines opened above the
/// hunk ([`super::reindent::string_from_above`]: an edit of a string's
/// middle lines). The corrected hunk's old lines are the file's own: where
/// they first stand in the file (read through `fs` from `cwd`) tells which
/// lie in such a string.
fn string_doubt(patch: &Patch, fixed: &Patch, fs: &dyn PatchFs, cwd: &str) -> Option<String> {
    for (section, own) in fixed.sections.iter().zip(&patch.sections) {
        let (Section::Update { chunks, path, .. }, Section::Update { chunks: sent, .. }) =
            (section, own)
        else {
            continue;
        };
        let content = match fs.read(&crate::dialect::call::fs_path(cwd, path)) {
            apply_patch::Entry::File(content) => content,
            _ => String::new(),
        };
        let strings = crate::diagnose::MultilineStrings::of(path, &content);
        for (k, (chunk, sent)) in chunks.iter().zip(sent).enumerate() {
            let old = chunk.old_lines();
            let joined: String = old.iter().map(|l| format!("{l}\n")).collect();
            let first = content
                .find(&joined)
                .map(|at| memchr::memchr_iter(b'\n', &content.as_bytes()[..at]).count());
            let from_above = first.and_then(|first| {
                super::reindent::string_from_above(
                    &sent.old_lines(),
                    old.iter().copied(),
                    first,
                    &strings,
                )
            });
            if let Some((line, opened)) = from_above {
                return Some(super::reindent::string_from_above_withheld(
                    &format!("in hunk {} of {path}, file line {}", k + 1, line + 1),
                    (opened, &content),
                ));
            }
            let found = crate::diagnose::changed_line_spaced_otherwise(
                &sent.old_lines(),
                &sent.new_lines(),
                old,
                |i| first.is_some_and(|first| strings.at(first + i)),
            );
            if let Some((_, literal)) = found {
                return Some(crate::diagnose::string_spacing_withheld_at(
                    &format!("in hunk {} of {path}, the file's line", k + 1),
                    &literal,
                ));
            }
        }
    }
    None
}

/// Why srview withholds `fixed`, a correction of the model's `patch` over
/// the files of `fs` in `cwd`, after its hunks were placed exactly: a
/// string's content it would respace ([`string_doubt`]), new lines whose
/// re-indentation would change what they mean ([`reindent_doubt`]), or
/// quotes it would change ([`quote_doubt`]). The gate's Codex repair and
/// `srview fix` of a patch ask this one question (a fresh tester's find:
/// `fix` re-indented a string's middle lines the gate withheld).
pub fn correction_withheld(
    patch: &Patch,
    fixed: &Patch,
    fs: &dyn PatchFs,
    cwd: &str,
) -> Option<String> {
    string_doubt(patch, fixed, fs, cwd)
        .or_else(|| reindent_doubt(patch, fixed))
        .or_else(|| quote_doubt(patch, fixed))
}

/// The patch as Codex's `updatedInput` carries it: `{"command": patch}`.
pub(super) fn as_input(call: &Call, text: String) -> serde_json::Value {
    let mut input = call.input.clone();
    if let Some(object) = input.as_object_mut() {
        object.insert("command".to_string(), text.into());
    }
    input
}

/// The files a patch text names, joined by `, ` (`None`: srview's port of
/// Codex's parser cannot read it).
pub(super) fn files_of_text(text: &str) -> Option<String> {
    parse(text).ok().map(|patch| files(&patch))
}

/// srview's patch doubts over `patch`, each with what the model can do
/// about it (by its kind).
fn doubt_steps(patch: &Patch, doubts: Vec<apply_patch::PatchDoubt>) -> Vec<(NextStep, String)> {
    use apply_patch::PatchDoubtKind as Kind;
    doubts
        .into_iter()
        .map(|d| {
            let step = match d.kind {
                Kind::AlreadyApplied => NextStep::AlreadyThere,
                // Its sentence ends with what to send.
                Kind::ElidesLines => NextStep::Said,
                Kind::ReplacesFile
                    if matches!(patch.sections.get(d.section), Some(Section::Add { .. })) =>
                {
                    NextStep::UpdateNotAdd
                }
                // A move onto a file that exists.
                Kind::ReplacesFile => NextStep::MoveTarget,
                Kind::AddedAtEnd => NextStep::ContextLines,
                // Their sentences end with what to send.
                Kind::MovesOntoItself
                | Kind::RepeatsNeighbours
                | Kind::Layout(_)
                | Kind::HiddenText
                | Kind::JoinsLines
                | Kind::SplitSections
                | Kind::DeletesUpdated
                | Kind::HeaderIgnored => NextStep::Said,
                Kind::Repeated | Kind::IndentShift => NextStep::WholeLines,
            };
            (step, d.message)
        })
        .collect()
}

/// Where the hunks of `patch` with only added lines under a bare `@@` (no
/// place named) land, as `title`'s `apply_patch` places them: Codex's and
/// OpenCode's at the end of the file (`at_end`), Cline's at its cursor,
/// the top of the file for a section's first hunk. Nothing is in doubt
/// there (the model named no place), but the record says where the lines
/// went; `None` when the patch has no such hunk.
fn bare_additions(
    patch: &Patch,
    outcome: &PatchOutcome,
    fs: &dyn PatchFs,
    cwd: &str,
    title: &str,
    at_end: bool,
) -> Option<String> {
    use apply_patch::LineKind;
    let mut notes = Vec::new();
    for (section, report) in patch.sections.iter().zip(&outcome.sections) {
        let Section::Update { path, chunks, .. } = section else {
            continue;
        };
        for (h, (chunk, hunk)) in chunks.iter().zip(&report.hunks).enumerate() {
            let pure = chunk.lines.iter().all(|l| l.kind == LineKind::Added);
            if !pure || chunk.context.is_some() || hunk.state != HunkState::Applied {
                continue;
            }
            let added = crate::words::count(chunk.lines.len(), "line");
            let place = if at_end {
                let lines = match fs.read(&crate::dialect::call::fs_path(cwd, path)) {
                    apply_patch::Entry::File(content) => content.lines().count(),
                    _ => continue,
                };
                if lines == 0 {
                    "in the empty file".to_string()
                } else {
                    format!("at the end of the file, after line {lines}")
                }
            } else if h == 0 {
                "at the top of the file, before line 1".to_string()
            } else {
                continue;
            };
            notes.push(format!(
                "hunk #{} of {path} adds its {added} {place}: {title}'s apply_patch puts a hunk \
                 with no context or removed lines there when its @@ line names no place",
                h + 1
            ));
        }
    }
    (!notes.is_empty()).then(|| notes.join("; "))
}

/// What [`doubts_of_text`] finds: the files the patch names, srview's
/// doubts each with its next step, and the record's note.
pub(super) type PatchedText = (String, Vec<(NextStep, String)>, Option<String>);

/// An `apply_patch` of OpenCode or Cline (`dialect`: its `--dialect`
/// value) as their own matcher runs it over `fs` from `cwd`: see
/// [`doubts_of_outcome`]. `None` when srview's port of Codex's parser
/// cannot read it, or `dialect` runs no patch matcher.
pub(super) fn doubts_of_text(
    dialect: &str,
    text: &str,
    fs: &dyn PatchFs,
    cwd: &str,
) -> Option<PatchedText> {
    let row = crate::dialect::registry::find(dialect)?;
    let (matcher, key) = (row.matcher()?, row.text_field?);
    let input = serde_json::json!({ key: text });
    let outcome = matcher.run(&crate::dialect::call::ToolCall {
        input: &input,
        cwd,
        fs,
    });
    let (files, doubts, note) = doubts_of_outcome(dialect, text, &outcome, fs, cwd);
    Some((files?, doubts, note))
}

/// An `apply_patch` of OpenCode or Cline (`dialect`: its `--dialect`
/// value) whose patch is `text`, that their own matcher ran into
/// `outcome`: the files it names (`None`: Codex's parser cannot read the
/// patch), srview's patch doubts of it as the matcher judged them
/// ([`crate::dialect::patch_family`]: the checks `check` and `apply
/// --write` run too, in the same words), each with its next step, and
/// where a hunk with only added lines under a bare `@@` lands
/// ([`bare_additions`]).
pub(super) fn doubts_of_outcome(
    dialect: &str,
    text: &str,
    outcome: &crate::dialect::call::CallOutcome,
    fs: &dyn PatchFs,
    cwd: &str,
) -> (Option<String>, Vec<(NextStep, String)>, Option<String>) {
    let doubts = outcome.patch_doubts.clone().unwrap_or_default();
    let Ok(patch) = parse(text) else {
        // Cline's own doubts end with what to send.
        let steps = doubts.into_iter().map(|d| (NextStep::Said, d.message));
        return (None, steps.collect(), None);
    };
    let cline = dialect == "cline-apply-patch";
    let mut steps = doubt_steps(&patch, doubts);
    if cline {
        // Cline's doubts of a hunk placed at its cursor ("edit N: its @@
        // line ...") end with what to send.
        for (step, message) in &mut steps {
            if message.starts_with("edit ") && *step != NextStep::AlreadyThere {
                *step = NextStep::Said;
            }
        }
    }
    let outcome = apply_patch::apply(&patch, fs, cwd);
    let note = (outcome.exit_code == 0)
        .then(|| {
            let title = if cline { "Cline" } else { "OpenCode" };
            bare_additions(&patch, &outcome, fs, cwd, title, !cline)
        })
        .flatten();
    (Some(files(&patch)), steps, note)
}

pub(super) fn codex(call: &Call, fs: &dyn PatchFs) -> Finding {
    let Some(text) = call.input.get("command").and_then(|c| c.as_str()) else {
        return Finding::unreadable(
            None,
            "the tool input has no \"command\" text".to_string(),
            NextStep::CheckPath,
        );
    };
    let patch = match parse(text) {
        Ok(patch) => patch,
        Err(e) => {
            // Codex's own parse error, as the model would read it: the
            // patch's form is at fault, not its text of the file (a
            // tester's find: "read the file again" was the next step).
            let error = e.to_string();
            let lines = if error.contains("Expected update hunk to start with a @@") {
                "\nIn a hunk, each line after its @@ line starts with a space (a line of the \
                 file kept), `+` (a line added) or `-` (a line removed): a line without one \
                 ends the hunk."
            } else {
                ""
            };
            return Finding {
                case: Case::Failing,
                file: None,
                stage: Some("parse".to_string()),
                next_step: NextStep::InItsForm,
                explanation: format!("Codex cannot read this patch: {error}{lines}"),
                corrected: None,
                withheld: None,
                missing: None,
                note: None,
            };
        }
    };
    let file = Some(files(&patch));
    let cwd = call.cwd.as_str();
    let outcome = apply_patch::apply(&patch, fs, cwd);
    if outcome.exit_code != 0 {
        return failing(call, &patch, &outcome, fs, file);
    }
    let loose: Vec<_> = outcome.loose_hunks().collect();
    if loose.is_empty() {
        let doubts = apply_patch::patch_doubts(&patch, &outcome, fs, cwd);
        if doubts.is_empty() {
            return Finding {
                case: Case::Exact,
                file,
                stage: Some("exact".to_string()),
                explanation: String::new(),
                corrected: None,
                withheld: None,
                missing: None,
                // Denied only when the policy holds an exact edit back.
                next_step: NextStep::OnlyTheUser,
                note: bare_additions(&patch, &outcome, fs, cwd, "Codex", true),
            };
        }
        let moved = doubts
            .iter()
            .any(|d| d.kind == apply_patch::PatchDoubtKind::MovesOntoItself);
        let split = doubts
            .iter()
            .any(|d| d.kind == apply_patch::PatchDoubtKind::SplitSections);
        let (corrected, withheld) = match (moved, split) {
            (true, _) => without_self_moves(call, text, fs),
            (false, true) => joined_codex(call, text, fs),
            (false, false) => (None, None),
        };
        let steps = doubt_steps(&patch, doubts);
        let next_step = NextStep::first(steps.iter().map(|(step, _)| *step), NextStep::WholeLines);
        let all: Vec<String> = steps.into_iter().map(|(_, message)| message).collect();
        return Finding {
            case: Case::Doubt,
            file,
            stage: Some("exact".to_string()),
            explanation: format!(
                "the patch matches exactly, but srview cannot stand behind its result: {}.",
                all.join("; ")
            ),
            corrected,
            withheld,
            missing: None,
            next_step,
            note: None,
        };
    }
    // A loose hunk: what differs, what writing it would do, the exact patch.
    let mut explanation = String::new();
    for d in apply_patch::diagnose_hunks(&patch, &outcome, fs, cwd) {
        if d.state != HunkState::Applied {
            continue;
        }
        if !explanation.is_empty() {
            explanation.push('\n');
        }
        explanation.push_str(&format!(
            "Codex would apply this patch only loosely: {}",
            in_terms(&d.message, &Terms::patch()).trim_end()
        ));
        if !d.line_diff.is_empty() {
            explanation.push_str(&format!("\nThe lines {LINE_DIFF_LEGEND}:\n"));
            explanation.push_str(line_diff_text(&d.line_diff).trim_end());
        }
    }
    // What allowing it as sent does to the file (a tester's find, round
    // 49 T-13: a trimmed hunk misindenting Python was said as "spacing
    // differs" only).
    let damage: Vec<String> = apply_patch::patch_doubts(&patch, &outcome, fs, cwd)
        .into_iter()
        .chain(apply_patch::loose_layout_doubts(&patch, &outcome, fs, cwd))
        .map(|d| d.message)
        .collect();
    // The step is the loose case's own (the exact patch offered, or why
    // none is): a trust check's "send the new lines ..." said of the patch
    // as written is not it.
    let next_step = NextStep::after_refusal(&explanation, Case::Loose, false);
    if !damage.is_empty() {
        explanation.push_str(&format!("\nAs written: {}.", damage.join("; ")));
    }
    let (mut tight, withheld) = apply_patch::tighten_reindented(&patch, &outcome);
    straighten_added(&mut tight, &patch, &outcome);
    // A Markdown hard break the corrected lines would lose or add.
    let ends = apply_patch::carry_ends(&patch, &mut tight);
    let (corrected, why_not) = if let Some(([s, h], why)) = withheld.first() {
        (
            None,
            Some(format!(
                "hunk {} of {} is left as written: {why}",
                h + 1,
                patch.sections.get(*s).map_or("", Section::path)
            )),
        )
    } else if let Err(why) = ends {
        (None, Some(why))
    } else {
        let text = render(&tight);
        match stands(&tight, fs, cwd).and_then(|()| {
            // The string's own reason first: it names the line that
            // opened a string the hunk starts inside.
            match correction_withheld(&patch, &tight, fs, cwd) {
                Some(why) => Err(why),
                None => Ok(()),
            }
        }) {
            Ok(()) => (Some(as_input(call, text)), None),
            Err(why) => (None, Some(why)),
        }
    };
    Finding {
        case: Case::Loose,
        file,
        stage: Some(loosest(&outcome).name().to_string()),
        next_step,
        explanation,
        corrected,
        withheld: why_not,
        missing: None,
        note: None,
    }
}

/// In each hunk Codex matched only at level `unicode`, the added lines
/// of `tight` with the typographic look-alikes (curly quotes, dashes,
/// special spaces) the model wrote where the file has the ASCII form
/// written as the file has them: the model's text means the file's
/// characters there too, as in its old lines (left as sent, Codex would
/// write `label = “LOW”` into Python: seen with the real CLI,
/// tests/gate_e2e/). A look-alike the file's matched lines hold too is
/// left as sent.
fn straighten_added(tight: &mut Patch, patch: &Patch, outcome: &PatchOutcome) {
    use apply_patch::{LineKind, seek::normalise};
    for ((section, own), report) in tight
        .sections
        .iter_mut()
        .zip(&patch.sections)
        .zip(&outcome.sections)
    {
        let (Section::Update { chunks, .. }, Section::Update { chunks: sent, .. }) = (section, own)
        else {
            continue;
        };
        for ((chunk, sent), hunk) in chunks.iter_mut().zip(sent).zip(&report.hunks) {
            if hunk.level != Some(MatchLevel::Unicode) {
                continue;
            }
            // `chunk`'s old lines are the file's own (tightened); `sent`'s
            // are the model's.
            let in_file: std::collections::BTreeSet<char> =
                chunk.old_lines().concat().chars().collect();
            let meant: std::collections::BTreeSet<char> = sent
                .old_lines()
                .concat()
                .chars()
                .filter(|&c| normalise(c) != c && !in_file.contains(&c))
                .collect();
            for line in chunk.lines.iter_mut().filter(|l| l.kind == LineKind::Added) {
                if line.text.chars().any(|c| meant.contains(&c)) {
                    line.text = line
                        .text
                        .chars()
                        .map(|c| if meant.contains(&c) { normalise(c) } else { c })
                        .collect();
                }
            }
        }
    }
}

/// A patch Codex refuses: its error, each failed hunk's closest region and
/// lines, and the patch fixed when every hunk is then placed exactly.
fn failing(
    call: &Call,
    patch: &Patch,
    outcome: &PatchOutcome,
    fs: &dyn PatchFs,
    file: Option<String>,
) -> Finding {
    let cwd = call.cwd.as_str();
    let mut explanation = format!(
        "Codex would refuse this patch: {}",
        outcome.stderr.trim_end()
    );
    for d in apply_patch::diagnose_hunks(patch, outcome, fs, cwd) {
        if d.state != HunkState::Failed {
            continue;
        }
        if let Some(header) = &d.header {
            explanation.push('\n');
            explanation.push_str(in_terms(&header.message, &Terms::patch()).trim_end());
        }
        if !d.message.is_empty() {
            explanation.push('\n');
            explanation.push_str(in_terms(&d.message, &Terms::patch()).trim_end());
        }
        if !d.line_diff.is_empty() {
            explanation.push_str(&format!("\nThe lines {LINE_DIFF_LEGEND}:\n"));
            explanation.push_str(line_diff_text(&d.line_diff).trim_end());
        }
    }
    let hunk_failed = outcome
        .sections
        .iter()
        .flat_map(|s| &s.hunks)
        .any(|h| h.state == HunkState::Failed);
    // Refused for a path it names, or for having no section: no hunk's
    // text to correct (a tester's find: "Read the file again" for a move
    // onto a folder).
    if !hunk_failed && let Some((why, step)) = refused_path(patch, fs, cwd) {
        explanation.push('\n');
        explanation.push_str(&why);
        return Finding {
            case: Case::Failing,
            file,
            stage: Some("refused".to_string()),
            next_step: step,
            explanation,
            corrected: None,
            withheld: None,
            missing: None,
            note: None,
        };
    }
    let mut fixed = apply_patch::fix_patch(patch, fs, cwd);
    let (corrected, withheld) = if fixed.complete {
        // A Markdown hard break the corrected lines would lose or add.
        match apply_patch::carry_ends(patch, &mut fixed.patch)
            .and_then(|()| stands(&fixed.patch, fs, cwd))
            .and_then(
                |()| match correction_withheld(patch, &fixed.patch, fs, cwd) {
                    Some(why) => Err(why),
                    None => Ok(()),
                },
            ) {
            Ok(()) => (Some(as_input(call, render(&fixed.patch))), None),
            Err(why) => (None, Some(why)),
        }
    } else {
        (None, Some(unplaced(&fixed.notes)))
    };
    let stage = if hunk_failed { "failed" } else { "refused" };
    // The first file to update or delete that does not exist.
    let missing = patch
        .sections
        .iter()
        .filter(|s| !matches!(s, Section::Add { .. }))
        .find(|s| {
            matches!(
                fs.read(&crate::dialect::call::fs_path(cwd, s.path())),
                apply_patch::Entry::Missing
            )
        })
        .map(|s| super::answer::Missing {
            path: s.path().to_string(),
            to_delete: matches!(s, Section::Delete { .. }),
        });
    Finding {
        case: Case::Failing,
        file,
        stage: Some(stage.to_string()),
        next_step: NextStep::after_refusal(&explanation, Case::Failing, false),
        explanation,
        corrected,
        withheld,
        missing,
        note: None,
    }
}

/// Why Codex refuses `patch` for what it names rather than for its
/// hunks' text, and what the model can do: a file to write (an added
/// file, a `*** Move to:` target) that is a folder, or below a file; no
/// file section at all.
fn refused_path(patch: &Patch, fs: &dyn PatchFs, cwd: &str) -> Option<(String, NextStep)> {
    if patch.sections.is_empty() {
        return Some((
            "The patch has no file section, so it changes nothing: send the changes as \
             `*** Update File:` sections (or no patch, if no change was meant)."
                .to_string(),
            NextStep::Said,
        ));
    }
    let targets = patch.sections.iter().filter_map(|section| match section {
        Section::Add { path, .. } => Some(("`*** Add File:`", path)),
        Section::Update {
            move_to: Some(to), ..
        } => Some(("`*** Move to:`", to)),
        _ => None,
    });
    for (line, path) in targets {
        let full = crate::dialect::call::fs_path(cwd, path);
        let why = match fs.read(&full) {
            apply_patch::Entry::Directory => {
                format!("{path} is a folder: the patch's {line} must name a file.")
            }
            apply_patch::Entry::BelowFile => {
                let file = std::path::Path::new(path)
                    .ancestors()
                    .skip(1)
                    .map(|p| p.to_string_lossy().into_owned())
                    .find(|p| {
                        !p.is_empty()
                            && matches!(
                                fs.read(&crate::dialect::call::fs_path(cwd, p)),
                                apply_patch::Entry::File(_)
                            )
                    });
                match file {
                    Some(file) => format!("{file} is a file, so {path} cannot be written."),
                    None => format!("a parent of {path} is a file, so it cannot be written."),
                }
            }
            _ => continue,
        };
        return Some((why, NextStep::CheckPath));
    }
    None
}

/// Why a patch's correction is incomplete, in a patch's terms: its notes,
/// else that not every hunk can be placed.
pub(super) fn unplaced(notes: &[crate::dialect::apply_patch::FixNote]) -> String {
    if notes.is_empty() {
        return "not every hunk can be placed".to_string();
    }
    let notes: Vec<String> = notes
        .iter()
        .map(|n| in_terms(&n.message, &Terms::patch()))
        .collect();
    notes.join("; ")
}

/// Codex's patch `text` without its moves onto the files themselves, as
/// the corrected input; else why not. `(None, None)` when it has none.
fn without_self_moves(
    call: &Call,
    text: &str,
    fs: &dyn PatchFs,
) -> (Option<Value>, Option<String>) {
    let Some(fixed) = without_moves_onto_themselves(text, &call.cwd) else {
        return (None, None);
    };
    let stood = match parse(&fixed) {
        Ok(patch) => stands(&patch, fs, &call.cwd),
        Err(e) => Err(format!(
            "the patch without its Move line cannot be read: {e}"
        )),
    };
    match stood {
        Ok(()) => (Some(as_input(call, fixed)), None),
        Err(why) => (None, Some(why)),
    }
}

/// What the repair of split sections is called in the answer.
const JOINED: &str = "with the sections of each file joined into one";

/// The patch `text` with each file's sections joined into one, rendered
/// (tester 48 T-06: Codex searches a later section's hunks from the
/// file's top again, OpenCode derives both from the file before the patch
/// and keeps the later write); `None` when no file has two (or Codex's
/// parser cannot read it).
pub(super) fn joined_text(text: &str) -> Option<String> {
    let patch = apply_patch::parse(text).ok()?;
    apply_patch::sections::joined(&patch).map(|joined| apply_patch::render(&joined.patch))
}

/// Codex's patch `text` with each file's sections joined, as the corrected
/// input when srview's port of Codex places it exactly and nothing is in
/// doubt ([`stands`]); else why not.
fn joined_codex(call: &Call, text: &str, fs: &dyn PatchFs) -> (Option<Value>, Option<String>) {
    let Some(fixed) = joined_text(text) else {
        return (None, None);
    };
    let stood = match apply_patch::parse(&fixed) {
        Ok(patch) => stands(&patch, fs, &call.cwd),
        Err(e) => Err(format!("the patch {JOINED} cannot be read: {e}")),
    };
    match stood {
        Ok(()) => (Some(as_input(call, fixed)), None),
        // What the joined patch would do, in its own name (it said "the
        // patch ... joined into one: the corrected patch is in doubt").
        Err(why) => {
            let why = match why.strip_prefix("the corrected patch ") {
                Some(rest) => format!("the patch {JOINED} {rest}"),
                None => format!("the patch {JOINED}: {why}"),
            };
            (None, Some(why))
        }
    }
}

#[cfg(test)]
mod tests {
    /// A corrected patch that still matches loosely is withheld saying
    /// which hunk of which file, at which level (it said "still matches
    /// loosely", naming neither).
    #[test]
    fn a_loose_corrected_patch_names_its_hunk_and_level() {
        let fs = crate::dialect::apply_patch::MemoryFs::new([
            ("a.py".to_string(), "a = 1\nb = 2\n".to_string()),
            ("c.py".to_string(), "def f():\n    return 1\n".to_string()),
        ]);
        let text = "*** Begin Patch\n*** Update File: a.py\n@@\n a = 1\n-b = 2\n+b = 3\n\
                    *** Update File: c.py\n@@\n def f():\n-  return 1\n+  return 2\n\
                    *** End Patch";
        let patch = super::parse(text).expect("a patch");
        assert_eq!(
            super::stands(&patch, &fs, "/w"),
            Err(
                "the corrected patch still matches loosely: hunk 1 of c.py only at level \
                 trimmed"
                    .to_string()
            )
        );
    }
}
