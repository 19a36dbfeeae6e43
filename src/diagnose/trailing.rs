//! *Pure.* Trailing white space where a file's meaning hangs on it, kept
//! through a corrected edit (a tester's find: a corrected edit of a
//! Markdown file wrote a changed line without the two trailing spaces of
//! its hard line break, and the gate called the repair exact).
//!
//! Which files: Markdown (`.md`, `.markdown`, `.mdx`: two or more spaces
//! ending a line of text are a hard line break), diffs (`.diff`, `.patch`:
//! a line's trailing white space is part of what it must match) and
//! Makefiles (make keeps trailing white space in a variable's value). In
//! other files a line's trailing white space is left as the correction
//! writes it (inside a string over several lines, every space is data:
//! [`super::merge::spaced_otherwise`] withholds those corrections).
//!
//! The rule, line by line, with the model's old and new lines paired with
//! the file's lines and the corrected edit's new lines
//! ([`super::closest::align`]):
//! - a line the model keeps (the same in its old and new text) ends as the
//!   file's line does;
//! - a line the model rewrites one for one, its old and new lines ending
//!   alike (the model did not touch the line's end): it ends as the file's
//!   line does when the model's lines end in none of that white space (the
//!   model never saw it: the common loss, carried back); when the model's
//!   lines end in white space the file's line has not, whether the model
//!   means to add it cannot be told: a doubt;
//! - a line whose end the model changes, or a line it adds: as the model
//!   wrote it;
//! - a file line the model rewrites into another number of lines, whose
//!   meaningful end the model's old line lacks: which new line should carry
//!   it cannot be told: a doubt.

use similar::DiffOp;

use super::closest::align;
use crate::textdiff;

/// How a file's lines' trailing white space means something.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    /// Markdown: two or more spaces ending a line of text are a line break.
    Markdown,
    /// A diff or patch: the white space is part of the line it must match.
    Diff,
    /// A Makefile: make keeps it in a variable's value.
    Makefile,
}

impl Meaning {
    /// The meaning of trailing white space in `path`, if it has one.
    pub fn of(path: &str) -> Option<Meaning> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let ext = name
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "md" | "markdown" | "mdx" => Some(Meaning::Markdown),
            "diff" | "patch" => Some(Meaning::Diff),
            _ if super::file_kind::FileKind::by_name(path)
                == super::file_kind::FileKind::Makefile =>
            {
                Some(Meaning::Makefile)
            }
            _ => None,
        }
    }

    /// What the line's end means, as a key: equal keys, the same meaning
    /// (`""`: nothing). Markdown: whether it breaks; else the white space.
    fn key(self, line: &str) -> &str {
        let end = trailing(line);
        match self {
            Meaning::Markdown => {
                let spaces = end.len() - end.trim_end_matches(' ').len();
                let text = bare(line).len() > end.len();
                if spaces >= 2 && text { "break" } else { "" }
            }
            Meaning::Diff | Meaning::Makefile => end,
        }
    }

    /// Why the end matters, in a clause.
    fn why(self) -> &'static str {
        match self {
            Meaning::Markdown => "two trailing spaces are a Markdown line break",
            Meaning::Diff => "a diff's trailing white space is part of the line it must match",
            Meaning::Makefile => "make keeps a line's trailing white space (in a variable's value)",
        }
    }

    /// How `line` ends, as a clause: "ends in two trailing spaces".
    fn ends(self, line: &str) -> String {
        let end = trailing(line);
        if end.is_empty() {
            return "ends in no trailing white space".into();
        }
        if end.bytes().all(|b| b == b' ') {
            let count = match end.len() {
                1 => "one trailing space".to_string(),
                2 => "two trailing spaces".to_string(),
                n => format!("{n} trailing spaces"),
            };
            return format!("ends in {count}");
        }
        format!("ends in trailing white space (`{}`)", end.escape_debug())
    }
}

/// `line` without the `\r` of a CRLF ending.
fn bare(line: &str) -> &str {
    line.strip_suffix('\r').unwrap_or(line)
}

