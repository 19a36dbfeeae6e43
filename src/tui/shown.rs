//! How a line of text shows on the terminal: control characters as
//! visible stand-ins, tabs expanded. The view draws lines so, and the
//! state measures them so (how far the panes scroll sideways).

const TAB: &str = "    ";

/// Replaces what a terminal would interpret (C0/C1 controls, DEL) with
/// visible stand-ins, and expands tabs.
pub fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\t' => out.push_str(TAB),
            '\u{0}'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('?')),
            '\u{7f}' => out.push('␡'),
            '\u{80}'..='\u{9f}' => out.push('\u{fffd}'),
            _ => out.push(c),
        }
    }
    out
}
