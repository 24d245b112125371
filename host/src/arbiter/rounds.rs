//! The round lifecycle: starting a tournament, pairing rounds, opening each game in a place of
//! its own, finishing rounds and the event. [`advance`] does whatever is due for a tournament as
//! stored, and may run any number of times: each step re-checks inside its own transaction.

use data::{
    Format, GameState, NewGame, NewPairing, Pairing, PairingResult, PauseReason, Round, TimeOdds, TournamentId,
    TournamentState, WriteTx,
};
use rules::Position;

use super::super::backoff::{Verdict, Work};
use super::super::clock::spell_duration;
use super::super::outbox::{Outbox, Page, Picture};
use super::super::pairing::{self, PairingError};
use super::super::stored::Terms;
use super::super::table::Table;
use super::super::turn_notice::NextTurn;
use super::super::{Host, Places, Refusal};
use super::event::Event;
use super::pause;
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
/// time has come, and advances the running ones. What each step announces is queued with it
/// (see `outbox`). Failures are logged and retried next time.
pub(crate) async fn advance_all(host: &Host, places: &dyn Places) {
    let (platform, now) = (host.settings().platform.clone(), host.now());
    let live = match host.store().read(move |tx| tx.live_tournaments(&platform)).await {
        Ok(live) => live,
        Err(e) => {
            tracing::warn!("cannot read the tournaments: {e}");
            return;
        }
    };
    let platform = host.settings().platform.clone();
    let paused = match host.store().read(move |tx| tx.paused_tournaments(&platform)).await {
        Ok(paused) => paused.into_iter().map(|p| p.tournament).collect::<std::collections::HashSet<_>>(),
        Err(e) => {
            tracing::warn!("cannot read the paused tournaments: {e}");
            return;
        }
    };
    for t in live {
        // Paused: left alone until resumed. Refused lately: not asked again before its time.
        if paused.contains(&t.id) || !host.inner.backoffs.ready(&Work::Tournament(t.id), now) {
            continue;
        }
        let step = match t.state {
            TournamentState::Open if t.starts_at <= now => start_due(host, places, t.id).await,
            TournamentState::Running => advance(host, places, t.id).await,
            _ => continue,
        };
        if let Err(refusal) = step {
            tracing::warn!("tournament {}: {}", t.id, refusal.text());
        }
    }
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

/// Who starts a tournament: a command (whose answer announces it) or the scheduler, at its
/// start time (which announces it in the tournament's channel).
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Starter {
    Command,
    Scheduler,
}

/// Starts an open tournament now: fixes everyone's start rating and the number of rounds, and
/// pairs round 1, in one commit (with its announcement, when the scheduler starts it); then
/// opens the games. The tournament as started, for a command's answer.
pub(crate) async fn start(
    host: &Host,
    places: &dyn Places,
    id: TournamentId,
    by: Starter,
) -> Result<Event, NotStarted> {
    let (now, outbox) = (host.now(), host.outbox());
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
            let event = Event::load(tx, id)?;
            if by == Starter::Scheduler {
                match show::started(&event) {
                    Ok(message) => outbox.queue_about(tx, now, &message, Page::Tournament(id))?,
                    Err(refusal) => tracing::error!("tournament {id} starts unannounced: {}", refusal.text()),
                }
            }
            announce_if_nothing_to_open(tx, &outbox, &event, now)?;
            Ok(Ok(event))
        })
        .await?;
    let event = started.map_err(NotStarted::Refused)?;
    // The start stands whatever happens here: a game that cannot open yet is left to the tick.
    if let Err(refusal) = advance(host, places, id).await {
        tracing::warn!("tournament {id}: {} (the scheduler tries again)", refusal.text());
    }
    Ok(event)
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
async fn start_due(host: &Host, places: &dyn Places, id: TournamentId) -> Result<(), Refusal> {
    match start(host, places, id, Starter::Scheduler).await {
        Ok(_) => Ok(()),
        Err(NotStarted::Failed(refusal)) => Err(refusal),
        Err(NotStarted::Refused(why)) => {
            let (now, outbox) = (host.now(), host.outbox());
            host.store()
                .write(move |tx| {
                    let event = Event::load(tx, id)?;
                    if event.t.state != TournamentState::Open {
                        return Ok(());
                    }
                    tx.set_tournament_state(id, TournamentState::Cancelled, None, now)?;
                    outbox.queue(tx, now, &show::cancelled_at_start(&event, &why), None)
                })
                .await?;
            Ok(())
        }
    }
}

