//! The commands on one tool call run through an agent's own matcher
//! (`--dialect aider-diff`, `opencode-edit`, ... : a registry row with a
//! [`CallMatcher`](crate::dialect::call::CallMatcher)):
//! - `srview apply FILE INPUT --dialect NAME [--json] [--write [--force]]`;
//! - `srview apply --transcript PATCH --cwd DIR --dialect NAME [--write
//!   [--force]]` for a patch tool over a folder;
//! - `srview check FILE INPUT --dialect NAME [--json]`.
//!
//! INPUT is the tool input exactly as the model sent it (for Aider its
//! reply); its paths are the agent's, resolved against the current folder
//! (`--cwd` for a patch) as the agent's project root. stdout is what the
//! model reads (apply without `--json` prints FILE's new content, as for
//! any dialect); exit 0 when the agent succeeds, 1 when it fails.
//! `--write` writes what the agent would, all or nothing, and holds back a
//! result placed by a loose stage (`--force` writes it, and reproduces an
//! agent's partial writes on failure).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::commit::Commit;
use super::{ApplyArgs, CheckArgs, CmdResult};
use crate::dialect::apply_patch::fs::RecordingFs;
use crate::dialect::call::{CallOutcome, Entry, FileWrite, ToolCall, fs_path};
use crate::dialect::call_doubts::lines_text;
use crate::dialect::one_file::{Rerun, names_file};
use crate::dialect::registry::DialectRow;
use crate::error::Error;
use crate::output::{self, Wrote};
use crate::report::{CallReport, Explained, WithWrite, WriteState};

/// One run of a matcher over a folder.
struct Run {
    /// The folder, absolute.
    cwd: PathBuf,
    outcome: CallOutcome,
    /// The tool input the matcher ran.
    input: serde_json::Value,
    /// The tool result as the model reads it, where the agent wraps its
    /// texts (see [`crate::dialect::call::CallMatcher::run_for_model`]).
    model_text: Option<String>,
    seen: BTreeMap<String, Entry>,
    /// The file the command names.
    file: Option<String>,
}

/// The paths of an Aider input's `chat_files` (its strings; none when
/// the field is missing or not a list).
fn named_chat_files(input: &serde_json::Map<String, serde_json::Value>) -> Vec<String> {
    (input
        .get("chat_files")
        .and_then(serde_json::Value::as_array))
    .map(|files| {
        files
            .iter()
            .filter_map(serde_json::Value::as_str)
            .map(str::to_string)
            .collect()
    })
    .unwrap_or_default()
}

/// Runs `row`'s matcher on `text` (the tool input) with `cwd` as the
/// agent's project root; `file`: the file the command names (Aider finds a
/// block's file among the chat's files by its base name or a close
/// spelling: FILE is in the chat).
fn run_matcher(
    row: &DialectRow,
    text: &str,
    cwd: &Path,
    file: Option<&Path>,
    rerun: &Rerun,
) -> Result<Run, Error> {
    let matcher = row
        .matcher()
        .ok_or_else(|| Error::usage(format!("--dialect {} runs no agent matcher", row.value)))?;
    let mut input = row.input_of(text).ok_or_else(|| {
        Error::usage(format!(
            "--dialect {}: the input is not a JSON object (the tool input as the model sends it)",
            row.value
        ))
    })?;
    let cwd = cwd
        .canonicalize()
        .map_err(|e| Error::read(cwd.display(), e))?;
    let cwd_text = cwd.to_string_lossy().into_owned();
    if let (Some(file), Some("reply"), Some(object)) = (file, row.text_field, input.as_object_mut())
    {
        // FILE joins the chat the input names, not replaces it: Aider
        // retries a block whose SEARCH fails on its file on every chat
        // file (a tester's find, 43b-07: `check a.py` ran a.py alone and
        // said nothing of the b.py the block lands in).
        let chat = file_path(&cwd, file);
        let mut chat_files = named_chat_files(object);
        if !chat_files
            .iter()
            .any(|named| file_path(&cwd, Path::new(named)) == chat)
        {
            chat_files.push(chat);
        }
        object.insert("chat_files".to_string(), chat_files.into());
    }
    // A one-file tool's input naming FILE (in another form: the agent's
    // machine's absolute path, an edit saved from a session) runs on FILE;
    // one naming another file is refused, as an edit's JSON is (a
    // tester's find: `check FILE` ran the recorded path and said "the
    // agent fails: File not found").
    if let Some(file) = file
        && let Some(named) = row.named_path(&input)
    {
        if !names_file(&named, file) {
            // Named as the model wrote it (a `~` left for the shell).
            let written = row.written_path(&input).unwrap_or(&named);
            return Err(super::apply_dialect::edits_another_file(
                written, file, rerun,
            ));
        }
        let absolute = if file.is_absolute() {
            file.to_path_buf()
        } else {
            cwd.join(file)
        };
        input = row.aim(&input, &cwd.to_string_lossy(), &absolute.to_string_lossy());
    }
    let fs = RecordingFs::new(cwd.clone());
    let (outcome, model_text) = matcher.run_for_model(&ToolCall {
        input: &input,
        cwd: &cwd_text,
        fs: &fs,
    });
    Ok(Run {
        cwd,
        outcome,
        input,
        model_text,
        seen: fs.into_seen(),
        file: file.map(|f| f.to_string_lossy().into_owned()),
    })
}

/// One sentence per edit a loose stage placed, per file line rewritten
/// outside the edits, per hunk whose lines the agent's parser drops
/// ([`CallOutcome::dropped`]), and per doubt of srview's trust checks on an exact
/// edit (its new text already there, a word cut), and, when there is none
/// but the loose ones, per file the call leaves misindented, with a
/// name defined twice or its brackets unbalanced ([`layout_notes`]): what
/// `--write` holds back, `check` exits 1 for, and the warnings say.
fn loose_notes(row: &DialectRow, run: &Run) -> Vec<String> {
    let mut notes = edit_notes(row, run);
    // Said after a loose placement's note too: the agent writes that
    // result all the same (a tester's find: a line-trimmed edit left
    // Python refusing the file, and only the loose stage was said).
    let loose = run.outcome.edits.iter().filter(|e| e.loose).count();
    if notes.len() == loose {
        notes.extend(layout_notes(run));
    }
    // srview's sentences name the agent's matcher, never "the reference"
    // (a tester's find, 43b-09).
    notes
        .into_iter()
        .map(|note| crate::words::own_words(row.title, &note))
        .collect()
}

/// Each file the call writes (not deletes) that existed before it, with
/// its content before and after.
fn rewritten_files(run: &Run) -> impl Iterator<Item = (&FileWrite, &str, &str)> {
    run.outcome.writes.iter().filter_map(|w| {
        let after = w.content.as_deref()?;
        match run.seen.get(&w.path) {
            Some(Entry::File(before)) => Some((w, before.as_str(), after)),
            _ => None,
        }
    })
}

/// The faults of each file as the call leaves it that the file before did
/// not have ([`crate::diagnose::layout::layout_break`]), judged on the
/// call's whole result (each edit alone is not: one of several may
/// unbalance what the next balances).
fn layout_notes(run: &Run) -> Vec<String> {
    rewritten_files(run)
        .filter_map(|(w, before, after)| {
            let fault = crate::diagnose::layout::layout_break(&w.path, before, after)?;
            let name = Path::new(&w.path)
                .file_name()
                .map_or(w.path.clone(), |n| n.to_string_lossy().into_owned());
            Some(format!(
                "the call leaves {name} {}: {}",
                fault.leaves(),
                fault.why
            ))
        })
        .collect()
}

