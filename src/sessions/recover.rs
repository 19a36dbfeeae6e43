//! The content before an edit where the agent's output does not carry it:
//! Codex's recorded diffs undone against the file as it is now, a Cline CLI
//! checkpoint commit (`git show REF:FILE`), the parent of the commit Aider
//! made of a reply ([`aider_commits`]), the current file (for an edit no
//! later edit wrote over: [`unwritten_after`]).
//!
//! Every read of the workspace the review makes (the current file, a file
//! in a git commit) goes through one seam, [`SessionFs`]: on disk
//! ([`SessionRoot`], which runs `git`) or in memory ([`MemorySession`],
//! for tests).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::dialect::udiff;
use crate::source::agent::{AgentEdit, EditInput, FileContent, Verdict};

/// What the review reads of a session's workspace: the files as they are
/// now and as git commits hold them. Paths are the agent's: relative to the
/// workspace, or absolute. Reads never fail: what cannot be read says so.
pub trait SessionFs {
    /// The folder relative paths resolve against (named in messages).
    fn root(&self) -> &Path;

    /// `file` (relative to the workspace, or absolute) as a path.
    fn path(&self, file: &str) -> PathBuf {
        let p = Path::new(file);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.root().join(p)
        }
    }

    /// The file as it is now: `Absent` when missing, `None` when it cannot
    /// be read as text.
    fn current(&self, file: &str) -> Option<FileContent>;

    /// `file` (relative to the workspace) as the commit `reference` holds
    /// it (`git show REF:./FILE`).
    fn show(&self, reference: &str, file: &str) -> Checkpoint;
}

/// Where the files of a session are now: the folder relative paths
/// resolve against. The [`SessionFs`] on disk (git run in the folder).
#[derive(Debug, Clone)]
pub struct SessionRoot {
    /// The folder relative paths resolve against.
    pub root: PathBuf,
}

impl SessionRoot {
    /// `file` (relative to the workspace, or absolute) on disk.
    pub fn path(&self, file: &str) -> PathBuf {
        let p = Path::new(file);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.root.join(p)
        }
    }

    /// The file as it is now: `Absent` when missing, `None` when it cannot
    /// be read as text.
    pub fn current(&self, file: &str) -> Option<FileContent> {
        match std::fs::read_to_string(self.path(file)) {
            Ok(text) => Some(FileContent::Text(text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(FileContent::Absent),
            Err(_) => None,
        }
    }
}

impl SessionFs for SessionRoot {
    fn root(&self) -> &Path {
        &self.root
    }

    fn current(&self, file: &str) -> Option<FileContent> {
        SessionRoot::current(self, file)
    }

    fn show(&self, reference: &str, file: &str) -> Checkpoint {
        git_show(self, reference, file)
    }
}

/// A session's workspace in memory, for tests: the current files and the
/// files of commits. Counts its reads.
#[derive(Debug, Default)]
pub struct MemorySession {
    /// The folder paths are named under in messages.
    pub root: PathBuf,
    /// The current files by path as the agent names them; a path missing
    /// here is a missing file.
    pub files: HashMap<String, String>,
    /// Paths that exist but cannot be read as text.
    pub unreadable: Vec<String>,
    /// By (reference, path): the file in a commit (`Absent`: not in it).
    /// A reference named nowhere here is unknown.
    pub commits: HashMap<(String, String), FileContent>,
    /// How many reads ([`SessionFs::current`], [`SessionFs::show`]) were
    /// made.
    pub reads: std::sync::atomic::AtomicUsize,
}

impl SessionFs for MemorySession {
    fn root(&self) -> &Path {
        &self.root
    }

    fn current(&self, file: &str) -> Option<FileContent> {
        self.reads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if self.unreadable.iter().any(|u| u == file) {
            return None;
        }
        Some(match self.files.get(file) {
            Some(text) => FileContent::Text(text.clone()),
            None => FileContent::Absent,
        })
    }

    fn show(&self, reference: &str, file: &str) -> Checkpoint {
        self.reads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let key = (reference.to_string(), file.to_string());
        match self.commits.get(&key) {
            Some(found) => Checkpoint::Found(found.clone()),
            None if self.commits.keys().any(|(r, _)| r == reference) => {
                Checkpoint::Found(FileContent::Absent)
            }
            None => Checkpoint::Unavailable(format!(
                "git show {reference}:{file} in {}: fatal: invalid object name '{reference}'.",
                self.root.display()
            )),
        }
    }
}

/// Codex: the content before each edit, by undoing the recorded diffs
/// from the last edit of a file back to the first, starting from the file
/// as it is now. Stops (for that file) at the first diff that does not
/// fit: the file changed after the session, or an edit has no diff.
///
/// Asked in the edits' order ([`Undone::before`]), it holds one content
/// every 16 (`BLOCK`) edits of a file and the contents of one block of edits
/// per file at a time, not one per edit: a session of 10,000 edits of big
/// files stays small.
pub struct Undone<'e> {
    edits: Vec<&'e AgentEdit>,
    files: HashMap<&'e str, FileUndo>,
}

