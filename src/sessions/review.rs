//! Every edit of a session run through srview's applier against the
//! file's content before it, and compared with the agent's own verdict.
//!
//! The content before, first source that has it:
//! 1. the agent's output (`recorded`, `derived`, `chained`: see
//!    `source::agent`);
//! 2. srview's own chain: the content an earlier edit of the same file in
//!    the session left, as srview applied it (or as the output records it);
//!    right unless something else wrote the file between the two edits;
//! 3. Codex: the recorded diffs undone against the file as it is now
//!    (`reverse-diff`);
//! 4. Cline CLI: the file in the session's first checkpoint commit, for the
//!    first edit of each file (`git-checkpoint`); Aider: the file in the
//!    parent of the commit Aider made of the edit's reply, or of a later
//!    one when nothing wrote the file in between (`git-history`, before
//!    srview's chain: the commit is what was on disk);
//! 5. an edit the agent failed or never ran, that nothing later in the
//!    session may have written over (no later edit of its file applied, no
//!    shell command run after it): the file as it is now (`on-disk`);
//! 6. the file as it is now, only when the edit applies to it exactly (its
//!    old text is found there): `current-file`; the content before is then
//!    still reported unknown.
//!
//! When none has it, srview's verdict is unknown (`ok: null`) and says why.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::recover::{self, Checkpoint, SessionFs, SessionRoot, Undone};
use super::verdict::{self, Applied, Applier, Doubt};
use crate::engine::Stage;
use crate::source::agent::{
    AgentEdit, AgentKind, AgentReader, ContentOrigin, EditInput, FileContent, Format, Verdict,
};

/// Where the content srview ran an edit against came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// In the agent's output for this edit.
    Recorded,
    /// The agent's recorded edit applied to its recorded content before.
    Derived,
    /// Left by an earlier edit of the same file in this session.
    Chained,
    /// Codex's recorded diffs undone against the current file.
    ReverseDiff,
    /// The file in a Cline CLI checkpoint commit.
    GitCheckpoint,
    /// Aider: the file in the parent of the commit Aider made of the
    /// edit's reply (or of a later reply, nothing having written the file
    /// in between).
    GitHistory,
    /// The file as it is now, for an edit the agent failed or never ran
    /// that no later edit of the session wrote over: what the agent had,
    /// unless something else wrote the file since (no disagreement is
    /// claimed against it).
    OnDisk,
    /// The file as it is now (the edit's old text is found there); the
    /// content before itself is unknown.
    CurrentFile,
    /// The edit does not depend on it (a whole new content, an added file).
    NotNeeded,
    /// The file on disk when srview first saw the edit, still without the
    /// agent's verdict (a live stream: the agent writes only once the
    /// edit's input is complete).
    LiveFile,
}

/// srview's verdict on one edit.
#[derive(Debug, Clone)]
pub struct Review {
    /// The agent's edit, as read.
    pub edit: AgentEdit,
    /// The content before, when known (not the current-file fallback).
    pub before: Option<FileContent>,
    /// What the edit was run against (`None`: not run).
    pub basis: Option<Basis>,
    /// srview's verdict, or why it has none.
    pub run: Run,
    /// srview's verdict differs from the agent's, in words.
    pub disagreement: Option<String>,
    /// The verdicts agree (applied) but srview's applier matched only
    /// loosely where the agent reported plain success: a notice, not a
    /// disagreement.
    pub loose_match: Option<String>,
    /// What the agent did that neither verdict says, in words: it applied
    /// an edit whose input the model's stream cut off ("the agent applied a
    /// cut-off edit"); its matcher rewrote lines outside the edit (pi's
    /// fuzzy stage normalizes the whole file).
    pub notices: Vec<String>,
}

/// Whether srview's applier ran an edit.
#[derive(Debug, Clone)]
pub enum Run {
    /// It ran: its verdict.
    Ran(Applied),
    /// It did not run: why, when that can be told (most often: the content
    /// before is unknown).
    NotRun(Option<String>),
}

impl Run {
    /// Not run, for the reason given.
    fn not_run(why: impl Into<String>) -> Run {
        Run::NotRun(Some(why.into()))
    }
}

impl From<Option<Applied>> for Run {
    /// An applier's answer: `None` when it could not run the edit.
    fn from(applied: Option<Applied>) -> Run {
        applied.map_or(Run::NotRun(None), Run::Ran)
    }
}

impl Review {
    /// srview's verdict, when it ran the edit.
    pub fn applied(&self) -> Option<&Applied> {
        match &self.run {
            Run::Ran(applied) => Some(applied),
            Run::NotRun(_) => None,
        }
    }

    /// Why srview did not run the edit, when it did not and can tell.
    pub fn why(&self) -> Option<&str> {
        match &self.run {
            Run::Ran(_) => None,
            Run::NotRun(why) => why.as_deref(),
        }
    }

    /// srview's verdict: applies or not; `None` when not run.
    pub fn ok(&self) -> Option<bool> {
        self.applied().map(|a| a.ok())
    }

    /// A block or hunk matched only loosely.
    pub fn is_loose(&self) -> bool {
        self.applied().is_some_and(|a| !a.loose.is_empty())
    }

    /// srview's verdict in a few words: `applies (exact)` (`applied` when
    /// `past`), `fails`, `unknown: why`, with `on the
    /// current file` when that is what it ran against. A whole new content
    /// reads `whole content`, not its stage `empty`.
    pub fn verdict_words(&self, past: bool) -> String {
        let Some(applied) = self.applied() else {
            return format!("unknown: {}", self.why().unwrap_or("not run"));
        };
        let how: Vec<&str> = applied
            .blocks
            .iter()
            .filter_map(|b| match b {
                super::verdict::VerdictBlock::Block(b) => b.stage.map(|s| match s {
                    Stage::Empty => "whole content",
                    stage => stage.name(),
                }),
                super::verdict::VerdictBlock::Hunk(h) => h.level.map(|l| l.name()),
                super::verdict::VerdictBlock::Call(e) => Some(e.stage.as_str()),
            })
            .collect();
        let mut s = String::from(match (applied.ok(), past) {
            (true, true) => "applied",
            (true, false) => "applies",
            (false, true) => "failed",
            (false, false) => "fails",
        });
        // A failure's stages name the blocks that did apply: not said.
        if applied.ok() && !how.is_empty() {
            s.push_str(&format!(" ({})", how.join(", ")));
        }
        if self.basis == Some(Basis::CurrentFile) {
            s.push_str(" on the current file (content before unknown)");
        }
        if let Some(words) = self.doubt_words() {
            s.push_str(&format!(" · {words}"));
        }
        s
    }

    /// What srview's trust checks cannot stand behind in the edit although
    /// it applies exactly (a stand-in for code it leaves out, lines written
    /// twice, Python misindented, ...): what the gate denies and `check` /
    /// `apply --write` hold back. Said only of an edit the agent applied
    /// (or has yet to decide on) and srview's applier applies, run against
    /// a content before that is known: never of one run on the current
    /// file (srview does not guess).
    pub fn doubts(&self) -> &[Doubt] {
        let judged = self.basis.is_some_and(|b| b != Basis::CurrentFile)
            && matches!(self.edit.agent_verdict, Verdict::Applied | Verdict::Pending);
        match self.applied() {
            Some(applied) if judged && applied.ok() => &applied.doubts,
            _ => &[],
        }
    }

