//! Fixtures for the tests: a real database on each backend (a SQLite file in a temporary
//! directory, a fresh PostgreSQL schema), and the macros that run a test on both.

use tempfile::TempDir;

use crate::{ClockKind, GameId, Location, Millis, NewGame, NewMove, PlayerId, Store, TimeControl, WriteTx};

#[path = "testing/pg_schema.rs"]
pub mod pg_schema;

pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A database for one test, dropped (file or schema) with this value.
pub struct TestDb {
    location: Location,
    _keep: Keep,
}

enum Keep {
    Dir(#[allow(dead_code)] TempDir),
    Schema(#[allow(dead_code)] pg_schema::PgSchema),
}

impl TestDb {
    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("a temporary directory");
        TestDb { location: Location::Sqlite(dir.path().join("test.db")), _keep: Keep::Dir(dir) }
    }

    /// `None` when no PostgreSQL answers (see `pg_schema`).
    pub fn postgres() -> Option<TestDb> {
        let schema = pg_schema::PgSchema::fresh()?;
        Some(TestDb { location: Location::Postgres(schema.url.clone()), _keep: Keep::Schema(schema) })
    }

    pub fn location(&self) -> &Location {
        &self.location
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self.location, Location::Postgres(_))
    }

    /// A connection to it (each call a new one); the first migrates it.
    pub fn store(&self) -> Store {
        Store::open(&self.location).expect("the test database opens")
    }
}

/// Runs each named test, a `fn(&TestDb)`, on SQLite and on PostgreSQL: as `name::sqlite` and
/// `name::postgres`.
macro_rules! on_both_backends {
    ($($name:ident),+ $(,)?) => {
        $(
            mod $name {
                #[test]
                fn sqlite() {
                    super::$name(&$crate::testing::TestDb::sqlite());
                }

                #[test]
                fn postgres() {
                    if let Some(db) = $crate::testing::TestDb::postgres() {
                        super::$name(&db);
                    }
                }
            }
        )+
    };
}

/// [`on_both_backends!`] for `async fn(&TestDb)` tests.
macro_rules! on_both_backends_async {
    ($($name:ident),+ $(,)?) => {
        $(
            mod $name {
                #[test]
                fn sqlite() {
                    $crate::testing::runtime().block_on(super::$name(&$crate::testing::TestDb::sqlite()));
                }

                #[test]
                fn postgres() {
                    // Outside the runtime: the schema is made with the blocking client.
                    if let Some(db) = $crate::testing::TestDb::postgres() {
                        $crate::testing::runtime().block_on(super::$name(&db));
                    }
                }
            }
        )+
    };
}

pub(crate) use {on_both_backends, on_both_backends_async};

/// The runtime of an async test: two workers, as the host has on this machine.
#[cfg(feature = "tokio")]
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime")
}

/// Two players on the test platform: (white, black).
pub fn two_players(tx: &WriteTx<'_>) -> (PlayerId, PlayerId) {
    let white = tx.upsert_player("test", "white", "White", 0).unwrap().id;
    let black = tx.upsert_player("test", "black", "Black", 0).unwrap().id;
    (white, black)
}

pub fn new_game(channel: &str, white: PlayerId, black: PlayerId) -> NewGame {
    NewGame {
        platform: "test".into(),
        server: Some("server".into()),
        channel: channel.into(),
        variant: "chess".into(),
        white,
        black,
        start_fen: START.into(),
        time_control: Some(TimeControl { kind: ClockKind::Live, base_ms: 600_000, increment_ms: 5_000 }),
        time_odds: None,
        deadline: Some(600_000),
        rated: true,
    }
}

/// A store with one active game in channel `c1`: (store, game id, white, black).
pub fn store_with_game(db: &TestDb) -> (Store, GameId, PlayerId, PlayerId) {
    let mut store = db.store();
    let (game, white, black) = store
        .write(|tx| {
            let (white, black) = two_players(tx);
            Ok((tx.create_game(&new_game("c1", white, black), 0)?.id, white, black))
        })
        .unwrap();
    (store, game, white, black)
}

/// The move of ply `expected_ply + 1`, told apart from others by its texts and request id.
pub fn nth_move(expected_ply: u32, deadline: Option<Millis>) -> NewMove {
    let ply = expected_ply + 1;
    NewMove {
        expected_ply,
        coord: format!("m{ply}"),
        san: format!("M{ply}"),
        fen_after: format!("fen after {ply}"),
        time_used_ms: 1_000 + i64::from(ply),
        request_id: format!("request {ply}"),
        deadline,
        finish: None,
    }
}
