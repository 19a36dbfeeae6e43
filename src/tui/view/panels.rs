//! Status bar, block list, notice line, footer and the help overlay.

use crate::diagnose::Side;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use unicode_width::UnicodeWidthStr;

use super::BlocksPane;
use super::code::{self, sanitize};
use super::theme::{ColourMode, Theme, Tint};
use crate::engine::{BlockReport, BlockState};
use crate::tui::app::keymap::{Action, KeyScope, footer_items, key_help};
use crate::tui::app::{App, Focus, Layout, Notice, PlaceDoubt, StreamState};
use crate::words;

/// One tab per file of a transcript, with its state in words.
///
/// What a narrow bar drops first: the longer key hints, then the header's
/// words around the transcript's state, then the hints altogether; every
/// tab and the state stay while they fit. Only when the tabs cannot all fit
/// anyway does the shortest hint stay, with the current tab and as many
/// others as fit, the rest marked `…`.
pub fn tab_bar(
    frame: &mut Frame,
    area: Rect,
    ws: &crate::tui::app::workspace::Workspace,
    theme: &Theme,
) {
    let state = ws.received().stream.name();
    let headers = [
        format!(" transcript {state} · {} B ", ws.received().bytes),
        format!(" transcript {state} "),
        format!(" {state} "),
    ];
    use crate::source::transcript::FileState;
    let mut tabs = Vec::new();
    // The failed files' tabs: if the bar has no room for one, it says so.
    let mut failed = Vec::new();
    for (i, tab) in ws.tabs().iter().enumerate() {
        let style = match (tab.written(), tab.state()) {
            (true, _) | (_, FileState::Applied) => theme.ok(),
            (_, FileState::Streaming) => theme.warn(),
            (_, FileState::Failed | FileState::Refused) => theme.bad(),
        };
        let text = format!(" {} {} {} ", i + 1, sanitize(tab.path()), tab.state_label());
        if !tab.written() && matches!(tab.state(), FileState::Failed | FileState::Refused) {
            failed.push(text.clone());
        }
        let style = if i == ws.current() {
            style.patch(theme.selected())
        } else {
            style
        };
        tabs.push(Span::styled(text, style));
        tabs.push(Span::raw("│"));
    }
    let hints = [
        " [/] file · a accept file · A accept all",
        " a accept file · A accept all",
        " a file · A all",
    ];
    let width = usize::from(area.width);
    let tabs_w: usize = tabs.iter().map(|s| s.content.width()).sum();
    let fits = |header: &str, hint: &str| header.width() + tabs_w + hint.width() <= width;
    let whole = hints.iter().chain(std::iter::once(&"")).find_map(|hint| {
        headers
            .iter()
            .find(|h| fits(h, hint))
            .map(|header| (header.clone(), *hint))
    });
    let (header, hint) = match whole {
        Some(chosen) => chosen,
        None => {
            // Tabs are left out anyway: the shortest hint keeps `A` in
            // sight and leaves the most room to the tabs.
            (headers[2].clone(), hints[hints.len() - 1])
        }
    };
    let mut spans = vec![Span::styled(header, theme.bar())];
    spans.extend(tabs);
    let fitted = |hint: &str| {
        let room = width.saturating_sub(hint.width());
        (fit_spans(spans.clone(), room, ws.current() + 1), room)
    };
    let (mut shown, mut room) = fitted(hint);
    let hidden = failed
        .iter()
        .filter(|t| !shown.iter().any(|s| s.content == t.as_str()))
        .count();
    // A failed file whose tab has no room is never silent: the keys' hint
    // gives way to it.
    let warning;
    let hint = if hidden > 0 {
        warning = format!(" {hidden} failed, not shown · A all");
        (shown, room) = fitted(&warning);
        warning.as_str()
    } else {
        hint
    };
    // Right after the tabs; a current tab too wide for the bar is cut, the keys never.
    let tabs_w = shown
        .iter()
        .map(|s| s.content.width())
        .sum::<usize>()
        .min(room) as u16;
    let tabs_area = Rect {
        width: tabs_w,
        ..area
    };
    frame.render_widget(Paragraph::new(Line::from(shown)), tabs_area);
    let hint_area = Rect {
        x: area.x + tabs_w,
        width: area.width - tabs_w,
        ..area
    };
    let style = if hidden > 0 {
        theme.bad()
    } else {
        theme.gutter()
    };
    frame.render_widget(Paragraph::new(hint).style(style), hint_area);
}

