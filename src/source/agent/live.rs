//! An agent's output as it arrives, for the agent previewer: its format
//! detected from the first bytes (and a followed file's name), then read
//! by its [`AgentReader`]; a followed file read whole again is read on
//! where it grew, read anew where it was rewritten in place (Cline's
//! `ui_messages.json`), or read again from its start when it was truncated
//! or replaced; an output ending inside a line says which verdicts it may
//! have lost. No terminal and no clock: fed text, it returns the edits'
//! events and what the screen should say (the one file-system question it
//! asks is the reader's, whether a path exists under `--cwd`).

use std::collections::HashSet;
use std::path::PathBuf;

use super::{AgentError, AgentEvent, AgentReader, detect, detect_path};

/// How long the detection waits for a first line before deciding on what
/// has arrived: no agent writes a first line this long.
const DETECT_LIMIT: usize = 64 * 1024;

/// Not an edit's event: the list's shape changed as a whole (a reader
/// started, the output was read again, the output ended), so the whole
/// review runs again.
pub const RESHAPED: AgentEvent = AgentEvent::Started(0);

/// The output read so far, as its length and a running hash.
#[derive(Default)]
struct Fed {
    len: usize,
    hash: std::collections::hash_map::DefaultHasher,
}

impl Fed {
    fn push(&mut self, text: &str) {
        use std::hash::Hasher;
        self.hash.write(text.as_bytes());
        self.len += text.len();
    }

    /// What `all` adds to the output read so far, when it starts with it.
    fn rest_of<'a>(&self, all: &'a str) -> Option<&'a str> {
        use std::hash::Hasher;
        let head = all.get(..self.len)?;
        let mut hash = std::collections::hash_map::DefaultHasher::default();
        hash.write(head.as_bytes());
        (hash.finish() == self.hash.finish()).then(|| &all[self.len..])
    }
}

/// What the screen should say of the output, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputNote {
    /// A sentence for the list's notice.
    Say {
        /// The sentence.
        text: String,
        /// Shown as an error.
        error: bool,
    },
    /// The agent's format was recognised: a notice saying the output is no
    /// agent's (the text [`NOT_AN_AGENT`] begins) no longer holds.
    Recognised,
    /// The output is read again from its start: every edit listed before
    /// is gone (and what the screen kept of them must go).
    Restarted,
}

/// How the notice saying the output is no agent's begins.
pub const NOT_AN_AGENT: &str = "not the output";

/// What one [`LiveOutput::take`] read.
#[derive(Default)]
pub struct Taken {
    /// The edits' events ([`RESHAPED`] when the list changed as a whole).
    pub events: Vec<AgentEvent>,
    /// What to say and do, in order.
    pub notes: Vec<OutputNote>,
}

/// An agent's output as it arrives; see the module's text.
pub struct LiveOutput {
    /// The bytes read before the agent's format is known.
    head: Vec<u8>,
    reader: Option<AgentReader>,
    /// What has been read of the output: its length and a hash of its
    /// bytes, to tell a followed file that grew from one rewritten without
    /// keeping a copy of it.
    fed: Fed,
    /// `--cwd`: where the workspace is now.
    cwd: Option<PathBuf>,
    /// The folder the agent ran in, for outputs that do not name it
    /// (`cline --json`): its absolute paths are shown relative to it.
    agent_cwd: Option<String>,
    /// The followed file, whose name tells its format.
    followed: Option<PathBuf>,
    /// The output has ended (stdin closed, a replay done).
    ended: bool,
    /// Edits still without a verdict when the output ended inside a line.
    verdict_missing: HashSet<usize>,
}

impl LiveOutput {
    /// An output not read yet. `cwd`: `--cwd`; `agent_cwd`: the folder
    /// the agent ran in, for outputs that do not name it.
    pub fn new(cwd: Option<PathBuf>, agent_cwd: Option<String>) -> LiveOutput {
        LiveOutput {
            head: Vec::new(),
            reader: None,
            fed: Fed::default(),
            cwd,
            agent_cwd,
            followed: None,
            ended: false,
            verdict_missing: HashSet::new(),
        }
    }

    /// The output is the file at `path` (its name tells the format of
    /// Cline's and Codex's session files).
    pub fn following(&mut self, path: &std::path::Path) {
        self.followed = Some(path.to_path_buf());
    }

