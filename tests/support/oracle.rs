//! The naive reference for the engine's matching, shared by the property
//! tests and the fuzz crate (`fuzz/src/lib.rs` takes this file by
//! `#[path]`): literal transcriptions of the reference's matchers
//! (O(lines × search lines), the file re-split and offsets recounted per
//! call), and its v1 matching chain for in-order blocks built from them.
//! Slow on purpose: it is obviously the specification, not the engine.

use srview::engine::Stage;
use srview::engine::js::js_trim;

fn start_line(original_lines: &[&str], from: usize) -> usize {
    let mut start = 0;
    let mut current = 0;
    while current < from && start < original_lines.len() {
        current += original_lines[start].len() + 1;
        start += 1;
    }
    start
}

fn offsets(original_lines: &[&str], i: usize, size: usize) -> (usize, usize) {
    let start: usize = original_lines[..i].iter().map(|l| l.len() + 1).sum();
    let len: usize = original_lines[i..i + size]
        .iter()
        .map(|l| l.len() + 1)
        .sum();
    (start, start + len)
}

/// `lineTrimmedFallbackMatch`.
pub fn naive_line_trimmed(original: &str, search: &str, from: usize) -> Option<(usize, usize)> {
    let original_lines: Vec<&str> = original.split('\n').collect();
    let mut search_lines: Vec<&str> = search.split('\n').collect();
    if search_lines.last() == Some(&"") {
        search_lines.pop();
    }
    let m = search_lines.len();
    let first = start_line(&original_lines, from);
    if original_lines.len() < m {
        return None;
    }
    (first..=original_lines.len() - m)
        .find(|&i| (0..m).all(|j| js_trim(original_lines[i + j]) == js_trim(search_lines[j])))
        .map(|i| offsets(&original_lines, i, m))
}

/// `blockAnchorFallbackMatch`.
pub fn naive_block_anchor(original: &str, search: &str, from: usize) -> Option<(usize, usize)> {
    let original_lines: Vec<&str> = original.split('\n').collect();
    let mut search_lines: Vec<&str> = search.split('\n').collect();
    if search_lines.len() < 3 {
        return None;
    }
    if search_lines.last() == Some(&"") {
        search_lines.pop();
    }
    let size = search_lines.len();
    let head = js_trim(search_lines[0]);
    let tail = js_trim(search_lines[size - 1]);
    let first = start_line(&original_lines, from);
    if original_lines.len() < size {
        return None;
    }
    (first..=original_lines.len() - size)
        .find(|&i| {
            js_trim(original_lines[i]) == head && js_trim(original_lines[i + size - 1]) == tail
        })
        .map(|i| offsets(&original_lines, i, size))
}

/// `original.indexOf(search, from)` for a char-boundary `from`.
pub fn naive_exact(original: &str, search: &str, from: usize) -> Option<(usize, usize)> {
    if from > original.len() {
        return None;
    }
    original[from..]
        .find(search)
        .map(|i| (from + i, from + i + search.len()))
}

/// The reference's v1 chain for one in-order block: exact from `from`,
/// else line-trimmed, else block-anchor; the span and the stage that took it.
pub fn naive_locate(original: &str, search: &str, from: usize) -> Option<(usize, usize, Stage)> {
    let with = |stage: Stage| move |(start, end): (usize, usize)| (start, end, stage);
    naive_exact(original, search, from)
        .map(with(Stage::Exact))
        .or_else(|| naive_line_trimmed(original, search, from).map(with(Stage::LineTrimmed)))
        .or_else(|| naive_block_anchor(original, search, from).map(with(Stage::BlockAnchor)))
}

/// In-order `(search, replace)` blocks applied the naive way: the new
/// content and each block's stage. Panics when a block has no match.
pub fn naive_apply(original: &str, blocks: &[(String, String)]) -> (String, Vec<Stage>) {
    let (mut out, mut from, mut stages) = (String::new(), 0, Vec::new());
    for (search, replace) in blocks {
        let (start, end, stage) = naive_locate(original, search, from).expect("naive match");
        out.push_str(&original[from..start]);
        out.push_str(replace);
        from = end.min(original.len());
        stages.push(stage);
    }
    out.push_str(&original[from..]);
    (out, stages)
}
