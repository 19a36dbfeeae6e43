//! *Pure.* An edit that leaves a YAML file nested otherwise than the
//! model's own text says, or laid out as YAML refuses, although its old text
//! matched exactly: a key moved into another mapping (old `  port: 80`
//! under `server:` replaced by `port: 80\n  host: x`: `port` lands at the
//! file's top level, and `host` under it; srview called it fine), or one
//! step of a compact `steps:` list re-sent indented, its next sibling left
//! at the old column (the workflow no longer loads). YAML nests by column,
//! as Python does; no YAML parser is used, the file's lines are read by
//! their indentation only.
//!
//! The rule, by evidence only, for a YAML file ([`super::file_kind`]:
//! `.yaml`, `.yml`), the file as the edit leaves it compared line by line
//! with the file before (a line diff); a stretch that replaces lines takes
//! old lines out and puts new ones in their place (not a pure insertion or
//! deletion). The first of these faults is the doubt:
//! - **the first line moved**: a stretch's first line of content (not
//!   blank, not a comment, not a document marker `---`/`...`) stands at
//!   another column among the new lines than among the old ones; the new
//!   lines are read again set as the model wrote them relative to each
//!   other, their first line at the old column (every new line shifted
//!   alike): that is where the model's own new text puts each key. A key
//!   line whose parent chain (the keys and list items above it, by
//!   indentation) differs between that reading and the file as written is
//!   doubted;
//! - **a rewritten key moved**: a new key line of a stretch rewrites the
//!   old key line of the same key in it (the n-th of that key among the old
//!   lines for the n-th among the new, where both count alike), at another
//!   column, and lands at another depth in the file than the old line had,
//!   while the old lines read alone and the new lines read alone set it
//!   under the same keys and list items (the same chain within the model's
//!   own text, often none; the doubt names it): an image bump on
//!   the line before and `ports` sent 4 columns left moves `ports` out of
//!   its container. A key the model's text itself re-nests (a mapping
//!   wrapped in a new key, a wrapper removed) changes its chain within the
//!   text and is not doubted;
//! - **a key or list item YAML refuses**, where the file before reads
//!   without any (by the same reading): two items of one list (`- ` under
//!   the same parent) or two keys of one mapping at different columns, a
//!   key and a list item in one collection (a key added at the column of a
//!   list's dashes), a key deeper than a key holding a value on its line
//!   (`image: x` then `  pullPolicy: y`), a block scalar's line less deep
//!   than its first line. Named with its line, its column and the
//!   sibling's (or the first line's).
//!
//! The parent chain of a key line is read by indentation: the nearest line
//! above it at a smaller column is its parent; `- key: v` is a list item at
//! the dash's column holding `key` at its own column; a list at the column
//! of the key it belongs to (`key:\n- a`) is that key's. Not read as keys:
//! blank lines, comments, directives (`%YAML`), the lines of a block scalar
//! (`|`, `>` and the deeper lines after them), of a flow collection (`[`,
//! `{`) or a quoted scalar running over several lines; `---` and `...`
//! start the chain afresh. Keys written after an anchor, tag or `?` (`&a
//! key:`, `!t key:`, `? key`) are not read as keys; a key whose value is
//! only an anchor or a tag (`base: &b`) may hold a mapping. A tab in the
//! indentation of a line read stops the check (YAML forbids it there).
//!
//! Not caught: a key moved by a pure insertion (no old line is replaced: a
//! key appended at the top level after a nested mapping's last line may be
//! meant there, and the edit dialects' own check of an old text starting
//! inside a line's indentation speaks for the text that lost its columns);
//! a rewritten key whose name the old lines hold a different number of
//! times, or that the edit renames; a key moved to another item of the same
//! list (items are not told apart); a line that is a key in one reading and
//! inside a block scalar in the other; a plain scalar's line read as a key
//! or a list item (`- a` then `  b: 1`: YAML refuses it, this reading does
//! not); faults YAML finds outside this reading (duplicate keys, said by
//! [`super::doubt_redefine`]; flow syntax, a block scalar under an
//! indentation indicator, a tab, said by the parser's check,
//! [`super::doubt_not_yaml`], where the file parsed before); any fault where
//! the file before already read one (the reading is not trusted there). A
//! stretch whose new lines are all shifted alike keeps every key's parent
//! (a whole mapping or list re-indented) and is not doubted, nor is a
//! change that only re-indents its lines, all alike (a `volumes:` block
//! under the last Compose service dedented to the top level, a blank line
//! before it: the move is all the edit does); a re-indentation that moves
//! a key to another mapping beside other changes (a nested key replaced
//! by a top-level one in the same place, a mapping's last key dedented to
//! the top level beside an edit of the line before) is doubted: the
//! edit's text cannot tell it from a line sent without its columns, and
//! the doubt names the move for the reviewer to confirm.

use crate::textdiff::{changed_lines, ops};
use similar::DiffOp;
use std::collections::HashMap;

/// A key an edit's new text puts in another mapping than its own text has
/// it in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyMove {
    /// The result's line (1-based) holding the key.
    pub line: usize,
    /// That line, trimmed.
    pub text: String,
    /// The key.
    pub key: String,
    /// The keys and list items (`-`) above it in the model's own text, set
    /// at the old text's column (outermost first).
    pub meant: Vec<String>,
    /// The same as the edit leaves the file.
    pub written: Vec<String>,
    /// The line (1-based, of the file before) the stretch's new lines
    /// replace from, and its column.
    pub replaced: (usize, usize),
    /// The column of the new lines' first line of content.
    pub column: usize,
    /// How many more key lines of the same stretch move.
    pub others: usize,
    /// For [`Why::Rewritten`]: the keys and list items above it in the
    /// edit's old text read alone, the same as in its new text read alone
    /// (outermost first; empty where neither sets it under one of its
    /// lines). Empty for [`Why::FirstLine`].
    pub own: Vec<String>,
    /// What tells the move.
    pub why: Why,
    /// The lines the key held in the file before, read outside it now.
    pub left_behind: Option<LeftBehind>,
}

/// The lines a moved key held in the file before that the edit leaves
/// outside it, at its new column or less (`db:` sent under `web:` at the
/// column of its own `image:`: `image` is read as web's, and overrides
/// web's own `image`, as YAML readers keep a key's last value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftBehind {
    /// The first of them (the result's line, 1-based) and its text,
    /// trimmed.
    pub first: (usize, String),
    /// How many more lines of content.
    pub more: usize,
    /// The keys and list items above them now (outermost first).
    pub now: Vec<String>,
    /// A key of them the mapping they land in now holds twice: the key,
    /// the line (1-based) of its first and of its last.
    pub twice: Option<(String, usize, usize)>,
    /// The moved key is left without a value (null).
    pub empty: bool,
}

impl LeftBehind {
    /// A clause: what YAML reads of them.
    fn said(&self, key: &str) -> String {
        let (line, text) = &self.first;
        let more = match self.more {
            0 => String::new(),
            n => format!(" and {}", crate::words::count(n, "more line")),
        };
        let twice = match &self.twice {
            Some((name, first, last)) => format!(
                ": `{name}` is given there twice (lines {first} and {last}), and YAML readers \
                 (PyYAML) keep the last, line {last}'s"
            ),
            None => String::new(),
        };
        let empty = if self.empty {
            format!(", and `{key}` is left with no value (null)")
        } else {
            String::new()
        };
        format!(
            "; the lines it held below it (line {line}, `{text}`{more}) stay at their column, \
             so they are read {} instead{twice}{empty}",
            place(&self.now)
        )
    }
}

/// What tells a [`KeyMove`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// The stretch's first line of content stands at another column than
    /// the first line it replaces; `replaced` is that line.
    FirstLine,
    /// The key rewrites a line of the same key (`replaced`) that the
    /// edit's old text, read alone, sets under the same keys and list
    /// items of its own lines as its new text does (`own`).
    Rewritten,
}

/// A fault the YAML layout check finds in the file as an edit leaves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum YamlBreak {
    /// A key put in another mapping than the model's own text has it in.
    Move(KeyMove),
    /// A key or list item YAML refuses.
    Misplaced(Misplaced),
}

impl YamlBreak {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        match self {
            YamlBreak::Move(m) => m.describe(),
            YamlBreak::Misplaced(m) => m.describe(),
        }
    }

    /// [`Self::describe`] without what to send instead: the fault alone.
    pub fn fault(&self) -> String {
        match self {
            YamlBreak::Move(m) => m.fault(),
            YamlBreak::Misplaced(m) => m.fault(),
        }
    }
}

/// `fault` and what to send instead, for a key or item the new lines put
/// at another column ([`KeyMove`], [`Misplaced`]).
fn send_at_their_indentation(fault: String) -> String {
    format!("{fault}: send the new lines at the indentation of the lines they replace")
}

