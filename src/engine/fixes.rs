//! The clean-up Cline's caller applies to non-Claude models' diffs before the
//! applier runs. Off unless asked for.
//!
//! [`engine_input`] is the one place that decides what the applier gets:
//! every caller (the commands, the live stream, transcripts, the previewer)
//! goes through it, so the rule lives here once.

use std::borrow::Cow;
use std::path::Path;

/// `diff` as the applier gets it for the file at `path`: cleaned up by
/// [`fix_model_output`] (a copy) when `fix` is on, else `diff` itself.
pub fn engine_input<'a>(diff: &'a str, path: &Path, fix: bool) -> Cow<'a, str> {
    if fix {
        Cow::Owned(fix_model_output(diff, &path.to_string_lossy()))
    } else {
        Cow::Borrowed(diff)
    }
}

/// Unescapes `&gt; &lt; &quot; &amp; &apos;` (in that order, as the reference
/// does) unless `path` ends in `.xml`, and removes U+FFFD.
pub fn fix_model_output(diff: &str, path: &str) -> String {
    let mut text = diff.to_string();
    if !path.to_ascii_lowercase().ends_with(".xml") {
        for (entity, plain) in [
            ("&gt;", ">"),
            ("&lt;", "<"),
            ("&quot;", "\""),
            ("&amp;", "&"),
            ("&apos;", "'"),
        ] {
            if text.contains(entity) {
                text = text.replace(entity, plain);
            }
        }
    }
    text.replace('\u{FFFD}', "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescapes_in_reference_order() {
        // `&amp;lt;` becomes `&lt;`, not `<`: `&amp;` is unescaped after `&lt;`.
        assert_eq!(
            fix_model_output("a &lt;b&gt; &amp;lt; \u{FFFD}", "x.rs"),
            "a <b> &lt; "
        );
    }

    #[test]
    fn engine_input_cleans_only_when_asked() {
        let diff = "a &lt;b&gt;\u{FFFD}";
        let path = Path::new("x.rs");
        assert!(matches!(engine_input(diff, path, false), Cow::Borrowed(d) if d == diff));
        assert_eq!(engine_input(diff, path, true), "a <b>");
    }

    #[test]
    fn xml_files_keep_entities() {
        assert_eq!(fix_model_output("&lt;\u{FFFD}", "a.XML"), "&lt;");
    }
}
