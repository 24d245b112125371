//! The fake's world: who exists, what was said, what the bot was sent and how it answered.
//!
//! One `World` behind one mutex, never held across an await. Every change bumps a watch channel,
//! so anything waiting (a test, a gateway connection with events to deliver) wakes and looks
//! again: no lost wake-ups, no polling.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::fmt::Display;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::watch;

use crate::ids::{AttachmentId, ChannelId, CommandId, GuildId, InteractionId, MessageId, Snowflakes, UserId};
use crate::{Config, Error};

/// Gateway intents ("Gateway", List of Intents): which events a session asked for.
pub(crate) mod intents {
    /// Guild, channel and thread events.
    pub const GUILDS: u64 = 1;
    /// Member events; privileged.
    pub const GUILD_MEMBERS: u64 = 1 << 1;
    /// MESSAGE_CREATE, MESSAGE_UPDATE and MESSAGE_DELETE in guilds.
    pub const GUILD_MESSAGES: u64 = 1 << 9;
    /// The same events in DMs.
    pub const DIRECT_MESSAGES: u64 = 1 << 12;
    /// What an application must have enabled to ask for ("Gateway", Privileged Intents):
    /// GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT.
    pub const PRIVILEGED: u64 = GUILD_MEMBERS | (1 << 8) | (1 << 15);
}

/// Dispatches the gateway keeps for RESUME beyond what the bot confirmed by heartbeat. Past this
/// the oldest go, and a RESUME that needs them is refused, as Discord refuses one whose events
/// it no longer has.
const REPLAY_CAPACITY: usize = 16_384;

/// A user the fake knows: the bot, or a person added by the test.
#[derive(Clone, Debug)]
pub(crate) struct User {
    pub id: UserId,
    pub name: String,
    pub bot: bool,
    /// Holds the Manage Server permission in every guild.
    pub manager: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Guild {
    pub id: GuildId,
    pub name: String,
    pub owner: UserId,
}

/// Discord's channel types ("Channel Object", Channel Types) that the fake models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChannelKind {
    GuildText = 0,
    /// A direct message channel between the bot and one user.
    Dm = 1,
    PublicThread = 11,
    PrivateThread = 12,
}

#[derive(Clone, Debug)]
pub(crate) struct Channel {
    pub id: ChannelId,
    /// `None` for a DM, which belongs to no guild.
    pub guild: Option<GuildId>,
    /// The user a DM is with.
    pub recipient: Option<UserId>,
    pub name: String,
    pub kind: ChannelKind,
    /// The text channel a thread lives in.
    pub parent: Option<ChannelId>,
    /// Who started a thread.
    pub owner: Option<UserId>,
    pub auto_archive_minutes: u64,
    pub last_message: Option<MessageId>,
    pub message_count: u64,
}

/// A file the bot uploaded, kept byte for byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    pub id: AttachmentId,
    pub filename: String,
    pub description: Option<String>,
    /// The part's `Content-Type`, as the bot sent it.
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

/// A button or select menu on a message, flattened out of its action row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Component {
    /// Discord's component type: 2 button, 3 string select, and so on.
    pub kind: u64,
    pub custom_id: Option<String>,
    pub label: Option<String>,
    /// Button style: 1 primary, 2 secondary, 3 success, 4 danger, 5 link.
    pub style: Option<u64>,
    /// A link button's address (style 5), which it opens with no interaction.
    pub url: Option<String>,
    pub disabled: bool,
}

impl Component {
    /// Discord's button style for a link.
    pub const LINK: u64 = 5;
}

