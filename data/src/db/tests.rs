use rusqlite::Connection;

use super::SCHEMA_VERSION;
use crate::pg::{self, PgConn};
use crate::testing::{new_game, on_both_backends, store_with_game, two_players, TestDb};
use crate::{ClockKind, Error, GameState, Location, Store, Synchronous, TimeControl};

/// A statement refused by one of the schema's own constraints, on either backend.
fn refused_by_schema(e: &Error) -> bool {
    match e {
        Error::Sqlite(e) => e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation),
        Error::Postgres(e) => e.code().is_some_and(|code| code.code().starts_with("23")),
        _ => false,
    }
}

#[test]
fn the_sqlite_migrations_are_valid() {
    crate::sqlite::migrations().validate().unwrap();
}

fn a_new_database_has_the_schema_version_of_this_build_and_is_sound(db: &TestDb) {
    let store = db.store();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    store.check_integrity().unwrap();
    // Opening again migrates nothing and keeps the version.
    assert_eq!(db.store().schema_version().unwrap(), SCHEMA_VERSION);
}

#[test]
fn a_new_sqlite_database_is_in_wal_mode_with_foreign_keys_and_full_sync() {
    let db = TestDb::sqlite();
    let store = db.store();
    let conn = store.sqlite_connection().unwrap();
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
}

/// Data as a database of `version` held it, written with that version's SQL (valid on both
/// backends: no explicit ids, so both number rows from 1).
fn seed(version: usize) -> String {
    let start = crate::testing::START;
    // From version 5 on, a time control names its kind.
    let (kind, live, correspondence) =
        if version >= 5 { (", clock_kind", ", 'live'", ", 'correspondence'") } else { ("", "", "") };
    let mut sql = String::new();
    if version >= 1 {
        sql += &format!(
            "INSERT INTO players (platform, user_id, display_name, created_at, updated_at)
                 VALUES ('discord', '11', 'Ann', 5, 5), ('discord', '22', 'Bob', 5, 5);
             INSERT INTO games (platform, server, channel, variant, white_id, black_id,
                 start_fen, state, base_ms, increment_ms, deadline, rated, created_at, updated_at{kind})
                 VALUES ('discord', 's', 'c', 'chess', 1, 2, '{start}', 'active', 60000, 0,
                     70000, TRUE, 10, 10{live});
             INSERT INTO moves (game_id, ply, coord, san, fen_after, time_used_ms, request_id,
                 played_at)
                 VALUES (1, 1, 'e2e4', 'e4', 'fen1', 300, 'r1', 20);
             INSERT INTO challenges (platform, channel, challenger_id, variant, color, rated,
                 created_at, expires_at)
                 VALUES ('discord', 'd', 1, 'golem', 'random', FALSE, 30, 90000);
             INSERT INTO challenges (platform, channel, challenger_id, variant, color, base_ms,
                 increment_ms, rated, created_at, expires_at{kind})
                 VALUES ('discord', 'e', 2, 'chess', 'white', 259200000, 0, TRUE, 30, 90000{correspondence});
             INSERT INTO ratings VALUES (1, 'chess', 1612.5, 80.0, 0.06, 12, 40);"
        );
    }
    if version >= 2 {
        sql += &format!(
            "INSERT INTO tournaments (platform, server, channel, organiser_id, name, variant,
                 format, rounds, base_ms, increment_ms, rated, starts_at, state, created_at,
                 updated_at{kind})
                 VALUES ('discord', 's', 'lobby', 1, 'Cup', 'chess', 'swiss', 3, 86400000, 0,
                     TRUE, 50, 'open', 40, 40{correspondence});"
        );
    }
    if version >= 3 {
        // The latest challenge (number 3) was answered: its number must not come back.
        sql += "INSERT INTO challenges (platform, channel, challenger_id, variant, color, rated,
                    created_at, expires_at)
                    VALUES ('discord', 'f', 1, 'chess', 'white', FALSE, 30, 90000);
                DELETE FROM challenges WHERE channel = 'f';";
    }
    if version >= 12 {
        // From version 12 on, the writer gives every game and tournament its web key.
        sql += "UPDATE games SET web_key = '00000000000000000000000' || id;
                UPDATE tournaments SET web_key = 'a0000000000000000000000' || id;";
    }
    if version >= 14 {
        // From version 14 on, a game's analysis is kept (here of a game still going: the
        // schema does not ask).
        sql += "INSERT INTO analyses (game_id, white_accuracy, black_accuracy, analysed_at)
                    VALUES (1, 55.5, NULL, 60);
                INSERT INTO analysis_plies (game_id, ply, centipawns) VALUES (1, 0, 20), (1, 1, -15);";
    }
    sql
}

