//! Where each part of the previewer is on the terminal, as
//! `view::screen_layout` laid it out: the geometry drawing and the mouse
//! share. Pure data: the state's key and mouse handling reads it, the view
//! computes it, so the state does not depend on the view.

use ratatui::layout::Rect;

use super::App;

/// Where each part of the previewer goes in an area: a pure function of
/// the state and the area, shared by drawing and mouse hit-testing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    pub status: Rect,
    pub diff: Rect,
    /// `None` when the area is too low for it: under 6 rows, or under 4
    /// once a long notice took its rows.
    pub blocks: Option<BlocksPane>,
    pub notice: Rect,
    pub footer: Rect,
}

/// The blocks pane: a title row, the block list, then the selected
/// block's detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlocksPane {
    pub pane: Rect,
    pub list: Rect,
    /// Index of the block on the list's first row.
    pub first: usize,
    pub detail: Rect,
}

impl Screen {
    /// The block shown at terminal cell (`column`, `row`), if any.
    pub fn block_at(&self, app: &App, column: u16, row: u16) -> Option<usize> {
        let list = self.blocks?.list;
        if !contains(list, column, row) {
            return None;
        }
        let index = self.blocks?.first + usize::from(row - list.y);
        (index < app.listed_blocks()).then_some(index)
    }

    /// Whether (`column`, `row`) is on the blocks pane (title, list or detail).
    pub fn over_blocks(&self, column: u16, row: u16) -> bool {
        self.blocks.is_some_and(|b| contains(b.pane, column, row))
    }
}

fn contains(r: Rect, column: u16, row: u16) -> bool {
    r.contains(ratatui::layout::Position::new(column, row))
}
