//! The Discord side of the soak: people in the fake Discord playing games between themselves
//! (correspondence and 1+0 clocks, some left to run out), games against Chimera at level 1, and
//! round-robin tournaments at 1+0, while the bot process is killed under them.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fakecord::{CallbackType, ChannelId, FakeDiscord, GuildId, InteractionHandle, UserId};
use rules::Variant;
use serde_json::json;

use crate::ledger::{played, Ack, Ledger};
use crate::look::{Live, Look};

pub const PLATFORM: &str = "discord";

/// Everything a Discord player task needs.
#[derive(Clone)]
pub struct World {
    pub fake: Arc<FakeDiscord>,
    pub ledger: Arc<Ledger>,
    pub db: PathBuf,
    pub stop: Arc<AtomicBool>,
    pub guild: GuildId,
    /// When new games and tournaments stop being started.
    pub last_start: Instant,
    /// Every channel the players use, for the checks at the end.
    pub channels: Arc<std::sync::Mutex<Vec<ChannelId>>>,
    /// The channels of the games against Chimera.
    pub engine_channels: Arc<std::sync::Mutex<Vec<String>>>,
}

impl World {
    fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// How an interaction went.
enum Answer {
    /// The bot answered for all to see.
    Public(String),
    /// The bot answered the user alone (a refusal, a question).
    Private(fakecord::Message),
    /// No answer came: the bot was down, or died before answering.
    None,
}

/// Sends an interaction and waits for its answer, counting what happened.
async fn answer_of(
    world: &World,
    sent: Result<InteractionHandle, fakecord::Error>,
) -> (Option<InteractionHandle>, Answer) {
    world.ledger.count("interactions sent");
    let Ok(handle) = sent else {
        world.ledger.count("interactions unanswered");
        return (None, Answer::None);
    };
    match handle.response().await {
        Ok(response) if response.message.is_ephemeral() => {
            world.ledger.count("interactions answered");
            (Some(handle), Answer::Private(response.message))
        }
        Ok(response) => {
            world.ledger.count("interactions answered");
            (Some(handle), Answer::Public(response.message.content))
        }
        Err(_) => {
            world.ledger.count("interactions unanswered");
            (Some(handle), Answer::None)
        }
    }
}

/// What a player intends for a game: to play on, or to stop moving at some ply and let the
/// clock run out.
struct Plan {
    idle_from: Option<u32>,
}

fn plan(rng: &mut fastrand::Rng, live: &Live, idle_share: f64) -> Plan {
    let idle = live.clocked && rng.f64() < idle_share;
    Plan { idle_from: idle.then(|| rng.u32(0..40)) }
}

/// One move by `user` in `live`'s channel: a random legal move; records the acknowledgement.
/// Returns the move sent and whether it went unanswered.
async fn move_once(
    world: &World,
    rng: &mut fastrand::Rng,
    live: &Live,
    user: UserId,
    retry: Option<String>,
) -> (String, bool) {
    let text = match retry {
        Some(text) => {
            world.ledger.count("moves retried after no answer");
            text
        }
        None => {
            let legal = live.position.legal_moves();
            if legal.is_empty() {
                return (String::new(), false);
            }
            live.position.san(&legal[rng.usize(..legal.len())])
        }
    };
    let channel = ChannelId(live.channel.parse().expect("a Discord channel id"));
    world.ledger.count("moves sent");
    let sent = world.fake.slash(user, channel, "move", json!({ "move": text, "confirm": true }));
    let (handle, answer) = answer_of(world, sent).await;
    match answer {
        Answer::Public(said) => match played(&said) {
            Some((ply, san)) => {
                world.ledger.count("moves acknowledged");
                world.ledger.ack(Ack {
                    platform: PLATFORM,
                    channel: live.channel.clone(),
                    request: handle.expect("answered").id().get().to_string(),
                    ply,
                    san,
                    said,
                });
                (text, false)
            }
            None => {
                world.ledger.count("moves answered publicly without a move");
                (text, false)
            }
        },
        Answer::Private(refusal) => {
            world.ledger.refused(PLATFORM, &refusal.content);
            world.ledger.count("moves refused");
            (text, false)
        }
        Answer::None => (text, true),
    }
}

/// `user` resigns `live`: `/resign`, then the private question's button.
async fn resign(world: &World, live: &Live, user: UserId) {
    let channel = ChannelId(live.channel.parse().expect("a Discord channel id"));
    let (_, answer) = answer_of(world, world.fake.slash(user, channel, "resign", json!({}))).await;
    let Answer::Private(question) = answer else { return };
    let Some(button) = question.button_ids().into_iter().find(|b| b.starts_with("/resign confirm:yes")) else {
        return;
    };
    world.ledger.count("resignations asked");
    let click = world.fake.click(user, question.id, &button);
    world.ledger.count("interactions sent");
    let Ok(click) = click else {
        world.ledger.count("interactions unanswered");
        return;
    };
    match click.response().await {
        Ok(response) => {
            world.ledger.count("interactions answered");
            if matches!(response.callback, CallbackType::UpdateMessage | CallbackType::DeferredUpdateMessage) {
                world.ledger.count("resignations done");
            }
        }
        Err(_) => world.ledger.count("interactions unanswered"),
    }
}

fn variant_choice(variant: Variant) -> usize {
    Variant::ALL.iter().position(|v| *v == variant).expect("a variant")
}

/// A table between two people in a channel of its own: game after game, every variant in turn,
/// three in ten on a 1+0 clock (half of those left to run out), now and then a resignation.
pub async fn table(world: World, index: usize, seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let channel = world.fake.add_channel(world.guild, &format!("table-{index}"));
    world.channels.lock().unwrap().push(channel);
    let people = [world.fake.add_user(&format!("w{index}")), world.fake.add_user(&format!("b{index}"))];
    let by_id: HashMap<String, UserId> = people.iter().map(|u| (u.get().to_string(), *u)).collect();
    let look = Look::open(&world.db).await;
    let mut plans: HashMap<i64, Plan> = HashMap::new();
    let mut games = index;
    let mut retry: Option<(i64, UserId, String)> = None;
    while !world.stopping() {
        tokio::time::sleep(Duration::from_millis(rng.u64(200..1200))).await;
        let Ok(active) = look.active_in(PLATFORM, &channel.get().to_string()) else { continue };
        let Some(live) = active else {
            retry = None;
            if Instant::now() > world.last_start {
                continue;
            }
            games += 1;
            let variant = Variant::ALL[games % Variant::ALL.len()];
            let clocked = rng.f64() < 0.3;
            let (white, black) = if rng.bool() { (people[0], people[1]) } else { (people[1], people[0]) };
            let args = json!({
                "variant": variant_choice(variant),
                "opponent": black.get().to_string(),
                "color": 0,
                "time": if clocked { "1+0" } else { "3d" },
                "rated": rng.bool(),
            });
            let (_, answer) = answer_of(&world, world.fake.slash(white, channel, "challenge", args)).await;
            if !matches!(answer, Answer::Public(_)) {
                continue;
            }
            let accept = world.fake.slash(black, channel, "accept", json!({ "challenger": white.get().to_string() }));
            if let (_, Answer::Public(said)) = answer_of(&world, accept).await {
                if said.contains("begins") {
                    world.ledger.count("games started by people");
                }
            }
            continue;
        };
        // After a move that got no answer, now and then the same player sends the same move
        // again without looking, as people do: whether the first was played or not, the store
        // must not take it twice.
        if let Some((game, user, text)) = retry.take() {
            if game == live.id {
                move_once(&world, &mut rng, &live, user, Some(text)).await;
                continue;
            }
        }
        let plan = plans.entry(live.id).or_insert_with(|| plan(&mut rng, &live, 0.5));
        if plan.idle_from.is_some_and(|ply| live.ply >= ply) {
            // Waiting for the clock to run out.
            continue;
        }
        let Some(&user) = by_id.get(live.mover()) else { continue };
        if rng.f64() < 1.0 / 150.0 {
            resign(&world, &live, user).await;
            continue;
        }
        let (text, unanswered) = move_once(&world, &mut rng, &live, user, None).await;
        if unanswered && rng.bool() {
            retry = Some((live.id, user, text));
        }
    }
}

/// A person playing Chimera at level 1 in a channel of their own, game after game.
pub async fn against_chimera(world: World, index: usize, seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let channel = world.fake.add_channel(world.guild, &format!("engine-{index}"));
    world.channels.lock().unwrap().push(channel);
    world.engine_channels.lock().unwrap().push(channel.get().to_string());
    let me = world.fake.add_user(&format!("e{index}"));
    let mine = me.get().to_string();
    let look = Look::open(&world.db).await;
    let mut games = index;
    let mut waiting: Option<(i64, u32, Instant)> = None;
    while !world.stopping() {
        tokio::time::sleep(Duration::from_millis(rng.u64(200..900))).await;
        let Ok(active) = look.active_in(PLATFORM, &channel.get().to_string()) else { continue };
        let Some(live) = active else {
            if Instant::now() > world.last_start {
                continue;
            }
            games += 1;
            let variant = Variant::ALL[games % Variant::ALL.len()];
            let args = json!({
                "variant": variant_choice(variant),
                "level": 1,
                "color": rng.usize(0..2),
                "time": if rng.f64() < 0.3 { "1+0" } else { "3d" },
            });
            if let (_, Answer::Public(_)) = answer_of(&world, world.fake.slash(me, channel, "play", args)).await {
                world.ledger.count("games started against Chimera");
            }
            continue;
        };
        if live.mover() != mine {
            // Chimera's turn: how long it keeps us waiting.
            match waiting {
                Some((game, ply, since)) if game == live.id && ply == live.ply => {
                    world.ledger.engine_wait(game, since.elapsed().as_secs_f64());
                }
                _ => waiting = Some((live.id, live.ply, Instant::now())),
            }
            continue;
        }
        if rng.f64() < 1.0 / 200.0 {
            resign(&world, &live, me).await;
            continue;
        }
        move_once(&world, &mut rng, &live, me, None).await;
    }
}

/// The tournament room: round robins of `size` players at 1+0, one after another while there
/// is time for one; the players play their games in the threads the bot opens, and some let
/// their clock run out.
pub async fn tournaments(world: World, size: usize, seed: u64) -> ChannelId {
    let lobby = world.fake.add_channel(world.guild, "tournaments");
    world.channels.lock().unwrap().push(lobby);
    let players: Vec<UserId> = (0..size).map(|i| world.fake.add_user(&format!("t{i}"))).collect();
    for (i, player) in players.iter().enumerate() {
        let world = world.clone();
        let player = *player;
        tokio::spawn(async move { tournament_player(world, player, seed ^ (i as u64 + 1) << 8).await });
    }
    let world2 = world.clone();
    tokio::spawn(async move { director(world2, lobby, players, seed).await });
    lobby
}

async fn director(world: World, lobby: ChannelId, players: Vec<UserId>, seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let look = Look::open(&world.db).await;
    let organiser = players[0];
    let mut created = 0;
    while !world.stopping() {
        tokio::time::sleep(Duration::from_millis(rng.u64(500..1500))).await;
        let Ok(newest) = look.tournament_in(&lobby.get().to_string()) else { continue };
        match newest {
            Some((_, state)) if state == "running" => {}
            Some((id, state)) if state == "open" => {
                let Ok(entrants) = look.entrants(id) else { continue };
                let missing = players.iter().find(|p| !entrants.contains(&p.get().to_string()));
                match missing {
                    Some(&player) => {
                        answer_of(&world, world.fake.slash(player, lobby, "tournament join", json!({}))).await;
                    }
                    None => {
                        answer_of(&world, world.fake.slash(organiser, lobby, "tournament start", json!({}))).await;
                    }
                }
            }
            // None yet, or the last one is over: another, while there is time for one.
            _ => {
                if created > 0 && Instant::now() + Duration::from_secs(420) > world.last_start {
                    continue;
                }
                created += 1;
                let variant = Variant::ALL[created % Variant::ALL.len()];
                let args = json!({
                    "name": format!("Soak Cup {created}"),
                    "variant": variant_choice(variant),
                    "format": world.fake.choice("tournament create", "format", "Round robin"),
                    "time": "1+0",
                    "rated": false,
                });
                if let (_, Answer::Public(_)) =
                    answer_of(&world, world.fake.slash(organiser, lobby, "tournament create", args)).await
                {
                    world.ledger.count("tournaments created");
                }
            }
        }
    }
}

async fn tournament_player(world: World, me: UserId, seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mine = me.get().to_string();
    let look = Look::open(&world.db).await;
    let mut plans: HashMap<i64, Plan> = HashMap::new();
    while !world.stopping() {
        tokio::time::sleep(Duration::from_millis(rng.u64(300..1500))).await;
        let Ok(games) = look.active_of(PLATFORM, &mine) else { continue };
        for live in games.into_iter().filter(|g| g.tournament && g.mover() == mine) {
            let plan = plans.entry(live.id).or_insert_with(|| plan(&mut rng, &live, 0.3));
            if plan.idle_from.is_some_and(|ply| live.ply >= ply) {
                continue;
            }
            move_once(&world, &mut rng, &live, me, None).await;
        }
    }
}
