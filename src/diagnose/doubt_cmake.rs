//! *Pure.* A CMake file whose flow-control commands an edit leaves
//! unnested (a tester's find, round 49 T-03: an `endif()` removed, an
//! `if(` added without its end, and srview called the edit fine). CMake
//! checks every file's nesting as it parses it and stops there:
//! `CMake Error at CMakeLists.txt:7 (if): Flow control statements are not
//! properly nested.`
//!
//! Read as CMake's own parser reads a file (`cmListFileParser`): command
//! invocations `name(args)`, their names compared in lower case; `#` line
//! comments and `#[[ ]]` bracket comments, quoted arguments (over lines,
//! `\` escapes) and bracket arguments (`[=[ ]=]`) skipped; the nesting
//! checked as its `CheckNesting` does: `if`/`elseif`/`else`/`endif`,
//! `while`/`endwhile`, `foreach`/`endforeach`, `function`/`endfunction`,
//! `macro`/`endmacro`, `block`/`endblock`; the command CMake names is the
//! first closer or `elseif`/`else` out of place, else the last opener left
//! open. A command left without its `)` to the file's end is CMake's
//! `Parse error.  Function missing ending ")".  End of file reached.`
//! Its parser's other stops are said too (conf50's leftover, cmake 4.4
//! the referee): a command after another on one line (`set(A 1) set(B
//! 2)`: `Expected a newline, got identifier`; a bracket comment `#[[ ]]`
//! ends no line either), anything but a command's name where one must
//! stand (a `)` too many: `Expected a command name, got right paren`),
//! and a name without its `(` (`Expected "(", got newline`).
//!
//! By evidence only: the file before reads (this reader parses it and its
//! nesting holds), and the file after does not. Read in `CMakeLists.txt`
//! and `*.cmake` files.

/// A CMake file's nesting, or its parse, an edit leaves broken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CmakeNesting {
    /// The command CMake names (1-based line, its name as written).
    pub line: usize,
    /// The command's name as written (`endif`, `IF`).
    pub command: String,
    /// Which fault.
    pub fault: NestingFault,
}

