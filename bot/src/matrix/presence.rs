//! Whether the Matrix side is being served, as the host needs to know to run clocks fairly
//! (see the host's `schedule.rs`), and the rooms Chimera is removed from.
//!
//! - **Connected** once a sync has come back: the host credits the time it was not served.
//! - **Disconnected** when no sync has come back for [`STALE_AFTER`] (the homeserver is down or
//!   unreachable; a sync long-polls for ten seconds at most, so a healthy one is never this
//!   late): the host stops the heartbeat and no one runs out of time until syncs work again.
//! - **Removed** from a room (kicked or banned by someone else): what lived there is stopped
//!   (the host's `lost.rs`: tournaments paused, waiting challenges withdrawn, games aborted).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use matrix_sdk::event_handler::Ctx;
use matrix_sdk::ruma::events::room::member::{MembershipState, OriginalSyncRoomMemberEvent};
use matrix_sdk::Room;
use tracing::{info, warn};

use host::Host;

use super::Bot;

/// No sync back for this long: the connection is taken for lost.
pub const STALE_AFTER: Duration = Duration::from_secs(30);

/// When the last sync came back.
#[derive(Clone)]
pub struct Syncs(Arc<Mutex<Option<Instant>>>);

impl Syncs {
    pub fn new() -> Syncs {
        Syncs(Arc::new(Mutex::new(None)))
    }

    /// A sync came back: the host is told it is connected, if it was not.
    pub async fn synced(&self, host: &Host) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        if !host.is_serving() {
            if let Err(e) = host.connected().await {
                warn!("{e}");
            }
        }
    }

    /// Watches the syncs for ever: the host is told it is disconnected while they stay away.
    pub async fn watch(self, host: Host) {
        let mut interval = tokio::time::interval(Duration::from_secs(1));
        loop {
            interval.tick().await;
            let last = *self.0.lock().unwrap_or_else(|e| e.into_inner());
            if last.is_some_and(|at| at.elapsed() > STALE_AFTER) && host.is_serving() {
                warn!("no Matrix sync for {} s", STALE_AFTER.as_secs());
                host.disconnected();
            }
        }
    }
}

/// Chimera's own membership changed: kicked or banned by someone else, the room is lost.
pub async fn on_membership(event: OriginalSyncRoomMemberEvent, room: Room, bot: Ctx<Arc<Bot>>) {
    let removed = matches!(event.content.membership, MembershipState::Leave | MembershipState::Ban);
    if event.state_key != bot.me || !removed || event.sender == bot.me {
        return;
    }
    info!(room = %room.room_id(), by = %event.sender, "removed from a room");
    if let Err(e) = bot.host.server_lost(room.room_id().as_str()).await {
        warn!(room = %room.room_id(), "{e}");
    }
}
