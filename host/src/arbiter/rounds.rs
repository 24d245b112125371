//! The round lifecycle: starting a tournament, pairing rounds, opening each game in a place of
//! its own, finishing rounds and the event. [`advance`] does whatever is due for a tournament as
//! stored, and may run any number of times: each step re-checks inside its own transaction.

use data::{Format, GameState, NewGame, NewPairing, Pairing, PairingResult, Round, TournamentId, TournamentState};
use rules::Position;

use super::super::stored::Terms;
use super::super::table::Table;
use super::super::tournament::pairing::{self, PairingError};
use super::super::{Host, Message, Places, Refusal};
use super::event::Event;
use super::results::is_decider;
use super::show;

/// How many fresh places the arbiter asks for before it gives up on a game for this step.
const PLACE_TRIES: usize = 8;

/// How long a tournament's lease lasts: renewed before each place a step opens, so it only has
/// to outlast opening one place and creating one game. A process that dies mid-step holds the
/// tournament this long at most; then another process takes it over and finishes the step.
const STEP_LEASE_MS: i64 = 30_000;

/// The lease that gives one tournament's steps to one process of the deployment at a time.
fn lease_name(id: TournamentId) -> String {
    format!("tournament:{id}")
}

/// Takes (or renews) the tournament's lease for this process: whether it holds it now.
async fn hold(host: &Host, id: TournamentId) -> Result<bool, Refusal> {
    let (name, holder, now) = (lease_name(id), host.inner.holder.clone(), host.now());
    let lease = host.store().write(move |tx| tx.acquire_lease(&name, &holder, now, now + STEP_LEASE_MS)).await?;
    Ok(lease.is_some())
}

/// Does whatever is due in every live tournament of the host's platform: starts those whose
/// time has come, and advances the running ones. Failures are logged and retried next time.
pub(crate) async fn advance_all(host: &Host, places: &dyn Places) -> Vec<Message> {
    let (platform, now) = (host.settings().platform.clone(), host.now());
    let live = match host.store().read(move |tx| tx.live_tournaments(&platform)).await {
        Ok(live) => live,
        Err(e) => {
            tracing::warn!("cannot read the tournaments: {e}");
            return Vec::new();
        }
    };
    let mut messages = Vec::new();
    for t in live {
        let step = match t.state {
            TournamentState::Open if t.starts_at <= now => start_due(host, places, t.id).await,
            TournamentState::Running => advance(host, places, t.id).await,
            _ => continue,
        };
        match step {
            Ok(more) => messages.extend(more),
            Err(refusal) => tracing::warn!("tournament {}: {}", t.id, refusal.text()),
        }
    }
    messages
}

/// The fewest players a tournament can start with.
pub(crate) fn minimum_players(t: &data::Tournament) -> usize {
    match (t.format, t.rounds) {
        // No rematches: every round needs a new opponent.
        (Format::Swiss, Some(rounds)) => (rounds as usize + 1).max(2),
        _ => 2,
    }
}

/// Rounds of a tournament of `n` players: a Swiss without a set number plays ceil(log2 n),
/// enough to single out a winner.
fn rounds_for(t: &data::Tournament, n: usize) -> u32 {
    match t.format {
        Format::Swiss => t.rounds.unwrap_or_else(|| n.next_power_of_two().trailing_zeros().max(1)),
        Format::RoundRobin => pairing::round_robin_rounds(n, t.double),
        Format::Knockout => pairing::knockout_rounds(n),
    }
}

/// The next round's pairings from the engines.
fn pair(event: &Event, field: &[pairing::Player]) -> Result<Vec<NewPairing>, PairingError> {
    let played = &event.rounds;
    match event.t.format {
        Format::Swiss => pairing::swiss_round(field, played),
        Format::RoundRobin => pairing::round_robin_round(field, played.len() as u32 + 1, event.t.double),
        Format::Knockout => pairing::knockout_round(field, played),
    }
}

/// Why a tournament did not start.
pub(crate) enum NotStarted {
    /// Said to whoever asked; the tournament is as it was.
    Refused(String),
    Failed(Refusal),
}

