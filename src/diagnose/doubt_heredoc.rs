//! *Pure.* An edit that moves where a heredoc ends, so that lines it left
//! as they were change their reading: commands become the heredoc's text
//! (its `EOF` line renamed on one side, dropped, indented under a `<<`
//! without `-`, given a blank after it: the heredoc then runs to a later
//! `EOF` or to the file's end, and the shell runs none of the lines
//! between; `bash -n` says nothing or only warns), or a heredoc's text
//! becomes commands (its `<<` line taken out, an `EOF` line put in its
//! middle). A tester's find, round 49 T-02.
//!
//! The rule, by evidence only, for a sh or bash script
//! ([`super::doubt_shell::shell_script`]) and a Dockerfile's `RUN`,
//! `COPY` and `ADD` heredocs (BuildKit):
//! - both texts read whole ([`super::doubt_bashism::heredoc_bodies`]:
//!   quotes, substitutions, comments; a reader unsure of either gives no
//!   verdict);
//! - a line below the edit's changed lines (one it left as it was) that
//!   was a command and is now a heredoc's text, or was a heredoc's text
//!   and is now read as a command; blank lines and comments are not
//!   counted.

use super::doubt_bashism::{Body, heredoc_bodies, line_starts};

/// A line left as it was whose reading an edit's heredoc change turns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeredocMoved {
    /// The result's first line the edit changed (1-based).
    pub changed: usize,
    /// The line (1-based) and its text, trimmed.
    pub line: (usize, String),
    /// What became of it.
    pub turn: Turn,
    /// The file is a Dockerfile (its heredocs are `RUN`'s scripts).
    pub dockerfile: bool,
}

/// How a line's reading turned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Turn {
    /// A command, now the text of the heredoc opened at `opener`
    /// (1-based, with its text), ended at `end` (1-based; `None`: the
    /// file's end). `more`: the other commands below swallowed so.
    Swallowed {
        /// The opening line and its text, trimmed.
        opener: (usize, String),
        /// The heredoc's delimiter.
        delimiter: String,
        /// The line its delimiter now stands on.
        end: Option<usize>,
        /// How many more such lines.
        more: usize,
    },
    /// A heredoc's text before the edit (of the heredoc ended by
    /// `delimiter`), now read as a command.
    Unwrapped {
        /// The heredoc's delimiter before the edit.
        delimiter: String,
    },
}

impl HeredocMoved {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        let advice = match &self.turn {
            Turn::Swallowed { delimiter, .. } => format!(
                "end the heredoc with a line that is `{delimiter}` alone (no blank before or \
                 after it; `<<-` strips leading tabs only) in the new text"
            ),
            Turn::Unwrapped { delimiter } => format!(
                "keep the heredoc's `<<` line and its `{delimiter}` line together in the new \
                 text, or send the lines between as well"
            ),
        };
        format!("{}: {advice}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (line, text) = &self.line;
        let runner = if self.dockerfile {
            "the build's shell"
        } else {
            "the shell"
        };
        let what = match &self.turn {
            Turn::Swallowed {
                opener: (opened, opening),
                delimiter,
                end,
                more,
            } => {
                let ends = match end {
                    Some(end) => format!("ends only at line {end}, the next line `{delimiter}`"),
                    None => format!("runs to the file's end, no line after it being `{delimiter}`"),
                };
                let more = match more {
                    0 => String::new(),
                    1 => ", as is 1 more command line below it".to_string(),
                    n => format!(", as are {n} more command lines below it"),
                };
                format!(
                    "the heredoc line {opened} (`{opening}`) opens {ends}, so line {line} \
                     (`{text}`), a command before the edit, is now the heredoc's text{more}: \
                     {runner} runs none of it (`bash -n` says nothing of it)"
                )
            }
            Turn::Unwrapped { delimiter } => format!(
                "line {line} (`{text}`), the text of a heredoc ended by `{delimiter}` before the \
                 edit, is now read as a command: {runner} runs it"
            ),
        };
        format!("as the edit (from line {}) leaves it, {what}", self.changed)
    }
}

