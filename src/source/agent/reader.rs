//! The one small trait every agent format's reader implements: fed one
//! unit of the output at a time (a line, a JSON object, a whole document,
//! as the format's [`Arrival`](super::table::Arrival) cuts them), it records
//! the edits it reads into the [`Store`]. The format's row in
//! [`super::table::FORMATS`] names the function making its reader; nothing
//! outside the agent's own file knows the reader's type.

use std::path::Path;

use super::AgentReader;
use super::store::Store;

/// Reads one agent output format, unit by unit.
pub(super) trait FormatReader {
    /// One complete unit of the output (text; invalid UTF-8 replaced).
    fn unit(&mut self, text: &str, store: &mut Store);

    /// The unit still arriving, as far as it has arrived (a reply that is
    /// previewed while it streams). Most formats wait for the whole unit.
    fn tail(&mut self, _text: &str, _store: &mut Store) {}

    /// Whether [`FormatReader::tail`] reads anything (the tail is copied
    /// out for it after every piece fed, so only a format that previews
    /// it says yes).
    fn reads_tail(&self) -> bool {
        false
    }

    /// The input has ended (after its last unit).
    fn finish(&mut self, _store: &mut Store) {}
}

/// Reads what a saved session keeps beside its file (a manifest naming the
/// agent's version and workspace, a folder of backups) into `reader`
/// before the file is read. `use_cwd`: the caller gave no workspace, so a
/// recorded one is taken.
pub(super) type SideFiles = fn(file: &Path, reader: &mut AgentReader, use_cwd: bool);

/// A reader that calls `f` on each unit (a format whose units are read by a
/// plain function, as a whole document is).
pub(super) struct EachUnit(pub fn(&str, &mut Store));

impl FormatReader for EachUnit {
    fn unit(&mut self, text: &str, store: &mut Store) {
        (self.0)(text, store);
    }
}
