//! srview's own verdict on one agent edit: the edit's input applied to a
//! content before with the applier of its dialect.
//!
//! | input | applier |
//! |---|---|
//! | SEARCH/REPLACE (Cline classic `replace_in_file`, an Aider block still arriving) | the engine, v1 (Cline's default parser) |
//! | an apply_patch section (Codex) | `dialect::apply_patch` over a `MemoryFs` holding the content before |
//! | a tool call for an agent's own matcher (`EditInput::Call`: Aider's blocks; Cline CLI's apply_patch, by the agent table) | that matcher, over a `MemoryFs` holding the content before |
//! | Edit / Write / editor | `dialect::edit` |
//! | a whole content (`write_to_file`, Aider whole) | none needed: a whole-file block |
//! | a unified diff (Aider udiff hunk, Codex app-server) | its hunks as SEARCH/REPLACE blocks, engine v1 |

use serde::Serialize;

use crate::diagnose::layout::BreakKind;
use crate::dialect::apply_patch::{self, HunkReport, MemoryFs};
use crate::dialect::edit::{self, Edit};
use crate::dialect::udiff;
use crate::engine::{self, BlockReport, Options, Stage, Version};
use crate::error::Refusal;
use crate::source::agent::{CallInput, EditInput, FileContent, split_patch};

/// Which applier gave the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Applier {
    /// The engine, SEARCH/REPLACE v1.
    SearchReplaceV1,
    /// `dialect::apply_patch` (Codex 0.169.0's rules).
    ApplyPatch,
    /// `dialect::edit` (Claude Code Edit/Write, Cline editor).
    Edit,
    /// A whole new content: nothing to match.
    WholeFile,
    /// The agent's own matcher (`dialect::call`).
    Agent,
    /// The input is not recorded (or incomplete): nothing was run.
    None,
}

/// One block of the verdict: an engine block or an apply_patch hunk (with
/// its match level).
#[derive(Debug, Clone)]
pub enum VerdictBlock {
    /// An engine block (SEARCH/REPLACE, an exact-string edit, a whole file).
    Block(BlockReport),
    /// An apply_patch hunk.
    Hunk(HunkReport),
    /// An edit placed by its agent's own matcher.
    Call(crate::dialect::call::EditMatch),
}

/// What a doubt of srview's trust checks is about: an edit its applier
/// placed exactly whose result srview cannot stand behind all the same
/// (what the gate denies and `check`/`apply --write` hold back).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DoubtKind {
    /// Its new text stands in for lines of its old text it leaves out
    /// (`# ... existing helpers unchanged ...`): those lines are gone.
    StandsIn,
    /// Its new text begins or ends with the lines right around its old
    /// text: written, they stand twice.
    WritesTwice,
    /// The result leaves the file with a fault the file before did not
    /// have ([`crate::diagnose::layout::layout_break`]): misindented
    /// (Python's `IndentationError`, a Makefile's recipe, a YAML key at a
    /// column YAML refuses), a name defined twice (the later definition
    /// silently wins, or the file no longer compiles), brackets unbalanced,
    /// JSON, YAML or TOML unreadable, a Python name used and no longer
    /// defined (running the line raises NameError), a string left open.
    /// Named by the fault: `misindents`, `defines-twice`, `unbalanced`,
    /// `not-json`, `not-yaml`, `not-toml`, `undefined`, `unclosed`.
    Layout(BreakKind),
    /// A whitespace-blind match kept the edit's own indentation: its new
    /// lines are shifted against the lines they replace.
    ShiftsIndent,
    /// Its new text already stood where its old text matched: applied
    /// again, what it adds repeats.
    AppliedAlready,
    /// Its old text starts or ends inside a word of the file.
    CutsWord,
    /// Its old text matched only inside a comment, while a line of code
    /// starts as it does: the comment is changed, not the code.
    InComment,
    /// A replace-all rename whose places play different roles (a name, an
    /// attribute of another object, a string): other things are renamed
    /// too.
    RenamesOthers,
    /// Lines it does not show got other line endings.
    LineEndings,
    /// The agent wrote another text than the model's new text.
    Rewritten,
    /// The text it replaced stands at other places too: the first was
    /// taken, which may not be the one meant.
    FirstOfSeveral,
    /// A patch's added lines went to the end of the file, not to their
    /// `@@` line.
    AddedAtEnd,
    /// It replaces a file that exists, whole.
    ReplacesFile,
    /// A patch moves the file onto itself: the file is lost.
    MovesOntoItself,
    /// Its new text adds bidirectional controls or zero-width characters
    /// the file did not hold: the text reads otherwise than it is.
    HiddenText,
    /// Its result joins two lines of the file into one that its new text
    /// does not show joined (a new text without its old text's final
    /// newline, an empty one whose agent also deleted the newline after).
    JoinsLines,
    /// A patch updates one file in two sections: a later section's hunk
    /// lands elsewhere than in one section, or (OpenCode) a section's
    /// change is lost.
    SplitSections,
    /// A patch updates a file, then deletes it: the update is lost.
    DeletesUpdated,
    /// A patch hunk's `@@` line names a definition the agent did not find,
    /// and it placed the hunk in another.
    HeaderIgnored,
}

