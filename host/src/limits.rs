//! Limits against abuse: how much one user may have going at once, and how fast they may ask.
//!
//! The numbers are the operator's (every one is in `.env.example`). Each refusal names the limit
//! and what to do instead, and changes nothing. The counts that storage holds (challenges,
//! games, entrants) are checked inside the transaction that would add one, so two commands at
//! once cannot both slip under a limit; the command rate is counted in memory, per process, and
//! costs nothing to anyone but the user who floods.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// How much one user may do.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Challenges one user may have open at once.
    pub open_challenges: usize,
    /// Games one user may be playing at once; tournament games are the organiser's and do not
    /// count.
    pub games: usize,
    /// Commands one user may give in any [`RATE_WINDOW_MS`].
    pub commands: usize,
    /// Players one tournament takes.
    pub tournament_size: usize,
    /// Games one user may play against Chimera at once (each costs the engine's threads).
    pub engine_games: usize,
    /// Analyses one user may have running at once.
    pub analyses: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { open_challenges: 5, games: 20, commands: 20, tournament_size: 128, engine_games: 2, analyses: 1 }
    }
}

/// The window the command rate is counted over.
pub const RATE_WINDOW_MS: i64 = 10_000;

/// Each user's latest commands, to refuse those over the rate.
#[derive(Default)]
pub(crate) struct Throttle {
    recent: Mutex<HashMap<(String, String), VecDeque<i64>>>,
}

impl Throttle {
    /// Counts a command of `user` at `now`, unless `limit` of theirs already fall within the
    /// window: then it is refused, and not counted (waiting always helps).
    pub fn admit(&self, platform: &str, user: &str, now: i64, limit: usize) -> bool {
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        let times = recent.entry((platform.to_string(), user.to_string())).or_default();
        while times.front().is_some_and(|&t| t <= now - RATE_WINDOW_MS) {
            times.pop_front();
        }
        if times.len() >= limit {
            return false;
        }
        times.push_back(now);
        true
    }

    /// Forgets users who have been quiet for a whole window, so memory follows the users of the
    /// last ten seconds, not everyone ever seen.
    pub fn forget_quiet(&self, now: i64) {
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        recent.retain(|_, times| times.back().is_some_and(|&t| t > now - RATE_WINDOW_MS));
    }

    #[cfg(test)]
    fn users(&self) -> usize {
        self.recent.lock().map_or(0, |r| r.len())
    }
}

/// The refusal for a user over the command rate.
pub(crate) fn too_fast(limit: usize) -> String {
    format!(
        "You are sending commands faster than Chimera takes them: at most {limit} every {} seconds. \
         Wait a few seconds, then try again.",
        RATE_WINDOW_MS / 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_is_per_user_and_the_window_slides() {
        let throttle = Throttle::default();
        for i in 0..3 {
            assert!(throttle.admit("discord", "flood", i * 100, 3));
        }
        assert!(!throttle.admit("discord", "flood", 500, 3), "the fourth within ten seconds");
        assert!(throttle.admit("discord", "calm", 500, 3), "others are not slowed");
        assert!(throttle.admit("matrix", "flood", 500, 3), "the same id elsewhere is someone else");
        assert!(!throttle.admit("discord", "flood", 9_999, 3));
        assert!(throttle.admit("discord", "flood", 10_000, 3), "the first has left the window");
    }

    #[test]
    fn quiet_users_are_forgotten() {
        let throttle = Throttle::default();
        throttle.admit("console", "a", 0, 5);
        throttle.admit("console", "b", 5_000, 5);
        throttle.forget_quiet(12_000);
        assert_eq!(throttle.users(), 1);
        throttle.forget_quiet(16_000);
        assert_eq!(throttle.users(), 0);
    }
}
