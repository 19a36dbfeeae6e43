//! Where a section's context lies in the file: Cline's `findContext`, with
//! its `canonicalize`, `levenshtein` and `similarity` (the SDK's
//! `apply-patch-parser.ts`).
//!
//! `findContext(fileLines, context, start, eof)` tries four passes, each
//! over every start `i` from `start` to the end of the file, on the window
//! `fileLines.slice(i, i + context.length)` (shorter near the end):
//! 1. `canon(window) == canon(context)` (fuzz 0);
//! 2. the same with every line `trimEnd()`ed (fuzz 1);
//! 3. the same with every line `trim()`ed (fuzz 100);
//! 4. the FIRST window whose `similarity` to the context is at least 0.66
//!    (fuzz 1000), not the most similar one.
//!
//! Otherwise it fails with the best similarity it saw. With `*** End of
//! File` it first searches from `fileLines.length - context.length` (which
//! may be negative: JavaScript's `slice` then counts from the end), then
//! from `start` with 10000 added to the fuzz.
//!
//! Same results, less work: Cline computes a Levenshtein distance for every
//! window in pass 1 only to remember the best similarity, which matters only
//! when every pass fails, and pass 4 then computes the same windows again;
//! the port computes them once, in pass 4, and skips a window whose length
//! alone rules it out. The distance is Hyyrö's bit-parallel form of the
//! same dynamic programme (exact, 64 cells a step).

use std::cell::OnceCell;
use std::collections::HashMap;

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

use super::js;

/// The similarity from which pass 4 accepts a window.
pub const SIMILARITY_THRESHOLD: f64 = 0.66;

/// Fuzz Cline adds for each pass, and for the end-of-file fallback.
pub const FUZZ_TRIM_END: i64 = 1;
pub const FUZZ_TRIM: i64 = 100;
pub const FUZZ_SIMILARITY: i64 = 1000;
pub const FUZZ_EOF_FALLBACK: i64 = 10000;

/// Cline's `canonicalize`: NFC, then the dashes ‐ ‑ ‒ – — − as `-`, the
/// quotes “ ” „ « » as `"` and ‘ ’ ‛ as `'`, NBSP and U+202F as a space,
/// then `` \` `` `\'` `\"` unescaped (each a left-to-right pass).
pub fn canon(text: &str) -> String {
    let composed: String = if is_nfc_quick(text.chars()) == IsNormalized::Yes {
        text.to_string()
    } else {
        text.nfc().collect()
    };
    let mapped: String = composed
        .chars()
        .map(|c| match c {
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}' => '-',
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{AB}' | '\u{BB}' => '"',
            '\u{2018}' | '\u{2019}' | '\u{201B}' => '\'',
            '\u{A0}' | '\u{202F}' => ' ',
            other => other,
        })
        .collect();
    let mut out = mapped;
    for quote in ['`', '\'', '"'] {
        if out.contains('\\') {
            out = unescape(&out, quote);
        }
    }
    out
}

/// `text.replace(/\\Q/g, "Q")` for the character `quote`.
fn unescape(text: &str, quote: char) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek() == Some(&quote) {
            out.push(quote);
            chars.next();
        } else {
            out.push(c);
        }
    }
    out
}

/// A file's lines (`content.split("\n")`) with their canonical forms,
/// computed when first needed and kept for every section of the file.
pub struct FileLines<'a> {
    pub lines: Vec<&'a str>,
    canon: Vec<OnceCell<String>>,
    canon_trim_end: Vec<OnceCell<String>>,
    canon_trim: Vec<OnceCell<String>>,
    canon_units: Vec<OnceCell<Vec<u16>>>,
}