/// What CMake stops at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NestingFault {
    /// A closer (or `else`, `elseif`) no open block of its kind takes.
    Stray,
    /// A block opened and never closed: the closer it needs.
    Unclosed(&'static str),
    /// A command whose `(` is never closed.
    NoParen,
    /// A command after another on one line (CMake needs a new line
    /// between).
    NoNewline,
    /// A token where a command's name must stand: its kind in CMake's
    /// words (`right paren`) and its text.
    NotCommand(&'static str, String),
    /// A command's name followed by something else than its `(`: the
    /// token's kind and text.
    NoOpenParen(&'static str, String),
}

impl NestingFault {
    /// A fault of CMake's parser, not of its nesting.
    pub fn is_parse(&self) -> bool {
        matches!(
            self,
            NestingFault::NoNewline | NestingFault::NotCommand(..) | NestingFault::NoOpenParen(..)
        )
    }
}

impl CmakeNesting {
    /// One sentence without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        let send = match &self.fault {
            NestingFault::Stray => format!(
                "send the edit with the `{}()` its block needs, or without this one",
                self.command.to_ascii_lowercase()
            ),
            NestingFault::Unclosed(end) => {
                format!("send the block's `{end}()` with it")
            }
            NestingFault::NoParen => "send the command with its closing `)`".to_string(),
            NestingFault::NoNewline => "put each command on a line of its own".to_string(),
            NestingFault::NotCommand(..) => {
                "send the edit without it, or inside its command's parentheses".to_string()
            }
            NestingFault::NoOpenParen(..) => {
                format!("send `{}(` with its arguments and `)`", self.command)
            }
        };
        format!("{}: {send}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (line, command) = (self.line, &self.command);
        match &self.fault {
            NestingFault::Stray => format!(
                "as written, `{command}()` at line {line} closes no block of its kind (a block's \
                 end removed or one too many): CMake stops reading the file (`CMake Error at \
                 line {line} ({command}): Flow control statements are not properly nested.`)"
            ),
            NestingFault::Unclosed(end) => format!(
                "as written, the `{command}(` at line {line} has no `{end}()` after it: CMake \
                 stops reading the file (`CMake Error at line {line} ({command}): Flow control \
                 statements are not properly nested.`)"
            ),
            NestingFault::NoParen => format!(
                "as written, the `{command}(` at line {line} has no `)` before the file's end: \
                 CMake stops reading the file (`Parse error.  Function missing ending \")\".  End \
                 of file reached.`)"
            ),
            NestingFault::NoNewline => format!(
                "as written, line {line} puts `{command}(` after another command on its line: \
                 CMake stops reading the file (`CMake Error at line {line}: Parse error.  \
                 Expected a newline, got identifier with text \"{command}\".`)"
            ),
            NestingFault::NotCommand(kind, text) => format!(
                "as written, line {line} has the {kind} `{text}` where a command's name must \
                 stand: CMake stops reading the file (`CMake Error at line {line}: Parse error.  \
                 Expected a command name, got {kind} with text \"{text}\".`)"
            ),
            NestingFault::NoOpenParen(kind, text) => {
                let error = match *kind {
                    "end of file" => "Unexpected end of file.  Parse error.  Function missing \
                                      opening \"(\"."
                        .to_string(),
                    "newline" => "Parse error.  Expected \"(\", got newline.".to_string(),
                    _ => format!("Parse error.  Expected \"(\", got {kind} with text \"{text}\"."),
                };
                format!(
                    "as written, `{command}` at line {line} is not followed by its `(`: CMake \
                     stops reading the file (`CMake Error at line {line}: {error}`)"
                )
            }
        }
    }
}

/// Whether `path` names a file CMake reads as its language:
/// `CMakeLists.txt` and `*.cmake`.
pub fn cmake_name(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name == "CMakeLists.txt" || name.to_ascii_lowercase().ends_with(".cmake")
}

/// One command invocation: its 1-based line and its name as written.
type Command<'a> = (usize, &'a str);

/// Why a text does not read as CMake.
enum Unread {
    /// A command's `(` never closed (the command).
    NoParen(usize, String),
    /// Another stop of CMake's parser: its line, the command (or the
    /// token) it names, the fault.
    Parse(usize, String, NestingFault),
    /// Anything else this reader does not follow.
    Other,
}

/// The command invocations of `text`, as CMake's lexer and parser read it.
fn commands(text: &str) -> Result<Vec<Command<'_>>, Unread> {
    let bytes = text.as_bytes();
    let mut at = 0;
    let mut line = 1;
    let mut found = Vec::new();
    // CMake's parser: a command's name only after a new line (the file's
    // start counts as one; a bracket comment ends none).
    let mut have_newline = true;
    while at < bytes.len() {
        match bytes[at] {
            b'\n' => {
                line += 1;
                at += 1;
                have_newline = true;
            }
            b' ' | b'\t' | b'\r' => at += 1,
            b'#' => {
                let bracketed = bracket(bytes, at + 1, &mut line.clone()).is_some();
                at = comment(bytes, at, &mut line).ok_or(Unread::Other)?;
                if bracketed {
                    have_newline = false;
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = at;
                while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
                    at += 1;
                }
                if bytes.get(at).is_some_and(|&b| unquoted(b)) {
                    let (kind, text) = token_at(text, start);
                    return Err(Unread::Parse(
                        line,
                        text.clone(),
                        NestingFault::NotCommand(kind, text),
                    ));
                }
                let name = &text[start..at];
                if !have_newline {
                    return Err(Unread::Parse(
                        line,
                        name.to_string(),
                        NestingFault::NoNewline,
                    ));
                }
                while at < bytes.len() && matches!(bytes[at], b' ' | b'\t') {
                    at += 1;
                }
                if bytes.get(at) != Some(&b'(') {
                    let (kind, got) = token_at(text, at);
                    return Err(Unread::Parse(
                        line,
                        name.to_string(),
                        NestingFault::NoOpenParen(kind, got),
                    ));
                }
                let opened = line;
                at = arguments(bytes, at + 1, &mut line)
                    .ok_or_else(|| Unread::NoParen(opened, name.to_string()))?;
                found.push((opened, name));
                have_newline = false;
            }
            _ => {
                let (kind, got) = token_at(text, at);
                return Err(Unread::Parse(
                    line,
                    got.clone(),
                    NestingFault::NotCommand(kind, got),
                ));
            }
        }
    }
    Ok(found)
}

