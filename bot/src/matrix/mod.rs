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
//! - `ledger`: the events already answered, and the reactions that stand for buttons.
//!
//! What it guarantees: sync resumes from the token the SDK stored, so a restart replays nothing
//! the homeserver already gave; an event is answered at most once even so (the ledger, and the
//! event id as the host's request id); events from before the bot joined a room, or older than
//! [`STALE_AFTER`] at start-up, are never acted on. Each person's events in a room are handled
//! in the order they came, everyone else's side by side (`queues`), so a user who floods a room
//! slows only themself; and the host refuses a flood out loud once every ten seconds, the rest
//! of it silently (a quiet reply is not sent). On SIGINT or SIGTERM the bot stops syncing, finishes the
//! events it has, and exits.

mod channel;
mod incoming;
mod ledger;
mod outgoing;
mod presence;
mod queues;
mod session;
mod settings;
pub mod text;

use std::future::Future;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use matrix_sdk::config::SyncSettings;
use matrix_sdk::event_handler::Ctx;
use matrix_sdk::ruma::events::reaction::OriginalSyncReactionEvent;
use matrix_sdk::ruma::events::room::encrypted::OriginalSyncRoomEncryptedEvent;
use matrix_sdk::ruma::events::room::member::StrippedRoomMemberEvent;
use matrix_sdk::ruma::events::room::message::OriginalSyncRoomMessageEvent;
use matrix_sdk::ruma::serde::Raw;
use matrix_sdk::ruma::{MilliSecondsSinceUnixEpoch, OwnedRoomId, OwnedUserId};
use matrix_sdk::Room;
use tracing::{info, warn};

use host::Host;

pub use channel::Channel;
pub use settings::{Credentials, Settings};

/// The platform name Matrix games are stored under.
pub const PLATFORM: &str = "matrix";

/// Events older than this when the bot starts are never acted on: after a long outage nobody
/// waits for an answer to a move they sent an hour ago, and it may no longer be theirs to play.
pub const STALE_AFTER: Duration = Duration::from_secs(10 * 60);

#[derive(clap::Args, Debug)]
pub struct MatrixArgs {
    /// A settings file to load before the environment (default: `.env`, if there is one).
    #[arg(long, value_name = "FILE")]
    env_file: Option<PathBuf>,
}

/// `chimera matrix`: reads the settings, logs in (or restores the stored session), and runs
/// until SIGINT or SIGTERM.
pub fn run(args: MatrixArgs) -> anyhow::Result<ExitCode> {
    crate::settings::load_env(args.env_file.as_deref())?;
    // The SDK logs every failed request as an error, expected ones included (account data a
    // new account has not set yet); the failures that matter reach Chimera's own log lines.
    // Key backup is not used (docs/matrix.md), so its "no backup key" warnings are noise.
    crate::settings::init_logging(
        "info,matrix_sdk=warn,matrix_sdk::http_client=off,matrix_sdk_crypto=warn,matrix_sdk_crypto::backups=error,matrix_sdk_base=warn",
    );
    let settings = Settings::from_env()?;
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the async runtime")?;
    runtime.block_on(serve(settings, crate::settings::shutdown_signal()))?;
    Ok(ExitCode::SUCCESS)
}

/// One event to handle, in its room's queue.
enum Job {
    // Boxed: a message event is four times the size of a reaction.
    Message(Box<OriginalSyncRoomMessageEvent>),
    Reaction(OriginalSyncReactionEvent),
}

/// Everything the event handlers share.
pub(crate) struct Bot {
    host: Host,
    settings: Settings,
    me: OwnedUserId,
    ledger: Arc<ledger::Ledger>,
    /// Sends what the host says (answers, and announcements through [`channel::Threads`]).
    speaker: outgoing::Speaker,
    /// Events sent before this are stale (see [`STALE_AFTER`]).
    not_before: MilliSecondsSinceUnixEpoch,
    /// A queue for each sender in each room, each worked by a task of its own, so a person's
    /// events are handled in order and nobody waits behind anyone else's.
    queues: Arc<queues::Queues<(OwnedRoomId, OwnedUserId), Job>>,
}

