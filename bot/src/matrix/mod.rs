//! `chimera matrix`: the game host in Matrix rooms, through matrix-sdk with end-to-end
//! encryption and its SQLite stores.
//!
//! - `settings`: what `.env.example` lists for Matrix.
//! - `session`: logging in once, then the stored session, device and keys.
//! - `incoming`: a message or a reaction in, a request to the host (commands behind the prefix,
//!   mention pills, display names, bare moves).
//! - `outgoing`: the host's reply out as Matrix events (notices with HTML and `m.mentions`,
//!   refusals as replies, boards as `m.image`, buttons as reactions).
//! - `channel`: rooms and threads as the host's channels; threads for games of busy rooms.
//! - `ledger`: the events already answered, the reactions that stand for buttons, and the sync
//!   position, in Chimera's database (data's ledger).
//!
//! What it guarantees: every command received is answered, even after a SIGKILL or a power cut:
//! sync resumes from Chimera's own position (`position`), which moves on only once every event
//! before it has been dealt with, so a restart gets again whatever was received and not yet
//! answered; an event is answered at most once even so (the ledger, and the event id as the
//! host's request id); events from before the bot joined a room, or older than [`STALE_AFTER`]
//! at start-up, are never acted on. Each person's events in a room are handled in the order they
//! came, everyone else's side by side (`queues`), so a user who floods a room slows only
//! themself; a queue holds [`queues::BOUND`] events at most, past which the sender is told once
//! and the rest is dropped; and the host refuses a flood out loud once every ten seconds, the
//! rest of it silently (a quiet reply is not sent). Events waiting for a room key are bounded
//! too (`incoming`), and the ledger is pruned every [`PRUNE_EVERY`].
//!
//! `MATRIX_STORE_DIR` holds the access token and the device's keys: it is made `0700` and every
//! file in it `0600`, whatever the umask.
//!
//! On SIGINT or SIGTERM the bot stops syncing, finishes the events it has for at most
//! [`FINISH_GRACE`], and exits, whatever the network is doing (also while it is still logging
//! in); what it did not finish comes again at the next start.

mod channel;
mod incoming;
mod ledger;
mod outgoing;
mod position;
mod presence;
mod queues;
mod session;
pub use session::check as check_login;
mod settings;
pub mod text;

use std::future::Future;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use matrix_sdk::config::SyncSettings;
use matrix_sdk::event_handler::Ctx;
use matrix_sdk::ruma::api::client::filter::FilterDefinition;
use matrix_sdk::ruma::api::client::sync::sync_events::v3::Filter;
use matrix_sdk::ruma::events::reaction::OriginalSyncReactionEvent;
use matrix_sdk::ruma::events::room::encrypted::OriginalSyncRoomEncryptedEvent;
use matrix_sdk::ruma::events::room::encryption::OriginalSyncRoomEncryptionEvent;
use matrix_sdk::ruma::events::room::member::StrippedRoomMemberEvent;
use matrix_sdk::ruma::events::room::message::OriginalSyncRoomMessageEvent;
use matrix_sdk::ruma::serde::Raw;
use matrix_sdk::ruma::{MilliSecondsSinceUnixEpoch, OwnedRoomId, OwnedUserId};
use matrix_sdk::{LoopCtrl, Room};
use tracing::{info, warn};

use crate::adapter::{AdapterArgs, Background, Process};
use host::{Host, NetworkLimits};

pub use channel::Channel;
pub use settings::{Credentials, Settings};

/// The platform name Matrix games are stored under.
pub const PLATFORM: &str = "matrix";

/// Events older than this when the bot starts are never acted on: after a long outage nobody
/// waits for an answer to a move they sent an hour ago, and it may no longer be theirs to play.
pub const STALE_AFTER: Duration = Duration::from_secs(10 * 60);

/// How long the bot finishes the events it has after SIGTERM before it exits anyway (those left
/// come again at the next start).
pub const FINISH_GRACE: Duration = Duration::from_secs(5);

/// How often the ledger forgets the events handled too long ago to come again as fresh.
pub const PRUNE_EVERY: Duration = Duration::from_secs(10 * 60);

/// The largest upload assumed of a homeserver that does not say (its media config fails): a
/// conservative guess, well under Synapse's default of 50 MiB.
const UPLOAD_BYTES_UNSAID: usize = 10 * 1024 * 1024;

