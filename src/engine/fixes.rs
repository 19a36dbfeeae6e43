//! The clean-up Cline's caller applies to non-Claude models' diffs before the
//! applier runs. Off unless asked for.

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
    fn xml_files_keep_entities() {
        assert_eq!(fix_model_output("&lt;\u{FFFD}", "a.XML"), "&lt;");
    }
}