impl KeyMove {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        match self.why {
            Why::FirstLine => send_at_their_indentation(self.fault()),
            // The key rewrites one old line: its own column is the one
            // srview can stand behind (tester 51 T-11: the lines around
            // it may be new, at columns of their own).
            Why::Rewritten => format!(
                "{}: send `{}` at column {}, as line {} of the file before has it",
                self.fault(),
                self.text,
                self.replaced.1,
                self.replaced.0
            ),
        }
    }

    /// [`Self::describe`] without what to send instead: the fault alone.
    pub fn fault(&self) -> String {
        let others = match self.others {
            0 => String::new(),
            n => format!(
                " ({} of the new text {} too)",
                crate::words::count(n, "other key"),
                if n == 1 { "moves" } else { "move" }
            ),
        };
        let how = match self.why {
            Why::FirstLine => format!(
                "the new text's first line is at column {} where the line it replaces (line \
                 {} of the file before) is at column {}",
                self.column, self.replaced.0, self.replaced.1
            ),
            Why::Rewritten => format!(
                "the new text sets it at column {} where the line it rewrites (line {} of the \
                 file before) is at column {}, though {}",
                self.column,
                self.replaced.0,
                self.replaced.1,
                own_place(&self.own)
            ),
        };
        let left = (self.left_behind.as_ref()).map_or(String::new(), |l| l.said(&self.key));
        format!(
            "as written, line {} (`{}`) moves the key `{}` from {} to {}{others}: {how}, and \
             YAML nests keys by their column{left}",
            self.line,
            self.text,
            self.key,
            place(&self.meant),
            place(&self.written),
        )
    }
}

/// Where a rewritten key stands among the edit's own lines, `chain` its
/// parents there (the same in the old text and the new text, each read
/// alone), as a clause: what the doubt compares, and finds alike.
fn own_place(chain: &[String]) -> String {
    let Some((last, above)) = chain.split_last() else {
        return "neither the edit's old text nor its new text, each read alone, sets it under \
                a key or list item of its own lines"
            .into();
    };
    let under = if last != "-" {
        format!("under `{}`", path(chain))
    } else if above.is_empty() {
        "in a list item".into()
    } else {
        format!("in a list item of `{}`", path(above))
    };
    format!(
        "the edit's old and new text, each read alone, both set it {under} among their own lines"
    )
}

/// A parent chain as a dotted path, `[]` for a list item.
fn path(chain: &[String]) -> String {
    let mut path = String::new();
    for label in chain {
        if label == "-" {
            path.push_str("[]");
        } else {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(label);
        }
    }
    path
}

/// Where a key with parent chain `chain` stands, in words.
fn place(chain: &[String]) -> String {
    let Some((last, above)) = chain.split_last() else {
        return "the top level".into();
    };
    if last != "-" {
        return format!("under `{}`", path(chain));
    }
    if above.is_empty() {
        "a top-level list item".into()
    } else {
        format!("a list item of `{}`", path(above))
    }
}

/// One open level of the reading: a key or a list item.
#[derive(Debug, Clone)]
struct Level {
    column: usize,
    /// Its line (1-based).
    line: usize,
    /// The key, or `-` for a list item.
    label: String,
    /// A key with no value on its line, or only an anchor or a tag (a list
    /// may stand at its column, a mapping under it).
    opens: bool,
    /// The first key or list item read under it.
    child: Option<Entry>,
}

/// A key or a list item as read: its line (1-based), trimmed, its column
/// and whether it is a list item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its line, 1-based.
    pub line: usize,
    /// The line from its dash or key on, trimmed at its end.
    pub text: String,
    /// The column of its dash or key.
    pub column: usize,
    /// A list item (`- `), not a key.
    pub item: bool,
}

impl Entry {
    fn what(&self) -> &'static str {
        if self.item { "a list item" } else { "a key" }
    }
}

/// A key or list item the file as the edit leaves it holds where YAML
/// refuses it, the file before reading without any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misplaced {
    /// The key or list item refused (or a block scalar's line).
    pub entry: Entry,
    /// The keys and list items above it (outermost first).
    pub parents: Vec<String>,
    /// What it is refused beside.
    pub against: Against,
}

/// What a [`Misplaced`] entry is refused beside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Against {
    /// The first key or list item under the same parent, at another
    /// column or of the other kind.
    Sibling(Entry),
    /// The key above it holds a value on its line (the entry is a key).
    Value,
    /// The entry is a line of a block scalar (`|`, `>`) less deep than the
    /// scalar's first line, this one: YAML ends the scalar there and
    /// refuses the line.
    Block(Entry),
}

impl Misplaced {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        send_at_their_indentation(self.fault())
    }

    /// [`Self::describe`] without what to send instead: the fault alone.
    pub fn fault(&self) -> String {
        let e = &self.entry;
        let whose = match place(&self.parents) {
            top if self.parents.is_empty() => format!("at {top}"),
            under if under.starts_with("under") => under,
            item => format!("in {item}"),
        };
        let s = match &self.against {
            Against::Sibling(s) => s,
            Against::Value => {
                return format!(
                    "as written, line {} (`{}`) is a key at column {}, deeper than the key `{}` \
                     that holds a value on its own line: YAML refuses a key there (the file no \
                     longer parses)",
                    e.line,
                    e.text,
                    e.column,
                    self.parents.last().map(String::as_str).unwrap_or_default()
                );
            }
            Against::Block(first) => {
                return format!(
                    "as written, line {} (`{}`) is a line of the block scalar {whose} at column \
                     {} where its first line (line {}) stands at column {}: YAML ends the \
                     scalar there and refuses the line (the file no longer parses)",
                    e.line, e.text, e.column, first.line, first.column
                );
            }
        };
        let head = format!(
            "as written, line {} (`{}`) is {} at column {}",
            e.line,
            e.text,
            e.what(),
            e.column
        );
        if s.item == e.item {
            let (kind, collection) = if e.item {
                ("item", "list")
            } else {
                ("key", "mapping")
            };
            format!(
                "{head} where line {} (`{}`), {} {kind} of the same {collection} {whose}, \
                 stands at column {}: YAML refuses the {kind}s of one {collection} at \
                 different columns (the file no longer parses)",
                s.line,
                s.text,
                if s.item { "an" } else { "a" },
                s.column
            )
        } else {
            format!(
                "{head} where line {} (`{}`) is {} at column {} {whose}: YAML refuses \
                 keys and list items in one collection (the file no longer parses)",
                s.line,
                s.text,
                s.what(),
                s.column
            )
        }
    }
}

/// What the lines being read are inside of.
#[derive(Debug, Clone, Copy)]
enum Inside {
    Nothing,
    /// A block scalar: lines deeper than `above` (and blank ones); its
    /// first line of content (line, column) once read, `(0, 0)` for a
    /// column its header sets.
    Block {
        above: usize,
        first: Option<(usize, usize)>,
    },
    /// A flow collection still `depth` brackets deep.
    Flow {
        depth: usize,
    },
    /// A quoted scalar closed by `quote`.
    Quoted {
        quote: char,
    },
}

/// The reading of a YAML text's lines, one at a time.
#[derive(Debug, Clone)]
pub(super) struct Reader {
    stack: Vec<Level>,
    inside: Inside,
    /// A tab in a line's indentation: the reading is not trusted.
    tabbed: bool,
    /// The lines read.
    read: usize,
    /// The first key or list item of the document's top level.
    top: Option<Entry>,
    /// The first key or list item read where YAML refuses it.
    fault: Option<Misplaced>,
    /// Documents begun (`---`, `...`) before the line read.
    document: usize,
}

impl Reader {
    pub(super) fn new() -> Self {
        Reader {
            stack: Vec::new(),
            inside: Inside::Nothing,
            tabbed: false,
            read: 0,
            top: None,
            fault: None,
            document: 0,
        }
    }

    /// Reads `line` ([`Reader::line`]); for a key line, the key and what
    /// tells its mapping apart from every other: the document and the line
    /// (1-based) of the key or list item holding the mapping (0 for the
    /// document's top level). `None` for another line, and for every line
    /// once a tab in an indentation stopped the reading.
    pub(super) fn key_line(&mut self, line: &str) -> Option<(String, (usize, usize))> {
        self.line(line)?;
        if self.tabbed {
            return None;
        }
        let depth = self.stack.len();
        let key = self.stack.last()?.label.clone();
        let holder = depth
            .checked_sub(2)
            .and_then(|at| self.stack.get(at))
            .map_or(0, |level| level.line);
        Some((key, (self.document, holder)))
    }

    /// The line (1-based) of the last line read.
    pub(super) fn read(&self) -> usize {
        self.read
    }

    /// Whether a tab in an indentation stopped the reading.
    pub(super) fn tabbed(&self) -> bool {
        self.tabbed
    }

    /// Records `entry`, a key or list item put under the level on top of
    /// the stack (the top level for none); a fault where its column or
    /// kind differs from that level's first one, or where that level is a
    /// key with its value on its line and `entry` a key.
    fn enter(&mut self, entry: Entry) {
        let (first, scalar) = match self.stack.last_mut() {
            Some(level) => (
                &mut level.child,
                !level.opens && level.label != "-" && !entry.item,
            ),
            None => (&mut self.top, false),
        };
        let against = match first {
            None if scalar => Against::Value,
            None => {
                *first = Some(entry);
                return;
            }
            Some(first) if first.column == entry.column && first.item == entry.item => return,
            Some(first) => Against::Sibling(first.clone()),
        };
        self.refuse(entry, against);
    }