/// A byte an unquoted argument goes on with (not white space, a
/// parenthesis, a quote or a comment).
fn unquoted(b: u8) -> bool {
    !matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'(' | b')' | b'"' | b'#')
}

/// The token at `at` outside any command, as CMake's lexer names it in
/// its errors, and its text.
fn token_at(text: &str, at: usize) -> (&'static str, String) {
    let bytes = text.as_bytes();
    match bytes.get(at) {
        None => ("end of file", String::new()),
        Some(b'\n' | b'\r') => ("newline", "\n".to_string()),
        Some(b'(') => ("left paren", "(".to_string()),
        Some(b')') => ("right paren", ")".to_string()),
        Some(b'"') => {
            let rest = &text[at + 1..];
            let end = rest.find(['"', '\n']).unwrap_or(rest.len());
            ("quoted argument", rest[..end].to_string())
        }
        Some(_) => {
            let end = bytes[at..]
                .iter()
                .position(|&b| !unquoted(b))
                .map_or(bytes.len(), |n| at + n);
            let word = text.get(at..end).unwrap_or("").to_string();
            let identifier = word
                .bytes()
                .enumerate()
                .all(|(k, b)| b == b'_' || b.is_ascii_alphabetic() || k > 0 && b.is_ascii_digit());
            if identifier && !word.is_empty() {
                ("identifier", word)
            } else {
                ("unquoted argument", word)
            }
        }
    }
}

/// Past the comment starting with `#` at `at`: a bracket comment
/// (`#[[ ]]`, `#[=[ ]=]`) or the rest of the line. `None` for a bracket
/// comment never closed.
fn comment(bytes: &[u8], at: usize, line: &mut usize) -> Option<usize> {
    if let Some(end) = bracket(bytes, at + 1, line) {
        return end;
    }
    let rest = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n);
    Some(rest)
}

/// A bracket opening `[=*[` at `at`: `Some(Some(past its close))`,
/// `Some(None)` when never closed; `None` when `at` opens no bracket.
fn bracket(bytes: &[u8], at: usize, line: &mut usize) -> Option<Option<usize>> {
    if bytes.get(at) != Some(&b'[') {
        return None;
    }
    let mut level = 0;
    while bytes.get(at + 1 + level) == Some(&b'=') {
        level += 1;
    }
    if bytes.get(at + 1 + level) != Some(&b'[') {
        return None;
    }
    let mut close = vec![b']'];
    close.extend(std::iter::repeat_n(b'=', level));
    close.push(b']');
    let body = at + 2 + level;
    let Some(end) = memchr::memmem::find(&bytes[body..], &close) else {
        return Some(None);
    };
    *line += memchr::memchr_iter(b'\n', &bytes[body..body + end]).count();
    Some(Some(body + end + close.len()))
}