/// A message as the fake stores it: what the bot (or a test user) posted, after every edit.
#[derive(Clone, Debug)]
pub struct Message {
    pub id: MessageId,
    pub channel_id: ChannelId,
    pub author: UserId,
    pub content: String,
    /// Embed objects, as the bot sent them.
    pub embeds: Vec<Value>,
    /// Action rows, as the bot sent them; [`Message::components`] flattens them.
    pub components: Vec<Value>,
    pub attachments: Vec<Attachment>,
    /// Message flags ("Message Object", Message Flags): 64 is EPHEMERAL.
    pub flags: u64,
    /// The interaction this message answers, for responses and follow-ups.
    pub interaction: Option<InteractionId>,
    /// When the message was last edited, as an ISO 8601 timestamp.
    pub edited_at: Option<String>,
}

impl Message {
    pub const EPHEMERAL: u64 = 1 << 6;

    pub fn is_ephemeral(&self) -> bool {
        self.flags & Self::EPHEMERAL != 0
    }

    /// Every component in every action row, in order.
    pub fn components(&self) -> Vec<Component> {
        self.components
            .iter()
            .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
            .map(|c| Component {
                kind: c["type"].as_u64().unwrap_or_default(),
                custom_id: c["custom_id"].as_str().map(str::to_owned),
                label: c["label"].as_str().map(str::to_owned),
                style: c["style"].as_u64(),
                url: c["url"].as_str().map(str::to_owned),
                disabled: c["disabled"].as_bool().unwrap_or(false),
            })
            .collect()
    }

    /// The addresses of the message's link buttons, each with its label.
    pub fn links(&self) -> Vec<(String, String)> {
        self.components()
            .into_iter()
            .filter(|c| c.kind == 2 && c.style == Some(Component::LINK))
            .filter_map(|c| Some((c.label.unwrap_or_default(), c.url?)))
            .collect()
    }

    /// The custom ids of the message's buttons.
    pub fn button_ids(&self) -> Vec<String> {
        self.components().into_iter().filter(|c| c.kind == 2).filter_map(|c| c.custom_id).collect()
    }
}

/// A command the bot registered, global or for one guild.
#[derive(Clone, Debug)]
pub struct Command {
    pub id: CommandId,
    pub guild: Option<GuildId>,
    pub name: String,
    /// The application command object as Discord stores it and returns it.
    pub json: Value,
}

/// Discord's interaction types ("Interaction Object", Interaction Type) that the fake sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InteractionKind {
    ApplicationCommand = 2,
    MessageComponent = 3,
    Autocomplete = 4,
}

/// How the bot answered ("Interaction Response Object", Interaction Callback Type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallbackType {
    ChannelMessageWithSource = 4,
    DeferredChannelMessageWithSource = 5,
    DeferredUpdateMessage = 6,
    UpdateMessage = 7,
    AutocompleteResult = 8,
    Modal = 9,
}

impl CallbackType {
    pub(crate) fn from_code(code: u64) -> Option<Self> {
        Some(match code {
            4 => Self::ChannelMessageWithSource,
            5 => Self::DeferredChannelMessageWithSource,
            6 => Self::DeferredUpdateMessage,
            7 => Self::UpdateMessage,
            8 => Self::AutocompleteResult,
            9 => Self::Modal,
            _ => return None,
        })
    }

    /// Whether Discord accepts this callback for that kind of interaction: autocomplete takes
    /// only choices, and only component interactions can update the message they came from.
    pub(crate) fn answers(self, kind: InteractionKind) -> bool {
        use CallbackType::*;
        match kind {
            InteractionKind::Autocomplete => self == AutocompleteResult,
            InteractionKind::ApplicationCommand => {
                matches!(self, ChannelMessageWithSource | DeferredChannelMessageWithSource | Modal)
            }
            InteractionKind::MessageComponent => self != AutocompleteResult,
        }
    }

    /// Deferred callbacks promise a later edit of the original response.
    pub(crate) fn is_deferred(self) -> bool {
        matches!(self, Self::DeferredChannelMessageWithSource | Self::DeferredUpdateMessage)
    }
}

