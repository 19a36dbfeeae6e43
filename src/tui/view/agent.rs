//! Draws the agent previewer: a header naming the agent and the counts,
//! then the list of edits, or the edit shown with the agent's verdict
//! beside srview's above its previewer. A disagreement is drawn in the
//! failure colour, in capitals.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use unicode_width::UnicodeWidthStr;

use super::code::sanitize;
use super::theme::Theme;
use super::{Caches, render_app};
use crate::sessions::review::Basis;
use crate::source::agent::Verdict;
use crate::tui::app::App;
use crate::tui::app::agent::{AgentList, AgentMode, Concern, EditRow};
use crate::tui::app::keymap::{Action, KeyScope, footer_items};

/// Rows above the edit's previewer in preview mode: the header, the
/// edit's line, the verdicts' line.
pub const PREVIEW_HEADER_ROWS: u16 = 3;

/// Draws one frame of the agent previewer.
pub fn render(
    frame: &mut Frame,
    list: &AgentList,
    shown: Option<(&App, &mut Caches)>,
    theme: &Theme,
) {
    let area = frame.area();
    if area.width < 2 || area.height < 4 {
        return;
    }
    header(frame, Rect { height: 1, ..area }, list, theme);
    let rest = Rect {
        y: area.y + 1,
        height: area.height - 1,
        ..area
    };
    match (list.mode(), shown, list.current()) {
        (AgentMode::Preview, Some((app, caches)), Some(row)) => {
            edit_lines(frame, rest, list, row, theme);
            let below = PREVIEW_HEADER_ROWS - 1;
            let preview = Rect {
                y: rest.y + below.min(rest.height),
                height: rest.height.saturating_sub(below),
                ..rest
            };
            render_app(frame, preview, app, caches, theme, list.notice().as_ref());
        }
        _ => edit_list(frame, rest, list, theme),
    }
}

fn header(frame: &mut Frame, area: Rect, list: &AgentList, theme: &Theme) {
    let (edits, failed, loose, disagree) = list.counts();
    let state = if list.unreadable() {
        "unreadable"
    } else if list.ended() {
        "ended"
    } else if !list.live() {
        // A saved session still being read.
        "loading"
    } else if list.bytes() == 0 {
        "waiting"
    } else {
        "live"
    };
    let agent = list.agent().as_deref().unwrap_or("agent not known yet");
    let mut text = format!(
        " {agent} · {} · {failed} failed · {loose} loose",
        crate::words::count(edits, "edit"),
    );
    if disagree > 0 {
        text.push_str(&format!(
            " · {}",
            crate::words::count(disagree, "DISAGREEMENT")
        ));
    }
    // Edits srview could not run: not counted failed or loose.
    let unknown = list.unknown();
    if unknown > 0 {
        text.push_str(&format!(" · {unknown} unknown"));
    }
    // Applied edits srview's trust checks cannot stand behind.
    let in_doubt = list.in_doubt();
    if in_doubt > 0 {
        text.push_str(&format!(" · {in_doubt} in doubt"));
    }
    if let Some(note) = list.gate_note() {
        text.push_str(&format!(" · {note}"));
    }
    text.push_str(&format!(" · {state} · {}", list.source()));
    let style = if disagree > 0 {
        theme.bad()
    } else {
        theme.bar()
    };
    frame.render_widget(Paragraph::new(sanitize(&text)).style(style), area);
}

/// The files' tabs (the current one marked) and the verdicts' line,
/// above the edit's previewer.
fn edit_lines(frame: &mut Frame, area: Rect, list: &AgentList, row: &EditRow, theme: &Theme) {
    // The edit's own number, as the list shows it (with `!` the order
    // changes, not the numbers).
    let mut spans = vec![Span::styled(
        format!(" edit {}/{} ", row.seq, list.rows().len()),
        theme.bar(),
    )];
    let tabs = list.files();
    let current = tabs.iter().position(|t| t.file == row.file).unwrap_or(0);
    for (i, tab) in tabs.iter().enumerate() {
        // The current file's tab tells of the edit shown.
        let state = if i == current { row.state() } else { tab.state };
        let style = match state.concern() {
            Concern::Fine => theme.ok(),
            Concern::Look => theme.warn(),
            Concern::Trouble => theme.bad(),
        };
        let style = if i == current {
            style.patch(theme.selected())
        } else {
            style
        };
        let edits = if tab.edits > 1 {
            format!(" ×{}", tab.edits)
        } else {
            String::new()
        };
        spans.push(Span::styled(
            format!(
                " {} {}{edits} {} ",
                i + 1,
                sanitize(&tab.file),
                state.word()
            ),
            style,
        ));
        spans.push(Span::raw("│"));
    }
    let hint = " [/] edit · 1-9 file · Esc list";
    let width = usize::from(area.width);
    let room = width.saturating_sub(hint.width());
    let mut tab_line = super::panels::fit_spans(spans, room, current + 1);
    let used: usize = tab_line.iter().map(|s| s.content.width()).sum();
    if used + hint.width() <= width {
        tab_line.push(Span::styled(hint, theme.gutter()));
    }
    let agent = list.agent_name().unwrap_or("the agent");
    let (second, style) = verdict_line(row, agent, theme);
    let message = row
        .agent_message
        .as_deref()
        .and_then(|m| m.lines().next())
        .map(|first| format!(" · {agent} said: {first}"))
        .unwrap_or_default();
    let basis = row.basis.map(basis_words).unwrap_or("an unknown content");
    let follow = if list.follow() { ", following" } else { "" };
    // The gate's decision right after the verdicts; a contradiction of the
    // session by the gate's record in the failure colour, before the rest.
    let mut verdicts = vec![Span::styled(sanitize(&second), style)];
    if let Some(gate) = &row.gate {
        let gate_style = if row.gate_contradiction.is_some() {
            theme.bad()
        } else {
            theme.gutter()
        };
        verdicts.push(Span::styled(
            sanitize(&format!(" · gate: {gate}")),
            gate_style,
        ));
    }
    if let Some(c) = &row.gate_contradiction {
        verdicts.push(Span::styled(
            sanitize(&format!(" · CONTRADICTION: {c}")),
            theme.bad(),
        ));
    }
    verdicts.push(Span::styled(
        format!(" · vs {basis}{follow}"),
        theme.gutter(),
    ));
    // The agent's own error text last: a narrow terminal cuts it first.
    verdicts.push(Span::styled(sanitize(&message), style));
    // A line cut at the edge ends in `…`: the whole of it is in the list's
    // notice and the previewer's note.
    let verdicts = super::code::clip(verdicts, 0, usize::from(area.width), theme.gutter());
    let lines = vec![Line::from(tab_line), Line::from(verdicts)];
    let area = Rect {
        height: area.height.min(2),
        ..area
    };
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines), area);
}

