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

use std::borrow::Cow;

use super::EditError;
use super::text::{CrlfMap, Done, crlf_offset};
use crate::engine::js::{is_js_whitespace, js_trim, js_trim_end};

/// Claude Code's `normalizeFileEditInput`, which its decode path runs on
/// every `Edit` the model sends (`normalizeToolInput`), before its hooks and
/// its transcript see the input: outside `.md`/`.mdx` files, each line of
/// `new_string` loses its trailing whitespace (`stripTrailingWhitespace`);
/// an `old_string` the file does not hold, but does once the API's
/// sanitised tags are restored (`<n>` as `<name>`, `\n\nH:` as
/// `\n\nHuman:`, ...: `desanitizeMatchString`), is replaced by that, and
/// the same replacements are made in `new_string`. A missing file (Claude
/// Code's read throws) leaves the input as sent. An input that already
/// went through it (a hook payload, a transcript) comes out unchanged.
pub fn normalised_input<'a>(
    path: &str,
    old: &'a str,
    new: &'a str,
    original: Option<&str>,
) -> (Cow<'a, str>, Cow<'a, str>) {
    let Some(original) = original else {
        return (Cow::Borrowed(old), Cow::Borrowed(new));
    };
    let new = if is_markdown(path) {
        Cow::Borrowed(new)
    } else {
        strip_trailing_whitespace(new)
    };
    if original.contains(old) {
        return (Cow::Borrowed(old), new);
    }
    let (restored, applied) = desanitised(old);
    if applied.is_empty() || !original.contains(restored.as_str()) {
        return (Cow::Borrowed(old), new);
    }
    let mut new = new.into_owned();
    for (from, to) in applied {
        new = new.replace(from, to);
    }
    (Cow::Owned(restored), Cow::Owned(new))
}

/// Claude Code's `normalizeToolInput` of a `Write`: outside `.md`/`.mdx`
/// files, each line of `content` loses its trailing whitespace.
pub fn normalised_content<'a>(path: &str, content: &'a str) -> Cow<'a, str> {
    if is_markdown(path) {
        Cow::Borrowed(content)
    } else {
        strip_trailing_whitespace(content)
    }
}

/// `/\.(md|mdx)$/i` of the path.
fn is_markdown(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".md") || lower.ends_with(".mdx")
}

/// Claude Code's `stripTrailingWhitespace`: each line (split at `\r\n`,
/// `\n` or `\r`, which are kept) without the JavaScript whitespace (`\s`)
/// it ends in. Borrowed when no line ends in any.
pub fn strip_trailing_whitespace(text: &str) -> Cow<'_, str> {
    let ends_in_space = |line: &str| line.chars().next_back().is_some_and(is_js_whitespace);
    if !text.split(['\r', '\n']).any(ends_in_space) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['\r', '\n']) {
        out.push_str(js_trim_end(&rest[..at]));
        let ending = if rest[at..].starts_with("\r\n") { 2 } else { 1 };
        out.push_str(&rest[at..at + ending]);
        rest = &rest[at + ending..];
    }
    out.push_str(js_trim_end(rest));
    Cow::Owned(out)
}

/// Claude Code's `DESANITIZATIONS`, in its order.
const DESANITIZATIONS: [(&str, &str); 18] = [
    ("<fnr>", "<function_results>"),
    ("<n>", "<name>"),
    ("</n>", "</name>"),
    ("<o>", "<output>"),
    ("</o>", "</output>"),
    ("<e>", "<error>"),
    ("</e>", "</error>"),
    ("<s>", "<system>"),
    ("</s>", "</system>"),
    ("<r>", "<result>"),
    ("</r>", "</result>"),
    ("< META_START >", "<META_START>"),
    ("< META_END >", "<META_END>"),
    ("< EOT >", "<EOT>"),
    ("< META >", "<META>"),
    ("< SOS >", "<SOS>"),
    ("\n\nH:", "\n\nHuman:"),
    ("\n\nA:", "\n\nAssistant:"),
];

