//! Myers' bit-parallel edit distance (G. Myers 1999, in the block form of
//! Hyyrö 2003 / edlib) over UTF-16 code units: unit costs for insertions,
//! deletions and substitutions, `len(text) * ceil(len(pattern) / 64)` word
//! operations instead of a full matrix's `len(text) * len(pattern)` cells.
//! The agents' matchers that port a JavaScript `levenshtein` (Gemini CLI's
//! `fast-levenshtein`, OpenCode's own) compute its number with it; each
//! keeps its own table of the pattern's match masks, built for how it is
//! asked (one pattern against many windows, or one pair of lines).

/// The edit distance between a pattern of `len` code units (`len > 0`) and
/// `text`. `masks(unit)`: the rows of the pattern holding `unit`, as
/// `blocks` (`ceil(len / 64)`) words of 64 rows each, all zero for a unit
/// the pattern does not hold.
pub(super) fn distance<'m>(
    len: usize,
    blocks: usize,
    text: impl IntoIterator<Item = u16>,
    masks: impl Fn(u16) -> &'m [u64],
) -> usize {
    let last_row = 1u64 << ((len - 1) % 64);
    let mut positive = vec![!0u64; blocks];
    let mut negative = vec![0u64; blocks];
    let mut score = len as isize;
    for unit in text {
        let eqs = masks(unit);
        // The horizontal delta entering block 0: the top row (row 0) grows
        // by one per text unit (a global distance).
        let mut carry: i8 = 1;
        for b in 0..blocks {
            let out_bit = if b + 1 == blocks { last_row } else { 1 << 63 };
            let pv = positive[b];
            let mv = negative[b];
            let mut eq = eqs[b];
            let xv = eq | mv;
            if carry < 0 {
                eq |= 1;
            }
            let xh = ((eq & pv).wrapping_add(pv) ^ pv) | eq;
            let mut ph = mv | !(xh | pv);
            let mut mh = pv & xh;
            let out: i8 = if ph & out_bit != 0 {
                1
            } else if mh & out_bit != 0 {
                -1
            } else {
                0
            };
            ph <<= 1;
            mh <<= 1;
            if carry < 0 {
                mh |= 1;
            } else if carry > 0 {
                ph |= 1;
            }
            positive[b] = mh | !(xv | ph);
            negative[b] = ph & xv;
            carry = out;
        }
        score += isize::from(carry);
    }
    score as usize
}
