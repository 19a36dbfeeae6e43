//! The one-sentence summary of a block's diagnosis.

use super::{BlockDiagnosis, DifferenceKind, Reason};
use crate::engine::{Stage, Version};

pub fn describe(d: &BlockDiagnosis, version: Version) -> String {
    let n = d.index + 1;
    let status = match d.state {
        "failed" => "does not apply".to_string(),
        "not-reached" => "was not reached because an earlier block failed".to_string(),
        "dropped" => "never took effect".to_string(),
        // Its SEARCH text is not complete: what it matches so far is a hint.
        "search-streaming" => "so far (SEARCH still streaming)".to_string(),
        _ => match d.stage {
            Some(Stage::Exact) | None => "applies".to_string(),
            Some(stage) => format!("applies only through the {} fallback", stage.name()),
        },
    };
    let Some(reason) = d.reason else {
        return match d.closest {
            Some(c) => format!(
                "Block #{n} {status}; it matches exactly at lines {}-{}.",
                c.start_line, c.end_line
            ),
            None => format!("Block #{n} {status}; it matches exactly once."),
        };
    };
    let at = d
        .closest
        .map(|c| {
            format!(
                " (closest: lines {}-{}, similarity {:.2})",
                c.start_line, c.end_line, c.similarity
            )
        })
        .unwrap_or_default();
    let detail = detail(d, reason, version);
    format!("Block #{n} {status}: {}{detail}{at}.", reason.describe())
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
        Reason::DroppedLastLine => " (a final line starting with -, <, =, + or > that is not a marker is discarded; end the diff with a newline after the REPLACE marker)".to_string(),
        _ if d.risky && d.stage == Some(Stage::BlockAnchor) => {
            format!(" — risky: SEARCH lines {} differ from the file and are replaced unseen", lines_of(Some(DifferenceKind::Unseen)).join(", "))
        }
        _ if !d.differences.is_empty() && d.differences.len() <= 8 => {
            let lines: Vec<String> = d.differences.iter().filter_map(|x| x.search_line.map(|l| l.to_string())).collect();
            if lines.is_empty() { String::new() } else { format!(" on SEARCH line {}", lines.join(", ")) }
        }
        _ => String::new(),
    }
}
