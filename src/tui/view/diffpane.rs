//! The diff area: original and result side by side (split) or one pane of
//! removed and added lines (unified). Only the rows on screen are built.

use std::ops::Range;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::code::{self, word_changes};
use super::highlight::{DocHighlighter, LineColours, Syntaxes};
use super::theme::{Theme, Tint};
use crate::engine::BlockState;
use crate::tui::app::rows::SegKind;
use crate::tui::app::{App, Layout};

/// Highlighting state kept between frames.
pub struct Caches {
    pub syntaxes: std::sync::Arc<Syntaxes>,
    pub original: DocHighlighter,
    pub result: DocHighlighter,
    result_epoch: u64,
    /// The engine run the original's colours were kept at: a reload
    /// replaces the original and runs the engine again.
    apply_epoch: u64,
}

impl Caches {
    pub fn new(syntaxes: impl Into<std::sync::Arc<Syntaxes>>, app: &App) -> Self {
        let syntaxes = syntaxes.into();
        // With its newline, as syntect reads it (`<?xml\n` needs the `\s`).
        let mut first = app.original().line(0).into_owned();
        if app.original().complete_len() > 0 {
            first.push('\n');
        }
        let syntax = syntaxes.detect(app.file_path(), &first);
        Caches {
            original: DocHighlighter::new(syntax),
            result: DocHighlighter::new(syntax),
            syntaxes,
            result_epoch: 0,
            apply_epoch: app.apply_epoch(),
        }
    }

    fn sync(&mut self, app: &App) {
        if self.result_epoch != app.result_epoch() {
            self.result.invalidate_from(app.dirty_from());
            self.result_epoch = app.result_epoch();
        }
        if self.apply_epoch != app.apply_epoch() {
            self.original.forget_colours();
            self.apply_epoch = app.apply_epoch();
        }
    }
}

/// Which text a cell shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Src {
    Orig(usize),
    New(usize),
}

/// One side of one row.
struct Cell {
    src: Src,
    /// Inside the closest region of the selected block's diagnosis.
    closest: bool,
    number: usize,
    tint: Option<Tint>,
    pending: bool,
    streaming: bool,
    /// The other side's line, for word-level marks.
    partner: Option<Src>,
    sign: &'static str,
}

