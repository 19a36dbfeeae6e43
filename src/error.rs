//! One error type for every command, and the exit status each kind maps to.
//!
//! Exit statuses: 0 the edit applies (or was written), 1 it does not apply
//! ([`Error::NoApply`]; most commands report that as a result, not an
//! error), 2 anything that stopped the command: bad arguments, unreadable or
//! refused input, a write that did not happen, no terminal.

use std::fmt;

/// Why a command stopped. The `Display` text is the one line srview prints
/// after `srview: `.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The arguments do not make a command.
    #[error("{0}")]
    Usage(String),
    /// The edit does not apply.
    #[error("{0}")]
    NoApply(String),
    /// Reading or writing a path, `stdin`, `stdout` or the terminal failed;
    /// `action` says what was being done ("cannot read FILE").
    #[error("{action}: {source}")]
    Io {
        /// What was being done, as the start of the message ("cannot read a.rs").
        action: String,
        /// The I/O error, printed after the action.
        source: std::io::Error,
    },
    /// Input srview will not treat as text or as a place to work: binary,
    /// not UTF-8, a directory, a path outside the workspace.
    #[error("{0}")]
    Refused(String),
    /// A write did not happen; the target is untouched.
    #[error("{0}")]
    Write(String),
}

/// An applier's refusal of an edit in the applier's own words (its error
/// message, or the reference CLI's stderr): shown, compared with the
/// agent's and reported word for word.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refusal(pub String);

impl Refusal {
    /// The refusal that `error`'s text gives.
    pub fn of(error: impl fmt::Display) -> Refusal {
        Refusal(error.to_string())
    }

    /// The applier's words.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The action of a failed write to stdout ([`Error::stdout`]).
const WRITE_STDOUT: &str = "cannot write stdout";

impl Error {
    /// [`Error::Usage`].
    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    /// [`Error::Refused`].
    pub fn refused(message: impl Into<String>) -> Self {
        Error::Refused(message.into())
    }

    /// [`Error::Io`] for reading `what`.
    pub fn read(what: impl fmt::Display, source: std::io::Error) -> Self {
        Error::Io {
            action: format!("cannot read {what}"),
            source,
        }
    }

    /// [`Error::Io`] for writing to stdout.
    pub fn stdout(source: std::io::Error) -> Self {
        Error::Io {
            action: WRITE_STDOUT.into(),
            source,
        }
    }

    /// [`Error::Io`] for anything else: `action` reads as the start of the
    /// sentence ("no terminal to draw on").
    pub fn io(action: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            action: action.into(),
            source,
        }
    }

    /// Whether this is a write to stdout that failed because its reader
    /// closed the pipe: the reader has what it wanted (`| head -1`).
    pub fn is_closed_stdout(&self) -> bool {
        matches!(self, Error::Io { action, source }
            if action == WRITE_STDOUT
                && source.kind() == std::io::ErrorKind::BrokenPipe)
    }

    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::NoApply(_) => 1,
            Error::Usage(_) | Error::Io { .. } | Error::Refused(_) | Error::Write(_) => 2,
        }
    }
}

/// What every command returns: its exit status, or why it stopped.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_and_texts() {
        let e = Error::read("a.txt", std::io::Error::other("boom"));
        assert_eq!(e.to_string(), "cannot read a.txt: boom");
        assert_eq!(e.exit_code(), 2);
        assert!(std::error::Error::source(&e).is_some());
        assert_eq!(Error::NoApply("x".into()).exit_code(), 1);
        assert_eq!(Error::Refused("bin".into()).to_string(), "bin");
        assert_eq!(
            Error::stdout(std::io::Error::other("pipe")).to_string(),
            "cannot write stdout: pipe"
        );
    }
}
