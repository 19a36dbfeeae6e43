//! The keys as data: one table of rows (the keys, where they apply, the
//! action each key runs, the help text, the footer's words) that drives
//! dispatch, the `?` overlay, the footers and the agent list's key notice,
//! so that they cannot drift apart. A screen looks a key up with
//! [`lookup`] and runs the [`Action`] it gets; the overlay and the footers
//! render the same rows. The view reads this table; it imports nothing of
//! the key handling (`keys.rs`), which imports the view.
//!
//! What is not in the table: the text typed into a `/` query, the scroll
//! keys of an overlay (they are the table's scroll actions, looked up
//! here too), Ctrl-C (quits everywhere, as a terminal's interrupt), and the
//! mouse (`click` is a row without keys, for the help).

use Action as A;
use KeyCode as K;
use KeyScope as S;
use ratatui_crossterm::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Where a key applies: one screen, or every previewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyScope {
    /// Every previewer of a file: one diff, a transcript's tab, an agent's
    /// edit (not the agent's list of edits).
    Both,
    /// One diff: `F` (final result) and `r` (reload FILE).
    SingleDiff,
    /// A multi-file transcript: its tabs and accept-all. A transcript edit
    /// is final once its call completes, and FILE is re-read on accept.
    Transcript,
    /// An agent's edit, one at a time: the agent writes them.
    Agent,
    /// The agent's list of edits.
    AgentList,
}

impl KeyScope {
    /// The screens a key can be pressed in ([`KeyScope::Both`] is a row's
    /// scope only).
    #[cfg(test)]
    pub const SCREENS: [KeyScope; 4] = [
        KeyScope::SingleDiff,
        KeyScope::Transcript,
        KeyScope::Agent,
        KeyScope::AgentList,
    ];

    /// Whether a row of this scope applies in `screen`.
    pub fn covers(self, screen: KeyScope) -> bool {
        self == screen || (self == KeyScope::Both && screen != KeyScope::AgentList)
    }
}

/// What a key does. The screen whose scope the row names runs it: the
/// previewer of a file (`keys::act`) the rows of every previewer and of one
/// diff, the transcript (`Workspace::on_key`) and the agent screen
/// (`AgentList::on_key`) theirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Action {
    /// A row down (the panes, the blocks pane, the agent's list).
    Down,
    Up,
    PageDown,
    PageUp,
    HalfPageDown,
    HalfPageUp,
    /// The panes' text sideways.
    Left,
    Right,
    Top,
    Bottom,
    /// The next block (while a search is active: the next match).
    NextBlock,
    PrevBlock,
    /// Start a `/` search of the panes.
    Search,
    /// Follow the stream (one diff).
    Follow,
    /// Follow the file being written (a transcript).
    FollowFile,
    /// Follow the agent's newest edit.
    FollowNewest,
    /// Unified or split.
    ToggleLayout,
    Wrap,
    /// The blocks pane takes j/k, or gives them back.
    FocusBlocks,
    /// Jump to the selected block, or a failed one's closest region.
    Jump,
    /// Jump to the selected block's closest region.
    Closest,
    /// Copy the corrected block.
    CopyCorrected,
    /// The diagnosis: all its rows, or a third of the screen.
    ExpandDiagnosis,
    /// The edit as received, over the panes.
    RawInput,
    /// The final result, or back to the live view (one diff).
    FinalView,
    /// Leave the selected block out of what `a` writes, or take it back.
    LeaveOut,
    /// Write the result (one diff).
    Accept,
    /// Write this file (a transcript).
    AcceptFile,
    /// Write every file, all or none (a transcript).
    AcceptAll,
    /// Write srview's result of an edit the agent did not apply.
    WriteEdit,
    /// Asked about a CRLF file given LF lines: write with the file's endings.
    FileEndings,
    /// Re-read from disk and apply again.
    Reload,
    /// Close what is open (help, search, final preview, blocks focus).
    Close,
    /// Back to the agent's list of edits.
    BackToList,
    /// The next file (a transcript's tab).
    NextFile,
    PrevFile,
    /// The file of this number, from 0 (a transcript's tab, the agent's
    /// file's latest edit).
    File(u8),
    /// The next edit of the agent.
    NextEdit,
    PrevEdit,
    /// Failed edits (and disagreements) first, or the agent's order.
    FailedFirst,
    /// Open the selected edit.
    Open,
    /// Save the selected edit's own text to a new file.
    SaveText,
    Quit,
    /// The keys.
    Help,
}

