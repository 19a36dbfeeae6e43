//! Cline v4.0.10's default applier (`constructNewFileContentV1`), line for line.

use super::js::{js_slice, js_trim_end, utf16_offset};
use super::matcher::{self, LineIndex, Match};
use super::{
    ApplyError, BlockState, RawOutcome, Span, Stage, diff_lines, new_block, no_match_error,
};

const EMPTY_SEARCH: &str = "Empty SEARCH block detected with non-empty file. This usually indicates a malformed SEARCH marker.\nPlease ensure your SEARCH marker follows the correct format:\n- Use '------- SEARCH' (7+ dashes + space + SEARCH)\n";

struct Replacement {
    start: usize,
    end: usize,
    block: usize,
}

struct State<'a, 'i> {
    index: &'i LineIndex<'a>,
    result: String,
    from: usize,
    search: String,
    in_search: bool,
    in_replace: bool,
    found: Option<Match>,
    out_of_order: bool,
    replacements: Vec<Replacement>,
    blocks: Vec<super::BlockReport>,
    /// The block the current lines belong to.
    current: Option<usize>,
}

/// Runs v1 over the whole diff.
pub(super) fn run(diff: &str, index: &LineIndex, is_final: bool) -> RawOutcome {
    let mut st = State {
        index,
        result: String::new(),
        from: 0,
        search: String::new(),
        in_search: false,
        in_replace: false,
        found: None,
        out_of_order: false,
        replacements: Vec::new(),
        blocks: Vec::new(),
        current: None,
    };
    for (i, line) in diff_lines(diff, false).into_iter().enumerate() {
        if let Err(message) = st.line(line, i + 1) {
            return st.fail(message, Some(i + 1));
        }
    }
    if is_final {
        st.finish()
    } else {
        let starts = st.replacements.iter().map(|r| r.start).collect();
        st.done(starts)
    }
}

impl State<'_, '_> {
    fn original(&self) -> &str {
        self.index.text()
    }

    fn open_block(&mut self, line_no: usize) -> usize {
        let index = self.blocks.len();
        self.blocks.push(new_block(index, line_no));
        self.current = Some(index);
        index
    }

    fn current_or_new(&mut self, line_no: usize) -> usize {
        match self.current {
            Some(b) => b,
            None => self.open_block(line_no),
        }
    }

    fn line(&mut self, line: &str, line_no: usize) -> Result<(), String> {
        if let Some(b) = self.current {
            self.blocks[b].diff_lines[1] = line_no;
        }
        if super::markers::is_search_start(line) {
            if let Some(b) = self.current {
                self.blocks[b].state = BlockState::Dropped;
            }
            self.open_block(line_no);
            self.in_search = true;
            self.search.clear();
            return Ok(());
        }
        if super::markers::is_separator(line) {
            let b = self.current_or_new(line_no);
            self.in_search = false;
            self.in_replace = true;
            self.blocks[b].search_text.clone_from(&self.search);
            let found = self.locate()?;
            self.found = Some(found);
            if found.start < self.from {
                self.out_of_order = true;
            }
            let block = &mut self.blocks[b];
            block.state = BlockState::ReplaceStreaming;
            block.stage = Some(found.stage);
            block.out_of_order = self.out_of_order;
            block.original = Some(Span {
                start: found.start,
                end: found.end,
                start_line: 0,
                end_line: 0,
            });
            if !self.out_of_order {
                let gap = js_slice(self.index.text(), self.from, found.start);
                self.result.push_str(gap);
                let at = self.result.len();
                self.blocks[b].replacement_bytes = Some((at, at));
            }
            return Ok(());
        }
        if super::markers::is_replace_end(line) {
            let b = self.current_or_new(line_no);
            let Some(found) = self.found else {
                self.blocks[b].search_text.clone_from(&self.search);
                return Err(format!(
                    "The SEARCH block:\n{}\n...is malformatted.",
                    js_trim_end(&self.search)
                ));
            };
            self.replacements.push(Replacement {
                start: found.start,
                end: found.end,
                block: b,
            });
            if !self.out_of_order {
                self.from = found.end;
            }
            self.close(b);
            return Ok(());
        }
        if self.in_search {
            self.search.push_str(line);
            self.search.push('\n');
        } else if self.in_replace {
            let in_order = self.found.is_some() && !self.out_of_order;
            if let Some(b) = self.current {
                let block = &mut self.blocks[b];
                block.replace_text.push_str(line);
                block.replace_text.push('\n');
            }
            if in_order {
                self.result.push_str(line);
                self.result.push('\n');
                if let Some(b) = self.current
                    && let Some((s, _)) = self.blocks[b].replacement_bytes
                {
                    self.blocks[b].replacement_bytes = Some((s, self.result.len()));
                }
            }
        }
        Ok(())
    }

    /// Marks block `b` applied and resets the per-block state.
    fn close(&mut self, b: usize) {
        self.blocks[b].state = BlockState::Applied;
        self.in_search = false;
        self.in_replace = false;
        self.search.clear();
        self.found = None;
        self.out_of_order = false;
        self.current = None;
    }

    /// The matching chain for the current SEARCH text.
    fn locate(&self) -> Result<Match, String> {
        let original = self.original();
        if self.search.is_empty() {
            return if original.is_empty() {
                Ok(Match {
                    start: 0,
                    end: 0,
                    stage: Stage::Empty,
                })
            } else {
                Err(EMPTY_SEARCH.to_string())
            };
        }
        let s = self.search.as_str();
        matcher::exact(self.index, s, self.from)
            .or_else(|| matcher::line_trimmed(self.index, s, self.from))
            .or_else(|| matcher::block_anchor(self.index, s, self.from))
            .or_else(|| {
                matcher::exact(self.index, s, 0).map(|m| Match {
                    stage: Stage::WholeFile,
                    ..m
                })
            })
            .ok_or_else(|| no_match_error(s))
    }

    /// Final mode: close an open replace, then rebuild from sorted replacements.
    fn finish(mut self) -> RawOutcome {
        if self.in_replace
            && let Some(found) = self.found
            && let Some(b) = self.current
        {
            self.replacements.push(Replacement {
                start: found.start,
                end: found.end,
                block: b,
            });
            self.close(b);
        }
        for block in &mut self.blocks {
            if block.state == BlockState::SearchStreaming
                || block.state == BlockState::ReplaceStreaming
            {
                block.state = BlockState::Dropped;
            }
            block.replacement_bytes = None;
        }
        self.replacements.sort_by_key(|r| r.start);
        let original = self.index.text();
        let mut result = String::with_capacity(original.len());
        let mut pos = 0;
        for r in &self.replacements {
            result.push_str(js_slice(original, pos, r.start));
            let at = result.len();
            result.push_str(&self.blocks[r.block].replace_text);
            self.blocks[r.block].replacement_bytes = Some((at, result.len()));
            pos = r.end;
        }
        result.push_str(js_slice(original, pos, usize::MAX));
        self.result = result;
        let starts = self.replacements.iter().map(|r| r.start).collect();
        self.done(starts)
    }

    fn done(self, starts: Vec<usize>) -> RawOutcome {
        let original = self.index.text();
        let indices = starts
            .into_iter()
            .map(|s| utf16_offset(original, s))
            .collect();
        RawOutcome {
            result: Ok((self.result, indices)),
            blocks: self.blocks,
        }
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