/// A database left by a build of schema `version`, with its data.
fn old_database(db: &TestDb, version: usize) {
    match db.location() {
        Location::Sqlite(path) => {
            let mut conn = Connection::open(path).unwrap();
            conn.pragma_update(None, "foreign_keys", true).unwrap();
            crate::sqlite::migrations().to_version(&mut conn, version).unwrap();
            conn.execute_batch(&seed(version)).unwrap();
        }
        Location::Postgres(url) => {
            let conn = PgConn::connect(&pg::config(url).unwrap(), Synchronous::Full).unwrap();
            pg::migrate_to(&conn, version).unwrap();
            conn.batch(&seed(version)).unwrap();
        }
    }
}

fn every_earlier_version_migrates_to_the_latest_keeping_its_data(backend: &TestDb) {
    for version in 0..SCHEMA_VERSION {
        // A database of its own for each version, on the backend of this test.
        let db = if backend.is_postgres() { TestDb::postgres().unwrap() } else { TestDb::sqlite() };
        old_database(&db, version);

        let mut store = db.store();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION, "from version {version}");
        store.check_integrity().unwrap();
        if version >= 1 {
            store
                .read(|tx| {
                    let record = tx.active_game("discord", "c")?.expect("the old game");
                    assert_eq!(record.game.pairing, None, "old games belong to no tournament");
                    assert_eq!(record.moves[0].san, "e4");
                    assert_eq!(tx.rating(1, "chess")?.unwrap().games, 12);
                    assert_eq!(tx.challenges_of(1, 0)?.len(), 1);
                    // Version 5 names each time control's kind by the size rule of before.
                    let live = TimeControl { kind: ClockKind::Live, base_ms: 60_000, increment_ms: 0 };
                    assert_eq!(record.game.time_control, Some(live));
                    // Version 8: games written before have no time odds, both sides the base.
                    assert_eq!(record.game.time_odds, None);
                    let three_days =
                        TimeControl { kind: ClockKind::Correspondence, base_ms: 259_200_000, increment_ms: 0 };
                    assert_eq!(tx.challenges_of(2, 0)?[0].time_control, Some(three_days));
                    assert_eq!(tx.challenges_of(1, 0)?[0].time_control, None);
                    if version >= 2 {
                        let day = TimeControl { kind: ClockKind::Correspondence, base_ms: 86_400_000, increment_ms: 0 };
                        let cup = &tx.server_tournaments("discord", "s")?[0];
                        assert_eq!(cup.time_control, Some(day));
                        // Version 12: old tournaments get a page address too.
                        assert_eq!(tx.tournament_by_web_key(&cup.web_key)?.map(|t| t.id), Some(cup.id));
                    }
                    // Version 12: old games get a page address, and no place lists them yet.
                    let found = tx.game_by_web_key(&record.game.web_key)?;
                    assert_eq!(found.map(|g| g.id), Some(record.game.id), "from version {version}");
                    assert!(!tx.web_listing("discord", "s")?);
                    // Version 16: no place has a daily puzzle until its managers set one.
                    assert_eq!(tx.daily_puzzle("discord", "s")?, None);
                    // Version 17: games from before are no team games, with no votes.
                    assert_eq!(record.vote_window, None);
                    assert_eq!(tx.tally(record.game.id, 1)?, vec![]);
                    // Version 18: analyses from before read as judged by Chimera's engine.
                    if version >= 14 {
                        let kept = tx.analysis(record.game.id)?.expect("the old analysis");
                        assert_eq!(kept.judge, crate::Judge::Chimera, "from version {version}");
                        assert_eq!((kept.plies.len(), kept.accuracy), (2, [Some(55.5), None]));
                    }
                    Ok(())
                })
                .unwrap();
        }
        // The upgraded database takes every kind of write.
        let challenge = store
            .write(|tx| {
                let (white, black) = two_players(tx);
                let fresh = tx.create_game(&new_game("fresh", white, black), 100)?.id;
                // Version 17: a team game, and a vote in it.
                tx.make_team_game(fresh, 30_000)?;
                assert_eq!(tx.cast_vote(fresh, 0, black, "e2e4", "e4", 100)?.seq, 1);
                // Version 18: an analysis with the outside engine that judged it.
                let judge = crate::Judge::Outside { name: "Stockfish 16".into() };
                let analysis = crate::Analysis {
                    game: fresh,
                    plies: vec![crate::AnalysedPly { eval: crate::Eval::Centipawns(0), judgement: None, better: None }],
                    accuracy: [None, None],
                    judge: judge.clone(),
                    analysed_at: 100,
                };
                tx.save_analysis(&analysis)?;
                assert_eq!(tx.analysis(fresh)?.map(|a| a.judge), Some(judge));
                let new = crate::NewChallenge {
                    platform: "discord".into(),
                    server: None,
                    channel: "g".into(),
                    challenger: white,
                    challenged: None,
                    variant: "chess".into(),
                    color: crate::ColorChoice::White,
                    time_control: None,
                    rated: false,
                    expires_at: 90_000,
                };
                tx.create_challenge(&new, 100)
            })
            .unwrap();
        if version >= 3 {
            assert_eq!(challenge.id, 4, "from version {version}: numbers go on after the answered challenge 3");
        }
    }
}

