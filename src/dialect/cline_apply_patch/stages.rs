//! How a section matched and how the call did, named as the corpus names
//! them (Cline prints only the summed fuzz factor: 0 exact, 1 trimEnd, 100
//! trim, 1000 similarity, 10000 the end-of-file fallback, 1 per trimmed
//! `@@` header).

use super::js;
use super::seek::{FUZZ_EOF_FALLBACK, FUZZ_SIMILARITY, FUZZ_TRIM, FUZZ_TRIM_END, FileLines, Found};
use crate::dialect::call::EditMatch;

/// One change block of a section: `del_lines.len()` file lines at
/// `orig_index` replaced by `ins_lines` (Cline's `Chunk`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub orig_index: i64,
    pub del_lines: Vec<String>,
    pub ins_lines: Vec<String>,
}

/// One `findContext` call: a section and how it matched.
#[derive(Debug, Clone)]
pub struct Section {
    /// The stage, named as the corpus names it (`exact`, `canonical`,
    /// `trim_end`, `trim`, `similarity`, with `eof+` / `eof_fallback+`;
    /// `no_context`, `not_found`).
    pub stage: String,
    pub edit: EditMatch,
}

/// A section's stage: `no_context` (pure insertion at the cursor),
/// `not_found`, else `exact` (the file's lines are the context's) or
/// `canonical` (equal once canonicalized), `trim_end`, `trim`,
/// `similarity`, prefixed `eof+` for an `*** End of File` section found at
/// the end, `eof_fallback+` when found from the cursor instead.
pub fn section_stage(file: &FileLines, context: &[String], found: Found, eof: bool) -> String {
    if context.is_empty() {
        return "no_context".into();
    }
    if found.index == -1 {
        return "not_found".into();
    }
    let prefix = match (eof, found.fuzz >= FUZZ_EOF_FALLBACK) {
        (false, _) => "",
        (true, false) => "eof+",
        (true, true) => "eof_fallback+",
    };
    let base = match found.fuzz % FUZZ_EOF_FALLBACK {
        0 => {
            let (from, to) = window(file, found.index, context.len());
            let raw = to - from == context.len()
                && file.lines[from..to]
                    .iter()
                    .zip(context)
                    .all(|(line, wanted)| line == wanted);
            if raw { "exact" } else { "canonical" }.to_string()
        }
        FUZZ_TRIM_END => "trim_end".into(),
        FUZZ_TRIM => "trim".into(),
        FUZZ_SIMILARITY => "similarity".into(),
        other => format!("fuzz{other}"),
    };
    format!("{prefix}{base}")
}

/// The file lines `fileLines.slice(index, index + n)` covers.
fn window(file: &FileLines, index: i64, n: usize) -> (usize, usize) {
    js::slice_range(file.len(), index, index + n as i64)
}

/// A stage with its `eof+` / `eof_fallback+` prefix removed.
pub fn base_stage(stage: &str) -> &str {
    stage
        .strip_prefix("eof_fallback+")
        .or_else(|| stage.strip_prefix("eof+"))
        .unwrap_or(stage)
}

/// The section as an [`EditMatch`]: the window of file lines it matched,
/// and that window with its change blocks applied (context lines keep the
/// file's text; deleted lines are the file's, whatever the `-` lines said).
pub fn edit_match(
    file: &FileLines,
    context: &[String],
    chunks: &[Chunk],
    found: Found,
    stage: &str,
) -> EditMatch {
    if found.index == -1 {
        return EditMatch {
            stage: stage.to_string(),
            ..EditMatch::default()
        };
    }
    let (from, to) = window(file, found.index, context.len());
    let window_lines = &file.lines[from..to];
    // Where the window starts relative to the context's first line (after
    // a negative index, `slice` starts later than the index says).
    let shift = from as i64 - found.index;
    let mut written: Vec<&str> = Vec::new();
    let mut at = 0usize;
    for chunk in chunks {
        let start = ((chunk.orig_index - shift).max(0) as usize).clamp(at, window_lines.len());
        written.extend(&window_lines[at..start]);
        written.extend(chunk.ins_lines.iter().map(String::as_str));
        at = (start + chunk.del_lines.len()).min(window_lines.len());
    }
    written.extend(&window_lines[at..]);
    // The empty element after a final newline is no line of the file.
    let real_lines = file.len() - usize::from(file.lines.last() == Some(&""));
    let lines = (to > from && from < real_lines).then(|| (from + 1, to.min(real_lines)));
    let base = base_stage(stage);
    EditMatch {
        path: None,
        named: None,
        stage: stage.to_string(),
        loose: base != "exact" && base != "no_context",
        lines,
        found: Some(window_lines.join("\n")),
        written: Some(written.join("\n")),
        searched: None,
        also_replaced: Vec::new(),
    }
}

