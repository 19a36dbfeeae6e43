//! The counts `srview sessions` lists for a saved session, read in one
//! pass and in pieces: each edit is reviewed as soon as it settles and then
//! dropped, so a huge session (100 MB, 10,000 edits, each Claude Code edit
//! carrying the whole file before it) is never held whole. Codex sessions
//! keep their edits (a patch and a diff each) to the end: their contents
//! before come from undoing the recorded diffs from the file as it is now.

use std::path::Path;

use super::load::root_of;
use super::review::{Counts, Recovery, Reviewer};
use crate::source::agent::AgentKind;
use crate::source::agent::session::{SessionError, read_session_with};
use crate::source::agent::table::Workspace;

/// What a listing shows of one session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The agent that wrote it.
    pub agent: AgentKind,
    /// The agent's version, as the session names it.
    pub version: Option<String>,
    /// Its edits, failed, loose and disputed ones, as a light review
    /// ([`Recovery::Light`]) counts them.
    pub counts: Counts,
    /// The folder the agent ran in, as the session records it (an Aider
    /// history: the folder it lies in); `None` when it records none (Cline
    /// classic tasks).
    pub workspace: Option<String>,
    /// The gate's decisions about its edits that blocked or repaired one
    /// ("gate: 3 blocked, 2 repaired", see [`crate::gate::record`]);
    /// `None` when there are none.
    pub gate: Option<String>,
}

/// Reads the session at `path` (a file, or a session folder) and counts
/// its edits.
pub fn count(path: &Path) -> Result<Listed, SessionError> {
    let mut counts = Counts::default();
    let mut reviewer: Option<Reviewer<'static>> = None;
    // Each edit's key to join the gate's record by, and its counts as
    // reviewed and as the gate repaired it (see `record::as_run`).
    let mut inputs: Vec<Option<String>> = Vec::new();
    let mut each: Vec<(Counts, Counts)> = Vec::new();
    let reader = read_session_with(path, None, |reader| {
        if reader.kind().row().undoes_diffs {
            return;
        }
        let settled = reader.take_settled();
        if settled.is_empty() {
            return;
        }
        // Created at the first settled edit: the workspace the session
        // records is named by then.
        let reviewer = reviewer.get_or_insert_with(|| {
            Reviewer::streaming(reader, &root_of(reader, path, None), Recovery::Light)
        });
        for edit in settled {
            inputs.push(crate::gate::record::join_key(&edit));
            let index = edit.seq - 1;
            each.push(crate::gate::record::counts(&reviewer.review(index, edit)));
        }
    })?;
    if reader.kind().row().undoes_diffs {
        let mut reviewer = Reviewer::new(&reader, &root_of(&reader, path, None), Recovery::Light);
        for (index, edit) in reader.edits().iter().enumerate() {
            inputs.push(crate::gate::record::join_key(edit));
            each.push(crate::gate::record::counts(
                &reviewer.review(index, edit.clone()),
            ));
        }
    }
    if each.is_empty()
        && let Some(why) = reader.unread()
    {
        // Not a session without edits: one that could not be read.
        return Err(SessionError::Unreadable {
            path: path.to_path_buf(),
            why,
        });
    }
    let workspace = match reader.kind().row().workspace {
        Workspace::FileFolder => path.parent().map(|p| p.to_string_lossy().into_owned()),
        Workspace::Recorded | Workspace::Unrecorded => reader.workspace().map(str::to_string),
    };
    // Only a session with an edit the record can name reads the record.
    let gate = match &workspace {
        Some(w) if inputs.iter().any(Option::is_some) => {
            let (decisions, unread) = crate::gate::record::read_counted(Path::new(w));
            let joined =
                crate::gate::record::join_session_keys(&decisions, &inputs, reader.session_stamp());
            for ((reviewed, repaired), (d, key)) in each.iter_mut().zip(joined.iter().zip(&inputs))
            {
                if d.is_some_and(|d| crate::gate::record::sets_aside(d, key.as_deref())) {
                    *reviewed = *repaired;
                }
            }
            let tally = crate::gate::record::tally(joined.into_iter().flatten());
            crate::gate::record::summary(tally, unread)
        }
        _ => None,
    };
    each.into_iter()
        .for_each(|(reviewed, _)| counts.merge(reviewed));
    Ok(Listed {
        agent: reader.kind(),
        version: reader.version().map(str::to_string),
        counts,
        workspace,
        gate,
    })
}
