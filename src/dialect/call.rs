//! One agent tool call run through that agent's own matcher, ported
//! exactly: the contract every agent matcher in the registry implements
//! (Aider's `diff` format, OpenCode's `edit` and `apply_patch`, Gemini CLI's
//! `replace`, Qwen Code's `edit`, pi's `edit`, Cline 3.x's `apply_patch`).
//!
//! A matcher is pure: it reads files only through a [`PatchFs`] (the same
//! seam the Codex patch applier uses; [`MemoryFs`] in tests, [`DirFs`] for
//! a real folder) and returns what the agent would do: the files it leaves
//! written, the text the model reads, and how each edit matched, named as
//! the agent's own source names its stages.
//!
//! [`MemoryFs`]: super::apply_patch::fs::MemoryFs
//! [`DirFs`]: super::apply_patch::fs::DirFs

use serde::Serialize;

pub use super::apply_patch::fs::{Entry, PatchFs, display_path, fs_path, normalize};

/// One tool call as the agent receives it.
#[derive(Clone, Copy)]
pub struct ToolCall<'a> {
    /// The tool's input exactly as the model sent it (for Aider, whose
    /// edits come in the reply text: `{"reply": TEXT}`).
    pub input: &'a serde_json::Value,
    /// The agent's project root, absolute, without a trailing `/` (the
    /// corpora use `/home/user/project`): relative paths in the input are
    /// the agent's, resolved against it, and the agent's texts name paths
    /// as it would from there.
    pub cwd: &'a str,
    /// The files as they are before the call. Paths given to it are
    /// [`fs_path`]s: relative to `cwd` when below it, else absolute.
    pub fs: &'a dyn PatchFs,
}

/// `matcher` on `input` with `files` (path below `cwd`, content) in
/// memory: the one call the matchers' unit tests make.
#[cfg(test)]
pub(crate) fn run_in_memory(
    matcher: &dyn CallMatcher,
    cwd: &str,
    files: &[(&str, &str)],
    input: &serde_json::Value,
) -> CallOutcome {
    let fs = super::apply_patch::fs::MemoryFs::new(
        files.iter().map(|(p, c)| (p.to_string(), c.to_string())),
    );
    matcher.run(&ToolCall {
        input,
        cwd,
        fs: &fs,
    })
}

/// An exact-string edit tool's input once its schema is checked, for the
/// tools that take one old/new pair (Gemini CLI's `replace`, OpenCode's
/// `edit`).
pub struct StringEdit<'a> {
    /// The path as the model wrote it.
    pub file_path: &'a str,
    /// The text to find.
    pub old_string: &'a str,
    /// The text written in its place.
    pub new_string: &'a str,
    /// Every occurrence replaced, not exactly one (Gemini's
    /// `allow_multiple`, OpenCode's `replaceAll`).
    pub replace_all: bool,
}

