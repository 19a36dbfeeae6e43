//! `srview replay INPUT --to OUT`: writes INPUT into OUT progressively, the
//! way a model streams it, for a previewer (or a demo) to watch.

use super::{CmdResult, ReplayArgs};
use crate::error::Error;
use crate::input;
use crate::source::replay;

pub fn run(args: &ReplayArgs) -> CmdResult {
    if !(args.rate.is_finite() && args.rate > 0.0) {
        return Err(Error::usage(format!(
            "--rate must be a positive number of characters per second, not {}",
            args.rate
        )));
    }
    if args.chunk == 0 {
        return Err(Error::usage("--chunk must be at least 1"));
    }
    let text = input::read_text(&args.input, false)?.unwrap_or_default();
    // OUT is truncated first: never a file that holds other work (INPUT
    // and OUT swapped by mistake, a source file), only an earlier replay of
    // this input, whole or cut short.
    let earlier_replay = match input::read_text(&args.to, true) {
        Ok(None) => true,
        Ok(Some(held)) => text.starts_with(&held),
        // Not text (binary, not UTF-8), or unreadable: not a replay.
        Err(_) => false,
    };
    if !args.force && !earlier_replay {
        return Err(Error::refused(format!(
            "{} holds other content than a replay of {}: replaying would truncate it \
             (--force does)",
            args.to.display(),
            args.input.display()
        )));
    }
    let steps = replay::schedule(&text, args.rate, args.chunk, args.jitter, args.seed);
    replay::replay_to_file(&text, &args.to, &steps)
        .map_err(|e| Error::io(format!("cannot write {}", args.to.display()), e))?;
    Ok(0)
}
