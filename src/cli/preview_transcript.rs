//! `srview --transcript MSG`: the previewer over every file an agent's
//! message edits, from the command line to [`crate::tui::run`] and back to
//! an exit status.

use std::path::{Path, PathBuf};

use super::{CmdResult, PreviewArgs};
use crate::error::Error;
use crate::source::transcript::PathRules as Paths;
use crate::tui::{self, Feed, TranscriptFiles};

pub fn run(args: &PreviewArgs, msg: &Path) -> CmdResult {
    // A folder can never be read: refused before the previewer takes the
    // terminal, instead of waiting on it for ever.
    if msg.is_dir() {
        return Err(Error::refused(format!(
            "{} is a folder, not a transcript file",
            msg.display()
        )));
    }
    let cwd = match &args.cwd {
        Some(c) => c.clone(),
        None => std::env::current_dir().map_err(|e| Error::io("no current folder", e))?,
    };
    let feed = match args.replay {
        Some(rate) => Feed::Replay {
            text: crate::input::read_diff(Some(msg))?,
            rate,
            seed: args.seed,
            chunk: 6,
        },
        None => Feed::Watch {
            path: msg.to_path_buf(),
            poll: args.poll,
        },
    };
    let config = args.tui_config(feed);
    let mut screen =
        TranscriptFiles::new(Paths::new(cwd, args.allow_outside), &config).with_input(msg);
    if !msg.exists() {
        use crate::tui::Screen;
        screen.show_notice(crate::tui::app::Notice {
            text: format!("{} does not exist yet: waiting for it", msg.display()),
            error: false,
        });
    }
    let exit = tui::run(config, &mut screen);
    // The terminal is restored: report every file written, whatever ended
    // the session (an error or a signal after a write included).
    for path in screen.written() {
        let shown = match &args.cwd {
            Some(dir) => dir.join(path),
            None => PathBuf::from(path),
        };
        super::report_written(&shown);
    }
    Ok(screen.exit_code(&exit?))
}
