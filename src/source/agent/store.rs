//! The edit list a parser builds, with what changed since the last look.

use std::collections::HashMap;

use super::{
    AgentEdit, AgentError, AgentEvent, AgentKind, AgentTool, Content, ContentOrigin, EditInput,
    FileContent, Verdict,
};

pub(super) struct Store {
    agent: AgentKind,
    /// Seqs of the edits still without a verdict when the input ended
    /// (made `not-run` by [`Store::finish`]; the output does not say
    /// whether the agent ran them).
    ended_pending: Vec<usize>,
    /// A side file shows the run stopped after the last record read
    /// ([`Store::stopped_at_end`]).
    stopped_at_end: bool,
    /// The edits from index `taken` on (those before were handed out by
    /// [`Store::take_settled`]). Indices are the edits' positions in the
    /// whole session (`seq - 1`).
    edits: Vec<AgentEdit>,
    taken: usize,
    workspace: Option<String>,
    /// The workspace was named by the caller: the output's own is ignored.
    workspace_fixed: bool,
    version: Option<String>,
    errors: Vec<AgentError>,
    events: Vec<AgentEvent>,
    /// Units read so far (for error messages).
    line: usize,
    /// Edits before `chain_at` have had their contents chained.
    chain_at: usize,
    /// Each file's content after the chained edits, where known.
    chain_state: HashMap<String, FileContent>,
    /// Edit counts at which a tool that may write files ran (a shell
    /// command): contents are not chained across them.
    barriers: Vec<usize>,
    barrier_at: usize,
    /// Whole contents of files the output records between edits (a read
    /// of the whole file): (edit count at the read, file, content), in
    /// order; chained into the next edits of the file like an edit's
    /// content after.
    reads: Vec<(usize, String, FileContent)>,
    read_at: usize,
    /// The list before a [`Store::begin_rebuild`].
    previous: Option<Vec<AgentEdit>>,
    /// Reads a backup the output names: (session id, backup name) → content.
    backups: Option<BackupSource>,
    /// Whether a path relative to the caller's workspace names a file
    /// there: absolute paths outside it are mapped onto it by their
    /// longest suffix that does ([`Store::relative`]).
    exists: Option<ExistsIn>,
    /// The folders mapped onto the workspace so far, each said once in
    /// `mapped_notes`.
    mapped: std::cell::RefCell<Vec<String>>,
    mapped_notes: std::cell::RefCell<Vec<String>>,
    /// The edits' contents (before, after, whole files read between
    /// edits) are dropped as they are given: see
    /// [`super::AgentReader::without_contents`].
    without_contents: bool,
}

/// Whether a path relative to the caller's workspace exists there.
pub(super) type ExistsIn = Box<dyn Fn(&str) -> bool>;

/// Reads Claude Code's file-history backups: (session id, backup name).
pub(super) type BackupSource = Box<dyn FnMut(&str, &str) -> Option<String>>;

impl Store {
    pub(super) fn new(agent: AgentKind) -> Store {
        Store {
            agent,
            ended_pending: Vec::new(),
            stopped_at_end: false,
            edits: Vec::new(),
            taken: 0,
            workspace: None,
            workspace_fixed: false,
            version: None,
            errors: Vec::new(),
            events: Vec::new(),
            line: 0,
            chain_at: 0,
            chain_state: HashMap::new(),
            barriers: Vec::new(),
            barrier_at: 0,
            reads: Vec::new(),
            read_at: 0,
            previous: None,
            backups: None,
            exists: None,
            mapped: std::cell::RefCell::new(Vec::new()),
            mapped_notes: std::cell::RefCell::new(Vec::new()),
            without_contents: false,
        }
    }

    /// From now on, the contents given are dropped (see
    /// [`super::AgentReader::without_contents`]).
    pub(super) fn drop_contents(&mut self) {
        self.without_contents = true;
    }

    /// Whether the contents given are kept: a reader may skip reading
    /// them when not.
    pub(super) fn keeps_contents(&self) -> bool {
        !self.without_contents
    }

