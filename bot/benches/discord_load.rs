//! Load through the fake Discord: many games at once, moves sent at a steady rate, and the time
//! from each INTERACTION_CREATE reaching the bot's socket to the bot's reply, as the fake
//! measures it. The bot is the built `chimera discord` in processes of its own, so the memory
//! and CPU reported are the bots' alone.
//!
//! Each setup runs in turn in the same run, so their figures stand side by side: by default
//! one process on SQLite, then two processes (`DISCORD_SHARDS=0-0/2` and `1-1/2`, a guild on
//! each shard, the games split between them) sharing one PostgreSQL (the server of
//! `CHIMERA_TEST_POSTGRES_URL`, default 127.0.0.1:5432 database `test`, in a schema of its own;
//! skipped with a line saying so when none answers).
//!
//! Beside the games between people, `--engine-games N` players each play Chimera (level 8, its
//! slowest) and answer its every move at once, so that N of its searches are always wanted;
//! their moves are not in the latency figures, which stay the people's.
//!
//! With `--analyses N`, N pairs of players first play a game of 60 moves each (random legal
//! moves, then a resignation), and when the measured window opens each asks for `/analyse` of
//! it: the bench reports how long each analysis took, from the request to the analysis in the
//! channel, while the people's latency shows what the analyses cost everyone else.
//!
//! `--finished-games N` plays N more such games before the window, not analysed: the bots'
//! puzzle job (`CHIMERA_PUZZLE_CPU`, set by `--puzzle-cpu P`, default 25; 0 turns it off) starts
//! on them as they finish and scans them, the earliest finished first, through the set-up and
//! the window. The bench reads the job's own record (`puzzle_scans`) at the window's opening and
//! close and reports the games scanned in it, their puzzles and CPU, and the games still waiting;
//! it says so when the job ran out of games in the window, which makes the comparison with
//! `--puzzle-cpu 0` worthless: then raise N.
//!
//! `--seed S` (default 27) seeds the moves the bench picks: the games finished before the window
//! are the same on every run with the same seed, so that the job has the same games to scan; the
//! people's moves in the window depend on timing too.
//!
//! With `--viewers N`, the first bot process also serves the web pages (`CHIMERA_WEB_ADDR`), and
//! N viewers keep one game's page open (its event stream), with `--viewers-each K` more on each
//! of `--watched M` other games: the bench reports how long each move took from being sent to
//! reaching each viewer, the bot's memory per viewer, and the game page's weight and time to
//! first byte, idle and under the load ([`viewers`]).
//!
//! `cargo bench -p chimera --bench discord_load -- [--games N] [--rate MOVES_PER_S] [--seconds S]
//! [--setups sqlite:1,postgres:2] [--engine-games N] [--analyses N] [--finished-games N]
//! [--puzzle-cpu P] [--seed S] [--viewers N] [--watched M] [--viewers-each K]` (defaults: 1000
//! games, 200 moves/s, 30 s, the two setups, 0 engine games, 0 analyses, 0 finished games, the
//! puzzle job at 25%, seed 27, 0 viewers, 100 watched games with 3 viewers each when there are
//! viewers).
//!
//! Each bot serves `/healthz` and `/metrics` (`CHIMERA_HTTP_ADDR`), scraped four times a second
//! through the measured window as Prometheus would: the bench reports failed scrapes, unhealthy
//! answers, the deepest outbox and engine queue seen, and checks the move counters against the
//! moves it sent.
//!
//! Per move it reports the bots' CPU time, the picture bytes sent, and on PostgreSQL the rows
//! written and the write-ahead log generated (the server's own counters, so they include the
//! scheduler's work in the same time).

use std::collections::VecDeque;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fakecord::{CallbackType, ChannelId, Config, FakeDiscord, GuildId, InteractionKind, UserId};
use rules::{Position, Variant};
use serde_json::json;

#[path = "../../data/src/testing/pg_schema.rs"]
#[allow(dead_code)]
mod pg_schema;

#[path = "../tests/support/scrape.rs"]
#[allow(dead_code)]
mod scrape;

mod viewers;