impl<'a> FileLines<'a> {
    pub fn new(content: &'a str) -> Self {
        let lines: Vec<&str> = content.split('\n').collect();
        let cells = || (0..lines.len()).map(|_| OnceCell::new()).collect();
        FileLines {
            canon: cells(),
            canon_trim_end: cells(),
            canon_trim: cells(),
            canon_units: (0..lines.len()).map(|_| OnceCell::new()).collect(),
            lines,
        }
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// `canon(line)`.
    pub fn canon(&self, i: usize) -> &str {
        self.canon[i].get_or_init(|| canon(self.lines[i]))
    }

    /// `canon(line.trimEnd())`.
    fn canon_trim_end(&self, i: usize) -> &str {
        self.canon_trim_end[i].get_or_init(|| canon(js::trim_end(self.lines[i])))
    }

    /// `canon(line.trim())`.
    pub fn canon_trim(&self, i: usize) -> &str {
        self.canon_trim[i].get_or_init(|| canon(js::trim(self.lines[i])))
    }

    fn form(&self, i: usize, form: Form) -> &str {
        match form {
            Form::Canon => self.canon(i),
            Form::TrimEnd => self.canon_trim_end(i),
            Form::Trim => self.canon_trim(i),
        }
    }

    fn canon_units(&self, i: usize) -> &[u16] {
        self.canon_units[i].get_or_init(|| self.canon(i).encode_utf16().collect())
    }
}

/// The line form a pass compares: `canon(line)`, `canon(line.trimEnd())`,
/// `canon(line.trim())`.
#[derive(Clone, Copy)]
enum Form {
    Canon,
    TrimEnd,
    Trim,
}

/// What `findContext` returns: `[index, fuzz, similarity]`. `index` is -1
/// when nothing matched (then `similarity` is the best seen); it may be
/// another negative number when the end-of-file search starts before the
/// file's first line and its similarity pass accepts such a window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found {
    pub index: i64,
    pub fuzz: i64,
    pub similarity: f64,
}

/// A section's context (its kept and deleted lines) in its three
/// canonical forms, and as UTF-16 for the similarity.
struct Context {
    canon: Vec<String>,
    canon_trim_end: Vec<String>,
    canon_trim: Vec<String>,
    pattern: Pattern,
}

/// Cline's `findContext(fileLines, context, start, eof)`.
pub fn find_context(file: &FileLines, context: &[String], start: i64, eof: bool) -> Found {
    if context.is_empty() {
        return Found {
            index: start,
            fuzz: 0,
            similarity: 1.0,
        };
    }
    let canon_lines: Vec<String> = context.iter().map(|l| canon(l)).collect();
    let units: Vec<u16> = canon_lines.join("\n").encode_utf16().collect();
    let context = Context {
        canon_trim_end: context.iter().map(|l| canon(js::trim_end(l))).collect(),
        canon_trim: context.iter().map(|l| canon(js::trim(l))).collect(),
        canon: canon_lines,
        pattern: Pattern::new(&units),
    };
    let mut best = 0.0;
    if eof {
        let at_end = find_core(
            file,
            &context,
            file.len() as i64 - context.canon.len() as i64,
            &mut best,
        );
        if at_end.index != -1 {
            return at_end;
        }
        let fallback = find_core(file, &context, start, &mut best);
        return Found {
            fuzz: fallback.fuzz + FUZZ_EOF_FALLBACK,
            ..fallback
        };
    }
    find_core(file, &context, start, &mut best)
}

/// The four passes from `start`; `best` is the best similarity seen, shared
/// by the two searches of an end-of-file section as in Cline.
fn find_core(file: &FileLines, context: &Context, start: i64, best: &mut f64) -> Found {
    let n = context.canon.len() as i64;
    let len = file.len() as i64;
    let window = |k: i64| js::slice_range(file.len(), k, k + n);
    let passes = [
        (Form::Canon, &context.canon, 0),
        (Form::TrimEnd, &context.canon_trim_end, FUZZ_TRIM_END),
        (Form::Trim, &context.canon_trim, FUZZ_TRIM),
    ];
    for (form, wanted, fuzz) in passes {
        let equal = |k: i64| {
            let (from, to) = window(k);
            to - from == wanted.len()
                && (from..to).zip(wanted).all(|(i, w)| file.form(i, form) == w)
        };
        if let Some(index) = (start..len).find(|&k| equal(k)) {
            return Found {
                index,
                fuzz,
                similarity: 1.0,
            };
        }
    }
    let mut text: Vec<u16> = Vec::new();
    for k in start..len {
        let (from, to) = window(k);
        let text_len: usize = (from..to).map(|i| file.canon_units(i).len()).sum::<usize>()
            + (to - from).saturating_sub(1);
        let pattern_len = context.pattern.len;
        let longer = text_len.max(pattern_len);
        if longer > 0 {
            // The distance is at least the difference in length: skip a
            // window that could neither pass nor beat the best.
            let bound = similarity_of(longer, text_len.abs_diff(pattern_len));
            if bound < SIMILARITY_THRESHOLD && bound <= *best {
                continue;
            }
        }
        text.clear();
        for i in from..to {
            if i > from {
                text.push(u16::from(b'\n'));
            }
            text.extend_from_slice(file.canon_units(i));
        }
        let similarity = if longer == 0 {
            1.0
        } else {
            similarity_of(longer, context.pattern.distance(&text))
        };
        if similarity >= SIMILARITY_THRESHOLD {
            return Found {
                index: k,
                fuzz: FUZZ_SIMILARITY,
                similarity,
            };
        }
        if similarity > *best {
            *best = similarity;
        }
    }
    Found {
        index: -1,
        fuzz: 0,
        similarity: *best,
    }
}

