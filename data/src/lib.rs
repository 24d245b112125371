//! Chimera's storage: every player, game, move, challenge, rating and tournament, in SQLite
//! (one process, nothing to install) or PostgreSQL (several processes on several machines).
//!
//! The crate knows nothing of chat platforms beyond their names and ids, and nothing of chess
//! rules: variants are ids, positions are FEN, moves are coordinate text and SAN, all as the
//! rules crate writes them. All times are integer milliseconds since the Unix epoch ([`Millis`]),
//! and every change takes "now" from its caller, so tests own the clock.
//!
//! ```no_run
//! # fn main() -> data::Result<()> {
//! // A path opens SQLite; a `postgres://` URL opens PostgreSQL (see `Location`).
//! let mut store = data::Store::open(data::default_path())?;
//! let alice = store.write(|tx| tx.upsert_player("discord", "1001", "Alice", 0))?;
//! let found = store.read(|tx| tx.find_player("discord", "1001"))?;
//! assert_eq!(found.map(|p| p.id), Some(alice.id));
//! # Ok(())
//! # }
//! ```
//!
//! Both backends have the same schema, migrated at opening to [`SCHEMA_VERSION`] (a database of
//! a newer version is refused), and the same guarantees. The rules that keep games whole are the
//! database's own: a partial unique index allows one active game per channel, and a move names
//! the ply it expects and the request that made it, so a stale or repeated move never lands
//! twice (see [`WriteTx::append_move`]). A game's end and its rating updates commit together,
//! and every check a write makes (is the game active, is this pairing still without a game)
//! holds until its commit: SQLite has one writer at a time, and PostgreSQL runs every write
//! `SERIALIZABLE` and runs it again when it conflicts with another, so a write's closure is
//! `Fn` and must do nothing but its queries.
//!
//! # Durability
//!
//! A commit has reached the disk when it returns ([`Synchronous::Full`]), so a move the host has
//! announced survives a power cut, not only a crash of the process. SQLite runs in WAL mode with
//! `synchronous = FULL`, which costs one sync of the log per commit and on a slow disk caps
//! one-commit-per-move at a few hundred moves a second; [`AsyncStore`] recovers the throughput
//! by committing the writes waiting at once together (group commit) without weakening the
//! promise. PostgreSQL runs with `synchronous_commit = on` and groups concurrent commits itself.
//! `benches/store.rs` measures both backends.
//!
//! # Several processes
//!
//! On PostgreSQL several processes (Discord shards split across machines, a Matrix process
//! beside them) may share one database; every guarantee above holds between them. Scheduled
//! work must then be done by one process each, which these primitives provide, each inside the
//! caller's write transaction so that a process dying mid-step leaves nothing half done (its
//! transaction rolls back, and its locks and claims go with it):
//!
//! - **Due clocks**: [`WriteTx::claim_overdue_games`] returns up to `limit` overdue games and,
//!   on PostgreSQL, locks them until the commit while every other process's claim skips them
//!   (`FOR UPDATE SKIP LOCKED`). End each in the same transaction; announce after the commit.
//! - **Expired challenges**: [`WriteTx::claim_expired_challenges`], the same way (it deletes
//!   what it returns).
//! - **Reminders**: [`WriteTx::claim_reminder`] is `true` for one process per game and deadline.
//! - **Vote windows** of team games: a window is resolved by appending its move
//!   ([`WriteTx::append_move`], which names the ply it follows) in the transaction that claims
//!   the game as overdue, so it is resolved once; a vote names its window's ply too
//!   ([`WriteTx::cast_vote`]), so none counts for a window it was not cast in.
//! - **Daily puzzles**: [`WriteTx::claim_daily_post`] is `true` for one process per place and
//!   UTC day; queue the post in the same transaction.
//! - **Announcements** (the outbox): [`WriteTx::queue_post`] in the transaction that makes an
//!   announcement true, held by the writer while it posts; [`WriteTx::claim_posts`] gives the
//!   writer its own and anyone the posts whose hold ran out; [`WriteTx::delete_post`] once posted.
//! - **Puzzle scans** (a game's scan runs for seconds to minutes between transactions):
//!   [`WriteTx::claim_game_to_scan`] leases the earliest game not yet scanned to its caller
//!   until an expiry, passing over games another holder's live claim holds;
//!   [`WriteTx::renew_scan_claim`] extends it, and [`WriteTx::record_scan`] ends it. A holder
//!   that dies holds its game until the claim expires; then anyone's claim takes it.
//! - **Tournament steps** (which open places on the chat platform between their transactions):
//!   a lease per tournament, [`WriteTx::acquire_lease`] before the step and
//!   [`WriteTx::release_lease`] after, with an expiry longer than a step takes. A holder that dies
//!   gives the lease up when it expires, and the next process finishes the step: each of its
//!   transactions re-checks what it changes, so what the dead one committed is not done twice.
//!
//! A scheduler tick of one process is then:
//!
//! ```no_run
//! # async fn tick(store: &data::AsyncStore, me: &'static str, now: data::Millis) -> data::Result<()> {
//! let ended = store
//!     .write(move |tx| {
//!         let mut ended = Vec::new();
//!         for game in tx.claim_overdue_games("discord", now, 64)? {
//!             // The host computes the result and the rating updates, as it does today.
//!             let finish = data::Finish { result: data::GameResult::Draw, reason: "time".into(), ratings: vec![] };
//!             ended.push(tx.finish_game(game.id, &finish, now)?);
//!         }
//!         Ok(ended)
//!     })
//!     .await?;
//! // ... announce `ended` ...
//! for t in store.read(|tx| tx.live_tournaments("discord")).await? {
//!     let lease = format!("tournament:{}", t.id);
//!     let name = lease.clone();
//!     if store.write(move |tx| tx.acquire_lease(&name, me, now, now + 60_000)).await?.is_some() {
//!         // ... the tournament's step, as today ...
//!         store.write(move |tx| tx.release_lease(&lease, me)).await?;
//!     }
//! }
//! # Ok(())
//! # }
//! ```
//!
//! SQLite keeps one process: the same calls work there (the one writer is alone), so the host
//! needs no second code path.