/// The call's stage: `hang`, `fail:<class>` from the error text, or the
/// strongest section stage (by the rank `no_context` < `exact` <
/// `canonical` < `trim_end` < `trim` < `similarity`, over the first 50
/// sections) with `eof_fallback+` or else `eof+` when any section had it,
/// and `+header_trim` after `exact`, `canonical` or `no_context` when a
/// header was trimmed; `no_update_hunks` (or `header_trim`) without any
/// section.
pub fn call_stage(sections: &[Section], header_trims: i64) -> String {
    const RANK: [&str; 6] = [
        "no_context",
        "exact",
        "canonical",
        "trim_end",
        "trim",
        "similarity",
    ];
    let sections = &sections[..sections.len().min(50)];
    if sections.is_empty() {
        return if header_trims > 0 {
            "header_trim"
        } else {
            "no_update_hunks"
        }
        .into();
    }
    let mut best: i64 = -1;
    let mut eof = "";
    for section in sections {
        let stage = section.stage.as_str();
        if stage.starts_with("eof_fallback+") {
            eof = "eof_fallback+";
        } else if stage.starts_with("eof+") && eof.is_empty() {
            eof = "eof+";
        }
        let rank = RANK
            .iter()
            .position(|r| *r == base_stage(stage))
            .map_or(-1, |p| p as i64);
        best = best.max(rank);
    }
    let mut stage = match usize::try_from(best) {
        Ok(rank) => RANK[rank].to_string(),
        Err(_) => "undefined".to_string(),
    };
    if header_trims > 0 && best <= 2 {
        stage.push_str("+header_trim");
    }
    format!("{eof}{stage}")
}

/// A failure's class, from the text after `apply_patch failed: `.
pub fn failure_stage(error: &str) -> String {
    let m = error.strip_prefix("apply_patch failed: ").unwrap_or(error);
    let prefixes = [
        ("Patch could not be applied because", "hunk_not_found"),
        ("File not found:", "file_not_found"),
        (
            "Invalid patch text - incomplete sentinels",
            "incomplete_sentinels",
        ),
        ("Add File Error", "add_exists"),
        ("Path must stay within cwd", "outside_cwd"),
        ("apply_patch timed out", "timeout"),
        ("Invalid Add File line", "parse_add_line"),
        ("Unknown line while parsing", "parse_unknown_line"),
        ("Invalid Line:", "parse_invalid_line"),
        ("Invalid line:", "parse_invalid_star_line"),
        ("Duplicate", "duplicate_path"),
        ("Update File Error", "missing_file"),
        ("Delete File Error", "missing_file"),
    ];
    let class = if let Some((_, class)) = prefixes.iter().find(|(p, _)| m.starts_with(p)) {
        class
    } else if m.contains("chunk.origIndex") || m.contains("currentIndex") {
        "chunk_order"
    } else if is_node_error_code(m) {
        "fs"
    } else if m.starts_with("validation") || {
        // `/Invalid input|expected/i`: without the `u` flag, case folding
        // never maps a non-ASCII character to an ASCII one.
        let lower = m.to_ascii_lowercase();
        lower.contains("invalid input") || lower.contains("expected")
    } {
        "validation"
    } else {
        "other"
    };
    format!("fail:{class}")
}

/// `/^E[A-Z]+:/` (the EISDIR... prefixes of Node's fs errors).
fn is_node_error_code(m: &str) -> bool {
    let Some(rest) = m.strip_prefix('E') else {
        return false;
    };
    let letters = rest.bytes().take_while(u8::is_ascii_uppercase).count();
    letters > 0 && rest.as_bytes().get(letters) == Some(&b':')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_classed_by_their_text() {
        assert_eq!(
            failure_stage("apply_patch failed: Invalid Line:\n"),
            "fail:parse_invalid_line"
        );
        assert_eq!(
            failure_stage("apply_patch failed: EEXIST: file already exists, mkdir '/p/a'"),
            "fail:fs"
        );
        assert_eq!(failure_stage("✖ Invalid input"), "fail:validation");
        assert_eq!(
            failure_stage("apply_patch failed: a: currentIndex 3 > chunk.origIndex 1"),
            "fail:chunk_order"
        );
        assert_eq!(
            failure_stage("apply_patch failed: Path is a directory: rm returned EISDIR"),
            "fail:other"
        );
    }

    #[test]
    fn a_section_shows_its_window_and_what_replaced_it() {
        let file = FileLines::new("a\nb\nc\n");
        let context = vec!["b".to_string(), "c".to_string()];
        let chunks = [Chunk {
            orig_index: 1,
            del_lines: vec!["c".into()],
            ins_lines: vec!["C".into(), "D".into()],
        }];
        let found = Found {
            index: 1,
            fuzz: 0,
            similarity: 1.0,
        };
        let stage = section_stage(&file, &context, found, false);
        let edit = edit_match(&file, &context, &chunks, found, &stage);
        assert_eq!(edit.stage, "exact");
        assert!(!edit.loose);
        assert_eq!(edit.lines, Some((2, 3)));
        assert_eq!(edit.found.as_deref(), Some("b\nc"));
        assert_eq!(edit.written.as_deref(), Some("b\nC\nD"));
    }
}
