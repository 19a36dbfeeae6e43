//! The line diff Aider's udiff applier takes from diff-match-patch
//! (`search_replace.diff_lines`: `diff_linesToChars`, `diff_main`,
//! `diff_cleanupSemantic`, `diff_cleanupEfficiency`, `diff_charsToLines`),
//! ported from the Python package Aider 0.86.2 ships with
//! (diff_match_patch 20241021, `Diff_Timeout` 5 s, `Diff_EditCost` 4).
//!
//! diff-match-patch diffs strings; here each line is one code unit, as
//! `diff_linesToChars` makes it (`chr(n)` for the n-th distinct line), kept
//! as a `u32` so that any line count fits. Aider calls `diff_main` with
//! `checklines` None, so its line mode (past 100 lines) never runs. The semantic clean-up scores
//! those characters as Python would (`isalnum`, `isspace`, `\n` and `\r`
//! being the 10th and 13th distinct lines); `isalnum` is Rust's
//! `is_alphanumeric`, which differs from Python's only on a few marks and
//! symbols (code points past 800: files of that many distinct lines).

use std::time::{Duration, Instant};

use super::pytext::is_space;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Delete,
    Insert,
    Equal,
}

type Text = Vec<u32>;
type Diff = (Op, Text);

const NEWLINE: u32 = '\n' as u32;
const RETURN: u32 = '\r' as u32;
const EDIT_COST: usize = 4;

/// `diff_lines(search_text, replace_text)`: each line of the diff with its
/// op (`-`, `+`, ` `) in front, split again as Python's `splitlines`.
pub fn diff_lines(search: &str, replace: &str) -> Vec<String> {
    // diff_linesToChars: each distinct line (up to and with its `\n`) is
    // its index, from 1, in the order of first appearance.
    let mut table: Vec<&str> = vec![""];
    let mut index: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
    let mut chars = [Vec::new(), Vec::new()];
    for (text, out) in [search, replace].into_iter().zip(chars.iter_mut()) {
        for line in text.split_inclusive('\n') {
            let id = *index.entry(line).or_insert_with(|| {
                table.push(line);
                (table.len() - 1) as u32
            });
            out.push(id);
        }
    }
    let [chars1, chars2] = chars;
    let deadline = Instant::now() + Duration::from_secs(5);
    // `diff_main(search_lines, replace_lines, None)`: checklines is None,
    // so no line mode.
    let mut diffs = diff_main(&chars1, &chars2, deadline);
    cleanup_semantic(&mut diffs);
    cleanup_efficiency(&mut diffs);
    let mut out = Vec::new();
    for (op, text) in diffs {
        let prefix = match op {
            Op::Delete => '-',
            Op::Insert => '+',
            Op::Equal => ' ',
        };
        let joined: String = text.iter().map(|&c| table[c as usize]).collect();
        for line in super::pytext::splitlines_keepends(&joined) {
            out.push(format!("{prefix}{line}"));
        }
    }
    out
}

fn find(haystack: &[u32], needle: &[u32], from: usize) -> Option<usize> {
    if needle.is_empty() {
        return (from <= haystack.len()).then_some(from);
    }
    if from > haystack.len() {
        return None;
    }
    haystack[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|at| at + from)
}

fn concat(a: &[u32], b: &[u32]) -> Text {
    let mut out = Vec::with_capacity(a.len() + b.len());
    out.extend_from_slice(a);
    out.extend_from_slice(b);
    out
}

fn diff_main(text1: &[u32], text2: &[u32], deadline: Instant) -> Vec<Diff> {
    if text1 == text2 {
        if text1.is_empty() {
            return Vec::new();
        }
        return vec![(Op::Equal, text1.to_vec())];
    }
    let prefix = common_prefix(text1, text2);
    let common_prefix_text = &text1[..prefix];
    let (text1, text2) = (&text1[prefix..], &text2[prefix..]);
    let suffix = common_suffix(text1, text2);
    let common_suffix_text = &text1[text1.len() - suffix..];
    let (text1, text2) = (
        &text1[..text1.len() - suffix],
        &text2[..text2.len() - suffix],
    );
    let mut diffs = compute(text1, text2, deadline);
    if prefix > 0 {
        diffs.insert(0, (Op::Equal, common_prefix_text.to_vec()));
    }
    if suffix > 0 {
        diffs.push((Op::Equal, common_suffix_text.to_vec()));
    }
    cleanup_merge(&mut diffs);
    diffs
}

