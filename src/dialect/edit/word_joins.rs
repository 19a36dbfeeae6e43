//! *Pure.* Where a word or a number of a file ends, by the file's language
//! (a tester's find, 44-02 and 44-07: an old text starting inside the YAML
//! key `host-name`, the CSS class `btn-primary` or the JavaScript name
//! `$count`, or ending inside `1.5` or `4.2.11`, rewrote part of a name or
//! a literal it did not show, called fine).
//!
//! - `-` joins two word characters into one word in YAML and TOML keys
//!   (before the line's first `:` or `=`: a value's `nginx:1.25-alpine`
//!   holds a version and a tag, `1.25` changed alone),
//!   CSS, SCSS, Sass, Less and Stylus (classes, properties), the Lisps
//!   (Emacs Lisp, Common Lisp, Scheme, Racket, Clojure, Fennel), HTML, XML
//!   and SVG (attributes, classes) and the HTML templates (Handlebars,
//!   Mustache, Jinja, Nunjucks). Elsewhere (Python, C, Rust, JavaScript)
//!   it is an operator: `a-b` is two words.
//! - `$` opens a name in JavaScript and TypeScript, PHP, Perl and
//!   PowerShell: `$count` is one word, cut after its `$`. In the shells
//!   (sh, bash, zsh, ksh) it is a sigil before the name `VERSION` that
//!   `VERSION=1` sets: `$VERSION` renamed by an old text starting after
//!   the `$` renames the reference (a tester's find, round 45 T-04).
//! - A number ends where its unit begins in CSS, SCSS, Sass, Less and
//!   Stylus: `0.5` of `0.5s`, `10` of `10px`, as `100` of `100%`.
//! - A decimal point between digits is inside a number, in every
//!   language: `1` of `1.5`, `4.2` of `4.2.11`.

/// The characters besides letters, digits and `_` that the language of a
/// file holds inside its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WordJoins {
    /// `-` between two word characters (`host-name`).
    hyphen: bool,
    /// `$` before a name (`$count`).
    dollar: bool,
    /// The mark ending a line's key, where `-` joins words in keys only
    /// (`:` in YAML, `=` in TOML).
    key_end: Option<char>,
    /// A number's unit is no part of it (`10px`).
    units: bool,
    /// The type suffixes a number literal of the language may carry
    /// (`u32` of `10u32`, `n` of `10n`, `L` of `10L`), compared without
    /// case: changing the number keeps its type (a tester's find, round
    /// 46 T-15: `let x = 10` -> `let x = 20` over `10u32` was doubted).
    suffixes: &'static [&'static str],
}

/// Rust's integer and float suffixes.
const RUST_SUFFIXES: [&str; 14] = [
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32",
    "f64",
];
/// C's and C++'s (`10UL`, `1.5f`).
const C_SUFFIXES: [&str; 9] = ["u", "l", "ul", "lu", "ll", "ull", "llu", "f", "z"];
/// Java's, Kotlin's, Scala's, C#'s (`10L`, `1.5f`, `2d`, `3m`).
const JVM_SUFFIXES: [&str; 6] = ["l", "f", "d", "m", "u", "ul"];

/// The number suffixes of the extension `ext`.
fn suffixes_of(ext: &str) -> &'static [&'static str] {
    match ext {
        "rs" => &RUST_SUFFIXES,
        "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" | "m" | "mm" => &C_SUFFIXES,
        "java" | "kt" | "kts" | "scala" | "cs" => &JVM_SUFFIXES,
        "js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx" => &["n"],
        "py" | "pyi" => &["j"],
        _ => &[],
    }
}

/// Extensions whose names join words with `-`.
const HYPHENATED: [&str; 28] = [
    "yaml",
    "yml",
    "toml",
    "css",
    "scss",
    "sass",
    "less",
    "styl",
    "el",
    "lisp",
    "lsp",
    "cl",
    "scm",
    "ss",
    "rkt",
    "clj",
    "cljs",
    "cljc",
    "edn",
    "fnl",
    "html",
    "htm",
    "xhtml",
    "xml",
    "svg",
    "hbs",
    "handlebars",
    "mustache",
];

/// Template extensions (Jinja, Nunjucks) that join words with `-` too.
const HYPHENATED_TEMPLATES: [&str; 4] = ["j2", "jinja", "jinja2", "njk"];

/// Extensions whose names may open with `$`.
const DOLLAR_NAMED: [&str; 14] = [
    "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "php", "phtml", "pl", "pm", "ps1", "psm1",
];

/// Style sheet extensions, whose numbers carry units.
const STYLE_SHEETS: [&str; 5] = ["css", "scss", "sass", "less", "styl"];

