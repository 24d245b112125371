//! Kills a writer with SIGKILL at random moments and checks, after each kill, that every move
//! it reported committed is there, that nothing half-written is, and that the database finds
//! itself sound; on SQLite and on PostgreSQL.
//!
//! The writer is this test binary run again with `CHIMERA_CRASH_DB` set (see `crash_writer`),
//! alternately through the synchronous `Store` and the `AsyncStore`. It prints
//! `committed <game> <ply>` once the move's commit has returned.
//!
//! On PostgreSQL a second test kills a scheduler that has claimed overdue games and ended them
//! in a transaction it has not committed: another process claims and ends them afterwards, and
//! nothing of the dead one's work stays.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use data::{AsyncStore, Finish, GameId, GameResult, GameState, Location, NewGame, NewMove, Store};

#[path = "../src/testing/pg_schema.rs"]
mod pg_schema;

const DB_ENV: &str = "CHIMERA_CRASH_DB";
const MODE_ENV: &str = "CHIMERA_CRASH_MODE";
const CHANNELS: usize = 48;
/// The ply whose move also finishes the game; the writer then starts another in its channel.
/// (Small enough that PostgreSQL's slower single writer finishes games within the runs too.)
const LAST_PLY: u32 = 16;
const ASYNC_WRITERS: usize = 16;
const RUNS: usize = 40;

fn channel(i: usize) -> String {
    format!("c{i}")
}

fn new_game(channel: String) -> NewGame {
    NewGame {
        platform: "crash".into(),
        server: None,
        channel,
        variant: "chess".into(),
        white: 1,
        black: 2,
        start_fen: "start".into(),
        time_control: None,
        time_odds: None,
        deadline: Some(0),
        rated: false,
    }
}

/// The move of `game` at ply `expected + 1`: its texts and deadline name both, so the checker
/// can tell a move and its game row were written together.
fn move_for(game: GameId, expected: u32) -> NewMove {
    let ply = expected + 1;
    NewMove {
        expected_ply: expected,
        coord: format!("{game}:{ply}"),
        san: format!("{game}:{ply}"),
        fen_after: format!("{game}:{ply}"),
        time_used_ms: 1,
        request_id: format!("{game}:{ply}"),
        deadline: Some(i64::from(ply)),
        finish: (ply == LAST_PLY).then(|| Finish {
            result: GameResult::Draw,
            reason: "crash test".into(),
            ratings: vec![],
        }),
    }
}

fn report(game: GameId, ply: u32) {
    let mut out = std::io::stdout().lock();
    writeln!(out, "committed {game} {ply}").and_then(|()| out.flush()).expect("the test reads stdout");
}

/// The writer's entry point: does nothing unless the crash test started this process.
#[test]
fn crash_writer() {
    let Ok(path) = std::env::var(DB_ENV) else {
        return;
    };
    let location = Location::parse(&path).expect("a database location");
    match std::env::var(MODE_ENV).as_deref() {
        Ok("async") => write_async(&location),
        Ok("claim") => claim_and_hang(&location),
        _ => write_sync(&location),
    }
}

fn write_sync(location: &Location) {
    let mut store = Store::open(location).unwrap();
    loop {
        let i = fastrand::usize(..CHANNELS);
        let record = store.read(|tx| tx.active_game("crash", &channel(i))).unwrap();
        let Some(record) = record else {
            store.write(|tx| tx.create_game(&new_game(channel(i)), 0)).unwrap();
            continue;
        };
        let (game, ply) = (record.game.id, record.ply());
        store.write(|tx| tx.append_move(game, &move_for(game, ply), 0)).unwrap();
        report(game, ply + 1);
    }
}

fn write_async(location: &Location) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).build().unwrap();
    runtime.block_on(async {
        let store = AsyncStore::open(location).await.unwrap();
        let writers: Vec<_> = (0..ASYNC_WRITERS)
            .map(|w| {
                let store = store.clone();
                tokio::spawn(async move {
                    // Each writer owns the channels i with i % ASYNC_WRITERS == w.
                    let mine: Vec<usize> = (w..CHANNELS).step_by(ASYNC_WRITERS).collect();
                    loop {
                        let name = channel(mine[fastrand::usize(..mine.len())]);
                        let lookup = name.clone();
                        let record = store.read(move |tx| tx.active_game("crash", &lookup)).await.unwrap();
                        let Some(record) = record else {
                            store.write(move |tx| tx.create_game(&new_game(name.clone()), 0)).await.unwrap();
                            continue;
                        };
                        let (game, ply) = (record.game.id, record.ply());
                        let mv = move_for(game, ply);
                        store.write(move |tx| tx.append_move(game, &mv, 0)).await.unwrap();
                        report(game, ply + 1);
                    }
                })
            })
            .collect();
        for writer in writers {
            writer.await.unwrap();
        }
    });
}

