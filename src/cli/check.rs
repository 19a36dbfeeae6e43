//! `srview check`: not built yet.

use super::CmdResult;
use crate::input::CliError;

pub fn run(_args: &impl std::fmt::Debug) -> CmdResult {
    Err(CliError::usage("check is not implemented yet"))
}