/// What the agent does with one call.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallOutcome {
    /// The agent reports success.
    pub ok: bool,
    /// The agent's error text exactly as the model reads it, when it fails.
    pub error: Option<String>,
    /// The agent's success text exactly as the model reads it.
    pub message: Option<String>,
    /// How the call matched, named as the agent's source names it, compound
    /// names included (`line_pass_trimEnd+removedTrailingFinalEmptyLine`,
    /// `perfect+failed`); `None` where the agent names none.
    pub stage: Option<String>,
    /// Every file the agent leaves changed, in the order it writes them,
    /// also when it fails (Aider writes the blocks that matched; a patch
    /// applier may write some files before one fails).
    pub writes: Vec<FileWrite>,
    /// Each edit (block, `edits[]` entry, hunk) in input order.
    pub edits: Vec<EditMatch>,
    /// The agent's own code would never return on this input (Cline 3.x's
    /// patch parser on some patches): srview says so instead of hanging.
    pub hangs: bool,
    /// 1-based first/last line ranges of the file before (as the matcher
    /// read it) that the agent's write changed although no edit covered
    /// them: pi's whole-file normalization when one edit needed its fuzzy
    /// match (trailing spaces, smart quotes, dashes, NFKC), line endings
    /// unified. Empty when only the edits' own lines changed.
    pub rewritten_outside: Vec<(usize, usize)>,
    /// 1-based first/last line ranges of the file before that an edit
    /// replacing every occurrence (Gemini's `allow_multiple`, OpenCode's
    /// `replaceAll`, Qwen's `replace_all`) changed beyond its first place
    /// (its [`EditMatch::lines`]): every other place the call changed,
    /// each edit's own in [`EditMatch::also_replaced`] (where a call's
    /// edits apply one after another, Aider's udiff hunks, each range is of
    /// the text its edit was searched in). Empty when it changed one place.
    pub also_replaced: Vec<(usize, usize)>,
    /// Lines of the model's input the agent's parser skips without a word
    /// where they stand among lines it reads, so that what it writes lacks
    /// them (OpenCode's `apply_patch`: a chunk line without a ` `, `-` or
    /// `+` prefix, an empty one included; Aider's udiff: the last line of a
    /// reply whose ```` ```diff ```` fence is never closed; Aider's diff
    /// format: a SEARCH or REPLACE line its `strip_quoted_wrapping` cuts
    /// where that changes the result, so the file keeps a line the block
    /// replaces or lacks one it writes): one sentence per hunk or block
    /// side, saying which lines and what to send instead. Set only when the agent
    /// succeeds; a doubt wherever the call is judged.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
    /// srview's patch checks of a patch tool's call the agent applied
    /// (OpenCode's and Cline's `apply_patch`: an `*** Add File:` over a
    /// file that exists, a hunk already applied, added lines that land
    /// elsewhere than their `@@` line names, the result's layout broken),
    /// judged once, by [`super::patch_family::doubts`], for every command
    /// that reads the outcome; `None` for a call of another tool, or one
    /// the agent refuses. srview's own reading, not the agent's: not
    /// serialized.
    #[serde(skip)]
    pub patch_doubts: Option<Vec<super::apply_patch::PatchDoubt>>,
}

impl CallOutcome {
    /// The agent applies it and no edit needed a loose stage.
    pub fn exact(&self) -> bool {
        self.ok && self.edits.iter().all(|m| !m.loose)
    }

    /// [`CallOutcome::exact`], with at least one edit and no line of the
    /// input dropped by the agent's parser: what the model sent is what is
    /// written (the test of a corrected input).
    pub fn exact_as_sent(&self) -> bool {
        self.exact() && self.dropped.is_empty() && !self.edits.is_empty()
    }

    /// The edits a loose stage placed, each with its 0-based index in the
    /// input's order.
    pub fn loose_edits(&self) -> impl Iterator<Item = (usize, &EditMatch)> {
        self.edits.iter().enumerate().filter(|(_, m)| m.loose)
    }

    /// The agent refuses the call with `error` (its words exactly), the
    /// call's stage `stage`, its edits `edits` (how far each got).
    pub fn failed(error: String, stage: Option<String>, edits: Vec<EditMatch>) -> Self {
        CallOutcome {
            ok: false,
            error: Some(error),
            stage,
            edits,
            ..CallOutcome::default()
        }
    }

    /// [`CallOutcome::failed`] for a call of one edit, which got as far as
    /// `stage` (the call's stage too).
    pub fn failed_at(error: String, stage: &str) -> Self {
        let edit = EditMatch {
            stage: stage.to_string(),
            ..EditMatch::default()
        };
        Self::failed(error, Some(stage.to_string()), vec![edit])
    }

    /// The agent creates the file `path` (an [`fs_path`]) holding
    /// `content` and says `message`: the call and its one edit, which
    /// wrote `written`, staged `stage`.
    pub fn created(
        path: String,
        content: String,
        written: &str,
        stage: &str,
        message: String,
    ) -> Self {
        CallOutcome {
            ok: true,
            message: Some(message),
            stage: Some(stage.to_string()),
            writes: vec![FileWrite {
                path,
                content: Some(content),
            }],
            edits: vec![EditMatch {
                stage: stage.to_string(),
                written: Some(written.to_string()),
                ..EditMatch::default()
            }],
            ..CallOutcome::default()
        }
    }

    /// Every file the agent writes but `path` (an [`fs_path`]), in write
    /// order.
    pub fn written_besides(&self, path: &str) -> Vec<&str> {
        self.writes
            .iter()
            .map(|w| w.path.as_str())
            .filter(|p| *p != path)
            .collect()
    }

    /// The file at `path` (an [`fs_path`]) as the agent leaves it:
    /// `Some(None)` deleted, `None` not written.
    pub fn written(&self, path: &str) -> Option<Option<&str>> {
        self.writes
            .iter()
            .rfind(|w| w.path == path)
            .map(|w| w.content.as_deref())
    }
}

