//! The Matrix bot under load, against a real Synapse on this machine: 50 rooms, each with a
//! game between the same two people (matrix-sdk clients), moves sent at a steady rate across
//! the rooms for 60 s. Reports the moves per second sustained, the time from a person's send to
//! the board picture arriving at their client by sync (p50, p99), the bot's memory (it runs as
//! the `chimera matrix` binary, so its own process is measured) and, beside it, Synapse's CPU
//! and memory over the same minute.
//!
//! `cargo bench -p chimera --bench matrix_load` (env: ROOMS, RATE moves/s, SECONDS).

#![recursion_limit = "256"]

#[path = "../tests/matrix/harness.rs"]
mod harness;
#[path = "../tests/matrix/synapse.rs"]
mod synapse;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use harness::{Person, What};
use matrix_sdk::ruma::OwnedRoomId;

/// A cycle of knight moves that never repeats a position five times within 24 plies.
const CYCLE: [&str; 8] = ["Nf3", "Nf6", "Nc3", "Nc6", "Nb1", "Nb8", "Ng1", "Ng8"];

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// (resident now, peak resident) in KiB, and CPU seconds used, of a process.
fn cost(pid: u32) -> (u64, u64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of stat; after the ")" they are the 12th and 13th.
    let cpu = (ticks(11) + ticks(12)) / 100.0;
    (field("VmRSS:"), field("VmHWM:"), cpu)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let rooms = env_number("ROOMS", 50) as usize;
    let rate = env_number("RATE", 20) as f64;
    let seconds = env_number("SECONDS", 60);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(run(rooms, rate, seconds));
}

async fn run(rooms: usize, rate: f64, seconds: u64) {
    let synapse = synapse::synapse();
    let (synapse_rss_idle, _, _) = cost(synapse.pid);
    let bot = harness::Bot::register().await;
    let mut process = std::process::Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("matrix")
        .envs(bot.env_vars())
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the bot starts");
    let (alice, bob) = (Person::new("alice").await, Person::new("bob").await);
    eprintln!("setting up {rooms} rooms");
    let mut ids: Vec<OwnedRoomId> = Vec::new();
    for _ in 0..rooms {
        let room = alice.create_room(false, &[&bob.id, &bot.id]).await.room_id().to_owned();
        bob.join(&room).await;
        alice.sees_joined(&room, &bot.id).await;
        alice.say(&room, &format!("!challenge {} variant:chess color:white time:1d", bob.id)).await;
        bob.expect(&room, &bot.id, "a challenge", |s| s.is_notice() && s.body().contains("challenges")).await;
        bob.say(&room, "!accept").await;
        alice.expect(&room, &bot.id, "the opening board", |s| matches!(s.what, What::Image { .. })).await;
        ids.push(room);
    }
    eprintln!("sending {rate} moves/s for {seconds} s");
    let (bot_rss_before, _, bot_cpu_before) = cost(process.id());
    let (_, _, synapse_cpu_before) = cost(synapse.pid);
    let mark = alice.mark();
    let start = Instant::now();
    let total = (rate * seconds as f64) as usize;
    let mut sent: HashMap<(OwnedRoomId, usize), Instant> = HashMap::new();
    let mut plies = vec![0usize; rooms];
    for i in 0..total {
        let due = start + Duration::from_secs_f64(i as f64 / rate);
        tokio::time::sleep_until(due.into()).await;
        let r = i % rooms;
        let ply = plies[r];
        plies[r] += 1;
        let mover = if ply.is_multiple_of(2) { &alice } else { &bob };
        sent.insert((ids[r].clone(), ply), Instant::now());
        let room = mover.room(&ids[r]);
        let content =
            matrix_sdk::ruma::events::room::message::RoomMessageEventContent::text_plain(CYCLE[ply % CYCLE.len()]);
        // Sent without waiting for the homeserver's answer, as many people would be typing.
        tokio::spawn(async move {
            let _ = room.send(content).await;
        });
    }
    let sending = start.elapsed();
    // Let the last boards arrive.
    let deadline = Instant::now() + Duration::from_secs(60);
    let boards = |alice: &Person| alice.seen()[mark..].iter().filter(|s| matches!(s.what, What::Image { .. })).count();
    while boards(&alice) < total && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let elapsed = start.elapsed();
    let (bot_rss, bot_peak, bot_cpu) = cost(process.id());
    let (synapse_rss, synapse_peak, synapse_cpu) = cost(synapse.pid);
    let mut per_room: HashMap<OwnedRoomId, usize> = HashMap::new();
    let mut latencies = Vec::new();
    let mut last_board = start;
    for seen in &alice.seen()[mark..] {
        if !matches!(seen.what, What::Image { .. }) {
            continue;
        }
        let ply = per_room.entry(seen.room.clone()).or_insert(0);
        if let Some(at) = sent.get(&(seen.room.clone(), *ply)) {
            latencies.push(seen.at.duration_since(*at));
        }
        *ply += 1;
        last_board = last_board.max(seen.at);
    }
    latencies.sort();
    let answered = latencies.len();
    let span = last_board.duration_since(start).as_secs_f64().max(1e-3);
    let _ = process.kill();
    let _ = process.wait();
    println!(
        "| rooms | moves sent | sent over | boards back | moves/s sustained | p50 send→board | p99 send→board | max |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    println!(
        "| {rooms} | {total} | {:.1} s | {answered} | {:.1} | {} ms | {} ms | {} ms |",
        sending.as_secs_f64(),
        answered as f64 / span,
        percentile(&latencies, 0.5).as_millis(),
        percentile(&latencies, 0.99).as_millis(),
        latencies.last().copied().unwrap_or_default().as_millis()
    );
    println!();
    println!("| process | RSS before | RSS after | peak RSS | CPU seconds during the run |");
    println!("|---|---|---|---|---|");
    println!(
        "| chimera matrix (bot) | {} MiB | {} MiB | {} MiB | {:.1} |",
        bot_rss_before / 1024,
        bot_rss / 1024,
        bot_peak / 1024,
        bot_cpu - bot_cpu_before
    );
    println!(
        "| Synapse | {} MiB (idle, at start) | {} MiB | {} MiB | {:.1} |",
        synapse_rss_idle / 1024,
        synapse_rss / 1024,
        synapse_peak / 1024,
        synapse_cpu - synapse_cpu_before
    );
    println!("(wall time measured: {:.1} s)", elapsed.as_secs_f64());
}
