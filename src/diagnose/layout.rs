//! The layouts srview reads where a file's meaning hangs on its white
//! space: Python's indentation ([`super::doubt_indent`]), a Makefile's
//! recipe tabs ([`super::doubt_make`]) and YAML's nesting
//! ([`super::doubt_yaml`]), the file's kind told by its name or its first
//! line ([`FileKind`]); and a brace language's brackets
//! ([`super::doubt_braces`]) and top-level functions
//! ([`super::doubt_defines`]), the language told by the extension; and a
//! JSON or TOML file left unreadable ([`super::doubt_json`],
//! [`super::doubt_toml`]), an XML file left not well-formed
//! ([`super::doubt_xml`]), a stylesheet, page or template left open to its
//! end ([`super::doubt_markup`]), told by its name. One
//! entry for the trust checks of every command, so each of them reads
//! all.

use super::doubt_asi::statement_join;
use super::doubt_bashism::sh_bashism;
use super::doubt_braces::{BraceFault, brace_fault, bracket_language};
use super::doubt_conditionals::conditionals_unbalanced;
use super::doubt_continued::command_cut;
use super::doubt_decorators::decorator_moved;
use super::doubt_defines::redefined;
use super::doubt_ends::ends_unbalanced;
use super::doubt_exec_form::shell_form_list;
use super::doubt_fence::{fence_left_open, markdown_name};
use super::doubt_fn_rename::function_renamed;
use super::doubt_format::format_brace;
use super::doubt_go_use::go_package_use;
use super::doubt_go_vars::go_unused_variable;
use super::doubt_heredoc::heredoc_moved;
use super::doubt_imports::import_twice;
use super::doubt_indent::python_break;
use super::doubt_ini::{ini_name, ini_twice};
use super::doubt_ini_value::value_cut;
use super::doubt_js_gone::js_name_gone;
use super::doubt_json::{json_broken, json_name};
use super::doubt_keys::literal_key_twice;
use super::doubt_late::{python_defined_late, shell_defined_late};
use super::doubt_make::make_break;
use super::doubt_make_dollar::recipe_dollar;
use super::doubt_markup::{markup_left_open, markup_name};
use super::doubt_names::python_name_gone;
use super::doubt_normal::other_form;
use super::doubt_not_yaml::yaml_unparsed;
use super::doubt_npm_script::npm_script_cut;
use super::doubt_overload::overload_alone;
use super::doubt_perl_awk::script_unbalanced;
use super::doubt_py_depth::python_depth_move;
use super::doubt_py_method_gone::python_method_gone;
use super::doubt_pyparse::python_parse;
use super::doubt_pysyntax::{SyntaxFault, python_syntax};
use super::doubt_redefine::{
    json_duplicate_key, python_redefinition, yaml_duplicate_key, yaml_template,
};
use super::doubt_restricted::restricted_break;
use super::doubt_separator::separator_dropped;
use super::doubt_shell::{ShellFault, shell_syntax};
use super::doubt_shell_test::test_broken;
use super::doubt_spaces::odd_space_in_code;
use super::doubt_toml::{toml_broken, toml_name};
use super::doubt_twins::{Script, script_twin};
use super::doubt_xml::{xml_broken, xml_name};
use super::doubt_yaml::yaml_break;
use super::doubt_yaml_empty::yaml_empty_key;
use super::doubt_yaml_value::yaml_value_read;
pub use super::file_kind::FileKind;

/// Whether srview reads the white-space layout of `path`, whose content
/// is `content` (any version of it; only its first line is read, and only
/// when the name says nothing): Python's indentation, a Makefile's recipe
/// tabs or YAML's nesting. Its callers leave a file so read to the check
/// of a call's whole result (the layout of one edit of several is not
/// judged alone), or re-indent corrections by it; a brace language's
/// file is not one ([`result_read`]).
pub fn layout_read(path: &str, content: &str) -> bool {
    FileKind::of(path, content) != FileKind::Other
}

/// Whether [`layout_break`] reads anything of `path` (content as for
/// [`layout_read`]): its white-space layout, or a brace language's
/// brackets and definitions, a Dockerfile's heredocs and lists. A caller
/// that builds a result only to judge it asks this first.
pub fn result_read(path: &str, content: &str) -> bool {
    layout_read(path, content)
        || bracket_language(path).is_some()
        || Script::of(path, content).is_some()
        || json_name(path)
        || toml_name(path)
        || xml_name(path)
        || ini_name(path)
        || markdown_name(path)
        || markup_name(path)
        || super::doubt_cmake::cmake_name(path)
        || super::doubt_hcl::terraform_name(path)
        || super::doubt_web::web_name(path)
        || super::doubt_heredoc::is_dockerfile(path)
        || super::doubt_separator::separator_read(path)
        || super::doubt_perl_awk::bracket_script_name(path, content)
}

