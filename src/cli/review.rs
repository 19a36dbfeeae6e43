//! `srview review [--cwd DIR]`: the approval pane for the gate's calls
//! from that workspace ([`crate::tui::ReviewPane`]), from the command line
//! to [`crate::tui::run`] and back to an exit status.

use std::io::IsTerminal;

use super::{CmdResult, ReviewArgs};
use crate::error::Error;
use crate::tui::{self, Feed, ReviewPane};

pub fn run(args: &ReviewArgs) -> CmdResult {
    super::preview_agent::check_cwd(args.cwd.as_deref())?;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(Error::usage(
            "srview review is an interactive pane: run it in a terminal beside the agent",
        ));
    }
    let workspace = match &args.cwd {
        Some(dir) => std::path::absolute(dir),
        None => std::env::current_dir(),
    }
    .map_err(|e| Error::io("the workspace folder cannot be found", e))?;
    let mut screen = ReviewPane::listen(&workspace).map_err(|e| Error::refused(e.to_string()))?;
    let config = tui::TuiConfig {
        version: crate::engine::Version::V1,
        fix_model_output: false,
        final_mode: true,
        feed: Feed::Nothing,
    };
    match tui::run(config, &mut screen)? {
        tui::Exit::Quit(code) => Ok(code),
        tui::Exit::Print(_) | tui::Exit::Wrote(_) => Ok(0),
    }
}
