//! The diagnosis over arbitrary diffs and originals: no panic, one diagnosis
//! per block in order, similarity within [0, 1], the closest region inside
//! the file, and every suggested block applying by itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use srview::diagnose;
use srview::engine::{self, Options, Version};
use srview_fuzz::decode;

fuzz_target!(|data: &[u8]| {
    let Some((options, original, diff)) = decode(data) else {
        return;
    };
    let found = diagnose::diagnose(&diff, &original, options);
    let lines = original.split('\n').count();
    for (i, d) in found.iter().enumerate() {
        assert_eq!(d.index, i, "diagnoses in block order");
        if let Some(c) = d.closest {
            assert!(
                (0.0..=1.0).contains(&c.similarity),
                "similarity {}",
                c.similarity
            );
            assert!(
                c.start_line >= 1 && c.end_line <= lines,
                "closest {c:?} in a {lines}-line file"
            );
        }
        if let Some(s) = &d.suggestion {
            let alone = engine::apply(
                s,
                &original,
                Options {
                    version: Version::V1,
                    is_final: true,
                },
            );
            assert!(alone.result.is_ok(), "suggestion does not apply: {s:?}");
        }
    }
});