/// Runs the bot until `stop` completes, then lets it finish the events it has.
pub async fn serve(settings: Settings, stop: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
    std::fs::create_dir_all(&settings.store_dir)
        .with_context(|| format!("cannot create MATRIX_STORE_DIR {}", settings.store_dir.display()))?;
    let ledger = Arc::new(ledger::Ledger::open(&settings.store_dir.join("chimera-ledger.sqlite3"))?);
    // What was handled before the stale limit can never come again as fresh (see `is_fresh`).
    let long_ago = std::time::SystemTime::now() - 2 * STALE_AFTER;
    ledger
        .forget_handled_before(long_ago.duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_millis() as i64)?;
    let host = Host::open(settings.host()).await?;
    let client = session::connect(&settings).await?;
    let me = client.user_id().context("the Matrix session has no user")?.to_owned();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let not_before =
        MilliSecondsSinceUnixEpoch::from_system_time(std::time::UNIX_EPOCH + now.saturating_sub(STALE_AFTER))
            .unwrap_or(MilliSecondsSinceUnixEpoch(0u32.into()));
    let speaker = outgoing::Speaker {
        client: client.clone(),
        prefix: settings.prefix.as_str().into(),
        ledger: Arc::clone(&ledger),
    };
    let bot =
        Arc::new(Bot { host, settings, me, ledger, speaker, not_before, queues: queues::Queues::new(queues::IDLE) });
    client.add_event_handler_context(Arc::clone(&bot));
    client.add_event_handler(on_invite);
    client.add_event_handler(presence::on_membership);
    client.add_event_handler(|event: OriginalSyncRoomMessageEvent, room: Room, bot: Ctx<Arc<Bot>>| async move {
        bot.enqueue(&room, Job::Message(Box::new(event)));
    });
    client.add_event_handler(|event: Raw<OriginalSyncRoomEncryptedEvent>, room: Room, bot: Ctx<Arc<Bot>>| async move {
        bot.decrypt_later(room, event);
    });
    client.add_event_handler(|event: OriginalSyncReactionEvent, room: Room, bot: Ctx<Arc<Bot>>| async move {
        bot.enqueue(&room, Job::Reaction(event));
    });

    let scheduler = tokio::spawn(schedule(bot.host.clone(), bot.places(), bot.settings.common.tick));
    // Well inside the window in which a heartbeat means "alive", whatever the tick.
    let beat = bot.settings.common.tick.min(Duration::from_millis(host::ALIVE_WINDOW_MS as u64 / 4));
    let heartbeat = tokio::spawn(heartbeat(bot.host.clone(), beat));
    let syncs = presence::Syncs::new();
    let watchdog = tokio::spawn(syncs.clone().watch(bot.host.clone()));
    info!(user = %bot.me, device = ?client.device_id(), "connected; syncing");
    // The SDK resumes from the sync token it stored; the first run starts from now.
    // Each sync that comes back tells the host the platform is served (see `presence`).
    let sync = client.sync_with_callback(SyncSettings::default().timeout(Duration::from_secs(10)), |_| {
        let (syncs, host) = (syncs.clone(), bot.host.clone());
        async move {
            syncs.synced(&host).await;
            matrix_sdk::LoopCtrl::Continue
        }
    });
    let result = tokio::select! {
        result = sync => result.context("the Matrix sync failed"),
        _ = stop => {
            info!("shutting down");
            Ok(())
        }
    };
    scheduler.abort();
    heartbeat.abort();
    watchdog.abort();
    bot.finish().await;
    info!("stopped");
    result
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

/// Ends games on time, expires challenges, runs tournaments: the host posts what it announces
/// through `places` itself (see [`channel::Threads`]).
async fn schedule(host: Host, places: channel::Threads, every: Duration) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        // Chimera's moves in games against it go out as soon as they are made.
        tokio::select! {
            _ = interval.tick() => host.tick(&places).await,
            _ = host.posts_waiting() => host.deliver(&places).await,
        };
    }
}

/// Says this process is alive on a timer of its own, so that a long tick (a tournament round
/// opening many threads) does not make a process starting beside it take it for dead and move
/// every clock on (see the host's `schedule.rs`).
async fn heartbeat(host: Host, every: Duration) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        if let Err(e) = host.heartbeat().await {
            warn!("{e}");
        }
    }
}

impl Bot {
    fn places(&self) -> channel::Threads {
        channel::Threads { speaker: self.speaker.clone() }
    }

    fn enqueue(self: &Arc<Self>, room: &Room, job: Job) {
        let sender = match &job {
            Job::Message(event) => event.sender.clone(),
            Job::Reaction(event) => event.sender.clone(),
        };
        let key = (room.room_id().to_owned(), sender);
        let taken = self.queues.push(key, job, || {
            let (bot, room) = (Arc::clone(self), room.clone());
            move |job| {
                let (bot, room) = (Arc::clone(&bot), room.clone());
                async move {
                    let done = match job {
                        Job::Message(event) => bot.on_message(&room, *event).await,
                        Job::Reaction(event) => bot.on_reaction(&room, event).await,
                    };
                    if let Err(e) = done {
                        warn!(room = %room.room_id(), "handling an event failed: {e:#}");
                    }
                }
            }
        });
        if !taken {
            warn!(room = %room.room_id(), "an event came after shutdown; left for the next start");
        }
    }

    /// Closes every queue and waits for the events in them to be handled.
    async fn finish(&self) {
        self.queues.finish().await;
    }
}