pub fn render(frame: &mut Frame, area: Rect, app: &App, caches: &mut Caches, theme: &Theme) {
    caches.sync(app);
    let rows = collect_rows(app, area.height as usize);
    let (orig_range, new_range) = line_ranges(&rows);
    let orig_colours =
        caches
            .original
            .highlight(&caches.syntaxes, app.original(), orig_range.clone());
    // The result is the original up to its first change: it parses on
    // from the original's states there.
    caches
        .result
        .share_until(&caches.original, same_lines_until(app));
    let new_colours = caches
        .result
        .highlight(&caches.syntaxes, app.result(), new_range.clone());
    let colours = |src: Src| -> &LineColours {
        static EMPTY: LineColours = Vec::new();
        match src {
            Src::Orig(l) => orig_colours
                .get(l.wrapping_sub(orig_range.start))
                .unwrap_or(&EMPTY),
            Src::New(l) => new_colours
                .get(l.wrapping_sub(new_range.start))
                .unwrap_or(&EMPTY),
        }
    };
    // Pending lines are numbered after the result so far (see `rows`).
    let projected = app
        .segments()
        .iter()
        .filter(|s| s.kind == SegKind::Pending)
        .map(|s| s.new.start + s.orig.len())
        .max()
        .unwrap_or(0);
    let digits = app
        .original()
        .len()
        .max(app.result().len())
        .max(projected)
        .max(1)
        .to_string()
        .len();
    let ctx = Ctx { app, theme, digits };
    match app.layout() {
        Layout::Split => {
            let half = area.width / 2;
            let left_area = Rect {
                width: half,
                ..area
            };
            let right_area = Rect {
                x: area.x + half,
                width: area.width - half,
                ..area
            };
            let text_w = |a: Rect| (a.width as usize).saturating_sub(digits + 4);
            let (lt, rt) = (text_w(left_area), text_w(right_area));
            let (mut left, mut right) = (Vec::new(), Vec::new());
            for (l, r) in &rows {
                let (lm, rm) = ctx.row_marks(l.as_ref(), r.as_ref());
                let mut ls = ctx.cell(l.as_ref(), &lm, &colours, " ");
                let mut rs = ctx.cell(r.as_ref(), &rm, &colours, "│");
                if app.view().wrap {
                    let (lw, rw) = (
                        ctx.wrap_filled(ls.1, lt, ls.2),
                        ctx.wrap_filled(rs.1, rt, rs.2),
                    );
                    let n = lw.len().max(rw.len());
                    for i in 0..n {
                        let gutter_l = if i == 0 {
                            ls.0.clone()
                        } else {
                            ctx.blank_gutter(" ")
                        };
                        let gutter_r = if i == 0 {
                            rs.0.clone()
                        } else {
                            ctx.blank_gutter("│")
                        };
                        let filler = |w: usize, fill: Style| code::pad(Vec::new(), w, fill);
                        let lb = lw.get(i).cloned().unwrap_or_else(|| filler(lt, ls.2));
                        let rb = rw.get(i).cloned().unwrap_or_else(|| filler(rt, rs.2));
                        left.push(join(gutter_l, lb));
                        right.push(join(gutter_r, rb));
                    }
                } else {
                    let (lc, rc) = (
                        ctx.first_change(l.as_ref(), &lm),
                        ctx.first_change(r.as_ref(), &rm),
                    );
                    left.push(join(
                        std::mem::take(&mut ls.0),
                        ctx.clip(ls.1, lt, ls.2, lc),
                    ));
                    right.push(join(
                        std::mem::take(&mut rs.0),
                        ctx.clip(rs.1, rt, rs.2, rc),
                    ));
                }
                if left.len() >= area.height as usize {
                    break;
                }
            }
            frame.render_widget(Paragraph::new(left), left_area);
            frame.render_widget(Paragraph::new(right), right_area);
        }
        Layout::Unified => {
            let mut lines = Vec::new();
            let text_w = (area.width as usize).saturating_sub(digits + 4);
            for (l, _) in &rows {
                let marks = ctx.marks(l.as_ref());
                let (g, body, fill) = ctx.cell(l.as_ref(), &marks, &colours, " ");
                if app.view().wrap {
                    for (i, chunk) in ctx.wrap_filled(body, text_w, fill).into_iter().enumerate() {
                        lines.push(join(
                            if i == 0 {
                                g.clone()
                            } else {
                                ctx.blank_gutter(" ")
                            },
                            chunk,
                        ));
                    }
                } else {
                    let first = ctx.first_change(l.as_ref(), &marks);
                    lines.push(join(g, ctx.clip(body, text_w, fill, first)));
                }
                if lines.len() >= area.height as usize {
                    break;
                }
            }
            frame.render_widget(Paragraph::new(lines), area);
        }
    }
}

fn join(mut gutter: Vec<Span<'static>>, body: Vec<Span<'static>>) -> Line<'static> {
    gutter.extend(body);
    Line::from(gutter)
}

struct Ctx<'a> {
    app: &'a App,
    theme: &'a Theme,
    digits: usize,
}