/// [`loose_notes`] but the whole result's faults.
fn edit_notes(row: &DialectRow, run: &Run) -> Vec<String> {
    let outcome = &run.outcome;
    let asked = crate::dialect::call_doubts::asked(row, &run.input);
    let outside = (!outcome.rewritten_outside.is_empty()).then(|| {
        let ranges: Vec<String> = outcome
            .rewritten_outside
            .iter()
            .map(|&range| lines_text(range))
            .collect();
        match endings_rewritten(run) {
            // Aider writes a CRLF file's lines with `\n`: said in the
            // words the other agents' changed endings are said in.
            Some(endings) => format!(
                "{} also rewrites {}, which no edit covers: {endings}, so {} outside the edit \
                 {} {} ending",
                row.title,
                ranges.join(", "),
                crate::words::count(outside_count(&outcome.rewritten_outside), "line"),
                if outside_count(&outcome.rewritten_outside) == 1 {
                    "changes"
                } else {
                    "change"
                },
                if outside_count(&outcome.rewritten_outside) == 1 {
                    "its"
                } else {
                    "their"
                },
            ),
            None => format!(
                "{} also rewrites {}, which no edit covers: it writes the whole file normalized",
                row.title,
                ranges.join(", ")
            ),
        }
    });
    outcome
        .loose_edits()
        .map(|(i, edit)| {
            let known = row
                .matcher()
                .and_then(|m| m.stage_note(&edit.stage))
                .map(|note| format!("; {note}"))
                .unwrap_or_default();
            format!(
                "edit {} was placed{} by {}, a loose stage of {}: the text it replaced is not the text the model wrote{known}",
                i + 1,
                places(edit.lines, &edit.also_replaced),
                edit.stage,
                row.title
            )
        })
        .chain(outside)
        .chain(moved_notes(row, outcome))
        .chain(crate::dialect::call_doubts::exact_doubts(
            outcome,
            &|edit| before_of(run, edit),
            match &run.file {
                Some(file) => crate::dialect::call_doubts::Judged::of(row, &asked).on(file),
                None => crate::dialect::call_doubts::Judged::of(row, &asked),
            },
        ))
        .collect()
}

/// One sentence per edit the agent applied to another file than the one
/// it names ([`crate::dialect::call::EditMatch::named`]: Aider retries a
/// block whose SEARCH fails on its own file on every chat file), the
/// model's edit meant for the file it names.
fn moved_notes(row: &DialectRow, outcome: &CallOutcome) -> Vec<String> {
    outcome
        .edits
        .iter()
        .enumerate()
        .filter_map(|(i, edit)| {
            let (named, path) = (edit.named.as_deref()?, edit.path.as_deref()?);
            let at = edit
                .lines
                .map(|(a, b)| format!(" at {}", crate::words::line_range("line", a, b)))
                .unwrap_or_default();
            Some(format!(
                "edit {} names {named}, but its SEARCH text is not in {named}: {} applies it \
                 to {path}{at} only because {path} is in the chat and holds that text: the \
                 model meant {named}; if {path} is meant, send the block under {path}'s name",
                i + 1,
                row.title,
            ))
        })
        .collect()
}

/// How many lines `ranges` (first/last, 1-based) hold.
fn outside_count(ranges: &[(usize, usize)]) -> usize {
    ranges.iter().map(|&(a, b)| b + 1 - a.min(b + 1)).sum()
}

/// Where the call writes a file whose lines ended in CRLF or CR with every
/// line in LF (Aider's universal newlines): the file's endings and the
/// result's, in words ("the file's lines end in CRLF and the agent writes
/// every line with LF"), each such file named when the call writes several.
fn endings_rewritten(run: &Run) -> Option<String> {
    let several = run.outcome.writes.len() > 1;
    let said: Vec<String> = rewritten_files(run)
        .filter_map(|(w, before, after)| {
            if !before.contains('\r') || after.contains('\r') {
                return None;
            }
            let crlf = before.matches("\r\n").count();
            let cr = before.matches('\r').count() - crlf;
            let lf = before.matches('\n').count() - crlf;
            let file = if several {
                format!("{}'s", w.path)
            } else {
                "the file's".to_string()
            };
            // Only the endings the file has (a tester's find, 43b-09: "mix
            // CRLF, CR and LF" of a file with no CR line).
            let kinds: Vec<&str> = [(crlf, "CRLF"), (cr, "CR"), (lf, "LF")]
                .into_iter()
                .filter(|&(n, _)| n > 0)
                .map(|(_, name)| name)
                .collect();
            Some(match kinds.as_slice() {
                [one] => format!("{file} lines end in {one}"),
                [a, b] => format!("{file} lines mix {a} and {b} endings"),
                _ => format!("{file} lines mix CRLF, CR and LF endings"),
            })
        })
        .collect();
    (!said.is_empty()).then(|| {
        format!(
            "{} and the agent writes every line with LF",
            said.join(", ")
        )
    })
}

/// The text of the file `edit` matched in, as the matcher read it: the
/// file the edit names, else the call's one file.
fn before_of(run: &Run, edit: &crate::dialect::call::EditMatch) -> Option<String> {
    let path = match (&edit.path, &run.outcome.writes[..]) {
        (Some(path), _) => path.clone(),
        (None, [only]) => only.path.clone(),
        _ => return None,
    };
    match run.seen.get(&path) {
        Some(Entry::File(text)) => Some(text.clone()),
        _ => None,
    }
}

/// Warns, on stderr, of what the agent would do that the model did not
/// ask for, and says where its code would hang. With `--write` the loose
/// notes are left to the write (held back, or warned of when forced), not
/// said twice.
fn warn(row: &DialectRow, run: &Run, writing: bool) {
    let outcome = &run.outcome;
    if outcome.hangs {
        eprintln!("srview: {}", hang_sentence(row));
    }
    if let Some(note) = also_replaced_note(row, outcome) {
        eprintln!("srview: note: {note}");
    }
    if writing {
        return;
    }
    for note in loose_notes(row, run)
        .into_iter()
        .chain(lost_files(row, run))
    {
        eprintln!("srview: warning: {note}");
    }
}

/// Where the agent's own code would never return.
fn hang_sentence(row: &DialectRow) -> String {
    format!(
        "{}'s own code never returns on this input: the agent would hang here",
        row.title
    )
}

/// The files `run` leaves changed, as [`output::Change`]s (paths joined to
/// its folder, each checked against what the matcher read).
fn changes(run: &Run) -> Vec<output::Change<'_>> {
    run.outcome
        .writes
        .iter()
        .map(|write| output::Change {
            path: run.cwd.join(&write.path),
            content: write.content.as_deref().map(str::as_bytes),
            expected: match run.seen.get(&write.path) {
                Some(Entry::File(old)) => Some(old.as_bytes()),
                Some(Entry::Missing) => Some(&[]),
                _ => None,
            },
        })
        .collect()
}

/// `--write`: the agent's writes, all or nothing; a failing call writes
/// only with `--force` (the agent's own partial writes), a loose one is held
/// back unless forced.
fn commit(args: &ApplyArgs, row: &DialectRow, run: &Run, only: Option<&str>) -> Option<Commit> {
    if !args.write {
        return None;
    }
    let outcome = &run.outcome;
    // Paths outside the folder are refused as a transcript's are: the
    // agent's own project root would hold them, srview's --cwd does not.
    let outside: Vec<&str> = outcome
        .writes
        .iter()
        .map(|w| w.path.as_str())
        .filter(|p| p.starts_with('/') || p.split('/').any(|part| part == ".."))
        .collect();
    if !outside.is_empty() && !args.allow_outside {
        return Some(Commit::failed(Error::refused(format!(
            "{} lies outside {}; nothing written (use --allow-outside to write it)",
            outside.join(", "),
            run.cwd.display()
        ))));
    }
    // `apply FILE INPUT --write` writes FILE only.
    if let Some(target) = only {
        let others = outcome.written_besides(target);
        if !others.is_empty() {
            let edits_target = outcome.writes.iter().any(|w| w.path == target);
            let what = if edits_target {
                format!("also edits {}", others.join(", "))
            } else {
                format!("edits {}, not {target}", others.join(", "))
            };
            // A block Aider moved to another chat file is said as the
            // transcript form says it (a tester's find, 43b-07).
            let moved: String = moved_notes(row, outcome)
                .iter()
                .map(|note| format!("{note}; "))
                .collect();
            let rerun = args.rerun();
            return Some(Commit::failed(Error::refused(format!(
                "{moved}the input {what}: nothing written (apply --write writes {} only; \
                 `srview apply --transcript {} --dialect {} --write` writes them all{})",
                args.file
                    .as_deref()
                    .map_or_else(|| target.to_string(), |file| file.display().to_string()),
                rerun.input_word(),
                row.value,
                rerun.stdin_note()
            ))));
        }
    }
    if !outcome.ok && !args.force && !outcome.writes.is_empty() && !outcome.hangs {
        let names: Vec<&str> = outcome.writes.iter().map(|w| w.path.as_str()).collect();
        eprintln!(
            "srview: nothing written: the agent fails, after writing {} (--force writes what it would)",
            names.join(", ")
        );
    }
    if outcome.ok && outcome.writes.is_empty() {
        // The agent succeeds and changes nothing: nothing to write.
        return Some(Commit::run("nothing written", Vec::new(), || {
            Ok(Wrote::AlreadyHeld)
        }));
    }
    if outcome.hangs || !outcome.ok && !args.force || outcome.writes.is_empty() {
        return Some(Commit::not_applied());
    }
    let mut doubts = loose_notes(row, run);
    doubts.extend(lost_files(row, run));
    let replaced: Vec<std::path::PathBuf> = changes(run).into_iter().map(|c| c.path).collect();
    let doubts = super::commit::weigh(true, args.force, doubts, &replaced);
    Some(Commit::run("nothing written", doubts, || {
        let changed = output::write_batch(&changes(run))
            .map_err(|e| Error::Write(format!("{}: {}", e.path.display(), e.message)))?;
        Ok(Wrote::of_batch(&changed))
    }))
}