/// Past the `)` ending the arguments that start at `at` (after the
/// command's `(`): nested parentheses, quoted and bracket arguments and
/// comments skipped; `None` when the file ends first.
fn arguments(bytes: &[u8], mut at: usize, line: &mut usize) -> Option<usize> {
    let mut depth = 1;
    // Whether a bracket argument may start here (after a separator).
    let mut separated = true;
    while at < bytes.len() {
        let c = bytes[at];
        match c {
            b'\n' => {
                *line += 1;
                at += 1;
                separated = true;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                at += 1;
                separated = true;
                continue;
            }
            b'(' => {
                depth += 1;
                at += 1;
                separated = true;
                continue;
            }
            b')' => {
                depth -= 1;
                at += 1;
                if depth == 0 {
                    return Some(at);
                }
                separated = true;
                continue;
            }
            b'#' => {
                at = comment(bytes, at, line)?;
                separated = true;
                continue;
            }
            b'"' => {
                at += 1;
                while at < bytes.len() && bytes[at] != b'"' {
                    match bytes[at] {
                        b'\\' => {
                            if bytes.get(at + 1) == Some(&b'\n') {
                                *line += 1;
                            }
                            at += 2;
                        }
                        b'\n' => {
                            *line += 1;
                            at += 1;
                        }
                        _ => at += 1,
                    }
                }
                if at >= bytes.len() {
                    return None;
                }
                at += 1;
                separated = false;
                continue;
            }
            b'[' if separated => {
                if let Some(end) = bracket(bytes, at, line) {
                    at = end?;
                    separated = false;
                    continue;
                }
            }
            b'\\' => {
                at += 2;
                separated = false;
                continue;
            }
            _ => {}
        }
        at += 1;
        separated = false;
    }
    None
}

/// The block a command opens, and the command that closes it.
fn opens(name: &str) -> Option<&'static str> {
    Some(match name {
        "if" => "endif",
        "while" => "endwhile",
        "foreach" => "endforeach",
        "function" => "endfunction",
        "macro" => "endmacro",
        "block" => "endblock",
        _ => return None,
    })
}

/// The first command out of place in `commands`, as CMake's
/// `CheckNesting` finds it: a closer (or `else`, `elseif`) no open block
/// takes, else the last block left open.
fn misnested<'a>(commands: &[Command<'a>]) -> Option<(Command<'a>, NestingFault)> {
    // Each open block: its closer, whether it is an `if` (not yet at
    // `else`: `elseif` and `else` allowed), its command.
    let mut stack: Vec<(&'static str, bool, Command<'a>)> = Vec::new();
    for &command in commands {
        let name = command.1.to_ascii_lowercase();
        if let Some(end) = opens(&name) {
            stack.push((end, name == "if", command));
            continue;
        }
        let top = stack.last().map(|t| (t.0, t.1));
        let fits = match name.as_str() {
            "elseif" | "else" => top.is_some_and(|(end, open_if)| end == "endif" && open_if),
            "endif" | "endwhile" | "endforeach" | "endfunction" | "endmacro" | "endblock" => {
                top.is_some_and(|(end, _)| end == name)
            }
            _ => continue,
        };
        if !fits {
            return Some((command, NestingFault::Stray));
        }
        match name.as_str() {
            "else" => {
                if let Some(top) = stack.last_mut() {
                    *top = ("endif", false, command);
                }
            }
            "elseif" => {
                if let Some(top) = stack.last_mut() {
                    top.2 = command;
                }
            }
            _ => {
                stack.pop();
            }
        }
    }
    stack
        .pop()
        .map(|(end, _, command)| (command, NestingFault::Unclosed(end)))
}

/// What stops CMake in `text`: `Ok(None)` when it reads, `Err(())` when
/// this reader cannot tell.
fn cmake_fault(text: &str) -> Result<Option<CmakeNesting>, ()> {
    match commands(text) {
        Ok(found) => Ok(
            misnested(&found).map(|((line, command), fault)| CmakeNesting {
                line,
                command: command.to_string(),
                fault,
            }),
        ),
        Err(Unread::NoParen(line, command)) => Ok(Some(CmakeNesting {
            line,
            command,
            fault: NestingFault::NoParen,
        })),
        Err(Unread::Parse(line, command, fault)) => Ok(Some(CmakeNesting {
            line,
            command,
            fault,
        })),
        Err(Unread::Other) => Err(()),
    }
}

