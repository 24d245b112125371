//! The game host: typed commands in, replies out, the same for every chat network.
//!
//! An adapter (the console, Discord, Matrix) turns what a user did into a [`Request`] carrying a
//! typed [`Command`] whose people are resolved [`User`]s, and shows the [`Reply`] it gets back; the host owns everything in between: challenges, moves, offers,
//! clocks and ratings, all kept in the database so that a restart loses nothing. The host never
//! knows which adapter called it; where it needs the adapter's help (a fresh channel for a game
//! when the current one is busy) it asks through [`Places`].
//!
//! Every command is one small function in the module of its concept (`challenge`, `play`,
//! `offers`, `info`), taking a [`Ctx`] with the request and the host's shared parts. A command
//! either succeeds with a reply, or changes nothing and says why ([`Refusal`], shown privately).
//!
//! [`Host::tick`] is the scheduler's step: it ends games whose clock ran out, expires old
//! challenges, closes team games' vote windows (`team`), reminds correspondence players whose
//! time runs short, posts the daily puzzles
//! that are due (`puzzles::daily`), and runs the tournaments
//! (`arbiter`: starting them, pairing rounds, opening their games in places the adapter gives).
//! Adapters call it about once a second; see `schedule.rs` for how the host keeps clocks fair
//! across its own downtime.

pub mod clock;
pub mod command;
pub mod export;
pub mod limits;
pub mod metrics;
pub mod pairing;
pub mod puzzles;
pub mod rating;
pub mod reply;
pub mod tiebreak;
pub mod typed;
mod user;
pub mod web_link;

mod analysis;
mod arbiter;
mod backoff;
mod board_text;
mod challenge;
mod end;
mod info;
mod lost;
mod offers;
mod opponent;
mod outbox;
mod personal;
mod play;
mod progress;
mod remind;
mod replay;
mod schedule;
mod settings;
mod stored;
mod suggest;
mod table;
mod team;
mod turn_notice;
mod view;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use async_trait::async_trait;
use data::AsyncStore;
use render::Renderer;

/// The levels of `/play`.
pub use analysis::OutsideEngine;
pub use clock::{Clock, ManualClock, SystemClock, TimeControl, TimeControlError};
pub use command::{
    ChannelMention, ColorChoice, Command, CommandError, DailyPuzzleSetting, DrawAction, Mention, NotAChannel,
    OfferAction, SettingsCommand, Starts, TeamOpponent, TournamentCommand, COMMANDS, RATED_BY_DEFAULT,
};
/// What the contract names from storage and pictures, so adapters need neither crate.
pub use data::{
    default_path as default_database, Bottom, ChallengeId, Format, GameId, Location, LocationError, QuietHours,
    TimeOfDay, TournamentId, WebKey,
};
pub use engine::Level;
pub use limits::Limits;
pub use lost::Lost;
pub use metrics::{Health, Metrics, OUTBOX_BOUND};
pub use opponent::DEFAULT_LEVEL;
pub use personal::{read_quiet, zones_matching, ThemeChoice, Zone};
pub use progress::{Progress, Task};
pub use render::Theme;
pub use reply::{Button, ButtonStyle, Image, ImageFormat, Message, Reply, ShownBoard};
pub use schedule::ALIVE_WINDOW_MS;
pub use suggest::{matching_moves, Suggestion};
pub use team::{VoteWindow, VoteWindowError};
pub use typed::Typed;
pub use user::User;
pub use web_link::{Link, WebUrl, WebUrlError};

