//! A pseudo-terminal session with the real binary, its screen parsed by
//! vt100. Shared with `benches/previewer.rs` (`#[path]`), so it names no
//! sibling module.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

/// The terminal a session starts in.
pub struct Terminal<'a> {
    pub rows: u16,
    pub cols: u16,
    /// Extra environment for the program.
    pub env: &'a [(&'a str, &'a str)],
    /// Keep every byte written (for escape-sequence checks); a bench that
    /// draws thousands of frames turns it off.
    pub keep_raw: bool,
}

impl Default for Terminal<'_> {
    fn default() -> Self {
        Terminal {
            rows: 40,
            cols: 120,
            env: &[],
            keep_raw: true,
        }
    }
}

pub struct Session {
    screen: Arc<Mutex<vt100::Parser>>,
    /// Every byte the program wrote, for escape-sequence checks.
    pub raw: Arc<Mutex<Vec<u8>>>,
    writer: Box<dyn Write + Send>,
    master: Box<dyn portable_pty::MasterPty + Send>,
    pub child: Box<dyn portable_pty::Child + Send + Sync>,
}

impl Session {
    /// `srview ARGS` (the binary under test) in `dir`, on a 40x120 xterm.
    pub fn srview(dir: &Path, args: &[&str]) -> Session {
        Session::spawn(dir, env!("CARGO_BIN_EXE_srview"), args)
    }

    /// `srview ARGS` (the binary under test) in `dir`, on a 24x80 xterm
    /// (the smallest terminal the views are laid out for).
    pub fn srview_at_80x24(dir: &Path, args: &[&str]) -> Session {
        let term = Terminal {
            rows: 24,
            cols: 80,
            ..Terminal::default()
        };
        Session::spawn_in(dir, env!("CARGO_BIN_EXE_srview"), args, &term)
    }

    /// `program ARGS` in `dir`, on a 40x120 xterm.
    pub fn spawn(dir: &Path, program: &str, args: &[&str]) -> Session {
        Session::spawn_in(dir, program, args, &Terminal::default())
    }

    pub fn spawn_in(dir: &Path, program: &str, args: &[&str], term: &Terminal) -> Session {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: term.rows,
                cols: term.cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("openpty");
        let mut cmd = CommandBuilder::new(program);
        cmd.args(args);
        cmd.cwd(dir);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        for (key, value) in term.env {
            cmd.env(key, value);
        }
        let child = pty.slave.spawn_command(cmd).expect("spawn");
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().expect("reader");
        let writer = pty.master.take_writer().expect("writer");
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            std::num::NonZeroU16::new(term.rows).expect("rows"),
            std::num::NonZeroU16::new(term.cols).expect("cols"),
            0,
        )));
        let sink = Arc::clone(&screen);
        let raw = Arc::new(Mutex::new(Vec::new()));
        let raw_sink = term.keep_raw.then(|| Arc::clone(&raw));
        std::thread::spawn(move || {
            let mut buf = [0u8; 65536];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().expect("screen lock").process(&buf[..n]);
                if let Some(raw) = &raw_sink {
                    raw.lock().expect("raw lock").extend_from_slice(&buf[..n]);
                }
            }
        });
        Session {
            screen,
            raw,
            writer,
            master: pty.master,
            child,
        }
    }

    pub fn contents(&self) -> String {
        self.screen.lock().expect("screen lock").screen().contents()
    }

    /// Whether the screen, as parsed so far, satisfies `pred`.
    pub fn shows(&self, pred: impl Fn(&vt100::Screen) -> bool) -> bool {
        pred(self.screen.lock().expect("screen lock").screen())
    }

    pub fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if pred(&self.contents()) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("timed out waiting for {what}; screen:\n{}", self.contents());
    }

    /// [`Session::wait_for`] the screen to hold every one of `texts`.
    pub fn wait_for_all(&self, what: &str, texts: &[&str]) {
        self.wait_for(what, |c| texts.iter().all(|t| c.contains(t)));
    }

    /// The screen holds `text`; the failure shows the screen.
    #[track_caller]
    pub fn assert_shown(&self, text: &str) {
        let screen = self.contents();
        assert!(screen.contains(text), "{text:?} not shown:\n{screen}");
    }

    /// The screen does not hold `text`; the failure shows the screen.
    #[track_caller]
    pub fn assert_not_shown(&self, text: &str) {
        let screen = self.contents();
        assert!(!screen.contains(text), "{text:?} shown:\n{screen}");
    }

    pub fn press(&mut self, keys: &[u8]) {
        self.writer.write_all(keys).expect("write key");
        self.writer.flush().expect("flush");
    }

    pub fn exit_code(&mut self) -> u32 {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status.exit_code();
            }
            assert!(
                Instant::now() < deadline,
                "srview did not exit; screen:\n{}",
                self.contents()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// `q`: the program leaves with exit code 1 (nothing was written).
    pub fn quit(&mut self) {
        self.press(b"q");
        assert_eq!(self.exit_code(), 1, "q leaves with 1");
    }

    /// Quits an agent previewer with `q` (status 0), nothing on screen
    /// saying the agent and srview disagree (`DISAGREE`).
    pub fn quit_agreeing(&mut self) {
        let screen = self.contents();
        assert!(!screen.contains("DISAGREE"), "{screen}");
        self.press(b"q");
        assert_eq!(self.exit_code(), 0, "q leaves the agent previewer with 0");
    }

    /// Resizes the terminal (the program gets SIGWINCH).
    /// Resizes the parser first: the app may redraw at the new size as soon
    /// as the pty changes, and a redraw parsed at the old size is lost.
    pub fn resize(&self, rows: u16, cols: u16) {
        if let (Some(r), Some(c)) = (
            std::num::NonZeroU16::new(rows),
            std::num::NonZeroU16::new(cols),
        ) {
            self.screen.lock().expect("screen lock").set_size(r, c);
        }
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("resize");
    }

    pub fn raw_text(&self) -> String {
        String::from_utf8_lossy(&self.raw.lock().expect("raw lock")).into_owned()
    }

    pub fn pid(&self) -> u32 {
        self.child.process_id().expect("pid")
    }
}

/// Mouse reporting is switched off again after the last time it was on;
/// returns where it was last switched on in `raw`.
pub fn assert_mouse_released(raw: &str) -> usize {
    let last = |seq: &str, what: &str| raw.rfind(seq).unwrap_or_else(|| panic!("{what}"));
    let on = last("\u{1b}[?1000h", "mouse capture enabled on start");
    let off = last("\u{1b}[?1000l", "mouse capture disabled on exit");
    assert!(off > on, "mouse capture left on");
    on
}

/// Where the program last left the alternate screen in `raw` (what it
/// printed after that is on the user's terminal).
pub fn left_alternate_screen_at(raw: &str) -> usize {
    raw.rfind("\u{1b}[?1049l")
        .expect("left the alternate screen")
}
