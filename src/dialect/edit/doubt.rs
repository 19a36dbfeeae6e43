//! An edit that applied but does not read as it acts, which the agents do
//! without a word; srview says it, and holds a write back:
//! - its old text starts or ends inside a word of the file (`x = 1` found
//!   in `max = 10`): it changes part of a word it does not show;
//! - the file mixes CRLF and LF line endings and the result does not: the
//!   agent rewrote the endings of lines the edit does not show;
//! - its new text adds bidirectional controls or zero-width characters the
//!   file did not hold ([`crate::diagnose::hidden`]).
//! - its new text stands in for lines it leaves out; for a whole-file
//!   write ([`write_doubt`], the gate's check of every agent's write too),
//!   its content stands in for lines of the file, or is exactly what the
//!   file holds;
//! - its result joins two lines of the file into one that its new text
//!   does not show joined ([`joins_lines`]): a new text that drops its old
//!   text's final newline, or an empty new text the agent's own rule also
//!   takes the newline after.

use super::word_joins::{WordJoins, number_bounds};
use super::{Change, EditOutcome, Tool};
use crate::diagnose::layout::BreakKind;
use crate::words;

/// Every reason srview cannot stand behind the edit's result over
/// `original` (the content it applied to): none for an edit that did not
/// apply.
pub fn edit_doubts(outcome: &EditOutcome, original: &str) -> Vec<String> {
    edit_doubt_kinds(outcome, original)
        .into_iter()
        .map(|(_, message)| message)
        .collect()
}

/// What an [`edit_doubts`] sentence is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditDoubtKind {
    /// Its old text starts or ends inside a word of the file.
    CutsWord,
    /// Its old text matched only inside a comment, while a line of code
    /// starts as it does: the edit changes the comment, not the code.
    InComment,
    /// A replace-all rename whose places play different roles (a name, an
    /// attribute of another object, a string): it renames other things
    /// too ([`super::roles`]; the sentence ends with what to send).
    RenamesOthers,
    /// Lines it does not show get other line endings.
    LineEndings,
    /// Its new lines end otherwise than the file's (CRLF lines into an LF
    /// file, LF lines into a CRLF one): the result mixes line endings (the
    /// sentence ends with what to send instead).
    MixesEndings,
    /// Its new text is already there: applied again, it repeats.
    AlreadyApplied,
    /// Its new text begins or ends with lines that stand right before or
    /// after its old text: written, they stand twice.
    RepeatsNeighbours,
    /// It leaves the file with a fault of its own as a whole
    /// ([`crate::diagnose::layout::layout_break`]): misindented (Python, a
    /// Makefile's recipe, a YAML key), a name or key defined twice,
    /// brackets unbalanced, JSON, YAML or TOML unreadable, a Python name
    /// used and no longer defined, a string left open.
    Layout(BreakKind),
    /// Its new text stands in for lines of its old text it leaves out (the
    /// sentence ends with what to send instead).
    ElidesLines,
    /// A whole content holding a run of the file's lines twice, back to
    /// back ([`crate::diagnose::doubt_doubled`]; the sentence ends with
    /// what to send instead).
    WritesTwice,
    /// Its new text adds bidirectional controls or zero-width characters
    /// the file did not hold ([`crate::diagnose::hidden`]; the sentence
    /// ends with what to send instead).
    HiddenText,
    /// Its result joins two lines of the file into one that its new text
    /// does not show joined ([`joins_lines`]; the sentence ends with what
    /// to send instead).
    JoinsLines,
    /// Claude Code writes its new text without the trailing whitespace the
    /// model gave its lines ([`trailing_whitespace_stripped`]).
    WhitespaceStripped,
}

impl EditDoubtKind {
    /// A fault of the file as a whole the edit leaves
    /// ([`crate::diagnose::layout::layout_break`]): misindented, a name
    /// defined twice, brackets unbalanced. One edit of several may leave
    /// it where the call's whole result does not: a caller that judges
    /// each edit of a call alone leaves these to the whole result.
    pub fn of_layout(self) -> bool {
        matches!(self, EditDoubtKind::Layout(_))
    }
}

/// `b` for an edit inserting at a line (Cline's `insert_line`, no old
/// text): a decorator's advice says where to insert, not where to start an
/// old text the call does not have.
fn inserted_layout(
    outcome: &EditOutcome,
    original: &str,
    result: &str,
    b: crate::diagnose::layout::LayoutBreak,
) -> crate::diagnose::layout::LayoutBreak {
    // Cline's editor with no old text on a file that exists: `insert_line`.
    let inserts = outcome.tool == super::Tool::Editor
        && outcome.block.search_text.is_empty()
        && !original.is_empty();
    match crate::diagnose::doubt_decorators::decorator_moved(&outcome.path, original, result) {
        Some(moved) if inserts && b.kind == BreakKind::MovesDecorator => {
            crate::diagnose::layout::LayoutBreak {
                why: moved.describe_insertion(),
                ..b
            }
        }
        _ => b,
    }
}

/// A layout fault as a doubt, with its kind.
pub fn layout_kind(b: crate::diagnose::layout::LayoutBreak) -> (EditDoubtKind, String) {
    (EditDoubtKind::Layout(b.kind), b.why)
}

/// [`edit_doubts`], each with its kind.
pub fn edit_doubt_kinds(outcome: &EditOutcome, original: &str) -> Vec<(EditDoubtKind, String)> {
    let mut out: Vec<(EditDoubtKind, String)> = cut_words(outcome, original)
        .into_iter()
        .chain(in_comment(outcome, original).map(|m| (EditDoubtKind::InComment, m)))
        .collect();
    if let Ok(done) = &outcome.result {
        let kind = |k: EditDoubtKind| move |m: String| (k, m);
        // A Write over a file: no old text, the file is what it replaces
        // (a tester's find: `check` and `apply --write` called a Write of
        // `# ... rest of the file unchanged ...` exact, the gate denied it).
        // Its line endings are the content's own, judged as the gate
        // judges them ([`write_endings_doubt`]).
        if done.change == Change::Updated || outcome.tool == Tool::Write {
            out.extend(
                trailing_whitespace_stripped(outcome).map(kind(EditDoubtKind::WhitespaceStripped)),
            );
        }
        if outcome.tool == Tool::Write {
            let over = (done.change == Change::Updated).then_some(original);
            out.extend(
                over.and_then(|old| write_endings_doubt(&outcome.path, old, &done.new_content)),
            );
            whole_write_doubts(&outcome.path, over, &done.new_content, &mut out);
            return out;
        }
        out.extend(match outcome.tool {
            Tool::Editor => cline_endings_doubt(original, &done.new_content),
            _ => endings_doubt(original, &done.new_content),
        });
        let applied = already_applied(outcome, original);
        // A new text already there whole is said once, as applied already.
        if applied.is_none() {
            out.extend(
                repeats_neighbours(outcome, original).map(kind(EditDoubtKind::RepeatsNeighbours)),
            );
        }
        out.extend(applied.map(kind(EditDoubtKind::AlreadyApplied)));
        out.extend(
            stands_in(&outcome.path, outcome, original).map(kind(EditDoubtKind::ElidesLines)),
        );
        out.extend(joins_lines(outcome, original).map(kind(EditDoubtKind::JoinsLines)));
        // Said once: an earlier doubt (an old text starting inside a line's
        // indentation) already names what misindents the lines.
        if out.is_empty() {
            out.extend(
                crate::diagnose::layout::layout_break(&outcome.path, original, &done.new_content)
                    .map(|b| inserted_layout(outcome, original, &done.new_content, b))
                    .map(layout_kind),
            );
        }
        if crate::diagnose::hidden::has_hidden(&outcome.block.replace_text) {
            out.extend(
                crate::diagnose::hidden::hidden_added(original, [done.new_content.as_str()])
                    .map(|h| (EditDoubtKind::HiddenText, h.describe("its new text"))),
            );
        }
    }
    out
}

/// Claude Code's `stripTrailingWhitespace` of an `Edit`'s `new_string` or a
/// `Write`'s `content` outside `.md`/`.mdx` files
/// ([`super::claude::normalised_input`]), where the model's text had any:
/// the file gets other lines than the model wrote (a tester's find: a
/// test's expected text padded with spaces lost them, and the test that
/// passed on srview's predicted file failed on Claude Code's). An input
/// that came through Claude Code (a hook payload, a transcript) was
/// stripped already and has none.
fn trailing_whitespace_stripped(outcome: &EditOutcome) -> Option<String> {
    let sent = outcome.sent_new_text.as_deref()?;
    // Said where the whitespace is the file's own: a line of the old text
    // ending in it that the model's new text keeps as it is (a padded
    // expected output, a fixed-width table), which the file then loses.
    // Elsewhere a model's stray trailing space is what the strip is for;
    // a join it showed meant is the joins check's ([`joins_lines`]).
    let padded = |line: &&str| {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let kept = crate::engine::js::js_trim_end(line);
        !kept.is_empty() && kept.len() < line.len()
    };
    let sent_lines: Vec<&str> = sent.split('\n').collect();
    if !outcome
        .block
        .search_text
        .split('\n')
        .filter(padded)
        .any(|line| sent_lines.contains(&line))
    {
        return None;
    }
    let field = match outcome.tool {
        Tool::Write => "content",
        _ => "new_string",
    };
    let lines: Vec<usize> = sent
        .split('\n')
        .enumerate()
        // A line of whitespace alone left empty changes no text.
        .filter(|(_, line)| {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let kept = crate::engine::js::js_trim_end(line);
            !kept.is_empty() && kept.len() < line.len()
        })
        .map(|(i, _)| i + 1)
        .collect();
    let (first, count) = (lines.first()?, lines.len());
    let first_text = sent.split('\n').nth(first - 1).unwrap_or_default();
    let first_text = first_text.strip_suffix('\r').unwrap_or(first_text);
    let kept = crate::engine::js::js_trim_end(first_text);
    let lost = first_text[kept.len()..].chars().count();
    let which = if count == 1 {
        format!("line {first} of {field} reaches")
    } else {
        format!("{count} lines of {field} reach")
    };
    Some(format!(
        "Claude Code strips the trailing whitespace of every line of {field} outside .md and \
         .mdx files, so {which} the file without the whitespace the model wrote after it \
         (line {first}, `{}`, loses {lost} character{}): the file gets other lines than the \
         edit shows: send {field} without it if that is meant; a text whose trailing spaces \
         matter (an expected output, a fixed-width table) cannot be written by this tool",
        shorten(kept),
        if lost == 1 { "" } else { "s" }
    ))
}

/// An edit whose new text stands in for lines of its old text it leaves
/// out (`# ... rest unchanged ...` where functions stood): applied, they
/// are gone (a tester's find: such an edit passed every agent's gate,
/// while a Write of the same result was held). `path` names the file,
/// whose kind tells its comments and its code (a Python `...`).
pub fn stands_in(path: &str, outcome: &EditOutcome, original: &str) -> Option<String> {
    let b = &outcome.block;
    // The file above the edit: a `def`'s class may be declared there.
    let above = b
        .original
        .and_then(|s| original.get(..s.start))
        .unwrap_or("");
    let elided =
        crate::dialect::elided::elided_under(path, &b.search_text, &b.replace_text, above)?;
    Some(format!(
        "its new text stands in for lines it leaves out (its line {}: `{}`), so it deletes {} \
         of the text it replaces: send every line the edit keeps, or edit only the lines that \
         change",
        elided.line,
        elided.placeholder,
        words::count(elided.lost, "non-blank line"),
    ))
}

/// The agents whose edit tool, given an empty new text, also deletes the
/// newline right after an old text that does not end with one (so that
/// deleting a line leaves no blank line): Claude Code's `Edit` (srview's
/// `edit-json`) and Qwen Code's `edit` (`qwen-edit`), by their documented
/// rule. Gemini CLI's, OpenCode's and pi's keep it. `dialect`: a
/// `--dialect` value.
pub fn deletes_newline_after(dialect: &str) -> bool {
    matches!(dialect, "edit-json" | "qwen-edit")
}

/// An exactly placed edit whose result joins two lines of the file into
/// one that its new text does not show joined ([`joined_lines`] over the
/// edit's first place): `B = 2\n` → `B = 20` makes `B = 20C = 3` of the
/// next line (a tester's find: only YAML's parse caught it), and an empty
/// new text deleting a trailing comment, whose agent also deletes the
/// newline after it, glues the next line onto the code before it.
pub fn joins_lines(outcome: &EditOutcome, original: &str) -> Option<String> {
    let b = &outcome.block;
    let span = b.original?;
    // The text the agent places (Claude Code strips a trailing space that
    // showed a join meant: `const a = 10const b = 2`).
    let new = &b.replace_text;
    joined_lines(
        &outcome.path,
        original,
        span.start,
        span.end,
        &b.search_text,
        new,
    )
}

