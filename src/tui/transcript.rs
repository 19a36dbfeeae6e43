//! `srview --transcript MSG`: the previewer over every file an agent's
//! message edits, one tab per file, as a [`Screen`]. Its state is a
//! [`Workspace`]; the transcript is parsed, its files loaded (once) and
//! written here.

use std::collections::HashMap;
use std::sync::Arc;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui_crossterm::crossterm::event::Event as TermEvent;

use super::run::{Flow, Screen};
use super::{Exit, Folded, TuiConfig};
use crate::dialect::apply_patch::{Entry, PatchFs};
use crate::source::patch_preview;
use crate::source::transcript::{self, PathError, PathRules as Paths};
use crate::tui::app::workspace::Workspace;
use crate::tui::app::{Effect, Notice, StreamState};
use crate::tui::view::{self, Caches, highlight::Syntaxes, theme::Theme};

pub struct TranscriptFiles {
    ws: Workspace,
    paths: Paths,
    /// The transcript so far.
    text: String,
    ended: bool,
    /// Each file's text as first loaded: the base every update applies to.
    originals: HashMap<String, Result<Option<String>, PathError>>,
    /// Paths written so far, as the transcript names them, in order.
    written: Vec<String>,
    /// An accepted write failed (the notice said which).
    write_failed: bool,
    /// The files (indices into the edits) whose other names (hard links)
    /// were asked about: the same write asked again is done.
    links_asked: Option<Vec<usize>>,
    syntaxes: Arc<Syntaxes>,
    /// One per tab, and the tab generation each was made for.
    caches: Vec<Caches>,
    generations: Vec<u64>,
    /// The transcript as the user named it (`srview --transcript MSG`):
    /// what the previewer cannot do is said with the command that does it.
    input: Option<crate::dialect::one_file::Rerun>,
}

impl TranscriptFiles {
    /// The previewer of the files a transcript edits, resolved by `paths`.
    pub fn new(paths: Paths, config: &TuiConfig) -> Self {
        let mut files = TranscriptFiles {
            ws: Workspace::new(config.version, config.fix_model_output),
            paths,
            text: String::new(),
            ended: config.final_mode,
            originals: HashMap::new(),
            written: Vec::new(),
            write_failed: false,
            links_asked: None,
            syntaxes: Arc::new(Syntaxes::load()),
            caches: Vec::new(),
            generations: Vec::new(),
            input: None,
        };
        files.reparse();
        files
    }

    /// Says `msg` (the transcript's path as given) in the commands that do
    /// what the previewer does not (a deletion, a move).
    pub fn with_input(mut self, msg: &std::path::Path) -> Self {
        self.input = Some(crate::dialect::one_file::Rerun::new(
            None,
            Some(msg),
            Vec::new(),
        ));
        self.reparse();
        self
    }

    /// The files written, as the transcript names them, in order.
    pub fn written(&self) -> &[String] {
        &self.written
    }

    /// The exit status for a session that ended with `exit`: quitting is a
    /// success when what the user accepted was written and no accepted
    /// write failed; a signal keeps its status.
    pub fn exit_code(&self, exit: &Exit) -> u8 {
        match exit {
            Exit::Quit(code) if *code < 128 => {
                if !self.written.is_empty() && !self.write_failed {
                    0
                } else {
                    1
                }
            }
            Exit::Quit(code) => *code,
            Exit::Print(_) | Exit::Wrote(_) => 0,
        }
    }

    fn reparse(&mut self) {
        match transcript::detect(&self.text) {
            Some(transcript::Format::ApplyPatch) => return self.reparse_patch(),
            // A whole Aider reply is run as Aider runs it (while it streams
            // its blocks are previewed with Cline's matcher).
            Some(transcript::Format::Aider) if self.ended => {
                if let Some(row) = crate::dialect::registry::find("aider-diff") {
                    return self.reparse_agent(row);
                }
            }
            _ => {}
        }
        let calls = transcript::parse_any(&self.text);
        let (paths, originals) = (&self.paths, &mut self.originals);
        let load = |p: &str| {
            originals
                .entry(p.to_string())
                .or_insert_with(|| paths.load(p))
                .clone()
        };
        let mut edits = transcript::apply_calls(&calls, load, self.ws.options());
        if self.ended {
            edits.iter_mut().for_each(transcript::FileEdit::end);
        }
        self.ws.update(&calls, edits, self.text.len(), self.ended);
    }

