//! What a block's REPLACE text becomes once its SEARCH text is corrected to
//! the file's lines: the change the author made from SEARCH to REPLACE,
//! carried onto the file's real lines (a three-way merge, line by line).
//!
//! Lines the author kept are the file's own (a typo, a re-indented line or
//! an entity copied into both sections is not written back); lines of the
//! file the SEARCH text left out stay where they are; added and changed
//! lines get the file's line endings, and the indentation, entity and
//! look-alike corrections the SEARCH text needed. When the author changed
//! lines around a file line the SEARCH text never showed, what was meant for
//! it cannot be told: no merge.
//!
//! A damaged line (its file line differs from it in more than white space,
//! look-alikes or entities: the author never saw it as it is) that the
//! author deletes (unless it is the file's line misspelt), or rewrites into text that still holds one of its
//! damaged words (a word the file's line does not have), is no merge
//! either: whether the file's line should go, or what it should become,
//! cannot be told. A rewrite that drops every damaged word (`reslt = b - a`
//! into `result = abs(b - a)` over the file's `result = b - a`) is the
//! author's own new text and is merged, when the damage is a misspelling
//! of the file's word or the rewrite takes up the file's word; a stale
//! value or another name (`TIMEOUT = 10` over the file's `TIMEOUT = 30`,
//! rewritten to `TIMEOUT_MS = 10000`) is no merge. Nor is any new line that
//! uses a word only the damaged lines have (`user_id` in a line added to
//! a sibling function that has `name`).

use similar::DiffOp;

use super::closest::{align, paired};
use super::normalize::{
    has_entity, plain_char, plain_lookalikes, squeeze_space, unescape_entities,
};
use super::strings::{MultilineStrings, StringSyntax};
use crate::engine::js::js_trim;
use crate::textdiff;

/// Why the author's change cannot be carried onto the region's lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unmergeable {
    /// A change around (or an insertion at) a file line the SEARCH text
    /// never showed, or new lines with no safe indentation.
    Unclear,
    /// The author deletes SEARCH line `search` (0-based), whose file line
    /// `region` (0-based in the region) has other content.
    DeletesDamagedLine { search: usize, region: usize },
    /// The author rewrites SEARCH line `search` (0-based), whose file line
    /// `region` differs from it in punctuation or word order: whether the
    /// rewrite keeps that damage cannot be told.
    ChangesDamagedLine { search: usize, region: usize },
    /// The author rewrites SEARCH line `search` (0-based), whose file line
    /// `region` has other content, into text that still holds `word`, a
    /// word of the SEARCH line the file's line does not have.
    KeepsDamagedWord {
        search: usize,
        region: usize,
        word: String,
    },
    /// The author changes SEARCH line `search` (0-based), whose file line
    /// `region` differs from it only in white space, some of it inside a
    /// string literal `literal` ([`spaced_otherwise_in_string`]).
    ChangesStringSpacing {
        search: usize,
        region: usize,
        literal: String,
    },
    /// The author changes SEARCH line `search` (0-based), whose file line
    /// `region` differs from it only in form (white space, look-alikes)
    /// where the change meets it: the file has `file` where the SEARCH
    /// line has `model`, and which of the two the new line keeps cannot
    /// be told ([`carry_form`]).
    ChangesLineForm {
        search: usize,
        region: usize,
        file: String,
        model: String,
    },
    /// The author rewrites SEARCH line `search` (0-based), a line the file
    /// does not have at that place (deleted there, or never written), into
    /// a new line that resembles it: a correction would write it back.
    ChangesMissingLine { search: usize },
    /// The author's new text holds file line `region` (0-based in the
    /// region), a line the SEARCH text left out: carried as it is, the
    /// result would hold that line twice, and whether the author meant a
    /// copy or only never saw it cannot be told.
    RepeatsUnseenLine { region: usize },
    /// The author's new line `replace` (0-based in the REPLACE text) has
    /// no column the file's indentation carries it to with confidence: a
    /// column the scale does not take to a whole one, or a continuation
    /// line lined up with a word above it in a file indented with tabs.
    /// `continuation`: the line continues the statement above it.
    UncarriedIndent { replace: usize, continuation: bool },
    /// The SEARCH text is indented unlike the file in no one way (no
    /// shift, no scale, no one file indentation for each of its widths in
    /// the same order), and the author changes lines: where the new lines
    /// go cannot be told.
    NoIndentRelation,
}

/// The sentence withholding a correction for
/// [`Unmergeable::NoIndentRelation`].
pub fn no_indent_relation_withheld() -> String {
    "the SEARCH lines' indentation maps onto the file's by no shift, no scale and no one file \
     indentation for each of its widths, so where the new lines go in the file's indentation \
     cannot be told: the correction is withheld"
        .to_string()
}

/// The sentence withholding a correction for [`Unmergeable::UncarriedIndent`]:
/// `line`, the new line, trimmed, and whether it continues a statement.
pub fn uncarried_indent_withheld(line: &str, continuation: bool) -> String {
    if continuation {
        format!(
            "the file is indented otherwise than the SEARCH text, and where the new line `{}`, \
             which continues the statement above it, goes in the file's indentation cannot be \
             told: the correction is withheld",
            line.trim()
        )
    } else {
        format!(
            "the file is indented otherwise than the SEARCH text, and the new line `{}` is at \
             a column the file's indentation does not carry to a whole one: the correction is \
             withheld",
            line.trim()
        )
    }
}

/// For each of `lines`, whether it continues a statement begun on a line
/// above it: the line before ends with `\`, or a bracket opened on a line
/// above is still open there and the line does not begin by closing it.
/// Brackets inside quotes (on one line) and after a `#` or `//` comment
/// are not counted. Blank lines are not continuations.
pub fn continuation_lines<S: AsRef<str>>(lines: &[S]) -> Vec<bool> {
    let mut out = Vec::with_capacity(lines.len());
    let (mut depth, mut backslash) = (0usize, false);
    // For each bracket open, whether it is a `{` ending its line: a block
    // (a brace language's function or `if` body, a hanging dict), whose
    // lines are indented a level as statements are, not lined up under a
    // word: they begin statements (a tester's find, 45 T-07: a small JS or
    // Go function re-sent with a line added was refused a correction, its
    // body read as one statement continued).
    let mut blocks: Vec<bool> = Vec::new();
    for line in lines {
        let body = line.as_ref().trim();
        if body.is_empty() {
            out.push(false);
            continue;
        }
        let closes_first = body.starts_with([')', ']', '}']);
        let in_block = blocks.last().copied().unwrap_or(false);
        out.push(backslash || (depth > 0 && !closes_first && !in_block));
        let after = bracket_depth_after(body, depth);
        if after > depth {
            let opens_block = body.ends_with('{');
            blocks.extend((depth..after).map(|level| level + 1 == after && opens_block));
        } else {
            blocks.truncate(after);
        }
        depth = after;
        backslash = body.ends_with('\\');
    }
    out
}

/// How many of `lines`, from the first, lie inside a bracket opened before
/// them: up to the last line that closes a bracket none of them opened
/// (the `)` of a call whose first lines came before). 0 when none closes
/// such a bracket.
pub fn opened_before<S: AsRef<str>>(lines: &[S]) -> usize {
    let (mut depth, mut least, mut upto) = (0isize, 0isize, 0usize);
    for (i, line) in lines.iter().enumerate() {
        let body = line.as_ref().trim();
        let opened = bracket_depth_after(body, 0) as isize;
        // Closers beyond the line's own openers: depth after minus the
        // openers left open.
        let closed = bracket_closers_unmatched(body) as isize;
        depth = depth - closed + opened;
        if depth - opened < least {
            least = depth - opened;
            upto = i + 1;
        }
    }
    upto
}

/// How many closing brackets of `body` (a trimmed line) close none of its
/// own (quotes on one line and a `#` or `//` comment as
/// [`bracket_depth_after`] reads them).
fn bracket_closers_unmatched(body: &str) -> usize {
    let reversed: String = body
        .chars()
        .rev()
        .map(|c| match c {
            '(' => ')',
            '[' => ']',
            '{' => '}',
            ')' => '(',
            ']' => '[',
            '}' => '{',
            other => other,
        })
        .collect();
    // A comment read from the end would be code: cut it first.
    let code = match body
        .find(" #")
        .or_else(|| body.starts_with('#').then_some(0))
    {
        Some(at) => &body[..at],
        None => body,
    };
    if code.len() != body.len() {
        return bracket_closers_unmatched(code);
    }
    bracket_depth_after(&reversed, 0)
}

