//! The words of the gate's messages to the model: srview's diagnosis in
//! the terms of the tool the model called, and a diagnosis's line diff.
//! Shared by the string edits' judgment (`judge`) and the patches'
//! (`patch`).

use super::GateAgent;
use crate::diagnose::{DiffLine, Side};

/// How srview's exact-string diagnosis ends the sentence about an old text
/// found at several places (`dialect::edit::diagnosis`), before its hint.
const AMBIGUOUS: &str = ": the edit cannot tell which is meant, so no corrected edit is offered.";

/// Whether `explanation` says an old text occurs at several places.
pub(super) fn is_ambiguous(explanation: &str) -> bool {
    explanation
        .lines()
        .any(|line| line.contains(AMBIGUOUS) && line.contains(" occurs "))
}

/// `explanation` with the advice of each sentence about an old text found
/// at several places (`FIELD occurs N times (line a, line b, ...): ...`)
/// in `agent`'s own terms: what to send to change one of them (the field
/// again with more of its surrounding lines), and to change all N the
/// agent's own replace-all where its tool has one (Claude Code's and Qwen
/// Code's `replace_all`, Gemini CLI's `allow_multiple`, OpenCode's
/// `replaceAll`), else one edit per place. The diagnosis's own hint names
/// Claude Code's `replace_all` for every agent.
pub(super) fn ambiguity_in_terms(agent: GateAgent, tool: &str, explanation: &str) -> String {
    if !is_ambiguous(explanation) {
        return explanation.to_string();
    }
    explanation
        .split('\n')
        .map(|line| {
            let (Some(at), Some(occurs)) = (line.find(AMBIGUOUS), line.find(" occurs ")) else {
                return line.to_string();
            };
            let field = line[..occurs].rsplit(' ').next().unwrap_or("the old text");
            let count = line[occurs + " occurs ".len()..]
                .split(' ')
                .next()
                .unwrap_or("");
            let all: String = match agent {
                GateAgent::ClaudeCode | GateAgent::QwenCode => "set replace_all to true".into(),
                GateAgent::GeminiCli => "set allow_multiple to true".into(),
                GateAgent::Opencode => "set replaceAll to true".into(),
                GateAgent::Pi => format!(
                    "send one entry of edits per place, each with lines around it that occur \
                     only there ({tool} has no replace-all)"
                ),
                _ => format!("send one {tool} call per place ({tool} has no replace-all)"),
            };
            format!(
                "{}{AMBIGUOUS} To change one of them, send {field} again with enough of the \
                 lines around it to occur only at that place; to change all {count}, {all}.",
                &line[..at]
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` (srview's diagnosis) naming the agent's own matcher where it
/// says "the reference" (srview's word for the program whose behaviour a
/// dialect reproduces, which the model never heard of: a user's find):
/// `Gemini CLI's replace`, `Codex's apply_patch`, `pi's edit`.
pub(super) fn own_matcher(agent: GateAgent, tool: &str, text: &str) -> String {
    crate::words::own_words(&format!("{}'s {tool}", agent.title()), text)
}

/// A diagnosis's line diff, for the model: the sent text's lines (`-`)
/// against the file's (`+`, with their line numbers).
pub(super) fn line_diff_text(lines: &[DiffLine]) -> String {
    let mut out = String::new();
    for line in lines {
        let number = line.file_line.map(|n| n.to_string()).unwrap_or_default();
        let (mark, number) = match line.tag {
            Side::Equal => (' ', number),
            Side::Delete => ('-', "sent".to_string()),
            Side::Insert => ('+', number),
        };
        out.push_str(&format!("  {mark} {number:>5} | {}\n", line.text));
    }
    out.push_str(&normalisation_note(lines));
    out
}

/// For each line as sent whose file line (shown in the same diff) is the
/// same text in another Unicode normalisation form, a sentence saying so
/// with the code points: the two look identical, and a model told only
/// that they differ sends the same line again (a fresh tester's find).
fn normalisation_note(lines: &[DiffLine]) -> String {
    use crate::diagnose::doubt_normal::{code_points, normal_form, normalisation_stretch};
    let mut out = String::new();
    for sent in lines.iter().filter(|l| l.tag == Side::Delete) {
        let Some(file) = lines.iter().find(|l| {
            l.tag == Side::Insert
                && crate::diagnose::differs_only_in_normalisation(&sent.text, &l.text)
        }) else {
            continue;
        };
        let (theirs, ours) = normalisation_stretch(&sent.text, &file.text);
        out.push_str(&format!(
            "File line {} and the line as sent look identical but differ in Unicode \
             normalisation: the file writes `{ours}` as {} ({}), the edit as {} ({}).\n",
            file.file_line.map(|n| n.to_string()).unwrap_or_default(),
            code_points(ours),
            normal_form(ours),
            code_points(theirs),
            normal_form(theirs),
        ));
    }
    out
}

/// The legend of [`line_diff_text`].
pub(super) const LINE_DIFF_LEGEND: &str =
    "(- a line as sent, + the file's line at that number, blank: the same in both)";

/// `message` (srview's diagnosis, worded for SEARCH/REPLACE blocks) in the
/// terms of the tool the model called: its fields (`old` and `new`:
/// `old_string`, `oldText`, a patch's "old lines" ...) for the block's
/// parts. Only srview's sentences go through it, never the file's lines.
pub(super) fn in_terms(message: &str, terms: &Terms) -> String {
    let Terms {
        old,
        new,
        old_line,
        new_line,
    } = terms;
    // "the SEARCH text is" reads "the hunk's old lines are", "old_string
    // is" (not "the the hunk's old lines is": a new user's find).
    let be = |part: &str| if part.ends_with("lines") { "are" } else { "is" };
    message
        .replace("SEARCH/REPLACE", "edit")
        .replace("the SEARCH text is ", &format!("{old} {} ", be(old)))
        .replace("the REPLACE text is ", &format!("{new} {} ", be(new)))
        .replace("the SEARCH text", old)
        .replace("the REPLACE text", new)
        .replace("the SEARCH section", old)
        .replace("the REPLACE section", new)
        .replace("SEARCH lines", &format!("{old_line}s"))
        .replace("SEARCH line", old_line)
        .replace("SEARCH text", old)
        .replace("SEARCH section", old)
        .replace("the SEARCH", old)
        .replace("SEARCH", old)
        .replace("REPLACE lines", &format!("{new_line}s"))
        .replace("REPLACE line", new_line)
        .replace("REPLACE text", new)
        .replace("REPLACE section", new)
        .replace("the REPLACE", new)
        .replace("REPLACE", new)
}

/// The tool's words for a block's parts, for [`in_terms`].
pub(super) struct Terms {
    /// The text to find (`old_string`, `oldText`, "the hunk's old lines").
    pub old: String,
    /// The text written instead.
    pub new: String,
    /// One line of the text to find ("old_string line", "the hunk's old
    /// line"), before its number.
    pub old_line: String,
    /// One line of the text written instead.
    pub new_line: String,
}

impl Terms {
    /// An old/new string edit's field names.
    pub(super) fn fields(old: &str, new: &str) -> Terms {
        Terms {
            old: old.to_string(),
            new: new.to_string(),
            old_line: format!("{old} line"),
            new_line: format!("{new} line"),
        }
    }

    /// A patch's parts: "the hunk's old lines", "the hunk's old line 3".
    pub(super) fn patch() -> Terms {
        Terms {
            old: "the hunk's old lines".to_string(),
            new: "the hunk's new lines".to_string(),
            old_line: "the hunk's old line".to_string(),
            new_line: "the hunk's new line".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAID: &str = "this Edit fails: Found 3 matches.\nold_string occurs 3 times (line 1, \
                        line 3, line 5): the edit cannot tell which is meant, so no corrected \
                        edit is offered. Add context that occurs only at the intended place, or \
                        set replace_all to change every one.\nThe lines:";

    /// "the reference" reads as the agent's own matcher.
    #[test]
    fn the_reference_is_named_as_the_agents_matcher() {
        let said = "matched inside a longer line: the reference matches text, not whole lines. \
                    The reference took the first.";
        assert_eq!(
            own_matcher(GateAgent::GeminiCli, "replace", said),
            "matched inside a longer line: Gemini CLI's replace matches text, not whole lines. \
             Gemini CLI's replace took the first."
        );
        assert_eq!(
            own_matcher(GateAgent::Pi, "edit", said),
            "matched inside a longer line: pi's edit matches text, not whole lines. Pi's edit \
             took the first."
        );
        assert_eq!(
            own_matcher(GateAgent::Codex, "apply_patch", "as is"),
            "as is"
        );
    }

    /// "the REPLACE text is" in a patch's terms and a tool's fields.
    #[test]
    fn the_parts_read_as_one_phrase() {
        let said = "matched, but the REPLACE text is already there; the SEARCH text is cut";
        assert_eq!(
            in_terms(said, &Terms::patch()),
            "matched, but the hunk's new lines are already there; the hunk's old lines are cut"
        );
        assert_eq!(
            in_terms(said, &Terms::fields("old_string", "new_string")),
            "matched, but new_string is already there; old_string is cut"
        );
    }

    /// The count, the lines and the field are kept; the advice names what
    /// each agent's tool takes to change all of them.
    #[test]
    fn the_ambiguity_advice_is_in_each_agents_terms() {
        let head = "old_string occurs 3 times (line 1, line 3, line 5): the edit cannot tell \
                    which is meant, so no corrected edit is offered. To change one of them, \
                    send old_string again with enough of the lines around it to occur only at \
                    that place; to change all 3, ";
        let expect =
            |all: &str| format!("this Edit fails: Found 3 matches.\n{head}{all}.\nThe lines:");
        assert_eq!(
            ambiguity_in_terms(GateAgent::ClaudeCode, "Edit", SAID),
            expect("set replace_all to true")
        );
        assert_eq!(
            ambiguity_in_terms(GateAgent::GeminiCli, "Edit", SAID),
            expect("set allow_multiple to true")
        );
        assert_eq!(
            ambiguity_in_terms(GateAgent::Opencode, "Edit", SAID),
            expect("set replaceAll to true")
        );
        assert_eq!(
            ambiguity_in_terms(GateAgent::Pi, "edit", SAID),
            expect(
                "send one entry of edits per place, each with lines around it that occur only \
                 there (edit has no replace-all)"
            )
        );
        assert_eq!(
            ambiguity_in_terms(GateAgent::ClineCli, "editor", SAID),
            expect("send one editor call per place (editor has no replace-all)")
        );
        assert!(is_ambiguous(SAID));
        let other = "this Edit fails: not found";
        assert!(!is_ambiguous(other));
        assert_eq!(ambiguity_in_terms(GateAgent::Pi, "edit", other), other);
    }
}
