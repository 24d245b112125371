//! Two `chimera discord` processes, one deployment: the built binary twice, with
//! `DISCORD_SHARDS=0-0/2` and `1-1/2`, sharing one PostgreSQL schema, behind one fake Discord
//! that routes each guild's events to its shard. Games run in a guild on each shard
//! (correspondence games moving all the time, live games whose clocks run out, a knockout
//! tournament); the process of shard 0 is killed with SIGKILL in the middle of it and started
//! again. Then, from the database itself:
//!
//! - every move a player was answered for is stored, exactly once, in the order played; a move
//!   whose answer never came (it was in flight at the kill) is stored at most once;
//! - every live game whose clock ran out ended on time once, and said so once;
//! - nothing is left behind: no game past its deadline still running, the tournament over with
//!   one game per pairing, a clock of a game nobody touched not moved on by the restart (the
//!   other process was alive all along).
//!
//! PostgreSQL is `CHIMERA_TEST_POSTGRES_URL` (default 127.0.0.1:5432, database `test`); without
//! one the test says so in one line and passes, and under `CI=true` it fails.

use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fakecord::{shard_of, ChannelId, Config, FakeDiscord, GuildId, Message, UserId};
use rules::{Position, Variant};
use serde_json::json;

#[path = "../../data/src/testing/pg_schema.rs"]
#[allow(dead_code)]
mod pg_schema;

/// Games of each kind in each guild.
const CORRESPONDENCE: usize = 4;
const LIVE: usize = 5;

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// One `chimera discord` process.
struct Bot {
    child: Child,
}

impl Bot {
    fn start(fake: &FakeDiscord, db: &str, shard: u32, log: &std::path::Path) -> Bot {
        let log = std::fs::File::create(log).expect("a log file");
        let child = Command::new(env!("CARGO_BIN_EXE_chimera"))
            .arg("discord")
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DISCORD_TOKEN", fake.token())
            .env("DISCORD_PROXY_URL", fake.base_url())
            .env("DISCORD_SHARDS", format!("{shard}-{shard}/2"))
            .env("CHIMERA_DB", db)
            .env("CHIMERA_TICK_MS", "200")
            .env("CHIMERA_BOARD_SIZE", "160")
            .env("CHIMERA_LIMIT_COMMANDS", "100000")
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("the chimera binary starts");
        Bot { child }
    }

