//! Aider: `aider --no-pretty` stdout (live) and `.aider.chat.history.md`
//! (saved; aider's own lines are quoted with `> ` there). The model's reply
//! is printed as it streams, edit blocks included; aider's verdicts follow
//! it: `Applied edit to F`, or `# N SEARCH/REPLACE block(s) failed to
//! match!` with one `## SearchReplaceNoExactMatch` section per failed block
//! (which echoes the block: that echo is not a new edit), or a parse error
//! echoing the reply up to `^^^ Expected ...`.
//!
//! One edit per SEARCH/REPLACE block (`aider-block`, run by Aider's own
//! `diff` matcher), per hunk with `--edit-format udiff` (`aider-udiff`, run
//! by Aider's own udiff applier), per file with `whole`
//! (`aider-whole`, whose content is the content after).
//!
//! Between a reply and its verdicts aider may ask a question: `Create new
//! file?` (the edits then apply), `Add file to the chat?` (the reply is
//! then sent again: its edits never run, the next reply's do). Its subject
//! (the file) is printed on a line of its own; the question is recorded in
//! the history, and on a terminal the answer follows it on the same line.
//! After the verdicts, `Commit <sha> <message>` names the commit aider
//! made of the reply's edits (recorded on each of them).

mod replies;

use super::store::Store;
use super::{AgentEdit, ContentOrigin, EditInput, FileContent, Verdict};
use replies::{blocks, strip_ansi, udiff_hunks, whole_files};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EditFormat {
    Diff,
    Udiff,
    Whole,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Reading the model's reply.
    Reply,
    /// After the reply: aider's verdict lines.
    After,
    /// Inside `# N SEARCH/REPLACE block(s) failed to match!`.
    Errors,
    /// After the failed sections' closing advice.
    ErrorsTail,
    /// Aider echoing a reply it could not parse.
    Echo,
    /// After `UnifiedDiffNoMatch` / `UnifiedDiffNotUnique: hunk failed to
    /// apply!`: one section per failed hunk, each ending with the hunk's
    /// original lines in a fence.
    UdiffErrors,
}

pub(super) struct Parser {
    history: bool,
    format: EditFormat,
    mode: Mode,
    reply: String,
    /// The current (or last) reply's edits, in order.
    reply_edits: Vec<usize>,
    /// An open `## SearchReplaceNoExactMatch` section: its file and text.
    section: Option<(String, Vec<String>)>,
    /// An open udiff failure section: its text, and how many fence lines
    /// it has had.
    udiff_section: Option<(Vec<String>, usize)>,
    echo: Vec<String>,
    /// The edit format's "did not conform" notice was printed.
    nonconform: bool,
    /// The last reply's parsed units, for the content of a whole file.
    whole_contents: Vec<Option<String>>,
    /// After a reply, a line that may be a question's subject (a file
    /// name on its own line) or the first line of the next reply (a file
    /// name before a block's fence): the next line tells.
    subject: Option<String>,
}

impl Parser {
    pub(super) fn new(history: bool) -> Parser {
        Parser {
            history,
            format: EditFormat::Diff,
            mode: Mode::Reply,
            reply: String::new(),
            reply_edits: Vec::new(),
            section: None,
            udiff_section: None,
            echo: Vec::new(),
            nonconform: false,
            whole_contents: Vec::new(),
            subject: None,
        }
    }

    /// The line as aider printed it: terminal noise removed; in the
    /// history, the `> ` quote and the markdown line break removed.
    fn clean(&self, raw: &str) -> String {
        let raw = raw.rsplit('\r').next().unwrap_or(raw);
        let line = strip_ansi(raw);
        if self.history {
            if line == ">" {
                return String::new();
            }
            if let Some(quoted) = line.strip_prefix("> ") {
                return quoted.strip_suffix("  ").unwrap_or(quoted).to_string();
            }
        }
        line
    }

