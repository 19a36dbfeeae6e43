//! A patch with two `*** Update File:` sections for one file (tester 48
//! T-06): Codex searches the later section's hunks from the file's top
//! again, OpenCode derives both from the file before the patch and keeps
//! the later write ([`PatchDoubtKind::SplitSections`], a doubt of srview's
//! patch checks). The same hunks as one section per file
//! ([`sections::joined`]) are offered as the corrected patch when srview
//! stands behind it: the agent's own matcher (Codex: srview's port of it)
//! applies it with every hunk exact and no patch check doubts it.
//!
//! [`PatchDoubtKind::SplitSections`]: crate::dialect::apply_patch::PatchDoubtKind::SplitSections

use super::Call;
use super::moved::{Offer, PatchCall};
use crate::dialect::apply_patch::{PatchFs, parse, render, sections};

/// What the repair is called in the answer.
const WHAT: &str = "with the sections of each file joined into one";

/// The patch `text` with each file's sections joined into one, rendered;
/// `None` when no file has two (or Codex's parser cannot read it).
fn joined_text(text: &str) -> Option<String> {
    let patch = parse(text).ok()?;
    sections::joined(&patch).map(|joined| render(&joined.patch))
}

/// OpenCode's and Cline's `apply_patch` (`row`, the patch in the input's
/// `key`) with each file's sections joined, checked with the agent's own
/// matcher.
pub(super) fn own(patch: &PatchCall) -> Offer {
    super::moved::offer_text(patch, |text, _| joined_text(text), WHAT)
}

/// Codex's patch `text` with each file's sections joined, as the corrected
/// input when srview's port of Codex places it exactly and nothing is in
/// doubt ([`super::patch::stands`]); else why not.
pub(super) fn codex(call: &Call, text: &str, fs: &dyn PatchFs) -> Offer {
    let Some(fixed) = joined_text(text) else {
        return (None, None);
    };
    let stood = match parse(&fixed) {
        Ok(patch) => super::patch::stands(&patch, fs, &call.cwd),
        Err(e) => Err(format!("the patch {WHAT} cannot be read: {e}")),
    };
    match stood {
        Ok(()) => (Some(super::patch::as_input(call, fixed)), None),
        Err(why) => (None, Some(format!("the patch {WHAT}: {why}"))),
    }
}
