//! demo.tape cannot be rendered here (vhs is not installable), so it is
//! checked instead: every line must be a vhs command with valid arguments,
//! and every shell command it types is run (the interactive previewer line
//! runs headless as `srview apply --transcript ... --json`).

use std::path::Path;
use std::process::Command;

mod support;

const SETTINGS: &[&str] = &[
    "Shell",
    "FontFamily",
    "FontSize",
    "Framerate",
    "PlaybackSpeed",
    "Height",
    "Width",
    "LetterSpacing",
    "TypingSpeed",
    "LineHeight",
    "Padding",
    "Theme",
    "LoopOffset",
    "BorderRadius",
    "Margin",
    "MarginFill",
    "WindowBar",
    "WindowBarSize",
    "CursorBlink",
    "WaitTimeout",
    "WaitPattern",
];

const KEYS: &[&str] = &[
    "Enter",
    "Backspace",
    "Delete",
    "Insert",
    "Tab",
    "Space",
    "Up",
    "Down",
    "Left",
    "Right",
    "PageUp",
    "PageDown",
    "ScrollUp",
    "ScrollDown",
    "Escape",
];

#[derive(Debug, Clone, PartialEq)]
enum Cmd {
    Output(String),
    Set(String, String),
    Type(String),
    Key(String),
    Hide,
    Show,
    /// Require, Sleep, Wait, Screenshot, Source, Env, Copy, Paste.
    Other(String),
}

fn is_time(s: &str) -> bool {
    let num = s
        .strip_suffix("ms")
        .or_else(|| s.strip_suffix('s'))
        .or_else(|| s.strip_suffix('m'))
        .unwrap_or(s);
    !num.is_empty() && num.parse::<f64>().is_ok_and(|n| n >= 0.0)
}

/// A vhs string: "..", '..' or `..`, with nothing after it.
fn string_arg(s: &str) -> Result<String, String> {
    let quote = s.chars().next().ok_or("missing string")?;
    if !matches!(quote, '"' | '\'' | '`') {
        return Err(format!("not a quoted string: {s}"));
    }
    let body = &s[1..];
    let end = body.find(quote).ok_or("unterminated string")?;
    if !body[end + 1..].trim().is_empty() {
        return Err(format!("text after the string: {s}"));
    }
    Ok(body[..end].to_string())
}

fn is_key(word: &str) -> bool {
    if KEYS.contains(&word) {
        return true;
    }
    // Ctrl+C, Alt+Shift+Tab, Ctrl+Alt+x ...
    let parts: Vec<&str> = word.split('+').collect();
    parts.len() >= 2
        && parts[..parts.len() - 1]
            .iter()
            .all(|m| matches!(*m, "Ctrl" | "Alt" | "Shift"))
        && parts
            .last()
            .is_some_and(|k| k.chars().count() == 1 || KEYS.contains(k))
}

