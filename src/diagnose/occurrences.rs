//! Where a SEARCH text occurs in the file, as `str::match_indices` finds it
//! (leftmost first, not overlapping). One scan of the file per block costs
//! blocks × file size (a 10,000-block diff of a 1.8 MB file spent 97% of
//! `check` there); for a diff with many blocks the places are looked up in
//! a table of the file's lines instead, built once, and each candidate is
//! compared byte for byte, so the answer is the scan's.

use std::cell::OnceCell;
use std::collections::HashMap;

use crate::engine::matcher::LineIndex;

/// From this many blocks on, a table of the file's lines answers (building
/// it costs about one scan of the file).
pub const TABLE_FROM_BLOCKS: usize = 16;

/// How many bytes of a line's end a table keys a one-line SEARCH text by:
/// the longest that fits it, so lines that end alike (`.map_err(wrap)?;`)
/// are told apart by more of their text.
const TAILS: [usize; 4] = [8, 16, 32, 64];

/// The occurrences of SEARCH texts in one file.
pub struct Occurrences<'a> {
    index: &'a LineIndex<'a>,
    use_table: bool,
    table: OnceCell<Table<'a>>,
}

/// The file's lines (without `\n`) by text, and (each built when first
/// asked) by their last `TAILS[t]` bytes, for lines at least that long.
struct Table<'a> {
    lines: HashMap<&'a str, Vec<u32>>,
    tails: [OnceCell<HashMap<&'a [u8], Vec<u32>>>; 4],
}

impl<'a> Occurrences<'a> {
    /// `blocks`: how many blocks the diff has (see [`TABLE_FROM_BLOCKS`]).
    pub fn new(index: &'a LineIndex<'a>, blocks: usize) -> Self {
        Occurrences {
            index,
            use_table: blocks >= TABLE_FROM_BLOCKS,
            table: OnceCell::new(),
        }
    }

    /// Byte offsets of `search` in the file, as
    /// `text.match_indices(search)` gives them.
    pub fn of(&self, search: &str) -> Vec<usize> {
        let text = self.index.text();
        if !self.use_table {
            return text.match_indices(search).map(|(at, _)| at).collect();
        }
        let Some(body) = search.strip_suffix('\n') else {
            return text.match_indices(search).map(|(at, _)| at).collect();
        };
        let lines: Vec<&str> = body.split('\n').collect();
        let (first, last) = (lines[0], lines[lines.len() - 1]);
        let table = self.table.get_or_init(|| Table::new(self.index));
        // A candidate is the line the match starts in: its end holds the
        // first SEARCH line.
        let starts: Vec<usize> = if lines.len() >= 2 {
            // The last SEARCH line is a whole line of the file.
            let k = lines.len() - 1;
            table
                .lines
                .get(last)
                .map(|js| {
                    js.iter()
                        .filter_map(|&j| (j as usize).checked_sub(k))
                        .collect()
                })
                .unwrap_or_default()
        } else if let Some(t) = TAILS.iter().rposition(|&n| first.len() >= n) {
            let key = &first.as_bytes()[first.len() - TAILS[t]..];
            table
                .tails(self.index, t)
                .get(key)
                .map(|js| js.iter().map(|&j| j as usize).collect())
                .unwrap_or_default()
        } else {
            return text.match_indices(search).map(|(at, _)| at).collect();
        };
        let mut found: Vec<usize> = starts
            .into_iter()
            .filter_map(|s| {
                let line = self.index.line(s);
                let at = (self.index.line_start(s) + line.len()).checked_sub(first.len())?;
                text.get(at..)?.starts_with(search).then_some(at)
            })
            .collect();
        found.sort_unstable();
        found.dedup();
        // Leftmost first, none overlapping the one before, as the scan.
        let mut end = 0;
        found.retain(|&at| {
            let keep = at >= end;
            if keep {
                end = at + search.len();
            }
            keep
        });
        found
    }
}

impl<'a> Table<'a> {
    fn new(index: &'a LineIndex<'a>) -> Self {
        let count = index.line_count();
        let mut lines: HashMap<&str, Vec<u32>> = HashMap::with_capacity(count);
        for i in 0..count {
            lines.entry(index.line(i)).or_default().push(i as u32);
        }
        Table {
            lines,
            tails: Default::default(),
        }
    }

    /// The lines by their last `TAILS[t]` bytes.
    fn tails(&self, index: &'a LineIndex<'a>, t: usize) -> &HashMap<&'a [u8], Vec<u32>> {
        self.tails[t].get_or_init(|| {
            let n = TAILS[t];
            let mut tails: HashMap<&[u8], Vec<u32>> = HashMap::new();
            for i in 0..index.line_count() {
                let line = index.line(i).as_bytes();
                if line.len() >= n {
                    tails
                        .entry(&line[line.len() - n..])
                        .or_default()
                        .push(i as u32);
                }
            }
            tails
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's answer is the scan's, for texts of one and several
    /// lines, inside longer lines, overlapping, and at the file's end.
    #[test]
    fn the_table_answers_as_the_scan() {
        let text = "}\n}\n}\nfn a() {\n    let max_value = 1;\n    let value = 1;\n}\naaaaaaaaaa\naaaaaaaaaa\nbbaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\nlast line no newline";
        let index = LineIndex::new(text);
        let scan = Occurrences::new(&index, 0);
        let table = Occurrences::new(&index, TABLE_FROM_BLOCKS);
        for search in [
            "}\n",
            "}\n}\n",
            "value = 1;\n",
            "    let value = 1;\n}\n",
            "let max_value = 1;\n    let value = 1;\n",
            "aaaaaaaa\n",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
            "    let max_value = 1;\n",
            "aaaaaaaaaa\naaaaaaaaaa\n",
            "aaaaa\naaaaaaaaaa\n",
            "last line no newline",
            "no newline\n",
            "\n",
            "absent from the file\n",
        ] {
            assert_eq!(table.of(search), scan.of(search), "{search:?}");
        }
        assert_eq!(table.of("value = 1;\n").len(), 2);
    }

    /// Random files of a few alike lines, and SEARCH texts cut from them at
    /// any byte: the table agrees with the scan on every one.
    #[test]
    fn the_table_agrees_on_random_texts() {
        let pieces = [
            "}",
            "    }",
            "x = 1;",
            "    let x = 1;",
            "        return value.map_err(wrap)?;",
            "    return value.map_err(wrap)?;",
            "",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..200 {
            let lines: Vec<&str> = (0..30).map(|_| pieces[next(pieces.len())]).collect();
            let text = lines.join("\n") + "\n";
            let index = LineIndex::new(&text);
            let scan = Occurrences::new(&index, 0);
            let table = Occurrences::new(&index, TABLE_FROM_BLOCKS);
            for _ in 0..20 {
                let a = next(text.len());
                let b = (a + 1 + next(120)).min(text.len());
                let search = &text[a..b];
                assert_eq!(table.of(search), scan.of(search), "{search:?} in {text:?}");
                // Ending at a line's end, as a SEARCH text does.
                if let Some(end) = text[a..].find('\n') {
                    let search = &text[a..=a + end];
                    assert_eq!(table.of(search), scan.of(search), "{search:?}");
                }
            }
        }
    }
}