fn compute(text1: &[u32], text2: &[u32], deadline: Instant) -> Vec<Diff> {
    if text1.is_empty() {
        return vec![(Op::Insert, text2.to_vec())];
    }
    if text2.is_empty() {
        return vec![(Op::Delete, text1.to_vec())];
    }
    let (long, short) = if text1.len() > text2.len() {
        (text1, text2)
    } else {
        (text2, text1)
    };
    if let Some(i) = find(long, short, 0) {
        let edge = if text1.len() > text2.len() {
            Op::Delete
        } else {
            Op::Insert
        };
        return vec![
            (edge, long[..i].to_vec()),
            (Op::Equal, short.to_vec()),
            (edge, long[i + short.len()..].to_vec()),
        ];
    }
    if short.len() == 1 {
        return vec![(Op::Delete, text1.to_vec()), (Op::Insert, text2.to_vec())];
    }
    if let Some((text1_a, text1_b, text2_a, text2_b, mid)) = half_match(text1, text2) {
        let mut diffs = diff_main(&text1_a, &text2_a, deadline);
        diffs.push((Op::Equal, mid));
        diffs.extend(diff_main(&text1_b, &text2_b, deadline));
        return diffs;
    }
    bisect(text1, text2, deadline)
}

/// Where diagonal `k` starts at step `d` of one direction's search (`v`
/// its furthest x per diagonal, `k_offset` the index of `k`): one on from
/// the diagonal above, or down from the one below, whichever reached
/// further.
fn step_x(v: &[isize], k_offset: usize, k: isize, d: isize) -> isize {
    if k == -d || (k != d && v[k_offset - 1] < v[k_offset + 1]) {
        v[k_offset + 1]
    } else {
        v[k_offset - 1] + 1
    }
}

/// Diagonal `k` of one direction's search at step `d`: from where it
/// starts ([`step_x`]) on along the snake while `same(x, y)` (the texts
/// agree there, read from that direction's end), both under `lens`; the
/// furthest x stored in `v`. The x and y reached.
fn snake(
    v: &mut [isize],
    k_offset: usize,
    k: isize,
    d: isize,
    (len1, len2): (isize, isize),
    same: impl Fn(isize, isize) -> bool,
) -> (isize, isize) {
    let mut x = step_x(v, k_offset, k, d);
    let mut y = x - k;
    while x < len1 && y < len2 && same(x, y) {
        x += 1;
        y += 1;
    }
    v[k_offset] = x;
    (x, y)
}

fn bisect(text1: &[u32], text2: &[u32], deadline: Instant) -> Vec<Diff> {
    let (len1, len2) = (text1.len() as isize, text2.len() as isize);
    let max_d = (len1 + len2 + 1) / 2;
    let v_offset = max_d;
    let v_length = 2 * max_d;
    let mut v1 = vec![-1isize; v_length as usize];
    v1[(v_offset + 1) as usize] = 0;
    let mut v2 = v1.clone();
    let delta = len1 - len2;
    let front = delta % 2 != 0;
    let (mut k1start, mut k1end, mut k2start, mut k2end) = (0, 0, 0, 0);
    for d in 0..max_d {
        if Instant::now() > deadline {
            break;
        }
        let mut k1 = -d + k1start;
        while k1 < d + 1 - k1end {
            let k1_offset = (v_offset + k1) as usize;
            let (x1, y1) = snake(&mut v1, k1_offset, k1, d, (len1, len2), |x, y| {
                text1[x as usize] == text2[y as usize]
            });
            if x1 > len1 {
                k1end += 2;
            } else if y1 > len2 {
                k1start += 2;
            } else if front {
                let k2_offset = v_offset + delta - k1;
                if k2_offset >= 0 && k2_offset < v_length && v2[k2_offset as usize] != -1 {
                    let x2 = len1 - v2[k2_offset as usize];
                    if x1 >= x2 {
                        return bisect_split(text1, text2, x1 as usize, y1 as usize, deadline);
                    }
                }
            }
            k1 += 2;
        }
        let mut k2 = -d + k2start;
        while k2 < d + 1 - k2end {
            let k2_offset = (v_offset + k2) as usize;
            let (x2, y2) = snake(&mut v2, k2_offset, k2, d, (len1, len2), |x, y| {
                text1[(len1 - x - 1) as usize] == text2[(len2 - y - 1) as usize]
            });
            if x2 > len1 {
                k2end += 2;
            } else if y2 > len2 {
                k2start += 2;
            } else if !front {
                let k1_offset = v_offset + delta - k2;
                if k1_offset >= 0 && k1_offset < v_length && v1[k1_offset as usize] != -1 {
                    let x1 = v1[k1_offset as usize];
                    let y1 = v_offset + x1 - k1_offset;
                    let x2 = len1 - x2;
                    if x1 >= x2 {
                        return bisect_split(text1, text2, x1 as usize, y1 as usize, deadline);
                    }
                }
            }
            k2 += 2;
        }
    }
    vec![(Op::Delete, text1.to_vec()), (Op::Insert, text2.to_vec())]
}