/// How a host is set up.
#[derive(Clone)]
pub struct Settings {
    /// The database: a SQLite file, or a PostgreSQL URL (see [`data::Location`]).
    pub db: data::Location,
    /// The chat network this host serves (`console`, `discord`): the scheduler ends games and
    /// expires challenges of this platform only, so two adapters may share one database.
    pub platform: String,
    /// Width of board pictures in pixels.
    pub board_size: u32,
    pub theme: Theme,
    /// How long a challenge waits for an answer.
    pub challenge_expiry_ms: i64,
    /// What the chat network takes, as its adapter says: the host holds no network's numbers.
    pub network: NetworkLimits,
    /// How much one user may do (see `limits`).
    pub limits: Limits,
    /// Threads the engine thinks on in games against Chimera; 0 leaves its moves to another
    /// process of the deployment.
    pub engine_threads: usize,
    /// The engine's time for each position of an analysis.
    pub analysis_budget: std::time::Duration,
    /// The address of a channel on this platform, from its server (`None`: a direct chat)
    /// and id, for `/games`; the adapter's own (Discord's channel links, Matrix's
    /// `matrix.to`). Returns `None` where the platform has none (the console).
    pub channel_link: fn(server: Option<&str>, channel: &str) -> Option<String>,
    /// Outside UCI engines that judge `/analyse` in their variants instead of Chimera's own
    /// (`CHIMERA_ANALYSIS_ENGINE_<VARIANT>`); Chimera's engine judges wherever one fails.
    pub analysis_engines: std::collections::HashMap<rules::Variant, OutsideEngine>,
    /// The puzzle job's CPU budget, in percent of one core (0: it does not run); see
    /// [`Host::run_puzzle_job`].
    pub puzzle_cpu: u32,
    pub clock: Arc<dyn Clock>,
    /// Whether the adapter tells the host when it is connected and serving ([`Host::connected`],
    /// [`Host::disconnected`]): clocks then run only while it is, and a process that keeps
    /// crashing before it connects credits every player the whole time. `false` (the console,
    /// tests): the host serves from the moment it opens.
    pub adapter_connects: bool,
    /// Whether the adapter delivers a message to one user in a direct chat ([`Message::to`]):
    /// `/settings notify:on` is refused where it does not.
    pub direct_messages: bool,
    /// Where the web pages are served for the public (`CHIMERA_WEB_URL`): messages that show a
    /// game or a tournament then carry a link to its page. `None`: no links.
    pub web_url: Option<WebUrl>,
}

impl Settings {
    /// The defaults for `platform`: 640-pixel boards, challenges open for a day, the system clock.
    /// `db` is a path (a SQLite file) or a [`Location`] read from the operator's text.
    pub fn new(db: impl Into<data::Location>, platform: &str) -> Settings {
        Settings {
            db: db.into(),
            platform: platform.to_string(),
            board_size: render::BoardView::DEFAULT_SIZE,
            theme: Theme::default(),
            challenge_expiry_ms: clock::DAY_MS,
            network: NetworkLimits::NONE,
            limits: Limits::default(),
            engine_threads: default_engine_threads(),
            analysis_budget: std::time::Duration::from_millis(100),
            analysis_engines: std::collections::HashMap::new(),
            channel_link: |_, _| None,
            puzzle_cpu: DEFAULT_PUZZLE_CPU,
            clock: Arc::new(SystemClock),
            adapter_connects: false,
            direct_messages: true,
            web_url: None,
        }
    }
}

/// What a chat network takes, as its adapter tells the host (in [`Settings::network`]): the host
/// draws and keys what it sends to fit, so that each adapter gives its own network's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetworkLimits {
    /// The largest file it takes, in bytes: replays are drawn smaller to fit.
    pub upload_bytes: usize,
    /// The longest idempotency key it keeps, in characters: an announcement's key is made to fit
    /// (see [`Message::key`]).
    pub key_chars: usize,
}

impl NetworkLimits {
    /// No network in between (the console, tests): anything goes.
    pub const NONE: NetworkLimits = NetworkLimits { upload_bytes: usize::MAX, key_chars: usize::MAX };
}

/// The puzzle job's CPU budget unless the operator says otherwise: a quarter of one core.
pub const DEFAULT_PUZZLE_CPU: u32 = 25;

/// Half the machine's cores, at least one: the other half answers players.
pub fn default_engine_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
}

/// One command from one user in one channel.
#[derive(Clone, Debug)]
pub struct Request {
    pub platform: String,
    /// The server (guild) of the channel; `None` for the console and direct messages.
    pub server: Option<String>,
    pub channel: String,
    pub user: User,
    /// Whether the user may manage this server's tournaments (on Discord, the Manage Server
    /// permission): they may start, withdraw from and cancel any tournament, as its organiser may.
    pub manager: bool,
    /// What kind of place the channel is: who can read it decides what may be turned on there.
    pub place: PlaceKind,
    /// Unique per user action (an interaction id, a console line): a retried request moves once.
    pub request_id: String,
    pub command: Command,
}

/// Who can read a place, as its adapter knows it. The host refuses to list on the web what was
/// said where only its members can read it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlaceKind {
    /// Readable by its server's members (a Discord server's channel, an unencrypted Matrix
    /// room that is not a direct chat).
    Shared,
    /// A direct chat (a Discord DM, a Matrix direct room) or the console.
    Direct,
    /// An end-to-end encrypted Matrix room; an adapter that cannot tell says this.
    Encrypted,
}

