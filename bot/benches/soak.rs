//! The soak with crashes (issue 17): the built bot, as `chimera discord` against the fake
//! Discord and as `chimera matrix` against a real Synapse, for a long run of games in every
//! variant (correspondence and 1+0 clocks, some left to run out, resignations, games against
//! Chimera at level 1, round-robin tournaments at 1+0), while both processes are killed with
//! SIGKILL at random moments (seeded) and started again on the same database and Matrix store.
//!
//! The players pick their moves from the board as it stands (the database, read-only) and
//! record what the bot *told* them: every move it acknowledged, with its request id, ply and
//! SAN. At the end the bots are stopped with SIGTERM and the store is compared with that:
//! every acknowledged move stored exactly once at its ply; every move the bot announced on its
//! own stored; every game's plies 1..n, legal from the start, ended when the rules say so,
//! nothing after the end, no clock left run out; no interaction answered twice, no
//! announcement twice in a game, no Matrix event answered twice; no process that died by
//! itself; Chimera never left its move undone; memory not grown from the first lives to the
//! last. Any difference fails the run (exit 1) with what differed.
//!
//! `cargo bench --workspace --bench soak -- [--minutes 20] [--no-matrix] [--seed N]
//! [--tables N] [--engine-tables N] [--rooms N] [--kill-every MIN-MAX]` (defaults: 20 minutes,
//! Matrix on, 16 tables, 3 engine tables, 3 Matrix rooms, a kill every 15-60 s). The run's
//! databases and the bots' logs stay in `target/soak/run-*`.

#![recursion_limit = "256"]

#[path = "../tests/matrix/harness.rs"]
mod harness;
#[path = "../tests/matrix/synapse.rs"]
mod synapse;

#[path = "soak/check.rs"]
mod check;
#[path = "soak/discord.rs"]
mod discord;
#[path = "soak/ledger.rs"]
mod ledger;
#[path = "soak/look.rs"]
mod look;
#[path = "soak/matrix.rs"]
mod matrix;
#[path = "soak/procs.rs"]
mod procs;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use fakecord::{Config, FakeDiscord};

use crate::procs::Supervised;

struct Options {
    minutes: f64,
    matrix: bool,
    seed: u64,
    tables: usize,
    engine_tables: usize,
    rooms: usize,
    kill_every: (u64, u64),
    /// Injects known differences into the comparison and fails unless each is caught.
    self_check: bool,
}

fn options() -> Options {
    let args: Vec<String> = std::env::args().collect();
    let text = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let number = |name: &str, default: f64| {
        text(name).map_or(default, |v| v.parse().unwrap_or_else(|_| panic!("{name}: not a number: {v}")))
    };
    let kill_every = text("--kill-every").map_or((15, 60), |v| {
        let (a, b) = v.split_once('-').expect("--kill-every MIN-MAX (seconds)");
        (a.parse().expect("--kill-every MIN"), b.parse().expect("--kill-every MAX"))
    });
    Options {
        minutes: number("--minutes", 20.0),
        matrix: !args.iter().any(|a| a == "--no-matrix"),
        seed: number("--seed", 17.0) as u64,
        tables: number("--tables", 16.0) as usize,
        engine_tables: number("--engine-tables", 3.0) as usize,
        rooms: number("--rooms", 3.0) as usize,
        kill_every,
        self_check: args.iter().any(|a| a == "--self-check"),
    }
}

fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
    }
}

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970").as_millis() as i64
}

