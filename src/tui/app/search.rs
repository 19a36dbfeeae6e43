//! `/` searches the panes: the query is typed in the footer, Enter goes
//! to the first match from the top of the view, and while the search is
//! active (until Esc) `n`/`N` move between its matches instead of between
//! blocks. Matches are found in the lines the panes show, row by row, in
//! the current layout; the view highlights them.

use std::ops::Range;

use super::rows::SegKind;
use super::{App, Layout, Notice};

/// A search of the panes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Search {
    /// What is searched for, as typed.
    pub query: String,
    /// The query is still being typed (keys go to it, not to the previewer).
    pub typing: bool,
    /// The row of the match the view went to last.
    pub at: Option<usize>,
}

impl Search {
    /// The byte ranges of `line` that match the query: case-insensitive
    /// unless the query has a capital letter (smart case, as in ripgrep
    /// and vim). Empty for an empty query.
    pub fn ranges(&self, line: &str) -> Vec<Range<usize>> {
        find_all(line, &self.query)
    }
}

/// Rows margin kept above a match the view goes to.
const MATCH_MARGIN: usize = 3;

/// Byte ranges of `needle` in `line`, smart case.
pub fn find_all(line: &str, needle: &str) -> Vec<Range<usize>> {
    if needle.is_empty() {
        return Vec::new();
    }
    let fold = !needle.chars().any(char::is_uppercase);
    if !fold {
        return line
            .match_indices(needle)
            .map(|(i, m)| i..i + m.len())
            .collect();
    }
    // Case folded character by character, so the byte offsets found are
    // the line's own (a lowercase form may have another length).
    let needle: Vec<char> = needle.chars().flat_map(char::to_lowercase).collect();
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let mut k = 0;
        let mut j = i;
        while k < needle.len() && j < chars.len() {
            let lower: Vec<char> = chars[j].1.to_lowercase().collect();
            if needle[k..].starts_with(&lower) {
                k += lower.len();
                j += 1;
            } else {
                break;
            }
        }
        if k == needle.len() {
            let end = chars.get(j).map_or(line.len(), |c| c.0);
            out.push(chars[i].0..end);
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

impl App {
    /// Whether a search query is being typed: every key goes to it.
    pub fn search_typing(&self) -> bool {
        self.view.search.as_ref().is_some_and(|s| s.typing)
    }

    /// Whether a search is active (typed and entered): `n`/`N` go to its
    /// matches.
    pub fn search_active(&self) -> bool {
        self.view.search.as_ref().is_some_and(|s| !s.typing)
    }

    /// `/`: starts typing a new query.
    pub fn start_search(&mut self) {
        self.view.search = Some(Search {
            typing: true,
            ..Search::default()
        });
    }

    /// Esc: ends the search (typing or active), highlights gone.
    pub fn end_search(&mut self) {
        if self.view.search.take().is_some() {
            self.notice = Some(Notice {
                text: "search ended: n/N go to blocks again".into(),
                error: false,
            });
        }
    }

    /// Enter while typing: the search becomes active and the view goes to
    /// the first match from the top of the view. An empty query ends it.
    pub fn enter_search(&mut self) {
        let Some(search) = &mut self.view.search else {
            return;
        };
        if search.query.is_empty() {
            self.view.search = None;
            return;
        }
        search.typing = false;
        search.at = None;
        self.next_match(true);
    }

    /// The lines shown on `row` of the current layout: (original line,
    /// result line), 0-based.
    fn row_lines(&self, row: usize) -> (Option<usize>, Option<usize>) {
        let Some((seg, off)) = self.rows().locate(row) else {
            return (None, None);
        };
        let s = &self.segments[seg];
        let unified = self.layout() == Layout::Unified;
        match s.kind {
            // A pending line shows the original's line on both sides.
            SegKind::Pending => (Some(s.orig.start + off), None),
            SegKind::Same if unified => (Some(s.orig.start + off), None),
            SegKind::Same => (Some(s.orig.start + off), Some(s.new.start + off)),
            SegKind::Change { .. } if unified => {
                if off < s.orig.len() {
                    (Some(s.orig.start + off), None)
                } else {
                    (None, Some(s.new.start + off - s.orig.len()))
                }
            }
            SegKind::Change { .. } => (
                (off < s.orig.len()).then(|| s.orig.start + off),
                (off < s.new.len()).then(|| s.new.start + off),
            ),
        }
    }

    /// Every row of the current layout where a pane shows a match.
    pub fn match_rows(&self) -> Vec<usize> {
        let Some(search) = &self.view.search else {
            return Vec::new();
        };
        if search.query.is_empty() {
            return Vec::new();
        }
        let hit = |text: &str| !find_all(text, &search.query).is_empty();
        (0..self.rows().total())
            .filter(|&row| {
                let (o, n) = self.row_lines(row);
                o.is_some_and(|l| hit(&self.original.line(l)))
                    || n.is_some_and(|l| hit(&self.result.line(l)))
            })
            .collect()
    }

    /// `n`/`N` while a search is active: the next (previous) match after
    /// the last one gone to, or from the top of the view; wraps around the
    /// end. Says which match it is, or that there is none.
    pub fn next_match(&mut self, forward: bool) {
        let rows = self.match_rows();
        let Some(search) = &self.view.search else {
            return;
        };
        let query = search.query.clone();
        if rows.is_empty() {
            self.notice = Some(Notice {
                text: format!("/{query}: no match in either pane (Esc ends the search)"),
                error: true,
            });
            return;
        }
        // From the last match gone to while it is on screen, else from the
        // top of the view.
        let view = self.view.scroll..self.view.scroll + self.view.viewport.max(1);
        let from = search.at.filter(|at| view.contains(at));
        let index = match (from, forward) {
            (Some(at), true) => rows.iter().position(|&r| r > at).unwrap_or(0),
            (Some(at), false) => rows.iter().rposition(|&r| r < at).unwrap_or(rows.len() - 1),
            (None, true) => rows
                .iter()
                .position(|&r| r >= self.view.scroll)
                .unwrap_or(0),
            (None, false) => rows
                .iter()
                .rposition(|&r| r < self.view.scroll)
                .unwrap_or(rows.len() - 1),
        };
        let row = rows[index];
        if let Some(search) = &mut self.view.search {
            search.at = Some(row);
        }
        self.view.follow = false;
        self.scroll_to(row.saturating_sub(MATCH_MARGIN));
        self.notice = Some(Notice {
            text: format!(
                "/{query}: match {} of {} (n/N next/previous, Esc ends the search)",
                index + 1,
                rows.len()
            ),
            error: false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::find_all;

    #[test]
    #[allow(clippy::single_range_in_vec_init)]
    fn smart_case_finds_the_lines_own_offsets() {
        assert_eq!(find_all("Foo foo FOO", "foo"), [0..3, 4..7, 8..11]);
        assert_eq!(find_all("Foo foo FOO", "Foo"), [0..3]);
        // A lowercase form of another length keeps the line's offsets.
        assert_eq!(find_all("İx ix", "ix"), [4..6]);
        assert_eq!(find_all("aaa", "aa"), [0..2]);
        assert_eq!(find_all("abc", ""), Vec::<std::ops::Range<usize>>::new());
    }
}