    /// The folder the agent ran in, when its output does not name it.
    pub fn with_agent_cwd(&mut self, dir: &str) {
        self.agent_cwd = Some(dir.to_string());
    }

    /// A saved session's reader, read whole: what it says of a torn last
    /// line.
    pub fn finished(&mut self, reader: AgentReader) -> Vec<OutputNote> {
        self.reader = Some(reader);
        self.ended = true;
        let mut notes = Vec::new();
        self.note_torn(&mut notes);
        notes
    }

    /// Reads on with `reader`, which has read the output's first part (a
    /// saved session whose rest arrives as appended text).
    pub fn reading(&mut self, reader: AgentReader) {
        self.reader = Some(reader);
    }

    /// The reader, once the format is known.
    pub fn reader(&self) -> Option<&AgentReader> {
        self.reader.as_ref()
    }

    /// The reader, to take its settled edits out of it (a saved session's
    /// browser keeps memory bounded that way).
    pub fn reader_mut(&mut self) -> Option<&mut AgentReader> {
        self.reader.as_mut()
    }

    /// The bytes read so far.
    pub fn len(&self) -> usize {
        self.fed.len
    }

    /// Whether nothing was read yet.
    pub fn is_empty(&self) -> bool {
        self.fed.len == 0
    }

    /// Edits still without a verdict when the output ended inside a line:
    /// that line may have held it.
    pub fn verdict_missing(&self) -> &HashSet<usize> {
        &self.verdict_missing
    }

    /// Reads more of the agent's output. `replaced`: the whole output was
    /// rewritten (a followed file); `ended`: no more will come.
    pub fn take(&mut self, replaced: Option<String>, appended: &str, ended: bool) -> Taken {
        let mut taken = Taken::default();
        if let Some(all) = replaced {
            match self.fed.rest_of(&all) {
                // Grown: only the new part is read.
                Some(rest) if self.fed.len > 0 => {
                    let rest = rest.to_string();
                    self.feed(&rest, true, &mut taken);
                }
                _ => match &mut self.reader {
                    // Cline rewrites ui_messages.json as the task runs.
                    Some(reader) if reader.format().row().rewritten_in_place => {
                        taken.events.extend(reader.snapshot(all.as_bytes()));
                        self.fed = Fed::default();
                        self.fed.push(&all);
                    }
                    Some(_) => {
                        say(
                            &mut taken.notes,
                            "the followed file was truncated or replaced: read again from its start",
                        );
                        self.restart();
                        taken.notes.push(OutputNote::Restarted);
                        taken.events.push(RESHAPED);
                        self.feed(&all, true, &mut taken);
                    }
                    None => {
                        self.fed = Fed::default();
                        self.head.clear();
                        self.feed(&all, true, &mut taken);
                    }
                },
            }
        }
        if !appended.is_empty() {
            self.feed(appended, false, &mut taken);
        }
        if ended && !self.ended {
            self.ended = true;
            if self.reader.is_none() {
                self.start_reader(true, &mut taken);
            }
            self.end_reader(&mut taken.notes);
            taken.events.push(RESHAPED);
        }
        taken
    }

    /// Forgets what was read, to read the output again from its start.
    fn restart(&mut self) {
        self.reader = None;
        self.head.clear();
        self.fed = Fed::default();
        self.verdict_missing.clear();
    }

    /// The output ended: edits still without a verdict are not run, and
    /// when the output ended inside a line, their verdict may be lost.
    fn end_reader(&mut self, notes: &mut Vec<OutputNote>) {
        let Some(reader) = &mut self.reader else {
            return;
        };
        reader.finish();
        // An output of a kind that records no edits says so (in place of
        // "no file edits in this output").
        let no_edits = reader
            .errors()
            .iter()
            .find(|e| matches!(e, AgentError::NoEdits { .. }))
            .map(ToString::to_string);
        if let Some(why) = no_edits {
            say(notes, &why);
        }
        self.note_torn(notes);
    }