    pub(super) fn line(&mut self, raw: &str, store: &mut Store) {
        let line = self.clean(raw);
        if let Some(v) = line.strip_prefix("Aider v") {
            store.set_version(v.trim());
            return;
        }
        if line.starts_with("Model: ") {
            self.format = if line.contains(" with udiff edit format") {
                EditFormat::Udiff
            } else if line.contains(" with whole edit format") {
                EditFormat::Whole
            } else {
                EditFormat::Diff
            };
            return;
        }
        if self.history && line.starts_with("#### ") {
            // The user's next message: what follows is a new reply.
            self.close_errors(store);
            self.start_reply("", store);
            return;
        }
        match self.mode {
            Mode::Reply => self.reply_line(&line, store),
            Mode::After => self.after(&line, store),
            Mode::Errors => self.errors(&line, store),
            Mode::ErrorsTail => self.errors_tail(&line, store),
            Mode::UdiffErrors => self.udiff_errors(&line, store),
            Mode::Echo => {
                if line.starts_with("^^^ ") {
                    self.echo.push(line.trim_end().to_string());
                    let message = self.echo.join("\n");
                    self.echo.clear();
                    self.malformed(message, store);
                    self.start_reply("", store);
                } else if !(self.echo.is_empty() && line.trim().is_empty()) {
                    self.echo.push(line);
                }
            }
        }
    }

    /// The reply still streaming: its torn last line previewed too.
    pub(super) fn preview_tail(&mut self, tail: &str, store: &mut Store) {
        if self.mode == Mode::Reply && !tail.starts_with("Tokens") {
            let text = format!("{}{}", self.reply, self.clean(tail));
            self.sync(&text, false, store);
        }
    }

    pub(super) fn finish(&mut self, store: &mut Store) {
        self.close_errors(store);
    }

    /// A line of the reply (until aider's `Tokens:` line ends it).
    fn reply_line(&mut self, line: &str, store: &mut Store) {
        if line.starts_with("Tokens: ") {
            self.sync(&self.reply.clone(), true, store);
            self.mode = Mode::After;
            self.nonconform = false;
        } else {
            self.reply.push_str(line);
            self.reply.push('\n');
            self.sync(&self.reply.clone(), false, store);
        }
    }

    /// A new reply begins (with `first`, when not empty). The last one's
    /// edits still without a verdict never ran: aider moved on (it asked
    /// to add a file to the chat and sent the reply again, or skipped a
    /// file the user did not let it create).
    fn start_reply(&mut self, first: &str, store: &mut Store) {
        for &at in &self.reply_edits {
            store.set_verdict(at, Verdict::NotRun, None);
        }
        self.subject = None;
        self.mode = Mode::Reply;
        self.reply.clear();
        self.reply_edits.clear();
        self.whole_contents.clear();
        if !first.is_empty() {
            self.reply.push_str(first);
            self.reply.push('\n');
        }
    }

    fn after(&mut self, line: &str, store: &mut Store) {
        let trimmed = line.trim();
        if let Some(rest) = confirm_question(trimmed) {
            // The question of the subject held: not a reply's first line.
            self.subject = None;
            if !is_answer(rest) {
                // Asked on a terminal: the next output follows the prompt.
                self.after(rest, store);
            }
            return;
        }
        if let Some(held) = self.subject.take()
            && trimmed.starts_with("```")
        {
            // The held line was a file name before a block's fence: the
            // next reply began with it.
            self.start_reply(&held, store);
            self.reply_line(line, store);
            return;
        }
        if let Some(file) = trimmed.strip_prefix("Applied edit to ") {
            let file = store.relative(file);
            for (i, &at) in self.reply_edits.iter().enumerate() {
                let Some(edit) = store.get(at) else { continue };
                if edit.file == file && edit.agent_verdict == Verdict::Pending {
                    store.set_verdict(at, Verdict::Applied, None);
                    if let Some(Some(content)) = self.whole_contents.get(i) {
                        store.set_after(
                            at,
                            FileContent::Text(content.clone()),
                            ContentOrigin::Recorded,
                        );
                    }
                }
            }
        } else if is_failed_header(trimmed) {
            self.mode = Mode::Errors;
        } else if is_udiff_failure(trimmed) {
            self.mode = Mode::UdiffErrors;
            self.udiff_section = Some((vec![line.to_string()], 0));
        } else if trimmed == "The LLM did not conform to the edit format." {
            self.nonconform = true;
        } else if let Some(sha) = commit_sha(trimmed) {
            self.commit(sha, store);
        } else if is_chatter(trimmed) {
        } else if self.nonconform {
            self.mode = Mode::Echo;
            self.echo = vec![line.to_string()];
        } else if is_subject(trimmed) {
            self.subject = Some(line.to_string());
        } else {
            self.start_reply(line, store);
        }
    }