    /// The doubts in a few words, each kind once: `doubt: stands in for
    /// code it leaves out`, `doubts: writes lines twice, cuts a word`;
    /// `None` without one.
    pub fn doubt_words(&self) -> Option<String> {
        let mut kinds: Vec<&str> = Vec::new();
        for doubt in self.doubts() {
            let words = doubt.kind.words();
            if !kinds.contains(&words) {
                kinds.push(words);
            }
        }
        match kinds.len() {
            0 => None,
            1 => Some(format!("doubt: {}", kinds[0])),
            _ => Some(format!("doubts: {}", kinds.join(", "))),
        }
    }

    /// The agent or srview failed it.
    pub fn is_failed(&self) -> bool {
        self.edit.agent_verdict == Verdict::Failed || self.ok() == Some(false)
    }
}

/// A whole session reviewed.
#[derive(Debug, Clone)]
pub struct SessionReview {
    /// The agent that wrote the session.
    pub agent: AgentKind,
    /// The format it was read as.
    pub format: Format,
    /// The agent's version, as the output names it.
    pub version: Option<String>,
    /// One per edit, in the agent's order.
    pub reviews: Vec<Review>,
    /// The folder the agent's messages name paths under (the recorded
    /// workspace, else where the files are now).
    pub cwd: String,
    /// Problems met reading the output.
    pub errors: Vec<String>,
}

/// How far [`review_with`] goes for a content before the output lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// Every source (git, the current file).
    Full,
    /// The output, srview's chain and Codex's diffs only: no process run,
    /// no file read per edit; verdicts only, without the block reports of
    /// exact-string edits or the diagnosis of their failures (for listing
    /// many sessions).
    Light,
}

/// Reviews every edit `reader` holds (finished). `ws`: where the session's
/// files are now.
pub fn review(reader: &AgentReader, ws: &dyn SessionFs) -> SessionReview {
    review_with(reader, ws, Recovery::Full)
}

/// [`review`], recovering contents as far as `recovery` says.
pub fn review_with(reader: &AgentReader, ws: &dyn SessionFs, recovery: Recovery) -> SessionReview {
    review_live(reader, ws, recovery, &HashMap::new())
}

/// [`review_with`] for a live stream: `on_disk` holds, by `seq`, the file
/// as srview read it when it first saw an edit without a verdict (see
/// [`Basis::LiveFile`]); it comes after what the output records (and
/// Codex's recorded diffs undone) and before every other source.
pub fn review_live(
    reader: &AgentReader,
    ws: &dyn SessionFs,
    recovery: Recovery,
    on_disk: &HashMap<usize, FileContent>,
) -> SessionReview {
    let edits = reader.edits();
    let mut reviewer = Reviewer::lent(whole_session(reader), ws, recovery, Some(on_disk));
    let (errors, lost) = reading_problems(reader);
    let reviews = edits
        .iter()
        .enumerate()
        .map(|(i, edit)| {
            let mut edit = edit.clone();
            if lost.contains(&edit.seq) {
                edit.agent_verdict = Verdict::Pending;
            }
            reviewer.review(i, edit)
        })
        .collect();
    SessionReview {
        agent: reader.kind(),
        format: reader.format(),
        version: reader.version().map(str::to_string),
        reviews,
        cwd: reviewer.cwd,
        errors,
    }
}

/// The problems met reading `reader`'s output (finished), in words, and
/// the edits, by seq, the output ended before the agent's result on: they
/// have no verdict (pending), not "never run". An output that stops after
/// an edit's call (the agent killed, the stream cut) does not say the
/// agent did not run it: Claude Code backs the file up and writes it
/// before its result, Codex writes a patch before logging its end. One
/// that ended inside a line, or has a line that is not JSON (torn where it
/// was written), may have lost the verdict with it.
pub fn reading_problems(reader: &AgentReader) -> (Vec<String>, &[usize]) {
    let mut errors: Vec<String> = reader.errors().iter().map(ToString::to_string).collect();
    let torn_within = reader
        .errors()
        .iter()
        .any(|e| matches!(e, crate::source::agent::AgentError::Malformed { .. }));
    let lost = reader.ended_without_verdict();
    if !lost.is_empty() {
        let edits = crate::words::count(lost.len(), "edit");
        errors.push(if reader.ended_inside_line() || torn_within {
            let where_ = if reader.ended_inside_line() {
                "the output ended inside a line"
            } else {
                "a line of the output could not be read"
            };
            format!(
                "{where_}: the agent's verdict on {edits} may have been in it (shown as pending)"
            )
        } else {
            let them = if lost.len() == 1 { "it" } else { "them" };
            format!(
                "the output ends before the agent's result on {edits}: the agent may have \
                 applied {them} (shown as pending)"
            )
        });
    }
    (errors, lost)
}

/// Reviews a session's edits one at a time, in the agent's order: what
/// [`review_with`] does for a whole list, for a caller that holds one edit
/// at a time (a listing reading a huge session).
pub struct Reviewer<'a> {
    ws: Fs<'a>,
    agent: AgentKind,
    /// The folder the agent's messages name paths under.
    cwd: String,
    recovery: Recovery,
    /// Codex: its recorded diffs undone (only when every edit is at hand).
    undone: Option<Undone<'a>>,
    /// Cline CLI: the checkpoint commit before the session's first edits.
    checkpoint: Option<String>,
    /// Aider: by position, the commit holding the file before each edit
    /// (`SHA^`; see [`recover::aider_commits`]).
    aider_commits: Vec<Option<String>>,
    /// By position, whether no later edit may have written the edit's file
    /// (see [`recover::unwritten_after`]).
    unwritten: Vec<bool>,
    /// Each file's content after the edits reviewed so far, where known.
    chain: HashMap<String, FileContent>,
    /// Live: by seq, the file as read when its edit was first seen without
    /// a verdict (see [`Basis::LiveFile`]).
    on_disk: Option<&'a HashMap<usize, FileContent>>,
    /// The files edited so far.
    seen: HashSet<String>,
}

/// The workspace a [`Reviewer`] reads: lent to it, or its own.
enum Fs<'a> {
    Lent(&'a dyn SessionFs),
    Own(SessionRoot),
}

impl Fs<'_> {
    fn get(&self) -> &dyn SessionFs {
        match self {
            Fs::Lent(fs) => *fs,
            Fs::Own(root) => root,
        }
    }
}

/// What a [`Reviewer`] knows of the session beside each edit.
pub(super) struct Session<'s, 'a> {
    pub agent: AgentKind,
    /// The workspace the output records.
    pub workspace: Option<&'s str>,
    /// Cline CLI's checkpoint commits.
    pub checkpoints: &'s [String],
    /// Every edit of the session, when at hand (Codex's diffs are undone
    /// from them, Aider's commits and the edits nothing wrote over after
    /// found in them).
    pub edits: Option<Vec<&'a AgentEdit>>,
    /// See [`AgentReader::shell_runs`].
    pub shell_runs: &'s [usize],
    /// The edits, by seq, the output ended before the agent's verdict on,
    /// where `edits` has them `not-run` as read (see [`reading_problems`]):
    /// the agent may have written their files.
    pub lost: &'s [usize],
}

