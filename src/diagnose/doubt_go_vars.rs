//! *Pure.* A Go function an edit leaves holding a local variable declared
//! and never used (a tester's find, round 48 T-07a: `y := add(x, 1)` added
//! and read nowhere, or the last line reading `x` removed). Go refuses it:
//! `declared and not used: y`.
//!
//! Read on the file's code with its strings, runes and comments blanked
//! ([`super::doubt_go_use`]), in the body of each top-level `func`
//! declaration. A variable is one a `:=` at a statement's start (or after
//! `if`, `for`, `switch`, `case`) or a `var` statement declares. It is
//! used where its name stands as a word later in the block declaring it
//! (closures and inner blocks included), not after a `.` (`a.x` is a
//! field) and not as the left side of a plain `=` (an assignment is no
//! use: `x = 2`, `x, y = f()`); `x++`, `x += 1`, `&x`, `x.f = 1` are uses.
//! Conservative where the reading is unsure: a name that stands anywhere
//! in the function above its declaration (a parameter, a variable it
//! shadows, an earlier declaration), a function holding `goto`, a
//! generated file (`// Code generated ... DO NOT EDIT.`) are not judged;
//! package-level variables and parameters never are. Doubted: a variable
//! so read unused in the result, where the file before held no unused
//! variable of that name in that function (the edit declared it, or
//! removed its last use).

use super::doubt_go_use::{blanked, is_ident, words};
use crate::textdiff::changed_lines;
use std::collections::HashMap;

/// A local variable an edit leaves declared and not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnusedVariable {
    /// Its name.
    pub name: String,
    /// The line declaring it, 1-based.
    pub line: usize,
    /// The function holding it, as its declaration names it (`main`,
    /// `(s *Server) Handle`).
    pub function: String,
    /// Whether the file before used it (the edit removed its last use).
    pub was_used: bool,
}

impl UnusedVariable {
    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let Self {
            name,
            line,
            function,
            was_used,
        } = self;
        let before = if *was_used {
            ", where the file before used it"
        } else {
            ""
        };
        format!(
            "as the edit leaves it, the variable `{name}` declared at line {line} (in `func \
             {function}`) is read nowhere (assigning it is no use){before}: Go refuses to compile \
             it (declared and not used: {name})"
        )
    }

    /// One sentence without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        let send = if self.was_used {
            "keep a use of it, or remove its declaration too"
        } else {
            "use it, or remove its declaration"
        };
        format!("{}: {send}", self.fault())
    }
}

/// The local variable [`UnusedVariable`] says of `result` (the Go file
/// `path` as an edit leaves `original`); `None` for other files, generated
/// ones, and where every unused variable was so in the file before.
pub fn go_unused_variable(path: &str, original: &str, result: &str) -> Option<UnusedVariable> {
    if !path.ends_with(".go") || generated(original) || generated(result) {
        return None;
    }
    // Only a function the edit changes can gain an unused variable: a
    // variable's uses are its function's text.
    let (_, new, prefix, suffix) = changed_lines(original, result);
    let changed = prefix.saturating_sub(1)..new.len() - suffix + 1;
    let after = locals(&blanked(result), &changed);
    if after.iter().all(|l| l.used) {
        return None;
    }
    let before = locals(&blanked(original), &(0..usize::MAX));
    let same = |l: &Local, v: &Local| l.function == v.function && l.name == v.name;
    let unused = after
        .iter()
        .filter(|v| !v.used)
        .find(|v| !before.iter().any(|l| !l.used && same(l, v)))?;
    Some(UnusedVariable {
        name: unused.name.clone(),
        line: unused.line + 1,
        function: unused.function.clone(),
        was_used: before.iter().any(|l| same(l, unused)),
    })
}

/// Whether `text` says it is generated (Go's convention: a line
/// `// Code generated ... DO NOT EDIT.`).
fn generated(text: &str) -> bool {
    text.lines()
        .any(|l| l.starts_with("// Code generated ") && l.contains("DO NOT EDIT"))
}