/// `desanitizeMatchString`: `text` with each sanitised form restored, in
/// turn, and the replacements that changed something.
fn desanitised(text: &str) -> (String, Vec<(&'static str, &'static str)>) {
    let mut out = text.to_string();
    let mut applied = Vec::new();
    for (from, to) in DESANITIZATIONS {
        if out.contains(from) {
            out = out.replace(from, to);
            applied.push((from, to));
        }
    }
    (out, applied)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Claude Code's `stripTrailingWhitespace` (FileEditTool/utils.ts):
    /// `str.split(/(\r\n|\n|\r)/)`, each even part `.replace(/\s+$/, '')`,
    /// the line endings kept; `\s` holds the no-break space and U+3000.
    #[test]
    fn trailing_whitespace_is_stripped_as_claude_codes_regex_does() {
        for (sent, written) in [
            ("a  \nb\t\n", "a\nb\n"),
            ("a \r\nb \rc ", "a\r\nb\rc"),
            ("x\u{a0}\u{3000}\n  y", "x\n  y"),
            ("  \n", "\n"),
            ("no change\n", "no change\n"),
        ] {
            assert_eq!(strip_trailing_whitespace(sent), written, "{sent:?}");
        }
        assert!(matches!(
            strip_trailing_whitespace("kept\n"),
            Cow::Borrowed(_)
        ));
    }

    /// `normalizeFileEditInput`: Markdown keeps its trailing spaces; a
    /// missing file leaves the input as sent; a sanitised tag is restored
    /// in both texts only where the file holds the restored text.
    #[test]
    fn the_input_is_normalised_as_claude_codes_decode_path_does() {
        let file = "<name>Inventory</name>\nrow  \n";
        let norm = |path: &str, old: &str, new: &str, original: Option<&str>| {
            let (old, new) = normalised_input(path, old, new, original);
            (old.into_owned(), new.into_owned())
        };
        assert_eq!(
            norm("a.py", "row  \n", "row  \nrow2  \n", Some(file)),
            ("row  \n".to_string(), "row\nrow2\n".to_string())
        );
        assert_eq!(
            norm("README.MD", "row  \n", "row  \nrow2  \n", Some(file)),
            ("row  \n".to_string(), "row  \nrow2  \n".to_string())
        );
        assert_eq!(
            norm("a.py", "", "new  \n", None),
            (String::new(), "new  \n".to_string())
        );
        assert_eq!(
            norm("p.py", "<n>Inventory</n>", "<n>Stock</n>", Some(file)),
            (
                "<name>Inventory</name>".to_string(),
                "<name>Stock</name>".to_string()
            )
        );
        // Not held restored either: left as sent (the edit then fails).
        assert_eq!(
            norm("p.py", "<n>Other</n>", "<n>X</n>", Some(file)),
            ("<n>Other</n>".to_string(), "<n>X</n>".to_string())
        );
        assert_eq!(normalised_content("a.txt", "x \n"), "x\n");
        assert_eq!(normalised_content("a.mdx", "x  \n"), "x  \n");
    }

    /// The edit runs on the normalised input: a sanitised `old_string`
    /// places, and its new text gets the restored tag.
    #[test]
    fn a_sanitised_old_string_places_as_claude_code_places_it() {
        let edit = super::super::Edit::ClaudeEdit {
            file_path: "/p/prompt.py".to_string(),
            old_string: "<n>Inventory</n>".to_string(),
            new_string: "<n>Stock</n>".to_string(),
            replace_all: false,
        };
        let outcome = super::super::apply(&edit, Some("P = \"<name>Inventory</name>\"\n"));
        assert_eq!(
            outcome.result.map(|a| a.new_content).ok().as_deref(),
            Some("P = \"<name>Stock</name>\"\n")
        );
    }
}