impl PlaceKind {
    /// What a place is, for a request that has a server (`Shared`) or not (`Direct`): how the
    /// console and Discord tell, where nothing is encrypted.
    pub fn of_server(server: Option<&str>) -> PlaceKind {
        match server {
            Some(_) => PlaceKind::Shared,
            None => PlaceKind::Direct,
        }
    }
}

/// What a failed call to the chat network says about calling again, as the adapter reads the
/// network's answer (Discord's and Matrix's HTTP status).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceFailure {
    /// The network refuses Chimera this: no access (401) or no permission (403, such as a bot
    /// without "Create Public Threads", or kicked from the server). The same call keeps failing
    /// until a person changes something, and Discord counts every such answer against the bot
    /// (10,000 in ten minutes block its address).
    Refused,
    /// What the call named is gone (404: a deleted channel, a room the bot left).
    Gone,
    /// Anything else (a timeout, a server error, a rate limit): worth trying again soon.
    Transient,
}

/// Why an adapter could not do what the host asked: what the network said in the adapter's
/// words, and what that means for trying again ([`PlaceFailure`]). Any error converts into a
/// [`PlaceFailure::Transient`] one with `?`; an adapter that knows better says so with
/// [`PlaceError::refused`] or [`PlaceError::gone`].
pub struct PlaceError {
    failure: PlaceFailure,
    source: Box<dyn std::error::Error + Send + Sync>,
}

impl PlaceError {
    pub fn new(failure: PlaceFailure, source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> PlaceError {
        PlaceError { failure, source: source.into() }
    }

    /// The network refused (401, 403).
    pub fn refused(source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> PlaceError {
        PlaceError::new(PlaceFailure::Refused, source)
    }

    /// What the call named is gone (404).
    pub fn gone(source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> PlaceError {
        PlaceError::new(PlaceFailure::Gone, source)
    }

    pub fn failure(&self) -> PlaceFailure {
        self.failure
    }

    /// Whether trying the same again cannot help until a person acts (refused or gone).
    pub fn is_permanent(&self) -> bool {
        self.failure != PlaceFailure::Transient
    }
}

impl<E: Into<Box<dyn std::error::Error + Send + Sync>>> From<E> for PlaceError {
    fn from(source: E) -> PlaceError {
        PlaceError::new(PlaceFailure::Transient, source)
    }
}

impl std::fmt::Display for PlaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.source.fmt(f)
    }
}

impl std::fmt::Debug for PlaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}: {:?}", self.failure, self.source)
    }
}

/// What the adapter provides beyond a reply: a fresh place for a game when its channel has one,
/// a way to speak in a channel unasked, and a way to show a long command's progress.
#[async_trait]
pub trait Places: Send + Sync {
    /// Opens a new channel for a game (on Discord, a thread under `parent_channel` named
    /// `title`, such as `Round 2 · Board 3 · alice vs bob` for a tournament game) and returns
    /// its id.
    async fn open_place(&self, parent_channel: &str, title: &str) -> Result<String, PlaceError>;

    /// Posts an announcement (a game ended on time, a round was paired) in its channel,
    /// `message.channel`. `Ok` only once the network has it: the host then forgets it, and
    /// otherwise posts it again later. `message.key`, when set, is the network's idempotency
    /// key for it (Discord's nonce), so that a second post of it shows once.
    async fn post(&self, message: &Message) -> Result<(), PlaceError>;

    /// Shows how far the command being handled has got (an analysis: the positions searched),
    /// called as it moves on, newest last (see [`Progress`]). It must return at once: keep the
    /// newest and show it at the network's pace, dropping what was not shown in between. The
    /// default shows nothing.
    fn progress(&self, progress: Progress) {
        let _ = progress;
    }

    /// The channel `named` names (as typed in a command, or as the adapter wrote a channel
    /// option), for a setting of the place `server` (a Discord server's id, a Matrix room's): its
    /// id when it is a channel of that place that messages are posted in, or why it is not one.
    /// Only what Chimera can see counts: a channel hidden from it is [`FoundChannel::Unknown`].
    /// The default knows no channel (the console, whose channels belong to no server).
    async fn find_channel(&self, server: &str, named: &ChannelMention) -> Result<FoundChannel, PlaceError> {
        let _ = (server, named);
        Ok(FoundChannel::Unknown)
    }