/// What kind of fault a [`LayoutBreak`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakKind {
    /// Python misindented, a Makefile's recipe in spaces, a YAML key moved,
    /// a YAML file that parsed before and does not after
    /// ([`super::doubt_not_yaml`]).
    Misindents,
    /// A name defined twice ([`super::doubt_redefine`],
    /// [`super::doubt_defines`]).
    DefinesTwice,
    /// A YAML or JSON key a mapping holds twice
    /// ([`super::doubt_redefine`]), an INI section or option
    /// ([`super::doubt_ini`]).
    KeyTwice,
    /// A brace language's brackets left unbalanced
    /// ([`super::doubt_braces`]), a Perl or awk file's
    /// ([`super::doubt_perl_awk`]), a Ruby or Lua block left without its
    /// `end` ([`super::doubt_ends`]), a shell block without its `fi` or
    /// `done` ([`super::doubt_shell`]), a Rust format string's `{` or `}`
    /// unmatched ([`super::doubt_format`]).
    Unbalanced,
    /// A JSON file that read before and does not after
    /// ([`super::doubt_json`]).
    NotJson,
    /// A YAML file that parsed before and does not after
    /// ([`super::doubt_not_yaml`]).
    NotYaml,
    /// A TOML file that parsed before and does not after
    /// ([`super::doubt_toml`]).
    NotToml,
    /// An XML file well-formed before and not after
    /// ([`super::doubt_xml`]).
    NotXml,
    /// A line left inside a string its language ends at the line
    /// ([`super::doubt_braces::quotes`]).
    Unclosed,
    /// A Python module-level name still used, no longer bound
    /// ([`super::doubt_names`]); a JavaScript or TypeScript module's
    /// top-level name still called ([`super::doubt_js_gone`]); a Python
    /// class's method still used as `self.name` ([`super::doubt_py_method_gone`]).
    Undefined,
    /// A Python name, or a shell function, defined after a line that runs
    /// and uses it ([`super::doubt_late`]).
    UsedBeforeDefined,
    /// A Python `return`, `yield` or `await` outside a function, a
    /// `break` or `continue` outside a loop ([`super::doubt_pysyntax`]).
    Outside,
    /// A Markdown code fence left open, or a code block running past a
    /// fence the edit did not touch ([`super::doubt_fence`]).
    FenceOpen,
    /// A character Python refuses in code, outside strings and comments
    /// (a no-break space, a typographic quote: [`super::doubt_pysyntax`]);
    /// a no-break space in C, Rust or Go code or a shell command's name
    /// ([`super::doubt_spaces`]).
    InvalidCharacter,
    /// A decorator or attribute moved onto a new definition, off the one
    /// it stood on ([`super::doubt_decorators`]).
    MovesDecorator,
    /// A Python statement ending in an operator outside any bracket
    /// (`return 1 +`: [`super::doubt_pysyntax`]); a parameter without a
    /// default after one with a default, `=` in a condition, a clause no
    /// block takes ([`super::doubt_pyparse`]).
    InvalidSyntax,
    /// A Python keyword argument given twice in one call, or a parameter
    /// named twice in one definition ([`super::doubt_pysyntax`]).
    ArgumentTwice,
    /// A Python `from __future__` import below the file's code
    /// ([`super::doubt_pysyntax`]).
    LateFuture,
    /// A JavaScript or TypeScript line starting with `(`, `[` or a
    /// backquote put under a statement no semicolon ends: the language
    /// reads the two as one ([`super::doubt_asi`]).
    JoinsStatements,
    /// A JavaScript or TypeScript line break put where the language
    /// allows none (`return` cut from its value: read as `return;`;
    /// `throw` so cut does not parse: [`super::doubt_restricted`]).
    SplitsStatement,
    /// A name written in another Unicode normalisation than the file
    /// writes it, in a language that reads the two as two names
    /// ([`super::doubt_normal`]).
    OtherForm,
    /// A stylesheet's comment or block, a page's comment or raw-text
    /// element (`<script>`, `<style>`) left open to the file's end, a
    /// template's block tag left without its end tag
    /// ([`super::doubt_markup`]).
    MarkupOpen,
    /// A Go import left unused, a standard package used and not
    /// imported, or an import removed whose package is still used
    /// ([`super::doubt_go_use`]).
    PackageUse,
    /// A Go local variable declared and not used
    /// ([`super::doubt_go_vars`]).
    UnusedVariable,
    /// A YAML value written unquoted that YAML reads as another value
    /// than its text (`3.10` as 3.1), where a string was meant
    /// ([`super::doubt_yaml_value`]).
    ReadsOtherwise,
    /// A Python `@overload` stack left without its implementation
    /// ([`super::doubt_overload`]).
    OverloadAlone,
    /// A shell script's extended glob (`@(a|b)`) where bash parses it with
    /// `extglob` still off ([`super::doubt_shell`]).
    ExtglobOff,
    /// A Makefile recipe's shell variable written with one `$`, which
    /// make expands as its own ([`super::doubt_make_dollar`]).
    MakeExpands,
    /// A shell command ended at a line's end a `\` was meant to continue
    /// (`\ ` with a blank after it, a `#` comment before the `\`): the
    /// next line runs alone ([`super::doubt_continued`]).
    CutsCommand,
    /// A YAML key added with no value above the lines meant as its
    /// content, written at its own column: read as its siblings
    /// ([`super::doubt_yaml_empty`]).
    EmptyKey,
    /// An INI file's line added at an option's column below its
    /// multi-line value, meant in it: the value ends there
    /// ([`super::doubt_ini_value`]).
    CutsValue,
    /// A bash-only construct (`[[`, an array, `function f`) added to a
    /// script whose `#!` line runs sh or dash ([`super::doubt_bashism`]).
    Bashism,
    /// A heredoc's end moved by an edit, so lines it left as they were
    /// change their reading ([`super::doubt_heredoc`]).
    HeredocEnds,
    /// A Dockerfile `CMD ['a']` list Docker runs as a shell command
    /// ([`super::doubt_exec_form`]).
    ShellForm,
    /// An element's `,` or a statement's `;` the edit leaves out
    /// ([`super::doubt_separator`]).
    SeparatorDropped,
    /// A token where the file's parser stops: a CMake command's name
    /// without its `(`, anything else where a command's name must stand
    /// ([`super::doubt_cmake`]).
    ParserStops,
    /// A shell test `[ .. ]` left without its `]`, or given one joined
    /// word (`"$a"="b"`: always true) ([`super::doubt_shell_test`]).
    TestBroken,
    /// A Python statement kept word for word but set at another column,
    /// into or out of a block both versions keep
    /// ([`super::doubt_py_depth`]).
    MovesBlock,
}

