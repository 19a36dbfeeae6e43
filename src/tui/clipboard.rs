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
    let saved = save_private(&path, text).is_ok();
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

/// Writes `text` to a new file at `path` readable by its owner only: it is
/// created with mode 0600 (never chmod-ed after, so it is not readable by
/// others at any moment) and exclusively (`O_EXCL`: a file or a link left
/// at that name in the shared temporary folder is removed, never written
/// through).
fn save_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let create = || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
    };
    let mut file = match create() {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(path)?;
            create()?
        }
        other => other?,
    };
    file.write_all(text.as_bytes())?;
    file.flush()
}

#[cfg(test)]
mod tests {
    fn mode_of(path: &std::path::Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path)
            .expect("the saved file")
            .permissions()
            .mode()
            & 0o777
    }

    /// A file is created 0600 whatever the umask allows, and a link left
    /// at its name is replaced, not written through.
    #[test]
    fn a_saved_suggestion_is_private_and_never_written_through_a_link() {
        let dir = tempfile::tempdir().expect("a folder");
        let target = dir.path().join("elsewhere");
        std::fs::write(&target, "theirs").expect("a file");
        let path = dir.path().join("suggestion.txt");
        std::os::unix::fs::symlink(&target, &path).expect("a link");
        super::save_private(&path, "mine").expect("saved");
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "theirs");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "mine");
        assert!(
            !std::fs::symlink_metadata(&path)
                .expect("meta")
                .file_type()
                .is_symlink()
        );
        assert_eq!(mode_of(&path), 0o600);
    }

    #[test]
    fn a_copy_writes_osc_52_and_says_so() {
        let mut terminal = Vec::new();
        let notice = super::copy_suggestion(&mut terminal, 1, "fo");
        let saved = std::env::temp_dir().join(format!(
            "srview-suggestion-{}-block2.txt",
            std::process::id()
        ));
        assert_eq!(std::fs::read_to_string(&saved).ok().as_deref(), Some("fo"));
        assert_eq!(mode_of(&saved), 0o600, "readable by its owner only");
        // Copied again: the file left from before is replaced, still 0600.
        let mut again = Vec::new();
        super::copy_suggestion(&mut again, 1, "again");
        assert_eq!(
            std::fs::read_to_string(&saved).ok().as_deref(),
            Some("again")
        );
        assert_eq!(mode_of(&saved), 0o600);
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
