//! The bookkeeping both appliers share: the blocks opened so far, where each
//! one's replacement sits in the new content, and the block the diff lines
//! being read belong to.

use super::sink::{Pos, Sink};
use super::{ApplyError, BlockReport, BlockState, RawOutcome, fork_blocks, new_block};

#[derive(Debug, Default)]
pub(super) struct BlockLog {
    pub blocks: Vec<BlockReport>,
    /// Where each block's replacement sits in the new content, parallel to
    /// `blocks`; `None` until it is placed.
    pub placed: Vec<Option<(Pos, Pos)>>,
    /// The block the current diff lines belong to.
    pub current: Option<usize>,
}

impl BlockLog {
    /// Opens a block at 1-based diff line `line_no`; it becomes the current
    /// one.
    pub fn open(&mut self, line_no: usize) -> usize {
        let index = self.blocks.len();
        self.blocks.push(new_block(index, line_no));
        self.placed.push(None);
        self.current = Some(index);
        index
    }

    /// Diff line `line_no` is read: it belongs to the current block.
    pub fn reach(&mut self, line_no: usize) {
        if let Some(b) = self.current {
            self.blocks[b].diff_lines[1] = line_no;
        }
    }

    /// A REPLACE line of the current block (if any): added to its text and,
    /// when it was also written to the new content (which now ends at
    /// `end`), to its placed replacement.
    pub fn push_replace_line(&mut self, line: &str, end: Option<Pos>) {
        let Some(b) = self.current else {
            return;
        };
        let block = &mut self.blocks[b];
        block.replace_text.push_str(line);
        block.replace_text.push('\n');
        if let (Some(end), Some((start, _))) = (end, self.placed[b]) {
            self.placed[b] = Some((start, end));
        }
    }

    /// A copy for a fork (see [`fork_blocks`](super::fork_blocks)).
    pub fn fork(&self, block_texts: bool) -> Self {
        BlockLog {
            blocks: fork_blocks(&self.blocks, block_texts),
            placed: self.placed.clone(),
            current: self.current,
        }
    }

    /// The outcome of a diff read to its end: the new content (or its
    /// counts) in `result`, with the reference's UTF-16 match indices.
    pub fn finish(self, result: Sink, match_indices: Vec<usize>) -> RawOutcome {
        RawOutcome {
            result: Ok((result, match_indices)),
            blocks: self.blocks,
            placed: self.placed,
        }
    }

    /// The reference threw `message` while the current block (if any) was
    /// being processed: that block is marked failed with the message.
    pub fn fail(mut self, message: String, diff_line: Option<usize>) -> RawOutcome {
        if let Some(b) = self.current {
            self.blocks[b].state = BlockState::Failed;
            self.blocks[b].error = Some(message.clone());
        }
        RawOutcome {
            result: Err(ApplyError {
                message,
                block: self.current,
                diff_line,
            }),
            blocks: self.blocks,
            placed: self.placed,
        }
    }
}