/// The tab bar's spans (a header, then a tab and a separator per file)
/// that fit in `room` columns, whole: the current tab (`current` is its
/// position among the spans' tabs, 1-based) is always kept, and tabs left
/// out are marked `…`.
pub(super) fn fit_spans(
    spans: Vec<Span<'static>>,
    room: usize,
    current: usize,
) -> Vec<Span<'static>> {
    let w = |s: &Span| s.content.width();
    if spans.iter().map(w).sum::<usize>() <= room {
        return spans;
    }
    let mut it = spans.into_iter();
    let header = it.next();
    let tabs: Vec<(Span, Span)> = std::iter::from_fn(|| Some((it.next()?, it.next()?))).collect();
    let tab_w = |t: &(Span, Span)| w(&t.0) + w(&t.1);
    // The header (the transcript's state) first, while the current tab
    // fits beside it; then from the current tab onwards, then backwards
    // from it while they fit.
    let current_w = tabs.get(current - 1).map_or(0, tab_w) + 2;
    let header = header.filter(|h| w(h) + current_w <= room);
    let mut used = current_w + header.as_ref().map_or(0, w);
    let (mut from, mut to) = (current - 1, current);
    while to < tabs.len() && used + tab_w(&tabs[to]) <= room {
        used += tab_w(&tabs[to]);
        to += 1;
    }
    while from > 0 && used + tab_w(&tabs[from - 1]) <= room {
        from -= 1;
        used += tab_w(&tabs[from]);
    }
    let mut out = Vec::new();
    out.extend(header);
    if from > 0 {
        out.push(Span::raw("…"));
    }
    let tabs_len = tabs.len();
    for (tab, sep) in tabs.into_iter().skip(from).take(to.saturating_sub(from)) {
        out.push(tab);
        out.push(sep);
    }
    if to < tabs_len {
        out.push(Span::raw("…"));
    }
    out
}

pub fn status_bar(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    // Blocks left out are counted as such, not by their state in the whole diff.
    let counted = || {
        app.outcome()
            .blocks
            .iter()
            .filter(|b| !app.is_left_out(b.index))
    };
    let waiting = counted()
        .filter(|b| {
            !matches!(
                b.state,
                BlockState::Applied | BlockState::Failed | BlockState::Dropped
            )
        })
        .count();
    let failed = counted().filter(|b| b.state == BlockState::Failed).count();
    let applied = counted().filter(|b| b.state == BlockState::Applied).count();
    let fail_word = if app.final_mode() {
        "failed"
    } else {
        "no match yet"
    };
    let layout = match app.layout() {
        Layout::Split => "split",
        Layout::Unified => "unified",
    };
    let mut flags = vec![layout.to_string()];
    if app.view().follow {
        flags.push("follow".into());
    }
    if app.view().wrap {
        flags.push("wrap".into());
    }
    if app.view().hscroll > 0 && !app.view().wrap {
        flags.push(format!("col {}", app.view().hscroll + 1));
    }
    // (text, style, priority): on a narrow terminal the lowest priorities
    // go first, whole; the file name is shortened last.
    let mut parts: Vec<(String, Style, u8)> = vec![
        (
            " srview ".into(),
            theme.bar().add_modifier(Modifier::BOLD),
            2,
        ),
        (
            format!(" {} ", sanitize(&app.file_path().display().to_string())),
            theme.bar(),
            NAME,
        ),
        // An edit nobody has written (the review pane's) is an agent's, not
        // a SEARCH/REPLACE diff: no engine version is its.
        if app.unwritten() {
            (String::new(), theme.bar(), 1)
        } else {
            (format!(" {} ", app.version().name()), theme.bar(), 1)
        },
        // An edit waiting for the human (the review pane's) has no stream
        // state: `ended` read as if the edit were done (a tester's find).
        if app.unwritten() {
            (String::new(), theme.bar(), 8)
        } else {
            (
                format!(" {} ", app.mode_name()),
                theme.bar().add_modifier(Modifier::BOLD),
                8,
            )
        },
        if app.cut_input() {
            (" incomplete ".into(), theme.bar().patch(theme.warn()), 9)
        } else if app.refused_by_reference() {
            (" refused ".into(), theme.bar().patch(theme.bad()), 9)
        } else {
            (
                if app.unwritten() && app.direct() {
                    " whole file placed ".to_string()
                } else if app.unwritten() && applied == 0 {
                    " not placed ".to_string()
                } else if app.unwritten() {
                    format!(" {applied} placed ")
                } else {
                    format!(" {applied} applied ")
                },
                theme.bar().patch(theme.ok()),
                7,
            )
        },
    ];
    // What `a` would ask about is said before it is pressed: the result's
    // doubts (its own row below the block) or a block's place in doubt.
    let place_doubted = !app.diagnosis_stale()
        && app
            .diagnoses()
            .iter()
            .any(|d| !app.is_left_out(d.index) && crate::tui::app::place_doubt(d).is_some());
    if !app.result_doubts().is_empty() || place_doubted {
        parts.push((" in doubt ".into(), theme.bar().patch(theme.bad()), 9));
    }
    if !app.left_out().is_empty() {
        parts.push((
            format!(" {} left out ", app.left_out().len()),
            theme.bar().patch(theme.warn()),
            8,
        ));
    }
    if failed > 0 {
        parts.push((
            format!(" {failed} {fail_word} "),
            theme.bar().patch(theme.bad()),
            9,
        ));
    }
    if waiting > 0 {
        parts.push((
            format!(" {waiting} waiting "),
            theme.bar().patch(theme.warn()),
            5,
        ));
    }
    // Nor the size of the blocks srview made of it (`0 B` read as an
    // empty edit).
    if !app.unwritten() {
        let bytes = app.source_bytes().unwrap_or(app.diff().len());
        parts.push((format!(" {bytes} B "), theme.bar(), 0));
    }
    parts.push((format!(" [{}] ", flags.join(" ")), theme.bar(), 3));
    let width = usize::from(area.width);
    const NAME: u8 = 6;
    let mut keep = vec![true; parts.len()];
    let total = |parts: &[(String, Style, u8)], keep: &[bool]| -> usize {
        parts
            .iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(p, _)| p.0.width())
            .sum()
    };
    let mut removed = Vec::new();
    while total(&parts, &keep) > width {
        let Some(i) = (0..parts.len())
            .filter(|&i| keep[i])
            .min_by_key(|&i| parts[i].2)
        else {
            break;
        };
        if parts[i].2 == NAME {
            // Shortened before it goes.
            let room = width.saturating_sub(total(&parts, &keep) - parts[i].0.width());
            if room >= 8 {
                parts[i].0 = shorten_path(&parts[i].0, room);
                parts[i].2 = NAME + 1;
                continue;
            }
        }
        keep[i] = false;
        removed.push(i);
    }
    // A part that went to make room for a longer one comes back if it fits.
    for i in removed.into_iter().rev() {
        if total(&parts, &keep) + parts[i].0.width() <= width {
            keep[i] = true;
        }
    }
    let parts: Vec<(String, Style, u8)> = parts
        .into_iter()
        .zip(keep)
        .filter_map(|(p, k)| k.then_some(p))
        .collect();
    let spans: Vec<Span> = parts
        .into_iter()
        .map(|(text, style, _)| Span::styled(text, style))
        .collect();
    frame.render_widget(Paragraph::new(Line::from(spans)).style(theme.bar()), area);
}