/// Runs the writer until it has reported a move and a random moment more, then SIGKILLs it.
/// Returns the moves it reported, and how many writes it could have had in flight.
fn run_and_kill(location: &str, mode: &str) -> (Vec<(GameId, u32)>, usize) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "crash_writer", "--nocapture", "--test-threads=1"])
        .env(DB_ENV, location)
        .env(MODE_ENV, mode)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines_tx, lines) = mpsc::channel();
    let reader = thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            // libtest writes too, and may start the line ("test crash_writer ... ").
            let Some((_, report)) = line.split_once("committed ") else {
                continue;
            };
            let (game, ply) = report.split_once(' ').expect("a report names game and ply");
            let report = (game.parse().unwrap(), ply.parse().unwrap());
            if lines_tx.send(report).is_err() {
                break;
            }
        }
    });
    // A watchdog, not a measurement: a writer that reports nothing is a failure.
    let first = lines.recv_timeout(Duration::from_secs(60)).expect("the writer reports moves");
    thread::sleep(Duration::from_millis(fastrand::u64(0..200)));
    let exited = child.try_wait().unwrap();
    assert!(exited.is_none(), "the {mode} writer stopped by itself ({exited:?}): see its panic above");
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    reader.join().unwrap();
    let mut reported = vec![first];
    reported.extend(lines.try_iter());
    let in_flight = if mode == "async" { ASYNC_WRITERS } else { 1 };
    (reported, in_flight)
}

/// Checks every game in the file; returns the plies stored per game.
fn check(store: &Store) -> HashMap<GameId, u32> {
    store.check_integrity().unwrap();
    let mut plies = HashMap::new();
    store
        .read(|tx| {
            // Every game is player 1's (see `new_game`). Ids are not dense: PostgreSQL does not
            // give back the id of a game whose commit was cut off.
            let mut ids: Vec<GameId> = tx.active_games_of(1)?.iter().map(|g| g.id).collect();
            ids.extend(tx.finished_games_of(1, None, u32::MAX)?.iter().map(|g| g.id));
            for id in ids {
                let record = tx.game_record(id)?;
                let n = record.ply();
                for (i, mv) in record.moves.iter().enumerate() {
                    assert_eq!(mv.ply as usize, i + 1, "game {id}: plies run 1, 2, ...");
                    assert_eq!(mv.fen_after, format!("{id}:{}", mv.ply), "game {id}");
                }
                let g = &record.game;
                if n == LAST_PLY {
                    assert_eq!((g.state, g.result), (GameState::Finished, Some(GameResult::Draw)), "game {id}");
                    assert_eq!(g.deadline, None);
                } else {
                    assert!(n < LAST_PLY, "game {id} has {n} plies");
                    assert_eq!(g.state, GameState::Active, "game {id} at ply {n}");
                    assert_eq!(g.deadline, Some(i64::from(n)), "game {id}: row and move disagree");
                }
                plies.insert(id, n);
            }
            Ok(())
        })
        .unwrap();
    plies
}

#[test]
fn every_reported_move_survives_sigkill_and_nothing_partial_does_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    crash_runs(dir.path().join("crash.db").to_str().unwrap());
}

#[test]
fn every_reported_move_survives_sigkill_and_nothing_partial_does_on_postgres() {
    let Some(schema) = pg_schema::PgSchema::fresh() else { return };
    crash_runs(&schema.url);
}

