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
    /// Open or running tournaments one user may organise at once, over every server.
    pub tournaments_per_user: usize,
    /// Open or running tournaments one server (a Matrix room, the console) may have at once.
    pub tournaments_per_server: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            open_challenges: 5,
            games: 20,
            commands: 20,
            tournament_size: 128,
            engine_games: 2,
            analyses: 1,
            tournaments_per_user: 3,
            tournaments_per_server: 10,
        }
    }
}

/// The window the command rate is counted over.
pub const RATE_WINDOW_MS: i64 = 10_000;

/// Each user's latest commands, to refuse those over the rate.
#[derive(Default)]
pub(crate) struct Throttle {
    recent: Mutex<HashMap<(String, String), Recent>>,
}

/// One user's commands within the window, and when they were last told they are over the rate.
#[derive(Default)]
struct Recent {
    times: VecDeque<i64>,
    told: Option<i64>,
}

/// What the throttle says to one command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Admission {
    Admitted,
    /// Over the rate, and the first refusal of the window: the user is told.
    Refused,
    /// Over the rate, and already told within the window: a chat adapter that answers in the
    /// room leaves it unsaid, so that a flood gets one answer, not one per message.
    RefusedAgain,
}

impl Throttle {
    /// Counts a command of `user` at `now`, unless `limit` of theirs already fall within the
    /// window: then it is refused, and not counted (waiting always helps). Of the refusals, the
    /// first in any window is [`Admission::Refused`], the rest [`Admission::RefusedAgain`].
    pub fn admit(&self, platform: &str, user: &str, now: i64, limit: usize) -> Admission {
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        let user = recent.entry((platform.to_string(), user.to_string())).or_default();
        while user.times.front().is_some_and(|&t| t <= now - RATE_WINDOW_MS) {
            user.times.pop_front();
        }
        if user.times.len() < limit {
            user.times.push_back(now);
            return Admission::Admitted;
        }
        if user.told.is_some_and(|t| t > now - RATE_WINDOW_MS) {
            return Admission::RefusedAgain;
        }
        user.told = Some(now);
        Admission::Refused
    }

    /// Forgets users who have been quiet for a whole window, so memory follows the users of the
    /// last ten seconds, not everyone ever seen.
    pub fn forget_quiet(&self, now: i64) {
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        let recent_enough = |t: &i64| *t > now - RATE_WINDOW_MS;
        recent.retain(|_, user| {
            user.times.back().is_some_and(recent_enough) || user.told.is_some_and(|t| recent_enough(&t))
        });
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
        let admitted = |platform, user, now| throttle.admit(platform, user, now, 3) == Admission::Admitted;
        for i in 0..3 {
            assert!(admitted("discord", "flood", i * 100));
        }
        assert!(!admitted("discord", "flood", 500), "the fourth within ten seconds");
        assert!(admitted("discord", "calm", 500), "others are not slowed");
        assert!(admitted("matrix", "flood", 500), "the same id elsewhere is someone else");
        assert!(!admitted("discord", "flood", 9_999));
        assert!(admitted("discord", "flood", 10_000), "the first has left the window");
    }

    #[test]
    fn a_flood_is_told_once_a_window() {
        let throttle = Throttle::default();
        let admit = |now| throttle.admit("matrix", "flood", now, 2);
        assert_eq!((admit(0), admit(1)), (Admission::Admitted, Admission::Admitted));
        assert_eq!(admit(2), Admission::Refused, "the first refusal is said");
        for now in 3..200 {
            assert_eq!(admit(now), Admission::RefusedAgain, "the flood goes unanswered");
        }
        // The window slides on: two more get in, and the next refusal is more than a window
        // after the last one said, so it is said again.
        assert_eq!((admit(10_000), admit(10_001)), (Admission::Admitted, Admission::Admitted));
        assert_eq!(admit(10_002), Admission::Refused);
        assert_eq!(admit(10_003), Admission::RefusedAgain);
        // Within a window of the last refusal said, silence, even once the commands it refused
        // have left theirs; after it, the user is told again.
        assert_eq!((admit(20_001), admit(20_001)), (Admission::Admitted, Admission::Admitted));
        assert_eq!(admit(20_001), Admission::RefusedAgain, "told at 10,002, less than a window ago");
        assert_eq!(admit(20_003), Admission::Refused);
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
