//! Real Codex CLI 0.169.0 runs (scripted model, recorded offline): the
//! patch each one sent to apply_patch, the project before and after, and
//! the tool output the agent saw. Ours must agree on all of them.

mod support;

use srview::dialect::apply_patch::{HunkState, MemoryFs, apply_text};
use support::agents::codex_runs as runs;

#[test]
fn every_recorded_run_ends_as_the_agent_s() {
    let runs = runs();
    assert_eq!(runs.len(), 5);
    for run in &runs {
        let fs = MemoryFs::new(run.before.clone());
        let outcome = apply_text(&run.patch, &fs, &run.cwd);
        let mut after = run.before.clone();
        for (path, content) in &outcome.files {
            match content {
                Some(content) => after.insert(path.clone(), content.clone()),
                None => after.remove(path),
            };
        }
        assert_eq!(after, run.after, "{}", run.capture);
        match run
            .tool_output
            .strip_prefix("apply_patch verification failed: ")
        {
            Some(error) => {
                assert_eq!(outcome.exit_code, 1, "{}", run.capture);
                assert_eq!(outcome.stderr, format!("{error}\n"), "{}", run.capture);
                assert!(outcome.files.is_empty());
            }
            None => {
                assert_eq!(outcome.exit_code, 0, "{}", run.capture);
                let printed = format!("Output:\n{}", outcome.stdout);
                assert!(run.tool_output.ends_with(&printed), "{}", run.capture);
            }
        }
    }
}

#[test]
fn the_mismatched_hunk_is_the_one_reported_failed() {
    let runs = runs();
    let run = runs
        .iter()
        .find(|r| r.capture.ends_with("b_context_mismatch"))
        .expect("the mismatch run is recorded");
    let outcome = apply_text(&run.patch, &MemoryFs::new(run.before.clone()), &run.cwd);
    let hunks = &outcome.sections[0].hunks;
    let states: Vec<HunkState> = hunks.iter().map(|h| h.state).collect();
    assert_eq!(states, [HunkState::Applied, HunkState::Failed]);
    let failed = &hunks[1];
    assert_eq!(failed.error.as_deref(), outcome.stderr.strip_suffix('\n'));
    assert!(failed.header.is_some() && failed.matched.is_none());
}
