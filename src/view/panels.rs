//! Status bar, block list, notice line, footer and the help overlay.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::code::sanitize;
use super::theme::{Theme, Tint};
use crate::app::keys::{KeyScope, key_help};
use crate::app::{App, Focus, Layout};
use crate::engine::{BlockReport, BlockState};

/// One tab per file of a transcript, with its state in words.
pub fn tab_bar(
    frame: &mut Frame,
    area: Rect,
    ws: &crate::app::workspace::Workspace,
    theme: &Theme,
) {
    let mut spans = vec![Span::styled(
        format!(" transcript {} · {} B ", ws.stream.name(), ws.bytes),
        theme.bar(),
    )];
    for (i, tab) in ws.tabs.iter().enumerate() {
        let state = if tab.written {
            "written"
        } else {
            tab.state.name()
        };
        let style = match (tab.written, tab.state.name()) {
            (true, _) | (_, "applied") => theme.ok(),
            (_, "streaming") => theme.warn(),
            _ => theme.bad(),
        };
        let text = format!(" {} {} {state} ", i + 1, sanitize(&tab.path));
        let style = if i == ws.current {
            style.patch(theme.selected())
        } else {
            style
        };
        spans.push(Span::styled(text, style));
        spans.push(Span::raw("│"));
    }
    spans.push(Span::styled(
        " [/] file · a accept file · A accept all",
        theme.gutter(),
    ));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

pub fn status_bar(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let waiting = app
        .outcome
        .blocks
        .iter()
        .filter(|b| {
            !matches!(
                b.state,
                BlockState::Applied | BlockState::Failed | BlockState::Dropped
            )
        })
        .count();
    let failed = app.outcome.failed_count();
    let fail_word = if app.final_mode() {
        "failed"
    } else {
        "no match yet"
    };
    let mut spans = vec![
        Span::styled(" srview ", theme.bar().add_modifier(Modifier::BOLD)),
        Span::styled(
            format!(" {} ", sanitize(&app.file_path.display().to_string())),
            theme.bar(),
        ),
        Span::styled(format!(" {} ", app.version.name()), theme.bar()),
        Span::styled(
            format!(" {} ", app.mode_name()),
            theme.bar().add_modifier(Modifier::BOLD),
        ),
        Span::styled(
            format!(" {} applied ", app.outcome.applied_count()),
            theme.bar().patch(theme.ok()),
        ),
    ];
    if failed > 0 {
        spans.push(Span::styled(
            format!(" {failed} {fail_word} "),
            theme.bar().patch(theme.bad()),
        ));
    }
    if waiting > 0 {
        spans.push(Span::styled(
            format!(" {waiting} waiting "),
            theme.bar().patch(theme.warn()),
        ));
    }
    spans.push(Span::styled(format!(" {} B ", app.diff.len()), theme.bar()));
    let layout = match app.layout() {
        Layout::Split => "split",
        Layout::Unified => "unified",
    };
    let mut flags = vec![layout];
    if app.view.follow {
        flags.push("follow");
    }
    if app.view.wrap {
        flags.push("wrap");
    }
    spans.push(Span::styled(
        format!(" [{}] ", flags.join(" ")),
        theme.bar(),
    ));
    frame.render_widget(Paragraph::new(Line::from(spans)).style(theme.bar()), area);
}

/// One line describing a block: "#3 applied line-trimmed 120-134".
pub fn block_line(b: &BlockReport, is_final: bool, theme: &Theme) -> Line<'static> {
    let tint = if b.out_of_order {
        Tint::OutOfOrder
    } else {
        b.stage.map_or(Tint::Unattributed, Tint::Stage)
    };
    let (state, style) = match b.state {
        BlockState::SearchStreaming => ("waiting (SEARCH streaming)", theme.warn()),
        BlockState::ReplaceStreaming => ("streaming", theme.warn()),
        BlockState::Applied => ("applied", theme.ok()),
        BlockState::Failed if is_final => ("failed", theme.bad()),
        BlockState::Failed => ("waiting (no match yet)", theme.warn()),
        BlockState::Dropped => ("dropped", theme.warn()),
    };
    let mut spans = vec![
        Span::raw(format!("#{:<3}", b.index + 1)),
        Span::styled(format!("{state:<10} "), style),
    ];
    if let Some(stage) = b.stage {
        spans.push(Span::styled(
            format!("{} {:<12} ", tint.symbol(), stage.name()),
            theme.stage_word(tint),
        ));
    }
    if let Some(span) = b.original {
        spans.push(Span::raw(format!(
            "{} ",
            line_range(span.start_line, span.end_line)
        )));
    }
    if let Some(r) = b.replacement {
        spans.push(Span::styled(
            format!("→ {} ", line_range(r.start_line, r.end_line)),
            theme.gutter(),
        ));
    }
    if b.out_of_order {
        spans.push(Span::styled(
            "out of order ",
            theme.stage_word(Tint::OutOfOrder),
        ));
    }
    if let Some(err) = &b.error {
        let headline = crate::engine::error_headline(err);
        spans.push(Span::styled(sanitize(&headline), style));
    }
    Line::from(spans)
}

