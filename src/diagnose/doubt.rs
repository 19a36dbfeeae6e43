//! Whether srview can stand behind the place of each block the engine
//! applied, and behind a diff that is complete: what the previewer asks
//! about before it writes, and what `apply --write` refuses without
//! `--force`.

use super::{BlockDiagnosis, Reason, Status};
use crate::engine::Stage;

/// Why an applied block's place is in doubt. The engine's block-anchor
/// fallback placed it by its first and last lines only, so what it
/// replaces was never compared with its SEARCH text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceDoubt {
    /// The SEARCH text is clearly closer to another region: the edit lands
    /// at the wrong place.
    WrongPlace,
    /// Other places fit about as well: the reference took the first.
    Guess,
    /// The middle lines it replaces were not compared.
    Unseen,
    /// It matches only before an earlier block's edit, on lines that edit
    /// changes: the reference applies both, repeating or losing text.
    OutOfOrder,
    /// It matched inside a longer line.
    InsideLine,
    /// Its SEARCH text occurs at other places too: the reference took the
    /// first, which may not be the one meant.
    Repeated,
    /// Its block structure is not what it looks like (a marker-like line,
    /// a separator in its text).
    Malformed,
    /// The reference dropped it (its REPLACE section cut by the next
    /// SEARCH marker, or never reaching a separator): its edit is lost.
    Dropped,
    /// A whitespace-blind stage placed it, and its new lines keep the
    /// SEARCH text's indentation: they are shifted against the lines they
    /// replace.
    Shifted,
    /// Its REPLACE text already stands where it matched: applied again,
    /// its new lines repeat.
    AlreadyApplied,
}

impl PlaceDoubt {
    /// The word the block list flags the block with.
    pub fn flag(self) -> &'static str {
        match self {
            PlaceDoubt::WrongPlace => "wrong place?",
            PlaceDoubt::Guess => "guess",
            PlaceDoubt::Unseen => "unseen lines",
            PlaceDoubt::OutOfOrder => "out of order",
            PlaceDoubt::InsideLine => "inside a line",
            PlaceDoubt::Repeated => "repeated",
            PlaceDoubt::Dropped => "dropped",
            PlaceDoubt::Malformed => "malformed",
            PlaceDoubt::Shifted => "shifts indent",
            PlaceDoubt::AlreadyApplied => "applied already?",
        }
    }
}

/// Whether `d`, a block the engine applied, went where its diagnosis
/// cannot vouch for (`None`: its place was compared line by line).
pub fn place_doubt(d: &BlockDiagnosis) -> Option<PlaceDoubt> {
    if d.state == Status::Dropped {
        return Some(PlaceDoubt::Dropped);
    }
    if d.state != Status::Applied {
        return None;
    }
    if d.reason == Some(Reason::AlreadyApplied) {
        Some(PlaceDoubt::AlreadyApplied)
    } else if d.shift.is_some() {
        Some(PlaceDoubt::Shifted)
    } else if d.misplaced {
        Some(PlaceDoubt::WrongPlace)
    } else if d.risky && (d.out_of_order || d.stage == Some(Stage::WholeFile)) {
        Some(PlaceDoubt::OutOfOrder)
    } else if d.reason == Some(Reason::PartialLine) {
        Some(PlaceDoubt::InsideLine)
    } else if d.reason == Some(Reason::Ambiguous) {
        Some(PlaceDoubt::Repeated)
    } else if d.reason.is_some_and(Reason::is_malformed) {
        Some(PlaceDoubt::Malformed)
    } else if d.stage != Some(Stage::BlockAnchor) {
        None
    } else if d.tie.is_some() {
        Some(PlaceDoubt::Guess)
    } else if d.risky {
        Some(PlaceDoubt::Unseen)
    } else {
        None
    }
}

/// Why block `d` is in doubt, in one sentence without a final stop:
/// "block #1 matched by its first and last lines only at lines 15-20; its
/// SEARCH text is closest to lines 29-34".
pub fn doubt_sentence(d: &BlockDiagnosis, doubt: PlaceDoubt) -> String {
    format!("block #{} {}", d.index + 1, doubt_clause(d, doubt))
}

