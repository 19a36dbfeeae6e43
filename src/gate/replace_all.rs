//! A replace-all string edit (OpenCode's `replaceAll`, Gemini CLI's
//! `allow_multiple`, Qwen Code's `replace_all`) whose old text the agent
//! finds only loosely (or refuses: Qwen Code), at several places once each
//! line is trimmed (tester 51, T-10). The model said which place it means: every one. So the
//! places are not "which one is meant cannot be told": each is re-indented
//! as the file has it there, the places at one indentation become one
//! exact replace-all edit, and the finding says what the agent writes
//! (Gemini CLI re-indents every place; OpenCode replaces the first copy
//! only, with the model's lines as sent) and what each place should get.

use serde_json::Value;

use crate::dialect::call::CallOutcome;
use crate::dialect::call_correct;
use crate::dialect::registry::{self, DialectRow};

/// What srview finds of a replace-all edit placed loosely at several places.
pub(super) struct EveryPlace {
    /// Sentences for the model: the places, what the agent writes, the
    /// lines each place gets.
    pub said: String,
    /// The one exact replace-all edit that writes every place (the whole
    /// tool input), when the places stand at one indentation.
    pub corrected: Option<Value>,
    /// The exact edits to send one after the other, one per indentation,
    /// when there are several (the tool takes one old and new text a call).
    pub per_indentation: Vec<Value>,
}

/// The places at one indentation: their old and new texts (the file's
/// own), and their lines.
type Group<'a> = (&'a str, &'a str, Vec<(usize, usize)>);

/// One place of the old text: its 1-based lines, and the edit that writes
/// the model's new text there at the file's indentation.
struct Place {
    lines: (usize, usize),
    old: String,
    new: String,
}

/// [`EveryPlace`] of `input` (a call of `row`) over `content` at `path`
/// (`cwd`: the agent's root), as the agent's matcher ran it (`outcome`);
/// `None` when the input is not one replace-all edit placed loosely or
/// refused, its
/// old text does not stand as whole lines at several places once trimmed,
/// a place is not the model's lines shifted by one indentation, or the
/// exact edits are not placed exactly by the agent's own matcher (the
/// usual diagnosis then speaks).
pub(super) fn every_place(
    row: &DialectRow,
    input: &Value,
    (path, cwd): (&str, &str),
    content: &str,
    outcome: &CallOutcome,
) -> Option<EveryPlace> {
    let fields = row.strings.filter(|f| f.list.is_none())?;
    let flag = fields.replace_all?;
    if input.get(flag) != Some(&Value::Bool(true)) {
        return None;
    }
    // Placed loosely (the agent writes something), or refused (Qwen Code,
    // which has no stage that finds a text by trimmed lines).
    let placed = match &outcome.edits[..] {
        [m] if outcome.ok && m.loose => Some(m),
        _ if !outcome.ok => None,
        _ => return None,
    };
    let pairs = call_correct::pairs(fields, input)?;
    let [(old, new)] = &pairs[..] else {
        return None;
    };
    let places = places(old, new, content)?;
    if places.len() < 2 {
        return None;
    }
    // The places at one indentation share their texts: one exact edit each,
    // run one after the other as the agent would run them.
    let mut groups: Vec<Group> = Vec::new();
    for place in &places {
        match groups
            .iter_mut()
            .find(|(o, n, _)| *o == place.old && *n == place.new)
        {
            Some((_, _, at)) => at.push(place.lines),
            None => groups.push((&place.old, &place.new, vec![place.lines])),
        }
    }
    let mut current = content.to_string();
    let mut edits = Vec::new();
    for (own_old, own_new, at) in &groups {
        let edit = call_correct::with_pair(fields, input, 0, own_old, own_new);
        let run = registry::run_on_file(row.value, &edit, path, Some(&current), cwd)?;
        let [placed] = &run.outcome.edits[..] else {
            return None;
        };
        if !run.outcome.ok || placed.loose || 1 + placed.also_replaced.len() != at.len() {
            return None;
        }
        current = run.written()??.to_string();
        edits.push(edit);
    }
    let ranges = |at: &[(usize, usize)]| {
        let named: Vec<String> = at
            .iter()
            .map(|&(a, b)| crate::words::line_range("line", a, b))
            .collect();
        match named.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        }
    };
    let all: Vec<(usize, usize)> = places.iter().map(|p| p.lines).collect();
    let mut said = format!(
        "\nThe model asked for every place ({flag}: true), and its old text stands, trimmed, at \
         {}: not one place to choose, but {} to change, each at its own indentation.",
        ranges(&all),
        places.len()
    );
    // What the agent writes, against what the model meant (a refusal is
    // said by the agent's own error, above).
    let written = outcome.writes.first().and_then(|w| w.content.as_deref());
    if placed.is_some() && written == Some(current.as_str()) {
        said.push_str(&format!(
            "\n{} changes every place, each re-indented as the file has it there: it writes \
             what the model meant.",
            row.title
        ));
    } else if let Some(m) = placed {
        let changed: Vec<(usize, usize)> = m
            .lines
            .into_iter()
            .chain(m.also_replaced.iter().copied())
            .collect();
        let left: Vec<(usize, usize)> = all
            .iter()
            .copied()
            .filter(|p| !changed.contains(p))
            .collect();
        let only = if left.is_empty() { "" } else { " only" };
        let as_sent = if m.written.as_deref() == Some(new.as_str()) {
            ", and writes the model's lines there as sent, not at the file's indentation"
        } else {
            ""
        };
        said.push_str(&format!(
            "\n{} changes{only} {}{as_sent}",
            row.title,
            ranges(&changed)
        ));
        if !left.is_empty() {
            said.push_str(&format!("; {} it leaves as they are", ranges(&left)));
        }
        said.push('.');
    }
    said.push_str("\nWhat each place should get:");
    for (_, own_new, at) in &groups {
        said.push_str(&format!("\n{}:\n{}", ranges(at), quoted(own_new)));
    }
    let (corrected, per_indentation) = match edits.len() {
        1 => (edits.pop(), Vec::new()),
        n => {
            said.push_str(&format!(
                "\nThe places stand at {n} indentations, and {} takes one old and new text a \
                 call: send these {n} edits, one after the other (each replaces every place at \
                 its indentation, exactly):",
                row.title
            ));
            for edit in &edits {
                said.push_str(&format!("\n{edit}"));
            }
            (None, edits)
        }
    };
    Some(EveryPlace {
        said,
        corrected,
        per_indentation,
    })
}

