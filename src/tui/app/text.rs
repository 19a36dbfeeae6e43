//! A text with its line table, built once per version of the text, so any
//! line is reachable quickly when a frame is drawn.
//!
//! On a big file the line tables and copies of the text are most of the
//! previewer's memory, so nothing is held twice: the original reads its lines
//! through the engine's own line index, and a result is the engine's splice
//! of the original (a few pieces per block), its lines found through the
//! original's table.

use std::borrow::Cow;
use std::sync::Arc;

use super::spliced_lines::SplicedLines;
use crate::engine::Spliced;
use crate::engine::matcher::{LineIndex, count_newlines};
use crate::engine::offsets::Offsets;

/// Text split on `\n` for display. A final `\n` does not open an extra
/// (empty) display line.
#[derive(Clone)]
pub struct TextLines {
    body: Body,
}

#[derive(Clone)]
enum Body {
    /// The engine's index of the original: its table is the line table.
    Indexed(Arc<LineIndex<'static>>),
    /// Text held here (a whole-file write, a test).
    Owned { text: String, starts: Offsets },
    /// New content as pieces of the indexed original plus inserted text.
    Spliced {
        index: Arc<LineIndex<'static>>,
        content: Spliced,
        lines: SplicedLines,
    },
}

impl Default for TextLines {
    fn default() -> Self {
        Self::owned(String::new())
    }
}

impl std::fmt::Debug for TextLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextLines")
            .field("bytes", &self.text_len())
            .field("lines", &self.len())
            .finish()
    }
}

/// Same text (tests and effects compare contents).
impl PartialEq for TextLines {
    fn eq(&self, other: &Self) -> bool {
        self.text_len() == other.text_len() && self.text() == other.text()
    }
}

impl Eq for TextLines {}

impl TextLines {
    /// Lines read through `index` (no table of their own).
    pub fn indexed(index: Arc<LineIndex<'static>>) -> Self {
        TextLines {
            body: Body::Indexed(index),
        }
    }

    /// A text owned here.
    pub fn owned(text: String) -> Self {
        let starts = line_starts(&text);
        TextLines {
            body: Body::Owned { text, starts },
        }
    }

    /// `content`, spliced over the text `index` holds. Its lines are found
    /// through the original's table and the inserted text, not a table of
    /// its own.
    pub fn spliced(index: Arc<LineIndex<'static>>, content: Spliced) -> Self {
        let lines = SplicedLines::new(&index, &content);
        TextLines {
            body: Body::Spliced {
                index,
                content,
                lines,
            },
        }
    }

    /// The whole text: borrowed, except for a spliced result, which is
    /// copied (only done on demand, never per frame).
    pub fn text(&self) -> Cow<'_, str> {
        match &self.body {
            Body::Indexed(index) => Cow::Borrowed(index.text()),
            Body::Owned { text, .. } => Cow::Borrowed(text),
            Body::Spliced { index, content, .. } => Cow::Owned(content.to_text(index.text())),
        }
    }

    /// The text's pieces in order (for writing without a copy).
    pub fn chunks(&self) -> Vec<&str> {
        match &self.body {
            Body::Indexed(index) => vec![index.text()],
            Body::Owned { text, .. } => vec![text],
            Body::Spliced { index, content, .. } => content.chunks(index.text()).collect(),
        }
    }

    pub fn text_len(&self) -> usize {
        match &self.body {
            Body::Indexed(index) => index.text().len(),
            Body::Owned { text, .. } => text.len(),
            Body::Spliced { content, .. } => content.len(),
        }
    }

    /// A length of text both start with: exact for two splices of one
    /// original and for owned texts; 0 otherwise (e.g. across a reload),
    /// rather than copying a spliced text to compare it.
    pub fn common_prefix(&self, other: &TextLines) -> usize {
        match (&self.body, &other.body) {
            (
                Body::Spliced {
                    index: a,
                    content: x,
                    ..
                },
                Body::Spliced {
                    index: b,
                    content: y,
                    ..
                },
            ) if Arc::ptr_eq(a, b) => x.first_difference(y, a.text()),
            (Body::Spliced { .. }, _) | (_, Body::Spliced { .. }) => 0,
            _ => {
                let (a, b) = (self.text(), other.text());
                a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
            }
        }
    }

    /// Number of `\n`: the lines ending in one (the "complete" lines of a
    /// streaming result).
    pub fn complete_len(&self) -> usize {
        match &self.body {
            Body::Indexed(index) => index.line_count() - 1,
            Body::Owned { starts, .. } => starts.len() - 1,
            Body::Spliced { lines, .. } => lines.newlines(),
        }
    }

    /// Lines shown: every `\n`-terminated line plus a non-empty unterminated tail.
    pub fn len(&self) -> usize {
        let terminated = self.complete_len();
        if self.text_len() > self.line_start(terminated) {
            terminated + 1
        } else {
            terminated
        }
    }

    /// Line `i` without its newline (empty past the end).
    pub fn line(&self, i: usize) -> Cow<'_, str> {
        if i > self.complete_len() {
            return Cow::Borrowed("");
        }
        let start = self.line_start(i);
        let end = if i < self.complete_len() {
            self.line_start(i + 1) - 1
        } else {
            self.text_len()
        };
        match &self.body {
            Body::Indexed(index) => Cow::Borrowed(&index.text()[start..end]),
            Body::Owned { text, .. } => Cow::Borrowed(&text[start..end]),
            Body::Spliced { index, content, .. } => content.slice(index.text(), start, end),
        }
    }

    /// 0-based line containing byte `offset` (clamped to the text).
    pub fn line_of(&self, offset: usize) -> usize {
        match &self.body {
            Body::Indexed(index) => index.line_of(offset),
            Body::Owned { starts, .. } => starts
                .partition_point(starts.len(), |s| s <= offset)
                .saturating_sub(1),
            Body::Spliced {
                index,
                content,
                lines,
            } => lines.line_of(index, content, offset),
        }
    }

    /// Byte offset where line `i` starts (text length past the end).
    pub fn line_start(&self, i: usize) -> usize {
        match &self.body {
            Body::Indexed(index) if i < index.line_count() => index.line_start(i),
            Body::Indexed(index) => index.text().len(),
            Body::Owned { text, starts } => starts.get(i).unwrap_or(text.len()),
            Body::Spliced {
                index,
                content,
                lines,
            } => lines.line_start(index, content, i).unwrap_or(content.len()),
        }
    }
}

