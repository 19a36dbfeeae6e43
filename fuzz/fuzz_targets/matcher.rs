//! The engine's linear-time fallbacks against literal transcriptions of the
//! reference's quadratic ones: same first match, same offsets.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let from_seed = u16::from_le_bytes([data[0], data[1]]) as usize;
    let text = String::from_utf8_lossy(&data[2..]);
    let Some((original, search)) = text.split_once('\0') else {
        return;
    };
    // The engine only ever searches for non-empty text ending in a newline.
    let mut search = search.to_string();
    if !search.ends_with('\n') {
        search.push('\n');
    }
    // `from` is where a previous match ended: a char boundary or len + 1.
    let mut from = from_seed % (original.len() + 2);
    if from <= original.len() {
        while !original.is_char_boundary(from) {
            from -= 1;
        }
    }
    srview_fuzz::check_matchers(original, &search, from);
});
