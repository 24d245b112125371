//! Fixtures for the tests: real database files in a temporary directory.

use tempfile::TempDir;

use crate::{GameId, Millis, NewGame, NewMove, PlayerId, Store, TimeControl, WriteTx};

pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A fresh store in its own directory (dropped with the directory).
pub fn temp_store() -> (TempDir, Store) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::open(dir.path().join("test.db")).expect("a new database opens");
    (dir, store)
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
        time_control: Some(TimeControl { base_ms: 600_000, increment_ms: 5_000 }),
        deadline: Some(600_000),
        rated: true,
    }
}

/// A store with one active game in channel `c1`: (dir, store, game id, white, black).
pub fn store_with_game() -> (TempDir, Store, GameId, PlayerId, PlayerId) {
    let (dir, mut store) = temp_store();
    let (game, white, black) = store
        .write(|tx| {
            let (white, black) = two_players(tx);
            Ok((tx.create_game(&new_game("c1", white, black), 0)?.id, white, black))
        })
        .unwrap();
    (dir, store, game, white, black)
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