    /// Records the first fault: `entry`, refused beside `against`.
    fn refuse(&mut self, entry: Entry, against: Against) {
        if self.fault.is_none() {
            let parents = self.stack.iter().map(|l| l.label.clone()).collect();
            self.fault = Some(Misplaced {
                entry,
                parents,
                against,
            });
        }
    }

    /// Reads `line`: for a key line, its chain (the labels above it, then
    /// the key).
    fn line(&mut self, line: &str) -> Option<Vec<String>> {
        self.read += 1;
        let line = line.trim_end_matches('\r');
        let text = line.trim_start_matches(' ');
        let lead = line.len() - text.len();
        match self.inside {
            Inside::Nothing => {}
            Inside::Block { above, first } => {
                if text.is_empty() {
                    return None;
                }
                if lead > above {
                    match first {
                        None => {
                            self.inside = Inside::Block {
                                above,
                                first: Some((self.read, lead)),
                            }
                        }
                        Some((at, column)) if lead < column => {
                            let entry = Entry {
                                line: self.read,
                                text: text.trim_end().to_string(),
                                column: lead,
                                item: false,
                            };
                            let first = Entry {
                                line: at,
                                text: String::new(),
                                column,
                                item: false,
                            };
                            self.refuse(entry, Against::Block(first));
                        }
                        Some(_) => {}
                    }
                    return None;
                }
                self.inside = Inside::Nothing;
            }
            Inside::Flow { depth } => {
                self.inside = flow(line, depth);
                return None;
            }
            Inside::Quoted { quote } => {
                if closing(line, quote).is_some() {
                    self.inside = Inside::Nothing;
                }
                return None;
            }
        }
        if text.is_empty() || text.starts_with('#') {
            return None;
        }
        if text.starts_with('\t') {
            self.tabbed = true;
            return None;
        }
        if lead == 0 {
            if ["---", "..."]
                .iter()
                .any(|m| text == *m || text.starts_with(&format!("{m} ")))
            {
                self.stack.clear();
                self.top = None;
                self.document += 1;
                return None;
            }
            if text.starts_with('%') {
                return None;
            }
        }
        let (mut column, mut rest) = (lead, text);
        // List items, `- - a` nesting them.
        let mut dash = None;
        while rest == "-" || rest.starts_with("- ") {
            self.item(column, rest);
            dash = Some(column);
            let after = rest[1..].trim_start_matches(' ');
            column += rest.len() - after.len();
            rest = after;
        }
        if rest.is_empty() {
            return None;
        }
        let Some((key, value)) = key_of(rest) else {
            // A scalar or a collection: a block scalar's lines are deeper
            // than the list item's dash (or than the line).
            self.inside = after_value(rest, dash.unwrap_or(lead));
            return None;
        };
        while self.stack.last().is_some_and(|l| l.column >= column) {
            self.stack.pop();
        }
        let mut chain: Vec<String> = self.stack.iter().map(|l| l.label.clone()).collect();
        chain.push(key.to_string());
        self.enter(Entry {
            line: self.read,
            text: rest.trim_end().to_string(),
            column,
            item: false,
        });
        self.inside = after_value(value, column);
        self.stack.push(Level {
            column,
            line: self.read,
            label: key.to_string(),
            opens: opens(value),
            child: None,
        });
        Some(chain)
    }

    /// A list item's dash at `column`, `text` the line from it.
    fn item(&mut self, column: usize, text: &str) {
        while self
            .stack
            .last()
            .is_some_and(|l| l.column > column || (l.column == column && l.label == "-"))
        {
            self.stack.pop();
        }
        // `key:` then `- a` at its column: the list is the key's.
        let owned = self
            .stack
            .last()
            .is_some_and(|l| l.column == column && l.opens && l.label != "-");
        if !owned {
            while self.stack.last().is_some_and(|l| l.column >= column) {
                self.stack.pop();
            }
        }
        self.enter(Entry {
            line: self.read,
            text: text.trim_end().to_string(),
            column,
            item: true,
        });
        self.stack.push(Level {
            column,
            line: self.read,
            label: "-".into(),
            opens: true,
            child: None,
        });
    }
}

/// Whether a key whose value on its line is `value` (trimmed at its start)
/// may hold a mapping or a list on the lines after it: no value, a comment,
/// or only anchors and tags (`&a`, `!!map`).
fn opens(value: &str) -> bool {
    value
        .split_whitespace()
        .take_while(|word| !word.starts_with('#'))
        .all(|word| word.starts_with(['&', '!']))
}

/// `value` (trimmed at its start) past its node properties: tags (`!Sub`,
/// `!!str`, `!<tag:yaml.org,2002:str>`, `!`) and anchors (`&setup`), in any
/// order, each ended by whitespace; `""` for properties alone.
fn past_properties(value: &str) -> &str {
    let mut rest = value;
    while rest.starts_with(['!', '&']) {
        let Some(end) = rest.find([' ', '\t']) else {
            return "";
        };
        rest = rest[end..].trim_start_matches([' ', '\t']);
    }
    rest
}

/// What a value (`value`, trimmed at its start) opens on the lines after
/// it: a block scalar whose lines are deeper than `above`, a flow
/// collection or a quoted scalar left open; read past the value's tags and
/// anchor (`UserData: !Sub |`, `.setup: &setup |`).
fn after_value(value: &str, above: usize) -> Inside {
    let value = past_properties(value);
    match value.chars().next() {
        // An indentation indicator (`|2`) sets the lines' column: not read.
        Some('|' | '>') => Inside::Block {
            above,
            first: value
                .split_whitespace()
                .next()
                .is_some_and(|header| header.contains(|c: char| c.is_ascii_digit()))
                .then_some((0, 0)),
        },
        Some('[' | '{') => flow(value, 0),
        Some(quote @ ('"' | '\'')) => match closing(&value[1..], quote) {
            Some(_) => Inside::Nothing,
            None => Inside::Quoted { quote },
        },
        _ => Inside::Nothing,
    }
}

/// The flow collection `depth` brackets deep before `text` after it.
fn flow(text: &str, depth: usize) -> Inside {
    let mut depth = depth;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('"'), '\\') => {
                chars.next();
            }
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            (None, '#') if depth == 0 => break,
            _ => {}
        }
    }
    if depth == 0 {
        Inside::Nothing
    } else {
        Inside::Flow { depth }
    }
}

/// The byte just past the quote `quote` that closes a quoted scalar in
/// `text` (which starts after its opening quote); `''` in single quotes and
/// `\"` in double quotes close nothing.
fn closing(text: &str, quote: char) -> Option<usize> {
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if quote == '"' && c == '\\' {
            chars.next();
        } else if c == quote {
            if quote == '\'' && chars.peek().is_some_and(|&(_, n)| n == '\'') {
                chars.next();
                continue;
            }
            return Some(at + 1);
        }
    }
    None
}

/// The key of a key line's text (after its indentation and dashes) and its
/// value (trimmed at its start, `""` for none).
fn key_of(text: &str) -> Option<(&str, &str)> {
    let first = text.chars().next()?;
    let end = if first == '"' || first == '\'' {
        let close = closing(&text[1..], first)? + 1;
        let after = &text[close..];
        close + (after.len() - after.trim_start_matches(' ').len())
    } else {
        if "?[{|>*!&%@`#,]}".contains(first) {
            return None;
        }
        let at = text
            .match_indices(':')
            .map(|(at, _)| at)
            .find(|&at| matches!(text[at + 1..].chars().next(), None | Some(' ' | '\t')))?;
        // A comment before it: no key.
        if text[..at].contains(" #") {
            return None;
        }
        at
    };
    let rest = text[end..].strip_prefix(':')?;
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let key = text[..end].trim_end();
    (!key.is_empty()).then_some((key, rest.trim_start_matches([' ', '\t'])))
}

/// The column of the first line of content of `lines` (not blank, not a
/// comment, not a document marker, not a block scalar's content as
/// `blocks` reads the file), with its index; `None`
/// for none, or for indentation that is not spaces alone.
fn anchor(lines: &[&str], blocks: BlockContent) -> Option<(usize, usize)> {
    let (index, line) = lines.iter().enumerate().find(|(i, line)| {
        let text = line.trim();
        !text.is_empty()
            && !text.starts_with('#')
            && text != "---"
            && text != "..."
            && !blocks.holds(*i)
    })?;
    let line = line.trim_end_matches('\r');
    let text = line.trim_start_matches(' ');
    if text.starts_with('\t') {
        return None;
    }
    Some((index, line.len() - text.len()))
}

/// Which lines of a stretch lie in a block scalar's content, as the whole
/// file reads them ([`crate::diagnose::yaml_block_scalars`]): the white
/// space such a line starts with is the string's, its column no key's (a
/// line added at a `run: |` block's end, the key below it rewritten, was
/// read as the stretch's first key moved: a false doubt on an exact edit).
#[derive(Clone, Copy)]
struct BlockContent<'a> {
    /// Per line of the file, whether it is a block scalar's content.
    inside: &'a [bool],
    /// The stretch's first line in the file.
    from: usize,
}