/// The depth of open brackets after `body` (a trimmed line), from `depth`
/// before it.
fn bracket_depth_after(body: &str, mut depth: usize) -> usize {
    let chars: Vec<char> = body.chars().collect();
    let mut quote: Option<char> = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let at_word = i == 0 || chars[i - 1].is_whitespace();
        match quote {
            Some(q) => {
                if c == '\\' {
                    i += 1;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '\'' | '`' => quote = Some(c),
                '#' if at_word => break,
                '/' if at_word && chars.get(i + 1) == Some(&'/') => break,
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
        i += 1;
    }
    depth
}

/// The words (identifiers, numbers, keywords) of a line.
fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// Why the author's change to the damaged SEARCH line `search` (file line
/// `file`) cannot be carried over, given the new lines `new` that take the
/// place of the changed span it is in; `None` when it can (or the line is
/// not damaged).
/// `one_for_one`: the span changes as many lines as it writes, so each
/// line has its rewrite at the same place.
fn damaged_change(
    search: &str,
    file: &str,
    new: &[String],
    one_for_one: bool,
) -> Option<DamagedChange> {
    if !differs_in_content(search, file) {
        return None;
    }
    let plain = unescape_entities(search);
    let file_words: Vec<&str> = words(file).collect();
    let damaged: Vec<&str> = words(&plain).filter(|w| !file_words.contains(w)).collect();
    let search_words: Vec<&str> = words(&plain).collect();
    let file_only: Vec<&str> = file_words
        .iter()
        .copied()
        .filter(|w| !search_words.contains(w))
        .collect();
    let misspelt = |w: &str| {
        !w.chars().all(|c| c.is_ascii_digit())
            && file_only
                .iter()
                .any(|f| similar::TextDiff::from_chars(w, *f).ratio() >= MISSPELLING)
    };
    // No rewrite at its place and no new line resembles it: the author
    // deletes it. The file's line is the one meant only when it is the
    // same line misspelt (`self.loger.info(..)` for `self.logger.info(..)`).
    if !one_for_one && !new.iter().any(|n| paired(search, n)) {
        let same_line_misspelt = !damaged.is_empty() && damaged.iter().all(|w| misspelt(w));
        return (!same_line_misspelt).then_some(DamagedChange::Deleted);
    }
    if damaged.is_empty() {
        // The damage is in punctuation or the words' order: nothing tells
        // whether the rewrite keeps it.
        return Some(DamagedChange::Unclear);
    }
    // The author changes the very text the file's line differs in (`"guest"`
    // made `"viewer"` in a list the file holds without `"guest"`): the change
    // has nothing to act on, and writing it would mean something else (a
    // role added where one was to be replaced).
    if let [rewrite] = new
        && changes_the_damage(search, file, rewrite)
    {
        return Some(DamagedChange::Unclear);
    }
    if let Some(w) = new
        .iter()
        .flat_map(|n| words(n))
        .find(|w| damaged.contains(w))
    {
        return Some(DamagedChange::KeepsWord(w.to_string()));
    }
    // A rewrite that drops every damaged word is the author's own text only
    // where the damage is a misspelling of the file's word (`LOW_STOK` for
    // `LOW_STOCK`); a stale value or another name (`10` for `30`,
    // `verbose` for `debug`) means the rewrite was made from what the line
    // no longer says.
    // Unless the rewrite takes up the file's own word there (the author
    // wrote against what the file says after all).
    let takes_file_word = new
        .iter()
        .flat_map(|n| words(n))
        .any(|w| file_only.contains(&w));
    // Only where the file's line has words the SEARCH line lacks: words
    // merely added to the SEARCH line (junk after the code) leave the
    // file's words all there for the author to have written against.
    let stale = !file_only.is_empty() && damaged.iter().any(|w| !misspelt(w));
    (stale && !takes_file_word).then_some(DamagedChange::Unclear)
}

/// Whether the author's change of `search` into `rewrite` meets a place
/// where the file's line differs from `search` (the character changes of
/// the two overlap or meet at an insertion), past changes both make alike
/// and file differences inside text the author rewrites whole (its new
/// text stands for them).
fn changes_the_damage(search: &str, file: &str, rewrite: &str) -> bool {
    let (s, f, r): (Vec<char>, Vec<char>, Vec<char>) = (
        search.trim().chars().collect(),
        file.trim().chars().collect(),
        rewrite.trim().chars().collect(),
    );
    let (mine, model) = (char_hunks(&s, &f), char_hunks(&s, &r));
    let covered =
        |f: &(usize, usize, String)| model.iter().any(|m| m.0 < m.1 && m.0 <= f.0 && f.1 <= m.1);
    mine.iter().filter(|f| !covered(f)).any(|f| {
        model.iter().any(|m| {
            f != m && {
                let overlap = f.0 < m.1 && m.0 < f.1;
                let inserts = f.0 == f.1 || m.0 == m.1;
                let meet = f.0 == m.1 || m.0 == f.1 || f.0 == m.0;
                overlap || (inserts && meet)
            }
        })
    })
}

/// How alike a damaged word and the file's word must be (characters in
/// order) to be a misspelling of it rather than another word.
const MISSPELLING: f32 = 0.75;

enum DamagedChange {
    Deleted,
    KeepsWord(String),
    Unclear,
}

/// Whether a SEARCH line and its file line differ in more than white space,
/// look-alike characters and HTML entities (the damage the merge corrects
/// in new lines). Case counts: `Total` is not `total`.
pub fn differs_in_content(search: &str, file: &str) -> bool {
    let bare = |l: &str| squeeze_space(&plain_lookalikes(l));
    bare(&unescape_entities(search)) != bare(file)
}

/// Whether two lines are the same text written in other Unicode
/// normalisation forms (`é` as U+00E9 in one, `e` + U+0301 in the other):
/// canonically equivalent, different bytes. No one tells them apart on
/// screen; a model re-reading the file sends its composed form again.
pub fn differs_only_in_normalisation(a: &str, b: &str) -> bool {
    use unicode_normalization::UnicodeNormalization;
    a != b && (!a.is_ascii() || !b.is_ascii()) && a.nfc().eq(b.nfc())
}

/// The string literals of a line, each as written between its quotes
/// (`"`, `'` or a backtick; a backslash escapes the next character), in
/// order; a literal still open at the line's end runs to it. A line-based
/// reading: an apostrophe in prose opens a "literal" too, which errs
/// towards seeing one.
fn string_literals(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut open: Option<(char, usize)> = None;
    let mut escaped = false;
    for (at, c) in line.char_indices() {
        match open {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some((quote, from)) if c == quote => {
                out.push(&line[from..at]);
                open = None;
            }
            Some(_) => {}
            None if matches!(c, '"' | '\'' | '`') => open = Some((c, at + c.len_utf8())),
            None => {}
        }
    }
    if let Some((_, from)) = open {
        out.push(&line[from..]);
    }
    out
}

/// Where a SEARCH line and its file line differ only in white space (as
/// [`differs_in_content`] reads them) and some of that white space lies
/// inside a string literal: the first literal of the file's line that the
/// SEARCH line has spaced otherwise (`"Total:    %8.2f"` for the model's
/// `"Total: %8.2f"`). A whitespace-blind stage may ignore indentation and
/// the spacing between tokens, but the white space inside a literal is
/// data: a correction writing the model's spacing there changes what the
/// program prints (a fresh tester's find: `fix`, the gate's corrected edit
/// and its Gemini CLI repair all did, and called it exact). The one check
/// every suggestion builder runs on a line the model changes.
pub fn spaced_otherwise_in_string(search: &str, file: &str) -> Option<String> {
    if search == file || differs_in_content(search, file) {
        return None;
    }
    // Quotes (and dashes, ellipses) compared as the look-alike correction
    // reads them (the model's curly quotes for the file's straight ones are
    // not a string's spacing); every space kept as written: a no-break or
    // narrow space in a literal is data as much as a run of spaces.
    let plain_but_spaces = |line: &str| -> String {
        line.chars()
            .map(|c| match plain_char(c) {
                Some(' ') | None => c,
                Some(plain) => plain,
            })
            .collect()
    };
    let (search, plain_file) = (plain_but_spaces(search), plain_but_spaces(file));
    let (ours, theirs) = (string_literals(&search), string_literals(&plain_file));
    if ours == theirs {
        return None;
    }
    let literal = theirs
        .iter()
        .find(|lit| !ours.contains(lit))
        .copied()
        .unwrap_or(file.trim());
    // A space that looks like any other (no-break, narrow, thin) is named:
    // the model cannot see it in the quoted text.
    let mut special: Vec<String> = Vec::new();
    for c in literal
        .chars()
        .filter(|c| c.is_whitespace() && !c.is_ascii())
    {
        let code = format!("U+{:04X}", c as u32);
        if !special.contains(&code) {
            special.push(code);
        }
    }
    if special.is_empty() {
        Some(format!("`{literal}`"))
    } else {
        Some(format!(
            "`{literal}`, whose {} not a plain space",
            match &special[..] {
                [one] => format!("{one} is"),
                more => format!("{} are", more.join(", ")),
            }
        ))
    }
}

/// [`spaced_otherwise_in_string`], and a line the model changes that lies
/// inside a string running over several lines (`inside`, asked only when
/// the two differ in white space alone): every space of it is the
/// string's content (a text template's aligned columns).
pub fn spaced_otherwise(search: &str, file: &str, inside: impl FnOnce() -> bool) -> Option<String> {
    spaced_otherwise_in_string(search, file).or_else(|| {
        (search.trim_end_matches('\r') != file.trim_end_matches('\r')
            && !differs_in_content(search, file)
            && inside())
        // Its trailing spaces shown: they may be the difference.
        .then(|| format!("`{}`", file.trim_end_matches('\r').trim_start()))
    })
}

/// Of the model's old lines paired with the file's (`file_old`, as the
/// file has them), the first the model's new text changes (it is not among
/// `model_new`) whose file line is spaced otherwise inside a string literal
/// ([`spaced_otherwise`]; `in_string(i)`: whether the file's `i`-th line
/// lies inside a string over several lines): its index and the literal.
pub fn changed_line_spaced_otherwise<'a>(
    model_old: &[&str],
    model_new: &[&str],
    file_old: impl IntoIterator<Item = &'a str>,
    in_string: impl Fn(usize) -> bool,
) -> Option<(usize, String)> {
    model_old
        .iter()
        .zip(file_old)
        .enumerate()
        .filter(|(_, (sent, _))| !model_new.contains(sent))
        .find_map(|(i, (sent, file))| {
            spaced_otherwise(sent, file, || in_string(i)).map(|literal| (i, literal))
        })
}

/// The sentence saying why no correction is offered for a line the model
/// changes whose file line is spaced otherwise inside a string literal
/// ([`spaced_otherwise_in_string`]); `literal` as that function gives it,
/// `line` the file's line number.
pub fn string_spacing_withheld(line: usize, literal: &str) -> String {
    string_spacing_withheld_at(&format!("file line {line}"), literal)
}

/// [`string_spacing_withheld`] for a file's line named otherwise (`place`:
/// "file line 3", "in hunk 1 of a.py, the file's line").
pub fn string_spacing_withheld_at(place: &str, literal: &str) -> String {
    format!(
        "{place} differs from the edit's line only in white space, but inside a string \
         literal (the file has {literal}), and the edit changes that line: written with the \
         model's spacing, the string's content (what the program prints) would change, and \
         whether the file's spacing is to be kept cannot be told"
    )
}

/// The sentence saying why no correction is offered for a line the model
/// changes where the file's form of it meets the change
/// ([`Unmergeable::ChangesLineForm`]): `place` the file's line, `sent`
/// the model's, `file` and `model` the texts as each has them.
pub fn line_form_withheld(place: &str, sent: &str, file: &str, model: &str) -> String {
    format!(
        "{place} differs from {sent} only in white space or look-alike characters, but where \
         the edit changes the line (the file has {}, the edit {}): which of the two the new \
         line keeps cannot be told",
        shown_form(file),
        shown_form(model)
    )
}

/// A run of text as [`line_form_withheld`] names it: in backticks, with
/// tabs, trailing spaces and characters that look like others named.
fn shown_form(text: &str) -> String {
    if text.is_empty() {
        return "nothing".to_string();
    }
    let mut out = String::from("`");
    for c in text.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            c if c.is_ascii() => out.push(c),
            c => out.push_str(&format!("{c} (U+{:04X})", c as u32)),
        }
    }
    out.push('`');
    if text.chars().all(|c| c == ' ') {
        out = format!(
            "{} space{}",
            text.len(),
            if text.len() == 1 { "" } else { "s" }
        );
    }
    out
}

