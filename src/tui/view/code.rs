//! One line of code as styled spans: syntax colours, word-level change marks,
//! and every control character made visible so file content can never drive
//! the terminal.

use std::ops::Range;

use ratatui::style::Style;
use ratatui::text::Span;
use unicode_width::UnicodeWidthStr;

use super::highlight::LineColours;
use super::theme::Theme;

pub use crate::tui::shown::sanitize;

/// Styled spans for `line`: `base` everywhere, syntax colours from
/// `colours`, and `mark` over the byte ranges in `marks`.
pub fn spans(
    line: &str,
    colours: &LineColours,
    base: Style,
    marks: &[Range<usize>],
    mark: Style,
    theme: &Theme,
) -> Vec<Span<'static>> {
    spans_found(
        line,
        colours,
        base,
        (marks, mark),
        (&[], Style::new()),
        theme,
    )
}

/// [`spans`], with `found` (the search's matches) over the word marks in
/// their own style.
pub fn spans_found(
    line: &str,
    colours: &LineColours,
    base: Style,
    (marks, mark): (&[Range<usize>], Style),
    (found, found_style): (&[Range<usize>], Style),
    theme: &Theme,
) -> Vec<Span<'static>> {
    let mut cuts: Vec<usize> = vec![0, line.len()];
    cuts.extend(colours.iter().flat_map(|(_, r)| [r.start, r.end]));
    cuts.extend(marks.iter().flat_map(|r| [r.start, r.end]));
    cuts.extend(found.iter().flat_map(|r| [r.start, r.end]));
    cuts.retain(|&c| c <= line.len() && line.is_char_boundary(c));
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = Vec::with_capacity(cuts.len());
    for w in cuts.windows(2) {
        let (s, e) = (w[0], w[1]);
        let mut style = base;
        if let Some((c, _)) = colours.iter().find(|(_, r)| r.start <= s && s < r.end)
            && let Some(fg) = theme.fg(*c)
        {
            style = style.fg(fg);
        }
        if marks.iter().any(|r| r.start <= s && s < r.end) {
            style = style.patch(mark);
        }
        if found.iter().any(|r| r.start <= s && s < r.end) {
            style = style.patch(found_style);
        }
        out.push(Span::styled(
            crate::tui::shown::sanitize_part(&line[s..e], s == 0),
            style,
        ));
    }
    out
}

/// Byte ranges of words that differ: (in `old`, in `new`).
pub fn word_changes(old: &str, new: &str) -> (Vec<Range<usize>>, Vec<Range<usize>>) {
    use similar::ChangeTag;
    let diff = crate::textdiff::TokenDiff::words(old, new);
    let (mut o, mut n) = (0, 0);
    let (mut dels, mut ins) = (Vec::new(), Vec::new());
    for change in diff.changes() {
        let len = change.value().len();
        match change.tag() {
            ChangeTag::Equal => {
                o += len;
                n += len;
            }
            ChangeTag::Delete => {
                if !change.value().trim().is_empty() {
                    dels.push(o..o + len);
                }
                o += len;
            }
            ChangeTag::Insert => {
                if !change.value().trim().is_empty() {
                    ins.push(n..n + len);
                }
                n += len;
            }
        }
    }
    (dels, ins)
}