impl BreakKind {
    /// Its name in JSON (a session's doubts, a patch's): `misindents`,
    /// `defines-twice` (a key twice too), `unbalanced`, `not-json`,
    /// `not-yaml`, `not-toml`, `not-xml`, `unclosed`, `undefined`,
    /// `used-before-defined`, `outside`, `fence-open`, `moves-decorator`,
    /// `invalid-character`, `invalid-syntax`, `argument-twice`,
    /// `late-future`, `joins-statements`, `splits-statement`,
    /// `other-normalisation`, `markup-open`, `package-use`,
    /// `unused-variable`, `reads-otherwise`, `overload-alone`, `extglob-off`,
    /// `make-expands`, `cuts-command`, `empty-key`, `cuts-value`,
    /// `bashism`, `heredoc-ends`, `shell-form`, `separator-dropped`,
    /// `parser-stops`, `test-broken`, `moves-block`.
    pub fn name(self) -> &'static str {
        match self {
            BreakKind::Misindents => "misindents",
            BreakKind::DefinesTwice | BreakKind::KeyTwice => "defines-twice",
            BreakKind::Unbalanced => "unbalanced",
            BreakKind::NotJson => "not-json",
            BreakKind::NotYaml => "not-yaml",
            BreakKind::NotToml => "not-toml",
            BreakKind::NotXml => "not-xml",
            BreakKind::Unclosed => "unclosed",
            BreakKind::Undefined => "undefined",
            BreakKind::UsedBeforeDefined => "used-before-defined",
            BreakKind::Outside => "outside",
            BreakKind::FenceOpen => "fence-open",
            BreakKind::MovesDecorator => "moves-decorator",
            BreakKind::InvalidCharacter => "invalid-character",
            BreakKind::InvalidSyntax => "invalid-syntax",
            BreakKind::ArgumentTwice => "argument-twice",
            BreakKind::LateFuture => "late-future",
            BreakKind::JoinsStatements => "joins-statements",
            BreakKind::SplitsStatement => "splits-statement",
            BreakKind::OtherForm => "other-normalisation",
            BreakKind::MarkupOpen => "markup-open",
            BreakKind::PackageUse => "package-use",
            BreakKind::UnusedVariable => "unused-variable",
            BreakKind::ReadsOtherwise => "reads-otherwise",
            BreakKind::OverloadAlone => "overload-alone",
            BreakKind::ExtglobOff => "extglob-off",
            BreakKind::MakeExpands => "make-expands",
            BreakKind::CutsCommand => "cuts-command",
            BreakKind::EmptyKey => "empty-key",
            BreakKind::CutsValue => "cuts-value",
            BreakKind::Bashism => "bashism",
            BreakKind::HeredocEnds => "heredoc-ends",
            BreakKind::ShellForm => "shell-form",
            BreakKind::SeparatorDropped => "separator-dropped",
            BreakKind::ParserStops => "parser-stops",
            BreakKind::TestBroken => "test-broken",
            BreakKind::MovesBlock => "moves-block",
        }
    }

    /// The fault in a few words, for a list's row ("doubt: leaves the file
    /// misindented").
    pub fn words(self) -> &'static str {
        match self {
            BreakKind::Misindents => "leaves the file misindented",
            BreakKind::DefinesTwice | BreakKind::KeyTwice => "defines a name twice",
            BreakKind::Unbalanced => "leaves braces unbalanced",
            BreakKind::NotJson => "leaves JSON unreadable",
            BreakKind::NotYaml => "leaves YAML unreadable",
            BreakKind::NotToml => "leaves TOML unreadable",
            BreakKind::NotXml => "leaves XML unreadable",
            BreakKind::Unclosed => "leaves a string open",
            BreakKind::Undefined => "uses a name it no longer defines",
            BreakKind::UsedBeforeDefined => "uses a name before the file defines it",
            BreakKind::Outside => "puts a statement outside its block",
            BreakKind::FenceOpen => "leaves a code block open",
            BreakKind::MovesDecorator => "moves a decorator onto another definition",
            BreakKind::InvalidCharacter => "puts a character its language refuses in its code",
            BreakKind::InvalidSyntax => "writes a statement Python's parser refuses",
            BreakKind::ArgumentTwice => "gives an argument twice",
            BreakKind::LateFuture => "puts a __future__ import below code",
            BreakKind::JoinsStatements => "continues a statement onto a new line",
            BreakKind::SplitsStatement => "cuts a statement where no line break may stand",
            BreakKind::OtherForm => "writes a name in another Unicode form",
            BreakKind::MarkupOpen => "leaves a comment, block or tag open",
            BreakKind::PackageUse => "leaves an import unused, or a package not imported",
            BreakKind::UnusedVariable => "leaves a variable declared and not used",
            BreakKind::ReadsOtherwise => "writes a value YAML reads otherwise",
            BreakKind::OverloadAlone => "leaves overloads without their implementation",
            BreakKind::ExtglobOff => "uses an extended glob before `shopt -s extglob` runs",
            BreakKind::MakeExpands => "writes a shell variable make expands",
            BreakKind::CutsCommand => "ends a command before the line it continued",
            BreakKind::EmptyKey => "leaves a key empty above its content",
            BreakKind::CutsValue => "ends a multi-line value above a line meant in it",
            BreakKind::Bashism => "writes bash in a script sh runs",
            BreakKind::HeredocEnds => "moves where a heredoc ends",
            BreakKind::ShellForm => "writes a list Docker runs as a shell command",
            BreakKind::SeparatorDropped => "leaves out a separator",
            BreakKind::ParserStops => "writes a token the file's parser stops at",
            BreakKind::TestBroken => "breaks a shell test",
            BreakKind::MovesBlock => "moves a kept statement into another block",
        }
    }
}