/// Cline's `similarity`: `(longer.length - distance) / longer.length`.
fn similarity_of(longer: usize, distance: usize) -> f64 {
    (longer as f64 - distance as f64) / longer as f64
}

/// Cline's `similarity(a, b)` on two strings (UTF-16 code units; 1 when both
/// are empty).
#[cfg(test)]
fn similarity(a: &str, b: &str) -> f64 {
    let a: Vec<u16> = a.encode_utf16().collect();
    let b: Vec<u16> = b.encode_utf16().collect();
    let longer = a.len().max(b.len());
    if longer == 0 {
        return 1.0;
    }
    similarity_of(longer, Pattern::new(&b).distance(&a))
}

/// A pattern prepared for Hyyrö's bit-parallel Levenshtein distance (the
/// block form of Myers' algorithm, as in edlib): the same number Cline's
/// `levenshtein` computes cell by cell.
struct Pattern {
    len: usize,
    blocks: usize,
    /// `peq[slot * blocks + b]`: the rows of block `b` holding the
    /// character of `slot`.
    peq: Vec<u64>,
    ascii_slot: [u32; 128],
    other_slot: HashMap<u16, u32>,
}

const NO_SLOT: u32 = u32::MAX;

impl Pattern {
    fn new(units: &[u16]) -> Self {
        let blocks = units.len().div_ceil(64).max(1);
        let mut pattern = Pattern {
            len: units.len(),
            blocks,
            peq: Vec::new(),
            ascii_slot: [NO_SLOT; 128],
            other_slot: HashMap::new(),
        };
        for (row, &unit) in units.iter().enumerate() {
            let slot = match pattern.slot(unit) {
                Some(slot) => slot,
                None => {
                    let slot = (pattern.peq.len() / blocks) as u32;
                    pattern.peq.extend(std::iter::repeat_n(0, blocks));
                    if unit < 128 {
                        pattern.ascii_slot[unit as usize] = slot;
                    } else {
                        pattern.other_slot.insert(unit, slot);
                    }
                    slot
                }
            };
            pattern.peq[slot as usize * blocks + row / 64] |= 1u64 << (row % 64);
        }
        pattern
    }

    fn slot(&self, unit: u16) -> Option<u32> {
        let slot = if unit < 128 {
            self.ascii_slot[unit as usize]
        } else {
            *self.other_slot.get(&unit).unwrap_or(&NO_SLOT)
        };
        (slot != NO_SLOT).then_some(slot)
    }

