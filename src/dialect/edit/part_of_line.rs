//! Where a one-line text that is part of a line would have gone: the
//! whole-line search of a SEARCH block finds no region for it, so each file
//! line is aligned with it character by character instead.

use super::explanation::EditDiagnosis;
use crate::diagnose::{self, Closest, Reason};
use crate::words;

/// The part of one file line a one-line `old` is most like.
pub(super) struct PartOfLine {
    /// 1-based.
    line: usize,
    similarity: f64,
    /// The file's text from the first to the last character aligned with `old`.
    text: String,
    /// Another line about as alike.
    tie: Option<(usize, f64)>,
}

/// Longest `old` and file looked into for a part of a line: a character
/// alignment per line is quadratic in the worst case.
const PART_MAX_OLD: usize = 1_000;
const PART_MAX_FILE: usize = 4 << 20;

/// For a one-line `old` that the whole-line search placed nowhere: the part
/// of a file line it is most like, when that reaches the similarity floor.
pub(super) fn within_line(content: &str, old: &str) -> Option<PartOfLine> {
    if old.contains('\n') || old.trim().is_empty() || old.len() > PART_MAX_OLD {
        return None;
    }
    if content.len() > PART_MAX_FILE {
        return None;
    }
    let old_chars = old.chars().count();
    let mut ranked: Vec<(f64, usize, String)> = Vec::new();
    for (i, line) in content.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.chars().count() * 2 < old_chars {
            continue;
        }
        let diff = similar::TextDiff::from_chars(old, line);
        let equal: Vec<_> = diff
            .ops()
            .iter()
            .filter(|op| op.tag() == similar::DiffTag::Equal)
            .map(|op| op.new_range())
            .collect();
        let (Some(first), Some(last)) = (equal.first(), equal.last()) else {
            continue;
        };
        let part: String = line
            .chars()
            .skip(first.start)
            .take(last.end - first.start)
            .collect();
        let similarity = f64::from(similar::TextDiff::from_chars(old, part.as_str()).ratio());
        ranked.push((similarity, i + 1, part));
    }
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut ranked = ranked.into_iter();
    let (similarity, line, text) = ranked.next()?;
    if similarity < diagnose::MIN_SIMILARITY {
        return None;
    }
    let tie = ranked
        .next()
        .filter(|(s, _, _)| similarity - s < diagnose::TIE_MARGIN)
        .map(|(s, l, _)| (l, s));
    Some(PartOfLine {
        line,
        similarity,
        text,
        tie,
    })
}

impl PartOfLine {
    pub(super) fn diagnosis(self, field: &str) -> EditDiagnosis {
        let closest = Closest {
            start_line: self.line,
            end_line: self.line,
            similarity: self.similarity,
        };
        if let Some((other, s)) = self.tie {
            let second = Closest {
                start_line: other,
                end_line: other,
                similarity: s,
            };
            return EditDiagnosis {
                reason: Some(Reason::Edited),
                tie: Some([closest, second]),
                ..EditDiagnosis::only(format!(
                    "{field} does not occur in the file; it is about as like part of line {} as part of line {other}, so neither is offered.",
                    self.line
                ))
            };
        }
        EditDiagnosis {
            reason: Some(Reason::Edited),
            closest: Some(closest),
            message: format!(
                "{field} does not occur in the file; closest: part of line {} (similarity {}), which reads {:?}. No corrected edit: where the intended text starts and ends inside the line is a guess.",
                self.line,
                words::similarity(self.similarity),
                self.text
            ),
            ..EditDiagnosis::only(String::new())
        }
    }
}
