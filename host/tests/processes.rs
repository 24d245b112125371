//! Several hosts sharing one database, as several processes of one deployment do: each due
//! clock ends its game once and each reminder is sent once whoever ticks, and a host starting
//! beside a live one moves no clock on. On SQLite and, where one answers, on PostgreSQL (see
//! `pg_schema.rs`: skipped with one line without a server, a failure under `CI=true`).

mod common;

use std::sync::Arc;

use common::{Answer, Rooms, DAY, HOUR, MINUTE, T0};
use data::Location;
use host::{Host, ManualClock, Settings};

#[path = "../../data/src/testing/pg_schema.rs"]
#[allow(dead_code)]
mod pg_schema;

/// A database for one test: a SQLite file, or a fresh PostgreSQL schema.
enum Db {
    Sqlite(tempfile::TempDir),
    Postgres(pg_schema::PgSchema),
}

impl Db {
    fn location(&self) -> String {
        match self {
            Db::Sqlite(dir) => dir.path().join("chimera.db").display().to_string(),
            Db::Postgres(schema) => schema.url.clone(),
        }
    }

    /// SQLite, and PostgreSQL where one answers.
    fn both() -> Vec<Db> {
        let mut dbs = vec![Db::Sqlite(tempfile::tempdir().unwrap())];
        dbs.extend(pg_schema::PgSchema::fresh().map(Db::Postgres));
        dbs
    }
}

/// Runs one test's scenario on a runtime of its own, outside which the databases are made and
/// dropped (the PostgreSQL client blocks, which a runtime's thread must not).
fn run(scenario: impl std::future::Future<Output = ()>) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(scenario);
}

/// Writes `n` chess games at the start position, White to move, with `time` and `deadline`.
fn games(db: &Db, n: usize, time: data::TimeControl, deadline: i64) -> Vec<data::GameId> {
    tokio::task::block_in_place(|| write_games(db, n, time, deadline))
}

fn write_games(db: &Db, n: usize, time: data::TimeControl, deadline: i64) -> Vec<data::GameId> {
    let mut store = data::Store::open(Location::parse(&db.location()).unwrap()).unwrap();
    store
        .write(|tx| {
            (0..n)
                .map(|i| {
                    let white = tx.upsert_player("console", &format!("w{i}"), &format!("w{i}"), T0)?.id;
                    let black = tx.upsert_player("console", &format!("b{i}"), &format!("b{i}"), T0)?.id;
                    let new = data::NewGame {
                        platform: "console".into(),
                        server: None,
                        channel: format!("table-{i}"),
                        variant: "chess".into(),
                        white,
                        black,
                        start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
                        time_control: Some(time),
                        time_odds: None,
                        deadline: Some(deadline),
                        rated: false,
                    };
                    Ok(tx.create_game(&new, T0)?.id)
                })
                .collect()
        })
        .unwrap()
}

async fn open(db: &Db, clock: &ManualClock) -> Host {
    let mut settings = Settings::new(Location::parse(&db.location()).unwrap(), "console");
    settings.clock = Arc::new(clock.clone());
    Host::open(settings).await.unwrap()
}

