//! Aider's edit blocks, the second transcript format:
//!
//! ````text
//! src/app.py
//! ```python
//! <<<<<<< SEARCH
//! old lines
//! =======
//! new lines
//! >>>>>>> REPLACE
//! ```
//! ````
//!
//! The file name is found as Aider finds it: in the (up to three) lines above
//! the SEARCH marker, looking past fence lines; a block without one reuses
//! the previous block's file. Each block becomes one `replace_in_file` call
//! with canonical markers, so the engine (v1) applies it on its own against
//! the whole file, as Aider applies every block independently.

use super::call::{CallKind, ToolCall};

/// `^<{5,9} SEARCH>?\s*$`, Aider's HEAD pattern.
fn is_head(line: &str) -> bool {
    marker(line, '<', " SEARCH", true)
}

/// `^={5,9}\s*$`, Aider's DIVIDER pattern.
fn is_divider(line: &str) -> bool {
    marker(line, '=', "", false)
}

/// `^>{5,9} REPLACE\s*$`, Aider's UPDATED pattern.
fn is_updated(line: &str) -> bool {
    marker(line, '>', " REPLACE", false)
}

/// 5 to 9 `fill` characters, then `word`, then optionally `>` (when
/// `angle`), then only white space.
fn marker(line: &str, fill: char, word: &str, angle: bool) -> bool {
    let run = line.chars().take_while(|&c| c == fill).count();
    if !(5..=9).contains(&run) {
        return false;
    }
    let Some(rest) = line[run..].strip_prefix(word) else {
        return false;
    };
    let rest = if angle {
        rest.strip_prefix('>').unwrap_or(rest)
    } else {
        rest
    };
    rest.trim().is_empty()
}

/// Aider's `strip_filename`: the file name a line above a block may hold.
fn strip_filename(line: &str) -> Option<String> {
    let name = line.trim();
    if name == "..." || name.is_empty() {
        return None;
    }
    if let Some(candidate) = name.strip_prefix("```") {
        // "```python" names a language; "```src/app.py" names a file.
        return (candidate.contains('.') || candidate.contains('/')).then(|| candidate.to_string());
    }
    let name = name.trim_end_matches(':').trim_start_matches('#').trim();
    let name = name.trim_matches('`').trim_matches('*');
    (!name.is_empty()).then(|| name.to_string())
}

/// Aider's `find_filename`: nearest line first, looking further up only
/// past fence lines.
fn find_filename(above: &[&str]) -> Option<String> {
    for line in above.iter().rev().take(3) {
        if let Some(name) = strip_filename(line) {
            return Some(name);
        }
        if !line.starts_with("```") {
            break;
        }
    }
    None
}

/// Byte offset of the first SEARCH marker that has a file name above it,
/// for format detection.
pub fn first_block_offset(text: &str) -> Option<usize> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut offset = 0;
    for (i, line) in lines.iter().enumerate() {
        if is_head(line) && find_filename(&lines[i.saturating_sub(3)..i]).is_some() {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

/// Aider edit blocks in `text`, in order, as `replace_in_file` calls. A block
/// still open at the end is partial; blocks with no file name anywhere
/// above are skipped (Aider rejects them too).
pub fn parse(text: &str) -> Vec<ToolCall> {
    blocks(text).into_iter().map(|(call, _)| call).collect()
}

/// The 1-based first and last line of `text` of each block [`parse`]
/// returns, in the same order: its SEARCH marker through its REPLACE
/// marker (the last line while it is open).
pub fn block_lines(text: &str) -> Vec<[usize; 2]> {
    blocks(text).into_iter().map(|(_, lines)| lines).collect()
}

/// Each block [`parse`] returns with the lines [`block_lines`] gives it.
fn blocks(text: &str) -> Vec<(ToolCall, [usize; 2])> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = Vec::new();
    let mut last_path: Option<String> = None;
    let mut i = 0;
    while i < lines.len() {
        if !is_head(lines[i]) {
            i += 1;
            continue;
        }
        let path = find_filename(&lines[i.saturating_sub(3)..i]).or_else(|| last_path.clone());
        let (body, closed, next) = read_block(&lines, i + 1);
        let first = i + 1;
        i = next;
        let Some(path) = path else { continue };
        last_path = Some(path.clone());
        let call = ToolCall {
            kind: CallKind::ReplaceInFile,
            path,
            path_complete: true,
            body,
            partial: !closed,
        };
        out.push((call, [first, next.max(first)]));
    }
    out
}

/// Reads one block's lines from `start` (just after its SEARCH marker) and
/// writes them as a canonical diff. Returns the diff, whether the REPLACE
/// marker arrived, and the index of the line after the block.
fn read_block(lines: &[&str], start: usize) -> (String, bool, usize) {
    let mut body = String::from("------- SEARCH\n");
    let mut in_replace = false;
    let mut j = start;
    while j < lines.len() {
        let line = lines[j];
        j += 1;
        // A marker line still streaming counts already: a final transcript
        // may end in ">>>>>>> REPLACE" without a newline.
        if !in_replace && is_divider(line) {
            body.push_str("=======\n");
            in_replace = true;
        } else if in_replace && is_updated(line) {
            body.push_str("+++++++ REPLACE\n");
            return (body, true, j);
        } else {
            body.push_str(line);
        }
    }
    (body, false, j)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    #[test]
    fn markers_follow_aiders_patterns() {
        assert_cases(
            is_head,
            &[
                ("<<<<<<< SEARCH\n", true),
                ("<<<<<<< SEARCH>  \n", true),
                ("<<<< SEARCH\n", false),
            ],
        );
        assert_cases(is_divider, &[("=======  \n", true)]);
        assert_cases(
            is_updated,
            &[(">>>>>>> REPLACE\n", true), (">>>>>>> REPLACED\n", false)],
        );
    }

    #[test]
    fn each_blocks_lines_are_its_markers() {
        let reply = "Intro.\n\na.py\n```python\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n<<<<<<< SEARCH\nz\n";
        assert_eq!(parse(reply).len(), 2);
        assert_eq!(block_lines(reply), vec![[5, 9], [11, 12]]);
    }

    #[test]
    fn filenames_are_found_past_fences() {
        assert_eq!(
            find_filename(&["src/a.py\n", "```python\n"]),
            Some("src/a.py".into())
        );
        assert_eq!(find_filename(&["**b.rs**:\n"]), Some("b.rs".into()));
        assert_eq!(find_filename(&["```python\n"]), None);
    }
}