    /// The edits not taken yet, in order.
    pub(super) fn edits(&self) -> &[AgentEdit] {
        &self.edits
    }

    /// The index of the first edit not taken yet that `f` accepts.
    pub(super) fn position(&self, f: impl Fn(&AgentEdit) -> bool) -> Option<usize> {
        self.edits.iter().position(f).map(|p| p + self.taken)
    }

    /// Removes and returns the settled edits: those whose verdict is known
    /// and whose content before has been chained. Later lines naming them
    /// change nothing.
    pub(super) fn take_settled(&mut self) -> Vec<AgentEdit> {
        self.chain();
        let settled = self.chain_at - self.taken;
        self.taken = self.chain_at;
        self.edits.drain(..settled).collect()
    }

    /// How many edits (from the first, taken ones included) have had
    /// their contents chained: a later edit's content before may still be
    /// filled from an earlier edit without an event (see `chain`); these
    /// change only with one.
    pub(super) fn chained(&self) -> usize {
        self.chain_at
    }

    /// The number of edits so far, taken ones included.
    fn count(&self) -> usize {
        self.taken + self.edits.len()
    }

    pub(super) fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    pub(super) fn errors(&self) -> &[AgentError] {
        &self.errors
    }

    pub(super) fn next_line(&mut self) {
        self.line += 1;
    }

    /// The workspace the output names (`fixed`: the caller's, which wins).
    pub(super) fn set_workspace(&mut self, dir: &str, fixed: bool) {
        if fixed || !self.workspace_fixed {
            self.workspace = Some(dir.trim_end_matches('/').to_string());
            self.workspace_fixed |= fixed;
        }
    }

    pub(super) fn workspace(&self) -> Option<&str> {
        self.workspace.as_deref()
    }

    pub(super) fn set_version(&mut self, version: &str) {
        if self.version.as_deref() != Some(version) {
            self.version = Some(version.to_string());
            self.events.push(AgentEvent::Version(version.to_string()));
        }
    }

    /// `path` relative to the workspace when inside it; an absolute path
    /// outside the caller's workspace, when [`Store::set_exists`] was
    /// given, relative to it by its longest suffix that exists there (and
    /// every later path under the same folder likewise).
    pub(super) fn relative(&self, path: &str) -> String {
        let path = path.strip_prefix("./").unwrap_or(path);
        if let Some(ws) = &self.workspace
            && let Some(rest) = path.strip_prefix(ws.as_str())
            && let Some(rest) = rest.strip_prefix('/')
            && !rest.is_empty()
        {
            return rest.to_string();
        }
        self.mapped_onto_workspace(path)
            .unwrap_or_else(|| path.to_string())
    }

    /// An absolute path outside the caller's workspace, mapped onto it.
    fn mapped_onto_workspace(&self, path: &str) -> Option<String> {
        let exists = self.exists.as_ref().filter(|_| self.workspace_fixed)?;
        let ws = self.workspace.as_deref()?;
        if !path.starts_with('/') {
            return None;
        }
        let under = |folder: &str| {
            path.strip_prefix(folder)
                .and_then(|r| r.strip_prefix('/'))
                .filter(|r| !r.is_empty())
                .map(str::to_string)
        };
        if let Some(rest) = self.mapped.borrow().iter().find_map(|f| under(f)) {
            return Some(rest);
        }
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        // The longest suffix first; never the whole path ("/" mapped).
        let from = (1..parts.len()).find(|&i| exists(&parts[i..].join("/")))?;
        let folder = format!("/{}", parts[..from].join("/"));
        let rest = parts[from..].join("/");
        self.mapped_notes.borrow_mut().push(format!(
            "{folder} is not under {ws}: its files are taken as the same paths under {ws} \
             (first: {path} as {rest})"
        ));
        self.mapped.borrow_mut().push(folder);
        Some(rest)
    }

    /// See [`Store::relative`].
    pub(super) fn set_exists(&mut self, exists: ExistsIn) {
        self.exists = Some(exists);
    }