    /// An apply_patch: run as the reference runs it over the files as
    /// first loaded, shown as blocks (see [`crate::source::patch_preview`]).
    fn reparse_patch(&mut self) {
        let (cwd, fs) = LoadedFs::of(&self.paths, &mut self.originals);
        let mut patch = patch_preview::preview(&self.text, &fs, &cwd.to_string_lossy(), self.ended);
        say_commands(self.input.as_ref(), &mut patch, &cwd);
        let load = |p: &str| fs.load(p);
        let edits = transcript::apply_calls(&patch.calls, load, self.ws.options());
        self.ws
            .update_patch(&patch, edits, self.text.len(), self.ended);
        // `v` shows the patch as received, not the blocks that show it.
        self.ws.set_raw_input(&self.text);
    }

    /// A whole tool input for an agent's own matcher over the folder (an
    /// Aider reply), shown as a patch is: one tab per file it writes.
    fn reparse_agent(&mut self, row: &'static crate::dialect::registry::DialectRow) {
        let (cwd, fs) = LoadedFs::of(&self.paths, &mut self.originals);
        let mut preview =
            patch_preview::agent_folder_preview(row, &self.text, &fs, &cwd.to_string_lossy());
        say_commands(self.input.as_ref(), &mut preview, &cwd);
        let load = |p: &str| fs.load(p);
        let mut edits = transcript::apply_calls(&preview.calls, load, self.ws.options());
        edits.iter_mut().for_each(transcript::FileEdit::end);
        self.ws
            .update_patch(&preview, edits, self.text.len(), self.ended);
        self.ws.set_raw_input(&self.text);
    }

    /// `r`: every file not yet written is loaded from disk again and the
    /// transcript re-applied to it (a written file keeps the text it was
    /// loaded with: its edits are already on disk).
    fn reload(&mut self) {
        let written: Vec<String> = self
            .ws
            .tabs()
            .iter()
            .filter(|t| t.written())
            .map(|t| t.path().clone())
            .collect();
        let before = self.originals.len();
        self.originals.retain(|path, _| written.contains(path));
        let reloaded = before - self.originals.len();
        self.reparse();
        self.ws.show_notice(Notice {
            text: format!(
                "reloaded {} from disk and applied the transcript again",
                crate::words::count(reloaded, "file")
            ),
            error: false,
        });
    }

    /// `a`/`A`: writes these files (indices into the edits), all or none.
    /// `file_endings`: a CRLF file's new LF lines are written in CRLF.
    fn write(&mut self, indices: &[usize], file_endings: bool) -> Flow {
        let files: Vec<&transcript::FileEdit> = indices
            .iter()
            .filter_map(|&i| self.ws.edits().get(i))
            .collect();
        // A file with other names (hard links): asked about first, as
        // `apply --write` holds it back.
        let links: Vec<String> = transcript::targets(&self.paths, &files)
            .iter()
            .filter_map(|p| crate::output::hard_link_doubt(p))
            .collect();
        if links.is_empty() || self.links_asked.as_deref() == Some(indices) {
            self.links_asked = None;
        } else {
            self.links_asked = Some(indices.to_vec());
            self.ws.refuse_write(format!(
                "{}: press the same key again to write anyway",
                links.join("; ")
            ));
            return Flow::Continue;
        }
        match transcript::write_files_with(&self.paths, &files, file_endings) {
            Ok(paths) => {
                self.written.extend(paths);
                self.ws.mark_written(indices);
                // Every file shown is written; while the transcript may
                // still bring more, srview stays open.
                if self.ws.all_written() && self.ws.received().stream != StreamState::Streaming {
                    return Flow::Exit(Exit::Quit(0));
                }
            }
            // Refused before any write (a file changed on disk) is not a
            // failed write: `r` recovers from it.
            Err(why) if why.changed_on_disk => self.ws.refuse_write(format!(
                "{why}: press r to reload it and apply the edits again"
            )),
            Err(why) => {
                self.write_failed = true;
                self.ws.refuse_write(why.message);
            }
        }
        Flow::Continue
    }
}

/// `preview`'s refusals said with `srview apply --transcript` of the
/// transcript (`input`, once its path is known: [`TranscriptFiles::with_input`])
/// over `cwd`.
fn say_commands(
    input: Option<&crate::dialect::one_file::Rerun>,
    preview: &mut patch_preview::PatchPreview,
    cwd: &std::path::Path,
) {
    if let Some(input) = input {
        preview.say_commands(|write, json| input.whole_patch(Some(cwd), write, json));
    }
}