/// A local variable read: its function, name, line (0-based) and whether
/// it is used.
struct Local {
    function: String,
    name: String,
    line: usize,
    used: bool,
}

/// Every local variable of `code`'s (blanked) top-level functions the
/// reading judges (see the module), in the functions spanning a line of
/// `lines` (0-based).
fn locals(code: &str, lines: &std::ops::Range<usize>) -> Vec<Local> {
    let bytes = code.as_bytes();
    let ends: Vec<usize> = memchr::memchr_iter(b'\n', bytes).collect();
    let line_of = |at: usize| ends.partition_point(|&e| e < at);
    let mut out = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |n| start + n);
        if code[start..end].starts_with("func")
            && matches!(bytes.get(start + 4), Some(b' ' | b'\t' | b'('))
            && let Some((function, body)) = function_at(code, start)
        {
            if line_of(start) < lines.end && lines.start <= line_of(body.end) {
                for (name, at, used) in read_body(code, start, body.clone()) {
                    out.push(Local {
                        function: function.clone(),
                        name,
                        line: line_of(at),
                        used,
                    });
                }
            }
            start = body.end;
            continue;
        }
        start = end + 1;
    }
    out
}

/// The function declared at `at` (a line starting `func`): its name (with
/// its receiver) and its body's range inside the braces; `None` for one
/// without a body or holding `goto`.
fn function_at(code: &str, at: usize) -> Option<(String, std::ops::Range<usize>)> {
    let bytes = code.as_bytes();
    let mut i = at + 4;
    let mut depth = 0usize;
    let open = loop {
        match *bytes.get(i)? {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.checked_sub(1)?,
            b'\n' if depth == 0 => return None,
            b'{' if depth == 0 => {
                let head = code[..i].trim_end();
                if head.ends_with("interface") || head.ends_with("struct") {
                    i = closing(bytes, i)?;
                } else {
                    break i;
                }
            }
            b'{' => i = closing(bytes, i)?,
            _ => {}
        }
        i += 1;
    };
    let close = closing(bytes, open)?;
    let body = open + 1..close;
    if words(&code[body.clone()], "goto").next().is_some() {
        return None;
    }
    let head = code[at + 4..open].trim_start();
    let receiver = if head.starts_with('(') {
        let end = closing(head.as_bytes(), 0)?;
        &head[..=end]
    } else {
        ""
    };
    let rest = head[receiver.len()..].trim_start();
    let name_len = rest.bytes().take_while(|&b| is_ident(b)).count();
    let name = &rest[..name_len];
    let function = if receiver.is_empty() {
        name.to_string()
    } else {
        format!(
            "{} {name}",
            receiver.split_whitespace().collect::<Vec<_>>().join(" ")
        )
    };
    Some((function, body))
}