/// `srview apply FILE INPUT --dialect NAME`.
pub(super) fn run(args: &ApplyArgs, file: &Path, text: &str, row: &DialectRow) -> CmdResult {
    run_with(args, file, text, row, None)
}

/// `apply FILE INPUT --dialect NAME`; `stream`: the final line of `apply
/// --stream` (`seq`, `bytes`), the report as one JSON line with them and
/// `"final": true`.
pub(super) fn run_with(
    args: &ApplyArgs,
    file: &Path,
    text: &str,
    row: &DialectRow,
    stream: Option<(usize, usize)>,
) -> CmdResult {
    if args.partial || !args.only.is_empty() || !args.skip.is_empty() {
        return Err(Error::usage(format!(
            "--dialect {}: --partial, --only and --skip are not run on {} yet",
            row.value, row.title
        )));
    }
    let cwd = std::env::current_dir().map_err(|e| Error::read("the current folder", e))?;
    let run = run_for_file(row, text, &cwd, file, &args.rerun())?;
    let target = file_path(&run.cwd, file);
    let outcome = &run.outcome;
    warn(row, &run, args.write);
    let others = outcome.written_besides(&target);
    let edits_file = outcome.writes.iter().any(|w| w.path == target);
    // The agent succeeds on other files only: FILE stays as it is, which
    // is not what `apply FILE` was asked (exit 1, said plainly).
    let elsewhere_only = outcome.ok && !others.is_empty() && !edits_file;
    if !others.is_empty() && !args.write {
        if edits_file {
            eprintln!("srview: note: the input also edits {}", others.join(", "));
        } else {
            let rerun = args.rerun();
            eprintln!(
                "srview: the input edits {}, not {}: {} is left as it is \
                 (`srview apply --transcript {} --dialect {}` applies it{})",
                others.join(", "),
                file.display(),
                file.display(),
                rerun.input_word(),
                row.value,
                rerun.stdin_note()
            );
        }
    }
    // The agent succeeds and writes nothing: FILE as it is is its result
    // (what a redirect of the output must hold), and a call without any
    // edit is said, as a diff without a SEARCH/REPLACE block is.
    let unchanged = (outcome.ok && !outcome.hangs && outcome.writes.is_empty())
        .then(|| as_read(&run, &target, file))
        .flatten();
    if let Some(nothing) = nothing_found(row, &run, args.diff.as_deref()) {
        let what = if args.write {
            format!("{} left as it was", file.display())
        } else {
            format!("the output is {} unchanged", file.display())
        };
        eprintln!("srview: warning: {nothing}: {what}");
    }
    let new_content = outcome.written(&target).flatten().or(unchanged.as_deref());
    let commit = commit(args, row, &run, Some(&target));
    let mut stdout = std::io::stdout().lock();
    let io_err = Error::stdout;
    if args.json || stream.is_some() {
        let mut report = CallReport::new(row.value, outcome);
        report.new_content = Some(new_content);
        let report = WithWrite {
            report,
            write: commit.as_ref().map(|c| &c.json),
        };
        match stream {
            None => serde_json::to_writer(&mut stdout, &report),
            Some((seq, bytes)) => serde_json::to_value(&report).and_then(|mut value| {
                if let Some(object) = value.as_object_mut() {
                    object.insert("seq".into(), seq.into());
                    object.insert("bytes".into(), bytes.into());
                    object.insert("final".into(), true.into());
                }
                serde_json::to_writer(&mut stdout, &value)
            }),
        }
        .map_err(|e| io_err(e.into()))?;
        writeln!(stdout).map_err(io_err)?;
    } else if outcome.ok && !args.write {
        if let Some(content) = new_content {
            stdout.write_all(content.as_bytes()).map_err(io_err)?;
        }
    } else if let Some(error) = &outcome.error {
        eprintln!("srview: {} fails:\n{error}", row.title);
    }
    stdout.flush().map_err(io_err)?;
    // A file the agent writes and then deletes: said (see `warn`), and no
    // success, whatever the output holds.
    let lost = !lost_files(row, &run).is_empty();
    match commit {
        Some(commit) if outcome.ok => commit.status(),
        _ => Ok(if outcome.ok && !elsewhere_only && !lost {
            0
        } else {
            1
        }),
    }
}

/// [`run_matcher`] on FILE, refused where the agent applies an edit to
/// FILE that the model meant for another file ([`refuse_moved_edit`]):
/// what `apply`, `check` and `fix` each run first.
fn run_for_file(
    row: &DialectRow,
    text: &str,
    cwd: &Path,
    file: &Path,
    rerun: &Rerun,
) -> Result<Run, Error> {
    let run = run_matcher(row, text, cwd, Some(file), rerun)?;
    refuse_moved_edit(row, &run, (&file_path(&run.cwd, file), file), rerun)?;
    Ok(run)
}

/// The refusal of a call whose edit names another file but lands on FILE
/// (`target`, as the matcher names it): Aider retries a block whose SEARCH
/// fails on its own file on every chat file, and FILE is in the chat. The
/// edit was meant for the file it names, as for every dialect whose input
/// names its file.
fn refuse_moved_edit(
    row: &DialectRow,
    run: &Run,
    (target, file): (&str, &Path),
    rerun: &Rerun,
) -> Result<(), Error> {
    let moved = run
        .outcome
        .edits
        .iter()
        .filter(|edit| edit.path.as_deref() == Some(target))
        .filter_map(|edit| edit.named.as_deref())
        .find(|named| !super::apply_dialect::names_file(named, file));
    match moved {
        None => Ok(()),
        // The folder is the current one, as the matcher ran here: the
        // command needs no `--cwd`.
        Some(named) => Err(Error::NoApply(
            crate::dialect::one_file::edits_another_file(
                named,
                file,
                &format!(
                    "{} would apply it to {} only because its SEARCH text is not in {named} \
                 and {} is in the chat; `srview apply --transcript {} --dialect {}` \
                 runs it over the folder{}",
                    row.title,
                    file.display(),
                    file.display(),
                    rerun.input_word(),
                    row.value,
                    rerun.stdin_note()
                ),
            ),
        )),
    }
}

/// What the agent looked for in the input and did not find, when the call
/// holds no edit at all and the agent succeeds doing nothing (see
/// [`CallMatcher::nothing_found`](crate::dialect::call::CallMatcher::nothing_found)).
fn nothing_found(row: &DialectRow, run: &Run, diff: Option<&Path>) -> Option<String> {
    let outcome = &run.outcome;
    if !outcome.ok || outcome.hangs || !outcome.edits.is_empty() || !outcome.writes.is_empty() {
        return None;
    }
    let source = super::load::diff_name(diff);
    row.matcher().map(|m| m.nothing_found(&run.input, &source))
}

