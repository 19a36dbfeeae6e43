//! Part of `srview apply`: not built yet.

use super::{ApplyArgs, CmdResult};
use crate::input::CliError;

pub fn run(_args: &ApplyArgs) -> CmdResult {
    Err(CliError::usage("apply_stream is not implemented yet"))
}