/// A file as the agent leaves it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileWrite {
    /// The file, as an [`fs_path`].
    pub path: String,
    /// Its new content, byte for byte as written (BOM and line endings
    /// included); `None` when the agent deletes it.
    pub content: Option<String>,
}

/// How one edit matched.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct EditMatch {
    /// The stage that placed it (the agent's own name), or the agent's name
    /// for its failure (`failed`, `none`).
    pub stage: String,
    /// Placed by any stage but the exact one: what it replaced is not the
    /// text the model wrote.
    pub loose: bool,
    /// 1-based first and last line of the file (before the call, as the
    /// matcher searched it) that the edit replaced; `None` when it did not
    /// match or replaced no line (an insertion, a new file).
    pub lines: Option<(usize, usize)>,
    /// The file's text the edit replaced, as found (`None` if it did not
    /// match).
    pub found: Option<String>,
    /// The text written in its place (for a loose stage this may differ from
    /// the model's: re-indented, normalized).
    pub written: Option<String>,
    /// The file it edits, as [`FileWrite::path`] names it, where one call
    /// edits several files and the matcher tells which (Aider's blocks);
    /// `None` otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The path the model's edit named, when the agent applied it to
    /// another file ([`EditMatch::path`]): Aider retries a block whose
    /// SEARCH fails on its own file on every file in the chat. `None`
    /// otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub named: Option<String>,
    /// Where the agent searched for the edit's text, when that is not the
    /// whole file before the call from its top ([`Searched`]); `None`: the
    /// file before the call, searched from its first line. srview's own
    /// reading of the agent's search, for its doubts: not serialized.
    #[serde(skip)]
    pub searched: Option<Box<Searched>>,
    /// 1-based first/last line ranges (of the text it was searched in)
    /// that the edit, replacing every occurrence of its text, changed
    /// beyond its first place ([`EditMatch::lines`]): this edit's share of
    /// [`CallOutcome::also_replaced`]. Empty when it changed one place.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also_replaced: Vec<(usize, usize)>,
}

/// Where an agent searched for one edit's text ([`EditMatch::searched`]),
/// for the doubt that it took the first of several places
/// ([`CallMatcher::takes_first_of_several`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Searched {
    /// The text searched, where the agent applies a call's edits one after
    /// another, each on what the earlier ones left (Aider's blocks and
    /// hunks): [`EditMatch::lines`] are its lines. `None`: the file before
    /// the call.
    pub content: Option<String>,
    /// The 0-based line the search started at: a patch's hunks are searched
    /// from after the previous one, and after their `@@` line.
    pub from: usize,
    /// The hunk's `@@` line, where it has one with text.
    pub header: Option<Header>,
    /// The hunk is marked to stand at the end of the file: the agent tries
    /// the end first.
    pub at_end: bool,
    /// The file searched, as the patch names it, where the edit does not
    /// say it ([`EditMatch::path`]) and one call edits several (Cline 3.x's
    /// `apply_patch`); `None` otherwise.
    pub file: Option<String>,
    /// The model's old text as the agent sought it, lines joined by `\n`,
    /// where the call's input holds no such string (a patch hunk's context
    /// and removed lines, Cline 3.x's); `None` otherwise. `check` says
    /// where a loose stage's region differs from it.
    pub sought: Option<String>,
}

/// A patch hunk's `@@` line, as the agent looked for it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    /// Its text, after `@@ `.
    pub text: String,
    /// The 1-based file line where the agent found it; `None`: not found,
    /// and the agent searched for the hunk's lines as if it had none
    /// (Cline 3.x).
    pub line: Option<usize>,
}

/// An agent's matcher for one tool.
pub trait CallMatcher: Sync {
    /// What the agent does with `call`. Never panics, never hangs: an input
    /// the agent rejects is its error text, an input on which the agent's
    /// code would hang is [`CallOutcome::hangs`].
    fn run(&self, call: &ToolCall) -> CallOutcome;

    /// [`CallMatcher::run`], and the tool result exactly as the model
    /// reads it where the agent wraps its texts (Cline 3.x sends a JSON
    /// object holding them); `None`: the model reads the error or the
    /// success text as they are.
    fn run_for_model(&self, call: &ToolCall) -> (CallOutcome, Option<String>) {
        (self.run(call), None)
    }