    /// A sentence to say once with the mapped folders' (a reader's notice
    /// of an agent version it was not built on); said again, kept once.
    pub(super) fn note_once(&self, note: String) {
        let mut notes = self.mapped_notes.borrow_mut();
        if !notes.contains(&note) {
            notes.push(note);
        }
    }

    /// One sentence per folder mapped onto the workspace, in order.
    pub(super) fn mapped_notes(&self) -> Vec<String> {
        self.mapped_notes.borrow().clone()
    }

    /// A new edit, pending; returns its index.
    pub(super) fn push(
        &mut self,
        tool: AgentTool,
        path: &str,
        input: EditInput,
        streaming: bool,
    ) -> usize {
        let index = self.count();
        let file = self.relative(path);
        self.edits.push(AgentEdit {
            seq: index + 1,
            file,
            tool,
            input,
            streaming,
            agent_verdict: Verdict::Pending,
            agent_message: None,
            content_before: None,
            content_after: None,
            agent_diff: None,
            commit: None,
            cut_off: false,
            call_id: None,
        });
        self.events.push(AgentEvent::Started(index + 1));
        index
    }

    /// One pending edit per file section of an apply_patch call, as the
    /// agents that use it count edits: (index, file, section kind) each.
    /// `None`, with the missing field noted for `what`, when the patch
    /// names no file.
    pub(super) fn push_patch(
        &mut self,
        what: &str,
        patch: &str,
    ) -> Option<Vec<(usize, String, super::patch::SectionKind)>> {
        let sections = super::patch::split_patch(patch);
        if sections.is_empty() {
            self.missing(what, "*** Add/Update/Delete File");
            return None;
        }
        let edits = sections
            .into_iter()
            .map(|s| {
                let at = self.push(
                    AgentTool::ApplyPatch,
                    &s.path,
                    EditInput::ApplyPatch(s.patch),
                    false,
                );
                let file = self.relative(&s.path);
                (at, file, s.kind)
            })
            .collect();
        Some(edits)
    }

    pub(super) fn get(&self, index: usize) -> Option<&AgentEdit> {
        self.edits.get(index.checked_sub(self.taken)?)
    }

    /// The edit at `index`, to change its input, file or contents.
    pub(super) fn edit_mut(&mut self, index: usize) -> Option<&mut AgentEdit> {
        let edit = self.edits.get_mut(index.checked_sub(self.taken)?)?;
        self.events.push(AgentEvent::Updated(edit.seq));
        Some(edit)
    }

    /// Sets edit `index`'s [`AgentEdit::call_id`] (no event: nothing shown
    /// changes).
    pub(super) fn set_call_id(&mut self, index: usize, id: Option<&str>) {
        if let Some(edit) = index
            .checked_sub(self.taken)
            .and_then(|i| self.edits.get_mut(i))
        {
            edit.call_id = id.map(str::to_string);
        }
    }

    pub(super) fn set_path(&mut self, index: usize, path: &str) {
        let file = self.relative(path);
        if let Some(edit) = index
            .checked_sub(self.taken)
            .and_then(|i| self.edits.get_mut(i))
            && edit.file != file
        {
            edit.file = file;
            self.events.push(AgentEvent::Updated(edit.seq));
        }
    }

    /// The agent's verdict; a verdict already given is kept (the first
    /// word on an edit is the agent's).
    pub(super) fn set_verdict(&mut self, index: usize, verdict: Verdict, message: Option<String>) {
        if let Some(edit) = index
            .checked_sub(self.taken)
            .and_then(|i| self.edits.get_mut(i))
            && edit.agent_verdict == Verdict::Pending
        {
            edit.agent_verdict = verdict;
            edit.agent_message = message;
            edit.streaming = false;
            self.events.push(AgentEvent::Finished(edit.seq));
        }
    }

    pub(super) fn set_before(&mut self, index: usize, content: FileContent) {
        if self.without_contents {
            return;
        }
        if let Some(edit) = self.edit_mut(index) {
            edit.content_before = Some(Content {
                content,
                origin: ContentOrigin::Recorded,
            });
        }
    }

