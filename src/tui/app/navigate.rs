//! Moving around: layout choice, scrolling, following the stream, and
//! jumping to blocks. Rows are those of the current layout.

use super::rows::{RowMap, SegKind};
use super::{App, Layout, UNIFIED_BELOW};
use crate::engine::{BlockReport, BlockState};

/// Rows kept above a selected block, so its context shows.
const SELECTED_BLOCK_MARGIN: usize = 3;

impl App {
    /// The previewer is drawn in `area` of the terminal: the layout, paging,
    /// following and the mouse go by it.
    pub fn fit(&mut self, area: ratatui::layout::Rect) {
        let before = (self.view.width, self.view.viewport);
        self.view.screen = area;
        self.view.width = area.width;
        self.view.viewport = usize::from(crate::tui::view::diff_rows(self, area.height));
        if before != (self.view.width, self.view.viewport) && self.view.follow {
            self.follow_active();
        }
    }

    pub fn layout(&self) -> Layout {
        self.view
            .layout_choice
            .unwrap_or(if self.view.width < UNIFIED_BELOW {
                Layout::Unified
            } else {
                Layout::Split
            })
    }

    pub fn rows(&self) -> &RowMap {
        match self.layout() {
            Layout::Split => &self.rows_split,
            Layout::Unified => &self.rows_unified,
        }
    }

    pub fn max_scroll(&self) -> usize {
        self.rows()
            .total()
            .saturating_sub(self.view.viewport.max(1))
    }

    /// Keeps `layout` whatever the width (`None`: chosen by the width
    /// again), as `u` does.
    #[cfg(test)]
    pub fn pin_layout(&mut self, layout: Option<Layout>) {
        self.view.layout_choice = layout;
    }

    /// The view stays where the user puts it: new text no longer moves it
    /// to the block being written (`f` follows again).
    #[cfg(test)]
    pub fn stop_following(&mut self) {
        self.view.follow = false;
    }

    pub fn scroll_to(&mut self, row: usize) {
        self.view.scroll = row.min(self.max_scroll());
    }

    /// The block the stream is working on, or the last one.
    pub fn active_block(&self) -> Option<&BlockReport> {
        let blocks = &self.outcome.blocks;
        blocks
            .iter()
            .rev()
            .find(|b| {
                matches!(
                    b.state,
                    BlockState::ReplaceStreaming | BlockState::SearchStreaming | BlockState::Failed
                )
            })
            .or(blocks.last())
    }

    /// Segment showing block `index`, if it is placed.
    pub fn segment_of_block(&self, index: usize) -> Option<usize> {
        self.segments
            .iter()
            .position(|s| s.kind == SegKind::Change { block: Some(index) })
    }

    /// Scrolls so the active block (and the line being streamed) is in view.
    pub fn follow_active(&mut self) {
        let Some(active) = self.active_block().map(|b| b.index) else {
            return;
        };
        if self.view.selected != active {
            self.view.selected = active;
            self.view.blocks_top = None;
        }
        // A block not located yet has nowhere to show: follow the last one that has.
        let placed = |b: &&BlockReport| b.original.is_some();
        let Some(active) = self.outcome.blocks[..=active]
            .iter()
            .rev()
            .find(placed)
            .map(|b| b.index)
        else {
            return;
        };
        let target = match self.segment_of_block(active) {
            Some(seg) => {
                let rows = self.rows();
                let first = rows.first_row(seg);
                let last = rows.first_row(seg + 1).saturating_sub(1);
                // Keep a little context above, and the newest line on screen.
                let top = first.saturating_sub(3);
                let page = self.view.viewport.max(1);
                if last >= top + page {
                    last + 3 - page.min(last + 3)
                } else {
                    top
                }
            }
            None => match self.outcome.blocks.get(active).and_then(|b| b.original) {
                Some(span) => self
                    .row_of_original_line(span.start_line.saturating_sub(1))
                    .saturating_sub(3),
                None => self.view.scroll,
            },
        };
        self.scroll_to(target);
    }