/// [`doubt_sentence`] without its "block #N ": "matched at line 2, and ...".
pub fn doubt_clause(d: &BlockDiagnosis, doubt: PlaceDoubt) -> String {
    use crate::words::line_range;
    let at = d
        .matched_lines
        .map(|m| format!(" at {}", line_range("line", m[0], m[1])))
        .unwrap_or_default();
    let head = match doubt {
        PlaceDoubt::OutOfOrder => {
            return format!(
                "matches only before an earlier block's edit{at}, on lines that edit changes: applying both repeats or loses text"
            );
        }
        PlaceDoubt::InsideLine => {
            return format!(
                "matched inside a longer line{at}: the reference matches text, not whole lines"
            );
        }
        PlaceDoubt::Repeated => {
            let others: Vec<String> = d
                .differences
                .iter()
                .filter(|x| x.kind == super::DifferenceKind::OtherOccurrence)
                .filter_map(|x| x.file_line.map(|l| l.to_string()))
                .collect();
            return format!(
                "matched{at}, and its SEARCH text occurs again at {} {}: the \
                 reference took the first, which may not be the one meant",
                if others.len() == 1 { "line" } else { "lines" },
                others.join(", ")
            );
        }
        PlaceDoubt::Dropped => {
            let why = d
                .reason
                .map_or("its structure is unusual", |r| r.describe());
            return format!(
                "never took effect ({why}): the reference dropped it, and its edit would be lost"
            );
        }
        PlaceDoubt::Shifted => {
            let how = d.shift.map(|s| s.describe()).unwrap_or_default();
            return format!("matched only with white space ignored{at}, and {how}");
        }
        PlaceDoubt::AlreadyApplied => {
            let there = d
                .already
                .map(|[a, b]| format!(" ({})", line_range("line", a, b)))
                .unwrap_or_default();
            return format!(
                "matched{at}, but the REPLACE text is already there{there}: this looks applied \
                 already, and applied again its new lines repeat"
            );
        }
        PlaceDoubt::Malformed => {
            let why = d
                .reason
                .map_or("its structure is unusual", |r| r.describe());
            return format!("applied, but not as it reads: {why}");
        }
        _ => format!("matched by its first and last lines only{at}"),
    };
    let why = match (doubt, d.closest, d.tie) {
        (PlaceDoubt::WrongPlace, Some(c), _) => format!(
            "its SEARCH text is closest to {}",
            line_range("line", c.start_line, c.end_line)
        ),
        (PlaceDoubt::Guess, _, Some([a, b])) => format!(
            "{} and {} fit about equally well, so the place is a guess",
            line_range("line", a.start_line, a.end_line),
            line_range("line", b.start_line, b.end_line)
        ),
        (PlaceDoubt::WrongPlace, ..) => "the edit lands at the wrong place".into(),
        (PlaceDoubt::Guess, ..) => "the place is a guess".into(),
        (PlaceDoubt::Unseen, ..) => "the lines between were replaced without being compared".into(),
        _ => String::new(),
    };
    format!("{head}; {why}")
}

/// The 1-based number of the diff's last block when it has not reached its
/// REPLACE end marker (a SEARCH marker or a separator came last).
pub fn unfinished_block(diff: &str) -> Option<usize> {
    use crate::engine::markers::{is_replace_end, is_search_start};
    let mut blocks = 0;
    let mut open = false;
    for line in diff.lines() {
        if is_search_start(line) {
            blocks += 1;
            open = true;
        } else if is_replace_end(line) {
            open = false;
        }
    }
    (open && blocks > 0).then_some(blocks)
}

/// Whether a REPLACE text spans several lines. Matched after part of a
/// line's indentation, only its first line lands after the rest of it, so
/// the new lines' indentation disagrees.
pub fn replaces_several_lines(replace: &str) -> bool {
    replace.trim_end().contains('\n')
}

/// Whether a diff still arriving ends in the start of a SEARCH marker
/// (`------- SEA`, no newline yet): another block may be beginning.
pub fn block_beginning(diff: &str) -> bool {
    let tail = diff.rsplit('\n').next().unwrap_or_default();
    crate::engine::markers::could_become_search_start(tail)
}