impl DoubtKind {
    /// Its name in JSON (`stands-in`, `misindents`, ...).
    pub fn name(self) -> &'static str {
        match self {
            DoubtKind::StandsIn => "stands-in",
            DoubtKind::WritesTwice => "writes-twice",
            DoubtKind::Layout(kind) => kind.name(),
            DoubtKind::ShiftsIndent => "shifts-indent",
            DoubtKind::AppliedAlready => "applied-already",
            DoubtKind::CutsWord => "cuts-word",
            DoubtKind::InComment => "in-comment",
            DoubtKind::RenamesOthers => "renames-others",
            DoubtKind::LineEndings => "line-endings",
            DoubtKind::Rewritten => "rewritten",
            DoubtKind::FirstOfSeveral => "first-of-several",
            DoubtKind::AddedAtEnd => "added-at-end",
            DoubtKind::ReplacesFile => "replaces-file",
            DoubtKind::MovesOntoItself => "moves-onto-itself",
            DoubtKind::HiddenText => "hidden-text",
            DoubtKind::JoinsLines => "joins-lines",
            DoubtKind::SplitSections => "split-sections",
            DoubtKind::DeletesUpdated => "deletes-updated",
            DoubtKind::HeaderIgnored => "header-ignored",
        }
    }

    /// The doubt in a few words, for a list's row: "doubt: stands in for
    /// code it leaves out".
    pub fn words(self) -> &'static str {
        match self {
            DoubtKind::StandsIn => "stands in for code it leaves out",
            DoubtKind::WritesTwice => "writes lines twice",
            DoubtKind::Layout(kind) => kind.words(),
            DoubtKind::ShiftsIndent => "shifts indentation",
            DoubtKind::AppliedAlready => "its new text was there already",
            DoubtKind::CutsWord => "cuts a word",
            DoubtKind::InComment => "changes a comment, not the code",
            DoubtKind::RenamesOthers => "renames other things too",
            DoubtKind::LineEndings => "rewrites or mixes line endings",
            DoubtKind::Rewritten => "the agent wrote another text",
            DoubtKind::FirstOfSeveral => "one of several places",
            DoubtKind::AddedAtEnd => "added at the end of the file",
            DoubtKind::ReplacesFile => "replaces a file whole",
            DoubtKind::MovesOntoItself => "moves the file onto itself",
            DoubtKind::HiddenText => "adds invisible characters",
            DoubtKind::JoinsLines => "joins two lines",
            DoubtKind::SplitSections => "two sections for one file",
            DoubtKind::DeletesUpdated => "updates a file, then deletes it",
            DoubtKind::HeaderIgnored => "its @@ line is not in the file",
        }
    }

    fn of_edit(kind: edit::EditDoubtKind) -> DoubtKind {
        use edit::EditDoubtKind as K;
        match kind {
            K::CutsWord => DoubtKind::CutsWord,
            K::InComment => DoubtKind::InComment,
            K::RenamesOthers => DoubtKind::RenamesOthers,
            K::LineEndings | K::MixesEndings => DoubtKind::LineEndings,
            K::AlreadyApplied => DoubtKind::AppliedAlready,
            K::RepeatsNeighbours | K::WritesTwice => DoubtKind::WritesTwice,
            K::Layout(kind) => DoubtKind::Layout(kind),
            K::ElidesLines => DoubtKind::StandsIn,
            K::HiddenText => DoubtKind::HiddenText,
            K::JoinsLines => DoubtKind::JoinsLines,
            // Claude Code writes other lines than the edit shows.
            K::WhitespaceStripped => DoubtKind::Rewritten,
        }
    }

    fn of_call(kind: crate::dialect::call_doubts::CallDoubtKind) -> DoubtKind {
        use crate::dialect::call_doubts::CallDoubtKind as K;
        match kind {
            // A line the agent's parser drops: it writes another text.
            K::Rewritten | K::Dropped => DoubtKind::Rewritten,
            K::FirstOfSeveral => DoubtKind::FirstOfSeveral,
            K::AddedAtEnd => DoubtKind::AddedAtEnd,
            K::Edit(kind) => DoubtKind::of_edit(kind),
        }
    }

    fn of_patch(kind: apply_patch::PatchDoubtKind) -> DoubtKind {
        use apply_patch::PatchDoubtKind as K;
        match kind {
            K::Repeated => DoubtKind::FirstOfSeveral,
            K::AddedAtEnd => DoubtKind::AddedAtEnd,
            K::ReplacesFile => DoubtKind::ReplacesFile,
            K::MovesOntoItself => DoubtKind::MovesOntoItself,
            K::RepeatsNeighbours => DoubtKind::WritesTwice,
            K::Layout(kind) => DoubtKind::Layout(kind),
            K::IndentShift => DoubtKind::ShiftsIndent,
            K::AlreadyApplied => DoubtKind::AppliedAlready,
            K::ElidesLines => DoubtKind::StandsIn,
            K::HiddenText => DoubtKind::HiddenText,
            K::JoinsLines => DoubtKind::JoinsLines,
            K::SplitSections => DoubtKind::SplitSections,
            K::DeletesUpdated => DoubtKind::DeletesUpdated,
            K::HeaderIgnored => DoubtKind::HeaderIgnored,
        }
    }
}

