//! Which dialect a diff is written in, from its text alone (a prefix of a
//! stream included): the previewer and every command detect it, and
//! `--dialect` forces it.

use crate::engine::markers::is_search_start;

/// The edit dialects srview reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// Cline's / Aider's SEARCH/REPLACE blocks.
    SearchReplace,
    /// Codex's `*** Begin Patch` patches.
    ApplyPatch,
    /// One exact-string edit as JSON (Claude Code Edit/Write, Cline's editor).
    EditJson,
}

impl Dialect {
    /// The name `--dialect` takes and JSON shows.
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::SearchReplace => "search-replace",
            Dialect::ApplyPatch => "apply-patch",
            Dialect::EditJson => "edit-json",
        }
    }
}

/// The file-section headers of apply_patch: a line starting with one of
/// them is apply_patch, wherever it is.
const PATCH_HEADERS: [&str; 3] = ["*** Update File:", "*** Add File:", "*** Delete File:"];

/// True for a line only an apply_patch text holds: its begin or end line
/// (in any case, with stray padding or a missing star, as models write
/// them) or a file-section header.
pub fn is_patch_line(line: &str) -> bool {
    let trimmed = line.trim();
    let bare = trimmed.trim_start_matches('*').trim().to_ascii_lowercase();
    (trimmed.starts_with("**") && (bare == "begin patch" || bare == "end patch"))
        || PATCH_HEADERS.iter().any(|h| trimmed.starts_with(h))
}