/// The REPLACE lines to pair with the file's `region` lines, or why the
/// author's change cannot be carried onto them unambiguously.
/// `crlf`: the file's lines end in `\r\n`.
/// `in_string(j)`: whether region line `j` lies inside a string literal
/// running over several lines ([`MultilineStrings`]); `syntax`: the
/// file's, in which the model's texts are read for such strings.
pub fn merge(
    search: &[&str],
    region: &[&str],
    replace: &[&str],
    crlf: bool,
    in_string: &dyn Fn(usize) -> bool,
    syntax: StringSyntax,
) -> Result<Vec<String>, Unmergeable> {
    let pairs = align(search, region);
    let mut file_of: Vec<Option<usize>> = vec![None; search.len()];
    // Whether each region line is paired with a SEARCH line.
    let mut shown = vec![false; region.len()];
    for &(i, j) in &pairs {
        file_of[i] = Some(j);
        shown[j] = true;
    }
    let bare = |l: &&str| l.trim_end_matches('\r').to_string();
    let old: Vec<String> = search.iter().map(bare).collect();
    let new: Vec<String> = replace.iter().map(bare).collect();
    let ops = textdiff::ops(&old, &new, None);
    // A file line the SEARCH text left out stays in the result; a new line
    // that is that same line (a word or more of it) would make two.
    let unseen: Vec<(usize, String)> = (0..region.len())
        .filter(|&j| !shown[j])
        .map(|j| (j, squeeze_space(region[j])))
        .collect();
    for op in ops.iter().filter(|op| !matches!(op, DiffOp::Equal { .. })) {
        for n in new[op.new_range()]
            .iter()
            .filter(|n| words(n).next().is_some())
        {
            let n = squeeze_space(n);
            if let Some(&(j, _)) = unseen.iter().find(|(_, u)| *u == n) {
                return Err(Unmergeable::RepeatsUnseenLine { region: j });
            }
        }
    }
    // A damaged line the author deletes or rewrites keeping a damaged word:
    // writing the author's line would bring back the words that made the
    // SEARCH text fail, and dropping it may drop other code.
    // Words only the damaged SEARCH lines have (the region has them
    // nowhere), where the file's line says something else in their place:
    // a new line that uses one was written for other code.
    let region_words: Vec<&str> = region.iter().flat_map(|l| words(l)).collect();
    let mut damaged_words: Vec<(usize, usize, &str)> = Vec::new();
    for (i, line) in search.iter().enumerate() {
        let substituted = |j: usize| {
            let own: Vec<&str> = words(line).collect();
            words(region[j]).any(|w| !own.contains(&w))
        };
        if let Some(j) =
            file_of[i].filter(|&j| differs_in_content(line, region[j]) && substituted(j))
        {
            damaged_words.extend(
                words(line)
                    .filter(|w| !region_words.contains(w))
                    .map(|w| (i, j, w)),
            );
        }
    }
    for op in ops.iter().filter(|op| !matches!(op, DiffOp::Equal { .. })) {
        let news = &new[op.new_range()];
        let used = news.iter().flat_map(|n| words(n)).find_map(|w| {
            damaged_words
                .iter()
                .find(|(_, _, d)| *d == w)
                .map(|&(i, j, _)| (i, j, w))
        });
        if let Some((search, region, word)) = used {
            return Err(Unmergeable::KeepsDamagedWord {
                search,
                region,
                word: word.to_string(),
            });
        }
        let one_for_one = news.len() == op.old_range().len();
        for (k, i) in op.old_range().enumerate() {
            let Some(j) = file_of[i] else { continue };
            // A line rewritten (not deleted) whose file line is spaced
            // otherwise inside a string: the model's spacing would be
            // written over the file's.
            if !news.is_empty()
                && let Some(literal) = spaced_otherwise(search[i], region[j], || in_string(j))
            {
                return Err(Unmergeable::ChangesStringSpacing {
                    search: i,
                    region: j,
                    literal,
                });
            }
            // A one-for-one span: the line's rewrite is the new line at its place.
            let rewrite = if one_for_one { &news[k..=k] } else { news };
            match damaged_change(search[i], region[j], rewrite, one_for_one) {
                None => {}
                Some(DamagedChange::Deleted) => {
                    return Err(Unmergeable::DeletesDamagedLine {
                        search: i,
                        region: j,
                    });
                }
                Some(DamagedChange::Unclear) => {
                    return Err(Unmergeable::ChangesDamagedLine {
                        search: i,
                        region: j,
                    });
                }
                Some(DamagedChange::KeepsWord(word)) => {
                    return Err(Unmergeable::KeepsDamagedWord {
                        search: i,
                        region: j,
                        word,
                    });
                }
            }
        }
    }
    // A line both sections keep as written whose file line is indented
    // otherwise: the REPLACE text follows the SEARCH text's indentation.
    let kept = ops.iter().any(|op| {
        matches!(op, DiffOp::Equal { .. })
            && op.old_range().any(|i| {
                file_of[i].is_some_and(|j| {
                    !js_trim(search[i]).is_empty() && lead(search[i]) != lead(region[j])
                })
            })
    });
    // Lines inside a string over several lines that the SEARCH text quotes
    // with the file's own spacing say nothing of how the code around them
    // is indented (a tester's find, 37c-02: a string's 8 spaces, kept as 8
    // under a file indented with tabs, took the model's 8-space code line
    // to 8 spaces under a tab): the relation is learnt from the code
    // lines, and a new line inside such a string keeps the model's
    // spacing, which is the file's there.
    let ws = |l: &str| -> String { l.chars().take(lead(l)).collect() };
    let in_strings: Vec<(usize, usize)> = pairs
        .iter()
        .copied()
        .filter(|&(i, j)| !js_trim(search[i]).is_empty() && in_string(j))
        .collect();
    let strings_alike = !in_strings.is_empty()
        && in_strings
            .iter()
            .all(|&(i, j)| ws(search[i]) == ws(region[j]));
    let code_pairs: Vec<(usize, usize)> = pairs
        .iter()
        .copied()
        .filter(|&(i, j)| !(strings_alike && in_strings.contains(&(i, j))))
        .collect();
    let fix = Corrections::new(search, region, replace, &code_pairs, kept, crlf);
    let rewrites = rewritten_from(&ops, |i, k| line_likeness(search[i], &new[k]));
    // Every new line placed in the file's indentation (kept lines too,
    // for the lines after them; the file's own are written for those).
    let mut placed = fix.place(&new);
    // A string over several lines that the model's new text opens (its
    // SEARCH text holds none): the lines inside it are the string's
    // content, written as the model wrote them, white space and all (a
    // tester's find, 37d-01: a new help text's 8 spaces made two tabs).
    let model = new.join("\n");
    let strings = MultilineStrings::new(syntax, &model);
    let old_text = old.join("\n");
    let search_strings = MultilineStrings::new(syntax, &old_text);
    let opens_its_own = !(0..old.len()).any(|i| search_strings.at(i));
    // A docstring's continuation lines move with its opening line as
    // placed, each keeping its place against it, as black or an editor
    // re-indents a docstring with its code: every reader of it strips their
    // common indentation, so it reads the same (tester 42a-11).
    let spans = super::docstring::string_spans(&new);
    let docstring = super::docstring::docstring_content(&spans, new.len());
    if strings_alike || opens_its_own {
        for k in 0..placed.len() {
            if opens_its_own && !strings_alike && strings.at(k) {
                let moved = docstring[k].and_then(|d| {
                    let open = spans.get(d)?.open;
                    let to = placed.get(open)?.as_ref().ok()?;
                    super::docstring::moved_with(&new[open], to, &new[k])
                });
                placed[k] = Ok(moved.unwrap_or_else(|| new[k].clone()));
                continue;
            }
            let slot = &mut placed[k];
            if strings.at(k) && !js_trim(&new[k]).is_empty() {
                let fixed = fix.apply(&new[k]);
                let body: String = fixed.chars().skip(lead(&fixed)).collect();
                *slot = Ok(ws(&new[k]) + &body);
            }
        }
    }
    let mut out: Vec<String> = Vec::with_capacity(region.len() + replace.len());
    // The next file line not yet written.
    let mut next = 0usize;
    // File lines the SEARCH text never showed, from `next` up to `to`.
    let carry = |out: &mut Vec<String>, next: &mut usize, to: usize| {
        while *next < to {
            out.push(region[*next].to_string());
            *next += 1;
        }
    };
    for op in ops {
        let (olds, news) = (op.old_range(), op.new_range());
        let mapped: Vec<usize> = olds.clone().filter_map(|i| file_of[i]).collect();
        if let DiffOp::Equal { .. } = op {
            // Kept lines: the file's own, with any unseen lines between.
            for j in mapped {
                carry(&mut out, &mut next, j);
                out.push(region[j].to_string());
                next = j + 1;
            }
            continue;
        }
        // A changed span: the file lines it covers must all be lines the
        // SEARCH text showed, and an insertion must have one place.
        let (first, last) = match (mapped.first(), mapped.last()) {
            (Some(&a), Some(&b)) => (a, b),
            _ => {
                let to = olds
                    .clone()
                    .chain(olds.end..search.len())
                    .find_map(|i| file_of[i])
                    .unwrap_or(region.len());
                if to > next && !news.is_empty() {
                    return Err(Unmergeable::Unclear);
                }
                (next, next.saturating_sub(1))
            }
        };
        // A line the file does not have, rewritten (a new line resembles
        // it): the file's side took it out (or never had it) and the
        // model's changes it; a merge writing the model's line would put
        // it back. New text that resembles it nowhere replaces it.
        if let Some(i) = olds.clone().find(|&i| {
            file_of[i].is_none()
                && !js_trim(search[i]).is_empty()
                && new[news.clone()].iter().any(|n| paired(search[i], n))
        }) {
            return Err(Unmergeable::ChangesMissingLine { search: i });
        }
        if !mapped.is_empty() {
            let shown = mapped.len();
            if last + 1 - first != shown {
                return Err(Unmergeable::Unclear);
            }
            carry(&mut out, &mut next, first);
            next = last + 1;
        }
        if fix.indent.is_none() && !news.is_empty() {
            return Err(Unmergeable::NoIndentRelation);
        }
        // The file's form of each line the model changes (a TSV row's
        // tabs, a Markdown hard break, the file's en dash), carried into
        // its new line where the model kept those characters.
        let mut lines: Vec<String> = Vec::with_capacity(news.len());
        for k in news.clone() {
            match &placed[k] {
                Ok(line) => lines.push(line.clone()),
                Err(continuation) => {
                    return Err(Unmergeable::UncarriedIndent {
                        replace: k,
                        continuation: *continuation,
                    });
                }
            }
        }
        for (line, k) in lines.iter_mut().zip(news.clone()) {
            let Some(i) = rewrites[k] else { continue };
            let Some(j) = file_of[i].filter(|&j| !differs_in_content(search[i], region[j])) else {
                continue;
            };
            let (base, ours) = (bare(&fix.apply(search[i]).as_str()), bare(&region[j]));
            if base == ours {
                continue;
            }
            let carried = carry_form(&base, &ours, &bare(&line.as_str())).map_err(|c| {
                Unmergeable::ChangesLineForm {
                    search: i,
                    region: j,
                    file: c.file,
                    model: c.model,
                }
            })?;
            *line = if crlf { carried + "\r" } else { carried };
        }
        out.extend(lines);
    }
    carry(&mut out, &mut next, region.len());
    Ok(out)
}