/// One interaction the fake sent, and everything the bot did about it.
#[derive(Clone, Debug)]
pub(crate) struct Interaction {
    pub id: InteractionId,
    pub token: String,
    pub kind: InteractionKind,
    pub channel: ChannelId,
    pub user: UserId,
    /// The message a component sits on.
    pub source_message: Option<MessageId>,
    pub created: Instant,
    /// When the gateway wrote INTERACTION_CREATE to the bot's socket.
    pub dispatched: Option<Instant>,
    pub callback: Option<(CallbackType, Instant)>,
    /// The message `@original` names: the response message, or a component's own message.
    pub original: Option<MessageId>,
    /// When `@original` was first written after a deferred callback: the answer the user waited for.
    pub completed: Option<Instant>,
    pub followups: Vec<MessageId>,
    pub choices: Vec<Value>,
}

/// How long the bot took over one interaction, measured from INTERACTION_CREATE reaching its
/// socket.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub interaction: InteractionId,
    pub kind: InteractionKind,
    /// Where the interaction was made.
    pub channel: ChannelId,
    pub callback: CallbackType,
    /// Until the interaction callback arrived.
    pub acknowledged: Duration,
    /// Until the answer was complete: the callback itself, or for a deferred callback the edit
    /// or first follow-up that replaced the placeholder (`None` while still pending).
    pub answered: Option<Duration>,
}

impl Interaction {
    pub(crate) fn timing(&self) -> Option<Timing> {
        let (callback, acknowledged_at) = self.callback?;
        let start = self.dispatched.unwrap_or(self.created);
        let answered_at = if callback.is_deferred() { self.completed } else { Some(acknowledged_at) };
        Some(Timing {
            interaction: self.id,
            kind: self.kind,
            channel: self.channel,
            callback,
            acknowledged: acknowledged_at.saturating_duration_since(start),
            answered: answered_at.map(|at| at.saturating_duration_since(start)),
        })
    }
}

/// A gateway event stored for delivery and for replay on RESUME.
#[derive(Clone, Debug)]
pub(crate) struct Dispatch {
    pub seq: u64,
    /// The whole payload, serialised once.
    pub text: Arc<str>,
    pub interaction: Option<InteractionId>,
}

/// One shard's gateway session ("Gateway", Identifying and Resuming).
#[derive(Debug)]
pub(crate) struct Session {
    pub id: String,
    /// The shard it identified as, and the total it counted: `[shard, shard_count]`.
    pub shard: [u64; 2],
    pub seq: u64,
    /// Dispatches not yet confirmed by a heartbeat, oldest first.
    pub log: VecDeque<Dispatch>,
    /// The last seq dropped from the log; RESUME from before it cannot be served.
    pub dropped_through: u64,
    pub intents: u64,
    /// Whether IDENTIFY asked for zlib-compressed payloads; a RESUME keeps the choice.
    pub compress: bool,
    /// The connection the session is attached to; events wait in the log while it is `None`.
    pub connection: Option<u64>,
    /// The last seq written to the attached connection.
    pub delivered: u64,
}

/// Something the test asked a gateway connection to do to the bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Control {
    /// Send op 7 RECONNECT.
    Reconnect,
    /// Close the TCP connection without a close frame, as a network failure would.
    Drop,
    /// Send op 9 INVALID_SESSION (not resumable) and forget the session.
    Invalidate,
}

/// What the gateway has seen, for tests of reconnection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GatewayStats {
    /// WebSocket connections opened.
    pub connections: u64,
    /// IDENTIFYs accepted (each began a new session).
    pub identifies: u64,
    /// RESUMEs accepted.
    pub resumes: u64,
    /// Heartbeats received.
    pub heartbeats: u64,
}

/// One REST request, for tests that check what the bot called.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    /// The path below `/api/v10`.
    pub path: String,
    pub status: u16,
}

