//! Storage figures, on SQLite and on PostgreSQL in the same run: sustained durable move appends
//! with 10,000 active games in the database, and the time to load a game of 200 moves.
//!
//! `cargo bench -p chimera-data --bench store [-- sync|async|load]` (all three by default).
//! PostgreSQL is the server of `CHIMERA_TEST_POSTGRES_URL` (default: 127.0.0.1:5432, database
//! `test`), in a schema of its own dropped afterwards; without one its figures are skipped with
//! a line saying so. Prints figures; asserts nothing.

use std::time::{Duration, Instant};

use data::{AsyncStore, GameId, Location, NewGame, NewMove, Store, Synchronous};

#[path = "../src/testing/pg_schema.rs"]
mod pg_schema;

const ACTIVE_GAMES: usize = 10_000;
const RUN_FOR: Duration = Duration::from_secs(4);
const FEN: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

fn new_game(i: usize, white: i64, black: i64) -> NewGame {
    NewGame {
        platform: "discord".into(),
        server: Some("123456789012345678".into()),
        channel: format!("9000000000000{i:05}"),
        variant: "chess".into(),
        white,
        black,
        start_fen: FEN.into(),
        time_control: Some(data::TimeControl { kind: data::ClockKind::Live, base_ms: 600_000, increment_ms: 5_000 }),
        time_odds: None,
        deadline: Some(1_000_000),
        rated: true,
    }
}

fn new_move(expected_ply: u32, request: u64) -> NewMove {
    NewMove {
        expected_ply,
        coord: "e2e4".into(),
        san: "e4".into(),
        fen_after: FEN.into(),
        time_used_ms: 1_234,
        request_id: format!("1{request:018}"),
        deadline: Some(2_000_000),
        finish: None,
    }
}

/// Seeds the active games; returns their ids.
fn seed(location: &Location) -> Vec<GameId> {
    let mut store = Store::open(location).unwrap();
    store
        .write(|tx| {
            let players: Vec<i64> = (0..200)
                .map(|i| Ok(tx.upsert_player("discord", &format!("{i}"), &format!("player {i}"), 0)?.id))
                .collect::<data::Result<_>>()?;
            (0..ACTIVE_GAMES)
                .map(|i| Ok(tx.create_game(&new_game(i, players[i % 200], players[(i * 7 + 1) % 200]), 0)?.id))
                .collect()
        })
        .unwrap()
}

struct Figures {
    count: usize,
    elapsed: Duration,
    latencies: Vec<Duration>,
}

impl Figures {
    fn print(mut self, what: &str) {
        self.latencies.sort();
        println!(
            "{what}: {:.0} appends/s ({} in {:.1} s); latency median {:?}, p99 {:?}",
            self.count as f64 / self.elapsed.as_secs_f64(),
            self.count,
            self.elapsed.as_secs_f64(),
            percentile(&self.latencies, 0.5),
            percentile(&self.latencies, 0.99),
        );
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// One transaction (one commit) per move, from one thread.
fn sync_appends(location: &Location, games: &[GameId], plies: &mut [u32], synchronous: Synchronous) -> Figures {
    let mut store = Store::open_with(location, synchronous).unwrap();
    let mut latencies = Vec::new();
    let start = Instant::now();
    while start.elapsed() < RUN_FOR {
        let i = fastrand::usize(..games.len());
        let mv = new_move(plies[i], fastrand::u64(..));
        let t = Instant::now();
        store.write(|tx| tx.append_move(games[i], &mv, 1)).unwrap();
        latencies.push(t.elapsed());
        plies[i] += 1;
    }
    Figures { count: latencies.len(), elapsed: start.elapsed(), latencies }
}

/// `movers` games moving at once through the group-committing writer, each waiting for its
/// move's commit before the next.
fn async_appends(location: &Location, games: &[GameId], plies: &[u32], movers: usize) -> Figures {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let store = AsyncStore::open(location).await.unwrap();
        let start = Instant::now();
        let tasks: Vec<_> = (0..movers)
            .map(|m| {
                let store = store.clone();
                // Each mover plays its own games, so no two race for a ply.
                let mine: Vec<(GameId, u32)> = (m..games.len()).step_by(movers).map(|i| (games[i], plies[i])).collect();
                tokio::spawn(async move {
                    let mut mine = mine;
                    let mut latencies = Vec::new();
                    while start.elapsed() < RUN_FOR {
                        let k = fastrand::usize(..mine.len());
                        let (game, ply) = mine[k];
                        let mv = new_move(ply, fastrand::u64(..));
                        let t = Instant::now();
                        store.write(move |tx| tx.append_move(game, &mv, 1)).await.unwrap();
                        latencies.push(t.elapsed());
                        mine[k].1 += 1;
                    }
                    latencies
                })
            })
            .collect();
        let mut latencies = Vec::new();
        for task in tasks {
            latencies.extend(task.await.unwrap());
        }
        Figures { count: latencies.len(), elapsed: start.elapsed(), latencies }
    })
}