/// The join of two lines an edit makes to the file `path`, said:
/// `original[start..end]` the
/// bytes the agent replaced (from its first place to its last for a
/// replace-all; the model's `old` text, or that text and the newline after
/// it where the agent's rule took it), `new` the text written there.
/// `None` unless either
/// - `old` ends with a newline and `new` does not, the line after the
///   place is not blank, `new` is not empty or text stands before `old` on
///   its line, and the line the next one is joined onto does not read as
///   meant to run on into it ([`runs_on`]: an open bracket, a trailing
///   comma or operator, a next line starting with a closing bracket or
///   `.`; in a Markdown file's text, outside its fenced code, only the
///   latter: a table row's closing `|` and a hard break's two spaces are
///   how those lines end, not a join); or
/// - `new` is empty and the agent deleted the newline after `old` too,
///   with non-blank text before `old` on its line and on the next line.
///
/// Said: which lines join, what the joined line reads, and what to send.
pub fn joined_lines(
    path: &str,
    original: &str,
    start: usize,
    end: usize,
    old: &str,
    new: &str,
) -> Option<String> {
    if old.is_empty() || start >= end {
        return None;
    }
    if let Some(said) = joined_above(path, original, start, old, new) {
        return Some(said);
    }
    let replaced = original.get(start..end)?.replace("\r\n", "\n");
    let took_newline = !old.ends_with('\n') && new.is_empty();
    // Where the first place ends, and whether the agent took the newline
    // after the old text.
    let (end, extended) = if replaced == old {
        (end, false)
    } else if took_newline && replaced.strip_suffix('\n') == Some(old) {
        (end, true)
    } else {
        // A replace-all's span runs to its last place: the first is read.
        let after = start + old.len();
        if original.get(start..after)? != old {
            return None;
        }
        let newline = ["\r\n", "\n"]
            .into_iter()
            .find(|n| original[after..].starts_with(n));
        match newline {
            Some(n) if took_newline && original[..end].ends_with('\n') => (after + n.len(), true),
            _ => (after, false),
        }
    };
    let line_start = original[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = &original[line_start..start];
    let rest = &original[end..];
    let next = rest[..rest.find('\n').unwrap_or(rest.len())].trim_end_matches('\r');
    if next.trim().is_empty() {
        return None;
    }
    let next_number = crate::dialect::quick::count_newlines(&original[..end]) + 1;
    let start_line = crate::dialect::quick::count_newlines(&original[..start]) + 1;
    let quoted = |t: &str| shorten(t.trim_end_matches('\r'));
    if extended {
        if before.trim().is_empty() {
            return None;
        }
        let deleted = old.trim_end_matches('\r');
        return Some(format!(
            "deleting `{}` with an empty new text also deletes the line end after it (the \
             agent's rule for an empty new text), so line {next_number} (`{}`) is joined onto \
             line {start_line}, which then reads `{}`: to delete only that text, send the old \
             text with its newline and a new text of that newline alone, or the whole line as \
             it should read",
            quoted(deleted),
            quoted(next),
            quoted(&format!("{before}{next}")),
        ));
    }
    // A fault the file's layout check names (a `//` comment continued
    // over a `}`) is said by it, more exactly.
    let result = format!("{}{new}{}", &original[..start], &original[end..]);
    if let Some(said) = continued(path, original, old, new, before, next, next_number)
        .filter(|_| crate::diagnose::layout::layout_break(path, original, &result).is_none())
    {
        return Some(said);
    }
    if !old.ends_with('\n') || new.ends_with('\n') || (new.is_empty() && before.trim().is_empty()) {
        return None;
    }
    // The text the next line is joined onto: the new text's last line,
    // after what stands before the old text on its line.
    let (last, counted) = match new.rfind('\n') {
        Some(i) => (new[i + 1..].to_string(), new),
        None => (format!("{before}{new}"), ""),
    };
    let counted = if counted.is_empty() { &last } else { counted };
    // An old text whose last line ran on into the next already (`\`, a
    // trailing comma or operator) is joined to it as the model meant.
    let old_last = match old[..old.len() - 1].rfind('\n') {
        Some(i) => old[i + 1..old.len() - 1].to_string(),
        None => format!("{before}{}", &old[..old.len() - 1]),
    };
    let old_last = old_last.trim_end_matches('\r');
    // A new text still ending in a backslash, joined, puts the next line
    // after it (Python and the shell refuse a character there).
    let keeps_backslash = last.trim_end().ends_with('\\');
    let prose = is_markdown(path) && !in_code_block(&original[..start]);
    if !keeps_backslash
        && (runs_on(&last, counted, next, prose) || runs_on(old_last, old_last, next, prose))
    {
        return None;
    }
    let joined = quoted(&format!("{last}{next}"));
    if new.is_empty() {
        return Some(format!(
            "its old text ends with a line end and its new text is empty, so line \
             {next_number} (`{}`) is joined onto line {start_line}, which then reads `{joined}`: \
             to delete only the text before that line end, send a new text of that newline \
             alone",
            quoted(next),
        ));
    }
    Some(format!(
        "its old text ends with a line end and its new text does not, so line {next_number} \
         (`{}`) is joined onto the new text's last line, which then reads `{joined}`: end the \
         new text with a newline, as its old text ends",
        quoted(next),
    ))
}

/// A new text whose last line ends in a `\` where its old text's did not
/// (both ending with a line end), in a file whose language reads a `\` at
/// a line's end as joining the next line to it (a sh or bash script, a
/// Dockerfile, a Makefile, C or C++, Python): the file's next line
/// `next` (line `next_number`, which the edit does not show) is joined
/// onto it (round 45, T-01 addendum: `apt-get install -y curl git \`
/// above `COPY . /app` makes the COPY line apt's packages), unless `next`
/// is indented deeper than that last line (it reads as meant to continue
/// it). Said: the line joined and what the joined line reads.
fn continued(
    path: &str,
    original: &str,
    old: &str,
    new: &str,
    before: &str,
    next: &str,
    next_number: usize,
) -> Option<String> {
    let (Some(old_body), Some(new_body)) = (old.strip_suffix('\n'), new.strip_suffix('\n')) else {
        return None;
    };
    let last_line = |body: &str| {
        let line = body.rsplit('\n').next().unwrap_or("");
        line.strip_suffix('\r').unwrap_or(line).to_string()
    };
    let last = if new_body.contains('\n') {
        last_line(new_body)
    } else {
        format!("{before}{new_body}")
    };
    let old_last = if old_body.contains('\n') {
        last_line(old_body)
    } else {
        format!("{before}{old_body}")
    };
    // The file's language is read only for a line that may join.
    if !may_join_next_line(&last) && !may_join_next_line(&old_last) {
        return None;
    }
    let joiner = line_joiner(path, original)?;
    let ends_continued = |line: &str| (line.len() - line.trim_end_matches(joiner).len()) % 2 == 1;
    match (ends_continued(&old_last), ends_continued(&last)) {
        (false, true) => {}
        (true, false) => return split_off(path, (&old_last, &last), joiner, next, next_number),
        _ => return None,
    }
    // A next line indented deeper reads as the continuation meant (a `\`
    // added to a line the file's next line was left hanging from).
    let indent = |line: &str| line.len() - line.trim_start().len();
    if indent(next) > indent(&last) {
        return None;
    }
    let joined = shorten(&format!(
        "{} {}",
        &last[..last.len() - 1].trim_end(),
        next.trim()
    ));
    Some(format!(
        "its new text's last line ends in `{joiner}`, where its old text's did not, so line \
         {next_number} (`{}`), which the edit does not show, is joined onto it: the file reads \
         them as one line, `{joined}`: drop the `{joiner}`, or send the line it should continue \
         with in the new text",
        shorten(next),
    ))
}

/// The mirror of [`continued`]'s join (a tester's find, round 47 T-01):
/// an old text whose last line `old_last` ended in `joiner`, continuing it
/// onto the file's next line `next` (line `next_number`, which the edit
/// does not show), and a new text whose last line `last` does not: `next`
/// then stands alone (a Dockerfile's `apt-get install` an instruction of
/// its own, a shell command's `-e CI=1` a command, a C macro's body code
/// outside it). Not judged where the line's `\` may stand in a comment,
/// which joins nothing in Python, a shell script or a Dockerfile.
fn split_off(
    path: &str,
    (old_last, last): (&str, &str),
    joiner: char,
    next: &str,
    next_number: usize,
) -> Option<String> {
    use crate::diagnose::doubt_braces::{Lang, brace_language};
    let comments_end_lines = brace_language(path) == Some(Lang::C)
        || crate::diagnose::file_kind::FileKind::of(path, "")
            == crate::diagnose::file_kind::FileKind::Makefile;
    if !comments_end_lines && old_last.contains('#') {
        return None;
    }
    Some(format!(
        "its old text's last line ends in `{joiner}`, which continues it onto line \
         {next_number} (`{}`), and its new text's last line (`{}`) does not, so line \
         {next_number}, which the edit does not show, then stands alone: no longer part of the \
         line above, it reads as a line of its own: keep the `{joiner}`, or send line \
         {next_number} in the new text as it should read",
        shorten(next.trim()),
        shorten(last.trim()),
    ))
}

/// [`continued`] for a patch hunk (Codex's, OpenCode's, Cline's
/// `apply_patch`): `old` and `new` its old and new lines, each ending with
/// a line end, matched in `original` just above `next` (line
/// `next_number`). A hunk whose last line is context shows that line kept
/// as it was: no join.
pub fn hunk_joins_next_line(
    path: &str,
    original: &str,
    (old, new): (&str, &str),
    (next, next_number): (&str, usize),
) -> Option<String> {
    continued(path, original, old, new, "", next, next_number)
}

/// Whether a Dockerfile's parser directives (the `# key=value` comment
/// lines it starts with) set its escape character to a backquote (`#
/// escape=\``, Windows images): a `\` there ends no line (a tester's find,
/// round 46 T-05: `WORKDIR c:\` was said to join the next line); a
/// backquote does.
fn escapes_with_backtick(content: &str) -> bool {
    content
        .lines()
        .take_while(|l| l.trim_start().starts_with('#'))
        .filter_map(|l| {
            let directive = l.trim_start().trim_start_matches('#').trim();
            let (key, value) = directive.split_once('=')?;
            Some((key.trim().to_ascii_lowercase(), value.trim().to_string()))
        })
        .any(|(key, value)| key == "escape" && value == "`")
}

/// The character that, ending a line, joins the next line to it in the
/// file `path` (content `content`): `\` in a sh or bash script, a
/// Dockerfile (or Containerfile), a Makefile, C or C++, Python; a backquote
/// in a Dockerfile whose parser directive sets it as the escape character
/// (`# escape=\``); none in other files.
fn line_joiner(path: &str, content: &str) -> Option<char> {
    use crate::diagnose::doubt_braces::{Lang, brace_language};
    use crate::diagnose::file_kind::FileKind;
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let docker = ["Dockerfile", "Containerfile"]
        .iter()
        .any(|d| name == *d || name.starts_with(&format!("{d}.")))
        || name.ends_with(".dockerfile");
    if docker {
        return Some(if escapes_with_backtick(content) {
            '`'
        } else {
            '\\'
        });
    }
    (crate::diagnose::doubt_shell::shell_script(path, content)
        || matches!(
            FileKind::of(path, content),
            FileKind::Python | FileKind::Makefile
        )
        || brace_language(path) == Some(Lang::C))
    .then_some('\\')
}

/// Whether `line` ends in a character that may join the next line to it
/// in some file ([`line_joiner`]'s `\` or backquote): the cheap test that
/// decides whether a file is read for [`hunk_joins_next_line`].
pub fn may_join_next_line(line: &str) -> bool {
    line.trim_end().ends_with(['\\', '`'])
}

/// The mirror of [`joined_lines`]' trailing case (a tester's find, 44-03:
/// `\n    b = 2` -> `    b = 3` wrote `    a = 1    b = 3`): `old`, found
/// at byte `start` of `original`, starts with a line end and `new` does not,
/// the line above is not blank, `new` is not empty or text stands after
/// the old text's first place on its line, and the line above does not
/// read as meant to run on into the new text's first line ([`runs_on`]).
/// Said: the line above, what the joined line reads, and what to send.
fn joined_above(path: &str, original: &str, start: usize, old: &str, new: &str) -> Option<String> {
    let body = old
        .strip_prefix('\n')
        .or_else(|| old.strip_prefix("\r\n"))?;
    if new.starts_with(['\n', '\r']) {
        return None;
    }
    let tail = original.get(start..)?;
    let body_start = start
        + match tail {
            t if t.starts_with("\r\n") => 2,
            t if t.starts_with('\n') => 1,
            _ => return None,
        };
    let above_end = start - usize::from(original[..start].ends_with('\r'));
    let above_start = original[..above_end].rfind('\n').map_or(0, |i| i + 1);
    let above = &original[above_start..above_end];
    if above.trim().is_empty() {
        return None;
    }
    // What stands after the old text's first place on its line, when the
    // old text is one line (a deletion of whole lines with their line end
    // before them joins nothing).
    let after = if body.contains('\n') {
        ""
    } else {
        let rest = original.get(body_start + body.len()..)?;
        rest[..rest.find('\n').unwrap_or(rest.len())].trim_end_matches('\r')
    };
    if new.is_empty() && after.trim().is_empty() {
        return None;
    }
    let first = new.split('\n').next().unwrap_or("");
    let first = if new.contains('\n') {
        first.to_string()
    } else {
        format!("{first}{after}")
    };
    let prose = is_markdown(path) && !in_code_block(&original[..above_start]);
    if runs_on(above, above, &first, prose) {
        return None;
    }
    let line = crate::dialect::quick::count_newlines(&original[..above_start]) + 1;
    let joined = shorten(format!("{above}{first}").trim_end_matches('\r'));
    Some(format!(
        "its old text starts with a line end and its new text does not, so the new text's first \
         line is joined onto line {line} (`{}`), which then reads `{joined}`: start the new \
         text with a newline, as its old text starts",
        shorten(above),
    ))
}

/// Whether a text `last` (a line as the new text leaves it) that the
/// file's next line `next` is joined onto reads as meant to run on into
/// it. Trailing spaces and tabs are not read (editors and models keep a
/// line's trailing whitespace: `const a = 10 ` joined onto `const b = 2`
/// is two statements glued, a tester's find), except after a word that
/// cannot end an expression (`and`, `or`, `not`, `in`, `is`). Then it ends
/// in a comma, an opening bracket, an operator, a colon or a backslash
/// (not a full stop: a sentence or a comment ending with one, joined,
/// swallows the next line), `counted` (the new text, or `last` for a new
/// text of one line) opens more brackets than it closes, or `next` starts
/// with a closing bracket, `.`, `,`, `;` or `?` (`foo(a,\n` → `foo(a,`
/// joining ` b)`). `prose`: `last` is a Markdown file's text, outside
/// its fenced code, where a line's end continues nothing (a table row
/// ends in `|`, a hard line break in two spaces, a sentence in `:` or
/// `,`: joined, the row swallows the next, the break is lost, two words
/// are glued): only `next` starting so reads as meant. Read
/// conservatively: a join that may be meant is not doubted.
fn runs_on(last: &str, counted: &str, next: &str, prose: bool) -> bool {
    let next_closes = next
        .trim_start()
        .starts_with([')', ']', '}', '.', ',', ';', '?']);
    let trimmed = last.trim_end();
    if trimmed.trim_start().is_empty() || next_closes {
        return true;
    }
    if prose {
        return false;
    }
    // A space between the word and the next line's text once joined: the
    // last line's own (which Claude Code strips) or the next line's indent.
    let spaced = trimmed.len() < last.len() || next.starts_with([' ', '\t']);
    let word = trimmed
        .rsplit(|c: char| !c.is_alphanumeric() && c != '_')
        .next()
        .unwrap_or("");
    if spaced && matches!(word, "and" | "or" | "not" | "in" | "is") {
        return true;
    }
    let open = |c: char| matches!(c, '(' | '[' | '{');
    let close = |c: char| matches!(c, ')' | ']' | '}');
    let opened = counted.chars().filter(|&c| open(c)).count();
    let closed = counted.chars().filter(|&c| close(c)).count();
    let ends_open = trimmed.chars().next_back().is_some_and(|c| {
        open(c)
            || matches!(
                c,
                ',' | '\\' | '+' | '-' | '*' | '/' | '%' | '=' | '&' | '|'
            )
            || matches!(c, '<' | '>' | ':' | '^' | '~' | '@')
    });
    ends_open || opened > closed
}

/// Whether a Markdown file's text `above` (up to a place) ends inside a
/// fenced code block (a run of three or more backticks or tildes, indented
/// by at most three spaces, opens one; the same character, as long or
/// longer, alone on its line, closes it).
fn in_code_block(above: &str) -> bool {
    let mut open: Option<(char, usize)> = None;
    for line in above.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let rest = line.trim_start_matches(' ');
        if line.len() - rest.len() > 3 {
            continue;
        }
        let Some(c) = rest.chars().next().filter(|c| matches!(c, '`' | '~')) else {
            continue;
        };
        let run = rest.len() - rest.trim_start_matches(c).len();
        if run < 3 {
            continue;
        }
        let info = rest[run..].trim();
        open = match open {
            Some((o, length)) if o == c && run >= length && info.is_empty() => None,
            Some(open) => Some(open),
            None if c == '`' && info.contains('`') => None,
            None => Some((c, run)),
        };
    }
    open.is_some()
}

/// A line as a sentence quotes it: at most 80 characters, `...` after a
/// longer one's first 77.
pub fn shorten(line: &str) -> String {
    if line.chars().count() <= 80 {
        return line.to_string();
    }
    let head: String = line.chars().take(77).collect();
    format!("{head}...")
}