impl Serialize for DoubtKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// One thing srview cannot stand behind in an edit that applies: its
/// kind and the trust check's own sentence (without a final stop), as the
/// gate, `check` and `apply --write` say it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Doubt {
    /// What it is about.
    pub kind: DoubtKind,
    /// The trust check's sentence.
    pub message: String,
}

impl Doubt {
    fn of<K>(of: impl Fn(K) -> DoubtKind) -> impl Fn((K, String)) -> Doubt {
        move |(kind, message)| Doubt {
            kind: of(kind),
            message,
        }
    }
}

/// What srview's applier says of an edit run against one content.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The applier that ran.
    pub applier: Applier,
    /// The file after the edit when it applies, else the applier's error text.
    pub result: Result<FileContent, Refusal>,
    /// One per block or hunk, in order.
    pub blocks: Vec<VerdictBlock>,
    /// Where a block or hunk matched only loosely: its stage or level
    /// (`line-trimmed`, `unicode`, ...), one per loose block.
    pub loose: Vec<String>,
    /// 1-based first/last line ranges of the content before that the
    /// agent's own matcher rewrote although no edit covered them (pi's
    /// fuzzy stage normalizes the whole file); empty for other appliers.
    pub rewritten_outside: Vec<(usize, usize)>,
    /// 1-based first/last line ranges of the content before that an edit
    /// replacing every occurrence changed beyond its first place (see
    /// [`crate::dialect::call::CallOutcome::also_replaced`]).
    pub also_replaced: Vec<(usize, usize)>,
    /// What srview's trust checks cannot stand behind in an edit that
    /// applies (its exact placements and what they write), in order; empty
    /// when the edit fails, or when run only to count
    /// ([`run_counting`]).
    pub doubts: Vec<Doubt>,
}

impl Applied {
    /// A verdict of `applier` with no block, loose match or doubt.
    pub(super) fn bare(applier: Applier, result: Result<FileContent, Refusal>) -> Applied {
        Applied {
            applier,
            result,
            blocks: Vec::new(),
            loose: Vec::new(),
            rewritten_outside: Vec::new(),
            also_replaced: Vec::new(),
            doubts: Vec::new(),
        }
    }

    /// The edit applies.
    pub fn ok(&self) -> bool {
        self.result.is_ok()
    }

    /// The applier's error text, when the edit does not apply.
    pub fn error(&self) -> Option<&str> {
        self.result.as_ref().err().map(Refusal::as_str)
    }

    /// The file after the edit, when it applies.
    pub fn new_content(&self) -> Option<&FileContent> {
        self.result.as_ref().ok()
    }
}

/// Whether running `input` needs the file's content before at all (a whole
/// new content, an added file or a Write does not).
pub fn needs_before(input: &EditInput) -> bool {
    match input {
        EditInput::Whole(_) => false,
        EditInput::Exact(Edit::ClaudeWrite { .. }) => false,
        EditInput::ApplyPatch(p) => !split_patch(p)
            .iter()
            .all(|s| s.kind == crate::source::agent::SectionKind::Add),
        _ => true,
    }
}

/// Why `input` cannot be run at all, if so.
pub fn not_runnable(input: &EditInput) -> Option<&'static str> {
    match input {
        EditInput::NotRecorded => Some("the agent's output names the file only, not the edit"),
        EditInput::Partial(_) => Some("the edit's input is incomplete (the output ended mid-edit)"),
        _ => None,
    }
}

/// Runs `input` against `before` (`cwd`: the workspace the agent's
/// messages name paths under). `judged_as`: the edit's file as the
/// session names it (its extension tells Python) when srview's trust
/// checks are to judge what applies ([`Applied::doubts`]), `None` when not
/// (a run on the current file, whose content before is unknown). `None`
/// when the input cannot be run ([`not_runnable`]).
pub fn run(
    input: &EditInput,
    before: &FileContent,
    cwd: &str,
    judged_as: Option<&str>,
) -> Option<Applied> {
    let file = judged_as;
    match input {
        EditInput::SearchReplace(diff) => Some(search_replace(diff, before, file)),
        EditInput::UnifiedDiff(diff) => match udiff::to_search_replace(diff) {
            Some(blocks) => Some(search_replace(&blocks, before, file)),
            None => Some(Applied::bare(
                Applier::SearchReplaceV1,
                Err(Refusal::of("the unified diff has no hunk")),
            )),
        },
        EditInput::ApplyPatch(patch) => Some(apply_patch_section(patch, before, cwd, file)),
        EditInput::Exact(e) => Some(exact(e, before, file.is_some())),
        EditInput::Whole(content) => Some(exact(
            &Edit::ClaudeWrite {
                file_path: file.unwrap_or_default().to_string(),
                content: content.clone(),
            },
            before,
            file.is_some(),
        ))
        .map(|mut a| {
            a.applier = Applier::WholeFile;
            a
        }),
        EditInput::Call(call) => Some(agent_call(call, before, cwd, file.is_some())),
        EditInput::NotRecorded | EditInput::Partial(_) => None,
    }
}

