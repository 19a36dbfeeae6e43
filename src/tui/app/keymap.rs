//! The keys as data: which previewer each belongs to and what it does, in
//! the order the `?` overlay lists them. The view reads this table (help,
//! footer); it imports nothing of the key handling (`keys.rs`), which
//! imports the view.

/// Which previewer a key belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyScope {
    Both,
    /// One diff: `F` (final result) and `r` (reload FILE).
    SingleDiff,
    /// A multi-file transcript: its tabs and accept-all. A transcript edit
    /// is final once its call completes, and FILE is re-read on accept.
    Transcript,
    /// An agent's edits, one at a time: the agent writes them.
    Agent,
}

/// The keys the `?` overlay lists, in order.
pub const KEY_HELP: &[(&str, &str, KeyScope)] = &[
    ("j/k ↑/↓", "scroll", KeyScope::Both),
    ("PgUp/PgDn", "page", KeyScope::Both),
    ("^d/^u", "half page down/up", KeyScope::Both),
    ("h/l </>", "scroll sideways", KeyScope::Both),
    ("g/G", "top/bottom", KeyScope::Both),
    ("n/N", "next/prev block (search: match)", KeyScope::Both),
    ("/", "search the panes", KeyScope::Both),
    ("]/[ →/←", "next/prev file", KeyScope::Transcript),
    ("1-9", "file by number", KeyScope::Transcript),
    ("]/[ →/←", "next/prev edit", KeyScope::Agent),
    ("!", "failed edits first", KeyScope::Agent),
    ("f", "follow the agent's newest edit", KeyScope::Agent),
    ("f", "follow stream", KeyScope::SingleDiff),
    ("f", "follow the file being written", KeyScope::Transcript),
    ("u/Tab", "unified/split", KeyScope::Both),
    ("w", "wrap", KeyScope::Both),
    ("e", "focus blocks", KeyScope::Both),
    ("Enter", "jump to block / closest region", KeyScope::Both),
    ("click", "select a block", KeyScope::Both),
    ("d", "jump to closest region", KeyScope::Both),
    ("c", "copy corrected block", KeyScope::Both),
    ("+", "diagnosis: all rows / a third", KeyScope::Both),
    ("v", "raw diff/patch/edit JSON", KeyScope::Both),
    ("F", "final result / live view", KeyScope::SingleDiff),
    ("x", "leave out of a / take back in", KeyScope::SingleDiff),
    (
        "a",
        "accept (the blocks not left out)",
        KeyScope::SingleDiff,
    ),
    ("a", "accept this file", KeyScope::Transcript),
    ("A", "accept all files (all or none)", KeyScope::Transcript),
    (
        "a",
        "write srview's result (an edit the agent did not apply)",
        KeyScope::Agent,
    ),
    ("L", "asked of CRLF: file's endings", KeyScope::SingleDiff),
    ("L", "asked of CRLF: files' endings", KeyScope::Transcript),
    ("r", "reload FILE", KeyScope::SingleDiff),
    ("r", "reload from disk, re-apply", KeyScope::Transcript),
    ("Esc", "close help/search/preview/focus", KeyScope::Both),
    ("Esc", "back to the list of edits", KeyScope::Agent),
    ("q", "quit", KeyScope::Both),
    ("?", "help", KeyScope::Both),
];

/// The keys of one kind of previewer.
pub fn key_help(scope: KeyScope) -> impl Iterator<Item = (&'static str, &'static str)> {
    KEY_HELP
        .iter()
        .filter(move |k| k.2 == KeyScope::Both || k.2 == scope)
        .map(|&(key, what, _)| (key, what))
}