/// A fault an edit leaves in a file's layout, a name it leaves defined
/// twice, or brackets it leaves unbalanced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutBreak {
    /// Which.
    pub kind: BreakKind,
    /// One sentence without a final stop.
    pub why: String,
}

impl LayoutBreak {
    /// What the edit leaves the file, in words after "leaves FILE".
    pub fn leaves(&self) -> &'static str {
        match self.kind {
            BreakKind::Misindents => "misindented",
            BreakKind::DefinesTwice => "defining a name twice",
            BreakKind::KeyTwice => "with a key twice",
            BreakKind::Unbalanced => "with its brackets unbalanced",
            BreakKind::NotJson => "unreadable as JSON",
            BreakKind::NotYaml => "unreadable as YAML",
            BreakKind::NotToml => "unreadable as TOML",
            BreakKind::NotXml => "unreadable as XML",
            BreakKind::FenceOpen => "with a code block left open",
            BreakKind::Unclosed => "with a quote left open",
            BreakKind::Undefined => "using a name it no longer defines",
            BreakKind::UsedBeforeDefined => "using a name before it defines it",
            BreakKind::Outside => "with a statement outside the block it needs",
            BreakKind::MovesDecorator => "with a decorator moved onto another definition",
            BreakKind::InvalidCharacter => "with a character its language refuses in its code",
            BreakKind::InvalidSyntax => "with a statement Python's parser refuses",
            BreakKind::ArgumentTwice => "with an argument given twice",
            BreakKind::LateFuture => "with a `from __future__` import below its code",
            BreakKind::JoinsStatements => "reading two statements as one",
            BreakKind::SplitsStatement => "with a statement cut where no line break may stand",
            BreakKind::OtherForm => "writing one name in two Unicode forms",
            BreakKind::MarkupOpen => "with a comment, block or tag left open",
            BreakKind::PackageUse => "with an import unused, or a package not imported",
            BreakKind::UnusedVariable => "with a variable declared and not used",
            BreakKind::ReadsOtherwise => "with a value YAML reads otherwise than written",
            BreakKind::OverloadAlone => "with overloads and no implementation",
            BreakKind::ExtglobOff => "with an extended glob bash parses with extglob off",
            BreakKind::MakeExpands => "with a shell variable make expands first",
            BreakKind::CutsCommand => "with a command ended before the line that continued it",
            BreakKind::EmptyKey => "with a key left empty above its content",
            BreakKind::CutsValue => "with a value's line read outside the value",
            BreakKind::Bashism => "with bash a sh script's shell (dash) refuses",
            BreakKind::HeredocEnds => "with commands and a heredoc's text read otherwise",
            BreakKind::ShellForm => "with a list Docker runs as a shell command",
            BreakKind::SeparatorDropped => "with a separator left out",
            BreakKind::ParserStops => "with a token its parser stops at",
            BreakKind::TestBroken => "with a shell test that fails or never compares",
            BreakKind::MovesBlock => "with a kept statement moved into another block",
        }
    }
}