fn bisect_split(text1: &[u32], text2: &[u32], x: usize, y: usize, deadline: Instant) -> Vec<Diff> {
    let mut diffs = diff_main(&text1[..x], &text2[..y], deadline);
    diffs.extend(diff_main(&text1[x..], &text2[y..], deadline));
    diffs
}

/// `diff_commonPrefix`: how many leading elements `a` and `b` share.
pub fn common_prefix<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// `diff_commonSuffix`: how many trailing elements `a` and `b` share.
pub fn common_suffix<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

fn common_overlap(text1: &[u32], text2: &[u32]) -> usize {
    if text1.is_empty() || text2.is_empty() {
        return 0;
    }
    let text1 = if text1.len() > text2.len() {
        &text1[text1.len() - text2.len()..]
    } else {
        text1
    };
    let text2 = if text2.len() > text1.len() {
        &text2[..text1.len()]
    } else {
        text2
    };
    let length_all = text1.len().min(text2.len());
    if text1 == text2 {
        return length_all;
    }
    let mut best = 0;
    let mut length = 1;
    loop {
        if length > text1.len() {
            return best;
        }
        let pattern = &text1[text1.len() - length..];
        let Some(found) = find(text2, pattern, 0) else {
            return best;
        };
        length += found;
        if found == 0 || (length <= text1.len() && text1[text1.len() - length..] == text2[..length])
        {
            best = length;
            length += 1;
        }
    }
}

type HalfMatch = (Text, Text, Text, Text, Text);

fn half_match(text1: &[u32], text2: &[u32]) -> Option<HalfMatch> {
    let (long, short) = if text1.len() > text2.len() {
        (text1, text2)
    } else {
        (text2, text1)
    };
    if long.len() < 4 || short.len() * 2 < long.len() {
        return None;
    }
    let hm1 = half_match_i(long, short, long.len().div_ceil(4));
    let hm2 = half_match_i(long, short, long.len().div_ceil(2));
    let hm = match (hm1, hm2) {
        (None, None) => return None,
        (Some(hm), None) | (None, Some(hm)) => hm,
        (Some(hm1), Some(hm2)) => {
            if hm1.4.len() > hm2.4.len() {
                hm1
            } else {
                hm2
            }
        }
    };
    if text1.len() > text2.len() {
        Some(hm)
    } else {
        let (long_a, long_b, short_a, short_b, mid) = hm;
        Some((short_a, short_b, long_a, long_b, mid))
    }
}

fn half_match_i(long: &[u32], short: &[u32], i: usize) -> Option<HalfMatch> {
    let seed = &long[i..(i + long.len() / 4).min(long.len())];
    let mut best: Option<HalfMatch> = None;
    let mut best_len = 0;
    let mut j = find(short, seed, 0);
    while let Some(at) = j {
        let prefix = common_prefix(&long[i..], &short[at..]);
        let suffix = common_suffix(&long[..i], &short[..at]);
        if best_len < suffix + prefix {
            best_len = suffix + prefix;
            best = Some((
                long[..i - suffix].to_vec(),
                long[i + prefix..].to_vec(),
                short[..at - suffix].to_vec(),
                short[at + prefix..].to_vec(),
                short[at - suffix..at + prefix].to_vec(),
            ));
        }
        j = find(short, seed, at + 1);
    }
    best.filter(|_| best_len * 2 >= long.len())
}

