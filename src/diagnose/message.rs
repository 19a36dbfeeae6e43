//! The one-sentence summary of a block's diagnosis.

use super::Status;
use super::{BlockDiagnosis, DifferenceKind, Reason};
use crate::engine::{Stage, Version};
use crate::words::{self, similarity};

/// `is_final`: the diff is complete; while it still streams, a block
/// without a match has none *yet*.
pub fn describe(d: &BlockDiagnosis, version: Version, is_final: bool) -> String {
    let n = d.index + 1;
    let status = match d.state {
        Status::Failed if !is_final => {
            "has no match so far (the diff is still streaming)".to_string()
        }
        Status::Failed => "does not apply".to_string(),
        Status::NotReached => "was not reached because an earlier block failed".to_string(),
        Status::Dropped => "never took effect".to_string(),
        // Its SEARCH text is not complete: what it matches so far is a hint.
        Status::SearchStreaming => "so far (SEARCH still streaming)".to_string(),
        _ => match d.stage {
            Some(Stage::Exact) | None => "applies".to_string(),
            Some(stage) => format!("applies only through the {} fallback", stage.name()),
        },
    };
    let Some(reason) = d.reason else {
        return match d.closest {
            Some(c) => format!(
                "Block #{n} {status}; it matches exactly at {}.",
                span(c.start_line, c.end_line)
            ),
            None => format!("Block #{n} {status}; it matches exactly once."),
        };
    };
    let at = match (d.closest, d.tie) {
        (Some(c), _) if d.misplaced => {
            let matched = d
                .matched_lines
                .map(|m| format!(", not to the matched {}", span(m[0], m[1])))
                .unwrap_or_default();
            format!(
                "; its SEARCH text is closest to {} (similarity {}){matched}: the edit lands at the wrong place",
                span(c.start_line, c.end_line),
                similarity(c.similarity)
            )
        }
        (Some(c), Some([a, b])) => format!(
            " (matched {}; {} and {} are about equally similar, so the place is a guess; nothing is suggested)",
            span(c.start_line, c.end_line),
            span(a.start_line, a.end_line),
            span(b.start_line, b.end_line),
        ),
        (Some(c), None) => format!(
            " (closest: {}, similarity {})",
            span(c.start_line, c.end_line),
            similarity(c.similarity)
        ),
        (None, Some([a, b])) => format!(
            " (no single closest region: {} and {} could each be the place, similarity {} and {}; nothing is suggested)",
            span(a.start_line, a.end_line),
            span(b.start_line, b.end_line),
            similarity(a.similarity),
            similarity(b.similarity)
        ),
        (None, None) if d.vague => " (every SEARCH line occurs several times in the file, so no single place can be told; nothing is suggested)".to_string(),
        (None, None) => String::new(),
    };
    let detail = match elision(d) {
        Some(e) if d.state.is_failure() => e,
        _ => detail(d, reason, version),
    };
    let withheld = d
        .withheld
        .as_deref()
        .map(|why| format!(" No suggestion: {why}."))
        .unwrap_or_default();
    let shift = d
        .shift
        .map(|s| format!(" Written as it is, {}.", s.describe()))
        .unwrap_or_default();
    format!(
        "Block #{n} {status}: {}{detail}{at}.{shift}{withheld}",
        d.describe_reason(reason)
    )
}

/// A SEARCH line that is an elision (`# ... existing code ...`), as a
/// clause: the file lines it stands for (those of the region in its place)
/// and how the reference reads it.
fn elision(d: &BlockDiagnosis) -> Option<String> {
    use super::Side;
    let at = d
        .line_diff
        .iter()
        .position(|l| l.tag == Side::Delete && is_elision(&l.text))?;
    let line = &d.line_diff[at];
    // The file's lines in its place: the inserted run right after it (or
    // right before it).
    let run = |it: &mut dyn Iterator<Item = &super::DiffLine>| -> Vec<usize> {
        it.take_while(|l| l.tag == Side::Insert)
            .filter_map(|l| l.file_line)
            .collect()
    };
    let mut lines = run(&mut d.line_diff[at + 1..].iter());
    if lines.is_empty() {
        lines = run(&mut d.line_diff[..at].iter().rev());
        lines.reverse();
    }
    let stands_for = match (lines.first(), lines.last()) {
        (Some(&a), Some(&b)) => format!(", standing for file {}", span(a, b)),
        _ => String::new(),
    };
    Some(format!(
        " (SEARCH line {} `{}` is an elision{stands_for}: the reference matches it as \
         text, never as lines left out)",
        line.search_line.unwrap_or(0),
        line.text.trim()
    ))
}

