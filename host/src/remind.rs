//! Turn reminders: a correspondence player whose time for a move is running short is called by
//! name in the game's channel, once per move. Live games need none: their players are there.
//!
//! Once per move means once per deployment: the reminder is claimed in the database
//! ([`data::WriteTx::claim_reminder`], one row per game holding the deadline last reminded
//! of) in the transaction that decides it, so of several processes ticking at once one reminds.

use rules::Position;

use super::clock::{format_duration, TimeControl, DAY_MS};
use super::stored::{self, Terms};
use super::{Host, Message, Refusal, Typed};

/// A player is reminded once a third of their time for the move is left, at most a day before.
fn reminder_window(time: TimeControl) -> i64 {
    (time.initial_ms() / 3).min(DAY_MS)
}

/// Reminds the players whose time runs short, each reminder claimed and queued in one
/// transaction.
pub(super) async fn reminders(host: &Host) -> Result<(), Refusal> {
    let (now, platform, outbox) = (host.now(), host.settings().platform.clone(), host.outbox());
    // The candidates from a snapshot, so the write below touches their rows only: a write that
    // read every game near its deadline would conflict with every move made meanwhile.
    let candidates = host.store().read(move |tx| tx.overdue_games(now + DAY_MS)).await?;
    let candidates: Vec<_> = candidates
        .into_iter()
        .filter(|game| game.platform == platform)
        .filter_map(|game| {
            // A game whose record cannot be read is logged as such and set aside.
            let (Some(deadline), Ok(Some(time)), Ok(variant)) = (game.deadline, game.time_control(), game.variant())
            else {
                return None;
            };
            let due = !time.is_live() && deadline > now && deadline - now <= reminder_window(time);
            due.then_some((game.id, deadline, variant))
        })
        .collect();
    if candidates.is_empty() {
        return Ok(());
    }
    host.store()
        .write(move |tx| {
            for &(id, deadline, variant) in &candidates {
                // The game as it is now: a move since the snapshot gave it a new deadline.
                let game = tx.game(id)?;
                if game.state != data::GameState::Active || game.deadline != Some(deadline) {
                    continue;
                }
                // Claimed first, so a game already reminded of costs one statement, not a load.
                if !tx.claim_reminder(game.id, deadline)? {
                    continue;
                }
                let record = tx.game_record(game.id)?;
                let to_move = match Position::from_fen(variant, record.fen()) {
                    Ok(position) => position.turn(),
                    Err(e) => {
                        stored::unreadable(game.record(), e);
                        continue;
                    }
                };
                let player = tx.player(game.player(stored::to_color(to_move)))?;
                let reminder = Message::text(format!(
                    "Reminder: {}, it is your move in game {} ({}); {} left on your clock.",
                    Typed(&player.display_name),
                    game.id,
                    variant.name(),
                    format_duration(deadline - now)
                ))
                .mentioning(&stored::user(&player))
                .in_channel(&game.channel);
                outbox.queue(tx, now, &reminder, None)?;
            }
            Ok(())
        })
        .await?;
    Ok(())
}
