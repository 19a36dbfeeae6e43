//! A text with its line table, built once per version of the text, so any
//! line is reachable in O(1) when a frame is drawn.

use std::sync::Arc;

/// Owned text split on `\n` for display. A final `\n` does not open an extra
/// (empty) display line.
#[derive(Debug, Clone, Default)]
pub struct TextLines {
    text: Text,
    starts: Vec<usize>,
}

/// Shared with the engine session (the original), or owned (a result, moved
/// in without a copy: on a big file a copy per update sets the memory peak).
#[derive(Debug, Clone)]
enum Text {
    Shared(Arc<str>),
    Owned(String),
}

impl Default for Text {
    fn default() -> Self {
        Text::Owned(String::new())
    }
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            Text::Shared(s) => s,
            Text::Owned(s) => s,
        }
    }
}

impl TextLines {
    /// A text others share (see [`TextLines::shared`]).
    pub fn new(text: impl Into<Arc<str>>) -> Self {
        Self::index(Text::Shared(text.into()))
    }

    /// A text owned here, taken without copying.
    pub fn owned(text: String) -> Self {
        Self::index(Text::Owned(text))
    }

    fn index(text: Text) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        TextLines { text, starts }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The shared text, for whoever else needs to hold it (no copy unless
    /// the text is owned).
    pub fn shared(&self) -> Arc<str> {
        match &self.text {
            Text::Shared(s) => Arc::clone(s),
            Text::Owned(s) => Arc::from(s.as_str()),
        }
    }

    /// Lines shown: every `\n`-terminated line plus a non-empty unterminated tail.
    pub fn len(&self) -> usize {
        let terminated = self.starts.len() - 1;
        if self.text.len() > self.starts[terminated] {
            terminated + 1
        } else {
            terminated
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Lines ending in `\n` (the "complete" lines of a streaming result).
    pub fn complete_len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Line `i` without its newline (empty past the end).
    pub fn line(&self, i: usize) -> &str {
        let Some(&start) = self.starts.get(i) else {
            return "";
        };
        let end = self.starts.get(i + 1).map_or(self.text.len(), |&e| e - 1);
        &self.text[start..end.max(start)]
    }

    /// 0-based line containing byte `offset` (clamped to the text).
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// Byte offset where line `i` starts (text length past the end).
    pub fn line_start(&self, i: usize) -> usize {
        self.starts.get(i).copied().unwrap_or(self.text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_display_lines() {
        assert_eq!(TextLines::new(String::new()).len(), 0);
        assert_eq!(TextLines::new("a\n").len(), 1);
        let t = TextLines::new("a\nb");
        assert_eq!((t.len(), t.complete_len()), (2, 1));
        assert_eq!(t.line(1), "b");
        assert_eq!(t.line(5), "");
        assert_eq!(t.line_of(2), 1);
    }
}