/// The fault in its layout that `result` (the file `path` as an edit
/// leaves it) has where `original` had none: Python's indentation or a
/// name it defines twice in one block ([`super::doubt_redefine`]), a
/// Makefile's recipe tabs, a YAML key the edit's new text puts in another
/// mapping than its own text has it in or a YAML key or list item at a
/// column YAML refuses; a brace language's brackets left unbalanced
/// ([`super::doubt_braces`]), a top-level function defined twice
/// ([`super::doubt_defines`]), a JSON object's key given twice
/// ([`super::doubt_redefine`]), a JSON file that read before and does
/// not after ([`super::doubt_json`]) or a TOML file that parsed before
/// and does not after (a key or a table twice, [`super::doubt_toml`]), or
/// an INI file Python's configparser reads given a section or an option
/// twice ([`super::doubt_ini`]).
/// The sentence ends with what to send
/// instead. A leading byte order mark (U+FEFF) of either text is read
/// past, as npm, editors and compilers do (a tester's find: it hid the
/// first line's key or definition).
pub fn layout_break(path: &str, original: &str, result: &str) -> Option<LayoutBreak> {
    layout_with(path, original, result, true)
}

/// [`layout_break`] without what to send instead: the fault alone, for a
/// result srview's own correction would leave.
pub fn layout_fault(path: &str, original: &str, result: &str) -> Option<LayoutBreak> {
    layout_with(path, original, result, false)
}

