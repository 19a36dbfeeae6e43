//! Transcript parsers (Cline tool calls, Aider blocks) over arbitrary text,
//! and every prefix of it: no panic, calls only grow as text arrives, and
//! applying them to in-memory files never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use srview::source::{aider, transcript};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = transcript::detect(text);
    let _ = aider::parse(text);
    let calls = transcript::parse(text);
    for call in &calls {
        assert!(!call.path.contains('\n') || !call.path_complete || call.path.trim() == call.path);
    }
    let edits = transcript::apply_calls(
        &calls,
        |p| Ok(Some(format!("{p}\nline\n"))),
        transcript::ApplyOptions::default(),
    );
    assert!(edits.len() <= calls.len());
    // Every prefix parses too (the text streams in).
    let mut end = text.len() / 2;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let _ = transcript::parse_any(&text[..end]);
});