/// The first line below the edit whose reading the edit's heredoc change
/// turns in `result` (the file `path` as an edit leaves it; see the
/// module's rule).
pub(super) fn heredoc_moved(path: &str, original: &str, result: &str) -> Option<HeredocMoved> {
    if original.is_empty() || original == result {
        return None;
    }
    let dockerfile = is_dockerfile(path);
    if !dockerfile && !super::doubt_shell::shell_script(path, original) {
        return None;
    }
    let read = |text: &str| {
        if dockerfile {
            docker_bodies(text)
        } else {
            heredoc_bodies(text)
        }
    };
    let (before, after) = (read(original)?, read(result)?);
    let (old, new, prefix, suffix) = crate::textdiff::changed_lines(original, result);
    let (old_lines, new_lines) = (lines_of(original, &before), lines_of(result, &after));
    let command = |l: &str| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with('#')
    };
    let changed = prefix + 1;
    for k in (0..suffix).rev() {
        let (o, n) = (old.len() - 1 - k, new.len() - 1 - k);
        if !command(new[n]) {
            continue;
        }
        let (was, is) = (old_lines[o], new_lines[n]);
        let turn = match (was, is) {
            (None, Some(b)) => {
                let body = &after[b];
                let starts = line_starts(result);
                let opened = starts.partition_point(|&s| s <= body.opener);
                let end = body.end.map(|e| starts.partition_point(|&s| s <= e));
                let more = (n + 1..end.map_or(new.len(), |e| e - 1))
                    .filter(|&m| {
                        let m_old = m + old.len() - new.len();
                        m >= new.len() - suffix
                            && old_lines.get(m_old).is_some_and(Option::is_none)
                            && command(new[m])
                    })
                    .count();
                Turn::Swallowed {
                    opener: (
                        opened,
                        new.get(opened - 1).map_or("", |l| l.trim()).to_string(),
                    ),
                    delimiter: body.delimiter.clone(),
                    end,
                    more,
                }
            }
            (Some(b), None) => Turn::Unwrapped {
                delimiter: before[b].delimiter.clone(),
            },
            _ => continue,
        };
        return Some(HeredocMoved {
            changed,
            line: (n + 1, new[n].trim().to_string()),
            turn,
            dockerfile,
        });
    }
    None
}

/// Whether `path` names a Dockerfile (`Dockerfile`, `Dockerfile.dev`,
/// `app.dockerfile`, `Containerfile`).
pub fn is_dockerfile(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    lower == "dockerfile"
        || lower.starts_with("dockerfile.")
        || lower.ends_with(".dockerfile")
        || lower == "containerfile"
}

/// For each line of `text` (as `str::lines` cuts them), the index of the
/// heredoc body it stands in (its delimiter's line not counted).
fn lines_of(text: &str, bodies: &[Body]) -> Vec<Option<usize>> {
    let starts = line_starts(text);
    let count = text.lines().count();
    let mut of = vec![None; count];
    for (b, body) in bodies.iter().enumerate() {
        let first = starts.partition_point(|&s| s <= body.first);
        let last = body
            .end
            .map_or(count, |e| starts.partition_point(|&s| s <= e) - 1);
        for slot in of.iter_mut().take(last).skip(first.saturating_sub(1)) {
            *slot = Some(b);
        }
    }
    of
}

