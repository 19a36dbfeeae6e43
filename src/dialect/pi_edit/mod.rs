//! pi 0.73.1's `edit` tool (npm `@mariozechner/pi-coding-agent`, MIT),
//! ported exactly from its shipped `dist/core/tools/edit.js` and
//! `edit-diff.js`, with the agent loop's argument handling before it
//! (`prepareArguments`, pi-ai's TypeBox validation).
//!
//! Input `{path, edits: [{oldText, newText}]}`; also the legacy top-level
//! `oldText`/`newText` pair and `edits` sent as a JSON string
//! ([`arguments`]). The file is read, one BOM stripped, line endings
//! turned into LF; every edit is searched in that text (`exact`), else
//! both sides go through `normalizeForFuzzyMatch` (`fuzzy`: NFKC, trailing
//! whitespace of every line, smart quotes, Unicode dashes and spaces). If
//! any edit needed the fuzzy match, **all edits are placed in the
//! normalised whole file, and that is what is written**: every line loses
//! its trailing whitespace and typographic characters, not just the edited
//! ones ([`CallOutcome::rewritten_outside`] names those lines). Each
//! `oldText` must occur once, counted in normalised space; matches may not
//! overlap. The new text is written with the BOM and the first line
//! break's ending (`\r\n` or `\n`) for every line.
//!
//! Each [`EditMatch`] is in the matcher's terms: `lines` of the file as pi
//! searched it (BOM stripped, line breaks LF), `found` the text pi replaced
//! (in the normalised file when the call went fuzzy), `written` the
//! LF-normalised `newText`; `fuzzy` and loose when it needed the fuzzy
//! match or was placed in the normalised file where its own text is not.

mod apply;
mod arguments;
mod js;
mod normalize;
mod path;
mod texts;

use crate::dialect::apply_patch::SharedText;
use crate::dialect::call::{CallMatcher, CallOutcome, EditMatch, Entry, FileWrite, ToolCall};

use apply::{Applied, FindStage, apply_edits};
use normalize::{detect_line_ending, normalize_to_lf, restore_line_endings, strip_bom};

/// pi 0.73.1's `edit` tool.
pub struct PiEdit;

impl CallMatcher for PiEdit {
    fn counted_places(&self, content: &str, old: &str) -> Option<String> {
        let content = normalize::normalize_to_lf(normalize::strip_bom(content).1);
        let old = normalize::normalize_to_lf(old);
        let places = normalize::counted_places(&content, &old);
        if places.iter().all(|(_, changed)| changed.is_empty()) {
            return None;
        }
        let said: Vec<String> = places
            .iter()
            .map(|&((a, b), ref changed)| {
                let at = crate::words::line_range("line", a, b);
                if changed.is_empty() {
                    format!("{at} (as it stands)")
                } else {
                    format!("{at} ({} normalized)", changed.join(", "))
                }
            })
            .collect();
        Some(format!(
            "pi counts the old text's places with the file and the text normalized (NFKC, each \
             line's trailing white space removed, typographic quotes, dashes and spaces made \
             ASCII): it stands at {}",
            said.join(" and ")
        ))
    }

    /// `~` in a path is the home folder as node's `os.homedir()` gives it:
    /// `$HOME` (when unset, `~` stays a name below the project root).
    fn run(&self, call: &ToolCall) -> CallOutcome {
        let home = std::env::var("HOME").ok().filter(|home| !home.is_empty());
        run_with_home(call, home.as_deref())
    }
}

/// `path` as pi's tools expand it before they resolve it against the
/// project root (`@` dropped, Unicode spaces, `~` to `$HOME` as [`PiEdit`]
/// takes it): the gate judges that file (a tester's find: `@app.py`
/// skipped every trust check).
pub fn expanded_path(path: &str) -> String {
    let home = std::env::var("HOME").ok().filter(|home| !home.is_empty());
    path::expand_path(path, home.as_deref())
}

fn failure(error: String, edits: Vec<EditMatch>) -> CallOutcome {
    CallOutcome::failed(error, Some("none".into()), edits)
}