impl<'s, 'a> Session<'s, 'a> {
    /// What `reader` holds, without its edits.
    fn of(reader: &'s AgentReader) -> Session<'s, 'a> {
        Session {
            agent: reader.kind(),
            workspace: reader.workspace(),
            checkpoints: reader.checkpoints(),
            edits: None,
            shell_runs: reader.shell_runs(),
            lost: reader.ended_without_verdict(),
        }
    }
}

/// What `reader` holds, its edits with it.
fn whole_session(reader: &AgentReader) -> Session<'_, '_> {
    Session {
        edits: Some(reader.edits().iter().collect()),
        ..Session::of(reader)
    }
}

impl<'a> Reviewer<'a> {
    /// A reviewer of the edits `reader` holds (Codex's diffs are undone
    /// from them: give it every edit of the session).
    pub fn new(reader: &'a AgentReader, ws: &SessionRoot, recovery: Recovery) -> Reviewer<'a> {
        Reviewer::over(whole_session(reader), Fs::Own(ws.clone()), recovery, None)
    }

    /// A reviewer of edits handed to it as they settle: without Codex's
    /// undone diffs (they need the whole session, from its end).
    pub fn streaming(reader: &AgentReader, ws: &SessionRoot, recovery: Recovery) -> Reviewer<'a> {
        Reviewer::over(Session::of(reader), Fs::Own(ws.clone()), recovery, None)
    }

    /// A reviewer reading the workspace through `ws`, lent to it.
    pub(super) fn lent(
        session: Session<'_, 'a>,
        ws: &'a dyn SessionFs,
        recovery: Recovery,
        on_disk: Option<&'a HashMap<usize, FileContent>>,
    ) -> Reviewer<'a> {
        Reviewer::over(session, Fs::Lent(ws), recovery, on_disk)
    }

    fn over(
        session: Session<'_, 'a>,
        ws: Fs<'a>,
        recovery: Recovery,
        on_disk: Option<&'a HashMap<usize, FileContent>>,
    ) -> Reviewer<'a> {
        let agent = session.agent;
        let row = agent.row();
        let mut reviewer = Reviewer {
            cwd: session
                .workspace
                .map(str::to_string)
                .unwrap_or_else(|| ws.get().root().to_string_lossy().to_string()),
            ws,
            agent,
            recovery,
            undone: None,
            checkpoint: (row.checkpoints && recovery == Recovery::Full)
                .then(|| session.checkpoints.first().cloned())
                .flatten(),
            aider_commits: Vec::new(),
            unwritten: Vec::new(),
            chain: HashMap::new(),
            on_disk,
            seen: HashSet::new(),
        };
        if let Some(edits) = session.edits {
            if recovery == Recovery::Full {
                if row.commits_replies {
                    reviewer.aider_commits = recover::aider_commits(&edits);
                }
                // An edit the output ended before the verdict on may have
                // written its file: not "never run" here.
                let files: Vec<(&str, Verdict)> = edits
                    .iter()
                    .map(|e| {
                        let verdict = if session.lost.contains(&e.seq) {
                            Verdict::Pending
                        } else {
                            e.agent_verdict
                        };
                        (e.file.as_str(), verdict)
                    })
                    .collect();
                reviewer.unwritten = recover::unwritten_after_each(&files, session.shell_runs);
            }
            if row.undoes_diffs {
                reviewer.undone = Some(Undone::of(edits, reviewer.ws.get()));
            }
        }
        reviewer
    }

    /// The folder the agent's messages name paths under.
    pub(super) fn cwd(&self) -> &str {
        &self.cwd
    }

    /// What the review of edit `index` depends on beside the edit, its
    /// file's earlier edits and the files it reads: Codex's undone content
    /// before, Aider's commit, whether nothing wrote the file after it.
    pub(super) fn sources_of(
        &mut self,
        index: usize,
    ) -> (Option<FileContent>, Option<String>, bool) {
        (
            self.undone.as_mut().and_then(|u| u.before(index)),
            self.aider_commits.get(index).cloned().flatten(),
            self.unwritten.get(index).copied().unwrap_or(false),
        )
    }

    /// For a session read once to its end before its edits are handed
    /// over one at a time: by position, whether no later edit may have
    /// written the edit's file ([`recover::unwritten_after_each`]), which
    /// [`Reviewer::new`] learns from the edits it is given.
    pub fn with_unwritten(mut self, unwritten: Vec<bool>) -> Reviewer<'a> {
        if self.recovery == Recovery::Full {
            self.unwritten = unwritten;
        }
        self
    }

    /// Codex: the contents before from `undone` (the recorded diffs of a
    /// session read whole, undone: the edit shown read again).
    pub(super) fn with_undone(mut self, undone: Undone<'a>) -> Reviewer<'a> {
        self.undone = Some(undone);
        self
    }

    /// Reviews `edit`, the `index`-th (from 0) of the session; call in order.
    pub fn review(&mut self, index: usize, edit: AgentEdit) -> Review {
        let first_of_file = self.seen.insert(edit.file.clone());
        let chained = self.chain.remove(&edit.file);
        let file = edit.file.clone();
        let (review, after) = self.review_in(index, edit, first_of_file, chained.as_ref());
        if let Some(after) = after {
            self.chain.insert(file, after);
        }
        review
    }

    /// Reviews `edit`, the `index`-th (from 0) of the session, whose file
    /// no earlier edit edited when `first_of_file`, and held `chained`
    /// after the last that did (where known). Returns the review and what
    /// the file holds after the edit, where known (for the next edit of
    /// it).
    pub(super) fn review_in(
        &mut self,
        index: usize,
        edit: AgentEdit,
        first_of_file: bool,
        chained: Option<&FileContent>,
    ) -> (Review, Option<FileContent>) {
        let planned = self.plan(index, edit, first_of_file, chained);
        let review = judged(planned, self.ws.get(), &self.cwd, self.agent, self.recovery);
        let after = after_of(&review, self.agent);
        (review, after)
    }

    /// What the review of `edit` (the `index`-th from 0, see
    /// [`Reviewer::review_in`]) runs against: found in order (the sources
    /// that read git or undo diffs are read here, in the session's order);
    /// [`Judge::review`] then runs it, anywhere.
    pub(super) fn plan(
        &mut self,
        index: usize,
        edit: AgentEdit,
        first_of_file: bool,
        chained: Option<&FileContent>,
    ) -> Planned {
        let recorded = edit.content_before.clone();
        self.plan_with(index, edit, recorded, first_of_file, chained)
    }

    /// [`Reviewer::plan`], the content before that the edit records moved
    /// into the plan, not copied: the review's `edit.content_before` is
    /// then `None` (for `--list` and `--json`, which print the review's
    /// `before`, never the edit's).
    pub(super) fn plan_moving_before(
        &mut self,
        index: usize,
        mut edit: AgentEdit,
        first_of_file: bool,
        chained: Option<&FileContent>,
    ) -> Planned {
        let recorded = edit.content_before.take();
        self.plan_with(index, edit, recorded, first_of_file, chained)
    }

    /// [`Reviewer::plan`] with `recorded`, the content before the edit
    /// records.
    fn plan_with(
        &mut self,
        index: usize,
        edit: AgentEdit,
        recorded: Option<crate::source::agent::Content>,
        first_of_file: bool,
        chained: Option<&FileContent>,
    ) -> Planned {
        let ws = self.ws.get();
        let mut unavailable: Option<String> = None;
        let known: Option<(FileContent, Basis)> = recorded
            .map(|c| {
                let basis = match c.origin {
                    ContentOrigin::Recorded => Basis::Recorded,
                    ContentOrigin::Derived => Basis::Derived,
                    ContentOrigin::Chained => Basis::Chained,
                };
                (c.content, basis)
            })
            // Codex writes a patch moments after it logs it: the file read
            // live may already hold it, so its recorded diff undone comes
            // first.
            .or_else(|| {
                let undone = self.undone.as_mut()?.before(index)?;
                Some((undone, Basis::ReverseDiff))
            })
            .or_else(|| {
                // A file missing when read live is no content before for an
                // edit of an existing file: the agent had one (srview may
                // be looking in another folder, or started late).
                self.on_disk
                    .and_then(|m| m.get(&edit.seq))
                    .filter(|c| {
                        !matches!(c, FileContent::Absent) || !verdict::needs_before(&edit.input)
                    })
                    .map(|c| (c.clone(), Basis::LiveFile))
            })
            .or_else(|| {
                // What Aider committed was on disk: before srview's chain.
                let reference = self.aider_commits.get(index)?.as_ref()?;
                match ws.show(reference, &edit.file) {
                    Checkpoint::Found(c) => Some((c, Basis::GitHistory)),
                    Checkpoint::Unavailable(why) => {
                        unavailable = Some(why);
                        None
                    }
                }
            })
            .or_else(|| chained.map(|c| (c.clone(), Basis::Chained)))
            .or_else(|| {
                let reference = self.checkpoint.as_ref().filter(|_| first_of_file)?;
                match ws.show(reference, &edit.file) {
                    Checkpoint::Found(c) => Some((c, Basis::GitCheckpoint)),
                    Checkpoint::Unavailable(why) => {
                        unavailable = Some(why);
                        None
                    }
                }
            })
            .or_else(|| {
                // Failed or never run, and nothing of the session wrote
                // the file after it: the file now is what the agent had.
                // Not for an edit without the agent's verdict (the output
                // ends before its result): the agent may have written it,
                // and the file now may be its result.
                if !self.unwritten.get(index).copied().unwrap_or(false)
                    || edit.agent_verdict == Verdict::Pending
                {
                    return None;
                }
                let now = ws.current(&edit.file)?;
                (!matches!(now, FileContent::Absent) || !verdict::needs_before(&edit.input))
                    .then_some((now, Basis::OnDisk))
            });
        Planned {
            edit,
            known,
            unavailable,
        }
    }

    /// What runs a planned edit as this reviewer does (its folder, agent
    /// and recovery), reading the files through `ws` (the workspace this
    /// reviewer reads, shareable between threads).
    pub(super) fn judge<'j>(&self, ws: &'j (dyn SessionFs + Sync)) -> Judge<'j> {
        Judge {
            ws,
            cwd: self.cwd.clone(),
            agent: self.agent,
            recovery: self.recovery,
        }
    }

    /// Takes what `file` held after the last edit of it reviewed, and
    /// whether no earlier edit edited it (for [`Reviewer::plan`]).
    pub(super) fn take_chain(&mut self, file: &str) -> (bool, Option<FileContent>) {
        let first_of_file = self.seen.insert(file.to_string());
        (first_of_file, self.chain.remove(file))
    }

    /// What `file` holds after the edit just planned, where known.
    pub(super) fn set_chain(&mut self, file: String, after: Option<FileContent>) {
        if let Some(after) = after {
            self.chain.insert(file, after);
        }
    }
}