/// Does what is due in a running tournament: opens the games its current round lacks, and when
/// every pairing has a result, finishes the round and pairs the next (or ends the event).
pub(crate) async fn advance(host: &Host, places: &dyn Places, id: TournamentId) -> Result<(), Refusal> {
    // One step at a time in this process: two at once (a command's and the scheduler's) would
    // each open a place for the same game, and one place would stay empty.
    let _one_at_a_time = host.inner.arbiter.lock().await;
    // Refused lately, or paused: nothing is asked of the network (see `pause`).
    if !host.inner.backoffs.ready(&Work::Tournament(id), host.now())
        || host.store().read(move |tx| tx.tournament_pause(id)).await?.is_some()
    {
        return Ok(());
    }
    // And one process at a time in the deployment: the lease. Another process holding it is
    // doing this step now (or died doing it, and the lease runs out): nothing to do here.
    if !hold(host, id).await? {
        return Ok(());
    }
    let stepped = step(host, places, id).await;
    // Given back whatever happened; if this fails, the lease simply runs out.
    let (name, holder) = (lease_name(id), host.inner.holder.clone());
    if let Err(e) = host.store().write(move |tx| tx.release_lease(&name, &holder)).await {
        tracing::warn!("tournament {id}: cannot give up the lease: {e}");
    }
    stepped
}

/// The step of [`advance`], under the tournament's lease.
async fn step(host: &Host, places: &dyn Places, id: TournamentId) -> Result<(), Refusal> {
    // Each pass either opens games (and stops) or closes a round; a tournament has at most a
    // few dozen rounds, so this bound only guards against a bug looping forever.
    for _ in 0..64 {
        let event = host.store().read(move |tx| Event::load(tx, id)).await?;
        if event.t.state != TournamentState::Running {
            break;
        }
        let Some(round) = event.current() else { break };
        let needed: Vec<&Pairing> = round.pairings.iter().filter(|p| needs_game(&event, p)).collect();
        for p in &needed {
            // Renewed before each place: a lost lease (this process stalled past it, and
            // another took the tournament over) stops the step here.
            if !hold(host, id).await? {
                return Ok(());
            }
            open_game(host, places, &event, round, p).await?;
        }
        if !needed.is_empty() || round.finished_at.is_some() || round.pairings.iter().any(|p| p.result.is_none()) {
            break;
        }
        close_round(host, id, round.id).await?;
    }
    Ok(())
}

/// Announces the current round of `event` in the transaction that paired it, when it has no
/// game to open (only byes and forfeits); otherwise the opening of its last game announces it.
fn announce_if_nothing_to_open(tx: &WriteTx<'_>, outbox: &Outbox, event: &Event, now: i64) -> data::Result<()> {
    let Some(round) = event.current() else { return Ok(()) };
    if round.pairings.iter().any(|p| p.black.is_some() && p.result.is_none()) {
        return Ok(());
    }
    outbox.queue_about(tx, now, &show::round_announcement(event), Page::Tournament(event.t.id))
}

/// Whether a pairing needs a game started: two players, no result, and no game running (none
/// yet, a first knockout game drawn, or a game aborted before it counted).
fn needs_game(event: &Event, p: &Pairing) -> bool {
    p.black.is_some() && p.result.is_none() && event.game_of(p).is_none_or(|g| g.state != GameState::Active)
}