/// Why writing the final result of `diff`, diagnosed as `diagnoses`, is in
/// doubt: one sentence per reason (a block cut off before its end marker,
/// each block whose place its diagnosis cannot vouch for); empty when
/// srview stands behind it.
pub fn write_doubts(diff: &str, diagnoses: &[BlockDiagnosis]) -> Vec<String> {
    let mut out = Vec::new();
    let unfinished = unfinished_block(diff);
    if let Some(n) = unfinished {
        out.push(format!(
            "block #{n} has no +++++++ REPLACE end marker (is the diff cut off?): what \
             would be written stops where the diff does"
        ));
    }
    for d in diagnoses {
        match place_doubt(d) {
            // The cut-off block: said above.
            Some(PlaceDoubt::Malformed | PlaceDoubt::Dropped)
                if unfinished == Some(d.index + 1) => {}
            Some(doubt) => out.push(doubt_sentence(d, doubt)),
            None => {}
        }
    }
    out
}

/// Everything `apply --write` holds a result back for, and `check` exits 1
/// for: [`write_doubts`], a result that [`mixes_line_endings`], and the
/// exact-string trust checks ([`super::doubt_exact`]: a block standing in
/// for lines it leaves out, or writing the lines around it twice; the
/// result leaving Python misindented, said only when nothing else is; the
/// result adding bidirectional controls or zero-width characters).
/// `path`: the file, as named (its extension tells Python); `blocks`: the
/// engine's reports of the final apply; `result`: the new content of
/// `diff` over `original`, in pieces.
pub fn held_back<'a>(
    path: &str,
    diff: &str,
    diagnoses: &[BlockDiagnosis],
    blocks: &[crate::engine::BlockReport],
    original: &str,
    result: impl IntoIterator<Item = &'a str>,
) -> Vec<String> {
    let mut doubts = write_doubts(diff, diagnoses);
    let pieces: Vec<&str> = result.into_iter().collect();
    if let Some(file) = mixed_endings(original, pieces.iter().copied()) {
        doubts.push(mixed_line_endings(file).to_string());
    }
    // Python's reading of the result only when nothing else is in doubt.
    if doubts.is_empty() {
        doubts.extend(super::doubt_exact::exact_doubts(
            path,
            original,
            blocks,
            || pieces.concat(),
        ));
    } else {
        let placed = super::doubt_exact::block_doubts(path, original, blocks);
        // What a loosely placed block's result does to the file is said
        // too, not only that it was placed loosely (a tester's find: the
        // previewer and the agents' JSON said the brackets left open or
        // the IndentationError, `check` on the blocks did not).
        if placed.is_empty() && super::layout::result_read(path, original) {
            doubts.extend(
                super::doubt_exact::result_misindents(path, original, &pieces.concat())
                    .map(|(_, sentence)| sentence),
            );
        }
        doubts.extend(placed);
        if super::doubt_exact::adds_hidden(blocks) {
            doubts.extend(super::doubt_exact::hidden_doubt(
                original,
                pieces.iter().copied(),
            ));
        }
    }
    doubts
}

/// A line ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `\r\n`.
    Crlf,
    /// A bare `\n`.
    Lf,
}

/// The line ending of `original` that writing `result` (in pieces) over it
/// would mix another into, or `None`: `original`'s lines mostly end in one
/// kind (CRLF or LF, as the previewer reads a file), and `result` has more
/// lines ending in the other kind than it had, and still some of its own
/// (the reference writes a diff's LF lines into a CRLF file as they are;
/// an edit's CRLF lines land in an LF file as they are). A file already
/// mixed the same way, or one without a line ending, is no new mix. A
/// whole content in the other ending is said too: every line's ending
/// rewritten is a change the edit does not show (held back before this
/// rule served both directions, and kept so).
pub fn mixed_endings<'a>(
    original: &str,
    result: impl IntoIterator<Item = &'a str>,
) -> Option<Ending> {
    let crlf = memchr::memmem::find_iter(original.as_bytes(), b"\r\n").count();
    let lf = bare_lfs(std::iter::once(original), usize::MAX);
    let (file, other, had) = if crlf > lf {
        (Ending::Crlf, Ending::Lf, lf)
    } else if lf > crlf {
        (Ending::Lf, Ending::Crlf, crlf)
    } else {
        return None;
    };
    // Counting stops once past what the original had of the other ending
    // with one line of the file's own.
    let mut counts = [0usize; 2];
    let slot = |e: Ending| usize::from(e == Ending::Crlf);
    let mut last = 0u8;
    'pieces: for piece in result {
        let bytes = piece.as_bytes();
        for at in memchr::memchr_iter(b'\n', bytes) {
            let before = if at == 0 { last } else { bytes[at - 1] };
            let ending = if before == b'\r' {
                Ending::Crlf
            } else {
                Ending::Lf
            };
            counts[slot(ending)] += 1;
            if counts[slot(other)] > had {
                break 'pieces;
            }
        }
        if let Some(&b) = bytes.last() {
            last = b;
        }
    }
    (counts[slot(other)] > had).then_some(file)
}