impl From<data::Error> for NotStarted {
    fn from(e: data::Error) -> NotStarted {
        NotStarted::Failed(e.into())
    }
}

/// Starts an open tournament now: fixes everyone's start rating and the number of rounds, and
/// pairs round 1, in one commit; then opens the games.
pub(crate) async fn start(host: &Host, places: &dyn Places, id: TournamentId) -> Result<Vec<Message>, NotStarted> {
    let now = host.now();
    let started = host
        .store()
        .write(move |tx| {
            let mut event = Event::load(tx, id)?;
            if event.t.state != TournamentState::Open {
                return Ok(Err(format!("{} is {}, so it cannot start.", show::capital(&event.title()), event.t.state)));
            }
            let n = event.entrants.len();
            if n < minimum_players(&event.t) {
                return Ok(Err(too_few(&event)));
            }
            for e in &mut event.entrants {
                let rating = tx.rating(e.player, &event.t.variant)?;
                let rating = super::super::rating::Rating::from_stored(rating.as_ref()).rating.round() as i64;
                e.start_rating = Some(rating);
            }
            event.t.rounds = Some(rounds_for(&event.t, n));
            let pairings = match pair(&event, &event.field()) {
                Ok(p) => p,
                Err(e) => return Ok(Err(format!("{} cannot start: {e}.", show::capital(&event.title())))),
            };
            for e in &event.entrants {
                tx.set_start_rating(id, e.player, e.start_rating.unwrap_or_default())?;
            }
            tx.set_tournament_state(id, TournamentState::Running, event.t.rounds, now)?;
            tx.add_round(id, 1, &pairings, now)?;
            Ok(Ok(Event::load(tx, id)?))
        })
        .await?;
    let event = started.map_err(NotStarted::Refused)?;
    let mut messages = vec![show::started(&event).map_err(NotStarted::Failed)?];
    messages.extend(advance_after_commit(host, places, id, true).await);
    Ok(messages)
}

/// [`advance`] after a command has committed its change: the command has succeeded whatever
/// happens here, so a failure (no place for a game) is logged and left to the next tick.
pub(crate) async fn advance_after_commit(
    host: &Host,
    places: &dyn Places,
    id: TournamentId,
    fresh: bool,
) -> Vec<Message> {
    match advance_from(host, places, id, fresh).await {
        Ok(messages) => messages,
        Err(refusal) => {
            tracing::warn!("tournament {id}: {} (the scheduler tries again)", refusal.text());
            Vec::new()
        }
    }
}

fn too_few(event: &Event) -> String {
    format!(
        "{} needs at least {} players to start and has {}.",
        show::capital(&event.title()),
        minimum_players(&event.t),
        event.entrants.len()
    )
}

/// A tournament whose start time came: it starts, or with too few players it is cancelled.
async fn start_due(host: &Host, places: &dyn Places, id: TournamentId) -> Result<Vec<Message>, Refusal> {
    match start(host, places, id).await {
        Ok(messages) => Ok(messages),
        Err(NotStarted::Failed(refusal)) => Err(refusal),
        Err(NotStarted::Refused(why)) => {
            let now = host.now();
            let cancelled = host
                .store()
                .write(move |tx| {
                    let event = Event::load(tx, id)?;
                    if event.t.state != TournamentState::Open {
                        return Ok(None);
                    }
                    tx.set_tournament_state(id, TournamentState::Cancelled, None, now)?;
                    Ok(Some(event))
                })
                .await?;
            Ok(cancelled.map(|event| vec![show::cancelled_at_start(&event, &why)]).into_iter().flatten().collect())
        }
    }
}

/// Does what is due in a running tournament: opens the games its current round lacks, and when
/// every pairing has a result, finishes the round and pairs the next (or ends the event).
pub(crate) async fn advance(host: &Host, places: &dyn Places, id: TournamentId) -> Result<Vec<Message>, Refusal> {
    advance_from(host, places, id, false).await
}