/// Settings both bots get: small boards, a quick scheduler, limits out of the way (the soak
/// is not about them), one engine thread.
fn common_env(db: &Path) -> HashMap<String, String> {
    [
        ("CHIMERA_DB", db.display().to_string()),
        ("CHIMERA_BOARD_SIZE", "160".into()),
        ("CHIMERA_TICK_MS", "250".into()),
        ("CHIMERA_LIMIT_OPEN_CHALLENGES", "1000".into()),
        ("CHIMERA_LIMIT_GAMES", "1000".into()),
        ("CHIMERA_LIMIT_COMMANDS", "100000".into()),
        ("CHIMERA_LIMIT_ENGINE_GAMES", "100".into()),
        ("CHIMERA_LIMIT_TOURNAMENT_SIZE", "128".into()),
        ("CHIMERA_ENGINE_THREADS", "1".into()),
        ("RUST_LOG", "warn".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

fn main() {
    // The readers of the bot's words, on the words themselves.
    assert_eq!(ledger::played("a (White) played 1. e4. b (Black) to move."), Some((1, "e4".into())));
    assert_eq!(ledger::played("b (Black) played 12... Qh4#. Black wins"), Some((24, "Qh4#".into())));
    assert_eq!(ledger::begins("Game 7 begins: a (White)"), Some(7));
    let options = options();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    let failures = runtime.block_on(run(&options));
    runtime.shutdown_timeout(Duration::from_secs(5));
    if !failures.is_empty() {
        eprintln!("\nTHE SOAK FAILED: {} difference(s)", failures.len());
        for failure in failures.iter().take(60) {
            eprintln!("  - {failure}");
        }
        std::process::exit(1);
    }
    println!("\nThe soak passed: every check held.");
}

async fn run(options: &Options) -> Vec<String> {
    let started = Instant::now();
    let duration = Duration::from_secs_f64(options.minutes * 60.0);
    let end = started + duration;
    let dir = target_dir().join("soak").join(format!("run-{}", now_ms() / 1000));
    std::fs::create_dir_all(&dir).expect("a directory for the run");
    println!("soak: {:.1} minutes, seed {}, files in {}", options.minutes, options.seed, dir.display());
    let mut rng = fastrand::Rng::with_seed(options.seed);

    // Discord: the fake and the bot.
    let config = Config { wait_timeout: Duration::from_secs(15), ..Config::default() };
    let fake = Arc::new(FakeDiscord::start_with(config).await.expect("the fake binds"));
    let guild = fake.add_guild("Soak");
    let discord_db = dir.join("discord.db");
    let mut env = common_env(&discord_db);
    env.insert("DISCORD_TOKEN".into(), fake.token());
    env.insert("DISCORD_PROXY_URL".into(), fake.base_url());
    // The bot's own lines about starting and stopping, and serenity's about its shards, so that
    // an exit nobody asked for says where it came from.
    env.insert("RUST_LOG".into(), "warn,chimera=info,serenity::gateway::bridge=info".into());
    let mut bots: Vec<Supervised> = vec![Supervised::new("discord", &["discord"], env, dir.clone())];
    bots[0].start();
    fake.wait_ready().await.expect("the bot connects");
    for command in ["move", "tournament", "play", "resign"] {
        fake.wait_command(command).await.expect("the bot registers its commands");
    }

    let ledger = Arc::new(ledger::Ledger::default());
    let stop = Arc::new(AtomicBool::new(false));
    let last_start = end.checked_sub(Duration::from_secs(30)).unwrap_or(end);
    let world = discord::World {
        fake: Arc::clone(&fake),
        ledger: Arc::clone(&ledger),
        db: discord_db.clone(),
        stop: Arc::clone(&stop),
        guild,
        last_start,
        channels: Arc::new(Mutex::new(Vec::new())),
        engine_channels: Arc::new(Mutex::new(Vec::new())),
    };
    let mut players = tokio::task::JoinSet::new();
    for i in 0..options.tables {
        players.spawn(discord::table(world.clone(), i, options.seed ^ (1000 + i as u64)));
    }
    for i in 0..options.engine_tables {
        players.spawn(discord::against_chimera(world.clone(), i, options.seed ^ (2000 + i as u64)));
    }
    let lobby = discord::tournaments(world.clone(), 4, options.seed ^ 3000).await;

    // Matrix: Synapse, the bot, and the rooms.
    let mut matrix_side = None;
    if options.matrix {
        let synapse = synapse::synapse();
        println!("Synapse at {}", synapse.url);
        let bot = harness::Bot::register().await;
        let mut env = bot.env_vars();
        let db = dir.join("matrix.db");
        env.extend(common_env(&db));
        env.insert("MATRIX_STORE_DIR".into(), dir.join("matrix-store").display().to_string());
        // The bot's own quieting of the SDK, at warn (its "no backup key" lines are noise).
        env.insert("RUST_LOG".into(), "warn,matrix_sdk::http_client=off,matrix_sdk_crypto::backups=error".into());
        let mut process = Supervised::new("matrix", &["matrix"], env, dir.clone());
        process.start();
        bots.push(process);
        let mworld = matrix::World {
            ledger: Arc::clone(&ledger),
            db: db.clone(),
            stop: Arc::clone(&stop),
            bot: bot.id.clone(),
            last_start,
            sent: Arc::default(),
        };
        let mut rooms = Vec::new();
        for i in 0..options.rooms {
            let a = Arc::new(harness::Person::new("ma").await);
            let b = Arc::new(harness::Person::new("mb").await);
            let room = harness::table(&bot, &a, &[b.as_ref()], false).await;
            rooms.push((room.clone(), [Arc::clone(&a), Arc::clone(&b)]));
            players.spawn(matrix::room(mworld.clone(), [a, b], room, i, options.seed ^ (4000 + i as u64)));
        }
        matrix_side = Some((bot, db, rooms, mworld.sent));
    }
    println!("set up in {:.1} s; playing", started.elapsed().as_secs_f64());

    // The run: memory sampled every two seconds, kills at random moments until 45 s before
    // the end (the last stretch lets the bots settle what they owe).
    let mut kills = 0u32;
    let mut next_kill = Instant::now() + Duration::from_secs(rng.u64(options.kill_every.0..=options.kill_every.1));
    let last_kill = end.checked_sub(Duration::from_secs(45)).unwrap_or(end);
    let mut last_line = Instant::now();
    while Instant::now() < end {
        tokio::time::sleep(Duration::from_secs(2)).await;
        for bot in &mut bots {
            bot.sample();
            if !bot.running() {
                // It died by itself (recorded as a failure): start it again so the run goes on.
                bot.start();
            }
        }
        if Instant::now() >= next_kill && Instant::now() < last_kill {
            kills += 1;
            for bot in &mut bots {
                bot.kill();
            }
            tokio::time::sleep(Duration::from_millis(rng.u64(200..3000))).await;
            for bot in &mut bots {
                bot.start();
            }
            next_kill = Instant::now() + Duration::from_secs(rng.u64(options.kill_every.0..=options.kill_every.1));
        }
        if last_line.elapsed() > Duration::from_secs(30) {
            last_line = Instant::now();
            println!(
                "{:>5.0} s: {} kills, {} moves acknowledged (Discord {}, Matrix {}), {} interactions unanswered",
                started.elapsed().as_secs_f64(),
                kills,
                ledger.acks.lock().unwrap().len(),
                ledger.get("moves acknowledged"),
                ledger.get("matrix moves acknowledged"),
                ledger.get("interactions unanswered"),
            );
        }
    }

    // The end: players stop, the bots settle for a while, then stop cleanly.
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let stopping = Instant::now();
    while players.join_next().await.is_some() {
        if stopping.elapsed() > Duration::from_secs(90) {
            players.abort_all();
        }
    }
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_secs(2)).await;
        for bot in &mut bots {
            bot.sample();
        }
    }
    let stopped_at = now_ms();
    for bot in &mut bots {
        tokio::task::block_in_place(|| bot.terminate(Duration::from_secs(30)));
    }

    // The comparison.
    let mut findings = check::Findings::default();
    let acks = ledger.acks.lock().unwrap().clone();
    let stored = check::read(&discord_db);
    let mut stores = vec![("Discord", &stored)];
    let matrix_stored = matrix_side.as_ref().map(|(_, db, _, _)| check::read(db));
    if let Some(stored) = &matrix_stored {
        stores.push(("Matrix", stored));
    }
    let all = check::Stored {
        games: stores.iter().flat_map(|(_, s)| s.games.iter().cloned()).collect(),
        tournaments: stored.tournaments.clone(),
        outbox: stores.iter().flat_map(|(_, s)| s.outbox.iter().cloned()).collect(),
    };
    let mut all = all;
    let mut acks = acks;
    if options.self_check {
        inject(&mut all, &mut acks);
    }
    check::acknowledged(&all, &acks, &mut findings);
    // Said twice, and moves announced on their own.
    let mut twice: Vec<String> = Vec::new();
    let mut told: Vec<(String, String)> = Vec::new();
    let mut channels = world.channels.lock().unwrap().clone();
    channels.extend(fake.threads_of(lobby).into_iter().map(|t| t.id));
    let bot_id = fake.bot_id();
    let mut injected_twice = false;
    for channel in &channels {
        let messages: Vec<fakecord::Message> =
            fake.messages_in(*channel).into_iter().filter(|m| m.author == bot_id).collect();
        let mut messages = messages;
        if options.self_check && !injected_twice {
            // A self-check: an announcement posted twice.
            if let Some(first) = messages.iter().find(|m| m.interaction.is_none()).cloned() {
                messages
                    .push(fakecord::Message { content: format!("{} (self-check)", first.content), ..first.clone() });
                messages.push(fakecord::Message { content: format!("{} (self-check)", first.content), ..first });
                injected_twice = true;
            }
        }
        twice.extend(check::discord_twice(&messages).into_iter().map(|t| format!("<#{channel}>: {t}")));
        told.extend(
            messages.iter().filter(|m| m.interaction.is_none()).map(|m| (channel.get().to_string(), m.content.clone())),
        );
    }
    if let Some((bot, _, rooms, sent)) = &matrix_side {
        for (room, people) in rooms {
            let notices = matrix::notices(&people[0], room, &bot.id);
            twice.extend(matrix::said_twice(&notices).into_iter().map(|t| format!("{room}: {t}")));
            told.extend(notices.iter().map(|n| (room.to_string(), n.body().to_string())));
        }
        // Every move a player sent was answered by the end, kills or not.
        let never = matrix::never_answered(&sent.lock().unwrap(), rooms, &bot.id);
        // Listed with the counts in the report, 0 included: the figure the run must keep at 0.
        ledger.set("matrix moves never answered (must be 0)", never.len() as u64);
        for m in never.iter().take(10) {
            findings.failures.push(format!("a Matrix move never answered: {} in {} (ply {})", m.san, m.room, m.ply));
        }
        if never.len() > 10 {
            findings.failures.push(format!("... and {} more Matrix moves never answered", never.len() - 10));
        }
    }
    check::announced(&all, &told, &mut findings);
    // One callback per interaction.
    let mut callbacks: BTreeMap<String, usize> = BTreeMap::new();
    for request in fake.requests() {
        let parts: Vec<&str> = request.path.trim_start_matches('/').split('/').collect();
        if parts.len() == 4 && parts[0] == "interactions" && parts[3].starts_with("callback") {
            *callbacks.entry(parts[1].to_string()).or_default() += 1;
        }
    }
    let called_twice: Vec<String> = callbacks
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(id, n)| format!("interaction {id} called back {n} times"))
        .collect();
    twice.extend(called_twice);
    for what in &twice {
        findings.failures.push(format!("said twice: {what}"));
    }
    check::games(&all, stopped_at - 15_000, &mut findings);
    for (created, body) in &all.outbox {
        if *created < stopped_at - 60_000 {
            findings.failures.push(format!("an announcement never posted (outbox since {created}): {body}"));
        }
    }
    for (game, waited) in ledger.engine_waits.lock().unwrap().iter() {
        if *waited > 120.0 {
            findings.failures.push(format!("game {game}: Chimera left its move undone for {waited:.0} s"));
        }
    }
    for bot in &bots {
        for exit in &bot.own_exits {
            findings.failures.push(format!("a bot process ended by itself: {exit}"));
        }
    }
    let memory = memory_report(&bots, &mut findings);
    if options.self_check {
        self_checked(&mut findings);
    }

    report(options, &ledger, &all, &stored, &world, &findings, &bots, kills, &memory, twice.len(), started.elapsed());
    findings.failures
}

