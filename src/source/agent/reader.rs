//! The one small trait every agent format's reader implements: fed one
//! unit of the output at a time (a line, a JSON object, a whole document,
//! as the format's [`Arrival`](super::table::Arrival) cuts them), it records
//! the edits it reads into the [`Store`]. The format's row in
//! [`super::table::FORMATS`] names the function making its reader; nothing
//! outside the agent's own file knows the reader's type.

use std::path::Path;

use super::AgentReader;
use super::store::Store;

/// A side file a reader consults (a session's manifest, a task's metadata,
/// Gemini CLI's projects list), read as JSON; `None` when it is missing or
/// does not read as `T`: the edits are read without what it would add.
pub(super) fn read_json<T: for<'de> serde::Deserialize<'de>>(path: &Path) -> Option<T> {
    let file = std::fs::File::open(path).ok()?;
    serde_json::from_reader(std::io::BufReader::new(file)).ok()
}

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

/// The items of a JSON array (a message's content blocks or parts) that
/// read as `T`; an item of another shape is skipped, and anything but an
/// array (or nothing) is no items. The readers take only the shapes they
/// know and go on past the rest, as the agents add new ones.
pub(super) fn known_items<'a, T: serde::Deserialize<'a>>(
    array: Option<&'a serde_json::value::RawValue>,
) -> Vec<T> {
    let Some(array) = array else {
        return Vec::new();
    };
    match serde_json::from_str::<Vec<&serde_json::value::RawValue>>(array.get()) {
        Ok(items) => items
            .into_iter()
            .filter_map(|raw| serde_json::from_str(raw.get()).ok())
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// A line's kind alone: what a line of an unknown shape is named by.
#[derive(serde::Deserialize)]
struct Head<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: std::borrow::Cow<'a, str>,
}

/// A line type whose `type` field names its kind.
pub(super) trait Kinded {
    /// The line's `type`.
    fn kind(&self) -> &str;
}

/// One line read as `L` when it is of a kind the reader looks into
/// (`read`): `None` for a blank line, a line of another kind (skipped)
/// and a line that does not read as `L` (see [`unreadable_line`]).
pub(super) fn kind_line<'a, L: serde::Deserialize<'a> + Kinded>(
    text: &'a str,
    store: &mut Store,
    read: fn(&str) -> bool,
) -> Option<L> {
    if text.trim().is_empty() {
        return None;
    }
    match serde_json::from_str::<L>(text) {
        Ok(line) if read(line.kind()) => Some(line),
        Ok(_) => None,
        Err(e) => {
            unreadable_line(text, e, store, read);
            None
        }
    }
}

/// A line that did not read as its reader's shape (`e`): said when it is
/// of a kind the reader looks into (`read`: its shape changed) or not
/// JSON at all; other kinds are skipped.
pub(super) fn unreadable_line(
    text: &str,
    e: serde_json::Error,
    store: &mut Store,
    read: impl Fn(&str) -> bool,
) {
    match serde_json::from_str::<Head>(text) {
        Ok(head) if read(&head.kind) => store.malformed(format!(
            "{} line of an unknown shape",
            crate::words::with_article(&head.kind)
        )),
        Ok(_) => {}
        Err(_) => store.malformed(format!("not a JSON object ({e})")),
    }
}

#[cfg(test)]
mod tests {
    use super::known_items;
    use serde::Deserialize;
    use serde_json::value::RawValue;

    #[derive(Deserialize, Debug, PartialEq)]
    struct Named {
        name: String,
    }

    #[test]
    fn only_the_items_of_a_known_shape_are_read() {
        let raw: &RawValue =
            serde_json::from_str(r#"[{"name":"a"},{"other":1},3,{"name":"b"}]"#).unwrap();
        assert_eq!(
            known_items::<Named>(Some(raw)),
            vec![Named { name: "a".into() }, Named { name: "b".into() }]
        );
        let object: &RawValue = serde_json::from_str(r#"{"name":"a"}"#).unwrap();
        assert!(known_items::<Named>(Some(object)).is_empty());
        assert!(known_items::<Named>(None).is_empty());
    }
}