    pub(super) fn set_after(&mut self, index: usize, content: FileContent, origin: ContentOrigin) {
        if self.without_contents {
            return;
        }
        if let Some(edit) = self.edit_mut(index) {
            edit.content_after = Some(Content { content, origin });
        }
    }

    pub(super) fn set_backups(&mut self, source: BackupSource) {
        self.backups = Some(source);
    }

    /// A backup's content, when a source is set and has it.
    pub(super) fn backup(&mut self, session: &str, name: &str) -> Option<String> {
        self.backups.as_mut().and_then(|read| read(session, name))
    }

    /// The content before, unless the output already gave one.
    pub(super) fn set_before_if_unknown(&mut self, index: usize, content: FileContent) {
        if self.get(index).is_some_and(|e| e.content_before.is_none()) {
            self.set_before(index, content);
        }
    }

    /// A tool that may write files (a shell command) ran here: what the
    /// session knew of every file's content is stale.
    /// The edit counts at which a tool that may write files ran.
    pub(super) fn barriers(&self) -> &[usize] {
        &self.barriers
    }

    pub(super) fn barrier(&mut self) {
        let at = self.count();
        // A read before the command at the same point is stale after it.
        self.reads.retain(|(read_at, _, _)| *read_at != at);
        self.read_at = self.read_at.min(self.reads.len());
        if self.barriers.last() != Some(&at) {
            self.barriers.push(at);
        }
    }

    /// Records that a field the preview needs is missing.
    pub(super) fn missing(&mut self, what: &str, field: &str) {
        self.errors.push(AgentError::MissingField {
            agent: self.agent,
            version: self.version.clone(),
            line: self.line,
            what: what.to_string(),
            field: field.to_string(),
        });
    }

    /// One JSON line read as `T`: `None` for a blank line, and for a line
    /// that is not a `T`, recorded as malformed (`{not_one} ({serde's
    /// error})`).
    pub(super) fn json_line<T: serde::de::DeserializeOwned>(
        &mut self,
        text: &str,
        not_one: &str,
    ) -> Option<T> {
        if text.trim().is_empty() {
            return None;
        }
        serde_json::from_str(text)
            .inspect_err(|e| self.malformed(format!("{not_one} ({e})")))
            .ok()
    }

    /// Records, once per reader, a format version the reader was not
    /// written for (`what` names it and how it is read).
    pub(super) fn unknown_version(&mut self, what: &str) {
        self.errors.push(AgentError::UnknownVersion {
            agent: self.agent,
            version: self.version.clone(),
            what: what.to_string(),
        });
    }

    /// Records that the output names a version srview was not tested with.
    pub(super) fn untested_version(&mut self, version: &str, tested: &'static str) {
        self.errors.push(AgentError::UntestedVersion {
            agent: self.agent,
            version: version.to_string(),
            tested,
        });
    }

    /// The whole content of `path` as the output records it here, between
    /// edits (a read of the whole file): the next edits of the file that
    /// record no content before have it (chained).
    pub(super) fn file_read(&mut self, path: &str, content: FileContent) {
        if self.without_contents {
            return;
        }
        let file = self.relative(path);
        self.reads.push((self.count(), file, content));
    }

    /// Records a problem a reader words itself (an output that carries no
    /// edits).
    pub(super) fn note_error(&mut self, error: AgentError) {
        self.errors.push(error);
    }

    /// Records a unit that should be JSON and is not.
    pub(super) fn malformed(&mut self, reason: String) {
        self.errors.push(AgentError::Malformed {
            agent: self.agent,
            version: self.version.clone(),
            line: self.line,
            reason,
        });
    }

    /// The output shows the agent's run (or turn) ended: the edits still
    /// without a verdict were never run (the agent went on without running
    /// them), unlike those an output that merely stops is left without.
    pub(super) fn run_ended(&mut self) {
        // A line that could not be read may have held a verdict: the edits
        // stay without one (see `finish`).
        if self
            .errors
            .iter()
            .any(|e| matches!(e, AgentError::Malformed { .. }))
        {
            return;
        }
        for index in self.taken..self.count() {
            if self
                .get(index)
                .is_some_and(|e| e.agent_verdict == Verdict::Pending)
            {
                self.set_verdict(index, Verdict::NotRun, None);
            }
        }
    }

