//! Cline v4.0.10's default applier (`constructNewFileContentV1`), line for
//! line, as a state machine fed one diff line at a time.

use super::blocks::BlockLog;
use super::js::js_trim_end;
use super::markers::{is_replace_end, is_search_start, is_separator};
use super::matcher::{self, LineIndex, Match};
use super::sink::Sink;
use super::{BlockState, Machine, RawOutcome, Stage, Thrown, no_match_error};

const EMPTY_SEARCH: &str = "Empty SEARCH block detected with non-empty file. This usually indicates a malformed SEARCH marker.\nPlease ensure your SEARCH marker follows the correct format:\n- Use '------- SEARCH' (7+ dashes + space + SEARCH)\n";

#[derive(Debug, Clone, Copy)]
struct Replacement {
    start: usize,
    end: usize,
    block: usize,
    /// `start` in UTF-16 units (the reference's match index), found once.
    utf16_start: usize,
}

#[derive(Debug, Default)]
pub(super) struct V1 {
    result: Sink,
    from: usize,
    search: String,
    in_search: bool,
    in_replace: bool,
    found: Option<Match>,
    out_of_order: bool,
    replacements: Vec<Replacement>,
    log: BlockLog,
    /// Newlines in each block's replace text, parallel to `log.blocks`.
    replace_newlines: Vec<usize>,
}

impl V1 {
    fn open_block(&mut self, line_no: usize) -> usize {
        self.replace_newlines.push(0);
        self.log.open(line_no)
    }

    fn current_or_new(&mut self, line_no: usize) -> usize {
        match self.log.current {
            Some(b) => b,
            None => self.open_block(line_no),
        }
    }

    fn separator(&mut self, index: &LineIndex, line_no: usize) -> Result<(), Thrown> {
        let b = self.current_or_new(line_no);
        self.in_search = false;
        self.in_replace = true;
        self.log.blocks[b].search_text.clone_from(&self.search);
        let found = self.locate(index)?;
        self.found = Some(found);
        if found.start < self.from {
            self.out_of_order = true;
        }
        let block = &mut self.log.blocks[b];
        block.state = BlockState::ReplaceStreaming;
        block.record_match(index, found, self.out_of_order);
        if !self.out_of_order {
            self.result.push_original(index, self.from, found.start);
            let at = self.result.pos();
            self.log.placed[b] = Some((at, at));
        }
        Ok(())
    }

    fn replace_end(&mut self, index: &LineIndex, line_no: usize) -> Result<(), Thrown> {
        let b = self.current_or_new(line_no);
        let Some(found) = self.found else {
            self.log.blocks[b].search_text.clone_from(&self.search);
            return Err(Thrown(format!(
                "The SEARCH block:\n{}\n...is malformatted.",
                js_trim_end(&self.search)
            )));
        };
        self.replacements.push(Replacement {
            start: found.start,
            end: found.end,
            block: b,
            utf16_start: index.utf16_offset(found.start),
        });
        if !self.out_of_order {
            self.from = found.end;
        }
        self.adopt(index, b, found);
        self.close(b);
        Ok(())
    }

    /// A SEARCH marker inside an open REPLACE section starts a new block but
    /// keeps the old match (the reference resets neither): the new block is
    /// then applied at that match, so report it there.
    fn adopt(&mut self, index: &LineIndex, b: usize, found: Match) {
        let block = &mut self.log.blocks[b];
        if block.original.is_none() {
            block.record_match(index, found, self.out_of_order);
        }
    }

    /// Marks block `b` applied and resets the per-block state.
    fn close(&mut self, b: usize) {
        self.log.blocks[b].state = BlockState::Applied;
        self.in_search = false;
        self.in_replace = false;
        self.search.clear();
        self.found = None;
        self.out_of_order = false;
        self.log.current = None;
    }

