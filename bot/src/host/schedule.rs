//! The scheduler: games that run out of time, challenges that expire, and clocks that stay fair
//! when the host itself is down.
//!
//! # Downtime
//!
//! Nobody can move while the host is down, so nobody should lose time to it. The host writes a
//! heartbeat (`last_alive`, in the database) on every tick. When it starts, the time since the
//! last heartbeat is downtime: every active game's deadline moves that much later, so each
//! player to move has exactly the time they had when the host stopped (less at most one tick's
//! interval). Move times are measured against the deadline (see `clock.rs`), so the downtime
//! is charged to neither player. Challenges are not extended: they merely expire.

use data::Challenge;

use super::end::end_on_time;
use super::play::time_up_message;
use super::table::user_of;
use super::{Host, Message, Refusal};

/// The heartbeat's key in the database's meta table.
const LAST_ALIVE: &str = "last_alive";

impl Host {
    /// At startup: moves every running clock past the downtime since the last heartbeat.
    pub(super) async fn resume(&self) -> anyhow::Result<()> {
        let now = self.now();
        let shifted = self
            .store()
            .write(move |tx| {
                let down = tx.meta(LAST_ALIVE)?.map_or(0, |last| now - last);
                let shifted = if down > 0 { tx.shift_deadlines(down, now)? } else { 0 };
                tx.set_meta(LAST_ALIVE, now)?;
                Ok((down, shifted))
            })
            .await
            .map_err(|e| anyhow::anyhow!("cannot resume the clocks: {e}"))?;
        if shifted.1 > 0 {
            tracing::info!(
                "the host was down for {}; the clocks of {} game(s) were moved on by as much",
                super::clock::format_duration(shifted.0),
                shifted.1
            );
        }
        Ok(())
    }
}

pub(super) async fn tick(host: &Host) -> Result<Vec<Message>, Refusal> {
    let (now, platform) = (host.now(), host.settings().platform.clone());
    let (ended, expired) = host
        .store()
        .write(move |tx| {
            tx.set_meta(LAST_ALIVE, now)?;
            let mut ended = Vec::new();
            for game in tx.overdue_games(now)?.into_iter().filter(|g| g.platform == platform) {
                ended.extend(end_on_time(tx, game.id, now)?);
            }
            let expired = tx
                .expire_challenges_on(&platform, now)?
                .into_iter()
                .map(|c| {
                    let challenger = tx.player(c.challenger)?;
                    let challenged = c.challenged.map(|id| tx.player(id)).transpose()?;
                    Ok((c, challenger, challenged))
                })
                .collect::<data::Result<Vec<_>>>()?;
            Ok((ended, expired))
        })
        .await?;
    let mut messages: Vec<Message> = ended.iter().map(time_up_message).collect();
    messages
        .extend(expired.iter().map(|(c, challenger, challenged)| expired_message(c, challenger, challenged.as_ref())));
    Ok(messages)
}

fn expired_message(c: &Challenge, challenger: &data::Player, challenged: Option<&data::Player>) -> Message {
    let to = challenged.map_or("anyone".to_string(), |p| p.display_name.clone());
    Message::text(format!(
        "{}'s challenge {} to {to} ({}) expired unanswered.",
        challenger.display_name, c.id, c.variant
    ))
    .mentioning(&user_of(challenger))
    .in_channel(&c.channel)
}