/// Splits spans into rows of at most `width` columns (for wrap mode).
pub fn wrap(spans: Vec<Span<'static>>, width: usize) -> Vec<Vec<Span<'static>>> {
    let width = width.max(1);
    let mut rows = vec![Vec::new()];
    let mut used = 0;
    for span in spans {
        let mut piece = String::new();
        for c in span.content.chars() {
            let w = UnicodeWidthStr::width(c.encode_utf8(&mut [0; 4]) as &str);
            if used + w > width && used > 0 {
                if !piece.is_empty()
                    && let Some(r) = rows.last_mut()
                {
                    r.push(Span::styled(std::mem::take(&mut piece), span.style));
                }
                rows.push(Vec::new());
                used = 0;
            }
            piece.push(c);
            used += w;
        }
        if !piece.is_empty()
            && let Some(r) = rows.last_mut()
        {
            r.push(Span::styled(piece, span.style));
        }
    }
    rows
}

/// Columns `spans` take on screen.
pub fn width(spans: &[Span<'_>]) -> usize {
    spans.iter().map(|s| s.content.width()).sum()
}

/// What a row of `width` columns shows of `spans` scrolled `skip` columns
/// to the right: a line cut at the right edge ends in `…` (in `ellipsis`
/// style), so a cut is never mistaken for the line's end. A wide character
/// cut by the left edge is left out.
pub fn clip(
    spans: Vec<Span<'static>>,
    skip: usize,
    width: usize,
    ellipsis: Style,
) -> Vec<Span<'static>> {
    if width == 0 {
        return Vec::new();
    }
    let total = self::width(&spans);
    if skip == 0 && total <= width {
        return spans;
    }
    let cut = total > skip + width;
    let room = if cut { width - 1 } else { width };
    let mut out = Vec::with_capacity(spans.len() + 1);
    let mut col = 0;
    for span in spans {
        let mut piece = String::new();
        for c in span.content.chars() {
            let w = UnicodeWidthStr::width(c.encode_utf8(&mut [0; 4]) as &str);
            if col >= skip && col + w <= skip + room {
                piece.push(c);
            }
            col += w;
        }
        if !piece.is_empty() {
            out.push(Span::styled(piece, span.style));
        }
        if col >= skip + room {
            break;
        }
    }
    if cut {
        // A wide character that did not fit leaves a gap before the mark.
        let shown = self::width(&out);
        out.push(Span::styled(
            format!("{:gap$}…", "", gap = room.saturating_sub(shown)),
            ellipsis,
        ));
    }
    out
}

/// Pads `spans` with spaces in `style` to `width` columns, so a row's
/// background covers the whole pane.
pub fn pad(mut spans: Vec<Span<'static>>, width: usize, style: Style) -> Vec<Span<'static>> {
    let used = self::width(&spans);
    if used < width && style != Style::new() {
        spans.push(Span::styled(" ".repeat(width - used), style));
    }
    spans
}

/// A notice's rows at `width` columns: each of its lines made inert
/// ([`sanitize`]) and word-wrapped, a run of blank lines kept as one (an
/// agent's error text spans several lines).
pub fn notice_rows(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for line in text.trim_end().split('\n') {
        let line = sanitize(line.trim_end_matches('\r'));
        if line.trim().is_empty() && lines.last().is_some_and(|l| l.trim().is_empty()) {
            continue;
        }
        lines.push(line);
    }
    wrap_text(&lines.join("\n"), width)
}

/// Word-wraps plain text to rows of at most `width` columns; a word longer
/// than a row is split. Every row of the text is kept, none is cut.
pub fn wrap_text(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows = Vec::new();
    for line in text.split('\n') {
        let mut row = String::new();
        let mut used = 0;
        for word in line.split_inclusive(' ') {
            let w = word.trim_end().width();
            if used > 0 && used + w > width {
                rows.push(std::mem::take(&mut row).trim_end().to_string());
                used = 0;
            }
            for c in word.chars() {
                let cw = UnicodeWidthStr::width(c.encode_utf8(&mut [0; 4]) as &str);
                if used + cw > width && used > 0 {
                    if c == ' ' {
                        continue;
                    }
                    rows.push(std::mem::take(&mut row));
                    used = 0;
                }
                row.push(c);
                used += cw;
            }
        }
        rows.push(row.trim_end().to_string());
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_keeps_its_lines_and_one_blank_between_paragraphs() {
        let text = "# 1 block failed!\n\n\n## Why\ta\r\nend\n";
        assert_eq!(
            notice_rows(text, 80),
            ["# 1 block failed!", "", "## Why    a", "end"]
        );
    }

    #[test]
    fn escape_sequences_are_inert() {
        let s = sanitize("a\x1b[31mred\x07\tb\r");
        assert!(!s.contains('\x1b'));
        assert!(!s.contains('\x07'));
        assert!(!s.contains('\r'));
        assert_eq!(s, "a␛[31mred␇    b␍");
    }

    /// Bidirectional controls and zero-width characters are drawn as
    /// stand-ins a column each, measured as drawn; a byte-order mark
    /// starting the line is not drawn, one past its start is.
    #[test]
    fn bidi_controls_and_zero_width_characters_are_drawn() {
        let line = "\u{feff}x = \"user\u{202e} \u{2066}//\u{2069}\" + a\u{200b}b";
        let shown = sanitize(line);
        assert_eq!(
            shown,
            "x = \"user⟨U+202E⟩ ⟨U+2066⟩//⟨U+2069⟩\" + a⟨U+200B⟩b"
        );
        assert_eq!(
            UnicodeWidthStr::width(shown.as_str()),
            shown.chars().count()
        );
        let colours: LineColours = Vec::new();
        let theme = Theme::new(super::super::theme::ColourMode::None);
        let spans = spans(
            line,
            &colours,
            Style::default(),
            &[12..15, 15..16],
            Style::default(),
            &theme,
        );
        let drawn: String = spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(drawn, shown);
        // A span starting with U+FEFF past the line's start draws it.
        assert_eq!(
            crate::tui::shown::sanitize_part("\u{feff}a", false),
            "⟨U+FEFF⟩a"
        );
    }

    #[test]
    fn word_changes_find_the_changed_word() {
        let (d, i) = word_changes("let a = 1;", "let b = 1;");
        assert_eq!(d, vec![4..5]);
        assert_eq!(i, vec![4..5]);
    }

    #[test]
    fn wrap_splits_by_width() {
        let rows = wrap(vec![Span::raw("abcdef")], 4);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1][0].content, "ef");
    }

    #[test]
    fn a_cut_line_ends_in_an_ellipsis() {
        let clipped = clip(vec![Span::raw("abcdefgh")], 0, 5, Style::new());
        let text: String = clipped.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "abcd…");
        let shifted = clip(
            vec![Span::raw("ab"), Span::raw("cdefgh")],
            3,
            5,
            Style::new(),
        );
        let text: String = shifted.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "defgh", "the line's end shows: no mark");
        let fits = clip(vec![Span::raw("abc")], 0, 5, Style::new());
        assert_eq!(width(&fits), 3);
        let wide = clip(vec![Span::raw("日本語です")], 0, 6, Style::new());
        let text: String = wide.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "日本 …");
    }

    #[test]
    fn wrapped_text_keeps_every_word() {
        let rows = wrap_text("one two three four", 9);
        assert_eq!(rows, ["one two", "three", "four"]);
        assert_eq!(wrap_text("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap_text("a\nb", 10), ["a", "b"]);
    }
}
