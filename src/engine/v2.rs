//! Cline v4.0.10's class-based applier (`NewFileContentConstructor`), as a
//! state machine fed one diff line at a time.
//!
//! The reference's "try to fix" paths search the pending non-standard lines
//! for marker-like lines, but a line matching those patterns is always taken
//! as a marker first and never becomes pending; so every fix attempt ends in
//! the error it would throw when nothing is found. This port keeps those
//! outcomes and drops the unreachable repair code. For the same reason the
//! pending lines themselves are never needed: only how many there are and
//! whether any is not blank.

use super::blocks::BlockLog;
use super::js::{js_trim, js_trim_end};
use super::markers::{is_replace_end, is_search_start, is_separator};
use super::matcher::{self, LineIndex, Match};
use super::sink::Sink;
use super::{BlockState, Machine, RawOutcome, Stage, Thrown, no_match_error};

const INVALID_TRANSITION: &str = "Invalid state transition.\nValid transitions are:\n- Idle → StateSearch\n- StateSearch → StateReplace";
const INCOMPLETE: &str =
    "File processing incomplete - SEARCH/REPLACE operations still active during finalization";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Phase {
    #[default]
    Idle,
    Search,
    /// The reference's `StateSearch | StateReplace`.
    Replace,
}

#[derive(Debug, Default)]
pub(super) struct V2 {
    phase: Phase,
    /// Lines seen outside any block since the last SEARCH marker.
    pending: usize,
    /// Whether one of them is not blank (so it survives the trailing-blank pop).
    pending_text: bool,
    result: Sink,
    from: usize,
    search: String,
    found: Option<Match>,
    log: BlockLog,
}

impl V2 {
    fn search_start(&mut self, line_no: usize) -> Result<(), Thrown> {
        if self.pending_text {
            return Err(
                "Malformed SEARCH/REPLACE block structure: Missing valid closing REPLACE marker"
                    .into(),
            );
        }
        self.pending = 0;
        if self.phase != Phase::Idle {
            return Err(INVALID_TRANSITION.into());
        }
        self.phase = Phase::Search;
        self.search.clear();
        self.log.open(line_no);
        Ok(())
    }

    fn separator(&mut self, index: &LineIndex) -> Result<(), Thrown> {
        if self.phase == Phase::Idle {
            return Err(if self.pending == 0 {
                "Invalid SEARCH/REPLACE block structure - no lines available to process".into()
            } else {
                "Invalid REPLACE marker detected - could not find matching SEARCH block starting from line 0"
                    .into()
            });
        }
        if self.phase != Phase::Search {
            return Err(INVALID_TRANSITION.into());
        }
        self.phase = Phase::Replace;
        self.before_replace(index)
    }

    fn replace_end(&mut self) -> Result<(), Thrown> {
        if self.phase != Phase::Replace {
            return Err(if self.pending == 0 {
                "".into()
            } else {
                "Malformed REPLACE block - missing valid separator after line 0".into()
            });
        }
        if let Some(found) = self.found {
            self.from = found.end;
        }
        if let Some(b) = self.log.current.take() {
            self.log.blocks[b].state = BlockState::Applied;
        }
        self.phase = Phase::Idle;
        self.search.clear();
        self.found = None;
        Ok(())
    }

    fn before_replace(&mut self, index: &LineIndex) -> Result<(), Thrown> {
        if let Some(b) = self.log.current {
            self.log.blocks[b].search_text.clone_from(&self.search);
        }
        let found = if self.search.is_empty() {
            Match {
                start: 0,
                end: index.text().len(),
                stage: Stage::Empty,
            }
        } else {
            let s = self.search.as_str();
            matcher::exact(index, s, self.from)
                .or_else(|| matcher::line_trimmed(index, s, self.from))
                .or_else(|| matcher::block_anchor(index, s, self.from))
                .ok_or_else(|| Thrown(no_match_error(s)))?
        };
        if found.start < self.from {
            return Err(Thrown(format!(
                "The SEARCH block:\n{}\n...matched an incorrect content in the file.",
                js_trim_end(&self.search)
            )));
        }
        self.found = Some(found);
        self.result.push_original(index, self.from, found.start);
        if let Some(b) = self.log.current {
            let at = self.result.pos();
            let block = &mut self.log.blocks[b];
            block.state = BlockState::ReplaceStreaming;
            block.record_match(index, found, false);
            self.log.placed[b] = Some((at, at));
        }
        Ok(())
    }
}

impl Machine for V2 {
    const FINAL_REBUILDS: bool = false;
    const STRICT: bool = true;

    fn new(keep_text: bool) -> Self {
        V2 {
            result: Sink::new(keep_text),
            ..V2::default()
        }
    }

    fn feed(&mut self, index: &LineIndex, line: &str, line_no: usize) -> Result<(), Thrown> {
        self.log.reach(line_no);
        if is_search_start(line) {
            return self.search_start(line_no);
        }
        if is_separator(line) {
            return self.separator(index);
        }
        if is_replace_end(line) {
            return self.replace_end();
        }
        match self.phase {
            Phase::Replace => {
                self.result.push_line(line);
                self.log.push_replace_line(line, Some(self.result.pos()));
            }
            Phase::Search => {
                self.search.push_str(line);
                self.search.push('\n');
            }
            Phase::Idle => {
                self.pending += 1;
                self.pending_text |= !js_trim(line).is_empty();
            }
        }
        Ok(())
    }

    fn finish(mut self, index: &LineIndex, is_final: bool, _keep_text: bool) -> RawOutcome {
        if is_final {
            self.result.push_tail(index, self.from);
            if self.phase != Phase::Idle {
                return self.fail(INCOMPLETE.to_string(), None);
            }
        }
        self.log.finish(self.result, Vec::new())
    }

    fn fail(self, message: String, diff_line: Option<usize>) -> RawOutcome {
        self.log.fail(message, diff_line)
    }

    fn fork(&self, keep_text: bool, block_texts: bool) -> Self {
        V2 {
            phase: self.phase,
            pending: self.pending,
            pending_text: self.pending_text,
            result: self.result.fork(keep_text),
            from: self.from,
            search: self.search.clone(),
            found: self.found,
            log: self.log.fork(block_texts),
        }
    }
}
