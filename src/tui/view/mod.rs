//! Pure rendering of the app state; the only state kept here is the
//! highlighting cache, which never changes what is shown, only how fast.

pub mod agent;
pub mod code;
pub mod diffpane;
pub mod highlight;
pub mod panels;
pub mod syntax_pack;
pub mod theme;

use ratatui::Frame;
use ratatui::layout::Rect;

pub use diffpane::Caches;
use theme::Theme;

use crate::tui::app::keymap::KeyScope;
pub use crate::tui::app::screen::{BlocksPane, Screen};
use crate::tui::app::workspace::Workspace;
use crate::tui::app::{App, Notice};

/// Lays the previewer of `app` out in `area`. `notice` is the notice shown
/// (the app's own unless a transcript's replaces it): it takes as many rows
/// as it wraps to, so it is not cut, up to half the area's rows (only on a
/// terminal too small for it does its end go). The blocks pane takes what
/// its blocks and the selected block's detail need, up to a third of the
/// rows; below 12 rows it keeps two: its title and the selected block.
pub fn screen_layout(app: &App, area: Rect, notice: Option<&Notice>) -> Screen {
    let h = area.height;
    let row = |y: u16, height: u16| Rect {
        x: area.x,
        y: area.y + y.min(h),
        width: area.width,
        height: height.min(h.saturating_sub(y)),
    };
    let notice_h = notice
        .or(app.notice().as_ref())
        .map_or(1, |n| {
            code::notice_rows(&n.text, usize::from(area.width)).len() as u16
        })
        .clamp(1, (h / 2).max(1));
    // Status bar, notice and footer.
    let fixed = 2 + notice_h;
    let rest = h.saturating_sub(fixed);
    // The selected block's detail is wrapped once per layout: it sizes the
    // pane and then the split inside it.
    let detail = panels::detail_rows(app, area.width);
    let blocks_h = if h < 6 || rest < 4 {
        0
    } else if h < 12 {
        // A title and the selected block: a failure never goes unseen.
        2
    } else {
        // `+`: the selected block's diagnosis shows all its rows, the
        // panes keeping three.
        let cap = if app.view().detail_expanded {
            rest - 3
        } else {
            (h / 3).max(4).min(rest - 3)
        };
        blocks_want(app, detail).min(cap)
    };
    let diff_h = rest - blocks_h;
    let blocks = (blocks_h > 0).then(|| {
        let pane = row(1 + diff_h, blocks_h);
        blocks_pane_layout(app, pane, detail)
    });
    Screen {
        status: row(0, 1),
        diff: row(1, diff_h),
        blocks,
        notice: row(1 + diff_h + blocks_h, notice_h),
        footer: row(h.saturating_sub(1), 1),
    }
}

/// Rows the blocks pane would like: its title, every block, and the
/// selected block's detail.
fn blocks_want(app: &App, detail: usize) -> u16 {
    let list = app.listed_blocks().max(1);
    (1 + list + detail).min(usize::from(u16::MAX)) as u16
}

/// The pane's split; `detail`: the rows the selected block's detail takes
/// at the pane's width.
fn blocks_pane_layout(app: &App, pane: Rect, detail: usize) -> BlocksPane {
    let inner = pane.height.saturating_sub(1);
    let count = app.listed_blocks();
    let list_want = count.max(1).min(usize::from(inner)) as u16;
    // A few blocks stay listed; the detail gets what it needs of the rest.
    let list_min = list_want.min(3);
    let detail_want = detail.min(usize::from(inner)) as u16;
    let detail_h = detail_want.min(inner - list_min);
    let list_h = (inner - detail_h).min(list_want);
    let detail_h = inner - list_h;
    let list_rows = usize::from(list_h);
    let last_first = count.saturating_sub(list_rows);
    let selected = app.view().selected.min(count.saturating_sub(1));
    let first = match app.view().blocks_top {
        Some(top) => top.min(last_first),
        None => selected.saturating_sub(list_rows.saturating_sub(1)),
    };
    let list = Rect {
        y: pane.y + 1,
        height: list_h,
        ..pane
    };
    BlocksPane {
        pane,
        list,
        first,
        detail: Rect {
            y: list.y + list_h,
            height: detail_h,
            ..pane
        },
    }
}

/// The diff area's height for a terminal of `height` rows (for paging).
pub fn diff_rows(app: &App, height: u16) -> u16 {
    let area = Rect::new(0, 0, app.view().width, height);
    screen_layout(app, area, None).diff.height
}

/// Draws one frame.
pub fn render(frame: &mut Frame, app: &App, caches: &mut Caches, theme: &Theme) {
    render_in(
        frame,
        frame.area(),
        app,
        caches,
        theme,
        KeyScope::SingleDiff,
        None,
    );
}

/// Draws the previewer of one agent edit inside `area`; `notice`
/// replaces the app's own.
pub fn render_app(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    caches: &mut Caches,
    theme: &Theme,
    notice: Option<&Notice>,
) {
    render_in(frame, area, app, caches, theme, KeyScope::Agent, notice);
}

/// Draws the previewer of one file inside `area`; `keys` picks the keys
/// the `?` overlay shows; `notice` replaces the app's own.
fn render_in(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    caches: &mut Caches,
    theme: &Theme,
    keys: KeyScope,
    notice: Option<&Notice>,
) {
    if area.width < 2 || area.height < 2 {
        return;
    }
    let screen = screen_layout(app, area, notice);
    panels::status_bar(frame, screen.status, app, theme);
    diffpane::render(frame, screen.diff, app, caches, theme);
    if app.view().raw {
        panels::raw_input(frame, screen.diff, app, theme);
    }
    if let Some(blocks) = &screen.blocks {
        panels::blocks_pane(frame, blocks, app, theme);
    }
    panels::notice(
        frame,
        screen.notice,
        notice.or(app.notice().as_ref()),
        theme,
    );
    panels::footer(frame, screen.footer, app, theme, keys);
    if app.view().help {
        panels::help(frame, area, theme, keys, app.view().help_scroll);
    }
}

/// Draws a multi-file transcript: a tab bar, then the current file.
pub fn render_workspace(frame: &mut Frame, ws: &Workspace, caches: &mut [Caches], theme: &Theme) {
    let area = frame.area();
    if area.width < 2 || area.height < 3 {
        return;
    }
    panels::tab_bar(frame, Rect { height: 1, ..area }, ws, theme);
    let rest = Rect {
        y: area.y + 1,
        height: area.height - 1,
        ..area
    };
    match (ws.current_app(), caches.get_mut(ws.current())) {
        (Some(app), Some(c)) => {
            render_in(
                frame,
                rest,
                app,
                c,
                theme,
                KeyScope::Transcript,
                ws.notice().as_ref(),
            );
        }
        _ => {
            let mut lines = vec![ratatui::text::Line::styled(
                format!(
                    "waiting for the transcript's first edit… ({} B)",
                    ws.received().bytes
                ),
                theme.gutter(),
            )];
            // What the loop or the sources said meanwhile (a transcript
            // file that does not exist yet, one that cannot be read).
            if let Some(n) = &ws.notice() {
                let style = if n.error { theme.bad() } else { theme.warn() };
                lines.push(ratatui::text::Line::styled(n.text.clone(), style));
            }
            frame.render_widget(ratatui::widgets::Paragraph::new(lines), rest);
        }
    }
}