/// Edits of one file between two kept contents.
const BLOCK: usize = 16;

struct FileUndo {
    /// The file's edits (positions in the session), in order.
    indices: Vec<usize>,
    /// The first of `indices` whose content before is known.
    known_from: usize,
    /// The content before `indices[k * BLOCK]`, for each block `k` from the
    /// one holding `known_from` on; then the file as it is now.
    marks: Vec<FileContent>,
    /// The block whose contents `block` holds.
    block_at: Option<usize>,
    block: Vec<FileContent>,
}

/// The content before edit `e`, from the content after it; `None` where
/// the undoing stops.
fn undo_one(e: &AgentEdit, after: &FileContent) -> Option<FileContent> {
    if e.agent_verdict != Verdict::Applied {
        return Some(after.clone());
    }
    if matches!(&e.input, EditInput::ApplyPatch(p) if p.contains("\n*** Add File: ")) {
        // Codex overwrites an existing file on Add: what was there before
        // is not recorded anywhere.
        return None;
    }
    let (Some(diff), FileContent::Text(after)) = (&e.agent_diff, after) else {
        return None;
    };
    udiff::reverse_apply(after, diff)
        .ok()
        .map(FileContent::Text)
}

impl<'e> Undone<'e> {
    /// Undoes the recorded diffs of `edits` against the files under `ws`.
    pub fn new(edits: &'e [AgentEdit], ws: &dyn SessionFs) -> Undone<'e> {
        Undone::of(edits.iter().collect(), ws)
    }

    /// [`Undone::new`] of edits held apart (a live review's).
    pub fn of(edits: Vec<&'e AgentEdit>, ws: &dyn SessionFs) -> Undone<'e> {
        Undone::of_files(edits, ws, |_| true)
    }

    /// [`Undone::of`] for the edits of `file` only (the others' contents
    /// before are not asked for: the edit shown read again).
    pub fn of_file(edits: Vec<&'e AgentEdit>, ws: &dyn SessionFs, file: &str) -> Undone<'e> {
        Undone::of_files(edits, ws, |f| f == file)
    }

    fn of_files(
        edits: Vec<&'e AgentEdit>,
        ws: &dyn SessionFs,
        wanted: impl Fn(&str) -> bool,
    ) -> Undone<'e> {
        let mut by_file: HashMap<&'e str, Vec<usize>> = HashMap::new();
        for (i, e) in edits.iter().copied().enumerate() {
            if wanted(&e.file) {
                by_file.entry(e.file.as_str()).or_default().push(i);
            }
        }
        let mut files = HashMap::new();
        for (file, indices) in by_file {
            if !indices.iter().any(|&i| edits[i].agent_diff.is_some()) {
                continue;
            }
            let Some(now) = ws.current(file) else {
                continue;
            };
            // Walk back from now, keeping the content at each block start.
            let mut state = now.clone();
            let mut kept: Vec<(usize, FileContent)> = Vec::new();
            let mut known_from = indices.len();
            for (p, &i) in indices.iter().enumerate().rev() {
                let Some(before) = undo_one(edits[i], &state) else {
                    break;
                };
                state = before;
                known_from = p;
                if p % BLOCK == 0 {
                    kept.push((p, state.clone()));
                }
            }
            if known_from == indices.len() {
                continue;
            }
            kept.reverse();
            let mut marks: Vec<FileContent> = kept.into_iter().map(|(_, c)| c).collect();
            if known_from % BLOCK != 0 {
                // The first block is known only from `known_from` on: its
                // start is never asked for, a placeholder keeps the count.
                marks.insert(0, FileContent::Absent);
            }
            marks.push(now);
            files.insert(
                file,
                FileUndo {
                    indices,
                    known_from,
                    marks,
                    block_at: None,
                    block: Vec::new(),
                },
            );
        }
        Undone { edits, files }
    }

    /// The content before edit `index` (a position in the session's edits),
    /// when the undoing reached it.
    pub fn before(&mut self, index: usize) -> Option<FileContent> {
        let edits = &self.edits;
        let f = self.files.get_mut(edits.get(index)?.file.as_str())?;
        let p = f.indices.binary_search(&index).ok()?;
        if p < f.known_from {
            return None;
        }
        let k = p / BLOCK;
        if f.block_at != Some(k) {
            // Undo the block's edits from the next block's start (or now).
            let first_block = f.known_from / BLOCK;
            let start = (k * BLOCK).max(f.known_from);
            let end = ((k + 1) * BLOCK).min(f.indices.len());
            let mut state = f.marks.get(k + 1 - first_block)?.clone();
            let mut block = vec![FileContent::Absent; end - start];
            for q in (start..end).rev() {
                state = undo_one(edits[f.indices[q]], &state)?;
                block[q - start] = state.clone();
            }
            f.block = block;
            f.block_at = Some(k);
        }
        let start = (k * BLOCK).max(f.known_from);
        f.block.get(p - start).cloned()
    }
}

/// Aider: for each edit, the commit (`SHA^`) that holds its file as it
/// was right before the edit, where one does.
///
/// Aider commits each reply's edits (`Commit <sha>` after its verdicts,
/// recorded in [`AgentEdit::commit`]): that commit's parent holds the files
/// before the reply. An edit's reference is the parent of the first commit
/// at or after its reply, provided no other edit may have written its
/// file between that parent and the edit: none applied (or pending) of
/// the same file among the uncommitted edits right before the committing
/// reply (an uncommitted reply that applied something ran with
/// `--no-auto-commits`), the edit itself when it is one of them, and the
/// committing reply's edits before it. Replies are told apart by their
/// commits: consecutive edits without one count as one reply, which only
/// makes the rule stricter.
pub fn aider_commits<E: std::borrow::Borrow<AgentEdit>>(edits: &[E]) -> Vec<Option<String>> {
    let edits: Vec<&AgentEdit> = edits.iter().map(E::borrow).collect();
    let n = edits.len();
    // The start of each edit's run of edits with the same commit.
    let mut start = vec![0; n];
    for i in 1..n {
        start[i] = if edits[i].commit == edits[i - 1].commit {
            start[i - 1]
        } else {
            i
        };
    }
    // The first edit at or after each one whose reply was committed.
    let mut next = vec![None; n + 1];
    for i in (0..n).rev() {
        next[i] = if edits[i].commit.is_some() {
            Some(i)
        } else {
            next[i + 1]
        };
    }
    (0..n)
        .map(|i| {
            let j = next[i]?;
            let sha = edits[j].commit.as_deref()?;
            let reply = start[j];
            // The uncommitted edits right before the committing reply.
            let from = match reply.checked_sub(1) {
                Some(k) if edits[k].commit.is_none() => start[k],
                _ => reply,
            };
            let to = if j == i { i } else { reply };
            let written = (from..to).any(|k| {
                edits[k].file == edits[i].file
                    && matches!(edits[k].agent_verdict, Verdict::Applied | Verdict::Pending)
            });
            (!written).then(|| format!("{sha}^"))
        })
        .collect()
}

/// For each edit the agent failed or never ran: whether nothing later in
/// the session may have written its file: no later edit of it applied or
/// pending, no tool that may write files run after it (`shell_runs`: the
/// edit counts at which one ran, as [`AgentReader::shell_runs`] gives
/// them). The file as it is now is then what the agent had before it,
/// unless something outside the session wrote it since.
///
/// [`AgentReader::shell_runs`]: crate::source::agent::AgentReader::shell_runs
pub fn unwritten_after<E: std::borrow::Borrow<AgentEdit>>(
    edits: &[E],
    shell_runs: &[usize],
) -> Vec<bool> {
    let files: Vec<(&str, Verdict)> = edits
        .iter()
        .map(E::borrow)
        .map(|e| (e.file.as_str(), e.agent_verdict))
        .collect();
    unwritten_after_each(&files, shell_runs)
}

/// [`unwritten_after`] from each edit's file and verdict alone (a session
/// surveyed without keeping its edits).
pub fn unwritten_after_each(edits: &[(&str, Verdict)], shell_runs: &[usize]) -> Vec<bool> {
    let mut written: std::collections::HashSet<&str> = std::collections::HashSet::new();
    // A shell ran after edit `i` when one ran at a count above `i`.
    let last_shell = shell_runs.iter().max().copied();
    let mut out = vec![false; edits.len()];
    for (i, &(file, verdict)) in edits.iter().enumerate().rev() {
        out[i] = matches!(verdict, Verdict::Failed | Verdict::NotRun)
            && last_shell.is_none_or(|b| b <= i)
            && !written.contains(file);
        if matches!(verdict, Verdict::Applied | Verdict::Pending) {
            written.insert(file);
        }
    }
    out
}

/// What `git show REF:FILE` says of a file in a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checkpoint {
    /// The file as the commit holds it (`Absent`: not in the commit).
    Found(FileContent),
    /// git is missing, the folder is no repository, the commit is unknown.
    Unavailable(String),
}

/// What [`git_show`] found, by (folder, reference, file): a commit never
/// changes, and the live previewer reviews every edit again at each change
/// of the session (one `git` process per edit each time otherwise).
type ShownCache = std::sync::Mutex<HashMap<(PathBuf, String, String), FileContent>>;

fn shown_cache() -> &'static ShownCache {
    static CACHE: std::sync::OnceLock<ShownCache> = std::sync::OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// How many contents [`shown_cache`] keeps before it starts over.
const SHOWN_CACHED: usize = 256;

/// `FILE` (relative to the workspace) as the commit `reference` holds it.
pub fn git_show(ws: &SessionRoot, reference: &str, file: &str) -> Checkpoint {
    if reference.starts_with('-') || Path::new(file).is_absolute() {
        return Checkpoint::Unavailable(format!("cannot look up {file} in {reference}"));
    }
    let key = (ws.root.clone(), reference.to_string(), file.to_string());
    if let Some(found) = shown_cache().lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Checkpoint::Found(found);
    }
    let shown = git_show_uncached(ws, reference, file);
    if let (Checkpoint::Found(found), Ok(mut cache)) = (&shown, shown_cache().lock()) {
        if cache.len() >= SHOWN_CACHED {
            cache.clear();
        }
        cache.insert(key, found.clone());
    }
    shown
}

