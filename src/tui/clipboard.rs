//! `c`: a corrected block put on the clipboard with OSC 52 (terminals that
//! allow it) and, since not all do, in a file.

use std::io::Write;

use crate::tui::app::Notice;

/// Copies `text`, corrected block `block`, through `terminal` (OSC 52) and
/// into a temporary file; says where it went.
pub(super) fn copy_suggestion(terminal: &mut impl Write, block: usize, text: &str) -> Notice {
    let osc = format!("\x1b]52;c;{}\x07", crate::base64::encode(text.as_bytes()));
    let clipboard = terminal
        .write_all(osc.as_bytes())
        .and_then(|()| terminal.flush())
        .is_ok();
    let path = std::env::temp_dir().join(format!(
        "srview-suggestion-{}-block{}.txt",
        std::process::id(),
        block + 1
    ));
    let saved = std::fs::write(&path, text).is_ok();
    let text = match (clipboard, saved) {
        (true, true) => format!(
            "corrected block #{} copied to the clipboard (OSC 52) and saved to {}",
            block + 1,
            path.display()
        ),
        (false, true) => format!("corrected block #{} saved to {}", block + 1, path.display()),
        (true, false) => format!(
            "corrected block #{} copied to the clipboard (OSC 52)",
            block + 1
        ),
        (false, false) => format!("could not copy or save corrected block #{}", block + 1),
    };
    Notice {
        text,
        error: !(clipboard || saved),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_copy_writes_osc_52_and_says_so() {
        let mut terminal = Vec::new();
        let notice = super::copy_suggestion(&mut terminal, 1, "fo");
        let saved = std::env::temp_dir().join(format!(
            "srview-suggestion-{}-block2.txt",
            std::process::id()
        ));
        assert_eq!(std::fs::read_to_string(&saved).ok().as_deref(), Some("fo"));
        let _ = std::fs::remove_file(saved);
        assert_eq!(terminal, b"\x1b]52;c;Zm8=\x07");
        assert!(!notice.error);
        assert!(
            notice
                .text
                .starts_with("corrected block #2 copied to the clipboard (OSC 52) and saved to"),
            "{}",
            notice.text
        );
    }
}