/// `line 12` or `lines 12-14`.
fn span(a: usize, b: usize) -> String {
    words::line_range("line", a, b)
}

/// The specifics worth a clause: which lines, which marker.
fn detail(d: &BlockDiagnosis, reason: Reason, version: Version) -> String {
    let lines_of = |kind: Option<DifferenceKind>| -> Vec<String> {
        d.differences
            .iter()
            .filter(|x| kind.is_none_or(|k| x.kind == k))
            .filter_map(|x| x.search_line.or(x.file_line))
            .map(|l| l.to_string())
            .collect()
    };
    match reason {
        Reason::MarkerTypo => {
            let typos: Vec<String> = d
                .differences
                .iter()
                .filter(|x| x.kind == DifferenceKind::MarkerTypo)
                .map(|x| format!("{:?} on diff line {}", x.search.as_deref().unwrap_or(""), x.search_line.unwrap_or(0)))
                .collect();
            format!(" ({}; canonical markers are `------- SEARCH`, `=======`, `+++++++ REPLACE`)", typos.join(", "))
        }
        Reason::Ambiguous => format!(" (also at file lines {})", lines_of(Some(DifferenceKind::OtherOccurrence)).join(", ")),
        Reason::Structure => {
            let what: Vec<&str> = d.differences.iter().filter_map(|x| (x.kind == DifferenceKind::Structure).then_some(x.search.as_deref().unwrap_or(""))).collect();
            let rules = if version == Version::V2 { "; v2 rejects text outside blocks and unclosed blocks" } else { "" };
            format!(" ({}{rules})", what.join("; "))
        }
        Reason::PartialLine if d.differences.iter().any(|x| x.kind == DifferenceKind::OtherOccurrence) => {
            let whole = lines_of(Some(DifferenceKind::OtherOccurrence));
            format!(
                " (it is a whole line at file {} {}, but the reference took its first match, inside a longer line)",
                if whole.len() == 1 { "line" } else { "lines" },
                whole.join(", ")
            )
        }
        Reason::AlreadyApplied => match d.already {
            Some([a, b]) => format!(" ({}): this looks applied already", span(a, b)),
            None => String::new(),
        },
        Reason::DroppedLastLine => " (a final line starting with -, <, =, + or > that is not a marker is discarded; end the diff with a newline after the REPLACE marker)".to_string(),
        _ if d.misplaced => String::new(),
        _ if d.risky && d.stage.or(d.would_match) == Some(Stage::BlockAnchor) => {
            let unseen = lines_of(Some(DifferenceKind::Unseen));
            let (word, verb) = if unseen.len() == 1 { ("line", "differs") } else { ("lines", "differ") };
            format!(" — risky: SEARCH {word} {} {verb} from the file and {} replaced unseen", unseen.join(", "), if unseen.len() == 1 { "is" } else { "are" })
        }
        _ if !d.differences.is_empty() && d.differences.len() <= 8 => {
            let lines: Vec<String> = d.differences.iter().filter_map(|x| x.search_line.map(|l| l.to_string())).collect();
            match lines.len() {
                0 => String::new(),
                1 => format!(" on SEARCH line {}", lines[0]),
                _ => format!(" on SEARCH lines {}", lines.join(", ")),
            }
        }
        _ => String::new(),
    }
}

/// Whether a SEARCH line is an elision (`...`, `# ...`, `// ... existing
/// code ...`): a model's stand-in for lines it left out.
pub(super) fn is_elision(line: &str) -> bool {
    let bare = crate::engine::js::js_trim(line)
        .trim_start_matches(['#', '/', '*', '-', ';', '<', '!'])
        .trim_start();
    bare.starts_with("...") || bare.starts_with('\u{2026}')
}
