//! Conditional directives the edit leaves open or closing none: C's
//! preprocessor (`#if`, `#ifdef`, `#ifndef` .. `#elif`, `#else` ..
//! `#endif`) and make's (`ifeq`, `ifneq`, `ifdef`, `ifndef` .. `else` ..
//! `endif`; `define` .. `endef`). An `#endif` the model leaves out of its
//! new text makes every later line conditional, and gcc refuses the file
//! (`unterminated #else`); make stops before any rule (`missing 'endif'`).
//! Brackets stay balanced, so no other check sees it (tester 50 T-04,
//! T-07).
//!
//! Judged only where the file before the edit reads whole (every
//! conditional closed, none closing nothing): a file whose conditionals
//! continue in another (an included fragment) is not read.

use super::file_kind::FileKind;

/// Which directives are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lang {
    /// C, C++, Objective-C: the preprocessor's `#` lines.
    C,
    /// GNU make's conditional and `define` lines.
    Make,
}

/// C-family file names (their preprocessor runs over them).
const C_SUFFIXES: [&str; 13] = [
    ".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".m", ".mm", ".ino",
];

impl Lang {
    fn of(path: &str, original: &str, result: &str) -> Option<Lang> {
        let lower = path.to_ascii_lowercase();
        if C_SUFFIXES.iter().any(|s| lower.ends_with(s)) {
            return Some(Lang::C);
        }
        (FileKind::of_edit(path, original, result) == FileKind::Makefile).then_some(Lang::Make)
    }

    /// The tool whose words the sentence quotes.
    fn tool(self) -> &'static str {
        match self {
            Lang::C => "the C preprocessor (gcc)",
            Lang::Make => "make",
        }
    }
}

/// What is wrong with a text's conditionals: the first fault met.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Fault {
    /// A conditional opened by `opener` on `line` and never closed; `last`:
    /// its last branch's directive and line (the opener's own when it has
    /// none), as gcc names it.
    Open {
        opener: (String, usize),
        last: (String, usize),
    },
    /// `word` on `line` closes or continues no open conditional, or comes
    /// after its conditional's `else`.
    Stray {
        word: String,
        line: usize,
        after_else: bool,
    },
}

/// A conditional the edit leaves open or a directive it leaves closing
/// none, where the file before read whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionalBreak {
    lang: Lang,
    fault: Fault,
}

impl ConditionalBreak {
    /// The fault with what to send instead.
    pub fn describe(&self) -> String {
        let advice = match (&self.fault, self.lang) {
            (Fault::Open { .. }, Lang::C) => {
                "send the new text with the `#endif` that closes it, or without the line that \
                 opens it"
            }
            (Fault::Open { opener, .. }, Lang::Make) if opener.0 == "define" => {
                "send the new text with the `endef` that closes it, or without the `define`"
            }
            (Fault::Open { .. }, Lang::Make) => {
                "send the new text with the `endif` that closes it, or without the line that \
                 opens it"
            }
            (Fault::Stray { .. }, _) => {
                "leave it out of the new text, or send the line that opens its conditional too"
            }
        };
        format!("{}: {advice}", self.fault())
    }

    /// What the result does, in the tool's words.
    pub fn fault(&self) -> String {
        let tool = self.lang.tool();
        match (&self.fault, self.lang) {
            (Fault::Open { opener, last }, lang) => {
                let closer = match (lang, opener.0.as_str()) {
                    (Lang::C, _) => "#endif",
                    (Lang::Make, "define") => "endef",
                    (Lang::Make, _) => "endif",
                };
                let branch = if last.1 == opener.1 {
                    String::new()
                } else {
                    format!(" (its last branch `{}` on line {})", last.0, last.1)
                };
                let said = match (lang, opener.0.as_str()) {
                    (Lang::C, _) => format!("unterminated {}", last.0),
                    (Lang::Make, "define") => "missing 'endef', unterminated 'define'".to_string(),
                    (Lang::Make, _) => "missing 'endif'".to_string(),
                };
                let effect = match lang {
                    Lang::C => "every line after it is compiled only as that condition says",
                    Lang::Make => "make stops before it reads any rule",
                };
                format!(
                    "as written, the `{}` on line {}{branch} is never closed: no `{closer}` \
                     follows it, where the file before closed each conditional ({tool} refuses \
                     the file: `{said}`; {effect})",
                    opener.0, opener.1
                )
            }
            (
                Fault::Stray {
                    word,
                    line,
                    after_else,
                },
                lang,
            ) => {
                let said = match (lang, *after_else) {
                    (Lang::C, true) => format!("{word} after #else"),
                    (Lang::C, false) => format!("{word} without #if"),
                    (Lang::Make, true) => "only one 'else' per conditional".to_string(),
                    (Lang::Make, false) => format!("extraneous '{word}'"),
                };
                let what = if *after_else {
                    "comes after its conditional's last branch"
                } else {
                    "closes no open conditional"
                };
                format!(
                    "as written, the `{word}` on line {line} {what}, where the file before \
                     closed each conditional ({tool} refuses the file: `{said}`)"
                )
            }
        }
    }
}

