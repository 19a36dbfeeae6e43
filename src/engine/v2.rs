//! Cline v4.0.10's class-based applier (`NewFileContentConstructor`).
//!
//! The reference's "try to fix" paths search the pending non-standard lines
//! for marker-like lines, but a line matching those patterns is always taken
//! as a marker first and never becomes pending; so every fix attempt ends in
//! the error it would throw when nothing is found. This port keeps those
//! outcomes and drops the unreachable repair code.

use super::js::{js_slice, js_trim, js_trim_end};
use super::markers::{is_replace_end, is_search_start, is_separator};
use super::matcher::{self, LineIndex, Match};
use super::{
    ApplyError, BlockState, RawOutcome, Span, Stage, diff_lines, new_block, no_match_error,
};

const INVALID_TRANSITION: &str = "Invalid state transition.\nValid transitions are:\n- Idle → StateSearch\n- StateSearch → StateReplace";
const INCOMPLETE: &str =
    "File processing incomplete - SEARCH/REPLACE operations still active during finalization";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Idle,
    Search,
    /// The reference's `StateSearch | StateReplace`.
    Replace,
}

struct State<'d, 'o, 'i> {
    index: &'i LineIndex<'o>,
    phase: Phase,
    pending: Vec<&'d str>,
    result: String,
    from: usize,
    search: String,
    found: Option<Match>,
    blocks: Vec<super::BlockReport>,
    current: Option<usize>,
}

pub(super) fn run(diff: &str, index: &LineIndex, is_final: bool) -> RawOutcome {
    let mut st = State {
        index,
        phase: Phase::Idle,
        pending: Vec::new(),
        result: String::new(),
        from: 0,
        search: String::new(),
        found: None,
        blocks: Vec::new(),
        current: None,
    };
    for (i, line) in diff_lines(diff, true).into_iter().enumerate() {
        if let Err(message) = st.line(line, i + 1) {
            return st.fail(message, Some(i + 1));
        }
    }
    if is_final {
        let original = index.text();
        if st.from < original.len() {
            st.result.push_str(&original[st.from..]);
        }
        if st.phase != Phase::Idle {
            return st.fail(INCOMPLETE.to_string(), None);
        }
    }
    RawOutcome {
        result: Ok((st.result, Vec::new())),
        blocks: st.blocks,
    }
}

impl<'d> State<'d, '_, '_> {
    fn line(&mut self, line: &'d str, line_no: usize) -> Result<(), String> {
        if let Some(b) = self.current {
            self.blocks[b].diff_lines[1] = line_no;
        }
        if is_search_start(line) {
            while self.pending.last().is_some_and(|l| js_trim(l).is_empty()) {
                self.pending.pop();
            }
            if !self.pending.is_empty() {
                return Err(
                    "Malformed SEARCH/REPLACE block structure: Missing valid closing REPLACE marker".into(),
                );
            }
            if self.phase != Phase::Idle {
                return Err(INVALID_TRANSITION.into());
            }
            self.phase = Phase::Search;
            self.search.clear();
            let index = self.blocks.len();
            self.blocks.push(new_block(index, line_no));
            self.current = Some(index);
        } else if is_separator(line) {
            if self.phase == Phase::Idle {
                return Err(if self.pending.is_empty() {
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
            self.before_replace()?;
        } else if is_replace_end(line) {
            if self.phase != Phase::Replace {
                return Err(if self.pending.is_empty() {
                    String::new()
                } else {
                    "Malformed REPLACE block - missing valid separator after line 0".into()
                });
            }
            if let Some(found) = self.found {
                self.from = found.end;
            }
            if let Some(b) = self.current.take() {
                self.blocks[b].state = BlockState::Applied;
            }
            self.phase = Phase::Idle;
            self.search.clear();
            self.found = None;
        } else {
            match self.phase {
                Phase::Replace => {
                    self.result.push_str(line);
                    self.result.push('\n');
                    if let Some(b) = self.current {
                        let block = &mut self.blocks[b];
                        block.replace_text.push_str(line);
                        block.replace_text.push('\n');
                        if let Some((s, _)) = block.replacement_bytes {
                            block.replacement_bytes = Some((s, self.result.len()));
                        }
                    }
                }
                Phase::Search => {
                    self.search.push_str(line);
                    self.search.push('\n');
                }
                Phase::Idle => self.pending.push(line),
            }
        }
        Ok(())
    }

    fn before_replace(&mut self) -> Result<(), String> {
        let original = self.index.text();
        if let Some(b) = self.current {
            self.blocks[b].search_text.clone_from(&self.search);
        }
        let found = if self.search.is_empty() {
            Match {
                start: 0,
                end: original.len(),
                stage: Stage::Empty,
            }
        } else {
            let s = self.search.as_str();
            matcher::exact(self.index, s, self.from)
                .or_else(|| matcher::line_trimmed(self.index, s, self.from))
                .or_else(|| matcher::block_anchor(self.index, s, self.from))
                .ok_or_else(|| no_match_error(s))?
        };
        if found.start < self.from {
            return Err(format!(
                "The SEARCH block:\n{}\n...matched an incorrect content in the file.",
                js_trim_end(&self.search)
            ));
        }
        self.found = Some(found);
        self.result
            .push_str(js_slice(original, self.from, found.start));
        if let Some(b) = self.current {
            let at = self.result.len();
            let block = &mut self.blocks[b];
            block.state = BlockState::ReplaceStreaming;
            block.stage = Some(found.stage);
            block.original = Some(Span {
                start: found.start,
                end: found.end,
                start_line: 0,
                end_line: 0,
            });
            block.replacement_bytes = Some((at, at));
        }
        Ok(())
    }

    fn fail(mut self, message: String, diff_line: Option<usize>) -> RawOutcome {
        let block = self.current;
        if let Some(b) = block {
            self.blocks[b].state = BlockState::Failed;
            self.blocks[b].error = Some(message.clone());
        }
        RawOutcome {
            result: Err(ApplyError {
                message,
                block,
                diff_line,
            }),
            blocks: self.blocks,
        }
    }
}