/// [`PiEdit`] with `home` for `~`.
pub fn run_with_home(call: &ToolCall, home: Option<&str>) -> CallOutcome {
    let args = match arguments::parse_input(call.input) {
        Ok(args) => args,
        Err(error) => return failure(error, Vec::new()),
    };
    let unplaced = |stage: &str| EditMatch {
        stage: stage.to_string(),
        ..EditMatch::default()
    };
    let not_read = || args.edits.iter().map(|_| unplaced("none")).collect();
    let resolved = path::resolve_to_cwd(&args.path, call.cwd, home);
    // Read, not written to: shared with the file system, not copied.
    let raw = match call.fs.read_shared(&resolved.fs_path) {
        Ok(_) | Err(Entry::File(_)) if resolved.trailing_slash => {
            return failure(texts::access_error(&args.path, "ENOTDIR"), not_read());
        }
        Ok(content) => content,
        Err(Entry::File(content)) => SharedText::new(content),
        Err(Entry::Missing) => {
            return failure(texts::access_error(&args.path, "ENOENT"), not_read());
        }
        Err(Entry::BelowFile) => {
            return failure(texts::access_error(&args.path, "ENOTDIR"), not_read());
        }
        Err(Entry::Directory) => return failure(texts::READ_DIRECTORY.into(), not_read()),
        Err(Entry::Unreadable(why)) if why.contains("Permission denied") => {
            return failure(texts::access_error(&args.path, "EACCES"), not_read());
        }
        // pi would decode the bytes lossily (U+FFFD) and go on; srview
        // cannot see them, so it says why instead of guessing.
        Err(Entry::Unreadable(why)) => return failure(why, not_read()),
    };
    let (bom, content) = strip_bom(&raw);
    let original_ending = detect_line_ending(content);
    let normalized_content = normalize_to_lf(content);
    let applied = apply_edits(&normalized_content, &args.edits);
    let Applied {
        stages,
        fuzzy,
        base_content,
        outcome,
    } = applied;
    let (new_content, placed) = match outcome {
        Ok(done) => done,
        Err(error) => {
            let edits = stages.iter().map(|stage| unplaced(stage.name())).collect();
            return failure(
                texts::apply_error(&error, &args.path, args.edits.len()),
                edits,
            );
        }
    };
    let mut edits: Vec<EditMatch> = Vec::with_capacity(placed.len());
    for (index, old) in args.edits.iter().enumerate() {
        let Some(p) = placed.iter().find(|p| p.edit == index) else {
            continue;
        };
        let found = &base_content[p.index..p.index + p.length];
        // Fuzzy: it needed the fuzzy match in the original, or it was
        // placed in the normalised file where its own text is not.
        let loose = stages[index] == FindStage::Fuzzy || *found != *normalize_to_lf(&old.old_text);
        edits.push(EditMatch {
            path: None,
            named: None,
            searched: None,
            also_replaced: Vec::new(),
            stage: if loose { "fuzzy" } else { "exact" }.into(),
            loose,
            lines: line_span(&base_content, p.index, p.length),
            found: Some(found.to_string()),
            written: Some(p.new_text.clone()),
        });
    }
    let covered: Vec<(usize, usize)> = edits.iter().filter_map(|e| e.lines).collect();
    let rewritten_outside =
        lines_rewritten_outside(content, &base_content, fuzzy, original_ending, &covered);
    // No BOM and LF endings: the new content is written as it is (moved,
    // not copied).
    let final_content = if bom.is_empty() && original_ending != "\r\n" {
        new_content
    } else {
        format!(
            "{bom}{}",
            restore_line_endings(&new_content, original_ending)
        )
    };
    CallOutcome {
        ok: true,
        error: None,
        message: Some(texts::success(&args.path, args.edits.len())),
        stage: Some(if fuzzy { "fuzzy" } else { "exact" }.into()),
        writes: vec![FileWrite {
            path: resolved.fs_path,
            content: Some(final_content),
        }],
        edits,
        hangs: false,
        rewritten_outside,
        also_replaced: Vec::new(),
        dropped: Vec::new(),
        patch_doubts: None,
    }
}

/// The 1-based first and last line of `text` that the `length` bytes at
/// `index` lie on (a line's `\n` is its own); `None` for an empty span.
fn line_span(text: &str, index: usize, length: usize) -> Option<(usize, usize)> {
    if length == 0 {
        return None;
    }
    let bytes = text.as_bytes();
    let first = 1 + memchr::memchr_iter(b'\n', &bytes[..index]).count();
    let last = first + memchr::memchr_iter(b'\n', &bytes[index..index + length - 1]).count();
    Some((first, last))
}

