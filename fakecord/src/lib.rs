//! A fake Discord on 127.0.0.1 for testing a real bot: Discord's REST API under `/api/v10` and
//! its WebSocket gateway at `/gateway`, on one port, with a test-facing handle to set up guilds,
//! make users run slash commands, autocomplete and click buttons, and see what the bot answered.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use fakecord::FakeDiscord;
//! use serde_json::json;
//!
//! let fake = FakeDiscord::start().await?;
//! let guild = fake.add_guild("Chimera Club");
//! let lobby = fake.add_channel(guild, "lobby");
//! let alice = fake.add_user("alice");
//! // Start the bot with `HttpBuilder::new(fake.token()).proxy(fake.base_url())
//! //     .ratelimiter_disabled(true)`, then:
//! fake.wait_ready().await?;
//! fake.wait_command("ping").await?;
//! let reply = fake.slash(alice, lobby, "ping", json!({ "word": "hello" }))?.response().await?;
//! assert!(reply.message.content.contains("hello"));
//! # Ok(()) }
//! ```
//!
//! # What serenity 0.12 needs to reach it
//!
//! - `HttpBuilder::new(fake.token()).proxy(fake.base_url())`: serenity replaces
//!   `https://discord.com` in each route with the proxy and keeps `/api/v10/...`.
//! - `.ratelimiter_disabled(true)`: serenity's ratelimiter builds its requests *without* the
//!   proxy, so with it enabled every call would leave for the real discord.com.
//! - Nothing for the gateway: `Client::start` asks `GET /gateway` for the URL and connects to
//!   `{url}?v=10`; the fake answers `ws://127.0.0.1:{port}/gateway`. (Were that request to fail,
//!   serenity would fall back to `wss://gateway.discord.gg`, so the fake always answers it.)
//! - The token is checked as a string only; the fake's has the shape of a real one.
//! - serenity identifies with `compress: true`, so every payload after IDENTIFY arrives as a
//!   zlib buffer in a binary frame, as Discord sends large ones; `?compress=zlib-stream` works too.
//! - serenity sends `attachments` with every interaction update (`UpdateMessage`), listing only
//!   its new files, so a picture that should survive a button click must be uploaded again: the
//!   fake, like Discord, keeps only what the update lists.
//!
//! # What Discord does that the fake does too
//!
//! One callback per interaction, of a type that fits it, within three seconds (else 404 10062);
//! the first follow-up after a deferral replaces the "thinking" placeholder; ephemeral messages
//! reach only their interaction; a thread from a message shares the message's id; content over
//! 2000 characters, empty messages, invalid command names and unknown channels get Discord's
//! error codes; events raised while the bot is disconnected wait for its RESUME; intents filter
//! the events, and privileged ones must be enabled in [`Config`]. Shards: each IDENTIFY names
//! its shard and the total (`[shard, shard_count]`), each shard has its own session, and a
//! guild's events (its GUILD_CREATE in READY's wake, messages, interactions) go to shard
//! `(guild_id >> 22) % shard_count` only ([`shard_of`]), so a bot split across processes by
//! shard ranges can be tested whole; `GET /gateway/bot` recommends [`Config::recommended_shards`].
//! DMs: `POST /users/@me/channels` opens the bot's DM with a user once and returns the same
//! channel after ([`FakeDiscord::dm_channel`]), and a user who takes no DMs
//! ([`FakeDiscord::refuse_dms`]) has the bot's messages there refused with 403 50007.
//!
//! # What it leaves out
//!
//! No rate limits; no permission checks (every user is a member of every guild with
//! ordinary permissions, plus Manage Server after [`FakeDiscord::grant_manage_server`]; the bot
//! may do anything, except start threads after [`FakeDiscord::forbid_threads`]); no
//! interactions or user messages in DMs, no group DMs; no roles, presences, voice, modals' submissions or role and attachment options; no
//! zombie-connection detection (the bot's heartbeats are acknowledged and counted, never required).

// `json!` recurses once per field, and a GUILD_CREATE has more fields than the default allows.
#![recursion_limit = "256"]