    /// SIGKILL: no shutdown, no last words.
    fn kill(&mut self) {
        self.child.kill().expect("the process is there to kill");
        self.child.wait().expect("the killed process is reaped");
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A game as its players see it: what they were answered for, and a move whose answer never
/// came (after which they stop, as they cannot know whether it counted).
struct Table {
    guild: GuildId,
    channel: ChannelId,
    white: UserId,
    black: UserId,
    position: Position,
    acknowledged: Vec<String>,
    unanswered: Option<String>,
}

/// The fake, the two guilds, and who plays.
struct World {
    fake: Arc<FakeDiscord>,
    next_user: Mutex<usize>,
}

impl World {
    fn user(&self) -> UserId {
        self.named_user().1
    }

    fn named_user(&self) -> (String, UserId) {
        let mut next = self.next_user.lock().unwrap();
        *next += 1;
        let name = format!("player{next}");
        (name.clone(), self.fake.add_user(&name))
    }

    fn choice(&self, command: &str, option: &str, name: &str) -> serde_json::Value {
        self.fake.choice(command, option, name)
    }

    /// alice challenges bob as White in `channel`, bob accepts: the game is on.
    async fn start_game(&self, channel: ChannelId, time: &str) -> (UserId, UserId) {
        let (white, black) = (self.user(), self.user());
        let (chess, white_side) =
            (self.choice("challenge", "variant", "Chess"), self.choice("challenge", "color", "White"));
        let args = json!({ "variant": chess, "opponent": black.get().to_string(), "color": white_side, "time": time });
        let challenge = self.fake.slash(white, channel, "challenge", args).expect("a challenge");
        let challenge = challenge.response().await.expect("the challenge is answered");
        assert!(!challenge.message.is_ephemeral(), "{}", challenge.message.content);
        let accept = self.fake.slash(black, channel, "accept", json!({})).expect("an acceptance");
        let answer = accept.response().await.expect("the acceptance is answered");
        assert!(!answer.message.is_ephemeral(), "the game starts: {}", answer.message.content);
        (white, black)
    }
}

/// Plays random legal moves in `table` until `stop`, pausing while its guild's process is
/// down; records what was answered.
async fn drive(fake: Arc<FakeDiscord>, table: Arc<Mutex<Table>>, stop: Arc<AtomicBool>, down: Arc<AtomicBool>) {
    while !stop.load(Ordering::SeqCst) {
        let (user, channel, text) = {
            let t = table.lock().unwrap();
            if t.unanswered.is_some() {
                return;
            }
            let moves = t.position.legal_moves();
            if moves.is_empty() {
                return;
            }
            let chosen = &moves[fastrand::usize(..moves.len())];
            let text = t.position.san(chosen);
            let user = if t.position.turn() == rules::Color::White { t.white } else { t.black };
            (user, t.channel, text)
        };
        if down.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        let answer = match fake.slash(user, channel, "move", json!({ "move": text, "confirm": true })) {
            Ok(handle) => handle.response().await,
            Err(e) => Err(e),
        };
        let over = {
            let mut t = table.lock().unwrap();
            match answer {
                Ok(answer) if !answer.message.is_ephemeral() => {
                    let played = t.position.parse_move(&text).expect("the move was legal");
                    t.position.play_unchecked(&played);
                    t.acknowledged.push(text);
                    ["1-0", "0-1", "1/2-1/2"].iter().any(|result| answer.message.content.contains(result))
                }
                Ok(answer) => panic!("a legal move refused in {}: {}", channel, answer.message.content),
                // No answer: the process died with the move in flight (or before it arrived).
                Err(_) => {
                    t.unanswered = Some(text);
                    true
                }
            }
        };
        if over {
            return;
        }
        tokio::time::sleep(Duration::from_millis(fastrand::u64(20..120))).await;
    }
}

/// The moves stored for the game of `channel`, in order.
fn stored_moves(db: &mut Pg, channel: ChannelId) -> Vec<String> {
    let rows = db
        .query(
            "SELECT m.san FROM moves m JOIN games g ON g.id = m.game_id
             WHERE g.platform = 'discord' AND g.channel = $1 ORDER BY m.ply",
            &[&channel.get().to_string()],
        )
        .expect("the moves are read");
    rows.iter().map(|r| r.get(0)).collect()
}

/// A connection to the test's schema, for reading what the bots stored. The client blocks (it
/// runs a runtime of its own), so each call leaves the test's runtime for its length.
struct Pg(Option<postgres::Client>);

type Params<'a> = &'a [&'a (dyn postgres::types::ToSql + Sync)];

impl Pg {
    fn connect(url: &str) -> Pg {
        let client = tokio::task::block_in_place(|| postgres::Client::connect(url, postgres::NoTls));
        Pg(Some(client.expect("the test schema answers")))
    }

    fn client(&mut self) -> &mut postgres::Client {
        self.0.as_mut().expect("open until dropped")
    }

    fn query(&mut self, sql: &str, params: Params<'_>) -> Result<Vec<postgres::Row>, postgres::Error> {
        tokio::task::block_in_place(|| self.client().query(sql, params))
    }

    fn query_one(&mut self, sql: &str, params: Params<'_>) -> Result<postgres::Row, postgres::Error> {
        tokio::task::block_in_place(|| self.client().query_one(sql, params))
    }

    fn execute(&mut self, sql: &str, params: Params<'_>) -> Result<u64, postgres::Error> {
        tokio::task::block_in_place(|| self.client().execute(sql, params))
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        if let Some(client) = self.0.take() {
            tokio::task::block_in_place(|| drop(client));
        }
    }
}

/// The messages of `channel` whose text contains `needle`.
fn said(fake: &FakeDiscord, channel: ChannelId, needle: &str) -> Vec<Message> {
    fake.messages_in(channel).into_iter().filter(|m| m.content.contains(needle)).collect()
}

/// Waits until `check` holds, polling every 100 ms; gives up with `what` after `limit`'s worth of
/// polls, so a state that never comes fails the test instead of hanging it (a liveness bound,
/// not a speed check).
async fn eventually(what: &str, limit: Duration, mut check: impl FnMut() -> bool) {
    const POLL: Duration = Duration::from_millis(100);
    let polls = limit.as_millis() / POLL.as_millis();
    for _ in 0..polls {
        if check() {
            return;
        }
        tokio::time::sleep(POLL).await;
    }
    panic!("{what}: never came, after {polls} polls");
}

/// A tournament game's players, White first, from its opening message.
async fn colours(fake: &FakeDiscord, thread: ChannelId, players: &HashMap<String, UserId>) -> (UserId, UserId) {
    let opening = fake.wait_message(thread, |m| m.content.contains("(White)")).await.expect("the game opens");
    let name_before = |marker: &str| {
        let at = opening.content.find(marker).expect("both colours named");
        let name = opening.content[..at].rsplit([' ', ':']).next().unwrap_or_default().to_string();
        *players.get(&name).unwrap_or_else(|| panic!("{name:?} is not a player: {}", opening.content))
    };
    (name_before(" (White)"), name_before(" (Black)"))
}

const FOOLS_MATE: [&str; 4] = ["f3", "e5", "g4", "Qh4#"];

/// Plays `moves` of Fool's Mate (Black wins) in a tournament thread, each answered publicly.
async fn play(fake: &FakeDiscord, thread: ChannelId, (white, black): (UserId, UserId), moves: &[&str]) {
    for mv in moves {
        let ply = FOOLS_MATE.iter().position(|m| m == mv).expect("a move of the mate");
        let user = if ply % 2 == 0 { white } else { black };
        let handle = fake.slash(user, thread, "move", json!({ "move": mv })).expect("the thread's shard is up");
        let answer = handle.response().await.expect("the move is answered");
        assert!(!answer.message.is_ephemeral(), "{mv}: {}", answer.message.content);
    }
}

#[test]
fn two_processes_share_one_database_and_one_survives_the_other_being_killed() {
    // The schema is made and dropped outside the runtime: its client blocks.
    let Some(schema) = pg_schema::PgSchema::fresh() else { return };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(two_processes(&schema));
}

async fn two_processes(schema: &pg_schema::PgSchema) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = Config { wait_timeout: Duration::from_secs(15), ..Config::default() };
    let fake = Arc::new(FakeDiscord::start_with(config).await.expect("the fake binds 127.0.0.1"));
    let north = fake.add_guild_on_shard("North", 0, 2);
    let south = fake.add_guild_on_shard("South", 1, 2);
    assert_eq!((shard_of(north, 2), shard_of(south, 2)), (0, 1));
    let world = World { fake: Arc::clone(&fake), next_user: Mutex::new(0) };

    let log = |name: &str| dir.path().join(name);
    let mut zero = Bot::start(&fake, &schema.url, 0, &log("shard0.log"));
    let one = Bot::start(&fake, &schema.url, 1, &log("shard1.log"));
    fake.wait_shard_ready(0).await.expect("shard 0 connects");
    fake.wait_shard_ready(1).await.expect("shard 1 connects");
    for command in ["challenge", "move", "tournament"] {
        fake.wait_command(command).await.expect("the commands are registered");
    }

    // The games: correspondence games to move in, live games to time out, and one game in each
    // guild that nobody touches.
    let mut tables = Vec::new();
    let mut live = Vec::new();
    let mut idle = Vec::new();
    for guild in [north, south] {
        for i in 0..CORRESPONDENCE {
            let channel = fake.add_channel(guild, &format!("corr-{i}"));
            let (white, black) = world.start_game(channel, "3d").await;
            let position = Position::start(Variant::Chess);
            let table = Table { guild, channel, white, black, position, acknowledged: vec![], unanswered: None };
            tables.push(Arc::new(Mutex::new(table)));
        }
        for i in 0..LIVE {
            let channel = fake.add_channel(guild, &format!("live-{i}"));
            world.start_game(channel, "1+0").await;
            live.push(channel);
        }
        let channel = fake.add_channel(guild, "idle");
        world.start_game(channel, "3d").await;
        idle.push(channel);
    }
    let mut db = Pg::connect(&schema.url);
    let deadline_of = |db: &mut Pg, channel: ChannelId| -> i64 {
        let row = db
            .query_one(
                "SELECT deadline FROM games WHERE platform = 'discord' AND channel = $1 AND state = 'active'",
                &[&channel.get().to_string()],
            )
            .expect("the idle game is on");
        row.get(0)
    };
    let idle_deadlines: Vec<i64> = idle.iter().map(|&c| deadline_of(&mut db, c)).collect();

    // A knockout in the north, whose process will be killed: four players, two games.
    let lobby = fake.add_channel(north, "lobby");
    let players: HashMap<String, UserId> = (0..4).map(|_| world.named_user()).collect();
    let organiser = *players.values().next().expect("four players");
    let cup = json!({
        "name": "Crash Cup",
        "variant": world.choice("tournament create", "variant", "Chess"),
        "format": world.choice("tournament create", "format", "Knockout"),
        "time": "3d",
    });
    let created = fake.slash(organiser, lobby, "tournament create", cup).expect("north is up");
    let created = created.response().await.expect("answered").message;
    assert!(created.content.contains("Crash Cup"), "{}", created.content);
    for &player in players.values() {
        let joined = fake.slash(player, lobby, "tournament join", json!({})).expect("north is up");
        let joined = joined.response().await.expect("answered").message;
        assert!(!joined.is_ephemeral(), "{}", joined.content);
    }
    let started = fake.slash(organiser, lobby, "tournament start", json!({})).expect("north is up");
    let started = started.response().await.expect("answered").message;
    assert!(started.content.contains("begins: knockout"), "{}", started.content);
    fake.wait_message(lobby, |m| m.content.contains("round 1 of 2")).await.expect("round 1 is announced");

    // Moves everywhere.
    let stop = Arc::new(AtomicBool::new(false));
    let north_down = Arc::new(AtomicBool::new(false));
    let mut drivers = tokio::task::JoinSet::new();
    for table in &tables {
        let down = if table.lock().unwrap().guild == north { Arc::clone(&north_down) } else { Arc::new(false.into()) };
        drivers.spawn(drive(Arc::clone(&fake), Arc::clone(table), Arc::clone(&stop), down));
    }

    // The live clocks are wound on in the database so that they run out around the kill
    // (rather than the test waiting out a minute): one every 400 ms from 1 s on.
    let wound = now_ms();
    for (i, &channel) in live.iter().enumerate() {
        let deadline = wound + 1_000 + 400 * i as i64;
        db.execute(
            "UPDATE games SET deadline = $2 WHERE platform = 'discord' AND channel = $1 AND state = 'active'",
            &[&channel.get().to_string(), &deadline],
        )
        .expect("the clock is wound");
    }

    // The tournament's first round: one game to the end, the other to its last move.
    let round_one = fake.threads_of(lobby);
    assert_eq!(round_one.len(), 2, "a thread per game");
    let mut sides = Vec::new();
    for thread in &round_one {
        sides.push(colours(&fake, thread.id, &players).await);
    }
    let mut finalists: Vec<UserId> = sides.iter().map(|&(_, black)| black).collect();
    play(&fake, round_one[0].id, sides[0], &FOOLS_MATE).await;
    let last_game = sides[1];
    play(&fake, round_one[1].id, last_game, &FOOLS_MATE[..3]).await;

    // SIGKILL shard 0's process in the middle of it all: the mate that ends round 1 just sent
    // (so the final may be half paired or half opened), moves in flight, clocks running out.
    let mate = fake.slash(last_game.1, round_one[1].id, "move", json!({ "move": "Qh4#" })).expect("north is up");
    tokio::time::sleep(Duration::from_millis(fastrand::u64(5..60))).await;
    let killed_at = now_ms();
    zero.kill();
    north_down.store(true, Ordering::SeqCst);
    let identified = fake.gateway_stats().identifies;
    // Shard 1's process goes on alone: every clock running out meanwhile is its to end,
    // north's too.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut zero = Bot::start(&fake, &schema.url, 0, &log("shard0-again.log"));
    fake.wait_gateway("shard 0 identifies again", |s| s.identifies > identified).await.expect("it comes back");
    fake.wait_shard_ready(0).await.expect("shard 0 is ready again");
    north_down.store(false, Ordering::SeqCst);
    let restarted_at = now_ms();
    // The mate's answer may never have come: its player looks at the game and, if the move
    // did not count, plays it again.
    let mate_answered = mate.response().await.is_ok();
    if !mate_answered && stored_moves(&mut db, round_one[1].id).len() < 4 {
        play(&fake, round_one[1].id, last_game, &FOOLS_MATE[3..]).await;
    }
    assert_eq!(stored_moves(&mut db, round_one[1].id), FOOLS_MATE, "the mate is stored once");
    tokio::time::sleep(Duration::from_secs(3)).await;
    stop.store(true, Ordering::SeqCst);
    while let Some(done) = drivers.join_next().await {
        done.expect("a driver finished");
    }

    // The final: opened by whichever process holds the tournament (a lease the killed one may
    // have held runs out within 30 s; the bound leaves a loaded machine room beyond that), then
    // played with both processes up.
    eventually("the final's thread", Duration::from_secs(90), || {
        fake.messages_in(lobby).iter().any(|m| m.content.contains("round 2 of 2"))
    })
    .await;
    let announced = said(&fake, lobby, "round 2 of 2");
    assert_eq!(announced.len(), 1, "the final is announced once");
    let final_thread = fake
        .threads_of(lobby)
        .into_iter()
        .find(|t| announced[0].content.contains(&format!("<#{}>", t.id.get())))
        .expect("the announcement links the final's thread");
    let sides = colours(&fake, final_thread.id, &players).await;
    let mut pair = vec![sides.0, sides.1];
    pair.sort();
    finalists.sort();
    assert_eq!(pair, finalists, "the final is between the winners of round 1");
    play(&fake, final_thread.id, sides, &FOOLS_MATE).await;
    eventually("the standings", Duration::from_secs(20), || !said(&fake, lobby, "\"Crash Cup\" is over").is_empty())
        .await;

    // Every live clock ran out, whoever was up.
    let live_channels: Vec<String> = live.iter().map(|c| c.get().to_string()).collect();
    eventually("every live game over", Duration::from_secs(20), || {
        let active: i64 = db
            .query_one(
                "SELECT count(*) FROM games WHERE platform = 'discord' AND channel = ANY($1) AND state = 'active'",
                &[&live_channels],
            )
            .expect("counted")
            .get(0);
        active == 0
    })
    .await;

    // And said so: an announcement the killed process left unposted is posted by another once
    // its hold runs out.
    eventually("every time-out announced", Duration::from_secs(60), || {
        live.iter().all(|&channel| !said(&fake, channel, "ran out of time").is_empty())
    })
    .await;

    // Both processes stop here; what follows reads what they left.
    zero.kill();
    drop(one);

    // 1. Every answered move stored once, in order; an unanswered one at most once, last.
    let mut answered = 0;
    let mut in_flight = 0;
    for table in &tables {
        let t = table.lock().unwrap();
        let stored = stored_moves(&mut db, t.channel);
        answered += t.acknowledged.len();
        match &t.unanswered {
            None => assert_eq!(stored, t.acknowledged, "channel {}", t.channel),
            Some(last) => {
                in_flight += 1;
                let mut with_it = t.acknowledged.clone();
                with_it.push(last.clone());
                assert!(stored == t.acknowledged || stored == with_it, "channel {}: {stored:?}", t.channel);
            }
        }
    }
    assert!(answered >= 4 * tables.len(), "the games moved: {answered} moves answered");
    assert!(in_flight <= CORRESPONDENCE, "only north's games had moves in flight at the kill ({in_flight})");

    // 2. Every live game ended on time, once, and said so once: the announcement is queued with
    // the end, so one the killed process had not posted yet is posted by the other (and one it
    // had posted is not posted again: Discord's nonce).
    for &channel in &live {
        let row = db
            .query_one(
                "SELECT state, reason, finished_at, (SELECT count(*) FROM games h
                 WHERE h.platform = 'discord' AND h.channel = g.channel) FROM games g
                 WHERE g.platform = 'discord' AND g.channel = $1",
                &[&channel.get().to_string()],
            )
            .expect("one game in the channel");
        let (state, reason, finished_at, games): (String, Option<String>, Option<i64>, i64) =
            (row.get(0), row.get(1), row.get(2), row.get(3));
        assert_eq!((state.as_str(), reason.as_deref(), games), ("finished", Some("time"), 1), "channel {channel}");
        assert!(finished_at.is_some(), "channel {channel}: finished at a time");
        let told = said(&fake, channel, "ran out of time").len();
        assert_eq!(told, 1, "channel {channel}: the time-out said {told} times");
    }

    // 3. Nothing stuck: no game past its deadline still on, no lease held by anyone.
    let overdue: i64 = db
        .query_one("SELECT count(*) FROM games WHERE state = 'active' AND deadline < $1", &[&now_ms()])
        .expect("counted")
        .get(0);
    assert_eq!(overdue, 0, "a game past its deadline is still on");
    // The survivor's scheduler takes a tournament's lease for each step and gives it back at
    // the step's end, and a lease the killed process held expires 30 s after its step began
    // (`STEP_LEASE_MS`): one may be held at any given moment, but none may stay held. (The
    // puzzle job's claims are leases too, held for a whole scan and, the killed process's, for
    // ten minutes: not what this counts.)
    let mut held = || -> i64 {
        db.query_one("SELECT count(*) FROM leases WHERE name LIKE 'tournament:%' AND expires_at > $1", &[&now_ms()])
            .expect("counted")
            .get(0)
    };
    eventually("every tournament lease given back", Duration::from_secs(45), || held() == 0).await;
    let leases = held();
    assert_eq!(leases, 0, "a tournament lease is still held");
    let unposted: i64 = db.query_one("SELECT count(*) FROM outbox", &[]).expect("counted").get(0);
    assert_eq!(unposted, 0, "an announcement was never posted");

    // 4. The tournament: over, one game per pairing, and every game in a thread of its lobby.
    let row = db
        .query_one(
            "SELECT t.state, (SELECT count(*) FROM pairings p JOIN rounds r ON r.id = p.round_id
                               WHERE r.tournament_id = t.id),
                    (SELECT count(*) FROM games g JOIN pairings p ON p.id = g.pairing_id
                      JOIN rounds r ON r.id = p.round_id WHERE r.tournament_id = t.id)
             FROM tournaments t",
            &[],
        )
        .expect("one tournament");
    let (state, pairings, games): (String, i64, i64) = (row.get(0), row.get(1), row.get(2));
    assert_eq!((state.as_str(), pairings, games), ("finished", 3, 3));
    assert_eq!(said(&fake, lobby, "\"Crash Cup\" is over").len(), 1, "the standings are posted once");

    // 5. The restart moved no clock on: the other process was alive all the while.
    let now: Vec<i64> = idle.iter().map(|&c| deadline_of(&mut db, c)).collect();
    assert_eq!(now, idle_deadlines, "the untouched games' clocks");
    let ended_while_down: i64 = db
        .query_one(
            "SELECT count(*) FROM games WHERE channel = ANY($1) AND finished_at > $2 AND finished_at < $3",
            &[&live_channels, &killed_at, &restarted_at],
        )
        .expect("counted")
        .get(0);
    eprintln!(
        "two processes: {answered} moves answered, {in_flight} in flight at the kill; {} clocks ran out, \
         {ended_while_down} while shard 0 was down; the mate that ended round 1 was {}",
        live.len(),
        if mate_answered { "answered before the kill" } else { "cut off by the kill" }
    );
}
