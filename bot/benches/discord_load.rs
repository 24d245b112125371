//! Load through the fake Discord: many games at once, moves sent at a steady rate, and the time
//! from each INTERACTION_CREATE reaching the bot's socket to the bot's reply, as the fake
//! measures it. The bot is the built `chimera discord` in its own process, so the memory
//! reported is the bot's alone.
//!
//! `cargo bench -p chimera --bench discord_load -- [--games N] [--rate MOVES_PER_S] [--seconds S]`
//! (defaults: 1000 games, 200 moves/s, 30 s).

use std::collections::VecDeque;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fakecord::{CallbackType, ChannelId, Config, FakeDiscord, InteractionKind, UserId};
use rules::{Position, Variant};
use serde_json::json;

struct Options {
    games: usize,
    rate: u32,
    seconds: u64,
}

fn options() -> Options {
    let mut options = Options { games: 1000, rate: 200, seconds: 30 };
    let args: Vec<String> = std::env::args().collect();
    let value =
        |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok());
    if let Some(games) = value("--games") {
        options.games = games as usize;
    }
    if let Some(rate) = value("--rate") {
        options.rate = rate as u32;
    }
    if let Some(seconds) = value("--seconds") {
        options.seconds = seconds;
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
}

fn main() {
    // `cargo bench` passes `--bench`; anything else of libtest's is not ours.
    let options = options();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(run(options));
}

async fn run(options: Options) {
    let config = Config { wait_timeout: Duration::from_secs(120), ..Config::default() };
    let fake = Arc::new(FakeDiscord::start_with(config).await.expect("the fake binds"));
    let guild = fake.add_guild("Load");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut bot = start_bot(&fake, guild.get(), &dir.path().join("load.db"));
    fake.wait_ready().await.expect("the bot connects");
    fake.wait_command("move").await.expect("the bot registers its commands");

    println!("starting {} games…", options.games);
    let set_up = Instant::now();
    let tables = Arc::new(Mutex::new(Vec::with_capacity(options.games)));
    let mut starts = tokio::task::JoinSet::new();
    for i in 0..options.games {
        let variant = Variant::ALL[i % Variant::ALL.len()];
        let channel = fake.add_channel(guild, &format!("table-{i}"));
        let (white, black) = (fake.add_user(&format!("w{i}")), fake.add_user(&format!("b{i}")));
        let (fake, tables) = (Arc::clone(&fake), Arc::clone(&tables));
        starts.spawn(async move {
            start_game(&fake, channel, white, black, variant).await;
            let position = Position::start(variant);
            tables.lock().unwrap().push(Table { channel, white, black, position, busy: false });
        });
        // Keep the set-up from flooding the bot: at most 64 games starting at once.
        while starts.len() >= 64 {
            starts.join_next().await;
        }
    }
    while starts.join_next().await.is_some() {}
    println!("{} games started in {:.1} s", options.games, set_up.elapsed().as_secs_f64());

    let rss_before = memory(&bot).0;
    let first_measured = fake.timings().len();
    let sent = Arc::new(Mutex::new(Sent::default()));
    let mut ticker = tokio::time::interval(Duration::from_secs_f64(1.0 / options.rate as f64));
    let window = Duration::from_secs(options.seconds);
    let started = Instant::now();
    let mut next = 0usize;
    let mut in_flight = tokio::task::JoinSet::new();
    while started.elapsed() < window {
        ticker.tick().await;
        let Some((index, user, channel, text)) = pick(&tables, &mut next) else {
            sent.lock().unwrap().skipped += 1;
            continue;
        };
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
                    let position = &mut table.position;
                    let played = position.parse_move(&text).expect("the move was legal");
                    position.play_unchecked(&played);
                    // A game that ended starts again on the same table.
                    if ["1-0", "0-1", "1/2-1/2"].iter().any(|r| answer.message.content.contains(r)) {
                        sent.finished += 1;
                        table.position = Position::start(position.variant());
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
    let (rss_after, peak) = memory(&bot);

    let timings: Vec<Duration> = fake.timings()[first_measured..]
        .iter()
        .filter(|t| t.kind == InteractionKind::ApplicationCommand)
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
    println!();
    println!("games at once         {}", options.games);
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
    println!("games finished        {}", sent.finished);
    println!("deferred answers      {deferred}");
    println!("latency median        {:.1} ms", at(0.5).as_secs_f64() * 1e3);
    println!("latency p99           {:.1} ms", at(0.99).as_secs_f64() * 1e3);
    println!("latency max           {:.1} ms", sorted.last().copied().unwrap_or_default().as_secs_f64() * 1e3);
    println!(
        "bot memory            {:.0} MB after set-up, {:.0} MB at the end, {:.0} MB peak",
        rss_before, rss_after, peak
    );
    let _ = bot.kill();
    let _ = bot.wait();
}

#[derive(Default)]
struct Sent {
    moves: u64,
    refused: u64,
    failed: u64,
    finished: u64,
    skipped: u64,
    last_refusal: String,
    restart: VecDeque<usize>,
}

/// The next idle game in round-robin order, its mover, and a random legal move.
fn pick(tables: &Mutex<Vec<Table>>, next: &mut usize) -> Option<(usize, UserId, ChannelId, String)> {
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
        return Some((index, user, table.channel, text));
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

fn start_bot(fake: &FakeDiscord, guild: u64, db: &std::path::Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("discord")
        .env("DISCORD_TOKEN", fake.token())
        .env("DISCORD_PROXY_URL", fake.base_url())
        .env("DISCORD_GUILD_ID", guild.to_string())
        .env("CHIMERA_DB", db)
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
