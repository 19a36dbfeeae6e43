//! The Levenshtein distance `fast-levenshtein`'s `get(a, b)` computes
//! (unit costs, over UTF-16 code units), with Myers' bit-parallel algorithm
//! (`crate::dialect::myers`): the pattern is prepared once and each text
//! costs `len(text) * ceil(len(pattern) / 64)` word operations instead of
//! the agent's `len(text) * len(pattern)` cells.
//! The distance is the same number (it is symmetric, so which side is the
//! pattern does not matter).

/// A pattern prepared for repeated distance queries.
pub struct Pattern {
    len: usize,
    blocks: usize,
    /// Per code unit below 256, its slot in `masks` (0: not in the
    /// pattern). A table of every code unit (256 KiB, zeroed per pattern)
    /// cost a listing of a Gemini session a third of its time.
    low: Box<[u32; 256]>,
    /// The pattern's other code units and their slots, sorted by unit.
    high: Vec<(u16, u32)>,
    /// `blocks` match words per slot; slot 0 is all zeros.
    masks: Vec<u64>,
}

impl Pattern {
    pub fn new(units: &[u16]) -> Self {
        let blocks = units.len().div_ceil(64).max(1);
        let mut low = Box::new([0u32; 256]);
        let mut high: Vec<(u16, u32)> = Vec::new();
        let mut masks = vec![0u64; blocks];
        for (i, &unit) in units.iter().enumerate() {
            let next = (masks.len() / blocks) as u32;
            let slot = if unit < 256 {
                let slot = &mut low[usize::from(unit)];
                if *slot == 0 {
                    *slot = next;
                }
                *slot
            } else {
                match high.binary_search_by_key(&unit, |&(u, _)| u) {
                    Ok(at) => high[at].1,
                    Err(at) => {
                        high.insert(at, (unit, next));
                        next
                    }
                }
            };
            if slot == next {
                masks.extend(std::iter::repeat_n(0, blocks));
            }
            masks[slot as usize * blocks + i / 64] |= 1 << (i % 64);
        }
        Pattern {
            len: units.len(),
            blocks,
            low,
            high,
            masks,
        }
    }

    /// `unit`'s slot in `masks` (0: not in the pattern).
    fn slot(&self, unit: u16) -> usize {
        if unit < 256 {
            self.low[usize::from(unit)] as usize
        } else {
            self.high
                .binary_search_by_key(&unit, |&(u, _)| u)
                .map_or(0, |at| self.high[at].1 as usize)
        }
    }

    /// The edit distance between the pattern and `text` (code units).
    pub fn distance(&self, text: impl Iterator<Item = u16>) -> usize {
        if self.len == 0 {
            return text.count();
        }
        crate::dialect::myers::distance(self.len, self.blocks, text, |unit| {
            let slot = self.slot(unit) * self.blocks;
            &self.masks[slot..slot + self.blocks]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    fn naive(a: &[u16], b: &[u16]) -> usize {
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for i in 1..=a.len() {
            let mut previous = row[0];
            row[0] = i;
            for j in 1..=b.len() {
                let current = row[j];
                let cost = usize::from(a[i - 1] != b[j - 1]);
                row[j] = (row[j] + 1).min(row[j - 1] + 1).min(previous + cost);
                previous = current;
            }
        }
        row[b.len()]
    }

    #[test]
    fn equals_the_dynamic_programme_across_blocks() {
        let long_a: String = (0..150)
            .map(|i| ((i * 7 % 26) as u8 + b'a') as char)
            .collect();
        let long_b: String = (0..140)
            .map(|i| ((i * 5 % 23) as u8 + b'a') as char)
            .collect();
        let pairs = [
            ("", ""),
            ("abc", ""),
            ("", "abc"),
            ("kitten", "sitting"),
            ("flaw", "lawn"),
            (long_a.as_str(), long_b.as_str()),
            (long_a.as_str(), &long_a[3..]),
            (&long_b[..64], &long_b[1..65]),
            // Code units above 255 (smart quotes, dashes, CJK, a surrogate
            // pair) beside ASCII ones.
            ("“quoted” – ok", "\"quoted\" - ok"),
            ("数据 “x” 数", "数据 \"x\" 数据"),
            ("emoji 😀 é", "emoji 😃 e"),
        ];
        for (a, b) in pairs {
            let (a, b) = (units(a), units(b));
            let expected = naive(&a, &b);
            assert_eq!(Pattern::new(&a).distance(b.iter().copied()), expected);
            assert_eq!(Pattern::new(&b).distance(a.iter().copied()), expected);
        }
    }
}