/// Whether writing `result` (in pieces) over `original` would mix line
/// endings ([`mixed_endings`]).
pub fn mixes_line_endings<'a>(original: &str, result: impl IntoIterator<Item = &'a str>) -> bool {
    mixed_endings(original, result).is_some()
}

/// What [`write_doubts`] says of a result that mixes LF lines into a CRLF
/// file ([`mixed_endings`]).
pub const MIXED_LINE_ENDINGS: &str = "the result mixes line endings: the file's lines end in \
     CRLF, the edit's new lines in LF (the reference writes them as they are)";

/// The same of a result that mixes CRLF lines into an LF file.
pub const MIXED_LINE_ENDINGS_LF: &str = "the result mixes line endings: the file's lines end in \
     LF, the edit's new lines in CRLF (the reference writes them as they are)";

/// The sentence for a result mixing other lines into a file whose lines
/// end in `file` ([`mixed_endings`]).
pub fn mixed_line_endings(file: Ending) -> &'static str {
    match file {
        Ending::Crlf => MIXED_LINE_ENDINGS,
        Ending::Lf => MIXED_LINE_ENDINGS_LF,
    }
}

/// What [`endings_doubt`] finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndingsFault {
    /// Lines outside the edit get another ending: the file mixed CRLF and
    /// LF, and the writer ends every line with one of them.
    Outside,
    /// The result's lines end otherwise than the file's: new lines of the
    /// other ending mixed in, every line converted, or a CR doubled.
    Mixes,
}

/// Lines ending in CRLF and lines ending in a bare LF.
pub fn ending_counts(text: &str) -> (usize, usize) {
    let crlf = memchr::memmem::find_iter(text.as_bytes(), b"\r\n").count();
    (crlf, crate::dialect::quick::count_newlines(text) - crlf)
}

/// The lines of `original` (1-based) that `result` keeps, text for text,
/// before and after what changed, whose line ending it changes: the lines
/// outside the edit that an agent writing every line with one ending
/// rewrites. Lines between two changed places are not told apart from
/// the change.
pub fn endings_changed_outside(original: &str, result: &str) -> Vec<usize> {
    let split = |text: &str| -> Vec<(String, bool)> {
        text.split_inclusive('\n')
            .map(|line| match line.strip_suffix("\r\n") {
                Some(body) => (body.to_string(), true),
                None => (line.strip_suffix('\n').unwrap_or(line).to_string(), false),
            })
            .collect()
    };
    let (old, new) = (split(original), split(result));
    let same = |a: &(String, bool), b: &(String, bool)| a.0 == b.0;
    let head = old.iter().zip(&new).take_while(|(a, b)| same(a, b)).count();
    let room = old.len().min(new.len()) - head;
    let tail = (old.iter().rev())
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| same(a, b))
        .count();
    // A last line without a line ending has none to change.
    let ended = |i: usize| i + 1 < old.len() || original.ends_with('\n');
    let mut out: Vec<usize> = (0..head)
        .filter(|&i| old[i].1 != new[i].1 && ended(i))
        .map(|i| i + 1)
        .collect();
    out.extend(
        (0..tail)
            .rev()
            .map(|k| (old.len() - 1 - k, new.len() - 1 - k))
            .filter(|&(i, j)| old[i].1 != new[j].1 && ended(i))
            .map(|(i, _)| i + 1),
    );
    out
}

