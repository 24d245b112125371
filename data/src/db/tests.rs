use rusqlite::Connection;

use super::{migrations, SCHEMA_VERSION};
use crate::testing::{new_game, store_with_game, temp_store, two_players, START};
use crate::{Error, GameState, Store};

#[test]
fn the_migrations_are_valid_and_their_count_is_the_schema_version() {
    migrations().validate().unwrap();
    let (_dir, store) = temp_store();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
}

#[test]
fn a_new_database_is_in_wal_mode_with_foreign_keys_and_full_sync() {
    let (_dir, store) = temp_store();
    let conn = store.connection();
    let pragma = |name: &str| -> String {
        conn.query_row(&format!("PRAGMA {name}"), [], |row| row.get::<_, rusqlite::types::Value>(0))
            .map(|value| match value {
                rusqlite::types::Value::Integer(i) => i.to_string(),
                rusqlite::types::Value::Text(t) => t,
                other => format!("{other:?}"),
            })
            .unwrap()
    };
    assert_eq!(pragma("journal_mode"), "wal");
    assert_eq!(pragma("foreign_keys"), "1");
    assert_eq!(pragma("synchronous"), "2", "2 is FULL");
    assert_eq!(pragma("busy_timeout"), "5000");
    store.check_integrity().unwrap();
}

/// Data as a database of `version` held it, written with that version's SQL.
fn seed(conn: &Connection, version: usize) {
    if version >= 1 {
        conn.execute_batch(&format!(
            "INSERT INTO players (id, platform, user_id, display_name, created_at, updated_at)
                 VALUES (1, 'discord', '11', 'Ann', 5, 5), (2, 'discord', '22', 'Bob', 5, 5);
             INSERT INTO games (id, platform, server, channel, variant, white_id, black_id,
                 start_fen, state, base_ms, increment_ms, deadline, rated, created_at, updated_at)
                 VALUES (7, 'discord', 's', 'c', 'chess', 1, 2, '{START}', 'active', 60000, 0,
                     70000, 1, 10, 10);
             INSERT INTO moves (game_id, ply, coord, san, fen_after, time_used_ms, request_id,
                 played_at)
                 VALUES (7, 1, 'e2e4', 'e4', 'fen1', 300, 'r1', 20);
             INSERT INTO challenges (platform, channel, challenger_id, variant, color, rated,
                 created_at, expires_at)
                 VALUES ('discord', 'd', 1, 'golem', 'random', 0, 30, 90000);
             INSERT INTO ratings VALUES (1, 'chess', 1612.5, 80.0, 0.06, 12, 40);"
        ))
        .unwrap();
    }
}

#[test]
fn every_earlier_version_migrates_to_the_latest_keeping_its_data() {
    for version in 0..SCHEMA_VERSION {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let mut conn = Connection::open(&path).unwrap();
            conn.pragma_update(None, "foreign_keys", true).unwrap();
            migrations().to_version(&mut conn, version).unwrap();
            seed(&conn, version);
        }

        let mut store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION, "from version {version}");
        store.check_integrity().unwrap();
        if version >= 1 {
            store
                .read(|tx| {
                    let record = tx.active_game("discord", "c")?.expect("the old game");
                    assert_eq!(record.game.id, 7);
                    assert_eq!(record.game.pairing, None, "old games belong to no tournament");
                    assert_eq!(record.moves[0].san, "e4");
                    assert_eq!(tx.rating(1, "chess")?.unwrap().games, 12);
                    assert_eq!(tx.challenges_of(1, 0)?.len(), 1);
                    Ok(())
                })
                .unwrap();
        }
        // The upgraded database takes every kind of write.
        store
            .write(|tx| {
                let (white, black) = two_players(tx);
                tx.create_game(&new_game("fresh", white, black), 100)?;
                Ok(())
            })
            .unwrap();
    }
}

#[test]
fn a_database_from_a_newer_build_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.db");
    Store::open(&path).unwrap();
    Connection::open(&path).unwrap().pragma_update(None, "user_version", SCHEMA_VERSION as i64 + 1).unwrap();
    assert!(matches!(Store::open(&path), Err(Error::Migration(_))));
}

#[test]
fn reopening_finds_everything_committed() {
    let (dir, store, game, _, _) = store_with_game();
    drop(store);
    let store = Store::open(dir.path().join("test.db")).unwrap();
    let record = store.read(|tx| tx.game_record(game)).unwrap();
    assert_eq!(record.game.state, GameState::Active);
}

#[test]
fn the_schema_itself_refuses_a_second_active_game_in_a_channel() {
    let (_dir, store, game, _, _) = store_with_game();
    // Around the API, straight to SQL: the partial unique index is the last word.
    let copy = |state: &str, finished_at: Option<i64>| {
        store.connection().execute(
            "INSERT INTO games (platform, channel, variant, white_id, black_id, start_fen,
                 state, rated, created_at, updated_at, finished_at)
             SELECT platform, channel, variant, white_id, black_id, start_fen, ?2, 0, 1, 1, ?3
             FROM games WHERE id = ?1",
            rusqlite::params![game, state, finished_at],
        )
    };
    let err = copy("active", None).unwrap_err();
    assert_eq!(err.sqlite_error_code(), Some(rusqlite::ErrorCode::ConstraintViolation));
    // Ended games share the channel with the active one.
    copy("aborted", Some(1)).unwrap();
}

#[test]
fn a_read_is_not_blocked_by_a_writer_holding_the_lock_and_sees_its_last_snapshot() {
    let (dir, mut writer, _, _, _) = store_with_game();
    let reader = Store::open(dir.path().join("test.db")).unwrap();
    writer
        .write(|tx| {
            tx.upsert_player("test", "newcomer", "New", 1)?;
            // The writer holds the write lock, uncommitted; the reader goes straight through.
            let seen = reader.read(|r| r.find_player("test", "newcomer"))?;
            assert_eq!(seen, None);
            assert!(reader.read(|r| r.active_game("test", "c1"))?.is_some());
            Ok(())
        })
        .unwrap();
    assert!(reader.read(|r| r.find_player("test", "newcomer")).unwrap().is_some());
}