/// [`layout_break`]; `advice`: the sentence ends with what to send.
fn layout_with(path: &str, original: &str, result: &str, advice: bool) -> Option<LayoutBreak> {
    let original = original.strip_prefix('\u{feff}').unwrap_or(original);
    let result = result.strip_prefix('\u{feff}').unwrap_or(result);
    let of = |kind: BreakKind| move |why: String| LayoutBreak { kind, why };
    let say = |describe: String, fault: String| if advice { describe } else { fault };
    // `said!(Kind, check(..))`: what a check finds (an `Option` of a fault
    // that has `describe` and `fault`), as a break of `BreakKind::Kind`;
    // a check whose fault picks its kind says it with `of` and `say`.
    // Each link of the chains below asks one check, the first that finds
    // wins: their order is behaviour.
    macro_rules! said {
        ($kind:ident, $found:expr) => {
            $found.map(|c| of(BreakKind::$kind)(say(c.describe(), c.fault())))
        };
    }
    let found = match FileKind::of_edit(path, original, result) {
        FileKind::Python => said!(Misindents, python_break(original, result))
            .or_else(|| said!(DefinesTwice, python_redefinition(original, result)))
            .or_else(|| said!(Undefined, python_name_gone(original, result)))
            // A string or a bracket left open, a statement outside
            // its block ([`super::doubt_pysyntax`]).
            .or_else(|| {
                python_syntax(original, result).map(|s| {
                    let kind = match s.fault {
                        ref f if f.is_string() => BreakKind::Unclosed,
                        ref f if f.is_outside() => BreakKind::Outside,
                        SyntaxFault::Invalid { .. } => BreakKind::InvalidCharacter,
                        SyntaxFault::Dangling { .. } => BreakKind::InvalidSyntax,
                        SyntaxFault::ArgumentTwice { .. } => BreakKind::ArgumentTwice,
                        SyntaxFault::LateFuture { .. } => BreakKind::LateFuture,
                        _ => BreakKind::Unbalanced,
                    };
                    of(kind)(say(s.describe(), s.fault()))
                })
            })
            // A default before a parameter without one, `=` in
            // a condition, a stray `else:` ([`super::doubt_pyparse`]).
            .or_else(|| said!(InvalidSyntax, python_parse(original, result)))
            // A method renamed or removed while its class
            // still uses `self.name` ([`super::doubt_py_method_gone`]).
            .or_else(|| said!(Undefined, python_method_gone(original, result)))
            // A name defined after the code that runs it
            // ([`super::doubt_late`]).
            .or_else(|| said!(UsedBeforeDefined, python_defined_late(original, result)))
            // An `@overload` stack left without its
            // implementation ([`super::doubt_overload`]).
            .or_else(|| said!(OverloadAlone, overload_alone(path, original, result)))
            // A kept statement re-indented into or out of a block
            // ([`super::doubt_py_depth`]).
            .or_else(|| said!(MovesBlock, python_depth_move(original, result))),
        FileKind::Makefile => said!(Misindents, make_break(original, result))
            .or_else(|| said!(MakeExpands, recipe_dollar(original, result))),
        FileKind::Yaml => said!(Misindents, yaml_break(original, result)).or_else(|| {
            // A template's branches may each set one key, and its
            // directives are no YAML: not read.
            if yaml_template(path, original) || yaml_template(path, result) {
                return None;
            }
            said!(NotYaml, yaml_unparsed(original, result))
                .or_else(|| said!(KeyTwice, yaml_duplicate_key(original, result)))
                // A key left empty above its content at its own
                // column ([`super::doubt_yaml_empty`]), a value the
                // edit writes unquoted that YAML reads as another
                // ([`super::doubt_yaml_value`]).
                .or_else(|| said!(EmptyKey, yaml_empty_key(original, result)))
                .or_else(|| said!(ReadsOtherwise, yaml_value_read(original, result)))
        }),
        // A string left open first: the brackets it hides are its effect.
        FileKind::Other => match brace_fault(path, original, result) {
            Some(BraceFault::Unclosed(q)) => said!(Unclosed, Some(q)),
            Some(BraceFault::OpenAtEnd(o)) => said!(Unclosed, Some(o)),
            Some(BraceFault::Unbalanced(u)) => said!(Unbalanced, Some(u)),
            None => said!(DefinesTwice, redefined(path, original, result))
                .or_else(|| said!(KeyTwice, json_duplicate_key(path, original, result)))
                .or_else(|| said!(NotJson, json_broken(path, original, result)))
                .or_else(|| said!(NotToml, toml_broken(path, original, result)))
                .or_else(|| said!(NotXml, xml_broken(path, original, result)))
                .or_else(|| said!(KeyTwice, ini_twice(path, original, result)))
                .or_else(|| said!(CutsValue, value_cut(path, original, result))),
        },
    };
    // A Ruby or Lua block left without its `end`, or an `end` closing
    // none ([`super::doubt_ends`]).
    let found = found.or_else(|| said!(Unbalanced, ends_unbalanced(path, original, result)));
    // A Perl or awk file's brackets left unbalanced
    // ([`super::doubt_perl_awk`]).
    let found = found.or_else(|| said!(Unbalanced, script_unbalanced(path, original, result)));
    // A C preprocessor or make conditional left open, or a directive
    // closing none ([`super::doubt_conditionals`]).
    let found =
        found.or_else(|| said!(Unbalanced, conditionals_unbalanced(path, original, result)));
    // A CMake file's `if(`/`endif()` blocks left unnested
    // ([`super::doubt_cmake`]).
    let found = found.or_else(|| {
        let c = super::doubt_cmake::cmake_nesting(path, original, result)?;
        let kind = match c.fault {
            super::doubt_cmake::NestingFault::NoNewline => BreakKind::SeparatorDropped,
            ref f if f.is_parse() => BreakKind::ParserStops,
            _ => BreakKind::Unbalanced,
        };
        Some(of(kind)(say(c.describe(), c.fault())))
    });
    // A Terraform argument or block twice, an item without its comma
    // ([`super::doubt_hcl`]).
    let found = found.or_else(|| {
        let h = super::doubt_hcl::hcl_broken(path, original, result)?;
        let kind = match h.kind {
            super::doubt_hcl::HclKind::Separator(_)
            | super::doubt_hcl::HclKind::ArgumentNewline(_) => BreakKind::SeparatorDropped,
            super::doubt_hcl::HclKind::BlockTwice(..) => BreakKind::DefinesTwice,
            _ => BreakKind::KeyTwice,
        };
        Some(of(kind)(say(h.describe(), h.fault())))
    });
    // A Nix binding's `;` left out, a `let` without its `in`
    // ([`super::doubt_nix`]).
    let found = found.or_else(|| {
        let n = super::doubt_nix::nix_broken(path, original, result)?;
        let kind = match n {
            super::doubt_nix::NixFault::Semicolon(_) => BreakKind::SeparatorDropped,
            // The `in` separates a `let`'s bindings from its body.
            super::doubt_nix::NixFault::LetWithoutIn(_) => BreakKind::SeparatorDropped,
        };
        Some(of(kind)(say(n.describe(), n.fault())))
    });
    // A Rust format string left with a `{` or `}` unmatched
    // ([`super::doubt_format`]).
    let found = found.or_else(|| said!(Unbalanced, format_brace(path, original, result)));
    // A shell function, a Ruby method, a Make target's recipe or a Lua
    // function twice ([`super::doubt_twins`]).
    let found = found.or_else(|| said!(DefinesTwice, script_twin(path, original, result)));
    // A sh or bash script `bash -n` refuses: a quote or a block left
    // open, a block closed by another's word ([`super::doubt_shell`]).
    let found = found.or_else(|| {
        shell_syntax(path, original, result).map(|s| {
            let kind = match s.fault {
                ShellFault::Extglob { .. } => BreakKind::ExtglobOff,
                _ if s.fault.is_quote() => BreakKind::Unclosed,
                _ => BreakKind::Unbalanced,
            };
            of(kind)(say(s.describe(), s.fault()))
        })
    });
    // A heredoc's end moved: commands read as its text, or its text run
    // ([`super::doubt_heredoc`]).
    let found = found.or_else(|| said!(HeredocEnds, heredoc_moved(path, original, result)));
    // A package.json script left ending in `&&`, `||` or `|`
    // ([`super::doubt_npm_script`]); a Dockerfile `CMD ['a']`
    // ([`super::doubt_exec_form`]).
    let found = found.or_else(|| said!(Unbalanced, npm_script_cut(path, original, result)));
    let found = found.or_else(|| said!(ShellForm, shell_form_list(path, original, result)));
    // A shell function renamed while a call keeps its old name
    // ([`super::doubt_fn_rename`]).
    let found = found.or_else(|| said!(Undefined, function_renamed(path, original, result)));
    // A bash-only construct added to a sh script ([`super::doubt_bashism`]).
    let found = found.or_else(|| said!(Bashism, sh_bashism(path, original, result)));
    // A shell test `[ .. ]` left without its `]` or given one joined
    // word ([`super::doubt_shell_test`]).
    let found = found.or_else(|| said!(TestBroken, test_broken(path, original, result)));
    // A shell command ended where a `\` was meant to continue it
    // ([`super::doubt_continued`]).
    let found = found.or_else(|| said!(CutsCommand, command_cut(path, original, result)));
    // A shell function defined after the top-level line that runs it
    // ([`super::doubt_late`]).
    let found = found.or_else(|| {
        said!(
            UsedBeforeDefined,
            shell_defined_late(path, original, result)
        )
    });
    // A no-break space put in C, Rust, Go or shell code
    // ([`super::doubt_spaces`]).
    let found =
        found.or_else(|| said!(InvalidCharacter, odd_space_in_code(path, original, result)));
    // A Go, Rust or JavaScript import given again
    // ([`super::doubt_imports`]); a Markdown code fence left open
    // ([`super::doubt_fence`]).
    let found = found.or_else(|| said!(DefinesTwice, import_twice(path, original, result)));
    // A Go import left unused, a standard package used and not imported
    // ([`super::doubt_go_use`]).
    let found = found.or_else(|| said!(PackageUse, go_package_use(path, original, result)));
    // A Go local variable declared and not used ([`super::doubt_go_vars`]).
    let found = found.or_else(|| said!(UnusedVariable, go_unused_variable(path, original, result)));
    let found = found.or_else(|| said!(FenceOpen, fence_left_open(path, original, result)));
    let found = found.or_else(|| {
        let (line, last) = super::doubt_fence::comment_left_open(path, original, result)?;
        use super::doubt_fence::{comment_open_fault, comment_open_said};
        let (said, fault) = (
            comment_open_said(line, last),
            comment_open_fault(line, last),
        );
        Some(of(BreakKind::MarkupOpen)(say(said, fault)))
    });
    // A stylesheet's `/*` or `{`, a page's `<!--` or `<script>`, a
    // template's `{% block %}` left open to the end ([`super::doubt_markup`]).
    let found = found.or_else(|| said!(MarkupOpen, markup_left_open(path, original, result)));
    // A PHP file's, an nginx configuration's or a page's script or style
    // blocks left unbalanced ([`super::doubt_web`]).
    let found = found.or_else(|| {
        use super::doubt_web::{WebKind, web_fault};
        let w = web_fault(path, original, result)?;
        let kind = match w.kind {
            WebKind::Unbalanced => BreakKind::Unbalanced,
            WebKind::Unclosed => BreakKind::Unclosed,
            WebKind::MarkupOpen => BreakKind::MarkupOpen,
        };
        Some(of(kind)(say(w.describe(), w.fault())))
    });
    // A decorator or attribute put on a new definition
    // ([`super::doubt_decorators`]).
    let found = found.or_else(|| said!(MovesDecorator, decorator_moved(path, original, result)));
    // A Python dict's or a JavaScript object literal's key or method
    // twice ([`super::doubt_keys`]).
    let found = found.or_else(|| {
        let k = literal_key_twice(path, original, result)?;
        let kind = if k.method {
            BreakKind::DefinesTwice
        } else {
            BreakKind::KeyTwice
        };
        Some(of(kind)(say(k.describe(), k.fault())))
    });
    // A JavaScript or TypeScript module's top-level name removed while
    // the file still calls it ([`super::doubt_js_gone`]).
    let found = found.or_else(|| said!(Undefined, js_name_gone(path, original, result)));
    // A JavaScript typographic quote in code, an `await` outside an
    // `async` function, a name or class member twice
    // ([`super::doubt_js_early`]).
    let found = found.or_else(|| {
        let e = super::doubt_js_early::js_early_fault(path, original, result)?;
        let kind = match () {
            _ if e.defines_twice() => BreakKind::DefinesTwice,
            _ if e.outside() => BreakKind::Outside,
            _ if e.dangling() || e.foreign() => BreakKind::InvalidSyntax,
            _ if e.early_use() => BreakKind::UsedBeforeDefined,
            _ => BreakKind::InvalidCharacter,
        };
        Some(of(kind)(say(e.describe(), e.fault())))
    });
    // A JavaScript line that continues the statement above it
    // ([`super::doubt_asi`]).
    let found = found.or_else(|| said!(JoinsStatements, statement_join(path, original, result)));
    // A JavaScript line break where the language allows none: `return`
    // cut from its value ([`super::doubt_restricted`]).
    let found = found.or_else(|| said!(SplitsStatement, restricted_break(path, original, result)));
    // An element's `,` or a statement's `;` left out
    // ([`super::doubt_separator`]).
    let found =
        found.or_else(|| said!(SeparatorDropped, separator_dropped(path, original, result)));
    // A name written in another Unicode normalisation than the file's
    // ([`super::doubt_normal`]).
    found.or_else(|| said!(OtherForm, other_form(path, original, result)))
}

