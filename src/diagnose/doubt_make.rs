//! *Pure.* A Makefile recipe line an exact edit adds indented with spaces
//! (a tester's find: `    strip app` added under `\tcc -o app main.c`
//! passed every check, and GNU make then stopped: `*** missing separator.
//! Stop.`; another: a whole new rule `gen:` whose recipe was in spaces,
//! the common case of a model adding a target with no tab line to copy).
//! The Makefile twin of Python's TabError ([`super::doubt_indent`]), by
//! evidence only:
//! - the file is a Makefile ([`super::file_kind`]: `Makefile`, `makefile`,
//!   `GNUmakefile`, `BSDmakefile`, `*.mk`, `Makefile.in`, ..., or a first
//!   line `#!` naming make, as `debian/rules`) and sets no `.RECIPEPREFIX`
//!   (before or after the edit);
//! - the line is one the edit adds (not among the lines it replaces), not
//!   blank, not a comment, starts with a space, and is not a line make
//!   reads at any indentation (an assignment of one variable name, a
//!   rule, a directive such as `ifeq`/`endif`/`include`; of a line
//!   starting with a reference, only an assignment to a name holding
//!   references, a rule, or a lone call of `info`, `warning`, `error` or
//!   `eval`: `$(CC) -c $<` in spaces is a fault, make stops at it or,
//!   where it expands to nothing, drops it);
//! - it is not the continuation of the line before (ending with `\`) nor
//!   inside a `define` ... `endef`;
//! - it stands where make reads a recipe: going up from it past blank
//!   lines, comments, continuation lines, conditionals (`ifeq` ...
//!   `endif`) and other recipe lines, the first line met is a rule line
//!   (`target: ...`, special targets such as `.PHONY:` too) or a
//!   tab-indented recipe line; an assignment or any other line met first
//!   ends the search.

/// A recipe line an edit adds with spaces where make wants a tab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecipeBreak {
    /// The result's line (1-based).
    pub line: usize,
    /// That line, trimmed.
    pub text: String,
    /// How many spaces (and tabs after them) indent it.
    pub indent: usize,
    /// The tab-indented recipe line or rule it follows (1-based).
    pub recipe: usize,
    /// The rule line, trimmed, where no line of its recipe starts with a
    /// tab (the whole recipe is in spaces); `None` where one does.
    pub rule: Option<String>,
    /// Where the line is one make reads as ending the recipe (an
    /// assignment, `$(info ...)`): the tab-indented line after it make
    /// stops at (1-based) and that line, trimmed; `None` for a line make
    /// takes for no recipe line.
    pub stop: Option<(usize, String)>,
}

impl RecipeBreak {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        if self.stop.is_some() {
            return format!(
                "{}: send it indented with a tab, or out of the recipe",
                self.fault()
            );
        }
        match &self.rule {
            None => format!(
                "{}: send the recipe lines indented with a tab, as the file's are",
                self.fault()
            ),
            Some(_) => format!(
                "{}: send the recipe lines indented with a tab",
                self.fault()
            ),
        }
    }

    /// [`Self::describe`] without what to send instead: the fault alone.
    pub fn fault(&self) -> String {
        if let Some((stop, text)) = &self.stop {
            return format!(
                "as written, line {} (`{}`) is indented with spaces in the recipe of line {}: \
                 make reads it as a makefile line ending the recipe, and stops at the recipe \
                 line after it, line {} (`{}`: `*** recipe commences before first target.  \
                 Stop.`)",
                self.line, self.text, self.recipe, stop, text
            );
        }
        // A line starting with a reference make expands first: to nothing
        // (`$(STRIP)` unset), the line is read as empty.
        let dropped = if self.text.starts_with('$') {
            ", or drops the line where it expands to nothing"
        } else {
            ""
        };
        match &self.rule {
            None => format!(
                "as written, line {} (`{}`) is indented with spaces in a recipe whose lines \
                 start with a tab (line {}): make takes a recipe line only after a tab and stops \
                 there (`*** missing separator.  Stop.`){dropped}",
                self.line, self.text, self.recipe
            ),
            Some(rule) => format!(
                "as written, line {} (`{}`) is indented with {} {} (column {}) in the recipe of \
                 the rule on line {} (`{}`): make takes a recipe line only after a tab and stops \
                 there (`*** missing separator.  Stop.`){dropped}",
                self.line,
                self.text,
                self.indent,
                if self.indent == 1 { "space" } else { "spaces" },
                self.indent + 1,
                self.recipe,
                rule
            ),
        }
    }
}

