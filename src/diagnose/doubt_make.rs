//! *Pure.* A Makefile recipe line an exact edit adds indented with spaces
//! among recipe lines indented with tabs (a tester's find: `    strip app`
//! added under `\tcc -o app main.c` passed every check, and GNU make then
//! stopped: `*** missing separator.  Stop.`). The Makefile twin of
//! Python's TabError ([`super::doubt_indent`]), by evidence only:
//! - the file is a Makefile ([`super::file_kind`]: `Makefile`, `makefile`,
//!   `GNUmakefile`, `BSDmakefile`, `*.mk`, `Makefile.in`, ..., or a first
//!   line `#!` naming make, as `debian/rules`) and sets no `.RECIPEPREFIX`
//!   (before or after the edit);
//! - the line is one the edit adds (not among the lines it replaces), not
//!   blank, not a comment, starts with a space, and is not a line make
//!   reads at any indentation (an assignment, a rule, a directive such as
//!   `ifeq`/`endif`/`include`, a line starting with `$`);
//! - it is not the continuation of the line before (ending with `\`) nor
//!   inside a `define` ... `endef`;
//! - the recipe around it uses tabs: the line of code before it (blank
//!   lines and comments skipped) is a tab-indented recipe line, or a rule
//!   line whose next line of code is one.

/// A recipe line an edit adds with spaces where make wants a tab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecipeBreak {
    /// The result's line (1-based).
    pub line: usize,
    /// That line, trimmed.
    pub text: String,
    /// The tab-indented recipe line or rule it follows (1-based).
    pub recipe: usize,
}

impl RecipeBreak {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        format!(
            "{}: send the recipe lines indented with a tab, as the file's are",
            self.fault()
        )
    }

    /// [`Self::describe`] without what to send instead: the fault alone.
    pub fn fault(&self) -> String {
        format!(
            "as written, line {} (`{}`) is indented with spaces in a recipe whose lines start \
             with a tab (line {}): make takes a recipe line only after a tab and stops there \
             (`*** missing separator.  Stop.`)",
            self.line, self.text, self.recipe
        )
    }
}

/// Directives make reads at any indentation.
const DIRECTIVES: [&str; 17] = [
    "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "include", "-include", "sinclude",
    "define", "endef", "export", "unexport", "override", "private", "vpath", "undefine",
];

/// Whether make reads `text` (a line without its indentation) as no
/// recipe line at any indentation: an assignment, a rule, a directive, a
/// line starting with `$` (a function call may expand to nothing).
fn read_at_any_indent(text: &str) -> bool {
    let word = text.split_whitespace().next().unwrap_or("");
    text.contains('=') || text.contains(':') || text.starts_with('$') || DIRECTIVES.contains(&word)
}

/// Whether `line` is a rule line: unindented, a `:` that is no `:=`.
fn rule(line: &str) -> bool {
    !line.starts_with([' ', '\t'])
        && !line.trim_start().starts_with('#')
        && line.contains(':')
        && !line.contains(":=")
        && !line.contains("::=")
}

/// Whether `line` is a line of code: not blank, not a comment.
fn code(line: &str) -> bool {
    let text = line.trim();
    !text.is_empty() && !text.starts_with('#')
}

/// The first recipe line `result` (the Makefile `path` as an edit leaves
/// it) adds with spaces where its recipe uses tabs, and `original` (the
/// file before) did not hold; `None` for a file srview does not read as a
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
    let old: Vec<&str> = original.lines().collect();
    let new: Vec<&str> = result.lines().collect();
    let (prefix, suffix) = crate::textdiff::shared_ends(&old, &new);
    let replaced = &old[prefix..old.len() - suffix];
    let mut in_define = false;
    for (at, line) in new.iter().enumerate().take(new.len() - suffix) {
        let word = line.split_whitespace().next().unwrap_or("");
        let continued = at > 0 && new[at - 1].trim_end_matches('\r').ends_with('\\');
        if !continued {
            match word {
                "define" => in_define = true,
                "endef" => in_define = false,
                _ => {}
            }
        }
        if at < prefix || in_define || continued || !line.starts_with(' ') || !code(line) {
            continue;
        }
        if replaced.contains(line) || read_at_any_indent(line.trim()) {
            continue;
        }
        let Some(before) = new[..at].iter().rposition(|l| code(l)) else {
            continue;
        };
        let after_rule = rule(new[before])
            && new[at + 1..]
                .iter()
                .find(|l| code(l))
                .is_some_and(|l| l.starts_with('\t'));
        if new[before].starts_with('\t') || after_rule {
            return Some(RecipeBreak {
                line: at + 1,
                text: line.trim().to_string(),
                recipe: before + 1,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAKEFILE: &str = "all: app\n\napp: main.c\n\tcc -o app main.c\n\nclean:\n\trm -f app\n";

    #[test]
    fn a_recipe_line_added_with_spaces_is_a_fault() {
        let result = MAKEFILE.replace("main.c\n\n", "main.c\n    strip app\n\n");
        let found = recipe_break("Makefile", MAKEFILE, &result).expect("a fault");
        assert_eq!(
            (found.line, &*found.text, found.recipe),
            (5, "strip app", 4)
        );
        // The first recipe line of a rule whose next one has a tab.
        let first = MAKEFILE.replace("app: main.c\n", "app: main.c\n    mkdir -p out\n");
        assert_eq!(
            recipe_break("rules.mk", MAKEFILE, &first).map(|f| (f.line, f.recipe)),
            Some((4, 3))
        );
    }

    /// Tabs, lines make reads at any indentation, continuations, a
    /// `define`, `.RECIPEPREFIX`, other file names, a line already there.
    #[test]
    fn lines_make_reads_are_none() {
        for added in [
            "\tstrip app\n",
            "    VAR = 1\n",
            "  ifeq ($(X),1)\n",
            "  endif\n",
            "    # a comment\n",
            "    $(info built)\n",
            "\n",
        ] {
            let result = MAKEFILE.replace("main.c\n\n", &format!("main.c\n{added}\n"));
            assert_eq!(
                recipe_break("Makefile", MAKEFILE, &result),
                None,
                "{added:?}"
            );
        }
        let continued = MAKEFILE.replace("\tcc -o app main.c\n", "\tcc -o app \\\n    main.c\n");
        assert_eq!(recipe_break("Makefile", MAKEFILE, &continued), None);
        let defined = "define RUN\n\tcc x\nendef\n";
        let in_define = "define RUN\n\tcc x\n    strip x\nendef\n";
        assert_eq!(recipe_break("Makefile", defined, in_define), None);
        let prefixed = format!(".RECIPEPREFIX = >\n{MAKEFILE}");
        let spaced = prefixed.replace("main.c\n\n", "main.c\n    strip app\n\n");
        assert_eq!(recipe_break("Makefile", &prefixed, &spaced), None);
        let result = MAKEFILE.replace("main.c\n\n", "main.c\n    strip app\n\n");
        assert_eq!(recipe_break("build.txt", MAKEFILE, &result), None);
        let edited = result.replace("rm -f app", "rm -f app out");
        assert_eq!(recipe_break("Makefile", &result, &edited), None);
    }
}
