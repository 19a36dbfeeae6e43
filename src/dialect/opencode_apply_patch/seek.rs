//! OpenCode's `seekSequence` and `deriveNewContentsFromChunks`
//! (apply_patch.ts): each chunk's old lines are found from a cursor in
//! four passes over all positions (exact, `trimEnd`, `trim`, then `trim`
//! with typographic punctuation folded), the `@@` text first when given;
//! the new lines are spliced in as written.

use crate::dialect::opencode_edit::js::{split_bom, trim, trim_end};

use super::parse::Chunk;

/// The comparison pass that found a sequence, named as srview's corpus
/// names it (the order OpenCode tries them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pass {
    /// Lines equal.
    Exact,
    /// Equal after `trimEnd()`.
    TrimEnd,
    /// Equal after `trim()`.
    Trim,
    /// Equal after `trim()` and folding typographic punctuation.
    Normalized,
}

impl Pass {
    /// The name srview's corpus gives it.
    pub fn name(self) -> &'static str {
        match self {
            Pass::Exact => "exact",
            Pass::TrimEnd => "trimEnd",
            Pass::Trim => "trim",
            Pass::Normalized => "normalized",
        }
    }

    fn lines_equal(self, ours: &str, theirs: &str) -> bool {
        match self {
            Pass::Exact => ours == theirs,
            Pass::TrimEnd => trim_end(ours) == trim_end(theirs),
            Pass::Trim => trim(ours) == trim(theirs),
            Pass::Normalized => {
                let (ours, theirs) = (trim(ours), trim(theirs));
                ours == theirs || fold_punctuation(ours) == fold_punctuation(theirs)
            }
        }
    }
}

/// OpenCode's `normalizeUnicode`: single quotes ‘ ’ ‚ ‛ → `'`, double
/// quotes “ ” „ ‟ → `"`, U+2010–U+2015 → `-`, … → `...`, NBSP → space.
fn fold_punctuation(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        match c {
            '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}' => out.push('\''),
            '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{201f}' => out.push('"'),
            '\u{2010}'..='\u{2015}' => out.push('-'),
            '\u{2026}' => out.push_str("..."),
            '\u{a0}' => out.push(' '),
            other => out.push(other),
        }
    }
    out
}

/// Every `seekSequence` call's result, in order: the pass that found it,
/// or `None`.
pub type SeekTrace = Vec<Option<Pass>>;

/// OpenCode's `tryMatch`: with `eof`, the last position first (if at or
/// after `start`), then every position from `start`.
fn try_match<S: AsRef<str>>(
    lines: &[String],
    pattern: &[S],
    start: usize,
    pass: Pass,
    eof: bool,
) -> Option<usize> {
    let matches_at = |at: usize| {
        pattern
            .iter()
            .enumerate()
            .all(|(k, p)| pass.lines_equal(&lines[at + k], p.as_ref()))
    };
    let last = lines.len().checked_sub(pattern.len())?;
    if eof && last >= start && matches_at(last) {
        return Some(last);
    }
    (start..=last).find(|&at| matches_at(at))
}

/// OpenCode's `seekSequence`: the passes in order; `None` for an empty
/// pattern.
fn seek_sequence<S: AsRef<str>>(
    lines: &[String],
    pattern: &[S],
    start: usize,
    eof: bool,
    trace: &mut SeekTrace,
) -> Option<usize> {
    if pattern.is_empty() {
        trace.push(None);
        return None;
    }
    for pass in [Pass::Exact, Pass::TrimEnd, Pass::Trim, Pass::Normalized] {
        if let Some(at) = try_match(lines, pattern, start, pass, eof) {
            trace.push(Some(pass));
            return Some(at);
        }
    }
    trace.push(None);
    None
}

/// Where one chunk landed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// 0-based first line replaced (or inserted before).
    pub at: usize,
    /// How many lines it replaced.
    pub replaced: usize,
    /// The lines written in their place.
    pub new_lines: Vec<String>,
    /// The loosest pass among its `@@` and its lines (`None`: no search).
    pub pass: Option<Pass>,
    /// The 0-based line its lines were searched from (after the previous
    /// chunk, and after its `@@` line).
    pub from: usize,
    /// Its `@@` line's text and the 1-based line where it was found.
    pub header: Option<(String, usize)>,
    /// The chunk is marked `*** End of File`.
    pub at_end: bool,
}

/// The file as `deriveNewContentsFromChunks` leaves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Derived {
    /// The new text, a leading BOM split off, always ending in `\n`.
    pub content: String,
    /// The BOM to write back (the file's, or one the new text starts with).
    pub bom: bool,
    /// Each chunk, in patch order.
    pub placed: Vec<Placed>,
}

