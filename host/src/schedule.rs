//! The scheduler: games that run out of time, challenges that expire, and clocks that stay fair
//! when the host itself is down.
//!
//! # Several processes
//!
//! Several hosts may share one database (Discord shards split across processes, on
//! PostgreSQL). Each due clock and each expired challenge is then ended by exactly one of them:
//! the tick *claims* what is due ([`data::WriteTx::claim_overdue_games`],
//! [`data::WriteTx::claim_expired_challenges`]: on PostgreSQL `FOR UPDATE SKIP LOCKED`, so
//! another process's claim skips what this one holds) and ends it in the same transaction. A
//! process that dies before its commit ends nothing: its transaction rolls back, its locks go,
//! and the next tick of any process claims the same games again. Announcements are queued in
//! the same transaction (see `outbox`), so a time-out is never left unsaid.
//!
//! # Downtime
//!
//! A team game's vote window ends at its deadline too: the tick claims it the same way and, in the
//! same transaction, plays the most-voted move (`team`), so each window is resolved once.
//!
//! Nobody can move while their platform is not served, so nobody should lose time to it. A
//! game's clock runs only while its platform's adapter is connected and serving:
//!
//! - **Per platform.** Each platform has its own heartbeat (`last_alive:<platform>`, in the
//!   database), and a start shifts the clocks of its own platform's games only: Matrix down while
//!   Discord serves is credited to Matrix games, and a Discord restart leaves them alone.
//! - **On connect, not on start.** An adapter says when it is connected ([`Host::connected`]:
//!   Discord's READY, a Matrix sync that worked). Only then is the time since the platform's last
//!   heartbeat credited and the heartbeat started, so a process that keeps crashing before it
//!   connects never resets the heartbeat, and its whole crash loop is credited at last.
//! - **Not while disconnected.** When the connection fails ([`Host::disconnected`]: the gateway
//!   closed, syncs fail) the heartbeat stops and no game is ended on time; the next
//!   [`Host::connected`] credits the gap like any downtime.
//!
//! Every tick while serving (and, on Discord and Matrix, a timer of its own so that a long tick
//! cannot delay it) writes the heartbeat in a transaction of its own. The time since the last
//! heartbeat is downtime: every active game's deadline on the platform moves that much later, so
//! each player to move has exactly the time they had when the platform stopped being served.
//! Move times are measured against the deadline (see `clock.rs`), so the downtime is charged to
//! neither player. Challenges are not extended: they merely expire.
//!
//! A heartbeat younger than [`ALIVE_WINDOW_MS`] means another process may still be serving
//! (its players moving, its clocks running), so nothing is shifted: one process restarting
//! beside others must not hand every game in the deployment free time. The price is that a
//! deployment down for less than the window is not compensated. Two processes starting at once
//! cannot both shift: the shift and the new heartbeat commit together, and the second start
//! (serialized after the first, or retried on PostgreSQL) sees the first one's heartbeat.

use std::sync::atomic::{AtomicBool, Ordering};

use data::Challenge;

use super::end::end_on_time;
use super::outbox::Picture;
use super::play::time_up_message;
use super::stored::{self, Terms};
use super::team::{self, Closed};
use super::{Host, HostError, Message, Refusal, Typed};

/// The heartbeat's key in the database's meta table (as `last_alive:<platform>`; alone, the
/// shared key of databases from before).
const LAST_ALIVE: &str = "last_alive";

/// A heartbeat this recent says another process may be alive: no clocks are shifted at start.
/// Far longer than the heartbeat's interval (a second by default), so a busy process is not
/// taken for a dead one.
pub const ALIVE_WINDOW_MS: i64 = 10_000;

/// Overdue games or expired challenges claimed per transaction: a few transactions of bounded
/// length rather than one holding every lock.
const CLAIM_BATCH: u32 = 64;

/// Batches per tick at most; whatever is left waits for the next tick.
const CLAIM_BATCHES: usize = 16;

/// Whether this host's adapter is connected and serving: clocks run, and the heartbeat beats,
/// only while it is.
#[derive(Default)]
pub(crate) struct Serving(AtomicBool);

impl Serving {
    pub fn is_on(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// Sets it; whether it was on.
    fn set(&self, on: bool) -> bool {
        self.0.swap(on, Ordering::SeqCst)
    }
}

/// The heartbeat's key for `platform`: each platform's downtime is its own.
fn last_alive_key(platform: &str) -> String {
    format!("{LAST_ALIVE}:{platform}")
}

impl Host {
    /// The adapter is connected and serving (Discord's gateway said READY; a Matrix sync
    /// succeeded; the console at once): every running clock of this platform moves past the
    /// time since the platform's last heartbeat, and from now on the heartbeat beats and clocks
    /// run. Called again after [`Host::disconnected`], it credits the time the connection was
    /// down. A host whose settings do not wait for the adapter
    /// ([`crate::Settings::adapter_connects`]) is connected when it opens.
    pub async fn connected(&self) -> Result<(), HostError> {
        let now = self.now();
        let platform = self.settings().platform.clone();
        let key = last_alive_key(&platform);
        let shifted = self
            .store()
            .write(move |tx| {
                // A database from before per-platform heartbeats has the shared one only.
                let last = match tx.meta(&key)? {
                    Some(last) => Some(last),
                    None => tx.meta(LAST_ALIVE)?,
                };
                let down = last.map_or(0, |last| now - last);
                let shifted = if down > ALIVE_WINDOW_MS { tx.shift_deadlines_on(&platform, down, now)? } else { 0 };
                tx.set_meta(&key, now)?;
                Ok((down, shifted))
            })
            .await
            .map_err(HostError::Resume)?;
        self.inner.serving.set(true);
        self.metrics().set_connected(true);
        if shifted.1 > 0 {
            tracing::info!(
                "{} was not served for {}; the clocks of {} game(s) were moved on by as much",
                self.settings().platform,
                super::clock::format_duration(shifted.0),
                shifted.1
            );
        }
        Ok(())
    }

