//! `srview FILE [DIFF]`: the previewer of one diff, from the command line
//! to [`crate::tui::run`] and back to an exit status.

use std::io::{IsTerminal, Write};
use std::path::Path;

use super::{CmdResult, PreviewArgs};
use crate::error::Error;
use crate::input;
use crate::tui::{self, AcceptTo, Exit, Feed, SingleFile};

pub fn run(args: &PreviewArgs, file: &Path) -> CmdResult {
    let original = super::load::load_original(file, args.new_file)?;
    let feed = diff_feed(args)?;
    let config = args.tui_config(feed);
    let accept_to = AcceptTo {
        print: args.print,
        new_file: args.new_file,
    };
    // An agent's tool input is read with the agent's own matcher.
    let agent = args.engine.agent_dialect();
    let builtin = match agent {
        Some(_) => None,
        None => args.engine.builtin_dialect("the previewer")?,
    };
    let mut screen = SingleFile::new(file.to_path_buf(), original, &config, accept_to)
        .with_dialect(builtin)
        .with_agent(agent)
        .with_rerun(args.rerun());
    match tui::run(config, &mut screen)? {
        Exit::Quit(code) => Ok(code),
        Exit::Print(content) => {
            let mut out = std::io::stdout().lock();
            out.write_all(content.as_bytes())
                .and_then(|()| out.flush())
                .map_err(Error::stdout)?;
            if let Some(words) = screen.left_out_words() {
                eprintln!("srview: {words} left out of it, as chosen with x");
            }
            Ok(0)
        }
        Exit::Wrote(path) => {
            super::report_written(&path);
            if let Some(words) = screen.left_out_words() {
                eprintln!("srview: {words} left out of it, as chosen with x");
            }
            Ok(0)
        }
    }
}

/// Where DIFF's text comes from: a replay of it, the file watched, or stdin.
fn diff_feed(args: &PreviewArgs) -> Result<Feed, Error> {
    let stdin = Path::new("-");
    match (args.replay, args.diff.as_deref()) {
        (Some(rate), Some(diff)) if diff != stdin => Ok(Feed::Replay {
            text: input::read_diff(Some(diff))?,
            rate,
            seed: args.seed,
            chunk: 6,
        }),
        (Some(_), _) => Err(Error::usage("--replay needs a DIFF file to replay")),
        (None, Some(diff)) if diff != stdin => Ok(Feed::Watch {
            path: diff.to_path_buf(),
            poll: args.poll,
        }),
        (None, Some(_)) if std::io::stdin().is_terminal() => Err(Error::usage(
            "DIFF is '-' (stdin) but stdin is a terminal: pipe the diff in, or pass a DIFF path",
        )),
        (None, None) if std::io::stdin().is_terminal() => Err(Error::usage(
            "no DIFF given and stdin is a terminal: pass a DIFF path, or pipe the diff in",
        )),
        (None, _) => Ok(Feed::Stdin),
    }
}