/// The model's change to one line carried onto the file's line when the
/// two differ only in form: `base` the model's old line as the
/// corrections read it (indentation, entities, look-alikes the model
/// invented already put right), `ours` the file's line, `theirs` the
/// model's new line corrected the same way; none with a `\r`. A
/// three-way merge of the characters: what the model changed comes from
/// `theirs`, every character it kept comes from the file (a TSV row's
/// tabs, a Markdown line's two trailing spaces, the file's en dash or
/// curly apostrophe, the spaces inside a raw string the model wrote as
/// one). `Err` names the file's text that stands where the model changes
/// the line (`file` against `model`, as each has it), when the two
/// changes touch and what the line should become cannot be told.
pub fn carry_form(base: &str, ours: &str, theirs: &str) -> Result<String, FormClash> {
    if base == ours {
        return Ok(theirs.to_string());
    }
    if base == theirs {
        return Ok(ours.to_string());
    }
    let (b_lead, b_body, _) = split_space(base);
    let (o_lead, o_body, _) = split_space(ours);
    let (t_lead, t_body, t_trail) = split_space(theirs);
    // The indentation is the re-indentation's to set ([`Corrections`]):
    // the file's where the model kept its own, else the model's.
    let lead = if t_lead == b_lead { o_lead } else { t_lead };
    // Trailing white space is the model's: in most files it is noise an
    // editor strips (the real authors' new lines drop it); where it means
    // something (a Markdown hard break, a diff's line end) the path-aware
    // check carries it ([`super::trailing`]).
    let trail = t_trail;
    let body =
        merge_chars(b_body, o_body, t_body).map_err(|(file, model)| FormClash { file, model })?;
    Ok(format!("{lead}{body}{trail}"))
}

/// Where the file's form and the model's change meet inside a line: the
/// file's text there and the model's old text it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormClash {
    pub file: String,
    pub model: String,
}