#[cfg(test)]
mod tests {
    use super::{BreakKind, layout_break};
    use crate::diagnose::doubt::test_edits::{check_before, check_edit};

    /// The kind of fault `layout_break` finds, and its sentence.
    fn found(path: &str, original: &str, result: &str) -> Option<(BreakKind, String)> {
        layout_break(path, original, result).map(|b| (b.kind, b.why))
    }

    /// A tester's find (round 39a, 10): a leading byte order mark hid the
    /// first line's key (package.json, YAML) or definition (JavaScript,
    /// Python) from the checks. It is read past, in either text.
    #[test]
    fn a_byte_order_mark_hides_no_first_line() {
        let cases = [
            (
                "package.json",
                "{\n  \"scripts\": {\n    \"build\": \"tsc\"\n  },\n  \"dependencies\": {}\n}\n",
                "  \"dependencies\": {}\n",
                "  \"dependencies\": {},\n  \"scripts\": {\n    \"lint\": \"eslint .\"\n  }\n",
                BreakKind::KeyTwice,
                "the key `scripts` twice at the top level, at lines 2 and 6",
            ),
            (
                "c.yaml",
                "host: a\nport: 1\n",
                "port: 1\n",
                "port: 1\nhost: b\n",
                BreakKind::KeyTwice,
                "the key `host` twice at the top level, at lines 1 and 3",
            ),
            (
                "a.js",
                "function go() {\n  return 1;\n}\n",
                "}\n",
                "}\n\nfunction go() {\n  return 2;\n}\n",
                BreakKind::DefinesTwice,
                "`go` twice at its top level, at lines 1 and 5",
            ),
            (
                "a.py",
                "def go():\n    return 1\n",
                "    return 1\n",
                "    return 1\n\ndef go():\n    return 2\n",
                BreakKind::DefinesTwice,
                "`go` twice at the module's top level, at lines 1 and 4",
            ),
        ];
        for (path, text, old, new, kind, said) in cases {
            let original = format!("\u{feff}{text}");
            let got = check_edit(found, path, &original, old, new);
            assert_eq!(got.as_ref().map(|g| g.0), Some(kind), "{path}: {got:?}");
            assert!(got.is_some_and(|g| g.1.contains(said)), "{path}");
            // The mark added or taken away by the edit: the same.
            let plain = text.replacen(old, new, 1);
            assert_eq!(found(path, &original, &plain).map(|g| g.0), Some(kind));
            // An edit that adds nothing twice: no doubt.
            assert_eq!(
                check_edit(found, path, &original, old, &format!("{old}\n")),
                None,
                "{path}"
            );
        }
    }