/// Line numbers as a sentence lists them: `line 2`, `lines 1, 3`, the
/// first five and `...` past them.
fn line_list(lines: &[usize]) -> String {
    let shown: Vec<String> = lines.iter().take(5).map(usize::to_string).collect();
    let more = if lines.len() > 5 { ", ..." } else { "" };
    let noun = if lines.len() == 1 { "line" } else { "lines" };
    format!("{noun} {}{more}", shown.join(", "))
}

/// What an agent's write of `result` over `original` does to the file's
/// line endings, judged on what the agent writes (each agent ends lines
/// its own way: Claude Code and pi end every line of a mixed file with
/// one ending, Gemini CLI and Qwen Code with CRLF when the file holds
/// any, OpenCode keeps each line's): `None` when every line keeps the
/// ending it had and the new lines end as the file's do. "The reference"
/// names the writer (the gate names the agent's tool). Each sentence ends
/// with what to do.
pub fn endings_doubt(original: &str, result: &str) -> Option<(EndingsFault, String)> {
    // CRLF lines written by an agent that ends a CRLF file's lines in CRLF
    // itself (Claude Code): each ends `\r\r\n` (a tester's find: a
    // corrected edit did so, and `check` called it exact).
    let doubled = |text: &str| memchr::memmem::find_iter(text.as_bytes(), b"\r\r\n").count();
    let added = doubled(result).saturating_sub(doubled(original));
    if added > 0 {
        return Some((
            EndingsFault::Mixes,
            format!(
                "the result ends {} with a carriage return twice (`\\r\\r\\n`), which the file \
                 did not: the new text's CRLF endings were given another CR as the file's lines \
                 were written back in CRLF, and those lines read with a stray `^M` or as two \
                 line ends: send the new text with LF line endings",
                crate::words::count(added, "line")
            ),
        ));
    }
    let (crlf, lf) = ending_counts(original);
    let (new_crlf, new_lf) = ending_counts(result);
    if crlf > 0 && lf > 0 && new_crlf + new_lf > 0 && (new_crlf == 0 || new_lf == 0) {
        // A mixed file written with one ending: the lines outside the edit
        // that had the other change, whatever the edit's text (a tester's
        // find: the sentence said LF for agents that write CRLF, and told
        // the model to send whole lines, which cannot help).
        let kind = if new_crlf == 0 { "LF" } else { "CRLF" };
        let changed = endings_changed_outside(original, result);
        if changed.is_empty() {
            return None;
        }
        let n = changed.len();
        return Some((
            EndingsFault::Outside,
            format!(
                "the file mixes CRLF and LF line endings, and the reference writes every line \
                 with {kind}, whatever the edit's text: {} outside the edit ({}) {} {} ending \
                 to {kind}: tell the user, who can unify the file's line endings first",
                crate::words::count(n, "line"),
                line_list(&changed),
                if n == 1 { "changes" } else { "change" },
                if n == 1 { "its" } else { "their" },
            ),
        ));
    }
    let file = mixed_endings(original, [result])?;
    let (own, other) = match file {
        Ending::Crlf => ("CRLF", "LF"),
        Ending::Lf => ("LF", "CRLF"),
    };
    let kept = match file {
        Ending::Crlf => new_crlf,
        Ending::Lf => new_lf,
    };
    if kept == 0 {
        // Every line converted: said as what it is, not as a mix (a
        // tester's find).
        return Some((
            EndingsFault::Mixes,
            format!(
                "the result ends every line with {other}, where the file's lines end in {own}: \
                 it changes the line ending of all {} (every line differs in a diff), not only \
                 the lines the edit shows: send the new text with {own} line endings",
                crate::words::count(new_crlf + new_lf, "line")
            ),
        ));
    }
    Some((
        EndingsFault::Mixes,
        format!(
            "{}: send the new text with {own} line endings",
            mixed_line_endings(file)
        ),
    ))
}

