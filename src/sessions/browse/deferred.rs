//! The browser's review of a saved session whose reviews need all of it
//! ([`super::reviews_at_the_end`]: Codex's content before an edit is its
//! file as it is now with the recorded diffs of that edit and of every
//! later edit of the file undone, from the session's end back), in bounded
//! memory.
//!
//! While the session is read, each edit is kept as read (a Codex edit is
//! its patch section and the diff Codex recorded, no file's content) and
//! listed with srview's review to come ([`waiting`]). Once it has been
//! read to its end, every edit is reviewed once, in order, as the whole
//! review ([`review_live`](crate::sessions::review::review_live)) reviews
//! it, and kept with only what its row shows beside the edit
//! ([`super::hollow_results`]): no content before, result or content
//! after. The edit shown is reviewed again from the edits kept
//! ([`replay`]), only its file's diffs undone.

use std::borrow::Cow;
use std::sync::Arc;

use super::{Basis, Batch, Facts, hollow_results};
use crate::sessions::live::{Reviewed, SharedFs};
use crate::sessions::recover::{SessionFs, Undone, unwritten_after};
use crate::sessions::review::{Recovery, Review, Reviewer, Run, after_of};
use crate::source::agent::{AgentEdit, AgentKind, AgentReader, FileContent, Verdict};

/// The reviews of a session reviewed at its end.
#[derive(Default)]
pub(super) struct Deferred {
    /// The settled edits, in order: each with srview's review to come
    /// ([`waiting`]) until the session has ended, then reviewed, kept with
    /// the edit and what its row shows only.
    settled: Vec<Arc<Review>>,
    /// The edits the reader had not settled at the end, reviewed (none
    /// when the readers settle every edit as they finish).
    tail: Vec<Arc<Review>>,
    /// What the reviews of the ended session were run with: the basis,
    /// and how many edits.
    done: Option<(Basis, usize)>,
    /// Reviews run, ever (for tests).
    pub reviews_run: usize,
}

impl Deferred {
    /// The answer to `batch`: until the session ended, every edit waiting
    /// for its review ([`Reviewed::provisional`]); then every edit
    /// reviewed (once: again only when the basis changed or edits came).
    pub(super) fn update(&mut self, batch: Batch) -> Reviewed {
        let Batch {
            generation,
            settled,
            tail,
            facts,
            ended,
        } = batch;
        let agent = facts.reader.agent();
        let grew = !settled.is_empty();
        self.settled.extend(
            settled
                .into_iter()
                .map(|edit| Arc::new(waiting(edit, agent))),
        );
        let basis = facts.basis();
        let cwd = basis.2.clone();
        if !ended {
            let mut reviews = self.settled.clone();
            reviews.extend(tail.into_iter().map(|edit| Arc::new(waiting(edit, agent))));
            let mut answer = facts.reader.answer(generation, reviews, cwd, 0, Vec::new());
            answer.provisional = true;
            return answer;
        }
        let key = (basis, self.settled.len() + tail.len());
        let mut run = 0;
        if grew || self.done.as_ref() != Some(&key) {
            run = self.review_all(tail, &facts);
            self.done = Some(key);
        }
        let reviews: Vec<Arc<Review>> = self.settled.iter().chain(&self.tail).cloned().collect();
        let hollow = vec![true; reviews.len()];
        facts.reader.answer(generation, reviews, cwd, run, hollow)
    }

    /// Reviews every edit, the settled ones and then `tail`, as the whole
    /// review does; returns how many.
    fn review_all(&mut self, tail: Vec<AgentEdit>, facts: &Facts) -> usize {
        let settled = std::mem::take(&mut self.settled);
        self.tail.clear();
        // As the whole review has them: an edit whose verdict the output
        // may have lost is pending.
        let edits: Vec<Cow<'_, AgentEdit>> = settled
            .iter()
            .map(|r| &r.edit)
            .chain(&tail)
            .map(|edit| {
                if facts.lost.contains(&edit.seq) {
                    let mut edit = edit.clone();
                    edit.agent_verdict = Verdict::Pending;
                    Cow::Owned(edit)
                } else {
                    Cow::Borrowed(edit)
                }
            })
            .collect();
        let session = facts
            .reader
            .session(Some(edits.iter().map(|e| &**e).collect()));
        let mut reviewer = Reviewer::lent(session, &*facts.fs, Recovery::Full, None);
        for (i, edit) in edits.iter().enumerate() {
            let review = reviewer.review(i, edit.clone().into_owned());
            let kept = Arc::new(hollow_results(review));
            if i < settled.len() {
                self.settled.push(kept);
            } else {
                self.tail.push(kept);
            }
        }
        self.reviews_run += edits.len();
        edits.len()
    }
}

/// Edit `edit` of a session of `agent` not read to its end yet: listed,
/// srview's review to come.
fn waiting(edit: AgentEdit, agent: AgentKind) -> Review {
    Review {
        edit,
        before: None,
        basis: None,
        run: Run::NotRun(Some(format!(
            "reviewed once the whole session is read: {}'s content before an edit is its file \
             now with the later diffs undone",
            agent.display_name()
        ))),
        disagreement: None,
        loose_match: None,
        notices: Vec::new(),
    }
}

/// The whole review of the `at`-th edit (from 0) of `reviews` (the
/// answer of [`Deferred::update`] once the session ended), as it was
/// reviewed: the recorded diffs of its file undone from the file now, the
/// edits of its file before it planned again for srview's chain where
/// those diffs do not reach it. `reader`: the browser's (the session's
/// facts); `fs`: the workspace.
pub(super) fn replay(
    reviews: &[Arc<Review>],
    at: usize,
    reader: &AgentReader,
    fs: SharedFs,
) -> Option<Review> {
    let facts = Facts::of(reader, fs);
    let edits: Vec<&AgentEdit> = reviews.iter().map(|r| &r.edit).collect();
    let file = edits.get(at)?.file.as_str();
    let ws: &(dyn SessionFs + Sync) = &*facts.fs;
    let unwritten = unwritten_after(&edits, facts.reader.shell_runs());
    let mut reviewer = Reviewer::lent(facts.session(), ws, Recovery::Full, None)
        .with_unwritten(unwritten)
        .with_undone(Undone::of_file(edits.clone(), ws, file));
    let judge = reviewer.judge(ws);
    // Where the diffs undone reach the edit, its content before is that:
    // the edits of its file before it do not matter.
    let undone = reviewer.sources_of(at).0.is_some();
    let mut chain: Option<FileContent> = None;
    let mut first_of_file = true;
    for (i, &edit) in edits.iter().enumerate().take(at + 1) {
        if edit.file != file {
            continue;
        }
        let first = std::mem::replace(&mut first_of_file, false);
        if i == at {
            return Some(
                reviewer
                    .review_in(at, edit.clone(), first, chain.as_ref())
                    .0,
            );
        }
        if undone {
            continue;
        }
        let planned = reviewer.plan(i, edit.clone(), first, chain.as_ref());
        chain = match planned.after_without_review() {
            Ok(after) => after,
            Err(()) => after_of(&judge.review(planned), facts.reader.agent()),
        };
    }
    None
}