    /// A tester's find (round 39a, 21): package.json left without a comma
    /// passed every check. After the duplicate-key check, in its place.
    #[test]
    fn a_json_file_left_unreadable_is_a_fault() {
        let package = "{\n  \"name\": \"x\",\n  \"version\": \"1.0.0\"\n}\n";
        let missing = package.replace("\"x\",", "\"x\"");
        let got = found("package.json", package, &missing);
        assert_eq!(got.as_ref().map(|g| g.0), Some(BreakKind::NotJson));
        assert!(got.is_some_and(|g| g.1.starts_with(
            "the file was valid JSON before and is not after: line 3, column 3: expected `,` or `}`"
        )));
        let leaves = layout_break("package.json", package, &missing).map(|b| b.leaves());
        assert_eq!(leaves, Some("unreadable as JSON"));
        assert_eq!(
            found(
                "tsconfig.json",
                package,
                &package.replace("\"\n}", "\",\n}")
            ),
            None
        );
    }

    /// A tester's find (round 39a, 08): a Helm template setting `mode` in
    /// its `if` and `else` branches was doubted; the same key twice in a
    /// plain YAML file still is.
    #[test]
    fn a_helm_template_branch_is_not_a_key_twice() {
        let cm = "apiVersion: v1\nkind: ConfigMap\ndata:\n  mode: dev\n";
        assert_eq!(
            check_edit(
                found,
                "cm.yaml",
                cm,
                "  mode: dev\n",
                "{{- if .Values.prod }}\n  mode: prod\n{{- else }}\n  mode: dev\n{{- end }}\n"
            ),
            None
        );
        assert_eq!(
            check_before(found, "cm.yaml", cm, "  mode: dev\n", "  mode: prod\n").map(|g| g.0),
            Some(BreakKind::KeyTwice)
        );
    }

    /// A Markdown fence left open is its own kind, named and worded as
    /// such (it borrowed a string's words: "leaves a string open").
    #[test]
    fn a_fence_left_open_is_its_own_kind() {
        let before = "# App\n\n```sh\nmake\n```\n\nThen run it.\n";
        let found = check_edit(
            layout_break,
            "README.md",
            before,
            "make\n```\n",
            "make install\n",
        )
        .expect("a fault");
        assert_eq!(found.kind, BreakKind::FenceOpen);
        assert_eq!(
            (found.kind.name(), found.kind.words(), found.leaves()),
            (
                "fence-open",
                "leaves a code block open",
                "with a code block left open"
            )
        );
    }
}