/// Timeline events per room in one sync: a restart syncs again from Chimera's position, which
/// may be a busy while behind, and a room with more events than this since then would have the
/// older ones left out of the sync (a "limited" timeline).
const TIMELINE_LIMIT: u32 = 200;

/// `chimera matrix`: reads the settings, logs in (or restores the stored session), and runs
/// until SIGINT or SIGTERM.
pub fn run(args: AdapterArgs) -> anyhow::Result<ExitCode> {
    let process = Process {
        // The SDK logs every failed request as an error, expected ones included (account data a
        // new account has not set yet); the failures that matter reach Chimera's own log lines.
        // Key backup is not used (docs/matrix.md), so its "no backup key" warnings are noise.
        log_filter: "info,matrix_sdk=warn,matrix_sdk::http_client=off,matrix_sdk_crypto=warn,matrix_sdk_crypto::backups=error,matrix_sdk_base=warn",
        // Whatever still waits on the network or a blocking thread is not waited for.
        shutdown_grace: Duration::from_secs(1),
    };
    crate::adapter::run(&args, process, Settings::from_env, serve)
}

/// One event to handle, in its room's queue, with its claim on Chimera's sync position.
struct Job {
    event: Event,
    ticket: position::Ticket,
}

enum Event {
    // Boxed: a message event is four times the size of a reaction.
    Message(Box<OriginalSyncRoomMessageEvent>),
    Reaction(OriginalSyncReactionEvent),
}

/// Everything the event handlers share.
pub(crate) struct Bot {
    host: Host,
    settings: Settings,
    me: OwnedUserId,
    ledger: ledger::Ledger,
    /// Sends what the host says (answers, and announcements through [`channel::MatrixThreads`]).
    speaker: outgoing::Speaker,
    /// The direct rooms Chimera writes to users alone in.
    direct: channel::DirectRooms,
    /// Events sent before this are stale (see [`STALE_AFTER`]).
    not_before: MilliSecondsSinceUnixEpoch,
    /// A queue for each sender in each room, each worked by a task of its own, so a person's
    /// events are handled in order and nobody waits behind anyone else's.
    queues: Arc<queues::Queues<(OwnedRoomId, OwnedUserId), Job>>,
    /// Chimera's sync position: what the next start syncs from.
    position: Arc<position::Position>,
    /// The events waiting for their room key, each sender's and everyone's bounded.
    undecrypted: Arc<incoming::Waiting>,
}

/// Runs the bot until `stop` completes, then lets it finish the events it has (for at most
/// [`FINISH_GRACE`]). `stop` is heeded from the first moment, logging in included.
pub async fn serve(settings: Settings, stop: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
    let mut stop = std::pin::pin!(stop);
    let started = tokio::select! {
        started = start(settings) => started?,
        _ = &mut stop => {
            info!("shutting down before the bot was connected");
            return Ok(());
        }
    };
    let (bot, client) = started;
    let background = Background::start(&bot.host, bot.places(), bot.settings.common.tick);
    let _endpoint = crate::http::start_if(bot.settings.common.http_addr, &bot.host).await?;
    let _web = crate::pages::start_if(
        bot.settings.common.web_addr,
        &bot.host,
        crate::pages::web_settings(&bot.settings.common),
    )
    .await?;
    let pruner = tokio::spawn(prune(bot.ledger.clone(), PRUNE_EVERY));
    let keeper = tokio::spawn(keep_position(Arc::clone(&bot.position), bot.ledger.clone()));
    let syncs = presence::Syncs::new();
    let watchdog = tokio::spawn(syncs.clone().watch(bot.host.clone()));
    info!(user = %bot.me, device = ?client.device_id(), "connected; syncing");
    // From Chimera's own position when it has one; else (the first run, or a store from before
    // it was kept) from the SDK's token, or from now on the very first run.
    let mut sync_settings = SyncSettings::default().timeout(Duration::from_secs(10)).filter(sync_filter());
    if let Some(token) = bot.ledger.position().await? {
        sync_settings = sync_settings.token(token);
    }
    let position = Arc::clone(&bot.position);
    let host = bot.host.clone();
    let sync = client.sync_with_result_callback(sync_settings, move |response| {
        let (position, syncs, host) = (Arc::clone(&position), syncs.clone(), host.clone());
        async move {
            // Every handler of this sync has been called: its events all hold tickets.
            position.synced(response?.next_batch);
            // A sync that came back: the platform is served (see `presence`).
            syncs.synced(&host).await;
            Ok(LoopCtrl::Continue)
        }
    });
    let result = tokio::select! {
        result = sync => result.context("the Matrix sync failed"),
        _ = &mut stop => {
            info!("shutting down");
            Ok(())
        }
    };
    drop(background);
    watchdog.abort();
    pruner.abort();
    if tokio::time::timeout(FINISH_GRACE, bot.finish()).await.is_err() {
        warn!("events were still being handled {FINISH_GRACE:?} after the shutdown began; they come again at the next start");
    }
    keeper.abort();
    let _ = keeper.await;
    save_position(&bot.position, &bot.ledger).await;
    info!("stopped");
    result
}

