//! How a line of text shows on the terminal: control characters as
//! visible stand-ins, tabs expanded. The view draws lines so, and the
//! state measures them so (how far the panes scroll sideways).

use crate::diagnose::hidden::{is_hidden, stand_in};

const TAB: &str = "    ";

/// Replaces what a terminal would interpret (C0/C1 controls, DEL) with
/// visible stand-ins, draws the bidirectional controls and zero-width
/// characters a terminal would hide or obey (`⟨U+202E⟩`,
/// [`crate::diagnose::hidden`]), and expands tabs. A U+FEFF starting the
/// text is a byte-order mark (the file's first line): not drawn.
pub fn sanitize(text: &str) -> String {
    sanitize_part(text, true)
}

/// [`sanitize`] of a part of a line, `first` when it starts the line (a
/// U+FEFF past the line's start is drawn, as the state measures it).
pub fn sanitize_part(text: &str, first: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for (at, c) in text.char_indices() {
        match c {
            '\t' => out.push_str(TAB),
            '\u{0}'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('?')),
            '\u{7f}' => out.push('␡'),
            '\u{80}'..='\u{9f}' => out.push('\u{fffd}'),
            '\u{feff}' if first && at == 0 => {}
            c if is_hidden(c) => out.push_str(&stand_in(c)),
            _ => out.push(c),
        }
    }
    out
}