/// The files as first loaded, through the transcripts' path rules, for
/// the patch applier.
struct LoadedFs<'a> {
    paths: &'a Paths,
    originals: std::cell::RefCell<&'a mut HashMap<String, Result<Option<String>, PathError>>>,
}

impl<'a> LoadedFs<'a> {
    /// The folder as first loaded, and its path as the matchers name it
    /// (canonical when it can be).
    fn of(
        paths: &'a Paths,
        originals: &'a mut HashMap<String, Result<Option<String>, PathError>>,
    ) -> (std::path::PathBuf, Self) {
        let cwd = paths
            .cwd
            .canonicalize()
            .unwrap_or_else(|_| paths.cwd.clone());
        let fs = LoadedFs {
            paths,
            originals: std::cell::RefCell::new(originals),
        };
        (cwd, fs)
    }

    fn load(&self, path: &str) -> Result<Option<String>, PathError> {
        self.originals
            .borrow_mut()
            .entry(path.to_string())
            .or_insert_with(|| self.paths.load(path))
            .clone()
    }
}

impl PatchFs for LoadedFs<'_> {
    fn read(&self, path: &str) -> Entry {
        match self.load(path) {
            Ok(Some(text)) => Entry::File(text),
            Ok(None) => Entry::Missing,
            Err(why) => Entry::Unreadable(why.to_string()),
        }
    }
}

impl Screen for TranscriptFiles {
    fn on_resize(&mut self, area: Rect) {
        // Below the tab bar.
        let below = Rect::new(0, 1, area.width, area.height.saturating_sub(1));
        self.ws.fit(below);
    }

    fn on_event(&mut self, event: TermEvent) -> Flow {
        let effect = match event {
            TermEvent::Key(k) => self.ws.on_key(k),
            TermEvent::Mouse(m) => {
                self.ws.on_mouse(m, |app, notice| {
                    super::view::screen_layout(app, app.view().screen, notice)
                });
                Effect::None
            }
            _ => Effect::None,
        };
        match effect {
            Effect::Reload => {
                self.reload();
                Flow::Continue
            }
            Effect::Write {
                files,
                file_endings,
            } => self.write(&files, file_endings),
            other => Flow::of(other),
        }
    }

    fn on_text(&mut self, text: Folded) -> Option<StreamState> {
        let changed = text.changes_text();
        if changed {
            // A later text ends an unreadable stretch.
            self.ws.set_unreadable(None);
        }
        if let Some(problem) = text.problem {
            self.ws.show_notice(Notice {
                text: problem,
                error: true,
            });
        }
        if let Some(why) = text.unreadable {
            self.ws.show_notice(Notice {
                text: format!("transcript unreadable: {why}"),
                error: true,
            });
            self.ws.set_unreadable(Some(why));
        }
        if changed || text.ended {
            if let Some(replaced) = text.replaced {
                self.text = replaced;
            }
            self.text.push_str(&text.appended);
            self.ended |= text.ended;
            self.reparse();
        }
        changed.then_some(self.ws.received().stream)
    }

    fn show_notice(&mut self, notice: Notice) {
        self.ws.show_notice(notice);
    }

    fn pause(&mut self) {
        self.ws.pause();
    }

    /// Only the file shown is diagnosed.
    fn idle_pending(&self) -> bool {
        self.ws.current_stale()
    }

    fn idle(&mut self) {
        self.ws.diagnose_current();
    }

    fn render(&mut self, frame: &mut Frame, theme: &Theme) {
        // A tab's caches go with the app they were made for.
        for (i, tab) in self.ws.tabs().iter().enumerate() {
            let fresh = || Caches::new(Arc::clone(&self.syntaxes), tab.app());
            match self.generations.get_mut(i) {
                Some(generation) if *generation == tab.generation() => {}
                Some(generation) => {
                    self.caches[i] = fresh();
                    *generation = tab.generation();
                }
                None => {
                    self.caches.push(fresh());
                    self.generations.push(tab.generation());
                }
            }
        }
        view::render_workspace(frame, &self.ws, &mut self.caches, theme);
    }
}

#[cfg(test)]
mod tests {
    use ratatui_crossterm::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

    use super::*;

    fn edit(file: &str) -> String {
        format!(
            "<replace_in_file>\n<path>{file}</path>\n<diff>\n------- SEARCH\none\n=======\nuno\n+++++++ REPLACE\n</diff>\n</replace_in_file>\n"
        )
    }