/// Everything up to syncing: the store directory, the ledger, the host, the session, and the
/// event handlers.
async fn start(settings: Settings) -> anyhow::Result<(Arc<Bot>, matrix_sdk::Client)> {
    make_private(&settings.store_dir).with_context(|| {
        format!("cannot create MATRIX_STORE_DIR {} for this user alone", settings.store_dir.display())
    })?;
    let client = session::connect(&settings).await?;
    let host = Host::open(settings.host(network_limits(&client).await)).await?;
    let me = client.user_id().context("the Matrix session has no user")?.to_owned();
    let device = client.device_id().context("the Matrix session has no device")?;
    let ledger = ledger::Ledger::new(host.store().clone(), format!("{me}/{device}"));
    ledger.import(&settings.store_dir.join("chimera-ledger.sqlite3")).await.context("cannot import the old ledger")?;
    forget_stale(&ledger).await;
    // The SDK's stores are open now (and their files made): they are this user's alone too.
    make_private(&settings.store_dir)
        .with_context(|| format!("cannot protect MATRIX_STORE_DIR {}", settings.store_dir.display()))?;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let not_before =
        MilliSecondsSinceUnixEpoch::from_system_time(std::time::UNIX_EPOCH + now.saturating_sub(STALE_AFTER))
            .unwrap_or(MilliSecondsSinceUnixEpoch(0u32.into()));
    let speaker =
        outgoing::Speaker { client: client.clone(), prefix: settings.prefix.as_str().into(), ledger: ledger.clone() };
    let bot = Arc::new(Bot {
        host,
        settings,
        me,
        ledger,
        speaker,
        direct: channel::DirectRooms::default(),
        not_before,
        queues: queues::Queues::new(queues::IDLE, queues::BOUND),
        position: position::Position::new(),
        undecrypted: Arc::new(incoming::Waiting::new(incoming::WAITING_PER_SENDER, incoming::WAITING_IN_ALL)),
    });
    client.add_event_handler_context(Arc::clone(&bot));
    client.add_event_handler(on_invite);
    client.add_event_handler(presence::on_membership);
    client.add_event_handler(on_encryption);
    // Each handler takes its event's ticket before it returns: the sync is not over (and its
    // token not Chimera's position) until every event of it is dealt with.
    client.add_event_handler(|event: OriginalSyncRoomMessageEvent, room: Room, bot: Ctx<Arc<Bot>>| async move {
        let ticket = bot.position.ticket();
        bot.enqueue(&room, Job { event: Event::Message(Box::new(event)), ticket });
    });
    client.add_event_handler(|event: Raw<OriginalSyncRoomEncryptedEvent>, room: Room, bot: Ctx<Arc<Bot>>| async move {
        let ticket = bot.position.ticket();
        bot.decrypt_later(room, event, ticket);
    });
    client.add_event_handler(|event: OriginalSyncReactionEvent, room: Room, bot: Ctx<Arc<Bot>>| async move {
        let ticket = bot.position.ticket();
        bot.enqueue(&room, Job { event: Event::Reaction(event), ticket });
    });
    Ok((bot, client))
}

/// A room became end-to-end encrypted (its `m.room.encryption` state event; also seen for a
/// room already encrypted when it is synced): its web listing, if it was on, is turned off, as
/// an encrypted room's always is (the host's `settings.rs`).
async fn on_encryption(_event: OriginalSyncRoomEncryptionEvent, room: Room, bot: Ctx<Arc<Bot>>) {
    if let Err(e) = bot.host.place_encrypted(room.room_id().as_str()).await {
        warn!(room = %room.room_id(), "{e}");
    }
}