/// `text`, written over `original`, with the file's line endings where it
/// would mix in others ([`mixed_endings`]): every line in CRLF for a CRLF
/// file, in LF for an LF file; `text` as it is otherwise (what "use the
/// file's line endings" writes).
pub fn with_file_endings(original: &str, text: &str) -> String {
    match mixed_endings(original, [text]) {
        Some(Ending::Crlf) => with_crlf(text),
        Some(Ending::Lf) => text.replace("\r\n", "\n"),
        None => text.to_string(),
    }
}

/// `text` with every line ending in CRLF: each `\n` not preceded by `\r`
/// gets one (what "use the file's line endings" writes for a CRLF file
/// given an edit's LF lines).
pub fn with_crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 32);
    let mut last = 0;
    for at in memchr::memchr_iter(b'\n', text.as_bytes()) {
        out.push_str(&text[last..at]);
        if at == 0 || text.as_bytes()[at - 1] != b'\r' {
            out.push('\r');
        }
        last = at;
    }
    out.push_str(&text[last..]);
    out
}

/// How many `\n` not preceded by `\r` the concatenation of `pieces`
/// holds, counted up to `enough`.
fn bare_lfs<'a>(pieces: impl IntoIterator<Item = &'a str>, enough: usize) -> usize {
    let mut last = 0u8;
    let mut n = 0;
    for piece in pieces {
        let bytes = piece.as_bytes();
        for at in memchr::memchr_iter(b'\n', bytes) {
            let before = if at == 0 { last } else { bytes[at - 1] };
            if before != b'\r' {
                n += 1;
                if n >= enough {
                    return n;
                }
            }
        }
        if let Some(&b) = bytes.last() {
            last = b;
        }
    }
    n
}