pub(crate) struct World {
    pub base_url: String,
    pub gateway_url: String,
    pub token: String,
    pub application: u64,
    pub bot: UserId,
    pub users: BTreeMap<UserId, User>,
    pub guilds: BTreeMap<GuildId, Guild>,
    pub channels: BTreeMap<ChannelId, Channel>,
    pub messages: BTreeMap<MessageId, Message>,
    /// Each message's content, version by version: as posted, then after each edit.
    pub revisions: HashMap<MessageId, Vec<String>>,
    pub commands: Vec<Command>,
    pub interactions: HashMap<InteractionId, Interaction>,
    pub interaction_tokens: HashMap<String, InteractionId>,
    /// The sessions, by shard id. Every session counts the same total of shards.
    pub sessions: BTreeMap<u64, Session>,
    pub next_connection: u64,
    pub controls: HashMap<u64, Control>,
    pub gateway: GatewayStats,
    pub requests: Vec<Request>,
    /// Messages created with `enforce_nonce`, by author and nonce: the same pair again returns
    /// the first message instead of a second ("Create Message", `enforce_nonce`).
    pub nonces: HashMap<(UserId, String), MessageId>,
    /// Set when the `FakeDiscord` is dropped: connections close.
    pub closed: bool,
    /// Set by [`crate::FakeDiscord::forbid_threads`]: starting a thread is refused with 403
    /// 50013 Missing Permissions, as for a bot without Create Public Threads.
    pub threads_forbidden: bool,
    /// Each user's DM channel with the bot, once opened: Discord keeps one per pair of users.
    pub dms: HashMap<UserId, ChannelId>,
    /// Users who take no direct messages from the bot ([`crate::FakeDiscord::refuse_dms`]).
    pub dms_refused: HashSet<UserId>,
}

impl World {
    pub(crate) fn new(base_url: String, gateway_url: String, token: String, application: u64, bot: User) -> Self {
        let bot_id = bot.id;
        World {
            base_url,
            gateway_url,
            token,
            application,
            bot: bot_id,
            users: BTreeMap::from([(bot_id, bot)]),
            guilds: BTreeMap::new(),
            channels: BTreeMap::new(),
            messages: BTreeMap::new(),
            revisions: HashMap::new(),
            commands: Vec::new(),
            interactions: HashMap::new(),
            interaction_tokens: HashMap::new(),
            sessions: BTreeMap::new(),
            next_connection: 0,
            controls: HashMap::new(),
            gateway: GatewayStats::default(),
            requests: Vec::new(),
            nonces: HashMap::new(),
            threads_forbidden: false,
            dms: HashMap::new(),
            dms_refused: HashSet::new(),
            closed: false,
        }
    }

    /// The shard count the bot's sessions identified with.
    pub(crate) fn shard_count(&self) -> Option<u64> {
        self.sessions.values().next().map(|s| s.shard[1])
    }

    /// The shard that receives `guild`'s events, as Discord routes them ("Gateway", Sharding):
    /// `(guild_id >> 22) % shard_count`; events of no guild go to shard 0.
    pub(crate) fn shard_for(&self, guild: Option<GuildId>) -> u64 {
        match (guild, self.shard_count()) {
            (Some(guild), Some(count)) => crate::shard_of(guild, count),
            _ => 0,
        }
    }

    /// Queues a DISPATCH (op 0) about `guild` for the shard that holds it, if that shard has a
    /// session that asked for the event's intent ("Gateway", Gateway Intents); `intent` is
    /// `None` for events every bot receives.
    pub(crate) fn dispatch(
        &mut self,
        guild: Option<GuildId>,
        event: &str,
        data: Value,
        intent: Option<u64>,
        interaction: Option<InteractionId>,
    ) -> bool {
        let shard = self.shard_for(guild);
        self.dispatch_to(shard, event, data, intent, interaction)
    }