/// The game id the self-check's broken copy of a game carries.
const BROKEN: i64 = -17;

/// Known differences, for `--self-check`: a move acknowledged but never stored, one
/// acknowledged twice, and a game whose stored moves are out of order.
fn inject(all: &mut check::Stored, acks: &mut Vec<ledger::Ack>) {
    let first = acks.first().cloned().expect("a move acknowledged to inject beside");
    acks.push(ledger::Ack { request: "self-check".into(), said: "self-check".into(), ..first.clone() });
    acks.push(ledger::Ack { ply: first.ply + 1, said: "self-check".into(), ..first });
    let mut broken = all.games.iter().find(|g| g.moves.len() >= 4).cloned().expect("a game of four plies");
    broken.game.id = BROKEN;
    broken.moves.swap(1, 3);
    // Its own request ids, so that only its order is wrong.
    for (i, mv) in broken.moves.iter_mut().enumerate() {
        mv.request_id = format!("self-check:{i}");
    }
    all.games.push(broken);
}

/// Takes the injected differences out of the findings, failing the run if any went uncaught.
fn self_checked(findings: &mut check::Findings) {
    let injected = |f: &String| f.contains("self-check") || f.starts_with(&format!("game {BROKEN}:"));
    let caught: Vec<String> = findings.failures.iter().filter(|f| injected(f)).cloned().collect();
    findings.failures.retain(|f| !injected(f));
    let kinds = [
        ("a move acknowledged but not stored", "acknowledged but not stored: self-check"),
        ("a move acknowledged twice", "acknowledged twice (self-check)"),
        ("an announcement posted twice", "(self-check)"),
        ("a game out of order", &format!("game {BROKEN}:")),
    ];
    for (what, needle) in kinds {
        if !caught.iter().any(|f| f.contains(needle)) {
            findings.failures.push(format!("self-check: {what} went through the comparison unseen"));
        }
    }
    println!("self-check: {} injected differences caught:", caught.len());
    for f in &caught {
        println!("  - {f}");
    }
}