/// ` path/to/name.rs ` in at most `room` columns: its start replaced by `…`,
/// so the file name itself stays.
fn shorten_path(part: &str, room: usize) -> String {
    let inner = part.trim();
    let keep = room.saturating_sub(3);
    let chars: Vec<char> = inner.chars().collect();
    let mut tail = String::new();
    let mut used = 0;
    for &c in chars.iter().rev() {
        let w = c.to_string().width();
        if used + w > keep {
            break;
        }
        tail.insert(0, c);
        used += w;
    }
    format!(" …{tail} ")
}

/// One line describing a block: "#3 applied line-trimmed 120-134"; an
/// apply_patch hunk matched only loosely shows its level (`≈ unicode`).
pub fn block_line(
    b: &BlockReport,
    is_final: bool,
    loose: Option<&str>,
    theme: &Theme,
) -> Line<'static> {
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
    match (loose, b.stage) {
        (Some(crate::tui::app::UNKNOWN_MATCH), Some(_)) => spans.push(Span::styled(
            format!("? {:<12} ", crate::tui::app::UNKNOWN_MATCH),
            theme.stage_word(Tint::Unattributed),
        )),
        (Some(level), Some(_)) => spans.push(Span::styled(format!("≈ {level:<12} "), theme.warn())),
        (None, Some(stage)) => spans.push(Span::styled(
            format!("{} {:<12} ", tint.symbol(), stage.name()),
            theme.stage_word(tint),
        )),
        _ => {}
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

/// The stage column of a block of srview's combined change: its one call
/// block's stage, the loosest stage among several, else `C combined`
/// (never `exact`: no one block of what was sent is this one).
fn combined_stage(row: &crate::tui::app::calls::CombinedRow, theme: &Theme) -> Span<'static> {
    match row.stage() {
        Some(stage) => {
            let tint = Tint::Stage(stage);
            Span::styled(
                format!("{} {:<12} ", tint.symbol(), stage.name()),
                theme.stage_word(tint),
            )
        }
        None => Span::styled(format!("C {:<12} ", "combined"), theme.warn()),
    }
}

/// What a block of srview's combined change is made of, in words, with
/// the lines of the calls' diffs `v` shows.
fn combined_detail(index: usize, row: &crate::tui::app::calls::CombinedRow) -> String {
    let name = |b: &crate::tui::app::calls::CallBlock| {
        format!("call {}'s block #{}", b.call + 1, b.block + 1)
    };
    let lines =
        |b: &crate::tui::app::calls::CallBlock| words::line_range("line", b.lines[0], b.lines[1]);
    match row.from.as_slice() {
        [] => format!(
            "#{} srview's block of the calls' combined change: no one block the calls sent is it",
            index + 1
        ),
        [one] => format!(
            "#{} shows {} ({}; {} of v), placed by srview over the file as it was",
            index + 1,
            name(one),
            stage_words(one.stage),
            lines(one)
        ),
        many => {
            let parts: Vec<String> = many
                .iter()
                .map(|b| format!("{} ({}, {} of v)", name(b), b.stage.name(), lines(b)))
                .collect();
            format!(
                "#{} srview's block combining {}",
                index + 1,
                parts.join(" and ")
            )
        }
    }
}

