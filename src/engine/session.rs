//! Incremental streaming session: the diff arrives in pieces, and every
//! prefix gets exactly the [`Outcome`] a from-scratch [`apply`] of it gives.
//!
//! Complete lines (those followed by `\n`) are fed once to a v1/v2 state
//! machine and never again; only the SEARCH sections they complete are
//! matched. The last, incomplete line is the only one the reference may drop
//! (the partial-marker pop) or see grow, so [`Session::outcome`] forks the
//! machine, feeds that line, and finalizes the fork. The original's line
//! index is built once per session.
//!
//! ```
//! use srview::engine::{apply, session::Session, Options, Version};
//! let original = "a\nb\nc\n";
//! let diff = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n";
//! let mut session = Session::new(original, Version::V1);
//! for piece in diff.as_bytes().chunks(5) {
//!     session.push(std::str::from_utf8(piece).unwrap());
//!     let prefix = session.text();
//!     let want = apply(prefix, original, Options { version: Version::V1, is_final: false });
//!     assert_eq!(session.outcome(false), want);
//! }
//! assert_eq!(session.outcome(true).result.unwrap().new_content, "a\nB\nc\n");
//! ```
//!
//! [`apply`]: super::apply

use std::sync::Arc;

use super::matcher::LineIndex;
use super::v1::V1;
use super::v2::V2;
use super::{
    ApplyError, BlockReport, Machine, Outcome, RawOutcome, Spliced, Thrown, Version, pops_last_line,
};

/// A streaming apply of one growing diff to one original.
pub struct Session {
    index: Arc<LineIndex<'static>>,
    version: Version,
    /// The whole diff so far.
    text: String,
    /// Bytes of `text` already fed as complete lines (up to the last `\n`).
    committed: usize,
    /// Complete lines fed.
    lines: usize,
    state: State,
}

enum State {
    Running(Engine),
    /// A complete line threw: every longer prefix ends the same way.
    Failed(Outcome),
}

enum Engine {
    V1(V1),
    V2(V2),
}

/// The cheap per-update view: everything in an [`Outcome`] except the new
/// content, which is only measured, and the blocks' SEARCH and REPLACE texts
/// (`search_text` and `replace_text` are empty; they are not in the JSON
/// either), whose copies would make each update cost the diff's size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// `Ok(length of the new content in UTF-8 bytes)`, or the error.
    pub result: Result<usize, ApplyError>,
    /// As [`super::Applied::match_indices`]; empty on error.
    pub match_indices: Vec<usize>,
    /// The block reports, as [`Outcome::blocks`] but without their SEARCH and REPLACE texts.
    pub blocks: Vec<BlockReport>,
}

impl Session {
    /// A session over `original` with an empty diff.
    pub fn new(original: impl Into<Arc<str>>, version: Version) -> Self {
        Self::with_index(Arc::new(LineIndex::shared(original.into())), version)
    }

    /// A session over an index built earlier (e.g. by a previous session).
    pub fn with_index(index: Arc<LineIndex<'static>>, version: Version) -> Self {
        let engine = Engine::new(version);
        Session {
            index,
            version,
            text: String::new(),
            committed: 0,
            lines: 0,
            state: State::Running(engine),
        }
    }