/// The spaces and tabs ending `line` (before a `\r`).
fn trailing(line: &str) -> &str {
    let body = bare(line);
    &body[body.trim_end_matches([' ', '\t']).len()..]
}

/// `line` ending in `end` (its own trailing white space replaced; a `\r`
/// kept).
fn ending_in(line: &str, end: &str) -> String {
    let body = bare(line);
    let cr = if body.len() < line.len() { "\r" } else { "" };
    format!("{}{end}{cr}", body.trim_end_matches([' ', '\t']))
}

/// Why a corrected edit cannot carry a line's meaningful end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndDoubt {
    /// The file's line (0-based among the file's lines the edit replaces).
    pub file: usize,
    /// The sentence, without a final stop; `{place}` stands for the
    /// file's line as the caller names it.
    sentence: String,
}

impl EndDoubt {
    /// The sentence with the file's line named `place` ("file line 3").
    pub fn describe(&self, place: &str) -> String {
        self.sentence.replace("{place}", place)
    }
}

/// The corrected edit's new lines (`written`) with each line's trailing
/// white space as the model's edit means it, by the rule of this module:
/// `model_old` and `model_new` as the model sent them, `file_old` the
/// file's lines the corrected edit replaces. `Ok(None)`: nothing to change.
pub fn carry_ends(
    meaning: Meaning,
    model_old: &[&str],
    model_new: &[&str],
    file_old: &[&str],
    written: &[&str],
) -> Result<Option<Vec<String>>, EndDoubt> {
    let file_of = pairing(&align(model_old, file_old), model_old.len());
    let written_of = pairing(&align(model_new, written), model_new.len());
    let old: Vec<&str> = model_old.iter().map(|l| bare(l)).collect();
    let new: Vec<&str> = model_new.iter().map(|l| bare(l)).collect();
    let key = |l: &str| meaning.key(l).to_string();
    let mut out: Vec<String> = written.iter().map(|l| (*l).to_string()).collect();
    let mut changed = false;
    // Ends `out[w]` (the written line for the model's new line `k`) as
    // `source` does, when its meaning differs.
    let mut end_as = |k: usize, source: &str| {
        if let Some(w) = written_of[k]
            && key(&out[w]) != key(source)
        {
            out[w] = ending_in(&out[w], trailing(source));
            changed = true;
        }
    };
    for op in textdiff::ops(&old, &new, None) {
        let (olds, news) = (op.old_range(), op.new_range());
        if let DiffOp::Equal { .. } = op {
            for (i, k) in olds.zip(news) {
                let Some(j) = file_of[i] else { continue };
                let file = file_old[j];
                if key(file).is_empty() && !key(model_new[k]).is_empty() {
                    return Err(added(meaning, j, file, model_new[k]));
                }
                end_as(k, file);
            }
            continue;
        }
        if news.is_empty() {
            continue;
        }
        if olds.len() == news.len() {
            for (i, k) in olds.zip(news) {
                let (o, n) = (model_old[i], model_new[k]);
                match file_of[i].map(|j| (j, file_old[j])) {
                    Some((j, file)) if key(o) == key(n) && key(file) != key(n) => {
                        if key(n).is_empty() {
                            end_as(k, file);
                        } else {
                            return Err(added(meaning, j, file, n));
                        }
                    }
                    _ => end_as(k, n),
                }
            }
            continue;
        }
        // Lines rewritten into another number of lines.
        for i in olds {
            if let Some(j) = file_of[i]
                && !key(file_old[j]).is_empty()
                && key(model_old[i]) != key(file_old[j])
            {
                return Err(EndDoubt {
                    file: j,
                    sentence: format!(
                        "{{place}} (`{}`) {}, which the edit's old line lacks, and the edit \
                         rewrites that line into {}: {}, and which new line should end so \
                         cannot be told",
                        bare(file_old[j]),
                        meaning.ends(file_old[j]),
                        crate::words::count(news.len(), "line"),
                        meaning.why()
                    ),
                });
            }
        }
        for k in news {
            end_as(k, model_new[k]);
        }
    }
    Ok(changed.then_some(out))
}