/// An edit with what its review runs against ([`Reviewer::plan`]).
pub(super) struct Planned {
    edit: AgentEdit,
    known: Option<(FileContent, Basis)>,
    unavailable: Option<String>,
}

impl Planned {
    /// What the edit's file holds after it when that does not depend on
    /// srview's run of it: `Ok(content after, where known)`; `Err(())`
    /// when it does ([`after_of`] its review tells).
    pub(super) fn after_without_review(&self) -> Result<Option<FileContent>, ()> {
        match self.edit.agent_verdict {
            Verdict::Applied => match self.edit.after() {
                Some(after) => Ok(Some(after.clone())),
                None => Err(()),
            },
            // The review's content before is what it ran against, but for
            // a file read live that already held the edit's result.
            Verdict::Failed | Verdict::NotRun => match &self.known {
                Some((_, Basis::LiveFile)) => Err(()),
                known => Ok(known.as_ref().map(|(content, _)| content.clone())),
            },
            Verdict::Pending => Ok(None),
        }
    }
}

/// Runs planned edits: pure (it reads the current files only), so that
/// several edits of a session can be run at once (see
/// [`super::streamed`]).
#[derive(Clone)]
pub(super) struct Judge<'a> {
    ws: &'a (dyn SessionFs + Sync),
    cwd: String,
    agent: AgentKind,
    recovery: Recovery,
}

impl Judge<'_> {
    /// The review of `planned`.
    pub(super) fn review(&self, planned: Planned) -> Review {
        judged(planned, self.ws, &self.cwd, self.agent, self.recovery)
    }

    /// The agent whose session this reviews.
    pub(super) fn agent(&self) -> AgentKind {
        self.agent
    }
}

/// The review of `planned`, reading the current files through `ws`.
fn judged(
    planned: Planned,
    ws: &dyn SessionFs,
    cwd: &str,
    agent: AgentKind,
    recovery: Recovery,
) -> Review {
    let Planned {
        edit,
        known,
        unavailable,
    } = planned;
    let mut review = run_one(edit, known, ws, cwd, agent, unavailable, recovery);
    review.notices = notices(&review, agent);
    review
}

/// What the file of `review`'s edit holds after it, where known: for the
/// next edit of it.
pub(super) fn after_of(review: &Review, agent: AgentKind) -> Option<FileContent> {
    let edit = &review.edit;
    match edit.agent_verdict {
        Verdict::Applied => edit
            .after()
            .cloned()
            .or_else(|| chained_after(review, agent)),
        Verdict::Failed | Verdict::NotRun => review.before.clone(),
        Verdict::Pending => None,
    }
}

/// The content srview's own application left, when it can stand for
/// what the agent wrote: run against a true content before (not the
/// current file), and exact unless srview's applier is a port of the
/// agent's (Codex's apply_patch, Cline classic's SEARCH/REPLACE; Aider's
/// matching and Cline CLI's apply_patch are their own, looser ones).
fn chained_after(review: &Review, agent: AgentKind) -> Option<FileContent> {
    let applied = review.applied().filter(|a| a.ok())?;
    let faithful = applied.loose.is_empty() || agent.row().faithful;
    let real_basis = review.basis.is_some_and(|b| b != Basis::CurrentFile);
    (faithful && real_basis)
        .then(|| applied.new_content().cloned())
        .flatten()
}