    /// The reply's edits were committed as `sha` (aider's last commit
    /// after a reply is the reply's own; one before it commits files the
    /// user had changed).
    fn commit(&mut self, sha: &str, store: &mut Store) {
        for &at in &self.reply_edits {
            if let Some(edit) = store.edit_mut(at) {
                edit.commit = Some(sha.to_string());
            }
        }
    }

    fn errors(&mut self, line: &str, store: &mut Store) {
        const HEAD: &str =
            "## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in ";
        if let Some(file) = line.strip_prefix(HEAD) {
            self.section = Some((file.trim().to_string(), vec![line.to_string()]));
            return;
        }
        if let Some((file, lines)) = &mut self.section {
            lines.push(line.to_string());
            if is_replace_marker(line) {
                let file = file.clone();
                let message = lines.join("\n");
                self.section = None;
                self.fail_block(&file, message, store);
            }
            return;
        }
        if line.contains("The SEARCH section must exactly match") {
            self.mode = Mode::ErrorsTail;
        }
    }

    fn errors_tail(&mut self, line: &str, store: &mut Store) {
        let trimmed = line.trim();
        if trimmed.starts_with("# The other ") && trimmed.contains("applied successfully") {
            for &at in &self.reply_edits {
                store.set_verdict(at, Verdict::Applied, None);
            }
        } else if let Some(sha) = commit_sha(trimmed) {
            // The blocks that applied were committed.
            self.commit(sha, store);
        } else if is_retry_request(trimmed) {
        } else {
            self.close_errors(store);
            self.start_reply(line, store);
        }
    }

    /// Leaves the failure report: blocks it did not name were not run;
    /// udiff hunks it did not name were written (aider writes each hunk
    /// that applies).
    fn close_errors(&mut self, store: &mut Store) {
        let rest = match self.mode {
            Mode::Errors | Mode::ErrorsTail => Verdict::NotRun,
            Mode::UdiffErrors => Verdict::Applied,
            _ => return,
        };
        if let Some((lines, _)) = self.udiff_section.take() {
            self.fail_hunk(lines, store);
        }
        for &at in &self.reply_edits {
            store.set_verdict(at, rest, None);
        }
        self.mode = Mode::After;
    }

    fn udiff_errors(&mut self, line: &str, store: &mut Store) {
        let trimmed = line.trim();
        if is_udiff_failure(trimmed) {
            if let Some((lines, _)) = self.udiff_section.take() {
                self.fail_hunk(lines, store);
            }
            self.udiff_section = Some((vec![line.to_string()], 0));
            return;
        }
        if let Some((lines, fences)) = &mut self.udiff_section {
            lines.push(line.to_string());
            if trimmed.starts_with("```") {
                *fences += 1;
                if *fences == 2
                    && let Some((lines, _)) = self.udiff_section.take()
                {
                    self.fail_hunk(lines, store);
                }
            }
            return;
        }
        if trimmed.is_empty() || trimmed.starts_with("Note: some hunks did apply successfully") {
            return;
        }
        self.close_errors(store);
        self.start_reply(line, store);
    }