/// A line's leading white space, its text, its trailing white space.
fn split_space(line: &str) -> (&str, &str, &str) {
    let body = line.trim_start();
    let lead = &line[..line.len() - body.len()];
    let text = body.trim_end();
    (lead, text, &body[text.len()..])
}

/// For each new line of a line diff's `ops` (old lines to new), the old
/// line it rewrites: within a changed span, the old line and the new one
/// that are each other's most alike (`likeness(old, new)`, a character
/// ratio, at least [`REWRITE_LIKENESS`]; lines moved past each other
/// too); none for a line kept
/// as it was, or one no old line of its span is most alike to (the
/// model's own: an inserted line, a line taking a deleted one's place).
/// Not by place: an edit deleting `title` and changing `subtitle` below it
/// writes `subtitle`'s rewrite, not `title`'s. [`carry_form`] carries the
/// file's form along these pairs. A span over [`REWRITE_SPAN`] lines a
/// side pairs nothing.
pub fn rewritten_from(
    ops: &[DiffOp],
    likeness: impl Fn(usize, usize) -> f32,
) -> Vec<Option<usize>> {
    let mut out = Vec::new();
    for op in ops {
        let (olds, news) = (op.old_range(), op.new_range());
        if let DiffOp::Equal { .. } = op {
            out.extend(news.map(|_| None));
            continue;
        }
        let mut pairs: Vec<Option<usize>> = vec![None; news.len()];
        if olds.len() <= REWRITE_SPAN && news.len() <= REWRITE_SPAN {
            let table: Vec<Vec<f32>> = olds
                .clone()
                .map(|i| news.clone().map(|k| likeness(i, k)).collect())
                .collect();
            let best_new =
                |r: usize| (0..news.len()).max_by(|&x, &y| table[r][x].total_cmp(&table[r][y]));
            let best_old =
                |c: usize| (0..olds.len()).max_by(|&x, &y| table[x][c].total_cmp(&table[y][c]));
            for (c, slot) in pairs.iter_mut().enumerate() {
                let Some(r) = best_old(c) else { continue };
                if best_new(r) == Some(c) && table[r][c] >= REWRITE_LIKENESS {
                    *slot = Some(olds.start + r);
                }
            }
        }
        out.extend(pairs);
    }
    out
}

/// How alike (characters in order, ends trimmed) a new line must be to
/// an old one to be its rewrite ([`rewritten_from`]).
pub const REWRITE_LIKENESS: f32 = 0.6;

/// The most lines a side of a changed span [`rewritten_from`] pairs.
pub const REWRITE_SPAN: usize = 64;

/// [`rewritten_from`]'s likeness of two lines.
pub fn line_likeness(old: &str, new: &str) -> f32 {
    crate::textdiff::TokenDiff::chars(old.trim(), new.trim(), None).ratio()
}

/// `b[from..to]` as text.
fn span_text(b: &[char], from: usize, to: usize) -> String {
    b[from..to].iter().collect()
}

/// The changes from `base` to `other`, each the span of `base`'s
/// characters it replaces (empty: an insertion) and its new text.
fn char_hunks(base: &[char], other: &[char]) -> Vec<(usize, usize, String)> {
    let mut hunks: Vec<(usize, usize, String)> = Vec::new();
    for op in crate::textdiff::ops(base, other, None) {
        if let DiffOp::Equal { .. } = op {
            continue;
        }
        let (old, new) = (op.old_range(), op.new_range());
        let text: String = other[new].iter().collect();
        match hunks.last_mut() {
            Some(last) if last.1 == old.start => {
                last.1 = old.end;
                last.2.push_str(&text);
            }
            _ => hunks.push((old.start, old.end, text)),
        }
    }
    hunks
}

/// [`carry_form`]'s merge of the texts between the white space at the
/// ends: both sides' changes applied to `base` where they neither overlap
/// nor meet at an insertion (two replacements side by side, a tab for a
/// space next to a changed word, are each their own); else the file's
/// text and the base's at the first clash.
fn merge_chars(base: &str, ours: &str, theirs: &str) -> Result<String, (String, String)> {
    let b: Vec<char> = base.chars().collect();
    let o: Vec<char> = ours.chars().collect();
    let t: Vec<char> = theirs.chars().collect();
    let (mut mine, model) = (char_hunks(&b, &o), char_hunks(&b, &t));
    // Where white space the file adds to a run of it goes inside that run
    // is the diff's choice: to its start, away from the word after it.
    for hunk in &mut mine {
        while hunk.0 == hunk.1
            && hunk.0 > 0
            && hunk.2.chars().all(char::is_whitespace)
            && b[hunk.0 - 1].is_whitespace()
            && hunk.2.ends_with(b[hunk.0 - 1])
        {
            let c = b[hunk.0 - 1];
            hunk.2.pop();
            hunk.2.insert(0, c);
            hunk.0 -= 1;
            hunk.1 -= 1;
        }
    }
    // A difference of the file's inside text the model rewrites (its `-`
    // in the words the model deletes, where the file has `–`): the model's
    // new text stands for it.
    let covered = |f: &(usize, usize, String)| {
        model.iter().any(|m| {
            m.0 < m.1 && m.0 <= f.0 && f.1 <= m.1 && (f.0 < f.1 || (m.0 < f.0 && f.0 < m.1))
        })
    };
    mine.retain(|f| !covered(f));
    // Where the file sets words apart with a tab the model typed as a
    // space (a TSV row), new text of the model's holding a space adds a
    // separator whose kind cannot be told (a cell appended `a\tb c`).
    if let Some(tab) = mine
        .iter()
        .find(|f| f.2.contains('\t') && b[f.0..f.1].iter().all(|c| *c == ' '))
        && model.iter().any(|m| m.2.contains(' '))
    {
        return Err((tab.2.clone(), span_text(&b, tab.0, tab.1)));
    }
    let span = |from: usize, to: usize| -> String { b[from..to].iter().collect() };
    for f in &mine {
        for m in &model {
            if f == m {
                continue;
            }
            let overlap = f.0 < m.1 && m.0 < f.1;
            let inserts = f.0 == f.1 || m.0 == m.1;
            let meet = f.0 == m.1 || m.0 == f.1 || f.0 == m.0;
            if overlap || (inserts && meet) {
                return Err((f.2.clone(), span(f.0, f.1)));
            }
        }
    }
    let mut all: Vec<&(usize, usize, String)> = mine.iter().chain(&model).collect();
    all.sort_by_key(|h| (h.0, h.1));
    all.dedup();
    let mut out = String::with_capacity(ours.len() + theirs.len());
    let mut at = 0;
    for (from, to, text) in all {
        out.push_str(&span(at, *from));
        out.push_str(text);
        at = *to;
    }
    out.push_str(&span(at, b.len()));
    Ok(out)
}

/// Whether `line` starts at the column of a word of `prev` past its
/// indentation (after a space or an open bracket), both indented with
/// spaces: aligned with it (a Haskell `let` binding under the one before,
/// a YAML key under the one after `- `, an argument under the one after
/// `(`), not nested. A re-indentation keeps such a line's offset from
/// `prev`: scaling its column would move it off the word. Not after a
/// `prev` ending with an open bracket: the line is that bracket's first
/// (a hanging indent, `h(x, [` then `1,`), under a word of `prev` only by
/// chance.
pub fn lines_up_with_a_word(prev: &str, line: &str) -> bool {
    let (column, from) = (lead(line), lead(prev));
    let spaces = |l: &str| {
        l.chars()
            .take_while(|c| c.is_whitespace())
            .all(|c| c == ' ')
    };
    let chars: Vec<char> = prev.chars().collect();
    column > from
        && spaces(line)
        && spaces(prev)
        && !prev.trim_end().ends_with(['(', '[', '{'])
        && chars
            .get(column)
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '"' | '\'' | '(' | '['))
        && chars
            .get(column - 1)
            .is_some_and(|c| c.is_whitespace() || matches!(c, '(' | '[' | '{'))
}

/// How the file's indentation relates to the SEARCH text's, line for line.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Indent {
    Same,
    /// Every line has this many more (or fewer) leading white-space characters.
    Shift(isize),
    /// Every line has this many times as many (`Scale(2, 1)`: four spaces
    /// where the SEARCH text has two), or a fraction of them.
    Scale(usize, usize),
    /// Each width the SEARCH lines have is the file's own leading white
    /// space at that place ([`Corrections::by_width`]), in the same order
    /// of depth, though no one shift or scale relates them (a recipe's
    /// `\t` and `\t    ` for the SEARCH text's 4 and 8 spaces).
    ByWidth,
}