impl Ctx<'_> {
    fn text(&self, src: Src) -> std::borrow::Cow<'_, str> {
        match src {
            Src::Orig(l) => self.app.original().line(l),
            Src::New(l) => self.app.result().line(l),
        }
    }

    /// A line as a pane shows it: the file's own line ending unmarked, a
    /// line ending otherwise marked. In a CRLF file a line's `\r` is not
    /// shown (as `␍` on every line) and a line ending in LF alone gets `␊`;
    /// in an LF file a `\r` before the newline shows as `␍`.
    fn with_ending_shown(&self, src: Src) -> std::borrow::Cow<'_, str> {
        let text = self.text(src);
        let terminated = match src {
            Src::Orig(l) => l < self.app.original().complete_len(),
            Src::New(l) => l < self.app.result().complete_len(),
        };
        if !self.app.crlf_file() || !terminated {
            return text;
        }
        match text.strip_suffix('\r') {
            Some(bare) => std::borrow::Cow::Owned(bare.to_string()),
            None => std::borrow::Cow::Owned(format!("{text}␊")),
        }
    }

    fn blank_gutter(&self, edge: &str) -> Vec<Span<'static>> {
        vec![Span::styled(
            format!("{edge}{:w$}   ", "", w = self.digits),
            self.theme.gutter(),
        )]
    }

    /// Gutter spans and body spans for one cell (or a filler).
    /// Changed words of a cell against its partner (the other side of a change).
    fn marks(&self, cell: Option<&Cell>) -> Vec<Range<usize>> {
        match cell {
            Some(c) if c.tint.is_some() => match (c.src, c.partner) {
                (Src::Orig(_), Some(p)) => word_changes(&self.text(c.src), &self.text(p)).0,
                (Src::New(_), Some(p)) => word_changes(&self.text(p), &self.text(c.src)).1,
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// Changed words of both sides of a split row, with one word diff when
    /// the two cells are each other's partners.
    fn row_marks(
        &self,
        l: Option<&Cell>,
        r: Option<&Cell>,
    ) -> (Vec<Range<usize>>, Vec<Range<usize>>) {
        match (l, r) {
            (Some(a), Some(b)) if a.tint.is_some() && a.partner == Some(b.src) => {
                word_changes(&self.text(a.src), &self.text(b.src))
            }
            _ => (self.marks(l), self.marks(r)),
        }
    }

    /// The screen column (0-based, as the pane draws the line: tabs
    /// expanded) where a changed cell's first change starts: the first
    /// character that differs from its partner inside the first changed
    /// word (a tester's find: a change deep inside one 3,000-character
    /// token was placed at the token's start, on screen, and two rows that
    /// look the same said nothing).
    fn first_change(&self, cell: Option<&Cell>, marks: &[Range<usize>]) -> Option<usize> {
        let c = cell?;
        let start = marks.iter().map(|m| m.start).min()?;
        let text = self.text(c.src);
        let same = c.partner.map_or(0, |p| {
            let other = self.text(p);
            text.char_indices()
                .zip(other.chars())
                .find(|((_, a), b)| a != b)
                .map_or(text.len().min(other.len()), |((i, _), _)| i)
        });
        let start = if same > start && same < text.len() {
            same
        } else {
            start
        };
        let before = text.get(..start)?;
        Some(unicode_width::UnicodeWidthStr::width(
            crate::tui::shown::sanitize(before).as_str(),
        ))
    }

    /// A cell's text as one row of `width` columns: scrolled sideways,
    /// cut with `…`, and its background carried to the pane's edge. A
    /// changed cell whose first change (`first`, its screen column) lies
    /// past the right edge says where it is instead of its last columns
    /// (`…▸col 3012`): the row would look unchanged.
    fn clip(
        &self,
        body: Vec<Span<'static>>,
        width: usize,
        fill: Style,
        first: Option<usize>,
    ) -> Vec<Span<'static>> {
        let ellipsis = fill.patch(self.theme.gutter());
        let hscroll = self.app.view().hscroll;
        if let Some(col) = first.filter(|&c| c + 1 >= hscroll + width) {
            let marker = off_screen_marker(col);
            let room = width.saturating_sub(marker.chars().count());
            if room > 0 {
                // One column more than fits, its `…` then dropped: the
                // marker starts with its own.
                let mut row = code::clip(body, hscroll, room + 1, ellipsis);
                if let Some(last) = row.last_mut()
                    && last.content.ends_with('…')
                {
                    let kept = last.content.trim_end_matches('…').to_string();
                    last.content = kept.into();
                }
                let mut row = code::pad(row, room, fill);
                row.push(Span::styled(marker, fill.patch(self.theme.warn())));
                return row;
            }
        }
        let row = code::clip(body, hscroll, width, ellipsis);
        code::pad(row, width, fill)
    }

    /// A cell's text wrapped to rows of `width` columns, each filled.
    fn wrap_filled(
        &self,
        body: Vec<Span<'static>>,
        width: usize,
        fill: Style,
    ) -> Vec<Vec<Span<'static>>> {
        code::wrap(body, width)
            .into_iter()
            .map(|row| code::pad(row, width, fill))
            .collect()
    }

    /// Gutter spans, body spans and the style of the rest of the row for
    /// one cell (or a filler).
    fn cell<'c>(
        &self,
        cell: Option<&Cell>,
        marks: &[Range<usize>],
        colours: &impl Fn(Src) -> &'c LineColours,
        edge: &str,
    ) -> (Vec<Span<'static>>, Vec<Span<'static>>, Style) {
        let Some(c) = cell else {
            return (self.blank_gutter(edge), Vec::new(), Style::new());
        };
        let mark = if c.streaming {
            "▸"
        } else if c.closest {
            "≈"
        } else if c.pending {
            "·"
        } else {
            c.tint.map_or(" ", Tint::symbol)
        };
        let base = match (c.tint, c.pending) {
            (_, true) => self.theme.pending(),
            (None, _) if c.closest => self.theme.closest(),
            (Some(t), _) => self.theme.change(t),
            _ => Style::new(),
        };
        let base = if c.streaming {
            base.patch(self.theme.streaming_line())
        } else {
            base
        };
        let gutter = vec![
            Span::styled(
                format!("{edge}{:>w$}", c.number + 1, w = self.digits),
                self.theme.gutter(),
            ),
            Span::styled(
                format!("{}{mark} ", c.sign),
                base.patch(self.theme.gutter()),
            ),
        ];
        let text = self.with_ending_shown(c.src);
        let colours: &LineColours = if c.pending {
            &Vec::new()
        } else {
            colours(c.src)
        };
        let mark_style = self.theme.word(c.tint.unwrap_or(Tint::Unattributed));
        let found = self
            .app
            .view()
            .search
            .as_ref()
            .map(|s| s.ranges(&text))
            .unwrap_or_default();
        (
            gutter,
            code::spans_found(
                &text,
                colours,
                base,
                (marks, mark_style),
                (&found, self.theme.search_match()),
                self.theme,
            ),
            Theme::fill(base),
        )
    }
}

