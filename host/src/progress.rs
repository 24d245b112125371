//! How far a long command has got, for the adapter to show while its reply is not ready yet
//! (on Discord an edited deferred answer, on Matrix an edited notice).
//!
//! The host reports it through [`crate::Places::progress`], which returns at once: the adapter
//! keeps the newest and shows it at its network's pace, so a report never waits on a network
//! and reports in between may be dropped.
//!
//! # Guarantees
//!
//! - A [`Progress`] has `done <= total` and `total >= 1`, so [`Progress::percent`] is 0 to 100.
//! - To one request, the host reports one task's progress, never going back.
//! - A request whose analysis succeeds, whether it ran it or joined it, is told of its
//!   completion (`done == total`) before its reply.

use std::fmt;

use data::GameId;

/// What the host is working on for the request.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Task {
    /// `/analyse`: the engine searches every position of the game.
    Analysis { game: GameId },
}

/// How far a [`Task`] has got: `done` of its `total` steps (an analysis: positions searched).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Progress {
    task: Task,
    done: u32,
    total: u32,
}

impl Progress {
    /// `done` steps of `total`; `total` is at least 1 and `done` at most `total`, whatever is
    /// given.
    pub fn new(task: Task, done: u32, total: u32) -> Progress {
        let total = total.max(1);
        Progress { task, done: done.min(total), total }
    }

    pub fn task(&self) -> Task {
        self.task
    }

    pub fn done(&self) -> u32 {
        self.done
    }

    pub fn total(&self) -> u32 {
        self.total
    }

    /// Whole percent done, rounded down: 100 only once every step is done.
    pub fn percent(&self) -> u8 {
        (u64::from(self.done) * 100 / u64::from(self.total)) as u8
    }

    pub fn is_complete(&self) -> bool {
        self.done == self.total
    }
}

/// What the chat shows: `Analysing game 12… 40%`, and once complete `Analysed game 12.`
impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.task, self.is_complete()) {
            (Task::Analysis { game }, false) => write!(f, "Analysing game {game}… {}%", self.percent()),
            (Task::Analysis { game }, true) => write!(f, "Analysed game {game}."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_rounds_down_and_reaches_100_only_when_done() {
        let of = |done, total| Progress::new(Task::Analysis { game: 12 }, done, total);
        assert_eq!(of(0, 61).percent(), 0);
        assert_eq!(of(60, 61).percent(), 98);
        assert_eq!(of(61, 61).percent(), 100);
        assert_eq!(of(9, 3), of(3, 3), "done is at most total");
        assert_eq!(of(0, 0).total(), 1);
        assert_eq!(of(2, 5).to_string(), "Analysing game 12… 40%");
        assert_eq!(of(5, 5).to_string(), "Analysed game 12.");
    }
}