mod analyses;
#[cfg(feature = "tokio")]
mod async_store;
mod backup;
mod challenges;
mod daily;
mod db;
mod error;
mod games;
mod leases;
mod ledger;
mod location;
mod meta;
mod moves;
mod offers;
mod outbox;
mod pauses;
mod pg;
mod pg_tls;
mod players;
mod puzzles;
mod ratings;
mod sql;
mod sqlite;
mod teams;
mod text;
mod tournaments;
mod user_settings;
mod web;

#[cfg(test)]
mod testing;

pub use analyses::{AnalysedPly, Analysis, Eval, Judge, Judgement};
#[cfg(feature = "tokio")]
pub use async_store::AsyncStore;
pub use backup::{backup, BackupError, BackupSummary};
pub use challenges::{Acceptance, Challenge, ColorChoice, NewChallenge};
pub use daily::{DailyPost, DailyPuzzle, Day, NotATimeOfDay, TimeOfDay};
pub use db::{default_path, ReadTx, Store, Synchronous, WriteTx, SCHEMA_VERSION};
pub use error::{ColumnError, Error, Result, UnknownText};
pub use games::{ClockKind, Color, Finish, Game, GameRecord, GameResult, GameState, NewGame, TimeControl, TimeOdds};
pub use leases::Lease;
pub use ledger::ReactionButton;
pub use location::{Location, LocationError};
pub use moves::{Appended, Move, NewMove};
pub use offers::{Offer, OfferKind, Proposal};
pub use outbox::{Post, PostId};
pub use pauses::{Pause, PauseReason};
pub use pg_tls::{HandshakeError, SslMode, TlsSetupError};
pub use players::Player;
pub use puzzles::{
    Attempt, AttemptEnd, AttemptId, AttemptState, NewPuzzle, Puzzle, PuzzleId, PuzzlePlace, PuzzleRating,
    PuzzleRatingUpdate, ScanTotals,
};
pub use ratings::{Glicko, Rating, RatingUpdate};
pub use teams::{Tally, Vote};
pub use tournaments::{
    Entrant, Format, NewPairing, NewTournament, Pairing, PairingResult, Round, Tournament, TournamentState,
};
pub use user_settings::{Bottom, QuietHours, TurnNotice, UserSettings};
pub use web::{NotAWebKey, WebKey};

/// Milliseconds since the Unix epoch.
pub type Millis = i64;
pub type PlayerId = i64;
pub type GameId = i64;
pub type ChallengeId = i64;
pub type TournamentId = i64;
pub type RoundId = i64;
pub type PairingId = i64;