/// FILE (`target`, as the matcher names it) as the matcher read it, else
/// as it is on disk; `None` when it does not exist or cannot be read.
fn as_read(run: &Run, target: &str, file: &Path) -> Option<String> {
    match run.seen.get(target) {
        Some(Entry::File(text)) => Some(text.clone()),
        Some(_) => None,
        None => crate::input::read_text(file, true).ok().flatten(),
    }
}

/// `srview apply --transcript PATCH --cwd DIR --dialect NAME`: stdout is
/// what the model reads.
pub(super) fn run_folder(args: &ApplyArgs, text: &str, cwd: &Path, row: &DialectRow) -> CmdResult {
    let run = run_matcher(row, text, cwd, None, &args.rerun())?;
    let outcome = &run.outcome;
    warn(row, &run, args.write);
    // An input holding no edit at all is said, as `apply FILE` says it
    // (tester finding 36/05): the agent succeeds doing nothing.
    if let Some(nothing) = nothing_found(row, &run, args.transcript.as_deref()) {
        let what = if args.write {
            "no file written"
        } else {
            "no file is edited"
        };
        eprintln!("srview: warning: {nothing}: {what}");
    }
    let commit = commit(args, row, &run, None);
    let mut stdout = std::io::stdout().lock();
    let io_err = Error::stdout;
    if args.json {
        let mut report = CallReport::new(row.value, outcome);
        report.files = Some(
            outcome
                .writes
                .iter()
                .map(|w| (w.path.as_str(), w.content.as_deref()))
                .collect(),
        );
        let report = WithWrite {
            report,
            write: commit.as_ref().map(|c| &c.json),
        };
        serde_json::to_writer(&mut stdout, &report).map_err(|e| io_err(e.into()))?;
        writeln!(stdout).map_err(io_err)?;
    } else if let Some(said) = run
        .model_text
        .as_ref()
        .or(outcome.error.as_ref())
        .or(outcome.message.as_ref())
        .filter(|_| {
            // The agent's summary says what it wrote: not printed over a
            // write held back or refused.
            commit.as_ref().is_none_or(|c| {
                matches!(
                    c.json.state,
                    WriteState::Written | WriteState::Unchanged | WriteState::NotApplied
                )
            })
        })
    {
        stdout.write_all(said.as_bytes()).map_err(io_err)?;
        if !said.ends_with('\n') {
            writeln!(stdout).map_err(io_err)?;
        }
    }
    stdout.flush().map_err(io_err)?;
    match commit {
        Some(commit) if outcome.ok || args.force => commit
            .status()
            .map(|code| if outcome.ok { code } else { 1 }),
        _ => Ok(if outcome.ok { 0 } else { 1 }),
    }
}

/// `srview check FILE INPUT --dialect NAME`: the agent's verdict, how each
/// edit matched, and every loose one said as a warning; exit 1 when the
/// agent fails, hangs, or a loose stage placed an edit (as `apply --write`
/// holds it back).
pub(super) fn check(args: &CheckArgs, row: &DialectRow, text: &str) -> CmdResult {
    let cwd = std::env::current_dir().map_err(|e| Error::read("the current folder", e))?;
    let run = run_for_file(row, text, &cwd, &args.file, &args.rerun())?;
    let outcome = &run.outcome;
    let mut notes = loose_notes(row, &run);
    notes.extend(lost_files(row, &run));
    let nothing = nothing_found(row, &run, args.diff.as_deref());
    let target = file_path(&run.cwd, &args.file);
    let correction = correction(row, &run, &target);
    if let (Some(nothing), true) = (&nothing, args.json) {
        eprintln!("srview: warning: {nothing}: nothing to check");
    }
    let mut stdout = std::io::stdout().lock();
    let io_err = Error::stdout;
    if args.json {
        let mut report = CallReport::new(row.value, outcome);
        let unchanged = (outcome.ok && !outcome.hangs && outcome.writes.is_empty())
            .then(|| as_read(&run, &target, &args.file))
            .flatten();
        report.new_content = Some(outcome.written(&target).flatten().or(unchanged.as_deref()));
        let asked = model_new_texts(row, &run, &target, &args.file);
        for ((block, edit), new) in report.blocks.iter_mut().zip(&outcome.edits).zip(&asked) {
            if let (Some(written), Some(new)) = (&edit.written, new) {
                block.written_differs = written_lines(written, new)
                    .into_iter()
                    .map(|(line, written, model)| crate::report::WrittenLine {
                        line,
                        written,
                        model,
                    })
                    .collect();
            }
        }
        if let Some(c) = &correction {
            report.explained = Some(
                c.edits
                    .iter()
                    .map(|e| Explained {
                        edit: e.index + 1,
                        message: &e.message,
                    })
                    .collect(),
            );
            report.corrected_input = Some(c.input.as_ref());
            report.correction_withheld = c.withheld.as_deref().filter(|_| c.input.is_none());
        }
        serde_json::to_writer(&mut stdout, &report).map_err(|e| io_err(e.into()))?;
        writeln!(stdout).map_err(io_err)?;
    } else {
        let mut text = String::new();
        for (i, edit) in outcome.edits.iter().enumerate() {
            let line = if edit.found.is_none() {
                // A stage named for an edit never placed (pi names every
                // edit of a refused call `exact`) would read as a match.
                match edit.stage.as_str() {
                    "" | "exact" => format!("edit {}: not placed\n", i + 1),
                    stage => format!("edit {}: not placed ({stage})\n", i + 1),
                }
            } else {
                let how = if edit.loose { "loose" } else { "exact" };
                let also = &edit.also_replaced;
                // Lines of the file as the call's earlier edits left it,
                // where the agent applies them one after another.
                let whose = crate::dialect::call_doubts::left_by(outcome, i)
                    .filter(|_| edit.lines.is_some())
                    .map(|left| format!(" of the file as {left} left it"))
                    .unwrap_or_default();
                format!(
                    "edit {}: {}{}{whose} ({how})\n",
                    i + 1,
                    edit.stage,
                    places(edit.lines, also)
                )
            };
            text.push_str(&line);
        }
        for note in &notes {
            text.push_str(&format!("warning: {note}\n"));
        }
        if let Some(note) = also_replaced_note(row, outcome) {
            text.push_str(&format!("note: {note}\n"));
        }
        let asked = row
            .strings
            .and_then(|fields| crate::dialect::call_correct::pairs(fields, &run.input))
            .unwrap_or_default();
        for (i, edit) in outcome.edits.iter().enumerate() {
            let old = asked.get(i).map(|(old, _)| old.as_str());
            for sentence in loose_sentences(row, &run, edit, old, &target, &args.file) {
                text.push_str(&format!("  edit {}: {sentence}\n", i + 1));
            }
        }
        // The text written where it is not the model's (a loose stage's
        // re-indentation): each line, at most three.
        let new_texts = model_new_texts(row, &run, &target, &args.file);
        for (i, edit) in outcome.edits.iter().enumerate() {
            let (Some(written), Some(Some(new))) = (&edit.written, new_texts.get(i)) else {
                continue;
            };
            let differing = written_lines(written, new);
            for (line, wrote, model) in differing.iter().take(3) {
                text.push_str(&format!(
                    "  edit {}: new text line {line}: the agent writes {wrote:?} where the model wrote {model:?}\n",
                    i + 1
                ));
            }
            if differing.len() > 3 {
                text.push_str(&format!(
                    "  edit {}: and {} more rewritten lines of the new text\n",
                    i + 1,
                    differing.len() - 3
                ));
            }
        }
        if let Some(nothing) = &nothing {
            text.push_str(&format!("{nothing}: nothing to check\n"));
        }
        if outcome.hangs {
            text.push_str(&format!("error: {}\n", hang_sentence(row)));
        }
        match (&outcome.error, &outcome.message) {
            (Some(error), _) => text.push_str(&format!("error: the agent fails:\n{error}\n")),
            (None, Some(message)) => text.push_str(&format!("the agent says: {message}\n")),
            (None, None) => {}
        }
        // Where the agent counted places the text as sent does not stand
        // at, and why (pi's normalization, a tester's find 43a-19).
        if outcome.error.is_some()
            && let (Some(matcher), Some(content)) =
                (row.matcher(), as_read(&run, &target, &args.file))
        {
            for (i, (old, _)) in asked.iter().enumerate() {
                if let Some(said) = matcher.counted_places(&content, old) {
                    text.push_str(&format!("edit {}: {said}\n", i + 1));
                }
            }
        }
        for (index, fault) in aider_dots_faults(row, &run, &target, &args.file) {
            text.push_str(&format!("edit {}: {}\n", index + 1, fault.said));
        }
        if let Some(c) = &correction {
            for e in &c.edits {
                text.push_str(&format!("edit {}: {}\n", e.index + 1, e.message));
            }
            match (&c.input, &c.withheld) {
                (Some(input), _) => text.push_str(&format!(
                    "corrected edit (the tool's input, placed exactly by {}):\n{}\n",
                    row.title,
                    serde_json::to_string(input).unwrap_or_default()
                )),
                (None, Some(why)) => text.push_str(&format!("{}\n", withheld_said(why))),
                (None, None) => {}
            }
        }
        stdout.write_all(text.as_bytes()).map_err(io_err)?;
    }
    stdout.flush().map_err(io_err)?;
    Ok(
        if outcome.ok && !outcome.hangs && notes.is_empty() && nothing.is_none() {
            0
        } else {
            1
        },
    )
}