/// `call` run by its agent's own matcher over a folder holding only the
/// content before, at the path the call names; its exact placements
/// judged when `judging` ([`crate::dialect::call_doubts`], and the result
/// read as Python when they find nothing).
fn agent_call(call: &CallInput, before: &FileContent, cwd: &str, judging: bool) -> Applied {
    let Some(row) = crate::dialect::registry::find(call.dialect) else {
        return no_matcher(call);
    };
    let Some(run) = crate::dialect::registry::run_on_file(
        call.dialect,
        &call.input,
        &call.path,
        before.text(),
        cwd,
    ) else {
        return no_matcher(call);
    };
    let outcome = &run.outcome;
    let result = match (&outcome.error, outcome.ok, outcome.hangs) {
        (_, _, true) => Err(Refusal::of(
            "the agent's own code never returns on this input",
        )),
        (Some(e), false, _) => Err(Refusal::of(e)),
        (None, false, _) => Err(Refusal::of("the agent fails")),
        (_, true, _) => Ok(match run.written() {
            Some(Some(t)) => FileContent::Text(t.to_string()),
            Some(None) => FileContent::Absent,
            // Nothing written to this file: it stays as it was.
            None => before.clone(),
        }),
    };
    let doubts = match (&result, before.text()) {
        (Ok(after), Some(text)) if judging => call_doubts(row, call, outcome, text, after),
        _ => Vec::new(),
    };
    Applied {
        applier: Applier::Agent,
        result,
        rewritten_outside: outcome.rewritten_outside.clone(),
        also_replaced: outcome.also_replaced.clone(),
        loose: outcome
            .edits
            .iter()
            .filter(|e| e.loose)
            .map(|e| e.stage.clone())
            .collect(),
        blocks: run
            .outcome
            .edits
            .into_iter()
            .map(VerdictBlock::Call)
            .collect(),
        doubts,
    }
}

fn no_matcher(call: &CallInput) -> Applied {
    Applied::bare(
        Applier::Agent,
        Err(Refusal::of(format!("no matcher for {}", call.dialect))),
    )
}

/// What srview cannot stand behind in a call its agent's matcher applied
/// to `before`, leaving `after`: the trust checks of each exact placement
/// (every placement read in the one file the call edits), and, when they
/// find nothing, the result read as Python (loose placements included).
fn call_doubts(
    row: &crate::dialect::registry::DialectRow,
    call: &CallInput,
    outcome: &crate::dialect::call::CallOutcome,
    before: &str,
    after: &FileContent,
) -> Vec<Doubt> {
    use crate::dialect::call_doubts::{Judged, asked, exact_doubt_kinds};
    let asked = asked(row, &call.input);
    let mut doubts: Vec<Doubt> = exact_doubt_kinds(
        outcome,
        &|_| Some(before.to_string()),
        Judged::of(row, &asked).on(&call.path),
    )
    .into_iter()
    .map(Doubt::of(DoubtKind::of_call))
    .collect();
    // A loose placement too (a tester's find: OpenCode's line-trimmed
    // stage wrote a file Python refuses, and only `loose` was said).
    if doubts.is_empty()
        && let Some(after) = after.text()
    {
        doubts.extend(misindents(&call.path, before, after));
    }
    doubts
}

/// The Python fault `after` has where `before` had none, as a doubt.
fn misindents(path: &str, before: &str, after: &str) -> Option<Doubt> {
    crate::diagnose::doubt_exact::result_misindents(path, before, after).map(|(kind, message)| {
        Doubt {
            kind: DoubtKind::of_edit(kind),
            message,
        }
    })
}

/// [`run`] for counting many edits: the same `ok`, `loose`, error and
/// content after, without an exact-string edit's block report, the
/// diagnosis of its failure (`blocks` is empty for those) or any doubt.
pub fn run_counting(input: &EditInput, before: &FileContent, cwd: &str) -> Option<Applied> {
    match input {
        EditInput::Exact(e) => Some(exact_counting(e, before, Applier::Edit)),
        EditInput::Whole(content) => Some(exact_counting(
            &Edit::ClaudeWrite {
                file_path: String::new(),
                content: content.clone(),
            },
            before,
            Applier::WholeFile,
        )),
        _ => run(input, before, cwd, None),
    }
}

fn exact_counting(e: &Edit, before: &FileContent, applier: Applier) -> Applied {
    Applied::bare(
        applier,
        edit::new_content(e, before.text())
            .map(FileContent::Text)
            .map_err(Refusal::of),
    )
}