/// `Claude Code: applied · srview: applies (exact)`, the loose match, or
/// the disagreement.
fn verdict_line(row: &EditRow, agent: &str, theme: &Theme) -> (String, ratatui::style::Style) {
    match &row.disagreement {
        Some(d) => (format!(" DISAGREEMENT: {d}"), theme.bad()),
        None => {
            let style = if row.failed {
                theme.bad()
            } else if row.loose
                || row.streaming
                || row.agent == Verdict::Pending
                || !row.doubts.is_empty()
            {
                theme.warn()
            } else {
                theme.ok()
            };
            let written = if row.written {
                " · srview wrote it"
            } else {
                ""
            };
            // Both applied it, srview only loosely: said in place of
            // srview's verdict (whose levels it names), in the warning
            // colour, not as a disagreement.
            let text = match &row.loose_match {
                Some(l) => format!(" loose match: {l}{written}"),
                None => format!(
                    " {agent}: {} · srview: {}{written}",
                    verdict_word(row),
                    row.srview
                ),
            };
            // What the agent did beyond its verdict comes first, in its
            // short form (up to the colon): the rest is in the notes.
            let text = match row.notices.first() {
                Some(notice) => {
                    let short = notice.split(':').next().unwrap_or(notice);
                    let style = if row.loose_match.is_none() && !row.failed {
                        theme.warn()
                    } else {
                        style
                    };
                    return (format!(" {short} ·{text}"), style);
                }
                None => text,
            };
            (text, style)
        }
    }
}

fn verdict_word(row: &EditRow) -> &'static str {
    match row.agent {
        _ if row.verdict_missing => "no verdict (the output ended)",
        Verdict::Applied => "applied",
        Verdict::Failed => "failed",
        Verdict::NotRun => "not run",
        Verdict::Pending => "no verdict yet",
    }
}

/// What srview ran the edit against, in a few words.
/// What an edit ran against, in a few words.
pub fn basis_words(b: Basis) -> &'static str {
    match b {
        Basis::Recorded => "the recorded content",
        Basis::Derived => "a content derived from the record",
        Basis::Chained => "what the previous edit left",
        Basis::ReverseDiff => "the file, agent's diffs undone",
        Basis::GitCheckpoint => "the git checkpoint",
        Basis::GitHistory => "the file before the agent's commit",
        Basis::OnDisk => "the file now (nothing wrote it since)",
        Basis::CurrentFile => "the current file (before unknown)",
        Basis::NotNeeded => "nothing",
        Basis::LiveFile => "the file before the agent wrote",
    }
}