    /// The hunk a udiff failure section names: its file is in the section's
    /// third line, its original lines in the fence.
    fn fail_hunk(&mut self, lines: Vec<String>, store: &mut Store) {
        let file = lines
            .iter()
            .find_map(|l| {
                l.strip_suffix(" does not contain lines that match the diff you provided!")
                    .or_else(|| {
                        l.strip_suffix(
                            " contains multiple sets of lines that match the diff you provided!",
                        )
                    })
            })
            .map(|f| store.relative(f.trim()));
        let original: Vec<&str> = lines
            .iter()
            .skip_while(|l| !l.trim_start().starts_with("```"))
            .skip(1)
            .take_while(|l| !l.trim_start().starts_with("```"))
            .map(|l| l.trim_end())
            .collect();
        let message = lines.join("\n");
        self.fail_echoed(
            store,
            message,
            |e| file.as_ref().is_none_or(|f| e.file == *f),
            |input| match input {
                EditInput::UnifiedDiff(diff) => hunk_before(diff) == original,
                EditInput::Call(call) => hunk_before(&call.text()) == original,
                _ => false,
            },
        );
    }

    /// The failed block whose echo is `message`: the reply's first block of
    /// `file`, without a verdict, with the same SEARCH text (else the first
    /// of that file without a verdict).
    fn fail_block(&mut self, file: &str, message: String, store: &mut Store) {
        let file = store.relative(file);
        let echoed = search_text(&message);
        self.fail_echoed(
            store,
            message,
            |e| e.file == file,
            |input| match input {
                EditInput::SearchReplace(d) => search_text(d) == echoed,
                EditInput::Call(call) => search_text(&call.text()) == echoed,
                _ => false,
            },
        );
    }

    /// Fails, with `message`, the reply's first edit without a verdict that
    /// `of_file` accepts and whose input `echoed` recognises in the message,
    /// else the first without a verdict that `of_file` accepts.
    fn fail_echoed(
        &self,
        store: &mut Store,
        message: String,
        of_file: impl Fn(&AgentEdit) -> bool,
        echoed: impl Fn(&EditInput) -> bool,
    ) {
        let candidates: Vec<usize> = self
            .reply_edits
            .iter()
            .copied()
            .filter(|&at| {
                store
                    .get(at)
                    .is_some_and(|e| e.agent_verdict == Verdict::Pending && of_file(e))
            })
            .collect();
        let exact = candidates
            .iter()
            .copied()
            .find(|&at| store.get(at).is_some_and(|e| echoed(&e.input)));
        if let Some(at) = exact.or(candidates.first().copied()) {
            store.set_verdict(at, Verdict::Failed, Some(message));
        }
    }

    /// A reply aider could not parse: its malformed block failed, the rest
    /// of it was never applied.
    fn malformed(&mut self, message: String, store: &mut Store) {
        let bad = self.reply_edits.iter().copied().rev().find(|&at| {
            store
                .get(at)
                .is_some_and(|e| e.agent_verdict == Verdict::Pending)
        });
        for &at in &self.reply_edits {
            if Some(at) == bad {
                store.set_verdict(at, Verdict::Failed, Some(message.clone()));
            } else {
                store.set_verdict(at, Verdict::NotRun, None);
            }
        }
    }

    /// Brings the reply's edits up to date with its text so far.
    fn sync(&mut self, text: &str, complete: bool, store: &mut Store) {
        let found = match self.format {
            EditFormat::Diff => blocks(text),
            EditFormat::Udiff => udiff_hunks(text),
            EditFormat::Whole => whole_files(text),
        };
        for (i, f) in found.into_iter().enumerate() {
            let streaming = f.partial && !complete;
            match self.reply_edits.get(i) {
                Some(&at) => {
                    store.set_path(at, &f.path);
                    let changed = store
                        .get(at)
                        .is_some_and(|e| e.input != f.input || e.streaming != streaming);
                    if changed && let Some(edit) = store.edit_mut(at) {
                        edit.input = f.input;
                        edit.streaming = streaming;
                    }
                    self.whole_contents[i] = f.whole;
                }
                None => {
                    let at = store.push(f.tool, &f.path, f.input, streaming);
                    self.reply_edits.push(at);
                    self.whole_contents.push(f.whole);
                }
            }
        }
    }
}