/// Directives make reads at any indentation.
const DIRECTIVES: [&str; 19] = [
    "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "include", "-include", "sinclude",
    "define", "endef", "export", "unexport", "override", "private", "vpath", "undefine", "load",
    "-load",
];

/// The directives of a conditional, which may stand among recipe lines.
const CONDITIONALS: [&str; 6] = ["ifeq", "ifneq", "ifdef", "ifndef", "else", "endif"];

/// The first word of `line`.
fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// Whether `text` (a line without its indentation) assigns a variable:
/// one name before `=` (`X = 1`, `X += 1`, `X ?= 1`, `X != cmd`). make
/// refuses a name with white space in it (`go test -run=X` is no
/// assignment: `*** missing separator.`).
fn assignment(text: &str) -> bool {
    text.split_once('=').is_some_and(|(name, _)| {
        let name = name.trim_end_matches(['+', '?', '!', ':']).trim();
        !name.is_empty() && !name.contains(char::is_whitespace)
    })
}

/// Whether make reads `text` (a line without its indentation) as no
/// recipe line at any indentation: an assignment, a rule, a directive; of
/// a line starting with `$`, what [`reference_read`] says.
fn read_at_any_indent(text: &str) -> bool {
    if text.starts_with('$') {
        return reference_read(text);
    }
    assignment(text) || text.contains(':') || DIRECTIVES.contains(&first_word(text))
}

/// The characters of `text` outside variable references and function
/// calls (`$(...)`, `${...}`, nested), with their byte offsets; `$$` (a
/// literal `$`) is skipped.
fn outside_references(text: &str) -> Vec<(usize, char)> {
    let mut outside = Vec::new();
    let mut depth = 0usize;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '$' => match chars.peek().map(|&(_, next)| next) {
                Some('(' | '{') => {
                    chars.next();
                    depth += 1;
                }
                Some('$') => {
                    chars.next();
                }
                _ => {}
            },
            '(' | '{' if depth > 0 => depth += 1,
            ')' | '}' if depth > 0 => depth -= 1,
            _ if depth == 0 => outside.push((at, c)),
            _ => {}
        }
    }
    outside
}