impl BlockContent<'_> {
    /// Per line of `lines`, whether it is a block scalar's content.
    fn lines(lines: &[&str]) -> Vec<bool> {
        let mut inside = vec![false; lines.len()];
        for block in crate::diagnose::yaml_block_scalars(lines) {
            inside[block.content].fill(true);
        }
        inside
    }

    /// Whether the stretch's line `i` is a block scalar's content.
    fn holds(&self, i: usize) -> bool {
        self.inside.get(self.from + i).copied().unwrap_or(false)
    }
}

/// `line` shifted right by `shift` columns (left for a negative one, by at
/// most its spaces).
fn shifted(line: &str, shift: isize) -> String {
    if line.trim().is_empty() {
        return line.to_string();
    }
    let spaces = line.len() - line.trim_start_matches(' ').len();
    if shift >= 0 {
        format!("{}{line}", " ".repeat(shift.unsigned_abs()))
    } else {
        line[spaces.min(shift.unsigned_abs())..].to_string()
    }
}

/// The fault the module's check finds, for a YAML file (`path` by its name, see
/// [`super::file_kind`]); `None` for another file.
pub fn yaml_doubt(path: &str, original: &str, result: &str) -> Option<YamlBreak> {
    if super::file_kind::FileKind::of_edit(path, original, result)
        != super::file_kind::FileKind::Yaml
    {
        return None;
    }
    yaml_break(original, result)
}

/// The key the module's check finds moved, for a YAML file; `None` for another
/// file or another fault.
pub fn key_move(path: &str, original: &str, result: &str) -> Option<KeyMove> {
    match yaml_doubt(path, original, result)? {
        YamlBreak::Move(found) => Some(found),
        YamlBreak::Misplaced(_) => None,
    }
}

/// The first fault of `result` (the YAML file as an edit leaves it) that
/// `original` had not (see the module): a key a stretch of new lines
/// replacing lines of `original` puts in another mapping than the model's
/// own text has it in, else a key or list item YAML refuses where the file
/// before read without any.
pub(super) fn yaml_break(original: &str, result: &str) -> Option<YamlBreak> {
    if original == result {
        return None;
    }
    let (old, new, head, tail) = changed_lines(original, result);
    let (old_mid, new_mid) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    // The stretches that replace lines (old start, old length, new start,
    // new length, in the whole files); the diff only where the shared ends
    // leave any.
    let replaces: Vec<Stretch> = ops(old_mid, new_mid, None)
        .into_iter()
        .filter_map(|op| match op {
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => Some((head + old_index, old_len, head + new_index, new_len)),
            _ => None,
        })
        .collect();
    // A change that only re-indents its lines, all alike (a `volumes:`
    // block under the last Compose service dedented to the top level, a
    // blank line set before it): the move is all the edit does, so it is
    // meant (a tester's find, 42b-10). What YAML refuses after it is
    // still said.
    let moves = if reindented_alike(old_mid, new_mid)
        && tail_kept(&old, &new, tail)
        && parent_kept(&old, head, old.len() - tail)
    {
        None
    } else {
        first_line_move(&old, &new, &replaces).or_else(|| rewritten_move(&old, &new, &replaces))
    };
    moves
        .map(YamlBreak::Move)
        .or_else(|| misplaced(original, result).map(YamlBreak::Misplaced))
}

/// Whether the key that holds the lines `old[from..to]` (the nearest line
/// of content above them at a smaller column) holds another line of
/// content outside them and the lines below them deeper than their first
/// (a key line moved alone takes its list along): a block moved out of its mapping leaves the
/// mapping something (`push:` moved out of `on:`, its one key, leaves
/// `on` empty: null). True for a block at column 0.
fn parent_kept(old: &[&str], from: usize, to: usize) -> bool {
    let column = |line: &str| line.len() - line.trim_start_matches(' ').len();
    let content = |line: &&&str| {
        let text = line.trim();
        !text.is_empty() && !text.starts_with('#')
    };
    let Some(first) = old[from..to].iter().find(content) else {
        return true;
    };
    let depth = column(first);
    if depth == 0 {
        return true;
    }
    let Some(parent) = old[..from]
        .iter()
        .rposition(|line| content(&line) && column(line) < depth)
    else {
        return true;
    };
    let within = column(old[parent]);
    // A list item holding a key on its dash's line keeps that key.
    let item = old[parent].trim_start();
    (item.starts_with("- ") && key_of(item[2..].trim_start()).is_some())
        || old[parent + 1..from].iter().any(|line| content(&line))
        || old[to..]
            .iter()
            .filter(content)
            // Past the block's own lines below it (its list's items).
            .find(|line| column(line) <= depth)
            .is_some_and(|line| column(line) > within)
}

/// Whether the last `tail` lines (the same in both) are read under the
/// same keys and list items in `old` as in `new`: a block moved out of a
/// mapping leaves its siblings below where they were (`steps:` dedented
/// out of a job would take the job's next key into its list item).
fn tail_kept(old: &[&str], new: &[&str], tail: usize) -> bool {
    let chains = |lines: &[&str]| {
        let mut reader = Reader::new();
        let from = lines.len() - tail;
        let read: Vec<Option<Vec<String>>> = lines.iter().map(|line| reader.line(line)).collect();
        read.into_iter().skip(from).collect::<Vec<_>>()
    };
    chains(old) == chains(new)
}

/// Whether the non-blank lines of `new` are those of `old`, in order,
/// each shifted by the same number of columns, not none (blank lines
/// added or dropped aside; indentation of spaces only).
fn reindented_alike(old: &[&str], new: &[&str]) -> bool {
    let content = |lines: &[&str]| -> Option<Vec<(usize, String)>> {
        lines
            .iter()
            .map(|line| line.trim_end_matches('\r'))
            .filter(|line| !line.trim().is_empty())
            .map(|line| {
                let text = line.trim_start_matches(' ');
                (!text.starts_with('\t')).then(|| (line.len() - text.len(), text.to_string()))
            })
            .collect()
    };
    let (Some(old), Some(new)) = (content(old), content(new)) else {
        return false;
    };
    let Some(((was, _), (is, _))) = old.first().zip(new.first()) else {
        return false;
    };
    let shift = *is as isize - *was as isize;
    shift != 0
        && old.len() == new.len()
        && old
            .iter()
            .zip(&new)
            .all(|((a, x), (b, y))| x == y && *b as isize - *a as isize == shift)
}

/// Old lines replaced by new ones: the old lines' start and count, the new
/// lines' start and count (0-based, in the whole files).
type Stretch = (usize, usize, usize, usize);

/// The first key a stretch whose first line of content moved column puts
/// in another mapping than the stretch's lines read at the old column do.
fn first_line_move(old: &[&str], new: &[&str], replaces: &[Stretch]) -> Option<KeyMove> {
    // The stretches whose anchors tell a shift.
    let mut stretches = Vec::new();
    let (old_blocks, new_blocks) = (BlockContent::lines(old), BlockContent::lines(new));
    for &(old_index, old_len, new_index, new_len) in replaces {
        let taken = &old[old_index..old_index + old_len];
        let put = &new[new_index..new_index + new_len];
        let (Some((at, was)), Some((put_at, is))) = (
            anchor(
                taken,
                BlockContent {
                    inside: &old_blocks,
                    from: old_index,
                },
            ),
            anchor(
                put,
                BlockContent {
                    inside: &new_blocks,
                    from: new_index,
                },
            ),
        ) else {
            continue;
        };
        // The new text's first line is one it adds when the old first
        // line comes back word for word below it (`TZ: UTC` added above
        // a kept `db:`, tester 51 T-11): set against each other, the
        // wrong key and line would be named; the rewritten key's reading
        // pairs `db` with `db`.
        let first = taken[at].trim();
        if put[put_at].trim() != first && put[put_at + 1..].iter().any(|l| l.trim() == first) {
            continue;
        }
        if was != is {
            let shift = was as isize - is as isize;
            stretches.push((new_index, new_len, shift, (old_index + at + 1, was), is));
        }
    }
    // The file as written, read once to each stretch; the stretch read
    // again from there as the model set it.
    let mut reader = Reader::new();
    let mut read = 0;
    for (start, len, shift, replaced, column) in stretches {
        for line in &new[read..start] {
            reader.line(line);
        }
        let mut meant = reader.clone();
        let mut moves = Vec::new();
        for (i, line) in new[start..start + len].iter().enumerate() {
            let written = reader.line(line);
            let shifted = meant.line(&shifted(line, shift));
            if let (Some(written), Some(meant)) = (written, shifted)
                && written != meant
            {
                moves.push((start + i, written, meant));
            }
        }
        read = start + len;
        if reader.tabbed || meant.tabbed {
            return None;
        }
        if let Some((index, mut written, mut meant)) = moves.first().cloned() {
            let key = written.pop().unwrap_or_default();
            meant.pop();
            return Some(KeyMove {
                line: index + 1,
                text: new[index].trim().to_string(),
                key,
                meant,
                written,
                replaced,
                column,
                others: moves.len() - 1,
                own: Vec::new(),
                why: Why::FirstLine,
                left_behind: None,
            });
        }
    }
    None
}