/// Whether `path`, as a reply names it, is `target` (by its path or its
/// file name, as Aider finds a chat file).
fn names_target(path: &str, target: &str) -> bool {
    let name = |path: &str| path.rsplit('/').next().unwrap_or(path).to_string();
    path == target || name(path) == name(target)
}

/// The model's new text of each edit of `run`, in order, where the check
/// compares what the agent writes with it: every edit of a string-edit
/// dialect; for Aider's diff format, each block a loose stage placed (its
/// REPLACE as sent: `missing_leading_whitespace` writes it re-indented).
fn model_new_texts(row: &DialectRow, run: &Run, target: &str, file: &Path) -> Vec<Option<String>> {
    if let Some(asked) = crate::dialect::call_doubts::asked(row, &run.input) {
        return asked.into_iter().map(|(_, new)| Some(new)).collect();
    }
    let reply = run.input.get("reply").and_then(serde_json::Value::as_str);
    let (Some(reply), "aider-diff", Some(content)) = (reply, row.value, as_read(run, target, file))
    else {
        return Vec::new();
    };
    let texts = crate::dialect::aider_diff::replace_texts(reply, &content);
    // `dotdotdots` writes each REPLACE piece as sent (`str.replace`) where
    // its SEARCH piece stands, the file's own lines between: no line of the
    // text written pairs with the REPLACE line at the same number (a
    // tester's find, 43b-03: pieces out of order paired `a = 10` with
    // `c = 30`), so none is compared.
    (run.outcome.edits.iter().zip(texts))
        .map(|(edit, text)| (edit.loose && edit.stage != "dotdotdots").then_some(text))
        .collect()
}

/// The blocks of FILE that Aider's `...` rules refuse, by edit index, with
/// why ([`crate::dialect::aider_diff::dots_faults`]); empty for other
/// dialects.
fn aider_dots_faults(
    row: &DialectRow,
    run: &Run,
    target: &str,
    file: &Path,
) -> Vec<(usize, crate::dialect::aider_diff::DotsFault)> {
    let reply = run.input.get("reply").and_then(serde_json::Value::as_str);
    let (Some(reply), "aider-diff") = (reply, row.value) else {
        return Vec::new();
    };
    let Some(content) = as_read(run, target, file) else {
        return Vec::new();
    };
    crate::dialect::aider_diff::dots_faults(reply, &content, |path| names_target(path, target))
}

/// `srview fix FILE INPUT --dialect NAME`: the tool input with its failed
/// or loose string edits corrected (see [`crate::dialect::call_correct`]),
/// on stdout; exit 0 when every edit is placed exactly once corrected (or
/// already was), 1 with nothing on stdout (said why on stderr) when srview
/// cannot stand behind a correction or the agent fails otherwise.
pub(super) fn fix(args: &super::FixArgs, row: &DialectRow, text: &str) -> CmdResult {
    if row.strings.is_none() {
        if row.text_field == Some("reply") {
            return fix_aider(args, row, text);
        }
        if row.text_field.is_some() {
            return fix_patch(args, row, text);
        }
        return Err(Error::usage(format!(
            "--dialect {}: fix corrects string edits and patches; {} is neither (check explains it)",
            row.value, row.title
        )));
    }
    let cwd = std::env::current_dir().map_err(|e| Error::read("the current folder", e))?;
    let (run, target, _) = run_on_file(args, row, text, &cwd, "input")?;
    let input = &run.input;
    let correction = correction(row, &run, &target);
    let (printed, code) = match &correction {
        None if !run.outcome.ok => {
            // Nothing srview can correct edit by edit (overlapping edits,
            // an input the agent rejects): the agent's own words.
            eprintln!(
                "srview: the agent fails and srview has no correction:\n{}",
                run.outcome.error.as_deref().unwrap_or("(no error text)")
            );
            return Ok(1);
        }
        None => {
            if let Some(code) = exact_but_in_doubt(row, &run, "edit") {
                return Ok(code);
            }
            eprintln!("srview: nothing to fix: every edit is placed exactly");
            (input.clone(), 0)
        }
        Some(c) => match (&c.input, &c.withheld) {
            (Some(fixed), _) => {
                let numbers: Vec<String> =
                    c.edits.iter().map(|e| (e.index + 1).to_string()).collect();
                eprintln!(
                    "srview: corrected edit {} (placed exactly by {})",
                    numbers.join(", "),
                    row.title
                );
                (fixed.clone(), 0)
            }
            (None, why) => {
                for e in &c.edits {
                    eprintln!("srview: edit {}: {}", e.index + 1, e.message);
                }
                if let Some(why) = why {
                    eprintln!("srview: {}", withheld_said(why));
                }
                // Nothing on stdout: the input as it was is no fix.
                return Ok(1);
            }
        },
    };
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer(&mut stdout, &printed).map_err(|e| Error::stdout(e.into()))?;
    writeln!(stdout).map_err(Error::stdout)?;
    stdout.flush().map_err(Error::stdout)?;
    Ok(code)
}

/// The failed or loose string edits of `run` explained and corrected (see
/// [`crate::dialect::call_correct`]), against FILE (`target`) as the
/// matcher read it.
/// `fix FILE INPUT` for a patch tool (OpenCode's or Cline's apply_patch):
/// FILE's section corrected as srview corrects a Codex patch, offered in the
/// tool's own input only when the agent's own matcher then places every
/// hunk exactly and succeeds.
/// `fix` on a call placed exactly but in doubt (`check` exits 1 for it, the
/// warnings say why): no correction settles it, and "nothing to fix" would
/// pass it. The warnings and `Some(1)`; `None` when nothing is in doubt.
/// `what`: the input's name in the sentence (`patch`, `reply`, `edit`).
fn exact_but_in_doubt(row: &DialectRow, run: &Run, what: &str) -> Option<u8> {
    let doubts = loose_notes(row, run);
    if doubts.is_empty() {
        return None;
    }
    for doubt in &doubts {
        eprintln!("srview: warning: {doubt}");
    }
    eprintln!(
        "srview: no corrected {what}: every edit is placed exactly, but in doubt \
         (the warning says what to change)"
    );
    Some(1)
}