/// The corrections the SEARCH text needed, applied to the author's new lines.
struct Corrections {
    /// `None`: the REPLACE text follows the SEARCH text's indentation, but
    /// no one relation maps that onto the file's: new lines have no safe
    /// indentation.
    indent: Option<Indent>,
    indent_char: char,
    entities: bool,
    /// Look-alike characters the SEARCH text has and the file does not:
    /// only these are the damage (the file may use others on purpose).
    lookalikes: Vec<char>,
    crlf: bool,
    /// The SEARCH lines' indentations (non-blank lines).
    search_leads: std::collections::BTreeSet<usize>,
    /// For [`Indent::ByWidth`]: the file's leading white space for each
    /// SEARCH width.
    by_width: std::collections::BTreeMap<usize, String>,
}

/// The file's own leading white space for each width of the SEARCH lines
/// paired in `pairs`, when each width has one and deeper SEARCH lines are
/// deeper in the file too; `None` otherwise.
fn widths_to_file(
    search: &[&str],
    region: &[&str],
    pairs: &[(usize, usize)],
) -> Option<std::collections::BTreeMap<usize, String>> {
    let mut map: std::collections::BTreeMap<usize, String> = std::collections::BTreeMap::new();
    for &(i, j) in pairs {
        if js_trim(search[i]).is_empty() || js_trim(region[j]).is_empty() {
            continue;
        }
        let own: String = region[j].chars().take(lead(region[j])).collect();
        if *map.entry(lead(search[i])).or_insert_with(|| own.clone()) != own {
            return None;
        }
    }
    let depths: Vec<usize> = map.values().map(|p| p.chars().count()).collect();
    depths.windows(2).all(|w| w[0] < w[1]).then_some(map)
}

fn lead(l: &str) -> usize {
    l.chars().take_while(|c| c.is_whitespace()).count()
}

/// The one relation between SEARCH and file indentation that every paired
/// non-blank line agrees on, if any.
fn indent_relation(search: &[&str], region: &[&str], pairs: &[(usize, usize)]) -> Option<Indent> {
    let leads: Vec<(usize, usize)> = pairs
        .iter()
        .filter(|&&(i, _)| !js_trim(search[i]).is_empty())
        .map(|&(i, j)| (lead(search[i]), lead(region[j])))
        .collect();
    let Some(&(s0, f0)) = leads.first() else {
        return Some(Indent::Same);
    };
    let shift = f0 as isize - s0 as isize;
    if leads.iter().all(|&(s, f)| f as isize - s as isize == shift) {
        return Some(if shift == 0 {
            Indent::Same
        } else {
            Indent::Shift(shift)
        });
    }
    if leads.iter().any(|&(s, _)| s > 0) {
        for k in 2..=4 {
            if leads.iter().all(|&(s, f)| f == s * k) {
                return Some(Indent::Scale(k, 1));
            }
            if leads.iter().all(|&(s, f)| s == f * k) {
                return Some(Indent::Scale(1, k));
            }
        }
    }
    None
}

impl Corrections {
    /// `kept`: some line kept as written in both sections is indented
    /// unlike its file line.
    fn new(
        search: &[&str],
        region: &[&str],
        replace: &[&str],
        pairs: &[(usize, usize)],
        kept: bool,
        crlf: bool,
    ) -> Self {
        // The REPLACE text follows the SEARCH text's indentation when it
        // keeps some of its lines as written, or when its first line is
        // indented like the SEARCH text's and unlike the file's.
        let first = |lines: &[&str]| {
            lines
                .iter()
                .find(|l| !js_trim(l).is_empty())
                .map(|l| lead(l))
        };
        // Or when its lines use only indentations the SEARCH text has and
        // not only the file's, where the SEARCH text is indented unlike the
        // file (a kept first line at the file's indentation, the changed
        // line below it at the SEARCH text's).
        let leads = |lines: &[&str]| -> std::collections::BTreeSet<usize> {
            lines
                .iter()
                .filter(|l| !js_trim(l).is_empty())
                .map(|l| lead(l))
                .collect()
        };
        // A line continuing a statement (inside brackets, after a `\`)
        // is placed by the line it continues, not at a block's
        // indentation: its column says nothing of which indentation the
        // lines follow.
        let statement_leads = |lines: &[&str]| -> std::collections::BTreeSet<usize> {
            lines
                .iter()
                .zip(continuation_lines(lines))
                .filter(|(l, continues)| !js_trim(l).is_empty() && !continues)
                .map(|(l, _)| lead(l))
                .collect()
        };
        let misindented = pairs
            .iter()
            .any(|&(i, j)| !js_trim(search[i]).is_empty() && lead(search[i]) != lead(region[j]));
        let in_search_leads = || {
            let r = statement_leads(replace);
            !r.is_empty()
                && r.is_subset(&statement_leads(search))
                && !r.is_subset(&statement_leads(region))
        };
        let follows_search =
            kept || {
                let r = first(replace);
                r.is_some() && r == first(search) && r != first(region)
            } || (misindented && in_search_leads());
        let mut by_width = std::collections::BTreeMap::new();
        let indent = if follows_search {
            indent_relation(search, region, pairs).or_else(|| {
                by_width = widths_to_file(search, region, pairs)?;
                Some(Indent::ByWidth)
            })
        } else {
            Some(Indent::Same)
        };
        let indent_char = region
            .iter()
            .find_map(|l| l.chars().next().filter(|c| *c == ' ' || *c == '\t'))
            .unwrap_or(' ');
        let joined_search = search.join("\n");
        let joined_region = region.join("\n");
        Corrections {
            indent,
            indent_char,
            entities: has_entity(&joined_search) && !has_entity(&joined_region),
            lookalikes: {
                let mut damage: Vec<char> = joined_search
                    .chars()
                    .filter(|&c| plain_char(c) != Some(c) && !joined_region.contains(c))
                    .collect();
                damage.sort_unstable();
                damage.dedup();
                damage
            },
            crlf,
            search_leads: leads(search),
            by_width,
        }
    }

    /// [`Self::apply`] for each of the model's new lines `new`, in order,
    /// each placed after the line before it (blank lines passed over);
    /// `Err(continuation)` for a line with no column the file's
    /// indentation carries it to with confidence
    /// ([`Unmergeable::UncarriedIndent`]). Under a scaled indentation:
    /// - a line that lines up with a word of the line before it (Haskell's
    ///   `let` bindings, an argument under the one after an open bracket)
    ///   is aligned, not nested: it keeps its offset from that line, which
    ///   scaling would break (`z` under `y` in `let y = ..` moved past
    ///   it); for a line at a column the SEARCH text has, only when it
    ///   continues a statement ([`continuation_lines`]);
    /// - a continuation at the column of the continuation before it stays
    ///   under that one, wherever that one went;
    /// - any other line is scaled, when its column scales to a whole one.
    fn place(&self, new: &[String]) -> Vec<Result<String, bool>> {
        let continues = continuation_lines(new);
        let mut out = Vec::with_capacity(new.len());
        // The line before (model's text, continues, its placed column).
        let mut prev: Option<(&str, bool, usize)> = None;
        for (line, &continues) in new.iter().zip(&continues) {
            let placed = self.place_after(prev, line, continues);
            if let Ok(placed) = &placed
                && !js_trim(line).is_empty()
            {
                prev = Some((line, continues, lead(placed)));
            } else if placed.is_err() {
                prev = None;
            }
            out.push(placed);
        }
        out
    }

    /// [`Self::place`] for one line after `prev`.
    fn place_after(
        &self,
        prev: Option<(&str, bool, usize)>,
        line: &str,
        continues: bool,
    ) -> Result<String, bool> {
        let fixed = self.apply(line);
        if self.indent == Some(Indent::ByWidth)
            && !js_trim(line).is_empty()
            && !self.by_width.contains_key(&lead(line))
        {
            // A width no SEARCH line has: the file's for it is unknown.
            return Err(continues);
        }
        let Some(Indent::Scale(up, down)) = self.indent else {
            return Ok(fixed);
        };
        if js_trim(line).is_empty() {
            return Ok(fixed);
        }
        let column = lead(line);
        let body: String = fixed.chars().skip(lead(&fixed)).collect();
        let at = |want: usize| -> String {
            std::iter::repeat_n(self.indent_char, want).collect::<String>() + &body
        };
        if let Some((prev, prev_continues, placed)) = prev {
            let own_column = self.search_leads.contains(&column) && !continues;
            if !own_column && lines_up_with_a_word(prev, line) {
                if self.indent_char != ' ' {
                    // Lined up with spaces in a file indented with tabs:
                    // a continuation's place cannot be told; other lines
                    // are scaled as before.
                    if continues {
                        return Err(true);
                    }
                } else {
                    return Ok(at(placed + (column - lead(prev))));
                }
            }
            if continues && prev_continues && column == lead(prev) {
                return Ok(at(placed));
            }
        }
        if !(column * up).is_multiple_of(down) {
            return Err(continues);
        }
        Ok(fixed)
    }

