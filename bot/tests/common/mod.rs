//! An in-process console over a host with a clock the test controls and a database of its own.

#![allow(dead_code)] // each test file uses its own part of the harness

use std::sync::Arc;

use chimera::console::Console;
use host::{Host, ManualClock, Message, Reply, Settings};
use tempfile::TempDir;

/// Some Tuesday in 2023, so clocks start far from zero.
pub const T0: i64 = 1_700_000_000_000;
pub const SECOND: i64 = 1_000;
pub const MINUTE: i64 = 60 * SECOND;
pub const HOUR: i64 = 60 * MINUTE;
pub const DAY: i64 = 24 * HOUR;

pub struct Harness {
    dir: TempDir,
    pub clock: ManualClock,
    console: Option<Console>,
    tweak: fn(&mut Settings),
}

impl Harness {
    pub async fn new() -> Harness {
        Harness::with_settings(|_| {}).await
    }

    /// A harness whose host has the test's settings changed by `tweak`.
    pub async fn with_settings(tweak: fn(&mut Settings)) -> Harness {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let clock = ManualClock::new(T0);
        let mut harness = Harness { dir, clock, console: None, tweak };
        harness.console = Some(harness.open().await);
        harness
    }

    async fn open(&self) -> Console {
        let mut settings = Settings::new(self.dir.path().join("chimera.db"), "console");
        settings.clock = Arc::new(self.clock.clone());
        settings.board_size = 320;
        (self.tweak)(&mut settings);
        Console::new(Host::open(settings).await.expect("the host opens"), "general")
    }

    fn console(&self) -> &Console {
        self.console.as_ref().expect("the host is running")
    }

    pub fn host(&self) -> &Host {
        self.console().host()
    }

    /// Stops the host, lets `down` pass, and starts a new one on the same database.
    pub async fn restart_after(&mut self, down: i64) {
        self.console = None;
        self.clock.advance(down);
        self.console = Some(self.open().await);
    }

    pub fn advance(&self, ms: i64) {
        self.clock.advance(ms);
    }

    pub async fn tick(&self) -> Vec<Message> {
        self.console().tick().await
    }

    /// Runs a console line (`alice: /move e4`).
    pub async fn say(&self, line: &str) -> Reply {
        self.console().line(line).await.expect("a command line").reply
    }

    /// Runs a line that must succeed; returns all its text.
    pub async fn ok(&self, line: &str) -> String {
        let reply = self.say(line).await;
        assert!(!reply.is_error(), "`{line}` failed: {}", text(&reply));
        text(&reply)
    }

    /// Runs a line that must fail, changing nothing; returns the error.
    pub async fn err(&self, line: &str) -> String {
        let reply = self.say(line).await;
        assert!(reply.is_error(), "`{line}` should have failed, but said: {}", text(&reply));
        text(&reply)
    }

    /// Challenges bob for alice (White) in `variant` with extra options, and accepts.
    pub async fn start(&self, variant: &str, options: &str) -> String {
        self.ok(&format!("alice: /challenge @bob variant:{variant} color:white {options}")).await;
        self.ok("bob: /accept").await
    }

    /// Plays moves in turn, alice (White) first.
    pub async fn play(&self, moves: &[&str]) -> String {
        let mut last = String::new();
        for (i, m) in moves.iter().enumerate() {
            let who = if i % 2 == 0 { "alice" } else { "bob" };
            last = self.ok(&format!("{who}: /move {m}")).await;
        }
        last
    }
}

/// All the text of a reply.
pub fn text(reply: &Reply) -> String {
    reply.messages.iter().map(|m| m.text.as_str()).collect::<Vec<_>>().join("\n")
}