/// `text`'s lines as the deny quotes them (`    | line`), as judge.rs's
/// quoted lines.
fn quoted(text: &str) -> String {
    text.split_terminator('\n')
        .map(|l| format!("    | {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Each place where `old`'s lines stand as whole lines of `content` once
/// trimmed, in order, each with the model's texts shifted to the file's
/// indentation there; `None` when a place's lines are not the model's
/// shifted by one same indentation, or a new line cannot be shifted so.
fn places(old: &str, new: &str, content: &str) -> Option<Vec<Place>> {
    let ended = old.ends_with('\n');
    let body = |text: &str| -> Vec<String> {
        let text = text.strip_suffix('\n').unwrap_or(text);
        text.split('\n').map(str::to_string).collect()
    };
    let model_old = body(old);
    let model_new = body(new);
    if model_old.iter().all(|l| l.trim().is_empty()) {
        return None;
    }
    let lines: Vec<&str> = content.lines().collect();
    let n = model_old.len();
    let mut out = Vec::new();
    let mut k = 0;
    while k + n <= lines.len() {
        let window = &lines[k..k + n];
        let same = window
            .iter()
            .zip(&model_old)
            .all(|(line, want)| line.trim() == want.trim());
        if !same {
            k += 1;
            continue;
        }
        let shift = shift_of(window, &model_old)?;
        let mut own_new: Vec<String> = Vec::with_capacity(model_new.len());
        for line in &model_new {
            own_new.push(shift.apply(line)?);
        }
        let mut own_old = window.join("\n");
        let mut own_new = own_new.join("\n");
        if ended {
            own_old.push('\n');
        }
        if new.ends_with('\n') {
            own_new.push('\n');
        }
        out.push(Place {
            lines: (k + 1, k + n),
            old: own_old,
            new: own_new,
        });
        k += n;
    }
    Some(out)
}

/// How the file's lines of a place are indented against the model's.
enum Shift {
    /// This white space put before each line.
    Deeper(String),
    /// This white space taken from before each line.
    Shallower(String),
}

impl Shift {
    /// `line` shifted; a blank line is kept as sent. `None` when its
    /// indentation does not hold the white space to take.
    fn apply(&self, line: &str) -> Option<String> {
        if line.trim().is_empty() {
            return Some(line.to_string());
        }
        match self {
            Shift::Deeper(lead) => Some(format!("{lead}{line}")),
            Shift::Shallower(lead) => line.strip_prefix(lead.as_str()).map(str::to_string),
        }
    }
}

/// The one shift that turns each non-blank line of `model` into the line
/// of `file` at its place; `None` when the lines differ otherwise.
fn shift_of(file: &[&str], model: &[String]) -> Option<Shift> {
    let lead = |line: &str| line.len() - line.trim_start().len();
    let mut shift: Option<(bool, String)> = None;
    for (file_line, model_line) in file.iter().zip(model) {
        if model_line.trim().is_empty() {
            continue;
        }
        let (f, m) = (
            &file_line[..lead(file_line)],
            &model_line[..lead(model_line)],
        );
        let this = if let Some(extra) = f.strip_suffix(m) {
            (true, extra.to_string())
        } else if let Some(extra) = m.strip_suffix(f) {
            (false, extra.to_string())
        } else {
            return None;
        };
        match &shift {
            Some(seen) if *seen != this && !(seen.1.is_empty() && this.1.is_empty()) => {
                return None;
            }
            _ => shift = Some(this),
        }
    }
    shift.map(|(deeper, lead)| {
        if deeper {
            Shift::Deeper(lead)
        } else {
            Shift::Shallower(lead)
        }
    })
}