    /// The edits the output ended before the agent's result on (stopped
    /// after the call, or inside a line that may have held the verdict):
    /// the agent may have run them; said, and `a` refuses them.
    fn note_torn(&mut self, notes: &mut Vec<OutputNote>) {
        let Some(reader) = &self.reader else {
            return;
        };
        self.verdict_missing = reader.ended_without_verdict().iter().copied().collect();
        if reader.ended_inside_line() {
            say(
                notes,
                "the output ended inside a line: a verdict in that line is lost",
            );
        } else if !self.verdict_missing.is_empty() {
            let n = self.verdict_missing.len();
            let them = if n == 1 { "it" } else { "them" };
            say(
                notes,
                &format!(
                    "the output ends before the agent's result on {}: the agent may have \
                     applied {them}",
                    crate::words::count(n, "edit")
                ),
            );
        }
    }

    /// Reads `text`, or keeps it until the format is known. `whole`: the
    /// text is a file's whole content as of now.
    fn feed(&mut self, text: &str, whole: bool, taken: &mut Taken) {
        self.fed.push(text);
        match &mut self.reader {
            Some(reader) => taken.events.extend(reader.feed(text.as_bytes())),
            None => {
                self.head.extend_from_slice(text.as_bytes());
                self.start_reader(whole, taken);
            }
        }
    }

    /// Detects the agent's format from the first bytes (and a followed
    /// file's name), and reads them. Undecided, it waits for more: up to 40
    /// lines or [`DETECT_LIMIT`] bytes, or the end (`at_end`: no more will
    /// come for now) before it says the output is no agent's.
    fn start_reader(&mut self, at_end: bool, taken: &mut Taken) {
        let blank = self.head.iter().all(u8::is_ascii_whitespace);
        if blank {
            if at_end && self.ended {
                say(
                    &mut taken.notes,
                    "nothing arrived: the agent's output was empty",
                );
            }
            return;
        }
        let detected = match &self.followed {
            Some(path) => detect_path(path, &self.head),
            None => detect(&self.head),
        };
        let Some((kind, format)) = detected else {
            let lines = self.head.iter().filter(|&&b| b == b'\n').count();
            if at_end && self.ended && lines == 0 {
                say(
                    &mut taken.notes,
                    "the output ended inside its first line: too little of it to tell which \
                     agent wrote it",
                );
            } else if at_end || lines >= 40 || self.head.len() > DETECT_LIMIT {
                let first = String::from_utf8_lossy(&self.head);
                let first = first.lines().next().unwrap_or_default();
                let shown: String = first.chars().take(60).collect();
                say(
                    &mut taken.notes,
                    &format!(
                        "{NOT_AN_AGENT} of an agent srview reads ({}): it starts {shown:?}; see \
                         docs/agents.md for the commands",
                        super::table::agent_names()
                    ),
                );
            }
            return;
        };
        // Paths stay relative to the workspace the output records; `--cwd`
        // says where that workspace is now. An output that records none ran
        // where srview runs (or in `--cwd`).
        let mut reader = AgentReader::new(kind, format);
        if !format.row().names_workspace
            && let Some(dir) = &self.agent_cwd
        {
            reader = reader.with_workspace(dir);
            if let Some(root) = self.cwd.clone() {
                // Paths outside `--cwd`: the workspace moved there.
                reader = reader.with_existing(move |rel| root.join(rel).exists());
            }
        }
        taken.notes.push(OutputNote::Recognised);
        let head = std::mem::take(&mut self.head);
        taken.events.extend(reader.feed(&head));
        taken.events.push(RESHAPED);
        self.reader = Some(reader);
    }
}