mod gateway;
mod ids;
mod interactions;
mod messages;
mod multipart;
mod objects;
mod rest;
mod state;

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

pub use crate::ids::{AttachmentId, ChannelId, CommandId, GuildId, InteractionId, MessageId, UserId};
use crate::interactions::Trigger;
pub use crate::interactions::{Choice, InteractionHandle, Response};
use crate::state::{intents, Channel, ChannelKind, Control, Guild, Shared, User, World};
pub use crate::state::{
    Attachment, CallbackType, Command, Component, GatewayStats, InteractionKind, Message, Request, Timing,
};

/// Why a request to the fake failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The awaited thing did not happen within [`Config::wait_timeout`].
    #[error("timed out after {waited:?} waiting for {what}")]
    Timeout { waited: Duration, what: String },
    /// The bot has no gateway session to send events to.
    #[error("the bot has no gateway session (wait_ready first)")]
    NoSession,
    /// The test asked for something Discord would never send: an unregistered command, an
    /// unknown option, a click on a button that is not there.
    #[error("{0}")]
    Invalid(String),
}

/// The fake's settings; `Config::default()` is Discord's behaviour.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long each wait of the test API waits before it fails.
    pub wait_timeout: Duration,
    /// The interval HELLO tells the bot to heartbeat at; Discord's is about 41.25 s.
    pub heartbeat_interval: Duration,
    /// How long the bot has to call back before the interaction is unknown: three seconds,
    /// counted from when INTERACTION_CREATE reached the bot's socket (Discord counts from the
    /// click, so an event replayed after a RESUME gets more slack here than in production).
    pub interaction_deadline: Duration,
    /// The privileged intents (bits) the application has enabled; IDENTIFY asking for others is
    /// refused with close code 4014, as Discord refuses it.
    pub privileged_intents: u64,
    /// The bot user's name.
    pub bot_name: String,
    /// The shard count `GET /gateway/bot` recommends (a bot that shards automatically uses it).
    pub recommended_shards: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            wait_timeout: Duration::from_secs(20),
            heartbeat_interval: Duration::from_millis(41_250),
            interaction_deadline: Duration::from_secs(3),
            privileged_intents: 0,
            bot_name: "Chimera".into(),
            recommended_shards: 1,
        }
    }
}

/// A thread the bot opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thread {
    pub id: ChannelId,
    pub parent: ChannelId,
    pub name: String,
    pub private: bool,
    pub owner: Option<UserId>,
    /// The message it was started from, whose id it shares.
    pub starter: Option<MessageId>,
}

/// A running fake Discord. Dropping it closes the bot's gateway connection and stops the server.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    address: SocketAddr,
    server: JoinHandle<()>,
}

impl FakeDiscord {
    /// Starts a fake Discord with Discord's own behaviour on a free port of 127.0.0.1.
    pub async fn start() -> std::io::Result<FakeDiscord> {
        Self::start_with(Config::default()).await
    }