/// How a stage found a SEARCH text, in words.
fn stage_words(stage: crate::engine::Stage) -> &'static str {
    match stage {
        crate::engine::Stage::Exact => "SEARCH found exactly",
        crate::engine::Stage::LineTrimmed => "matched only after trimming white space on each line",
        crate::engine::Stage::BlockAnchor => {
            "matched by first and last lines only: middle lines replaced unseen (risky)"
        }
        crate::engine::Stage::WholeFile => "found only by searching the whole file",
        crate::engine::Stage::Empty => "empty SEARCH",
    }
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

/// Block `i`'s line with the tool call it belongs to in front, when the
/// diff is several calls' (a transcript's file edited more than once): the
/// call's name beside its first block, blanks beside the others, so the
/// list reads grouped by call.
fn with_call(app: &App, i: usize, line: Line<'static>, theme: &Theme) -> Line<'static> {
    let groups = &app.call_groups();
    if groups.is_empty() {
        return line;
    }
    let width = groups.iter().map(|g| g.label.width()).max().unwrap_or(0);
    let label = groups
        .iter()
        .rfind(|g| g.first_block == i)
        .map_or("", |g| g.label.as_str());
    let mut spans = vec![Span::styled(format!("{label:<width$} │ "), theme.gutter())];
    spans.extend(line.spans);
    Line::from(spans)
}

/// A line of the block list cut to `width`, highlighted when selected.
fn finish_block_line(
    line: Line<'static>,
    selected: bool,
    width: usize,
    theme: &Theme,
) -> Line<'static> {
    let line = Line::from(code::clip(line.spans, 0, width, theme.gutter()));
    if selected {
        line.patch_style(theme.selected())
    } else {
        line
    }
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
pub fn blocks_pane(frame: &mut Frame, layout: &BlocksPane, app: &App, theme: &Theme) {
    let focused = app.view().focus == Focus::Blocks;
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
    frame.render_widget(block, layout.pane);
    if let Some(why) = &app.source_error() {
        let kept = if app.diff().is_empty() {
            String::new()
        } else {
            " (showing the last readable diff)".into()
        };
        let below_title = Rect {
            y: layout.list.y,
            height: layout.pane.height.saturating_sub(1),
            ..layout.pane
        };
        frame.render_widget(
            Paragraph::new(sanitize(&format!("DIFF unreadable: {why}{kept}")))
                .wrap(Wrap { trim: false })
                .style(theme.bad()),
            below_title,
        );
        return;
    }
    let blocks = &app.outcome().blocks;
    if blocks.is_empty() {
        let msg = match app.stream() {
            _ if app.diff().is_empty() && app.refused_by_reference() => "refused: why is below",
            // The review pane's edit nobody has written: its own words.
            _ if app.unwritten() && app.direct() => "the whole file, as the write leaves it",
            _ if app.unwritten() => "nothing placed: why is below",
            StreamState::Waiting => "waiting for the diff…",
            // The reference reads no marker that ends in `\r`: say why
            // nothing is found instead of waiting for a block forever.
            _ if app.diff().contains("SEARCH\r\n") => {
                "no SEARCH/REPLACE block: the diff has CRLF line endings, and a marker line ending in \\r is not a marker"
            }
            // A previewer over another source (an agent's edit srview
            // could not run) says why in its note, below.
            _ if app.diff().is_empty() && app.has_state_note() => "not run here: why is below",
            StreamState::Ended => "no SEARCH/REPLACE block",
            _ => "no SEARCH/REPLACE block yet",
        };
        frame.render_widget(Paragraph::new(msg).style(theme.gutter()), layout.list);
        return;
    }
    let listed = app.listed_blocks();
    let sel = app.view().selected.min(listed - 1);
    let width = usize::from(layout.list.width);
    let lines: Vec<Line> = (layout.first..listed)
        .take(usize::from(layout.list.height))
        .map(|i| {
            let line = match blocks.get(i) {
                Some(b) => {
                    let loose = app.loose_levels().get(i).and_then(|l| l.as_deref());
                    let mut line = block_line(b, app.final_mode(), loose, theme);
                    // srview's block of several calls' change: the stage
                    // of the calls' blocks it is made of, or `combined`.
                    if let Some(row) = app.combined_rows().get(i)
                        && b.stage.is_some()
                        && let Some(stage) = line.spans.get_mut(2)
                    {
                        *stage = combined_stage(row, theme);
                    }
                    // An edit not written yet (the review pane's) is placed.
                    if app.unwritten()
                        && b.state == BlockState::Applied
                        && let Some(state) = line.spans.get_mut(1)
                    {
                        *state = Span::styled(format!("{:<10} ", "placed"), state.style);
                    }
                    if app.is_left_out(i) {
                        // Neither written nor shown in the panes: its state
                        // in the whole diff gives way to that.
                        if let Some(state) = line.spans.get_mut(1) {
                            *state = Span::styled(format!("{:<10} ", "left out"), theme.warn());
                        }
                        return finish_block_line(
                            with_call(app, i, line, theme),
                            i == sel,
                            width,
                            theme,
                        );
                    }
                    let diagnosis = app
                        .diagnoses()
                        .iter()
                        .find(|d| d.index == i && !app.diagnosis_stale());
                    // A final failure says why in its own line.
                    let reason = diagnosis.and_then(|d| d.reason);
                    if let (true, BlockState::Failed, Some(r)) = (app.final_mode(), b.state, reason)
                    {
                        let at = line.spans.len().min(2);
                        line.spans
                            .insert(at, Span::styled(format!("[{}] ", r.code()), theme.bad()));
                    }
                    // An applied block whose place is in doubt says so before
                    // its stage: accepting asks for a confirmation.
                    if let Some(doubt) = diagnosis.and_then(crate::tui::app::place_doubt) {
                        let style = match doubt {
                            PlaceDoubt::Unseen => theme.warn(),
                            _ => theme.bad(),
                        };
                        let at = line.spans.len().min(2);
                        line.spans
                            .insert(at, Span::styled(format!("! {} ", doubt.flag()), style));
                    }
                    line
                }
                None => {
                    let mut line =
                        unreached_line(app.diagnoses().iter().find(|d| d.index == i), i, theme);
                    if app.is_left_out(i)
                        && let Some(state) = line.spans.get_mut(1)
                    {
                        *state = Span::styled(format!("{:<10} ", "left out"), theme.warn());
                    }
                    line
                }
            };
            finish_block_line(with_call(app, i, line, theme), i == sel, width, theme)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), layout.list);
    let area = layout.detail;
    if area.height == 0 {
        return;
    }
    let (body, keys) = detail_content(app, area.width, theme);
    let height = usize::from(area.height);
    let hint_of = |parts: &[&str]| -> Vec<Line<'static>> {
        if parts.is_empty() {
            return Vec::new();
        }
        wrap_parts(parts, usize::from(area.width))
            .into_iter()
            .map(|row| Line::styled(row, theme.warn()))
            .collect()
    };
    // The keys' hint is kept whole; the body gives way, least needed rows
    // first, and the hint says how many rows it left out.
    let mut hint = hint_of(&keys);
    let mut lines: Vec<Line> = if body.len() + hint.len() > height {
        let mut budget = height.saturating_sub(hint.len());
        // `+` shows them all, unless it already gave the pane all it can.
        let shows_all = if app.view().detail_expanded {
            "srview check shows all"
        } else {
            "+: show all"
        };
        for _ in 0..2 {
            let more = format!(
                "… {} ({shows_all})",
                words::count(body.len().saturating_sub(budget), "more row")
            );
            let mut parts = vec![more.as_str()];
            parts.extend(&keys);
            hint = hint_of(&parts);
            budget = height.saturating_sub(hint.len());
        }
        let mut by_need: Vec<usize> = (0..body.len()).collect();
        by_need.sort_by_key(|&i| std::cmp::Reverse(body[i].1));
        let mut keep = vec![false; body.len()];
        for &i in by_need.iter().take(budget) {
            keep[i] = true;
        }
        body.into_iter()
            .zip(keep)
            .filter_map(|((line, _), k)| k.then_some(line))
            .collect()
    } else {
        body.into_iter().map(|(line, _)| line).collect()
    };
    lines.extend(hint.into_iter().take(height));
    frame.render_widget(Paragraph::new(lines), area);
}