type Row = (Option<Cell>, Option<Cell>);

/// What a changed row shows at its right edge when its first change lies
/// past it: the 1-based column of that change.
fn off_screen_marker(col: usize) -> String {
    format!("…▸col {}", col + 1)
}

/// The rows visible from the current scroll position.
fn collect_rows(app: &App, height: usize) -> Vec<Row> {
    let unified = app.layout() == Layout::Unified;
    let rows = app.rows();
    let streaming_line = streaming_line(app);
    let unplaced = unplaced_ranges(app);
    // A block that applied has its matched lines marked by stage already.
    let placed = |i: usize| {
        app.outcome()
            .blocks
            .get(i)
            .is_some_and(|b| b.original.is_some())
    };
    let closest = app
        .selected_diagnosis()
        .filter(|d| d.is_problem() && !placed(d.index))
        .and_then(|d| d.closest)
        .map(|c| c.start_line.saturating_sub(1)..c.end_line);
    let mut out = Vec::with_capacity(height);
    let mut row = app.view().scroll;
    while out.len() < height {
        let Some((seg_i, off)) = rows.locate(row) else {
            break;
        };
        let seg = &app.segments()[seg_i];
        let tint = match seg.kind {
            SegKind::Change { block } => Some(block_tint(app, block)),
            _ => None,
        };
        let orig = |i: usize, partner: Option<Src>| Cell {
            src: Src::Orig(i),
            closest: closest.as_ref().is_some_and(|r| r.contains(&i)),
            number: i,
            tint: tint.or_else(|| {
                unplaced
                    .iter()
                    .find(|(r, _)| r.contains(&i))
                    .map(|&(_, t)| t)
            }),
            pending: false,
            streaming: false,
            partner,
            sign: if tint.is_some() && unified { "-" } else { " " },
        };
        let new = |i: usize, partner: Option<Src>| Cell {
            src: Src::New(i),
            closest: false,
            number: i,
            tint,
            pending: false,
            streaming: Some(i) == streaming_line,
            partner,
            sign: if tint.is_some() && unified { "+" } else { " " },
        };
        let r: Row = match seg.kind {
            SegKind::Same => {
                let (o, n) = (seg.orig.start + off, seg.new.start + off);
                (Some(orig(o, None)), Some(new(n, None)))
            }
            SegKind::Pending => {
                let o = seg.orig.start + off;
                // Numbered where the line lands if the stream ended now
                // (after the result so far), not where it was: the right
                // pane's numbers keep counting up.
                let dim = Cell {
                    pending: true,
                    tint: None,
                    closest: false,
                    number: seg.new.start + off,
                    ..orig(o, None)
                };
                (Some(orig(o, None)), Some(dim))
            }
            SegKind::Change { .. } if unified => {
                if off < seg.orig.len() {
                    let partner = (off < seg.new.len()).then(|| Src::New(seg.new.start + off));
                    (Some(orig(seg.orig.start + off, partner)), None)
                } else {
                    let k = off - seg.orig.len();
                    let partner = (k < seg.orig.len()).then(|| Src::Orig(seg.orig.start + k));
                    (Some(new(seg.new.start + k, partner)), None)
                }
            }
            SegKind::Change { .. } => {
                let o = (off < seg.orig.len()).then(|| seg.orig.start + off);
                let n = (off < seg.new.len()).then(|| seg.new.start + off);
                (
                    o.map(|o| orig(o, n.map(Src::New))),
                    n.map(|n| new(n, o.map(Src::Orig))),
                )
            }
        };
        out.push(r);
        row += 1;
    }
    out
}