fn run_one(
    edit: AgentEdit,
    known: Option<(FileContent, Basis)>,
    ws: &dyn SessionFs,
    cwd: &str,
    agent: AgentKind,
    unavailable: Option<String>,
    recovery: Recovery,
) -> Review {
    let file = edit.file.clone();
    let run = |input: &EditInput, before: &FileContent, cwd: &str| match recovery {
        Recovery::Full => verdict::run(input, before, cwd, Some(&file)),
        Recovery::Light => verdict::run_counting(input, before, cwd),
    };
    let mut review = Review {
        edit,
        before: None,
        basis: None,
        run: Run::NotRun(None),
        disagreement: None,
        loose_match: None,
        notices: Vec::new(),
    };
    let edit = &review.edit;
    let runs = edit.runs_as(agent);
    if let Some(why) = verdict::not_runnable(&edit.input) {
        review.run = Run::not_run(why);
        review.before = known.map(|k| k.0);
        return review;
    }
    if agent.row().diff_is_result && matches!(edit.input, EditInput::UnifiedDiff(_)) {
        // A Codex app-server log without patch events records the diff
        // Codex applied, not the patch the model wrote: it always fits
        // exactly, so it says nothing of how the patch matched.
        review.run = Run::not_run(
            "this Codex output records the diff Codex applied, not the patch as the model \
             wrote it: how the patch matched is not known (the rollout file has it)",
        );
        review.before = known.map(|k| k.0);
        return review;
    }
    if let Some((content, basis)) = known {
        review.run = match recovery {
            Recovery::Light => already_applied(edit, basis),
            Recovery::Full => None,
        }
        .or_else(|| run(&runs, &content, cwd))
        .into();
        if agent.row().logs_before_writing
            && basis == Basis::LiveFile
            && edit.agent_verdict == Verdict::Pending
            && review.applied().is_some_and(|a| !a.ok())
        {
            // Read live, the file may already hold the patch.
            review.run = Run::not_run(format!(
                "waiting for {}'s verdict: it writes an edit moments after it logs it, so the \
                 file srview read may already hold it",
                agent.display_name()
            ));
        }
        if basis == Basis::LiveFile
            && edit.agent_verdict == Verdict::Applied
            && review.applied().is_some_and(|a| !a.ok())
            && edit.after() == Some(&content)
        {
            // The file read live was already the edit's result: srview
            // started after the agent wrote it (or a replay ran over the
            // files as the run left them).
            review.run = Run::not_run(
                "the file srview read when the edit appeared already held its result: \
                 the content before it is not known",
            );
            return review;
        }
        review.before = Some(content);
        review.basis = Some(basis);
    } else if !verdict::needs_before(&edit.input) {
        review.run = run(&runs, &FileContent::Absent, cwd).into();
        review.basis = Some(Basis::NotNeeded);
    } else if recovery == Recovery::Light {
        review.run = Run::not_run(unknown_before(agent, None));
    } else {
        match ws.current(&edit.file) {
            Some(current @ FileContent::Text(_)) => {
                // The content before unknown: nothing judged.
                let on_current = verdict::run(&runs, &current, cwd, None);
                let text = current.text().unwrap_or_default();
                let cut_off = edit.agent_verdict == Verdict::Pending;
                if cut_off
                    && (holds_new_text(&edit.input, text)
                        || on_current
                            .as_ref()
                            .is_some_and(|a| may_hold_result(a, text)))
                {
                    // The output ends before the agent's result: the file
                    // holding the edit's new text is most likely its
                    // result. Never run again (nor written).
                    review.run = Run::not_run(format!(
                        "{}; the current file {} holds its new text already: it looks applied \
                         already",
                        cut_off_words(agent),
                        ws.path(&edit.file).display()
                    ));
                } else if on_current
                    .as_ref()
                    .is_some_and(|a| a.ok() && a.loose.is_empty() && may_hold_result(a, text))
                {
                    review.run = Run::not_run(format!(
                        "{}; the current file {} holds the edit's new text already: it may \
                         hold this edit's result",
                        unknown_before(agent, unavailable.as_deref()),
                        ws.path(&edit.file).display()
                    ));
                } else if on_current
                    .as_ref()
                    .is_some_and(|a| a.ok() && a.loose.is_empty())
                {
                    review.run = on_current.into();
                    review.basis = Some(Basis::CurrentFile);
                } else {
                    // Why it does not run there, in the applier's words.
                    let how = match on_current.as_ref() {
                        Some(a) if a.ok() => "matches only loosely".to_string(),
                        Some(a) => match a.error() {
                            Some(e) => {
                                format!("does not apply ({})", crate::engine::error_headline(e))
                            }
                            None => "does not apply".to_string(),
                        },
                        None => "cannot be run".to_string(),
                    };
                    let first = if cut_off {
                        cut_off_words(agent)
                    } else {
                        unknown_before(agent, unavailable.as_deref())
                    };
                    review.run = Run::not_run(format!(
                        "{first}; on the current file {}, the edit {how}",
                        ws.path(&edit.file).display()
                    ));
                }
            }
            other => {
                let state = if other.is_some() {
                    "does not exist"
                } else {
                    "cannot be read as text"
                };
                review.run = Run::not_run(format!(
                    "{}; the current file {} {state}",
                    unknown_before(agent, unavailable.as_deref()),
                    ws.path(&edit.file).display()
                ));
            }
        }
    }
    if let Some(cut) = review
        .applied()
        .and_then(|a| unfinished_block(a, &review.edit.input))
    {
        // Part of an edit (Cline keeps only what streamed before it gave
        // up; an Aider reply cut off inside a block, which Aider never
        // applies): what the whole would do is not known.
        review.run = Run::not_run(format!(
            "the recorded edit is cut off: block {cut} never finished, so srview gives no \
             verdict on the part that did"
        ));
    }
    if let Some(why) = corrected_by_agent(&review, agent) {
        review.run = Run::not_run(why);
    }
    if let Some(why) = review.applied().and_then(verdict::not_reproduced) {
        review.run = Run::not_run(why);
    }
    review.disagreement = disagreement(&review, agent);
    review.loose_match = loose_match(&review, agent);
    review
}

/// An edit the agent applied although its own matcher (srview's port of
/// it) finds its old text nowhere, by an agent that corrects such edits
/// before applying them (its row's `corrects_unfound`): the agent
/// corrected it, and recorded the correction nowhere. No disagreement:
/// the agent's verdict stands, and what it wrote is what the output
/// records (the content after, where the output has it).
fn corrected_by_agent(review: &Review, agent: AgentKind) -> Option<String> {
    let unfound_stage = agent.row().corrects_unfound?;
    let applied = review.applied()?;
    let unfound = applied.applier == Applier::Agent
        && !applied.ok()
        && !applied.blocks.is_empty()
        && applied
            .blocks
            .iter()
            .all(|b| matches!(b, verdict::VerdictBlock::Call(e) if e.stage == unfound_stage));
    if review.edit.agent_verdict != Verdict::Applied || !unfound {
        return None;
    }
    let recorded = if review.edit.after().is_some() {
        "; the output records the change it made"
    } else {
        ""
    };
    Some(format!(
        "applied although old_string does not occur: the agent corrected it ({} rewrites an \
         edit its matcher finds nowhere before applying it when its correction step is on, \
         and records the corrected old_string nowhere{recorded})",
        agent.display_name()
    ))
}