    /// The name of `channel` (an id as the host stores channels) to show people, without `#`:
    /// a team game names its teams by their channels. `None` when the adapter cannot tell; the
    /// host then shows the id (the default, and the console's, whose ids are its names).
    async fn channel_name(&self, channel: &str) -> Option<String> {
        let _ = channel;
        None
    }
}

/// What a channel named in a command is, as its adapter finds it ([`Places::find_channel`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FoundChannel {
    /// A channel of the place, for messages: its id, as the host stores channels.
    Here(String),
    /// No such channel that Chimera can see.
    Unknown,
    /// A channel of another server (or room), or a direct chat.
    Elsewhere,
    /// A channel of the place that holds no messages of its own (a category, a voice channel, a
    /// forum).
    NotForMessages,
}

/// Why the host cannot run at all (a command's failure is a reply, never this).
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The location is shown as [`data::Location`] shows it: a PostgreSQL URL without its
    /// password.
    #[error("cannot open the database {location}: {source}")]
    Open { location: data::Location, source: data::Error },
    #[error("cannot resume the clocks: {0}")]
    Resume(data::Error),
    /// Something stored cannot be read; the log says what.
    #[error("{0}")]
    Broken(String),
}

/// The game host. Clones share everything (database, renderer, clock).
#[derive(Clone)]
pub struct Host {
    inner: Arc<Inner>,
}

struct Inner {
    store: AsyncStore,
    renderer: Renderer,
    settings: Settings,
    /// Held while a tournament step opens games (see `arbiter::rounds`).
    arbiter: tokio::sync::Mutex<()>,
    /// This process among the deployment's, as leases name their holder: unique per start.
    holder: String,
    throttle: limits::Throttle,
    /// Whether the adapter is connected and serving (see `schedule`).
    serving: schedule::Serving,
    /// Announcements this process is posting now (see `outbox`).
    posting: outbox::InFlight,
    /// The work the network keeps refusing, and when to try it again (see `backoff`).
    backoffs: backoff::Backoffs,
    /// Told when an announcement was queued outside a command (an engine's move), so that the
    /// adapter posts it at once ([`Host::posts_waiting`]).
    posts_ready: tokio::sync::Notify,
    /// What `/metrics` shows.
    metrics: metrics::Metrics,
    /// The engine's threads, and the games it is thinking about (see `opponent`).
    pool: opponent::pool::Pool,
    thinking: opponent::Thinking,
    analyses: analysis::Running,
    /// Finished games' replays, kept (see `replay`).
    replays: replay::Replays,
    /// How many games were loaded and replayed from their moves (see `table`).
    tables: std::sync::atomic::AtomicU64,
}

impl Host {
    /// Opens the database (creating and migrating it as needed). Unless the adapter says when
    /// it is connected ([`Settings::adapter_connects`]), moves every running clock of the
    /// platform past the time it was not served, as [`Host::connected`] does.
    pub async fn open(settings: Settings) -> Result<Host, HostError> {
        let location = settings.db.clone();
        let store = AsyncStore::open(location.clone()).await.map_err(|source| HostError::Open { location, source })?;
        let metrics = metrics::Metrics::new(&settings.platform);
        let host = Host {
            inner: Arc::new(Inner {
                pool: opponent::pool::Pool::new(settings.engine_threads, metrics.engine_queue()),
                metrics,
                store,
                renderer: Renderer::new(),
                settings,
                arbiter: tokio::sync::Mutex::new(()),
                holder: holder_name(),
                throttle: Default::default(),
                serving: Default::default(),
                posting: Default::default(),
                backoffs: Default::default(),
                posts_ready: tokio::sync::Notify::new(),
                thinking: Default::default(),
                analyses: Default::default(),
                replays: Default::default(),
                tables: Default::default(),
            }),
        };
        if !host.settings().adapter_connects {
            host.connected().await?;
        }
        Ok(host)
    }

    pub fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    pub fn now(&self) -> i64 {
        self.inner.settings.clock.now_ms()
    }

    /// The host's database: an adapter keeps what its network does not keep for it there (the
    /// Matrix ledger), so it is shared, migrated and backed up with the games.
    pub fn store(&self) -> &AsyncStore {
        &self.inner.store
    }

