//! The edit distance OpenCode's BlockAnchorReplacer scores lines with
//! (its `levenshtein`): insertions, deletions and substitutions of UTF-16
//! code units, each costing 1. OpenCode fills the whole matrix; the
//! distance is one number, so this computes the same value faster: common
//! prefix and suffix stripped (they never change the distance), then
//! Myers' bit-parallel algorithm (`crate::dialect::myers`, in 64-row
//! blocks).

use std::collections::HashMap;

/// The Levenshtein distance of `a` and `b` (UTF-16 code units).
pub fn distance(a: &[u16], b: &[u16]) -> usize {
    let (prefix, suffix) = crate::textdiff::shared_ends(a, b);
    let (a, b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let (pattern, text) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if pattern.is_empty() {
        return text.len();
    }
    myers(pattern, text)
}

/// Each pattern unit's bit in each 64-row block.
struct PatternMasks {
    ascii: [u32; 128],
    other: HashMap<u16, u32>,
    /// `masks[symbol * blocks + block]`; symbol 0 matches nothing.
    masks: Vec<u64>,
    blocks: usize,
}

impl PatternMasks {
    fn new(pattern: &[u16]) -> Self {
        let blocks = pattern.len().div_ceil(64);
        let mut table = PatternMasks {
            ascii: [0; 128],
            other: HashMap::new(),
            masks: vec![0; blocks],
            blocks,
        };
        for (row, &unit) in pattern.iter().enumerate() {
            let symbol = match table.symbol(unit) {
                0 => {
                    let fresh = (table.masks.len() / blocks) as u32;
                    table.masks.extend(std::iter::repeat_n(0, blocks));
                    if unit < 128 {
                        table.ascii[usize::from(unit)] = fresh;
                    } else {
                        table.other.insert(unit, fresh);
                    }
                    fresh
                }
                known => known,
            };
            table.masks[symbol as usize * blocks + row / 64] |= 1 << (row % 64);
        }
        table
    }

    fn symbol(&self, unit: u16) -> u32 {
        if unit < 128 {
            self.ascii[usize::from(unit)]
        } else {
            self.other.get(&unit).copied().unwrap_or(0)
        }
    }

    fn block_masks(&self, unit: u16) -> &[u64] {
        let start = self.symbol(unit) as usize * self.blocks;
        &self.masks[start..start + self.blocks]
    }
}

fn myers(pattern: &[u16], text: &[u16]) -> usize {
    let masks = PatternMasks::new(pattern);
    let units = text.iter().copied();
    crate::dialect::myers::distance(pattern.len(), masks.blocks, units, |unit| {
        masks.block_masks(unit)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OpenCode's own full-matrix `levenshtein`, for comparison.
    fn full_matrix(a: &[u16], b: &[u16]) -> usize {
        if a.is_empty() || b.is_empty() {
            return a.len().max(b.len());
        }
        let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in rows.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in rows[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                rows[i][j] = (rows[i - 1][j] + 1)
                    .min(rows[i][j - 1] + 1)
                    .min(rows[i - 1][j - 1] + cost);
            }
        }
        rows[a.len()][b.len()]
    }

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn known_distances() {
        for (a, b, want) in [
            ("kitten", "sitting", 3),
            ("", "abc", 3),
            ("abc", "", 3),
            ("flaw", "lawn", 2),
            ("same", "same", 0),
            ("\u{1F600}", "a", 2),
        ] {
            assert_eq!(distance(&units(a), &units(b)), want, "{a:?} {b:?}");
        }
    }

    #[test]
    fn equals_the_full_matrix_on_generated_strings_of_every_block_count() {
        // A small linear congruential generator: reproducible, no crate.
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move |bound: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % bound
        };
        for round in 0..600 {
            let alphabet = [b'a', b'b', b'c', b' ', b'x'];
            let len_a = next(if round % 3 == 0 { 200 } else { 70 }) as usize;
            let a: Vec<u16> = (0..len_a)
                .map(|_| u16::from(alphabet[next(5) as usize]))
                .collect();
            let mut b = a.clone();
            for _ in 0..next(20) {
                let at = next(b.len() as u64 + 1) as usize;
                match next(3) {
                    0 => b.insert(at, 0x4e00 + next(3) as u16),
                    1 if at < b.len() => {
                        b.remove(at);
                    }
                    _ if at < b.len() => b[at] = u16::from(alphabet[next(5) as usize]),
                    _ => {}
                }
            }
            assert_eq!(distance(&a, &b), full_matrix(&a, &b), "{a:?} {b:?}");
        }
    }
}
