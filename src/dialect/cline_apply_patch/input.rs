//! From the tool input to the patch's lines: the tool wrapper's schema
//! check and Cline's `normalizePatchInput`.

use serde_json::Value;

use super::js;

/// The zod message the agent runtime reports when `{input}` holds an empty
/// string.
pub const TOO_SMALL: &str = "✖ Too small: expected string to have >=1 characters\n  → at input";
/// The zod message for any other shape than `{input: string}` or a string.
pub const INVALID_INPUT: &str = "✖ Invalid input";

use crate::dialect::apply_patch::parse::{BEGIN, END};

/// The patch text, as the tool wrapper's `validateWithZod(z.union([z.object(
/// {input: z.string().min(1)}), z.string()]), input)` takes it: a bare
/// string (even empty) or an object's `input` (other keys stripped). Any
/// other shape throws zod's message before the tool's own try/catch.
pub fn patch_text(input: &Value) -> Result<&str, &'static str> {
    match input {
        Value::String(text) => Ok(text),
        Value::Object(fields) => match fields.get("input") {
            Some(Value::String(text)) if text.is_empty() => Err(TOO_SMALL),
            Some(Value::String(text)) => Ok(text),
            _ => Err(INVALID_INPUT),
        },
        _ => Err(INVALID_INPUT),
    }
}

/// The error Cline throws when only one sentinel is present, or End before
/// Begin.
pub const INCOMPLETE_SENTINELS: &str =
    "Invalid patch text - incomplete sentinels. Try breaking it into smaller patches.";

/// Cline's `normalizePatchInput`: the text split on `\n`, one trailing `\r`
/// dropped from each line. With a line starting `*** Begin Patch` or one
/// starting `*** End Patch`, the lines from the first Begin to the last End
/// (both needed, in that order); without either, the lines stripped of
/// wrapper lines (`%%bash`, `apply_patch`, `EOF`, a fence; a blank line
/// stops the stripping) and then of empty lines at both ends, between an
/// added Begin and End.
pub fn patch_lines(text: &str) -> Result<Vec<String>, &'static str> {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect();
    let begin = lines.iter().position(|l| l.starts_with(BEGIN));
    let end = lines.iter().rposition(|l| l.starts_with(END));
    if begin.is_some() || end.is_some() {
        return match (begin, end) {
            (Some(begin), Some(end)) if end >= begin => {
                Ok(lines[begin..=end].iter().map(|l| l.to_string()).collect())
            }
            _ => Err(INCOMPLETE_SENTINELS),
        };
    }
    let mut from = 0;
    let mut to = lines.len();
    while from < to && is_wrapper(lines[from]) {
        from += 1;
    }
    while to > from && is_wrapper(lines[to - 1]) {
        to -= 1;
    }
    while from < to && lines[from].is_empty() {
        from += 1;
    }
    while to > from && lines[to - 1].is_empty() {
        to -= 1;
    }
    let mut out = Vec::with_capacity(to - from + 2);
    out.push(BEGIN.to_string());
    out.extend(lines[from..to].iter().map(|l| l.to_string()));
    out.push(END.to_string());
    Ok(out)
}

/// Cline's `isWrapperLine`: not blank, and starting with one of its legacy
/// wrapper prefixes.
fn is_wrapper(line: &str) -> bool {
    !js::trim(line).is_empty()
        && ["%%bash", "apply_patch", "EOF", "```"]
            .iter()
            .any(|prefix| line.starts_with(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_schema_takes_an_input_field_or_a_bare_string() {
        assert_eq!(patch_text(&json!({"input": "x", "extra": 1})), Ok("x"));
        assert_eq!(patch_text(&json!("")), Ok(""));
        assert_eq!(patch_text(&json!({"input": ""})), Err(TOO_SMALL));
        assert_eq!(patch_text(&json!({"patch": "x"})), Err(INVALID_INPUT));
        assert_eq!(patch_text(&json!({"input": ["x"]})), Err(INVALID_INPUT));
        assert_eq!(patch_text(&json!(null)), Err(INVALID_INPUT));
    }

    #[test]
    fn sentinels_cut_out_the_patch() {
        let text = "prose\n*** Begin Patch (v2)\r\n*** Add File: a\n+x\n*** End Patch ***\nEOF\n";
        assert_eq!(
            patch_lines(text).unwrap(),
            [
                "*** Begin Patch (v2)",
                "*** Add File: a",
                "+x",
                "*** End Patch ***"
            ]
        );
        assert_eq!(
            patch_lines("*** End Patch\n*** Begin Patch"),
            Err(INCOMPLETE_SENTINELS)
        );
        assert_eq!(
            patch_lines("*** Begin Patch\n+x"),
            Err(INCOMPLETE_SENTINELS)
        );
    }

    #[test]
    fn without_sentinels_wrappers_are_stripped_up_to_a_blank_line() {
        let text = "%%bash\napply_patch <<\"EOF\"\n*** Add File: a\n+x\nEOF\n";
        // The final empty line stops the stripping from the end: `EOF` stays.
        assert_eq!(
            patch_lines(text).unwrap(),
            [BEGIN, "*** Add File: a", "+x", "EOF", END]
        );
        assert_eq!(
            patch_lines("```\n\n*** Delete File: a\n\n```").unwrap(),
            [BEGIN, "*** Delete File: a", END]
        );
    }
}