/// The list: one row per edit, the selected one highlighted; the notice
/// (or the selected edit's disagreement) and the keys at the bottom.
fn edit_list(frame: &mut Frame, area: Rect, list: &AgentList, theme: &Theme) {
    let width = usize::from(area.width);
    let footer_h = 1u16;
    let note = list
        .notice()
        .clone()
        .map(|n| (n.text, n.error))
        .or_else(|| {
            list.current().and_then(|r| {
                // The doubts said with the notices, each in its check's
                // own words.
                let notices = r
                    .notices
                    .iter()
                    .cloned()
                    .chain(r.doubts.iter().map(|d| format!("doubt: {d}")))
                    .collect::<Vec<_>>()
                    .join("; ");
                if let Some(c) = &r.gate_contradiction {
                    return Some((format!("CONTRADICTION: {c}"), true));
                }
                match (&r.disagreement, &r.loose_match) {
                    (Some(d), _) => Some((format!("DISAGREEMENT: {d}"), true)),
                    (None, Some(l)) if notices.is_empty() => {
                        Some((format!("loose match: {l}"), false))
                    }
                    (None, Some(l)) => Some((format!("loose match: {l}; {notices}"), false)),
                    (None, None) if notices.is_empty() => None,
                    (None, None) => Some((notices, false)),
                }
            })
        });
    // A notice wraps, up to a third of the rows.
    let note_lines: Vec<String> = note
        .as_ref()
        .map(|(text, _)| super::code::wrap_text(&sanitize(text), usize::from(area.width)))
        .unwrap_or_default();
    let note_h = (note_lines.len() as u16).min((area.height / 3).max(1));
    let rows_h = area.height.saturating_sub(footer_h + note_h);
    let rows_n = usize::from(rows_h);
    if list.rows().is_empty() {
        let text = if list.unreadable() {
            "the output could not be read: see below"
        } else if list.ended() {
            "no file edits in this output"
        } else {
            "waiting for the agent's first edit…"
        };
        band(
            frame,
            area,
            0,
            rows_h,
            Paragraph::new(text).style(theme.gutter()),
        );
    } else {
        let selected = list.position().unwrap_or(0);
        let top = selected.saturating_sub(rows_n.saturating_sub(1));
        let file_w = list
            .rows()
            .iter()
            .map(|r| r.file.width())
            .max()
            .unwrap_or(0)
            .min(width / 3);
        let mut lines = Vec::new();
        // The marks come right after the number: a narrow terminal cuts
        // srview's words before them.
        let marks_of = |row: &EditRow| {
            let mut marks = Vec::new();
            if row.disagreement.is_some() {
                marks.push("DISAGREE");
            }
            if row.failed {
                marks.push("FAILED");
            }
            if row.loose {
                marks.push("LOOSE");
            }
            if !row.doubts.is_empty() {
                marks.push("DOUBT");
            }
            if row.cut_off {
                marks.push("CUT");
            }
            if row.written {
                marks.push("WRITTEN");
            }
            if row.gate_contradiction.is_some() {
                marks.push("GATE-CONTRADICTS");
            }
            marks.join(" ")
        };
        let marks_w = list
            .rows()
            .iter()
            .map(|r| marks_of(r).len())
            .max()
            .unwrap_or(0);
        // The gate's decision in a short word (`gate:blocked`) right after
        // the marks, where an 80-column row keeps it and the file name
        // (its case and the whole words are in the edit's own view); no
        // column when the record joins no edit.
        let gate_w = list
            .rows()
            .iter()
            .filter_map(|r| r.gate_short)
            .map(|w| "gate:".len() + w.len() + 1)
            .max()
            .unwrap_or(0);
        for (i, row) in list.ordered().enumerate().skip(top).take(rows_n) {
            let file: String = sanitize(&row.file);
            let gate = row
                .gate_short
                .map(|w| format!("gate:{w} "))
                .unwrap_or_default();
            let text = format!(
                "{:>4} {:<marks_w$} {gate:<gate_w$}{:<file_w$} {:<15} {:<14} srview: {}",
                row.seq,
                marks_of(row),
                file,
                row.tool,
                verdict_word(row),
                row.srview,
            );
            let style =
                if row.failed || row.disagreement.is_some() || row.gate_contradiction.is_some() {
                    theme.bad()
                } else if row.loose || row.streaming || !row.doubts.is_empty() {
                    theme.warn()
                } else {
                    theme.ok()
                };
            let style = if i == selected {
                style.patch(theme.selected())
            } else {
                style
            };
            lines.push(Line::from(Span::styled(sanitize(&text), style)));
        }
        band(frame, area, 0, rows_h, Paragraph::new(lines));
    }
    if let Some((_, error)) = note {
        let style = if error { theme.bad() } else { theme.ok() };
        band(
            frame,
            area,
            rows_h,
            note_h,
            Paragraph::new(note_lines.join("\n")).style(style),
        );
    }
    // The list's rows with a footer item: `!` names the order it switches
    // to; a saved session has nothing to follow.
    let items: Vec<String> = footer_items(KeyScope::AgentList)
        .filter_map(|(row, item)| {
            match row.binds.first().map(|b| b.action) {
                Some(Action::FailedFirst) if list.failed_first() => Some("agent's order"),
                Some(Action::FollowNewest) if !list.live() => None,
                _ => Some(item.words),
            }
            .map(|words| format!("{} {words}", item.keys))
        })
        .collect();
    let keys = format!(" {}", items.join(" · "));
    let last = area.height.saturating_sub(1);
    band(
        frame,
        area,
        last,
        1,
        Paragraph::new(keys).style(theme.bar()),
    );
}

/// Draws `widget` on `height` rows of `area` from its row `top`.
fn band(frame: &mut Frame, area: Rect, top: u16, height: u16, widget: Paragraph) {
    let rows = Rect {
        y: area.y + top,
        height,
        ..area
    };
    frame.render_widget(widget, rows);
}