/// A Claude Code Edit whose content after the reader derived from its
/// recorded content before with srview's own Edit semantics
/// (`ContentOrigin::Derived`): that run's verdict, without running it
/// again (a light review's shortcut; the full review builds the block
/// report).
fn already_applied(edit: &AgentEdit, basis: Basis) -> Option<Applied> {
    let after = edit
        .content_after
        .as_ref()
        .filter(|c| c.origin == ContentOrigin::Derived && basis == Basis::Recorded)?;
    matches!(edit.input, EditInput::Exact(_))
        .then(|| Applied::bare(Applier::Edit, Ok(after.content.clone())))
}

/// The number (from 1) of the first block of `input` that never finished,
/// if any: dropped by the engine, or applied without its REPLACE end marker
/// (the text stops inside its REPLACE section, and the engine's final mode
/// applies the lines that are there).
fn unfinished_block(applied: &verdict::Applied, input: &EditInput) -> Option<usize> {
    let dropped = applied.blocks.iter().find_map(|b| match b {
        verdict::VerdictBlock::Block(b) if b.state == crate::engine::BlockState::Dropped => {
            Some(b.index + 1)
        }
        _ => None,
    });
    let open = match input {
        EditInput::SearchReplace(diff) => crate::diagnose::doubt::unfinished_block(diff),
        _ => None,
    };
    dropped.into_iter().chain(open).min()
}

/// Whether `current` may hold the result of the edit `applied` ran on it
/// already: every block's new text (none empty) is found in it. An edit
/// whose new text contains its old (a line added after it) applies again
/// to its own result: the current file cannot tell which it holds.
fn may_hold_result(applied: &verdict::Applied, current: &str) -> bool {
    // Each block's new text: an engine block's REPLACE text, or what an
    // agent's matcher wrote in place of what it found.
    let new_texts: Vec<&str> = applied
        .blocks
        .iter()
        .filter_map(|b| match b {
            verdict::VerdictBlock::Block(b) => Some(b.replace_text.as_str()),
            verdict::VerdictBlock::Call(e) => e.written.as_deref(),
            verdict::VerdictBlock::Hunk(_) => None,
        })
        .collect();
    !new_texts.is_empty()
        && new_texts
            .iter()
            .all(|text| !text.trim().is_empty() && current.contains(text))
}

/// Whether `current` holds every piece of new text `input` writes (none
/// empty): a Claude Code Edit's `new_string`, each apply_patch hunk's
/// lines after it (its context and added lines). An edit whose result the
/// file may be.
fn holds_new_text(input: &EditInput, current: &str) -> bool {
    let texts: Vec<String> = match input {
        EditInput::Exact(crate::dialect::edit::Edit::ClaudeEdit { new_string, .. }) => {
            vec![new_string.clone()]
        }
        EditInput::ApplyPatch(patch) => hunks_new_texts(patch),
        _ => Vec::new(),
    };
    !texts.is_empty()
        && texts
            .iter()
            .all(|t| !t.trim().is_empty() && current.contains(t.as_str()))
}

/// Each hunk's new side in an apply_patch section: its context and added
/// lines, in order (a hunk of removals only gives its context).
fn hunks_new_texts(patch: &str) -> Vec<String> {
    let mut texts = Vec::new();
    let mut hunk: Option<String> = None;
    for line in patch.lines() {
        if line.starts_with("@@") || line.starts_with("*** ") {
            texts.extend(hunk.take());
            if line.starts_with("@@") {
                hunk = Some(String::new());
            }
        } else if let Some(text) = hunk.as_mut() {
            if let Some(kept) = line.strip_prefix(' ').or_else(|| line.strip_prefix('+')) {
                text.push_str(kept);
                text.push('\n');
            } else if line.is_empty() {
                text.push('\n');
            }
        }
    }
    texts.extend(hunk);
    texts
}

/// Why an edit the output ends before the agent's result on is not run
/// against the file as it is now: the agent may have written it.
fn cut_off_words(agent: AgentKind) -> String {
    format!(
        "the output ends before {}'s result on this edit: it may have been applied",
        agent.display_name()
    )
}

/// The first half of a "why unknown" sentence.
fn unknown_before(agent: AgentKind, unavailable: Option<&str>) -> String {
    let mut s = format!(
        "the content before is not in {}'s output and could not be recovered",
        agent.display_name()
    );
    if let Some(u) = unavailable {
        s.push_str(&format!(" ({u})"));
    }
    s
}

fn disagreement(review: &Review, agent: AgentKind) -> Option<String> {
    let applied = review.applied()?;
    // Against the current file, a failure could be the file's change since.
    if matches!(review.basis, Some(Basis::CurrentFile | Basis::OnDisk)) {
        return None;
    }
    let name = agent.display_name();
    // The agent refused it by a check of its own before matching it (its
    // text says why): srview placing it is no disagreement.
    let refused = review
        .edit
        .agent_message
        .as_deref()
        .is_some_and(agent.row().refused_before_matching);
    match (review.edit.agent_verdict, applied.ok()) {
        (Verdict::Failed, true) if refused => None,
        (Verdict::Applied, false) => Some(format!(
            "{name} applied this edit; srview's {} applier fails it: {}",
            applier_rules(applied.applier),
            applied
                .error()
                .map(crate::engine::error_headline)
                .unwrap_or_default()
        )),
        (Verdict::Failed, true) => Some(format!(
            "{name} failed this edit; srview's {} applier applies it{}",
            applier_rules(applied.applier),
            if applied.loose.is_empty() {
                String::new()
            } else {
                format!(" (loosely: {})", applied.loose.join(", "))
            }
        )),
        _ => None,
    }
}

/// The agent applied the edit and srview's applier applies it too, but only
/// loosely: "matched only loosely (unicode) while Codex reported plain
/// success". The verdicts agree, so this is no disagreement.
fn loose_match(review: &Review, agent: AgentKind) -> Option<String> {
    let applied = review.applied()?;
    if review.basis == Some(Basis::CurrentFile)
        || review.edit.agent_verdict != Verdict::Applied
        || !applied.ok()
        || applied.loose.is_empty()
    {
        return None;
    }
    let mut note = format!(
        "matched only loosely ({}) while {} reported plain success",
        applied.loose.join(", "),
        agent.display_name()
    );
    note.push_str(&crate::dialect::call::unasked_words(&unasked_lines(review)));
    Some(note)
}

/// [`crate::dialect::call::unasked_lines`] of the review's call.
fn unasked_lines(review: &Review) -> Vec<String> {
    let (Some(applied), EditInput::Call(call)) = (review.applied(), &review.edit.input) else {
        return Vec::new();
    };
    crate::dialect::call::unasked_lines(
        &call.input,
        applied.blocks.iter().filter_map(|b| match b {
            verdict::VerdictBlock::Call(e) => Some(e),
            _ => None,
        }),
    )
}

