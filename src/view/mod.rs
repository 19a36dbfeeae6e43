//! Pure rendering of the app state; the only state kept here is the
//! highlighting cache, which never changes what is shown, only how fast.

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

use crate::app::App;
use crate::app::keys::KeyScope;
use crate::app::workspace::Workspace;

/// Rows the block list takes for a terminal of height `h`.
fn blocks_height(app: &App, h: u16) -> u16 {
    if h < 12 {
        return 0;
    }
    let want = app.listed_blocks().clamp(1, 6) as u16 + 4;
    want.min(h / 3)
}

/// The diff area's height for a terminal of `height` rows (for paging).
pub fn diff_rows(app: &App, height: u16) -> u16 {
    height.saturating_sub(3 + blocks_height(app, height))
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
    );
}

/// Draws the previewer of one file inside `area`; `keys` picks the keys
/// the `?` overlay shows.
fn render_in(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    caches: &mut Caches,
    theme: &Theme,
    keys: KeyScope,
) {
    if area.width < 2 || area.height < 2 {
        return;
    }
    let bh = blocks_height(app, area.height);
    let diff_h = diff_rows(app, area.height);
    let row = |y: u16, h: u16| Rect {
        x: area.x,
        y: area.y + y,
        width: area.width,
        height: h,
    };
    panels::status_bar(frame, row(0, 1), app, theme);
    diffpane::render(frame, row(1, diff_h), app, caches, theme);
    if bh > 0 {
        panels::blocks_pane(frame, row(1 + diff_h, bh), app, theme);
    }
    panels::notice(frame, row(area.height - 2, 1), app, theme);
    panels::footer(frame, row(area.height - 1, 1), app, theme);
    if app.view.help {
        panels::help(frame, area, theme, keys);
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
    match (ws.current_app(), caches.get_mut(ws.current)) {
        (Some(app), Some(c)) => {
            render_in(frame, rest, app, c, theme, KeyScope::Transcript);
            if let Some(n) = &ws.notice {
                let line = Rect {
                    y: rest.y + rest.height - 2,
                    height: 1,
                    ..rest
                };
                frame.render_widget(ratatui::widgets::Clear, line);
                frame.render_widget(
                    ratatui::widgets::Paragraph::new(code::sanitize(&n.text)).style(if n.error {
                        theme.bad()
                    } else {
                        theme.ok()
                    }),
                    line,
                );
            }
        }
        _ => frame.render_widget(
            ratatui::widgets::Paragraph::new(format!(
                "waiting for the transcript's first edit… ({} B)",
                ws.bytes
            ))
            .style(theme.gutter()),
            rest,
        ),
    }
}
