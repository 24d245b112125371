//! The arbiter: bot-run tournaments as the host runs them, from sign-up to the prize table.
//!
//! The pairing and tie-break engines ([`crate::pairing`], [`crate::tiebreak`]) are pure; this
//! module keeps their decisions in the database and does what follows from them: it opens a
//! place (a thread) for each game, announces rounds, records results as games end, and pairs
//! the next round when the last game of one ends.
//!
//! Everything is recomputed from storage. [`rounds::advance`] looks at a tournament as stored
//! and does whatever is due (open the missing games, finish a complete round, pair the next one,
//! finish the event); it runs after every command that can end a game and on every tick, so a
//! restart, or a crash between two steps, loses nothing: the next tick picks up where it stopped.
//!
//! Rules the arbiter adds to the engines' (also in `help.md`, shown by `/help tournament`):
//! - Tournament games cannot be aborted (an abort would leave a pairing without a result).
//! - Withdrawal forfeits the withdrawn player's unfinished game to the opponent.
//! - Knockout: a drawn game is followed by a decider with colours reversed, in which a draw
//!   counts as a win for Black (Armageddon); the pairing records who went through. A timed
//!   decider gives White more time for it: White the full base time, Black four fifths of it
//!   (FIDE's usual 5 minutes against 4, scaled; the same increment), stored as the game's time
//!   odds (`clock::TimeControl::armageddon_bases`).
//! - A tournament whose start time comes with fewer than the players it needs is cancelled.
//! - A tournament whose games the network keeps refusing to open (Chimera lost its permissions)
//!   is paused after a bounded time of backing off, and its organiser told; `/tournament start`
//!   resumes it (`pause`).

mod commands;
mod event;
pub(crate) mod pause;
mod results;
mod rounds;
mod show;

pub(crate) use commands::handle;
pub(crate) use event::Event;
pub(crate) use results::settle;
pub(crate) use rounds::advance_all;
pub(crate) use show::{number, standings, standings_picture};