/// See [`Review::notices`].
fn notices(review: &Review, agent: AgentKind) -> Vec<String> {
    let name = agent.display_name();
    let mut out = Vec::new();
    if review.edit.cut_off && review.edit.agent_verdict == Verdict::Applied {
        out.push(format!(
            "the agent applied a cut-off edit: the model's stream ended inside this call and \
             {name} ran it as far as it had arrived"
        ));
    }
    if let Some(applied) = review
        .applied()
        .filter(|a| a.ok() && !a.rewritten_outside.is_empty())
        .filter(|_| review.basis != Some(Basis::CurrentFile))
    {
        let lines: Vec<String> = applied
            .rewritten_outside
            .iter()
            .map(|&(first, last)| match first == last {
                true => first.to_string(),
                false => format!("{first}-{last}"),
            })
            .collect();
        let stage = match applied.loose.first() {
            Some(stage) => format!("{name}'s {stage} match"),
            None => name.to_string(),
        };
        out.push(format!(
            "{stage} rewrote the whole file: {} {} changed outside the edit",
            if lines.len() == 1 && !lines[0].contains('-') {
                "line"
            } else {
                "lines"
            },
            lines.join(", ")
        ));
    }
    out
}

/// The rules an applier follows, for a disagreement's sentence.
fn applier_rules(a: Applier) -> &'static str {
    match a {
        Applier::SearchReplaceV1 => "SEARCH/REPLACE (Cline v1 rules)",
        Applier::ApplyPatch => "apply_patch (Codex 0.169.0 rules)",
        Applier::Edit => "exact-string edit",
        Applier::WholeFile => "whole-file",
        Applier::Agent => "the agent's own matcher",
        Applier::None => "",
    }
}

/// Counts for a listing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Every edit.
    pub edits: usize,
    /// Failed by the agent or by srview's applier.
    pub failed: usize,
    /// Matched only loosely by srview's applier.
    pub loose: usize,
    /// Where srview and the agent disagree.
    pub disagreements: usize,
    /// srview could not run (the content before unknown, the input
    /// incomplete): neither failed nor loose as far as srview can tell.
    pub unknown: usize,
    /// Applied, but with a doubt srview's trust checks raise
    /// ([`Review::doubts`]).
    pub doubted: usize,
}

impl Counts {
    /// Counts one more edit.
    pub fn add(&mut self, review: &Review) {
        self.edits += 1;
        self.failed += usize::from(review.is_failed());
        self.loose += usize::from(review.is_loose());
        self.disagreements += usize::from(review.disagreement.is_some());
        self.unknown += usize::from(review.ok().is_none());
        self.doubted += usize::from(!review.doubts().is_empty());
    }

    /// Adds the counts of `other` (of other edits).
    pub fn merge(&mut self, other: Counts) {
        self.edits += other.edits;
        self.failed += other.failed;
        self.loose += other.loose;
        self.disagreements += other.disagreements;
        self.unknown += other.unknown;
        self.doubted += other.doubted;
    }
}

impl SessionReview {
    /// How many edits, failed, loose and disputed ones.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for review in &self.reviews {
            counts.add(review);
        }
        counts
    }
}