/// The text after one of aider's yes/no questions (`Create new file?
/// (Y)es/(N)o [Yes]: y`): the answer in the history, the next output when
/// asked on a terminal. `None` for any other line.
fn confirm_question(line: &str) -> Option<&str> {
    if !line.contains("? (Y)es/(N)o") {
        return None;
    }
    ["[Yes]:", "[No]:"]
        .iter()
        .find_map(|end| line.split_once(end).map(|(_, rest)| rest.trim()))
}

/// An answer to a question: `y`, `n`, `a`(ll), `s`(kip all), `d`(on't ask
/// again), or nothing.
fn is_answer(text: &str) -> bool {
    text.is_empty()
        || ["y", "n", "a", "s", "d", "yes", "no", "all", "skip", "don't"]
            .contains(&text.to_lowercase().as_str())
}

/// The commit in `Commit <sha> <message>`.
fn commit_sha(line: &str) -> Option<&str> {
    let sha = line.strip_prefix("Commit ")?.split(' ').next()?;
    ((7..=40).contains(&sha.len()) && sha.bytes().all(|b| b.is_ascii_hexdigit())).then_some(sha)
}

/// A line that may be a question's subject: one word (a file name), not a
/// fence or a heading.
fn is_subject(line: &str) -> bool {
    !line.is_empty()
        && !line.contains(char::is_whitespace)
        && !line.starts_with("```")
        && !line.starts_with('#')
}

/// A line of aider's own between replies that says nothing of an edit: a
/// blank, a link to its docs, a `Commit` line naming no sha, the token
/// count, a file whose edits it skipped.
fn is_chatter(line: &str) -> bool {
    line.is_empty()
        || line.starts_with("https://aider.chat/")
        || line.starts_with("Commit ")
        || line.starts_with("Tokens: ")
        || line.starts_with("Skipping edits to ")
}

/// A line of the rest of aider's request to send the failed blocks again
/// (after its `# The other ...` line), or a blank: nothing to read.
fn is_retry_request(line: &str) -> bool {
    line.is_empty()
        || line.contains("docstrings, etc")
        || line.starts_with("Don't re-send them")
        || line.starts_with("Just reply with fixed versions of the")
}

fn is_failed_header(line: &str) -> bool {
    line.starts_with("# ")
        && line.contains(" SEARCH/REPLACE block")
        && line.ends_with("failed to match!")
}

fn is_udiff_failure(line: &str) -> bool {
    line == "UnifiedDiffNoMatch: hunk failed to apply!"
        || line == "UnifiedDiffNotUnique: hunk failed to apply!"
}

/// The lines a unified-diff hunk expects to find: its context and removed
/// lines, in order.
fn hunk_before(diff: &str) -> Vec<&str> {
    diff.lines()
        .skip_while(|l| !l.starts_with("@@"))
        .skip(1)
        .filter_map(|l| match l.chars().next() {
            None => Some(""),
            Some(' ') | Some('-') => Some(l[1..].trim_end()),
            _ => None,
        })
        .collect()
}

fn is_replace_marker(line: &str) -> bool {
    let t = line.trim_end();
    let run = t.chars().take_while(|&c| c == '>').count();
    (5..=9).contains(&run) && t[run..] == *" REPLACE"
}

/// The SEARCH part of a block (Aider's or Cline's markers).
fn search_text(block: &str) -> String {
    let mut out = Vec::new();
    let mut inside = false;
    for line in block.lines() {
        let t = line.trim_end();
        if t.ends_with(" SEARCH") || t.ends_with(" SEARCH>") {
            inside = true;
        } else if inside && !t.is_empty() && t.chars().all(|c| c == '=') && t.len() >= 5 {
            break;
        } else if inside {
            out.push(line);
        }
    }
    out.join("\n")
}

impl super::reader::FormatReader for Parser {
    fn unit(&mut self, text: &str, store: &mut Store) {
        self.line(text, store);
    }

    fn tail(&mut self, text: &str, store: &mut Store) {
        self.preview_tail(text, store);
    }

    fn reads_tail(&self) -> bool {
        true
    }

    fn finish(&mut self, store: &mut Store) {
        Parser::finish(self, store);
    }
}
