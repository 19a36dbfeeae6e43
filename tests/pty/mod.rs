//! A pseudo-terminal session with the real binary, its screen parsed by vt100.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

pub struct Session {
    screen: Arc<Mutex<vt100::Parser>>,
    /// Every byte the program wrote, for escape-sequence checks.
    pub raw: Arc<Mutex<Vec<u8>>>,
    writer: Box<dyn Write + Send>,
    master: Box<dyn portable_pty::MasterPty + Send>,
    pub child: Box<dyn portable_pty::Child + Send + Sync>,
}

impl Session {
    pub fn spawn(dir: &Path, program: &str, args: &[&str]) -> Session {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: 40,
                cols: 120,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("openpty");
        let mut cmd = CommandBuilder::new(program);
        cmd.args(args);
        cmd.cwd(dir);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        let child = pty.slave.spawn_command(cmd).expect("spawn");
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().expect("reader");
        let writer = pty.master.take_writer().expect("writer");
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            std::num::NonZeroU16::new(40).expect("rows"),
            std::num::NonZeroU16::new(120).expect("cols"),
            0,
        )));
        let sink = Arc::clone(&screen);
        let raw = Arc::new(Mutex::new(Vec::new()));
        let raw_sink = Arc::clone(&raw);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().expect("screen lock").process(&buf[..n]);
                raw_sink
                    .lock()
                    .expect("raw lock")
                    .extend_from_slice(&buf[..n]);
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
