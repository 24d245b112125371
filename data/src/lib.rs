//! Chimera's storage: every player, game, move, challenge, rating and tournament, in SQLite.
//!
//! The crate knows nothing of chat platforms beyond their names and ids, and nothing of chess
//! rules: variants are ids, positions are FEN, moves are coordinate text and SAN, all as the
//! rules crate writes them. All times are integer milliseconds since the Unix epoch ([`Millis`]),
//! and every change takes "now" from its caller, so tests own the clock.
//!
//! ```no_run
//! # fn main() -> data::Result<()> {
//! let mut store = data::Store::open(data::default_path())?;
//! let alice = store.write(|tx| tx.upsert_player("discord", "1001", "Alice", 0))?;
//! let found = store.read(|tx| tx.find_player("discord", "1001"))?;
//! assert_eq!(found.map(|p| p.id), Some(alice.id));
//! # Ok(())
//! # }
//! ```
//!
//! The rules that keep games whole are the database's own: a partial unique index allows one
//! active game per channel, and a move names the ply it expects and the request that made it, so
//! a stale or repeated move never lands twice (see [`WriteTx::append_move`]).
//!
//! # Durability
//!
//! The database runs in WAL mode with `synchronous = FULL`: a commit has reached the disk when
//! it returns, so a move the host has announced survives a power cut, not only a crash of the
//! process (`NORMAL` would lose the last commits with the machine). That costs one sync of the
//! log per commit, which on a slow disk caps one-commit-per-move at a few hundred moves a
//! second; [`AsyncStore`] recovers the throughput by committing the writes waiting at once
//! together (group commit) without weakening the promise. `benches/store.rs` measures both.

#[cfg(feature = "tokio")]
mod async_store;
mod challenges;
mod db;
mod error;
mod games;
mod meta;
mod moves;
mod offers;
mod players;
mod ratings;
mod text;
mod tournaments;

#[cfg(test)]
mod testing;

#[cfg(feature = "tokio")]
pub use async_store::AsyncStore;
pub use challenges::{Acceptance, Challenge, ColorChoice, NewChallenge};
pub use db::{default_path, ReadTx, Store, Synchronous, WriteTx, SCHEMA_VERSION};
pub use error::{Error, Result, UnknownText};
pub use games::{Color, Finish, Game, GameRecord, GameResult, GameState, NewGame, TimeControl};
pub use moves::{Appended, Move, NewMove};
pub use offers::{Offer, OfferKind, Proposal};
pub use players::Player;
pub use ratings::{Glicko, Rating, RatingUpdate};
pub use tournaments::{
    Entrant, Format, NewPairing, NewTournament, Pairing, PairingResult, Round, Tournament, TournamentState,
};

/// Milliseconds since the Unix epoch.
pub type Millis = i64;
pub type PlayerId = i64;
pub type GameId = i64;
pub type ChallengeId = i64;
pub type TournamentId = i64;
pub type RoundId = i64;
pub type PairingId = i64;
