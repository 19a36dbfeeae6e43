//! Aider's reply parser: `find_original_update_blocks`, `strip_filename`
//! and `find_filename` of aider/coders/editblock_coder.py (0.86.2).

use super::difflib::closest_match;
use super::pytext::{splitlines_keepends, strip};

/// Triple backticks: Aider always takes them as a fence when it looks for
/// a file name, and its shell blocks are fenced with them.
pub const TRIPLE_BACKTICKS: &str = "```";

/// A fence pair (`Coder.fence`): the first of Aider's `all_fences` that no
/// line of the chat's files starts with (`choose_fence`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fence {
    pub open: &'static str,
    pub close: &'static str,
}

/// `base_coder.all_fences`, in Aider's order of preference.
pub const ALL_FENCES: [Fence; 7] = [
    Fence {
        open: "```",
        close: "```",
    },
    Fence {
        open: "````",
        close: "````",
    },
    Fence {
        open: "<source>",
        close: "</source>",
    },
    Fence {
        open: "<code>",
        close: "</code>",
    },
    Fence {
        open: "<pre>",
        close: "</pre>",
    },
    Fence {
        open: "<codeblock>",
        close: "</codeblock>",
    },
    Fence {
        open: "<sourcecode>",
        close: "</sourcecode>",
    },
];

/// `Coder.choose_fence()` over the chat files' contents: the first fence
/// neither of whose ends starts a line of them (Python's `splitlines`),
/// else the first.
pub fn choose_fence<'c>(contents: impl IntoIterator<Item = &'c str> + Clone) -> Fence {
    // Each content is joined with a "\n" after it: its lines start where
    // they would in the joined text, so each is checked on its own.
    let line_starts = |fence: &Fence| {
        contents.clone().into_iter().any(|content| {
            super::pytext::splitlines(content)
                .iter()
                .any(|line| line.starts_with(fence.open) || line.starts_with(fence.close))
        })
    };
    ALL_FENCES
        .into_iter()
        .find(|fence| !line_starts(fence))
        .unwrap_or(ALL_FENCES[0])
}

/// One SEARCH/REPLACE block: the path Aider assigned it and the two texts
/// exactly as written (line breaks kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub path: String,
    pub original: String,
    pub updated: String,
}

/// `HEAD = r"^<{5,9} SEARCH>?\s*$"` on a stripped line.
fn is_head(stripped: &str) -> bool {
    let rest = stripped.trim_start_matches('<');
    let count = stripped.len() - rest.len();
    (5..=9).contains(&count) && matches!(rest, " SEARCH" | " SEARCH>")
}

/// `DIVIDER = r"^={5,9}\s*$"` on a stripped line.
fn is_divider(stripped: &str) -> bool {
    (5..=9).contains(&stripped.len()) && stripped.bytes().all(|b| b == b'=')
}

/// `UPDATED = r"^>{5,9} REPLACE\s*$"` on a stripped line.
fn is_updated(stripped: &str) -> bool {
    let rest = stripped.trim_start_matches('>');
    let count = stripped.len() - rest.len();
    (5..=9).contains(&count) && rest == " REPLACE"
}

/// The fence openings after which Aider reads a shell command block, not
/// an edit.
const SHELL_STARTS: [&str; 12] = [
    "```bash",
    "```sh",
    "```shell",
    "```cmd",
    "```batch",
    "```powershell",
    "```ps1",
    "```zsh",
    "```fish",
    "```ksh",
    "```csh",
    "```tcsh",
];

/// `find_original_update_blocks(reply, fence, valid_fnames)`: the edit
/// blocks in order (shell blocks, which it yields with no path, are left
/// out as `get_edits` does), or the error text Aider reflects: the reply up
/// to the failing line, then `\n^^^ ` and the reason.
pub fn find_blocks(
    reply: &str,
    fence: Fence,
    valid_fnames: &[String],
) -> Result<Vec<Block>, String> {
    let lines = splitlines_keepends(reply);
    let line_is = |at: usize, test: fn(&str) -> bool| lines.get(at).is_some_and(|l| test(strip(l)));
    let mut blocks = Vec::new();
    let mut current_filename: Option<String> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let next_is_editblock = line_is(i + 1, is_head) || line_is(i + 2, is_head);
        if SHELL_STARTS
            .iter()
            .any(|start| strip(line).starts_with(start))
            && !next_is_editblock
        {
            i += 1;
            while i < lines.len() && !strip(lines[i]).starts_with(TRIPLE_BACKTICKS) {
                i += 1;
            }
            if i < lines.len() {
                i += 1;
            }
            continue;
        }
        if is_head(strip(line)) {
            let fail = |at: usize, reason: String| {
                let processed: String = lines[..(at + 1).min(lines.len())].concat();
                format!("{processed}\n^^^ {reason}")
            };
            let before = &lines[i.saturating_sub(3)..i];
            // A HEAD directly followed by the divider makes a new file: the
            // chat's files are not consulted for its name.
            let filename = if line_is(i + 1, is_divider) {
                find_filename(before, fence, &[])
            } else {
                find_filename(before, fence, valid_fnames)
            };
            let filename = match filename.or_else(|| current_filename.clone()) {
                Some(name) => name,
                None => {
                    return Err(fail(
                        i,
                        format!(
                            "Bad/missing filename. The filename must be alone on the line before the opening fence {}",
                            fence.open
                        ),
                    ));
                }
            };
            current_filename = Some(filename.clone());
            i += 1;
            let start = i;
            while i < lines.len() && !is_divider(strip(lines[i])) {
                i += 1;
            }
            if i >= lines.len() {
                return Err(fail(i, "Expected `=======`".to_string()));
            }
            let original = lines[start..i].concat();
            i += 1;
            let start = i;
            while i < lines.len() && !(is_updated(strip(lines[i])) || is_divider(strip(lines[i]))) {
                i += 1;
            }
            if i >= lines.len() {
                return Err(fail(
                    i,
                    "Expected `>>>>>>> REPLACE` or `=======`".to_string(),
                ));
            }
            let updated = lines[start..i].concat();
            blocks.push(Block {
                path: filename,
                original,
                updated,
            });
        }
        i += 1;
    }
    Ok(blocks)
}

