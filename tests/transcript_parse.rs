//! Transcript parsing: Cline tool calls as `parseAssistantMessageV2` reads
//! them, Aider edit blocks, and format detection.

use srview::source::aider;
use srview::source::transcript::{CallKind, Format, ToolCall, detect, parse, parse_any};

const DIFF: &str = "------- SEARCH\na\n=======\nb\n+++++++ REPLACE";

fn one(calls: &[ToolCall]) -> &ToolCall {
    assert_eq!(calls.len(), 1, "{calls:#?}");
    &calls[0]
}

#[test]
fn closed_call_has_trimmed_values() {
    let text = format!(
        "Let me fix it.\n<replace_in_file>\n<path>  src/a.py \n</path>\n<diff>\n\n{DIFF}\n\n</diff>\n</replace_in_file>\nDone."
    );
    let call = one(&parse(&text)).clone();
    assert_eq!(call.kind, CallKind::ReplaceInFile);
    assert_eq!(call.path, "src/a.py");
    assert_eq!(call.body, DIFF);
    assert!(!call.partial);
    assert!(call.path_complete);
}

#[test]
fn call_open_at_the_end_is_partial() {
    let text = "<replace_in_file>\n<path>a.py</path>\n<diff>\n------- SEARCH\na\n===";
    let call = one(&parse(text)).clone();
    assert!(call.partial);
    assert_eq!(call.body, "------- SEARCH\na\n===");
    // The diff closed but the tool did not: still partial.
    let text = format!("<replace_in_file><path>a.py</path><diff>{DIFF}</diff>\n</replace_in");
    let call = one(&parse(&text)).clone();
    assert!(call.partial);
    assert_eq!(call.body, DIFF);
}

#[test]
fn half_written_closing_tag_is_not_content() {
    for cut in ["<", "</", "</d", "</di", "</dif", "</diff"] {
        let text = format!("<replace_in_file><path>a.py</path><diff>\n{DIFF}\n{cut}");
        let call = one(&parse(&text)).clone();
        assert_eq!(call.body, DIFF, "cut at {cut:?}");
    }
    // Not a prefix of the closing tag: kept.
    let text = "<replace_in_file><path>a.py</path><diff>x <y";
    assert_eq!(one(&parse(text)).body, "x <y");
}

#[test]
fn path_still_streaming_is_marked() {
    let call = one(&parse("<replace_in_file>\n<path>src/ma")).clone();
    assert!(!call.path_complete);
    assert_eq!(call.path, "src/ma");
    let call = one(&parse("<write_to_file><path>src/main.rs</pa")).clone();
    assert_eq!(call.path, "src/main.rs");
    assert!(!call.path_complete);
}

#[test]
fn several_files_and_several_calls_per_file_keep_their_order() {
    let call = |path: &str, body: &str| {
        format!("<replace_in_file><path>{path}</path><diff>{body}</diff></replace_in_file>\n")
    };
    let text = [
        call("a.py", "1"),
        "some prose\n".into(),
        call("b.toml", "2"),
        call("a.py", "3"),
    ]
    .concat();
    let calls = parse(&text);
    let got: Vec<(&str, &str)> = calls
        .iter()
        .map(|c| (c.path.as_str(), c.body.as_str()))
        .collect();
    assert_eq!(got, [("a.py", "1"), ("b.toml", "2"), ("a.py", "3")]);
    assert!(calls.iter().all(|c| !c.partial));
}

#[test]
fn write_to_file_strips_fences_and_shows_partial_content() {
    let text = "<write_to_file><path>n.rs</path><content>\n```rust\nfn main() {}\n```\n</content></write_to_file>";
    let call = one(&parse(text)).clone();
    assert_eq!(call.kind, CallKind::WriteToFile);
    assert_eq!(call.body, "fn main() {}");
    let text = "<write_to_file><path>n.rs</path><content>\nfn main() {\n    let x = 1;\n</con";
    let call = one(&parse(text)).clone();
    assert!(call.partial);
    assert_eq!(call.body, "fn main() {\n    let x = 1;");
}

#[test]
fn other_tools_and_their_contents_are_ignored() {
    let text = "<execute_command><command>echo <replace_in_file><path>x</path></command></execute_command>\n<read_file><path>a</path></read_file>";
    assert!(parse(text).is_empty());
}