/// How many first lines the result has as the original has them: the
/// lines of the segments before the first change (or pending part).
fn same_lines_until(app: &App) -> usize {
    let mut end = 0;
    for seg in app.segments() {
        if seg.kind != SegKind::Same || seg.orig != seg.new {
            break;
        }
        end = seg.new.end;
    }
    end
}

/// Line ranges of each text needed by `rows`, for one highlighting pass each.
fn line_ranges(rows: &[Row]) -> (Range<usize>, Range<usize>) {
    let (mut o, mut n): (Option<Range<usize>>, Option<Range<usize>>) = (None, None);
    for cell in rows.iter().flat_map(|(a, b)| [a, b]).flatten() {
        let (r, l) = match cell.src {
            Src::Orig(l) => (&mut o, l),
            Src::New(l) => (&mut n, l),
        };
        *r = Some(match r.take() {
            Some(r) => r.start.min(l)..r.end.max(l + 1),
            None => l..l + 1,
        });
    }
    (o.unwrap_or_default(), n.unwrap_or_default())
}

/// The tint of a block placed loosely at `level` (an apply_patch level, an
/// agent's stage), never exact: by its first and last lines as a
/// block-anchor match (`A`: OpenCode's `BlockAnchorReplacer` and
/// `ContextAwareReplacer`), by text that differs beyond white space as
/// fuzzy (`F`: Gemini CLI's `fuzzy`, OpenCode's
/// `EscapeNormalizedReplacer`), at the unicode level as its own (`U`),
/// else as a line-trimmed match (`T`: white space ignored), the nearest
/// stage (a tester's find: a block-anchor placement wore `T`).
fn loose_tint(level: &str) -> Tint {
    let lower = level.to_ascii_lowercase();
    if level == crate::tui::app::UNKNOWN_MATCH {
        Tint::Unattributed
    } else if level == "unicode" {
        Tint::Unicode
    } else if lower.contains("anchor") || lower.contains("contextaware") {
        Tint::Stage(crate::engine::Stage::BlockAnchor)
    } else if lower.contains("fuzzy") || lower.contains("escape") {
        Tint::Fuzzy
    } else {
        Tint::Stage(crate::engine::Stage::LineTrimmed)
    }
}