/// Where the reference `text` starts with (`$(` or `${`) ends: the byte
/// offset after its closing bracket; `None` where it is not closed.
fn reference_end(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (at, c) in text.char_indices().skip(1) {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Make functions that expand to nothing, so that a line holding only a
/// call of one is read by make as an empty line (`$(info built)` prints
/// while make reads the file).
const EMPTY_FUNCTIONS: [&str; 4] = ["info", "warning", "error", "eval"];

/// Whether make reads `text`, a line starting with a variable reference
/// or a function call (`$(CC) -c $<`, `${NAME} = 1`), as no recipe line
/// at any indentation (GNU make 4.3, `make -n`):
/// - an assignment: `=`, `:=`, `::=`, `?=`, `+=` or `!=` after one name,
///   which may hold references (`$(N) = 1`, `$(N)_X := 1`), with no white
///   space outside them (`$(N) x = 3`, `$(GO) test -run=X`: `*** missing
///   separator.`);
/// - a rule: a `:` outside the references followed by white space, `:`,
///   `;` or the end (`$(BIN): $(OBJS)`; `-v $(PWD):/src` is a command);
/// - one call standing alone of a function expanding to nothing
///   ([`EMPTY_FUNCTIONS`]).
///
/// Any other such line (`$(CC) -c $<`, `$(MAKE) -C sub`, `$(STRIP)`) make
/// expands and reads as a makefile line: `*** missing separator.  Stop.`,
/// or nothing at all where the expansion is empty (the command is lost).
fn reference_read(text: &str) -> bool {
    reference_line(text).is_some()
}

/// How make reads a line starting with a reference, where it reads it at
/// any indentation ([`reference_read`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReferenceLine {
    /// `$(N) = 1`: ends a rule's recipe.
    Assignment,
    /// `$(BIN): $(OBJS)`: starts another rule.
    Rule,
    /// `$(info ...)`, `$(warning ...)`, `$(eval ...)`: ends a rule's
    /// recipe.
    Call,
    /// `$(error ...)`: stops make where it is read.
    Error,
}

/// [`reference_read`], saying how; `None` for a line make reads as a
/// makefile line it stops at or drops.
fn reference_line(text: &str) -> Option<ReferenceLine> {
    let outside = outside_references(text);
    let end = outside
        .iter()
        .find(|&&(_, c)| c == '#')
        .map_or(text.len(), |&(at, _)| at);
    let text = &text[..end];
    let outside: Vec<(usize, char)> = outside.into_iter().filter(|&(at, _)| at < end).collect();
    match outside.iter().find(|&&(_, c)| c == '=' || c == ':') {
        None => {
            let call = text.trim_end();
            let name = call
                .get(2..)
                .and_then(|inner| inner.split([' ', '\t', ')', '}']).next())
                .unwrap_or("");
            (reference_end(call) == Some(call.len()) && EMPTY_FUNCTIONS.contains(&name)).then_some(
                if name == "error" {
                    ReferenceLine::Error
                } else {
                    ReferenceLine::Call
                },
            )
        }
        Some(&(at, c)) => {
            let rest = &text[at..];
            let name_end = if c == '=' {
                text[..at].trim_end_matches(['+', '?', '!']).len()
            } else if rest.starts_with(":=") || rest.starts_with("::=") || rest.starts_with(":::=")
            {
                at
            } else {
                let after = rest.trim_start_matches(':').chars().next();
                return after
                    .is_none_or(|next| next.is_whitespace() || next == ';')
                    .then_some(ReferenceLine::Rule);
            };
            let name = text[..name_end].trim_end();
            (!name.is_empty()
                && !outside
                    .iter()
                    .any(|&(spot, c)| spot < name.len() && c.is_whitespace()))
            .then_some(ReferenceLine::Assignment)
        }
    }
}

/// Whether make, reading `text` (a line without its indentation) in a
/// rule's recipe, ends the recipe there, so that a tab-indented line
/// after it stops make (`*** recipe commences before first target.
/// Stop.`): an assignment, a directive other than a conditional or a
/// `define` ... `endef`, a lone call of `info`, `warning` or `eval` (`make
/// -n`, GNU make 4.3). Not a rule (another rule's recipe follows), nor a
/// lone `$(error ...)` (make stops at it anyway), nor a comment.
fn ends_recipe(text: &str) -> bool {
    if text.starts_with('$') {
        return matches!(
            reference_line(text),
            Some(ReferenceLine::Assignment | ReferenceLine::Call)
        );
    }
    let word = first_word(text);
    assignment(text)
        || (DIRECTIVES.contains(&word)
            && !CONDITIONALS.contains(&word)
            && !["define", "endef"].contains(&word))
}

/// Whether `line` is a rule line: unindented, no directive, a `:` that is
/// no `:=` and comes before any `=` (`URL = http://x` is an assignment;
/// `app: CFLAGS = -O2` a rule's variable).
fn rule(line: &str) -> bool {
    if line.starts_with([' ', '\t']) || DIRECTIVES.contains(&first_word(line)) {
        return false;
    }
    let text = line.trim();
    !text.starts_with('#')
        && text
            .find(':')
            .is_some_and(|colon| text.find('=').is_none_or(|eq| colon < eq) && !text.contains(":="))
}

/// Whether `line` is a line of code: not blank, not a comment.
fn code(line: &str) -> bool {
    let text = line.trim();
    !text.is_empty() && !text.starts_with('#')
}

/// Whether `lines[at]` continues the line before it (ending with `\`).
fn continued(lines: &[&str], at: usize) -> bool {
    at > 0 && lines[at - 1].trim_end_matches('\r').ends_with('\\')
}

/// Where make reads `lines[at]` as a recipe line: the tab-indented recipe
/// line or the rule line met first going up from it, past blank lines,
/// comments, continuations, conditionals and lines indented with spaces
/// make reads as no directive nor assignment (other recipe lines in
/// spaces); `None` where another line is met first.
pub(super) fn recipe_above(lines: &[&str], at: usize) -> Option<usize> {
    (0..at).rev().find_map(|up| {
        let line = lines[up];
        let text = line.trim();
        if !code(line) || continued(lines, up) || CONDITIONALS.contains(&first_word(text)) {
            None
        } else if line.starts_with('\t') || rule(line) {
            Some(Some(up))
        } else if line.starts_with(' ') && !read_at_any_indent(text) {
            None
        } else {
            Some(None)
        }
    })?
}

/// The line after `lines[at]`, past blank lines, comments, continuations
/// (of it too) and conditionals, where that line starts with a tab.
fn tab_line_after(lines: &[&str], at: usize) -> Option<usize> {
    (at + 1..lines.len())
        .find(|&below| {
            code(lines[below])
                && !continued(lines, below)
                && !CONDITIONALS.contains(&first_word(lines[below]))
        })
        .filter(|&below| lines[below].starts_with('\t'))
}

/// The first recipe line `result` (the Makefile `path` as an edit leaves
/// it) adds with spaces where make wants a tab, and `original` (the file
/// before) did not hold; `None` for a file srview does not read as a
/// Makefile, or one that sets `.RECIPEPREFIX`.
pub fn recipe_break(path: &str, original: &str, result: &str) -> Option<RecipeBreak> {
    if super::file_kind::FileKind::of_edit(path, original, result)
        != super::file_kind::FileKind::Makefile
    {
        return None;
    }
    make_break(original, result)
}

/// [`recipe_break`] of a file known to be a Makefile.
pub(super) fn make_break(original: &str, result: &str) -> Option<RecipeBreak> {
    if original == result || original.contains(".RECIPEPREFIX") || result.contains(".RECIPEPREFIX")
    {
        return None;
    }
    let (old, new, prefix, suffix) = crate::textdiff::changed_lines(original, result);
    let replaced = &old[prefix..old.len() - suffix];
    let mut in_define = false;
    for (at, line) in new.iter().enumerate().take(new.len() - suffix) {
        let continues = continued(&new, at);
        if !continues {
            match first_word(line) {
                "define" => in_define = true,
                "endef" => in_define = false,
                _ => {}
            }
        }
        if at < prefix || in_define || continues || !line.starts_with(' ') || !code(line) {
            continue;
        }
        if replaced.contains(line) {
            continue;
        }
        let text = line.trim();
        let stop = if read_at_any_indent(text) {
            match tab_line_after(&new, at) {
                Some(stop) if ends_recipe(text) => Some((stop + 1, new[stop].trim().to_string())),
                _ => continue,
            }
        } else {
            None
        };
        let Some(recipe) = recipe_above(&new, at) else {
            continue;
        };
        // A rule line: whether a line of its recipe below starts with a tab.
        let tabbed = new[recipe].starts_with('\t')
            || new[recipe + 1..]
                .iter()
                .enumerate()
                .filter(|(below, l)| code(l) && !continued(&new, recipe + 1 + below))
                .take_while(|(_, l)| !rule(l) && (l.starts_with([' ', '\t'])))
                .any(|(_, l)| l.starts_with('\t'));
        return Some(RecipeBreak {
            line: at + 1,
            text: line.trim().to_string(),
            indent: line.len() - line.trim_start().len(),
            recipe: recipe + 1,
            rule: (!tabbed).then(|| new[recipe].trim().to_string()),
            stop,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_none;
    use crate::diagnose::doubt::test_edits::{check_after, check_before, check_edit};

    const MAKEFILE: &str = "all: app\n\napp: main.c\n\tcc -o app main.c\n\nclean:\n\trm -f app\n";

    /// Asserts no fault in a `Makefile` edited from `original` to
    /// `write(added)`, for every `added` of `cases`, naming the failing one.
    fn assert_none_added(original: &str, write: impl Fn(&str) -> String, cases: &[&str]) {
        assert_none(
            |added| recipe_break("Makefile", original, &write(added)),
            cases,
        );
    }

    #[test]
    fn a_recipe_line_added_with_spaces_is_a_fault() {
        let found = check_edit(
            recipe_break,
            "Makefile",
            MAKEFILE,
            "main.c\n\n",
            "main.c\n    strip app\n\n",
        )
        .expect("a fault");
        assert_eq!(
            (found.line, &*found.text, found.recipe),
            (5, "strip app", 4)
        );
        // The first recipe line of a rule whose next one has a tab.
        assert_eq!(
            check_after(
                recipe_break,
                "rules.mk",
                MAKEFILE,
                "app: main.c\n",
                "    mkdir -p out\n"
            )
            .map(|f| (f.line, f.recipe)),
            Some((4, 3))
        );
    }

    /// A new rule whose recipe is all in spaces (a tester's find: `gen:`
    /// added with `    go generate ./...`; make: `Makefile:7: *** missing
    /// separator.  Stop.`), under a special target, past a blank line, and
    /// a command holding `=` after a name with a space (make reads no
    /// assignment there: `missing separator`).
    #[test]
    fn a_rule_whose_recipe_is_all_in_spaces_is_a_fault() {
        let makefile = "all: build\n\nbuild:\n\tgo build ./...\n\ntest:\n\tgo test ./...\n";
        let found = check_before(
            recipe_break,
            "Makefile",
            makefile,
            "test:\n",
            "gen:\n    go generate ./...\n\n",
        )
        .expect("a fault");
        assert_eq!(
            found.describe(),
            "as written, line 7 (`go generate ./...`) is indented with 4 spaces (column 5) in \
             the recipe of the rule on line 6 (`gen:`): make takes a recipe line only after a \
             tab and stops there (`*** missing separator.  Stop.`): send the recipe lines \
             indented with a tab"
        );
        for (added, line, rule) in [
            (".PHONY: gen\n  echo gen\n", 7, ".PHONY: gen"),
            ("gen:\n\n    go generate ./...\n", 8, "gen:"),
            ("gen: a \\\n  b\n    go generate ./...\n", 8, "gen: a \\"),
            ("gen:\n    go test -run=X ./...\n", 7, "gen:"),
            ("gen:\n    # generate\n    go generate\n", 8, "gen:"),
            ("gen:\n  ifdef CI\n    go generate\n  endif\n", 8, "gen:"),
            (
                "gen: CFLAGS = -O2\n    go generate\n",
                7,
                "gen: CFLAGS = -O2",
            ),
        ] {
            let found = check_edit(
                recipe_break,
                "Makefile",
                makefile,
                "test:\n",
                &format!("{added}\ntest:\n"),
            );
            assert_eq!(
                found.map(|f| (f.line, f.rule)),
                Some((line, Some(rule.to_string()))),
                "{added:?}"
            );
        }
        // A second line in spaces under one: the first is named.
        assert_eq!(
            check_before(
                recipe_break,
                "Makefile",
                makefile,
                "test:\n",
                "gen:\n  a\n  b\n\n"
            )
            .map(|f| (f.line, f.indent, f.text)),
            Some((7, 2, "a".to_string()))
        );
    }

    /// A new rule's lines make reads in spaces: a continuation of a line
    /// ending with `\`, a `define` body, conditionals, an assignment, a
    /// comment, an `include`; a `.RECIPEPREFIX` in the file.
    #[test]
    fn a_new_rule_with_lines_make_reads_in_spaces_is_none() {
        let makefile = "all: build\n\nbuild:\n\tgo build ./...\n\ntest:\n\tgo test ./...\n";
        assert_none_added(
            makefile,
            |added| makefile.replace("test:\n", &format!("{added}\ntest:\n")),
            &[
                "gen:\n\tgo generate \\\n    ./...\n",
                "define GEN\n    go generate ./...\nendef\ngen:\n\t$(GEN)\n",
                "gen:\n  ifeq ($(CI),1)\n\tgo generate ./...\n  else\n\tgo generate -x ./...\n  endif\n",
                "gen:\n    GOFLAGS = -mod=vendor\n",
                "gen: export GOFLAGS := -mod=vendor\n    override X = 1\n",
                "gen:\n    # generate the code\n\tgo generate ./...\n",
                "gen:\n    include gen.mk\n",
            ],
        );
        let prefixed = format!(".RECIPEPREFIX = >\n{makefile}");
        assert_eq!(
            check_before(
                recipe_break,
                "Makefile",
                &prefixed,
                "test:\n",
                "gen:\n    go generate ./...\n\n"
            ),
            None
        );
    }

    /// Tabs, lines make reads at any indentation, continuations, a
    /// `define`, `.RECIPEPREFIX`, other file names, a line already there.
    #[test]
    fn lines_make_reads_are_none() {
        assert_none_added(
            MAKEFILE,
            |added| MAKEFILE.replace("main.c\n\n", &format!("main.c\n{added}\n")),
            &[
                "\tstrip app\n",
                "    VAR = 1\n",
                "  ifeq ($(X),1)\n",
                "  endif\n",
                "    # a comment\n",
                "    $(info built)\n",
                "\n",
            ],
        );
        assert_eq!(
            check_edit(
                recipe_break,
                "Makefile",
                MAKEFILE,
                "\tcc -o app main.c\n",
                "\tcc -o app \\\n    main.c\n"
            ),
            None
        );
        let defined = "define RUN\n\tcc x\nendef\n";
        let in_define = "define RUN\n\tcc x\n    strip x\nendef\n";
        assert_eq!(recipe_break("Makefile", defined, in_define), None);
        let prefixed = format!(".RECIPEPREFIX = >\n{MAKEFILE}");
        assert_eq!(
            check_edit(
                recipe_break,
                "Makefile",
                &prefixed,
                "main.c\n\n",
                "main.c\n    strip app\n\n"
            ),
            None
        );
        let result = MAKEFILE.replace("main.c\n\n", "main.c\n    strip app\n\n");
        assert_eq!(recipe_break("build.txt", MAKEFILE, &result), None);
        assert_eq!(
            check_after(recipe_break, "Makefile", &result, "rm -f app", " out"),
            None
        );
    }

    /// A recipe line in spaces starting with a variable reference (a
    /// tester's find: `$(MAKE) -C sub`, `$(CC) -c $<` and `$(STRIP) $@`
    /// passed; make: `*** missing separator.  Stop.`, or, with `STRIP`
    /// unset, the line silently gone): a fault, in a new rule and under a
    /// tab recipe line.
    #[test]
    fn a_recipe_line_in_spaces_starting_with_a_reference_is_a_fault() {
        let makefile = "all: build\n\nbuild:\n\tgo build ./...\n\ntest:\n\tgo test ./...\n";
        for command in [
            "$(MAKE) -C sub",
            "$(CC) -c $<",
            "${GO} test ./...",
            "$(STRIP) $@",
            "$(STRIP)",
            "$(GO) test -run=X ./...",
            "$(N) x = 3",
            "$(CC) -o a $(OBJS:.o=.c)",
            "$(DOCKER) run -v $(PWD):/src img",
            "$(call run_tests,unit)",
            "$(info built) more",
            "$(info a)$(CC)",
            "$(shell go generate)",
        ] {
            assert_eq!(
                check_edit(
                    recipe_break,
                    "Makefile",
                    makefile,
                    "test:\n",
                    &format!("gen:\n    {command}\n\ntest:\n")
                )
                .map(|f| (f.line, f.text, f.rule)),
                Some((7, command.to_string(), Some("gen:".to_string()))),
                "{command:?}"
            );
            assert_eq!(
                check_edit(
                    recipe_break,
                    "Makefile",
                    MAKEFILE,
                    "main.c\n\n",
                    &format!("main.c\n  {command}\n\n")
                )
                .map(|f| (f.line, f.recipe, f.rule)),
                Some((5, 4, None)),
                "{command:?}"
            );
        }
        let found = recipe_break(
            "Makefile",
            MAKEFILE,
            &MAKEFILE.replace("main.c\n\n", "main.c\n    $(STRIP) app\n\n"),
        )
        .expect("a fault");
        assert_eq!(
            found.fault(),
            "as written, line 5 (`$(STRIP) app`) is indented with spaces in a recipe whose \
             lines start with a tab (line 4): make takes a recipe line only after a tab and \
             stops there (`*** missing separator.  Stop.`), or drops the line where it expands \
             to nothing"
        );
    }

    /// Lines starting with a reference that make reads at any indentation
    /// (`make -n`, GNU make 4.3): an assignment to a name holding
    /// references, a rule, a call of a function expanding to nothing.
    #[test]
    fn a_reference_line_make_reads_is_none() {
        assert_none_added(
            MAKEFILE,
            |added| MAKEFILE.replace("main.c\n\n", &format!("main.c\n    {added}\n\n")),
            &[
                "$(N) = 1",
                "$(N)_X := 1",
                "$(N) += 1",
                "${N} ?= 2",
                "$(N) != echo hi",
                "$(N) ::= 3",
                "$(N)=1",
                "$(N) := a b:c",
                "$(BIN): $(OBJS)",
                "$(BIN)::",
                "$(info built)",
                "$(info built) # a comment",
                "$(warning $(CC) is old)",
                "$(error CC unset)",
                "$(eval Y = 1)",
                "${info built}",
            ],
        );
    }

    /// A line make reads at any indentation that ends a rule's recipe (an
    /// assignment, a directive, `$(info ...)`, `$(eval ...)`), added in
    /// spaces with a tab-indented line after it: make stops at that line
    /// (`make -n`: `*** recipe commences before first target.  Stop.`). A
    /// rule, a comment, a conditional, a lone `$(error ...)` (make stops
    /// at it anyway) or nothing but other rules after it is none.
    #[test]
    fn a_line_ending_the_recipe_before_a_tab_line_is_a_fault() {
        let makefile = "all: build\n\nbuild:\n\tgo build ./...\n\ntest:\n\tgo test ./...\n";
        for added in [
            "$(info generating)",
            "$(warning generating)",
            "$(eval Y = 1)",
            "GOFLAGS = -mod=vendor",
            "$(N)_FLAGS := -x",
            "export GOFLAGS",
            "include gen.mk",
        ] {
            let result = makefile.replace(
                "test:\n",
                &format!("gen:\n    {added}\n    # generate\n\n\tgo generate ./...\n\ntest:\n"),
            );
            let found = recipe_break("Makefile", makefile, &result).expect(added);
            assert_eq!(
                (found.line, &*found.text, found.recipe, found.stop),
                (7, added, 6, Some((10, "go generate ./...".to_string()))),
                "{added:?}"
            );
        }
        let found = check_before(
            recipe_break,
            "Makefile",
            makefile,
            "test:\n",
            "gen:\n  ifdef CI\n    $(info on CI)\n  endif\n\tgo generate\n\n",
        )
        .expect("a fault");
        assert_eq!(
            found.describe(),
            "as written, line 8 (`$(info on CI)`) is indented with spaces in the recipe of \
             line 6: make reads it as a makefile line ending the recipe, and stops at the \
             recipe line after it, line 10 (`go generate`: `*** recipe commences before first \
             target.  Stop.`): send it indented with a tab, or out of the recipe"
        );
        for added in [
            "gen:\n    $(info generating)\n\ntest:\n",
            "gen:\n    $(info generating)\ntest:\n",
            "gen:\n  ifndef CI\n    $(error CI unset)\n  endif\n\tgo generate\n\ntest:\n",
            "gen:\n    # generate\n\tgo generate\n\ntest:\n",
            "gen: a\n    $(BIN): b\n\tgo generate\n\ntest:\n",
            "gen:\n    GOFLAGS = \\\n\t-mod=vendor\n\ntest:\n",
        ] {
            assert_eq!(
                check_edit(recipe_break, "Makefile", makefile, "test:\n", added),
                None,
                "{added:?}"
            );
        }
    }
}
