//! The Matrix side of the soak, kept modest: a few rooms on a real Synapse, each with two people
//! (matrix-sdk clients) playing game after game by `!move`, against the `chimera matrix`
//! process that is killed and restarted with the Discord one.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use matrix_sdk::ruma::events::room::message::RoomMessageEventContent;
use matrix_sdk::ruma::{OwnedRoomId, OwnedUserId};
use rules::Variant;

use crate::harness::{Person, Seen, What};
use crate::ledger::{begins, played, Ack, Ledger};
use crate::look::Look;

pub const PLATFORM: &str = "matrix";

/// How long a person waits for the bot's answer before taking it as none.
const PATIENCE: Duration = Duration::from_secs(20);

#[derive(Clone)]
pub struct World {
    pub ledger: Arc<Ledger>,
    pub db: PathBuf,
    pub stop: Arc<AtomicBool>,
    pub bot: OwnedUserId,
    pub last_start: Instant,
    /// Every move a player sent, for the check at the end that each was answered.
    pub sent: Arc<Mutex<Vec<Sent>>>,
}

/// A move a player sent: where, its event, the ply it was for and its text, and who sent it
/// (the index among the room's two people) with how much they had seen by then.
#[derive(Clone, Debug)]
pub struct Sent {
    pub room: OwnedRoomId,
    pub event: String,
    pub ply: u32,
    pub san: String,
    pub mover: usize,
    pub mark: usize,
}

/// The moves sent that their player never saw answered, by the end of the run: neither a reply
/// to the move (a refusal) nor the notice that it was played, anywhere after it was sent. A
/// player gives up waiting after [`PATIENCE`] and plays on; this counts what never came at all,
/// which a kill at the wrong moment used to cause.
pub fn never_answered(sent: &[Sent], rooms: &[(OwnedRoomId, [Arc<Person>; 2])], bot: &OwnedUserId) -> Vec<Sent> {
    sent.iter()
        .filter(|m| {
            let Some((_, people)) = rooms.iter().find(|(room, _)| *room == m.room) else { return true };
            let seen = people[m.mover].seen();
            !seen[m.mark.min(seen.len())..].iter().any(|s| {
                s.room == m.room
                    && s.sender == *bot
                    && s.is_notice()
                    && (played(s.body()).is_some_and(|(ply, san)| ply == m.ply && san == m.san)
                        || matches!(&s.what, What::Notice { reply_to: Some(r), .. } if r.as_str() == m.event))
            })
        })
        .cloned()
        .collect()
}

/// Sends text; `None` when the homeserver refused it.
async fn say(person: &Person, room: &OwnedRoomId, text: &str) -> Option<String> {
    let room = person.client.get_room(room)?;
    let sent = room.send(RoomMessageEventContent::text_plain(text)).await.ok()?;
    Some(sent.response.event_id.to_string())
}

