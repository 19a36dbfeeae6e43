//! Cline CLI 3.x's `editor` tool (its SDK's editor executor).
//!
//! In order: with `insert_line`, the file must exist and `new_text` is
//! inserted at that one-based line *boundary* (1 = before the first line,
//! lines + 1 = at the end; the file is split on `\r\n`/`\n` and joined back
//! with its own line end); a missing file is created with `new_text`; an
//! existing one needs `old_text`, whose line ends are turned into the
//! file's (`\r\n` when the file has any) and which must occur exactly once
//! (an empty `old_text` occurs nowhere).

use super::EditError;
use super::text::{Done, split_eol};

pub(super) fn editor(
    path: &str,
    old_text: Option<&str>,
    new_text: Option<&str>,
    insert_line: Option<i64>,
    original: Option<&str>,
) -> Result<Done, EditError> {
    if let Some(line) = insert_line {
        let Some(content) = original else {
            return Err(EditError::ClineInsertMissingFile {
                path: path.to_string(),
            });
        };
        let new_text = new_text.ok_or(EditError::ClineNewTextRequired)?;
        return insert(content, line, new_text);
    }
    let Some(content) = original else {
        let new_text = new_text.ok_or(EditError::ClineNewTextRequired)?;
        return Ok(Done {
            new_content: new_text.to_string(),
            created: true,
            whole: true,
            replaced: None,
            placed: (0, new_text.len()),
            occurrences: 1,
        });
    };
    let old = old_text.ok_or(EditError::ClineOldTextRequired)?;
    let eol = line_end(content);
    let old = normalise_line_ends(old, eol);
    let new = normalise_line_ends(new_text.unwrap_or(""), eol);
    let count = if old.is_empty() {
        0
    } else {
        content.matches(old.as_str()).count()
    };
    match count {
        0 => Err(EditError::ClineNotFound {
            path: path.to_string(),
        }),
        1 => {
            let at = content.find(old.as_str()).unwrap_or(0);
            let mut out = String::with_capacity(content.len() + new.len());
            out.push_str(&content[..at]);
            out.push_str(&new);
            out.push_str(&content[at + old.len()..]);
            Ok(Done {
                new_content: out,
                created: false,
                whole: false,
                replaced: Some((at, at + old.len())),
                placed: (at, at + new.len()),
                occurrences: 1,
            })
        }
        _ => Err(EditError::ClineAmbiguous {
            path: path.to_string(),
        }),
    }
}

fn insert(content: &str, line: i64, new_text: &str) -> Result<Done, EditError> {
    let eol = line_end(content);
    let lines = split_eol(content);
    let max = lines.len() + 1;
    let index = match usize::try_from(line) {
        Ok(l) if (1..=max).contains(&l) => l - 1,
        _ => return Err(EditError::ClineInsertLine { line, max }),
    };
    let join = |ls: &[(usize, &str)]| ls.iter().map(|(_, l)| *l).collect::<Vec<_>>().join(eol);
    let mut out = join(&lines[..index]);
    if index > 0 {
        out.push_str(eol);
    }
    let start = out.len();
    out.push_str(&join(&split_eol(new_text)));
    let end = out.len();
    if index < lines.len() {
        out.push_str(eol);
        out.push_str(&join(&lines[index..]));
    }
    let at = lines
        .get(index)
        .map_or(content.len(), |(offset, _)| *offset);
    Ok(Done {
        new_content: out,
        created: false,
        whole: false,
        replaced: Some((at, at)),
        placed: (start, end),
        occurrences: 1,
    })
}

/// The file's line end: `\r\n` when it has any, else `\n`.
pub(super) fn line_end(content: &str) -> &'static str {
    if content.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    }
}

/// `text` with every line end (`\r\n` or `\n`) as `eol`.
pub(super) fn normalise_line_ends(text: &str, eol: &str) -> String {
    let lf = text.replace("\r\n", "\n");
    if eol == "\n" {
        lf
    } else {
        lf.replace('\n', eol)
    }
}

/// Most changed lines Cline's editor lists in its result before it
/// truncates the list (in a form no recorded run shows).
pub(super) const MAX_DIFF_LINES: usize = 200;

/// The editor's result text for a replacement: `Edited PATH` and the lines
/// that differ between `before` and `after` once their common first and
/// last lines are set aside, removed ones (`-N: `, old numbering) then added
/// ones (`+N: `, new numbering), in a `diff` fence. `None` past
/// [`MAX_DIFF_LINES`], where the agent truncates the list.
pub(super) fn edited_message(path: &str, before: &str, after: &str) -> Option<String> {
    let old: Vec<&str> = split_eol(before).into_iter().map(|(_, l)| l).collect();
    let new: Vec<&str> = split_eol(after).into_iter().map(|(_, l)| l).collect();
    let (start, shared_tail) = crate::textdiff::shared_ends(&old, &new);
    let (old_end, new_end) = (old.len() - shared_tail, new.len() - shared_tail);
    if (old_end - start) + (new_end - start) > MAX_DIFF_LINES {
        return None;
    }
    let mut out = format!("Edited {path}\n```diff\n");
    for (i, line) in old.iter().enumerate().take(old_end).skip(start) {
        out.push_str(&format!("-{}: {line}\n", i + 1));
    }
    for (i, line) in new.iter().enumerate().take(new_end).skip(start) {
        out.push_str(&format!("+{}: {line}\n", i + 1));
    }
    out.push_str("```");
    Some(out)
}