    /// The adapter lost its connection (the gateway closed, syncs fail): nobody can move, so
    /// the heartbeat stops and no clock is ended until [`Host::connected`] credits the gap.
    pub fn disconnected(&self) {
        self.metrics().set_connected(false);
        if self.inner.serving.set(false) {
            tracing::warn!("{} is disconnected: its clocks stop until it is back", self.settings().platform);
        }
    }

    /// Whether the adapter is connected and serving (see [`Host::connected`]).
    pub fn is_serving(&self) -> bool {
        self.inner.serving.is_on()
    }

    /// Records that this host is alive and serving its platform, in a transaction of its own
    /// (see "Downtime"); nothing while it is not serving.
    pub async fn heartbeat(&self) -> Result<(), HostError> {
        if !self.inner.serving.is_on() {
            return Ok(());
        }
        let now = self.now();
        let key = last_alive_key(&self.settings().platform);
        self.store().write(move |tx| tx.set_meta(&key, now)).await.map_err(HostError::Resume)
    }
}

/// Ends the overdue games and expires the old challenges of the host's platform, each batch in
/// one transaction with its announcements.
pub(super) async fn tick(host: &Host) -> Result<(), Refusal> {
    let (now, platform, outbox) = (host.now(), host.settings().platform.clone(), host.outbox());
    // Disconnected (or not yet connected): nobody can move, so nobody runs out of time.
    if !host.inner.serving.is_on() {
        return Ok(());
    }
    if let Err(e) = host.heartbeat().await {
        tracing::warn!("cannot record the heartbeat: {e}");
    }
    for _ in 0..CLAIM_BATCHES {
        let (platform, outbox) = (platform.clone(), outbox.clone());
        let (claimed, progress, voted) = host
            .store()
            .write(move |tx| {
                let games = tx.claim_overdue_games(&platform, now, CLAIM_BATCH)?;
                let mut progress = false;
                let mut voted = Vec::new();
                for game in &games {
                    // A team's window that closed with votes plays its move (see `team`).
                    match team::close_window(tx, game.id, now, &outbox)? {
                        Closed::Played => {
                            progress = true;
                            voted.push(game.id);
                            continue;
                        }
                        Closed::Unreadable => continue,
                        Closed::NoVote => {}
                    }
                    if let Some(flagged) = end_on_time(tx, game.id, now)? {
                        let message = time_up_message(&flagged);
                        let ended = &flagged.ended;
                        // Each team of a team game hears it in its own channel.
                        for channel in team::channels(&ended.game, [&ended.white, &ended.black]) {
                            let message = message.clone().in_channel(&channel);
                            outbox.queue(tx, now, &message, Some(Picture::Replay(game.id)))?;
                        }
                        progress = true;
                    }
                }
                let challenges = tx.claim_expired_challenges(&platform, now, CLAIM_BATCH)?;
                let claimed = games.len().max(challenges.len());
                for c in challenges {
                    progress = true;
                    let challenger = tx.player(c.challenger)?;
                    let challenged = c.challenged.map(|id| tx.player(id)).transpose()?;
                    // A challenge whose record cannot be read is logged as such and not announced.
                    if let Ok(message) = expired_message(&c, &challenger, challenged.as_ref()) {
                        outbox.queue(tx, now, &message, None)?;
                    }
                }
                Ok((claimed, progress, voted))
            })
            .await?;
        // Chimera answers a team's move at once.
        for game in voted {
            match host.load_table(game).await {
                Ok(table) => super::opponent::wake(host, &table),
                Err(refusal) => tracing::warn!(game, "cannot look at a team game: {}", refusal.text()),
            }
        }
        // A full batch may have more behind it; a batch that ended nothing (games whose record
        // cannot be read stay overdue, logged) must not be claimed again and again.
        if claimed < CLAIM_BATCH as usize || !progress {
            break;
        }
    }
    Ok(())
}

fn expired_message(
    c: &Challenge,
    challenger: &data::Player,
    challenged: Option<&data::Player>,
) -> Result<Message, Refusal> {
    let to = challenged.map_or("anyone".to_string(), |p| Typed(&p.display_name).to_string());
    let variant = c.variant()?;
    Ok(Message::text(format!(
        "{}'s challenge {} to {to} ({}) expired unanswered.",
        Typed(&challenger.display_name),
        c.id,
        variant.name()
    ))
    .mentioning(&stored::user(challenger))
    .in_channel(&c.channel))
}