    /// The Levenshtein distance between the pattern and `text`.
    fn distance(&self, text: &[u16]) -> usize {
        if self.len == 0 {
            return text.len();
        }
        let blocks = self.blocks;
        let last_row = 1u64 << ((self.len - 1) % 64);
        let mut positive = vec![!0u64; blocks];
        let mut negative = vec![0u64; blocks];
        let mut score = self.len as i64;
        for &unit in text {
            let slot = self.slot(unit);
            // The top row D[0][j] = j grows by one per column.
            let mut carry: i64 = 1;
            for b in 0..blocks {
                let eq = slot.map_or(0, |s| self.peq[s as usize * blocks + b]);
                let high = if b + 1 == blocks {
                    last_row
                } else {
                    1u64 << 63
                };
                let (pv, mv) = (positive[b], negative[b]);
                let carry_negative = u64::from(carry < 0);
                let xv = eq | mv;
                let eq = eq | carry_negative;
                let xh = ((eq & pv).wrapping_add(pv) ^ pv) | eq;
                let mut ph = mv | !(xh | pv);
                let mut mh = pv & xh;
                let out = if ph & high != 0 {
                    1
                } else if mh & high != 0 {
                    -1
                } else {
                    0
                };
                ph <<= 1;
                mh <<= 1;
                mh |= carry_negative;
                if carry > 0 {
                    ph |= 1;
                }
                positive[b] = mh | !(xv | ph);
                negative[b] = ph & xv;
                carry = out;
            }
            score += carry;
        }
        score.max(0) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::{assert_cases, lines};

    /// Cline's `levenshtein`, cell by cell.
    fn reference_distance(a: &[u16], b: &[u16]) -> usize {
        let mut previous: Vec<usize> = (0..=b.len()).collect();
        for (i, &x) in a.iter().enumerate() {
            let mut current = vec![i + 1; b.len() + 1];
            for (j, &y) in b.iter().enumerate() {
                current[j + 1] = if x == y {
                    previous[j]
                } else {
                    1 + previous[j].min(previous[j + 1]).min(current[j])
                };
            }
            previous = current;
        }
        previous[b.len()]
    }

    #[test]
    fn the_bit_parallel_distance_equals_the_table() {
        let mut seed = 7u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..400 {
            let alphabet = [b'a', b'b', b'c', b'\n', 0xE9];
            let la = (next() % 200) as usize;
            let lb = if round % 3 == 0 {
                la
            } else {
                (next() % 200) as usize
            };
            let a: Vec<u16> = (0..la)
                .map(|_| alphabet[(next() % 5) as usize] as u16)
                .collect();
            let b: Vec<u16> = (0..lb)
                .map(|_| alphabet[(next() % 5) as usize] as u16)
                .collect();
            assert_eq!(
                Pattern::new(&a).distance(&b),
                reference_distance(&a, &b),
                "{a:?} {b:?}"
            );
        }
    }

    #[test]
    fn canonical_forms_fold_dashes_quotes_spaces_and_escapes() {
        assert_cases(
            canon,
            &[
                (
                    "a\u{2014}b \u{201C}q\u{201D} \u{2019}s\u{A0}x",
                    "a-b \"q\" 's x",
                ),
                ("e\u{301}", "\u{E9}"),
                ("\\`a\\' \\\"b\\\"", "`a' \"b\""),
                ("\\\\`", "\\`"),
                // Not mapped: the ellipsis, a thin space, a fullwidth letter.
                ("\u{2026}\u{2009}\u{FF41}", "\u{2026}\u{2009}\u{FF41}"),
            ],
        );
    }

    #[test]
    fn similarity_is_over_the_longer_string() {
        assert_eq!(similarity("", ""), 1.0);
        assert_eq!(similarity("abcd", "abce"), 0.75);
        assert_eq!(similarity("ab", "abcd"), 0.5);
    }

    #[test]
    fn each_pass_has_its_fuzz() {
        let file = FileLines::new("fn a() {\n    x  \n\tyy\n}\n");
        let find = |context: &str| find_context(&file, &lines(context), 0, false);
        assert_eq!(
            (find("    x  \n\tyy").index, find("    x  \n\tyy").fuzz),
            (1, 0)
        );
        assert_eq!(
            (find("    x\n\tyy").index, find("    x\n\tyy").fuzz),
            (1, FUZZ_TRIM_END)
        );
        assert_eq!((find("x\nyy").index, find("x\nyy").fuzz), (1, FUZZ_TRIM));
        let fuzzy = find("    x  \n\tyz");
        assert_eq!((fuzzy.index, fuzzy.fuzz), (1, FUZZ_SIMILARITY));
        let missing = find("completely different");
        assert_eq!(missing.index, -1);
        assert!(missing.similarity < SIMILARITY_THRESHOLD);
    }

    #[test]
    fn similarity_takes_the_first_window_over_the_threshold() {
        // The second window is the exact place, but the first is already
        // 0.66 similar.
        let file = FileLines::new("value = 10\nvalue = 11\nvalue = 12");
        let found = find_context(&file, &lines("value = 1x\nvalue = 12"), 0, false);
        assert_eq!((found.index, found.fuzz), (0, FUZZ_SIMILARITY));
    }

    #[test]
    fn end_of_file_searches_the_end_then_falls_back() {
        let file = FileLines::new("a\nb\nc\n");
        let at_end = find_context(&file, &lines("c\n"), 0, true);
        assert_eq!((at_end.index, at_end.fuzz), (2, 0));
        // With the final newline's empty line, an exact last line is found
        // only by the fallback.
        let fallback = find_context(&file, &lines("b\nc"), 0, true);
        assert_eq!((fallback.index, fallback.fuzz), (1, FUZZ_EOF_FALLBACK));
    }
}