/// The steady memory of the first lives against the last ones, per process; a growth beyond
/// noise (25 MiB or a quarter, whichever is more) fails.
fn memory_report(bots: &[Supervised], findings: &mut check::Findings) -> Vec<String> {
    let mut lines = Vec::new();
    for bot in bots {
        let steady: Vec<f64> = bot.lives.iter().filter_map(|l| l.steady_mb()).collect();
        let peaks: Vec<String> = bot.lives.iter().map(|l| format!("{:.0}", l.peak_kb as f64 / 1024.0)).collect();
        let max_peak = bot.lives.iter().map(|l| l.peak_kb).max().unwrap_or(0) as f64 / 1024.0;
        let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len().max(1) as f64;
        let n = steady.len().min(3);
        let (first, last) = (mean(&steady[..n]), mean(&steady[steady.len() - n..]));
        let noise = (first * 0.25).max(25.0);
        if n > 0 && last > first + noise {
            findings.failures.push(format!(
                "{}: steady memory grew from {first:.0} MiB (first lives) to {last:.0} MiB (last lives)",
                bot.name
            ));
        }
        lines.push(format!(
            "| {} | {} | {:.0} MiB | {first:.0} MiB | {last:.0} MiB | {} |",
            bot.name,
            bot.lives.len(),
            max_peak,
            peaks.join(" ")
        ));
    }
    lines
}