/// Adds to `out` what srview cannot stand behind in a whole content `new`
/// written to `path` over `over` (`None`: a new file): [`write_doubt`],
/// bidirectional controls or zero-width characters it adds, and, when
/// nothing is said before, the layout it breaks
/// ([`crate::diagnose::layout::layout_break`]). The one judgement of a
/// whole write: an agent's `Write` call's and the previewer's.
pub fn whole_write_doubts(
    path: &str,
    over: Option<&str>,
    new: &str,
    out: &mut Vec<(EditDoubtKind, String)>,
) {
    if let Some(old) = over {
        out.extend(write_doubt(path, old, new));
    }
    let old = over.unwrap_or("");
    if crate::diagnose::hidden::has_hidden(new) {
        out.extend(
            crate::diagnose::hidden::hidden_added(old, [new])
                .map(|h| (EditDoubtKind::HiddenText, h.describe("its content"))),
        );
    }
    if out.is_empty() {
        out.extend(crate::diagnose::layout::layout_break(path, old, new).map(layout_kind));
    }
}

/// A whole new content `new` written over `old`, what the file `path`
/// holds (Claude Code's `Write`, Gemini CLI's `write_file`, ...), that
/// srview cannot stand behind: it is exactly what the file holds (sent
/// again after it was written: `AlreadyApplied`), or it stands in for
/// lines of the file it leaves out (`# ... rest of the file unchanged
/// ...`, [`crate::dialect::elided`]: `ElidesLines`; written, they are
/// gone: the real Claude Code wrote such a Write, 54 lines become 16, when
/// the gate passed it, tests/gate_e2e/). One sentence naming `path`,
/// ending with what to send. The one check of a write: the gate's,
/// `check`'s and `apply --write`'s (a fresh tester's find: `check` called
/// a Write the gate denied exact, and `--write` wrote it).
pub fn write_doubt(path: &str, old: &str, new: &str) -> Option<(EditDoubtKind, String)> {
    if old == new && !new.is_empty() {
        return Some((
            EditDoubtKind::AlreadyApplied,
            format!(
                "{path} already holds exactly this content ({}): the write changes nothing, \
                 so it looks applied already",
                words::count(new.lines().count(), "line")
            ),
        ));
    }
    let Some(elided) = crate::dialect::elided::elided(path, old, new) else {
        return cut_short(old, new)
            .map(|m| (EditDoubtKind::ElidesLines, m))
            .or_else(|| {
                let twice = crate::diagnose::doubt_doubled::doubled(old, new)?;
                Some((EditDoubtKind::WritesTwice, twice.describe(path)))
            });
    };
    Some((
        EditDoubtKind::ElidesLines,
        format!(
            "its content stands in for lines it leaves out (line {}: `{}`), so writing it \
             deletes {} of the file ({} become {}): send the whole content, every line the \
             file keeps, or edit only the lines that change",
            elided.line,
            elided.placeholder,
            words::count(elided.lost, "non-blank line"),
            words::count(old.lines().count(), "line"),
            new.lines().count()
        ),
    ))
}

/// A whole content that keeps the file's first lines (changed or not) and
/// stops, leaving out the rest: at least 10 non-blank lines and two
/// thirds of the file's, all after the last line it keeps (a tester's
/// find: a Write of a module's first 4 lines, its classes gone and
/// imported elsewhere, was allowed). A content cut short, or written for
/// the lines that change only; a deletion meant is sent as an edit
/// showing the lines it deletes.
fn cut_short(old: &str, new: &str) -> Option<String> {
    const LEAST: usize = 10;
    let solid = |text: &str| text.lines().filter(|l| !l.trim().is_empty()).count();
    let (before, after) = (solid(old), solid(new));
    if after == 0 {
        return None;
    }
    let old_lines: Vec<&str> = old.lines().collect();
    let diff = similar::TextDiff::from_lines(old, new);
    let ops = diff.ops();
    if let Some(at) = head_changed_once(ops, old_lines.len()) {
        let lost = old_lines[at..]
            .iter()
            .filter(|l| !l.trim().is_empty())
            .count();
        if lost >= 3 && lost * 3 >= before {
            return cut_short_said(&old_lines, at, lost, new);
        }
    }
    if before < LEAST || after * 3 > before {
        return None;
    }
    // The old lines past the last one the new content keeps or replaces
    // (a replacement's lines beyond its new ones are deleted ones).
    // A line added at the end (a closing line, a new entry) does not make
    // the file's rest kept (a tester's find: one line added passed).
    let ops = match ops {
        [rest @ .., similar::DiffOp::Insert { new_len: 1, .. }] => rest,
        all => all,
    };
    let old_index = match *ops.last()? {
        similar::DiffOp::Delete { old_index, .. } => old_index,
        // Only where the new lines read as the old ones they stand at
        // (the file's start, edited): a shorter rewrite is not cut short.
        similar::DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        } if old_len > new_len => {
            let new_lines: Vec<&str> = new.lines().collect();
            let (was, is) = (
                old_lines.get(old_index..old_index + new_len)?.join("\n"),
                new_lines.get(new_index..new_index + new_len)?.join("\n"),
            );
            match similar::TextDiff::from_chars(&was, &is).ratio() >= 0.8 {
                true => old_index + new_len,
                // One new line in place of the rest: added after it.
                false if new_len == 1 => old_index,
                false => return None,
            }
        }
        _ => return None,
    };
    let kept = ops
        .iter()
        .filter(|op| matches!(op, similar::DiffOp::Equal { .. }))
        .map(|op| op.old_range().len())
        .sum::<usize>();
    let tail = &old_lines[old_index..];
    let lost = tail.iter().filter(|l| !l.trim().is_empty()).count();
    if kept == 0 || lost < LEAST || lost * 3 < before * 2 {
        return None;
    }
    cut_short_said(&old_lines, old_index, lost, new)
}

/// Where a content that is the file's first lines exactly, one of them
/// changed, stops (the index of the first old line it leaves out), when
/// it adds no line and leaves out every line after: the cut-off
/// signature whatever the file's length (a tester's find, T-20: a Write of
/// a settings module's first 6 lines, `DEBUG = True` changed, its 6 last
/// settings gone, passed the 10-line threshold). A content changing no
/// line is left to [`cut_short`]'s thresholds (a tail deleted may be
/// meant).
fn head_changed_once(ops: &[similar::DiffOp], old_len: usize) -> Option<usize> {
    use similar::DiffOp;
    let (last, head) = ops.split_last()?;
    let DiffOp::Delete {
        old_index,
        old_len: cut,
        ..
    } = *last
    else {
        return None;
    };
    let mut changed = 0;
    for op in head {
        match *op {
            DiffOp::Equal { .. } => {}
            DiffOp::Replace {
                old_len: 1,
                new_len: 1,
                ..
            } => changed += 1,
            _ => return None,
        }
    }
    let kept = head.iter().any(|op| matches!(op, DiffOp::Equal { .. }));
    (changed == 1 && kept && old_index + cut == old_len).then_some(old_index)
}

/// [`cut_short`]'s sentence: the content stops before `old_lines[at]`,
/// leaving out `lost` non-blank lines.
fn cut_short_said(old_lines: &[&str], at: usize, lost: usize, new: &str) -> Option<String> {
    let tail = &old_lines[at..];
    let first = tail.iter().position(|l| !l.trim().is_empty())?;
    let old_index = at;
    Some(format!(
        "its content covers only the file's first {} and stops there: writing it deletes the {} after \
         (lines {}-{}, from `{}`), {} become {}: a content cut short, or written for the lines \
         that change only: send the whole content, every line the file keeps, or edit only the \
         lines that change (an edit showing the lines it deletes, if deleting them is meant)",
        words::count(old_index, "line"),
        words::count(lost, "non-blank line"),
        old_index + 1,
        old_lines.len(),
        tail[first].trim(),
        words::count(old_lines.len(), "line"),
        new.lines().count()
    ))
}

/// An edit whose new text already stands where its old text matched (the
/// new text holds the old one, and the file holds the new text around
/// the match): applied once and sent again, it repeats what it adds.
fn already_applied(outcome: &EditOutcome, original: &str) -> Option<String> {
    let b = &outcome.block;
    let (span, old, new) = (b.original?, b.search_text.as_str(), b.replace_text.as_str());
    if old.is_empty() && span.end == span.start && outcome.tool == Tool::Editor {
        return inserted_already(original, span.start, new);
    }
    if old.is_empty() || span.end <= span.start {
        return None;
    }
    let at = new.find(old)?;
    // What the new text adds must be code, not white space alone.
    let added = format!("{}{}", &new[..at], &new[at + old.len()..]);
    if !added.chars().any(char::is_alphanumeric) {
        return None;
    }
    let start = span.start.checked_sub(at)?;
    let there = original.get(start..start + new.len())? == new;
    there.then(|| {
        let first = crate::dialect::quick::count_newlines(&original[..start]) + 1;
        let last = first + new.trim_end_matches('\n').matches('\n').count();
        format!(
            "its new text is already there ({}): this looks applied already, and applied \
             again it repeats what it adds",
            crate::words::line_range("line", first, last)
        )
    })
}

/// Cline's editor inserting `new` at the line boundary at byte `at` of
/// `original` (`insert_line`), where the lines right after that boundary,
/// or right before it, already are `new`'s (blank lines at either end
/// left out; a text of punctuation alone, a `}`, may well be meant twice):
/// the call sent again after it applied (a tester's find: `s += 5` added
/// twice, called exact by `check` and the gate). Said with the lines.
fn inserted_already(original: &str, at: usize, new: &str) -> Option<String> {
    let wanted: Vec<&str> = new.lines().map(|l| l.trim_end_matches('\r')).collect();
    let first = wanted.iter().position(|l| !l.trim().is_empty())?;
    let last = wanted.iter().rposition(|l| !l.trim().is_empty())?;
    let wanted = &wanted[first..=last];
    if !wanted.iter().any(|l| l.chars().any(char::is_alphanumeric)) {
        return None;
    }
    let lines: Vec<&str> = original.lines().map(|l| l.trim_end_matches('\r')).collect();
    let boundary = crate::dialect::quick::count_newlines(original.get(..at)?);
    let n = wanted.len();
    let after = lines.get(boundary..boundary + n) == Some(wanted);
    let before = boundary
        .checked_sub(n)
        .is_some_and(|from| lines.get(from..boundary) == Some(wanted));
    let (from, side) = match (after, before) {
        (true, _) => (boundary, "right after"),
        (false, true) => (boundary - n, "right before"),
        _ => return None,
    };
    Some(format!(
        "its new text is already there ({}, {side} the line boundary it inserts at): this \
         looks applied already, and applied again it repeats what it adds",
        crate::words::line_range("line", from + 1, from + n)
    ))
}

/// An edit whose new text ends with the lines the file has right after
/// its old text (or begins with those right before it), which its old
/// text does not account for: written, they appear twice
/// ([`crate::diagnose::doubt_repeat`]). Read on whole lines, whatever the
/// texts' final newline (Claude Code's old texts mostly have none): the
/// edit is widened to the lines its ends land on ([`on_whole_lines`]).
fn repeats_neighbours(outcome: &EditOutcome, original: &str) -> Option<String> {
    repeated_around(&outcome.block, original).map(|r| r.describe("its new text", false))
}

/// What an exactly placed block (an edit's, a SEARCH/REPLACE block's)
/// writes twice over `original`, the text it was placed in (see
/// [`repeats_neighbours`]).
pub fn repeated_around(
    b: &crate::engine::BlockReport,
    original: &str,
) -> Option<crate::diagnose::doubt_repeat::Repeated> {
    use crate::diagnose::doubt_repeat::{nearest, repeated};
    let (span, old, new) = (b.original?, b.search_text.as_str(), b.replace_text.as_str());
    if old.is_empty() || new.is_empty() {
        return None;
    }
    let (start, end, old, new) = on_whole_lines(original, span.start, span.end, old, new)?;
    let (old_lines, new_lines): (Vec<&str>, Vec<&str>) =
        (old.lines().collect(), new.lines().collect());
    let count = new_lines.iter().filter(|l| !l.trim().is_empty()).count();
    let before = original.get(..start)?;
    let last_before = crate::dialect::quick::count_newlines(before);
    let first_after =
        last_before + crate::dialect::quick::count_newlines(original.get(start..end)?) + 1;
    let previous = nearest(before.lines().rev(), last_before, -1, count);
    let next = nearest(original.get(end..)?.lines(), first_after, 1, count);
    repeated(&previous, &old_lines, &new_lines, &next)
}

/// An edit replacing `original[start..end]` (`old`) with `new`, widened to
/// the whole lines its ends land on: the part of the first line before it
/// and the rest of the last line after it (its newline included) join
/// both texts, so the widened texts are the lines the file had there and
/// the lines it gets. `None` when the result is not whole lines: a new
/// text without a final newline that joins the file's next line.
fn on_whole_lines(
    original: &str,
    start: usize,
    end: usize,
    old: &str,
    new: &str,
) -> Option<(usize, usize, String, String)> {
    let line_start = original.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
    let rest = original.get(end..)?;
    let at_line_start = end == 0 || original[..end].ends_with('\n');
    let line_end = if at_line_start {
        end
    } else {
        rest.find('\n').map_or(original.len(), |i| end + i + 1)
    };
    let (head, tail) = (&original[line_start..start], &original[end..line_end]);
    let old = format!("{head}{old}{tail}");
    let new = format!("{head}{new}{tail}");
    let whole = line_end == original.len() || (old.ends_with('\n') && new.ends_with('\n'));
    whole.then_some((line_start, line_end, old, new))
}

/// What the agent's writer does to the line endings of `original`,
/// written as `result` ([`crate::diagnose::doubt::endings_doubt`]), with
/// its kind: lines outside the edit that change their ending, or new
/// lines that end otherwise than the file's.
pub fn endings_doubt(original: &str, result: &str) -> Option<(EditDoubtKind, String)> {
    use crate::diagnose::doubt::EndingsFault;
    crate::diagnose::doubt::endings_doubt(original, result).map(|(fault, sentence)| {
        let kind = match fault {
            EndingsFault::Outside => EditDoubtKind::LineEndings,
            EndingsFault::Mixes => EditDoubtKind::MixesEndings,
        };
        (kind, sentence)
    })
}

/// [`endings_doubt`] for Cline's `editor`, which ends the new text's lines
/// with CRLF in a file holding any CRLF line, with LF otherwise, whatever
/// the model sent: new lines mixed in are Cline's doing, in a file mostly
/// LF with a stray CRLF line, and sending other text cannot help (a
/// tester's find: the sentence told the model to send the LF it had sent).
fn cline_endings_doubt(original: &str, result: &str) -> Option<(EditDoubtKind, String)> {
    use crate::diagnose::doubt::ending_counts;
    let (kind, sentence) = endings_doubt(original, result)?;
    if kind != EditDoubtKind::MixesEndings {
        return Some((kind, sentence));
    }
    let added = ending_counts(result)
        .0
        .saturating_sub(ending_counts(original).0);
    Some((
        kind,
        format!(
            "the file's lines end in LF but for some in CRLF, and the reference ends the new \
             text's lines with CRLF in a file holding any CRLF line, whatever the edit's text: \
             the result gets {} ending in CRLF: tell the user, who can unify the file's line \
             endings first",
            words::count(added, "more line")
        ),
    ))
}