    /// What srview knows of loose stage `stage` beyond "the text replaced
    /// is not the model's" (said wherever the stage is: a warning, a held
    /// back write); `None` for most stages.
    fn stage_note(&self, _stage: &str) -> Option<&'static str> {
        None
    }

    /// Where `stage` adds an edit's text at the end of its file whatever
    /// place the model meant (Aider's empty SEARCH, its udiff hunk of added
    /// lines only): what the agent does, said before the line it appends
    /// after (`Aider appends this block at the end of the file`), and why
    /// the edit names no place, with what to send instead. On a file that
    /// held text srview says it ([`crate::dialect::call_doubts`]); an edit
    /// filling an empty file is the agent's way to create one. `None` for a
    /// stage that places an edit where its text says.
    fn appends_unplaced(&self, _stage: &str) -> Option<(&'static str, &'static str)> {
        None
    }

    /// Where the agent counts the old text `find` in `content` at several
    /// places although it does not stand there as sent (pi counts once
    /// both are normalized), in a sentence naming each place and what was
    /// normalized there, so that the user sees why they count (a tester's
    /// find, 43a-19); `None` otherwise.
    fn counted_places(&self, _content: &str, _find: &str) -> Option<String> {
        None
    }

    /// The places (1-based first and last line of `content`) the agent's
    /// block-anchor stage weighs for the old text `find`: blocks whose
    /// first and last lines are the find's (OpenCode's
    /// BlockAnchorReplacer). Where there are several, a closest region
    /// named by similarity alone may be the other one (a tester's find,
    /// 43a-09). Empty for an agent without such a stage.
    fn anchor_places(&self, _content: &str, _find: &str) -> Vec<(usize, usize)> {
        Vec::new()
    }

    /// The agent takes the first of several places an edit's text stands
    /// at, without a word (not an error, as most string-edit tools make it).
    fn takes_first_of_several(&self) -> bool {
        false
    }

    /// The agent replaces every place an edit's text stands at although
    /// the model asked for no replace-all (Aider's udiff hunks): a call
    /// that changes several places is a doubt, not a note.
    fn replaces_every_place_unasked(&self) -> bool {
        false
    }

    /// What was looked for and not found in `input` (read from `source`,
    /// a path or `stdin`) when the call holds no edit at all: `no edit found
    /// in SOURCE`, and why where srview knows. The agent then does nothing,
    /// and srview says so.
    fn nothing_found(&self, _input: &serde_json::Value, source: &str) -> String {
        format!("no edit found in {source}")
    }
}

/// The 1-based line ranges of `before` (first, last) that differ in
/// `after`, line by line, leaving out any range that overlaps `covered`
/// (lines an edit reports); a pure insertion is named by the line it
/// precedes (the last line when it is appended).
pub fn changed_outside(
    before: &str,
    after: &str,
    covered: &[(usize, usize)],
) -> Vec<(usize, usize)> {
    let diff = similar::TextDiff::from_lines(before, after);
    let count = before.lines().count().max(1);
    let mut out: Vec<(usize, usize)> = Vec::new();
    for op in diff.ops() {
        let (tag, old, _) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            continue;
        }
        let first = (old.start + 1).min(count);
        let last = old.end.max(old.start + 1).min(count);
        let overlaps = covered.iter().any(|&(a, b)| first <= b && a <= last);
        if overlaps {
            continue;
        }
        match out.last_mut() {
            Some(previous) if previous.1 + 1 >= first => previous.1 = previous.1.max(last),
            _ => out.push((first, last)),
        }
    }
    out
}

/// The 1-based line ranges (first, last) of every occurrence of `found` in
/// `content` after the first, as a replace-all replaces them (occurrences
/// do not overlap); none for an empty `found`.
pub fn later_occurrences(content: &str, found: &str) -> Vec<(usize, usize)> {
    if found.is_empty() {
        return Vec::new();
    }
    let body = found.strip_suffix('\n').unwrap_or(found);
    let extra = body.matches('\n').count();
    // Each place's line counted on from the one before (a `}` replaced in
    // tens of thousands of places: counting from the start was quadratic).
    let (mut counted_to, mut newlines) = (0, 0);
    content
        .match_indices(found)
        .map(|(at, _)| {
            newlines += super::quick::count_newlines(&content[counted_to..at]);
            counted_to = at;
            (newlines + 1, newlines + 1 + extra)
        })
        .skip(1)
        .collect()
}

