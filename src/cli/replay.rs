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
    // OUT being INPUT itself (or a link to it) would pass the check below
    // (a file is a replay of itself) and lose INPUT to the truncation,
    // for good if the replay is stopped (tester 44, T-16): refused, as `cp`
    // refuses, whatever --force says.
    if crate::output::same_file(&args.input, &args.to) {
        return Err(Error::refused(format!(
            "{} is the input ({}) itself: replaying would truncate it; name another OUT",
            args.to.display(),
            args.input.display()
        )));
    }
    let text = input::read_text(&args.input, false)?.unwrap_or_default();
    // OUT is truncated first: never a file that holds other work (INPUT
    // and OUT swapped by mistake, a source file), only an earlier replay of
    // this input, whole or cut short.
    // Only a regular file is truncated; a FIFO or a device (a previewer
    // reading a pipe, /dev/null) holds nothing to lose, a folder fails below.
    let regular = std::fs::metadata(&args.to).is_ok_and(|m| m.is_file());
    if regular && !args.force {
        let why = match std::fs::read(&args.to) {
            Ok(held) if text.as_bytes().starts_with(&held) => None,
            Ok(_) => Some("holds other content than a replay of the input".to_string()),
            Err(e) => Some(format!("cannot be read to check what it holds ({e})")),
        };
        if let Some(why) = why {
            return Err(Error::refused(format!(
                "{} {why}: replaying would truncate it (--force does)",
                args.to.display()
            )));
        }
    }
    let steps = replay::schedule(&text, args.rate, args.chunk, args.jitter, args.seed);
    replay::replay_to_file(&text, &args.to, &steps)
        .map_err(|e| Error::io(format!("cannot write {}", args.to.display()), e))?;
    Ok(0)
}