/// Opens the game of pairing `p`: a place from the adapter, then the game, in a commit that
/// checks again that the pairing still needs it.
async fn open_game(host: &Host, places: &dyn Places, event: &Event, round: &Round, p: &Pairing) -> Result<(), Refusal> {
    let variant = event.t.variant()?;
    let previous = event.game_of(p);
    // After a finished (drawn) first game; or again after a decider that was aborted.
    let decider = previous.is_some_and(|g| g.state == GameState::Finished || is_decider(p, g));
    let (white, black) = match (decider, p.black) {
        (true, Some(black)) => (black, p.white),
        (_, Some(black)) => (p.white, black),
        (_, None) => return Ok(()),
    };
    let what = if decider { " · decider" } else { "" };
    let title = format!(
        "Round {} · Board {}{what} · {} vs {}",
        round.number,
        p.board,
        event.name(white).0,
        event.name(black).0
    );
    let (now, outbox, tid) = (host.now(), host.outbox(), event.t.id);
    // A timed decider gives White more time, to weigh against Black's draw odds (Armageddon).
    let time = event.time_control()?;
    let time_odds = time.filter(|_| decider).map(|tc| {
        let (white_base_ms, black_base_ms) = tc.armageddon_bases();
        TimeOdds { white_base_ms, black_base_ms }
    });
    // White moves first, on White's base.
    let deadline = time.map(|tc| now + time_odds.map_or(tc.initial_ms(), |o| o.white_base_ms));
    let new = NewGame {
        platform: event.t.platform.clone(),
        server: Some(event.t.server.clone()).filter(|s| !s.is_empty()),
        channel: String::new(),
        variant: event.t.variant.clone(),
        white,
        black,
        start_fen: Position::start(variant).fen(),
        time_control: event.t.time_control,
        time_odds,
        deadline,
        rated: event.t.rated,
    };
    let expected_previous = previous.map(|g| g.id);
    let work = Work::Tournament(tid);
    for _ in 0..PLACE_TRIES {
        let channel = match places.open_place(&event.t.channel, &title).await {
            Ok(channel) => {
                host.inner.backoffs.succeeded(&work);
                channel
            }
            Err(e) => {
                // Refused or gone: the tournament is not asked for again before its backoff,
                // and is paused once that has lasted too long (see `backoff`).
                if host.inner.backoffs.failed(&work, host.now(), &e) == Verdict::GiveUp {
                    pause::pause(host, tid, PauseReason::Refused, Some(e.failure())).await?;
                }
                return Err(Refusal::Broken(format!("cannot open a place for {title}: {e}")));
            }
        };
        let new = NewGame { channel, ..new.clone() };
        let (pairing_id, outbox) = (p.id, outbox.clone());
        let created = host
            .store()
            .write(move |tx| {
                let now_paired = tx.pairing(pairing_id)?;
                // Someone else (a concurrent step) got here first.
                if now_paired.result.is_some() || now_paired.game != expected_previous {
                    return Ok(());
                }
                let game = tx.create_pairing_game(pairing_id, &new, now)?;
                let opening =
                    Opening { pairing: pairing_id, game: game.id, first: expected_previous.is_none(), decider };
                announce_opening(tx, &outbox, tid, &opening, now)
            })
            .await;
        match created {
            Ok(()) => return Ok(()),
            // The place has a game on (a console channel reused after a restart): another one.
            Err(data::Error::ChannelBusy { .. }) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(Refusal::Broken(format!("no free place for {title} after {PLACE_TRIES} tries")))
}

/// A tournament game just created for its pairing.
struct Opening {
    pairing: data::PairingId,
    game: data::GameId,
    /// The pairing's first game (not a replay of an aborted one, nor a decider).
    first: bool,
    decider: bool,
}

/// Queues what the opening of a tournament game says, in the transaction that created it: the
/// game's first message in its place, a decider's note in the tournament's channel, and the
/// round's announcement when this was the last of its games to open.
fn announce_opening(tx: &WriteTx<'_>, outbox: &Outbox, tid: TournamentId, o: &Opening, now: i64) -> data::Result<()> {
    let (pairing_id, game) = (o.pairing, o.game);
    let event = Event::load(tx, tid)?;
    let found = event.rounds.iter().find_map(|r| r.pairings.iter().find(|p| p.id == pairing_id).map(|p| (r, p)));
    let Some((round, pairing)) = found else { return Ok(()) };
    let record = tx.game_record(game)?;
    let (white, black) = (tx.player(record.game.white)?, tx.player(record.game.black)?);
    match Table::new(record, white, black) {
        Ok(table) => {
            let mut messages = show::game_started(&event, round, pairing, &table, o.decider).into_iter();
            if let Some(first) = messages.next() {
                outbox.queue(tx, now, &first, Some(Picture::Board(game)))?;
            }
            for note in messages {
                outbox.queue(tx, now, &note, None)?;
            }
            if let Some(first) = NextTurn::after(&table, 0) {
                first.queue(tx, now)?;
            }
        }
        // Logged where the record failed to read; the game is on, unannounced.
        Err(refusal) => tracing::error!(game, "a tournament game opens unannounced: {}", refusal.text()),
    }
    // The round is announced once, when its first games are all open: the pairing just opened
    // had none before, and no other pairing still waits for one.
    let all_open = round.pairings.iter().all(|p| p.black.is_none() || p.result.is_some() || p.game.is_some());
    if o.first && all_open && Some(round.number) == event.current().map(|r| r.number) {
        outbox.queue_about(tx, now, &show::round_announcement(&event), Page::Tournament(tid))?;
    }
    Ok(())
}

/// Finishes a round whose pairings all have results, and pairs the next one or finishes the
/// tournament, in one commit with what it announces: the round's results, and the next round
/// (when it has no game to open) or the final standings.
async fn close_round(host: &Host, id: TournamentId, round_id: data::RoundId) -> Result<(), Refusal> {
    let (now, outbox) = (host.now(), host.outbox());
    host.store()
        .write(move |tx| {
            let event = Event::load(tx, id)?;
            let Some(round) = event.current() else { return Ok(()) };
            let complete = round.pairings.iter().all(|p| p.result.is_some());
            if round.id != round_id || round.finished_at.is_some() || !complete {
                return Ok(());
            }
            tx.finish_round(round.id, now)?;
            let number = round.number;
            let last = number >= event.t.rounds.unwrap_or(number);
            let next = if last { None } else { Some(pair(&Event::load(tx, id)?, &event.field())) };
            let why = match next {
                Some(Ok(pairings)) => {
                    tx.add_round(id, number + 1, &pairings, now)?;
                    let event = Event::load(tx, id)?;
                    let over = show::round_over(&event, &event.rounds[event.rounds.len() - 2]);
                    outbox.queue_about(tx, now, &over, Page::Tournament(id))?;
                    return announce_if_nothing_to_open(tx, &outbox, &event, now);
                }
                Some(Err(e)) => Some(e.to_string()),
                None => None,
            };
            tx.set_tournament_state(id, TournamentState::Finished, None, now)?;
            let event = Event::load(tx, id)?;
            outbox.queue_about(
                tx,
                now,
                &show::round_over(&event, &event.rounds[event.rounds.len() - 1]),
                Page::Tournament(id),
            )?;
            match show::final_standings(&event, why.as_deref()) {
                Ok(message) => outbox.queue(tx, now, &message, Some(Picture::Standings { tournament: id, last: true })),
                Err(refusal) => {
                    tracing::error!("tournament {id} ends unannounced: {}", refusal.text());
                    Ok(())
                }
            }
        })
        .await?;
    Ok(())
}

/// What a decider's announcement adds: the Armageddon terms, Black's draw odds and, when the
/// game is timed, White's extra time.
pub(crate) fn decider_note(pairing: &Pairing, game: &data::Game) -> Option<String> {
    if !is_decider(pairing, game) {
        return None;
    }
    let time = match game.time_odds {
        Some(odds) => format!(
            ", White has more time ({} against {})",
            spell_duration(odds.white_base_ms),
            spell_duration(odds.black_base_ms)
        ),
        None => String::new(),
    };
    Some(format!(
        "This is the decider after a drawn game: colours are reversed{time}, and a draw sends Black through (Armageddon)."
    ))
}

/// What a bye scored, as announced.
pub(crate) fn bye_points(result: Option<PairingResult>) -> &'static str {
    match result {
        Some(PairingResult::WhiteWins) => "1",
        Some(PairingResult::Draw) => "½",
        _ => "0",
    }
}