/// `strip_filename(line, fence)`: the path a line names, if any.
pub fn strip_filename(line: &str, fence: Fence) -> Option<String> {
    let filename = strip(line);
    if filename == "..." {
        return None;
    }
    // The chat's fence, then the triple backticks Aider always accepts: a
    // fence line names a file only when what follows has a `.` or `/`.
    for opening in [fence.open, TRIPLE_BACKTICKS] {
        if let Some(candidate) = filename.strip_prefix(opening) {
            let names_file = candidate.contains('.') || candidate.contains('/');
            return (!candidate.is_empty() && names_file).then(|| candidate.to_string());
        }
    }
    let filename = filename.trim_end_matches(':');
    let filename = filename.trim_start_matches('#');
    let filename = strip(filename);
    let filename = filename.trim_matches('`');
    let filename = filename.trim_matches('*');
    (!filename.is_empty()).then(|| filename.to_string())
}

/// `find_filename(lines, fence, valid_fnames)`: looks back over the (up to
/// three) lines before a HEAD, nearest first, while they are fences; then
/// prefers a name that is a chat file, then one whose basename is a chat
/// file's (that file), then a close spelling of one (difflib, cutoff 0.8),
/// then any name with a `.`, then the nearest name.
pub fn find_filename(before: &[&str], fence: Fence, valid_fnames: &[String]) -> Option<String> {
    let mut filenames: Vec<String> = Vec::new();
    for line in before.iter().rev().take(3) {
        if let Some(name) = strip_filename(line, fence) {
            filenames.push(name);
        }
        if !line.starts_with(fence.open) && !line.starts_with(TRIPLE_BACKTICKS) {
            break;
        }
    }
    if let Some(name) = filenames.iter().find(|name| valid_fnames.contains(name)) {
        return Some(name.clone());
    }
    for name in &filenames {
        if let Some(file) = valid_fnames.iter().find(|file| path_name(file) == name) {
            return Some(file.clone());
        }
    }
    for name in &filenames {
        if let Some(file) = closest_match(name, valid_fnames, 0.8) {
            return Some(file.to_string());
        }
    }
    if let Some(name) = filenames.iter().find(|name| name.contains('.')) {
        return Some(name.clone());
    }
    filenames.into_iter().next()
}

/// `pathlib.Path(p).name`: the last component (trailing `/`s and `.`
/// components ignored, as pathlib drops them).
pub fn path_name(path: &str) -> &str {
    path.split('/')
        .rev()
        .find(|part| !part.is_empty() && *part != ".")
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_take_five_to_nine_characters() {
        assert!(is_head("<<<<< SEARCH"));
        assert!(is_head("<<<<<<<<< SEARCH>"));
        assert!(!is_head("<<<<<<<<<< SEARCH"));
        assert!(!is_head("<<<< SEARCH"));
        assert!(is_divider("====="));
        assert!(!is_divider("=========="));
        assert!(is_updated(">>>>>>> REPLACE"));
        assert!(!is_updated(">>>>>>> REPLACE>"));
    }

    #[test]
    fn filenames_are_stripped_of_decoration() {
        let cases = [
            // Backticks go before asterisks: they stay (as in Python).
            ("  **`src/a.py`**:\n", Some("`src/a.py`")),
            ("# src/a.py\n", Some("src/a.py")),
            ("```python\n", None),
            ("```src/a.py\n", Some("src/a.py")),
            ("...\n", None),
            ("**src/a.py**\n", Some("src/a.py")),
            ("Here:\n", Some("Here")),
        ];
        for (line, want) in cases {
            assert_eq!(
                strip_filename(line, ALL_FENCES[0]).as_deref(),
                want,
                "{line:?}"
            );
        }
    }
}