#[allow(clippy::too_many_arguments)]
fn report(
    options: &Options,
    ledger: &ledger::Ledger,
    all: &check::Stored,
    discord_store: &check::Stored,
    world: &discord::World,
    findings: &check::Findings,
    bots: &[Supervised],
    kills: u32,
    memory: &[String],
    said_twice: usize,
    elapsed: Duration,
) {
    let games = &all.games;
    let by_reason =
        |needle: &str| games.iter().filter(|g| g.game.reason.as_deref().is_some_and(|r| r.contains(needle))).count();
    let engine_channels = world.engine_channels.lock().unwrap().clone();
    let engine_games = games.iter().filter(|g| engine_channels.contains(&g.game.channel)).count();
    let engine_moves: usize =
        games.iter().flat_map(|g| g.moves.iter()).filter(|m| m.request_id.starts_with("engine:")).count();
    let mut variants: BTreeMap<&str, usize> = BTreeMap::new();
    for g in games {
        *variants.entry(g.game.variant.as_str()).or_default() += 1;
    }
    let state = |s: data::GameState| games.iter().filter(|g| g.game.state == s).count();
    let restarts: usize = bots.iter().map(|b| b.lives.len().saturating_sub(1)).sum();
    let counts = ledger.counts();
    println!();
    println!("## Soak report");
    println!();
    println!("| figure | value |");
    println!("|---|---|");
    println!(
        "| run | {:.1} min (asked {:.1}), seed {}, Matrix {} |",
        elapsed.as_secs_f64() / 60.0,
        options.minutes,
        options.seed,
        if options.matrix { "on" } else { "off" }
    );
    println!(
        "| games stored | {} ({} finished, {} aborted, {} active at the end) |",
        games.len(),
        state(data::GameState::Finished),
        state(data::GameState::Aborted),
        state(data::GameState::Active)
    );
    println!(
        "| games by variant | {} |",
        variants.iter().map(|(v, n)| format!("{v} {n}")).collect::<Vec<_>>().join(", ")
    );
    println!(
        "| games on Discord / Matrix | {} / {} |",
        discord_store.games.len(),
        games.len() - discord_store.games.len()
    );
    println!("| moves stored | {} ({} of them Chimera's) |", findings.stored_moves, engine_moves);
    println!("| kills (SIGKILL, every process) | {kills} |");
    println!("| restarts (all processes) | {restarts} |");
    println!("| moves acknowledged to players | {} |", findings.acknowledged);
    println!("| … stored exactly once at their ply | {} |", findings.acknowledged_stored_once);
    println!(
        "| moves stored but never acknowledged (answer lost to a kill) | {} |",
        findings.stored_unacknowledged_people
    );
    println!(
        "| moves announced on their own (Chimera's) / found stored | {} / {} |",
        findings.announced_moves, findings.announced_stored
    );
    println!("| games replayed legally from the start | {} of {} |", findings.games_replayed, games.len());
    println!("| answered twice / announced twice | {said_twice} |");
    println!("| clocks run out (games ended on time) | {} |", by_reason("time"));
    println!("| resignations | {} |", by_reason("resign"));
    println!("| games against Chimera (level 1) | {engine_games} |");
    println!(
        "| tournaments | {} |",
        all.tournaments
            .iter()
            .map(|(id, name, state, rounds)| format!("{id} {name}: {state}, {rounds} rounds"))
            .collect::<Vec<_>>()
            .join("; ")
    );
    println!("| tournament games | {} |", games.iter().filter(|g| g.game.pairing.is_some()).count());
    println!("| announcements left in the outbox | {} |", all.outbox.len());
    for (what, n) in &counts {
        println!("| {what} | {n} |");
    }
    println!();
    println!("| moves refused, by the refusal's first words | times |");
    println!("|---|---|");
    for (why, n) in ledger.refusals().iter().take(12) {
        println!("| {why} | {n} |");
    }
    println!();
    println!(
        "| process | lives | peak RSS | steady RSS, first lives | steady RSS, last lives | peak RSS per life (MiB) |"
    );
    println!("|---|---|---|---|---|---|");
    for line in memory {
        println!("{line}");
    }
    println!();
    println!("| process | life | lasted | ended | steady RSS | peak RSS |");
    println!("|---|---|---|---|---|---|");
    for bot in bots {
        for (i, life) in bot.lives.iter().enumerate() {
            println!(
                "| {} | {} | {:.0} s | {} | {} | {:.0} MiB |",
                bot.name,
                i + 1,
                life.lasted.as_secs_f64(),
                life.ended,
                life.steady_mb().map_or("-".into(), |m| format!("{m:.0} MiB")),
                life.peak_kb as f64 / 1024.0
            );
        }
    }
}