/// A Claude Code `Write` of `new` over `old`, the file `path` holds, whose
/// line endings are not the file's: Claude Code writes the content as
/// sent, so a content in LF over a CRLF file changes the line ending of
/// every line (a tester's find: `check` said the result mixes line
/// endings, it has one, and the gate said nothing). A content that ends
/// its lines as most of the file's do is none (it unifies a mixed file
/// towards its own ending, every line shown). The gate's, `check`'s and
/// `apply --write`'s one check of a Write's line endings.
pub fn write_endings_doubt(path: &str, old: &str, new: &str) -> Option<(EditDoubtKind, String)> {
    use crate::diagnose::doubt::{Ending, ending_counts, mixed_endings};
    let file = mixed_endings(old, [new])?;
    let (crlf, lf) = ending_counts(new);
    let lines = words::count(crlf + lf, "line");
    let sentence = match (file, crlf, lf) {
        (Ending::Crlf, 0, _) => format!(
            "its content ends every line with LF, where {path}'s lines end in CRLF: Claude \
             Code writes the content as sent, so the write turns the whole file from CRLF to \
             LF line endings (all {lines} differ in a diff): to keep CRLF, send the lines that \
             change as Edit calls (Claude Code's Edit writes a CRLF file back in CRLF); if the \
             file should become LF, tell the user"
        ),
        (Ending::Lf, _, 0) => format!(
            "its content ends every line with CRLF, where {path}'s lines end in LF: Claude \
             Code writes the content as sent, so the write turns the whole file from LF to CRLF \
             line endings (all {lines} differ in a diff): send the content with LF (\\n) line \
             endings"
        ),
        (Ending::Crlf, _, _) => format!(
            "its content mixes line endings: {path}'s lines end in CRLF, and the content has \
             {} ending in LF, which Claude Code writes as sent: send every line of the content with \
             the same ending, or the lines that change as Edit calls (Claude Code's Edit writes \
             a CRLF file back in CRLF)",
            words::count(lf, "line")
        ),
        (Ending::Lf, _, _) => format!(
            "its content mixes line endings: {path}'s lines end in LF, and the content has {} \
             ending in CRLF, which Claude Code writes as sent: send the content with LF (\\n) \
             line endings",
            words::count(crlf, "line")
        ),
    };
    Some((EditDoubtKind::MixesEndings, sentence))
}

/// A character of a word that spaces delimit. Scripts written without
/// spaces between words ([`unspaced`]) have no boundary an edit could
/// cut, so their characters are not counted.
fn is_word(c: char) -> bool {
    (c.is_alphanumeric() || c == '_' || unicode_normalization::char::is_combining_mark(c))
        && !unspaced(c)
}

/// A character that belongs to the one before it: a combining mark
/// (Unicode category M: `e` + U+0301 is `é`), a zero width joiner (joining
/// emoji), a variation selector.
fn joins(c: char) -> bool {
    unicode_normalization::char::is_combining_mark(c)
        || c == '\u{200D}'
        || matches!(u32::from(c), 0xFE00..=0xFE0F | 0xE0100..=0xE01EF)
}

/// `c` named as a sentence says it, "a combining accent (U+0301)", and
/// its short name, "accent".
fn joiner_name(c: char) -> (String, &'static str) {
    let (name, short) = match u32::from(c) {
        0x200D => ("a zero width joiner", "joiner"),
        0xFE00..=0xFE0F | 0xE0100..=0xE01EF => ("a variation selector", "selector"),
        // The Combining Diacritical Marks block.
        0x0300..=0x036F => ("a combining accent", "accent"),
        _ => ("a combining mark", "mark"),
    };
    (format!("{name} (U+{:04X})", u32::from(c)), short)
}

/// "letter" for a letter, "character" for anything else.
fn letter_or_character(c: char) -> &'static str {
    if c.is_alphabetic() {
        "letter"
    } else {
        "character"
    }
}

/// Where byte `at` of `text` falls inside one character as read (a base
/// and the marks or joiners that belong to it), how an old text starting
/// (`starts`) or ending there splits it, in words: `None` when it falls
/// between characters. An edit's bytes are replaced as they are, so the
/// mark left in the file lands on the new text (`Cafe` + U+0301 given the
/// new text `Bistro` reads `Bistró`: a tester's find).
/// `more`: what follows the place (" (also at 1 other place)").
fn splits_character(text: &str, at: usize, starts: bool, more: &str) -> Option<String> {
    let before = text[..at].chars().next_back()?;
    let after = text[at..].chars().next()?;
    // A mark after a line break or a space belongs to nothing the edit
    // could split off.
    if (!joins(after) && before != '\u{200D}') || before.is_whitespace() {
        return None;
    }
    let shown = joined_around(text, at);
    let line = crate::dialect::quick::count_newlines(&text[..at]) + 1;
    let place = format!("(`{shown}` at line {line}){more}");
    if joins(after) {
        let (name, short) = joiner_name(after);
        let base = text[..at]
            .chars()
            .rev()
            .find(|&c| !joins(c))
            .unwrap_or(before);
        let base = letter_or_character(base);
        return Some(if starts {
            format!(
                "the edit's old text starts with {name} that belongs to the {base} before it \
                 {place}: the edit takes the {short} off that {base}, which it does not show"
            )
        } else {
            format!(
                "the edit's old text ends before {name} that belongs to its last {base} \
                 {place}: the {short} stays in the file and lands on the new text's last \
                 character"
            )
        });
    }
    if before == '\u{200D}' {
        let (name, short) = joiner_name(before);
        return Some(if starts {
            format!(
                "the edit's old text starts right after {name} that joins its first character \
                 to the one before {place}: the {short} stays in the file and joins the new \
                 text to that character"
            )
        } else {
            format!(
                "the edit's old text ends with {name} that joins its last character to the \
                 next one {place}: the edit takes the {short} away, and the two characters \
                 come apart"
            )
        });
    }
    None
}

/// The word, or the joined characters, of `text` around byte `at`: its
/// letters and digits, and every character a joiner ([`joins`]) ties to
/// them.
fn joined_around(text: &str, at: usize) -> &str {
    let mut start = at;
    let mut joined_next = text[at..].chars().next().is_some_and(joins);
    for (i, c) in text[..at].char_indices().rev() {
        if !(is_word(c) || joins(c) || joined_next) {
            break;
        }
        joined_next = joins(c);
        start = i;
    }
    let mut end = at;
    let mut previous = text[..at].chars().next_back();
    for (i, c) in text[at..].char_indices() {
        if !(is_word(c) || joins(c) || previous == Some('\u{200D}')) {
            break;
        }
        previous = Some(c);
        end = at + i + c.len_utf8();
    }
    &text[start..end]
}

/// Whether `c` belongs to a script written without spaces between words:
/// Han ideographs, kana and bopomofo, the scripts of South-East Asia
/// (Thai, Lao, Khmer, Myanmar, the Tai scripts, Javanese, Balinese),
/// Tibetan and Yi. Hangul is written with spaces and is not among them.
fn unspaced(c: char) -> bool {
    matches!(
        u32::from(c),
        0x0E00..=0x0FFF // Thai, Lao, Tibetan
            | 0x1000..=0x109F // Myanmar
            | 0x1780..=0x17FF // Khmer
            | 0x1950..=0x19FF // Tai Le, New Tai Lue, Khmer symbols
            | 0x1A20..=0x1AAF // Tai Tham
            | 0x1B00..=0x1B7F // Balinese
            | 0x2E80..=0x2FDF // CJK and Kangxi radicals
            | 0x3005..=0x3007 // iteration mark, closing mark, ideographic zero
            | 0x3021..=0x3029 // Hangzhou numerals
            | 0x3031..=0x3035 // kana repeat marks
            | 0x3038..=0x303C
            | 0x3040..=0x30FF // Hiragana, Katakana
            | 0x3100..=0x312F // Bopomofo
            | 0x31A0..=0x31BF // Bopomofo extended
            | 0x31F0..=0x31FF // Katakana phonetic extensions
            | 0x3400..=0x4DBF // CJK extension A
            | 0x4E00..=0x9FFF // CJK unified ideographs
            | 0xA000..=0xA4CF // Yi
            | 0xA980..=0xA9FF // Javanese, Myanmar extended B
            | 0xAA60..=0xAADF // Myanmar extended A, Tai Viet
            | 0xF900..=0xFAFF // CJK compatibility ideographs
            | 0xFF66..=0xFF9F // halfwidth Katakana
            | 0x1AFF0..=0x1B16F // kana extensions and supplement
            | 0x20000..=0x3FFFF // CJK extensions B and later
    )
}

/// The word of `text` around byte `at`, a boundary inside it.
fn word_around(text: &str, at: usize) -> &str {
    let start = text[..at]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_word(c))
        .last()
        .map_or(at, |(i, _)| i);
    let end = text[at..]
        .char_indices()
        .find(|&(_, c)| !is_word(c))
        .map_or(text.len(), |(i, _)| at + i);
    &text[start..end]
}

/// The word of `text` that byte `at` falls inside (a word character on
/// each side of it, or a number's digits on each side of its decimal
/// point: `1` of `1.5`), when it does.
pub fn word_cut_at(text: &str, at: usize) -> Option<&str> {
    if !text.is_char_boundary(at) {
        return None;
    }
    if cuts_a_word(text, at) {
        return Some(word_around(text, at));
    }
    number_bounds(text, at).map(|(start, end)| &text[start..end])
}

/// Whether byte `at` of `text` falls between two word characters.
fn cuts_a_word(text: &str, at: usize) -> bool {
    let before = text[..at].chars().next_back();
    let after = text[at..].chars().next();
    matches!((before, after), (Some(b), Some(a)) if is_word(b) && is_word(a))
}

/// Whether a cut at byte `at` of `original`, where the old text `search`
/// starts (`starts`) or ends, is the edit's meaning, not its text clipped:
/// - a replace-all (`all`) whose old text ends with `_` where it ends
///   (`self.btn_` → `self.button_` over `self.btn_ok`: a prefix rename),
///   or starts with `_` where it starts (`_btn` over `ok_btn`: a suffix
///   rename): the old text shows where the name's part ends;
/// - an old text that opens with a version (`0.4.35`, digits and dots)
///   right after a `v` or `V` that a word does not hold (`v0.4.35`,
///   `mytool-v0.4.35`): the `v` of a release tag is no part of the version
///   (a tester's find, 42b-05: a version bump was denied).
///
/// A cut between a letter and the next (`Café` of `Cafés`), or one
/// digit and the next (`1.2` inside `11.2`), is no such meaning.
fn cut_meant(original: &str, search: &str, at: usize, starts: bool, all: bool) -> bool {
    if all
        && (if starts {
            search.starts_with('_')
        } else {
            search.ends_with('_')
        })
    {
        return true;
    }
    if !starts {
        return false;
    }
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let version = search
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()
        .is_some_and(|head| {
            let parts: Vec<&str> = head.split('.').collect();
            parts.len() >= 2 && parts.iter().all(|p| digits(p))
        });
    let before = &original[..at];
    let tag = before
        .strip_suffix(['v', 'V'])
        .is_some_and(|rest| !rest.chars().next_back().is_some_and(is_word));
    version && tag
}