/// An error sentence for the screen.
fn say(notes: &mut Vec<OutputNote>, text: &str) {
    notes.push(OutputNote::Say {
        text: text.to_string(),
        error: true,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Cline CLI stream whose `editor` edit of a.py the agent failed.
    const FAILED_EDIT: &str = concat!(
        r#"{"type":"agent_event","event":{"type":"content_start","contentType":"tool","toolName":"editor","toolCallId":"c1","input":{"path":"a.py","old_text":"x = 1","new_text":"x = 2"}}}"#,
        "\n",
        r#"{"type":"agent_event","event":{"type":"content_end","contentType":"tool","toolName":"editor","toolCallId":"c1","output":{"success":false,"error":"timed out"}}}"#,
        "\n"
    );

    fn said(taken: &Taken) -> Vec<&str> {
        taken
            .notes
            .iter()
            .filter_map(|n| match n {
                OutputNote::Say { text, .. } => Some(text.as_str()),
                OutputNote::Recognised | OutputNote::Restarted => None,
            })
            .collect()
    }

    fn output() -> LiveOutput {
        LiveOutput::new(None, Some("/work".into()))
    }

    /// The hash of the output read in pieces is the hash of the whole: a
    /// followed file read whole again after it grew is read on, not again.
    #[test]
    fn a_followed_file_read_whole_again_after_it_grew_is_read_on() {
        let mut fed = Fed::default();
        fed.push("ab");
        fed.push("cde");
        assert_eq!(fed.rest_of("abcdefg"), Some("fg"));
        assert_eq!(fed.rest_of("abXdefg"), None);
        assert_eq!(fed.rest_of("abc"), None);
        let mut out = output();
        let first_line = FAILED_EDIT.find('\n').expect("a line") + 1;
        let taken = out.take(Some(FAILED_EDIT[..first_line].to_string()), "", false);
        assert_eq!(taken.notes, vec![OutputNote::Recognised]);
        assert!(taken.events.contains(&RESHAPED));
        let taken = out.take(Some(FAILED_EDIT.to_string()), "", false);
        assert!(taken.notes.is_empty(), "not read as a rewrite");
        assert!(!taken.events.contains(&RESHAPED));
        assert_eq!(out.len(), FAILED_EDIT.len());
        let edits = out.reader().expect("a reader").edits();
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].agent_verdict, super::super::Verdict::Failed);
    }

    /// A followed file truncated to nothing is read again from its start,
    /// and that is said.
    #[test]
    fn a_truncated_followed_file_is_read_again() {
        let mut out = output();
        out.take(Some(FAILED_EDIT.to_string()), "", false);
        assert_eq!(out.reader().map(|r| r.edits().len()), Some(1));
        let taken = out.take(Some(String::new()), "", false);
        assert_eq!(taken.notes.last(), Some(&OutputNote::Restarted));
        assert_eq!(
            said(&taken),
            ["the followed file was truncated or replaced: read again from its start"]
        );
        assert!(out.reader().is_none());
        assert_eq!(out.len(), 0);
    }

    #[test]
    fn an_empty_output_says_nothing_arrived() {
        let mut out = output();
        let taken = out.take(None, "", true);
        assert_eq!(
            said(&taken),
            ["nothing arrived: the agent's output was empty"]
        );
        assert_eq!(taken.events, vec![RESHAPED]);
    }

    #[test]
    fn output_of_no_known_agent_is_said_at_its_end_or_after_40_lines() {
        let mut out = output();
        let taken = out.take(None, "hello world\n", false);
        assert!(taken.notes.is_empty(), "it may still turn out an agent's");
        let taken = out.take(None, "", true);
        let words = said(&taken);
        assert_eq!(words.len(), 1);
        assert!(
            words[0].starts_with(
                "not the output of an agent srview reads (Claude Code, Codex, Cline, Aider, \
                 Qwen Code, pi, OpenCode or Gemini CLI): it starts \"hello world\"; see"
            ),
            "{}",
            words[0]
        );
        let mut out = output();
        let taken = out.take(None, &"prose\n".repeat(40), false);
        assert_eq!(taken.notes.len(), 1);
        let mut out = output();
        let taken = out.take(None, "no newline", true);
        assert_eq!(
            said(&taken),
            [
                "the output ended inside its first line: too little of it to tell which agent \
                 wrote it"
            ]
        );
    }

    /// Cut inside the line holding the agent's verdict: the edit is listed
    /// as one whose verdict may be lost, and that is said.
    #[test]
    fn an_output_cut_inside_the_verdict_line_leaves_no_verdict() {
        let mut out = output();
        let cut = FAILED_EDIT.len() - 30;
        let taken = out.take(None, &FAILED_EDIT[..cut], true);
        assert_eq!(
            said(&taken),
            ["the output ended inside a line: a verdict in that line is lost"]
        );
        assert_eq!(out.verdict_missing(), &HashSet::from([1]));
        // Whole, nothing is missing.
        let mut out = output();
        let taken = out.take(None, FAILED_EDIT, true);
        assert!(said(&taken).is_empty());
        assert!(out.verdict_missing().is_empty());
    }
}