    /// Queues a DISPATCH for the session of `shard`, if it has one that wants it.
    pub(crate) fn dispatch_to(
        &mut self,
        shard: u64,
        event: &str,
        data: Value,
        intent: Option<u64>,
        interaction: Option<InteractionId>,
    ) -> bool {
        let Some(session) = self.sessions.get_mut(&shard) else { return false };
        if intent.is_some_and(|bit| session.intents & bit == 0) {
            return false;
        }
        session.seq += 1;
        let payload = serde_json::json!({ "op": 0, "t": event, "s": session.seq, "d": data });
        session.log.push_back(Dispatch { seq: session.seq, text: payload.to_string().into(), interaction });
        while session.log.len() > REPLAY_CAPACITY {
            let dropped = session.log.pop_front().expect("the log is over capacity, so not empty");
            session.dropped_through = dropped.seq;
        }
        true
    }

    /// The session attached to gateway connection `connection`.
    pub(crate) fn session_on(&mut self, connection: u64) -> Option<&mut Session> {
        self.sessions.values_mut().find(|s| s.connection == Some(connection))
    }

    /// The guild a channel belongs to; `None` for a DM.
    pub(crate) fn guild_of(&self, channel: ChannelId) -> Option<GuildId> {
        self.channels.get(&channel).and_then(|c| c.guild)
    }

    /// The guild of a channel where interactions happen: the fake sends none from a DM.
    pub(crate) fn interaction_guild(&self, channel: ChannelId) -> Result<GuildId, Error> {
        self.channel(channel)?.guild.ok_or_else(|| {
            Error::Invalid(format!("channel {channel} is a DM; the fake sends interactions from guilds"))
        })
    }

    pub(crate) fn channel(&self, id: ChannelId) -> Result<&Channel, Error> {
        self.channels.get(&id).ok_or_else(|| Error::Invalid(format!("no channel {id}")))
    }

    pub(crate) fn user(&self, id: UserId) -> Result<&User, Error> {
        self.users.get(&id).ok_or_else(|| Error::Invalid(format!("no user {id}")))
    }

    /// The commands a user in `guild` can invoke: the guild's own, then global ones.
    pub(crate) fn command_named(&self, guild: GuildId, name: &str) -> Option<&Command> {
        let guild_command = self.commands.iter().find(|c| c.guild == Some(guild) && c.name == name);
        guild_command.or_else(|| self.commands.iter().find(|c| c.guild.is_none() && c.name == name))
    }
}

/// The world and its change signal, shared by the server tasks and the test's handle.
pub(crate) struct Shared {
    world: Mutex<World>,
    changed: watch::Sender<u64>,
    pub config: Config,
    pub ids: Snowflakes,
}

impl Shared {
    pub(crate) fn new(world: World, config: Config, ids: Snowflakes) -> Self {
        Shared { world: Mutex::new(world), changed: watch::Sender::new(0), config, ids }
    }

    fn lock(&self) -> MutexGuard<'_, World> {
        // A panic while holding the lock leaves a world that is still consistent enough to read:
        // every mutation is a handful of inserts. Keep serving rather than cascade the panic.
        self.world.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn read<R>(&self, f: impl FnOnce(&World) -> R) -> R {
        f(&self.lock())
    }

    /// Changes the world and wakes everyone waiting on it.
    pub(crate) fn write<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        let result = f(&mut self.lock());
        self.changed.send_modify(|version| *version = version.wrapping_add(1));
        result
    }

    pub(crate) fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    pub(crate) fn mint(&self) -> u64 {
        self.ids.next()
    }

    /// Waits until `check` finds what it looks for, or the configured timeout passes.
    pub(crate) async fn wait_for<R>(
        &self,
        what: impl Display,
        mut check: impl FnMut(&World) -> Option<R>,
    ) -> Result<R, Error> {
        // Subscribe before the first look, so a change between the look and the wait still wakes us.
        let mut changes = self.subscribe();
        let waiting = async {
            loop {
                if let Some(found) = self.read(&mut check) {
                    return found;
                }
                changes.changed().await.expect("the sender lives in `self`, which outlives this wait");
            }
        };
        tokio::time::timeout(self.config.wait_timeout, waiting)
            .await
            .map_err(|_| Error::Timeout { waited: self.config.wait_timeout, what: what.to_string() })
    }
}