/// [`carry_ends`] on whole texts (lines split at `\n`, the last line's
/// newline kept as it is); `Ok(None)`: nothing to change.
pub fn carry_ends_text(
    meaning: Meaning,
    (model_old, model_new): (&str, &str),
    file_old: &str,
    written: &str,
) -> Result<Option<String>, EndDoubt> {
    let lines = |t: &str| -> Vec<String> { t.split('\n').map(str::to_string).collect() };
    let (mo, mn, fo, wr) = (
        lines(model_old),
        lines(model_new),
        lines(file_old),
        lines(written),
    );
    fn borrowed(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }
    let carried = carry_ends(
        meaning,
        &borrowed(&mo),
        &borrowed(&mn),
        &borrowed(&fo),
        &borrowed(&wr),
    )?;
    Ok(carried.map(|lines| lines.join("\n")))
}

/// The blocks' suggestions for the file `path` (holding `original`), each
/// with its lines' trailing white space as its block means it
/// ([`carry_ends`]: a SEARCH/REPLACE block's SEARCH and REPLACE texts are
/// the model's old and new lines), or withheld saying why (its message
/// said again). Nothing changes where `path`'s kind gives trailing white
/// space no meaning.
pub fn keep_line_ends(
    path: &str,
    original: &str,
    diff: &str,
    options: crate::engine::Options,
    blocks: &mut [super::BlockDiagnosis],
) {
    use crate::engine::markers::canonical_block;
    let Some(meaning) = Meaning::of(path) else {
        return;
    };
    let parsed = super::structure::parse(diff, options.version);
    for d in blocks.iter_mut() {
        let (Some(suggested), Some(block)) = (d.suggestion.as_deref(), parsed.blocks.get(d.index))
        else {
            continue;
        };
        let Some((search, replace)) = sections(suggested) else {
            continue;
        };
        let lines = |t: &str| -> Vec<String> {
            t.split_inclusive('\n')
                .map(|l| l.strip_suffix('\n').unwrap_or(l).to_string())
                .collect()
        };
        let (file_old, written) = (lines(search), lines(replace));
        let fo: Vec<&str> = file_old.iter().map(String::as_str).collect();
        let wr: Vec<&str> = written.iter().map(String::as_str).collect();
        match carry_ends(meaning, &block.search, &block.replace, &fo, &wr) {
            Ok(None) => {}
            Ok(Some(carried)) => {
                let text: String = carried.iter().map(|l| format!("{l}\n")).collect();
                d.suggestion = Some(canonical_block(search, &text));
            }
            Err(doubt) => {
                let first = original.find(search).map_or(1, |at| {
                    1 + memchr::memchr_iter(b'\n', &original.as_bytes()[..at]).count()
                });
                d.suggestion = None;
                d.withheld = Some(doubt.describe(&format!("file line {}", first + doubt.file)));
                d.message = super::message::describe(d, options.version, options.is_final);
            }
        }
    }
}

/// A canonical suggested block's SEARCH and REPLACE texts (each line with
/// its `\n`).
fn sections(block: &str) -> Option<(&str, &str)> {
    let body = block
        .strip_prefix("------- SEARCH\n")?
        .strip_suffix("+++++++ REPLACE\n")?;
    let at = if body.starts_with("=======\n") {
        0
    } else {
        body.find("\n=======\n")? + 1
    };
    Some((&body[..at], &body[at + "=======\n".len()..]))
}

/// The doubt for a line the model's texts end in white space the file's
/// line (`j`, `file`) has not.
fn added(meaning: Meaning, j: usize, file: &str, model: &str) -> EndDoubt {
    EndDoubt {
        file: j,
        sentence: format!(
            "the edit's line `{}` {}, which {{place}} (`{}`) does not have, and the edit's old \
             line has it too: {}, and whether the model means to add it cannot be told",
            bare(model),
            meaning.ends(model),
            bare(file),
            meaning.why()
        ),
    }
}

/// Each line's counterpart, from `align`'s pairs.
fn pairing(pairs: &[(usize, usize)], len: usize) -> Vec<Option<usize>> {
    let mut of = vec![None; len];
    for &(i, j) in pairs {
        if let Some(slot) = of.get_mut(i) {
            *slot = Some(j);
        }
    }
    of
}