    /// The matching chain for the current SEARCH text.
    fn locate(&self, index: &LineIndex) -> Result<Match, Thrown> {
        if self.search.is_empty() {
            return if index.text().is_empty() {
                Ok(Match {
                    start: 0,
                    end: 0,
                    stage: Stage::Empty,
                })
            } else {
                Err(EMPTY_SEARCH.into())
            };
        }
        let s = self.search.as_str();
        matcher::exact(index, s, self.from)
            .or_else(|| matcher::line_trimmed(index, s, self.from))
            .or_else(|| matcher::block_anchor(index, s, self.from))
            .or_else(|| {
                matcher::exact(index, s, 0).map(|m| Match {
                    stage: Stage::WholeFile,
                    ..m
                })
            })
            .ok_or_else(|| Thrown(no_match_error(s)))
    }

    /// Final mode: close an open replace, then rebuild from sorted replacements.
    fn rebuild(&mut self, index: &LineIndex, keep_text: bool) {
        if self.in_replace
            && let Some(found) = self.found
            && let Some(b) = self.log.current
        {
            self.replacements.push(Replacement {
                start: found.start,
                end: found.end,
                block: b,
                utf16_start: index.utf16_offset(found.start),
            });
            self.adopt(index, b, found);
            self.close(b);
        }
        for block in &mut self.log.blocks {
            if block.state == BlockState::SearchStreaming
                || block.state == BlockState::ReplaceStreaming
            {
                block.state = BlockState::Dropped;
            }
        }
        self.log.placed.iter_mut().for_each(|p| *p = None);
        self.replacements.sort_by_key(|r| r.start);
        let mut result = Sink::new(keep_text);
        let mut pos = 0;
        for r in &self.replacements {
            result.push_original(index, pos, r.start);
            let at = result.pos();
            result.push_counted(
                &self.log.blocks[r.block].replace_text,
                self.replace_newlines[r.block],
            );
            self.log.placed[r.block] = Some((at, result.pos()));
            pos = r.end;
        }
        result.push_tail(index, pos);
        self.result = result;
    }
}

impl Machine for V1 {
    const FINAL_REBUILDS: bool = true;
    const STRICT: bool = false;

    fn new(keep_text: bool) -> Self {
        V1 {
            result: Sink::new(keep_text),
            ..V1::default()
        }
    }

    fn feed(&mut self, index: &LineIndex, line: &str, line_no: usize) -> Result<(), Thrown> {
        self.log.reach(line_no);
        if is_search_start(line) {
            if let Some(b) = self.log.current {
                self.log.blocks[b].state = BlockState::Dropped;
            }
            self.open_block(line_no);
            self.in_search = true;
            self.search.clear();
            return Ok(());
        }
        if is_separator(line) {
            return self.separator(index, line_no);
        }
        if is_replace_end(line) {
            return self.replace_end(index, line_no);
        }
        if self.in_search {
            self.search.push_str(line);
            self.search.push('\n');
        } else if self.in_replace {
            let in_order = self.found.is_some() && !self.out_of_order;
            if in_order {
                self.result.push_line(line);
            }
            if let Some(b) = self.log.current {
                self.replace_newlines[b] += 1;
            }
            self.log
                .push_replace_line(line, in_order.then(|| self.result.pos()));
        }
        Ok(())
    }

    fn finish(mut self, index: &LineIndex, is_final: bool, keep_text: bool) -> RawOutcome {
        if is_final {
            self.rebuild(index, keep_text);
        }
        let indices = self.replacements.iter().map(|r| r.utf16_start).collect();
        self.log.finish(self.result, indices)
    }

    fn fail(self, message: String, diff_line: Option<usize>) -> RawOutcome {
        self.log.fail(message, diff_line)
    }

    fn fork(&self, keep_text: bool, block_texts: bool) -> Self {
        V1 {
            result: self.result.fork(keep_text),
            from: self.from,
            search: self.search.clone(),
            in_search: self.in_search,
            in_replace: self.in_replace,
            found: self.found,
            out_of_order: self.out_of_order,
            replacements: self.replacements.clone(),
            log: self.log.fork(block_texts),
            replace_newlines: self.replace_newlines.clone(),
        }
    }
}