    fn apply(&self, line: &str) -> String {
        let mut l = line.trim_end_matches('\r').to_string();
        if self.entities {
            l = unescape_entities(&l);
        }
        if !self.lookalikes.is_empty() {
            l = l
                .chars()
                .filter_map(|c| {
                    if self.lookalikes.contains(&c) {
                        plain_char(c)
                    } else {
                        Some(c)
                    }
                })
                .collect();
        }
        if self.indent == Some(Indent::ByWidth)
            && let Some(own) = self.by_width.get(&lead(&l))
        {
            let body: String = l.chars().skip(lead(&l)).collect();
            l = own.clone() + &body;
        } else if !js_trim(&l).is_empty() {
            let have = lead(&l);
            let want = match self.indent.unwrap_or(Indent::Same) {
                Indent::Same => have,
                Indent::Shift(d) => (have as isize + d).max(0) as usize,
                Indent::Scale(up, down) => have * up / down,
                Indent::ByWidth => have,
            };
            if want != have {
                let body: String = l.chars().skip(have).collect();
                let pad: String = std::iter::repeat_n(self.indent_char, want).collect();
                l = pad + &body;
            }
        }
        if self.crlf {
            l.push('\r');
        }
        l
    }
}

#[cfg(test)]
mod tests {
    use super::{
        MultilineStrings, StringSyntax, Unmergeable, merge, spaced_otherwise,
        spaced_otherwise_in_string,
    };

    #[test]
    fn lines_inside_a_bracket_opened_before_them_are_counted() {
        use super::opened_before;
        // The arguments ending a call, then code after it.
        assert_eq!(
            opened_before(&["  id(self),", "  MAP[x])", "", "def f():"]),
            2
        );
        assert_eq!(opened_before(&["  a,", "  b,", ")", "x = 1"]), 3);
        // Balanced, or brackets opened and left open: none.
        assert_eq!(opened_before(&["f(a,", "  b)", "x = [1]"]), 0);
        assert_eq!(opened_before(&["x = f(", "  a,"]), 0);
        // In quotes or a comment: no bracket.
        assert_eq!(opened_before(&["x = ')'", "y = 1  # )"]), 0);
    }

    fn m(search: &[&str], region: &[&str], replace: &[&str]) -> Result<Vec<String>, Unmergeable> {
        merge(
            search,
            region,
            replace,
            false,
            &|_| false,
            StringSyntax::Other,
        )
    }