#[cfg(test)]
mod tests {
    use super::{Meaning, carry_ends};

    fn carried(
        old: &[&str],
        new: &[&str],
        file: &[&str],
        written: &[&str],
    ) -> Result<Option<Vec<String>>, String> {
        carry_ends(Meaning::Markdown, old, new, file, written)
            .map_err(|d| d.describe(&format!("file line {}", d.file + 1)))
    }

    #[test]
    fn meaning_follows_the_files_kind() {
        assert_eq!(Meaning::of("docs/README.md"), Some(Meaning::Markdown));
        assert_eq!(Meaning::of("a/Notes.MARKDOWN"), Some(Meaning::Markdown));
        assert_eq!(Meaning::of("fix.patch"), Some(Meaning::Diff));
        assert_eq!(Meaning::of("x/Makefile"), Some(Meaning::Makefile));
        assert_eq!(Meaning::of("app.py"), None);
        assert_eq!(Meaning::of("md"), None);
    }

    #[test]
    fn a_lost_break_is_carried_back_onto_the_changed_line() {
        let (old, file) = (["Roses are red,", "x"], ["Roses are red,  ", "x"]);
        assert_eq!(
            carried(
                &old,
                &["Roses are crimson,", "x"],
                &file,
                &["Roses are crimson,", "x"]
            ),
            Ok(Some(vec!["Roses are crimson,  ".into(), "x".into()]))
        );
        // A kept line ends as the file's, a CRLF line keeps its `\r`.
        assert_eq!(
            carried(
                &["a\r", "b\r"],
                &["a\r", "c\r"],
                &["a  \r", "b\r"],
                &["a\r", "c\r"]
            ),
            Ok(Some(vec!["a  \r".into(), "c\r".into()]))
        );
        // The model removes the break: its own line.
        assert_eq!(carried(&["a  "], &["b"], &["a  "], &["b"]), Ok(None));
        // The model adds one: its own line.
        assert_eq!(carried(&["a"], &["b  "], &["a"], &["b  "]), Ok(None));
    }

    #[test]
    fn a_makefiles_or_diffs_trailing_white_space_is_kept_as_it_is() {
        // make keeps `-O2 ` with its space: the model's rewrite lost it.
        let carried = carry_ends(
            Meaning::Makefile,
            &["CFLAGS = -O2"],
            &["CFLAGS = -O3"],
            &["CFLAGS = -O2\t"],
            &["CFLAGS = -O3"],
        );
        assert_eq!(carried, Ok(Some(vec!["CFLAGS = -O3\t".to_string()])));
        // One space where the file has none, in both of the model's texts.
        let doubt = carry_ends(Meaning::Diff, &[" a "], &[" b "], &[" a"], &[" b "])
            .map_err(|d| d.describe("file line 1"));
        assert_eq!(
            doubt,
            Err(
                "the edit's line ` b ` ends in one trailing space, which file line 1 (` a`) \
                 does not have, and the edit's old line has it too: a diff's trailing white \
                 space is part of the line it must match, and whether the model means to add it \
                 cannot be told"
                    .to_string()
            )
        );
    }

    #[test]
    fn a_break_that_cannot_be_placed_is_a_doubt() {
        assert_eq!(
            carried(
                &["Roses are red,"],
                &["Roses", "are red,"],
                &["Roses are red,  "],
                &["Roses", "are red,"]
            ),
            Err(
                "file line 1 (`Roses are red,  `) ends in two trailing spaces, which the \
                 edit's old line lacks, and the edit rewrites that line into 2 lines: two \
                 trailing spaces are a Markdown line break, and which new line should end so \
                 cannot be told"
                    .into()
            )
        );
        assert_eq!(
            carried(&["a,  "], &["b,  "], &["a,"], &["b,  "]),
            Err(
                "the edit's line `b,  ` ends in two trailing spaces, which file line 1 (`a,`) \
                 does not have, and the edit's old line has it too: two trailing spaces are a \
                 Markdown line break, and whether the model means to add it cannot be told"
                    .into()
            )
        );
    }
}