fn cleanup_merge(diffs: &mut Vec<Diff>) {
    diffs.push((Op::Equal, Vec::new()));
    let mut pointer = 0;
    let (mut count_delete, mut count_insert) = (0usize, 0usize);
    let (mut text_delete, mut text_insert): (Text, Text) = (Vec::new(), Vec::new());
    while pointer < diffs.len() {
        match diffs[pointer].0 {
            Op::Insert => {
                count_insert += 1;
                text_insert.extend_from_slice(&diffs[pointer].1);
                pointer += 1;
            }
            Op::Delete => {
                count_delete += 1;
                text_delete.extend_from_slice(&diffs[pointer].1);
                pointer += 1;
            }
            Op::Equal => {
                if count_delete + count_insert > 1 {
                    if count_delete != 0 && count_insert != 0 {
                        let common = common_prefix(&text_insert, &text_delete);
                        if common != 0 {
                            let x = pointer as isize - (count_delete + count_insert) as isize - 1;
                            if x >= 0 && diffs[x as usize].0 == Op::Equal {
                                diffs[x as usize]
                                    .1
                                    .extend_from_slice(&text_insert[..common]);
                            } else {
                                diffs.insert(0, (Op::Equal, text_insert[..common].to_vec()));
                                pointer += 1;
                            }
                            text_insert.drain(..common);
                            text_delete.drain(..common);
                        }
                        let common = common_suffix(&text_insert, &text_delete);
                        if common != 0 {
                            let tail = text_insert[text_insert.len() - common..].to_vec();
                            diffs[pointer].1 = concat(&tail, &diffs[pointer].1);
                            text_insert.truncate(text_insert.len() - common);
                            text_delete.truncate(text_delete.len() - common);
                        }
                    }
                    let mut new_ops = Vec::new();
                    if !text_delete.is_empty() {
                        new_ops.push((Op::Delete, text_delete.clone()));
                    }
                    if !text_insert.is_empty() {
                        new_ops.push((Op::Insert, text_insert.clone()));
                    }
                    pointer -= count_delete + count_insert;
                    let added = new_ops.len();
                    diffs.splice(pointer..pointer + count_delete + count_insert, new_ops);
                    pointer += added + 1;
                } else if pointer != 0 && diffs[pointer - 1].0 == Op::Equal {
                    let text = std::mem::take(&mut diffs[pointer].1);
                    diffs[pointer - 1].1.extend_from_slice(&text);
                    diffs.remove(pointer);
                } else {
                    pointer += 1;
                }
                count_insert = 0;
                count_delete = 0;
                text_delete.clear();
                text_insert.clear();
            }
        }
    }
    if diffs.last().is_some_and(|d| d.1.is_empty()) {
        diffs.pop();
    }
    let mut changes = false;
    let mut pointer = 1;
    while pointer + 1 < diffs.len() {
        if diffs[pointer - 1].0 == Op::Equal && diffs[pointer + 1].0 == Op::Equal {
            let previous = diffs[pointer - 1].1.clone();
            let next = diffs[pointer + 1].1.clone();
            if diffs[pointer].1.ends_with(&previous) {
                if !previous.is_empty() {
                    let edit = &diffs[pointer].1;
                    diffs[pointer].1 = concat(&previous, &edit[..edit.len() - previous.len()]);
                    diffs[pointer + 1].1 = concat(&previous, &next);
                }
                diffs.remove(pointer - 1);
                changes = true;
            } else if diffs[pointer].1.starts_with(&next) {
                diffs[pointer - 1].1.extend_from_slice(&next);
                let edit = &diffs[pointer].1;
                diffs[pointer].1 = concat(&edit[next.len()..], &next);
                diffs.remove(pointer + 1);
                changes = true;
            }
        }
        pointer += 1;
    }
    if changes {
        cleanup_merge(diffs);
    }
}