/// The offset of the bracket closing the one at `open` (`(` or `{`).
fn closing(bytes: &[u8], open: usize) -> Option<usize> {
    let (up, down) = match bytes[open] {
        b'(' => (b'(', b')'),
        _ => (b'{', b'}'),
    };
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        if b == up {
            depth += 1;
        } else if b == down {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The variables `body` (of the function declared at `func`) declares:
/// each one's name, offset and whether it is used. One pass reads every
/// name of the function (not after a `.`) with the end of its innermost
/// block, so a large function costs its length, not its length a variable.
fn read_body(code: &str, func: usize, body: std::ops::Range<usize>) -> Vec<(String, usize, bool)> {
    let bytes = code.as_bytes();
    let mut declared: Vec<(usize, usize)> = Vec::new();
    let text = &code[body.clone()];
    for (at, _) in text.match_indices(":=") {
        if let Some(names) = short_declared(code, body.start + at) {
            declared.extend(names);
        }
    }
    for at in words(text, "var") {
        declared.extend(var_declared(code, body.start + at));
    }
    if declared.is_empty() {
        return Vec::new();
    }
    // Each `{`'s `}` (the body's own: its end).
    let mut ends: HashMap<usize, usize> = HashMap::new();
    let mut open: Vec<usize> = Vec::new();
    for (i, &b) in bytes[body.clone()].iter().enumerate() {
        match b {
            b'{' => open.push(body.start + i),
            b'}' => {
                if let Some(o) = open.pop() {
                    ends.insert(o, body.start + i);
                }
            }
            _ => {}
        }
    }
    // Each name's places (offset, end of its innermost block), in order.
    let mut places: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
    let mut open: Vec<usize> = Vec::new();
    let mut i = func;
    while i < body.end {
        let b = bytes[i];
        if is_ident(b) {
            let len = bytes[i..body.end]
                .iter()
                .take_while(|&&c| is_ident(c))
                .count();
            if !b.is_ascii_digit() && !after_dot(code, i) {
                let end = open
                    .last()
                    .and_then(|o| ends.get(o).copied())
                    .unwrap_or(body.end);
                places.entry(&code[i..i + len]).or_default().push((i, end));
            }
            i += len;
            continue;
        }
        if i >= body.start {
            match b {
                b'{' => open.push(i),
                b'}' => {
                    open.pop();
                }
                _ => {}
            }
        }
        i += 1;
    }
    declared.sort_unstable();
    declared
        .into_iter()
        .filter_map(|(at, len)| {
            let name = &code[at..at + len];
            let places = places.get(name)?;
            // A name standing above its declaration: not read.
            if name == "_" || places.first().is_none_or(|&(first, _)| first < at) {
                return None;
            }
            let end = places.iter().find(|&&(o, _)| o == at)?.1;
            let used = places
                .iter()
                .filter(|&&(o, _)| o > at && o < end)
                .any(|&(o, _)| !assigned(code, o, len));
            Some((name.to_string(), at, used))
        })
        .collect()
}

/// Whether the word at `at` follows a `.` (a field or a method).
fn after_dot(code: &str, at: usize) -> bool {
    code[..at]
        .trim_end_matches([' ', '\t', '\n'])
        .ends_with('.')
}

/// The identifier ending at `end` (exclusive): its start.
fn ident_before(bytes: &[u8], end: usize) -> Option<usize> {
    let start = end
        - bytes[..end]
            .iter()
            .rev()
            .take_while(|&&b| is_ident(b))
            .count();
    (start < end && !bytes[start].is_ascii_digit()).then_some(start)
}

/// `at` moved back over spaces and tabs (and line ends, `lines`).
fn back_over_space(bytes: &[u8], mut at: usize, lines: bool) -> usize {
    while at > 0 && (matches!(bytes[at - 1], b' ' | b'\t') || (lines && bytes[at - 1] == b'\n')) {
        at -= 1;
    }
    at
}

/// Whether a statement may start right after `at`: a line's start, `{`,
/// `;`, `:` (a label, a `case`), or after the keyword of a statement
/// whose header declares (`if`, `for`, `switch`, `case`).
fn statement_start(bytes: &[u8], at: usize) -> bool {
    let at = back_over_space(bytes, at, false);
    if at == 0 || matches!(bytes[at - 1], b'\n' | b'{' | b';' | b':') {
        return true;
    }
    ident_before(bytes, at).is_some_and(|start| {
        matches!(&bytes[start..at], b"if" | b"for" | b"switch" | b"case")
            && (start == 0 || !is_ident(bytes[start - 1]))
    })
}

/// The names (offset, length) a `:=` at `at` declares, where it starts a
/// statement: `a, b := f()`.
fn short_declared(code: &str, at: usize) -> Option<Vec<(usize, usize)>> {
    let bytes = code.as_bytes();
    let mut names = Vec::new();
    let mut end = back_over_space(bytes, at, false);
    loop {
        let start = ident_before(bytes, end)?;
        names.push((start, end - start));
        let before = back_over_space(bytes, start, false);
        if before > 0 && bytes[before - 1] == b',' {
            end = back_over_space(bytes, before - 1, true);
            continue;
        }
        return statement_start(bytes, start).then_some(names);
    }
}

/// The names (offset, length) a `var` at `at` declares, where it starts a
/// statement: `var x int`, `var a, b = 1, 2`, `var ( x int; y = 2 )`.
fn var_declared(code: &str, at: usize) -> Vec<(usize, usize)> {
    let bytes = code.as_bytes();
    if !statement_start(bytes, at) {
        return Vec::new();
    }
    let mut i = at + 3;
    while matches!(bytes.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    if bytes.get(i) != Some(&b'(') {
        return spec_names(bytes, i);
    }
    let Some(close) = closing(bytes, i) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut spec = true;
    for j in i + 1..close {
        match bytes[j] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\n' | b';' if depth == 0 => spec = true,
            b' ' | b'\t' => {}
            _ if spec => {
                spec = false;
                out.extend(spec_names(bytes, j));
            }
            _ => {}
        }
    }
    out
}

/// The names of a variable spec starting at `at` (`a, b int`).
fn spec_names(bytes: &[u8], mut at: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    loop {
        let len = bytes[at..].iter().take_while(|&&b| is_ident(b)).count();
        if len == 0 || bytes[at].is_ascii_digit() {
            return Vec::new();
        }
        out.push((at, len));
        at += len;
        while matches!(bytes.get(at), Some(b' ' | b'\t')) {
            at += 1;
        }
        if bytes.get(at) != Some(&b',') {
            return out;
        }
        at += 1;
        while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n')) {
            at += 1;
        }
    }
}

/// Whether the word at `at` (of `len` bytes) is assigned by a plain `=`
/// and nothing else: it and the names beside it, bare, on the left of
/// the `=` of a statement (`x = 2`, `_, x = f()`).
fn assigned(code: &str, at: usize, len: usize) -> bool {
    let bytes = code.as_bytes();
    // Forward: `, name` ... up to `=` (not `==`).
    let mut i = at + len;
    loop {
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        match bytes.get(i) {
            Some(b'=') if bytes.get(i + 1) != Some(&b'=') => break,
            Some(b',') => {
                i += 1;
                while matches!(bytes.get(i), Some(b' ' | b'\t' | b'\n')) {
                    i += 1;
                }
                let n = bytes[i..].iter().take_while(|&&b| is_ident(b)).count();
                if n == 0 {
                    return false;
                }
                i += n;
            }
            _ => return false,
        }
    }
    // Back: `name ,` ... to the statement's start.
    let mut start = at;
    loop {
        let before = back_over_space(bytes, start, false);
        if before > 0 && bytes[before - 1] == b',' {
            let end = back_over_space(bytes, before - 1, true);
            match ident_before(bytes, end) {
                Some(s) => start = s,
                None => return false,
            }
            continue;
        }
        return before == 0 || matches!(bytes[before - 1], b'\n' | b'{' | b';' | b':');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::doubt::test_edits::check_edit;

    const MAIN: &str = "package main\n\nimport \"fmt\"\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n\nfunc main() {\n\tx := add(1, 2)\n\tif x > 2 {\n\t\tfmt.Println(\"big\")\n\t}\n\tfmt.Println(x)\n}\n";

    fn said(result: &str) -> Option<String> {
        go_unused_variable("main.go", MAIN, result).map(|u| u.describe())
    }

    /// The tester's cases (round 48, T-07a): a variable declared and read
    /// nowhere (`:=`, `var`, one only assigned after, a type switch's, a
    /// `select` case's, a `range`'s), and the last use of one removed,
    /// each said with its name, line and function.
    #[test]
    fn a_variable_declared_and_not_used_is_said() {
        assert_eq!(
            said(&MAIN.replace("\tfmt.Println(x)\n", "\ty := add(x, 1)\n\tfmt.Println(x)\n")),
            Some(
                "as the edit leaves it, the variable `y` declared at line 14 (in `func main`) is \
                 read nowhere (assigning it is no use): Go refuses to compile it (declared and \
                 not used: y): use it, or remove its declaration"
                    .to_string()
            )
        );
        assert_eq!(
            said(&MAIN.replace(
                "\tif x > 2 {\n\t\tfmt.Println(\"big\")\n\t}\n\tfmt.Println(x)\n",
                "\tfmt.Println(\"done\")\n"
            )),
            Some(
                "as the edit leaves it, the variable `x` declared at line 10 (in `func main`) is \
                 read nowhere (assigning it is no use), where the file before used it: Go \
                 refuses to compile it (declared and not used: x): keep a use of it, or remove \
                 its declaration too"
                    .to_string()
            )
        );
        let doubted = [
            "\tvar n int\n\tfmt.Println(x)\n",
            "\tvar n int\n\tn = 2\n\tfmt.Println(x)\n",
            "\tvar (\n\t\tm = 1\n\t\tn int\n\t)\n\tfmt.Println(x, m)\n",
            "\tn, err := f()\n\tfmt.Println(x, err)\n\tn = 3\n",
            "\tvar err error\n\t_, err = f()\n\tfmt.Println(x)\n",
            "\tfor i, v := range s {\n\t\tfmt.Println(v)\n\t}\n\tfmt.Println(x)\n",
            "\tif n := f(); true {\n\t\tfmt.Println(x)\n\t}\n",
            "\tn := 1\n\tgo func() {\n\t\tn = 2\n\t}()\n\tfmt.Println(x)\n",
            "\tn := 1\n\tfmt.Println(x, s.n, t.\n\t\tn)\n",
            "\tswitch n := v.(type) {\n\tcase int:\n\t\tfmt.Println(x)\n\t}\n",
            "\tselect {\n\tcase n := <-ch:\n\t\tfmt.Println(x)\n\t}\n",
            "\tfor i := range 10 {\n\t\tfmt.Println(x)\n\t}\n",
            "\tvar n int\n\tn =\n\t\tf()\n\tfmt.Println(x)\n",
        ];
        for new in doubted {
            let found = check_edit(
                go_unused_variable,
                "main.go",
                MAIN,
                "\tfmt.Println(x)\n",
                new,
            );
            assert!(
                found
                    .as_ref()
                    .is_some_and(|u| ["n", "err", "i"].contains(&u.name.as_str())),
                "{new}: {found:?}"
            );
        }
        let method =
            "package p\n\ntype S struct{ n int }\n\nfunc (s *S) Get() int {\n\treturn s.n\n}\n";
        let found = go_unused_variable(
            "p.go",
            method,
            &method.replace("\treturn s.n\n", "\tv := s.n\n\treturn s.n\n"),
        );
        assert_eq!(
            found.map(|u| (u.name, u.line, u.function)),
            Some(("v".to_string(), 6, "(s *S) Get".to_string()))
        );
    }

    /// Not said: uses of every form (a closure, `x++`, `x += 1`, `&x`, a
    /// field of it assigned, an index, a method call, `_ = x`, `switch x`,
    /// a channel send, `x = x + 1`), a field key or a closure parameter of
    /// its name (unsure: Go would refuse these two), a new used
    /// variable, a comment or blank line, `_`, a name standing above its
    /// declaration (a parameter, a shadowed variable), a package-level
    /// variable, a function holding `goto`, a generated file, a variable
    /// unused before the edit too, a file that is no Go.
    #[test]
    fn variables_used_or_not_read_surely_are_not_said() {
        let fine = [
            "\tn := 1\n\tfunc() { fmt.Println(n) }()\n\tfmt.Println(x)\n",
            "\tn := 1\n\tn++\n\tfmt.Println(x)\n",
            "\tn := 1\n\tn += 2\n\tfmt.Println(x)\n",
            "\tn := 1\n\tp := &n\n\tfmt.Println(x, *p)\n",
            "\tvar t T\n\tt.f = 1\n\tfmt.Println(x)\n",
            "\tm := map[int]int{}\n\tm[1] = 2\n\tfmt.Println(x)\n",
            "\tvar b strings.Builder\n\tb.WriteString(\"a\")\n\tfmt.Println(x)\n",
            "\tn := 1\n\t_ = n\n\tfmt.Println(x)\n",
            "\ty := add(x, 1)\n\tfmt.Println(y)\n",
            "\t// a comment naming v := 1\n\n\tfmt.Println(x)\n",
            "\t_ := 1\n\tfmt.Println(x)\n",
            "\tif true {\n\t\tx := 2\n\t\tfmt.Println(\"shadow\")\n\t}\n\tfmt.Println(x)\n",
            "\tn, m := 1, 2\n\tfmt.Println(x, n == m)\n",
            "\tn := \"x\"\n\tfmt.Println(x, n)\n",
            "\tn := 1\n\tif true {\n\t\tfmt.Println(n)\n\t}\n\tfmt.Println(x)\n",
            "\tn := 1\n\tgoto end\nend:\n\tfmt.Println(x)\n",
            "\tn := 1\n\tswitch n {\n\tcase 1:\n\t\tfmt.Println(x)\n\t}\n",
            "\tn := make(chan int)\n\tn <- 1\n\tfmt.Println(x)\n",
            "\tvar wg sync.WaitGroup\n\twg.Add(1)\n\tfmt.Println(x)\n",
            "\tn := 1\n\tn = n + 1\n\tfmt.Println(x)\n",
            "\tswitch n := v.(type) {\n\tcase int:\n\t\tfmt.Println(x, n)\n\t}\n",
            "\tvar fib func(int) int\n\tfib = func(k int) int { return fib(k - 1) }\n\tfmt.Println(x)\n",
            // Unsure, so not said (Go would refuse both): a field key
            // named as the variable, a closure parameter shadowing it.
            "\tn := 1\n\tp := T{\n\t\tn: 2,\n\t}\n\tfmt.Println(x, p)\n",
            "\tn := 1\n\tf := func(n int) { _ = n }\n\tf(x)\n",
        ];
        for new in fine {
            assert_eq!(
                check_edit(
                    go_unused_variable,
                    "main.go",
                    MAIN,
                    "\tfmt.Println(x)\n",
                    new
                ),
                None,
                "{new}"
            );
        }
        assert_eq!(
            check_edit(
                go_unused_variable,
                "main.go",
                MAIN,
                "func main() {",
                "var unused = 1\n\nfunc main() {"
            ),
            None
        );
        let generated = format!("// Code generated by stringer; DO NOT EDIT.\n\n{MAIN}");
        let with_y = |t: &str| t.replace("\tfmt.Println(x)\n", "\ty := 1\n\tfmt.Println(x)\n");
        assert_eq!(
            go_unused_variable("main.go", &generated, &with_y(&generated)),
            None
        );
        let unused_before = with_y(MAIN);
        assert_eq!(
            go_unused_variable(
                "main.go",
                &unused_before,
                &unused_before.replace("fmt.Println(x)", "fmt.Println(x, 1)")
            ),
            None
        );
        // Another function changed: main's unused `y` is not the edit's.
        assert_eq!(
            go_unused_variable(
                "main.go",
                &unused_before,
                &unused_before.replace("\treturn a + b\n", "\treturn b + a\n")
            ),
            None
        );
        assert_eq!(go_unused_variable("main.txt", MAIN, &with_y(MAIN)), None);
    }
}