/// 0 and the offset after every `\n`, in a table of exactly that size.
fn line_starts(text: &str) -> Offsets {
    let count = count_newlines(text.as_bytes());
    let mut starts = Offsets::with_capacity(count + 1, text.len());
    starts.push(0);
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    starts
}

/// Whether most (over half) of `text`'s lines end in CRLF: the file's own line ending,
/// which the panes do not mark (only a line ending otherwise is marked).
pub fn mostly_crlf(text: &str) -> bool {
    let bytes = text.as_bytes();
    let (mut lf, mut crlf) = (0usize, 0usize);
    for at in memchr::memchr_iter(b'\n', bytes) {
        lf += 1;
        crlf += usize::from(at > 0 && bytes[at - 1] == b'\r');
    }
    crlf * 2 > lf
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Version, session::Session};

    /// `diff` applied by the engine to `index`'s text, as a splice.
    fn spliced_result(index: &Arc<LineIndex<'static>>, diff: &str) -> crate::engine::Spliced {
        let mut session = Session::with_index(Arc::clone(index), Version::V1);
        session.push(diff);
        session
            .outcome_spliced(true)
            .result
            .expect("applies")
            .new_content
    }

    fn all_views(text: &str) -> Vec<TextLines> {
        let index = Arc::new(LineIndex::owned(text.to_string()));
        // A splice that reproduces the text: the whole original.
        let content = spliced_result(&index, "");
        vec![
            TextLines::owned(text.to_string()),
            TextLines::indexed(Arc::clone(&index)),
            TextLines::spliced(index, content),
        ]
    }

    #[test]
    fn counts_display_lines() {
        for text in ["", "a\n", "a\nb", "\n\n", "x"] {
            let views = all_views(text);
            let want = &views[0];
            for t in &views {
                assert_eq!(t.text(), text);
                assert_eq!(
                    (t.len(), t.complete_len()),
                    (want.len(), want.complete_len())
                );
                for i in 0..4 {
                    assert_eq!(t.line(i), want.line(i), "{text:?} line {i}");
                    assert_eq!(t.line_start(i), want.line_start(i), "{text:?} start {i}");
                }
                for o in 0..=text.len() + 1 {
                    assert_eq!(t.line_of(o), want.line_of(o), "{text:?} offset {o}");
                }
            }
        }
        let t = TextLines::owned("a\nb".into());
        assert_eq!((t.len(), t.complete_len()), (2, 1));
        assert_eq!(t.line(1), "b");
        assert_eq!(t.line(5), "");
        assert_eq!(t.line_of(2), 1);
        assert_eq!(TextLines::default().len(), 0);
    }

    #[test]
    fn spliced_lines_match_the_copied_text() {
        let original = "fn a() {\n    one();\n}\nfn b() {\n    two();\n}\n";
        let index = Arc::new(LineIndex::owned(original.to_string()));
        // One replacement joined mid-line (exact match inside a line).
        let content = spliced_result(
            &index,
            "------- SEARCH\none();\n}\n=======\nONE();\n}\n// added\n+++++++ REPLACE\n",
        );
        let text = content.to_text(original);
        let spliced = TextLines::spliced(Arc::clone(&index), content);
        let owned = TextLines::owned(text.clone());
        assert_eq!(spliced.text(), text);
        assert_eq!(spliced.len(), owned.len());
        for i in 0..=owned.len() {
            assert_eq!(spliced.line(i), owned.line(i), "line {i}");
            assert_eq!(spliced.line_start(i), owned.line_start(i));
        }
        assert_eq!(spliced.chunks().concat(), text);
        assert_eq!(spliced.common_prefix(&spliced.clone()), text.len());
        assert_eq!(spliced.common_prefix(&owned), 0);
    }
}