/// `fix FILE INPUT` of a patch tool's call placed exactly whose sections
/// for one file are in doubt ([`PatchDoubtKind::SplitSections`]: OpenCode
/// loses the earlier section's change): the input with each file's
/// sections joined into one, printed (exit 0) when the agent's own matcher
/// places it exactly with nothing in doubt; else why not (exit 1). `None`
/// when no such doubt is there.
///
/// [`PatchDoubtKind::SplitSections`]: crate::dialect::apply_patch::PatchDoubtKind::SplitSections
fn joined_sections(
    args: &super::FixArgs,
    row: &DialectRow,
    run: &Run,
    cwd: &Path,
) -> Result<Option<u8>, Error> {
    use crate::dialect::apply_patch::{PatchDoubtKind, parse, render, sections};
    let split = run
        .outcome
        .patch_doubts
        .iter()
        .flatten()
        .any(|d| d.kind == PatchDoubtKind::SplitSections);
    let field = row.text_field.unwrap_or("patchText");
    let text = run.input.get(field).and_then(serde_json::Value::as_str);
    let joined = text
        .and_then(|t| parse(t).ok())
        .and_then(|p| sections::joined(&p))
        .map(|j| render(&j.patch));
    let (true, Some(joined)) = (split, joined) else {
        return Ok(None);
    };
    let mut input = run.input.clone();
    if let Some(object) = input.as_object_mut() {
        object.insert(field.to_string(), joined.into());
    }
    let text = serde_json::to_string(&input).map_err(|e| Error::stdout(e.into()))?;
    let check = run_matcher(row, &text, cwd, Some(&args.file), &args.rerun())?;
    let doubted = check
        .outcome
        .patch_doubts
        .as_ref()
        .is_some_and(|d| !d.is_empty());
    if !check.outcome.exact() || check.outcome.hangs || doubted {
        for doubt in loose_notes(row, run) {
            eprintln!("srview: warning: {doubt}");
        }
        eprintln!(
            "srview: no corrected patch: {} does not place the patch with its sections for \
             one file joined into one exactly, or it is in doubt too",
            row.title
        );
        return Ok(Some(1));
    }
    eprintln!(
        "srview: corrected the patch for {} (its sections for one file joined into one; \
         placed exactly by {})",
        args.file.display(),
        row.title
    );
    print_input(&input)?;
    Ok(Some(0))
}

/// `input` as one JSON line on stdout (`fix`'s corrected input).
fn print_input(input: &serde_json::Value) -> Result<(), Error> {
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer(&mut stdout, input).map_err(|e| Error::stdout(e.into()))?;
    writeln!(stdout).map_err(Error::stdout)?;
    stdout.flush().map_err(Error::stdout)
}

fn fix_patch(args: &super::FixArgs, row: &DialectRow, text: &str) -> CmdResult {
    let cwd = std::env::current_dir().map_err(|e| Error::read("the current folder", e))?;
    let (run, target, content) = run_on_file(args, row, text, &cwd, "input")?;
    let content = &content;
    let exact = run.outcome.exact();
    if exact {
        if let Some(code) = joined_sections(args, row, &run, &cwd)? {
            return Ok(code);
        }
        if let Some(code) = exact_but_in_doubt(row, &run, "patch") {
            return Ok(code);
        }
        eprintln!("srview: nothing to fix: every hunk is placed exactly");
        print_input(&run.input)?;
        return Ok(0);
    }
    let field = row.text_field.unwrap_or("patchText");
    let Some(patch) = run.input.get(field).and_then(serde_json::Value::as_str) else {
        eprintln!("srview: the input has no {field} text to correct");
        return Ok(1);
    };
    let cwd_text = run.cwd.to_string_lossy();
    let place = crate::dialect::one_file::Target {
        cwd: &cwd_text,
        name: &target,
        content: Some(content),
    };
    let shown = args.file.display().to_string();
    let corrected = crate::dialect::corrected::correct(
        patch,
        crate::dialect::Dialect::ApplyPatch,
        &place,
        &shown,
    );
    let withheld = |why: String| {
        eprintln!("srview: no corrected patch: {why}");
        if let Some(error) = &run.outcome.error {
            eprintln!("srview: the agent fails:\n{error}");
        }
        Ok(1)
    };
    let fixed = match corrected {
        Ok(crate::dialect::corrected::Corrected {
            text: Some(fixed),
            complete: true,
            ..
        }) => fixed,
        Ok(c) => {
            return withheld(
                c.note
                    .unwrap_or_else(|| "srview cannot stand behind one".into()),
            );
        }
        Err(e) => return withheld(e.to_string()),
    };
    let mut input = run.input.clone();
    if let Some(object) = input.as_object_mut() {
        object.insert(field.to_string(), fixed.into());
    }
    // Checked with the agent's own matcher, over the same folder.
    let text = serde_json::to_string(&input).map_err(|e| Error::stdout(e.into()))?;
    let check = run_matcher(row, &text, &cwd, Some(&args.file), &args.rerun())?;
    let placed = check.outcome.exact() && !check.outcome.hangs;
    if !placed {
        return withheld(format!(
            "{} does not place the corrected patch exactly",
            row.title
        ));
    }
    eprintln!(
        "srview: corrected the patch for {} (placed exactly by {})",
        args.file.display(),
        row.title
    );
    print_input(&input)?;
    Ok(0)
}

/// `fix FILE REPLY --dialect aider-diff`: FILE's blocks corrected as srview
/// corrects SEARCH/REPLACE blocks (each SEARCH made the file's own lines),
/// the reply's blocks for other files kept, printed as a reply of edit
/// blocks only when Aider's own matcher then places every block `perfect`.
fn fix_aider(args: &super::FixArgs, row: &DialectRow, text: &str) -> CmdResult {
    let cwd = std::env::current_dir().map_err(|e| Error::read("the current folder", e))?;
    let (run, target, content) = run_on_file(args, row, text, &cwd, "reply")?;
    let content = &content;
    let reply = run
        .input
        .get("reply")
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default();
    if run.outcome.exact() {
        if let Some(code) = exact_but_in_doubt(row, &run, "reply") {
            return Ok(code);
        }
        eprintln!("srview: nothing to fix: every block is placed exactly");
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(reply.as_bytes()).map_err(Error::stdout)?;
        return Ok(0);
    }
    let ours = |path: &str| names_target(path, &target);
    if row.value == "aider-udiff" {
        return fix_aider_udiff(
            row,
            reply,
            content,
            (&cwd, &args.file, &args.rerun()),
            &ours,
        );
    }
    let calls = crate::source::aider::parse(reply);
    // Each of FILE's blocks' lines in the reply, for the notes.
    let reply_lines: Vec<[usize; 2]> = crate::source::aider::block_lines(reply)
        .into_iter()
        .zip(&calls)
        .filter(|(_, c)| ours(&c.path))
        .map(|(lines, _)| lines)
        .collect();
    let said = |note: &crate::diagnose::fix::Note| match reply_lines.get(note.block) {
        Some(&[first, last]) => format!(
            "block #{} ({}) {}",
            note.block + 1,
            crate::words::line_range("reply line", first, last),
            note.text
                .replace("{FILE}", &args.file.display().to_string())
        ),
        None => note.line(&args.file.display().to_string()),
    };
    let diff: String = calls
        .iter()
        .filter(|c| ours(&c.path))
        .map(|c| c.body.as_str())
        .collect();
    let faults = crate::dialect::aider_diff::dots_faults(reply, content, ours);
    if !faults.is_empty() {
        return fix_aider_dots(
            row,
            reply,
            content,
            (&cwd, &args.file, &args.rerun()),
            &faults,
        );
    }
    let options = crate::engine::Options {
        version: crate::engine::Version::V1,
        is_final: true,
    };
    let fixed =
        crate::diagnose::fix::fix_for(&args.file.display().to_string(), &diff, content, options);
    let shown = args.file.display().to_string();
    if fixed.no_block || fixed.notes.iter().any(|n| n.unplaced) {
        for note in &fixed.notes {
            eprintln!("srview: {}", said(note));
        }
        eprintln!("srview: no corrected reply: srview cannot place every block of {shown}");
        return Ok(1);
    }
    // The reply again, edit blocks only, in Aider's own markers.
    let aider_blocks = |path: &str, body: &str| {
        let mut out = format!("{path}\n```\n");
        for line in body.split_inclusive('\n') {
            out.push_str(match line.trim_end_matches(['\r', '\n']) {
                "------- SEARCH" => "<<<<<<< SEARCH\n",
                "+++++++ REPLACE" => ">>>>>>> REPLACE\n",
                _ => line,
            });
        }
        out.push_str("```\n\n");
        out
    };
    let mut corrected = String::new();
    let mut ours_written = false;
    for call in &calls {
        if !ours(&call.path) {
            corrected.push_str(&aider_blocks(&call.path, &call.body));
        } else if !ours_written {
            corrected.push_str(&aider_blocks(&call.path, &fixed.diff));
            ours_written = true;
        }
    }
    let placed = run_matcher(row, &corrected, &cwd, Some(&args.file), &args.rerun())?
        .outcome
        .exact();
    let notes: Vec<String> = fixed.notes.iter().map(said).collect();
    print_corrected_reply(row, &corrected, placed, ("blocks", &shown), &notes)
}

