//! What a headless apply says on stderr beside the reference's answer: every
//! block that applied only loosely, or took effect in a way the diff's text
//! does not promise. The reference stays silent about these; a script that
//! writes the result must not be.

use crate::engine::markers::is_replace_end;
use crate::engine::{BlockReport, BlockState, Stage};
use crate::words::line_range;

/// One warning line per block in doubt, `srview: warning: ` included;
/// `original`: the text the blocks were applied to.
pub fn warnings(diff: &str, original: &str, blocks: &[BlockReport], is_final: bool) -> Vec<String> {
    let lines: Vec<&str> = diff.split('\n').collect();
    let mut out = Vec::new();
    for b in blocks {
        let n = b.index + 1;
        if let Some(why) = block_doubt(b, is_final) {
            out.push(format!("srview: warning: block #{n} {why}"));
        }
        if let Some(span) = b.original.filter(|_| inside_a_line(b, original)) {
            out.push(format!(
                "srview: warning: block #{n} matched inside a longer line ({}): the \
                 reference matches text, not whole lines",
                line_range("line", span.start_line, span.end_line)
            ));
        }
        let last = lines.get(b.diff_lines[1].saturating_sub(1)).copied();
        if is_final
            && b.state == BlockState::Applied
            && b.stage != Some(Stage::Empty)
            && !last.is_some_and(is_replace_end)
        {
            out.push(format!(
                "srview: warning: block #{n} has no +++++++ REPLACE end marker (is the diff cut off?): the reference applies the REPLACE lines that are there"
            ));
        }
    }
    out
}

/// Why block `b` took effect loosely, or not at all in a final apply: the
/// rest of a warning after "block #N ".
pub fn block_doubt(b: &BlockReport, is_final: bool) -> Option<String> {
    let at = b
        .original
        .map(|s| format!(" ({})", line_range("line", s.start_line, s.end_line)))
        .unwrap_or_default();
    match (b.state, b.stage) {
        (BlockState::Dropped, _) if is_final => Some(
            "never took effect: the reference dropped it (its SEARCH section never reached a \
             ======= separator, or the next SEARCH marker came before its +++++++ REPLACE: is \
             the diff cut off?)"
                .to_string(),
        ),
        (BlockState::Applied, Some(Stage::LineTrimmed)) => Some(format!(
            "matched only with white space ignored (line-trimmed){at}"
        )),
        (BlockState::Applied, Some(Stage::BlockAnchor)) => Some(format!(
            "matched only by its first and last lines (block-anchor){at}: the lines between were not compared; `srview check` tells whether it is the right place"
        )),
        (BlockState::Applied, Some(Stage::WholeFile)) => Some(format!(
            "matched above the blocks before it (whole-file){at}"
        )),
        _ => None,
    }
}

/// Whether block `b` matched exactly but not on whole lines of `original`:
/// its SEARCH text starts or ends inside a longer line.
fn inside_a_line(b: &BlockReport, original: &str) -> bool {
    let (Some(span), Some(Stage::Exact)) = (b.original, b.stage) else {
        return false;
    };
    let bytes = original.as_bytes();
    // Only indentation before it is a SEARCH text indented less than the
    // file (the diagnosis's `whitespace`), not a match inside a line.
    let indent_start = bytes[..span.start]
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(0, |i| i + 1);
    let starts_a_line = crate::diagnose::at_line_start(original, indent_start);
    let ends_a_line = span.end >= bytes.len() || bytes.get(span.end - 1) == Some(&b'\n');
    // After part of the indentation, several REPLACE lines disagree in
    // indentation, as in a match inside a line.
    let split_indent = indent_start < span.start
        && crate::diagnose::doubt::replaces_several_lines(&b.replace_text);
    b.state == BlockState::Applied
        && span.end > span.start
        && (split_indent || !(starts_a_line && ends_a_line))
}