fn load_times(location: &Location) {
    let mut store = Store::open(location).unwrap();
    let game = store
        .write(|tx| {
            let white = tx.upsert_player("discord", "loader-w", "W", 0)?.id;
            let black = tx.upsert_player("discord", "loader-b", "B", 0)?.id;
            let game = tx.create_game(&new_game(ACTIVE_GAMES + 1, white, black), 0)?.id;
            for ply in 0..200 {
                tx.append_move(game, &new_move(ply, u64::from(ply)), 1)?;
            }
            Ok(game)
        })
        .unwrap();
    let channel = new_game(ACTIVE_GAMES + 1, 0, 0).channel;
    for (what, by_channel) in [("by id", false), ("active game of a channel", true)] {
        let mut wall = Vec::new();
        let mut cpu = Vec::new();
        for _ in 0..5_000 {
            let (t, c) = (Instant::now(), thread_cpu_time());
            let record = if by_channel {
                store.read(|tx| tx.active_game("discord", &channel)).unwrap().unwrap()
            } else {
                store.read(|tx| tx.game_record(game)).unwrap()
            };
            wall.push(t.elapsed());
            cpu.push(thread_cpu_time() - c);
            assert_eq!(record.moves.len(), 200);
        }
        wall.sort();
        cpu.sort();
        println!(
            "load a 200-move game {what}: median {:?}, p99 {:?} (CPU time of the thread: median {:?}, p99 {:?})",
            percentile(&wall, 0.5),
            percentile(&wall, 0.99),
            percentile(&cpu, 0.5),
            percentile(&cpu, 0.99),
        );
    }
}

/// CPU time this thread has used: wall time less the time other processes held the cores.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid timespec for the call to fill.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(status, 0, "the thread CPU clock exists on Linux");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn main() {
    // cargo passes `--bench`; a bare word picks one part.
    let only = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    let dir = tempfile::tempdir().unwrap();
    println!("== SQLite (a file in {})", dir.path().display());
    run(&Location::Sqlite(dir.path().join("bench.db")), only.as_deref());
    match pg_schema::PgSchema::fresh() {
        Some(schema) => {
            println!("== PostgreSQL ({})", Location::Postgres(pg_schema::server_url()));
            run(&Location::Postgres(schema.url.clone()), only.as_deref());
        }
        None => println!("== PostgreSQL: skipped, no server answers at {}", pg_schema::server_url()),
    }
}

fn run(location: &Location, only: Option<&str>) {
    let runs = |part: &str| only.is_none_or(|only| only == part);
    let seeding = Instant::now();
    let games = seed(location);
    println!("seeded {ACTIVE_GAMES} active games in {:.1} s", seeding.elapsed().as_secs_f64());
    let mut plies = vec![0; games.len()];

    if runs("sync") {
        sync_appends(location, &games, &mut plies, Synchronous::Full)
            .print("one commit per move, synchronous FULL / synchronous_commit on (durable)");
        sync_appends(location, &games, &mut plies, Synchronous::Normal)
            .print("one commit per move, synchronous NORMAL / synchronous_commit off (not power-safe)");
    }
    for movers in [16, 64, 256].into_iter().filter(|_| runs("async")) {
        async_appends(location, &games, &plies, movers)
            .print(&format!("AsyncStore, {movers} games moving at once, durable"));
        // The async run moved games on; read where they stand.
        let store = Store::open(location).unwrap();
        store
            .read(|tx| {
                for (i, &game) in games.iter().enumerate() {
                    plies[i] = tx.ply_count(game)?;
                }
                Ok(())
            })
            .unwrap();
    }
    if runs("load") {
        load_times(location);
    }
}