/// `diff` run by the engine (v1, final) over `before`; its exact blocks
/// judged when `file` is given ([`crate::diagnose::doubt_exact`]).
fn search_replace(diff: &str, before: &FileContent, file: Option<&str>) -> Applied {
    let original = before.text().unwrap_or("");
    let outcome = engine::apply(
        diff,
        original,
        Options {
            version: Version::V1,
            is_final: true,
        },
    );
    let loose = outcome
        .blocks
        .iter()
        .filter_map(|b| match b.stage {
            Some(s @ (Stage::LineTrimmed | Stage::BlockAnchor | Stage::WholeFile)) => {
                Some(s.name().to_string())
            }
            _ => None,
        })
        .collect();
    let result: Result<FileContent, Refusal> = outcome
        .result
        .map(|a| FileContent::Text(a.new_content))
        .map_err(|e| Refusal(e.message));
    let doubts = match (file, &result) {
        (Some(file), Ok(after)) => {
            crate::diagnose::doubt_exact::exact_doubt_kinds(file, original, &outcome.blocks, || {
                after.text().unwrap_or_default()
            })
            .into_iter()
            .map(Doubt::of(DoubtKind::of_edit))
            .collect()
        }
        _ => Vec::new(),
    };
    Applied {
        applier: Applier::SearchReplaceV1,
        result,
        blocks: outcome
            .blocks
            .into_iter()
            .map(VerdictBlock::Block)
            .collect(),
        loose,
        rewritten_outside: Vec::new(),
        also_replaced: Vec::new(),
        doubts,
    }
}

fn apply_patch_section(
    patch: &str,
    before: &FileContent,
    cwd: &str,
    file: Option<&str>,
) -> Applied {
    let path = split_patch(patch)
        .into_iter()
        .next()
        .map(|s| s.path)
        .unwrap_or_default();
    let files = match before {
        FileContent::Text(t) => vec![(path.clone(), t.clone())],
        FileContent::Absent => Vec::new(),
    };
    let fs = MemoryFs::new(files);
    // Parsed once, for the applier and the trust checks (a patch that
    // does not parse fails as `apply_text` fails it).
    let parsed = apply_patch::parse(patch).ok();
    let outcome = match &parsed {
        Some(parsed) => apply_patch::apply(parsed, &fs, cwd),
        None => apply_patch::apply_text(patch, &fs, cwd),
    };
    let loose = outcome
        .loose_hunks()
        .map(|(_, h)| {
            // The lines' level when loose, else the `@@` header's.
            h.level
                .filter(|l| l.is_loose())
                .or(h.header.as_ref().map(|m| m.level))
                .map_or("loose", |l| l.name())
                .to_string()
        })
        .collect();
    let key = apply_patch::fs::normalize(&path);
    let result = match &outcome.error {
        Some(e) => Err(Refusal::of(e)),
        None => Ok(outcome
            .files
            .iter()
            .find(|(p, _)| **p == key)
            .or_else(|| outcome.files.iter().next())
            .map_or(FileContent::Absent, |(_, c)| match c {
                Some(t) => FileContent::Text(t.clone()),
                None => FileContent::Absent,
            })),
    };
    let doubts = match (&parsed, file, &result) {
        (Some(parsed), Some(_), Ok(_)) => apply_patch::patch_doubts(parsed, &outcome, &fs, cwd)
            .into_iter()
            .map(|d| Doubt {
                kind: DoubtKind::of_patch(d.kind),
                message: d.message,
            })
            .collect(),
        _ => Vec::new(),
    };
    Applied {
        applier: Applier::ApplyPatch,
        result,
        blocks: outcome
            .sections
            .into_iter()
            .flat_map(|s| s.hunks)
            .map(VerdictBlock::Hunk)
            .collect(),
        loose,
        rewritten_outside: Vec::new(),
        also_replaced: Vec::new(),
        doubts,
    }
}

/// A whole new content written over `original` that stands in for lines
/// of it the content leaves out (`# ... rest of the file unchanged ...`):
/// the gate's check of a Write ([`crate::dialect::elided`]). An edit's
/// block shows no old text for a whole content, so the edit's own checks
/// cannot see it.
fn written_over(e: &Edit, original: &str) -> Option<Doubt> {
    let Edit::ClaudeWrite { content, .. } = e else {
        return None;
    };
    let elided = crate::dialect::elided::elided(e.path(), original, content)?;
    Some(Doubt {
        kind: DoubtKind::StandsIn,
        message: format!(
            "its content stands in for lines it leaves out (its line {}: `{}`), so writing \
             it deleted {} of the file: {} became {}",
            elided.line,
            elided.placeholder,
            crate::words::count(elided.lost, "non-blank line"),
            crate::words::count(original.lines().count(), "line"),
            content.lines().count()
        ),
    })
}

/// An exact-string edit (or a whole new content) run over `before`; what
/// it writes judged when `judging` ([`edit::edit_doubt_kinds`]: a stand-in
/// for lines it leaves out, lines written twice, Python misindented, ...).
fn exact(e: &Edit, before: &FileContent, judging: bool) -> Applied {
    // An `Applied` keeps no diagnosis: none is made.
    let outcome = edit::apply_undiagnosed(e, before.text());
    if let Err(edit::EditError::ClaudeQuoteNormalised { .. }) = &outcome.result
        && let Some(applied) = quote_normalised(e, before)
    {
        return applied;
    }
    let doubts = match before.text() {
        Some(original) if judging && outcome.result.is_ok() => match written_over(e, original) {
            Some(stand_in) => vec![stand_in],
            None => edit::edit_doubt_kinds(&outcome, original)
                .into_iter()
                .map(Doubt::of(DoubtKind::of_edit))
                .collect(),
        },
        _ => Vec::new(),
    };
    Applied {
        applier: Applier::Edit,
        result: match outcome.result {
            Ok(done) => Ok(FileContent::Text(done.new_content)),
            Err(err) => Err(Refusal::of(&err)),
        },
        blocks: vec![VerdictBlock::Block(outcome.block)],
        loose: Vec::new(),
        rewritten_outside: Vec::new(),
        also_replaced: Vec::new(),
        doubts,
    }
}