/// The stages that match a block by its first and last lines (or a share
/// of its lines) and replace the lines between as the file has them
/// (OpenCode's `BlockAnchorReplacer` and `ContextAwareReplacer`): the
/// lines the model misremembered are replaced too.
const ANCHORED_STAGES: &[&str] = &["BlockAnchorReplacer", "ContextAwareReplacer"];

/// The lines (trimmed) an anchored stage replaced that the model's old
/// text (`oldString`, `old_string` or `oldText` of the tool `input`) does
/// not hold: what the agent changed without the model asking. The session
/// review's loose-match note and the previewer's say them.
pub fn unasked_lines<'a>(
    input: &serde_json::Value,
    edits: impl IntoIterator<Item = &'a EditMatch>,
) -> Vec<String> {
    let Some(old) = ["oldString", "old_string", "oldText"]
        .iter()
        .find_map(|k| input.get(k).and_then(serde_json::Value::as_str))
    else {
        return Vec::new();
    };
    let asked: std::collections::HashSet<&str> = old.lines().map(str::trim).collect();
    edits
        .into_iter()
        .filter(|e| ANCHORED_STAGES.contains(&e.stage.as_str()))
        .filter_map(|e| e.found.as_deref())
        .flat_map(str::lines)
        .map(str::trim)
        .filter(|l| !l.is_empty() && !asked.contains(l))
        .map(str::to_string)
        .collect()
}

/// `lines` in a sentence's words: "; it replaced lines the edit's old
/// text does not hold: `a`, `b`", or nothing when there are none.
pub fn unasked_words(lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    format!(
        "; it replaced lines the edit's old text does not hold: {}",
        lines
            .iter()
            .map(|l| format!("`{l}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Node's `path.relative(from, to)` for absolute, normalized paths: the
/// way from the folder `from` to `to` (`..` for each of `from`'s folders
/// past what they share), empty when they are the same.
/// Python's `os.path.relpath(to, from)` is the same but for `.` there.
pub fn relative_path(from: &str, to: &str) -> String {
    let parts = |p: &str| -> Vec<String> {
        p.split('/')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (from, to) = (parts(from), parts(to));
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out: Vec<&str> = vec![".."; from.len() - common];
    out.extend(to[common..].iter().map(String::as_str));
    out.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_node_s_path_relative() {
        assert_eq!(relative_path("/w/p", "/w/p/src/a.py"), "src/a.py");
        assert_eq!(
            relative_path("/w/p/src", "/w/other/a.py"),
            "../../other/a.py"
        );
        assert_eq!(relative_path("/w/p/src", "/w/p"), "..");
        assert_eq!(relative_path("/w/p", "/w/p"), "");
        assert_eq!(relative_path("/", "/a"), "a");
    }

    #[test]
    fn paths_below_the_root_are_relative_others_absolute() {
        let cwd = "/home/user/project";
        assert_eq!(fs_path(cwd, "/home/user/project/src/a.rs"), "src/a.rs");
        assert_eq!(fs_path(cwd, "src/./b/../a.rs"), "src/a.rs");
        assert_eq!(
            fs_path(cwd, "/home/user/projectx/a.rs"),
            "/home/user/projectx/a.rs"
        );
        assert_eq!(fs_path(cwd, "../other/a.rs"), "/home/user/other/a.rs");
        assert_eq!(fs_path(cwd, "/home/user/project"), "");
    }

    #[test]
    fn changes_outside_the_reported_lines_are_named() {
        let before = "a\nx\nb\nc\nx\nd\n";
        let after = "a\ny\nb\nc\ny\nd\n";
        assert_eq!(changed_outside(before, after, &[(2, 2)]), vec![(5, 5)]);
        assert_eq!(changed_outside(before, after, &[(2, 2), (5, 5)]), vec![]);
        assert_eq!(changed_outside(before, before, &[]), vec![]);
        let two = "a\nx\ny\nb\nx\ny\n";
        assert_eq!(later_occurrences(two, "x\ny\n"), vec![(5, 6)]);
        assert_eq!(later_occurrences(two, "x\ny"), vec![(5, 6)]);
    }
}
