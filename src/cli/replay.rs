//! `srview replay`: not built yet.

use super::CmdResult;
use crate::input::CliError;

pub fn run(_args: &impl std::fmt::Debug) -> CmdResult {
    Err(CliError::usage("replay is not implemented yet"))
}