    /// Each case: what it shows, the file's region, the SEARCH lines, the
    /// REPLACE lines, and the merged lines.
    type Case<'a> = (
        &'a str,
        &'a [&'a str],
        &'a [&'a str],
        &'a [&'a str],
        &'a [&'a str],
    );

    #[test]
    fn the_edit_is_carried_onto_the_files_lines() {
        let cases: [Case; 4] = [
            (
                "lines the SEARCH left out stay",
                &[
                    "def sell(self):",
                    "    if low:",
                    "        return False",
                    "    self.qty -= 1",
                    "    return True",
                ],
                &["def sell(self):", "    self.qty -= 1", "    return True"],
                &[
                    "def sell(self):",
                    "    self.qty -= 1",
                    "    self.log()",
                    "    return True",
                ],
                &[
                    "def sell(self):",
                    "    if low:",
                    "        return False",
                    "    self.qty -= 1",
                    "    self.log()",
                    "    return True",
                ],
            ),
            (
                "a typo kept in both sections is not written back",
                &["raise ValueError(item.sku)", "items.append(item)"],
                &["raise ValueError(item.sk)", "items.append(item)"],
                &[
                    "raise ValueError(item.sk)",
                    "items.append(item)",
                    "count += 1",
                ],
                &[
                    "raise ValueError(item.sku)",
                    "items.append(item)",
                    "count += 1",
                ],
            ),
            (
                "a shifted block is shifted back",
                &["    if x:", "        y()"],
                &["  if x:", "      y()"],
                &["  if x:", "      z()"],
                &["    if x:", "        z()"],
            ),
            (
                "a halved indentation is doubled back",
                &["    def f():", "        x()"],
                &["  def f():", "    x()"],
                &["  def f():", "    y()", "    z()"],
                &["    def f():", "        y()", "        z()"],
            ),
        ];
        for (what, file, search, replace, want) in cases {
            assert_eq!(m(search, file, replace).expect(what), want, "{what}");
        }
    }

    #[test]
    fn lines_inside_a_string_over_several_lines_are_told() {
        let text = "A = \"\"\"\\\nName:  {n}\n\"\"\"\nB = 1\nC = `x\ny`\n";
        let strings = MultilineStrings::new(StringSyntax::Other, text);
        let inside: Vec<bool> = (0..6).map(|l| strings.at(l)).collect();
        assert_eq!(inside, [false, true, true, false, false, true]);
        // Asked out of order, or past the end: read again from the start.
        let strings = MultilineStrings::new(StringSyntax::Other, text);
        let inside: Vec<bool> = [5, 1, 3, 2, 9].iter().map(|&l| strings.at(l)).collect();
        assert_eq!(inside, [true, true, false, true, false]);
        assert_eq!(
            spaced_otherwise("Name: {n}", "Name:  {n}", || true),
            Some("`Name:  {n}`".to_string())
        );
        assert_eq!(spaced_otherwise("Name: {n}", "Name:  {n}", || false), None);
        assert_eq!(spaced_otherwise("Name: {n}", "Name: {m}", || true), None);
    }

    /// A tester's find (37c-02): a tab-indented file holding a string
    /// over several lines whose lines the SEARCH text spaces as the file
    /// does (8 spaces): the string taught "8 spaces stay 8", and the
    /// model's 8-space code line went under a tab with 8 spaces (TabError).
    /// The code lines teach a tab for 4 spaces, the code line goes two tabs
    /// deep, and a new line inside the string keeps the model's spaces.
    #[test]
    fn a_string_over_several_lines_does_not_teach_the_indentation() {
        let file = [
            "def u():",
            "\tt = \"\"\"",
            "        a",
            "        \"\"\"",
            "\treturn t",
        ];
        let search = [
            "def u():",
            "    t = \"\"\"",
            "        a",
            "        \"\"\"",
            "    return t",
        ];
        let replace = [
            "def u():",
            "    t = \"\"\"",
            "        a",
            "        b",
            "        \"\"\"",
            "    if not t:",
            "        t = 1",
            "    return t",
        ];
        let in_string = |j: usize| j == 2 || j == 3;
        assert_eq!(
            merge(
                &search,
                &file,
                &replace,
                false,
                &in_string,
                StringSyntax::Other
            )
            .expect("merged"),
            [
                "def u():",
                "\tt = \"\"\"",
                "        a",
                "        b",
                "        \"\"\"",
                "\tif not t:",
                "\t\tt = 1",
                "\treturn t"
            ]
        );
    }

    #[test]
    fn entities_and_crlf_in_new_lines_follow_the_file() {
        let file = ["if a < b {\r"];
        let search = ["if a &lt; b {"];
        let replace = ["if a &lt;= b {"];
        assert_eq!(
            merge(
                &search,
                &file,
                &replace,
                true,
                &|_| false,
                StringSyntax::Other
            )
            .expect("merges"),
            ["if a <= b {\r"]
        );
    }

    #[test]
    fn a_change_around_an_unseen_line_is_not_guessed() {
        let file = ["a", "b", "c"];
        assert_eq!(m(&["a", "c"], &file, &["x"]), Err(Unmergeable::Unclear));
        // An insertion between two kept lines with an unseen line there.
        assert_eq!(
            m(&["a", "c"], &file, &["a", "n", "c"]),
            Err(Unmergeable::Unclear)
        );
        // A change next to (not around) it is fine: the unseen line stays.
        assert_eq!(
            m(&["a", "c"], &file, &["a", "x"]).expect("merges"),
            ["a", "b", "x"]
        );
    }

    /// The author's new lines hold a file line the SEARCH text left out:
    /// carried as is, the result would hold it twice.
    #[test]
    fn a_new_line_repeating_an_unseen_line_is_not_merged() {
        let file = ["let x = 1;", "let y = 2;", "x + y"];
        assert_eq!(
            m(
                &["let x = 1;", "x + y"],
                &file,
                &["let x = 10;", "let y = 2;", "x + y"]
            ),
            Err(Unmergeable::RepeatsUnseenLine { region: 1 })
        );
        // Spacing apart, the same line.
        assert_eq!(
            m(
                &["let x = 1;", "x + y"],
                &file,
                &["let x = 10;", "let  y = 2 ;", "x + y"]
            ),
            Err(Unmergeable::RepeatsUnseenLine { region: 1 })
        );
        // Another new line next to the unseen one merges as before.
        assert_eq!(
            m(&["let x = 1;", "x + y"], &file, &["let x = 10;", "x + y"]).expect("merges"),
            ["let x = 10;", "let y = 2;", "x + y"]
        );
    }

    /// A damaged line (its file line has other words) the author deletes,
    /// or rewrites keeping a damaged word: the merge cannot know what the
    /// file's line should become.
    #[test]
    fn a_deleted_or_still_damaged_line_is_not_merged() {
        let file = [
            "    for o in orders:",
            "        total_amount += o.price * o.qty",
            "    return total_amount",
        ];
        let search = [
            "    for o in orders:",
            "        total += o.price * o.qty",
            "    return total_amount",
        ];
        let changed = [
            "    for o in orders:",
            "        total += o.price * o.qty * (1 - o.discount)",
            "    return total_amount",
        ];
        assert_eq!(
            m(&search, &file, &changed),
            Err(Unmergeable::KeepsDamagedWord {
                search: 1,
                region: 1,
                word: "total".into()
            }),
            "changed"
        );
        let deleted = Err(Unmergeable::DeletesDamagedLine {
            search: 1,
            region: 1,
        });
        let without = ["    for o in orders:", "    return total_amount"];
        assert_eq!(m(&search, &file, &without), deleted, "deleted");
        assert_eq!(m(&search, &file, &[]), deleted, "all deleted");
        assert_eq!(
            m(&search, &file, &["    pass"]),
            deleted,
            "replaced by unlike lines"
        );
        // One line, a misspelt name.
        assert_eq!(
            m(
                &["    if (alphx > 0) { total += alphx; }"],
                &["    if (alpha > 0) { total += alpha; }"],
                &["    if (alphx > 1) { total += alphx; }"],
            ),
            Err(Unmergeable::KeepsDamagedWord {
                search: 0,
                region: 0,
                word: "alphx".into()
            })
        );
        // Damage in punctuation only: whether the rewrite keeps it is unknown.
        assert_eq!(
            m(&["if a < b {"], &["if a <= b {"], &["if a < b + 1 {"]),
            Err(Unmergeable::ChangesDamagedLine {
                search: 0,
                region: 0
            })
        );
        // Kept as written, the damaged line is the file's own: fine.
        let added = [
            "    for o in orders:",
            "        total += o.price * o.qty",
            "        count += 1",
            "    return total_amount",
        ];
        assert_eq!(
            m(&search, &file, &added).expect("merges")[1],
            "        total_amount += o.price * o.qty"
        );
    }

    /// A rewrite that drops every damaged word is the author's own text.
    #[test]
    fn a_rewrite_without_the_damaged_words_is_merged() {
        assert_eq!(
            m(
                &["def span(a, b):", "    reslt = b - a"],
                &["def span(a, b):", "    result = b - a"],
                &["def span(a, b):", "    result = abs(b - a)"],
            )
            .expect("merges"),
            ["def span(a, b):", "    result = abs(b - a)"]
        );
    }

    /// White space, look-alikes and entities are damage the merge repairs
    /// in new lines: a changed line with only those stays mergeable.
    #[test]
    fn a_changed_line_differing_in_space_or_lookalikes_merges() {
        let cases: [Case; 3] = [
            (
                "indentation and trailing space",
                &["    x = 1"],
                &["  x = 1  "],
                &["  x = 2"],
                &["    x = 2"],
            ),
            (
                "curly quotes and a non-breaking space",
                &["say(\"hi\")"],
                &["say(\u{201C}hi\u{201D})\u{a0}"],
                &["say(\u{201C}bye\u{201D})"],
                &["say(\"bye\")"],
            ),
            (
                "a dash",
                &["a - b"],
                &["a \u{2014} b"],
                &["a \u{2014} c"],
                &["a - c"],
            ),
        ];
        for (what, file, search, replace, want) in cases {
            assert_eq!(m(search, file, replace).expect(what), want, "{what}");
        }
    }

    #[test]
    fn white_space_inside_a_string_literal_is_told_apart() {
        let told = |search: &str, file: &str| spaced_otherwise_in_string(search, file);
        // Indentation and the spacing between tokens: not a string's.
        assert_eq!(told("  x = f( 'a b' )", "    x = f('a b')"), None);
        assert_eq!(told("x = 1", "x = 1"), None);
        // Other content: not this check's.
        assert_eq!(told("x = 'a  b'", "y = 'a b'"), None);
        // Inside the literal, each quote kind, an escaped quote before it.
        assert_eq!(
            told(
                "print(\"Total: %8.2f\" % t)",
                "print(\"Total:    %8.2f\" % t)"
            ),
            Some("`Total:    %8.2f`".to_string())
        );
        assert_eq!(told("s = 'a b'", "s = 'a  b'"), Some("`a  b`".to_string()));
        assert_eq!(
            told("s = `x\\` y`", "s = `x\\`  y`"),
            Some("`x\\`  y`".to_string())
        );
        // A changed line whose file line is spaced otherwise in a string:
        // no merge; kept as context: the file's own line.
        assert_eq!(
            m(&["say('a b')"], &["say('a  b')"], &["say('a b c')"]),
            Err(Unmergeable::ChangesStringSpacing {
                search: 0,
                region: 0,
                literal: "`a  b`".to_string()
            })
        );
        assert_eq!(
            m(
                &["say('a b')", "x = 1"],
                &["say('a  b')", "x = 1"],
                &["say('a b')", "x = 2"]
            ),
            Ok(vec!["say('a  b')".to_string(), "x = 2".to_string()])
        );
    }

    /// The file's form (base: the model's old line, ours: the file's,
    /// theirs: the model's new line) is kept where the model kept the text;
    /// where the two changes meet, the file's text and the model's are
    /// named. Each case: what, base, ours, theirs, the result.
    #[test]
    fn the_files_form_is_carried_where_the_model_kept_the_text() {
        use super::{FormClash, carry_form};
        let clash = |file: &str, model: &str| {
            Err(FormClash {
                file: file.into(),
                model: model.into(),
            })
        };
        type Case<'a> = (
            &'a str,
            &'a str,
            &'a str,
            &'a str,
            Result<String, FormClash>,
        );
        let cases: [Case; 8] = [
            ("same form", "a = 1", "a = 1", "a = 2", Ok("a = 2".into())),
            (
                "tabs",
                "apple 3 1.20",
                "apple\t3\t1.20",
                "apple 4 1.20",
                Ok("apple\t4\t1.20".into()),
            ),
            (
                "trailing white space is the model's",
                "42 Main Street",
                "42 Main Street  ",
                "42 Main Road",
                Ok("42 Main Road".into()),
            ),
            (
                "run of spaces",
                "Version: 1.0",
                "Version:  1.0",
                "Version: 2.0",
                Ok("Version:  2.0".into()),
            ),
            (
                "dash deleted with its words",
                "return b - a",
                "return b \u{2013} a",
                "return a",
                Ok("return a".into()),
            ),
            (
                "a cell added by the tab",
                "apple 3 1.20",
                "apple\t3\t1.20",
                "apple 3 x 1.20",
                clash("\t", " "),
            ),
            (
                "the model's own trailing space",
                "x",
                "x  ",
                "y ",
                Ok("y ".into()),
            ),
            (
                "the model's own indentation",
                "  a = 1",
                "    a = 1",
                "      a = 2",
                Ok("      a = 2".into()),
            ),
        ];
        for (what, base, ours, theirs, want) in cases {
            assert_eq!(carry_form(base, ours, theirs), want, "{what}");
        }
    }

    /// A line lined up with a word of the line before, and lines that
    /// are not (nested under it, or indented with tabs).
    #[test]
    fn a_line_under_a_word_of_the_line_before_is_aligned() {
        use super::lines_up_with_a_word;
        assert!(lines_up_with_a_word(
            "    let y = x * 2",
            "        z = y + 1"
        ));
        assert!(lines_up_with_a_word(
            "      - run: make",
            "        name: Build"
        ));
        assert!(lines_up_with_a_word("  x = f(a,", "        b)"));
        assert!(!lines_up_with_a_word("  if x:", "    y()"));
        assert!(!lines_up_with_a_word("\tlet y = 1", "\t    z = 2"));
        assert!(!lines_up_with_a_word("    a", "  b"));
        // A hanging indent under an opener ending with its bracket.
        assert!(!lines_up_with_a_word("    h(x, [", "      1,"));
    }
}