/// One key and what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bind {
    pub code: KeyCode,
    /// Held with Ctrl (other modifiers do not matter: Shift gives `G`).
    pub ctrl: bool,
    pub action: Action,
}

/// The footer's item of a row: its keys and words there, and how much it
/// matters when the footer is too narrow for every item (the lowest goes
/// first; `u8::MAX` always stays).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Footer {
    pub keys: &'static str,
    pub words: &'static str,
    pub priority: u8,
}

/// One row of the table: what the `?` overlay lists on one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyRow {
    /// The keys as the help names them (`j/k ↑/↓`).
    pub keys: &'static str,
    pub help: &'static str,
    pub scope: KeyScope,
    /// Each key and its action (none for `click`, the mouse).
    pub binds: &'static [Bind],
    /// Listed in the footer of its screen.
    pub footer: Option<Footer>,
}

const fn on(c: char, action: Action) -> Bind {
    Bind {
        code: KeyCode::Char(c),
        ctrl: false,
        action,
    }
}

const fn code(code: KeyCode, action: Action) -> Bind {
    Bind {
        code,
        ctrl: false,
        action,
    }
}

const fn ctrl(c: char, action: Action) -> Bind {
    Bind {
        code: KeyCode::Char(c),
        ctrl: true,
        action,
    }
}

const fn row(
    keys: &'static str,
    help: &'static str,
    scope: KeyScope,
    binds: &'static [Bind],
) -> KeyRow {
    KeyRow {
        keys,
        help,
        scope,
        binds,
        footer: None,
    }
}

const fn footer(mut row: KeyRow, keys: &'static str, words: &'static str, priority: u8) -> KeyRow {
    row.footer = Some(Footer {
        keys,
        words,
        priority,
    });
    row
}

/// A row of one plain key, the help naming it as it is typed.
macro_rules! key {
    ($c:literal, $help:literal, $scope:expr, $action:expr) => {
        row(concat!($c), $help, $scope, &[on($c, $action)])
    };
}

/// The row of `]/[ →/←`: `next` on `]` and →, `prev` on `[` and ←.
macro_rules! next_prev {
    ($help:literal, $scope:expr, $next:expr, $prev:expr) => {
        row(
            "]/[ →/←",
            $help,
            $scope,
            &[
                on(']', $next),
                code(K::Right, $next),
                on('[', $prev),
                code(K::Left, $prev),
            ],
        )
    };
}

const DIGITS: &[Bind] = &[
    on('1', A::File(0)),
    on('2', A::File(1)),
    on('3', A::File(2)),
    on('4', A::File(3)),
    on('5', A::File(4)),
    on('6', A::File(5)),
    on('7', A::File(6)),
    on('8', A::File(7)),
    on('9', A::File(8)),
];
const SCROLL: &[Bind] = &[
    on('j', A::Down),
    code(K::Down, A::Down),
    on('k', A::Up),
    code(K::Up, A::Up),
];
const PAGE: &[Bind] = &[
    code(K::PageUp, A::PageUp),
    code(K::PageDown, A::PageDown),
    on(' ', A::PageDown),
];
const ENDS: &[Bind] = &[
    on('g', A::Top),
    code(K::Home, A::Top),
    on('G', A::Bottom),
    code(K::End, A::Bottom),
];
const FAILED_FIRST: &[Bind] = &[on('!', A::FailedFirst)];
const FOLLOW_NEWEST: &[Bind] = &[on('f', A::FollowNewest)];
const SAVE: &[Bind] = &[on('s', A::SaveText)];
const QUIT: &[Bind] = &[on('q', A::Quit)];