    /// First row showing original line `line` (0-based) in the current layout.
    pub fn row_of_original_line(&self, line: usize) -> usize {
        let rows = self.rows();
        let unified = self.layout() == Layout::Unified;
        for (i, s) in self.segments.iter().enumerate() {
            if s.orig.contains(&line) {
                let off = line - s.orig.start;
                let off = if unified || s.kind != SegKind::Same {
                    off
                } else {
                    off.min(s.split_rows())
                };
                return rows.first_row(i) + off;
            }
        }
        0
    }

    /// First row showing block `index`, if it has a place on screen.
    pub fn block_row(&self, index: usize) -> Option<usize> {
        match self.segment_of_block(index) {
            Some(seg) => Some(self.rows().first_row(seg)),
            None => self
                .outcome
                .blocks
                .get(index)?
                .original
                .map(|span| self.row_of_original_line(span.start_line.saturating_sub(1))),
        }
    }

    /// Selects block `index` (any block the list shows) and scrolls to
    /// where it is (see [`App::block_rows`]), so the view and the detail
    /// below the list show the same block.
    pub fn select_block(&mut self, index: usize) {
        if index >= self.listed_blocks() {
            return;
        }
        self.view.selected = index;
        // The block list shows the selected block again.
        self.view.blocks_top = None;
        let row = self.block_rows()[index];
        self.scroll_to(row.saturating_sub(SELECTED_BLOCK_MARGIN));
    }

    /// Where a block with no place of its own (failed, or never reached
    /// after a failure) is shown, once diagnosed: its closest region, else
    /// where it would match on its own.
    fn diagnosed_row(&self, index: usize) -> Option<usize> {
        if self.diagnosis_stale() {
            return None;
        }
        // Diagnoses come in block order: one lookup, not a scan per block.
        let d = self
            .diagnoses
            .get(index)
            .filter(|d| d.index == index)
            .or_else(|| self.diagnoses.iter().find(|d| d.index == index))?;
        let line = d
            .closest
            .map(|c| c.start_line)
            .or(d.matched_lines.map(|m| m[0]))?;
        Some(self.row_of_original_line(line.saturating_sub(1)))
    }

    /// Where each listed block is: its first row; for a block with no place
    /// of its own, where its diagnosis puts it, else the row of the block
    /// before it.
    fn block_rows(&self) -> Vec<usize> {
        let mut last = 0;
        (0..self.listed_blocks())
            .map(|i| {
                let own = if i < self.outcome.blocks.len() {
                    self.block_row(i)
                } else {
                    None
                };
                match own.or_else(|| self.diagnosed_row(i)) {
                    Some(row) => {
                        last = row;
                        row
                    }
                    None => last,
                }
            })
            .collect()
    }

    /// The block after (or before) what the user is looking at: the
    /// selected block when it is on screen, else the top of the view, so
    /// `g` then `n` goes to the first block.
    pub fn neighbour_block(&self, forward: bool) -> Option<usize> {
        let count = self.listed_blocks();
        if count == 0 {
            return None;
        }
        let rows = self.block_rows();
        let selected = self.view.selected.min(count - 1);
        let view = self.view.scroll..self.view.scroll + self.view.viewport.max(1);
        if view.contains(&rows[selected]) {
            return Some(if forward {
                (selected + 1).min(count - 1)
            } else {
                selected.saturating_sub(1)
            });
        }
        let top = self.view.scroll;
        let by_row = rows.iter().enumerate().map(|(i, &r)| (r, i));
        let found = if forward {
            by_row.filter(|&(r, _)| r >= top).min()
        } else {
            by_row.filter(|&(r, _)| r < top).max()
        };
        Some(found.map_or(selected, |(_, i)| i))
    }

    /// Scrolls to the closest region of the selected block's diagnosis.
    pub fn jump_to_closest(&mut self) -> bool {
        let Some(line) = self
            .selected_diagnosis()
            .and_then(|d| d.closest)
            .map(|c| c.start_line)
        else {
            return false;
        };
        self.view.follow = false;
        let row = self.row_of_original_line(line.saturating_sub(1));
        self.scroll_to(row.saturating_sub(3));
        true
    }
}