/// Prints [`warnings`] on stderr.
pub fn print(diff: &str, original: &str, blocks: &[BlockReport], is_final: bool) {
    for w in warnings(diff, original, blocks, is_final) {
        eprintln!("{w}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Options, apply};

    fn warn(diff: &str, original: &str) -> Vec<String> {
        let o = apply(diff, original, Options::default());
        warnings(diff, original, &o.blocks, true)
    }

    /// A SEARCH line indented less than the file: one REPLACE line lands
    /// consistently; several disagree in indentation, and are warned of.
    #[test]
    fn an_under_indented_match_warns_only_with_several_replace_lines() {
        let file = "def add(a, b):\n    return a + b\n";
        let one = "------- SEARCH\n  return a + b\n=======\n  return b\n+++++++ REPLACE\n";
        assert!(warn(one, file).is_empty());
        let several = "------- SEARCH\n  return a + b\n=======\n  if a:\n      return a\n  return b\n+++++++ REPLACE\n";
        assert_eq!(
            warn(several, file),
            [
                "srview: warning: block #1 matched inside a longer line (line 2): the reference \
              matches text, not whole lines"
            ]
        );
    }

    #[test]
    fn exact_closed_blocks_have_no_warning() {
        let diff = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n";
        assert!(warn(diff, "a\nb\nc\n").is_empty());
    }

    #[test]
    fn a_cut_off_block_and_loose_matches_are_named() {
        let cut = "------- SEARCH\nb\n=======\nB\n";
        assert_eq!(
            warn(cut, "a\nb\nc\n"),
            [
                "srview: warning: block #1 has no +++++++ REPLACE end marker (is the diff cut off?): the reference applies the REPLACE lines that are there"
            ]
        );
        let dropped = "------- SEARCH\nb\n";
        assert_eq!(
            warn(dropped, "a\nb\nc\n"),
            [
                "srview: warning: block #1 never took effect: the reference dropped it (its SEARCH \
                 section never reached a ======= separator, or the next SEARCH marker came before \
                 its +++++++ REPLACE: is the diff cut off?)"
            ]
        );
        let trimmed = "------- SEARCH\n  b\n=======\nB\n+++++++ REPLACE\n";
        assert_eq!(
            warn(trimmed, "a\nb\nc\n"),
            [
                "srview: warning: block #1 matched only with white space ignored (line-trimmed) (line 2)"
            ]
        );
        let anchor =
            "------- SEARCH\nfn b() {\n  y = 2;\n  w = 1;\n}\n=======\nX\n+++++++ REPLACE\n";
        let w = warn(
            anchor,
            "fn a() {\n  x = 1;\n  q = 1;\n}\nfn b() {\n  x = 1;\n  z = 9;\n}\n",
        );
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].contains("block-anchor") && w[0].contains("lines 5-8"),
            "{w:?}"
        );
        let inside = "------- SEARCH\nx = 1;\n=======\nx = 2;\n+++++++ REPLACE\n";
        assert_eq!(
            warn(inside, "fn f() {\n    let max = 1;\n    let x = 1;\n}\n"),
            [
                "srview: warning: block #1 matched inside a longer line (line 2): the reference \
                 matches text, not whole lines"
            ]
        );
        let whole = "------- SEARCH\n    let x = 1;\n=======\n    let x = 2;\n+++++++ REPLACE\n";
        assert!(warn(whole, "fn f() {\n    let x = 1;\n}\n").is_empty());
        // Only indentation before it: indented less than the file, not
        // inside a line.
        let less = "------- SEARCH\nlet x = 1;\n=======\nlet x = 2;\n+++++++ REPLACE\n";
        assert!(warn(less, "fn f() {\n    let x = 1;\n}\n").is_empty());
        // After a byte-order mark: the file's first line, as the diagnosis
        // has it.
        let first = "------- SEARCH\nimport os\n=======\nimport sys\n+++++++ REPLACE\n";
        assert!(warn(first, "\u{FEFF}import os\nx = 1\n").is_empty());
    }
}
