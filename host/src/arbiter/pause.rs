//! Paused tournaments: a tournament whose games the network keeps refusing to open (see
//! `backoff`), or whose server or room Chimera lost, is paused rather than retried for ever.
//!
//! A paused tournament keeps its state, its rounds and its running games; the arbiter only
//! stops stepping it (no game opened, no round paired). Its organiser, or a manager of its
//! server, resumes it with `/tournament start` once the cause is fixed (Chimera's permissions
//! given back, Chimera invited again); the next step then opens whatever is missing.

use data::{PauseReason, TournamentId, TournamentState};

use super::super::{Host, Message, PlaceFailure, Refusal};
use super::event::Event;
use super::show;

/// Pauses tournament `id` for `reason`; when the network refused its games (`failure`), says so
/// in the tournament's channel to its organiser (when that channel refuses too, the outbox gives
/// up on it in time). Whether it was paused now (not before, and still live).
pub(crate) async fn pause(
    host: &Host,
    id: TournamentId,
    reason: PauseReason,
    failure: Option<PlaceFailure>,
) -> Result<bool, Refusal> {
    let (now, outbox) = (host.now(), host.outbox());
    let paused = host
        .store()
        .write(move |tx| {
            let event = Event::load(tx, id)?;
            if !matches!(event.t.state, TournamentState::Open | TournamentState::Running) {
                return Ok(false);
            }
            if !tx.pause_tournament(id, reason, now)? {
                return Ok(false);
            }
            if let Some(failure) = failure {
                outbox.queue(tx, now, &paused_message(&event, failure), None)?;
            }
            Ok(true)
        })
        .await?;
    if paused {
        tracing::warn!(tournament = id, ?reason, "the tournament is paused");
    }
    Ok(paused)
}

/// What the organiser is told when the network keeps refusing a tournament's games.
fn paused_message(event: &Event, failure: PlaceFailure) -> Message {
    let why = match failure {
        PlaceFailure::Gone => "the channel it runs in is gone",
        _ => "Chimera is not allowed to open the games' threads here (it needs to see this channel, send messages, and create public threads in it)",
    };
    Message::text(format!(
        "{} is paused: its next games cannot be opened, because {why}. Nothing is lost; once this is fixed, {} or a server manager resumes it with `/tournament start id:{}`.",
        show::capital(&event.title()),
        event.name(event.t.organiser),
        event.t.id
    ))
    .mentioning(&event.user(event.t.organiser))
    .in_channel(&event.t.channel)
}

/// Lifts the pause of tournament `id`: whether it was paused.
pub(crate) async fn resume(host: &Host, id: TournamentId) -> Result<bool, Refusal> {
    let resumed = host.store().write(move |tx| tx.resume_tournament(id)).await?;
    host.inner.backoffs.succeeded(&super::super::backoff::Work::Tournament(id));
    Ok(resumed)
}