/// The conditional break `result` has where `original` read whole: a
/// conditional left open, or a directive closing none (C-family files and
/// Makefiles; `None` for any other file, where `original` has a fault of
/// its own, or where srview is unsure how make reads a line).
pub fn conditionals_unbalanced(
    path: &str,
    original: &str,
    result: &str,
) -> Option<ConditionalBreak> {
    let lang = Lang::of(path, original, result)?;
    let read = |text: &str| match lang {
        Lang::C => Some(c_fault(text)),
        Lang::Make => make_fault(text),
    };
    match (read(original)?, read(result)?) {
        (None, Some(fault)) => Some(ConditionalBreak { lang, fault }),
        _ => None,
    }
}

/// The open conditionals while reading: each opener and its last branch
/// (directive, line), and whether that branch is an `else`.
type Stack = Vec<((String, usize), (String, usize), bool)>;

/// One directive read: opening, continuing (`else`/`elif`) or closing.
enum Step {
    Open,
    Branch { is_else: bool },
    Close,
}

/// Feeds one directive to `stack`; the fault it makes, if any.
fn step(stack: &mut Stack, word: &str, line: usize, what: Step) -> Option<Fault> {
    let stray = |after_else| Fault::Stray {
        word: word.to_string(),
        line,
        after_else,
    };
    match what {
        Step::Open => {
            stack.push(((word.to_string(), line), (word.to_string(), line), false));
            None
        }
        Step::Branch { is_else } => match stack.last_mut() {
            None => Some(stray(false)),
            Some((_, _, true)) => Some(stray(true)),
            Some((_, last, seen_else)) => {
                *last = (word.to_string(), line);
                *seen_else = is_else;
                None
            }
        },
        Step::Close => stack.pop().is_none().then(|| stray(false)),
    }
}

/// The innermost conditional still open at the end, as a fault.
fn left_open(stack: Stack) -> Option<Fault> {
    stack
        .into_iter()
        .next_back()
        .map(|(opener, last, _)| Fault::Open { opener, last })
}

/// The first conditional fault of a C-family text: its directive lines
/// (`#` first on a line, outside a block comment and not continuing the
/// line above), read with gcc's nesting.
fn c_fault(text: &str) -> Option<Fault> {
    let mut stack: Stack = Vec::new();
    let mut in_comment = false;
    let mut continued = false;
    for (i, line) in text.lines().enumerate() {
        let starts_in_comment = in_comment;
        let was_continued = continued;
        in_comment = comment_open_after(line, in_comment);
        continued = !in_comment && line.trim_end().ends_with('\\');
        if starts_in_comment || was_continued {
            continue;
        }
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let rest = rest.trim_start();
        let word_end = rest
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(rest.len());
        let what = match &rest[..word_end] {
            "if" | "ifdef" | "ifndef" => Step::Open,
            "elif" | "elifdef" | "elifndef" => Step::Branch { is_else: false },
            "else" => Step::Branch { is_else: true },
            "endif" => Step::Close,
            _ => continue,
        };
        let word = format!("#{}", &rest[..word_end]);
        if let Some(fault) = step(&mut stack, &word, i + 1, what) {
            return Some(fault);
        }
    }
    left_open(stack)
}

/// Whether a `/* */` comment is open at the end of `line`, given whether
/// one was open at its start (strings and character literals, which end
/// with their line, hide comment openers; `//` ends the line's code).
fn comment_open_after(line: &str, mut in_comment: bool) -> bool {
    let bytes = line.as_bytes();
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        if in_comment {
            if b == b'*' && next == Some(b'/') {
                in_comment = false;
                i += 2;
                continue;
            }
        } else if let Some(q) = quote {
            if b == b'\\' {
                i += 2;
                continue;
            }
            if b == q {
                quote = None;
            }
        } else if b == b'/' && next == Some(b'*') {
            in_comment = true;
            i += 2;
            continue;
        } else if b == b'/' && next == Some(b'/') {
            return false;
        } else if b == b'"' || b == b'\'' {
            quote = Some(b);
        }
        i += 1;
    }
    in_comment
}