/// Waits for the first event after `mark` in `room` from the bot that `matches`.
async fn wait_for(
    world: &World,
    person: &Person,
    room: &OwnedRoomId,
    mark: usize,
    matches: impl Fn(&Seen) -> bool,
) -> Option<Seen> {
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        let seen = person.seen();
        if let Some(found) =
            seen[mark.min(seen.len())..].iter().find(|s| s.room == *room && s.sender == world.bot && matches(s))
        {
            return Some(found.clone());
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    None
}

/// Two people in a room of their own, game after game, every variant in turn.
pub async fn room(world: World, people: [Arc<Person>; 2], room: OwnedRoomId, index: usize, seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let look = Look::open(&world.db).await;
    let by_id: HashMap<String, Arc<Person>> = people.iter().map(|p| (p.id.to_string(), Arc::clone(p))).collect();
    let mut games = index;
    while !world.stop.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(rng.u64(300..1200))).await;
        let Ok(active) = look.active_in(PLATFORM, room.as_str()) else { continue };
        let Some(live) = active else {
            if Instant::now() > world.last_start {
                continue;
            }
            games += 1;
            let variant = Variant::ALL[games % Variant::ALL.len()];
            let (white, black) = if rng.bool() { (&people[0], &people[1]) } else { (&people[1], &people[0]) };
            let mark = black.mark();
            world.ledger.count("matrix commands sent");
            let line = format!("!challenge {} variant:{} color:white time:1d", black.id, variant.id());
            if say(white, &room, &line).await.is_none() {
                continue;
            }
            if wait_for(&world, black, &room, mark, |s| s.is_notice() && s.body().contains("challenges"))
                .await
                .is_none()
            {
                world.ledger.count("matrix commands unanswered");
                continue;
            }
            let mark = white.mark();
            world.ledger.count("matrix commands sent");
            if say(black, &room, "!accept").await.is_none() {
                continue;
            }
            match wait_for(&world, white, &room, mark, |s| s.is_notice() && s.body().contains("begins")).await {
                Some(_) => world.ledger.count("matrix games started"),
                None => world.ledger.count("matrix commands unanswered"),
            }
            continue;
        };
        let Some(mover) = by_id.get(live.mover()) else { continue };
        let legal = live.position.legal_moves();
        if legal.is_empty() {
            continue;
        }
        // Not a Grolman turn that loses on the spot: the bot would ask first (`confirm`), which
        // Discord's players answer in the command and these would only refuse.
        let mover_color = live.position.turn();
        let safe: Vec<&rules::Move> = legal
            .iter()
            .filter(|m| live.position.after(m).outcome().is_none_or(|o| o.winner() != Some(!mover_color)))
            .collect();
        let pick = if safe.is_empty() { &legal[rng.usize(..legal.len())] } else { safe[rng.usize(..safe.len())] };
        let text = live.position.san(pick);
        let mark = mover.mark();
        world.ledger.count("matrix moves sent");
        let Some(event) = say(mover, &room, &format!("!move {text}")).await else { continue };
        let ply = live.ply + 1;
        world.sent.lock().unwrap().push(Sent {
            room: room.clone(),
            event: event.clone(),
            ply,
            san: text.clone(),
            mover: usize::from(Arc::ptr_eq(mover, &people[1])),
            mark,
        });
        let answer = wait_for(&world, mover, &room, mark, |s| {
            s.is_notice()
                && (played(s.body()).is_some_and(|(p, _)| p == ply)
                    || matches!(&s.what, What::Notice { reply_to: Some(r), .. } if r.as_str() == event))
        })
        .await;
        match answer.as_ref().map(|s| (played(s.body()), s)) {
            Some((Some((ply, san)), seen)) => {
                world.ledger.count("matrix moves acknowledged");
                world.ledger.ack(Ack {
                    platform: PLATFORM,
                    channel: room.to_string(),
                    request: event,
                    ply,
                    san,
                    said: seen.body().to_string(),
                });
            }
            Some((None, seen)) => {
                world.ledger.refused(PLATFORM, seen.body());
                world.ledger.count("matrix moves refused");
            }
            None => world.ledger.count("matrix moves unanswered"),
        }
    }
}

/// The bot's notices in a room as one person saw them, for the checks.
pub fn notices(person: &Person, room: &OwnedRoomId, bot: &OwnedUserId) -> Vec<Seen> {
    person.seen().into_iter().filter(|s| s.room == *room && s.sender == *bot && s.is_notice()).collect()
}

/// What was said twice in a room: the same notice twice within one game (a game's notices run
/// from its `Game N begins` to the next), or two identical replies to one event.
pub fn said_twice(notices: &[Seen]) -> Vec<String> {
    let mut twice = Vec::new();
    let mut game: Option<u64> = None;
    let mut in_game: HashMap<(Option<u64>, String), usize> = HashMap::new();
    let mut replies: HashMap<(String, String), usize> = HashMap::new();
    for seen in notices {
        if let Some(id) = begins(seen.body()) {
            game = Some(id);
        }
        match &seen.what {
            What::Notice { reply_to: Some(to), body, .. } => {
                *replies.entry((to.to_string(), body.clone())).or_default() += 1;
            }
            What::Notice { body, .. } => *in_game.entry((game, body.clone())).or_default() += 1,
            _ => {}
        }
    }
    for ((game, body), n) in in_game {
        if n > 1 {
            twice.push(format!("{n} times in game {game:?}: {body}"));
        }
    }
    for ((to, body), n) in replies {
        if n > 1 {
            twice.push(format!("{n} replies to {to}: {body}"));
        }
    }
    twice
}