/// OpenCode's `deriveNewContentsFromChunks(path, chunks, text)`; `text`
/// is the file with its BOM put back, as the tool passes it. The error is
/// the thrown message (the tool prefixes `Error: `).
pub fn derive(
    path: &str,
    chunks: &[Chunk],
    text: &str,
    trace: &mut SeekTrace,
) -> Result<Derived, String> {
    let (had_bom, text) = split_bom(text);
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let placed = compute_replacements(&lines, path, chunks, trace)?;
    let mut order: Vec<&Placed> = placed.iter().collect();
    // A stable sort by start, as `Array.prototype.sort` is.
    order.sort_by_key(|p| p.at);
    let mut result = lines;
    for p in order.iter().rev() {
        let start = p.at.min(result.len());
        let end = (p.at + p.replaced).min(result.len());
        result.splice(start..end, p.new_lines.iter().cloned());
    }
    if result.last().is_none_or(|l| !l.is_empty()) {
        result.push(String::new());
    }
    let joined = result.join("\n");
    let (new_bom, content) = split_bom(&joined);
    Ok(Derived {
        content: content.to_string(),
        bom: had_bom || new_bom,
        placed,
    })
}

/// OpenCode's `computeReplacements`.
fn compute_replacements(
    lines: &[String],
    path: &str,
    chunks: &[Chunk],
    trace: &mut SeekTrace,
) -> Result<Vec<Placed>, String> {
    let mut placed = Vec::with_capacity(chunks.len());
    let mut cursor = 0;
    for chunk in chunks {
        let mut context_pass = None;
        let mut header = None;
        if let Some(context) = &chunk.change_context {
            let Some(at) = seek_sequence(lines, &[context], cursor, false, trace) else {
                return Err(format!("Failed to find context '{context}' in {path}"));
            };
            context_pass = *trace.last().unwrap_or(&None);
            cursor = at + 1;
            header = Some((context.clone(), at + 1));
        }
        if chunk.old_lines.is_empty() {
            let at = if lines.last().is_some_and(String::is_empty) {
                lines.len() - 1
            } else {
                lines.len()
            };
            placed.push(Placed {
                at,
                replaced: 0,
                new_lines: chunk.new_lines.clone(),
                pass: context_pass,
                from: cursor,
                header,
                at_end: chunk.is_end_of_file,
            });
            continue;
        }
        let mut old: &[String] = &chunk.old_lines;
        let mut new: &[String] = &chunk.new_lines;
        let mut found = seek_sequence(lines, old, cursor, chunk.is_end_of_file, trace);
        if found.is_none() && old.last().is_some_and(String::is_empty) {
            old = &old[..old.len() - 1];
            if new.last().is_some_and(String::is_empty) {
                new = &new[..new.len() - 1];
            }
            found = seek_sequence(lines, old, cursor, chunk.is_end_of_file, trace);
        }
        let Some(at) = found else {
            return Err(format!(
                "Failed to find expected lines in {path}:\n{}",
                chunk.old_lines.join("\n")
            ));
        };
        let lines_pass = *trace.last().unwrap_or(&None);
        placed.push(Placed {
            at,
            replaced: old.len(),
            new_lines: new.to_vec(),
            pass: context_pass.max(lines_pass),
            from: cursor,
            header,
            at_end: chunk.is_end_of_file,
        });
        cursor = at + old.len();
    }
    Ok(placed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::lines;
    use crate::dialect::opencode_edit::js::join_bom;

    #[test]
    fn passes_run_in_order_over_all_positions() {
        let file = lines("a  \n  b\n“q”\nx");
        let mut trace = SeekTrace::new();
        assert_eq!(seek_sequence(&file, &["a"], 0, false, &mut trace), Some(0));
        assert_eq!(seek_sequence(&file, &["b"], 0, false, &mut trace), Some(1));
        assert_eq!(
            seek_sequence(&file, &["\"q\""], 0, false, &mut trace),
            Some(2)
        );
        assert_eq!(seek_sequence(&file, &["zz"], 0, false, &mut trace), None);
        assert_eq!(
            trace,
            [
                Some(Pass::TrimEnd),
                Some(Pass::Trim),
                Some(Pass::Normalized),
                None
            ]
        );
    }

    #[test]
    fn every_result_ends_in_a_newline_and_keeps_the_bom() {
        let chunk = Chunk {
            old_lines: vec!["b".into()],
            new_lines: vec!["B".into()],
            ..Chunk::default()
        };
        let derived =
            derive("/p", &[chunk], "\u{feff}a\nb", &mut SeekTrace::new()).expect("applies");
        assert_eq!(join_bom(&derived.content, derived.bom), "\u{feff}a\nB\n");
    }
}