/// [`advance`]; `fresh` when the current round was just paired, so that its announcement
/// (which names each game's place) follows the opening of its games.
async fn advance_from(
    host: &Host,
    places: &dyn Places,
    id: TournamentId,
    fresh: bool,
) -> Result<Vec<Message>, Refusal> {
    // One step at a time in this process: two at once (a command's and the scheduler's) would
    // each open a place for the same game, and one place would stay empty.
    let _one_at_a_time = host.inner.arbiter.lock().await;
    // And one process at a time in the deployment: the lease. Another process holding it is
    // doing this step now (or died doing it, and the lease runs out): nothing to do here.
    if !hold(host, id).await? {
        return Ok(Vec::new());
    }
    let stepped = step(host, places, id, fresh).await;
    // Given back whatever happened; if this fails, the lease simply runs out.
    let (name, holder) = (lease_name(id), host.inner.holder.clone());
    if let Err(e) = host.store().write(move |tx| tx.release_lease(&name, &holder)).await {
        tracing::warn!("tournament {id}: cannot give up the lease: {e}");
    }
    stepped
}

/// The step of [`advance_from`], under the tournament's lease.
async fn step(host: &Host, places: &dyn Places, id: TournamentId, mut fresh: bool) -> Result<Vec<Message>, Refusal> {
    let mut messages = Vec::new();
    // Each pass either opens games (and stops) or closes a round; a tournament has at most a
    // few dozen rounds, so this bound only guards against a bug looping forever.
    for _ in 0..64 {
        let event = host.store().read(move |tx| Event::load(tx, id)).await?;
        if event.t.state != TournamentState::Running {
            break;
        }
        let Some(round) = event.current() else { break };
        let needed: Vec<&Pairing> = round.pairings.iter().filter(|p| needs_game(&event, p)).collect();
        // A round whose games open only now (after a failure, at a later step) is announced now.
        fresh |= !needed.is_empty() && round.pairings.iter().all(|p| p.game.is_none());
        for p in &needed {
            // Renewed before each place: a lost lease (this process stalled past it, and
            // another took the tournament over) stops the step here.
            if !hold(host, id).await? {
                return Ok(messages);
            }
            messages.extend(open_game(host, places, &event, round, p).await?);
        }
        if fresh {
            let event = host.store().read(move |tx| Event::load(tx, id)).await?;
            messages.push(show::round_announcement(&event));
        }
        if !needed.is_empty() || round.finished_at.is_some() || round.pairings.iter().any(|p| p.result.is_none()) {
            break;
        }
        let (closing, next) = close_round(host, id, round.id).await?;
        messages.extend(closing);
        fresh = next;
    }
    Ok(messages)
}

/// Whether a pairing needs a game started: two players, no result, and no game running (none
/// yet, a first knockout game drawn, or a game aborted before it counted).
fn needs_game(event: &Event, p: &Pairing) -> bool {
    p.black.is_some() && p.result.is_none() && event.game_of(p).is_none_or(|g| g.state != GameState::Active)
}

