//! `srview -` (an agent's live output piped in), `srview --follow FILE`
//! (a session file the agent is writing) and `srview session PATH` on a
//! terminal (a saved session): the agent previewer, from the command line
//! to [`crate::tui::run`] and back to an exit status.

use std::io::IsTerminal;
use std::path::Path;

use super::{CmdResult, PreviewArgs};
use crate::error::Error;
use crate::sessions::recover::SessionRoot;
use crate::source::agent::AgentReader;
use crate::tui::{self, AgentEdits, Feed};

/// `--cwd`, when given, must be a folder.
pub fn check_cwd(cwd: Option<&Path>) -> Result<(), Error> {
    match cwd {
        Some(dir) if !dir.is_dir() => Err(Error::usage(format!(
            "--cwd {} is not a folder: it names where the agent's workspace is",
            dir.display()
        ))),
        _ => Ok(()),
    }
}

/// The live previewer: stdin when `follow` is `None`, else the file.
pub fn run_live(args: &PreviewArgs, follow: Option<&Path>) -> CmdResult {
    check_cwd(args.cwd.as_deref())?;
    let (feed, source) = match (follow, args.replay) {
        (Some(path), Some(rate)) => (
            Feed::Replay {
                text: crate::input::read_diff(Some(path))?,
                rate,
                seed: args.seed,
                // An agent's output arrives in lines and larger pieces.
                chunk: 80,
            },
            format!("replaying {}", path.display()),
        ),
        (Some(path), None) => {
            if path.is_dir() {
                return Err(Error::refused(format!(
                    "{} is a folder: --follow takes the session file the agent writes \
                     (see docs/agents.md)",
                    path.display()
                )));
            }
            (
                Feed::Watch {
                    path: path.to_path_buf(),
                    poll: args.poll,
                },
                format!("following {}", path.display()),
            )
        }
        (None, Some(_)) => {
            return Err(Error::usage(
                "--replay needs a recorded output: srview --follow FILE --replay",
            ));
        }
        (None, None) if std::io::stdin().is_terminal() => {
            return Err(Error::usage(
                "`srview -` reads an agent's output from stdin, but stdin is a terminal: \
                 pipe the agent in (e.g. claude -p ... --output-format stream-json | srview -)",
            ));
        }
        (None, None) => (Feed::Stdin, "stdin".to_string()),
    };
    let piped = matches!(feed, Feed::Stdin);
    let config = args.tui_config(feed);
    let mut screen = AgentEdits::live(source, args.cwd.clone());
    if let Some(path) = follow {
        screen = screen.following(path);
    }
    // A session in a database (`X.db/ID`) is no file of its own.
    let not_yet = |p: &&Path| {
        !p.exists()
            && crate::source::agent::database::locate(p).is_none_or(|(_, db, _)| !db.exists())
    };
    if let Some(path) = follow.filter(not_yet) {
        use crate::tui::Screen;
        screen.show_notice(crate::tui::app::Notice {
            text: format!(
                "{} does not exist yet: waiting for the agent to write it",
                path.display()
            ),
            error: false,
        });
    }
    let status = finish(tui::run(config, &mut screen), &screen);
    if piped && !screen.output_ended() {
        // Quitting closes the pipe, which stops the agent only when it
        // next writes to it.
        eprintln!(
            "srview: the output piped into srview had not ended: the agent writing it may still \
             be running"
        );
    }
    status
}

/// The browser of a saved session, read whole.
pub fn run_session(source: String, reader: AgentReader, root: SessionRoot) -> CmdResult {
    let config = crate::tui::TuiConfig {
        version: crate::engine::Version::V1,
        fix_model_output: false,
        final_mode: true,
        feed: Feed::Nothing,
    };
    let mut screen = AgentEdits::session(source, reader, root);
    finish(tui::run(config, &mut screen), &screen)
}

/// The browser of a saved session file, its first piece read (`opened`),
/// the rest read while it runs. `cwd`: `--cwd`.
pub fn run_session_loading(
    source: String,
    opened: crate::sessions::load::Opened,
    cwd: Option<&Path>,
) -> CmdResult {
    let config = crate::tui::TuiConfig {
        version: crate::engine::Version::V1,
        fix_model_output: false,
        final_mode: true,
        feed: Feed::Rest {
            path: opened.file.clone(),
            from: opened.read,
        },
    };
    // Where the files are: `--cwd`, else the workspace the session names
    // (as the browser reads it), else an Aider history's folder.
    let folder = opened
        .reader
        .format()
        .row()
        .workspace_is_its_folder
        .then(|| crate::sessions::load::root_of(&opened.reader, &opened.file, None).root);
    let cwd = cwd.map(Path::to_path_buf).or(folder);
    let mut screen = AgentEdits::loading_from(
        source,
        opened.reader,
        cwd,
        opened.read,
        opened.size,
        Some(opened.file.clone()),
    );
    let exit = tui::run(config, &mut screen);
    for problem in screen.problems() {
        eprintln!("srview: {problem}");
    }
    finish(exit, &screen)
}

/// Reports what was written, once the terminal is restored, and the status.
fn finish(exit: Result<tui::Exit, Error>, screen: &AgentEdits) -> CmdResult {
    for note in screen.mapped_paths() {
        eprintln!("srview: note: {note}");
    }
    for path in screen.written() {
        super::report_written(path);
    }
    match exit? {
        tui::Exit::Quit(code) => Ok(code),
        tui::Exit::Print(_) | tui::Exit::Wrote(_) => Ok(0),
    }
}