fn cleanup_semantic(diffs: &mut Vec<Diff>) {
    let mut changes = false;
    let mut equalities: Vec<usize> = Vec::new();
    let mut last_equality: Option<Text> = None;
    let mut pointer: isize = 0;
    let (mut ins1, mut del1, mut ins2, mut del2) = (0usize, 0usize, 0usize, 0usize);
    while (pointer as usize) < diffs.len() {
        let at = pointer as usize;
        if diffs[at].0 == Op::Equal {
            equalities.push(at);
            ins1 = ins2;
            ins2 = 0;
            del1 = del2;
            del2 = 0;
            last_equality = Some(diffs[at].1.clone());
        } else {
            if diffs[at].0 == Op::Insert {
                ins2 += diffs[at].1.len();
            } else {
                del2 += diffs[at].1.len();
            }
            if let Some(equality) = last_equality
                .as_ref()
                .filter(|e| !e.is_empty() && e.len() <= ins1.max(del1) && e.len() <= ins2.max(del2))
            {
                let Some(&last) = equalities.last() else {
                    break;
                };
                diffs.insert(last, (Op::Delete, equality.clone()));
                diffs[last + 1].0 = Op::Insert;
                equalities.pop();
                equalities.pop();
                pointer = equalities.last().map_or(-1, |&e| e as isize);
                ins1 = 0;
                del1 = 0;
                ins2 = 0;
                del2 = 0;
                last_equality = None;
                changes = true;
            }
        }
        pointer += 1;
    }
    if changes {
        cleanup_merge(diffs);
    }
    cleanup_semantic_lossless(diffs);
    let mut pointer = 1;
    while pointer < diffs.len() {
        if diffs[pointer - 1].0 == Op::Delete && diffs[pointer].0 == Op::Insert {
            let deletion = diffs[pointer - 1].1.clone();
            let insertion = diffs[pointer].1.clone();
            let overlap1 = common_overlap(&deletion, &insertion);
            let overlap2 = common_overlap(&insertion, &deletion);
            if overlap1 >= overlap2 {
                if overlap1 as f64 >= deletion.len() as f64 / 2.0
                    || overlap1 as f64 >= insertion.len() as f64 / 2.0
                {
                    diffs.insert(pointer, (Op::Equal, insertion[..overlap1].to_vec()));
                    diffs[pointer - 1] =
                        (Op::Delete, deletion[..deletion.len() - overlap1].to_vec());
                    diffs[pointer + 1] = (Op::Insert, insertion[overlap1..].to_vec());
                    pointer += 1;
                }
            } else if overlap2 as f64 >= deletion.len() as f64 / 2.0
                || overlap2 as f64 >= insertion.len() as f64 / 2.0
            {
                diffs.insert(pointer, (Op::Equal, deletion[..overlap2].to_vec()));
                diffs[pointer - 1] = (Op::Insert, insertion[..insertion.len() - overlap2].to_vec());
                diffs[pointer + 1] = (Op::Delete, deletion[overlap2..].to_vec());
                pointer += 1;
            }
            pointer += 1;
        }
        pointer += 1;
    }
}

fn semantic_score(one: &[u32], two: &[u32]) -> u8 {
    let (Some(&c1), Some(&c2)) = (one.last(), two.first()) else {
        return 6;
    };
    let alnum = |c: u32| char::from_u32(c).is_some_and(char::is_alphanumeric);
    let space = |c: u32| char::from_u32(c).is_some_and(is_space);
    let non_alnum1 = !alnum(c1);
    let non_alnum2 = !alnum(c2);
    let white1 = non_alnum1 && space(c1);
    let white2 = non_alnum2 && space(c2);
    let break1 = white1 && (c1 == RETURN || c1 == NEWLINE);
    let break2 = white2 && (c2 == RETURN || c2 == NEWLINE);
    let blank1 = break1
        && (one.ends_with(&[NEWLINE, NEWLINE]) || one.ends_with(&[NEWLINE, RETURN, NEWLINE]));
    let blank2 = break2
        && [
            &[NEWLINE, NEWLINE][..],
            &[NEWLINE, RETURN, NEWLINE],
            &[RETURN, NEWLINE, NEWLINE],
            &[RETURN, NEWLINE, RETURN, NEWLINE],
        ]
        .iter()
        .any(|start| two.starts_with(start));
    if blank1 || blank2 {
        5
    } else if break1 || break2 {
        4
    } else if non_alnum1 && !white1 && white2 {
        3
    } else if white1 || white2 {
        2
    } else if non_alnum1 || non_alnum2 {
        1
    } else {
        0
    }
}

