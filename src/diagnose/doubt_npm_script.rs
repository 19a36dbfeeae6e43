//! *Pure.* A `package.json` script the edit leaves ending in `&&`, `||`
//! or `|` (a tester's find, round 49 T-05: `"build": "tsc &&"` was called
//! fine). npm runs a script as `sh -c "<script>"`; sh stops at once with
//! `Syntax error: end of file unexpected` and runs nothing of it.
//!
//! The rule, by evidence only: a file named `package.json` that reads as
//! JSON before and after; a `"scripts"` entry whose string the edit
//! changed or added, ending (blanks aside) in `&&`, `||` or `|`, where
//! its value before did not.

/// A script left ending in an operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NpmScriptCut {
    /// The script's name.
    pub name: String,
    /// Its value as the edit leaves it.
    pub value: String,
    /// The operator it ends in.
    pub op: &'static str,
    /// The result's line (1-based) its key stands on, when found.
    pub line: Option<usize>,
}

impl NpmScriptCut {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        format!(
            "{}: send the command that follows the `{}`, or the script without it",
            self.fault(),
            self.op
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let place = match self.line {
            Some(line) => format!("line {line}, "),
            None => String::new(),
        };
        format!(
            "the script `{name}` ({place}`\"{name}\": {value}`) ends in `{op}` with no command \
             after it: npm runs it as `sh -c`, and sh stops with `Syntax error: end of file \
             unexpected`, running none of it (`npm run {name}` fails)",
            name = self.name,
            value = serde_json::Value::String(self.value.clone()),
            op = self.op,
        )
    }
}

/// The first script of `result` (the `package.json` at `path` as an edit
/// leaves it) the edit leaves ending in an operator (see the module's
/// rule).
pub(super) fn npm_script_cut(path: &str, original: &str, result: &str) -> Option<NpmScriptCut> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    if name != "package.json" || original == result {
        return None;
    }
    let before: serde_json::Value = serde_json::from_str(original).ok()?;
    let after: serde_json::Value = serde_json::from_str(result).ok()?;
    let scripts = after.get("scripts")?.as_object()?;
    let old = before.get("scripts").and_then(|s| s.as_object());
    scripts.iter().find_map(|(key, value)| {
        let value = value.as_str()?;
        let op = ends_in_operator(value)?;
        let was = old.and_then(|o| o.get(key)).and_then(|v| v.as_str());
        if was.is_some_and(|w| w == value || ends_in_operator(w).is_some()) {
            return None;
        }
        let quoted = serde_json::Value::String(key.clone()).to_string();
        let line = result
            .lines()
            .position(|l| l.trim_start().starts_with(&quoted))
            .map(|n| n + 1);
        Some(NpmScriptCut {
            name: key.clone(),
            value: value.to_string(),
            op,
            line,
        })
    })
}

/// The operator `script` ends in (blanks aside): `&&`, `||` or `|`.
fn ends_in_operator(script: &str) -> Option<&'static str> {
    let trimmed = script.trim_end();
    ["&&", "||", "|"]
        .into_iter()
        .find(|op| trimmed.ends_with(op) && !trimmed.ends_with(&format!("\\{op}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PACKAGE: &str = "{\n  \"name\": \"app\",\n  \"scripts\": {\n    \"build\": \"tsc\",\n    \"test\": \"jest\"\n  }\n}\n";

    #[test]
    fn a_script_left_ending_in_an_operator_is_said() {
        let result = PACKAGE.replace("\"tsc\"", "\"tsc &&\"");
        let cut = npm_script_cut("web/package.json", PACKAGE, &result).expect("a cut");
        assert_eq!(
            cut.describe(),
            "the script `build` (line 4, `\"build\": \"tsc &&\"`) ends in `&&` with no command \
             after it: npm runs it as `sh -c`, and sh stops with `Syntax error: end of file \
             unexpected`, running none of it (`npm run build` fails): send the command that \
             follows the `&&`, or the script without it"
        );
        let piped = PACKAGE.replace("\"jest\"", "\"jest | \"");
        assert_eq!(
            npm_script_cut("package.json", PACKAGE, &piped).map(|c| c.op),
            Some("|")
        );
    }

    #[test]
    fn a_whole_script_or_another_file_is_not_said() {
        let whole = PACKAGE.replace("\"tsc\"", "\"tsc && vite build\"");
        assert_eq!(npm_script_cut("package.json", PACKAGE, &whole), None);
        let cut = PACKAGE.replace("\"tsc\"", "\"tsc &&\"");
        assert_eq!(npm_script_cut("tsconfig.json", PACKAGE, &cut), None);
        // Already so before: not the edit's.
        let other = cut.replace("\"jest\"", "\"jest --ci\"");
        assert_eq!(npm_script_cut("package.json", &cut, &other), None);
    }
}