/// Rows the selected block's detail takes at `width` columns.
pub fn detail_rows(app: &App, width: u16) -> usize {
    let (body, keys) = detail_content(app, width, &Theme::new(ColourMode::None));
    let hint = if keys.is_empty() {
        0
    } else {
        wrap_parts(&keys, usize::from(width)).len()
    };
    body.len() + hint
}

/// `parts` joined by ` · ` in rows of `width` columns, a part split only
/// when it is wider than a row: `d: jump there` stays on one row.
fn wrap_parts(parts: &[&str], width: usize) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    for part in parts {
        if !row.is_empty() && row.width() + 3 + part.width() <= width {
            row.push_str(" · ");
            row.push_str(part);
            continue;
        }
        if !row.is_empty() {
            rows.push(std::mem::take(&mut row));
        }
        let mut pieces = code::wrap_text(part, width);
        row = pieces.pop().unwrap_or_default();
        rows.extend(pieces);
    }
    if !row.is_empty() {
        rows.push(row);
    }
    rows
}

/// Lines of the SEARCH-against-file diff a block's detail shows at most.
const DIFF_LINES_SHOWN: usize = 200;

/// How much a row of a block's detail is needed when rows are short.
const NEED_HEADER: u8 = 4;
const NEED_CHANGED: u8 = 3;
const NEED_LEGEND: u8 = 2;
const NEED_CONTEXT: u8 = 1;