#[cfg(test)]
pub(crate) mod test_edits;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    #[test]
    fn with_crlf_ends_every_line_in_crlf_once() {
        assert_cases(
            with_crlf,
            &[
                ("a\r\nB\nc", "a\r\nB\r\nc"),
                ("\n\r\n\n", "\r\n\r\n\r\n"),
                ("", ""),
            ],
        );
    }

    #[test]
    fn mixed_line_endings_are_told_across_pieces() {
        let crlf = "a\r\nb\r\n";
        assert!(!mixes_line_endings(crlf, ["a\r\n", "B\r\n"]));
        assert!(!mixes_line_endings(crlf, ["a\r", "\nB\r\n"]), "split CRLF");
        assert!(mixes_line_endings(crlf, ["a\r\n", "B\n"]));
        assert!(
            mixes_line_endings(crlf, ["a\r\n", "\n"]),
            "a bare LF at a piece's start"
        );
        // A file already mixed the same way, or LF: nothing new to say.
        assert!(!mixes_line_endings("a\r\nb\n", ["a\r\n", "B\n"]));
        assert!(!mixes_line_endings("a\nb\n", ["a\n", "B\n"]));
        // Mostly CRLF, with one LF line: more LF lines are news.
        let most = "a\r\nb\r\nc\r\nd\n";
        assert!(mixes_line_endings(most, ["a\r\nB\nc\r\nd\n"]));
        assert!(!mixes_line_endings(most, ["a\r\nB\r\nc\r\nd\n"]));
    }

    /// Line endings judged on what each agent writes over a file with one
    /// stray CRLF line (a tester's find, 42a-04): kept (OpenCode) is none;
    /// all CRLF (Gemini CLI, Qwen Code) names the LF lines outside the
    /// edit; all LF (Claude Code) names the CRLF one; the edited line's
    /// own ending is not counted, and nothing is a mix.
    #[test]
    fn endings_are_judged_on_what_the_agent_writes() {
        let file = "A = 1\nB = 2\r\nC = 3\nD = 4\n";
        assert_eq!(endings_doubt(file, "A = 1\nB = 2\r\nC = 3\nD = 5\n"), None);
        let (fault, said) =
            endings_doubt(file, "A = 1\r\nB = 2\r\nC = 3\r\nD = 5\r\n").expect("said");
        assert_eq!(fault, EndingsFault::Outside);
        assert_eq!(
            said,
            "the file mixes CRLF and LF line endings, and the reference writes every line with \
             CRLF, whatever the edit's text: 2 lines outside the edit (lines 1, 3) change their \
             ending to CRLF: tell the user, who can unify the file's line endings first"
        );
        let (_, said) = endings_doubt(file, "A = 1\nB = 2\nC = 3\nD = 5\n").expect("said");
        assert!(said.contains("1 line outside the edit (line 2) changes its ending to LF"));
        // The stray line edited: no line outside it changes.
        assert_eq!(endings_doubt(file, "A = 1\nB = 20\nC = 3\nD = 4\n"), None);
        assert_eq!(
            endings_changed_outside(file, "A = 1\nB = 20\nC = 3\nD = 4\n"),
            Vec::<usize>::new()
        );
        // Lines added or removed: counted from both ends.
        assert_eq!(
            endings_changed_outside(file, "A = 1\r\nX\r\nY\r\nC = 3\r\nD = 4\r\n"),
            [1, 3, 4]
        );
        // A last line without a line ending has none to change.
        assert_eq!(
            endings_changed_outside("a\r\nb\nc", "a\r\nB\r\nc"),
            Vec::<usize>::new()
        );
        assert_eq!(line_list(&[1, 2, 3, 4, 5, 6]), "lines 1, 2, 3, 4, 5, ...");
    }

    /// A whole content in the other ending is said as every line changing
    /// its ending, not as a mix (a tester's find, 42c-11); a true mix keeps
    /// its sentence.
    #[test]
    fn every_line_converted_is_not_called_a_mix() {
        let (fault, said) = endings_doubt("a\r\nb\r\n", "a\nB\n").expect("said");
        assert_eq!(fault, EndingsFault::Mixes);
        assert_eq!(
            said,
            "the result ends every line with LF, where the file's lines end in CRLF: it changes \
             the line ending of all 2 lines (every line differs in a diff), not only the lines \
             the edit shows: send the new text with CRLF line endings"
        );
        let (_, said) = endings_doubt("a\r\nb\r\n", "a\r\nB\n").expect("said");
        assert!(said.starts_with(MIXED_LINE_ENDINGS), "{said}");
        assert_eq!(endings_doubt("a\r\nb\r\n", "a\r\nB\r\n"), None);
    }

    /// The mirror: an LF file given CRLF lines mixes too (a tester's find:
    /// it was called exact and written), and "use the file's line endings"
    /// gives every line the file's ending either way.
    #[test]
    fn crlf_lines_in_an_lf_file_mix_too() {
        let lf = "a\nb\nc\n";
        assert_eq!(
            mixed_endings(lf, ["a\nB\r\n", "B2\r", "\nc\n"]),
            Some(Ending::Lf)
        );
        assert_eq!(mixed_endings(lf, ["a\nB\nc\n"]), None);
        assert_eq!(
            mixed_endings("a\r\nb\r\n", ["a\r\nB\n"]),
            Some(Ending::Crlf)
        );
        // Mostly LF with one CRLF line kept as it was: nothing new; one more
        // CRLF line is.
        let most = "a\nb\r\nc\nd\n";
        assert_eq!(mixed_endings(most, ["a\nb\r\nC\nd\n"]), None);
        assert_eq!(mixed_endings(most, ["a\r\nb\r\nC\nd\n"]), Some(Ending::Lf));
        // No line ending at all, or as many of each: no file's ending to keep.
        assert_eq!(mixed_endings("a", ["a\r\nb\n"]), None);
        assert_eq!(mixed_endings("a\r\nb\n", ["a\r\nb\r\nc\r\n"]), None);
        // A whole new content in the other ending alone rewrites every
        // line's ending: said too (a CRLF file so was held back before).
        assert_eq!(mixed_endings(lf, ["a\r\nb\r\n"]), Some(Ending::Lf));
        assert_eq!(
            mixed_endings("a\r\nb\r\n", ["a\n", "b\n"]),
            Some(Ending::Crlf)
        );
        assert_eq!(mixed_line_endings(Ending::Lf), MIXED_LINE_ENDINGS_LF);
        assert_eq!(with_file_endings(lf, "a\nB\r\nB2\r\nc\n"), "a\nB\nB2\nc\n");
        assert_eq!(with_file_endings("a\r\nb\r\n", "a\r\nB\n"), "a\r\nB\r\n");
        assert_eq!(with_file_endings(lf, "a\nB\n"), "a\nB\n");
    }
}