/// A key line of a stretch: its index in its file, its column, its chain
/// in the file and in the stretch's lines read alone.
struct KeyLine {
    index: usize,
    column: usize,
    file: Vec<String>,
    alone: Vec<String>,
}

/// The key lines of `lines` (from index `start` of their file), read on by
/// `reader` (the file read up to them) and alone.
fn key_lines(reader: &mut Reader, lines: &[&str], start: usize) -> Vec<KeyLine> {
    let mut alone = Reader::new();
    let mut keys = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let (file, own) = (reader.line(line), alone.line(line));
        if let (Some(file), Some(own), Some(level)) = (file, own, reader.stack.last()) {
            keys.push(KeyLine {
                index: start + i,
                column: level.column,
                file,
                alone: own,
            });
        }
    }
    keys
}

/// The first key line of a stretch that rewrites an old key line of the
/// same key (the n-th of that key among the old lines for the n-th among
/// the new ones, when both count alike) at another column, at another
/// depth in the file, where the old and the new lines read alone set it
/// under the same keys and list items of their own (often none): the
/// model's own text does not re-nest it, the file moves it.
fn rewritten_move(old: &[&str], new: &[&str], replaces: &[Stretch]) -> Option<KeyMove> {
    let (mut before, mut after) = (Reader::new(), Reader::new());
    let (mut old_read, mut new_read) = (0, 0);
    for &(old_index, old_len, new_index, new_len) in replaces {
        for line in &old[old_read..old_index] {
            before.line(line);
        }
        for line in &new[new_read..new_index] {
            after.line(line);
        }
        let was = key_lines(&mut before, &old[old_index..old_index + old_len], old_index);
        let is = key_lines(&mut after, &new[new_index..new_index + new_len], new_index);
        (old_read, new_read) = (old_index + old_len, new_index + new_len);
        if before.tabbed || after.tabbed {
            return None;
        }
        // Each key's old lines, in order, and how many new lines it has.
        fn key(line: &KeyLine) -> &str {
            line.file.last().map_or("", String::as_str)
        }
        let mut olds: HashMap<&str, Vec<&KeyLine>> = HashMap::new();
        for line in &was {
            olds.entry(key(line)).or_default().push(line);
        }
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for line in &is {
            *counts.entry(key(line)).or_default() += 1;
        }
        let mut seen: HashMap<&str, usize> = HashMap::new();
        let mut moves: Vec<(&KeyLine, &KeyLine)> = Vec::new();
        for line in &is {
            let name = key(line);
            let nth = seen.entry(name).or_default();
            *nth += 1;
            let olds = olds.get(name).map_or(&[][..], Vec::as_slice);
            if olds.len() != counts.get(name).copied().unwrap_or_default() {
                continue;
            }
            let Some(&was) = olds.get(*nth - 1) else {
                continue;
            };
            if was.column != line.column
                && was.file.len() != line.file.len()
                && was.alone == line.alone
            {
                moves.push((was, line));
            }
        }
        if let Some(&(was, is)) = moves.first() {
            let mut written = is.file.clone();
            let key = written.pop().unwrap_or_default();
            let mut meant = was.file.clone();
            meant.pop();
            let mut own = is.alone.clone();
            own.pop();
            return Some(KeyMove {
                line: is.index + 1,
                text: new[is.index].trim().to_string(),
                key,
                meant,
                written,
                replaced: (was.index + 1, was.column),
                column: is.column,
                others: moves.len() - 1,
                own,
                why: Why::Rewritten,
                left_behind: left_behind(old, new, was.index, is.index),
            });
        }
    }
    None
}

/// The lines the key on `new[moved]` held as `old[was]` that the file as
/// written reads outside it: the lines below the old key line deeper than
/// it, found word for word below the new one, whose first line of content
/// stands at the new key's column or less. `None` where they are not the
/// same lines, or the key still holds them.
fn left_behind(old: &[&str], new: &[&str], was: usize, moved: usize) -> Option<LeftBehind> {
    let column = |line: &str| line.len() - line.trim_start_matches(' ').len();
    let content = |line: &str| {
        let text = line.trim();
        !text.is_empty() && !text.starts_with('#')
    };
    let old_column = column(old.get(was)?);
    let held = old[was + 1..]
        .iter()
        .position(|line| content(line) && column(line) <= old_column)
        .unwrap_or(old.len() - was - 1);
    let below = new.get(moved + 1..moved + 1 + held)?;
    let same = below
        .iter()
        .zip(&old[was + 1..was + 1 + held])
        .all(|(a, b)| a.trim() == b.trim());
    let first = below.iter().position(|line| content(line))?;
    if !same || column(below[first]) > column(new[moved]) {
        return None;
    }
    let mut reader = Reader::new();
    let chains: Vec<Option<Vec<String>>> = new.iter().map(|line| reader.line(line)).collect();
    if reader.tabbed {
        return None;
    }
    let at = moved + 1 + first;
    let mut now = chains[at].clone()?;
    now.pop();
    // Each key line's key and mapping (its document and holder's line).
    let mut keys = Reader::new();
    let owners: Vec<_> = new.iter().map(|line| keys.key_line(line)).collect();
    let twice = (at..moved + 1 + held).find_map(|index| {
        let owner = owners[index].as_ref()?;
        let other = (0..new.len()).find(|&i| i != index && owners[i].as_ref() == Some(owner))?;
        let (first, last) = (other.min(index), other.max(index));
        Some((owner.0.clone(), first + 1, last + 1))
    });
    let more = below[first + 1..]
        .iter()
        .filter(|line| content(line))
        .count();
    Some(LeftBehind {
        first: (at + 1, new[at].trim().to_string()),
        more,
        now,
        twice,
        empty: new[moved].trim_end().ends_with(':'),
    })
}