/// `raw`'s lines, each with its own line break (`\r\n`, `\n`, a lone `\r`,
/// or none for the last): the lines `normalizeToLF` makes of it.
/// (Line breaks found by SIMD search, one line at a time, none held: a
/// fuzzy edit makes pi normalise, and srview compare, every line of the
/// file.)
fn raw_lines(raw: &str) -> impl Iterator<Item = (&str, &str)> {
    let bytes = raw.as_bytes();
    let mut start = 0;
    let mut i = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let Some(found) = memchr::memchr2(b'\r', b'\n', &bytes[i..]) else {
            done = true;
            return Some((&raw[start..], ""));
        };
        i += found;
        let width = match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => 2,
            _ => 1,
        };
        let line = (&raw[start..i], &raw[i..i + width]);
        i += width;
        start = i;
        Some(line)
    })
}

/// The lines of the file before (`raw`, BOM stripped) that the write
/// changes although no edit covers them (`covered`, 1-based ranges): in
/// the written file each such line is its `base_content` line (the line
/// normalised, when a fuzzy match made pi normalise the whole file) ended
/// by `ending`. Consecutive lines are joined into one range.
fn lines_rewritten_outside(
    raw: &str,
    base_content: &str,
    fuzzy: bool,
    ending: &str,
    covered: &[(usize, usize)],
) -> Vec<(usize, usize)> {
    let bytes = raw.as_bytes();
    let line_feeds = memchr::memchr_iter(b'\n', bytes).count();
    let returns = memchr::memchr_iter(b'\r', bytes).count();
    let uniform = match ending {
        "\r\n" => {
            returns == line_feeds && memchr::memmem::find_iter(bytes, b"\r\n").count() == returns
        }
        _ => returns == 0,
    };
    if uniform && !fuzzy {
        // Exact edits (`base_content` is `raw` with LF line breaks) on a
        // file whose every line break is `ending`.
        return Vec::new();
    }
    let mut before = raw_lines(raw).peekable();
    let mut written_lines = crate::dialect::quick::newline_split(base_content);
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut line = 0;
    while let Some((text, line_break)) = before.next() {
        let Some(written) = written_lines.next() else {
            break;
        };
        line += 1;
        if covered
            .iter()
            .any(|&(first, end)| first <= line && line <= end)
        {
            continue;
        }
        // Every line but the last is written with `ending`.
        let written_break = if before.peek().is_some() { ending } else { "" };
        if text == written && line_break == written_break {
            continue;
        }
        match ranges.last_mut() {
            Some((_, end)) if *end + 1 == line => *end = line,
            _ => ranges.push((line, line)),
        }
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;
    use crate::dialect::apply_patch::fs::MemoryFs;
    use serde_json::json;

    const CWD: &str = "/home/user/project";

    /// The byte-by-byte definition the SIMD line split must agree with.
    fn raw_lines_by_bytes(raw: &str) -> Vec<(&str, &str)> {
        let bytes = raw.as_bytes();
        let (mut lines, mut start, mut i) = (Vec::new(), 0, 0);
        while i < bytes.len() {
            let width = match bytes[i] {
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => 2,
                b'\r' | b'\n' => 1,
                _ => {
                    i += 1;
                    continue;
                }
            };
            lines.push((&raw[start..i], &raw[i..i + width]));
            i += width;
            start = i;
        }
        lines.push((&raw[start..], ""));
        lines
    }

    proptest::proptest! {
        #[test]
        fn raw_lines_agree_with_their_definition(s in "[ab\r\n é]{0,40}") {
            proptest::prop_assert_eq!(raw_lines(&s).collect::<Vec<_>>(), raw_lines_by_bytes(&s));
        }
    }

    fn run(file: Option<&str>, input: serde_json::Value) -> CallOutcome {
        let fs = MemoryFs::new(file.map(|content| ("a.py".to_string(), content.to_string())));
        let call = ToolCall {
            input: &input,
            cwd: CWD,
            fs: &fs,
        };
        run_with_home(&call, Some("/home/user"))
    }

    fn one_edit(old: &str, new: &str) -> serde_json::Value {
        json!({"path": "a.py", "edits": [{"oldText": old, "newText": new}]})
    }

    fn written(outcome: &CallOutcome) -> &str {
        outcome.writes[0].content.as_deref().unwrap_or_default()
    }

    #[test]
    fn exact_edit_reports_success_and_its_lines() {
        let outcome = run(Some("a\nb\nc\n"), one_edit("b\nc", "B"));
        assert!(outcome.ok);
        assert_eq!(
            outcome.message.as_deref(),
            Some("Successfully replaced 1 block(s) in a.py.")
        );
        assert_eq!(outcome.stage.as_deref(), Some("exact"));
        assert_eq!(written(&outcome), "a\nB\n");
        assert_eq!(outcome.edits[0].lines, Some((2, 3)));
        assert!(!outcome.edits[0].loose);
        assert!(outcome.rewritten_outside.is_empty());
    }

    #[test]
    fn fuzzy_edit_rewrites_lines_it_did_not_cover() {
        let file = "x = 1  \n# it\u{2019}s\ny = 2\t\nz = 3\n";
        let outcome = run(Some(file), one_edit("y = 2\nz", "y = 20\nz"));
        assert_eq!(outcome.stage.as_deref(), Some("fuzzy"));
        assert_eq!(written(&outcome), "x = 1\n# it's\ny = 20\nz = 3\n");
        assert_eq!(outcome.edits[0].stage, "fuzzy");
        assert_eq!(outcome.edits[0].lines, Some((3, 4)));
        assert_eq!(outcome.rewritten_outside, vec![(1, 2)]);
    }

    #[test]
    fn bom_and_crlf_are_restored() {
        let outcome = run(Some("\u{feff}a\r\nb\r\n"), one_edit("a\nb", "A\nB"));
        assert_eq!(written(&outcome), "\u{feff}A\r\nB\r\n");
        assert!(outcome.rewritten_outside.is_empty());
    }

    #[test]
    fn a_mixed_ending_file_takes_its_first_ending() {
        let outcome = run(Some("a\r\nb\nc\rd"), one_edit("a", "A"));
        assert_eq!(written(&outcome), "A\r\nb\r\nc\r\nd");
        assert_eq!(outcome.rewritten_outside, vec![(2, 3)]);
    }

    #[test]
    fn a_cut_off_new_text_is_written_as_received() {
        // A stream cut inside newText is no error for pi: the partial
        // arguments run, and the half line is written.
        let outcome = run(Some("a = 1\nb = 2\n"), one_edit("a = 1\n", "a = 10\nprin"));
        assert!(outcome.ok);
        assert_eq!(written(&outcome), "a = 10\nprinb = 2\n");
    }

    #[test]
    fn a_carriage_return_file_is_written_with_line_feeds() {
        let outcome = run(Some("a\rb\rc"), one_edit("a", "A"));
        assert_eq!(written(&outcome), "A\nb\nc");
        assert_eq!(outcome.edits[0].lines, Some((1, 1)));
        // Line 2's `\r` became `\n`; line 3 has no line break.
        assert_eq!(outcome.rewritten_outside, vec![(2, 2)]);
        let outcome = run(Some("a\rb\rc"), one_edit("c", "C"));
        assert_eq!(outcome.rewritten_outside, vec![(1, 2)]);
    }

    #[test]
    fn missing_file_is_enoent_with_the_path_as_written() {
        let input = json!({"path": "./b.py", "edits": [{"oldText": "a", "newText": "b"}]});
        let outcome = run(Some("a"), input);
        assert_eq!(
            outcome.error.as_deref(),
            Some("Could not edit file: ./b.py. Error code: ENOENT.")
        );
        assert_eq!(outcome.stage.as_deref(), Some("none"));
        assert!(outcome.writes.is_empty());
    }

    #[test]
    fn a_directory_fails_in_read() {
        let input = json!({"path": ".", "edits": [{"oldText": "a", "newText": "b"}]});
        assert_eq!(
            run(Some("a"), input).error.as_deref(),
            Some("EISDIR: illegal operation on a directory, read")
        );
    }

    #[test]
    fn errors_name_the_edit_when_there_are_several() {
        let input = json!({"path": "a.py", "edits": [{"oldText": "a", "newText": "b"},
            {"oldText": "zz", "newText": "y"}]});
        let outcome = run(Some("a\n"), input);
        assert_eq!(
            outcome.error.as_deref(),
            Some(
                "Could not find edits[1] in a.py. The oldText must match exactly including all whitespace and newlines."
            )
        );
        assert_eq!(outcome.edits[1].stage, "not_found");
    }

    #[test]
    fn single_edit_error_texts() {
        // ((file, oldText, newText), the error)
        assert_cases(
            |(file, old, new)| {
                run(Some(file), one_edit(old, new))
                    .error
                    .unwrap_or_default()
            },
            &[
                (
                    ("a\n", "zz", "y"),
                    "Could not find the exact text in a.py. The old text must match exactly including all whitespace and newlines.",
                ),
                (
                    ("a\na\n", "a", "y"),
                    "Found 2 occurrences of the text in a.py. The text must be unique. Please provide more context to make it unique.",
                ),
                (("a\n", "", "y"), "oldText must not be empty in a.py."),
                (
                    ("a\n", "a", "a"),
                    "No changes made to a.py. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.",
                ),
            ],
        );
    }
}