    pub async fn start_with(config: Config) -> std::io::Result<FakeDiscord> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let address = listener.local_addr()?;
        let ids = ids::Snowflakes::default();
        // A bot user shares its application's id.
        let application = ids.next();
        let bot = User { id: UserId(application), name: config.bot_name.clone(), bot: true, manager: false };
        let world = World::new(
            format!("http://{address}"),
            format!("ws://{address}/gateway"),
            token_for(application),
            application,
            bot,
        );
        let shared = Arc::new(Shared::new(world, config, ids));
        let app = rest::router(Arc::clone(&shared));
        let server = tokio::spawn(async move {
            // Serving ends only with an accept error on loopback, when the fake is being dropped.
            let _ = axum::serve(listener, app).await;
        });
        Ok(FakeDiscord { shared, address, server })
    }

    /// What `HttpBuilder::proxy` takes: `http://127.0.0.1:{port}`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The URL `GET /gateway` hands out.
    pub fn gateway_url(&self) -> String {
        format!("ws://{}/gateway", self.address)
    }

    pub fn token(&self) -> String {
        self.shared.read(|w| w.token.clone())
    }

    pub fn application_id(&self) -> u64 {
        self.shared.read(|w| w.application)
    }

    pub fn bot_id(&self) -> UserId {
        self.shared.read(|w| w.bot)
    }

    /// Adds a guild the bot is in, announced with GUILD_CREATE if the bot is connected.
    pub fn add_guild(&self, name: &str) -> GuildId {
        let id = GuildId(self.shared.mint());
        self.shared.write(|w| {
            let guild = Guild { id, name: name.to_owned(), owner: w.bot };
            let event = objects::guild_create(w, &guild);
            w.guilds.insert(id, guild);
            w.dispatch(Some(id), "GUILD_CREATE", event, Some(intents::GUILDS), None);
        });
        id
    }

    /// Adds a guild whose id puts it on shard `shard` of `shard_count` (see [`shard_of`]), as
    /// tests of a sharded bot need one on each shard. Ids carry the time they were minted, so
    /// this may wait up to `shard_count` milliseconds for a fitting one.
    ///
    /// # Panics
    /// If `shard` is not below `shard_count`.
    pub fn add_guild_on_shard(&self, name: &str, shard: u64, shard_count: u64) -> GuildId {
        assert!(shard < shard_count, "shard {shard} is not one of {shard_count}");
        let id = loop {
            let id = GuildId(self.shared.mint());
            if shard_of(id, shard_count) == shard {
                break id;
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        self.shared.write(|w| {
            let guild = Guild { id, name: name.to_owned(), owner: w.bot };
            let event = objects::guild_create(w, &guild);
            w.guilds.insert(id, guild);
            w.dispatch(Some(id), "GUILD_CREATE", event, Some(intents::GUILDS), None);
        });
        id
    }

    /// Adds a text channel, announced with CHANNEL_CREATE.
    ///
    /// # Panics
    /// If the guild is not one of the fake's.
    pub fn add_channel(&self, guild: GuildId, name: &str) -> ChannelId {
        let id = ChannelId(self.shared.mint());
        self.shared.write(|w| {
            assert!(w.guilds.contains_key(&guild), "no guild {guild}");
            let channel = Channel {
                id,
                guild: Some(guild),
                recipient: None,
                name: name.to_owned(),
                kind: ChannelKind::GuildText,
                parent: None,
                owner: None,
                auto_archive_minutes: 4320,
                last_message: None,
                message_count: 0,
            };
            w.dispatch(Some(guild), "CHANNEL_CREATE", objects::channel(w, &channel), Some(intents::GUILDS), None);
            w.channels.insert(id, channel);
        });
        id
    }

    /// Removes the bot from `guild`, as a kick, a ban or the guild's deletion does: the bot is
    /// sent GUILD_DELETE (without `unavailable`, which marks an outage instead), and the guild's
    /// channels answer 404 Unknown Channel from then on.
    pub fn remove_guild(&self, guild: GuildId) {
        self.shared.write(|w| {
            w.dispatch(
                Some(guild),
                "GUILD_DELETE",
                json!({ "id": guild.get().to_string() }),
                Some(intents::GUILDS),
                None,
            );
            w.guilds.remove(&guild);
            w.channels.retain(|_, c| c.guild != Some(guild));
        });
    }

    /// From now on starting a thread is refused (`true`) with 403 50013 Missing Permissions, as
    /// Discord refuses a bot that lost Create Public Threads, or allowed again (`false`).
    pub fn forbid_threads(&self, forbidden: bool) {
        self.shared.write(|w| w.threads_forbidden = forbidden);
    }

    /// The bot's DM channel with `user`, once the bot has opened it ("Create DM").
    pub fn dm_channel(&self, user: UserId) -> Option<ChannelId> {
        self.shared.read(|w| w.dms.get(&user).copied())
    }

    /// From now on `user` takes no direct messages from the bot, as a user who turned off DMs
    /// from server members (or blocked the bot): opening their DM still works, as on Discord,
    /// but every message the bot posts there is refused with 403 50007 Cannot send messages to
    /// this user.
    pub fn refuse_dms(&self, user: UserId) {
        self.shared.write(|w| w.dms_refused.insert(user));
    }

    /// Gives `user` the Manage Server permission in every guild, as a server's admins have it.
    pub fn grant_manage_server(&self, user: UserId) {
        self.shared.write(|w| {
            if let Some(user) = w.users.get_mut(&user) {
                user.manager = true;
            }
        });
    }

    /// Adds a person, a member of every guild (GUILD_MEMBER_ADD for bots with that intent).
    pub fn add_user(&self, name: &str) -> UserId {
        let id = UserId(self.shared.mint());
        self.shared.write(|w| {
            let user = User { id, name: name.to_owned(), bot: false, manager: false };
            let joins: Vec<(GuildId, Value)> = w
                .guilds
                .values()
                .map(|g| {
                    let mut member = objects::member(g, &user);
                    member["guild_id"] = json!(g.id.to_string());
                    (g.id, member)
                })
                .collect();
            w.users.insert(id, user);
            for (guild, member) in joins {
                w.dispatch(Some(guild), "GUILD_MEMBER_ADD", member, Some(intents::GUILD_MEMBERS), None);
            }
        });
        id
    }

    /// Waits until the bot holds a session on a live connection and has been sent everything
    /// queued for it: after IDENTIFY, READY and every GUILD_CREATE; after RESUME, the replay.
    /// With several shards, every session the bot has opened.
    pub async fn wait_ready(&self) -> Result<(), Error> {
        self.shared
            .wait_for("the bot to identify and receive READY", |w| {
                (!w.sessions.is_empty() && w.sessions.values().all(session_ready)).then_some(())
            })
            .await
    }

    /// [`FakeDiscord::wait_ready`] for the session of one shard.
    pub async fn wait_shard_ready(&self, shard: u64) -> Result<(), Error> {
        self.shared
            .wait_for(format!("shard {shard} to identify and receive READY"), |w| {
                w.sessions.get(&shard).filter(|s| session_ready(s)).map(drop)
            })
            .await
    }

    /// The shards the bot holds sessions for, and the total they count.
    pub fn shards(&self) -> (Vec<u64>, Option<u64>) {
        self.shared.read(|w| (w.sessions.keys().copied().collect(), w.shard_count()))
    }

    /// The value Discord sends for the choice named `name` (any case) of a registered command's
    /// option, as the bot declared it (poise numbers its choices); `command` may name a
    /// subcommand, as in `"tournament create"`. Panics, naming what is missing, when the bot
    /// registered no such command, option or choice: a test asked for what is not there.
    pub fn choice(&self, command: &str, option: &str, name: &str) -> Value {
        let mut path = command.split(' ');
        let top = path.next().expect("a command");
        let commands = self.registered_commands();
        let found = commands.iter().find(|c| c.name == top).unwrap_or_else(|| panic!("no /{top}"));
        let mut options = found.json["options"].as_array().cloned().unwrap_or_default();
        for sub in path {
            let sub = options.iter().find(|o| o["name"] == sub).unwrap_or_else(|| panic!("no /{command}"));
            options = sub["options"].as_array().cloned().unwrap_or_default();
        }
        let option = options.iter().find(|o| o["name"] == option).unwrap_or_else(|| panic!("no option {option}"));
        let choices = option["choices"].as_array().cloned().unwrap_or_default();
        let found = choices.iter().find(|c| c["name"].as_str().is_some_and(|n| n.eq_ignore_ascii_case(name)));
        found.unwrap_or_else(|| panic!("no choice {name} in {choices:?}"))["value"].clone()
    }

    /// Every command the bot registered, global and per guild.
    pub fn registered_commands(&self) -> Vec<Command> {
        self.shared.read(|w| w.commands.clone())
    }

    /// Waits until the bot has registered a command of that name.
    pub async fn wait_command(&self, name: &str) -> Result<Command, Error> {
        self.shared
            .wait_for(format!("the bot to register /{name}"), |w| w.commands.iter().find(|c| c.name == name).cloned())
            .await
    }

    /// `user` runs a slash command in `channel` (INTERACTION_CREATE, type 2 APPLICATION_COMMAND).
    ///
    /// `invocation` is the command and any subcommands, as typed: `"ping"`, `"game move"`.
    /// `args` maps option names to values, `{"word": "hi", "opponent": user_id}`; the registered
    /// command's option types decide how each is sent.
    pub fn slash(
        &self,
        user: UserId,
        channel: ChannelId,
        invocation: &str,
        args: Value,
    ) -> Result<InteractionHandle, Error> {
        interactions::trigger(
            &self.shared,
            Trigger { kind: InteractionKind::ApplicationCommand, user, channel: Some(channel), source_message: None },
            move |w, channel| interactions::command_data(w, channel, invocation, &args, None),
        )
    }

    /// `user` is typing option `focused` of a slash command (INTERACTION_CREATE, type 4
    /// APPLICATION_COMMAND_AUTOCOMPLETE); its value in `args` is the partial text.
    pub fn autocomplete(
        &self,
        user: UserId,
        channel: ChannelId,
        invocation: &str,
        args: Value,
        focused: &str,
    ) -> Result<InteractionHandle, Error> {
        interactions::trigger(
            &self.shared,
            Trigger { kind: InteractionKind::Autocomplete, user, channel: Some(channel), source_message: None },
            move |w, channel| interactions::command_data(w, channel, invocation, &args, Some(focused)),
        )
    }

    /// `user` clicks the button `custom_id` on a message (INTERACTION_CREATE, type 3
    /// MESSAGE_COMPONENT).
    pub fn click(&self, user: UserId, message: MessageId, custom_id: &str) -> Result<InteractionHandle, Error> {
        self.component(user, message, custom_id, None)
    }

    /// `user` picks `values` in the string select `custom_id` on a message.
    pub fn select(
        &self,
        user: UserId,
        message: MessageId,
        custom_id: &str,
        values: &[&str],
    ) -> Result<InteractionHandle, Error> {
        self.component(user, message, custom_id, Some(values))
    }

    fn component(
        &self,
        user: UserId,
        message: MessageId,
        custom_id: &str,
        values: Option<&[&str]>,
    ) -> Result<InteractionHandle, Error> {
        interactions::trigger(
            &self.shared,
            Trigger { kind: InteractionKind::MessageComponent, user, channel: None, source_message: Some(message) },
            move |w, _| interactions::component_data(w, message, custom_id, values),
        )
    }

    /// The messages everyone can see in a channel or thread, oldest first (ephemeral ones are
    /// only in their interaction's [`Response`]).
    pub fn messages_in(&self, channel: ChannelId) -> Vec<Message> {
        self.shared
            .read(|w| w.messages.values().filter(|m| m.channel_id == channel && !m.is_ephemeral()).cloned().collect())
    }

    /// A message as it stands now.
    pub fn message(&self, id: MessageId) -> Option<Message> {
        self.shared.read(|w| w.messages.get(&id).cloned())
    }

    /// The content a message had, version by version: as posted (an interaction's "thinking"
    /// placeholder is empty), then after each edit, the last as it stands now. Kept after the
    /// message is deleted; empty for a message the fake never had.
    pub fn revisions(&self, id: MessageId) -> Vec<String> {
        self.shared.read(|w| w.revisions.get(&id).cloned().unwrap_or_default())
    }

    /// Waits for a message in the channel that satisfies `matches`.
    pub async fn wait_message(&self, channel: ChannelId, matches: impl Fn(&Message) -> bool) -> Result<Message, Error> {
        self.shared
            .wait_for(format!("a matching message in channel {channel}"), |w| {
                w.messages.values().find(|m| m.channel_id == channel && !m.is_ephemeral() && matches(m)).cloned()
            })
            .await
    }

    /// Waits for a message in the bot's DM with `user` that satisfies `matches` (the DM opened
    /// meanwhile, if it was not yet).
    pub async fn wait_dm_message(&self, user: UserId, matches: impl Fn(&Message) -> bool) -> Result<Message, Error> {
        self.shared
            .wait_for(format!("a matching message in the DM with user {user}"), |w| {
                let dm = *w.dms.get(&user)?;
                w.messages.values().find(|m| m.channel_id == dm && matches(m)).cloned()
            })
            .await
    }

    /// The threads opened in a channel, oldest first.
    pub fn threads_of(&self, channel: ChannelId) -> Vec<Thread> {
        self.shared.read(|w| {
            w.channels
                .values()
                .filter(|c| c.parent == Some(channel))
                .map(|c| Thread {
                    id: c.id,
                    parent: channel,
                    name: c.name.clone(),
                    private: c.kind == ChannelKind::PrivateThread,
                    owner: c.owner,
                    starter: Some(MessageId(c.id.get())).filter(|m| w.messages.contains_key(m)),
                })
                .collect()
        })
    }

    /// Sends op 7 RECONNECT: the bot should reconnect and RESUME.
    pub fn reconnect(&self) -> Result<(), Error> {
        self.control(Control::Reconnect)
    }

    /// Drops the bot's connection without a close frame, as a network failure would.
    pub fn drop_connection(&self) -> Result<(), Error> {
        self.control(Control::Drop)
    }

    /// Sends op 9 INVALID_SESSION (not resumable): the bot must IDENTIFY afresh.
    pub fn invalidate_session(&self) -> Result<(), Error> {
        self.control(Control::Invalidate)
    }

    /// Acts on the connection of every session (one, unless the bot runs several shards).
    fn control(&self, control: Control) -> Result<(), Error> {
        self.shared.write(|w| {
            let connections: Vec<u64> = w.sessions.values().filter_map(|s| s.connection).collect();
            if connections.is_empty() {
                return Err(Error::NoSession);
            }
            for connection in connections {
                w.controls.insert(connection, control);
            }
            Ok(())
        })
    }

    pub fn gateway_stats(&self) -> GatewayStats {
        self.shared.read(|w| w.gateway)
    }

    /// Waits until the gateway's counters satisfy `reached`.
    pub async fn wait_gateway(
        &self,
        what: &str,
        reached: impl Fn(&GatewayStats) -> bool,
    ) -> Result<GatewayStats, Error> {
        self.shared.wait_for(what, |w| reached(&w.gateway).then_some(w.gateway)).await
    }

    /// How long the bot took over each interaction it answered, in the order they were sent.
    pub fn timings(&self) -> Vec<Timing> {
        self.shared.read(|w| {
            let mut timings: Vec<Timing> = w.interactions.values().filter_map(|i| i.timing()).collect();
            timings.sort_by_key(|t| t.interaction);
            timings
        })
    }

    /// Every REST request the bot made, in order.
    pub fn requests(&self) -> Vec<Request> {
        self.shared.read(|w| w.requests.clone())
    }
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        self.shared.write(|w| w.closed = true);
        self.server.abort();
    }
}

/// The shard that receives a guild's events when the bot runs `shard_count` shards, as Discord
/// routes them ("Gateway", Sharding): `(guild_id >> 22) % shard_count`.
pub fn shard_of(guild: GuildId, shard_count: u64) -> u64 {
    (guild.get() >> 22) % shard_count.max(1)
}

/// A session has a live connection and has been sent everything queued for it.
fn session_ready(session: &state::Session) -> bool {
    session.connection.is_some() && session.seq > 0 && session.delivered == session.seq
}

/// A token shaped like Discord's: the bot's id in base64, a timestamp part and a signature part.
fn token_for(application: u64) -> String {
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let id = base64::engine::general_purpose::STANDARD_NO_PAD.encode(application.to_string());
    let stamp = b64.encode(&(application >> 22).to_be_bytes()[2..]);
    let signature = b64.encode(format!("fakecord-{application:x}-signature"));
    format!("{id}.{stamp}.{signature}")
}
