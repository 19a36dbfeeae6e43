//! Blocks left out of what accepting writes, like `git add -p`: `x`
//! toggles the selected block, and the panes and `a` take the diff made of
//! the others, run through the same applier as a whole diff (see
//! [`crate::dialect::chosen`]). The block list keeps every block, numbered
//! as in the whole diff.

use super::{App, Notice};
use crate::dialect::chosen::{self, KeptLines};
use crate::engine::{ApplyError, BlockReport, BlockState, Outcome};

/// The diff made of the blocks kept, and where its lines and blocks are in
/// the whole diff.
pub struct Kept {
    lines: KeptLines,
    /// The 1-based first and last lines of every block of the whole diff.
    spans: Vec<[usize; 2]>,
}

impl Kept {
    /// The diff the engine runs.
    pub fn text(&self) -> &str {
        &self.lines.text
    }

    /// How many blocks the whole diff has.
    pub fn whole_blocks(&self) -> usize {
        self.spans.len()
    }

    /// The whole diff's index of block `k` of the kept diff.
    pub fn whole_index(&self, k: usize) -> usize {
        self.lines.blocks.get(k).copied().unwrap_or(k)
    }

    /// Blocks of the kept diff renumbered as the whole diff's (their index
    /// and diff lines).
    pub fn renumber(&self, blocks: &mut [BlockReport]) {
        for b in blocks {
            b.index = self.whole_index(b.index);
            b.diff_lines = b.diff_lines.map(|l| self.line(l));
        }
    }

    /// The kept diff's error renumbered as the whole diff's.
    pub fn renumber_error(&self, e: &mut ApplyError) {
        e.block = e.block.map(|b| self.whole_index(b));
        e.diff_line = e.diff_line.map(|l| self.line(l));
    }

    /// The whole diff's line of line `l` (1-based) of the kept diff.
    fn line(&self, l: usize) -> usize {
        match l.checked_sub(1).and_then(|i| self.lines.lines.get(i)) {
            Some(&whole) => whole,
            // Past the kept text's last line: as far past the whole's.
            None => self
                .lines
                .lines
                .last()
                .map_or(l, |&last| last + l.saturating_sub(self.lines.lines.len())),
        }
    }

    /// The report of the kept diff (`own`), renumbered, with the blocks
    /// left out put back where they are in the whole diff (as `whole`, its
    /// report, has them, placed nowhere), so the list shows every block.
    pub fn merge(&self, mut own: Outcome<()>, whole: Outcome<()>) -> Outcome<()> {
        self.renumber(&mut own.blocks);
        if let Err(e) = &mut own.result {
            self.renumber_error(e);
        }
        let mut kept = own.blocks.into_iter();
        let mut blocks = Vec::with_capacity(self.spans.len());
        for (i, &lines) in self.spans.iter().enumerate() {
            if self.lines.blocks.contains(&i) {
                match kept.next() {
                    Some(b) => blocks.push(b),
                    // The engine stopped before this block (a failure, or
                    // the stream has not reached it).
                    None => break,
                }
            } else {
                let mut b = whole
                    .blocks
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| BlockReport::new(i, lines, BlockState::Dropped));
                b.replacement = None;
                b.replacement_bytes = None;
                blocks.push(b);
            }
        }
        Outcome {
            result: own.result,
            blocks,
        }
    }
}

impl App {
    /// The diff `text` (as the engine sees it) made of the blocks not left
    /// out; `None` when none is (or for a whole-file write), or why the
    /// blocks can no longer be told apart (a near-marker arrived since).
    pub(super) fn kept_lines(&self, text: &str) -> Option<Result<Kept, String>> {
        if self.left_out.is_empty() || self.direct {
            return None;
        }
        let numbers: Vec<usize> = self.left_out.iter().map(|i| i + 1).collect();
        let lines = match chosen::kept_lines(text, self.version, &numbers) {
            Ok(lines) => lines,
            Err(e) => {
                return Some(Err(format!("blocks cannot be left out of this diff: {e}")));
            }
        };
        let spans = crate::diagnose::block_spans(text, self.version)
            .iter()
            .map(|s| s.lines)
            .collect();
        Some(Ok(Kept { lines, spans }))
    }

    /// Whether block `index` (0-based) is left out of what accepting writes.
    pub fn is_left_out(&self, index: usize) -> bool {
        self.left_out.contains(&index)
    }

    /// The listed blocks not left out, as "blocks #1, #3".
    fn kept_words(&self) -> String {
        let kept: Vec<usize> = (0..self.listed_blocks())
            .filter(|i| !self.is_left_out(*i))
            .map(|i| i + 1)
            .collect();
        chosen::numbered("block", &kept)
    }

    /// `x`: leaves the selected block out of what accepting writes, or
    /// takes it back in; the panes then show the result of the diff made
    /// of the blocks kept. Said in a notice, as is why a block cannot be
    /// left out.
    pub fn toggle_left_out(&mut self) {
        let listed = self.listed_blocks();
        let say = |app: &mut App, text: String, error: bool| {
            app.notice = Some(Notice { text, error });
        };
        if self.direct {
            return say(
                self,
                "a whole-file write is one edit: nothing to leave out".into(),
                false,
            );
        }
        if listed == 0 {
            return say(self, "no block yet: nothing to leave out".into(), false);
        }
        let index = self.view.selected.min(listed - 1);
        if let Err(e) = chosen::kept_lines(&self.engine_diff(), self.version, &[index + 1]) {
            return say(
                self,
                format!("block #{} cannot be left out: {e}", index + 1),
                true,
            );
        }
        // A held-back accept spoke of other blocks; the selection stays on
        // the block the user chose (not moved by follow mode).
        self.clear_refusal();
        self.view.follow = false;
        self.view.user_selected = true;
        self.view.selected = index;
        let n = index + 1;
        if !self.left_out.remove(&index) {
            self.left_out.insert(index);
        }
        self.reapply();
        let kept = (0..listed).filter(|i| !self.is_left_out(*i)).count();
        let text = match (self.is_left_out(index), kept) {
            (true, 0) => format!("block #{n} left out: every block is, a writes nothing"),
            (true, _) => format!(
                "block #{n} left out: a writes {} only (the panes show their result)",
                self.kept_words()
            ),
            (false, _) if self.left_out.is_empty() => {
                format!("block #{n} back in: a writes every block")
            }
            (false, _) => format!(
                "block #{n} back in: a writes {} only (the panes show their result)",
                self.kept_words()
            ),
        };
        say(self, text, false);
    }

    /// The blocks left out, as "block #2", for the words of an accept.
    pub fn left_out_words(&self) -> Option<String> {
        let numbers: Vec<usize> = self.left_out.iter().map(|i| i + 1).collect();
        (!numbers.is_empty()).then(|| chosen::numbered("block", &numbers))
    }
}