/// The first conditional fault of a Makefile (`Some(None)`: none), read
/// as GNU make nests `ifeq`/`ifneq`/`ifdef`/`ifndef` .. `else` .. `endif`
/// and `define` .. `endef`; `None` where srview is unsure: a tab-indented
/// line starting with a conditional word (a recipe line, or a directive,
/// by where it stands).
fn make_fault(text: &str) -> Option<Option<Fault>> {
    let mut stack: Stack = Vec::new();
    // Nested `define`s: their bodies hold no directives but `define` and
    // `endef`.
    let mut defines: Vec<usize> = Vec::new();
    let mut continued = false;
    for (i, line) in text.lines().enumerate() {
        let was_continued = continued;
        continued = continues(line);
        if was_continued {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().take(3).collect();
        let first = words.first().copied().unwrap_or("");
        // `override define`, `export define`, `private define`.
        let defining = first == "define"
            || (matches!(first, "override" | "export" | "private")
                && words.get(1) == Some(&"define"));
        let keyword = |w: &str| {
            matches!(
                w.split('(').next().unwrap_or(""),
                "ifeq" | "ifneq" | "ifdef" | "ifndef" | "else" | "endif"
            )
        };
        if line.starts_with('\t') {
            if defines.is_empty() && (keyword(first) || defining || first == "endef") {
                return None;
            }
            continue;
        }
        if first.starts_with('#') {
            continue;
        }
        if defining {
            defines.push(i + 1);
            continue;
        }
        if first == "endef" {
            if defines.pop().is_none() {
                return Some(Some(Fault::Stray {
                    word: "endef".to_string(),
                    line: i + 1,
                    after_else: false,
                }));
            }
            continue;
        }
        if !defines.is_empty() {
            continue;
        }
        let head = first.split('(').next().unwrap_or("");
        // A conditional word followed by `=` or `:` sets a variable or
        // names a target (`ifeq := 1`).
        if words
            .get(1)
            .is_some_and(|w| w.starts_with('=') || w.starts_with(":=") || w.starts_with("?="))
        {
            continue;
        }
        let what = match head {
            "ifeq" | "ifneq" | "ifdef" | "ifndef" => Step::Open,
            "else" => Step::Branch { is_else: true },
            "endif" => Step::Close,
            _ => continue,
        };
        // `else ifeq (..)`: a branch with a condition.
        let what = match (
            what,
            words.get(1).map(|w| w.split('(').next().unwrap_or("")),
        ) {
            (Step::Branch { .. }, Some("ifeq" | "ifneq" | "ifdef" | "ifndef")) => {
                Step::Branch { is_else: false }
            }
            (what, _) => what,
        };
        if let Some(fault) = step(&mut stack, head, i + 1, what) {
            return Some(Some(fault));
        }
    }
    if let Some(&line) = defines.last() {
        return Some(Some(Fault::Open {
            opener: ("define".to_string(), line),
            last: ("define".to_string(), line),
        }));
    }
    Some(left_open(stack))
}

/// Whether a Makefile line continues onto the next (an odd run of `\` at
/// its end).
fn continues(line: &str) -> bool {
    let trimmed = line.trim_end_matches(['\r']);
    let run = trimmed.len() - trimmed.trim_end_matches('\\').len();
    run % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "#ifndef H_H\n#define H_H\n#ifdef DEBUG\n#define LOG(x) puts(x)\n\
                          #else\n#define LOG(x)\n#endif\n\nint f(void);\n#endif\n";

    /// The tester's T-04 (h.c): the `#else` branch's macro rewritten and
    /// its `#endif` dropped: gcc says `unterminated #else`. Under an
    /// include guard, the guard's `#endif` closes the inner conditional
    /// and the guard is left open, as gcc says too.
    #[test]
    fn an_endif_the_new_text_drops_is_said_with_gccs_words() {
        let file = "#include <stdio.h>\n\n#ifdef DEBUG\n#define LOG(x) printf(\"%s\\n\", x)\n\
                    #else\n#define LOG(x)\n#endif\n\nstruct point {\n    int x;\n};\n";
        let result = file.replace("#define LOG(x)\n#endif\n", "#define LOG(x) (void)0\n");
        let found = conditionals_unbalanced("h.c", file, &result).expect("a break");
        assert_eq!(
            found.fault(),
            "as written, the `#ifdef` on line 3 (its last branch `#else` on line 5) is never \
             closed: no `#endif` follows it, where the file before closed each conditional (the \
             C preprocessor (gcc) refuses the file: `unterminated #else`; every line after it is \
             compiled only as that condition says)"
        );
        assert!(found.describe().ends_with(
            "send the new text with the `#endif` that closes it, or without the line that opens \
             it"
        ));
        let guarded = HEADER.replace("#define LOG(x)\n#endif\n", "#define LOG(x) (void)0\n");
        let found = conditionals_unbalanced("h.h", HEADER, &guarded).expect("a break");
        assert!(
            found.fault().starts_with(
                "as written, the `#ifndef` on line 1 is never closed: no `#endif` follows it"
            ) && found.fault().contains("`unterminated #ifndef`"),
            "{}",
            found.fault()
        );
    }

    /// An `#endif` added twice, an `#else` after an `#else`, and a new
    /// `#if` with no end, each with gcc's error.
    #[test]
    fn a_stray_endif_a_second_else_and_a_new_if_are_said() {
        let stray = HEADER.replace("int f(void);\n", "int f(void);\n#endif\n");
        let found = conditionals_unbalanced("h.h", HEADER, &stray).expect("stray");
        assert!(
            found.fault().contains("`#endif without #if`"),
            "{}",
            found.fault()
        );
        let twice = HEADER.replace("#endif\n\n", "#else\n#define LOG(x) 0\n#endif\n\n");
        let found = conditionals_unbalanced("h.h", HEADER, &twice).expect("else twice");
        assert!(
            found.fault().contains("`#else after #else`"),
            "{}",
            found.fault()
        );
        let found =
            conditionals_unbalanced("a.cpp", "int a;\n", "int a;\n#if X\nint b;\n").expect("open");
        assert!(
            found
                .fault()
                .starts_with("as written, the `#if` on line 2 is never closed"),
            "{}",
            found.fault()
        );
    }

    /// Harmless edits, directives in comments and continued lines, files
    /// already broken before and other file kinds are not doubted.
    #[test]
    fn harmless_edits_and_unread_places_are_not_doubted() {
        for (before, after) in [
            (HEADER, HEADER.replace("puts(x)", "fputs(x, stderr)")),
            (
                HEADER,
                HEADER.replace("int f(void);\n", "/*\n#if 0\n*/\nint f(void);\n"),
            ),
            (
                HEADER,
                HEADER.replace("int f(void);\n", "#define A \\\n#if\nint f(void);\n"),
            ),
            (
                HEADER,
                HEADER.replace("int f(void);\n", "// #endif\nint f(void);\n"),
            ),
            (
                HEADER,
                HEADER.replace("int f(void);\n", "char *s = \"/*\";\n#if A\n#endif\n"),
            ),
            ("#if A\nint x;\n", "#if A\nint y;\n".to_string()),
        ] {
            assert_eq!(
                conditionals_unbalanced("h.c", before, &after),
                None,
                "{after}"
            );
        }
        let dropped = HEADER.replace("#define LOG(x)\n#endif\n", "#define LOG(x) 0\n");
        assert_eq!(conditionals_unbalanced("h.py", HEADER, &dropped), None);
    }

    const MAKEFILE: &str = "CC ?= cc\nifeq ($(MODE),release)\nCFLAGS += -O2\nendif\n\
                            define HELP\nifeq is not read here\nendef\n\nall:\n\tifeq x y\n";

    /// The tester's T-07 (with no tab-indented `ifeq` in its file): make
    /// stops on `missing 'endif'`; a `define` left open and an extra
    /// `endif` with make's words too.
    #[test]
    fn a_makefile_endif_or_endef_dropped_or_added_is_said() {
        let file = MAKEFILE.replace("\tifeq x y\n", "\t$(CC) -o app app.c\n");
        let result = file.replace("CFLAGS += -O2\nendif\n", "CFLAGS += -O2 -DNDEBUG\n");
        let found = conditionals_unbalanced("Makefile", &file, &result).expect("a break");
        assert_eq!(
            found.fault(),
            "as written, the `ifeq` on line 2 is never closed: no `endif` follows it, where the \
             file before closed each conditional (make refuses the file: `missing 'endif'`; \
             make stops before it reads any rule)"
        );
        let define = file.replace("endef\n", "");
        let found = conditionals_unbalanced("Makefile", &file, &define).expect("define");
        assert!(
            found
                .fault()
                .contains("`missing 'endef', unterminated 'define'`"),
            "{}",
            found.fault()
        );
        let extra = file.replace("CC ?= cc\n", "CC ?= cc\nendif\n");
        let found = conditionals_unbalanced("Makefile", &file, &extra).expect("extra");
        assert!(
            found.fault().contains("`extraneous 'endif'`"),
            "{}",
            found.fault()
        );
        let branch = file.replace(
            "endif\n",
            "else ifeq ($(MODE),debug)\nCFLAGS += -g\nendif\n",
        );
        assert_eq!(conditionals_unbalanced("Makefile", &file, &branch), None);
    }

    /// A tab-indented line starting with a conditional word outside a
    /// `define`: make reads it as a recipe or a directive by where it
    /// stands; srview does not judge such a file.
    #[test]
    fn a_tab_indented_conditional_word_makes_the_makefile_unread() {
        let result = MAKEFILE.replace("CFLAGS += -O2\nendif\n", "CFLAGS += -O2\n");
        assert_eq!(conditionals_unbalanced("Makefile", MAKEFILE, &result), None);
    }
}
