//! What a loose stage placed, said against what the model wrote (loose
//! matches are shown, always): the lines of the file's region that differ
//! from the model's old text, whether the region is another definition
//! than the one the model wrote for (its `def`/`fn`/`class` line differs),
//! and what the agent writes there, down to the file's final newline.
//! `check` says these for every place a loose stage changed.

use crate::words;

/// At most this many differing lines are quoted per place; the rest are
/// counted.
const QUOTED: usize = 3;

/// The sentences saying where `region` (the file's text a stage placed an
/// edit on, from file line `first`) differs from `model` (the model's old
/// text): at most [`QUOTED`] lines, each `line N: the file has "..." where
/// the model wrote "..."`, then how many more; then where the two differ
/// in length. `whole(n)`: file line `n` whole, quoted instead where the
/// region holds only part of it. `last`: the file's last line, where
/// known: a region ending there, shorter than the model's text, is said as
/// the end of the file.
pub fn differing_lines(
    region: &str,
    model: &str,
    first: usize,
    whole: impl Fn(usize) -> Option<String>,
    last: Option<usize>,
) -> Vec<String> {
    let file: Vec<&str> = region.lines().collect();
    let wrote: Vec<&str> = model.lines().collect();
    let mut out = Vec::new();
    let mut more = 0;
    for (i, (have, wrote)) in file.iter().zip(&wrote).enumerate() {
        if have == wrote {
            continue;
        }
        // The file's whole line where `have` is part of it.
        let line = whole(first + i).filter(|w| w != have && w.contains(have));
        let have = line.as_deref().unwrap_or(have);
        if out.len() < QUOTED {
            out.push(format!(
                "line {}: the file has {have:?} where the model wrote {wrote:?}",
                first + i
            ));
        } else {
            more += 1;
        }
    }
    if more > 0 {
        out.push(format!("and {}", words::count(more, "more differing line")));
    }
    let end = first + file.len();
    if file.len() < wrote.len() && last == Some(end.saturating_sub(1)) {
        let beyond = &wrote[file.len()..];
        out.push(format!(
            "the file ends after line {}, where the model wrote {}: {}",
            end.saturating_sub(1),
            words::count(beyond.len(), "more line"),
            quoted(beyond)
        ));
    } else if file.len() != wrote.len() {
        out.push(format!(
            "{} in the file where the model wrote {}",
            words::count(file.len(), "line"),
            wrote.len()
        ));
    }
    out
}

/// The sentence saying that `region` (from file line `first`) is another
/// definition than the one `model` was written for: the first line pair
/// where the model's line opens a definition ([`opens_definition`]) and
/// the file's line is another, with where the model's line stands in
/// `content` (the whole file, where known). `None` when every definition
/// line of the model's text is the file's (white space aside).
pub fn another_definition(
    region: &str,
    model: &str,
    first: usize,
    content: Option<&str>,
) -> Option<String> {
    let (i, have, wrote) = region
        .lines()
        .zip(model.lines())
        .enumerate()
        .map(|(i, (have, wrote))| (i, have, wrote))
        .find(|(_, have, wrote)| {
            opens_definition(wrote) && defined_name(have) != defined_name(wrote)
        })?;
    let stands = match content {
        Some(content) => {
            let at: Vec<String> = content
                .lines()
                .enumerate()
                .filter(|(_, l)| l.trim() == wrote.trim())
                .map(|(n, _)| (n + 1).to_string())
                .collect();
            match at.len() {
                0 => " (which stands nowhere in the file)".to_string(),
                1 => format!(" (which stands at line {})", at[0]),
                _ => format!(" (which stands at lines {})", at.join(", ")),
            }
        }
        None => String::new(),
    };
    Some(format!(
        "placed in another definition: line {} reads {have:?}, the model wrote its text for \
         {wrote:?}{stands}",
        first + i
    ))
}