struct Options {
    games: usize,
    rate: u32,
    seconds: u64,
    setups: Vec<(Backend, u32)>,
    engine_games: usize,
    analyses: usize,
    /// Games played to a finish before the window besides those analysed, for the puzzle job.
    finished_games: usize,
    /// The bots' `CHIMERA_PUZZLE_CPU`: the puzzle job's share of one core in percent, 0 = off.
    puzzle_cpu: u32,
    /// Seeds the bench's own choices of moves (see `main`).
    seed: u64,
    viewers: usize,
    watched: usize,
    viewers_each: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backend {
    Sqlite,
    Postgres,
}

fn options() -> Options {
    let mut options = Options {
        games: 1000,
        rate: 200,
        seconds: 30,
        setups: vec![(Backend::Sqlite, 1), (Backend::Postgres, 2)],
        engine_games: 0,
        analyses: 0,
        finished_games: 0,
        puzzle_cpu: host::DEFAULT_PUZZLE_CPU,
        seed: 27,
        viewers: 0,
        watched: 100,
        viewers_each: 3,
    };
    let args: Vec<String> = std::env::args().collect();
    let text = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let value = |name: &str| text(name).and_then(|v| v.parse::<u64>().ok());
    if let Some(games) = value("--games") {
        options.games = games as usize;
    }
    if let Some(rate) = value("--rate") {
        options.rate = rate as u32;
    }
    if let Some(n) = value("--engine-games") {
        options.engine_games = n as usize;
    }
    if let Some(n) = value("--analyses") {
        options.analyses = n as usize;
    }
    if let Some(n) = value("--finished-games") {
        options.finished_games = n as usize;
    }
    if let Some(percent) = value("--puzzle-cpu") {
        assert!(percent <= 100, "--puzzle-cpu: a share of one core in percent, from 0 (off) to 100");
        options.puzzle_cpu = percent as u32;
    }
    if let Some(seed) = value("--seed") {
        options.seed = seed;
    }
    if let Some(n) = value("--viewers") {
        options.viewers = n as usize;
    }
    if let Some(n) = value("--watched") {
        options.watched = n as usize;
    }
    if let Some(n) = value("--viewers-each") {
        options.viewers_each = n as usize;
    }
    if let Some(seconds) = value("--seconds") {
        options.seconds = seconds;
    }
    if let Some(setups) = text("--setups") {
        options.setups = setups
            .split(',')
            .map(|setup| {
                let (backend, processes) = setup.split_once(':').unwrap_or((setup, "1"));
                let backend = match backend {
                    "sqlite" => Backend::Sqlite,
                    "postgres" => Backend::Postgres,
                    other => panic!("--setups: {other} is neither sqlite nor postgres"),
                };
                (backend, processes.parse().expect("--setups: a number of processes after the colon"))
            })
            .collect();
    }
    options
}

/// One game as the load generator tracks it: whose move, and the position to pick moves from.
struct Table {
    channel: ChannelId,
    white: UserId,
    black: UserId,
    position: Position,
    busy: bool,
    /// The game's web key while its viewers watch it (`--viewers`), and its plies so far.
    key: Option<String>,
    plies: usize,
}

fn main() {
    // `cargo bench` passes `--bench`; anything else of libtest's is not ours.
    let options = options();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    for &(backend, processes) in &options.setups {
        println!();
        let schema = match backend {
            Backend::Sqlite => None,
            Backend::Postgres => match pg_schema::PgSchema::fresh() {
                Some(schema) => Some(schema),
                None => {
                    println!("== PostgreSQL: skipped, no server answers at {}", pg_schema::server_url());
                    continue;
                }
            },
        };
        let dir = tempfile::tempdir().expect("a temporary directory");
        let db = match &schema {
            Some(schema) => schema.url.clone(),
            None => dir.path().join("load.db").display().to_string(),
        };
        println!("== {backend:?}, {processes} bot process(es), seed {}", options.seed);
        // The moves the bench picks on this thread (the people's) follow the seed; the finished
        // games have generators of their own, seeded from it. Which game is idle at each tick
        // still depends on timing, so two runs play the same games, not the same moves.
        fastrand::seed(options.seed);
        runtime.block_on(run(&options, &db, backend, processes));
    }
}

async fn run(options: &Options, db: &str, backend: Backend, processes: u32) {
    let config = Config { wait_timeout: Duration::from_secs(120), ..Config::default() };
    let fake = Arc::new(FakeDiscord::start_with(config).await.expect("the fake binds"));
    let guilds: Vec<GuildId> = (0..processes)
        .map(|shard| fake.add_guild_on_shard(&format!("Load {shard}"), shard.into(), processes.into()))
        .collect();
    // Killed when dropped: a panic anywhere below must not leave bot processes running.
    let endpoints: Vec<std::net::SocketAddr> = (0..processes).map(|_| scrape::free_addr()).collect();
    let pages = (options.viewers > 0).then(scrape::free_addr);
    let bots = Bots(
        (0..processes)
            .map(|shard| {
                let web = if shard == 0 { pages } else { None };
                start_bot(&fake, db, shard, processes, endpoints[shard as usize], web, options.puzzle_cpu)
            })
            .collect(),
    );
    for shard in 0..processes {
        fake.wait_shard_ready(shard.into()).await.expect("the bot connects");
    }
    fake.wait_command("move").await.expect("the bot registers its commands");

    // Before the people's games, so that a fresh database numbers these games 1..=N, those to
    // be analysed first.
    let mut finished =
        play_finished_games(&fake, &guilds, options.analyses + options.finished_games, options.seed).await;
    finished.truncate(options.analyses);

    println!("starting {} games…", options.games);
    let set_up = Instant::now();
    let tables = Arc::new(Mutex::new(Vec::with_capacity(options.games)));
    let mut starts = tokio::task::JoinSet::new();
    for i in 0..options.games {
        let variant = Variant::ALL[i % Variant::ALL.len()];
        let channel = fake.add_channel(guilds[i % guilds.len()], &format!("table-{i}"));
        let (white, black) = (fake.add_user(&format!("w{i}")), fake.add_user(&format!("b{i}")));
        let (fake, tables) = (Arc::clone(&fake), Arc::clone(&tables));
        starts.spawn(async move {
            start_game(&fake, channel, white, black, variant).await;
            let position = Position::start(variant);
            tables.lock().unwrap().push(Table { channel, white, black, position, busy: false, key: None, plies: 0 });
        });
        // Keep the set-up from flooding the bot: at most 64 games starting at once.
        while starts.len() >= 64 {
            starts.join_next().await;
        }
    }
    while starts.join_next().await.is_some() {}
    println!("{} games started in {:.1} s", options.games, set_up.elapsed().as_secs_f64());
    let engine_moves = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let stop_engines = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut engine_games = tokio::task::JoinSet::new();
    for i in 0..options.engine_games {
        let channel = fake.add_channel(guilds[i % guilds.len()], &format!("engine-{i}"));
        let player = fake.add_user(&format!("e{i}"));
        let variant = ENGINE_VARIANTS[i % ENGINE_VARIANTS.len()];
        let (fake, moves, stop) = (Arc::clone(&fake), Arc::clone(&engine_moves), Arc::clone(&stop_engines));
        engine_games.spawn(async move { against_chimera(&fake, channel, player, variant, &moves, &stop).await });
    }

    let mut analyses = tokio::task::JoinSet::new();
    for Finished { game, channel, white, .. } in finished {
        let fake = Arc::clone(&fake);
        analyses.spawn(async move { analyse(&fake, channel, white, game).await });
    }

    let watching = match pages {
        Some(addr) => Some(open_viewers(options, db, addr, &tables, &bots[0]).await),
        None => None,
    };
    let ttfb_under_load = watching.as_ref().map(|w| {
        let (addr, key, fetches) = (w.addr, w.key.clone(), options.seconds * 10);
        tokio::spawn(async move {
            let mut times = Vec::new();
            // Through the measured window, one fetch every 100 ms.
            for _ in 0..fetches {
                times.push(viewers::get(addr, &format!("/g/{key}")).await.0);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            times.sort();
            times.get(times.len() / 2).copied().unwrap_or_default()
        })
    });

    let rss_before: f64 = bots.iter().map(|bot| memory(bot).0).sum();
    let cpu_before: f64 = bots.iter().map(cpu_seconds).sum();
    let engine_cpu_before: f64 = bots.iter().map(engine_cpu_seconds).sum();
    let db_before = match backend {
        Backend::Postgres => Some(pg_counters(db)),
        Backend::Sqlite => None,
    };
    let scans_before = scan_figures(db);
    let moves_counted_before = count_moves(&endpoints).await;
    let scraping = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let scraper = tokio::spawn(scrape_while(endpoints.clone(), Arc::clone(&scraping)));
    let first_measured = fake.timings().len();
    let sent = Arc::new(Mutex::new(Sent::default()));
    let mut ticker = tokio::time::interval(Duration::from_secs_f64(1.0 / options.rate as f64));
    let window = Duration::from_secs(options.seconds);
    let started = Instant::now();
    let mut next = 0usize;
    let mut in_flight = tokio::task::JoinSet::new();
    while started.elapsed() < window {
        ticker.tick().await;
        let Some((index, user, channel, text, watched)) = pick(&tables, &mut next) else {
            sent.lock().unwrap().skipped += 1;
            continue;
        };
        if let (Some((key, plies)), Some(watching)) = (watched, &watching) {
            watching.sends.note(&key, plies, Instant::now());
        }
        let (task_fake, task_tables, task_sent) = (Arc::clone(&fake), Arc::clone(&tables), Arc::clone(&sent));
        in_flight.spawn(async move {
            let (fake, tables, sent) = (task_fake, task_tables, task_sent);
            let answer = match fake.slash(user, channel, "move", json!({ "move": text, "confirm": true })) {
                Ok(handle) => handle.response().await,
                Err(e) => Err(e),
            };
            let mut sent = sent.lock().unwrap();
            let mut tables = tables.lock().unwrap();
            let table = &mut tables[index];
            match answer {
                Ok(answer) if !answer.message.is_ephemeral() => {
                    sent.moves += 1;
                    sent.picture_bytes += answer.message.attachments.iter().map(|a| a.bytes.len() as u64).sum::<u64>();
                    let position = &mut table.position;
                    let played = position.parse_move(&text).expect("the move was legal");
                    position.play_unchecked(&played);
                    table.plies += 1;
                    // A game that ended starts again on the same table.
                    if ["1-0", "0-1", "1/2-1/2"].iter().any(|r| answer.message.content.contains(r)) {
                        sent.finished += 1;
                        table.position = Position::start(position.variant());
                        // The new game has a page of its own, which no viewer has open.
                        table.key = None;
                        table.plies = 0;
                        sent.restart.push_back(index);
                        return;
                    }
                }
                Ok(answer) => {
                    sent.refused += 1;
                    sent.last_refusal = answer.message.content;
                }
                Err(e) => {
                    sent.failed += 1;
                    sent.last_refusal = e.to_string();
                }
            }
            table.busy = false;
        });
        restart_finished(&fake, &tables, &sent).await;
        while in_flight.try_join_next().is_some() {}
    }
    let elapsed = started.elapsed();
    while in_flight.join_next().await.is_some() {}
    // The last moves' events: a moment for them to arrive before the viewers close.
    if watching.is_some() {
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let under_load = match ttfb_under_load {
        Some(sampler) => Some(sampler.await.expect("the page sampler")),
        None => None,
    };
    scraping.store(false, std::sync::atomic::Ordering::Relaxed);
    let scraped = scraper.await.expect("the scraper");
    let moves_counted = count_moves(&endpoints).await - moves_counted_before;
    let scans_after = scan_figures(db);
    stop_engines.store(true, std::sync::atomic::Ordering::Relaxed);
    while engine_games.join_next().await.is_some() {}
    let mut analysed: Vec<Duration> = Vec::new();
    while let Some(took) = analyses.join_next().await {
        analysed.push(took.expect("an analysis task"));
    }
    analysed.sort();
    let cpu_after: f64 = bots.iter().map(cpu_seconds).sum();
    let engine_cpu = bots.iter().map(engine_cpu_seconds).sum::<f64>() - engine_cpu_before;
    let db_after = match backend {
        Backend::Postgres => Some(pg_counters(db)),
        Backend::Sqlite => None,
    };
    let (rss_after, peak) = bots.iter().map(memory).fold((0.0, 0.0), |(after, peak), (a, p)| (after + a, peak + p));

    let people: std::collections::HashSet<ChannelId> = tables.lock().unwrap().iter().map(|t| t.channel).collect();
    let timings: Vec<Duration> = fake.timings()[first_measured..]
        .iter()
        .filter(|t| t.kind == InteractionKind::ApplicationCommand && people.contains(&t.channel))
        .map(|t| t.acknowledged)
        .collect();
    let deferred = fake.timings()[first_measured..]
        .iter()
        .filter(|t| t.callback == CallbackType::DeferredChannelMessageWithSource)
        .count();
    let sent = sent.lock().unwrap();
    let mut sorted = timings.clone();
    sorted.sort();
    let at = |q: f64| sorted.get(((sorted.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or_default();
    let per_move = |x: f64| x / sent.moves.max(1) as f64;
    println!();
    println!("games at once         {}", options.games);
    println!("bot processes         {processes}");
    println!("offered rate          {} moves/s for {:.1} s", options.rate, elapsed.as_secs_f64());
    println!(
        "moves answered        {} ({:.1} moves/s sustained)",
        sent.moves,
        sent.moves as f64 / elapsed.as_secs_f64()
    );
    println!(
        "refused / failed      {} / {} {}",
        sent.refused,
        sent.failed,
        sent.last_refusal.lines().next().unwrap_or("")
    );
    println!("ticks with no idle game {}", sent.skipped);
    println!(
        "games against Chimera {} ({} of its moves, {:.2} moves/s)",
        options.engine_games,
        engine_moves.load(std::sync::atomic::Ordering::Relaxed),
        engine_moves.load(std::sync::atomic::Ordering::Relaxed) as f64 / elapsed.as_secs_f64()
    );
    if !analysed.is_empty() {
        let seconds: Vec<String> = analysed.iter().map(|d| format!("{:.1}", d.as_secs_f64())).collect();
        println!(
            "analyses              {} of {ANALYSED_PLIES}-ply games, wall time {} s (each, sorted)",
            analysed.len(),
            seconds.join(", ")
        );
    }
    println!("games finished        {}", sent.finished);
    scans_after.report(&scans_before, options.puzzle_cpu, elapsed);
    println!(
        "engine threads' CPU   {engine_cpu:.1} s in the window ({:.0}% of one core, all processes)",
        engine_cpu * 100.0 / elapsed.as_secs_f64()
    );
    println!(
        "scrapes               {} of /metrics and /healthz, {} failed, {} unhealthy; deepest outbox {}, engine queue {}",
        scraped.scrapes, scraped.failed, scraped.unhealthy, scraped.outbox, scraped.engine_queue
    );
    // The people's moves, played or refused; the engine games' moves (`--engine-games`) count too.
    let answered_moves = sent.moves + sent.refused;
    println!(
        "moves counted         {moves_counted} by /metrics, {answered_moves} people's moves answered to the bench"
    );
    println!("deferred answers      {deferred}");
    println!("latency median        {:.1} ms", at(0.5).as_secs_f64() * 1e3);
    println!("latency p99           {:.1} ms", at(0.99).as_secs_f64() * 1e3);
    println!("latency max           {:.1} ms", sorted.last().copied().unwrap_or_default().as_secs_f64() * 1e3);
    println!("bot CPU per move      {:.2} ms (all processes)", per_move((cpu_after - cpu_before) * 1e3));
    println!("picture bytes per move {:.0}", per_move(sent.picture_bytes as f64));
    if let (Some(before), Some(after)) = (db_before, db_after) {
        println!(
            "database per move     {:.1} rows written, {:.1} commits, {:.0} WAL bytes",
            per_move((after.rows - before.rows) as f64),
            per_move((after.commits - before.commits) as f64),
            per_move((after.wal - before.wal) as f64)
        );
    }
    println!(
        "bot memory            {:.0} MB after set-up, {:.0} MB at the end, {:.0} MB peak (all processes)",
        rss_before, rss_after, peak
    );
    if let (Some(watching), Some(under_load)) = (watching, under_load) {
        watching.report(under_load);
    }
    drop(bots);
}

/// The viewers of a run with `--viewers`, and what they need to report.
struct Watching {
    addr: std::net::SocketAddr,
    /// The game the N viewers watch.
    key: String,
    sends: viewers::Sends,
    seen: viewers::Seen,
    tasks: tokio::task::JoinSet<()>,
    opened: usize,
    rss_per_viewer_kb: f64,
    ttfb_idle: Duration,
    weight: (usize, usize, usize),
}

/// Finds the web keys of the first `1 + options.watched` tables' games, measures the idle page,
/// then opens the viewers and waits until each has its first event.
async fn open_viewers(
    options: &Options,
    db: &str,
    addr: std::net::SocketAddr,
    tables: &Mutex<Vec<Table>>,
    bot: &Child,
) -> Watching {
    let channels: Vec<String> =
        tables.lock().unwrap().iter().take(1 + options.watched).map(|t| t.channel.get().to_string()).collect();
    let location = data::Location::parse(db).expect("the bots' database location");
    // The store's PostgreSQL client blocks (and runs a runtime of its own): off the bench's runtime.
    let keys: Vec<String> = tokio::task::block_in_place(|| {
        let store = data::Store::open(location).expect("the bench opens the bots' database");
        store.read(|tx| {
            channels
                .iter()
                .map(|channel| {
                    Ok(tx.active_game("discord", channel)?.expect("a game per table").game.web_key.to_string())
                })
                .collect()
        })
    })
    .expect("the games' web keys");
    {
        let mut tables = tables.lock().unwrap();
        for (table, key) in tables.iter_mut().zip(&keys) {
            table.key = Some(key.clone());
        }
    }
    let weight = viewers::page_weight(addr, &keys[0]).await;
    let ttfb_idle = viewers::ttfb(addr, &keys[0], 200).await;

    let rss_before = memory(bot).0;
    let (sends, seen) = (viewers::Sends::default(), viewers::Seen::default());
    let mut tasks = tokio::task::JoinSet::new();
    let mut wanted = Vec::new();
    wanted.extend(std::iter::repeat_n(keys[0].clone(), options.viewers));
    for key in &keys[1..] {
        wanted.extend(std::iter::repeat_n(key.clone(), options.viewers_each));
    }
    let total = wanted.len();
    println!("opening {total} viewers on {} games…", keys.len());
    for key in wanted {
        let (sends, seen) = (sends.clone(), seen.clone());
        tasks.spawn(viewers::watch(addr, key, sends, seen));
    }
    let opening = Instant::now();
    while seen.open.load(std::sync::atomic::Ordering::Relaxed) + seen.broken.lock().unwrap().len() < total {
        assert!(opening.elapsed() < Duration::from_secs(120), "the viewers did not all open in 2 minutes");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let opened = seen.open.load(std::sync::atomic::Ordering::Relaxed);
    println!("{opened} viewers open in {:.1} s", opening.elapsed().as_secs_f64());
    // A moment for the allocations of the opening to settle.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_per_viewer_kb = (memory(bot).0 - rss_before) * 1024.0 / opened.max(1) as f64;
    Watching { addr, key: keys[0].clone(), sends, seen, tasks, opened, rss_per_viewer_kb, ttfb_idle, weight }
}

impl Watching {
    fn report(mut self, ttfb_under_load: Duration) {
        self.tasks.abort_all();
        let mut delays = self.seen.delays.lock().unwrap().clone();
        delays.sort();
        let at = |q: f64| delays.get(((delays.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or_default();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let broken = self.seen.broken.lock().unwrap();
        let (html, assets, asset_bytes) = self.weight;
        println!(
            "web viewers           {} open, {} streams broken {}",
            self.opened,
            broken.len(),
            broken.first().map_or("", |s| s.as_str())
        );
        println!("moves seen by viewers {} (a move times each viewer of its game)", delays.len());
        println!(
            "move to viewer        median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            ms(at(0.5)),
            ms(at(0.99)),
            ms(delays.last().copied().unwrap_or_default())
        );
        println!("bot memory per viewer {:.1} kB", self.rss_per_viewer_kb);
        println!(
            "game page             {html} B of HTML + {assets} assets, {asset_bytes} B: {:.1} kB on a first visit",
            (html + asset_bytes) as f64 / 1000.0
        );
        println!(
            "page TTFB median      {:.2} ms idle (200 fetches), {:.2} ms under the load",
            ms(self.ttfb_idle),
            ms(ttfb_under_load)
        );
    }
}

/// The bench's bot processes, killed and reaped when this is dropped, however the bench ends
/// (a panic unwinds through it too).
struct Bots(Vec<Child>);

impl std::ops::Deref for Bots {
    type Target = [Child];

    fn deref(&self) -> &[Child] {
        &self.0
    }
}

impl Drop for Bots {
    fn drop(&mut self) {
        for bot in &mut self.0 {
            let _ = bot.kill();
            let _ = bot.wait();
        }
    }
}

/// PostgreSQL's own counters for the database: rows written, transactions committed (reads
/// included), bytes of write-ahead log so far.
struct PgCounters {
    rows: i64,
    commits: i64,
    wal: i64,
}

fn pg_counters(url: &str) -> PgCounters {
    // The client blocks (and runs a runtime of its own): off the bench's runtime for its length.
    tokio::task::block_in_place(|| read_pg_counters(url))
}

fn read_pg_counters(url: &str) -> PgCounters {
    let mut client = postgres::Client::connect(url, postgres::NoTls).expect("the schema answers");
    // The statistics of the last moment, not a snapshot cached from earlier in this session.
    client.batch_execute("SELECT pg_stat_clear_snapshot()").expect("a statement");
    let row = client
        .query_one(
            "SELECT (tup_inserted + tup_updated + tup_deleted)::bigint, xact_commit::bigint,
                    (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint
             FROM pg_stat_database WHERE datname = current_database()",
            &[],
        )
        .expect("the server's counters");
    PgCounters { rows: row.get(0), commits: row.get(1), wal: row.get(2) }
}

/// What the bots' puzzle job has recorded so far, all variants together (`puzzle_scans`), and
/// the finished games it has yet to scan.
struct Scans {
    games: i64,
    puzzles: i64,
    cpu_ms: i64,
    waiting: usize,
}

fn scan_figures(db: &str) -> Scans {
    let location = data::Location::parse(db).expect("the bots' database location");
    // The store's PostgreSQL client blocks (and runs a runtime of its own): off the bench's runtime.
    tokio::task::block_in_place(|| {
        let store = data::Store::open(location).expect("the bench opens the bots' database");
        store.read(|tx| {
            let totals = tx.scan_totals()?;
            Ok(Scans {
                games: totals.iter().map(|t| t.games).sum(),
                puzzles: totals.iter().map(|t| t.puzzles).sum(),
                cpu_ms: totals.iter().map(|t| t.cpu_ms).sum(),
                waiting: tx.games_to_scan(1_000_000)?.len(),
            })
        })
    })
    .expect("the puzzle job's figures")
}

impl Scans {
    /// What the job did in the window, `self` being its close and `opened` its opening.
    fn report(&self, opened: &Scans, percent: u32, window: Duration) {
        let games = self.games - opened.games;
        if percent == 0 {
            println!("puzzle job            off (--puzzle-cpu 0); {} finished games not scanned", self.waiting);
            return;
        }
        let cpu = (self.cpu_ms - opened.cpu_ms) as f64 / 1e3;
        println!(
            "puzzle job            {percent}% of one core a process: {games} games scanned in the window ({} puzzles, \
             {cpu:.1} s of CPU recorded, {:.0}% of one core), {} before it, {} waiting when it opened, {} at its close",
            self.puzzles - opened.puzzles,
            cpu * 100.0 / window.as_secs_f64(),
            opened.games,
            opened.waiting,
            self.waiting
        );
        // The job takes the earliest finished first, so while it has scanned fewer games than
        // waited at the opening it always had one of those to scan.
        if games >= opened.waiting as i64 {
            println!(
                "                      the job ran out of games in the window: its cost is understated \
                 (raise --finished-games)"
            );
        }
    }
}

/// The CPU time (user and system) a process has used, in seconds (Linux `/proc`).
fn cpu_seconds(bot: &Child) -> f64 {
    stat_cpu_seconds(&std::fs::read_to_string(format!("/proc/{}/stat", bot.id())).unwrap_or_default())
}

/// The CPU time the bot's engine threads (`chimera-engine-N`) have used, in seconds: the puzzle
/// job's steps run there, and so does nothing else unless games against Chimera or analyses
/// run. A step too long to finish in the window shows here and not in `puzzle_scans`.
fn engine_cpu_seconds(bot: &Child) -> f64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{}/task", bot.id())) else { return f64::NAN };
    tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("stat")).ok())
        .filter(|stat| stat.contains("(chimera-engine-"))
        .map(|stat| stat_cpu_seconds(&stat))
        .sum()
}

/// The user and system CPU time of a `/proc` `stat` line, in seconds.
fn stat_cpu_seconds(stat: &str) -> f64 {
    // The fields after the command name, which sits in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(f64::NAN);
    // utime and stime, fields 14 and 15 of the line: 11 and 12 counted from the state (field 3).
    let per_second = 100.0; // USER_HZ on every Linux this runs on
    (ticks(11) + ticks(12)) / per_second
}

#[derive(Default)]
struct Sent {
    moves: u64,
    refused: u64,
    failed: u64,
    finished: u64,
    skipped: u64,
    picture_bytes: u64,
    last_refusal: String,
    restart: VecDeque<usize>,
}

/// A watched game's web key and its plies once the move is played.
type Watched = Option<(String, usize)>;

/// The next idle game in round-robin order, its mover, a random legal move, and whether viewers
/// watch it.
fn pick(tables: &Mutex<Vec<Table>>, next: &mut usize) -> Option<(usize, UserId, ChannelId, String, Watched)> {
    let mut tables = tables.lock().unwrap();
    for _ in 0..tables.len() {
        let index = *next % tables.len();
        *next += 1;
        let table = &mut tables[index];
        if table.busy {
            continue;
        }
        let moves = table.position.legal_moves();
        if moves.is_empty() {
            continue;
        }
        let chosen = &moves[fastrand::usize(..moves.len())];
        let text = table.position.san(chosen);
        table.busy = true;
        let user = if table.position.turn() == rules::Color::White { table.white } else { table.black };
        let watched = table.key.clone().map(|key| (key, table.plies + 1));
        return Some((index, user, table.channel, text, watched));
    }
    None
}

async fn restart_finished(fake: &Arc<FakeDiscord>, tables: &Arc<Mutex<Vec<Table>>>, sent: &Arc<Mutex<Sent>>) {
    let Some(index) = sent.lock().unwrap().restart.pop_front() else { return };
    let (channel, white, black, variant) = {
        let tables = tables.lock().unwrap();
        let t = &tables[index];
        (t.channel, t.white, t.black, t.position.variant())
    };
    let (fake, tables) = (Arc::clone(fake), Arc::clone(tables));
    tokio::spawn(async move {
        start_game(&fake, channel, white, black, variant).await;
        tables.lock().unwrap()[index].busy = false;
    });
}

async fn start_game(fake: &FakeDiscord, channel: ChannelId, white: UserId, black: UserId, variant: Variant) {
    let choice = Variant::ALL.iter().position(|v| *v == variant).expect("a variant");
    let args = json!({ "variant": choice, "opponent": black.get().to_string(), "color": 0, "time": "3d" });
    let challenge = fake.slash(white, channel, "challenge", args).expect("a challenge");
    challenge.response().await.expect("the challenge is answered");
    let accept = fake.slash(black, channel, "accept", json!({})).expect("an acceptance");
    let answer = accept.response().await.expect("the acceptance is answered");
    assert!(!answer.message.is_ephemeral(), "the game starts: {}", answer.message.content);
}

/// The length of the games played to a finish before the window (`--analyses`,
/// `--finished-games`): 60 moves.
const ANALYSED_PLIES: usize = 120;

/// How many of those games are played at once: each waits on the bot's answer to every move, so
/// a few at once keep the bots busy.
const FINISHING_AT_ONCE: usize = 8;

/// A game played to a finish before the window.
struct Finished {
    /// Its number, as `/analyse` takes it.
    game: usize,
    channel: ChannelId,
    white: UserId,
}

/// Plays `count` games to a finish, one per variant in turn over the guilds: started one after
/// another, so that a fresh database numbers them in order, then played a few at once, each with
/// moves from a generator seeded from `seed` and its number (the same games on every run).
async fn play_finished_games(fake: &Arc<FakeDiscord>, guilds: &[GuildId], count: usize, seed: u64) -> Vec<Finished> {
    if count == 0 {
        return Vec::new();
    }
    let began = Instant::now();
    let mut games = Vec::with_capacity(count);
    for i in 0..count {
        let channel = fake.add_channel(guilds[i % guilds.len()], &format!("finished-{i}"));
        let (white, black) = (fake.add_user(&format!("fw{i}")), fake.add_user(&format!("fb{i}")));
        let variant = Variant::ALL[i % Variant::ALL.len()];
        start_game(fake, channel, white, black, variant).await;
        games.push((Finished { game: i + 1, channel, white }, black, variant));
    }
    let mut playing = tokio::task::JoinSet::new();
    let mut finished = Vec::with_capacity(count);
    for (game, black, variant) in games {
        let fake = Arc::clone(fake);
        let mut rng = fastrand::Rng::with_seed(seed ^ game.game as u64);
        playing.spawn(async move {
            let plies =
                play_to_the_end(&fake, game.channel, game.white, black, variant, ANALYSED_PLIES, &mut rng).await;
            (game, plies)
        });
        while playing.len() >= FINISHING_AT_ONCE {
            finished.push(playing.join_next().await.expect("a game").expect("a finished game"));
        }
    }
    while let Some(done) = playing.join_next().await {
        finished.push(done.expect("a finished game"));
    }
    finished.sort_by_key(|(game, _)| game.game);
    let plies: usize = finished.iter().map(|(_, plies)| plies).sum();
    println!(
        "{count} games finished before the window ({plies} plies in all) in {:.1} s",
        began.elapsed().as_secs_f64()
    );
    finished.into_iter().map(|(game, _)| game).collect()
}

/// Plays random legal moves (from `rng`) in the started game between `white` and `black` until
/// it ends or has `plies` plies, then has the player to move resign; returns the plies played.
async fn play_to_the_end(
    fake: &FakeDiscord,
    channel: ChannelId,
    white: UserId,
    black: UserId,
    variant: Variant,
    plies: usize,
    rng: &mut fastrand::Rng,
) -> usize {
    let mut position = Position::start(variant);
    for ply in 0..plies {
        let legal = position.legal_moves();
        let mover = if position.turn() == rules::Color::White { white } else { black };
        let text = position.san(&legal[rng.usize(..legal.len())]);
        let args = json!({ "move": text, "confirm": true });
        let answer = fake.slash(mover, channel, "move", args).expect("a move").response().await.expect("an answer");
        assert!(!answer.message.is_ephemeral(), "{text} is played: {}", answer.message.content);
        if ["1-0", "0-1", "1/2-1/2"].iter().any(|r| answer.message.content.contains(r)) {
            return ply + 1;
        }
        position.play_unchecked(&position.parse_move(&text).expect("a legal move"));
    }
    let mover = if position.turn() == rules::Color::White { white } else { black };
    let asked = fake.slash(mover, channel, "resign", json!({})).expect("a resignation").response().await;
    let asked = asked.expect("resigning asks to confirm").message;
    let confirm = asked.components().into_iter().filter_map(|c| c.custom_id);
    let confirm = confirm.into_iter().find(|id| id.starts_with("/resign confirm:yes")).expect("a button to confirm");
    let click = fake.click(mover, asked.id, &confirm).expect("a click");
    click.response().await.expect("the click is answered");
    let resigned = click.followups(1).await.expect("the resignation follows").remove(0);
    assert!(resigned.content.contains("resigns"), "the game ends: {}", resigned.content);
    plies
}

/// Asks for the analysis of `game` and waits for it in the channel; returns how long it took.
async fn analyse(fake: &FakeDiscord, channel: ChannelId, player: UserId, game: usize) -> Duration {
    let asked = Instant::now();
    let handle = fake.slash(player, channel, "analyse", json!({ "game": game })).expect("an /analyse");
    let wanted = format!("Analysis of game {game}");
    loop {
        if fake.messages_in(channel).iter().any(|m| m.author == fake.bot_id() && m.content.contains(&wanted)) {
            return asked.elapsed();
        }
        // A refusal is the interaction's private answer: polled once each turn of the loop.
        if let Ok(Ok(answer)) = tokio::time::timeout(Duration::ZERO, handle.response()).await {
            assert!(!answer.message.is_ephemeral(), "the analysis is refused: {}", answer.message.content);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The variants of the games against Chimera: those whose moves read back from one word of
/// its message (a Grolman turn's chain has spaces).
const ENGINE_VARIANTS: [Variant; 5] =
    [Variant::Chess, Variant::Golem, Variant::GhostKing, Variant::Werewolf, Variant::UnicornGreat];

/// One player against Chimera at level 8: answers each of its moves at once with a random legal
/// move, and starts a new game when one ends, until `stop`.
async fn against_chimera(
    fake: &FakeDiscord,
    channel: ChannelId,
    player: UserId,
    variant: Variant,
    moves: &std::sync::atomic::AtomicU64,
    stop: &std::sync::atomic::AtomicBool,
) {
    let choice = Variant::ALL.iter().position(|v| *v == variant).expect("a variant");
    let mut seen = 0;
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        let args = json!({ "variant": choice, "level": 8, "color": 0, "time": "3d" });
        let started = fake.slash(player, channel, "play", args).expect("a /play");
        let answer = started.response().await.expect("the /play is answered");
        assert!(!answer.message.is_ephemeral(), "the game starts: {}", answer.message.content);
        let mut position = Position::start(variant);
        loop {
            let legal = position.legal_moves();
            if legal.is_empty() {
                break;
            }
            let text = position.san(&legal[fastrand::usize(..legal.len())]);
            let Ok(handle) = fake.slash(player, channel, "move", json!({ "move": text, "confirm": true })) else {
                return;
            };
            let Ok(answer) = handle.response().await else { return };
            if answer.message.is_ephemeral()
                || ["1-0", "0-1", "1/2-1/2"].iter().any(|r| answer.message.content.contains(r))
            {
                break;
            }
            position.play_unchecked(&position.parse_move(&text).expect("a legal move"));
            // Chimera's answer: the first of its messages in this channel not yet seen.
            let said = loop {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    return;
                }
                let mine: Vec<String> = fake
                    .messages_in(channel)
                    .into_iter()
                    .filter(|m| m.author == fake.bot_id() && m.content.starts_with("Chimera (level 8)"))
                    .map(|m| m.content)
                    .collect();
                if mine.len() > seen {
                    seen += 1;
                    break mine[seen - 1].clone();
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            };
            moves.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if ["1-0", "0-1", "1/2-1/2"].iter().any(|r| said.contains(r)) {
                break;
            }
            // `Chimera (level 8) (Black) played 12... Nf6. e0 (White) to move.`
            let san = said.split(" played ").nth(1).and_then(|rest| rest.split_whitespace().nth(1));
            let Some(m) = san.and_then(|san| position.parse_move(san.trim_end_matches('.')).ok()) else { break };
            position.play_unchecked(&m);
        }
    }
}

/// What scraping the bots' endpoints through the window saw.
#[derive(Default)]
struct Scraped {
    scrapes: u64,
    failed: u64,
    unhealthy: u64,
    outbox: f64,
    engine_queue: f64,
}

/// Scrapes every bot's `/metrics` and `/healthz` four times a second until `on` is cleared.
async fn scrape_while(endpoints: Vec<std::net::SocketAddr>, on: Arc<std::sync::atomic::AtomicBool>) -> Scraped {
    let mut seen = Scraped::default();
    let mut every = tokio::time::interval(Duration::from_millis(250));
    while on.load(std::sync::atomic::Ordering::Relaxed) {
        every.tick().await;
        for &addr in &endpoints {
            let scraped = tokio::time::timeout(Duration::from_secs(2), async {
                (scrape::get(addr, "/metrics").await, scrape::get(addr, "/healthz").await)
            })
            .await;
            seen.scrapes += 1;
            let Ok(((200, metrics), (health, _))) = scraped else {
                seen.failed += 1;
                continue;
            };
            seen.unhealthy += u64::from(health != 200);
            seen.outbox = seen.outbox.max(scrape::value(&metrics, "chimera_outbox_depth").unwrap_or(0.0));
            seen.engine_queue = seen.engine_queue.max(scrape::value(&metrics, "chimera_engine_queue").unwrap_or(0.0));
        }
    }
    seen
}

/// The `/move` commands the bots have counted, all of them together.
async fn count_moves(endpoints: &[std::net::SocketAddr]) -> u64 {
    let mut total = 0.0;
    for &addr in endpoints {
        let (_, metrics) = scrape::get(addr, "/metrics").await;
        total += scrape::value(&metrics, r#"chimera_commands_total{network="discord",kind="move"}"#).unwrap_or(0.0);
    }
    total as u64
}

fn start_bot(
    fake: &FakeDiscord,
    db: &str,
    shard: u32,
    shards: u32,
    endpoint: std::net::SocketAddr,
    web: Option<std::net::SocketAddr>,
    puzzle_cpu: u32,
) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chimera"));
    if let Some(web) = web {
        command.env("CHIMERA_WEB_ADDR", web.to_string());
    }
    command
        .arg("discord")
        .env("CHIMERA_HTTP_ADDR", endpoint.to_string())
        .env("DISCORD_TOKEN", fake.token())
        .env("DISCORD_PROXY_URL", fake.base_url())
        .env("DISCORD_SHARDS", format!("{shard}-{shard}/{shards}"))
        .env("CHIMERA_DB", db)
        // The load is many players at a pace no person keeps: the per-user command limit
        // (`CHIMERA_LIMIT_COMMANDS`) would refuse the set-up's quick moves.
        .env("CHIMERA_LIMIT_COMMANDS", "100000")
        .env("CHIMERA_PUZZLE_CPU", puzzle_cpu.to_string())
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .spawn()
        .expect("the chimera binary starts")
}

/// The bot's resident memory now and at its peak, in MB (Linux `/proc`).
fn memory(bot: &Child) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{}/status", bot.id())).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(f64::NAN, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}