    /// The line index of the original, shared with whoever else reads it.
    pub fn index(&self) -> &Arc<LineIndex<'static>> {
        &self.index
    }

    /// The original the diff applies to.
    pub fn original(&self) -> &str {
        self.index.text()
    }

    /// The parser version the session runs.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The diff received so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Forgets the diff; keeps the original's index.
    pub fn reset(&mut self) {
        *self = Self::with_index(Arc::clone(&self.index), self.version);
    }

    /// Replaces the whole diff text. An append is processed incrementally;
    /// anything else (the diff was rewritten) restarts the session. Returns
    /// whether it was an append.
    pub fn set_text(&mut self, full: &str) -> bool {
        if let Some(added) = full.strip_prefix(self.text.as_str()) {
            self.push(added);
            true
        } else {
            self.reset();
            self.push(full);
            false
        }
    }

    /// Appends diff text; feeds every line it completes.
    pub fn push(&mut self, chunk: &str) {
        let old_len = self.text.len();
        self.text.push_str(chunk);
        let State::Running(engine) = &mut self.state else {
            return;
        };
        // Only the new text can hold a `\n`: the tail before it has none.
        for (i, _) in self.text[old_len..].match_indices('\n') {
            let end = old_len + i;
            let line = &self.text[self.committed..end];
            self.lines += 1;
            if let Err(Thrown(message)) = engine.feed(&self.index, line, self.lines) {
                let failed = std::mem::replace(engine, Engine::V2(V2::default()));
                let raw = failed.fail(message, Some(self.lines));
                self.state = State::Failed(super::report::finish(raw, &self.index));
                return;
            }
            self.committed = end + 1;
        }
    }

    /// What `apply(self.text(), original, is_final)` returns. Costs the
    /// incomplete last line, finalization, and copying the new content.
    pub fn outcome(&self, is_final: bool) -> Outcome {
        match &self.state {
            State::Failed(outcome) => outcome.clone(),
            State::Running(engine) => {
                let raw = self.finish_prefix(engine, is_final, true);
                super::report::finish(raw, &self.index)
            }
        }
    }

    /// [`Session::outcome`] with the new content as a [`Spliced`] over the
    /// original: no copy of the file, so the cost of an update does not
    /// grow with the file.
    pub fn outcome_spliced(&self, is_final: bool) -> Outcome<Spliced> {
        match &self.state {
            State::Failed(outcome) => outcome.clone().map_content(|_| Spliced::default()),
            State::Running(engine) => {
                let raw = self.finish_prefix(engine, is_final, true);
                super::report::finish_with(raw, |sink| sink.into_content())
            }
        }
    }

    /// [`Session::outcome`] without building the new content: cost is the
    /// incomplete last line plus the small per-block state.
    pub fn summary(&self, is_final: bool) -> Summary {
        match &self.state {
            State::Failed(outcome) => Summary {
                result: outcome.result.clone().map(|a| a.new_content.len()),
                match_indices: Vec::new(),
                blocks: super::fork_blocks(&outcome.blocks, false),
            },
            State::Running(engine) => {
                let raw = self.finish_prefix(engine, is_final, false);
                let outcome = super::report::finish_with(raw, |sink| sink.len());
                let (result, match_indices) = match outcome.result {
                    Ok(applied) => (Ok(applied.new_content), applied.match_indices),
                    Err(e) => (Err(e), Vec::new()),
                };
                // The fork kept texts it needed (a final v1 rebuild, the
                // tail line's SEARCH): drop them, as the contract says.
                let mut blocks = outcome.blocks;
                for block in &mut blocks {
                    block.search_text = String::new();
                    block.replace_text = String::new();
                }
                Summary {
                    result,
                    match_indices,
                    blocks,
                }
            }
        }
    }

    fn finish_prefix(&self, engine: &Engine, is_final: bool, keep_text: bool) -> RawOutcome {
        let tail = &self.text[self.committed..];
        let tail_no = self.lines + 1;
        match engine {
            Engine::V1(m) => finish_with_tail(m, &self.index, tail, tail_no, is_final, keep_text),
            Engine::V2(m) => finish_with_tail(m, &self.index, tail, tail_no, is_final, keep_text),
        }
    }
}

/// Forks `machine`, feeds the diff's last line unless the reference pops it,
/// and finalizes.
fn finish_with_tail<M: Machine>(
    machine: &M,
    index: &LineIndex,
    tail: &str,
    tail_no: usize,
    is_final: bool,
    keep_text: bool,
) -> RawOutcome {
    // v1's final mode rebuilds the content from its replacements, so the
    // content streamed so far need not be copied.
    // Only a final v1 finish reads the blocks' texts; a summary drops them.
    let block_texts = keep_text || (is_final && M::FINAL_REBUILDS);
    let mut fork = machine.fork(keep_text && !(is_final && M::FINAL_REBUILDS), block_texts);
    if !pops_last_line(tail, M::STRICT)
        && let Err(Thrown(message)) = fork.feed(index, tail, tail_no)
    {
        return fork.fail(message, Some(tail_no));
    }
    fork.finish(index, is_final, keep_text)
}

impl Engine {
    /// The session keeps the streamed content (as pieces of the original):
    /// an outcome forks those pieces.
    fn new(version: Version) -> Self {
        match version {
            Version::V1 => Engine::V1(V1::new(true)),
            Version::V2 => Engine::V2(V2::new(true)),
        }
    }

    fn feed(&mut self, index: &LineIndex, line: &str, line_no: usize) -> Result<(), Thrown> {
        match self {
            Engine::V1(m) => m.feed(index, line, line_no),
            Engine::V2(m) => m.feed(index, line, line_no),
        }
    }

    fn fail(self, message: String, diff_line: Option<usize>) -> RawOutcome {
        match self {
            Engine::V1(m) => m.fail(message, diff_line),
            Engine::V2(m) => m.fail(message, diff_line),
        }
    }
}