fn a_database_from_a_newer_build_is_refused(db: &TestDb) {
    let store = db.store();
    let newer = SCHEMA_VERSION + 1;
    match db.location() {
        Location::Sqlite(path) => {
            Connection::open(path).unwrap().pragma_update(None, "user_version", newer as i64).unwrap();
        }
        Location::Postgres(_) => store.execute_raw(&format!("UPDATE chimera_schema SET version = {newer}")).unwrap(),
    }
    drop(store);
    let refused = Store::open(db.location()).err().expect("a newer schema is refused");
    assert!(
        matches!(refused, Error::SchemaTooNew { found, supported } if found == newer && supported == SCHEMA_VERSION)
    );
    assert_eq!(
        refused.to_string(),
        format!(
            "the database has schema version {newer}, newer than the {SCHEMA_VERSION} this build knows: run a newer build"
        )
    );
}

fn reopening_finds_everything_committed(db: &TestDb) {
    let (store, game, _, _) = store_with_game(db);
    drop(store);
    let record = db.store().read(|tx| tx.game_record(game)).unwrap();
    assert_eq!(record.game.state, GameState::Active);
}

fn the_schema_itself_refuses_a_second_active_game_in_a_channel(db: &TestDb) {
    let (store, game, _, _) = store_with_game(db);
    // Around the API, straight to SQL: the partial unique index is the last word.
    let copy = |state: &str, finished_at: &str| {
        store.execute_raw(&format!(
            "INSERT INTO games (platform, channel, variant, white_id, black_id, start_fen,
                 state, rated, created_at, updated_at, finished_at)
             SELECT platform, channel, variant, white_id, black_id, start_fen, '{state}', FALSE, 1, 1,
                 {finished_at}
             FROM games WHERE id = {game}"
        ))
    };
    let err = copy("active", "NULL").unwrap_err();
    assert!(refused_by_schema(&err), "{err}");
    // Ended games share the channel with the active one.
    copy("aborted", "1").unwrap();
}

fn the_schema_itself_refuses_a_time_control_without_its_kind(db: &TestDb) {
    let (store, game, _, _) = store_with_game(db);
    for kind in ["NULL", "'blitz'"] {
        let err = store.execute_raw(&format!("UPDATE games SET clock_kind = {kind} WHERE id = {game}")).unwrap_err();
        assert!(refused_by_schema(&err), "{kind}: {err}");
    }
}

fn the_schema_itself_refuses_half_time_odds_or_odds_without_a_clock(db: &TestDb) {
    let (store, game, _, _) = store_with_game(db);
    for set in [
        "white_base_ms = 600000",
        "black_base_ms = 480000",
        "white_base_ms = -1, black_base_ms = 480000",
        "white_base_ms = 600000, black_base_ms = 480000, base_ms = NULL, increment_ms = NULL, clock_kind = NULL",
    ] {
        let err = store.execute_raw(&format!("UPDATE games SET {set} WHERE id = {game}")).unwrap_err();
        assert!(refused_by_schema(&err), "{set}: {err}");
    }
    store
        .execute_raw(&format!("UPDATE games SET white_base_ms = 600000, black_base_ms = 480000 WHERE id = {game}"))
        .unwrap();
}

fn a_read_is_not_blocked_by_a_writer_and_sees_its_last_snapshot(db: &TestDb) {
    let (mut writer, _, _, _) = store_with_game(db);
    let reader = db.store();
    writer
        .write(|tx| {
            tx.upsert_player("test", "newcomer", "New", 1)?;
            // The writer holds its transaction open, uncommitted; the reader goes straight
            // through and does not see it.
            let seen = reader.read(|r| r.find_player("test", "newcomer"))?;
            assert_eq!(seen, None);
            assert!(reader.read(|r| r.active_game("test", "c1"))?.is_some());
            Ok(())
        })
        .unwrap();
    assert!(reader.read(|r| r.find_player("test", "newcomer")).unwrap().is_some());
}

#[test]
fn postgres_integrity_check_names_a_constraint_never_checked() {
    let Some(db) = TestDb::postgres() else { return };
    let store = db.store();
    store.execute_raw("ALTER TABLE games ADD CONSTRAINT no_blitz CHECK (base_ms > 60000) NOT VALID").unwrap();
    let err = store.check_integrity().unwrap_err();
    assert!(matches!(&err, Error::Corrupt(what) if what.contains("no_blitz of games")), "{err}");
}

on_both_backends!(
    a_new_database_has_the_schema_version_of_this_build_and_is_sound,
    every_earlier_version_migrates_to_the_latest_keeping_its_data,
    a_database_from_a_newer_build_is_refused,
    reopening_finds_everything_committed,
    the_schema_itself_refuses_a_second_active_game_in_a_channel,
    the_schema_itself_refuses_a_time_control_without_its_kind,
    the_schema_itself_refuses_half_time_odds_or_odds_without_a_clock,
    a_read_is_not_blocked_by_a_writer_and_sees_its_last_snapshot,
);
