//! The generated source file and SEARCH/REPLACE diffs of the engine
//! benches (`benches/engine.rs`, `benches/stream.rs`), one definition so
//! both time the same inputs.

/// One generated source line, about 30 bytes, unique by `i`.
pub fn line(i: usize) -> String {
    format!(
        "    let v{i} = f({}, \"{:x}\");",
        i % 97,
        i * 2654435761 % 65536
    )
}

/// A file of `lines` generated lines.
pub fn file(lines: usize) -> String {
    (0..lines).map(|i| line(i) + "\n").collect()
}

/// `blocks` in-order blocks of 3 SEARCH lines spread over the file; with
/// `trimmed_last` the last one is re-indented so only the line-trimmed
/// fallback finds it (near the end of the file).
pub fn diff(lines: usize, blocks: usize, trimmed_last: bool) -> String {
    let mut out = String::new();
    for b in 0..blocks {
        let at = (b + 1) * (lines - 10) / blocks;
        out.push_str("------- SEARCH\n");
        for i in at..at + 3 {
            if trimmed_last && b + 1 == blocks {
                out.push_str(line(i).trim_start());
            } else {
                out.push_str(&line(i));
            }
            out.push('\n');
        }
        out.push_str("=======\n");
        for k in 0..3 {
            out.push_str(&format!("    let w{b}_{k} = g({k});\n"));
        }
        out.push_str("+++++++ REPLACE\n");
    }
    out
}