/// A block after a failure, which the engine never reached: what the
/// diagnosis says it would do on its own.
fn unreached_line(
    d: Option<&crate::diagnose::BlockDiagnosis>,
    index: usize,
    theme: &Theme,
) -> Line<'static> {
    let mut spans = vec![
        Span::raw(format!("#{:<3}", index + 1)),
        Span::styled(format!("{:<10} ", "not reached"), theme.bad()),
    ];
    if let Some(d) = d {
        if let Some(r) = d.reason {
            spans.push(Span::styled(format!("[{}] ", r.code()), theme.bad()));
        }
        if let Some(m) = d.matched_lines {
            spans.push(Span::raw(format!(
                "would match {} ",
                line_range(m[0], m[1])
            )));
        }
    }
    Line::from(spans)
}

/// "12-14", "12", or "after 11" for an empty range.
fn line_range(start: usize, end: usize) -> String {
    match end.cmp(&start) {
        std::cmp::Ordering::Greater => format!("{start}-{end}"),
        std::cmp::Ordering::Equal => start.to_string(),
        std::cmp::Ordering::Less => format!("after {end}"),
    }
}

/// The block list, with the selected block's details under it.
pub fn blocks_pane(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let focused = app.view.focus == Focus::Blocks;
    let title = if focused {
        " blocks (e: back, Enter: jump) "
    } else {
        " blocks (e: focus) "
    };
    let block = Block::default()
        .borders(Borders::TOP)
        .title(title)
        .border_style(if focused {
            theme.warn()
        } else {
            theme.gutter()
        });
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if let Some(why) = &app.source_error {
        let kept = if app.diff.is_empty() {
            String::new()
        } else {
            " (showing the last readable diff)".into()
        };
        frame.render_widget(
            Paragraph::new(sanitize(&format!("DIFF unreadable: {why}{kept}")))
                .wrap(Wrap { trim: false })
                .style(theme.bad()),
            inner,
        );
        return;
    }
    let blocks = &app.outcome.blocks;
    if blocks.is_empty() {
        let msg = match app.stream.name() {
            "waiting" => "waiting for the diff…",
            _ => "no SEARCH/REPLACE block yet",
        };
        frame.render_widget(Paragraph::new(msg).style(theme.gutter()), inner);
        return;
    }
    let detail_h = match inner.height {
        0..=3 => 0,
        4..=5 => 2,
        _ => 3,
    };
    let list_h = (inner.height - detail_h) as usize;
    let listed = app.listed_blocks();
    let sel = app.view.selected.min(listed - 1);
    let first = sel.saturating_sub(list_h.saturating_sub(1));
    let lines: Vec<Line> = (first..listed)
        .take(list_h)
        .map(|i| {
            let line = match blocks.get(i) {
                Some(b) => {
                    let mut line = block_line(b, app.final_mode(), theme);
                    // A final failure says why in its own line.
                    let reason = app
                        .diagnoses
                        .iter()
                        .find(|d| d.index == i && !app.diagnosis_stale())
                        .and_then(|d| d.reason);
                    if let (true, BlockState::Failed, Some(r)) = (app.final_mode(), b.state, reason)
                    {
                        let at = line.spans.len().min(2);
                        line.spans
                            .insert(at, Span::styled(format!("[{}] ", r.code()), theme.bad()));
                    }
                    line
                }
                None => unreached_line(app.diagnoses.iter().find(|d| d.index == i), i, theme),
            };
            if i == sel {
                line.patch_style(theme.selected())
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(
        Paragraph::new(lines),
        Rect {
            height: list_h as u16,
            ..inner
        },
    );
    if detail_h > 0 {
        let text = match app.selected_diagnosis().filter(|d| d.is_problem()) {
            Some(d) => diagnosis_text(d),
            None => blocks
                .get(sel)
                .map(|b| detail(b, app.final_mode()))
                .unwrap_or_default(),
        };
        let area = Rect {
            y: inner.y + list_h as u16,
            height: detail_h,
            ..inner
        };
        frame.render_widget(
            Paragraph::new(sanitize_lines(&text))
                .wrap(Wrap { trim: false })
                .style(theme.gutter()),
            area,
        );
    }
}

/// The diagnosis of a block in two lines: reason and message, then where
/// it should have matched and the keys that act on it.
fn diagnosis_text(d: &crate::diagnose::BlockDiagnosis) -> String {
    let reason = d.reason.map_or("problem", |r| r.code());
    let mut text = format!("#{} [{reason}] {}", d.index + 1, d.message);
    if let Some(c) = d.closest {
        text.push_str(&format!(
            "\nclosest: lines {}-{} (similarity {:.2}) · d: jump there",
            c.start_line, c.end_line, c.similarity
        ));
    }
    if d.suggestion.is_some() {
        text.push_str(" · c: copy corrected block");
    }
    text
}

fn sanitize_lines(text: &str) -> Vec<Line<'static>> {
    text.lines().map(|l| Line::raw(sanitize(l))).collect()
}

/// Why a block is where it is, in words.
fn detail(b: &BlockReport, is_final: bool) -> String {
    if let Some(err) = &b.error {
        let prefix = if is_final {
            "failed"
        } else {
            "no match yet (stream still arriving)"
        };
        let summary: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
        let last = summary.last().copied().unwrap_or("(empty error message)");
        return format!("#{} {prefix}: {last}", b.index + 1);
    }
    let how = match b.stage.map(|s| s.name()) {
        Some("exact") => "SEARCH found exactly",
        Some("line-trimmed") => "matched only after trimming white space on each line",
        Some("block-anchor") => {
            "matched by first and last lines only: middle lines replaced unseen (risky)"
        }
        Some("whole-file") => "found only by searching the whole file",
        Some("empty") => "empty SEARCH",
        _ => "SEARCH still streaming",
    };
    let ooo = if b.out_of_order {
        ", before an earlier block (out of order)"
    } else {
        ""
    };
    format!(
        "#{} {how}{ooo}; diff lines {}-{}",
        b.index + 1,
        b.diff_lines[0],
        b.diff_lines[1]
    )
}

pub fn notice(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    if let Some(n) = &app.notice {
        let style = if n.error { theme.bad() } else { theme.ok() };
        frame.render_widget(Paragraph::new(sanitize(&n.text)).style(style), area);
    }
}

pub fn footer(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let mut text = String::new();
    let keys: &[(&str, &str)] = if app.reload_offered {
        &[("r", "reload FILE and re-apply"), ("q", "quit")]
    } else if app.final_preview && !app.is_final() {
        &[
            ("j/k", "scroll"),
            ("n/N", "block"),
            ("a", "write this final result"),
            ("Esc", "back to the live view"),
            ("q", "quit"),
        ]
    } else {
        &[
            ("j/k", "scroll"),
            ("n/N", "block"),
            ("f", "follow"),
            ("u", "unified"),
            ("e", "blocks"),
            ("a", "accept"),
            ("q", "quit"),
            ("?", "help"),
        ]
    };
    for (k, what) in keys {
        text.push_str(&format!(" {k} {what} ·"));
    }
    text.pop();
    frame.render_widget(Paragraph::new(text).style(theme.gutter()), area);
}

pub fn help(frame: &mut Frame, area: Rect, theme: &Theme, scope: KeyScope) {
    let keys: Vec<(&str, &str)> = key_help(scope).collect();
    let w = area.width.min(46);
    let h = area.height.min(keys.len() as u16 + 8);
    let rect = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    let mut lines: Vec<Line> = keys
        .iter()
        .map(|&(k, what)| {
            Line::from(vec![
                Span::styled(
                    format!("{k:>10}  "),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
                Span::raw(what),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::raw(" stages: E exact  T line-trimmed"));
    lines.push(Line::raw("         A block-anchor  W whole-file"));
    lines.push(Line::raw("         O out of order  ▸ streaming"));
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" keys (any key closes) ")
                .border_style(theme.warn()),
        ),
        rect,
    );
}