    fn files(dir: &std::path::Path) -> TranscriptFiles {
        for f in ["a.txt", "b.txt"] {
            std::fs::write(dir.join(f), "one\n").expect("write");
        }
        let config = TuiConfig {
            version: crate::engine::Version::V1,
            fix_model_output: false,
            final_mode: false,
            feed: super::super::Feed::Stdin,
        };
        TranscriptFiles::new(Paths::new(dir.to_path_buf(), false), &config)
    }

    /// Keys act on the tabs on screen; the text that comes after them adds
    /// a tab without moving the user off the one they are on.
    #[test]
    fn text_after_a_key_adds_a_tab() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut files = files(dir.path());
        let first = Folded {
            appended: edit("a.txt"),
            ..Folded::default()
        };
        assert_eq!(files.on_text(first), Some(StreamState::Streaming));
        assert_eq!(files.ws.tabs().len(), 1);
        let key =
            KeyEvent::new_with_kind(KeyCode::Char(']'), KeyModifiers::NONE, KeyEventKind::Press);
        assert_eq!(files.on_event(TermEvent::Key(key)), Flow::Continue);
        files.on_text(Folded {
            appended: edit("b.txt"),
            ..Folded::default()
        });
        assert_eq!(files.ws.tabs().len(), 2, "the text landed after the key");
        assert_eq!(files.ws.current(), 0, "`]` had no second tab to go to");
    }

    /// A problem and an unreadable transcript are said; neither is text.
    #[test]
    fn an_unreadable_transcript_is_said() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut files = files(dir.path());
        let unreadable = Folded {
            unreadable: Some("a NUL byte at 4".into()),
            ..Folded::default()
        };
        assert_eq!(files.on_text(unreadable), None, "no text came");
        assert_eq!(
            files.ws.notice(),
            &Some(Notice {
                text: "transcript unreadable: a NUL byte at 4".into(),
                error: true
            })
        );
    }

    /// A previewer over a.txt and b.txt in a new folder, given `text` as
    /// a whole transcript (ended).
    fn ended_with(text: &str) -> (tempfile::TempDir, TranscriptFiles) {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut files = files(dir.path());
        files.on_text(Folded {
            appended: text.into(),
            ended: true,
            ..Folded::default()
        });
        (dir, files)
    }

    fn press(files: &mut TranscriptFiles, c: char) -> Flow {
        let key =
            KeyEvent::new_with_kind(KeyCode::Char(c), KeyModifiers::NONE, KeyEventKind::Press);
        files.on_event(TermEvent::Key(key))
    }

    fn notice(files: &TranscriptFiles) -> String {
        crate::tui::app::Notice::text_of(files.ws.notice())
    }

    /// An apply_patch is written only as the reference takes it whole: not
    /// while it lacks its `*** End Patch` (whatever its hunks would do), not
    /// once the transcript turned unreadable; the patch's own doubts (here
    /// a pure addition that lands at the end of the file, not at its `@@`
    /// line) are asked about first.
    #[test]
    fn a_patch_is_written_whole_or_not_at_all() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut files = files(dir.path());
        let cut = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n";
        files.on_text(Folded {
            appended: cut.into(),
            ..Folded::default()
        });
        files.pause();
        assert_eq!(press(&mut files, 'A'), Flow::Continue);
        assert!(
            notice(&files).starts_with(
                "nothing written: the reference refuses the patch as it stands: Invalid patch"
            ),
            "{}",
            notice(&files)
        );
        files.on_text(Folded {
            appended: "*** End Patch\n".into(),
            unreadable: Some("invalid UTF-8 at byte 60".into()),
            ..Folded::default()
        });
        press(&mut files, 'A');
        assert_eq!(
            notice(&files),
            "nothing written: the transcript is unreadable: invalid UTF-8 at byte 60"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).expect("read"),
            "one\n"
        );

        let dir = tempfile::tempdir().expect("tempdir");
        let mut files = self::files(dir.path());
        std::fs::write(
            dir.path().join("a.txt"),
            "def f():\n    pass\n\ndef g():\n    pass\n",
        )
        .expect("write");
        let addition =
            "*** Begin Patch\n*** Update File: a.txt\n@@ def f():\n+    # f\n*** End Patch\n";
        files.on_text(Folded {
            appended: addition.into(),
            ended: true,
            ..Folded::default()
        });
        assert_eq!(press(&mut files, 'A'), Flow::Continue);
        assert!(
            notice(&files).ends_with("press A again to write anyway, Esc to cancel"),
            "{}",
            notice(&files)
        );
        assert_eq!(press(&mut files, 'A'), Flow::Exit(Exit::Quit(0)));
        assert!(
            std::fs::read_to_string(dir.path().join("a.txt"))
                .expect("read")
                .ends_with("    pass\n    # f\n")
        );
    }

    /// A Codex hunk matched only at a loose level holds `A` back as
    /// `apply --transcript --write` holds it (a tester's find, round 49
    /// T-05: `A` wrote both files at once, the unicode-level one's en dash
    /// rewritten); the `A` that answers writes the whole patch.
    #[test]
    fn a_loose_patch_hunk_is_asked_about_before_a_writes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut files = files(dir.path());
        let calc = "def label(lo, hi):\n    return f\"{lo} \u{2013} {hi}\"\n";
        std::fs::write(dir.path().join("calc.py"), calc).expect("write");
        std::fs::write(dir.path().join("other.py"), "x = 1\n").expect("write");
        let patch = "*** Begin Patch\n*** Update File: other.py\n@@\n-x = 1\n+x = 2\n\
                     *** Update File: calc.py\n@@\n def label(lo, hi):\n\
                     -    return f\"{lo} - {hi}\"\n+    return f\"{lo} - {hi}!\"\n*** End Patch\n";
        files.on_text(Folded {
            appended: patch.into(),
            ended: true,
            ..Folded::default()
        });
        assert_eq!(press(&mut files, 'A'), Flow::Continue);
        let asked = notice(&files);
        assert!(
            asked.starts_with("hunk 1 of calc.py matched the file only at level unicode"),
            "{asked}"
        );
        assert!(asked.ends_with("press A again to write anyway, Esc to cancel"));
        let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).expect("read");
        assert_eq!(
            (read("calc.py"), read("other.py")),
            (calc.into(), "x = 1\n".into())
        );
        assert_eq!(press(&mut files, 'A'), Flow::Exit(Exit::Quit(0)));
        assert_eq!(read("other.py"), "x = 2\n");
        assert!(read("calc.py").contains("{hi}!"));
    }

    /// A transcript that has ended with a call still open: that call never
    /// ran, so its file fails (as the headless command says), it does not
    /// stream forever.
    #[test]
    fn a_call_left_open_when_the_transcript_ends_fails() {
        let open =
            "<replace_in_file>\n<path>a.txt</path>\n<diff>\n------- SEARCH\none\n=======\nuno\n";
        let (dir, mut files) = ended_with(open);
        let edit = files.ws.edits().iter().find(|e| e.path == "a.txt");
        assert_eq!(edit.map(|e| e.state), Some(transcript::FileState::Failed));
        assert_eq!(press(&mut files, 'A'), Flow::Continue);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).expect("read"),
            "one\n"
        );
    }

    /// A patch's tabs show blocks of srview's making: `v` shows the patch
    /// as received, not those blocks.
    #[test]
    fn v_on_a_patchs_tab_shows_the_patch() {
        let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n*** End Patch\n";
        let (_dir, mut files) = ended_with(patch);
        assert_eq!(press(&mut files, 'v'), Flow::Continue);
        let app = files.ws.current_app().expect("a tab");
        assert!(app.view().raw);
        assert_eq!(app.raw_text(), patch);
        assert!(app.diff().contains("------- SEARCH"), "{}", app.diff());
    }

    /// A file the patch moves is refused for that reason, not as a file
    /// that cannot be read.
    #[test]
    fn a_moved_file_is_refused_as_moved() {
        let moving = "*** Begin Patch\n*** Update File: a.txt\n*** Move to: c.txt\n@@\n-one\n+uno\n*** End Patch\n";
        let (_dir, files) = ended_with(moving);
        let tab = files.ws.tabs().iter().find(|t| t.path() == "a.txt");
        assert_eq!(
            tab.map(|t| t.state_label()),
            Some("refused: deleted or moved")
        );
    }

    /// Quitting is a success once what was accepted was written.
    #[test]
    fn quitting_after_a_write_succeeds() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut files = files(dir.path());
        assert_eq!(files.exit_code(&Exit::Quit(0)), 1, "nothing written");
        files.on_text(Folded {
            appended: format!("{}{}", edit("a.txt"), edit("b.txt")),
            ended: true,
            ..Folded::default()
        });
        assert_eq!(files.write(&[0], false), Flow::Continue, "b.txt is left");
        assert_eq!(files.written(), ["a.txt"]);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).expect("read"),
            "uno\n"
        );
        assert_eq!(files.exit_code(&Exit::Quit(0)), 0);
        assert_eq!(files.exit_code(&Exit::Quit(130)), 130, "a signal");
    }
}