#[test]
fn every_prefix_parses_without_panicking() {
    let text = format!(
        "héllo ✓\n<replace_in_file>\n<path>ä/ö.py</path>\n<diff>\n{DIFF}\n</diff>\n</replace_in_file>\n<write_to_file><path>z</path><content>ü</content></write_to_file>"
    );
    let mut last_len = 0;
    for (i, _) in text.char_indices().chain([(text.len(), ' ')]) {
        let calls = parse(&text[..i]);
        assert!(calls.len() >= last_len, "calls never disappear");
        last_len = calls.len();
        for call in &calls {
            assert!(!call.body.ends_with("</"), "{call:?}");
        }
    }
    assert_eq!(last_len, 2);
}

const AIDER_FENCED: &str = "Here is the change.\n\nsrc/app.py\n```python\n<<<<<<< SEARCH\nold = 1\n=======\nnew = 2\n>>>>>>> REPLACE\n```\n\n```python\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n";

#[test]
fn aider_blocks_with_fences_reuse_the_last_file_name() {
    let calls = aider::parse(AIDER_FENCED);
    assert_eq!(calls.len(), 2);
    assert!(calls.iter().all(|c| c.path == "src/app.py" && !c.partial));
    assert_eq!(
        calls[0].body,
        "------- SEARCH\nold = 1\n=======\nnew = 2\n+++++++ REPLACE\n"
    );
}

#[test]
fn aider_blocks_without_fences() {
    let text = "lib/util.rs\n<<<<<<< SEARCH\nfn a() {}\n=======\nfn b() {}\n>>>>>>> REPLACE\n\nREADME.md\n<<<<<<< SEARCH\n=======\n# Title\n>>>>>>> REPLACE";
    let calls = aider::parse(text);
    let paths: Vec<&str> = calls.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(paths, ["lib/util.rs", "README.md"]);
    assert!(
        !calls[1].partial,
        "a REPLACE marker without a newline closes"
    );
    assert_eq!(
        calls[1].body,
        "------- SEARCH\n=======\n# Title\n+++++++ REPLACE\n"
    );
}

#[test]
fn aider_block_open_at_the_end_is_partial() {
    let text = "a.py\n<<<<<<< SEARCH\nold\n=======\nnew li";
    let call = one(&aider::parse(text)).clone();
    assert!(call.partial);
    assert_eq!(call.body, "------- SEARCH\nold\n=======\nnew li");
}

#[test]
fn detection() {
    assert_eq!(detect("Thinking about it..."), None);
    assert_eq!(detect("I'll edit.\n<replace_in_file>"), Some(Format::Cline));
    assert_eq!(detect("<write_to_file><path>x"), Some(Format::Cline));
    assert_eq!(detect(AIDER_FENCED), Some(Format::Aider));
    // A bare diff with legacy markers names no file: not a transcript.
    assert_eq!(
        detect("<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"),
        None
    );
    assert_eq!(parse_any(AIDER_FENCED).len(), 2);
    assert_eq!(
        parse_any(&format!(
            "<replace_in_file><path>a</path><diff>{DIFF}</diff></replace_in_file>"
        ))
        .len(),
        1
    );
}

/// Random soup of tag fragments, markers and multi-byte text: nothing may
/// panic, whatever the parsers and the applier are given.
#[test]
fn random_inputs_never_panic() {
    use srview::source::replay::SplitMix64;
    use srview::source::transcript::{PathRules, apply_calls};
    let pieces = [
        "<replace_in_file>",
        "</replace_in_file>",
        "<write_to_file>",
        "</write_to_file>",
        "<path>",
        "</path>",
        "<diff>",
        "</diff>",
        "<content>",
        "</content>",
        "</di",
        "<",
        ">",
        "\n",
        "------- SEARCH\n",
        "=======\n",
        "+++++++ REPLACE\n",
        "<<<<<<< SEARCH\n",
        ">>>>>>> REPLACE\n",
        "```\n",
        "a.py\n",
        "../x\n",
        "é✓",
        " ",
        "x",
        "/abs",
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    let ws = PathRules::new(dir.path(), false);
    let mut rng = SplitMix64::new(42);
    for _ in 0..2000 {
        let n = rng.below_or_eq(40) as usize;
        let text: String = (0..n)
            .map(|_| pieces[rng.below_or_eq(pieces.len() as u64 - 1) as usize])
            .collect();
        let _ = detect(&text);
        for calls in [parse(&text), aider::parse(&text), parse_any(&text)] {
            let files = apply_calls(&calls, |p| ws.load(p), Default::default());
            assert!(files.len() <= calls.len());
        }
    }
}