/// Byte offset of the first line that is apply_patch's.
pub fn first_patch_line(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if is_patch_line(line) {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

/// Byte offset of the first SEARCH marker line.
fn first_search_line(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n').trim_end_matches('\r');
        if is_search_start(bare) {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

/// The keys that make a JSON object an exact-string edit.
const EDIT_KEYS: [&str; 7] = [
    "\"old_string\"",
    "\"new_string\"",
    "\"old_text\"",
    "\"new_text\"",
    "\"file_path\"",
    "\"content\"",
    "\"insert_line\"",
];

/// The dialect of `text`, or `None` while nothing in it decides (a stream
/// that has only just begun). A JSON object (the text starts with `{`) with
/// an edit's keys is an edit; otherwise whichever of an apply_patch line
/// and a SEARCH marker comes first decides.
pub fn detect(text: &str) -> Option<Dialect> {
    let start = text.trim_start();
    if start.starts_with('{') {
        if EDIT_KEYS.iter().any(|k| start.contains(k)) {
            return Some(Dialect::EditJson);
        }
        if !start.contains('\n') {
            // `{"fi` : a JSON edit whose first key is still arriving.
            return None;
        }
    }
    match (first_patch_line(text), first_search_line(text)) {
        (Some(p), Some(s)) if s < p => Some(Dialect::SearchReplace),
        (Some(_), _) => Some(Dialect::ApplyPatch),
        (None, Some(_)) => Some(Dialect::SearchReplace),
        (None, None) => None,
    }
}

/// What a text in which no dialect is detected may be the cut-off
/// beginning of, in words: `{` alone, or `*** B` (the start of `*** Begin
/// Patch`). `None` when a dialect is detected or the text begins nothing.
pub fn cut_beginning(text: &str) -> Option<&'static str> {
    if detect(text).is_some() {
        return None;
    }
    let start = text.trim().to_ascii_lowercase();
    if start.starts_with('{') {
        Some("an edit's JSON")
    } else if start.starts_with("**") && "*** begin patch".starts_with(start.as_str()) {
        Some("an apply_patch")
    } else {
        None
    }
}

/// [`detect`] over a text that only grows, at a cost proportional to what
/// is new: lines already examined are not examined again.
#[derive(Debug, Clone, Default)]
pub struct Detector {
    /// Start of the first line not yet complete when last examined.
    scanned: usize,
    /// Once decided, the dialect stays (the first marker decides).
    found: Option<Dialect>,
}

impl Detector {
    /// The dialect of `text`, the previous text plus what arrived since.
    pub fn detect(&mut self, text: &str) -> Option<Dialect> {
        if self.found.is_none() {
            self.found = self.examine(text);
        }
        self.found
    }

    fn examine(&mut self, text: &str) -> Option<Dialect> {
        let from = self.scanned.min(text.len());
        let start = text.trim_start();
        if start.starts_with('{') {
            // An edit key may be cut by the previous update: look again
            // from a little before.
            let mut back = from.saturating_sub(16);
            while !text.is_char_boundary(back) {
                back -= 1;
            }
            if EDIT_KEYS.iter().any(|k| text[back..].contains(k)) {
                return Some(Dialect::EditJson);
            }
        }
        let new = &text[from..];
        self.scanned = from + new.rfind('\n').map_or(0, |i| i + 1);
        let mut search = None;
        let mut patch = None;
        for line in new.split_inclusive('\n') {
            let bare = line.trim_end_matches('\n').trim_end_matches('\r');
            if is_search_start(bare) {
                search = Some(Dialect::SearchReplace);
                break;
            }
            if is_patch_line(line) {
                patch = Some(Dialect::ApplyPatch);
                break;
            }
        }
        search.or(patch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text cut before anything decides its dialect names what it may
    /// have begun; prose or a decided dialect names nothing.
    #[test]
    fn a_cut_beginning_is_named() {
        assert_eq!(cut_beginning("{"), Some("an edit's JSON"));
        assert_eq!(cut_beginning("{\"fi"), Some("an edit's JSON"));
        assert_eq!(cut_beginning("*** B"), Some("an apply_patch"));
        assert_eq!(cut_beginning("**"), Some("an apply_patch"));
        assert_eq!(cut_beginning("*** Bold claim"), None);
        assert_eq!(cut_beginning("just prose"), None);
        assert_eq!(cut_beginning(""), None);
        assert_eq!(cut_beginning("*** Begin Patch\n"), None);
    }

    #[test]
    fn each_dialect_is_recognised() {
        let patch = "*** Begin Patch\n*** Update File: a.rs\n@@\n-a\n+b\n*** End Patch\n";
        assert_eq!(detect(patch), Some(Dialect::ApplyPatch));
        let heredoc = format!("apply_patch <<'EOF'\n{patch}EOF\n");
        assert_eq!(detect(&heredoc), Some(Dialect::ApplyPatch));
        assert_eq!(detect("*** BEGIN PATCH\n"), Some(Dialect::ApplyPatch));
        let sr = "------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n";
        assert_eq!(detect(sr), Some(Dialect::SearchReplace));
        assert_eq!(
            detect("<<<<<<< SEARCH\n*** Update File: x\n"),
            Some(Dialect::SearchReplace)
        );
        let edit = r#"{"file_path": "a.rs", "old_string": "a", "new_string": "b"}"#;
        assert_eq!(detect(edit), Some(Dialect::EditJson));
        assert_eq!(
            detect(r#"{"path":"a","old_text":"x"#),
            Some(Dialect::EditJson)
        );
        // Cline's editor creating a file: a path and the new text only.
        assert_eq!(
            detect(r#"{"path":"cn.py","new_text":"print(2)\n"}"#),
            Some(Dialect::EditJson)
        );
        assert_eq!(detect("{\"fi"), None);
        assert_eq!(detect("hello\n"), None);
        assert_eq!(detect(""), None);
    }

    #[test]
    fn the_detector_agrees_with_detect_on_every_prefix() {
        let texts = [
            "intro\n*** Begin Patch\n*** Update File: a.rs\n@@\n-a\n+b\n*** End Patch\n",
            "notes\n------- SEARCH\n*** Update File: x\n=======\n+++++++ REPLACE\n",
            r#"{"file_path": "a.rs", "old_string": "a", "new_string": "b"}"#,
        ];
        for text in texts {
            for step in [1, 3, 7] {
                let mut detector = Detector::default();
                let mut end = 0;
                while end < text.len() {
                    end = (end + step).min(text.len());
                    let got = detector.detect(&text[..end]);
                    let want = detect(&text[..end]);
                    // The detector may decide an edit a little earlier (no
                    // wait for a newline); it never disagrees once decided.
                    if want.is_some() {
                        assert_eq!(got, want, "{text:?} at {end}");
                    }
                }
            }
        }
    }

    #[test]
    fn patch_lines_are_not_taken_from_ordinary_code() {
        assert!(!is_patch_line("*** a comment"));
        assert!(!is_patch_line("/* begin patch */"));
        assert!(is_patch_line("** Begin Patch"));
        assert!(is_patch_line("*** End Patch\u{a0}"));
    }
}