/// The applier's name, as the text listing shows it.
pub fn applier_name(a: Applier) -> &'static str {
    match a {
        Applier::SearchReplaceV1 => "search/replace v1",
        Applier::ApplyPatch => "apply_patch",
        Applier::Edit => "edit",
        Applier::WholeFile => "whole file",
        Applier::Agent => "agent",
        Applier::None => "none",
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::recover::MemorySession;
    use super::*;
    use crate::source::agent::Format;

    fn run_sr(diff: &str, on: &str) -> verdict::Applied {
        let input = EditInput::SearchReplace(diff.to_string());
        verdict::run(
            &input,
            &FileContent::Text(on.to_string()),
            "/w",
            Some("a.txt"),
        )
        .expect("runs")
    }

    /// An edit that adds a line after its old text applies to its own
    /// result again: the current file holding the new text may hold it.
    #[test]
    fn a_file_holding_the_new_text_may_hold_the_result() {
        let diff = "------- SEARCH\na\n=======\na\nb\n+++++++ REPLACE\n";
        let after = run_sr(diff, "a\nb\nc\n");
        assert!(after.ok() && may_hold_result(&after, "a\nb\nc\n"));
        let before = run_sr(diff, "a\nc\n");
        assert!(before.ok() && !may_hold_result(&before, "a\nc\n"));
    }

    /// Each apply_patch hunk's new side is its context and added lines; the
    /// file holds the patch's result only where it holds every hunk's.
    #[test]
    fn a_patch_s_new_text_is_each_hunk_s_context_and_added_lines() {
        let patch = "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n     x = 1\n-    y = 2\n\
                     +    y = 3\n@@\n-z = 0\n+z = 1\n*** End Patch\n";
        assert_eq!(
            hunks_new_texts(patch),
            ["    x = 1\n    y = 3\n", "z = 1\n"]
        );
        let input = EditInput::ApplyPatch(patch.to_string());
        assert!(holds_new_text(
            &input,
            "def f():\n    x = 1\n    y = 3\nz = 1\n"
        ));
        assert!(!holds_new_text(
            &input,
            "def f():\n    x = 1\n    y = 2\nz = 1\n"
        ));
        // Nothing to look for is no sign of the result.
        let removal = "*** Begin Patch\n*** Update File: a.py\n@@\n-z = 0\n*** End Patch\n";
        assert!(!holds_new_text(
            &EditInput::ApplyPatch(removal.into()),
            "x\n"
        ));
    }

    /// A recorded edit cut off inside a block, in its SEARCH section or in
    /// its REPLACE section (which the engine's final mode applies): that
    /// block is named.
    #[test]
    fn a_cut_off_block_is_found() {
        let unfinished = |diff: &str| {
            let input = EditInput::SearchReplace(diff.to_string());
            unfinished_block(&run_sr(diff, "a\nb\n"), &input)
        };
        let whole = "------- SEARCH\na\n=======\nA\n+++++++ REPLACE\n";
        assert_eq!(unfinished(whole), None);
        assert_eq!(unfinished(&format!("{whole}------- SEARCH\nb")), Some(2));
        assert_eq!(
            unfinished(&format!("{whole}------- SEARCH\nb\n=======\n")),
            Some(2)
        );
        assert_eq!(
            unfinished(&format!("{whole}------- SEARCH\nb\n=======\nB\n")),
            Some(2)
        );
        assert_eq!(
            unfinished("------- SEARCH\na\n=======\nA\n+++++++ REPL"),
            Some(1)
        );
    }

    const STREAM: &str = r#"{"type":"agent_event","event":{"type":"content_start","contentType":"tool","toolName":"editor","toolCallId":"c1","input":{"path":"a.py","old_text":"x = 1","new_text":"x = 2"}}}
{"type":"agent_event","event":{"type":"content_end","contentType":"tool","toolName":"editor","toolCallId":"c1","output":{"success":true}}}
{"type":"agent_event","event":{"type":"content_start","contentType":"tool","toolName":"editor","toolCallId":"c2","input":{"path":"a.py","old_text":"y = 3","new_text":"y = 4"}}}
{"type":"agent_event","event":{"type":"content_end","contentType":"tool","toolName":"editor","toolCallId":"c2","output":{"success":false,"error":"boom"}}}
"#;

    /// A Cline CLI edit of `file` replacing `old` by `new`, its verdict
    /// `verdict` (`None`: still running).
    pub(in crate::sessions) fn cline_edit(
        id: &str,
        file: &str,
        old: &str,
        new: &str,
        verdict: Option<bool>,
    ) -> String {
        let input = serde_json::json!({"path": file, "old_text": old, "new_text": new});
        let mut lines =
            serde_json::json!({"type": "agent_event", "event": {"type": "content_start",
            "contentType": "tool", "toolName": "editor", "toolCallId": id, "input": input}})
            .to_string();
        lines.push('\n');
        if let Some(success) = verdict {
            lines.push_str(&cline_verdict(id, success));
        }
        lines
    }

    pub(in crate::sessions) fn cline_verdict(id: &str, success: bool) -> String {
        let output = match success {
            true => serde_json::json!({"success": true}),
            false => serde_json::json!({"success": false, "error": "boom"}),
        };
        let mut line = serde_json::json!({"type": "agent_event", "event": {"type": "content_end",
            "contentType": "tool", "toolName": "editor", "toolCallId": id, "output": output}})
        .to_string();
        line.push('\n');
        line
    }

    fn cline_reader(text: &str, checkpoints: &[&str]) -> AgentReader {
        let mut reader = AgentReader::new(AgentKind::ClineCli, Format::ClineCliJson);
        reader.set_checkpoints(checkpoints.iter().map(|c| c.to_string()).collect());
        reader.feed(text.as_bytes());
        reader.finish();
        reader
    }

    pub(in crate::sessions) fn memory(
        files: &[(&str, &str)],
        commits: &[(&str, &str, &str)],
    ) -> MemorySession {
        MemorySession {
            root: "/ws".into(),
            files: files
                .iter()
                .map(|(p, t)| (p.to_string(), t.to_string()))
                .collect(),
            commits: commits
                .iter()
                .map(|(r, p, t)| {
                    let t = FileContent::Text(t.to_string());
                    ((r.to_string(), p.to_string()), t)
                })
                .collect(),
            ..MemorySession::default()
        }
    }

    /// The review reads the workspace through the seam only: a file in a
    /// git checkpoint, the current file, a missing one, an unknown commit.
    #[test]
    fn the_review_reads_checkpoints_and_current_files_through_the_seam() {
        let text = format!(
            "{}{}",
            cline_edit("c1", "a.py", "x = 1", "x = 2", Some(true)),
            cline_edit("c2", "a.py", "y = 3", "y = 4", Some(true))
        );
        // The checkpoint holds a.py before the session: the first edit runs
        // against it, the second against what the first left.
        let ws = memory(
            &[("a.py", "x = 2\ny = 4\n")],
            &[("cp1", "a.py", "x = 1\ny = 3\n")],
        );
        let r = review(&cline_reader(&text, &["cp1"]), &ws);
        let [first, second] = &r.reviews[..] else {
            panic!("two edits: {}", r.reviews.len())
        };
        assert_eq!(
            (first.basis, first.ok(), first.before.clone()),
            (
                Some(Basis::GitCheckpoint),
                Some(true),
                Some(FileContent::Text("x = 1\ny = 3\n".into()))
            )
        );
        assert_eq!(
            (second.basis, second.ok(), second.before.clone()),
            (
                Some(Basis::Chained),
                Some(true),
                Some(FileContent::Text("x = 2\ny = 3\n".into()))
            )
        );
        assert_eq!(ws.reads.load(std::sync::atomic::Ordering::Relaxed), 1);
        // No checkpoint: the current file, where the edit applies exactly.
        let ws = memory(&[("a.py", "x = 1\ny = 3\n")], &[]);
        let r = review(&cline_reader(&text, &[]), &ws);
        assert_eq!(r.reviews[0].basis, Some(Basis::CurrentFile));
        assert_eq!(
            r.reviews[0].verdict_words(false),
            "applies (exact) on the current file (content before unknown)"
        );
        assert_eq!(r.reviews[0].before, None);
        // A missing file, and a commit git does not know.
        let ws = memory(&[], &[]);
        let r = review(&cline_reader(&text, &[]), &ws);
        assert_eq!(
            r.reviews[0].why(),
            Some(
                "the content before is not in Cline CLI's output and could not be recovered; \
                 the current file /ws/a.py does not exist"
            )
        );
        let r = review(&cline_reader(&text, &["cp9"]), &ws);
        assert_eq!(
            r.reviews[0].why(),
            Some(
                "the content before is not in Cline CLI's output and could not be recovered \
                 (git show cp9:a.py in /ws: fatal: invalid object name 'cp9'.); the current \
                 file /ws/a.py does not exist"
            )
        );
        // A file that cannot be read as text.
        let ws = MemorySession {
            unreadable: vec!["a.py".into()],
            ..memory(&[], &[])
        };
        let r = review(&cline_reader(&text, &[]), &ws);
        assert_eq!(
            r.reviews[0].why(),
            Some(
                "the content before is not in Cline CLI's output and could not be recovered; \
                 the current file /ws/a.py cannot be read as text"
            )
        );
    }

    #[test]
    fn the_current_file_is_used_only_where_the_edit_applies_exactly() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("a.py"), "x = 2\ny = 3\n").expect("write");
        let mut reader = AgentReader::new(AgentKind::ClineCli, Format::ClineCliJson);
        reader.feed(STREAM.as_bytes());
        reader.finish();
        let ws = SessionRoot {
            root: dir.path().to_path_buf(),
        };
        let r = review(&reader, &ws);
        let [first, second] = &r.reviews[..] else {
            panic!("two edits: {:?}", r.reviews.len())
        };
        // The first edit's old text is gone from the file: unknown, said.
        assert_eq!(first.ok(), None);
        assert_eq!(first.basis, None);
        let why = first.why().unwrap_or_default();
        assert!(why.starts_with("the content before is not in Cline CLI's output and could not be recovered; on the current file "), "{why}");
        assert!(
            why.ends_with(
                "a.py, the edit does not apply (No replacement performed: text not found in a.py.)"
            ),
            "{why}"
        );
        // The second failed, and no later edit wrote a.py: the file as it
        // is now is its content before (said as `on-disk`), and no
        // disagreement is claimed with the agent's failure (the file may
        // have changed since).
        assert_eq!(second.ok(), Some(true));
        assert_eq!(second.basis, Some(Basis::OnDisk));
        assert_eq!(
            second.before,
            Some(FileContent::Text("x = 2\ny = 3\n".into()))
        );
        assert_eq!(second.disagreement, None);
        assert!(second.is_failed());
        assert_eq!(
            r.counts(),
            Counts {
                edits: 2,
                failed: 1,
                loose: 0,
                disagreements: 0,
                unknown: 1,
                doubted: 0,
            }
        );
        // The light review (for listings) does not read the current file.
        let light = review_with(&reader, &ws, Recovery::Light);
        assert_eq!(light.reviews[1].ok(), None);
    }
}