impl WordJoins {
    /// The joins of the file `path`'s language, by its extension (none
    /// for a name srview does not know).
    pub fn of(path: &str) -> WordJoins {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let Some((_, ext)) = name.rsplit_once('.') else {
            return WordJoins::default();
        };
        let ext = ext.to_ascii_lowercase();
        let ext = ext.as_str();
        WordJoins {
            hyphen: HYPHENATED.contains(&ext) || HYPHENATED_TEMPLATES.contains(&ext),
            dollar: DOLLAR_NAMED.contains(&ext),
            key_end: match ext {
                "yaml" | "yml" => Some(':'),
                "toml" => Some('='),
                _ => None,
            },
            units: STYLE_SHEETS.contains(&ext),
            suffixes: suffixes_of(ext),
        }
    }

    /// Whether byte `at` of `text` falls inside one word: between two word
    /// characters (`is_word`), or beside a `-` that joins two of them, or
    /// after a `$` that opens a name.
    pub fn cuts(self, text: &str, at: usize, is_word: fn(char) -> bool) -> bool {
        let mut back = text[..at].chars().rev();
        let mut ahead = text[at..].chars();
        let (Some(b), Some(a)) = (back.next(), ahead.next()) else {
            return false;
        };
        let word = |c: Option<char>| c.is_some_and(is_word);
        let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
        let hyphen = self.hyphen && self.key_end.is_none_or(|end| !line.contains(end));
        (is_word(b) && is_word(a) && !self.unit_starts(text, at, is_word))
            || (hyphen && b == '-' && is_word(a) && word(back.next()))
            || (hyphen && a == '-' && is_word(b) && word(ahead.next()))
            || (self.dollar && b == '$' && (a.is_alphabetic() || a == '_'))
    }

    /// Whether byte `at` of `text` is where a number's unit begins, in a
    /// style sheet: the word up to it all digits (`10`, `5` of `0.5`; not
    /// `col-10` of `col-10px`, nor a colour's `#10` of `#10ab`), and all
    /// letters from it (`px`, `s`, `em`).
    fn unit_starts(self, text: &str, at: usize, is_word: fn(char) -> bool) -> bool {
        if !self.units && self.suffixes.is_empty() {
            return false;
        }
        let (start, end) = self.word_bounds(text, at, is_word);
        let digits = &text[start..at];
        let rest = &text[at..end];
        let number = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit() || b == b'_')
            && digits.as_bytes()[0].is_ascii_digit()
            && !text[..start].ends_with('#');
        let unit = self.units && rest.bytes().all(|b| b.is_ascii_alphabetic());
        let suffix = rest.strip_prefix('_').unwrap_or(rest);
        number && (unit || self.suffixes.iter().any(|s| s.eq_ignore_ascii_case(suffix)))
    }

    /// The bytes of the word around byte `at` of `text`: its word
    /// characters, the `-` joining two of them, the `$` opening it.
    pub fn word_bounds(self, text: &str, at: usize, is_word: fn(char) -> bool) -> (usize, usize) {
        let word_at = |i: usize| text[i..].chars().next().is_some_and(is_word);
        let word_before = |i: usize| text[..i].chars().next_back().is_some_and(is_word);
        let mut start = at;
        let mut back = text[..at].char_indices().rev().peekable();
        while let Some((i, c)) = back.next() {
            let next_is_word = back.peek().is_some_and(|&(_, p)| is_word(p));
            let joined = self.hyphen && c == '-' && next_is_word && word_at(start);
            if is_word(c) || joined {
                start = i;
            } else {
                if self.dollar && c == '$' && word_at(start) {
                    start = i;
                }
                break;
            }
        }
        let mut end = at;
        let mut ahead = text[at..].char_indices().peekable();
        while let Some((i, c)) = ahead.next() {
            let next_is_word = ahead.peek().is_some_and(|&(_, n)| is_word(n));
            let joined = self.hyphen && c == '-' && next_is_word && word_before(end);
            if !(is_word(c) || joined) {
                break;
            }
            end = at + i + c.len_utf8();
        }
        (start, end)
    }
}