/// What the homeserver takes: files up to the size its media config reports (Synapse's
/// `max_upload_size`), or [`UPLOAD_BYTES_UNSAID`] where it does not say; transaction ids of any
/// length.
async fn network_limits(client: &matrix_sdk::Client) -> NetworkLimits {
    let upload_bytes = match client.load_or_fetch_max_upload_size().await {
        Ok(size) => usize::try_from(u64::from(size)).unwrap_or(usize::MAX),
        Err(e) => {
            warn!(
                "the homeserver does not say how large an upload it takes ({e}); assuming {UPLOAD_BYTES_UNSAID} bytes"
            );
            UPLOAD_BYTES_UNSAID
        }
    };
    NetworkLimits { upload_bytes, key_chars: usize::MAX }
}

/// What a sync asks for: the SDK's defaults, with room timelines long enough for a restart
/// from Chimera's position (see [`TIMELINE_LIMIT`]).
fn sync_filter() -> Filter {
    let mut definition = FilterDefinition::default();
    definition.room.timeline.limit = Some(TIMELINE_LIMIT.into());
    Filter::FilterDefinition(definition)
}

/// Makes `dir` (creating it) readable by this user alone, and every file in it: it holds the
/// access token, the device's keys and every room key. Directories `0700`, files `0600`,
/// whatever the umask the bot was started with; SQLite makes a database's `-wal` and `-shm`
/// files with the database's own mode, so those made later are private too.
fn make_private(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fn walk(dir: &Path) -> std::io::Result<()> {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
            for entry in std::fs::read_dir(dir)? {
                let entry = entry?;
                let kind = entry.file_type()?;
                if kind.is_dir() {
                    walk(&entry.path())?;
                } else if kind.is_file() {
                    std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o600))?;
                }
            }
            Ok(())
        }
        walk(dir)?;
    }
    Ok(())
}

/// Forgets what was handled before the stale limit: it can never come again as fresh (see
/// `is_fresh`).
async fn forget_stale(ledger: &ledger::Ledger) {
    let long_ago = std::time::SystemTime::now() - 2 * STALE_AFTER;
    let ms = long_ago.duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_millis() as i64;
    if let Err(e) = ledger.forget_handled_before(ms).await {
        warn!("cannot prune the ledger: {e}");
    }
}

/// Prunes the ledger every `every`, so that a bot that runs for months keeps a ledger of the
/// last minutes' events, not of every event it ever answered.
async fn prune(ledger: ledger::Ledger, every: Duration) {
    crate::adapter::every(every, || forget_stale(&ledger)).await
}

/// Stores Chimera's position each time it moves.
async fn keep_position(position: Arc<position::Position>, ledger: ledger::Ledger) {
    loop {
        position.moved().await;
        save_position(&position, &ledger).await;
    }
}

async fn save_position(position: &position::Position, ledger: &ledger::Ledger) {
    if let Some(token) = position.take_settled() {
        if let Err(e) = ledger.save_position(&token).await {
            // Not moved on: the events since the last stored position come again next start,
            // and the ledger answers each once.
            warn!("cannot store the sync position: {e}");
        }
    }
}

/// Joins the rooms the bot is invited to (from the allowed servers, when they are listed).
async fn on_invite(event: StrippedRoomMemberEvent, room: Room, bot: Ctx<Arc<Bot>>) {
    if event.state_key != bot.me
        || event.content.membership != matrix_sdk::ruma::events::room::member::MembershipState::Invite
    {
        return;
    }
    let allowed = &bot.settings.allowed_servers;
    if !allowed.is_empty() && !allowed.iter().any(|s| s == event.sender.server_name()) {
        info!(room = %room.room_id(), inviter = %event.sender, "invitation from a server not in MATRIX_ALLOWED_SERVERS; left");
        if let Err(e) = room.leave().await {
            warn!(room = %room.room_id(), "cannot decline an invitation: {e}");
        }
        return;
    }
    tokio::spawn(async move {
        // A fresh invitation may not be joinable at once (federation); try a few times.
        let mut delay = Duration::from_millis(500);
        for _ in 0..8 {
            match room.join().await {
                Ok(()) => {
                    info!(room = %room.room_id(), inviter = %event.sender, "joined");
                    return;
                }
                Err(e) => {
                    warn!(room = %room.room_id(), "cannot join yet: {e}");
                    tokio::time::sleep(delay).await;
                    delay *= 2;
                }
            }
        }
    });
}

impl Bot {
    fn places(&self) -> channel::MatrixThreads {
        channel::MatrixThreads { speaker: self.speaker.clone(), direct: self.direct.clone() }
    }