/// The stage the gate names Claude Code's quote normalisation by.
pub const QUOTE_NORMALISED: &str = "quote-normalised";

/// Why a Claude Code edit matched through its quote normalisation over the
/// file's curly quotes is not run ([`not_reproduced`]).
const CURLY_NOT_REPRODUCED: &str = "Claude Code matches this old_string only through its quote \
     normalisation, and writes new_string with its straight quotes turned into the file's curly \
     ones, by rules srview does not reproduce";

/// Why srview cannot tell what the agent made of the edit `applied` is
/// srview's run of, when that is so: the run is then no verdict (neither
/// a failure nor a disagreement).
pub fn not_reproduced(applied: &Applied) -> Option<&'static str> {
    (applied.error() == Some(CURLY_NOT_REPRODUCED)).then_some(CURLY_NOT_REPRODUCED)
}

/// A Claude Code `Edit` whose old text occurs in `before` only once curly
/// quotes are read as straight ones, as Claude Code applies it (its
/// `findActualString`, then `preserveQuoteStyle`): the file's own text
/// replaced, loose at the gate's stage `quote-normalised` (a tester's find:
/// `session` said "failed [FAILED DISAGREE]" for an edit the gate calls
/// loose and Claude Code applied). Claude Code writes `new_string` as sent
/// when the text it replaces has no curly quote; where it has, Claude Code
/// turns `new_string`'s straight quotes curly by rules srview does not
/// reproduce: not run, said so (neither failed nor a disagreement).
fn quote_normalised(e: &Edit, before: &FileContent) -> Option<Applied> {
    let Edit::ClaudeEdit {
        file_path,
        old_string,
        new_string,
        replace_all,
    } = e
    else {
        return None;
    };
    let actual = claude_actual_string(before.text()?, old_string)?;
    let curly = |text: &str| text.contains(['\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}']);
    if curly(&actual) {
        return Some(Applied::bare(
            Applier::Edit,
            Err(Refusal::of(CURLY_NOT_REPRODUCED)),
        ));
    }
    let placed = Edit::ClaudeEdit {
        file_path: file_path.clone(),
        old_string: actual.clone(),
        new_string: new_string.clone(),
        replace_all: *replace_all,
    };
    let outcome = edit::apply_undiagnosed(&placed, before.text());
    // The lines of the file it replaced (first to last place).
    let lines = outcome
        .block
        .original
        .map(|span| (span.start_line, span.end_line));
    let result = match outcome.result {
        Ok(done) => Ok(FileContent::Text(done.new_content)),
        Err(err) => Err(Refusal::of(&err)),
    };
    let loose = result.is_ok().then(|| QUOTE_NORMALISED.to_string());
    Some(Applied {
        applier: Applier::Edit,
        result,
        blocks: vec![VerdictBlock::Call(crate::dialect::call::EditMatch {
            stage: QUOTE_NORMALISED.to_string(),
            loose: true,
            lines,
            found: Some(actual),
            written: Some(new_string.clone()),
            ..Default::default()
        })],
        loose: loose.into_iter().collect(),
        rewritten_outside: Vec::new(),
        also_replaced: Vec::new(),
        doubts: Vec::new(),
    })
}