/// The first key or list item of `result` YAML refuses (a list's items or
/// a mapping's keys at different columns, both in one collection, a key
/// under a key holding a value on its line), where `original` read
/// without any; `None` where either has a tab in its indentation.
fn misplaced(original: &str, result: &str) -> Option<Misplaced> {
    let read = |text: &str| {
        let mut reader = Reader::new();
        for line in text.lines() {
            reader.line(line);
        }
        reader
    };
    let (before, after) = (read(original), read(result));
    if before.tabbed || after.tabbed || before.fault.is_some() {
        return None;
    }
    after.fault
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::doubt::test_edits::{after, check_edit, edited};

    /// Asserts that `file` with `old` (which it holds once) rewritten as
    /// `new` is changed, and no doubt of [`yaml_doubt`]'s for `path`.
    fn assert_no_doubt(path: &str, file: &str, old: &str, new: &str) {
        let result = edited(file, old, new);
        assert_ne!(result, file, "{old:?}");
        assert_eq!(yaml_doubt(path, file, &result), None, "{old:?} -> {new:?}");
    }

    const CONFIG: &str = "server:\n  port: 80\n  host: a\ndb:\n  name: x\n";

    /// The brief's find: a nested key's replacement sent with its first
    /// line at column 0: `port` leaves `server` for the top level and
    /// `host` lands under it.
    #[test]
    fn a_first_line_sent_without_its_columns_moves_its_key() {
        let result = edited(CONFIG, "  port: 80\n", "port: 80\n  timeout: 5\n");
        let found = key_move("config.yaml", CONFIG, &result).expect("a move");
        assert_eq!(
            (found.line, found.key.as_str(), found.column, found.replaced),
            (2, "port", 0, (2, 2))
        );
        assert_eq!(
            (found.meant, found.written),
            (vec!["server".into()], vec![])
        );
        assert_eq!(found.others, 1);
        assert_eq!(
            key_move("config.yaml", CONFIG, &result).map(|m| m.describe()),
            Some(
                "as written, line 2 (`port: 80`) moves the key `port` from under `server` to \
                 the top level (1 other key of the new text moves too): the new text's first \
                 line is at column 0 where the line it replaces (line 2 of the file before) is \
                 at column 2, and YAML nests keys by their column: send the new lines at the \
                 indentation of the lines they replace"
                    .into()
            )
        );
        // Deeper: from `a.b` to `a`; in a list item; in a `.yml` file.
        let nested = "a:\n  b:\n    c: 1\n    d: 2\n";
        let moved =
            key_move("x.yml", nested, &nested.replace("    c: 1\n", "  c: 2\n")).expect("a move");
        assert_eq!(
            moved.describe().split(':').next(),
            Some("as written, line 3 (`c")
        );
        assert!(moved.describe().contains("from under `a.b` to under `a`"));
        let steps = "jobs:\n  build:\n    steps:\n      - name: a\n        run: x\n";
        let moved = key_move(
            "ci.yml",
            steps,
            &steps.replace("        run: x\n", "run: y\n        shell: bash\n"),
        )
        .expect("a move");
        assert_eq!(moved.key, "run");
        assert!(
            moved
                .describe()
                .contains("from a list item of `jobs.build.steps` to the top level"),
            "{}",
            moved.describe()
        );
    }

    /// Ordinary edits: a value changed, a sibling added at the same column,
    /// a nested mapping added, a list item added, a key wrapped into a new
    /// mapping, a whole mapping re-indented alike, a whole list re-indented to
    /// its key's column, a block scalar's lines re-indented, a top-level
    /// section appended after a nested line (a pure insertion), a sibling
    /// added and a value changed further down in one edit. No doubt; nor a
    /// file that is not YAML, nor one with a tab in its indentation.
    #[test]
    fn ordinary_yaml_edits_are_not_doubted() {
        let list = "items:\n  - name: a\n    v: 1\n  - name: b\n    v: 2\nrun: |\n  echo a: b\n  echo c\nnext: 1\n";
        let cases: &[(&str, &str, &str)] = &[
            (CONFIG, "  port: 80\n", "  port: 8080\n"),
            (CONFIG, "  port: 80\n", "  port: 80\n  timeout: 5\n"),
            (
                CONFIG,
                "  port: 80\n",
                "  port: 80\n  tls:\n    cert: c.pem\n",
            ),
            (
                CONFIG,
                "  port: 80\n  host: a\n",
                "  http:\n    port: 80\n    host: a\n",
            ),
            (
                CONFIG,
                "  port: 80\n  host: a\n",
                "    port: 81\n    host: a\n",
            ),
            (
                CONFIG,
                "  name: x\n",
                "  name: x\nlogging:\n  level: info\n",
            ),
            (list, "    v: 2\n", "    v: 2\n  - name: c\n    v: 3\n"),
            (
                list,
                "  - name: a\n    v: 1\n  - name: b\n    v: 2\n",
                "- name: a\n  v: 10\n- name: b\n  v: 2\n",
            ),
            (
                list,
                "  echo a: b\n  echo c\n",
                "    echo a: b\n    echo c: 2\n",
            ),
            (list, "items:\n", "# the items\nitems:\n"),
            // A line added at a block scalar's end, the key below it
            // rewritten (the stretch's first line is the string's: its
            // column is no key's; was doubted as `next` moved).
            (
                list,
                "  echo c\nnext: 1\n",
                "  echo c\n    echo d\nnext: 2\n",
            ),
        ];
        for &(file, old, new) in cases {
            assert_no_doubt("c.yaml", file, old, new);
        }
        // A workflow's edits: a step given a mapping, a flow list written
        // as a block, a script's lines, a job given a matrix, the steps
        // written as a list at their key's column, a section appended.
        let ci = "name: CI\non:\n  push:\n    branches: [main]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n      - name: Build\n        run: |\n          make\n          make install\n";
        let steps = "      - uses: actions/checkout@v3\n      - name: Build\n        run: |\n          make\n          make install\n";
        let compact = "    - uses: actions/checkout@v3\n    - name: Build\n      run: |\n        make\n        make install\n";
        for (old, new) in [
            (
                "      - uses: actions/checkout@v3\n",
                "      - uses: actions/checkout@v4\n        with:\n          fetch-depth: 0\n",
            ),
            (
                "    branches: [main]\n",
                "    branches:\n      - main\n      - dev\n",
            ),
            (
                "          make\n          make install\n",
                "          make -j4\n          make test\n",
            ),
            (
                "    runs-on: ubuntu-latest\n",
                "    runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, macos-latest]\n",
            ),
            (steps, compact),
            ("name: CI\n", "name: CI\n\nenv:\n  RUST_LOG: debug\n"),
        ] {
            assert_no_doubt("ci.yml", ci, old, new);
        }
        // Two changes in one edit: a sibling added, a value changed below.
        let result = CONFIG
            .replace("  host: a\n", "  host: a\n  timeout: 5\n")
            .replace("  name: x\n", "  name: y\n");
        assert_eq!(yaml_doubt("c.yaml", CONFIG, &result), None);
        let moved = edited(CONFIG, "  port: 80\n", "port: 80\n  timeout: 5\n");
        assert_eq!(key_move("c.txt", CONFIG, &moved), None);
        let tabbed = format!("x:\n\ty: 1\n{CONFIG}");
        let moved = edited(&tabbed, "  port: 80\n", "port: 80\n  timeout: 5\n");
        assert_eq!(key_move("c.yaml", &tabbed, &moved), None);
    }

    /// The k8s Deployment of the tester's find 01.
    /// Tester 51 T-11: `TZ: UTC` added under `environment`, the kept
    /// `db:` re-sent 2 columns deeper. The key that moves is `db` (from
    /// `services` into `services.web`), not the new `TZ`; db's `image`
    /// stays at its column and is read as web's second `image` (PyYAML:
    /// `{'web': {'image': 'postgres', ..., 'db': None}}`); the advice names
    /// `db:`'s own column.
    #[test]
    fn a_key_added_above_a_kept_key_sent_deeper_names_the_kept_key() {
        let compose = "services:\n  web:\n    image: nginx\n    environment:\n      DEBUG: \"0\"\n  db:\n    image: postgres\n";
        let found = check_edit(
            key_move,
            "compose.yml",
            compose,
            "    environment:\n      DEBUG: \"0\"\n  db:\n",
            "    environment:\n      DEBUG: \"0\"\n      TZ: UTC\n    db:\n",
        )
        .expect("a move");
        assert_eq!(
            found.describe(),
            "as written, line 7 (`db:`) moves the key `db` from under `services` to under \
             `services.web`: the new text sets it at column 4 where the line it rewrites (line \
             6 of the file before) is at column 2, though neither the edit's old text nor its \
             new text, each read alone, sets it under a key or list item of its own lines, and \
             YAML nests keys by their column; the lines it held below it (line 8, `image: \
             postgres`) stay at their column, so they are read under `services.web` instead: \
             `image` is given there twice (lines 3 and 8), and YAML readers (PyYAML) keep the \
             last, line 8's, and `db` is left with no value (null): send `db:` at column 2, as \
             line 6 of the file before has it"
        );
        // The advice followed: no doubt.
        assert_no_doubt(
            "compose.yml",
            compose,
            "    environment:\n      DEBUG: \"0\"\n  db:\n",
            "    environment:\n      DEBUG: \"0\"\n      TZ: UTC\n  db:\n",
        );
    }

    const DEPLOY: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n          ports:\n            - containerPort: 80\n";

    /// The tester's find 01: `ports` moved out of its container on the
    /// stretch's second line, the first (an image bump) at its column:
    /// neither the old text (`ports` beside `image`) nor the new text
    /// (`ports` left of `image`) sets `ports` under a line of its own, the
    /// file moves it to the pod spec, and the doubt says what it compared
    /// (a tester's find, 37c-04: it said the two texts "nest it alike").
    /// Each key's own rewrite is compared, not only the first line's. A
    /// deliberate dedent of a mapping's last key is doubted the same way
    /// (the doubt names it).
    #[test]
    fn a_key_rewritten_at_another_column_moves_though_the_first_line_keeps_its_own() {
        let found = check_edit(
            key_move,
            "deploy.yaml",
            DEPLOY,
            "          image: nginx:1.25\n          ports:\n",
            "          image: nginx:1.27\n      ports:\n",
        )
        .expect("a move");
        assert_eq!(
            (found.line, found.key.as_str(), found.column, found.replaced),
            (12, "ports", 6, (12, 10))
        );
        assert_eq!((found.why, found.others), (Why::Rewritten, 0));
        assert_eq!(
            found.describe(),
            "as written, line 12 (`ports:`) moves the key `ports` from a list item of \
             `spec.template.spec.containers` to under `spec.template.spec`: the new text sets \
             it at column 6 where the line it rewrites (line 12 of the file before) is at \
             column 10, though neither the edit's old text nor its new text, each read alone, \
             sets it under a key or list item of its own lines, and YAML nests keys by their \
             column: send `ports:` at column 10, as line 12 of the file before has it"
        );
        assert_eq!(found.own, Vec::<String>::new());
        // Where the texts set it under lines of their own, those are named.
        let own =
            |chain: &[&str]| own_place(&chain.iter().map(|l| l.to_string()).collect::<Vec<_>>());
        assert_eq!(
            own(&["server"]),
            "the edit's old and new text, each read alone, both set it under `server` among \
             their own lines"
        );
        assert_eq!(
            own(&["jobs", "-"]),
            "the edit's old and new text, each read alone, both set it in a list item of \
             `jobs` among their own lines"
        );
        // The key's own lines move with it: counted.
        let found = check_edit(
            key_move,
            "deploy.yaml",
            DEPLOY,
            "          image: nginx:1.25\n          ports:\n            - containerPort: 80\n",
            "          image: nginx:1.27\n      ports:\n        - containerPort: 80\n",
        )
        .expect("a move");
        assert_eq!((found.key.as_str(), found.others), ("ports", 1));
        // A mapping's last key dedented to the top level.
        let found = check_edit(
            key_move,
            "c.yaml",
            CONFIG,
            "  port: 80\n  host: a\n",
            "  port: 81\nhost: a\n",
        )
        .expect("a move");
        assert_eq!((found.line, found.key.as_str()), (3, "host"));
        assert!(
            found
                .describe()
                .contains("moves the key `host` from under `server` to the top level"),
            "{}",
            found.describe()
        );
    }

    /// The tester's find 02: one item of a compact `steps:` list re-sent
    /// indented leaves its sibling at the old column (YAML refuses it), and
    /// the reverse; a key added at the column of a list's dashes; a key
    /// added deeper than a key holding a value; a mapping's key dedented to
    /// a column no sibling uses. Each named with its line, its column and
    /// the sibling's.
    #[test]
    fn entries_of_one_collection_at_different_columns_are_a_doubt() {
        let ci = "name: CI\non:\n  push:\n    branches: [main]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n    - uses: actions/checkout@v3\n    - name: Test\n      run: make test\n";
        let result = edited(
            ci,
            "    - uses: actions/checkout@v3\n",
            "      - uses: actions/checkout@v4\n",
        );
        let Some(YamlBreak::Misplaced(found)) = yaml_doubt("ci.yml", ci, &result) else {
            panic!("{:?}", yaml_doubt("ci.yml", ci, &result));
        };
        assert_eq!(
            (found.entry.line, found.entry.column, found.entry.item),
            (10, 4, true)
        );
        let Against::Sibling(sibling) = found.against else {
            panic!("{:?}", found.against);
        };
        assert_eq!((sibling.line, sibling.column), (9, 6));
        assert_eq!(
            yaml_doubt("ci.yml", ci, &result).map(|f| f.describe()),
            Some(
                "as written, line 10 (`- name: Test`) is a list item at column 4 where line 9 \
                 (`- uses: actions/checkout@v4`), an item of the same list under \
                 `jobs.build.steps`, stands at column 6: YAML refuses the items of one list at \
                 different columns (the file no longer parses): send the new lines at the \
                 indentation of the lines they replace"
                    .into()
            )
        );
        let indented = ci
            .replace("    - ", "      - ")
            .replace("      run", "        run");
        let result = edited(
            &indented,
            "      - name: Test\n        run: make test\n",
            "    - name: Test\n      run: make test\n",
        );
        let said = yaml_doubt("ci.yml", &indented, &result).map(|f| f.fault());
        assert!(
            said.as_deref().is_some_and(|s| s.starts_with(
                "as written, line 10 (`- name: Test`) is a list item at column 4 where line 9 \
                 (`- uses: actions/checkout@v3`), an item of the same list"
            )),
            "{said:?}"
        );
        let said = yaml_doubt(
            "deploy.yaml",
            DEPLOY,
            &DEPLOY.replace(
                "          image: nginx:1.25\n",
                "          image: nginx:1.27\n        resources:\n          limits:\n            cpu: \"1\"\n",
            ),
        )
        .map(|f| f.fault());
        assert_eq!(
            said.as_deref(),
            Some(
                "as written, line 12 (`resources:`) is a key at column 8 where line 10 (`- \
                 name: web`) is a list item at column 8 under `spec.template.spec.containers`: \
                 YAML refuses keys and list items in one collection (the file no longer parses)"
            )
        );
        let said = yaml_doubt(
            "deploy.yaml",
            DEPLOY,
            &DEPLOY.replace(
                "          image: nginx:1.25\n",
                "          image: nginx:1.27\n            pullPolicy: Always\n",
            ),
        )
        .map(|f| f.fault());
        assert_eq!(
            said.as_deref(),
            Some(
                "as written, line 12 (`pullPolicy: Always`) is a key at column 12, deeper than \
                 the key `image` that holds a value on its own line: YAML refuses a key there \
                 (the file no longer parses)"
            )
        );
        let nested = "a:\n    b: 1\n    c: 2\n";
        let said = yaml_doubt("x.yml", nested, &nested.replace("    c: 2\n", "  c: 3\n"))
            .map(|f| f.fault());
        assert!(
            said.as_deref().is_some_and(|s| s.starts_with(
                "as written, line 3 (`c: 3`) is a key at column 2 where line 2 (`b: 1`), a key \
                 of the same mapping under `a`, stands at column 4"
            )),
            "{said:?}"
        );
        // One item of an indented list re-sent at its key's column (this
        // module's own test called it ordinary once: YAML refuses it).
        let list = "items:\n  - name: a\n    v: 1\n  - name: b\n    v: 2\n";
        let said = yaml_doubt(
            "x.yml",
            list,
            &list.replace("  - name: a\n    v: 1\n", "- name: a\n  v: 10\n"),
        )
        .map(|f| f.fault());
        assert!(
            said.as_deref().is_some_and(|s| s.starts_with(
                "as written, line 4 (`- name: b`) is a list item at column 2 where line 2 \
                 (`name: a`) is a key at column 2 in a list item of `items`"
            )),
            "{said:?}"
        );
        // A block scalar's first line re-indented deeper than the next
        // (this module's own test called it ordinary once: YAML ends the
        // scalar at the next line and refuses it); an indentation
        // indicator sets the column: not read.
        let script = "run: |\n  echo a: b\n  echo c\nnext: 1\n";
        let result = edited(
            script,
            "  echo a: b\n  echo c\n",
            "    echo a: b\n  echo c: 2\n",
        );
        assert_eq!(
            yaml_doubt("x.yml", script, &result)
                .map(|f| f.fault())
                .as_deref(),
            Some(
                "as written, line 3 (`echo c: 2`) is a line of the block scalar under `run` at \
                 column 2 where its first line (line 2) stands at column 4: YAML ends the scalar \
                 there and refuses the line (the file no longer parses)"
            )
        );
        let fixed = after(script, "run: |", "2");
        assert_eq!(
            check_edit(
                yaml_doubt,
                "x.yml",
                &fixed,
                "  echo a: b\n  echo c\n",
                "    echo a: b\n  echo c: 2\n"
            ),
            None
        );
        // Not where the file before already read such a fault, nor with a
        // tab in the indentation.
        let faulty = format!("x:\n    y: 1\n  z: 2\n{ci}");
        assert_eq!(
            check_edit(
                yaml_doubt,
                "ci.yml",
                &faulty,
                "    - uses: actions/checkout@v3\n",
                "      - uses: actions/checkout@v4\n"
            ),
            None
        );
    }

    /// Everyday edits of a k8s Deployment, a docker-compose file and a
    /// GitHub workflow in either list style: no doubt of either kind.
    #[test]
    fn everyday_k8s_compose_and_workflow_edits_are_not_doubted() {
        let compose = "version: \"3.8\"\nservices:\n  web:\n    image: nginx:1.25\n    ports:\n      - \"80:80\"\n    environment:\n      - A=1\n  db:\n    image: postgres:15\nvolumes:\n  data:\n";
        let compact = "jobs:\n  build:\n    steps:\n    - uses: actions/checkout@v3\n    - name: Test\n      run: make test\n";
        let indented = "jobs:\n  build:\n    steps:\n      - uses: actions/checkout@v3\n      - name: Test\n        run: make test\n";
        let cases: &[(&str, &str, &str)] = &[
            (DEPLOY, "nginx:1.25", "nginx:1.27"),
            (
                DEPLOY,
                "          image: nginx:1.25\n          ports:\n",
                "          image: nginx:1.27\n          ports:\n",
            ),
            (
                DEPLOY,
                "          image: nginx:1.25\n",
                "          image: nginx:1.25\n          resources:\n            limits:\n              cpu: \"1\"\n",
            ),
            (
                DEPLOY,
                "  name: web\n",
                "  name: web\n  labels:\n    app: web\n",
            ),
            (
                DEPLOY,
                "  replicas: 2\n  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n",
                "  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n",
            ),
            (
                DEPLOY,
                "            - containerPort: 80\n",
                "            - containerPort: 80\n        - name: side\n          image: busybox\n",
            ),
            (
                DEPLOY,
                "        - name: web\n          image: nginx:1.25\n          ports:\n            - containerPort: 80\n",
                "      - name: web\n        image: nginx:1.25\n        ports:\n          - containerPort: 80\n",
            ),
            (
                compose,
                "volumes:\n",
                "  cache:\n    image: redis:7\nvolumes:\n",
            ),
            (
                compose,
                "    ports:\n      - \"80:80\"\n",
                "    ports:\n    - \"80:80\"\n    - \"443:443\"\n",
            ),
            (
                compose,
                "    environment:\n      - A=1\n",
                "    environment:\n      A: \"1\"\n      B: \"2\"\n",
            ),
            (compose, "  data:\n", "  data:\n    driver: local\n"),
            (
                compact,
                "    - uses: actions/checkout@v3\n",
                "    - uses: actions/checkout@v4\n      with:\n        fetch-depth: 0\n",
            ),
            (
                compact,
                "      run: make test\n",
                "      run: make test\n    - name: Lint\n      run: make lint\n",
            ),
            (
                compact,
                "    - uses: actions/checkout@v3\n    - name: Test\n      run: make test\n",
                "      - uses: actions/checkout@v3\n      - name: Test\n        run: make test\n",
            ),
            (
                indented,
                "        run: make test\n",
                "        run: |\n          make test\n          make check\n",
            ),
            (
                indented,
                "      - name: Test\n        run: make test\n",
                "      - name: Unit tests\n        run: make unit\n",
            ),
            (
                "server:\n  http:\n    port: 80\n    host: a\n",
                "  http:\n    port: 80\n    host: a\n",
                "  port: 80\n  host: a\n",
            ),
            (
                "server:\n  a: 1\n  port: 80\n",
                "server:\n  a: 1\n",
                "backend:\n  a: 1\n",
            ),
            (CONFIG, "  port: 80\n  host: a\n", "  host: a\n  port: 80\n"),
            (
                "base: &b\n  x: 1\nother:\n  <<: *b\n  y: 2\n",
                "  y: 2\n",
                "  y: 3\n  z: 4\n",
            ),
            ("a: 1\n---\nb:\n  c: 1\n", "  c: 1\n", "  c: 2\n  d: 3\n"),
        ];
        for &(file, old, new) in cases {
            assert_no_doubt("f.yaml", file, old, new);
        }
    }

    /// What the reading takes for a key line: its chain of parents.
    #[test]
    fn chains_are_read_by_indentation() {
        let text = "a:\n  b: [1,\n    c: 2]\n  d: \"x\n  e: y\"\n  f:\n  - g: 1\n    h: 2\n  - - i: 3\n---\nj: |\n  k: 4\nl: 'm: n'\n\"o p\": 5\nurl: http://x\n";
        let mut reader = Reader::new();
        let keys: Vec<String> = text
            .lines()
            .filter_map(|line| reader.line(line))
            .map(|chain| chain.join("/"))
            .collect();
        assert_eq!(
            keys,
            [
                "a",
                "a/b",
                "a/d",
                "a/f",
                "a/f/-/g",
                "a/f/-/h",
                "a/f/-/-/i",
                "j",
                "l",
                "\"o p\"",
                "url"
            ]
        );
    }

    /// A tester's find (round 39b, 04): a block scalar after a tag or an
    /// anchor (CloudFormation's `Fn::Base64: !Sub |`, `!!str |`, GitLab's
    /// `.setup: &setup |`, both in either order, with chomping and
    /// indentation indicators) is a block scalar: its lines holding `: `
    /// are text, not keys. A misindented key beside it is still doubted.
    #[test]
    fn a_block_scalar_after_tags_and_anchors_is_read_as_one() {
        const USERDATA: &str = "Resources:\n  Instance:\n    Type: AWS::EC2::Instance\n    Properties:\n      UserData:\n        Fn::Base64: !Sub |\n          #!/bin/bash\n          yum install -y httpd\n          systemctl start httpd\n      Tags: []\n";
        let added = "          systemctl start httpd\n          echo \"Region: ${AWS::Region}\" >> /tmp/info\n";
        for header in [
            "!Sub |",
            "!!str |",
            "&setup |",
            "!Sub >-",
            "!Sub |2",
            "!Base64 |",
            "&a !Sub |",
            "!Sub &a |+",
            "!<tag:yaml.org,2002:str> |",
            "! >",
            "!Sub\t|",
        ] {
            let original = edited(USERDATA, "!Sub |", header);
            let result = edited(&original, "          systemctl start httpd\n", added);
            // An edit inside the scalar, and the file written new.
            assert_eq!(
                yaml_doubt("template.yaml", &original, &result).map(|f| f.fault()),
                None,
                "{header}"
            );
            assert_eq!(
                yaml_doubt("template.yaml", "", &result).map(|f| f.fault()),
                None,
                "{header}"
            );
            // The scalar ends at a line no deeper than its key: a key there
            // at another column than its siblings is refused.
            let bad = edited(&result, "      Tags: []\n", "     Tags: []\n");
            assert!(
                yaml_doubt("template.yaml", &result, &bad).is_some(),
                "{header}"
            );
            let said = yaml_doubt("template.yaml", "", &bad).map(|f| f.fault());
            assert_eq!(
                said.as_deref(),
                Some(
                    "as written, line 11 (`Tags: []`) is a key at column 5 where line 5 \
                     (`UserData:`), a key of the same mapping under \
                     `Resources.Instance.Properties`, stands at column 6: YAML refuses the keys \
                     of one mapping at different columns (the file no longer parses)"
                ),
                "{header}"
            );
        }
        // In a list item, at the top level, and a scalar that reads as a
        // mapping with a key twice (`server:` in the text twice).
        let cases = [
            "steps:\n  - !Sub |\n    echo a: b\n  - run: x\n",
            ".setup: &setup |\n  apt-get update\n  export PATH: /x\nbuild:\n  script:\n    - *setup\n",
            "data:\n  config: !!str |\n    server:\n      port: 8080\n    server:\n      port: 8081\n",
        ];
        for text in cases {
            assert_eq!(
                yaml_doubt("x.yml", "", text).map(|f| f.fault()),
                None,
                "{text}"
            );
            assert_eq!(
                super::super::doubt_redefine::yaml_duplicate_key("", text).map(|f| f.key),
                None,
                "{text}"
            );
        }
        // Only tags and anchors are read past: an alias or a plain word
        // before `|` is a plain scalar, and the lines after it keys.
        assert!(yaml_doubt("x.yml", "", "a: *x |\n  b: 1\n").is_some());
        assert!(yaml_doubt("x.yml", "", "a: Sub |\n  b: 1\n").is_some());
        assert_eq!(past_properties("&a !Sub |2-"), "|2-");
        assert_eq!(past_properties("!!map"), "");
        assert_eq!(past_properties("!!str \"a"), "\"a");
    }

    /// A tester's find (42b-10): a `volumes:` block typed under the last
    /// Compose service, moved to the top level by re-indenting it alone
    /// (every line shifted alike, a blank line before it): the move is all
    /// the edit does, no doubt. Dedented so that YAML refuses the file, or
    /// that a line below it gets another parent (`steps` dedented out of a
    /// job takes the job's next key), beside a changed value, or with one
    /// line shifted unlike the others, it is still a doubt.
    #[test]
    fn a_block_only_reindented_to_another_level_is_a_meant_move() {
        let compose = "services:\n  db:\n    image: postgres:16\n    volumes:\n      - db-data:/var/lib/postgresql/data\n  web:\n    image: nginx:1.27\n    ports:\n      - \"8080:80\"\n    volumes:\n      db-data:\n";
        let volumes = "    volumes:\n      db-data:\n";
        // Moved to the top level, without the blank line, and deeper: a
        // top-level block moved into a service.
        let meant = [
            (
                "docker-compose.yml",
                compose,
                volumes,
                "\nvolumes:\n  db-data:\n",
            ),
            ("compose.yaml", compose, volumes, "volumes:\n  db-data:\n"),
            (
                "compose.yaml",
                "services:\n  web:\n    image: a\nlogging:\n  driver: json\n",
                "logging:\n  driver: json\n",
                "    logging:\n      driver: json\n",
            ),
        ];
        for (path, file, old, new) in meant {
            let moved = edited(file, old, new);
            assert_eq!(yaml_doubt(path, file, &moved), None, "{new:?}");
        }
        let on = "on:\n  push:\n    branches:\n      - main\njobs:\n  a: 1\n";
        let ci = "jobs:\n  build:\n    steps:\n      - run: make\n    env:\n      CI: 1\n";
        // Each a key move (`true`), or at least a doubt.
        let doubted = [
            // Beside a changed value, or shifted unlike: a move.
            (
                "compose.yaml",
                compose,
                volumes,
                "volumes:\n  db-data: {}\n",
                true,
            ),
            (
                "compose.yaml",
                compose,
                volumes,
                "volumes:\n    db-data:\n",
                true,
            ),
            // A middle key dedented alone leaves its sibling under a key
            // that holds a value: a doubt still.
            ("c.yaml", CONFIG, "  port: 80\n", "port: 80\n", false),
            // The one key of its mapping moved out: the mapping is left
            // empty.
            (
                "ci.yml",
                on,
                "  push:\n    branches:\n      - main\n",
                "push:\n  branches:\n    - main\n",
                true,
            ),
            // The key line alone dedented, its list left below: the list
            // goes with it, and `push` is left empty.
            ("ci.yml", on, "    branches:\n", "branches:\n", false),
            // Dedented out of a job, `steps` would take the job's next key
            // into its list item: a move.
            (
                "ci.yml",
                ci,
                "    steps:\n      - run: make\n",
                "steps:\n  - run: make\n",
                true,
            ),
        ];
        for (path, file, old, new, a_move) in doubted {
            let result = edited(file, old, new);
            if a_move {
                assert!(key_move(path, file, &result).is_some(), "{new:?}");
            } else {
                assert!(yaml_doubt(path, file, &result).is_some(), "{new:?}");
            }
        }
        assert!(reindented_alike(
            &["  a: 1", "", "    b: 2"],
            &["a: 1", "  b: 2"]
        ));
        assert!(!reindented_alike(&["  a: 1"], &["  a: 1"]));
        assert!(!reindented_alike(&["\ta: 1"], &["a: 1"]));
    }
}