    /// Runs one command. Never fails: whatever goes wrong becomes a private message that says
    /// what, and a command that fails changes nothing.
    pub async fn handle(&self, request: Request, places: &dyn Places) -> Reply {
        let now = self.now();
        let limit = self.settings().limits.commands;
        let metrics = self.metrics();
        metrics.command(request.command.kind());
        let quiet = match self.inner.throttle.admit(&request.platform, &request.user.id, now, limit) {
            limits::Admission::Admitted => None,
            limits::Admission::Refused => Some(false),
            // Said once a window: a flood must not make the bot flood the room in answer.
            limits::Admission::RefusedAgain => Some(true),
        };
        if let Some(quiet) = quiet {
            metrics.refused(metrics::RefusalKind::TooFast);
            return Reply { quiet, ..Reply::error(limits::too_fast(limit)) };
        }
        let cx = Ctx {
            host: self,
            request: &request,
            places,
            now,
            tournament_moved: AtomicBool::new(false),
            announced: AtomicBool::new(false),
        };
        let reply = self.dispatch(&cx).await.unwrap_or_else(|refusal| {
            metrics.refused(refusal.kind());
            refusal.into_reply()
        });
        // A tournament game ended (or a player withdrew): its round may be complete now, and the
        // next one is paired at once rather than at the next tick. Other commands cost the
        // tournaments nothing.
        let moved = cx.tournament_moved.load(Ordering::Relaxed);
        if moved {
            arbiter::advance_all(self, places).await;
        }
        // What the command queued to announce elsewhere (a tournament's next round) goes out
        // now, before the answer.
        if moved || cx.announced.load(Ordering::Relaxed) {
            self.deliver(places).await;
        }
        reply
    }

    async fn dispatch(&self, cx: &Ctx<'_>) -> Handled {
        match &cx.request.command {
            Command::Challenge { opponent, variant, color, time, rated } => {
                challenge::challenge(cx, opponent.as_ref(), *variant, *color, *time, *rated).await
            }
            Command::Play { variant, level, color, time } => opponent::play(cx, *variant, *level, *color, *time).await,
            Command::TeamGame { against, variant, color, window } => {
                team::start(cx, against, *variant, *color, *window).await
            }
            Command::Accept { challenger, challenge } => challenge::accept(cx, challenger.as_ref(), *challenge).await,
            Command::Decline { challenger, challenge } => challenge::decline(cx, challenger.as_ref(), *challenge).await,
            Command::Move { text, confirm, game } => play::play(cx, text, *confirm, *game).await,
            Command::Resign { confirm, game } => play::resign(cx, *confirm, *game).await,
            Command::Abort => play::abort(cx).await,
            Command::Draw { action, game } => offers::draw(cx, *action, *game).await,
            Command::Takeback { action, game } => offers::takeback(cx, *action, *game).await,
            Command::Board { text } => info::board(cx, *text).await,
            Command::Moves { square } => info::moves(cx, *square).await,
            Command::Game => info::game(cx).await,
            Command::Pgn { game } => info::pgn(cx, *game).await,
            Command::Gif { game } => replay::gif(cx, *game).await,
            Command::Analyse { game } => analysis::analyse(cx, *game).await,
            Command::Puzzle { variant } => puzzles::command::puzzle(cx, *variant).await,
            Command::PuzzleHelp => Ok(Reply::one(Message::text(include_str!("help/puzzle.md").trim_end()))),
            Command::SettingsHelp => Ok(Reply::one(Message::text(include_str!("help/settings.md").trim_end()))),
            Command::Rules { variant } => info::rules(cx, *variant).await,
            Command::Rating { user, variant } => info::rating(cx, user.as_ref(), *variant).await,
            Command::Leaderboard { variant } => info::leaderboard(cx, *variant).await,
            Command::History { user } => info::history(cx, user.as_ref()).await,
            Command::Games => info::games(cx).await,
            Command::Help => Ok(info::help()),
            Command::PlayHelp => Ok(Reply::one(Message::text(include_str!("help/play.md").trim_end()))),
            Command::Tournament(command) => arbiter::handle(cx, command).await,
            Command::Settings(command) => settings::settings(cx, command).await,
        }
    }

    /// The scheduler's step: ends the games whose player to move ran out of time, expires
    /// challenges nobody answered, records that the host is alive, posts the daily puzzles that
    /// are due, and runs the tournaments
    /// (starts those due, opens their games in places from `places`, pairs rounds). Returns the
    /// announcements it posted through `places` (its own, and any a dead process left queued).
    pub async fn tick(&self, places: &dyn Places) -> Vec<Message> {
        self.inner.throttle.forget_quiet(self.now());
        // Each step commits on its own, with its announcements; one that fails changes nothing
        // and the next tick retries.
        for step in [
            schedule::tick(self).await,
            remind::reminders(self).await,
            turn_notice::send_due(self).await,
            opponent::wake_forgotten(self).await,
            puzzles::daily::post_due(self).await,
        ] {
            if let Err(refusal) = step {
                tracing::warn!("the scheduler's step failed: {}", refusal.text());
            }
        }
        arbiter::advance_all(self, places).await;
        self.deliver(places).await
    }
}

