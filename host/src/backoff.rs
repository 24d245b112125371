//! Backing off from a chat network that refuses.
//!
//! A call the network refuses (401, 403) or answers "gone" (404) fails the same way every time
//! until a person acts: a bot kicked from a server, a channel where it lost "Create Public
//! Threads". Retried every tick, one stuck tournament alone would send Discord 600 invalid
//! requests in ten minutes, and Discord blocks a bot's address for every server after 10,000.
//! So each piece of work the host asks the network for ([`Work`]: a tournament's games, the
//! announcements of a channel) keeps its own failures here.
//!
//! # Guarantees
//!
//! - **Exponential, capped.** After a refused or gone answer the same work is not tried again
//!   for [`FIRST_DELAY_MS`], then twice as long after each further failure, at most
//!   [`MAX_DELAY_MS`] apart.
//! - **Bounded.** Once the work has failed permanently for [`GIVE_UP_MS`], [`Backoffs::failed`]
//!   says [`Verdict::GiveUp`]: the caller stops it (a tournament is paused and its organiser
//!   told; a channel's announcements are dropped). Ten minutes of a refusing network thus cost
//!   a piece of work at most a dozen requests.
//! - **Forgotten on success.** One call that works clears the work's record.
//!
//! Transient failures (timeouts, server errors) are not counted here: they are retried as each
//! caller retries them (the outbox's own attempts, a tournament's next tick).
//!
//! The record lives in the process: a restarted process tries once more before backing off
//! again, which bounds a crash loop's requests by its restarts.

use std::collections::HashMap;
use std::sync::Mutex;

use data::TournamentId;

use super::PlaceError;

/// The wait after the first refusal.
pub(crate) const FIRST_DELAY_MS: i64 = 2_000;

/// The longest wait between two tries.
pub(crate) const MAX_DELAY_MS: i64 = 2 * 60_000;

/// How long a piece of work may keep failing permanently before it is given up.
pub(crate) const GIVE_UP_MS: i64 = 5 * 60_000;

/// A piece of work the network may refuse.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Work {
    /// Opening the games of a tournament.
    Tournament(TournamentId),
    /// Posting announcements in a channel.
    Channel(String),
}

/// What to do after a failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Try again, not before this time (for a transient failure: whenever the caller retries).
    RetryAt(i64),
    /// The work has failed permanently for too long: stop it.
    GiveUp,
}

#[derive(Clone, Copy, Debug)]
struct Failing {
    /// When the first refused or gone answer of this run of failures came.
    since: i64,
    /// Refused or gone answers so far.
    refusals: u32,
    /// Not tried again before this.
    next_at: i64,
}

/// Every piece of work that is failing now, with its record.
#[derive(Default)]
pub(crate) struct Backoffs(Mutex<HashMap<Work, Failing>>);

impl Backoffs {
    /// Whether `work` may be tried at `now`.
    pub fn ready(&self, work: &Work, now: i64) -> bool {
        self.lock().get(work).is_none_or(|f| f.next_at <= now)
    }

    /// A call for `work` worked: its failures are forgotten.
    pub fn succeeded(&self, work: &Work) {
        self.lock().remove(work);
    }

    /// A call for `work` failed at `now` with `error`: when to try again, or to give up.
    pub fn failed(&self, work: &Work, now: i64, error: &PlaceError) -> Verdict {
        if !error.is_permanent() {
            return Verdict::RetryAt(now);
        }
        let mut failing = self.lock();
        let f = failing.entry(work.clone()).or_insert(Failing { since: now, refusals: 0, next_at: now });
        f.refusals += 1;
        if now - f.since >= GIVE_UP_MS {
            // Kept, a full wait ahead: what comes for the same work meanwhile (another
            // announcement for a channel that refused) is given up without a request.
            f.next_at = now + MAX_DELAY_MS;
            f.since = now - GIVE_UP_MS;
            return Verdict::GiveUp;
        }
        f.next_at = now + delay(f.refusals);
        Verdict::RetryAt(f.next_at)
    }

    /// Whether `work` was given up and its wait is not over: the caller gives up what comes for
    /// it without asking the network.
    pub fn given_up(&self, work: &Work, now: i64) -> bool {
        self.lock().get(work).is_some_and(|f| f.next_at > now && now - f.since >= GIVE_UP_MS)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Work, Failing>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The wait after the `refusals`-th refusal in a row: 2 s, 4 s, 8 s, ... at most two minutes.
fn delay(refusals: u32) -> i64 {
    let doublings = refusals.saturating_sub(1).min(20);
    (FIRST_DELAY_MS << doublings).min(MAX_DELAY_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_back_off_exponentially_up_to_a_cap_then_give_up() {
        let backoffs = Backoffs::default();
        let work = Work::Tournament(1);
        let refused = PlaceError::refused("403");
        let (mut now, mut tries) = (0, 0);
        let verdict = loop {
            if backoffs.ready(&work, now) {
                tries += 1;
                match backoffs.failed(&work, now, &refused) {
                    Verdict::GiveUp => break now,
                    Verdict::RetryAt(at) => assert!(at - now <= MAX_DELAY_MS && at > now),
                }
            }
            now += 1_000;
        };
        assert!((GIVE_UP_MS..GIVE_UP_MS + MAX_DELAY_MS).contains(&verdict), "given up at {verdict}");
        assert!(tries <= 12, "{tries} tries");
        assert!(backoffs.given_up(&work, now) && !backoffs.ready(&work, now));
        backoffs.succeeded(&work);
        assert!(backoffs.ready(&work, now) && !backoffs.given_up(&work, now));
    }

    #[test]
    fn transient_failures_are_left_to_the_caller() {
        let backoffs = Backoffs::default();
        let work = Work::Channel("c".into());
        assert_eq!(backoffs.failed(&work, 5, &PlaceError::from("timeout")), Verdict::RetryAt(5));
        assert!(backoffs.ready(&work, 5));
    }
}