/// Claude Code's `findActualString`: the text of `content` (its `\r\n`
/// read as `\n`, as Claude Code matches) that `old` stands for once curly
/// quotes in both are read as straight ones, at the first place it occurs
/// so; `None` when it occurs nowhere.
fn claude_actual_string(content: &str, old: &str) -> Option<String> {
    let straight = |c: char| match c {
        '\u{2018}' | '\u{2019}' => '\'',
        '\u{201C}' | '\u{201D}' => '"',
        c => c,
    };
    let content = content.replace("\r\n", "\n");
    // The straight text, and where each of its characters starts in the
    // content (one character for one: the places carry over).
    let (mut read, mut starts) = (String::with_capacity(content.len()), Vec::new());
    for (at, c) in content.char_indices() {
        starts.push(at);
        read.push(straight(c));
    }
    starts.push(content.len());
    let wanted: String = old.chars().map(straight).collect();
    let at = read.find(&wanted)?;
    let first = read[..at].chars().count();
    let last = first + wanted.chars().count();
    Some(content[starts[first]..starts[last]].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Curly quotes sent for the file's straight ones: placed on the
    /// file's text, loose (`quote-normalised`), `new_string` written as
    /// sent; the file's curly quotes for straight ones sent: not
    /// reproduced, so not run, not failed.
    #[test]
    fn a_claude_edit_placed_by_quote_normalisation_is_loose() {
        let edit = |old: &str, new: &str| {
            EditInput::Exact(Edit::ClaudeEdit {
                file_path: "a.py".into(),
                old_string: old.into(),
                new_string: new.into(),
                replace_all: false,
            })
        };
        let before = FileContent::Text("x = 1\r\nlabel = \"low\"\r\n".into());
        let sent = edit(
            "label = \u{201C}low\u{201D}\n",
            "label = \u{201C}LOW\u{201D}\n",
        );
        let got = run(&sent, &before, "/w", Some("a.py")).expect("runs");
        assert_eq!(got.loose, [QUOTE_NORMALISED]);
        match &got.blocks[..] {
            [VerdictBlock::Call(placed)] => assert_eq!(
                (placed.lines, placed.found.as_deref()),
                (Some((2, 2)), Some("label = \"low\"\n"))
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            got.result,
            Ok(FileContent::Text(
                "x = 1\r\nlabel = \u{201C}LOW\u{201D}\r\n".into()
            ))
        );
        let before = FileContent::Text("label = \u{201C}low\u{201D}\n".into());
        let got = run(
            &edit("label = \"low\"", "label = \"LOW\""),
            &before,
            "/w",
            None,
        );
        let got = got.expect("runs");
        assert_eq!(not_reproduced(&got), Some(CURLY_NOT_REPRODUCED));
        assert!(got.loose.is_empty());
    }

    #[test]
    fn a_loose_search_replace_block_is_named() {
        let input = EditInput::SearchReplace(
            "------- SEARCH\n  a\n=======\nb\n+++++++ REPLACE\n".to_string(),
        );
        let before = FileContent::Text("a\n".into());
        let got = run(&input, &before, "/w", Some("a.txt")).expect("runs");
        assert_eq!(got.loose, ["line-trimmed"]);
        assert_eq!(got.result, Ok(FileContent::Text("b\n".into())));
    }

    /// An OpenCode replaceAll changing two places names the second.
    #[test]
    fn a_replace_all_call_names_its_other_places() {
        let input = EditInput::Call(CallInput {
            dialect: "opencode-edit",
            input: serde_json::json!({"filePath": "a.py", "oldString": "x = 1", "newString": "x = 2", "replaceAll": true}),
            path: "a.py".into(),
        });
        let before = FileContent::Text("x = 1\ny\nx = 1\n".into());
        let got = run(&input, &before, "/w", Some("a.py")).expect("runs");
        assert_eq!(
            got.result,
            Ok(FileContent::Text("x = 2\ny\nx = 2\n".into()))
        );
        assert_eq!(got.also_replaced, vec![(3, 3)]);
    }

    /// A whole content written over a file, standing in for the lines it
    /// leaves out, is in doubt; a whole content that keeps them is not;
    /// nothing is judged without a file to judge it as.
    #[test]
    fn a_whole_content_standing_in_for_the_file_is_in_doubt() {
        let before = FileContent::Text(
            "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n"
                .into(),
        );
        let elided = EditInput::Whole(
            "# ... rest of the file unchanged ...\n\n\ndef c():\n    return 30\n".into(),
        );
        let got = run(&elided, &before, "/w", Some("m.py")).expect("runs");
        assert_eq!(
            got.doubts,
            [Doubt {
                kind: DoubtKind::StandsIn,
                message: "its content stands in for lines it leaves out (its line 1: `# ... \
                          rest of the file unchanged ...`), so writing it deleted 5 non-blank \
                          lines of the file: 10 lines became 5"
                    .into()
            }]
        );
        assert_eq!(run(&elided, &before, "/w", None).expect("runs").doubts, []);
        let kept = EditInput::Whole(
            "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 30\n"
                .into(),
        );
        assert_eq!(
            run(&kept, &before, "/w", Some("m.py"))
                .expect("runs")
                .doubts,
            []
        );
    }

    /// A SEARCH/REPLACE block placed exactly whose REPLACE text stands in
    /// for the lines it leaves out, one that misindents Python, one that
    /// defines a function again: each in doubt, with its kind.
    #[test]
    fn exact_search_replace_blocks_are_judged() {
        let before =
            FileContent::Text("def a():\n    x = 1\n    y = 2\n    z = 3\n    return x\n".into());
        let stand_in = EditInput::SearchReplace(
            "------- SEARCH\n    x = 1\n    y = 2\n    z = 3\n    return x\n=======\n    \
             # ... unchanged ...\n    return x\n+++++++ REPLACE\n"
                .into(),
        );
        let kinds = |input: &EditInput, file: &str| -> Vec<DoubtKind> {
            let got = run(input, &before, "/w", Some(file)).expect("runs");
            got.doubts.iter().map(|d| d.kind).collect()
        };
        assert_eq!(kinds(&stand_in, "m.py"), [DoubtKind::StandsIn]);
        let misindent = EditInput::SearchReplace(
            "------- SEARCH\n    return x\n=======\n        return x\n+++++++ REPLACE\n".into(),
        );
        assert_eq!(
            kinds(&misindent, "m.py"),
            [DoubtKind::Layout(BreakKind::Misindents)]
        );
        // Not Python: nothing to misindent.
        assert_eq!(kinds(&misindent, "m.txt"), []);
        let again = EditInput::SearchReplace(
            "------- SEARCH\n    return x\n=======\n    return x\n\n\ndef a():\n    pass\n\
             +++++++ REPLACE\n"
                .into(),
        );
        assert_eq!(
            kinds(&again, "m.py"),
            [DoubtKind::Layout(BreakKind::DefinesTwice)]
        );
        assert_eq!(
            DoubtKind::Layout(BreakKind::DefinesTwice).words(),
            "defines a name twice"
        );
        assert_eq!(kinds(&again, "m.txt"), []);
    }

    /// A brace language's block whose `}` the edit loses, and a function
    /// added again beside the one there: in doubt, with their kinds and
    /// words.
    #[test]
    fn brace_edits_that_unbalance_or_define_twice_are_judged() {
        let before = FileContent::Text("function a() {\n  if (x) {\n    b();\n  }\n}\n".into());
        let kinds = |input: &EditInput| -> Vec<DoubtKind> {
            let got = run(input, &before, "/w", Some("a.js")).expect("runs");
            got.doubts.iter().map(|d| d.kind).collect()
        };
        let lost = EditInput::SearchReplace(
            "------- SEARCH\n    b();\n  }\n=======\n    b();\n+++++++ REPLACE\n".into(),
        );
        assert_eq!(kinds(&lost), [DoubtKind::Layout(BreakKind::Unbalanced)]);
        assert_eq!(
            DoubtKind::Layout(BreakKind::Unbalanced).words(),
            "leaves braces unbalanced"
        );
        let again = EditInput::SearchReplace(
            "------- SEARCH\n  }\n}\n=======\n  }\n}\nfunction a() {}\n+++++++ REPLACE\n".into(),
        );
        assert_eq!(kinds(&again), [DoubtKind::Layout(BreakKind::DefinesTwice)]);
    }

    /// A JSON, YAML or TOML file an edit leaves unreadable, or a string it
    /// leaves open, is said so, not "braces unbalanced" (JSON's and the string's
    /// first kinds shared the brackets' words) nor "misindented" (YAML's
    /// first kind was the misindent one).
    #[test]
    fn an_edit_leaving_json_or_yaml_unreadable_or_a_string_open_is_said_so() {
        let cases = [
            (
                "package.json",
                "{\n  \"a\": 1,\n  \"b\": 2\n}\n",
                "  \"a\": 1,\n",
                "  \"a\": 1\n",
                DoubtKind::Layout(BreakKind::NotJson),
                "leaves JSON unreadable",
            ),
            (
                "a.yaml",
                "server:\n  host: a\n  port: 80\n",
                "  port: 80\n",
                "  port: 80\n  name: \"web\n",
                DoubtKind::Layout(BreakKind::NotYaml),
                "leaves YAML unreadable",
            ),
            (
                "b.yml",
                "server:\n  host: a\n  port: 80\n",
                "  port: 80\n",
                "  port: 80\n\ttimeout: 5\n",
                DoubtKind::Layout(BreakKind::NotYaml),
                "leaves YAML unreadable",
            ),
            (
                "Cargo.toml",
                "[dependencies]\nserde = \"1\"\nanyhow = \"1\"\n",
                "anyhow = \"1\"\n",
                "anyhow = \"1\"\nserde = \"1.0\"\n",
                DoubtKind::Layout(BreakKind::NotToml),
                "leaves TOML unreadable",
            ),
            (
                "app.py",
                "def helper():\n    return 1\n\n\ndef main():\n    return helper()\n",
                "def helper():\n    return 1\n\n\n",
                "",
                DoubtKind::Layout(BreakKind::Undefined),
                "uses a name it no longer defines",
            ),
            (
                "s.js",
                "export function f(a) {\n  const s = \"x\";\n  return s;\n}\n",
                "  const s = \"x\";\n",
                "  const s = \"x;\n",
                DoubtKind::Layout(BreakKind::Unclosed),
                "leaves a string open",
            ),
        ];
        for (path, before, search, replace, kind, words) in cases {
            let input = EditInput::SearchReplace(format!(
                "------- SEARCH\n{search}=======\n{replace}+++++++ REPLACE\n"
            ));
            let got =
                run(&input, &FileContent::Text(before.into()), "/w", Some(path)).expect("runs");
            let kinds: Vec<DoubtKind> = got.doubts.iter().map(|d| d.kind).collect();
            assert_eq!(kinds, [kind], "{path}: {replace:?}");
            assert_eq!(kind.words(), words, "{path}");
        }
    }

    #[test]
    fn an_added_file_needs_no_content_before() {
        let input = EditInput::ApplyPatch(
            "*** Begin Patch\n*** Add File: n.txt\n+hi\n*** End Patch\n".to_string(),
        );
        assert!(!needs_before(&input));
        let got = run(&input, &FileContent::Absent, "/w", Some("n.txt")).expect("runs");
        assert_eq!(got.result, Ok(FileContent::Text("hi\n".into())));
        assert_eq!(
            not_runnable(&EditInput::NotRecorded),
            Some("the agent's output names the file only, not the edit")
        );
    }
}