fn crash_runs(text: &str) {
    let location = Location::parse(text).expect("the test's own database location");
    Store::open(&location)
        .unwrap()
        .write(|tx| {
            tx.upsert_player("crash", "white", "White", 0)?;
            tx.upsert_player("crash", "black", "Black", 0)?;
            Ok(())
        })
        .unwrap();

    let mut stored_before = 0;
    let mut finished = 0;
    let mut reported_total = 0;
    let mut reported_max: HashMap<GameId, u32> = HashMap::new();
    for run in 0..RUNS {
        let mode = if run % 2 == 0 { "sync" } else { "async" };
        let (reported, in_flight) = run_and_kill(text, mode);
        reported_total += reported.len();
        for &(game, ply) in &reported {
            let max = reported_max.entry(game).or_default();
            *max = (*max).max(ply);
        }

        let store = Store::open(&location).unwrap();
        let stored = check(&store);
        for (game, ply) in &reported_max {
            let have = stored.get(game).copied().unwrap_or(0);
            assert!(have >= *ply, "run {run} ({mode}): game {game} reported ply {ply}, stored {have}");
        }
        // Beyond the reported moves, only those in flight at the kill may have landed.
        let stored_now: u32 = stored.values().sum();
        let landed = (stored_now - stored_before) as usize;
        assert!(
            (reported.len()..=reported.len() + in_flight).contains(&landed),
            "run {run} ({mode}): {} moves reported, {landed} stored",
            reported.len()
        );
        stored_before = stored_now;
        finished = stored.values().filter(|&&n| n == LAST_PLY).count();
    }
    assert!(finished > 0, "games were finished by their last move, not only begun");
    eprintln!("{RUNS} SIGKILLs; {reported_total} moves reported, all found; {finished} games finished");
}

/// Overdue games the killed scheduler claims; the others are left to the survivor at once.
const CLAIMED: usize = 10;
const OVERDUE: usize = 30;

/// The scheduler that dies: claims `CLAIMED` overdue games, ends them, says which, and hangs
/// before its commit.
fn claim_and_hang(location: &Location) {
    let mut store = Store::open(location.clone()).unwrap();
    store
        .write(|tx| {
            for game in tx.claim_overdue_games("claim", 1_000, CLAIMED as u32)? {
                tx.abort_game(game.id, "ended by the scheduler that died", 1_000)?;
                let mut out = std::io::stdout().lock();
                writeln!(out, "claimed {}", game.id).and_then(|()| out.flush()).expect("the test reads stdout");
            }
            loop {
                thread::sleep(Duration::from_secs(1));
            }
        })
        .unwrap()
}

#[test]
fn a_scheduler_killed_before_its_commit_leaves_its_claims_to_another() {
    let Some(schema) = pg_schema::PgSchema::fresh() else { return };
    let mut store = Store::open(Location::parse(&schema.url).unwrap()).unwrap();
    let games: Vec<GameId> = store
        .write(|tx| {
            let white = tx.upsert_player("claim", "white", "White", 0)?.id;
            let black = tx.upsert_player("claim", "black", "Black", 0)?.id;
            (0..OVERDUE)
                .map(|i| {
                    let new = NewGame { platform: "claim".into(), white, black, ..new_game(channel(i)) };
                    Ok(tx.create_game(&new, 0)?.id)
                })
                .collect()
        })
        .unwrap();

    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "crash_writer", "--nocapture", "--test-threads=1"])
        .env(DB_ENV, &schema.url)
        .env(MODE_ENV, "claim")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let (lines_tx, lines) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    let reader = thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some((_, id)) = line.split_once("claimed ") {
                let _ = lines_tx.send(id.trim().parse::<GameId>().unwrap());
            }
        }
    });
    // A watchdog, not a measurement.
    let doomed: Vec<GameId> =
        (0..CLAIMED).map(|_| lines.recv_timeout(Duration::from_secs(60)).expect("the scheduler claims")).collect();

    // While it lives, its games are skipped, not waited for: the survivor ends the others.
    let end = |store: &mut Store| {
        store
            .write(|tx| {
                let mut ended = Vec::new();
                for game in tx.claim_overdue_games("claim", 1_000, OVERDUE as u32)? {
                    ended.push(tx.abort_game(game.id, "time", 1_000)?.id);
                }
                Ok(ended)
            })
            .unwrap()
    };
    let mut ended = end(&mut store);
    assert_eq!(ended.len(), OVERDUE - CLAIMED);
    assert!(ended.iter().all(|id| !doomed.contains(id)), "a claimed game was claimed twice");

    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    reader.join().unwrap();
    // The server ends the dead one's transaction when its socket closes, a moment later.
    for _ in 0..600 {
        ended.extend(end(&mut store));
        if ended.len() == OVERDUE {
            break;
        }
        thread::sleep(Duration::from_millis(50));
    }
    ended.sort();
    assert_eq!(ended, games, "every overdue game ended, each once");
    store
        .read(|tx| {
            for &id in &doomed {
                let game = tx.game(id)?;
                assert_eq!(
                    game.reason.as_deref(),
                    Some("time"),
                    "game {id}: nothing of the dead scheduler's work stays"
                );
            }
            Ok(())
        })
        .unwrap();
}