/// Every key, in the order the `?` overlay lists them; the footer lists
/// those with a [`Footer`] in this order too.
pub const KEYS: &[KeyRow] = &[
    footer(
        row("j/k ↑/↓", "scroll", S::Both, SCROLL),
        "j/k",
        "scroll",
        4,
    ),
    row("PgUp/PgDn Space", "page", S::Both, PAGE),
    row(
        "^d/^u",
        "half page down/up",
        S::Both,
        &[ctrl('d', A::HalfPageDown), ctrl('u', A::HalfPageUp)],
    ),
    row(
        "h/l </>",
        "scroll sideways",
        S::Both,
        &[
            on('h', A::Left),
            on('<', A::Left),
            on('l', A::Right),
            on('>', A::Right),
        ],
    ),
    row("g/G Home/End", "top/bottom", S::Both, ENDS),
    // The footer's words change while a search is active (the view says so).
    footer(
        row(
            "n/N",
            "next/prev block (search: match)",
            S::Both,
            &[on('n', A::NextBlock), on('N', A::PrevBlock)],
        ),
        "n/N",
        "block",
        5,
    ),
    key!('/', "search the panes", S::Both, A::Search),
    next_prev!("next/prev file", S::Transcript, A::NextFile, A::PrevFile),
    row("1-9", "file by number", S::Transcript, DIGITS),
    next_prev!("next/prev edit", S::Agent, A::NextEdit, A::PrevEdit),
    row("1-9", "a file's latest edit", S::Agent, DIGITS),
    row("!", "failed edits first", S::Agent, FAILED_FIRST),
    footer(
        row(
            "f",
            "follow the agent's newest edit",
            S::Agent,
            FOLLOW_NEWEST,
        ),
        "f",
        "follow",
        1,
    ),
    footer(
        key!('f', "follow stream", S::SingleDiff, A::Follow),
        "f",
        "follow",
        1,
    ),
    footer(
        key!(
            'f',
            "follow the file being written",
            S::Transcript,
            A::FollowFile
        ),
        "f",
        "follow",
        1,
    ),
    // The footer names the layout `u` switches to (the view says which).
    footer(
        row(
            "u/Tab",
            "unified/split",
            S::Both,
            &[on('u', A::ToggleLayout), code(K::Tab, A::ToggleLayout)],
        ),
        "u",
        "unified",
        2,
    ),
    key!('w', "wrap", S::Both, A::Wrap),
    footer(
        key!('e', "focus blocks", S::Both, A::FocusBlocks),
        "e",
        "blocks",
        3,
    ),
    row(
        "Enter",
        "jump to block / closest region",
        S::Both,
        &[code(K::Enter, A::Jump)],
    ),
    row("click", "select a block", S::Both, &[]),
    key!('d', "jump to closest region", S::Both, A::Closest),
    key!('c', "copy corrected block", S::Both, A::CopyCorrected),
    key!(
        '+',
        "diagnosis: all rows / a third",
        S::Both,
        A::ExpandDiagnosis
    ),
    key!('v', "raw diff/patch/edit JSON", S::Both, A::RawInput),
    key!('F', "final result / live view", S::SingleDiff, A::FinalView),
    key!('F', "final result / live view", S::Agent, A::FinalView),
    key!(
        'x',
        "leave out of a / take back in",
        S::SingleDiff,
        A::LeaveOut
    ),
    footer(
        key!(
            'a',
            "accept (the blocks not left out)",
            S::SingleDiff,
            A::Accept
        ),
        "a",
        "accept",
        7,
    ),
    footer(
        key!('a', "accept this file", S::Transcript, A::AcceptFile),
        "a",
        "accept",
        7,
    ),
    key!(
        'A',
        "accept all files (all or none)",
        S::Transcript,
        A::AcceptAll
    ),
    footer(
        key!(
            'a',
            "write srview's result (an edit the agent did not apply)",
            S::Agent,
            A::WriteEdit
        ),
        "a",
        "accept",
        7,
    ),
    row("s", "save the edit's text to a file", S::Agent, SAVE),
    key!(
        'L',
        "asked of CRLF: file's endings",
        S::SingleDiff,
        A::FileEndings
    ),
    key!(
        'L',
        "asked of CRLF: files' endings",
        S::Transcript,
        A::FileEndings
    ),
    key!('r', "reload FILE", S::SingleDiff, A::Reload),
    key!('r', "reload from disk, re-apply", S::Transcript, A::Reload),
    row(
        "Esc",
        "close help/search/preview/focus",
        S::Both,
        &[code(K::Esc, A::Close)],
    ),
    // Overrides the row above in an agent's edit: Esc first closes what
    // the edit's previewer has open, then goes back to the list.
    row(
        "Esc",
        "back to the list of edits",
        S::Agent,
        &[code(K::Esc, A::BackToList)],
    ),
    footer(row("q", "quit", S::Both, QUIT), "q", "quit", 6),
    footer(key!('?', "help", S::Both, A::Help), "?", "help", u8::MAX),
    // The agent's list of edits: its `?` says these keys in a notice.
    footer(
        row("j/k ↑/↓", "move", S::AgentList, SCROLL),
        "j/k",
        "move",
        0,
    ),
    row("PgUp/PgDn Space", "ten edits", S::AgentList, PAGE),
    row("g/G Home/End", "first/last edit", S::AgentList, ENDS),
    footer(
        row(
            "Enter",
            "open an edit",
            S::AgentList,
            &[code(K::Enter, A::Open)],
        ),
        "Enter",
        "open",
        0,
    ),
    row("1-9", "a file's latest edit", S::AgentList, DIGITS),
    // The footer says the order `!` switches to (the view says which).
    footer(
        row("!", "failed first", S::AgentList, FAILED_FIRST),
        "!",
        "failed first",
        0,
    ),
    // In the footer only while the agent runs (a saved session has
    // nothing to follow).
    footer(
        row("f", "follow the newest edit", S::AgentList, FOLLOW_NEWEST),
        "f",
        "follow newest",
        0,
    ),
    row("s", "save the edit's text to a file", S::AgentList, SAVE),
    footer(key!('?', "keys", S::AgentList, A::Help), "?", "keys", 0),
    row(
        "Esc",
        "nothing to close",
        S::AgentList,
        &[code(K::Esc, A::Close)],
    ),
    footer(row("q", "quit", S::AgentList, QUIT), "q", "quit", 0),
];