fn git_show_uncached(ws: &SessionRoot, reference: &str, file: &str) -> Checkpoint {
    let output = Command::new("git")
        .arg("-C")
        .arg(&ws.root)
        .arg("show")
        .arg(format!("{reference}:./{file}"))
        .output();
    match output {
        Err(e) => Checkpoint::Unavailable(format!("cannot run git: {e}")),
        Ok(o) if o.status.success() => match String::from_utf8(o.stdout) {
            Ok(text) => Checkpoint::Found(FileContent::Text(text)),
            Err(_) => Checkpoint::Unavailable(format!("{file} in {reference} is not UTF-8 text")),
        },
        Ok(o) => {
            let stderr = String::from_utf8_lossy(&o.stderr);
            if stderr.contains("does not exist in") || stderr.contains("exists on disk, but not in")
            {
                Checkpoint::Found(FileContent::Absent)
            } else {
                Checkpoint::Unavailable(format!(
                    "git show {reference}:{file} in {}: {}",
                    ws.root.display(),
                    stderr.lines().next().unwrap_or("failed")
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::agent::{AgentTool, Verdict};

    fn edit(seq: usize, file: &str, verdict: Verdict, diff: Option<String>) -> AgentEdit {
        AgentEdit {
            seq,
            file: file.to_string(),
            tool: AgentTool::ApplyPatch,
            input: EditInput::ApplyPatch(String::new()),
            streaming: false,
            agent_verdict: verdict,
            agent_message: None,
            content_before: None,
            content_after: None,
            agent_diff: diff,
            commit: None,
            cut_off: false,
            call_id: None,
        }
    }

    fn aider(file: &str, verdict: Verdict, commit: Option<&str>) -> AgentEdit {
        AgentEdit {
            commit: commit.map(str::to_string),
            cut_off: false,
            ..edit(0, file, verdict, None)
        }
    }

    #[test]
    fn aider_edits_take_the_parent_of_the_first_commit_at_or_after_their_reply() {
        use Verdict::{Applied, Failed, NotRun};
        let edits = [
            // Reply 1 failed (nothing written, no commit).
            aider("calc.py", Failed, None),
            aider("util.py", NotRun, None),
            // Reply 2 committed as abc1234: two edits of calc.py.
            aider("calc.py", Applied, Some("abc1234")),
            aider("calc.py", Applied, Some("abc1234")),
            aider("util.py", Applied, Some("abc1234")),
            // Reply 3 applied without a commit (--no-auto-commits), then
            // reply 4 committed as def5678.
            aider("calc.py", Applied, None),
            aider("util.py", Failed, None),
            aider("calc.py", Applied, Some("def5678")),
            aider("util.py", Applied, Some("def5678")),
            // After the last commit: nothing tells.
            aider("calc.py", Failed, None),
        ];
        let got = aider_commits(&edits);
        let want = [
            Some("abc1234^"),
            Some("abc1234^"),
            Some("abc1234^"),
            None, // a second edit of calc.py in its reply
            Some("abc1234^"),
            None, // applied without a commit: def5678's parent holds its result
            Some("def5678^"),
            None, // calc.py was written by the uncommitted reply 3
            Some("def5678^"),
            None, // no commit after it
        ];
        assert_eq!(got.iter().map(Option::as_deref).collect::<Vec<_>>(), want,);
        assert_eq!(
            unwritten_after(&edits, &[]),
            [
                false, false, false, false, false, false, false, false, false, true
            ]
        );
        // A shell command run after the last edit may have written its
        // file; one run before it, not.
        assert!(!unwritten_after(&edits, &[10])[9]);
        assert!(unwritten_after(&edits, &[9])[9]);
    }

    #[test]
    fn undone_diffs_give_every_content_before_back_to_the_first_gap() {
        // 45 edits of a.txt (one line changed each, every 7th failed, the
        // 6th without its diff), interleaved with edits of b.txt.
        let mut lines: Vec<String> = (0..20).map(|i| format!("line {i}")).collect();
        let text = |lines: &[String]| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
        let mut edits = Vec::new();
        let mut truth = Vec::new();
        for n in 0..45 {
            truth.push(text(&lines));
            let seq = edits.len() + 1;
            if n % 7 == 3 {
                edits.push(edit(seq, "a.txt", Verdict::Failed, None));
            } else {
                let k = 1 + n % 17;
                let old = lines[k].clone();
                lines[k] = format!("edit {n}");
                let diff = format!(
                    "@@ -{k},3 +{k},3 @@\n {}\n-{old}\n+{}\n {}\n",
                    lines[k - 1],
                    lines[k],
                    lines[k + 1]
                );
                edits.push(edit(
                    seq,
                    "a.txt",
                    Verdict::Applied,
                    (n != 5).then_some(diff),
                ));
            }
            edits.push(edit(edits.len() + 1, "b.txt", Verdict::Failed, None));
        }
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("a.txt"), text(&lines)).expect("write");
        let ws = SessionRoot {
            root: dir.path().to_path_buf(),
        };
        let mut undone = Undone::new(&edits, &ws);
        for (n, want) in truth.iter().enumerate() {
            let got = undone.before(2 * n);
            // Undoing stops at the edit without its diff.
            let want = (n > 5).then(|| FileContent::Text(want.clone()));
            assert_eq!(got, want, "edit {n}");
            // b.txt has no diff at all: nothing to undo.
            assert_eq!(undone.before(2 * n + 1), None);
        }
    }
}