/// The selected block's detail, wrapped to `width`: the body (its
/// diagnosis and the SEARCH text against the file, or how it matched),
/// each row with how much it is needed, then the keys that act on it.
type DetailRows = (Vec<(Line<'static>, u8)>, Vec<&'static str>);

fn detail_content(app: &App, width: u16, theme: &Theme) -> DetailRows {
    let width = usize::from(width).max(1);
    let Some(b) = app.outcome().blocks.get(
        app.view()
            .selected
            .min(app.outcome().blocks.len().saturating_sub(1)),
    ) else {
        return (Vec::new(), Vec::new());
    };
    let wrapped = |text: &str, style: Style, need: u8| -> Vec<(Line<'static>, u8)> {
        code::wrap_text(&sanitize(text), width)
            .into_iter()
            .map(|row| (Line::styled(row, style), need))
            .collect()
    };
    // The doubts of what `a` writes, whichever block is selected: said
    // before `a` asks about them.
    let doubts = match app.result_doubts() {
        [] => Vec::new(),
        doubts => wrapped(
            &format!("in doubt: {}; a asks before writing", doubts.join("; ")),
            theme.bad(),
            NEED_HEADER,
        ),
    };
    let Some(d) = app.selected_diagnosis().filter(|d| d.is_problem()) else {
        let text = match app.combined_rows().get(b.index) {
            Some(row) => combined_detail(b.index, row),
            None => {
                let loose = app.loose_levels().get(b.index).and_then(|l| l.as_deref());
                let hunk = app.hunk_lines().get(b.index).copied();
                detail(b, app.final_mode(), loose, hunk, app.block_numbers())
            }
        };
        let mut body = wrapped(&text, theme.gutter(), NEED_HEADER);
        body.extend(doubts);
        return (body, Vec::new());
    };
    let reason = d.reason.map_or("problem", |r| r.code());
    let mut body = wrapped(
        &format!("#{} [{reason}] {}", d.index + 1, d.message),
        Style::new(),
        NEED_HEADER,
    );
    body.extend(doubts);
    if !d.line_diff.is_empty() {
        let legend = match d.closest {
            Some(c) => format!(
                "- SEARCH text, + file {} (similarity {})",
                words::line_range("line", c.start_line, c.end_line),
                words::similarity(c.similarity)
            ),
            None => "- SEARCH text, + file".to_string(),
        };
        body.extend(wrapped(&legend, theme.gutter(), NEED_LEGEND));
        // No pane is this tall: a huge block costs no more than this a frame.
        let shown = &d.line_diff[..d.line_diff.len().min(DIFF_LINES_SHOWN)];
        body.extend(line_diff_lines(shown, width, theme));
        let rest = d.line_diff.len() - shown.len();
        if rest > 0 {
            let more = format!(
                "… and {} of the diff (srview check shows all)",
                words::count(rest, "more line")
            );
            body.extend(wrapped(&more, theme.gutter(), NEED_CHANGED));
        }
    }
    let mut keys = Vec::new();
    if d.closest.is_some() {
        keys.push("d: jump there");
    }
    if d.suggestion.is_some() {
        keys.push("c: copy corrected block");
    }
    (body, keys)
}

/// The SEARCH text against the file as `check` prints it: `-` a SEARCH
/// line, `+` a file line, the differing words marked in each pair; one row
/// a line, cut with `…`.
fn line_diff_lines(
    lines: &[crate::diagnose::DiffLine],
    width: usize,
    theme: &Theme,
) -> Vec<(Line<'static>, u8)> {
    // Deleted and inserted runs are paired line by line, as `differences` does.
    let mut marks: Vec<Vec<std::ops::Range<usize>>> = vec![Vec::new(); lines.len()];
    for (dels, ins) in crate::diagnose::changed_runs(lines) {
        for (d, n) in dels.zip(ins) {
            (marks[d], marks[n]) = code::word_changes(&lines[d].text, &lines[n].text);
        }
    }
    lines
        .iter()
        .zip(marks)
        .map(|(l, marks)| {
            let sign = match l.tag {
                Side::Delete => "- ",
                Side::Insert => "+ ",
                _ => "  ",
            };
            let style = theme.diagnosis_line(l.tag);
            let mut spans = vec![Span::styled(sign, style)];
            spans.extend(code::spans(
                &l.text,
                &Vec::new(),
                style,
                &marks,
                theme.diagnosis_word(l.tag),
                theme,
            ));
            let need = if l.tag == Side::Equal {
                NEED_CONTEXT
            } else {
                NEED_CHANGED
            };
            (
                Line::from(code::clip(spans, 0, width, theme.gutter())),
                need,
            )
        })
        .collect()
}

/// Why a block is where it is, in words; `loose`: the level its
/// apply_patch hunk needed; `hunk`: the patch lines of the hunk it shows.
fn detail(
    b: &BlockReport,
    is_final: bool,
    loose: Option<&str>,
    hunk: Option<[usize; 2]>,
    numbers: crate::source::patch_preview::BlockNumbers,
) -> String {
    use crate::source::patch_preview::BlockNumbers;
    // An agent's blocks are srview's rendering of what its own matcher
    // did: a loose level is the agent's stage, and the agent may say it.
    let agents = numbers != BlockNumbers::Diff;
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
    let loosely = loose.map(|level| {
        if level == crate::tui::app::UNKNOWN_MATCH {
            "how the model's patch matched is not known (shown: the diff the agent recorded)"
                .to_string()
        } else if agents {
            format!("placed by the agent's loose stage {level}")
        } else {
            format!("the hunk matched only loosely (level {level}; the reference is silent)")
        }
    });
    // An edit's JSON: its old text is said by the key the agent gave it.
    let field = match numbers {
        BlockNumbers::EditField(Some(key)) => Some(format!("{key} found exactly")),
        BlockNumbers::EditField(None) => Some("the whole file written".to_string()),
        _ => None,
    };
    let how = match b.stage.map(|s| s.name()) {
        _ if loosely.is_some() => loosely.as_deref().unwrap_or_default(),
        Some("exact") if field.is_some() => field.as_deref().unwrap_or_default(),
        Some("exact") if agents => "placed exactly by the agent's matcher",
        Some("exact") if hunk.is_some() => "hunk found exactly",
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
    let lines = match (numbers, hunk) {
        (BlockNumbers::Diff, Some([first, last])) => words::line_range("patch line", first, last),
        (BlockNumbers::Diff, None) => {
            words::line_range("diff line", b.diff_lines[0], b.diff_lines[1])
        }
        (BlockNumbers::Reply, Some([first, last])) => words::line_range("reply line", first, last),
        // No line of the input is this block's.
        _ => return format!("#{} {how}{ooo}", b.index + 1),
    };
    format!("#{} {how}{ooo}; {lines}", b.index + 1)
}

pub fn notice(frame: &mut Frame, area: Rect, notice: Option<&Notice>, theme: &Theme) {
    if let Some(n) = notice {
        let style = if n.error { theme.bad() } else { theme.ok() };
        let rows: Vec<Line> = code::notice_rows(&n.text, usize::from(area.width))
            .into_iter()
            .map(Line::raw)
            .collect();
        frame.render_widget(Clear, area);
        frame.render_widget(Paragraph::new(rows).style(style), area);
    }
}

/// The footer's keys, in order, each with a priority: on a narrow terminal
/// the lowest go first; `? help` always stays. `screen`: whose keys (the
/// table's rows with a footer item; a question or an overlay open lists
/// its own few keys).
pub fn footer(frame: &mut Frame, area: Rect, app: &App, theme: &Theme, screen: KeyScope) {
    // The query being typed takes the footer: its keys are the prompt's.
    if let Some(search) = app.view().search.as_ref().filter(|s| s.typing) {
        let text = format!("/{}▏  Enter search · Esc cancel", sanitize(&search.query));
        frame.render_widget(Paragraph::new(text).style(theme.warn()), area);
        return;
    }
    let other_layout = match app.layout() {
        Layout::Split => "unified",
        Layout::Unified => "split",
    };
    let keys: Vec<(&str, &str, u8)> = if app.view().raw {
        // The raw input shown over the panes: only these keys act.
        vec![
            ("v/Esc", "back to the panes", 9),
            ("j/k", "scroll", 7),
            ("q", "quit", 8),
        ]
    } else if app.reload_offered() {
        vec![
            ("r", "reload FILE and re-apply", 9),
            ("q", "quit", 8),
            ("?", "help", u8::MAX),
        ]
    } else if app.confirming_guess() && app.confirming_endings() {
        vec![
            ("L", "use the file's line endings", 9),
            ("a", "write as it is", 9),
            ("Esc", "cancel", 8),
            ("q", "quit", 7),
            ("?", "help", u8::MAX),
        ]
    } else if app.confirming_guess() {
        vec![
            ("a", "write anyway", 9),
            ("Esc", "cancel", 8),
            ("q", "quit", 7),
            ("?", "help", u8::MAX),
        ]
    } else if app.final_preview() && !app.is_final() {
        vec![
            ("j/k", "scroll", 3),
            ("n/N", "block", 4),
            ("a", "write this final result", 9),
            ("Esc", "back to the live view", 8),
            ("q", "quit", 7),
            ("?", "help", u8::MAX),
        ]
    } else {
        // The keys of the table's rows with a footer item; n/N go to a
        // search's matches while it is active, and `u` names the layout it
        // switches to.
        footer_items(screen)
            .filter(|(row, _)| {
                app.accept_offered()
                    || !matches!(
                        row.binds.first().map(|b| b.action),
                        Some(Action::Accept | Action::WriteEdit)
                    )
            })
            .map(|(row, item)| {
                let words = match row.binds.first().map(|b| b.action) {
                    Some(Action::NextBlock) if app.search_active() => "match · Esc end search",
                    Some(Action::ToggleLayout) => other_layout,
                    _ => item.words,
                };
                (item.keys, words, item.priority)
            })
            .collect()
    };
    let item = |(k, what, _): &(&str, &str, u8)| format!(" {k} {what} ·");
    let mut keep: Vec<bool> = vec![true; keys.len()];
    let width = |keep: &[bool]| -> usize {
        keys.iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(key, _)| item(key).width())
            .sum::<usize>()
            .saturating_sub(2)
    };
    while width(&keep) > usize::from(area.width) {
        let lowest = (0..keys.len())
            .filter(|&i| keep[i] && keys[i].2 != u8::MAX)
            .min_by_key(|&i| keys[i].2);
        match lowest {
            Some(i) => keep[i] = false,
            None => break,
        }
    }
    let mut text: String = keys
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(key, _)| item(key))
        .collect();
    text.pop();
    frame.render_widget(
        Paragraph::new(text.trim_end().to_string()).style(theme.gutter()),
        area,
    );
}