    /// A side file shows the run stopped after the output's last record:
    /// [`Store::finish`] ends it ([`Store::run_ended`]).
    pub(super) fn stopped_at_end(&mut self) {
        self.stopped_at_end = true;
    }

    /// The input ended: edits without a verdict are `not-run` for a reader,
    /// and noted in [`Store::ended_pending`]: the output ended before the
    /// agent's result, so the agent may have run them (a caller reviewing
    /// them shows them as pending).
    pub(super) fn finish(&mut self) {
        if self.stopped_at_end {
            self.run_ended();
        }
        for index in self.taken..self.count() {
            if let Some(e) = self.get(index)
                && e.agent_verdict == Verdict::Pending
            {
                self.ended_pending.push(e.seq);
                self.set_verdict(index, Verdict::NotRun, None);
            }
        }
        self.chain();
    }

    /// Seqs of the edits the input ended before any verdict on.
    pub(super) fn ended_pending(&self) -> &[usize] {
        &self.ended_pending
    }

    pub(super) fn take_events(&mut self) -> Vec<AgentEvent> {
        self.chain();
        let mut events = std::mem::take(&mut self.events);
        events.dedup();
        events
    }

    pub(super) fn begin_rebuild(&mut self) {
        self.previous = Some(std::mem::take(&mut self.edits));
        self.taken = 0;
        self.chain_at = 0;
        self.chain_state.clear();
        self.barriers.clear();
        self.barrier_at = 0;
        self.reads.clear();
        self.read_at = 0;
        self.events.clear();
        self.errors.clear();
        self.line = 0;
    }

    /// Compares the rebuilt list with the previous one: events only for
    /// what differs.
    pub(super) fn end_rebuild(&mut self) {
        self.chain();
        let previous = self.previous.take().unwrap_or_default();
        let version_events: Vec<AgentEvent> = self
            .events
            .drain(..)
            .filter(|e| matches!(e, AgentEvent::Version(_)))
            .collect();
        self.events = version_events;
        for edit in &self.edits {
            match previous.get(edit.seq - 1) {
                None => self.events.push(AgentEvent::Started(edit.seq)),
                Some(old) if old == edit => {}
                Some(old) if old.agent_verdict != edit.agent_verdict => {
                    self.events.push(AgentEvent::Finished(edit.seq))
                }
                Some(_) => self.events.push(AgentEvent::Updated(edit.seq)),
            }
        }
    }

    /// Fills unknown contents before from earlier edits of the same file,
    /// in order, as far as verdicts are known.
    fn chain(&mut self) {
        while self.chain_at < self.count() {
            while self.barriers.get(self.barrier_at) == Some(&self.chain_at) {
                self.chain_state.clear();
                self.barrier_at += 1;
            }
            while let Some((at, file, content)) = self.reads.get(self.read_at)
                && *at == self.chain_at
            {
                self.chain_state.insert(file.clone(), content.clone());
                self.read_at += 1;
            }
            // Reads taken into the chain are not kept (a long session).
            self.reads.drain(..self.read_at);
            self.read_at = 0;
            let edit = &mut self.edits[self.chain_at - self.taken];
            if edit.agent_verdict == Verdict::Pending || edit.file.is_empty() {
                return;
            }
            if edit.content_before.is_none()
                && let Some(known) = self.chain_state.get(&edit.file)
            {
                edit.content_before = Some(Content {
                    content: known.clone(),
                    origin: ContentOrigin::Chained,
                });
            }
            let state = match edit.agent_verdict {
                Verdict::Applied => edit.content_after.as_ref().map(|c| c.content.clone()),
                _ => edit.content_before.as_ref().map(|c| c.content.clone()),
            };
            match state {
                Some(state) => {
                    self.chain_state.insert(edit.file.clone(), state);
                }
                None => {
                    self.chain_state.remove(&edit.file);
                }
            }
            self.chain_at += 1;
        }
    }
}