/// Opens the game of pairing `p`: a place from the adapter, then the game, in a commit that
/// checks again that the pairing still needs it.
async fn open_game(
    host: &Host,
    places: &dyn Places,
    event: &Event,
    round: &Round,
    p: &Pairing,
) -> Result<Vec<Message>, Refusal> {
    let variant = event.t.variant()?;
    let previous = event.game_of(p);
    let decider = previous.is_some_and(|g| g.state == GameState::Finished);
    let (white, black) = match (decider, p.black) {
        (true, Some(black)) => (black, p.white),
        (_, Some(black)) => (p.white, black),
        (_, None) => return Ok(Vec::new()),
    };
    let what = if decider { " · decider" } else { "" };
    let title =
        format!("Round {} · Board {}{what} · {} vs {}", round.number, p.board, event.name(white), event.name(black));
    let now = host.now();
    let new = NewGame {
        platform: event.t.platform.clone(),
        server: Some(event.t.server.clone()).filter(|s| !s.is_empty()),
        channel: String::new(),
        variant: event.t.variant.clone(),
        white,
        black,
        start_fen: Position::start(variant).fen(),
        time_control: event.t.time_control,
        deadline: event.time_control()?.map(|tc| now + tc.initial_ms()),
        rated: event.t.rated,
    };
    let expected_previous = previous.map(|g| g.id);
    for _ in 0..PLACE_TRIES {
        let channel = places
            .open_place(&event.t.channel, &title)
            .await
            .map_err(|e| Refusal::Broken(format!("cannot open a place for {title}: {e}")))?;
        let new = NewGame { channel, ..new.clone() };
        let pairing_id = p.id;
        let created = host
            .store()
            .write(move |tx| {
                let now_paired = tx.pairing(pairing_id)?;
                // Someone else (a concurrent step) got here first.
                if now_paired.result.is_some() || now_paired.game != expected_previous {
                    return Ok(None);
                }
                let game = tx.create_pairing_game(pairing_id, &new, now)?;
                let record = tx.game_record(game.id)?;
                Ok(Some((record, tx.player(game.white)?, tx.player(game.black)?)))
            })
            .await;
        match created {
            Ok(Some((record, white, black))) => {
                let table = Table::new(record, white, black)?;
                return Ok(show::game_started(host, event, round, p, &table, decider));
            }
            Ok(None) => return Ok(Vec::new()),
            // The place has a game on (a console channel reused after a restart): another one.
            Err(data::Error::ChannelBusy { .. }) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(Refusal::Broken(format!("no free place for {title} after {PLACE_TRIES} tries")))
}

/// What closing a round led to.
enum Closed {
    Next(Event),
    Over { event: Event, why: Option<String> },
    AlreadyDone,
}

/// Finishes a round whose pairings all have results, and pairs the next one (saying so) or
/// finishes the tournament, in one commit.
async fn close_round(host: &Host, id: TournamentId, round_id: data::RoundId) -> Result<(Vec<Message>, bool), Refusal> {
    let now = host.now();
    let closed = host
        .store()
        .write(move |tx| {
            let event = Event::load(tx, id)?;
            let Some(round) = event.current() else { return Ok(Closed::AlreadyDone) };
            let complete = round.pairings.iter().all(|p| p.result.is_some());
            if round.id != round_id || round.finished_at.is_some() || !complete {
                return Ok(Closed::AlreadyDone);
            }
            tx.finish_round(round.id, now)?;
            let number = round.number;
            let last = number >= event.t.rounds.unwrap_or(number);
            let next = if last { None } else { Some(pair(&Event::load(tx, id)?, &event.field())) };
            match next {
                Some(Ok(pairings)) => {
                    tx.add_round(id, number + 1, &pairings, now)?;
                    Ok(Closed::Next(Event::load(tx, id)?))
                }
                Some(Err(e)) => {
                    tx.set_tournament_state(id, TournamentState::Finished, None, now)?;
                    Ok(Closed::Over { event: Event::load(tx, id)?, why: Some(e.to_string()) })
                }
                None => {
                    tx.set_tournament_state(id, TournamentState::Finished, None, now)?;
                    Ok(Closed::Over { event: Event::load(tx, id)?, why: None })
                }
            }
        })
        .await?;
    Ok(match closed {
        Closed::Next(event) => {
            let finished = &event.rounds[event.rounds.len() - 2];
            (vec![show::round_over(&event, finished)], true)
        }
        Closed::Over { event, why } => {
            let finished = &event.rounds[event.rounds.len() - 1];
            (vec![show::round_over(&event, finished), show::final_standings(host, &event, why.as_deref())?], false)
        }
        Closed::AlreadyDone => (Vec::new(), false),
    })
}

/// What a decider's announcement adds.
pub(crate) fn decider_note(pairing: &Pairing, game: &data::Game) -> Option<&'static str> {
    is_decider(pairing, game).then_some(
        "This is the decider after a drawn game: colours are reversed, and a draw sends Black through (Armageddon).",
    )
}

/// What a bye scored, as announced.
pub(crate) fn bye_points(result: Option<PairingResult>) -> &'static str {
    match result {
        Some(PairingResult::WhiteWins) => "1",
        Some(PairingResult::Draw) => "½",
        _ => "0",
    }
}