/// The bytes of the number (digits and decimal points) byte `at` of `text`
/// falls inside, when a decimal point between digits stands beside it
/// (`1|.5`, `1.|5`, `4.2|.11`): a cut there changes part of the number.
pub fn number_bounds(text: &str, at: usize) -> Option<(usize, usize)> {
    if !text.is_char_boundary(at) {
        return None;
    }
    let (before, after) = (&text[..at], &text[at..]);
    let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
    let mut back = before.chars().rev();
    let mut ahead = after.chars();
    let (b1, a1) = (back.next(), ahead.next());
    let point = (digit(b1) && a1 == Some('.') && digit(ahead.next()))
        || (b1 == Some('.') && digit(back.next()) && digit(a1));
    if !point {
        return None;
    }
    let number = |c: char| c.is_ascii_digit() || c == '.';
    let start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| number(c))
        .last()
        .map_or(at, |(i, _)| i);
    let end = after
        .char_indices()
        .find(|&(_, c)| !number(c))
        .map_or(text.len(), |(i, _)| at + i);
    Some((start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(c: char) -> bool {
        c.is_alphanumeric() || c == '_'
    }

    fn cut(path: &str, text: &str, before: &str) -> bool {
        let at = text.find(before).expect("in text");
        WordJoins::of(path).cuts(text, at, word)
    }

    #[test]
    fn a_hyphen_joins_words_where_the_language_names_with_it() {
        for path in ["c.yaml", "s.css", "l.el", "p.html", "Cargo.toml", "x.SCSS"] {
            assert!(cut(path, "host-name: 1", "name"), "{path}");
            assert!(cut(path, "host-name: 1", "-name"), "{path}");
        }
        for path in ["a.py", "a.rs", "a.js", "a.c", "Makefile"] {
            assert!(!cut(path, "host-name: 1", "name"), "{path}");
        }
        // A YAML or TOML value's `-` joins nothing: `nginx:1.25-alpine`.
        assert!(!cut("c.yaml", "image: nginx:1.25-alpine", "-alpine"));
        assert!(!cut("Cargo.toml", "name = \"my-tool\"", "-tool"));
        assert!(cut("c.yaml", "  - host-name: x", "-name"));
        // Not a join: a list's `- `, a custom property's `--`, a comment's `-->`.
        assert!(!cut("c.yaml", "- name: 1", "name"));
        assert!(!cut("s.css", "a { --main: 1 }", "main"));
        assert!(!cut("p.html", "<!-- x -->", "->"));
    }

    #[test]
    fn a_dollar_opens_a_name_where_the_language_names_with_it() {
        for path in ["j.js", "t.ts", "p.php", "k.ps1", "m.pl"] {
            assert!(cut(path, "let $count = 0;", "count"), "{path}");
        }
        // A shell's `$` is a sigil: the name is `VERSION`.
        for path in ["r.sh", "r.bash", "r.zsh", "r.ksh"] {
            assert!(!cut(path, "echo \"$VERSION\"", "VERSION"), "{path}");
        }
        assert!(!cut("a.py", "x = '$count'", "count"));
        assert!(!cut("r.sh", "echo $1", "1"));
        assert!(!cut("r.sh", "echo ${count}", "count"));
    }

    #[test]
    fn a_number_ends_where_its_unit_begins_in_a_style_sheet() {
        let text = "a { transition: opacity 0.5s; padding: 10px 1.5em; }";
        for path in ["s.css", "s.scss", "s.sass", "s.less", "s.styl"] {
            for before in ["s;", "px", "em"] {
                assert!(!cut(path, text, before), "{path}: {before}");
            }
        }
        // Elsewhere, inside the unit, in a name or a colour: a cut.
        assert!(cut("a.js", text, "px"));
        assert!(cut("s.css", text, "x 1"));
        assert!(cut("s.css", ".col-10px {}", "px"));
        assert!(cut("s.css", "a { color: #10ab; }", "ab"));
    }

    #[test]
    fn the_word_around_a_cut_holds_its_joins() {
        let bounds = |path: &str, text: &str, before: &str| {
            let at = text.find(before).expect("in text");
            let (start, end) = WordJoins::of(path).word_bounds(text, at, word);
            text[start..end].to_string()
        };
        assert_eq!(bounds("c.yaml", "  host-name: a", "name"), "host-name");
        assert_eq!(
            bounds("s.css", ".btn-primary-x {", "primary"),
            "btn-primary-x"
        );
        assert_eq!(bounds("j.js", "let $count = 0;", "count"), "$count");
        assert_eq!(bounds("c.yaml", "  host-name: a", "-name"), "host-name");
        assert_eq!(bounds("a.py", "host-name", "name"), "name");
    }

    #[test]
    fn a_decimal_point_between_digits_is_inside_a_number() {
        fn number(text: &str, at: usize) -> Option<&str> {
            number_bounds(text, at).map(|(s, e)| &text[s..e])
        }
        assert_eq!(number("T = 1.5\n", 5), Some("1.5"));
        assert_eq!(number("T = 1.5\n", 6), Some("1.5"));
        assert_eq!(number("django==4.2.11\n", 11), Some("4.2.11"));
        assert_eq!(number("x = 0..10", 5), None);
        assert_eq!(number("see 1. Item", 5), None);
        assert_eq!(number("a[1].b", 3), None);
    }
}
