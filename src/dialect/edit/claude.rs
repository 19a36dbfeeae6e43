//! Claude Code 2.1's `Edit` and `Write`, as its tool results show them.
//!
//! Edit, in order: `old_string == new_string` is refused; a missing file is
//! created when `old_string` is empty and refused otherwise; an empty
//! `old_string` on an existing file is refused unless the file is blank;
//! the file's `\r\n` become `\n` before matching (and come back on write
//! when most of its line ends were `\r\n`); `old_string` must occur, and
//! exactly once unless `replace_all`. Deleting (`new_string` empty) a text
//! that does not end in a newline but is followed by one removes that
//! newline too.
//!
//! Not reproduced: the read-before-edit check (the agent refuses an edit
//! of a file it has not read in the session), notebooks, and the quote
//! normalisation (curly quotes in the file matching straight ones in
//! `old_string`): such an edit fails here with
//! [`EditError::ClaudeQuoteNormalised`] rather than a guess.

use super::EditError;
use super::text::{CrlfMap, Done, crlf_offset};
use crate::engine::js::js_trim;

pub(super) fn write(content: &str, original: Option<&str>) -> Done {
    Done {
        new_content: content.to_string(),
        created: original.is_none(),
        whole: true,
        replaced: original.map(|o| (0, o.len())),
        placed: (0, content.len()),
        occurrences: 1,
    }
}

pub(super) fn edit(
    old: &str,
    new: &str,
    replace_all: bool,
    original: Option<&str>,
) -> Result<Done, EditError> {
    if old == new {
        return Err(EditError::ClaudeNoChange);
    }
    let Some(original) = original else {
        if old.is_empty() {
            return Ok(write(new, None));
        }
        return Err(EditError::ClaudeFileMissing);
    };
    if old.is_empty() {
        if !js_trim(original).is_empty() {
            return Err(EditError::ClaudeFileExists);
        }
        return Ok(write(new, Some(original)));
    }
    let write_crlf = mostly_crlf(original);
    let (content, map) = CrlfMap::normalise(original);
    if memchr::memmem::find(content.as_bytes(), old.as_bytes()).is_none() {
        // Neither has a curly quote: normalising changes nothing, and the
        // text was just not found.
        let changes = curly(old) || curly(&content);
        if changes
            && memchr::memmem::find(
                normalise_quotes(&content).as_bytes(),
                normalise_quotes(old).as_bytes(),
            )
            .is_some()
        {
            return Err(EditError::ClaudeQuoteNormalised {
                curly_in_file: !curly(old),
            });
        }
        return Err(EditError::ClaudeNotFound {
            old_string: old.to_string(),
        });
    }
    // Non-overlapping, as `str::matches`.
    let count = memchr::memmem::find_iter(content.as_bytes(), old.as_bytes()).count();
    if count > 1 && !replace_all {
        return Err(EditError::ClaudeAmbiguous {
            count,
            old_string: old.to_string(),
        });
    }
    // Deleting a text followed by a newline takes the newline with it.
    let with_newline = format!("{old}\n");
    let target = if new.is_empty() && !old.ends_with('\n') && content.contains(&with_newline) {
        with_newline.as_str()
    } else {
        old
    };
    let (new_norm, replaced, placed, occurrences) = replace(&content, target, new, replace_all);
    let (new_content, placed) = if write_crlf {
        let back = new_norm.replace('\n', "\r\n");
        let p = (
            crlf_offset(&new_norm, placed.0),
            crlf_offset(&new_norm, placed.1),
        );
        (back, p)
    } else {
        (new_norm, placed)
    };
    Ok(Done {
        new_content,
        created: false,
        whole: false,
        replaced: Some((map.original(replaced.0), map.original(replaced.1))),
        placed,
        occurrences,
    })
}

/// `content` with the first (or every) `target` replaced by `new`, the
/// replaced range (first start to last end) in `content`, the placed range
/// in the result, and the number of replacements.
fn replace(
    content: &str,
    target: &str,
    new: &str,
    all: bool,
) -> (String, (usize, usize), (usize, usize), usize) {
    let mut out = String::with_capacity(content.len() + new.len());
    let mut last = 0;
    let mut replaced = (usize::MAX, 0);
    let mut placed = (usize::MAX, 0);
    let mut count = 0;
    // Non-overlapping, left to right, as `str::match_indices` (`target` is
    // never empty: an empty `old_string` is refused or writes the file).
    for at in memchr::memmem::find_iter(content.as_bytes(), target.as_bytes()) {
        out.push_str(&content[last..at]);
        replaced.0 = replaced.0.min(at);
        replaced.1 = at + target.len();
        placed.0 = placed.0.min(out.len());
        out.push_str(new);
        placed.1 = out.len();
        last = at + target.len();
        count += 1;
        if !all {
            break;
        }
    }
    out.push_str(&content[last..]);
    (out, replaced, placed, count)
}

/// Whether Claude Code writes the file back with `\r\n`: more `\r\n` than
/// lone `\n` line ends.
fn mostly_crlf(text: &str) -> bool {
    // Non-overlapping, as `str::matches` (a `\r\n` cannot overlap another).
    let crlf = memchr::memmem::find_iter(text.as_bytes(), b"\r\n").count();
    let lf = bytecount::count(text.as_bytes(), b'\n') - crlf;
    crlf > lf
}

/// Whether `text` holds a curly quote (U+2018, U+2019, U+201C, U+201D:
/// the bytes E2 80 98/99/9C/9D), found with a byte search.
fn curly(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(0xE2, bytes).any(|i| {
        bytes.get(i + 1) == Some(&0x80)
            && matches!(bytes.get(i + 2), Some(0x98 | 0x99 | 0x9C | 0x9D))
    })
}

/// Curly single and double quotes as straight ones (borrowed when `text`
/// has none: the file usually has none, and is large).
fn normalise_quotes(text: &str) -> std::borrow::Cow<'_, str> {
    if !curly(text) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' => '\'',
            '\u{201C}' | '\u{201D}' => '"',
            c => c,
        })
        .collect()
}
