//! When a quiet stream is shown `paused` ([`crate::tui::app::PAUSE_AFTER`]).

use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

pub(super) struct PauseTimer {
    after: Duration,
    /// When the stream pauses if no new text arrives before.
    pub(super) at: Option<Instant>,
}

impl PauseTimer {
    pub(super) fn new() -> Self {
        // A test hook: pty tests shorten the wait.
        let after = std::env::var("SRVIEW_PAUSE_AFTER_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map_or(crate::tui::app::PAUSE_AFTER, Duration::from_millis);
        PauseTimer { after, at: None }
    }

    pub(super) fn due(&mut self, now: Instant) -> bool {
        let due = self.at.is_some_and(|at| at <= now);
        if due {
            self.at = None;
        }
        due
    }

    /// New text: a `streaming` source pauses `after` from now, or sooner
    /// when it is a file (`watched`) last modified before now (a finished
    /// file pauses at once).
    pub(super) fn text_changed(&mut self, streaming: bool, watched: Option<&Path>) {
        if !streaming {
            self.at = None;
            return;
        }
        let age = watched
            .and_then(|path| std::fs::metadata(path).and_then(|m| m.modified()).ok())
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .unwrap_or_default();
        self.at = Some(Instant::now() + self.after.saturating_sub(age));
    }
}