/// Whether the word (or number) that the old text at `place` of
/// `original` starts (`starts`) or ends inside stands as it was once the
/// new text `new` takes its place: the new text keeps the part of it the
/// old text shows, at that edge, and joins nothing more to it. `count = 0;`
/// made `count = 1;` in `$count = 0;` leaves `$count`, `let my_` made
/// `const my_` leaves `my_count` (a tester's find, round 45 T-04); `name:`
/// made `hostname:` in `host-name:` makes `host-hostname`, `TIMEOUT = 1`
/// made `TIMEOUT = 2` in `TIMEOUT = 1.5` makes `2.5`.
fn cut_kept(
    original: &str,
    (start, end): (usize, usize),
    starts: bool,
    new: &str,
    joins: WordJoins,
) -> bool {
    let at = if starts { start } else { end };
    let (from, to) = dotted_around(original, at, joins);
    // A word stands on one line: the lines the old text touches, with the
    // new text in its place.
    let line_start = original[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = original[end..]
        .find('\n')
        .map_or(original.len(), |i| end + i);
    let result = format!(
        "{}{new}{}",
        &original[line_start..start],
        &original[end..line_end]
    );
    let edge = start - line_start + if starts { 0 } else { new.len() };
    let (now_from, now_to) = dotted_around(&result, edge, joins);
    result[now_from..now_to] == original[from..to] && edge - now_from == at - from
}

/// The word of `text` around byte `at` (by the file's `joins`) with the
/// words a `.` ties to it on either side: a number's or a version's other
/// parts (`10.4.35` around `10`), a name's object (`obj.count`). What an
/// edge at `at` leaves as it was, or not ([`cut_kept`]).
fn dotted_around(text: &str, at: usize, joins: WordJoins) -> (usize, usize) {
    let (mut from, mut to) = joins.word_bounds(text, at, is_word);
    let word_before = |i: usize| text[..i].chars().next_back().is_some_and(is_word);
    let word_at = |i: usize| text[i..].chars().next().is_some_and(is_word);
    while from > 0 && text[..from].ends_with('.') && word_before(from - 1) {
        from = joins.word_bounds(text, from - 1, is_word).0;
    }
    while text[to..].starts_with('.') && word_at(to + 1) {
        to = joins.word_bounds(text, to + 1, is_word).1;
    }
    (from, to)
}

/// The words a replace-all changes at its places whose end (`starts`: its
/// start) falls inside a word (`cuts`), as they are and as they become
/// (`` `btn_ok` becomes `button_ok` ``), three at most, then how many
/// more.
fn changed_words(
    original: &str,
    places: &[(usize, usize)],
    cuts: &[usize],
    starts: bool,
    new: &str,
    joins: WordJoins,
) -> String {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for &(start, end) in places {
        if !cuts.contains(&if starts { start } else { end }) {
            continue;
        }
        let from = joins.word_bounds(original, start, is_word).0;
        let to = joins.word_bounds(original, end, is_word).1;
        let was = original[from..to].to_string();
        let is = format!("{}{new}{}", &original[from..start], &original[end..to]);
        if !pairs.iter().any(|(w, _)| *w == was) {
            pairs.push((was, is));
        }
    }
    let mut said: Vec<String> = pairs
        .iter()
        .take(3)
        .map(|(was, is)| format!("`{was}` becomes `{is}`"))
        .collect();
    if pairs.len() > 3 {
        said.push(format!("{} more", words::count(pairs.len() - 3, "word")));
    }
    said.join(", ")
}

/// What a cut at byte `at` of `original` falls inside, named ("word",
/// "number", or "version" for digits with two points or more: `4.2.11`),
/// and its bytes: a word by the file's `joins`, else the number.
fn cut_whole(original: &str, at: usize, joins: WordJoins) -> (&'static str, (usize, usize)) {
    if joins.cuts(original, at, is_word) {
        return ("word", joins.word_bounds(original, at, is_word));
    }
    match number_bounds(original, at) {
        Some((from, to)) if original[from..to].matches('.').count() > 1 => ("version", (from, to)),
        Some(bounds) => ("number", bounds),
        None => ("word", joins.word_bounds(original, at, is_word)),
    }
}

/// At most this many characters of a line are quoted in a sentence.
const QUOTED_LINE: usize = 80;

/// The line of `text` that holds byte `at`, without its line end.
fn line_around(text: &str, at: usize) -> &str {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    text[start..end].trim_end_matches('\r')
}

/// The old text, placed at `place` (bytes of `original`), quoted as the
/// model sent it where it cuts a word (a tester's find, 43b-08: only the
/// word was quoted, not what the old text had of it): `` `retries = 1` ``,
/// or for an old text of several lines the one at the cut, its first
/// (`starts`) or last, `` (its last line `retries = 1`) ``.
fn old_part_said(original: &str, (start, end): (usize, usize), starts: bool) -> String {
    let old = &original[start..end];
    let (line, more) = if starts {
        let first = old.split('\n').next().unwrap_or(old);
        (first, first.len() < old.len())
    } else {
        let last = old.rsplit('\n').next().unwrap_or(old);
        (last, last.len() < old.len())
    };
    let line = line.trim_end_matches('\r').trim_start();
    let quoted = if starts {
        words::clipped(line, QUOTED_LINE)
    } else {
        words::clipped_start(line, QUOTED_LINE)
    };
    match (more, starts) {
        (false, _) => format!("`{quoted}`"),
        (true, true) => format!("(its first line `{quoted}`)"),
        (true, false) => format!("(its last line `{quoted}`)"),
    }
}

/// One reason per end of the replaced text that falls inside a word of
/// `original` (the content the edit applied to); none for an edit that did
/// not apply, or a whole new content; and a replace-all's places of
/// different roles ([`super::roles`]). Each with its kind.
fn cut_words(outcome: &EditOutcome, original: &str) -> Vec<(EditDoubtKind, String)> {
    let Some(span) = outcome.block.original.filter(|_| outcome.result.is_ok()) else {
        return Vec::new();
    };
    if span.start >= span.end
        || span.end > original.len()
        || !original.is_char_boundary(span.start)
        || !original.is_char_boundary(span.end)
    {
        return Vec::new();
    }
    let line_of = |at: usize| crate::dialect::quick::count_newlines(&original[..at]) + 1;
    // Every place the old text was replaced: the span runs from the first
    // to the last of them for a replace-all edit (each is checked: the
    // places between may cut words the ends do not).
    let search = outcome.block.search_text.as_str();
    let places: Vec<(usize, usize)> =
        if search.is_empty() || original.get(span.start..span.end) == Some(search) {
            vec![(span.start, span.end)]
        } else {
            original[span.start..span.end]
                .match_indices(search)
                .map(|(i, m)| (span.start + i, span.start + i + m.len()))
                .collect()
        };
    // A replace-all edit that changes more than one place.
    let all = places.len() > 1;
    let joins = WordJoins::of(&outcome.path);
    let mut out = Vec::new();
    // A replace-all whose places play different roles (a name, an
    // attribute, a string); its longer words are said below.
    let mut kinded: Vec<(EditDoubtKind, String)> =
        super::roles::mixed_roles(&outcome.path, original, search, &places)
            .into_iter()
            .map(|m| (EditDoubtKind::RenamesOthers, m))
            .collect();
    for which in ["starts", "ends"] {
        let starts = which == "starts";
        // Each place's end here, with its place (found by index, not by a
        // search of `places` per end: quadratic for a `}` replaced in
        // tens of thousands of places).
        let ends: Vec<(usize, (usize, usize))> = places
            .iter()
            .map(|&(start, end)| (if starts { start } else { end }, (start, end)))
            .collect();
        // A character split in two (a letter and its accent): said as such.
        let (splits, ends): (Vec<_>, Vec<_>) = ends
            .into_iter()
            .partition(|&(at, _)| splits_character(original, at, starts, "").is_some());
        if let Some(&(at, _)) = splits.first() {
            let more = match splits.len() - 1 {
                0 => String::new(),
                n => format!(" (also at {})", words::count(n, "other place")),
            };
            out.extend(splits_character(original, at, starts, &more));
        }
        let new = outcome.block.replace_text.as_str();
        let cut_at =
            |at: usize| joins.cuts(original, at, is_word) || number_bounds(original, at).is_some();
        // A replace-all whose old text stands whole at one place and inside
        // longer words at others (`TIMEOUT = 30` over `DB_TIMEOUT = 30`):
        // those are other names, changed even where the new text keeps
        // their part (a tester's find, round 47 T-04: two other settings'
        // values rewritten).
        let whole_somewhere = all
            && places
                .iter()
                .any(|&(start, end)| !cut_at(if starts { start } else { end }));
        let (cuts, cut_places): (Vec<usize>, Vec<(usize, usize)>) = ends
            .into_iter()
            .filter(|&(at, place)| {
                cut_at(at)
                    && !cut_meant(original, search, at, starts, all)
                    && (whole_somewhere || !cut_kept(original, place, starts, new, joins))
            })
            .unzip();
        let (Some(&at), Some(&place)) = (cuts.first(), cut_places.first()) else {
            continue;
        };
        let more = match cuts.len() - 1 {
            0 => String::new(),
            n => format!(" (also at {})", words::count(n, "other place")),
        };
        let (noun, (from, to)) = cut_whole(original, at, joins);
        let cut = format!(
            "the edit's old text {} {which} inside the {noun} `{}` of line {} (`{}`){more}: it \
             changes part of a {noun} it does not show",
            old_part_said(original, place, starts),
            &original[from..to],
            line_of(at),
            words::clipped(line_around(original, at).trim(), QUOTED_LINE)
        );
        if !all {
            out.push(cut);
            continue;
        }
        // A replace-all: its places cannot be sent as whole lines in one
        // edit; the words it changes are named, and what to send instead.
        let changed = changed_words(
            original,
            &places,
            &cuts,
            starts,
            &outcome.block.replace_text,
            joins,
        );
        kinded.push((
            EditDoubtKind::RenamesOthers,
            format!(
                "{cut}: a replace-all changes every such word ({changed}): to change whole \
                 words only, send one edit per place meant, each with enough context to occur \
                 once"
            ),
        ));
    }
    // Starting inside a line's indentation: the new text's first line takes
    // the columns before the match, its later lines do not, so they land
    // that many columns left of what the model wrote beside them.
    let line_start = original[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let before = &original[line_start..span.start];
    let new_text = &outcome.block.replace_text;
    let width = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let mut new_lines = new_text.lines();
    let first = new_lines.next().map_or(0, width);
    // A later line the model set at its first line's depth or deeper (in
    // the same block) that lands left of where the first line lands.
    let indent = before.chars().all(|c| c == ' ' || c == '\t');
    let marker = !indent && list_marker(&outcome.path, original, before);
    // After a list marker, a line that carries its own marker at the
    // item's indentation or deeper is the next item or a nested one, as
    // meant (a tester's find: `- Deploy` added after `- Configure` was
    // doubted).
    // After indentation, a line with its own marker at the column of an
    // item above (a YAML sequence's next item) is placed as meant too.
    let item_indent = width(before);
    let item_columns: std::collections::BTreeSet<usize> = original[..line_start]
        .lines()
        .filter(|l| list_marker(&outcome.path, original, &item_prefix(l)))
        .map(width)
        .collect();
    let own_item = |l: &str| {
        list_marker(&outcome.path, original, &item_prefix(l))
            && if marker {
                width(l) >= item_indent
            } else {
                item_columns.contains(&width(l))
            }
    };
    let lands_left = new_lines
        .filter(|l| !l.trim().is_empty())
        .find(|l| width(l) >= first && width(l) < first + before.len() && !own_item(l));
    if !before.is_empty()
        && (indent || marker)
        && let Some(moved) = lands_left
    {
        let columns = words::count(before.chars().count(), "column");
        // Right where the indentation ends, the old text leaves it out; in
        // the middle of it, it starts inside (a tester's find: "inside"
        // sent the model looking for stray spaces it never wrote).
        let at_end = !original[span.start..].starts_with([' ', '\t']);
        let starts = if marker {
            format!(
                "starts after line {}'s list marker `{}` ({columns}), which it leaves out",
                line_of(span.start),
                before.trim()
            )
        } else if at_end {
            format!(
                "starts after line {}'s indentation ({columns}), which it leaves out",
                line_of(span.start)
            )
        } else {
            format!(
                "starts inside line {}'s indentation ({columns} before it)",
                line_of(span.start)
            )
        };
        // What that does, in the file's own terms.
        let effect = match crate::diagnose::file_kind::FileKind::of(&outcome.path, original) {
            _ if is_markdown(&outcome.path) => {
                "in Markdown this takes it out of its list item, or joins it to the item's text"
            }
            crate::diagnose::file_kind::FileKind::Yaml => {
                "in YAML this makes it a key of another mapping than the model meant"
            }
            crate::diagnose::file_kind::FileKind::Python => {
                "in Python this moves it out of the block"
            }
            crate::diagnose::file_kind::FileKind::Makefile => {
                "in a Makefile this takes it out of the recipe"
            }
            crate::diagnose::file_kind::FileKind::Other => {
                "in indentation-sensitive code this moves it out of the block"
            }
        };
        out.push(format!(
            "the edit's old text {starts}: the new text's first line keeps those columns, its \
             other lines do not, so `{}` lands at column {}, {columns} left of where the model \
             set it beside the first ({effect}): send whole lines, indentation included",
            moved.trim(),
            width(moved),
        ));
    }
    kinded.extend(out.into_iter().map(|m| (EditDoubtKind::CutsWord, m)));
    kinded
}

/// An edit whose old text matched only inside text that does not run (a
/// line comment after its mark, `// total := p * q`, on its own line or
/// after code; a `/* */` comment; a Python triple-quoted string), while a
/// line of code starts as the old text does (`total := p * q * (1 - d)`):
/// the model meant the code, and the edit changes the comment (testers'
/// finds: the same edit as a SEARCH/REPLACE block was held back as a
/// partial line, as edit JSON it was called exact; then the trailing
/// comment, the block comment and the docstring were missed). An old text
/// that opens with the comment mark, or that no code line starts as, is a
/// comment's own edit: no doubt.
fn in_comment(outcome: &EditOutcome, original: &str) -> Option<String> {
    use crate::dialect::elided::{Comments, is_comment};
    let span = outcome.block.original.filter(|_| outcome.result.is_ok())?;
    if outcome.tool == Tool::Write || span.start > original.len() {
        return None;
    }
    // Only where `#` or `//` opens a comment of code srview reads (a
    // tester's find: a Markdown heading `## Install` was read as one).
    if !crate::diagnose::layout::result_read(&outcome.path, original) {
        return None;
    }
    let old_first = outcome.block.search_text.lines().next()?.trim();
    let comments = Comments::of(&outcome.path);
    // Code-like: an operator or a bracket, not a sentence (a docstring's
    // list of names, `FieldStorage`, edited as such: 130 of 99,593 comment
    // and docstring lines of the installed Python start a code line, 7 of
    // them code-like).
    let code_like = old_first.contains([
        '=', '(', ')', ':', '[', ']', '{', '}', '<', '>', '+', '-', '*', '/', ',', ';',
    ]) && !old_first.ends_with('.');
    if old_first.chars().count() < 4 || !code_like || is_comment(old_first, comments) {
        return None;
    }
    let unrun = Unrun::read(&outcome.path, original, comments);
    let line_start = original.get(..span.start)?.rfind('\n').map_or(0, |i| i + 1);
    let line_end = original[span.start..]
        .find('\n')
        .map_or(original.len(), |i| span.start + i);
    let line = &original[line_start..line_end];
    let what = unrun.at(original, line_start, span.start)?;
    // An old text sent from the line's start with the line's own
    // indentation (a docstring's usage example at the docstring's 8
    // columns, the code at 4: tester 42c, 06) was meant for lines at
    // those columns: only a code line there counts.
    let sent = outcome.block.search_text.lines().next().unwrap_or("");
    let own_indent = &sent[..sent.len() - sent.trim_start().len()];
    let columns = (span.start == line_start && !own_indent.is_empty()).then_some(own_indent);
    // The code line the model meant: one that starts as the old text does,
    // its start read as code.
    let mut at = 0;
    let code_line = original.lines().enumerate().find_map(|(i, l)| {
        let start = at;
        at += l.len() + 1;
        let indent = l.len() - l.trim_start().len();
        let code = l.trim_start().starts_with(old_first)
            && columns.is_none_or(|c| &l[..indent] == c)
            && unrun.at(original, start, start + indent).is_none();
        code.then_some((i, l))
    });
    let (code_at, code_line) = code_line?;
    let line_no = crate::dialect::quick::count_newlines(&original[..span.start]) + 1;
    let (place, noun) = match what {
        NotRun::Comment => ("the comment", "comment"),
        NotRun::Block => ("the `/* */` comment", "comment"),
        NotRun::LongString => ("the triple-quoted string", "string"),
    };
    let code = if code_at + 1 == line_no {
        "the code before the comment on that line starts the same way".to_string()
    } else {
        format!(
            "line {} holds code that starts the same way (`{}`)",
            code_at + 1,
            code_line.trim()
        )
    };
    Some(format!(
        "the edit's old text matches only inside {place} on line {line_no} (`{}`), while \
         {code}: the edit changes the {noun}, not the code: send the code line whole, as the \
         file has it",
        line.trim(),
    ))
}

/// How a file's text that does not run is found: comments, and Python's
/// triple-quoted strings (docstrings).
enum Unrun {
    /// Python, read as tokens: the byte spans of its comments and
    /// triple-quoted strings.
    Python(Vec<(usize, usize, crate::diagnose::doubt_names::Piece)>),
    /// A brace language: whether each line starts inside a `/* */`
    /// comment; `//` and `/*` found on the line.
    Braces(Vec<bool>),
    /// Another language: its line comments' marks.
    Lines(crate::dialect::elided::Comments),
}

/// Text a file holds that does not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NotRun {
    /// A line comment (`#`, `//`), on its own line or after code.
    Comment,
    /// A `/* */` comment.
    Block,
    /// A Python triple-quoted string (a docstring, most often).
    LongString,
}

impl Unrun {
    fn read(path: &str, original: &str, comments: crate::dialect::elided::Comments) -> Unrun {
        use crate::diagnose::doubt_names::{Piece, python_pieces};
        use crate::diagnose::file_kind::FileKind;
        if FileKind::of(path, original) == FileKind::Python
            && let Some(pieces) = python_pieces(original)
        {
            let unrun = pieces
                .into_iter()
                .filter(|(_, _, p)| matches!(p, Piece::Comment | Piece::LongStr))
                .collect();
            return Unrun::Python(unrun);
        }
        match crate::diagnose::doubt_braces::block_comment_starts(path, original) {
            Some(starts) => Unrun::Braces(starts),
            None => Unrun::Lines(comments),
        }
    }

    /// Whether byte `at` of `original` (on the line starting at byte
    /// `line_start`) lies in text that does not run, and which.
    fn at(&self, original: &str, line_start: usize, at: usize) -> Option<NotRun> {
        use crate::diagnose::doubt_names::Piece;
        let line_end = original[line_start..]
            .find('\n')
            .map_or(original.len(), |i| line_start + i);
        let line = &original[line_start..line_end];
        let before = original.get(line_start..at)?;
        match self {
            Unrun::Python(pieces) => {
                let i = pieces.partition_point(|(_, end, _)| *end <= at);
                let (start, _, piece) = pieces.get(i)?;
                (*start <= at).then_some(match piece {
                    Piece::Comment => NotRun::Comment,
                    _ => NotRun::LongString,
                })
            }
            Unrun::Braces(starts) => {
                let line_no = crate::dialect::quick::count_newlines(&original[..line_start]);
                let open = if starts.get(line_no).copied().unwrap_or(false) {
                    Some(0)
                } else {
                    mark_outside_quotes(before, "/*")
                };
                if open.is_some_and(|o| !before[o..].contains("*/")) {
                    return Some(NotRun::Block);
                }
                mark_outside_quotes(before, "//").map(|_| NotRun::Comment)
            }
            Unrun::Lines(comments) => {
                let head = before.trim();
                (crate::dialect::elided::is_comment(line, *comments) && !head.is_empty())
                    .then_some(NotRun::Comment)
            }
        }
    }
}

/// Where `mark` first stands in `text` (the start of a line up to some
/// point) outside a `"` or `` ` `` string, if it does.
fn mark_outside_quotes(text: &str, mark: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '"' || c == '`' => quote = Some(c),
            None if text[i..].starts_with(mark) => return Some(i),
            None => {}
        }
    }
    None
}