/// A Dockerfile's heredoc bodies (BuildKit's `RUN <<EOF`, `COPY <<EOF
/// file`): on an instruction's line (not a comment, not a body), each
/// `<<WORD`, `<<-WORD`, `<<"WORD"` opens one, read from the next line to
/// a line that is `WORD` (`<<-`: after leading tabs). `None` when a line
/// opens one the reader is unsure of (`<<$X`).
fn docker_bodies(text: &str) -> Option<Vec<Body>> {
    let starts = line_starts(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut bodies = Vec::new();
    let mut n = 0;
    while n < lines.len() {
        let line = lines[n];
        n += 1;
        let trimmed = line.trim_start();
        let instruction = trimmed
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        if !matches!(instruction.as_str(), "RUN" | "COPY" | "ADD") {
            continue;
        }
        let mut pending = Vec::new();
        let mut rest = line;
        let mut offset = starts[n - 1];
        while let Some(at) = rest.find("<<") {
            let after = &rest[at + 2..];
            if let Some(past) = after.strip_prefix('<') {
                rest = past;
                offset += at + 3;
                continue;
            }
            let strip = after.starts_with('-');
            let word = after.trim_start_matches('-');
            let word = word.trim_start_matches(['"', '\'']);
            let len = word
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(word.len());
            if len == 0 {
                if word.starts_with(['$', '{']) {
                    return None;
                }
                rest = after;
                offset += at + 2;
                continue;
            }
            pending.push((word[..len].to_string(), strip, offset + at));
            rest = &word[len..];
            offset = starts[n - 1] + (line.len() - rest.len());
        }
        for (delimiter, strip, opener) in pending {
            let first = starts.get(n).copied().unwrap_or(text.len());
            let mut end = None;
            while n < lines.len() {
                let body = lines[n];
                let body = if strip {
                    body.trim_start_matches('\t')
                } else {
                    body
                };
                n += 1;
                if body == delimiter {
                    end = Some(starts[n - 1]);
                    break;
                }
            }
            bodies.push(Body {
                opener,
                first,
                end,
                delimiter,
            });
        }
    }
    Some(bodies)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = "#!/bin/sh\nset -e\ncat <<EOF\nhello\nEOF\necho mid\ncat <<EOF >out\nworld\nEOF\necho done\n";

    #[test]
    fn a_terminator_renamed_on_one_side_swallows_the_commands_below() {
        let result = SCRIPT.replacen("hello\nEOF", "hello\nEND", 1);
        let moved = heredoc_moved("run.sh", SCRIPT, &result).expect("moved");
        assert_eq!(
            moved.describe(),
            "as the edit (from line 5) leaves it, the heredoc line 3 (`cat <<EOF`) opens ends \
             only at line 9, the next line `EOF`, so line 6 (`echo mid`), a command before the \
             edit, is now the heredoc's text, as is 1 more command line below it: the shell \
             runs none of it (`bash -n` says nothing of it): end the heredoc with a line that \
             is `EOF` alone (no blank before or after it; `<<-` strips leading tabs only) in the \
             new text"
        );
        // Indented, or a blank after it: the same.
        for bad in ["hello\n  EOF", "hello\nEOF "] {
            let result = SCRIPT.replacen("hello\nEOF", bad, 1);
            assert_eq!(
                heredoc_moved("run.sh", SCRIPT, &result).map(|m| m.line.0),
                Some(6)
            );
        }
        // The opener renamed too, or the text changed: fine.
        let both = SCRIPT.replacen("<<EOF\nhello\nEOF", "<<END\nhi\nEND", 1);
        assert_eq!(heredoc_moved("run.sh", SCRIPT, &both), None);
        // Not a script: no verdict.
        let text = SCRIPT.replace("#!/bin/sh\n", "");
        let renamed = text.replacen("hello\nEOF", "hello\nEND", 1);
        assert_eq!(heredoc_moved("notes.txt", &text, &renamed), None);
    }

    #[test]
    fn a_heredoc_opener_taken_out_runs_its_text() {
        let result = SCRIPT.replacen("cat <<EOF >out\n", "", 1);
        let moved = heredoc_moved("run.sh", SCRIPT, &result).expect("moved");
        assert_eq!(moved.line, (7, "world".to_string()));
        assert!(
            moved
                .fault()
                .contains("is now read as a command: the shell runs it")
        );
    }

    #[test]
    fn a_dockerfile_run_heredoc_is_read() {
        let file = "FROM debian\nRUN <<EOF\napt-get update\nEOF\nCOPY . /app\nCMD [\"x\"]\n";
        let result = file.replace("update\nEOF", "update\nEND");
        let moved = heredoc_moved("Dockerfile", file, &result).expect("moved");
        assert_eq!(moved.line, (5, "COPY . /app".to_string()));
        assert!(
            moved
                .fault()
                .contains("runs to the file's end, no line after it being `EOF`")
        );
        assert_eq!(
            heredoc_moved("Dockerfile", file, &file.replace("update", "upgrade")),
            None
        );
    }
}