/// The nesting (or parse) fault `result` (the CMake file `path` as an
/// edit leaves it) has where `original` read (see the module).
pub(super) fn cmake_nesting(path: &str, original: &str, result: &str) -> Option<CmakeNesting> {
    if !cmake_name(path) || original == result || original.is_empty() {
        return None;
    }
    if cmake_fault(original) != Ok(None) {
        return None;
    }
    cmake_fault(result).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::{CmakeNesting, NestingFault, cmake_name, cmake_nesting};

    const LISTS: &str = "cmake_minimum_required(VERSION 3.20)\nproject(demo C)\n\n\
                         if(WIN32)\n  add_definitions(-DWIN)\nelseif(APPLE)\n  set(X \"a)\n b\")\n\
                         else()\n  # endif()\n  set(Y [[endif()\n]])\nendif()\n\n\
                         foreach(f IN ITEMS a b)\n  message(STATUS \"${f}\")\nendforeach()\n\n\
                         function(helper)\n  IF(DEFINED ARGV0)\n    return()\n  ENDIF()\n\
                         endfunction()\n#[[\nif(\n]]\nadd_executable(demo main.c)\n";

    fn judged(old: &str, new: &str) -> Option<CmakeNesting> {
        assert!(LISTS.contains(old), "{old:?}");
        cmake_nesting("CMakeLists.txt", LISTS, &LISTS.replacen(old, new, 1))
    }

    /// The tester's find (round 49 T-03): an `endif()` removed, an `if(`
    /// added without its end, each said with its line and CMake's words.
    #[test]
    fn a_block_end_removed_or_an_opener_added_alone_is_doubted() {
        let removed = judged("  ENDIF()\n", "");
        assert_eq!(
            removed,
            Some(CmakeNesting {
                line: 22,
                command: "endfunction".into(),
                fault: NestingFault::Stray,
            })
        );
        assert_eq!(
            removed.map(|r| r.describe()).as_deref(),
            Some(
                "as written, `endfunction()` at line 22 closes no block of its kind (a block's \
                 end removed or one too many): CMake stops reading the file (`CMake Error at \
                 line 22 (endfunction): Flow control statements are not properly nested.`): \
                 send the edit with the `endfunction()` its block needs, or without this one"
            )
        );
        let added = judged(
            "add_executable(demo main.c)\n",
            "if(BUILD_DEMO)\nadd_executable(demo main.c)\n",
        );
        assert_eq!(
            added.map(|a| a.describe()).as_deref(),
            Some(
                "as written, the `if(` at line 27 has no `endif()` after it: CMake stops reading \
                 the file (`CMake Error at line 27 (if): Flow control statements are not \
                 properly nested.`): send the block's `endif()` with it"
            )
        );
        let last = judged("endforeach()\n", "");
        assert_eq!(
            last.map(|l| (l.line, l.command, l.fault)),
            Some((15, "foreach".into(), NestingFault::Unclosed("endforeach")))
        );
        let paren = judged(
            "add_executable(demo main.c)\n",
            "add_executable(demo main.c\n",
        );
        assert_eq!(
            paren.map(|p| (p.line, p.fault)),
            Some((27, NestingFault::NoParen))
        );
        assert!(judged("else()\n", "else()\nelse()\n").is_some());
        assert!(judged("endforeach()\n", "endwhile()\n").is_some());
    }

    /// No doubt: blocks added whole, block words in comments, strings
    /// and bracket arguments, a file that did not read before, another
    /// file's name.
    #[test]
    fn whole_blocks_and_words_in_text_are_not_doubted() {
        for (old, new) in [
            ("project(demo C)\n", "project(demo C)\nif(A)\nendif()\n"),
            ("project(demo C)\n", "project(demo C)\n# if(A)\n"),
            ("project(demo C)\n", "project(demo C)\nmessage(\"if(\")\n"),
            (
                "project(demo C)\n",
                "project(demo C)\n#[==[\nendif()\n]==]\nset(Z [=[\nwhile(\n]=])\n",
            ),
            (
                "add_executable(demo main.c)\n",
                "add_executable(demo\n  main.c)\n",
            ),
            ("endfunction()\n", "EndFunction()\n"),
            ("  add_definitions(-DWIN)\n", "  block()\n  endblock()\n"),
        ] {
            assert_eq!(judged(old, new), None, "{new:?}");
        }
        let broken = LISTS.replace("endforeach()\n", "");
        assert_eq!(
            cmake_nesting("CMakeLists.txt", &broken, &broken.replace("endif()\n", "")),
            None
        );
        let result = LISTS.replace("endif()\n", "");
        assert_eq!(cmake_nesting("notes.txt", LISTS, &result), None);
        assert!(cmake_nesting("cmake/Deps.cmake", LISTS, &result).is_some());
        assert!(cmake_name("a/b/FindFoo.CMake") && !cmake_name("CMakeLists.txt.in"));
    }

    /// conf50's leftover: two commands on one line, a `)` too many, a
    /// name without its `(`, each in cmake 4.4's words (checked with
    /// `cmake -P`).
    #[test]
    fn parse_errors_other_than_nesting_are_doubted() {
        let joined = judged(
            "add_executable(demo main.c)\n",
            "add_executable(demo main.c) target_link_libraries(demo m)\n",
        );
        assert_eq!(
            joined.map(|j| j.describe()).as_deref(),
            Some(
                "as written, line 27 puts `target_link_libraries(` after another command on its \
                 line: CMake stops reading the file (`CMake Error at line 27: Parse error.  \
                 Expected a newline, got identifier with text \"target_link_libraries\".`): put \
                 each command on a line of its own"
            )
        );
        let extra = judged("project(demo C)\n", "project(demo C))\n");
        assert_eq!(
            extra.map(|e| e.fault()).as_deref(),
            Some(
                "as written, line 2 has the right paren `)` where a command's name must stand: \
                 CMake stops reading the file (`CMake Error at line 2: Parse error.  Expected a \
                 command name, got right paren with text \")\".`)"
            )
        );
        let quoted = judged("project(demo C)\n", "project(demo C) \"x\"\n");
        assert_eq!(
            quoted.map(|q| q.fault),
            Some(NestingFault::NotCommand("quoted argument", "x".into()))
        );
        let bare = judged("project(demo C)\n", "project(demo C)\nenable_testing\n");
        assert_eq!(
            bare.map(|b| (b.line, b.command, b.fault)),
            Some((
                3,
                "enable_testing".into(),
                NestingFault::NoOpenParen("newline", "\n".into())
            ))
        );
        let at_end = cmake_nesting(
            "CMakeLists.txt",
            "project(demo C)\n",
            "project(demo C)\nenable_testing",
        );
        assert!(at_end.map(|a| a.fault()).is_some_and(|f| f.contains(
            "(`CMake Error at line 2: Unexpected end of file.  Parse error.  Function missing \
             opening \"(\".`)"
        )));
        let dashed = judged("project(demo C)\n", "project(demo C)\nfoo-bar(x)\n");
        assert_eq!(
            dashed.map(|d| d.fault),
            Some(NestingFault::NotCommand(
                "unquoted argument",
                "foo-bar".into()
            ))
        );
        let after_bracket = judged("project(demo C)\n", "#[[note]] project(demo C)\n");
        assert_eq!(
            after_bracket.map(|a| a.fault),
            Some(NestingFault::NoNewline)
        );
        // A line comment ends a command's line; a bracket comment after a
        // command is fine (cmake -P reads both).
        for new in [
            "project(demo C) # set(B 2)\n",
            "project(demo C) #[[note]]\n",
            "project (demo C)\n",
            "project(demo C)\n\n\n",
        ] {
            assert_eq!(judged("project(demo C)\n", new), None, "{new:?}");
        }
    }
}