/// The rows that apply in `screen`, in the table's order.
pub fn rows(screen: KeyScope) -> impl Iterator<Item = &'static KeyRow> {
    KEYS.iter().filter(move |r| r.scope.covers(screen))
}

/// What `key` does in `screen`: the screen's own row first (it overrides a
/// row of every previewer, as `Esc` in an agent's edit), then a row of
/// every previewer. `None`: the key does nothing there.
pub fn lookup(screen: KeyScope, key: KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let find = |scope: KeyScope| {
        KEYS.iter()
            .filter(|r| r.scope == scope)
            .flat_map(|r| r.binds)
            .find(|b| b.code == key.code && b.ctrl == ctrl)
            .map(|b| b.action)
    };
    find(screen).or_else(|| {
        KeyScope::Both
            .covers(screen)
            .then(|| find(KeyScope::Both))
            .flatten()
    })
}

/// The keys the `?` overlay lists for `screen`: key text and help.
pub fn key_help(screen: KeyScope) -> impl Iterator<Item = (&'static str, &'static str)> {
    rows(screen).map(|r| (r.keys, r.help))
}

/// The footer's items of `screen` (key text, words, priority), in order.
pub fn footer_items(screen: KeyScope) -> impl Iterator<Item = (&'static KeyRow, Footer)> {
    rows(screen).filter_map(|r| r.footer.map(|f| (r, f)))
}

