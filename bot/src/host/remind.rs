//! Turn reminders: a correspondence player whose time for a move is running short is called by
//! name in the game's channel, once per move. Live games need none: their players are there.

use data::Color;

use super::clock::{format_duration, TimeControl, DAY_MS};
use super::table::user_of;
use super::{Host, Message, Refusal};

/// The meta key that remembers, per game, the deadline last reminded of.
fn reminded_key(game: data::GameId) -> String {
    format!("reminded:{game}")
}

/// A player is reminded once a third of their time for the move is left, at most a day before.
fn reminder_window(time: TimeControl) -> i64 {
    (time.initial_ms() / 3).min(DAY_MS)
}

pub(super) async fn reminders(host: &Host) -> Result<Vec<Message>, Refusal> {
    let (now, platform) = (host.now(), host.settings().platform.clone());
    let due = host
        .store()
        .write(move |tx| {
            let mut due = Vec::new();
            for game in tx.overdue_games(now + DAY_MS)?.into_iter().filter(|g| g.platform == platform) {
                let (Some(deadline), Some(stored)) = (game.deadline, game.time_control) else { continue };
                let time = TimeControl::from_stored(stored);
                if time.is_live() || deadline <= now || deadline - now > reminder_window(time) {
                    continue;
                }
                let key = reminded_key(game.id);
                if tx.meta(&key)? == Some(deadline) {
                    continue;
                }
                tx.set_meta(&key, deadline)?;
                // Whose move: the side in the current FEN.
                let record = tx.game_record(game.id)?;
                let color = if record.fen().split(' ').nth(1) == Some("b") { Color::Black } else { Color::White };
                let player = tx.player(game.player(color))?;
                due.push((game, player, deadline - now));
            }
            Ok(due)
        })
        .await?;
    Ok(due
        .into_iter()
        .map(|(game, player, left)| {
            Message::text(format!(
                "Reminder: {}, it is your move in game {} ({}); {} left on your clock.",
                player.display_name,
                game.id,
                game.variant.parse::<rules::Variant>().map_or(game.variant.as_str(), |v| v.name()),
                format_duration(left)
            ))
            .mentioning(&user_of(&player))
            .in_channel(&game.channel)
        })
        .collect())
}