/// The corrected `reply` printed (stdout), after the `notes` and a line
/// that says what was corrected (stderr), when `row`'s matcher places it
/// exactly (`placed`; exit 0); otherwise only why there is none (exit 1).
/// `what`: the reply's parts corrected (`blocks`, `hunks`) and FILE as
/// said.
fn print_corrected_reply(
    row: &DialectRow,
    reply: &str,
    placed: bool,
    (parts, shown): (&str, &str),
    notes: &[String],
) -> CmdResult {
    if !placed {
        eprintln!(
            "srview: no corrected reply: {} does not place the corrected {parts} exactly",
            row.title
        );
        return Ok(1);
    }
    for note in notes {
        eprintln!("srview: {note}");
    }
    eprintln!(
        "srview: corrected the reply's {parts} for {shown} (placed exactly by {})",
        row.title
    );
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(reply.as_bytes()).map_err(Error::stdout)?;
    stdout.flush().map_err(Error::stdout)?;
    Ok(0)
}

/// `fix` of an Aider udiff reply that Aider places loosely or not at all:
/// FILE's hunks corrected as SEARCH/REPLACE blocks are (their before-text
/// the file's own lines, [`crate::diagnose::fix::fix_for`]), written back
/// as a udiff reply, the other files' hunks as they were; printed only when
/// Aider's udiff matcher then places every hunk exactly (a tester's find:
/// `fix --dialect aider-udiff` corrected nothing `--dialect aider-diff`
/// corrects).
fn fix_aider_udiff(
    row: &DialectRow,
    reply: &str,
    content: &str,
    (cwd, file, rerun): (&Path, &Path, &Rerun),
    ours: &dyn Fn(&str) -> bool,
) -> CmdResult {
    use crate::dialect::aider_diff::{reply_hunks, reply_of};
    let shown = file.display().to_string();
    let Some(hunks) = reply_hunks(reply) else {
        eprintln!("srview: no corrected reply: Aider's parser fails on the reply");
        return Ok(1);
    };
    let mine = |path: &Option<String>| path.as_deref().is_some_and(ours);
    let diff: String = hunks
        .iter()
        .filter(|(path, ..)| mine(path))
        .map(|(_, before, after)| crate::engine::markers::canonical_block(before, after))
        .collect();
    let options = crate::engine::Options {
        version: crate::engine::Version::V1,
        is_final: true,
    };
    let fixed = crate::diagnose::fix::fix_for(&shown, &diff, content, options);
    if fixed.no_block || fixed.notes.iter().any(|n| n.unplaced) {
        for note in &fixed.notes {
            eprintln!("srview: {}", note.line(&shown));
        }
        eprintln!("srview: no corrected reply: srview cannot place every hunk of {shown}");
        return Ok(1);
    }
    // The reply again: FILE's hunks corrected, under the path the model
    // wrote; every other file's hunks as they were.
    let mut corrected = String::new();
    let mut ours_written = false;
    for (path, before, after) in &hunks {
        let Some(path) = path else { continue };
        if !mine(&Some(path.clone())) {
            corrected.push_str(&reply_of(path, &[(before.clone(), after.clone())]));
        } else if !ours_written {
            // The corrected blocks as the engine reads them.
            let pairs: Vec<(String, String)> = crate::engine::apply(&fixed.diff, content, options)
                .blocks
                .into_iter()
                .map(|b| (b.search_text, b.replace_text))
                .collect();
            corrected.push_str(&reply_of(path, &pairs));
            ours_written = true;
        }
    }
    let placed = run_matcher(row, &corrected, cwd, Some(file), rerun)?
        .outcome
        .exact();
    let notes: Vec<String> = fixed.notes.iter().map(|n| n.line(&shown)).collect();
    print_corrected_reply(row, &corrected, placed, ("hunks", &shown), &notes)
}

/// `fix` of a reply whose blocks for FILE break Aider's `...` rules: each
/// said with its reply lines; the reply with the REPLACE's `...` lines
/// written as the SEARCH's printed only when that mends every such block
/// and Aider's matcher then places every block exactly (a tester's find:
/// srview blamed the `...` line as a SEARCH line missing from the file).
fn fix_aider_dots(
    row: &DialectRow,
    reply: &str,
    content: &str,
    (cwd, file, rerun): (&Path, &Path, &Rerun),
    faults: &[(usize, crate::dialect::aider_diff::DotsFault)],
) -> CmdResult {
    let lines = crate::source::aider::block_lines(reply);
    for (index, fault) in faults {
        let at = lines
            .get(*index)
            .map(|&[first, last]| {
                format!(" ({})", crate::words::line_range("reply line", first, last))
            })
            .unwrap_or_default();
        eprintln!("srview: block #{}{at}: {}", index + 1, fault.said);
    }
    let shown = file.display().to_string();
    let mended = crate::dialect::aider_diff::mend_dots(reply, content, faults);
    let Some(mended) = mended else {
        eprintln!("srview: no corrected reply: srview cannot place every block of {shown}");
        return Ok(1);
    };
    let placed = run_matcher(row, &mended, cwd, Some(file), rerun)?
        .outcome
        .exact();
    print_corrected_reply(row, &mended, placed, ("blocks", &shown), &[])
}

fn correction(
    row: &DialectRow,
    run: &Run,
    target: &str,
) -> Option<crate::dialect::call_correct::Correction> {
    let Some(Entry::File(content)) = run.seen.get(target) else {
        return None;
    };
    // The gate's own decision: `check`, `fix` and the gate offer the same
    // correction, or give the same reason for none.
    crate::gate::settled_correction(
        row,
        &run.input,
        (target, &run.cwd.to_string_lossy()),
        content,
        &run.outcome,
    )
}

/// Why no corrected edit is offered, said as a sentence of its own
/// ("no corrected edit: ..." once).
fn withheld_said(why: &str) -> String {
    if why.starts_with("no corrected edit") {
        why.to_string()
    } else {
        format!("no corrected edit: {why}")
    }
}

/// `fix FILE INPUT`'s run of `row`'s matcher over `cwd`: the run, FILE as
/// the matcher names it, and FILE's content as the matcher read it; an
/// error when the `input` (the tool's input, Aider's reply) does not edit
/// FILE or FILE cannot be read.
fn run_on_file(
    args: &super::FixArgs,
    row: &DialectRow,
    text: &str,
    cwd: &Path,
    input: &str,
) -> Result<(Run, String, String), Error> {
    // As `apply` and `check`: an edit meant for another file is no fix of FILE.
    let run = run_for_file(row, text, cwd, &args.file, &args.rerun())?;
    if let Some(nothing) = nothing_found(row, &run, args.diff.as_deref()) {
        // As a diff without a SEARCH/REPLACE block: exit 1, said.
        return Err(Error::NoApply(format!(
            "warning: {nothing}: nothing to fix, nothing printed"
        )));
    }
    let target = file_path(&run.cwd, &args.file);
    let Some(Entry::File(content)) = run.seen.get(&target) else {
        return Err(Error::refused(format!(
            "{}: the {input} does not edit this file, or it cannot be read",
            args.file.display()
        )));
    };
    let content = content.clone();
    Ok((run, target, content))
}

/// FILE as the matcher's file system names it (see [`fs_path`]).
fn file_path(cwd: &Path, file: &Path) -> String {
    let absolute = if file.is_absolute() {
        file.to_path_buf()
    } else {
        cwd.join(file)
    };
    fs_path(&cwd.to_string_lossy(), &absolute.to_string_lossy())
}

/// ` at line N` / ` at lines A-B`, then every further place `also` (a
/// replace-all's other places: ` and lines C-D`), or nothing.
/// The places after the first are listed up to [`PLACES_LISTED`] in all,
/// the rest counted (a `}` replaced in 20,000 places was a line of 20,000
/// numbers).
fn places(lines: Option<(usize, usize)>, also: &[(usize, usize)]) -> String {
    let mut out = place(lines);
    let listed = PLACES_LISTED.saturating_sub(1);
    for &range in also.iter().take(listed) {
        out.push_str(&format!(" and {}", lines_text(range)));
    }
    if also.len() > listed {
        out.push_str(&format!(
            " and {}",
            crate::words::count(also.len() - listed, "more place")
        ));
    }
    out
}

