//! `chimera uci`: the engine's UCI session ([`engine::uci`]) on standard input and output. The
//! protocol is the engine's; this is the wiring: lines from standard input, each search on a
//! thread of its own (so `stop` and `isready` are heard while it thinks), every line out through
//! one [`Output`].
//!
//! [`Driver`] is that wiring without the terminal, so the fuzz checks drive it in-process with
//! its threads.

use std::io::BufRead;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;
pub use engine::uci::{Caps, State};
use engine::uci::{Reply, Session};

/// Where a session's lines go: standard output in `chimera uci`, a buffer in tests. The search
/// threads write through it too, so it is shared.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// A UCI session whose searches run on threads of their own.
pub struct Driver {
    session: Session,
    out: Output,
}

impl Driver {
    /// A session writing its lines to `out`, within `caps`.
    pub fn new(out: Output, caps: Caps) -> Driver {
        Driver { session: Session::new(caps), out }
    }

    /// The settings and the game, as the next `go` would use them.
    pub fn state(&self) -> State {
        self.session.state()
    }

    /// Handles one line; `false` for `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let Reply { lines, search, quit } = self.session.handle(line);
        self.say(&lines);
        if let Some(search) = search {
            let out = self.out.clone();
            let started =
                std::thread::Builder::new().name("uci-search".into()).spawn(move || search.run(&mut |line| out(line)));
            // The search was dropped with the thread that could not start: the session hears
            // of it, and the GUI learns why no `bestmove` comes.
            if let Err(e) = started {
                (self.out)(&format!("info string error: cannot start the search thread: {e}"));
            }
        }
        !quit
    }

    /// The end of input: a finite search runs to its end and prints its move (a GUI piping a
    /// script expects it); `go infinite` is released as by `stop`.
    pub fn end_of_input(&mut self) {
        let lines = self.session.end_of_input();
        self.say(&lines);
    }

    fn say(&self, lines: &[String]) {
        lines.iter().for_each(|line| (self.out)(line));
    }
}

/// Runs the UCI loop on standard input and output until `quit` or the end of input.
pub fn run() -> Result<ExitCode> {
    let mut driver = Driver::new(Arc::new(|line: &str| println!("{line}")), Caps::default());
    for line in std::io::stdin().lock().lines() {
        if !driver.handle(&line?) {
            return Ok(ExitCode::SUCCESS);
        }
    }
    driver.end_of_input();
    Ok(ExitCode::SUCCESS)
}