/// `v`: the diff as received (SEARCH/REPLACE text, apply_patch, an edit's
/// JSON, an agent's input) over the panes, numbered, from
/// `app.view.raw_scroll`; control characters inert.
pub fn raw_input(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    if area.height < 2 {
        return;
    }
    let text = app.raw_text();
    let total = text.lines().count();
    let digits = total.max(1).to_string().len();
    let visible = usize::from(area.height - 1);
    let top = app.view().raw_scroll.min(total.saturating_sub(visible));
    let width = usize::from(area.width);
    let mut lines: Vec<Line> = vec![Line::styled(
        code::clip(
            vec![Span::raw(format!(
                " {}: {} (v or Esc closes · j/k scroll)",
                app.raw_title().as_deref().unwrap_or("the edit as received"),
                words::count(total, "line")
            ))],
            0,
            width,
            theme.gutter(),
        )
        .into_iter()
        .map(|s| s.content.into_owned())
        .collect::<String>(),
        theme.bar(),
    )];
    for (i, line) in text.lines().enumerate().skip(top).take(visible) {
        let spans = vec![
            Span::styled(format!("{:>digits$} ", i + 1), theme.gutter()),
            Span::raw(sanitize(line)),
        ];
        lines.push(Line::from(code::clip(spans, 0, width, theme.gutter())));
    }
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines), area);
}