/// How the help names a key: `j`, `↓`, `^d`, `Space`, `PgDn`.
pub fn key_name(bind: &Bind) -> String {
    let name = match bind.code {
        KeyCode::Char(' ') => "Space".to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Down => "↓".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Left => "←".into(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        other => format!("{other:?}"),
    };
    if bind.ctrl { format!("^{name}") } else { name }
}

/// The agent list's `?` notice: its keys, from the table.
pub fn list_keys_notice() -> String {
    let list: Vec<String> = rows(KeyScope::AgentList)
        .filter(|r| !matches!(r.binds.first().map(|b| b.action), Some(A::Help | A::Close)))
        .map(|r| format!("{} {}", r.keys, r.help))
        .collect();
    format!("{}; in an edit, ? lists its keys", list.join(" · "))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use ratatui_crossterm::crossterm::event::KeyEventKind;

    use super::*;

    fn event(bind: &Bind) -> KeyEvent {
        let modifiers = if bind.ctrl {
            KeyModifiers::CONTROL
        } else {
            KeyModifiers::NONE
        };
        KeyEvent::new_with_kind(bind.code, modifiers, KeyEventKind::Press)
    }

    /// Every action, spelled out: a new one must be added here (the match
    /// below does not compile without it), and then to a row.
    fn every_action() -> Vec<Action> {
        let mut all = vec![
            A::Down,
            A::Up,
            A::PageDown,
            A::PageUp,
            A::HalfPageDown,
            A::HalfPageUp,
            A::Left,
            A::Right,
            A::Top,
            A::Bottom,
            A::NextBlock,
            A::PrevBlock,
            A::Search,
            A::Follow,
            A::FollowFile,
            A::FollowNewest,
            A::ToggleLayout,
            A::Wrap,
            A::FocusBlocks,
            A::Jump,
            A::Closest,
            A::CopyCorrected,
            A::ExpandDiagnosis,
            A::RawInput,
            A::FinalView,
            A::LeaveOut,
            A::Accept,
            A::AcceptFile,
            A::AcceptAll,
            A::WriteEdit,
            A::FileEndings,
            A::Reload,
            A::Close,
            A::BackToList,
            A::NextFile,
            A::PrevFile,
            A::NextEdit,
            A::PrevEdit,
            A::FailedFirst,
            A::Open,
            A::SaveText,
            A::Quit,
            A::Help,
        ];
        all.extend((0..9).map(A::File));
        for a in &all {
            match a {
                A::Down
                | A::Up
                | A::PageDown
                | A::PageUp
                | A::HalfPageDown
                | A::HalfPageUp
                | A::Left
                | A::Right
                | A::Top
                | A::Bottom
                | A::NextBlock
                | A::PrevBlock
                | A::Search
                | A::Follow
                | A::FollowFile
                | A::FollowNewest
                | A::ToggleLayout
                | A::Wrap
                | A::FocusBlocks
                | A::Jump
                | A::Closest
                | A::CopyCorrected
                | A::ExpandDiagnosis
                | A::RawInput
                | A::FinalView
                | A::LeaveOut
                | A::Accept
                | A::AcceptFile
                | A::AcceptAll
                | A::WriteEdit
                | A::FileEndings
                | A::Reload
                | A::Close
                | A::BackToList
                | A::NextFile
                | A::PrevFile
                | A::File(_)
                | A::NextEdit
                | A::PrevEdit
                | A::FailedFirst
                | A::Open
                | A::SaveText
                | A::Quit
                | A::Help => {}
            }
        }
        all
    }

    /// Every row's keys look up to their actions in every screen the row
    /// covers, but where the screen's own row overrides it: only `Esc` in
    /// an agent's edit does.
    #[test]
    fn every_key_looks_up_to_its_action_where_it_applies() {
        let mut overridden = Vec::new();
        for row in KEYS {
            for screen in KeyScope::SCREENS {
                if !row.scope.covers(screen) {
                    continue;
                }
                for bind in row.binds {
                    let found = lookup(screen, event(bind));
                    if row.scope == KeyScope::Both && found != Some(bind.action) {
                        overridden.push((screen, key_name(bind), found));
                        continue;
                    }
                    assert_eq!(found, Some(bind.action), "{} in {screen:?}", row.keys);
                }
            }
        }
        assert_eq!(
            overridden,
            [(KeyScope::Agent, "Esc".to_string(), Some(A::BackToList))]
        );
    }

    /// No key is bound twice in one scope, nor a screen's row to a key
    /// every previewer has (but the one override above).
    #[test]
    fn no_two_rows_of_a_scope_share_a_key() {
        for scope in [
            KeyScope::Both,
            KeyScope::SingleDiff,
            KeyScope::Transcript,
            KeyScope::Agent,
            KeyScope::AgentList,
        ] {
            let mut seen = BTreeSet::new();
            for bind in KEYS
                .iter()
                .filter(|r| r.scope == scope)
                .flat_map(|r| r.binds)
            {
                assert!(
                    seen.insert(key_name(bind)),
                    "{} twice in {scope:?}",
                    key_name(bind)
                );
            }
        }
    }

    /// Every action is some key's, and every key is named in its row's
    /// help line (`1-9` for the digits), which the `?` overlay of each
    /// screen it applies in lists.
    #[test]
    fn every_action_is_reachable_and_in_the_help() {
        let bound: BTreeSet<Action> = KEYS
            .iter()
            .flat_map(|r| r.binds)
            .map(|b| b.action)
            .collect();
        for action in every_action() {
            assert!(bound.contains(&action), "{action:?} has no key");
        }
        for row in KEYS {
            assert!(!row.help.is_empty() && !row.keys.is_empty());
            for bind in row.binds {
                let name = key_name(bind);
                let named = match bind.code {
                    KeyCode::Char('1'..='9') => row.keys.contains("1-9"),
                    _ => row
                        .keys
                        .split(['/', ' '])
                        .any(|k| k == name || (name == "/" && row.keys == "/")),
                };
                assert!(named, "{name} not named in {:?}", row.keys);
            }
            for screen in KeyScope::SCREENS
                .into_iter()
                .filter(|&s| row.scope.covers(s))
            {
                assert!(
                    key_help(screen).any(|(k, h)| k == row.keys && h == row.help),
                    "{} missing from {screen:?}'s help",
                    row.keys
                );
            }
        }
    }

    /// A footer item names keys of its own row (`u` of `u/Tab`), and each
    /// screen's footer keeps `?`.
    #[test]
    fn footers_name_their_rows_keys() {
        for (row, item) in KEYS.iter().filter_map(|r| r.footer.map(|f| (r, f))) {
            for key in item.keys.split('/') {
                assert!(
                    row.keys.split(['/', ' ']).any(|k| k == key),
                    "footer {key:?} not in {:?}",
                    row.keys
                );
            }
        }
        for screen in KeyScope::SCREENS {
            assert!(
                footer_items(screen).any(|(_, f)| f.keys == "?"),
                "{screen:?}"
            );
        }
    }

    /// Ctrl changes a key (`^d` is not `d`); Shift does not (`G`).
    #[test]
    fn ctrl_is_part_of_the_key() {
        let ctrl_d = KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL);
        let d = KeyEvent::new(KeyCode::Char('d'), KeyModifiers::NONE);
        let shift_g = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(lookup(KeyScope::SingleDiff, ctrl_d), Some(A::HalfPageDown));
        assert_eq!(lookup(KeyScope::SingleDiff, d), Some(A::Closest));
        assert_eq!(lookup(KeyScope::SingleDiff, shift_g), Some(A::Bottom));
        let ctrl_j = KeyEvent::new(KeyCode::Char('j'), KeyModifiers::CONTROL);
        assert_eq!(lookup(KeyScope::SingleDiff, ctrl_j), None);
        // The agent's list has none of the previewers' keys.
        assert_eq!(lookup(KeyScope::AgentList, d), None);
    }
}
