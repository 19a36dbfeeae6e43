//! SEARCH/REPLACE text for tests: one block in the canonical markers.

/// One block from a SEARCH and a REPLACE given without their final newline
/// (each gets one).
pub fn block(search: &str, replace: &str) -> String {
    format!("------- SEARCH\n{search}\n=======\n{replace}\n+++++++ REPLACE\n")
}

/// One block from a SEARCH and a REPLACE given as whole lines, each ending
/// in its newline (or empty).
pub fn block_of_lines(search: &str, replace: &str) -> String {
    format!("------- SEARCH\n{search}=======\n{replace}+++++++ REPLACE\n")
}

/// `lines`, each followed by a newline.
pub fn text(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// A Cline `replace_in_file` call on `path` with one block.
pub fn replace_in_file(path: &str, search: &str, replace: &str) -> String {
    format!(
        "<replace_in_file>\n<path>{path}</path>\n<diff>\n{}</diff>\n</replace_in_file>\n",
        block(search, replace)
    )
}

/// Finding 14's JSON line (300 keys, 3.6 KB on one line) and one block
/// changing its `"k250": 250` to `"k250": 999`, a change at column 3040:
/// (the line, without its newline; the block).
pub fn long_json_line_and_change() -> (String, String) {
    let line: String = (0..300)
        .map(|i| format!("\"k{i}\": {i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let line = format!("{{{line}}}");
    let changed = line.replace("\"k250\": 250", "\"k250\": 999");
    let diff = block(&line, &changed);
    (line, diff)
}