/// A line of a `?` overlay: the key, bold and right-aligned in `width`
/// columns, then what it does.
pub fn key_help_line<'a>(key: &str, width: usize, what: &'a str) -> Line<'a> {
    Line::from(vec![
        Span::styled(
            format!("{key:>width$}  "),
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Span::raw(what),
    ])
}

/// The rectangle of `width` x `height` (each at most `area`'s) centred
/// in `area`: where an overlay is drawn.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

/// The `?` overlay: every key, scrolled by `scroll` lines when the area is
/// too low for all of them.
pub fn help(frame: &mut Frame, area: Rect, theme: &Theme, scope: KeyScope, scroll: usize) {
    let keys: Vec<(&str, &str)> = key_help(scope).collect();
    let mut lines: Vec<Line> = keys
        .iter()
        .map(|&(k, what)| key_help_line(k, 10, what))
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::raw(" stages: E exact  T line-trimmed"));
    lines.push(Line::raw("         A block-anchor  W whole-file"));
    lines.push(Line::raw("         O out of order  ▸ streaming"));
    lines.push(Line::raw("         ≈ closest region of a failed block"));
    let w = area.width.min(46);
    let h = area.height.min(lines.len() as u16 + 2);
    let rect = centered(area, w, h);
    let visible = usize::from(h.saturating_sub(2));
    let top = help_top(lines.len(), visible, scroll);
    let title = if visible < lines.len() {
        format!(
            " keys {}-{} of {} (j/k scroll) ",
            top + 1,
            (top + visible).min(lines.len()),
            lines.len()
        )
    } else {
        " keys (Esc closes) ".to_string()
    };
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines.into_iter().skip(top).collect::<Vec<_>>()).block(
            Block::default()
                .borders(Borders::ALL)
                .title(title)
                .border_style(theme.warn()),
        ),
        rect,
    );
}

/// First line of the `?` overlay shown: `scroll`, kept so the last page is full.
pub fn help_top(lines: usize, visible: usize, scroll: usize) -> usize {
    scroll.min(lines.saturating_sub(visible))
}
