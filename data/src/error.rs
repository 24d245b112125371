//! What can go wrong, said precisely enough that the host can answer the player.

use std::sync::Arc;

use crate::games::GameState;
use crate::tournaments::TournamentState;
use crate::{ChallengeId, GameId, PairingId, PlayerId, TournamentId};

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),

    #[error("PostgreSQL error: {}", postgres_detail(.0))]
    Postgres(#[from] postgres::Error),

    /// A statement of the transaction failed and the closure went on regardless; PostgreSQL had
    /// aborted the transaction, so it was rolled back.
    #[error("the transaction was rolled back: one of its statements failed (SQLSTATE {})", .code.code())]
    Aborted { code: postgres::error::SqlState },

    /// `sslmode` or `sslrootcert` cannot be used as given.
    #[error("PostgreSQL TLS settings: {0}")]
    PgTls(#[from] crate::pg_tls::TlsSetupError),

    #[error("no database connection: {0}")]
    Pool(String),

    #[error("cannot bring the database schema up to date: {0}")]
    Migration(#[from] rusqlite_migration::Error),

    #[error("the database has schema version {found}, newer than the {supported} this build knows: run a newer build")]
    SchemaTooNew { found: usize, supported: usize },

    #[error("column {column} of a row read from the database: {problem}")]
    Column { column: usize, problem: ColumnError },

    #[error("a statement that always returns a row returned none")]
    NoRow,

    /// The batch this write was committed with failed as a whole (see `AsyncStore`).
    #[error("the write was rolled back with its batch: {0}")]
    Batch(#[source] Arc<Error>),

    #[error("the store is closed")]
    Closed,

    #[error("{} cannot use write-ahead logging (its journal mode stays {mode})", path.display())]
    NoWal { path: std::path::PathBuf, mode: String },

    #[error("database integrity check failed: {0}")]
    Corrupt(String),

    #[error("{what} {id} does not exist")]
    NotFound { what: &'static str, id: i64 },

    #[error("channel {channel} on {platform} already has an active game ({game_id})")]
    ChannelBusy { platform: String, channel: String, game_id: GameId },

    #[error("game {game_id} has {actual} plies played, not the {expected} this change was made for")]
    PlyConflict { game_id: GameId, expected: u32, actual: u32 },

    #[error("game {game_id} is {state}, not active")]
    GameNotActive { game_id: GameId, state: GameState },

    #[error("cannot take back {requested} plies of game {game_id}: only {played} played")]
    TakebackTooFar { game_id: GameId, requested: u32, played: u32 },

    #[error("player {player} does not play in game {game_id}")]
    NotInGame { game_id: GameId, player: PlayerId },

    #[error("a rating update for game {game_id} names player {player} in {variant}, who is not rated by it")]
    RatingOutsideGame { game_id: GameId, player: PlayerId, variant: String },

    #[error("player {player}'s {variant} rating has {actual} games, the update was computed from {expected}")]
    RatingConflict { player: PlayerId, variant: String, expected: i64, actual: i64 },

    #[error("puzzle {puzzle}'s rating has {actual} attempts, the update was computed from {expected}")]
    PuzzleRatingConflict { puzzle: i64, expected: i64, actual: i64 },

    #[error("attempt {attempt} is still open in this channel")]
    AttemptOpen { attempt: i64 },

    #[error("challenge {challenge_id} expired at {expires_at}")]
    ChallengeExpired { challenge_id: ChallengeId, expires_at: i64 },

    #[error("player {player} cannot accept their own challenge {challenge_id}")]
    OwnChallenge { challenge_id: ChallengeId, player: PlayerId },

    #[error("challenge {challenge_id} is for player {challenged}, not {player}")]
    NotChallenged { challenge_id: ChallengeId, challenged: PlayerId, player: PlayerId },

    #[error("player {player} neither made nor received challenge {challenge_id}")]
    NotParty { challenge_id: ChallengeId, player: PlayerId },

    #[error("tournament {tournament_id} is {state}; this needs it {needed}")]
    TournamentState { tournament_id: TournamentId, state: TournamentState, needed: TournamentState },

    #[error("player {player} has already entered tournament {tournament_id}")]
    AlreadyEntered { tournament_id: TournamentId, player: PlayerId },

    #[error("player {player} has not entered tournament {tournament_id}")]
    NotEntrant { tournament_id: TournamentId, player: PlayerId },

    #[error("tournament {tournament_id} is due round {expected}, not round {number}")]
    RoundOutOfOrder { tournament_id: TournamentId, expected: u32, number: u32 },

    #[error("pairing {pairing_id} is not {white} (white) against {black} (black)")]
    PairingMismatch { pairing_id: PairingId, white: PlayerId, black: PlayerId },
}

/// Why a column's value could not be read as the type asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ColumnError {
    #[error("the row has no such column")]
    Missing,
    #[error("expected {expected}, found {found}")]
    Type { expected: &'static str, found: &'static str },
    #[error("{value} does not fit in {target}")]
    OutOfRange { value: i64, target: &'static str },
    #[error("the text is not UTF-8")]
    NotUtf8,
    #[error("values of PostgreSQL's type {0} are not read by this crate")]
    Unsupported(String),
    #[error("{0}")]
    Unreadable(String),
    #[error(transparent)]
    Unknown(#[from] UnknownText),
}

/// A PostgreSQL error with the server's own message and SQLSTATE when it has them (the
/// `Display` of `postgres::Error` alone says only "db error").
fn postgres_detail(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{} (SQLSTATE {})", db.message(), db.code().code()),
        // The cause says why ("connection refused", the certificate's fault), which the
        // error's own text ("error performing TLS handshake") leaves out.
        None => match std::error::Error::source(e) {
            Some(cause) => format!("{e}: {cause}"),
            None => e.to_string(),
        },
    }
}

/// Text read from the database (or given by a caller) that names no value of the enum it should.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a {kind}")]
pub struct UnknownText {
    pub kind: &'static str,
    pub text: String,
}