fn parse_line(line: &str) -> Result<Cmd, String> {
    let (head, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let (word, at) = match head.split_once('@') {
        Some((w, t)) => (w, Some(t)),
        None => (head, None),
    };
    if let Some(t) = at
        && !is_time(t)
    {
        return Err(format!("bad @time {t}"));
    }
    let no_args = |cmd: Cmd| {
        if rest.is_empty() {
            Ok(cmd)
        } else {
            Err(format!("{word} takes no arguments"))
        }
    };
    match word {
        "Output" => {
            let ok = [".gif", ".mp4", ".webm", ".txt", ".ascii", "/"]
                .iter()
                .any(|e| rest.ends_with(e));
            ok.then(|| Cmd::Output(rest.to_string()))
                .ok_or(format!("bad Output {rest}"))
        }
        "Require" if !rest.is_empty() && !rest.contains(' ') => Ok(Cmd::Other(line.into())),
        "Set" => {
            let (name, value) = rest.split_once(' ').ok_or("Set needs a value")?;
            let value = value.trim();
            if !SETTINGS.contains(&name) {
                return Err(format!("unknown setting {name}"));
            }
            let valid = match name {
                "Shell" | "FontFamily" | "MarginFill" | "WindowBar" | "WaitPattern" => {
                    !value.is_empty()
                }
                "Theme" => string_arg(value).is_ok() || value.starts_with('{'),
                "TypingSpeed" | "WaitTimeout" => is_time(value),
                "CursorBlink" => matches!(value, "true" | "false"),
                _ => value.parse::<f64>().is_ok(),
            };
            valid
                .then(|| Cmd::Set(name.into(), value.into()))
                .ok_or(format!("bad value for {name}: {value}"))
        }
        "Type" => string_arg(rest).map(Cmd::Type),
        "Sleep" if is_time(rest) => Ok(Cmd::Other(line.into())),
        "Hide" => no_args(Cmd::Hide),
        "Show" => no_args(Cmd::Show),
        "Screenshot" if rest.ends_with(".png") => Ok(Cmd::Other(line.into())),
        "Source" if rest.ends_with(".tape") => Ok(Cmd::Other(line.into())),
        "Env" if rest.split_once(' ').is_some() => Ok(Cmd::Other(line.into())),
        "Copy" => string_arg(rest).map(|_| Cmd::Other(line.into())),
        "Paste" => no_args(Cmd::Other(line.into())),
        "Wait" | "Wait+Screen" | "Wait+Line" => {
            let regex_ok = rest.is_empty()
                || (rest.len() >= 2 && rest.starts_with('/') && rest.ends_with('/'));
            regex_ok
                .then(|| Cmd::Other(line.into()))
                .ok_or(format!("bad Wait pattern {rest}"))
        }
        key if is_key(key) => {
            if rest.is_empty() || rest.parse::<u32>().is_ok() {
                Ok(Cmd::Key(key.into()))
            } else {
                Err(format!("bad repeat count {rest}"))
            }
        }
        _ => Err(format!("unknown command: {line}")),
    }
}

fn parse_tape(text: &str) -> Result<Vec<Cmd>, String> {
    text.lines()
        .enumerate()
        .map(|(n, l)| (n, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(n, l)| parse_line(l).map_err(|e| format!("line {}: {e}", n + 1)))
        .collect()
}

fn tape() -> Vec<Cmd> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("demo.tape");
    let text = std::fs::read_to_string(path).expect("demo.tape exists");
    parse_tape(&text).unwrap_or_else(|e| panic!("demo.tape: {e}"))
}

#[test]
fn parser_rejects_what_vhs_rejects() {
    for bad in [
        "Typo \"x\"",
        "Sleep soon",
        "Set Colour red",
        "Type \"unterminated",
        "Enter twice",
        "Output demo.png",
        "Wait /unclosed",
        "Ctrl+Foo",
    ] {
        assert!(parse_line(bad).is_err(), "{bad} should be rejected");
    }
    for good in [
        "Enter@200ms 3",
        "Ctrl+C",
        "Type@10ms 'x'",
        "Wait+Line@5s /\\$ $/",
    ] {
        assert!(parse_line(good).is_ok(), "{good} should parse");
    }
}

#[test]
fn tape_has_the_expected_shape() {
    let cmds = tape();
    assert!(cmds.contains(&Cmd::Output("demo.gif".into())));
    for name in ["Width", "Height", "FontSize", "Theme"] {
        assert!(
            cmds.iter()
                .any(|c| matches!(c, Cmd::Set(n, _) if n == name)),
            "Set {name}"
        );
    }
    let at = |c: &Cmd| cmds.iter().position(|x| x == c);
    let hide = at(&Cmd::Hide).expect("Hide");
    let build = at(&Cmd::Type("cargo build --release".into())).expect("build");
    let show = at(&Cmd::Show).expect("Show");
    assert!(hide < build && build < show, "the build is hidden");
    assert!(cmds.contains(&Cmd::Type("a".into())), "accepts a file");
    assert!(cmds.contains(&Cmd::Type("]".into())), "shows the next file");
}

/// Splits the tape into the shell lines it types (Type... then Enter),
/// skipping what is typed into the previewer.
fn shell_lines(cmds: &[Cmd]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut typed = String::new();
    let mut in_tui = false;
    for cmd in cmds {
        match cmd {
            Cmd::Type(s) if in_tui => in_tui = s != "q",
            Cmd::Type(s) => typed.push_str(s),
            Cmd::Key(k) if in_tui => in_tui = k != "Ctrl+C",
            Cmd::Key(k) if k == "Enter" => {
                let line = std::mem::take(&mut typed);
                in_tui = is_previewer(&line);
                lines.push(line);
            }
            _ => {}
        }
    }
    assert!(typed.is_empty(), "typed but never entered: {typed}");
    assert!(!in_tui, "the previewer is left before the tape ends");
    lines
}

fn is_previewer(line: &str) -> bool {
    line.starts_with("target/release/srview ") && line.contains("--transcript")
}

#[test]
fn every_shell_line_runs() {
    let lines = shell_lines(&tape());
    let root = env!("CARGO_MANIFEST_DIR");
    let tmp = tempfile::tempdir().expect("temp dir");
    let stage = tmp.path().join("srview-demo");
    let stage = stage.to_string_lossy();
    let bin = support::runner::BIN;
    let localize = |s: &str| s.replace("/tmp/srview-demo", &stage);
    let mut ran_previewer = false;
    for line in &lines {
        if line == "cargo build --release" {
            // The test harness already built srview; a release build here
            // would only cost minutes.
            continue;
        }
        if is_previewer(line) {
            run_previewer_headless(&localize(line));
            ran_previewer = true;
            continue;
        }
        let cmd = localize(line).replace("target/release/srview", bin);
        let out = Command::new("bash")
            .arg("-c")
            .arg(&cmd)
            .current_dir(root)
            .env("TERM", "xterm")
            .output()
            .expect("bash runs");
        assert!(out.status.success(), "{cmd}: {out:?}");
    }
    assert!(ran_previewer, "the tape runs the previewer");
    // The bundled originals are untouched.
    let original = std::fs::read(Path::new(root).join("assets/demo/inventory.py")).expect("read");
    let staged = std::fs::read(Path::new(&*stage).join("inventory.py")).expect("staged copy");
    assert_eq!(original, staged);
}

/// `srview --transcript --cwd DIR --replay RATE MSG`, run as
/// `srview apply --transcript MSG --cwd DIR --json`: the transcript must show
/// one applying file and one failing block with its diagnosis.
fn run_previewer_headless(line: &str) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let value_of = |flag: &str| {
        words
            .iter()
            .position(|w| *w == flag)
            .and_then(|i| words.get(i + 1))
            .copied()
    };
    let cwd = value_of("--cwd").expect("--cwd DIR");
    let rate = value_of("--replay").expect("--replay RATE");
    assert!(rate.parse::<f64>().is_ok_and(|r| r > 0.0), "{rate}");
    let msg = *words.last().expect("a transcript");
    let out =
        support::runner::srview(["apply", "--transcript", msg, "--cwd", cwd, "--json"]).output();
    assert_eq!(out.status.code(), Some(1), "one file fails: {out:?}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let files = report["files"].as_array().expect("files");
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["path"], "inventory.py");
    assert_eq!(files[0]["ok"], true);
    assert_eq!(files[1]["path"], "settings.toml");
    let error = files[1]["error"].as_str().unwrap_or_default();
    assert!(error.contains("does not match anything"), "{error}");
}