    fn enqueue(self: &Arc<Self>, room: &Room, job: Job) {
        let (sender, id, thread) = match &job.event {
            Event::Message(event) => {
                let thread = match &event.content.relates_to {
                    Some(matrix_sdk::ruma::events::room::message::Relation::Thread(t)) => Some(t.event_id.clone()),
                    _ => None,
                };
                (event.sender.clone(), event.event_id.clone(), thread)
            }
            Event::Reaction(event) => (event.sender.clone(), event.event_id.clone(), None),
        };
        let key = (room.room_id().to_owned(), sender.clone());
        let pushed = self.queues.push(key, job, || {
            let (bot, room) = (Arc::clone(self), room.clone());
            move |job: Job| {
                let (bot, room) = (Arc::clone(&bot), room.clone());
                async move {
                    let done = match job.event {
                        Event::Message(event) => bot.on_message(&room, *event).await,
                        Event::Reaction(event) => bot.on_reaction(&room, event).await,
                    };
                    match done {
                        Ok(()) => job.ticket.done(),
                        // The ticket is dropped undone: the event comes again at the next start.
                        Err(e) => warn!(room = %room.room_id(), "handling an event failed: {e:#}"),
                    }
                }
            }
        });
        let Err(refused) = pushed else { return };
        match refused.why {
            queues::Why::Full { first } => {
                // Dropped on purpose (and the sender told once): it is not to come again.
                refused.job.ticket.done();
                warn!(room = %room.room_id(), %sender, "a sender's queue is full; an event was dropped");
                if first && sender != self.me {
                    let bot = Arc::clone(self);
                    let origin = outgoing::Origin {
                        channel: Channel { room: room.room_id().to_owned(), thread },
                        event: Some(id.clone()),
                        asker: sender,
                    };
                    tokio::spawn(async move {
                        let reply = host::Reply::error(format!(
                            "You have sent more than {} messages I have not answered yet: I dropped this one and \
                             will drop those that follow until I have caught up. Send them again after my answers.",
                            queues::BOUND
                        ));
                        if let Err(e) = bot.answer(&origin, id.as_str(), reply).await {
                            warn!(room = %origin.channel, "cannot tell a sender their queue is full: {e:#}");
                        }
                    });
                }
            }
            // Its ticket is dropped undone: the event comes again at the next start.
            queues::Why::Closed => {
                warn!(room = %room.room_id(), "an event came after shutdown; it comes again at the next start")
            }
        }
    }

    /// Closes every queue and waits for the events in them to be handled.
    async fn finish(&self) {
        self.queues.finish().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_ledger_is_pruned_on_a_schedule_not_only_at_start() {
        let dir = tempfile::tempdir().unwrap();
        let store = data::AsyncStore::open(dir.path().join("chimera.db")).await.unwrap();
        let ledger = ledger::Ledger::new(store, "@bot:x/DEV".into());
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
        ledger.mark_handled("$recent", now).await.unwrap();
        let pruner = tokio::spawn(prune(ledger.clone(), Duration::from_millis(20)));
        // Handled long ago, after the bot started: the schedule forgets it.
        ledger.mark_handled("$old", now - 3 * STALE_AFTER.as_millis() as i64).await.unwrap();
        for _ in 0..500 {
            if !ledger.is_handled("$old").await.unwrap() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        pruner.abort();
        assert!(!ledger.is_handled("$old").await.unwrap(), "pruned within 5 s");
        assert!(ledger.is_handled("$recent").await.unwrap(), "what is recent stays");
    }

    #[cfg(unix)]
    #[test]
    fn the_store_is_made_private_whatever_the_umask() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("store");
        // As a bot started with umask 022 would have made them.
        let old = unsafe { libc::umask(0o022) };
        std::fs::create_dir_all(store.join("sdk")).unwrap();
        std::fs::write(store.join("sdk/state.sqlite3"), b"").unwrap();
        std::fs::write(store.join("session.json"), b"{}").unwrap();
        unsafe { libc::umask(old) };
        make_private(&store).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&store), 0o700);
        assert_eq!(mode(&store.join("sdk")), 0o700);
        assert_eq!(mode(&store.join("sdk/state.sqlite3")), 0o600);
        assert_eq!(mode(&store.join("session.json")), 0o600);
        // A directory that does not exist yet is made so.
        let fresh = dir.path().join("fresh/store");
        make_private(&fresh).unwrap();
        assert_eq!(mode(&fresh), 0o700);
    }
}