fn cleanup_semantic_lossless(diffs: &mut Vec<Diff>) {
    let mut pointer = 1;
    while pointer + 1 < diffs.len() {
        if diffs[pointer - 1].0 == Op::Equal && diffs[pointer + 1].0 == Op::Equal {
            let mut equality1 = diffs[pointer - 1].1.clone();
            let mut edit = diffs[pointer].1.clone();
            let mut equality2 = diffs[pointer + 1].1.clone();
            let offset = common_suffix(&equality1, &edit);
            if offset > 0 {
                let common = edit[edit.len() - offset..].to_vec();
                equality1.truncate(equality1.len() - offset);
                edit = concat(&common, &edit[..edit.len() - offset]);
                equality2 = concat(&common, &equality2);
            }
            let mut best = (equality1.clone(), edit.clone(), equality2.clone());
            let mut best_score =
                semantic_score(&equality1, &edit) + semantic_score(&edit, &equality2);
            while !edit.is_empty() && !equality2.is_empty() && edit[0] == equality2[0] {
                equality1.push(edit[0]);
                edit.remove(0);
                edit.push(equality2[0]);
                equality2.remove(0);
                let score = semantic_score(&equality1, &edit) + semantic_score(&edit, &equality2);
                if score >= best_score {
                    best_score = score;
                    best = (equality1.clone(), edit.clone(), equality2.clone());
                }
            }
            if diffs[pointer - 1].1 != best.0 {
                if !best.0.is_empty() {
                    diffs[pointer - 1].1 = best.0;
                } else {
                    diffs.remove(pointer - 1);
                    pointer -= 1;
                }
                diffs[pointer].1 = best.1;
                if !best.2.is_empty() {
                    diffs[pointer + 1].1 = best.2;
                } else {
                    diffs.remove(pointer + 1);
                    pointer -= 1;
                }
            }
        }
        pointer += 1;
    }
}

fn cleanup_efficiency(diffs: &mut Vec<Diff>) {
    let mut changes = false;
    let mut equalities: Vec<usize> = Vec::new();
    let mut last_equality: Option<Text> = None;
    let mut pointer: isize = 0;
    let (mut pre_ins, mut pre_del, mut post_ins, mut post_del) = (false, false, false, false);
    while (pointer as usize) < diffs.len() {
        let at = pointer as usize;
        if diffs[at].0 == Op::Equal {
            if diffs[at].1.len() < EDIT_COST && (post_ins || post_del) {
                equalities.push(at);
                pre_ins = post_ins;
                pre_del = post_del;
                last_equality = Some(diffs[at].1.clone());
            } else {
                equalities.clear();
                last_equality = None;
            }
            post_ins = false;
            post_del = false;
        } else {
            if diffs[at].0 == Op::Delete {
                post_del = true;
            } else {
                post_ins = true;
            }
            let flags = [pre_ins, pre_del, post_ins, post_del]
                .iter()
                .filter(|&&f| f)
                .count();
            if let Some(equality) = last_equality.as_ref().filter(|e| {
                !e.is_empty()
                    && ((pre_ins && pre_del && post_ins && post_del)
                        || ((e.len() as f64) < EDIT_COST as f64 / 2.0 && flags == 3))
            }) {
                let Some(&last) = equalities.last() else {
                    break;
                };
                diffs.insert(last, (Op::Delete, equality.clone()));
                diffs[last + 1].0 = Op::Insert;
                equalities.pop();
                last_equality = None;
                if pre_ins && pre_del {
                    post_ins = true;
                    post_del = true;
                    equalities.clear();
                } else {
                    equalities.pop();
                    pointer = equalities.last().map_or(-1, |&e| e as isize);
                    post_ins = false;
                    post_del = false;
                }
                changes = true;
            }
        }
        pointer += 1;
    }
    if changes {
        cleanup_merge(diffs);
    }
}

#[cfg(test)]
mod tests {
    use super::diff_lines;

    /// The results of Aider 0.86.2's `search_replace.diff_lines` (Python,
    /// diff_match_patch 20241021) on the same texts.
    #[test]
    fn line_diffs_are_diff_match_patch_s() {
        let before = "def f():\n    x = 1\n    y = 2\n\n    return x\n";
        let after = "import os\n\ndef f():\n    x = 1\n    z = 3\n    y = 2\n\n    return x + y\nprint(f())\n";
        assert_eq!(
            diff_lines(before, after),
            [
                "+import os\n",
                "+\n",
                " def f():\n",
                "     x = 1\n",
                "+    z = 3\n",
                "     y = 2\n",
                " \n",
                "-    return x\n",
                "+    return x + y\n",
                "+print(f())\n",
            ]
        );
        // The semantic clean-up turns lone equal lines between changes
        // into a deletion and an insertion.
        assert_eq!(
            diff_lines("a\nb\nc\nd\ne\n", "x\nb\ny\nd\nz\nw\n"),
            [
                "-a\n", "-b\n", "-c\n", "-d\n", "-e\n", "+x\n", "+b\n", "+y\n", "+d\n", "+z\n",
                "+w\n",
            ]
        );
    }
}