/// Reads straight from the database (on a thread allowed to block).
fn read<R>(db: &Db, f: impl FnOnce(&data::ReadTx<'_>) -> data::Result<R>) -> R {
    tokio::task::block_in_place(|| {
        data::Store::open(Location::parse(&db.location()).unwrap()).unwrap().read(f).unwrap()
    })
}

#[test]
fn two_hosts_ticking_together_end_each_overdue_game_once() {
    for db in Db::both() {
        run(async {
            let network = Rooms::default();
            let live = data::TimeControl { kind: data::ClockKind::Live, base_ms: 5 * MINUTE, increment_ms: 0 };
            let ids = games(&db, 150, live, T0 + 5 * MINUTE);
            let clock = ManualClock::new(T0);
            let (a, b) = (open(&db, &clock).await, open(&db, &clock).await);
            clock.advance(6 * MINUTE);
            let (said_a, said_b) = tokio::join!(a.tick(&network), b.tick(&network));
            let mut said: Vec<String> = said_a.iter().chain(&said_b).map(|m| m.text.clone()).collect();
            said.sort();
            assert_eq!(said.len(), ids.len(), "one announcement per game: {} and {}", said_a.len(), said_b.len());
            assert!(said.iter().all(|text| text.contains("ran out of time")), "{said:?}");
            for id in ids {
                let game = read(&db, |tx| tx.game(id));
                assert_eq!((game.state, game.reason.as_deref()), (data::GameState::Finished, Some("time")));
            }
            assert!(a.tick(&network).await.is_empty() && b.tick(&network).await.is_empty(), "nothing twice");
        });
    }
}

#[test]
fn two_hosts_ticking_together_remind_each_player_once() {
    for db in Db::both() {
        run(async {
            let network = Rooms::default();
            let days = data::TimeControl { kind: data::ClockKind::Correspondence, base_ms: 3 * DAY, increment_ms: 0 };
            let ids = games(&db, 40, days, T0 + 3 * DAY);
            let clock = ManualClock::new(T0);
            let (a, b) = (open(&db, &clock).await, open(&db, &clock).await);
            // 23 hours left: inside the reminder window (a day at most).
            clock.advance(2 * DAY + HOUR);
            let (said_a, said_b) = tokio::join!(a.tick(&network), b.tick(&network));
            let reminders: Vec<&host::Message> =
                said_a.iter().chain(&said_b).filter(|m| m.text.starts_with("Reminder:")).collect();
            assert_eq!(reminders.len(), ids.len(), "one reminder per game: {} and {}", said_a.len(), said_b.len());
            let mut channels: Vec<_> = reminders.iter().map(|m| m.channel.clone()).collect();
            channels.sort();
            channels.dedup();
            assert_eq!(channels.len(), ids.len(), "no game reminded twice");
            assert!(a.tick(&network).await.is_empty() && b.tick(&network).await.is_empty(), "nothing twice");
        });
    }
}

#[test]
fn a_host_starting_beside_a_live_one_moves_no_clock_and_after_an_outage_moves_them_all() {
    for db in Db::both() {
        run(async {
            let live = data::TimeControl { kind: data::ClockKind::Live, base_ms: 5 * MINUTE, increment_ms: 0 };
            let id = games(&db, 1, live, T0 + 5 * MINUTE)[0];
            let clock = ManualClock::new(T0);
            let first = open(&db, &clock).await;
            // The first host is alive (its heartbeat 4 s old) when a second starts: the players were
            // served all along, so their clocks stay as they are.
            clock.advance(4_000);
            first.heartbeat().await.unwrap();
            clock.advance(4_000);
            let second = open(&db, &clock).await;
            assert_eq!(read(&db, |tx| tx.game(id)).deadline, Some(T0 + 5 * MINUTE));
            // Then the whole deployment is down for an hour: the next start gives the hour back.
            drop((first, second));
            clock.advance(HOUR);
            let _third = open(&db, &clock).await;
            assert_eq!(read(&db, |tx| tx.game(id)).deadline, Some(T0 + 5 * MINUTE + HOUR));
        });
    }
}

#[test]
fn a_time_out_whose_host_died_before_saying_so_is_said_by_another_once() {
    for db in Db::both() {
        run(async {
            let network = Rooms::default();
            let live = data::TimeControl { kind: data::ClockKind::Live, base_ms: 5 * MINUTE, increment_ms: 0 };
            let id = games(&db, 1, live, T0 + 5 * MINUTE)[0];
            let clock = ManualClock::new(T0);
            let (dying, other) = (open(&db, &clock).await, open(&db, &clock).await);
            clock.advance(6 * MINUTE);
            // The first host ends the game on time and dies while posting the announcement.
            let hanging = Rooms::default();
            hanging.posts(Answer::Hangs);
            let cut = tokio::time::timeout(std::time::Duration::from_millis(300), dying.tick(&hanging)).await;
            assert!(cut.is_err(), "the post never returned");
            drop(dying);
            assert_eq!(read(&db, |tx| tx.game(id)).reason.as_deref(), Some("time"), "the end is stored");
            // Its hold stands a while: the other host leaves the announcement alone meanwhile.
            assert!(other.tick(&network).await.is_empty(), "still held by the dead host");
            clock.advance(30_000);
            let said = other.tick(&network).await;
            assert_eq!(said.len(), 1, "{said:?}");
            assert!(said[0].text.contains("ran out of time") && said[0].channel.as_deref() == Some("table-0"));
            assert!(said[0].key.is_some(), "posted with its idempotency key");
            assert_eq!(said[0].images.len(), 1, "with the game's replay, drawn when posted");
            clock.advance(60_000);
            let restarted = open(&db, &clock).await;
            assert!(other.tick(&network).await.is_empty() && restarted.tick(&network).await.is_empty(), "once");
        });
    }
}

#[test]
fn an_announcement_the_network_refuses_is_retried_and_at_last_dropped() {
    for db in Db::both() {
        run(async {
            let live = data::TimeControl { kind: data::ClockKind::Live, base_ms: 5 * MINUTE, increment_ms: 0 };
            games(&db, 2, live, T0 + 5 * MINUTE);
            let clock = ManualClock::new(T0);
            let host = open(&db, &clock).await;
            clock.advance(6 * MINUTE);
            // Two refusals: the first announcement fails once, the second once, both wait.
            let flaky = Rooms::default();
            flaky.posts(Answer::Fails(2));
            assert!(host.tick(&flaky).await.is_empty(), "both refused");
            assert!(host.tick(&flaky).await.is_empty(), "not retried before their time");
            clock.advance(5_000);
            assert_eq!(host.tick(&flaky).await.len(), 2, "retried and posted");
            assert!(host.tick(&flaky).await.is_empty(), "and forgotten");

            // A channel that is gone for good: given up after a few attempts, not retried for ever.
            games(&db, 1, live, T0 + 5 * MINUTE);
            let gone = Rooms::default();
            gone.posts(Answer::Fails(usize::MAX));
            let attempts = |gone: &Rooms| gone.post_attempts();
            for _ in 0..40 {
                assert!(host.tick(&gone).await.is_empty());
                clock.advance(60_000);
            }
            let tried = attempts(&gone);
            assert!(tried > 1, "retried: {tried} attempts");
            for _ in 0..10 {
                host.tick(&gone).await;
                clock.advance(60_000);
            }
            assert_eq!(attempts(&gone), tried, "dropped after {tried} attempts, not retried for ever");
        });
    }
}