/// The name a definition line defines: the word after its keyword (and
/// a Go method's receiver), as far as it runs in letters, digits and `_`;
/// `None` for a line that opens no definition. Two lines defining the same
/// name are one definition, whatever else differs (its parameters).
pub fn defined_name(line: &str) -> Option<&str> {
    if !opens_definition(line) {
        return None;
    }
    let mut rest = line.trim_start();
    loop {
        let (word, after) = rest.split_once(char::is_whitespace)?;
        rest = after.trim_start();
        if DEFINITION_WORDS.contains(&word.strip_suffix('*').unwrap_or(word)) {
            break;
        }
    }
    // `func (s *Stack) Push(`: the name after the receiver.
    let rest = match rest.strip_prefix('(') {
        Some(inner) => inner.split_once(')')?.1.trim_start(),
        None => rest,
    };
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

/// Keywords that open a definition in common languages (Python, Ruby,
/// Rust, Go, JavaScript/TypeScript, Java/C#/Kotlin/Swift, PHP, Perl).
const DEFINITION_WORDS: [&str; 16] = [
    "def",
    "fn",
    "func",
    "fun",
    "function",
    "class",
    "struct",
    "enum",
    "trait",
    "impl",
    "interface",
    "module",
    "mod",
    "sub",
    "object",
    "protocol",
];

/// Words that may stand before a definition's keyword (`pub async fn`,
/// `export default function`, `public static class`).
const MODIFIERS: [&str; 18] = [
    "pub",
    "pub(crate)",
    "pub(super)",
    "export",
    "default",
    "async",
    "static",
    "public",
    "private",
    "protected",
    "internal",
    "abstract",
    "final",
    "override",
    "unsafe",
    "const",
    "extern",
    "open",
];

/// Whether `line` opens a definition: its first word, after modifiers
/// ([`MODIFIERS`]), is a definition keyword ([`DEFINITION_WORDS`])
/// followed by a space (`def f(`, `pub fn f(`, `class A:`; not `define()`
/// nor `fn(x)`).
pub fn opens_definition(line: &str) -> bool {
    let mut words = line.split_whitespace().peekable();
    while words.next_if(|w| MODIFIERS.contains(w)).is_some() {}
    let Some(word) = words.next() else {
        return false;
    };
    let word = word.strip_suffix('*').unwrap_or(word);
    DEFINITION_WORDS.contains(&word) && words.next().is_some()
}

/// The sentence saying what `agent` (its matcher's name) writes over a
/// region it placed loosely: `found` and `written` as the agent's lines joined by `\n`
/// (the region from file line `first`, and what replaces it), `last` the
/// file's last line: an element past it is the empty rest after the
/// file's final newline. The lines both share at the start and at the end
/// are left out. `None` when the agent writes the region unchanged.
pub fn what_it_writes(
    agent: &str,
    found: &str,
    written: &str,
    first: usize,
    last: usize,
) -> Option<String> {
    let old: Vec<&str> = found.split('\n').collect();
    let new: Vec<&str> = written.split('\n').collect();
    let (prefix, suffix) = crate::textdiff::shared_ends(&old, &new);
    let removed = &old[prefix..old.len() - suffix];
    let added = &new[prefix..new.len() - suffix];
    if removed.is_empty() && added.is_empty() {
        return None;
    }
    let start = first + prefix;
    let real: Vec<&str> = removed
        .iter()
        .enumerate()
        .take_while(|(k, _)| start + k <= last)
        .map(|(_, l)| *l)
        .collect();
    // The empty rest after the final newline, removed: the file no longer
    // ends with a newline.
    let drops_newline = real.len() < removed.len();
    let lines = words::count(added.len(), "line");
    let range = words::line_range("line", start, start + real.len().saturating_sub(1));
    Some(match (real.is_empty(), added.is_empty(), drops_newline) {
        (false, false, _) => format!(
            "{agent} replaces {range} {}{} with {lines}: {}",
            quoted(&real),
            if drops_newline {
                " and the file's final newline"
            } else {
                ""
            },
            quoted(added)
        ),
        (false, true, false) => format!("{agent} removes {range} {}", quoted(&real)),
        (false, true, true) => format!(
            "{agent} removes {range} {} and the file's final newline",
            quoted(&real)
        ),
        (true, true, _) => format!("{agent} removes the file's final newline"),
        (true, false, true) => format!(
            "{agent} writes {lines} after line {last}, the file's last line, in place of its \
             final newline: {}",
            quoted(added)
        ),
        (true, false, false) if start == first => format!(
            "{agent} writes {lines} before line {start}: {}",
            quoted(added)
        ),
        (true, false, false) => format!(
            "{agent} writes {lines} after line {}: {}",
            start - 1,
            quoted(added)
        ),
    })
}

/// Lines quoted, comma-separated: at most [`QUOTED`], then how many more.
fn quoted(lines: &[&str]) -> String {
    let mut out: Vec<String> = lines
        .iter()
        .take(QUOTED)
        .map(|l| format!("{l:?}"))
        .collect();
    if lines.len() > QUOTED {
        out.push(format!("and {} more", lines.len() - QUOTED));
    }
    out.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definition_lines_are_told_by_their_keyword() {
        for line in [
            "def load_users(path):",
            "    async def run(self):",
            "pub fn main() {",
            "pub(crate) async fn get() {",
            "export default function App() {",
            "function* gen() {",
            "class Users:",
            "func (s *Stack) Push(v int) {",
            "public static class Box {",
            "impl Foo for Bar {",
        ] {
            assert!(opens_definition(line), "{line}");
        }
        for line in [
            "define(x)",
            "return fn(x)",
            "fn",
            "x = def_value",
            "    data = json.load(f)",
            "",
        ] {
            assert!(!opens_definition(line), "{line}");
        }
    }

    #[test]
    fn a_definition_line_names_what_it_defines() {
        for (line, name) in [
            ("def load_users(path):", "load_users"),
            ("pub async fn get() {", "get"),
            ("func (s *Stack) Push(v int) {", "Push"),
            ("export default function* gen() {", "gen"),
            ("class Users:", "Users"),
        ] {
            assert_eq!(defined_name(line), Some(name), "{line}");
        }
        assert_eq!(defined_name("    data = json.load(f)"), None);
    }

    #[test]
    fn another_definition_names_where_the_models_stands() {
        let file = "def load_users(path):\n    return 1\n\ndef load_groups(path):\n    return 1\n";
        assert_eq!(
            another_definition(
                "def load_users(path):\n    return 1",
                "def load_groups(path):\n    return 2",
                1,
                Some(file)
            )
            .as_deref(),
            Some(
                "placed in another definition: line 1 reads \"def load_users(path):\", the \
                 model wrote its text for \"def load_groups(path):\" (which stands at line 4)"
            )
        );
        // Its own definition, other parameters: none (the line is listed
        // among the differing lines).
        assert_eq!(
            another_definition(
                "def load_users(path):\n    return 1",
                "def load_users(path, limit):\n    return 2",
                1,
                Some(file)
            ),
            None
        );
        // Its own definition, spaced otherwise: none.
        assert_eq!(
            another_definition(
                "def load_users(path):\n    return 1",
                "def load_users(path):  \n    return 2",
                1,
                Some(file)
            ),
            None
        );
    }

    #[test]
    fn a_region_ending_with_the_file_is_said_so() {
        assert_eq!(
            differing_lines("a\nb\n", "b\nc\nd", 5, |_| None, Some(6)),
            [
                "line 5: the file has \"a\" where the model wrote \"b\"",
                "line 6: the file has \"b\" where the model wrote \"c\"",
                "the file ends after line 6, where the model wrote 1 more line: \"d\"",
            ]
        );
        assert_eq!(
            differing_lines("a\nb\n", "a\nb\nd", 5, |_| None, Some(9)),
            ["2 lines in the file where the model wrote 3"]
        );
    }

    #[test]
    fn what_it_writes_names_the_lines_it_replaces() {
        // Cline's window over the last lines and the empty rest after the
        // final newline: line 4 and that newline replaced.
        assert_eq!(
            what_it_writes("Cline", "x\ny\nz\n", "x\ny\nY\nz", 2, 4).as_deref(),
            Some(
                "Cline replaces line 4 \"z\" and the file's final newline with 2 lines: \
                 \"Y\", \"z\""
            )
        );
        assert_eq!(
            what_it_writes("Cline", "a\nb\nc", "a\nB\nc", 1, 9).as_deref(),
            Some("Cline replaces line 2 \"b\" with 1 line: \"B\"")
        );
        assert_eq!(
            what_it_writes("Cline", "a\nb\nc", "a\nc", 1, 9).as_deref(),
            Some("Cline removes line 2 \"b\"")
        );
        assert_eq!(
            what_it_writes("Cline", "a\nc", "a\nb\nc", 3, 9).as_deref(),
            Some("Cline writes 1 line after line 3: \"b\"")
        );
        assert_eq!(what_it_writes("Cline", "a\nb", "a\nb", 1, 9), None);
        // Line 7 kept, a line written after it where its newline was.
        assert_eq!(
            what_it_writes("Cline", "x\nz\n", "x\nz\nZ", 6, 7).as_deref(),
            Some(
                "Cline writes 1 line after line 7, the file's last line, in place of its final \
                 newline: \"Z\""
            )
        );
        assert_eq!(
            what_it_writes("Cline", "x\nz\n", "x\nz", 6, 7).as_deref(),
            Some("Cline removes the file's final newline")
        );
    }
}