/// A block's tint; a block placed only loosely by its level
/// ([`loose_tint`]); a block of srview's combined change of several calls
/// by the calls' blocks it is made of.
fn block_tint(app: &App, block: Option<usize>) -> Tint {
    let loose = block
        .and_then(|b| app.loose_levels().get(b))
        .and_then(Option::as_deref);
    let combined = block.and_then(|b| app.combined_rows().get(b));
    match block.and_then(|b| app.outcome().blocks.get(b)) {
        Some(b) if b.out_of_order => Tint::OutOfOrder,
        // srview's block of several calls' change: tinted by the calls'
        // blocks it is made of (the loosest), unattributed when none is.
        Some(b) if b.stage.is_some() && combined.is_some() => match combined {
            Some(row) if row.from.is_empty() => Tint::Unattributed,
            Some(row) => Tint::Stage(row.stage().unwrap_or(crate::engine::Stage::Exact)),
            None => Tint::Unattributed,
        },
        Some(b) if b.stage.is_some() && loose.is_some() => {
            loose.map_or(Tint::Unattributed, loose_tint)
        }
        Some(b) => b.stage.map_or(Tint::Unattributed, Tint::Stage),
        None => Tint::Unattributed,
    }
}

/// Original lines of matched blocks that have no place in the result yet
/// (out-of-order blocks while streaming), with their tint; found once a frame.
fn unplaced_ranges(app: &App) -> Vec<(Range<usize>, Tint)> {
    app.outcome()
        .blocks
        .iter()
        .filter(|b| b.replacement_bytes.is_none() && b.state != BlockState::Failed)
        .filter_map(|b| {
            let span = b.original?;
            Some((
                span.start_line.saturating_sub(1)..span.end_line,
                block_tint(app, Some(b.index)),
            ))
        })
        .collect()
}

/// The result line being streamed right now, if a replacement is streaming.
fn streaming_line(app: &App) -> Option<usize> {
    let active = app
        .outcome()
        .blocks
        .iter()
        .rev()
        .find(|b| b.state == BlockState::ReplaceStreaming)?;
    let seg = app.segment_of_block(active.index)?;
    let new = &app.segments()[seg].new;
    (!new.is_empty()).then(|| new.end - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block placed on the file's own lines is found exactly; when its
    /// apply_patch hunk matched only loosely, it is never tinted exact.
    #[test]
    fn a_loose_hunk_is_not_tinted_exact() {
        let mut app = App::new(
            std::path::PathBuf::from("a.py"),
            "a\nb\n".into(),
            crate::engine::Version::V1,
        );
        app.set_diff("------- SEARCH\na\n=======\nA\n+++++++ REPLACE\n".into());
        app.end_stream();
        let exact = Tint::Stage(crate::engine::Stage::Exact);
        assert_eq!(block_tint(&app, Some(0)), exact);
        // The block placed again, loosely at `level`: its tint.
        let mut tint_at = |level: &str| {
            app.place_blocks(vec![Some(level.into())], Vec::new(), app.block_numbers());
            block_tint(&app, Some(0))
        };
        let trimmed = Tint::Stage(crate::engine::Stage::LineTrimmed);
        assert_eq!(tint_at("trimmed"), trimmed);
        assert_eq!(tint_at("unicode"), Tint::Unicode);
        assert_eq!(Tint::Unicode.symbol(), "U");
        // The agents' stages: by anchors, fuzzy, white space.
        let anchor = Tint::Stage(crate::engine::Stage::BlockAnchor);
        assert_eq!(tint_at("BlockAnchorReplacer"), anchor);
        assert_eq!(tint_at("ContextAwareReplacer"), anchor);
        assert_eq!(tint_at("fuzzy"), Tint::Fuzzy);
        assert_eq!(tint_at("EscapeNormalizedReplacer"), Tint::Fuzzy);
        assert_eq!(Tint::Fuzzy.symbol(), "F");
        assert_eq!(tint_at("LineTrimmedReplacer"), trimmed);
        assert_eq!(tint_at("flexible"), trimmed);
        // A match nobody knows (a diff the agent recorded as applied,
        // round 49 T-17): `?`, never exact.
        assert_eq!(tint_at(crate::tui::app::UNKNOWN_MATCH), Tint::Unattributed);
        assert_eq!(Tint::Unattributed.symbol(), "?");
    }
}
