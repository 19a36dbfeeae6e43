//! The engine over arbitrary diffs and originals: both versions, both modes.
//! No panic; the report's invariants hold; the answer is deterministic and
//! does not depend on whether the caller prebuilt the line index.
#![no_main]

use libfuzzer_sys::fuzz_target;
use srview::engine::{self, matcher::LineIndex};
use srview_fuzz::{apply_and_check, decode};

fuzz_target!(|data: &[u8]| {
    let Some((options, original, diff)) = decode(data) else {
        return;
    };
    let outcome = apply_and_check(&diff, &original, options);
    let index = LineIndex::new(&original);
    assert_eq!(engine::apply_indexed(&diff, &index, options), outcome);
    // The caller's clean-up for non-Claude models never panics either.
    let fixed = engine::fixes::fix_model_output(&diff, "f.rs");
    apply_and_check(&fixed, &original, options);
});