/// A line's indentation, list marker and the space after it (`  - ` of
/// `  - item`, `3. ` of `3. Deploy`); the line up to its first space after
/// its indentation otherwise.
fn item_prefix(line: &str) -> String {
    let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
    match line[indent..].find(' ') {
        Some(at) => line[..indent + at + 1].to_string(),
        None => line.to_string(),
    }
}

/// Whether `path` names a Markdown file.
fn is_markdown(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".md", ".markdown", ".mdx"]
        .iter()
        .any(|end| lower.ends_with(end))
}

/// Whether `before` (a line's text up to where an edit's old text starts)
/// is indentation and a list marker the new text's later lines would not
/// get: `- `, `* `, `+ `, `1. `, `1) `, `> ` in Markdown, `- ` in YAML (a
/// tester's find: a new item sent after `  - ` landed at column 0, out of
/// its nested list).
fn list_marker(path: &str, original: &str, before: &str) -> bool {
    let rest = before.trim_start_matches([' ', '\t']);
    let Some(marker) = rest.strip_suffix(' ').map(str::trim_end) else {
        return false;
    };
    if is_markdown(path) {
        matches!(marker, "-" | "*" | "+" | ">")
            || (marker.len() > 1
                && marker.ends_with(['.', ')'])
                && marker[..marker.len() - 1]
                    .bytes()
                    .all(|b| b.is_ascii_digit()))
    } else {
        marker == "-"
            && crate::diagnose::file_kind::FileKind::of(path, original)
                == crate::diagnose::file_kind::FileKind::Yaml
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::edit::{Edit, apply};

    fn doubts(json: &str, original: &str) -> Vec<String> {
        let edit = Edit::from_tool_input("Edit", json).expect("an edit");
        edit_doubts(&apply(&edit, Some(original)), original)
    }

    /// Cline's editor `insert_line` sent again after it applied (round
    /// 40a's find 08): its text already stands right after the boundary
    /// (or right before it, where another reading of Cline's docs puts
    /// it): applied already. The first send, or a `}` alone, is not.
    #[test]
    fn an_insert_line_sent_again_is_applied_already() {
        let said = |file: &str, line: i64, text: &str| {
            let json = serde_json::json!({"path": "t.py", "insert_line": line, "new_text": text});
            let edit = Edit::from_tool_input("editor", &json.to_string()).expect("an edit");
            let outcome = apply(&edit, Some(file));
            assert!(outcome.result.is_ok(), "{:?}", outcome.result);
            edit_doubt_kinds(&outcome, file)
        };
        let again = "def total(items):\n    s = sum(items)\n    s += 5\n    return s\n";
        let applied = |lines: &str, side: &str| {
            vec![(
                EditDoubtKind::AlreadyApplied,
                format!(
                    "its new text is already there ({lines}, {side} the line boundary it \
                     inserts at): this looks applied already, and applied again it repeats \
                     what it adds"
                ),
            )]
        };
        assert_eq!(
            said(again, 3, "    s += 5"),
            applied("line 3", "right after")
        );
        assert_eq!(
            said(again, 4, "    s += 5\n"),
            applied("line 3", "right before")
        );
        let first = "def total(items):\n    s = sum(items)\n    return s\n";
        assert_eq!(said(first, 3, "    s += 5"), Vec::new());
        assert_eq!(said("a {\n}\n}\n", 3, "}"), Vec::new());
    }

    /// A tester's find (round 47, T-08): Cline's `insert_line` putting a
    /// definition between a decorator and its own is told where to insert
    /// (the decorator's line), not to "start the old text" it has none of;
    /// inserted there, it is no doubt.
    #[test]
    fn an_insert_line_between_a_decorator_and_its_own_is_told_where_to_insert() {
        let app = "from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.route(\"/admin\")\ndef admin():\n    return \"admin\"\n";
        let said = |line: i64| {
            let json = serde_json::json!({"path": "app.py", "insert_line": line, "new_text": "def audit():\n    return \"audit\"\n\n\n"});
            let edit = Edit::from_tool_input("editor", &json.to_string()).expect("an edit");
            edit_doubts(&apply(&edit, Some(app)), app)
        };
        assert_eq!(
            said(7),
            [
                "`@app.route(\"/admin\")` stood on `def admin():` (line 7) and now stands on `def \
                 audit():` (line 7), which it decorates instead; `def admin():` (line 12) is left \
                 without it: insert the new lines at line 6 instead, above \
                 `@app.route(\"/admin\")`, so `@app.route(\"/admin\")` stays right above `def \
                 admin():`"
            ]
        );
        assert_eq!(said(6), Vec::<String>::new());
    }

    /// An old text matching only inside a comment, while a code line
    /// starts as it does, is said; a comment's own edit is not.
    #[test]
    fn an_old_text_matching_only_inside_a_comment_is_said() {
        let go = "func price(p, q, d float64) float64 {\n\t// total := p * q\n\ttotal := p * q * (1 - d)\n\treturn total\n}\n";
        let edit = r#"{"file_path": "cm.go", "old_string": "total := p * q\n", "new_string": "total := math.Round(p * q)\n"}"#;
        assert_eq!(
            doubts(edit, go),
            vec![
                "the edit's old text matches only inside the comment on line 2 (`// total := p \
                 * q`), while line 3 holds code that starts the same way (`total := p * q * (1 \
                 - d)`): the edit changes the comment, not the code: send the code line whole, \
                 as the file has it"
                    .to_string()
            ]
        );
        let py = "# old: total = p * q\ntotal = p * q * (1 - d)\n";
        let edit = r#"{"file_path": "a.py", "old_string": "total = p * q\n", "new_string": "total = round(p * q)\n"}"#;
        assert_eq!(doubts(edit, py).len(), 1);
        // A comment's own edit: a typo fixed, no code line starting so.
        let typo = r#"{"file_path": "cm.go", "old_string": "total := p * q\n", "new_string": "total := p times q\n"}"#;
        let commented = "func f() {\n\t// total := p * q\n\treturn 1\n}\n";
        assert!(doubts(typo, commented).is_empty());
        // The old text with its mark: the comment meant.
        let marked = r#"{"file_path": "cm.go", "old_string": "// total := p * q\n", "new_string": "// total := round(p * q)\n"}"#;
        assert!(doubts(marked, go).is_empty());
    }

    /// A whole write keeping only the file's first lines (one changed) and
    /// dropping the rest is said (tester round 42a, 14); a shorter rewrite,
    /// a function deleted from a file, are not.
    #[test]
    fn a_write_cut_short_after_the_files_first_lines_is_said() {
        let mut module = String::from("\"\"\"Cart.\"\"\"\nimport os\n\nTAX = 0.2\n\n");
        for name in ["add", "remove", "total", "clear", "count", "empty"] {
            module.push_str(&format!(
                "\ndef {name}(cart):\n    cart.{name}()\n    return cart\n\n"
            ));
        }
        let cut = "\"\"\"Cart.\"\"\"\nimport os\n\nTAX = 0.25\n";
        let said = write_doubt("cart.py", &module, cut);
        let (kind, message) = said.expect("a doubt");
        assert_eq!(kind, EditDoubtKind::ElidesLines);
        assert!(
            message.starts_with(
                "its content covers only the file's first 4 lines and stops there: writing it \
                 deletes the 18 non-blank lines after (lines 5-"
            ),
            "{message}"
        );
        // A rewrite keeping the docstring and import, shorter and new.
        let rewrite = "\"\"\"Cart.\"\"\"\nimport os\n\nclass Cart(list):\n    pass\n";
        assert_eq!(write_doubt("cart.py", &module, rewrite), None);
        // One function deleted.
        let fewer = module.replace(
            "\ndef clear(cart):\n    cart.clear()\n    return cart\n\n",
            "",
        );
        assert_eq!(write_doubt("cart.py", &module, &fewer), None);
        // The first lines, exactly.
        let first: String = module.lines().take(6).map(|l| format!("{l}\n")).collect();
        assert!(write_doubt("cart.py", &module, &first).is_some());
        // The first lines and one line added after them (tester 42c, 09).
        assert!(write_doubt("cart.py", &module, &format!("{first}__all__ = []\n")).is_some());
    }

    /// The tester's find (T-20): a small settings module's first 6 lines,
    /// one changed, its last 6 settings gone, is cut short; the same
    /// lines unchanged (a tail deleted, maybe meant), the file with one
    /// line changed whole, and one with a line changed and another added
    /// are not.
    #[test]
    fn a_small_files_head_with_a_line_changed_is_cut_short() {
        let cfg = "import os\n\nDEBUG = False\nHOST = \"0.0.0.0\"\nPORT = 8080\nDB_URL = os.environ[\"DB_URL\"]\nCACHE_TTL = 300\nMAX_UPLOAD = 10\nALLOWED_HOSTS = [\"example.com\"]\nSECRET_KEY = os.environ[\"SECRET_KEY\"]\nLOG_LEVEL = \"INFO\"\nTIMEZONE = \"UTC\"\n";
        let head: String = cfg.lines().take(6).map(|l| format!("{l}\n")).collect();
        let cut = head.replace("DEBUG = False", "DEBUG = True");
        let (kind, message) = write_doubt("cfg.py", cfg, &cut).expect("a doubt");
        assert_eq!(kind, EditDoubtKind::ElidesLines);
        assert!(
            message.starts_with(
                "its content covers only the file's first 6 lines and stops there: writing it \
                 deletes the 6 non-blank lines after (lines 7-12, from `CACHE_TTL = 300`)"
            ),
            "{message}"
        );
        assert_eq!(write_doubt("cfg.py", cfg, &head), None);
        let whole = cfg.replace("DEBUG = False", "DEBUG = True");
        assert_eq!(write_doubt("cfg.py", cfg, &whole), None);
        let added = cut.replace("PORT = 8080\n", "PORT = 8080\nWORKERS = 4\n");
        assert_eq!(write_doubt("cfg.py", cfg, &added), None);
        // Two lines left out: too few to tell.
        let short: String = cfg.lines().take(10).map(|l| format!("{l}\n")).collect();
        let short = short.replace("DEBUG = False", "DEBUG = True");
        assert_eq!(write_doubt("cfg.py", cfg, &short), None);
    }

    /// An old text matching only inside a trailing comment, a `/* */`
    /// comment or a docstring, while a code line starts as it does, is
    /// said too (tester round 41c, 04); a docstring's own edit is not.
    #[test]
    fn an_old_text_matching_inside_other_unrun_text_is_said() {
        let trailing = "def price(p, q, d):\n    total = p * q * (1 - d)  # was: total = p * q\n    return total\n";
        let edit = r#"{"file_path": "tc.py", "old_string": "total = p * q\n", "new_string": "total = round(p * q)\n"}"#;
        assert_eq!(
            doubts(edit, trailing),
            vec![
                "the edit's old text matches only inside the comment on line 2 (`total = p * q * \
                 (1 - d)  # was: total = p * q`), while the code before the comment on that line \
                 starts the same way: the edit changes the comment, not the code: send the code \
                 line whole, as the file has it"
                    .to_string()
            ]
        );
        let go_trailing = "func f() {\n\ttotal := p * q * d // was: total := p * q\n}\n";
        let edit_go = r#"{"file_path": "t.go", "old_string": "total := p * q\n", "new_string": "total := math.Round(p * q)\n"}"#;
        assert_eq!(doubts(edit_go, go_trailing).len(), 1);
        let block = "func price(p, q, d float64) float64 {\n\t/*\n\ttotal := p * q\n\t*/\n\ttotal := p * q * (1 - d)\n\treturn total\n}\n";
        let edit = r#"{"file_path": "bc2.go", "old_string": "\ttotal := p * q\n", "new_string": "\ttotal := math.Round(p * q)\n"}"#;
        assert_eq!(
            doubts(edit, block),
            vec![
                "the edit's old text matches only inside the `/* */` comment on line 3 (`total := \
                 p * q`), while line 5 holds code that starts the same way (`total := p * q * (1 \
                 - d)`): the edit changes the comment, not the code: send the code line whole, as \
                 the file has it"
                    .to_string()
            ]
        );
        let doc = "def price(p, q, d):\n    \"\"\"Price.\n\n    Formerly:\n    total = p * q\n    \"\"\"\n    total = p * q * (1 - d)\n    return total\n";
        let edit = r#"{"file_path": "ds.py", "old_string": "    total = p * q\n", "new_string": "    total = round(p * q, 2)\n"}"#;
        assert_eq!(
            doubts(edit, doc),
            vec![
                "the edit's old text matches only inside the triple-quoted string on line 5 \
                 (`total = p * q`), while line 7 holds code that starts the same way (`total = p \
                 * q * (1 - d)`): the edit changes the string, not the code: send the code line \
                 whole, as the file has it"
                    .to_string()
            ]
        );
        // A docstring's own edit, a URL's `//` inside a string, code after
        // a closed block comment: no doubt.
        let own = r#"{"file_path": "ds.py", "old_string": "    Formerly:\n", "new_string": "    Before 2.0:\n"}"#;
        assert!(doubts(own, doc).is_empty());
        assert_eq!(
            mark_outside_quotes("u := \"http://x\" + `//`; ", "//"),
            None
        );
        assert_eq!(mark_outside_quotes("u := \"a\\\"//\" // c", "//"), Some(13));
        let closed = "func f() {\n\t/* note */ total := p * q\n\ttotal := p * q * 2\n}\n";
        let edit = r#"{"file_path": "c.go", "old_string": "total := p * q\n", "new_string": "total := p\n"}"#;
        assert!(doubts(edit, closed).is_empty());
    }

    /// An old text that starts inside a line's indentation, followed by new
    /// lines indented as the model wrote them: the new lines after the first
    /// land left of it (the reviewer's IndentationError).
    #[test]
    fn an_old_text_starting_inside_indentation_is_said() {
        let file = "def main():\n    print(1)\n";
        let edit = r#"{"file_path": "a.py", "old_string": "  print(1)\n", "new_string": "  print(1)\n  print(2)\n"}"#;
        let said = doubts(edit, file);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0]
                == "the edit's old text starts inside line 2's indentation (2 columns before it): \
                    the new text's first line keeps those columns, its other lines do not, so \
                    `print(2)` lands at column 2, 2 columns left of where the model set it \
                    beside the first (in Python this moves it out of the block): send whole \
                    lines, indentation included",
            "{said:?}"
        );
        // Right after the indentation (a tester's find: "inside" and
        // Python named for a YAML file): what it leaves out, and YAML's
        // own consequence.
        let pod = "spec:\n  containers:\n    - name: web\n      image: nginx\n";
        let edit = r#"{"file_path": "pod.yaml", "old_string": "image: nginx\n", "new_string": "image: nginx:1.25\nimagePullPolicy: Always\n"}"#;
        assert_eq!(
            doubts(edit, pod),
            vec![
                "the edit's old text starts after line 4's indentation (6 columns), which it \
                 leaves out: the new text's first line keeps those columns, its other lines do \
                 not, so `imagePullPolicy: Always` lands at column 0, 6 columns left of where \
                 the model set it beside the first (in YAML this makes it a key of another \
                 mapping than the model meant): send whole lines, indentation included"
                    .to_string()
            ]
        );
        // After a list marker in Markdown: a new item sent without the
        // item's indentation leaves the nested list.
        let readme = "# Setup\n\n- Install\n  - run `make`\n  - run `make install`\n- Configure\n";
        let edit = r#"{"file_path": "R.md", "old_string": "run `make install`\n", "new_string": "run `make install`\n- run `make test`\n"}"#;
        let said = doubts(edit, readme);
        assert!(
            said.len() == 1
                && said[0].starts_with(
                    "the edit's old text starts after line 5's list marker `-` (4 columns), \
                     which it leaves out: the new text's first line keeps those columns, its \
                     other lines do not, so `- run `make test`` lands at column 0"
                )
                && said[0].contains("in Markdown this takes it out of its list item"),
            "{said:?}"
        );
        // The whole line sent, or a marker in a file where it means nothing,
        // is no doubt.
        let whole = r#"{"file_path": "R.md", "old_string": "  - run `make install`\n", "new_string": "  - run `make install`\n  - run `make test`\n"}"#;
        assert!(doubts(whole, readme).is_empty());
        let notes = r#"{"file_path": "notes.txt", "old_string": "run `make install`\n", "new_string": "run `make install`\n- run `make test`\n"}"#;
        assert!(doubts(notes, readme).is_empty());
        // The next item, with its own marker at the items' column or a
        // nested one deeper, is what was meant (a tester's find: each was
        // doubted); a Markdown heading is no comment.
        for (file, text, old, new) in [
            (
                "a.md",
                "- Install\n- Configure\n",
                "Configure\n",
                "Configure\n- Deploy\n",
            ),
            (
                "b.md",
                "1. Install\n2. Configure\n",
                "Configure\n",
                "Configure\n3. Deploy\n",
            ),
            ("c.md", "> one\n> two\n", "two\n", "two\n> three\n"),
            (
                "R.md",
                readme,
                "run `make install`\n",
                "run `make install`\n  - run `make test`\n",
            ),
            (
                "R.md",
                readme,
                "Install\n",
                "Install\n  - run `make deps`\n",
            ),
            (
                "ci.yml",
                "jobs:\n  b:\n    steps:\n      - run: make\n",
                "run: make\n",
                "run: make\n      - name: test\n        run: make test\n",
            ),
            (
                "d.yaml",
                "items:\n  - name: a\n    value: 1\n  - name: b\n    value: 2\n",
                "value: 2\n",
                "value: 2\n  - name: c\n    value: 3\n",
            ),
            (
                "h.md",
                "## Install\n\nInstall with pip:\n",
                "Install\n",
                "Installation\n",
            ),
        ] {
            let edit = serde_json::json!({"file_path": file, "old_string": old, "new_string": new});
            assert_eq!(
                doubts(&edit.to_string(), text),
                Vec::<String>::new(),
                "{file}: {new:?}"
            );
        }
        // Replacing the whole line, one line only, or new lines set where
        // the file's indentation puts them, is no doubt.
        let fitted = r#"{"file_path": "a.py", "old_string": "  print(1)\n", "new_string": "  print(1)\n    print(2)\n"}"#;
        assert!(doubts(fitted, file).is_empty());
        let whole = r#"{"file_path": "a.py", "old_string": "    print(1)\n", "new_string": "    print(1)\n    print(2)\n"}"#;
        assert!(doubts(whole, file).is_empty());
        let one =
            r#"{"file_path": "a.py", "old_string": "  print(1)", "new_string": "  print(3)"}"#;
        assert!(doubts(one, file).is_empty());
    }

    /// Claude Code writes a mixed file with one line ending: said. A file
    /// with one kind, or a result that keeps both, is not.
    #[test]
    fn rewritten_line_endings_are_said() {
        let edit = r#"{"file_path": "a.py", "old_string": "a = 1", "new_string": "a = 5"}"#;
        assert_eq!(
            doubts(edit, "a = 1\r\nb = 2\r\nc = 3\nd = 4\r\n"),
            [
                "the file mixes CRLF and LF line endings, and the reference writes every line \
                 with CRLF, whatever the edit's text: 1 line outside the edit (line 3) changes \
                 its ending to CRLF: tell the user, who can unify the file's line endings first"
            ]
        );
        assert!(doubts(edit, "a = 1\r\nb = 2\r\n").is_empty());
        assert!(doubts(edit, "a = 1\nb = 2\n").is_empty());
        let cline = r#"{"path": "a.py", "old_text": "a = 1", "new_text": "a = 5"}"#;
        let edit = Edit::from_tool_input("editor", cline).expect("an edit");
        let mixed = "a = 1\r\nb = 2\r\nc = 3\nd = 4\r\n";
        assert!(edit_doubts(&apply(&edit, Some(mixed)), mixed).is_empty());
    }

    /// A Claude Code `Write`'s line endings are the content's (a tester's
    /// find, 42c-11): LF over CRLF turns the whole file LF, CRLF over LF
    /// the other way, a mix is said as one; the file's own endings, or a
    /// mixed file unified towards its own ending, are none.
    #[test]
    fn a_writes_line_endings_are_the_contents() {
        let crlf = "a\r\nb\r\nc\r\n";
        let lf = "a\nb\nc\n";
        let said = |old: &str, new: &str| write_endings_doubt("f.py", old, new).map(|(_, m)| m);
        assert!(
            said(crlf, "a\nB\nc\n").is_some_and(|m| m.contains(
                "turns the whole file from CRLF to LF line endings \
                    (all 3 lines differ in a diff)"
            )),
            "{:?}",
            said(crlf, "a\nB\nc\n")
        );
        assert!(said(lf, "a\r\nB\r\nc\r\n").is_some_and(|m| m.contains("from LF to CRLF")));
        assert!(said(crlf, "a\r\nB\nc\r\n").is_some_and(|m| {
            m.contains("f.py's lines end in CRLF, and the content has 1 line ending in LF")
        }));
        assert_eq!(said(crlf, "a\r\nB\r\nc\r\n"), None);
        assert_eq!(said(lf, "a\nB\nc\n"), None);
        assert_eq!(said("a\r\nb\nc\n", "a\nB\nc\n"), None);
        let write = r#"{"file_path": "f.py", "content": "a\nB\nc\n"}"#;
        let edit = Edit::from_tool_input("Write", write).expect("a write");
        assert_eq!(
            edit_doubt_kinds(&apply(&edit, Some(crlf)), crlf)
                .into_iter()
                .map(|(kind, _)| kind)
                .collect::<Vec<_>>(),
            [EditDoubtKind::MixesEndings]
        );
    }

    /// A replace-all edit changes every place its old text stands: one
    /// inside a longer name between the first and the last is said too
    /// (`LOW` → `HIGH` made `LOW_STOCK` `HIGH_STOCK`: a new user's find).
    #[test]
    fn a_replace_all_cutting_a_word_between_its_ends_is_said() {
        let file = "label = \"LOW\"\nif qty < LOW_STOCK:\n    LOW_STOCK -= 1\nprint(\"LOW\")\n";
        let all = r#"{"file_path": "a.py", "old_string": "LOW", "new_string": "HIGH", "replace_all": true}"#;
        assert_eq!(
            doubts(all, file),
            [
                "the edit's old text `LOW` ends inside the word `LOW_STOCK` of line 2 (`if qty < \
                 LOW_STOCK:`) (also at 1 other place): it changes part of a word it does not show: a replace-all changes \
                 every such word (`LOW_STOCK` becomes `HIGH_STOCK`): to change whole words \
                 only, send one edit per place meant, each with enough context to occur once"
            ]
        );
        // Whole words at every place: no doubt.
        let whole = "label = \"LOW\"\nprint(\"LOW\")\n";
        assert!(doubts(all, whole).is_empty());
        // A tester's find (round 47, T-04): the new text keeps the longer
        // names' parts, yet their values change: other settings.
        let settings = "TIMEOUT = 30\nDB_TIMEOUT = 30\nCACHE_TIMEOUT = 30\n";
        let value = r#"{"file_path": "s.py", "old_string": "TIMEOUT = 30", "new_string": "TIMEOUT = 60", "replace_all": true}"#;
        assert_eq!(
            doubts(value, settings),
            [
                "the edit's old text `TIMEOUT = 30` starts inside the word `DB_TIMEOUT` of line 2 \
                 (`DB_TIMEOUT = 30`) (also at 1 other place): it changes part of a word it does \
                 not show: a replace-all changes every such word (`DB_TIMEOUT = 30` becomes \
                 `DB_TIMEOUT = 60`, `CACHE_TIMEOUT = 30` becomes `CACHE_TIMEOUT = 60`): to change \
                 whole words only, send one edit per place meant, each with enough context to \
                 occur once"
            ]
        );
        // Inside longer names at every place, each kept: no whole place to
        // tell them from (PHP's `$count = 0;` edited as `count = 0;`).
        let php = "<?php\n$count = 0;\nfunction f() { $count = 0; }\n";
        let count = r#"{"file_path": "a.php", "old_string": "count = 0;", "new_string": "count = 1;", "replace_all": true}"#;
        assert!(doubts(count, php).is_empty());
    }

    /// A tester's find (42b-05): replace-all edits meant to reach inside
    /// words. A prefix rename whose old text ends with `_` (`self.btn_` →
    /// `self.button_`), a suffix rename whose old text starts with one,
    /// and a version bump whose places include release tags (`v0.4.35`,
    /// `mytool-v0.4.35`) are not doubted; a version inside a longer number
    /// (`10.4.35`), a word cut between two letters, or the same prefix
    /// rename sent as one edit of one place still are. A replace-all's
    /// sentence names the words it changes and never asks for whole lines.
    #[test]
    fn a_replace_all_meant_to_reach_inside_words_is_not_a_cut_word() {
        let dialog = "class Dialog:\n    def __init__(self):\n        self.btn_ok = Button()\n        self.btn_cancel = Button()\n        self.btn_ok.pack()\n";
        let prefix = r#"{"file_path": "d.py", "old_string": "self.btn_", "new_string": "self.button_", "replace_all": true}"#;
        assert_eq!(doubts(prefix, dialog), Vec::<String>::new());
        let suffix = "ok_btn = 1\ncancel_btn = 2\n";
        let rename = r#"{"file_path": "d.py", "old_string": "_btn", "new_string": "_button", "replace_all": true}"#;
        assert_eq!(doubts(rename, suffix), Vec::<String>::new());
        let install = "cargo install mytool --version 0.4.35\ncurl -LO https://x/download/v0.4.35/mytool-v0.4.35-x86_64.tar.gz\ntar xzf mytool-V0.4.35.tar.gz\n";
        let bump = r#"{"file_path": "INSTALL.md", "old_string": "0.4.35", "new_string": "0.4.36", "replace_all": true}"#;
        assert_eq!(doubts(bump, install), Vec::<String>::new());
        // One place, after a tag's `v`: no doubt either.
        let one = r#"{"file_path": "c.md", "old_string": "1.2.3", "new_string": "1.2.4"}"#;
        assert_eq!(doubts(one, "see v1.2.3\n"), Vec::<String>::new());
        // Still doubted: inside a longer number, after a word ending in
        // `v` (`dev0.4.35`), a letter cut, a prefix edit of one place.
        let longer = "pin 0.4.35\npin 10.4.35\n";
        assert_eq!(
            doubts(bump, longer),
            [
                "the edit's old text `0.4.35` starts inside the word `10` of line 2 (`pin \
                 10.4.35`): it changes part of a word it does not show: a replace-all changes every such word (`10.4.35` \
                 becomes `10.4.36`): to change whole words only, send one edit per place meant, \
                 each with enough context to occur once"
            ]
        );
        assert_eq!(doubts(one, "see dev1.2.3\n").len(), 1);
        let lone =
            r#"{"file_path": "d.py", "old_string": "self.btn_", "new_string": "self.button_"}"#;
        let single = "self.btn_ok = 1\n";
        assert_eq!(
            doubts(lone, single),
            [
                "the edit's old text `self.btn_` ends inside the word `btn_ok` of line 1 \
                 (`self.btn_ok = 1`): it changes part of a word it does not show"
            ]
        );
        // A replace-all cutting four words: three named, then how many more.
        let btns = "self.btn_a\nself.btn_b\nself.btn_c\nself.btn_d\nself.btn_a\n";
        let cut = r#"{"file_path": "d.py", "old_string": "self.btn", "new_string": "self.button", "replace_all": true}"#;
        let said = doubts(cut, btns);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].contains(
                "(`self.btn_a` becomes `self.button_a`, `self.btn_b` becomes \
                 `self.button_b`, `self.btn_c` becomes `self.button_c`, 1 word more)"
            ),
            "{}",
            said[0]
        );
        assert!(!said[0].contains("whole lines"), "{}", said[0]);
        // Its kind: a replace-all's sentence ends with what to send.
        let edit = Edit::from_tool_input("Edit", cut).expect("an edit");
        let kinds: Vec<EditDoubtKind> = edit_doubt_kinds(&apply(&edit, Some(btns)), btns)
            .into_iter()
            .map(|(kind, _)| kind)
            .collect();
        assert_eq!(kinds, [EditDoubtKind::RenamesOthers]);
    }

    /// An old text ending between a letter and its combining accent
    /// (`Cafe` + U+0301): written, the accent lands on the new text's last
    /// letter (`Bistró`, a tester's find); starting on the accent takes it
    /// off its letter. The same for a zero width joiner inside an emoji and
    /// a variation selector. Whole characters are no doubt.
    #[test]
    fn an_old_text_splitting_a_letter_from_its_accent_is_said() {
        let file = "NAME = \"Cafe\u{301} Noir\"\n";
        // A text file: in a Python file, `X Noir"` leaves a string open,
        // another doubt (doubt_pysyntax).
        let json = |old: &str| {
            serde_json::json!({"file_path": "n.txt", "old_string": old, "new_string": "X"})
                .to_string()
        };
        assert_eq!(
            doubts(&json("NAME = \"Cafe"), file),
            [
                "the edit's old text ends before a combining accent (U+0301) that belongs to its \
                 last letter (`Cafe\u{301}` at line 1): the accent stays in the file and lands on the \
                 new text's last character"
            ]
        );
        assert_eq!(
            doubts(&json("\u{301} Noir"), file),
            [
                "the edit's old text starts with a combining accent (U+0301) that belongs to the \
                 letter before it (`Cafe\u{301}` at line 1): the edit takes the accent off that letter, \
                 which it does not show"
            ]
        );
        // The whole letter, accent and all: no doubt; the accented letter
        // then the next letter of a word: the word is cut.
        assert!(doubts(&json("NAME = \"Cafe\u{301}"), file).is_empty());
        assert!(doubts(&json("Cafe\u{301} Noir"), file).is_empty());
        assert_eq!(
            doubts(&json("Cafe\u{301}"), "Cafe\u{301}s\n"),
            [
                "the edit's old text `Cafe\u{301}` ends inside the word `Cafe\u{301}s` of line 1 \
                 (`Cafe\u{301}s`): it changes part of a word it does not show"
            ]
        );
        // Every place of a replace-all is counted.
        let all = serde_json::json!({"file_path": "a.md", "old_string": "e", "new_string": "a",
            "replace_all": true})
        .to_string();
        assert_eq!(
            doubts(&all, "e\u{301} e e\u{301}\n"),
            [
                "the edit's old text ends before a combining accent (U+0301) that belongs to its \
                 last letter (`e\u{301}` at line 1) (also at 1 other place): the accent stays in the \
                 file and lands on the new text's last character"
            ]
        );
        // An emoji joined by U+200D, and one with a variation selector.
        let family = "x = \"\u{1F468}\u{200D}\u{1F469}\"\n";
        assert_eq!(
            doubts(&json("\u{1F469}\""), family),
            [
                "the edit's old text starts right after a zero width joiner (U+200D) that joins \
                 its first character to the one before (`\u{1F468}\u{200D}\u{1F469}` at line 1): \
                 the joiner stays in the file and joins the new text to that character"
            ]
        );
        let heart = "x = \"\u{2764}\u{FE0F}\"\n";
        assert_eq!(
            doubts(&json("= \"\u{2764}"), heart),
            [
                "the edit's old text ends before a variation selector (U+FE0F) that belongs to \
                 its last character (`\u{2764}\u{FE0F}` at line 1): the selector stays in the \
                 file and lands on the new text's last character"
            ]
        );
        assert!(doubts(&json("\u{2764}\u{FE0F}\""), heart).is_empty());
        // A mark after a line break or a space has no character to leave.
        // (The new text `X` without a newline joins the lines: said so.)
        let after_break = doubts(&json("a\n"), "a\n\u{301}b\n");
        assert!(
            after_break.len() == 1 && after_break[0].contains("joined onto"),
            "{after_break:?}"
        );
    }

    #[test]
    fn an_old_text_inside_a_longer_name_is_said() {
        let file = "def f():\n    max = 10\n    return max\n";
        let ends_in_10 = "the edit's old text `x = 1` ends inside the word `10` of line 2 (`max = \
                          10`): it changes part of a word it does not show";
        assert_eq!(
            doubts(
                r#"{"file_path": "a.py", "old_string": "x = 1", "new_string": "y = 2"}"#,
                file
            ),
            [
                "the edit's old text `x = 1` starts inside the word `max` of line 2 (`max = \
                 10`): it changes part of a word it does not show",
                ends_in_10
            ]
        );
        // The new text keeping the `x` it starts with leaves `max` as it
        // was (a tester's find, round 45 T-04): only `10` is said.
        assert_eq!(
            doubts(
                r#"{"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}"#,
                file
            ),
            [ends_in_10]
        );
        // Part of a line, whole words: what edits usually are. (Not a
        // Python file: `def y = 10` then `    return max` is misindented
        // Python, which another check says.)
        for old in ["max = 10", "return max", "max", "= 10", "f():\\n    max"] {
            let json =
                format!(r#"{{"file_path": "a.txt", "old_string": "{old}", "new_string": "y"}}"#);
            assert_eq!(doubts(&json, file), Vec::<String>::new(), "{old}");
        }
        // Scripts written without spaces have no word to cut; a Latin word
        // beside them still has its ends.
        for (file, old) in [
            ("这是一个测试文件\n", "测试"),
            ("これはテストのファイルです\n", "テスト"),
            ("これは試験用です\n", "試験"),
            ("ภาษาไทยง่าย\n", "ไทย"),
            ("测试max = 10\n", "测试max"),
        ] {
            let json =
                format!(r#"{{"file_path": "a.md", "old_string": "{old}", "new_string": "y"}}"#);
            assert_eq!(doubts(&json, file), Vec::<String>::new(), "{old}");
        }
        assert_eq!(
            doubts(
                r#"{"file_path": "a.md", "old_string": "试ma", "new_string": "y"}"#,
                "测试max\n"
            ),
            [
                "the edit's old text `试ma` ends inside the word `max` of line 1 (`测试max`): it \
                 changes part of a word it does not show"
            ]
        );
        // A failed edit has nothing to doubt.
        let failed = r#"{"file_path": "a.py", "old_string": "nowhere", "new_string": "y"}"#;
        assert!(doubts(failed, file).is_empty());
    }

    /// Testers' finds (round 42a, 07 and 09): a new text dropping its old
    /// text's final newline glued the next line on (`B = 20C = 3`), and
    /// an empty new text deleting a trailing comment, whose newline
    /// Claude Code deletes too, glued the next line onto the code: both
    /// said, with the joined line and what to send. Ordinary edits, and
    /// joins the new text shows meant, are not.
    #[test]
    fn a_result_joining_two_lines_is_said() {
        let edit = |old: &str, new: &str| {
            serde_json::json!({"file_path": "c.py", "old_string": old, "new_string": new})
                .to_string()
        };
        let abc = "A = 1\nB = 2\nC = 3\n";
        assert_eq!(
            doubts(&edit("B = 2\n", "B = 20"), abc),
            [
                "its old text ends with a line end and its new text does not, so line 3 \
                 (`C = 3`) is joined onto the new text's last line, which then reads \
                 `B = 20C = 3`: end the new text with a newline, as its old text ends"
            ]
        );
        // Over several lines, and in a CRLF file.
        assert_eq!(
            doubts(&edit("A = 1\nB = 2\n", "A = 1\nB = 5"), abc),
            [
                "its old text ends with a line end and its new text does not, so line 3 \
                 (`C = 3`) is joined onto the new text's last line, which then reads \
                 `B = 5C = 3`: end the new text with a newline, as its old text ends"
            ]
        );
        let crlf = doubts(&edit("B = 2\n", "B = 20"), "A = 1\r\nB = 2\r\nC = 3\r\n");
        assert!(
            crlf.len() == 1 && crlf[0].contains("which then reads `B = 20C = 3`"),
            "{crlf:?}"
        );
        // An empty new text deleting a trailing comment: Claude Code takes
        // the newline after it.
        let run = "def run():\n    x = compute()  # TODO remove\n    y = 2\n    return x + y\n";
        assert_eq!(
            doubts(&edit("  # TODO remove", ""), run),
            [
                "deleting `  # TODO remove` with an empty new text also deletes the line end \
                 after it (the agent's rule for an empty new text), so line 3 (`    y = 2`) is \
                 joined onto line 2, which then reads `    x = compute()    y = 2`: to delete \
                 only that text, send the old text with its newline and a new text of that \
                 newline alone, or the whole line as it should read"
            ]
        );
        // The same with its newline sent.
        assert_eq!(
            doubts(&edit("  # TODO remove\n", ""), run),
            [
                "its old text ends with a line end and its new text is empty, so line 3 (`    \
                 y = 2`) is joined onto line 2, which then reads `    x = compute()    y = 2`: \
                 to delete only the text before that line end, send a new text of that newline \
                 alone"
            ]
        );
        // Not said: the ways to delete the comment, a whole line deleted
        // (its indentation sent or not: the layout check reads that),
        // edits keeping their newline, a join into a blank line or at the
        // file's end, and joins the new text shows meant.
        let fine = [
            (run, "  # TODO remove\n", "\n"),
            (run, "x = compute()  # TODO remove", "x = compute()"),
            (run, "    y = 2", ""),
            (run, "    y = 2\n", ""),
            (abc, "B = 2\n", "B = 20\n"),
            (abc, "C = 3\n", "C = 30"),
            ("A = 1\nB = 2\n\nC = 3\n", "B = 2\n", "B = 20"),
            ("f(a,\n  b)\n", "f(a,\n", "f(a,"),
            ("x = (1 +\n     2)\n", "x = (1 +\n", "x = (1 + "),
            ("t = [\n    1,\n]\n", "    1,\n", "    1"),
            ("v = f(\n    a\n)\n", "v = f(\n", "v = f(a"),
            ("s = 'a' \\\n    'b'\n", "s = 'a' \\\n", "s = 'a'"),
            ("r = q\n    .all()\n", "r = q\n", "r = qs"),
            ("ok = a and\n    b\n", "ok = a and\n", "ok = a and "),
            ("ok = (a or\n      b)\n", "ok = (a or\n", "ok = (a or "),
            ("t = [\n    1,  \n    2]\n", "    1,  \n", "    1,  "),
        ];
        for (file, old, new) in fine {
            let said = doubts(&edit(old, new), file);
            assert!(
                !said.iter().any(|d| d.contains("joined onto")),
                "{old:?} -> {new:?}: {said:?}"
            );
        }
        // A comment ending in a full stop, and a backslash kept, swallow
        // the next line: said.
        for (file, old, new) in [
            ("# Set up.\nx = 1\n", "# Set up.\n", "# Set it up."),
            ("y = \\\n    2\n", "y = \\\n", "y = \\"),
            // A trailing space shows no join meant (a tester's find: JS's
            // `const a = 10 const b = 2`), nor an old line's own.
            ("a = 1\nb = 2\n", "a = 1\n", "a = 10 "),
            ("a = 1 \nb = 2\n", "a = 1 \n", "a = 10"),
            ("a = 1\nb = 2\n", "a = 1\n", "a = 10\t"),
            (
                "Some words\nrun on here.\n",
                "Some words\n",
                "Some more words ",
            ),
        ] {
            let said = doubts(&edit(old, new), file);
            assert!(
                said.len() == 1 && said[0].contains("joined onto"),
                "{old:?}: {said:?}"
            );
        }
        // A replace-all is read at its first place.
        let all = serde_json::json!({"file_path": "c.md", "old_string": "- two\n",
            "new_string": "- 2", "replace_all": true})
        .to_string();
        let said = doubts(&all, "- one\n- two\n- three\n- two\n- four\n");
        assert!(
            said.len() == 1 && said[0].contains("line 3 (`- three`)"),
            "{said:?}"
        );
        assert!(deletes_newline_after("qwen-edit") && deletes_newline_after("edit-json"));
        assert!(!deletes_newline_after("gemini-replace") && !deletes_newline_after("pi-edit"));
    }

    /// A docstring's usage example edited in place, sent at the
    /// docstring's own indentation (8 columns, the code at 4), is the
    /// docstring's edit: no doubt (tester 42c, 06). The same lines sent at
    /// the code's columns, or without their indentation, or the example at
    /// the code's columns, stay doubted.
    #[test]
    fn a_docstring_example_sent_at_its_own_columns_is_not_said() {
        let conn = "def connect(timeout=5):\n    \"\"\"Open a connection.\n\n    Example::\n\n        client = Client()\n        client.connect()\n    \"\"\"\n    client = Client()\n    client.connect(timeout=timeout)\n    return client\n";
        let edit = |old: &str, new: &str| {
            serde_json::json!({"file_path": "conn.py", "old_string": old, "new_string": new})
                .to_string()
        };
        let example = edit(
            "        client = Client()\n        client.connect()\n",
            "        client = Client()\n        client.connect(timeout=10)\n",
        );
        assert_eq!(doubts(&example, conn), Vec::<String>::new());
        // Its first line alone, at its columns: the docstring's too.
        let one = edit(
            "        client = Client()\n",
            "        client = Client(1)\n",
        );
        assert_eq!(doubts(&one, conn), Vec::<String>::new());
        // Without its indentation it may have meant the code: said.
        let bare = edit(
            "client = Client()\n        client.connect()\n",
            "client = Client()\n        client.connect(timeout=10)\n",
        );
        let said = doubts(&bare, conn);
        assert!(
            said.len() == 1
                && said[0].starts_with(
                    "the edit's old text matches only inside the triple-quoted string on line 6"
                ),
            "{said:?}"
        );
        // The example at the code's columns, under a deeper code line
        // too: the code line at the old text's columns is the one meant.
        let nested = "def f(ok):\n    \"\"\"Do.\n\n        client = Client()\n    \"\"\"\n    if ok:\n        client = Client().open()\n";
        let deeper = edit(
            "        client = Client()\n",
            "        client = Client(2)\n",
        );
        let said = doubts(&deeper, nested);
        assert!(
            said.len() == 1 && said[0].contains("while line 7 holds code"),
            "{said:?}"
        );
    }

    /// In a Markdown file's text a line's end continues nothing: a table
    /// row's closing `|` and a hard break's two spaces are how the lines
    /// end (a tester's find: `| port | 9000 || host | localhost |` passed,
    /// the table lost a row); joined, they are said. In its fenced code
    /// the code's reading holds, and a next line starting with `.` or a
    /// closing bracket reads as meant there too.
    #[test]
    fn a_markdown_line_end_shows_no_join_meant() {
        let doc = "# Tool\n\nIntro line one.  \nSecond line.\n\n| name | default |\n|---|---|\n\
                   | port | 8000 |\n| host | localhost |\n\n```js\nf(a,\n  b)\n```\n\nSee it\n.\n";
        let edit = |path: &str, old: &str, new: &str| {
            serde_json::json!({"file_path": path, "old_string": old, "new_string": new}).to_string()
        };
        for (old, new, joined) in [
            (
                "| port | 8000 |\n",
                "| port | 9000 |",
                "`| port | 9000 || host | localhost |`",
            ),
            (
                "Intro line one.  \n",
                "Intro line, revised.  ",
                "`Intro line, revised.  Second line.`",
            ),
            ("Intro line one.  \n", "Intro:", "`Intro:Second line.`"),
        ] {
            let said = doubts(&edit("doc.md", old, new), doc);
            assert!(
                said.len() == 1 && said[0].contains(&format!("which then reads {joined}")),
                "{old:?}: {said:?}"
            );
        }
        for (path, old, new) in [
            ("doc.md", "f(a,\n", "f(a, x,"),
            ("doc.md", "See it\n", "See that"),
            ("doc.md", "| port | 8000 |\n", "| port | 9000 |\n"),
            ("doc.txt", "| port | 8000 |\n", "| port | 9000 |"),
        ] {
            let said = doubts(&edit(path, old, new), doc);
            assert!(
                !said.iter().any(|d| d.contains("joined onto")),
                "{path} {old:?}: {said:?}"
            );
        }
        assert!(in_code_block("a\n```js\nf(a,\n"));
        assert!(!in_code_block("a\n```js\nf(a,\n```\n"));
        assert!(in_code_block("~~~~\n```\n~~~\n"));
        assert!(!in_code_block("    ```\n``` a`b\n"));
    }

    /// A cut between two word characters, or inside a number's decimal
    /// point, is inside a word; one beside punctuation is not.
    #[test]
    fn word_cut_at_names_the_word_a_cut_falls_in() {
        let text = "retries = 10; rate = 1.5; row = fetch(rows)[0]";
        let at = |s: &str| text.find(s).expect("in the text");
        assert_eq!(word_cut_at(text, at("0;")), Some("10"));
        assert_eq!(word_cut_at(text, at(".5")), Some("1.5"));
        assert_eq!(word_cut_at(text, at("5;")), Some("1.5"));
        assert_eq!(word_cut_at(text, at("[0]")), None);
        assert_eq!(word_cut_at(text, at(" = 10")), None);
        assert_eq!(word_cut_at(text, text.len()), None);
    }
}
