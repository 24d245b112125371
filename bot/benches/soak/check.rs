//! The end of the soak: the store read through the `data` crate, compared with what the
//! players were told, and every game replayed by the rules.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::str::FromStr;

use data::{GameRecord, GameState, Move};
use rules::{Position, Variant};

use crate::ledger::{begins, played, Ack};

/// Everything the store holds that the checks look at.
pub struct Stored {
    pub games: Vec<GameRecord>,
    /// (id, name, state, rounds played) of every tournament.
    pub tournaments: Vec<(i64, String, String, i64)>,
    /// Announcements still waiting in the outbox: (created at, body).
    pub outbox: Vec<(i64, String)>,
}

pub fn read(db: &Path) -> Stored {
    // The ids, tournaments and outbox by plain SQL (the data crate has no "list everything");
    // the games themselves through the data crate's own types.
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("the database opens");
    let ids: Vec<i64> = conn
        .prepare("SELECT id FROM games ORDER BY id")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .expect("the games' ids");
    let tournaments = conn
        .prepare(
            "SELECT t.id, t.name, t.state, (SELECT COUNT(*) FROM rounds r WHERE r.tournament_id = t.id)
             FROM tournaments t ORDER BY t.id",
        )
        .and_then(|mut s| s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?.collect())
        .expect("the tournaments");
    let outbox = conn
        .prepare("SELECT created_at, body FROM outbox ORDER BY id")
        .and_then(|mut s| s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
        .expect("the outbox");
    drop(conn);
    let store = data::Store::open(db).expect("the store opens");
    store.check_integrity().expect("SQLite's integrity check passes");
    let games = store
        .read(|tx| ids.iter().map(|id| tx.game_record(*id)).collect::<data::Result<Vec<_>>>())
        .expect("every game reads back");
    Stored { games, tournaments, outbox }
}

/// What the comparison found: figures for the report, and every difference.
#[derive(Default)]
pub struct Findings {
    pub acknowledged: usize,
    pub acknowledged_stored_once: usize,
    pub announced_moves: usize,
    pub announced_stored: usize,
    pub stored_moves: usize,
    pub stored_unacknowledged_people: usize,
    pub games_replayed: usize,
    pub failures: Vec<String>,
}

impl Findings {
    fn fail(&mut self, what: String) {
        self.failures.push(what);
    }
}

/// Every acknowledged move is stored exactly once, at the ply and as the move it was
/// announced, in the game of the channel it was played in.
pub fn acknowledged(stored: &Stored, acks: &[Ack], findings: &mut Findings) {
    let mut by_request: HashMap<&str, Vec<(&GameRecord, &Move)>> = HashMap::new();
    for record in &stored.games {
        for mv in &record.moves {
            by_request.entry(mv.request_id.as_str()).or_default().push((record, mv));
        }
    }
    let acked: HashSet<&str> = acks.iter().map(|a| a.request.as_str()).collect();
    findings.stored_moves = stored.games.iter().map(|g| g.moves.len()).sum();
    findings.stored_unacknowledged_people =
        by_request.keys().filter(|r| !r.starts_with("engine:") && !r.is_empty() && !acked.contains(*r)).count();
    findings.acknowledged = acks.len();
    let mut seen: HashSet<&str> = HashSet::new();
    for ack in acks {
        if !seen.insert(ack.request.as_str()) {
            findings.fail(format!("request {} was acknowledged twice ({})", ack.request, ack.said));
            continue;
        }
        let found = by_request.get(ack.request.as_str()).map(Vec::as_slice).unwrap_or_default();
        match found {
            [(record, mv)] => {
                let game = &record.game;
                if mv.ply != ack.ply
                    || mv.san != ack.san
                    || game.channel != ack.channel
                    || game.platform != ack.platform
                {
                    findings.fail(format!(
                        "acknowledged {} {} at ply {} in {}, stored {} at ply {} of game {} in {} ({})",
                        ack.platform, ack.san, ack.ply, ack.channel, mv.san, mv.ply, game.id, game.channel, ack.said
                    ));
                } else {
                    findings.acknowledged_stored_once += 1;
                }
            }
            [] => findings.fail(format!(
                "acknowledged but not stored: {} ply {} {} in {} ({})",
                ack.request, ack.ply, ack.san, ack.channel, ack.said
            )),
            many => findings.fail(format!("request {} stored {} times: {}", ack.request, many.len(), ack.said)),
        }
    }
}

/// Moves the bot announced on its own (Chimera's moves, told to the channel): each is stored
/// at its ply in a game of that channel.
pub fn announced(stored: &Stored, told: &[(String, String)], findings: &mut Findings) {
    let mut by_channel: HashMap<&str, Vec<&GameRecord>> = HashMap::new();
    for record in &stored.games {
        by_channel.entry(record.game.channel.as_str()).or_default().push(record);
    }
    for (channel, text) in told {
        let Some((ply, san)) = played(text) else { continue };
        findings.announced_moves += 1;
        let games = by_channel.get(channel.as_str()).map(Vec::as_slice).unwrap_or_default();
        let there = games.iter().any(|g| g.moves.iter().any(|m| m.ply == ply && m.san == san));
        if there {
            findings.announced_stored += 1;
        } else {
            findings.fail(format!("announced in {channel} but stored in none of its games: {text}"));
        }
    }
}

/// Every game: plies 1..n, each legal from the start and recorded as the rules write it, the
/// end stored when the rules say the game is over, nothing after the end, results exactly on
/// finished games; no clock left run out on an active game.
pub fn games(stored: &Stored, overdue_before: i64, findings: &mut Findings) {
    for record in &stored.games {
        let game = &record.game;
        let id = game.id;
        let Ok(variant) = Variant::from_str(&game.variant) else {
            findings.fail(format!("game {id}: unknown variant {}", game.variant));
            continue;
        };
        let Ok(start) = Position::from_fen(variant, &game.start_fen) else {
            findings.fail(format!("game {id}: unreadable start {}", game.start_fen));
            continue;
        };
        let mut replay = rules::Game::new(start);
        let mut broken = false;
        for (i, mv) in record.moves.iter().enumerate() {
            if mv.ply as usize != i + 1 {
                findings.fail(format!("game {id}: ply {} where {} belongs", mv.ply, i + 1));
                broken = true;
                break;
            }
            let position = replay.position().clone();
            let Ok(m) = position.parse_move(&mv.coord) else {
                findings.fail(format!("game {id}: ply {} {} is not legal in {}", mv.ply, mv.coord, position.fen()));
                broken = true;
                break;
            };
            if position.san(&m) != mv.san {
                findings.fail(format!("game {id}: ply {} stored as {} but is {}", mv.ply, mv.san, position.san(&m)));
            }
            if let Err(e) = replay.play(m) {
                findings.fail(format!("game {id}: ply {} {} refused by the rules: {e}", mv.ply, mv.san));
                broken = true;
                break;
            }
            if replay.position().fen() != mv.fen_after {
                findings.fail(format!(
                    "game {id}: ply {} leaves {} but {} is stored",
                    mv.ply,
                    replay.position().fen(),
                    mv.fen_after
                ));
            }
        }
        if broken {
            continue;
        }
        findings.games_replayed += 1;
        match game.state {
            GameState::Finished => {
                if game.result.is_none() || game.reason.is_none() || game.finished_at.is_none() {
                    findings.fail(format!("game {id}: finished without a result, reason or time"));
                }
                if let (Some(last), Some(at)) = (record.moves.last(), game.finished_at) {
                    if last.played_at > at {
                        findings.fail(format!("game {id}: a move at {} after its end at {at}", last.played_at));
                    }
                }
                if let (Some(outcome), Some(result)) = (replay.outcome(), game.result) {
                    if outcome.result() != result.to_string() {
                        findings.fail(format!("game {id}: the rules say {outcome}, the store {result}"));
                    }
                }
            }
            GameState::Active => {
                if let Some(outcome) = replay.outcome() {
                    findings.fail(format!("game {id}: still active though the rules say {outcome}"));
                }
                if game.deadline.is_some_and(|d| d < overdue_before) {
                    findings
                        .fail(format!("game {id}: its clock ran out at {:?} but it was never ended", game.deadline));
                }
            }
            GameState::Aborted => {
                if game.result.is_some() {
                    findings.fail(format!("game {id}: aborted with a result"));
                }
            }
        }
    }
}

/// Messages said twice in one channel: the same announcement twice within one game (a game's
/// messages run from its `Game N begins` to the next), or two identical messages answering one
/// interaction.
pub fn discord_twice(messages: &[fakecord::Message]) -> Vec<String> {
    let mut game: Option<u64> = None;
    let mut in_game: BTreeMap<(Option<u64>, String), usize> = BTreeMap::new();
    let mut per_interaction: BTreeMap<(u64, String), usize> = BTreeMap::new();
    for message in messages {
        if let Some(id) = begins(&message.content) {
            game = Some(id);
        }
        if message.content.is_empty() {
            continue;
        }
        match message.interaction {
            Some(interaction) => {
                *per_interaction.entry((interaction.get(), message.content.clone())).or_default() += 1;
            }
            None => *in_game.entry((game, message.content.clone())).or_default() += 1,
        }
    }
    let mut twice: Vec<String> = in_game
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|((game, text), n)| format!("{n} times in game {game:?}: {text}"))
        .collect();
    twice.extend(
        per_interaction
            .into_iter()
            .filter(|(_, n)| *n > 1)
            .map(|((interaction, text), n)| format!("{n} times for interaction {interaction}: {text}")),
    );
    twice
}