/// How many places of a replace-all edit `check` lists.
const PLACES_LISTED: usize = 12;

/// What a replace-all edit changed beyond its first place, said whether or
/// not it was placed loosely (the edit named where the call has several):
/// `None` when it changed one place, and for an agent that replaces every
/// place unasked (Aider's udiff), whose call changing several places is a
/// doubt ([`loose_notes`]), not a note.
fn also_replaced_note(row: &DialectRow, outcome: &CallOutcome) -> Option<String> {
    if row
        .matcher()
        .is_some_and(|m| m.replaces_every_place_unasked())
    {
        return None;
    }
    let several = outcome.edits.len() > 1;
    let notes: Vec<String> = crate::dialect::call_doubts::every_place_changes(row.title, outcome)
        .into_iter()
        .map(|(i, note)| {
            if several {
                format!("edit {}: {note}", i + 1)
            } else {
                note
            }
        })
        .collect();
    (!notes.is_empty()).then(|| notes.join("; "))
}

/// ` at line N` / ` at lines A-B`, or nothing.
fn place(lines: Option<(usize, usize)>) -> String {
    lines
        .map(|range| format!(" at {}", lines_text(range)))
        .unwrap_or_default()
}

/// What `check` says of `edit` where a loose stage placed it
/// ([`crate::dialect::placed`]): each place it changed, where the file
/// differs from the model's old text (`old`, else the text the agent
/// sought); that it is another definition than the model's; and, where
/// the agent says which lines it sought (a patch's hunk), what it writes
/// there. Nothing for an edit placed exactly or not at all.
fn loose_sentences(
    row: &DialectRow,
    run: &Run,
    edit: &crate::dialect::call::EditMatch,
    old: Option<&str>,
    target: &str,
    file: &Path,
) -> Vec<String> {
    use crate::dialect::placed;
    let sought = edit.searched.as_ref().and_then(|s| s.sought.as_deref());
    let (true, Some(found), Some(old), Some((first, _))) =
        (edit.loose, &edit.found, old.or(sought), edit.lines)
    else {
        return Vec::new();
    };
    let content = searched_text(run, edit, target, file);
    let lines: Vec<&str> = content
        .as_deref()
        .map_or(Vec::new(), crate::textdiff::text_lines);
    // The file's whole line where the stage matched part of it (a
    // tester's find, 43a-10: `retries = 1` quoted for the file's
    // `retries = 10`).
    let whole = |n: usize| Some(lines.get(n.checked_sub(1)?)?.to_string());
    let last = content.is_some().then_some(lines.len());
    let mut out = placed::differing_lines(found, old, first, whole, last);
    // Every further place a replace-all stage changed, against the same
    // old text (a tester's find, 43a-05: Gemini CLI's fuzzy stage
    // rewrote a second window, whose differing lines went unsaid).
    for &(from, to) in &edit.also_replaced {
        let Some(region) = lines.get(from.saturating_sub(1)..to.min(lines.len())) else {
            continue;
        };
        out.extend(placed::differing_lines(
            &region.join("\n"),
            old,
            from,
            whole,
            last,
        ));
    }
    let regions =
        std::iter::once((found.clone(), first)).chain(edit.also_replaced.iter().filter_map(
            |&(from, to)| Some((lines.get(from.checked_sub(1)?..to)?.join("\n"), from)),
        ));
    out.extend(
        regions
            .filter_map(|(region, at)| {
                placed::another_definition(&region, old, at, content.as_deref())
            })
            .take(1),
    );
    if let (Some(_), Some(written), Some(last)) = (sought, &edit.written, last) {
        out.extend(placed::what_it_writes(
            row.title, found, written, first, last,
        ));
    }
    out
}

/// The text `edit` was searched in: the text the agent says it searched
/// (Aider's, as earlier blocks left it), the file the patch names (Cline's
/// sections), else FILE as read.
fn searched_text(
    run: &Run,
    edit: &crate::dialect::call::EditMatch,
    target: &str,
    file: &Path,
) -> Option<String> {
    let searched = edit.searched.as_deref();
    if let Some(content) = searched.and_then(|s| s.content.clone()) {
        return Some(content);
    }
    match searched.and_then(|s| s.file.as_deref()) {
        Some(named) => match run.seen.get(&file_path(&run.cwd, Path::new(named))) {
            Some(Entry::File(text)) => Some(text.clone()),
            _ => None,
        },
        None => as_read(run, target, file),
    }
}

/// The lines (from 1) of the text an edit wrote that differ from the
/// model's new text `asked`, each as (line, written, the model's), line
/// endings as LF; a line one side lacks is empty there.
fn written_lines(written: &str, asked: &str) -> Vec<(usize, String, String)> {
    let plain = |text: &str| text.trim_start_matches('\u{feff}').replace("\r\n", "\n");
    let (written, asked) = (plain(written), plain(asked));
    if written == asked {
        return Vec::new();
    }
    // A line break ending one text and not the other is no line of its own.
    let ours: Vec<&str> = written
        .strip_suffix('\n')
        .unwrap_or(&written)
        .split('\n')
        .collect();
    let theirs: Vec<&str> = asked
        .strip_suffix('\n')
        .unwrap_or(&asked)
        .split('\n')
        .collect();
    (0..ours.len().max(theirs.len()))
        .filter_map(|i| {
            let (a, b) = (ours.get(i).copied(), theirs.get(i).copied());
            (a != b).then(|| {
                (
                    i + 1,
                    a.unwrap_or_default().to_string(),
                    b.unwrap_or_default().to_string(),
                )
            })
        })
        .collect()
}

/// What the agent's run loses: a file it writes and then deletes, told by
/// the input's `*** Move to:` naming the file itself, else by its writes
/// (nothing when the agent fails: it writes nothing). `--write` holds the
/// result back for it, `check` warns and exits 1, `apply` warns and exits
/// 1. One sentence each.
fn lost_files(row: &DialectRow, run: &Run) -> Vec<String> {
    if !run.outcome.ok {
        return Vec::new();
    }
    let moved = moved_onto_itself(row, &run.input);
    if moved.is_empty() {
        written_then_deleted(&run.outcome)
    } else {
        moved
    }
}

/// A patch section that moves a file onto itself (`*** Update File: P`
/// then `*** Move to: P`): the agents write P and then delete it. One
/// sentence each.
fn moved_onto_itself(row: &DialectRow, input: &serde_json::Value) -> Vec<String> {
    let Some(text) = row
        .text_field
        .and_then(|field| input.get(field))
        .and_then(serde_json::Value::as_str)
    else {
        return Vec::new();
    };
    let mut updated: Option<String> = None;
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(path) = line.strip_prefix("*** Update File:") {
            updated = Some(crate::dialect::call::normalize(path.trim()));
        } else if let Some(to) = line.strip_prefix("*** Move to:") {
            let to = crate::dialect::call::normalize(to.trim());
            if updated.as_deref() == Some(to.as_str()) {
                out.push(format!(
                    "the patch moves {to} onto itself: {} writes it and then deletes it, and the file would be lost",
                    row.title
                ));
            }
        } else if line.starts_with("*** ") {
            updated = None;
        }
    }
    out
}

/// A file the agent writes and then deletes (a `Move to` that names the
/// file itself): its edit ends as the file's loss. One sentence each.
fn written_then_deleted(outcome: &CallOutcome) -> Vec<String> {
    let mut out = Vec::new();
    for (i, write) in outcome.writes.iter().enumerate() {
        let deleted_later = write.content.is_some()
            && outcome.writes[i + 1..]
                .iter()
                .any(|later| later.path == write.path && later.content.is_none());
        let deleted_after_move = write.content.is_none()
            && outcome.writes[..i]
                .iter()
                .any(|earlier| earlier.path == write.path && earlier.content.is_some());
        if deleted_later || deleted_after_move {
            let doubt = format!(
                "the agent writes {} and then deletes it (a move onto itself): the file would be lost",
                write.path
            );
            if !out.contains(&doubt) {
                out.push(doubt);
            }
        }
    }
    out
}