impl Host {
    /// Waits until an announcement was queued outside any command or tick (Chimera's move in a
    /// game against it): the adapter then calls [`Host::deliver`] at once, rather than leaving
    /// it for the next tick.
    pub async fn posts_waiting(&self) {
        self.inner.posts_ready.notified().await
    }

    /// Waits until the engine thinks about no game in this process: its moves are then stored
    /// and queued. For scripts and tests that must see Chimera's answer before going on.
    pub async fn engines_idle(&self) {
        let mut count = self.inner.thinking.subscribe();
        // The sender lives as long as the host, so this ends only once the count is 0.
        let _ = count.wait_for(|&n| n == 0).await;
    }
}

/// A name for this process that no other process of the deployment has, now or later: the
/// machine, the process id and the start time (a restarted process is a new holder, so it never
/// mistakes a lease of its dead predecessor for its own).
fn holder_name() -> String {
    let machine = std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "host".into());
    let started = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    format!("{machine}:{}:{}", std::process::id(), started.as_nanos())
}

/// One command being handled: the request and the host's shared parts.
pub(crate) struct Ctx<'a> {
    host: &'a Host,
    request: &'a Request,
    places: &'a dyn Places,
    /// The time of the request: one "now" for everything the command does.
    now: i64,
    /// Set when the command ended a tournament game or withdrew a player: the tournaments move
    /// on after it (see [`Ctx::note_end`]).
    tournament_moved: AtomicBool,
    /// Set when the command queued announcements (see `outbox`): they are posted after it.
    announced: AtomicBool,
}

impl Ctx<'_> {
    fn store(&self) -> &AsyncStore {
        self.host.store()
    }

    fn platform(&self) -> &str {
        &self.request.platform
    }

    fn channel(&self) -> &str {
        &self.request.channel
    }

    fn user(&self) -> &User {
        &self.request.user
    }

    /// Records that the command ended a game, so that a tournament it belongs to moves on.
    fn note_end(&self, ended: &end::Ended) {
        if ended.game.pairing.is_some() {
            self.note_tournament_moved();
        }
    }

    /// Records that a tournament may have a step due, to be done after the command.
    fn note_tournament_moved(&self) {
        self.tournament_moved.store(true, Ordering::Relaxed);
    }

    /// Records that the command queued announcements, to be posted after it.
    fn note_announcements(&self) {
        self.announced.store(true, Ordering::Relaxed);
    }
}

/// Why a command changed nothing.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// The user asked for something the rules or the game do not allow.
    Told(String),
    /// Chimera itself failed (its database, a stored game it cannot read).
    Broken(String),
}

impl Refusal {
    fn kind(&self) -> metrics::RefusalKind {
        match self {
            Refusal::Told(_) => metrics::RefusalKind::Told,
            Refusal::Broken(_) => metrics::RefusalKind::Broken,
        }
    }

    pub(crate) fn text(&self) -> &str {
        match self {
            Refusal::Told(text) | Refusal::Broken(text) => text,
        }
    }

    /// The answer to a command that changed nothing. Our own failure is logged with a short
    /// reference, and the user is given only the reference: what failed (a database's or a
    /// network's error text) may name hosts, tables or ids that are no business of a chat.
    fn into_reply(self) -> Reply {
        match self {
            Refusal::Told(text) => Reply::error(text),
            Refusal::Broken(why) => {
                let reference = error_reference();
                tracing::error!(reference = %reference, "a command failed: {why}");
                Reply::error(broken_text(&reference))
            }
        }
    }
}

/// A reference for one failure, as the log and the user both see it: 8 hex digits.
fn error_reference() -> String {
    format!("{:08x}", fastrand::u32(..))
}

/// What a user is told of a failure of ours logged under `reference`.
fn broken_text(reference: &str) -> String {
    format!("Something went wrong on our side (reference {reference}); nothing was changed. Please try again.")
}

impl From<data::Error> for Refusal {
    fn from(e: data::Error) -> Refusal {
        Refusal::Broken(e.to_string())
    }
}

/// Refuses with a message for the user.
fn told<T>(text: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal::Told(text.into()))
}

type Handled = Result<Reply, Refusal>;
