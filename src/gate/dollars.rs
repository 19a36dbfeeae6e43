//! A replace-all edit whose new text the agent does not write as sent:
//! OpenCode's `edit` with `replaceAll` runs JavaScript's
//! `String.prototype.replaceAll`, which expands `$$` (one `$`), `$&` (the
//! text matched), `` $` `` (the text before it) and `$'` (the text after
//! it) in `newString` (a tester's find: `'$' + p` holds `$'`, and OpenCode
//! wrote the rest of the file in its place; a Makefile's `$$HOME` became
//! `$HOME`; both passed as exact). srview's ports say what each agent
//! writes at the first place (`EditMatch::written`): only OpenCode's
//! expands (Gemini CLI's `allow_multiple` and Qwen Code's `replace_all`
//! write the text as sent, pi and Cline have no replace-all), and the check
//! reads the port, not the agent's name.
//!
//! No corrected edit is offered to the model: the input that writes the
//! model's text (each `$` doubled) is itself a `newString` with `$`
//! sequences, which the gate could not tell from one meant literally when
//! it is sent again. The next step is one edit per place, without
//! `replaceAll`, whose `newString` OpenCode writes as sent.

use serde_json::Value;

use crate::dialect::call::CallOutcome;
use crate::dialect::registry::DialectRow;

/// The text as compared: line endings as LF, no byte order mark.
fn plain(text: &str) -> String {
    text.trim_start_matches('\u{feff}').replace("\r\n", "\n")
}

/// The doubt of each edit of `input` (a call of `row`'s matcher, placed
/// exactly as `outcome` says) that replaces every place and whose text
/// written is not its `$`-holding new text: one sentence each, naming the
/// first line that differs, and what to send instead.
pub(super) fn expanded(row: &DialectRow, input: &Value, outcome: &CallOutcome) -> Vec<String> {
    let Some(fields) = row.strings else {
        return Vec::new();
    };
    let every_place = fields
        .replace_all
        .is_some_and(|key| input.get(key) == Some(&Value::Bool(true)));
    if !every_place || fields.list.is_some() {
        return Vec::new();
    }
    let Some(new) = input.get(fields.new).and_then(Value::as_str) else {
        return Vec::new();
    };
    if !new.contains('$') {
        return Vec::new();
    }
    let mut out = Vec::new();
    for matched in outcome.edits.iter().filter(|m| !m.loose) {
        let Some(written) = &matched.written else {
            continue;
        };
        let (written, sent) = (plain(written), plain(new));
        if written == sent {
            continue;
        }
        let (line, wrote, meant) = written
            .split('\n')
            .zip(sent.split('\n'))
            .enumerate()
            .find(|(_, (w, s))| w != s)
            .map(|(n, (w, s))| (n + 1, w, s))
            .unwrap_or((1, written.as_str(), sent.as_str()));
        out.push(format!(
            "{} with {} expands the `$` sequences of {} as JavaScript's replaceAll does (`$$` \
             writes one `$`, `$&` the text matched, `` $` `` the text before it, `$'` the text \
             after it), so it writes text the model did not send: line {line} of what it \
             writes is `{}` where the model wrote `{}`: send one edit per place without {} \
             (its {} is then written as sent), each old text long enough to occur once",
            row.title,
            fields.replace_all.unwrap_or_default(),
            fields.new,
            crate::words::clipped(wrote, 80),
            crate::words::clipped(meant, 80),
            fields.replace_all.unwrap_or_default(),
            fields.new,
        ));
    }
    out
}
